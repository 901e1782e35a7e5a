//! Customers and products (spec §7): lists with name search, id lists and paging, and one by id.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;

use super::{DataAnswer, ListAnswer, Meta};
use crate::auth::Auth;
use crate::db::customers::{self, Customer, CustomerFilter};
use crate::db::products::{self, Product, ProductFilter};
use crate::error::AppResult;
use crate::state::AppState;
use crate::web::list::Paging;

#[derive(Deserialize, Default)]
pub struct SearchQuery {
    name: Option<String>,
    code: Option<String>,
    /// Comma-separated ids.
    ids: Option<String>,
    page: Option<i64>,
    per_page: Option<i64>,
}

impl SearchQuery {
    fn paging(&self) -> Paging {
        Paging { page: self.page, per_page: self.per_page }
    }
    fn ids(&self) -> Option<Vec<i64>> {
        self.ids.as_deref().map(|s| s.split(',').filter_map(|p| p.trim().parse().ok()).collect())
    }
}

/// `GET /api/customers?name=&ids=&page=&per_page=`.
pub async fn customers(State(state): State<AppState>, auth: Auth, Query(q): Query<SearchQuery>) -> AppResult<Json<ListAnswer<Customer>>> {
    let req = q.paging().resolve(20);
    let org = auth.org_id;
    let filter = CustomerFilter { key: q.name.clone(), ids: q.ids.clone(), ..Default::default() };
    let page = state.db.run(move |c| customers::list(c, org, &filter, req.offset(), req.per_page)).await?;
    Ok(Json(ListAnswer { data: page.rows, meta: Meta { total: page.total, current_page: req.page, per_page: req.per_page } }))
}

/// `GET /api/customers/{id}`.
pub async fn customer(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<Customer>>> {
    let org = auth.org_id;
    Ok(Json(DataAnswer { data: state.db.run(move |c| customers::customer(c, org, id)).await? }))
}

/// `GET /api/products?name=|code=&ids=&page=&per_page=` (name and code use the Item Key search).
pub async fn products(State(state): State<AppState>, auth: Auth, Query(q): Query<SearchQuery>) -> AppResult<Json<ListAnswer<Product>>> {
    let org = auth.org_id;
    if let Some(ids) = q.ids() {
        let rows = state.db.run(move |c| products::by_ids(c, org, &ids)).await?;
        return Ok(Json(ListAnswer::all(rows)));
    }
    let req = q.paging().resolve(20);
    let filter = ProductFilter { key: q.name.clone().or(q.code.clone()), ..Default::default() };
    let page = state.db.run(move |c| products::list(c, org, &filter, req.offset(), req.per_page)).await?;
    Ok(Json(ListAnswer { data: page.rows, meta: Meta { total: page.total, current_page: req.page, per_page: req.per_page } }))
}

/// `GET /api/products/{id}`.
pub async fn product(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<Product>>> {
    let org = auth.org_id;
    Ok(Json(DataAnswer { data: state.db.run(move |c| products::product(c, org, id)).await? }))
}
