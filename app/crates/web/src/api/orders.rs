//! Sheets over JSON (spec §7): list, get, create, update, the actions, history, navigation,
//! driver assignment, product price history and the due date of a customer's terms.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::http::json::{ApiJson, DataAnswer, ListAnswer, Meta};
use crate::auth::Auth;
use db::refs::Unchecked;
use db::order_views::{self, SheetCustomer, SheetWithLines};
use db::orders::{self as order_db, Event, LineJson, Order, OrderFilter, PriceHistoryRow};
use domain::dates::today;
use domain::enums::OrderType;
use domain::money::Cents;
use domain::sheet::LineDraft;
use domain::status::Action;
use db::error::{AppError, AppResult};
use documents::Variant;
use services::delivery::{self as delivery_svc, DeliveryUpdate};
use services::orders::{self as svc, ApproveInput, Dates, Header};
use domain::Actor;
use services::print::{self as print_svc, PRINT_SUCCESSFUL};
use services::line_import::{self, ImportedLine, Target};
use services::quoting::{self, PriceHistory};
use crate::state::AppState;
use crate::http::query::{Filters, wants_xlsx};
use crate::http::download;
use services::exports;

/// A list row: the sheet with its counterparty's name.
#[derive(Serialize)]
pub struct OrderListRow {
    #[serde(flatten)]
    order: Order,
    #[serde(skip_serializing_if = "Option::is_none")]
    amount: Option<i64>,
    #[serde(rename = "csrName")]
    csr_name: Option<String>,
    #[serde(rename = "supplierName")]
    supplier_name: Option<String>,
}

const ALL_TYPES: [i32; 7] = [1, 2, 3, 4, 5, 6, 7];

/// The answer of an export too large to wait for: its Download Center job.
#[derive(Serialize)]
struct ExportQueued {
    data: services::reports::JobView,
    message: String,
}

/// `GET /api/orders` with the list filters and paging; `format=xlsx` answers every matching
/// sheet as the list screens' `orders.xlsx`.
pub async fn list(State(state): State<AppState>, auth: Auth, f: Filters<OrderFilter>) -> AppResult<Response> {
    let org = auth.org_id;
    let filter = f.value;
    if wants_xlsx(f.format.as_deref())? {
        return match exports::orders_or_job(&state, auth.asker(), auth.sight(), ALL_TYPES.to_vec(), filter).await? {
            exports::SheetsExport::File(written) => download::xlsx("orders.xlsx", written).await,
            // 202: the file is prepared in the Download Center (`GET /api/reports` lists it,
            // `GET /api/download/{name}` answers it when done).
            exports::SheetsExport::Queued(job) => {
                let data = services::reports::JobView::new(&job, auth.user_id, auth.zone);
                Ok((axum::http::StatusCode::ACCEPTED, Json(ExportQueued { data, message: domain::exports::queued_message(state.export_direct_max) })).into_response())
            }
        };
    }
    let req = f.paging.resolve(20);
    let over = state.db.over_cap();
    let page = state.db.run(move |c| order_db::list(c, &over, org, &ALL_TYPES, &filter, req.offset(), req.per_page)).await?;
    let sight = auth.sight();
    let data = page.rows.into_iter().map(|r| OrderListRow { amount: r.order.amount_for(sight), order: r.order, csr_name: r.customer, supplier_name: r.supplier }).collect();
    Ok(Json(ListAnswer { data, meta: Meta::page(page.total, &req) }).into_response())
}

/// The customer block of a sheet (spec §3 `csr`).
#[derive(Serialize)]
pub struct Csr {
    id: i64,
    name: String,
    code: String,
    #[serde(rename = "paymentType")]
    payment_type: i32,
    #[serde(rename = "areaType")]
    area_type: i32,
    notes: String,
    attention: String,
}

impl From<SheetCustomer> for Csr {
    fn from(c: SheetCustomer) -> Self {
        Self { id: c.id, name: c.name, code: c.code, payment_type: c.payment_type, area_type: c.area_type, notes: c.note, attention: c.attention }
    }
}

/// A sheet with its customer and lines sorted by seq.
#[derive(Serialize)]
pub struct OrderFull {
    #[serde(flatten)]
    order: Order,
    #[serde(skip_serializing_if = "Option::is_none")]
    amount: Option<i64>,
    csr: Option<Csr>,
    lines: Vec<LineJson>,
}

/// `GET /api/orders/{id}`.
pub async fn get(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<OrderFull>>> {
    let org = auth.org_id;
    let SheetWithLines { sheet, lines } = state.db.run(move |c| order_views::sheet_with_lines(c, org, id)).await?;
    let t = OrderType::from_i32(sheet.order.order_type).ok_or(AppError::NotFound)?;
    let sight = auth.sight();
    let foreign = sheet.order.currency != domain::currency::AUD;
    let lines = lines.into_iter().map(|l| LineJson::new(l, t, sight, foreign)).collect();
    let full = OrderFull { amount: sheet.order.amount_for(sight), order: sheet.order, csr: sheet.customer.map(Csr::from), lines };
    Ok(Json(DataAnswer { data: full }))
}

/// A line of a JSON sheet (money in cents).
#[derive(Deserialize, Default)]
pub struct LineBody {
    #[serde(default)]
    seq: i32,
    #[serde(rename = "productId")]
    product_id: Option<i64>,
    #[serde(default)]
    quantity: i64,
    #[serde(default)]
    price: i64,
    #[serde(default, alias = "description")]
    desc: String,
    #[serde(rename = "taxType", default)]
    tax_type: Option<i32>,
    #[serde(rename = "inWarehouseQty", default)]
    in_warehouse_qty: i64,
    #[serde(rename = "inSystemQty", default)]
    in_system_qty: i64,
    /// A tyre's DOT code, 'WWYY' (issue 36).
    #[serde(default)]
    dot: Option<String>,
}

/// A sheet as posted (spec §7: order fields, customerId, lines with seq and productId).
#[derive(Deserialize, Default)]
pub struct OrderBody {
    #[serde(rename = "type")]
    order_type: Option<i32>,
    #[serde(rename = "tagId", default)]
    tag_id: Option<i32>,
    #[serde(rename = "customerId")]
    customer_id: Option<i64>,
    #[serde(rename = "supplierId")]
    supplier_id: Option<i64>,
    date: Option<NaiveDate>,
    #[serde(rename = "dueDate")]
    due_date: Option<NaiveDate>,
    #[serde(rename = "deliveryDate")]
    delivery_date: Option<NaiveDate>,
    #[serde(default)]
    address: String,
    #[serde(default)]
    phone: String,
    #[serde(default)]
    reference: String,
    #[serde(default)]
    comments: String,
    #[serde(rename = "csrSelfNote", default)]
    csr_self_note: String,
    #[serde(rename = "csrServiceId")]
    csr_service_id: Option<i64>,
    #[serde(rename = "csrBDId")]
    csr_bd_id: Option<i64>,
    #[serde(rename = "warehouseId")]
    warehouse_id: Option<i64>,
    #[serde(rename = "inWarehouseId")]
    in_warehouse_id: Option<i64>,
    #[serde(rename = "relatedOrderId")]
    related_order_id: Option<i64>,
    #[serde(rename = "taxType")]
    tax_type: Option<i32>,
    #[serde(rename = "shipType")]
    ship_type: Option<i32>,
    version: Option<i32>,
    /// A foreign purchase sheet's own rate, units of its currency per 1 AUD (issue 35): a
    /// number or a string; absent takes the company's rate of the date.
    #[serde(rename = "exchangeRate")]
    exchange_rate: Option<serde_json::Value>,
    #[serde(rename = "shipmentRef", default)]
    shipment_ref: String,
    #[serde(default)]
    lines: Vec<LineBody>,
}

impl OrderBody {
    /// The sheet header; a missing date is today in the company's time zone. A rate that is
    /// no rate is a field message.
    fn header(&self, zone: chrono_tz::Tz) -> AppResult<Header> {
        let exchange_rate = match &self.exchange_rate {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => {
                let text = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                Some(domain::currency::Rate::parse(&text).map_err(|e| AppError::field("exchangeRate", &e.to_string()))?)
            }
        };
        Ok(Header {
            tag_id: self.tag_id.unwrap_or(1),
            customer_id: self.customer_id.map(Unchecked::new),
            supplier_id: self.supplier_id.map(Unchecked::new),
            date: self.date.or_else(|| Some(today(zone))),
            due_date: self.due_date,
            delivery_date: self.delivery_date,
            address: self.address.clone(),
            phone: self.phone.clone(),
            reference: self.reference.clone(),
            comments: self.comments.clone(),
            csr_self_note: self.csr_self_note.clone(),
            csr_service_id: self.csr_service_id.map(Unchecked::new),
            csr_bd_id: self.csr_bd_id.map(Unchecked::new),
            warehouse_id: self.warehouse_id.map(Unchecked::new),
            in_warehouse_id: self.in_warehouse_id.map(Unchecked::new),
            related_order_id: self.related_order_id.map(Unchecked::new),
            tax_type: self.tax_type.unwrap_or(3),
            ship_type: self.ship_type,
            exchange_rate,
            shipment_ref: self.shipment_ref.clone(),
        })
    }

    fn lines(&self) -> Vec<LineDraft> {
        let mut lines: Vec<&LineBody> = self.lines.iter().collect();
        lines.sort_by_key(|l| l.seq);
        lines
            .into_iter()
            .map(|l| LineDraft {
                product_id: l.product_id,
                qty: l.quantity.to_string(),
                price: Cents(l.price).plain(),
                description: l.desc.clone(),
                tax_type: l.tax_type.unwrap_or(self.tax_type.unwrap_or(3)),
                in_warehouse_qty: l.in_warehouse_qty.to_string(),
                in_system_qty: l.in_system_qty.to_string(),
                dot: l.dot.clone().unwrap_or_default(),
                code: String::new(),
            })
            .collect()
    }
}

#[derive(Serialize)]
pub struct Created {
    id: i64,
    message: &'static str,
}

#[derive(Serialize)]
pub struct Done {
    message: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

fn done() -> Json<Done> {
    Json(Done { message: "Operation successful", warnings: vec![] })
}

/// `POST /api/orders`.
pub async fn create(State(state): State<AppState>, auth: Auth, ApiJson(body): ApiJson<OrderBody>) -> AppResult<Json<DataAnswer<Created>>> {
    let t = body.order_type.and_then(OrderType::from_i32).ok_or_else(|| AppError::field("type", "Give the sheet type 1–7."))?;
    let actor = Actor::from(&auth);
    let (header, lines) = (body.header(auth.zone)?, body.lines());
    let id = state.db.write(move |c| svc::create(c, &actor, t, &header, &lines)).await?;
    Ok(Json(DataAnswer { data: Created { id, message: "Operation successful" } }))
}

/// `PUT /api/orders/{id}` (content of a draft; `version` guards against lost updates).
pub async fn update(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(body): ApiJson<OrderBody>) -> AppResult<Json<Done>> {
    let actor = Actor::from(&auth);
    let org = auth.org_id;
    let version = match body.version {
        Some(v) => v,
        None => state.db.run(move |c| order_db::get(c, org, id)).await?.version,
    };
    let (header, lines) = (body.header(auth.zone)?, body.lines());
    state.db.write(move |c| svc::update(c, &actor, id, version, &header, &lines)).await?;
    Ok(done())
}

#[derive(Deserialize, Default)]
pub struct ApproveBody {
    #[serde(rename = "warehouseId")]
    warehouse_id: Option<i64>,
    #[serde(rename = "shipType")]
    ship_type: Option<i32>,
    #[serde(rename = "driverId")]
    driver_id: Option<i64>,
    #[serde(default)]
    confirmed: bool,
}

/// `POST /api/orders/{id}/approve`; the approval guard answers 409 with its reasons.
pub async fn approve(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, body: axum::body::Bytes) -> AppResult<Json<Done>> {
    // The body is optional: invoices and credit notes send warehouse, ship type and driver.
    let b: ApproveBody = if body.iter().all(u8::is_ascii_whitespace) {
        ApproveBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| AppError::bad_request(format!("Invalid JSON: {e}")))?
    };
    let input = ApproveInput { warehouse_id: b.warehouse_id.map(Unchecked::new), ship_type: b.ship_type, driver_id: b.driver_id.map(Unchecked::new), confirmed: b.confirmed };
    let actor = Actor::from(&auth);
    let approved = svc::approve_then_email(&state, &actor, id, input).await?;
    Ok(Json(Done { message: "Operation successful", warnings: approved.warnings }))
}

/// `POST /api/orders/{id}/unApprove`.
pub async fn unapprove(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<Done>> {
    let actor = Actor::from(&auth);
    state.db.write(move |c| svc::unapprove(c, &actor, id)).await?;
    Ok(done())
}

/// `POST /api/orders/{id}/void`.
pub async fn void(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<Done>> {
    let actor = Actor::from(&auth);
    state.db.write(move |c| svc::void(c, &actor, id)).await?;
    Ok(done())
}

/// `POST /api/orders/{id}/close`.
pub async fn close(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<Done>> {
    let actor = Actor::from(&auth);
    state.db.write(move |c| svc::close(c, &actor, id)).await?;
    Ok(done())
}

/// `POST /api/orders/{id}/print`: marks the sheet printed.
pub async fn print(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<Done>> {
    let actor = Actor::from(&auth);
    state.db.write(move |c| svc::mark_printed(c, &actor, id, Action::Print, "Printed")).await?;
    Ok(done())
}

#[derive(Deserialize)]
pub struct PrintedBody {
    ids: Vec<i64>,
    #[serde(default)]
    variant: Option<String>,
}

#[derive(Serialize)]
pub struct PrintedAnswer {
    message: &'static str,
    data: Vec<i64>,
}

/// `POST /api/orders/print` with `{ids, variant}`: what the print page sends when the
/// browser has printed its documents; marks every sheet printed, or none.
pub async fn printed(State(state): State<AppState>, auth: Auth, ApiJson(b): ApiJson<PrintedBody>) -> AppResult<Json<PrintedAnswer>> {
    let variant = Variant::parse(b.variant.as_deref()).ok_or_else(|| AppError::field("variant", "Give variant standard or noprice."))?;
    let actor = Actor::from(&auth);
    let ids = b.ids;
    let marked = ids.clone();
    state.db.write(move |c| print_svc::mark_all_printed(c, &actor, &ids, variant)).await?;
    Ok(Json(PrintedAnswer { message: PRINT_SUCCESSFUL, data: marked }))
}

#[derive(Deserialize)]
pub struct DeliveryStatusBody {
    #[serde(rename = "deliveryStatus")]
    delivery_status: Option<i32>,
    #[serde(rename = "deliveryComment", default)]
    delivery_comment: String,
    #[serde(rename = "actualPayType")]
    actual_pay_type: Option<i32>,
}

/// `POST /api/orders/{id}/delivery`: delivery status, driver comment and actual pay type.
pub async fn delivery_status(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(b): ApiJson<DeliveryStatusBody>) -> AppResult<Json<Done>> {
    let u = DeliveryUpdate::parse(b.delivery_status, &b.delivery_comment, b.actual_pay_type)?;
    let actor = Actor::from(&auth);
    state.db.write(move |c| delivery_svc::set_delivery(c, &actor, id, &u)).await?;
    Ok(done())
}

#[derive(Deserialize)]
pub struct DateBody {
    date: Option<NaiveDate>,
    #[serde(rename = "dueDate")]
    due_date: Option<NaiveDate>,
    #[serde(rename = "deliveryDate")]
    delivery_date: Option<NaiveDate>,
}

/// `POST /api/orders/{id}/date`.
pub async fn date(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(b): ApiJson<DateBody>) -> AppResult<Json<Done>> {
    let actor = Actor::from(&auth);
    let d = Dates { date: b.date, due_date: b.due_date, delivery_date: b.delivery_date };
    state.db.write(move |c| svc::set_dates(c, &actor, id, &d)).await?;
    Ok(done())
}

#[derive(Deserialize)]
pub struct AddressBody {
    #[serde(default)]
    phone: String,
    #[serde(default)]
    address: String,
}

/// `POST /api/orders/{id}/address`.
pub async fn address(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, ApiJson(b): ApiJson<AddressBody>) -> AppResult<Json<Done>> {
    let actor = Actor::from(&auth);
    state.db.write(move |c| svc::set_address(c, &actor, id, &b.address, &b.phone)).await?;
    Ok(done())
}

#[derive(Deserialize)]
pub struct DeliveryData {
    order_id: i64,
    /// The driver's user id (empty or null removes the driver).
    info: Option<serde_json::Value>,
}

#[derive(Deserialize)]
pub struct DeliveryBody {
    #[serde(rename = "type")]
    kind: i32,
    data: DeliveryData,
}

/// `POST /api/delivery` with type 1: assigns a driver (spec §7 Driver).
pub async fn delivery(State(state): State<AppState>, auth: Auth, ApiJson(b): ApiJson<DeliveryBody>) -> AppResult<Json<Done>> {
    if b.kind != 1 {
        return Err(AppError::bad_request("Only type 1 (driver assignment) is supported."));
    }
    let driver = match b.data.info {
        Some(serde_json::Value::Number(n)) => n.as_i64(),
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Some(s.trim().parse().map_err(|_| AppError::field("info", "Give the driver's id."))?),
        _ => None,
    };
    let actor = Actor::from(&auth);
    let id = b.data.order_id;
    state.db.write(move |c| svc::assign_driver(c, &actor, id, driver.map(Unchecked::new))).await?;
    Ok(done())
}

/// `POST /api/xero/{id}/order` and `/recall` (SendXero / XeroRecall).
pub async fn xero(State(state): State<AppState>, auth: Auth, Path((id, what)): Path<(i64, String)>) -> AppResult<Json<Done>> {
    let action = match what.as_str() {
        "order" => Action::SendXero,
        "recall" => Action::XeroRecall,
        _ => return Err(AppError::NotFound),
    };
    let actor = Actor::from(&auth);
    let now = state.xero.clock.now();
    state.db.write(move |c| services::xero::request(c, &actor, id, action, now)).await?;
    state.xero.bell.notify_one();
    Ok(done())
}

/// `GET /api/orders/{id}/history`.
pub async fn history(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Json<DataAnswer<Vec<Event>>>> {
    let org = auth.org_id;
    let events = state.db.run(move |c| order_views::history(c, org, id)).await?;
    Ok(Json(DataAnswer { data: events }))
}

#[derive(Deserialize)]
pub struct NextQuery {
    id: i64,
    direction: Option<String>,
}

#[derive(Serialize)]
pub struct NextAnswer {
    id: i64,
    #[serde(rename = "type")]
    order_type: i32,
}

/// `GET /api/order-next?id=&direction=prev|next` (default next), across types.
pub async fn next(State(state): State<AppState>, auth: Auth, Query(q): Query<NextQuery>) -> AppResult<Json<DataAnswer<NextAnswer>>> {
    let org = auth.org_id;
    let forward = q.direction.as_deref() != Some("prev");
    let (_, found) = state.db.run(move |c| order_views::neighbour(c, org, q.id, forward)).await?;
    match found {
        Some((id, order_type)) => Ok(Json(DataAnswer { data: NextAnswer { id, order_type } })),
        None => Err(AppError::Conflict { message: "No more data to load".into(), code: Some("no_more"), reasons: vec![] }),
    }
}

#[derive(Deserialize)]
pub struct HistoryQuery {
    #[serde(rename = "cId")]
    c_id: Option<i64>,
}

#[derive(Serialize)]
pub struct HistoryProduct {
    name: String,
    standard: i64,
    special: i64,
    #[serde(rename = "classA")]
    class_a: i64,
    #[serde(rename = "classB")]
    class_b: i64,
    ocop: Option<i64>,
}

#[derive(Serialize)]
pub struct ProductHistory {
    product: HistoryProduct,
    data: Vec<PriceHistoryRow>,
}

/// `GET /api/products/{id}/history?cId=`: prices and recent sales lines (spec §7).
pub async fn product_history(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, Query(q): Query<HistoryQuery>) -> AppResult<Json<ProductHistory>> {
    let org = auth.org_id;
    let customer = q.c_id;
    let PriceHistory { product, quote, rows } = state.db.run(move |c| quoting::price_history(c, org, id, customer)).await?;
    let price = |label: &str| quote.as_ref().and_then(|q| q.prices.iter().find(|p| p.label == label)).map(|p| p.price).unwrap_or(0);
    let head = HistoryProduct { name: product.name, standard: product.standard_price, special: product.special_price, class_a: price("A/COD"), class_b: price("B"), ocop: quote.as_ref().and_then(|q| q.ocop).map(|c| c.0) };
    let answer = ProductHistory { product: head, data: rows };
    Ok(Json(answer))
}

#[derive(Deserialize)]
pub struct DueQuery {
    #[serde(rename = "customerId")]
    customer_id: i64,
    date: Option<NaiveDate>,
}

#[derive(Serialize)]
pub struct DueAnswer {
    #[serde(rename = "dueDate")]
    due_date: NaiveDate,
}

/// `GET /api/due-date?customerId=&date=`: the due date of the customer's payment terms
/// (spec §9, DESIGN §5), for the sheet form.
pub async fn due(State(state): State<AppState>, auth: Auth, Query(q): Query<DueQuery>) -> AppResult<Json<DueAnswer>> {
    let org = auth.org_id;
    let from = q.date.unwrap_or_else(|| today(auth.zone));
    let due_date = state.db.run(move |c| svc::customer_due_date(c, org, q.customer_id, from)).await?;
    Ok(Json(DueAnswer { due_date }))
}

/// `POST /api/ag/lines` (multipart: `file`, optional `orderType`, `warehouseId`, `customerId`):
/// the file's lines priced for the sheet; any bad row refuses the whole file.
pub async fn import_lines(State(state): State<AppState>, auth: Auth, mut upload: crate::http::upload::Upload) -> AppResult<Json<DataAnswer<Vec<ImportedLine>>>> {
    let file = std::mem::take(&mut upload.file);
    let target = Target { order_type: upload.field("orderType"), warehouse: upload.field("warehouseId"), customer: upload.field("customerId") };
    let data = line_import::import(&state.db, auth.org_id, auth.sight(), target, file).await?;
    Ok(Json(DataAnswer { data }))
}
