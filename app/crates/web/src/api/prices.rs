//! Quoting, OCOP and standard prices over JSON (spec §7): `quotings`, `ocops`,
//! `ocops/{id}`, `ag/ocops` import, `products/{id}/price`.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};

use crate::http::json::{ApiJson, DataAnswer, ListAnswer, Meta};
use crate::auth::Auth;
use db::ocops::ProductPrice;
use db::error::{AppError, AppResult};
use services::ocop_import;
use services::prices::{self, OcopOfProduct, PriceChange, PriceInput};
use services::quoting::{self, QuoteFilter};
use crate::state::AppState;
use crate::http::query::Filters;

/// A lookup row; cost and reference purchase price only for those who may see cost.
#[derive(Serialize)]
pub struct QuoteJson {
    id: i64,
    code: String,
    name: String,
    tag4: String,
    stock: i64,
    #[serde(rename = "stock_3rdP")]
    third_party: i64,
    stocks: Vec<quoting::WarehouseStock>,
    prices: Vec<services::pricing::LabelledPrice>,
    #[serde(rename = "unitPrice")]
    unit_price: i64,
    #[serde(rename = "standardPrice")]
    standard: i64,
    #[serde(rename = "specialPrice")]
    special: i64,
    #[serde(rename = "costPrice", skip_serializing_if = "Option::is_none")]
    cost: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ref_pur: Option<i64>,
}

/// `GET /api/quotings` with the lookup's filters (`csr` = customer id).
pub async fn quotings(State(state): State<AppState>, auth: Auth, f: Filters<QuoteFilter>) -> AppResult<Json<ListAnswer<QuoteJson>>> {
    let org = auth.org_id;
    let sight = auth.sight();
    let req = f.paging.resolve(20);
    let filter = f.value;
    let page = state.db.run(move |c| quoting::lookup(c, org, &filter, req.offset(), req.per_page)).await?;
    let data = page
        .rows
        .into_iter()
        .map(|r| {
            let p = r.product;
            QuoteJson {
                id: p.id,
                code: p.code,
                name: p.name,
                tag4: p.tag4,
                stock: r.stock,
                third_party: p.stock_3rd_party,
                stocks: r.per_warehouse,
                unit_price: r.quote.as_ref().map(|q| q.unit_price.0).unwrap_or(p.class_a_price),
                prices: r.quote.map(|q| q.prices).unwrap_or_default(),
                standard: p.standard_price,
                special: p.special_price,
                cost: sight.cost(p.cost_price).map(|c| c.0),
                ref_pur: sight.cost(p.ref_pur).map(|c| c.0),
            }
        })
        .collect();
    Ok(Json(ListAnswer { data, meta: Meta::page(page.total, &req) }))
}

#[derive(Deserialize)]
pub struct OcopQuery {
    #[serde(rename = "customerId")]
    customer_id: Option<i64>,
    page: Option<i64>,
    per_page: Option<i64>,
}

/// `GET /api/ocops?customerId=`: one customer's OCOP prices.
pub async fn by_customer(State(state): State<AppState>, auth: Auth, Query(q): Query<OcopQuery>) -> AppResult<Json<ListAnswer<ProductPrice>>> {
    let org = auth.org_id;
    let customer = q.customer_id.ok_or_else(|| AppError::field("customerId", "Give the customer."))?;
    let req = crate::http::query::Paging { page: q.page, per_page: q.per_page }.resolve(20);
    let page = state.db.run(move |c| prices::ocops_of_customer(c, org, customer, req.offset(), req.per_page)).await?;
    Ok(Json(ListAnswer { data: page.rows, meta: Meta::page(page.total, &req) }))
}

/// `GET /api/ocops/{productId}`: every customer with an OCOP price for the product.
pub async fn of_product(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<OcopOfProduct>>> {
    let org = auth.org_id;
    let data = state.db.run(move |c| prices::ocop_of_product(c, org, id)).await?;
    Ok(Json(DataAnswer { data }))
}

#[derive(Deserialize)]
pub struct OcopEntry {
    id: i64,
    price: i64,
}

#[derive(Deserialize)]
pub struct OcopPut {
    prices: Vec<OcopEntry>,
}

#[derive(Serialize)]
pub struct Done {
    message: &'static str,
}

/// `PUT /api/ocops/{productId}` with `{prices: [{id: customerId, price}]}`: the full list.
pub async fn put(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(body): ApiJson<OcopPut>) -> AppResult<Json<Done>> {
    let (org, user) = (auth.org_id, auth.user_id);
    let list: Vec<(i64, i64)> = body.prices.iter().map(|p| (p.id, p.price)).collect();
    state.db.write(move |c| prices::replace_ocops(c, org, user, id, &list)).await?;
    Ok(Json(Done { message: "Operation successful" }))
}

/// `POST /api/ag/ocops` (multipart `file`, one xlsx): columns Item Code, Customer Code
/// (or Customer), Price; every row is checked and either all apply or none.
pub async fn import(State(state): State<AppState>, auth: Auth, upload: crate::http::upload::Upload) -> AppResult<Json<Done>> {
    let applied = ocop_import::import(&state.db, auth.org_id, auth.user_id, upload.file).await?;
    tracing::info!(rows = applied, "OCOP prices imported");
    Ok(Json(Done { message: "Operation Success" }))
}

/// `POST /api/products/{id}/price` (the standard price dialog; needs modPrc).
pub async fn set_price(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(body): ApiJson<PriceInput>) -> AppResult<Json<Done>> {
    let (org, user, mod_prc) = (auth.org_id, auth.user_id, auth.mod_prc);
    state.db.write(move |c| prices::set_prices(c, org, user, mod_prc, id, &body)).await?;
    Ok(Json(Done { message: "Operation successful" }))
}

/// `GET /api/products/{id}/price-changes`: who changed the prices and when.
pub async fn price_changes(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<Vec<PriceChange>>>> {
    let org = auth.org_id;
    let rows = state.db.run(move |c| prices::changes(c, org, id)).await?;
    Ok(Json(DataAnswer { data: rows }))
}
