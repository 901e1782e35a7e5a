//! `/api/shop/…`: the shop for outside clients, with a customer token from `/oauth/token`
//! (the token carries the customer's company: no `X-Org-Id`). Prices are the customer's,
//! GST inclusive, in dollars with cents as numbers; cost never appears.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::{ShopQuery, Shopper};
use crate::http::json::{ApiJson, ListAnswer, Meta};
use domain::money::Cents;
use domain::shop as rules;
use db::error::{AppError, AppResult};
use services::shop::{self as svc, CheckedLine, Item, WantedLine};
use crate::http::query::PageReq;
use crate::state::AppState;

fn dollars(c: Cents) -> f64 {
    c.0 as f64 / 100.0
}

#[derive(Serialize)]
pub struct ProductJson {
    id: i64,
    code: String,
    name: String,
    brand: String,
    specification: String,
    #[serde(rename = "loadIndex")]
    load_index: String,
    #[serde(rename = "speedRating")]
    speed_rating: String,
    /// The customer's unit price, GST inclusive; null when none was set for them.
    price: Option<f64>,
    /// Whether it can be ordered (it has a price for this customer).
    orderable: bool,
    availability: String,
    /// 'DOT 2025': a tyre's years of manufacture in stock, when the company shows them.
    #[serde(rename = "dotYears", skip_serializing_if = "Option::is_none")]
    dot_years: Option<String>,
}

impl From<&Item> for ProductJson {
    fn from(i: &Item) -> Self {
        let p = &i.product;
        Self {
            id: p.id,
            code: p.code.clone(),
            name: p.name.clone(),
            brand: i.brand.clone(),
            specification: p.specification.clone(),
            load_index: p.load_rate.clone(),
            speed_rating: p.speed_rate.clone(),
            price: i.orderable().then(|| dollars(i.price)),
            orderable: i.orderable(),
            availability: i.availability.label(),
            dot_years: i.dot_years.clone(),
        }
    }
}

/// `GET /api/shop/products?key=&brand=&category=&page=`.
pub async fn products(State(state): State<AppState>, s: Shopper, Query(q): Query<ShopQuery>) -> AppResult<Json<ListAnswer<ProductJson>>> {
    let b = q.browse()?;
    let req = PageReq { page: b.page, per_page: svc::PAGE_SIZE };
    let who = s.who.clone();
    let found = state.db.run(move |c| svc::search(c, &who, &b)).await?;
    Ok(Json(ListAnswer { data: found.rows.iter().map(ProductJson::from).collect(), meta: Meta::page(found.total, &req) }))
}

/// `GET /api/shop/products/{id}`.
pub async fn product(State(state): State<AppState>, s: Shopper, Path(id): Path<i64>) -> AppResult<Json<ProductJson>> {
    let who = s.who.clone();
    let item = state.db.run(move |c| svc::item(c, &who, id)).await?;
    Ok(Json(ProductJson::from(&item)))
}

#[derive(Deserialize)]
pub struct LineIn {
    #[serde(rename = "productId")]
    product_id: i64,
    quantity: i64,
    /// The unit price the client showed, when it wants the order refused if it changed.
    #[serde(default)]
    price: Option<f64>,
}

fn wanted(lines: &[LineIn]) -> AppResult<Vec<WantedLine>> {
    lines
        .iter()
        .enumerate()
        .map(|(n, l)| {
            let expected_price = match l.price {
                None => None,
                Some(p) if p.is_finite() && (0.0..=1e12).contains(&p) => Some(Cents((p * 100.0).round() as i64)),
                Some(_) => return Err(AppError::field(&format!("lines.{n}.price"), "Must be a price in dollars.")),
            };
            Ok(WantedLine { product_id: l.product_id, quantity: l.quantity, expected_price })
        })
        .collect()
}

#[derive(Deserialize)]
pub struct CheckBody {
    #[serde(default)]
    lines: Vec<LineIn>,
}

#[derive(Serialize)]
pub struct CheckedJson {
    #[serde(rename = "productId")]
    product_id: i64,
    code: String,
    name: String,
    quantity: i64,
    price: f64,
    amount: f64,
    availability: String,
    #[serde(rename = "priceChanged")]
    price_changed: bool,
}

impl From<&CheckedLine> for CheckedJson {
    fn from(l: &CheckedLine) -> Self {
        Self {
            product_id: l.item.product.id,
            code: l.item.product.code.clone(),
            name: l.item.product.name.clone(),
            quantity: l.quantity,
            price: dollars(l.item.price),
            amount: dollars(l.amount),
            availability: l.item.availability.label(),
            price_changed: l.price_changed(),
        }
    }
}

#[derive(Serialize)]
pub struct CheckAnswer {
    lines: Vec<CheckedJson>,
    total: f64,
}

/// `POST /api/shop/cart/check`: the lines priced now.
pub async fn check(State(state): State<AppState>, s: Shopper, ApiJson(body): ApiJson<CheckBody>) -> AppResult<Json<CheckAnswer>> {
    let lines = wanted(&body.lines)?;
    let who = s.who.clone();
    let checked = state.db.run(move |c| svc::check(c, &who, &lines)).await?;
    let total = checked.iter().try_fold(Cents::ZERO, |t, l| t.checked_add(l.amount)).ok_or_else(|| AppError::bad_request(domain::limits::TOTAL_TOO_LARGE))?;
    Ok(Json(CheckAnswer { lines: checked.iter().map(CheckedJson::from).collect(), total: dollars(total) }))
}

#[derive(Deserialize)]
pub struct OrderBody {
    #[serde(default)]
    lines: Vec<LineIn>,
    #[serde(default)]
    reference: String,
    #[serde(default)]
    note: String,
    /// 1 delivery, 2 pick-up; the customer's default when absent.
    #[serde(default, rename = "shipType")]
    ship_type: Option<i32>,
}

#[derive(Serialize)]
pub struct PlacedAnswer {
    id: i64,
    no: String,
    message: &'static str,
}

/// `POST /api/shop/orders`: places a self-order (drafterType 3, no due date).
pub async fn place(State(state): State<AppState>, s: Shopper, ApiJson(body): ApiJson<OrderBody>) -> AppResult<(StatusCode, Json<PlacedAnswer>)> {
    let lines = wanted(&body.lines)?;
    let who = s.who.clone();
    let placed = state
        .db
        .write(move |c| {
            let ship = match body.ship_type {
                Some(t) => t.to_string(),
                None => {
                    let customer = db::shop::customer(c, who.org_id, who.customer_id)?.ok_or(AppError::Unauthorized)?;
                    rules::Shipping::default_for(customer.default_ship_type).value().to_string()
                }
            };
            let checkout = rules::checkout(&body.reference, &body.note, &ship).map_err(|list| {
                let message = list.first().map(|(_, m)| m.to_string()).unwrap_or_default();
                let field = |k: &str| match k {
                    "shipping" => "shipType".to_string(),
                    other => other.to_string(),
                };
                AppError::Validation { message, errors: list.iter().map(|(k, m)| (field(k), m.to_string())).collect() }
            })?;
            svc::place_lines(c, &who, &checkout, &lines)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(PlacedAnswer { id: placed.id, no: placed.no, message: "Operation Success" })))
}

#[derive(Serialize)]
pub struct OrderJson {
    id: i64,
    no: String,
    date: chrono::NaiveDate,
    reference: String,
    status: &'static str,
    #[serde(rename = "shipType")]
    ship_type: i32,
    #[serde(rename = "deliveryDate")]
    delivery_date: Option<chrono::NaiveDate>,
    note: String,
    qty: i64,
    amount: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<Vec<OrderLineJson>>,
}

#[derive(Serialize)]
pub struct OrderLineJson {
    #[serde(rename = "productId")]
    product_id: Option<i64>,
    code: String,
    description: String,
    quantity: i64,
    price: f64,
    amount: f64,
}

fn order_json(o: &db::shop::MyOrder, status: rules::CustomerStatus) -> OrderJson {
    OrderJson {
        id: o.id,
        no: o.no.clone(),
        date: o.order_date,
        reference: o.reference.clone(),
        status: status.label(),
        ship_type: o.ship_type,
        delivery_date: o.delivery_date,
        note: o.csr_self_note.clone(),
        qty: o.total_qty,
        amount: dollars(Cents(o.total_amount)),
        lines: None,
    }
}

/// `GET /api/shop/orders?page=`: the customer's orders, newest first.
pub async fn orders(State(state): State<AppState>, s: Shopper, Query(q): Query<ShopQuery>) -> AppResult<Json<ListAnswer<OrderJson>>> {
    let req = PageReq { page: q.page()?, per_page: svc::PAGE_SIZE };
    let who = s.who.clone();
    let (rows, total) = state.db.run(move |c| Ok((svc::my_orders(c, &who, req.page)?, db::shop::my_order_count(c, who.org_id, who.customer_id)?))).await?;
    let data: Vec<OrderJson> = rows.iter().map(|(o, st)| order_json(o, *st)).collect();
    Ok(Json(ListAnswer { data, meta: Meta::page(total, &req) }))
}

/// `GET /api/shop/orders/{id}`: one of the customer's orders with its lines.
pub async fn order(State(state): State<AppState>, s: Shopper, Path(id): Path<i64>) -> AppResult<Json<OrderJson>> {
    let who = s.who.clone();
    let (o, status, lines) = state.db.run(move |c| svc::my_order(c, &who, id)).await?;
    let mut j = order_json(&o, status);
    j.lines = Some(
        lines
            .iter()
            .map(|l| OrderLineJson { product_id: l.product_id, code: l.code.clone().unwrap_or_default(), description: l.description.clone(), quantity: l.qty, price: dollars(Cents(l.price)), amount: dollars(Cents(l.amount)) })
            .collect(),
    );
    Ok(Json(j))
}
