//! The JSON envelopes of spec §7 (`{data}`, `{data, meta}`) and a JSON body whose refusal
//! is the app's own, for the staff API and the shop's alike.

use axum::extract::{FromRequest, Request};
use serde::Serialize;
use serde::de::DeserializeOwned;

use db::error::AppError;

/// A JSON body whose rejection uses the app's error format.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Self(v)),
            Err(e) => Err(AppError::bad_request(e.body_text())),
        }
    }
}

/// `meta` of a list answer.
#[derive(Serialize, Debug)]
pub struct Meta {
    pub total: i64,
    /// True when more rows match than `total` (the count stopped at its cap; issue 10).
    #[serde(rename = "totalCapped")]
    pub total_capped: bool,
    pub current_page: i64,
    pub per_page: i64,
}

impl Meta {
    /// The meta of one page; `count` is the list's count (see `limits::count_limit`).
    pub fn page(count: i64, req: &super::query::PageReq) -> Self {
        let (total, total_capped) = domain::limits::counted(count, req.offset());
        Self { total, total_capped, current_page: req.page, per_page: req.per_page }
    }
}

/// `{data, meta}` list answer (spec §7).
#[derive(Serialize, Debug)]
pub struct ListAnswer<T: Serialize> {
    pub data: Vec<T>,
    pub meta: Meta,
}

impl<T: Serialize> ListAnswer<T> {
    /// An unpaged list: everything on page 1.
    pub fn all(data: Vec<T>) -> Self {
        let total = data.len() as i64;
        Self { data, meta: Meta { total, total_capped: false, current_page: 1, per_page: total } }
    }
}

/// `{data}` single answer.
#[derive(Serialize, Debug)]
pub struct DataAnswer<T: Serialize> {
    pub data: T,
}
