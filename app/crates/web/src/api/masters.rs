//! Customers, products and suppliers (spec §7): lists with name search, id lists and paging,
//! one by id, create and update (through the same services as the HTML forms), supplier
//! suggestions and a customer's balance.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::http::json::{ApiJson, DataAnswer, ListAnswer, Meta};
use crate::auth::Auth;
use db::customers::{self, Customer, CustomerFilter};
use db::masters::{self as master_db, SupplierRef};
use db::products::{self, Product, ProductFilter, ProductJson};
use domain::permissions::Sight;
use domain::masters::{CustomerInput, ProductInput};
use db::error::{AppError, AppResult};
use services::pricing::{self, LabelledPrice};
use services::masters as service;
use crate::state::AppState;
use crate::http::download;
use services::exports;
use crate::http::query::{Paging, wants_xlsx};

/// The most ids one `ids=` list may name: a sheet's lines.
const IDS_MAX: usize = domain::limits::LINES_MAX;

#[derive(Deserialize, Default)]
pub struct SearchQuery {
    name: Option<String>,
    code: Option<String>,
    /// Prices for this customer (unit price by price strategy, OCOP).
    #[serde(rename = "customerId")]
    customer_id: Option<i64>,
    /// Stock in this warehouse (all warehouses otherwise).
    #[serde(rename = "warehouseId")]
    warehouse_id: Option<i64>,
    /// Comma-separated ids.
    ids: Option<String>,
    page: Option<i64>,
    per_page: Option<i64>,
    /// `xlsx` answers the list screen's spreadsheet of every match instead of a JSON page.
    format: Option<String>,
}

impl SearchQuery {
    fn paging(&self) -> Paging {
        Paging { page: self.page, per_page: self.per_page }
    }
    /// The `ids=` list: at most a sheet's worth (its lines' products), so one query
    /// answers it.
    fn ids(&self) -> AppResult<Option<Vec<i64>>> {
        let Some(raw) = self.ids.as_deref() else { return Ok(None) };
        let ids: Vec<i64> = raw.split(',').filter_map(|p| p.trim().parse().ok()).collect();
        if ids.len() > IDS_MAX {
            return Err(AppError::field("ids", format!("Ask for at most {IDS_MAX} ids at a time.")));
        }
        Ok(Some(ids))
    }
}

/// `GET /api/customers?name=&ids=&page=&per_page=&format=`.
pub async fn customers(State(state): State<AppState>, auth: Auth, Query(q): Query<SearchQuery>) -> AppResult<Response> {
    let req = q.paging().resolve(20);
    let org = auth.org_id;
    let filter = CustomerFilter { key: q.name.clone(), ids: q.ids.clone(), ..Default::default() }.in_zone(auth.zone);
    if wants_xlsx(q.format.as_deref())? {
        return download::xlsx("csr.xlsx", exports::customers(&state, org, filter).await?).await;
    }
    let today = domain::dates::today(auth.zone);
    let (page, overdue) = state
        .db
        .run(move |c| {
            let page = customers::list(c, org, &filter, req.offset(), req.per_page)?;
            let ids: Vec<i64> = page.rows.iter().map(|r| r.id).collect();
            let overdue = db::orders::overdue_by_customers(c, org, &ids, today)?;
            Ok((page, overdue))
        })
        .await?;
    let data: Vec<CustomerJson> = page.rows.into_iter().map(|c| CustomerJson { overdue: overdue.get(&c.id).map_or(0, |a| a.0), customer: c }).collect();
    Ok(Json(ListAnswer { data, meta: Meta::page(page.total, &req) }).into_response())
}

/// A customer as the JSON answers give it, with their overdue amount in cents: what Xero's
/// payments last said is due on their sent invoices past due (issue 31).
#[derive(Serialize)]
pub struct CustomerJson {
    #[serde(flatten)]
    customer: db::customers::Customer,
    overdue: i64,
}

/// `GET /api/customers/{id}`.
pub async fn customer(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<CustomerJson>>> {
    let (org, today) = (auth.org_id, domain::dates::today(auth.zone));
    let data = state
        .db
        .run(move |c| {
            let customer = customers::customer(c, org, id)?;
            let overdue = db::orders::overdue_by_customers(c, org, &[id], today)?.get(&id).map_or(0, |a| a.0);
            Ok(CustomerJson { customer, overdue })
        })
        .await?;
    Ok(Json(DataAnswer { data }))
}

/// A product as the pickers need it: stock, the customer's unit price and the prices list.
#[derive(Serialize)]
pub struct ProductHit {
    #[serde(flatten)]
    product: ProductJson,
    stock: i64,
    #[serde(rename = "unitPrice")]
    unit_price: i64,
    prices: Vec<LabelledPrice>,
}

fn hits(c: &mut db::DbConn, org: i64, rows: Vec<Product>, customer: Option<i64>, warehouse: Option<i64>, sight: Sight) -> AppResult<Vec<ProductHit>> {
    let ids: Vec<i64> = rows.iter().map(|p| p.id).collect();
    let quotes = pricing::quotes(c, org, &ids, customer)?;
    let stock = match warehouse {
        Some(w) => db::stock::of_products(c, org, &ids)?.into_iter().filter(|r| r.1 == w).map(|r| (r.0, r.2)).collect(),
        None => products::stock_totals(c, org, &ids)?,
    };
    Ok(rows
        .into_iter()
        .map(|p| {
            let q = quotes.get(&p.id);
            ProductHit {
                stock: stock.get(&p.id).copied().unwrap_or(0),
                unit_price: q.map(|q| q.unit_price.0).unwrap_or(p.class_a_price),
                prices: q.map(|q| q.prices.clone()).unwrap_or_default(),
                product: ProductJson::new(p, sight),
            }
        })
        .collect())
}

/// `GET /api/products?name=|code=&ids=&customerId=&warehouseId=&page=&per_page=&format=` (name
/// and code use the Item Key search that understands tyre sizes; `format=xlsx` answers the
/// product screen's spreadsheet of every match).
pub async fn products(State(state): State<AppState>, auth: Auth, Query(q): Query<SearchQuery>) -> AppResult<Response> {
    let org = auth.org_id;
    let (customer, warehouse, sight) = (q.customer_id, q.warehouse_id, auth.sight());
    let xlsx = wants_xlsx(q.format.as_deref())?;
    if let Some(ids) = q.ids()? {
        if xlsx {
            return download::xlsx("products.xlsx", exports::products_by_id(&state, org, auth.zone, ids).await?).await;
        }
        let rows = state.db.run(move |c| { let rows = products::by_ids(c, org, &ids)?; hits(c, org, rows, customer, warehouse, sight) }).await?;
        return Ok(Json(ListAnswer::all(rows)).into_response());
    }
    let filter = ProductFilter { key: q.name.clone().or(q.code.clone()), ..Default::default() }.in_zone(auth.zone);
    if xlsx {
        return download::xlsx("products.xlsx", exports::products(&state, org, filter).await?).await;
    }
    let req = q.paging().resolve(20);
    let (rows, total) = state
        .db
        .run(move |c| {
            let page = products::list(c, org, &filter, req.offset(), req.per_page)?;
            Ok((hits(c, org, page.rows, customer, warehouse, sight)?, page.total))
        })
        .await?;
    Ok(Json(ListAnswer { data: rows, meta: Meta::page(total, &req) }).into_response())
}

#[derive(Deserialize)]
pub struct LotsQuery {
    #[serde(rename = "warehouseId")]
    warehouse_id: Option<i64>,
}

/// `GET /api/products/{id}/lots?warehouseId=`: a tracked product's stock by DOT code in the
/// warehouse (every warehouse without one), oldest first, with ages: what the line editor
/// lists when a tyre is picked (issue 36). Quantities only; another company's product is
/// not found.
pub async fn product_lots(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, Query(q): Query<LotsQuery>) -> AppResult<Json<ListAnswer<crate::pages::orders::form::IslandLot>>> {
    let (org, today) = (auth.org_id, domain::dates::today(auth.zone));
    let lots = state
        .db
        .run(move |c| {
            if !products::product(c, org, id)?.dot_tracked {
                return Ok(Vec::new());
            }
            let mut by_code = std::collections::BTreeMap::<i32, i64>::new();
            for l in db::lots::of_products(c, org, &[id])?.into_iter().filter(|l| q.warehouse_id.is_none_or(|w| w == l.warehouse_id)) {
                *by_code.entry(l.dot).or_default() += l.on_hand;
            }
            Ok(by_code.into_iter().collect::<Vec<_>>())
        })
        .await?;
    Ok(Json(ListAnswer::all(crate::pages::orders::form::IslandLot::list(&lots, today))))
}

/// `GET /api/products/{id}`.
pub async fn product(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<ProductJson>>> {
    let org = auth.org_id;
    let p = state.db.run(move |c| products::product(c, org, id)).await?;
    Ok(Json(DataAnswer { data: ProductJson::new(p, auth.sight()) }))
}

/// `POST /api/products`: 201 with the new product; 422 `{message, errors}` when invalid.
pub async fn create_product(State(state): State<AppState>, auth: Auth, ApiJson(input): ApiJson<ProductInput>) -> AppResult<(StatusCode, Json<DataAnswer<ProductJson>>)> {
    let p = service::create_product(&state, &domain::Actor::from(&auth), input).await?;
    Ok((StatusCode::CREATED, Json(DataAnswer { data: ProductJson::new(p, auth.sight()) })))
}

/// `PUT /api/products/{id}`: needs the `version` read; 409 when someone saved meanwhile.
pub async fn update_product(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(input): ApiJson<ProductInput>) -> AppResult<Json<DataAnswer<ProductJson>>> {
    let p = service::update_product(&state, &domain::Actor::from(&auth), id, input).await?;
    Ok(Json(DataAnswer { data: ProductJson::new(p, auth.sight()) }))
}

/// `POST /api/customers`: 201 with the new customer; 403 without permission, 422 when invalid.
pub async fn create_customer(State(state): State<AppState>, auth: Auth, ApiJson(input): ApiJson<CustomerInput>) -> AppResult<(StatusCode, Json<DataAnswer<Customer>>)> {
    let data = service::create_customer(&state, &domain::Actor::from(&auth), input).await?;
    Ok((StatusCode::CREATED, Json(DataAnswer { data })))
}

/// `PUT /api/customers/{id}`: needs the `version` read; 409 when someone saved meanwhile.
pub async fn update_customer(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(input): ApiJson<CustomerInput>) -> AppResult<Json<DataAnswer<Customer>>> {
    Ok(Json(DataAnswer { data: service::update_customer(&state, &domain::Actor::from(&auth), id, input).await? }))
}

#[derive(Deserialize, Default)]
pub struct SupplierQuery {
    name: Option<String>,
    page: Option<i64>,
    per_page: Option<i64>,
}

/// `GET /api/suppliers?name=`: suppliers whose code or name contains the words, as id and name.
pub async fn suppliers(State(state): State<AppState>, auth: Auth, Query(q): Query<SupplierQuery>) -> AppResult<Json<ListAnswer<SupplierRef>>> {
    let req = Paging { page: q.page, per_page: q.per_page }.resolve(20);
    let (org, name) = (auth.org_id, q.name.unwrap_or_default());
    let page = state.db.run(move |c| master_db::suppliers_by_name(c, org, &name, req.offset(), req.per_page)).await?;
    Ok(Json(ListAnswer { data: page.rows, meta: Meta::page(page.total, &req) }))
}

/// A customer's credit limit and accounting balance, in cents.
#[derive(Serialize)]
pub struct Balance {
    #[serde(rename = "creditLimit")]
    credit_limit: i64,
    #[serde(rename = "xeroBalance")]
    xero_balance: i64,
    /// What is due on the customer's sent invoices past due (issue 31).
    overdue: i64,
}

/// `GET /api/balance/{customerId}` (404 for another company's customer).
pub async fn balance(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<Balance>>> {
    let org = auth.org_id;
    let today = domain::dates::today(auth.zone);
    let (c, overdue) = state.db.run(move |c| Ok((customers::customer(c, org, id)?, db::orders::overdue_by_customers(c, org, &[id], today)?.get(&id).map_or(0, |a| a.0)))).await?;
    Ok(Json(DataAnswer { data: Balance { credit_limit: c.credit_limit, xero_balance: c.xero_balance, overdue } }))
}
