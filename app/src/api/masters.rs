//! Customers and products (spec §7): list with name search and paging, and one by id.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;

use super::{DataAnswer, ListAnswer, Meta};
use crate::auth::Auth;
use crate::db::masters::{self, Customer, Product};
use crate::error::AppResult;
use crate::state::AppState;
use crate::web::list::Paging;

#[derive(Deserialize)]
pub struct NameQuery {
    name: Option<String>,
    page: Option<i64>,
    per_page: Option<i64>,
}

impl NameQuery {
    fn paging(&self) -> Paging {
        Paging { page: self.page, per_page: self.per_page }
    }
}

/// `GET /api/customers?name=&page=&per_page=`.
pub async fn customers(State(state): State<AppState>, auth: Auth, Query(q): Query<NameQuery>) -> AppResult<Json<ListAnswer<Customer>>> {
    let req = q.paging().resolve(20);
    let org = auth.org_id;
    let page = state.db.run(move |c| masters::customers_page(c, org, q.name.as_deref(), req.offset(), req.per_page)).await?;
    Ok(Json(ListAnswer { data: page.rows, meta: Meta { total: page.total, current_page: req.page, per_page: req.per_page } }))
}

/// `GET /api/customers/{id}`.
pub async fn customer(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<Customer>>> {
    let org = auth.org_id;
    Ok(Json(DataAnswer { data: state.db.run(move |c| masters::customer(c, org, id)).await? }))
}

/// `GET /api/products?name=&page=&per_page=`.
pub async fn products(State(state): State<AppState>, auth: Auth, Query(q): Query<NameQuery>) -> AppResult<Json<ListAnswer<Product>>> {
    let req = q.paging().resolve(20);
    let org = auth.org_id;
    let page = state.db.run(move |c| masters::products_page(c, org, q.name.as_deref(), req.offset(), req.per_page)).await?;
    Ok(Json(ListAnswer { data: page.rows, meta: Meta { total: page.total, current_page: req.page, per_page: req.per_page } }))
}

/// `GET /api/products/{id}`.
pub async fn product(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<Product>>> {
    let org = auth.org_id;
    Ok(Json(DataAnswer { data: state.db.run(move |c| masters::product(c, org, id)).await? }))
}
