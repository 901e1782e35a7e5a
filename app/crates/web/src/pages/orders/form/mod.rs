//! New and edit sheet pages (spec §2.5): header fields per kind, the line editor island,
//! server validation that keeps what was typed, and the prefill operations clone,
//! cloneBillToInv, addFromCart and addFromCartAndClear.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::auth::Auth;
use db::order_views::{self, FormChoices, FormWants, LineProduct, SheetWithLines};
use db::orders::{self as order_db, Line, Order};
use db::refs::Unchecked;
use domain::clone;
use domain::currency::{self, Rate};
use domain::dates::today;
use domain::due_date::{DateShortcut, date_shortcut};
use domain::enums::{OrderStatus, OrderType, Role, ShipType, Tag, TaxType};
use domain::masters::listed_on_picker;
use domain::money::Cents;
use domain::permissions::Sight;
use domain::sheet::{self, LineDraft};
use domain::status::{Action, SheetState, allowed};
use db::error::{AppError, AppResult};
use services::orders::{self as svc, Header};
use domain::Actor;
use services::pricing;
use crate::state::AppState;
use crate::pages::island::Island;
use crate::pages::shell::Shell;
use crate::pages::stream;

mod page;
mod prefill;

use page::*;
use prefill::*;
pub use prefill::AddQuery;

/// A line as the line-editor island receives it (its `Line` type).
#[derive(Serialize, Deserialize, Clone, Debug, Default, ts_rs::TS)]
pub struct IslandLine {
    #[serde(default)]
    pub key: String,
    #[serde(rename = "productId", default)]
    #[ts(type = "number | null")]
    pub product_id: Option<i64>,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub unit: String,
    #[serde(default)]
    #[ts(type = "number | null")]
    pub stock: Option<i64>,
    #[serde(default)]
    pub qty: String,
    #[serde(default)]
    pub price: String,
    #[serde(default)]
    pub description: String,
    #[serde(rename = "taxType", default)]
    pub tax_type: i32,
    #[serde(rename = "inWarehouseQty", default)]
    pub in_warehouse_qty: String,
    #[serde(rename = "inSystemQty", default)]
    pub in_system_qty: String,
    #[serde(rename = "classA", default)]
    #[ts(type = "number | null")]
    pub class_a: Option<i64>,
    #[serde(rename = "costPrice", default)]
    #[ts(type = "number | null")]
    pub cost_price: Option<i64>,
    /// A tyre's DOT code as typed ('2325', issue 36); empty for none.
    #[serde(default)]
    pub dot: String,
    /// The product is tracked by DOT: the line has a DOT cell (filled by the server).
    #[serde(rename = "dotTracked", default)]
    pub dot_tracked: bool,
    /// The product's lots in the sheet's warehouse, oldest first (filled by the server).
    #[serde(default)]
    pub lots: Vec<IslandLot>,
}

/// One lot of a line's product in the sheet's warehouse, as the line editor lists it:
/// quantities and ages only, never cost.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq, ts_rs::TS)]
pub struct IslandLot {
    /// 'WWYY', or 'unknown' for stock from before tracking.
    pub dot: String,
    /// '3y 5m'; empty for an unknown code.
    pub age: String,
    #[ts(type = "number")]
    pub qty: i64,
}

impl IslandLot {
    /// The lots `(stored code, on hand)` as listed on `today`.
    pub fn list(lots: &[(i32, i64)], today: NaiveDate) -> Vec<Self> {
        lots.iter()
            .map(|&(dot, qty)| {
                let known = domain::dot::Dot::from_stored(dot);
                IslandLot { dot: domain::dot::label(dot), age: known.map(|d| d.age_label(today)).unwrap_or_default(), qty }
            })
            .collect()
    }
}

/// Props of the line-editor island.
#[derive(Serialize, ts_rs::TS)]
pub struct EditorProps<'a> {
    kind: &'static str,
    #[serde(rename = "orderType")]
    order_type: i32,
    #[serde(rename = "taxType")]
    tax_type: i32,
    #[serde(rename = "customerId")]
    #[ts(type = "number | null")]
    customer_id: Option<i64>,
    #[serde(rename = "warehouseId")]
    #[ts(type = "number | null")]
    warehouse_id: Option<i64>,
    editable: bool,
    /// Whether the viewer sees cost: without it an adjustment has no cost and amount columns.
    #[serde(rename = "seesCost")]
    sees_cost: bool,
    #[serde(rename = "fieldName")]
    field_name: &'static str,
    lines: &'a [IslandLine],
    errors: &'a BTreeMap<String, String>,
}

/// The header as the form shows it (strings, as typed).
#[derive(Deserialize, Clone, Debug, Default)]
pub struct SheetForm {
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub tag_id: String,
    #[serde(default)]
    pub customer_id: String,
    #[serde(default)]
    pub customer_label: String,
    #[serde(default)]
    pub supplier_id: String,
    #[serde(default)]
    pub supplier_label: String,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub due_date: String,
    #[serde(default)]
    pub delivery_date: String,
    #[serde(default)]
    pub address: String,
    #[serde(default)]
    pub phone: String,
    #[serde(default)]
    pub reference: String,
    #[serde(default)]
    pub comments: String,
    #[serde(default)]
    pub csr_self_note: String,
    #[serde(default)]
    pub csr_service_id: String,
    #[serde(default)]
    pub csr_bd_id: String,
    #[serde(default)]
    pub warehouse_id: String,
    #[serde(default)]
    pub in_warehouse_id: String,
    #[serde(default)]
    pub related_order_id: String,
    #[serde(default)]
    pub tax_type: String,
    #[serde(default)]
    pub ship_type: String,
    /// A foreign purchase sheet's own rate (issue 35); empty: the company's rate of its date.
    #[serde(default)]
    pub exchange_rate: String,
    #[serde(default)]
    pub shipment_ref: String,
    /// The sheet's currency as last saved (shown, never read back: a save takes the
    /// supplier's).
    #[serde(default)]
    pub currency: String,
    /// The lines as the live line editor sends them; empty when the form was sent before
    /// its code arrived, and the plain rows' fields (`lines.<i>.<field>`) are in `plain`.
    #[serde(default)]
    pub lines_json: String,
    /// Every other field sent: the plain rows' `lines.<i>.<field>` (issue 37).
    #[serde(flatten)]
    pub plain: BTreeMap<String, String>,
}

fn id<K>(s: &str) -> Option<Unchecked<K>> {
    s.trim().parse().ok().map(Unchecked::new)
}

impl SheetForm {
    fn header(&self, errors: &mut BTreeMap<String, String>) -> Header {
        let mut date = |field: &str, s: &str| -> Option<NaiveDate> {
            if s.trim().is_empty() {
                return None;
            }
            match NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d") {
                Ok(d) => Some(d),
                Err(_) => {
                    errors.insert(field.into(), "Enter the date as dd/mm/yyyy.".into());
                    None
                }
            }
        };
        Header {
            tag_id: self.tag_id.trim().parse().unwrap_or(1),
            customer_id: id(&self.customer_id),
            supplier_id: id(&self.supplier_id),
            date: date("date", &self.date),
            due_date: date("due_date", &self.due_date),
            delivery_date: date("delivery_date", &self.delivery_date),
            address: self.address.clone(),
            phone: self.phone.clone(),
            reference: self.reference.clone(),
            comments: self.comments.clone(),
            csr_self_note: self.csr_self_note.clone(),
            csr_service_id: id(&self.csr_service_id),
            csr_bd_id: id(&self.csr_bd_id),
            warehouse_id: id(&self.warehouse_id),
            in_warehouse_id: id(&self.in_warehouse_id),
            related_order_id: id(&self.related_order_id),
            tax_type: self.tax_type.trim().parse().unwrap_or(TaxType::default().as_i32()),
            ship_type: self.ship_type.trim().parse().ok(),
            exchange_rate: if self.exchange_rate.trim().is_empty() {
                None
            } else {
                match Rate::parse(&self.exchange_rate) {
                    Ok(r) => Some(r),
                    Err(e) => {
                        errors.insert("exchange_rate".into(), e.to_string());
                        None
                    }
                }
            },
            shipment_ref: self.shipment_ref.clone(),
        }
    }

    fn island_lines(&self) -> Vec<IslandLine> {
        if self.lines_json.trim().is_empty() {
            return plain_lines(&self.plain);
        }
        serde_json::from_str(&self.lines_json).unwrap_or_default()
    }
}

/// The lines of the line editor's plain rows (islands/src/islands/line-editor/static-rows.ts),
/// sent before its code arrived: `lines.<i>.code`, `.qty`, `.price`, … in line order. A line
/// names its product by the code typed (the save looks it up); at most one line more than a
/// sheet holds is read, so the save refuses too many lines as it does for the island.
fn plain_lines(fields: &BTreeMap<String, String>) -> Vec<IslandLine> {
    let mut lines: BTreeMap<usize, IslandLine> = BTreeMap::new();
    for (name, value) in fields {
        let Some((index, field)) = name.strip_prefix("lines.").and_then(|rest| rest.split_once('.')) else { continue };
        let Ok(index) = index.parse::<usize>() else { continue };
        if index > domain::limits::LINES_MAX {
            continue;
        }
        let line = lines.entry(index).or_insert_with(|| IslandLine { key: format!("new_{}", index + 1), ..Default::default() });
        let value = value.clone();
        match field {
            "code" => line.code = value,
            "name" => line.name = value,
            "qty" => line.qty = value,
            "price" => line.price = value,
            "description" => line.description = value,
            "taxType" => line.tax_type = value.trim().parse().unwrap_or(0),
            "dot" => line.dot = value,
            "inWarehouseQty" => line.in_warehouse_qty = value,
            "inSystemQty" => line.in_system_qty = value,
            _ => {}
        }
    }
    lines.into_values().collect()
}

fn drafts(lines: &[IslandLine]) -> Vec<LineDraft> {
    lines
        .iter()
        .map(|l| LineDraft {
            product_id: l.product_id,
            qty: l.qty.clone(),
            price: l.price.clone(),
            description: l.description.clone(),
            tax_type: l.tax_type,
            in_warehouse_qty: l.in_warehouse_qty.clone(),
            in_system_qty: l.in_system_qty.clone(),
            dot: l.dot.clone(),
            // Only a line without a picked product is looked up by its code.
            code: if l.product_id.is_none() { l.code.clone() } else { String::new() },
        })
        .collect()
}

#[derive(Template, WebTemplate)]
#[template(path = "orders/form.html")]
pub struct FormPage {
    pub shell: Shell,
    pub t: OrderType,
    pub heading: String,
    pub action: String,
    pub cancel: String,
    pub f: SheetForm,
    pub errors: BTreeMap<String, String>,
    /// The line editor, rendered on the server.
    pub editor: Island,
    pub warehouses: Vec<(i64, String)>,
    pub service_staff: Vec<(i64, String)>,
    pub business_staff: Vec<(i64, String)>,
    pub tags: Vec<(i32, &'static str)>,
    pub ship_types: Vec<(i32, &'static str)>,
    pub tax_types: Vec<(i32, &'static str)>,
    /// What `related_order_id` may name: open purchase orders (a bill), the credited
    /// invoice (a credit note).
    pub open_pos: Vec<(i64, String)>,
    pub shortcuts: Vec<(&'static str, String)>,
    pub cart_operation: Option<&'static str>,
    pub credit_limit: String,
    pub balance: String,
    /// The customer's overdue amount (empty when nothing is overdue).
    pub overdue: String,
    pub remark: String,
    /// A new sheet as it starts: its counterparty field has the focus on load (issue 32).
    pub starting: bool,
}

impl FormPage {
    fn err(&self, field: &str) -> &str {
        self.errors.get(field).map(String::as_str).unwrap_or("")
    }
    fn is(&self, value: &str, option: &str) -> bool {
        value == option
    }
    fn sales(&self) -> bool {
        matches!(self.t, OrderType::Invoice | OrderType::CreditNote)
    }
    fn purchase(&self) -> bool {
        matches!(self.t, OrderType::PurchaseOrder | OrderType::Bill | OrderType::BillCreditNote)
    }
    fn transfer(&self) -> bool {
        self.t == OrderType::Transfer
    }
    fn has_due(&self) -> bool {
        sheet::has_due_date(self.t)
    }
    fn delivery_label(&self) -> Option<&'static str> {
        sheet::delivery_date_label(self.t)
    }
    /// The secondary fields folded under 'More' open when a note is written (a customer's
    /// self-order note must be seen) or one of them has an error.
    fn more_open(&self) -> bool {
        let noted = !self.f.csr_self_note.trim().is_empty() || !self.f.comments.trim().is_empty();
        noted || ["address", "phone", "csr_service_id", "csr_bd_id", "csr_self_note", "comments"].iter().any(|k| !self.err(k).is_empty())
    }

    /// What the folded fields hold, named on the 'More' line while it is closed.
    fn more_summary(&self) -> String {
        let f = &self.f;
        let filled = [
            ("Address", self.sales() && !f.address.trim().is_empty()),
            ("Phone", self.sales() && !f.phone.trim().is_empty()),
            ("Service Staff", self.sales() && !f.csr_service_id.is_empty()),
            ("Business Staff", self.sales() && !f.csr_bd_id.is_empty()),
            ("CSR Self Note", !f.csr_self_note.trim().is_empty()),
            ("Comments", !f.comments.trim().is_empty()),
        ];
        let names: Vec<&str> = filled.iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect();
        if names.is_empty() { String::new() } else { format!("({})", names.join(", ")) }
    }

    fn account_text(&self) -> &'static str {
        if self.sales() { "Line Account Code 200 - Sales" } else { "Line Account Code 630 - Inventory" }
    }
}

fn kind_of(t: OrderType) -> &'static str {
    match t {
        OrderType::Invoice | OrderType::CreditNote => "sales",
        OrderType::PurchaseOrder | OrderType::Bill | OrderType::BillCreditNote => "purchase",
        OrderType::Transfer => "transfer",
        OrderType::Adjustment => "adjustment",
    }
}

/// Fills code, name, unit, stock, class A and cost of lines that name a product of the
/// company, as `sight` may see them: no cost without cost sight, and no price on a sheet of
/// type `t` valued at cost (an adjustment, whose saved price the server sets).
fn fill_products(lines: &mut [IslandLine], products: &HashMap<i64, LineProduct>, t: OrderType, sight: Sight, today: NaiveDate) {
    for l in lines.iter_mut() {
        if !sight.sees_money(t) {
            l.price.clear();
        }
        l.cost_price = None;
        // What the browser sent of these is never trusted: the product decides.
        l.dot_tracked = false;
        l.lots.clear();
        let Some(p) = l.product_id.and_then(|p| products.get(&p)) else { continue };
        l.code = p.code.clone();
        l.name = p.name.clone();
        l.unit = p.unit.clone();
        l.class_a = Some(p.class_a_price);
        l.cost_price = sight.cost(p.cost_price).map(|c| c.0);
        l.stock = p.stock;
        l.dot_tracked = p.dot_tracked;
        l.lots = IslandLot::list(&p.lots, today);
    }
}

/// A stored sheet's lines as the line editor receives them: in the sheet's currency, so a
/// foreign purchase sheet's lines carry the supplier's prices (`foreign`).
fn island_lines(lines: Vec<Line>, foreign: bool) -> Vec<IslandLine> {
    lines
        .into_iter()
        .map(|l| IslandLine {
            key: l.id.to_string(),
            product_id: l.product_id,
            qty: l.quantity.to_string(),
            price: Cents(if foreign { l.fx_price } else { l.price }).plain(),
            description: l.description,
            tax_type: l.tax_type,
            in_warehouse_qty: l.in_warehouse_qty.to_string(),
            in_system_qty: l.in_system_qty.to_string(),
            dot: l.dot.and_then(domain::dot::Dot::from_stored).map(domain::dot::Dot::code).unwrap_or_default(),
            ..Default::default()
        })
        .collect()
}

fn form_of_order(o: &Order, customer_label: String, supplier_label: String) -> SheetForm {
    let s = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or_default();
    let d = |v: Option<NaiveDate>| v.map(|x| x.to_string()).unwrap_or_default();
    SheetForm {
        version: o.version.to_string(),
        tag_id: o.tag_id.to_string(),
        customer_id: s(o.customer_id),
        customer_label,
        supplier_id: s(o.supplier_id),
        supplier_label,
        date: o.order_date.to_string(),
        due_date: d(o.due_date),
        delivery_date: d(o.delivery_date),
        address: o.address.clone(),
        phone: o.phone.clone(),
        reference: o.reference.clone(),
        comments: o.comments.clone(),
        csr_self_note: o.csr_self_note.clone(),
        csr_service_id: s(o.csr_service_id),
        csr_bd_id: s(o.csr_bd_id),
        warehouse_id: s(o.warehouse_id),
        in_warehouse_id: s(o.in_warehouse_id),
        related_order_id: s(o.related_order_id),
        tax_type: o.tax_type.to_string(),
        ship_type: o.ship_type.to_string(),
        exchange_rate: if o.currency == currency::AUD { String::new() } else { Rate(o.exchange_rate).plain() },
        shipment_ref: o.shipment_ref.clone(),
        currency: o.currency.clone(),
        lines_json: String::new(),
        plain: BTreeMap::new(),
    }
}

fn sheet_type(route: &str) -> AppResult<OrderType> {
    OrderType::from_route_name(route).ok_or(AppError::NotFound)
}

/// `GET /order_add/{route}` and `/order_add/{route}/{operation}`, streamed; a clone's source
/// is checked before the page answers.
pub async fn new_page(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(params): Path<Vec<(String, String)>>, Query(q): Query<AddQuery>) -> AppResult<Response> {
    let route = params.iter().find(|(k, _)| k == "route").map(|(_, v)| v.clone()).unwrap_or_default();
    let operation = params.iter().find(|(k, _)| k == "operation").map(|(_, v)| v.clone());
    let t = sheet_type(&route)?;
    let org = auth.org_id;
    let prefill = Prefill::of(operation.as_deref(), q)?;
    prefill.check(&state, org, t).await?;
    let blank = SheetForm {
        date: today(auth.zone).to_string(),
        tax_type: TaxType::default_for(t).as_i32().to_string(),
        ship_type: ShipType::default_for(t, None).as_i32().to_string(),
        tag_id: "1".into(),
        ..Default::default()
    };
    let st = state.clone();
    respond(&state, &auth, &headers, t, &format!("New {}", t.label()), async move { prefill.fill(&st, org, t, blank).await }).await
}

/// `POST /order_add/{route}`: creates the draft and lands on its detail page.
pub async fn create(State(state): State<AppState>, auth: Auth, Path(route): Path<String>, Form(f): Form<SheetForm>) -> AppResult<Response> {
    let t = sheet_type(&route)?;
    let mut errors = BTreeMap::new();
    let header = f.header(&mut errors);
    let island = f.island_lines();
    let actor = Actor::from(&auth);
    let drafts_ = drafts(&island);
    let result = if errors.is_empty() { state.db.write(move |c| svc::create(c, &actor, t, &header, &drafts_)).await } else { Err(AppError::Validation { message: String::new(), errors: errors.clone() }) };
    match result {
        Ok(id) => Ok(Redirect::to(&format!("/order_detail/{}/{id}?ok=1", t.route_name())).into_response()),
        Err(AppError::Validation { errors: e, .. }) => {
            errors.extend(e);
            // What was typed comes back as it was: no default fills a field left empty.
            render(&state, &auth, Render { starting: false, ..Render::new_sheet(t, f, island, errors, None) }, StatusCode::UNPROCESSABLE_ENTITY).await
        }
        Err(e) => Err(e),
    }
}

/// `GET /order_edit/{route}/{id}`: edit the content of a draft, streamed; the sheet's type
/// and number are read before the page answers (404 for another company's sheet).
pub async fn edit_page(State(state): State<AppState>, auth: Auth, headers: HeaderMap, uri: axum::http::Uri, Path((route, id_)): Path<(String, i64)>) -> AppResult<Response> {
    let org = auth.org_id;
    let head = state.db.run(move |c| order_views::head_of(c, org, id_)).await?;
    let t = OrderType::from_i32(head.order_type).ok_or(AppError::NotFound)?;
    if let Some(to) = super::canonical("order_edit", &route, t, id_, uri.query())? {
        return Ok(to.into_response());
    }
    let st = state.clone();
    respond(&state, &auth, &headers, t, &edit_heading(t, &head.no), async move {
        let SheetWithLines { sheet, lines } = st.db.run(move |c| order_views::sheet_with_lines(c, org, id_)).await?;
        let foreign = sheet.order.currency != currency::AUD;
        let (labels, o, lines) = (sheet.party_labels(), sheet.order, island_lines(lines, foreign));
        let st_ = SheetState { order_type: t, status: OrderStatus::from_i32(o.status).unwrap_or(OrderStatus::Draft), closed: o.closed, xero: Default::default() };
        let mut f = form_of_order(&o, labels.0, labels.1);
        // A rate that is the company's rate of the sheet's date is left blank, so a new date
        // takes its own; only a rate typed on the sheet stays (issue 35).
        if foreign {
            let (code, date) = (o.currency.clone(), o.order_date);
            let company = st.db.run(move |c| db::exchange_rates::rate_on(c, org, &code, date)).await?;
            if company.is_some_and(|(_, r)| r == o.exchange_rate) {
                f.exchange_rate.clear();
            }
        }
        Ok(Render::edit(t, &o.no, o.id, f, lines, BTreeMap::new(), allowed(Action::EditContent, &st_)))
    })
    .await
}

/// `POST /order_edit/{route}/{id}`: saves a draft's content (refused unless Draft).
pub async fn update(State(state): State<AppState>, auth: Auth, Path((_route, id_)): Path<(String, i64)>, Form(f): Form<SheetForm>) -> AppResult<Response> {
    let org = auth.org_id;
    let o = state.db.run(move |c| order_db::get(c, org, id_)).await?;
    let t = OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?;
    let mut errors = BTreeMap::new();
    let header = f.header(&mut errors);
    let island = f.island_lines();
    let version: i32 = f.version.trim().parse().unwrap_or(o.version);
    let actor = Actor::from(&auth);
    let drafts_ = drafts(&island);
    let result = if errors.is_empty() { state.db.write(move |c| svc::update(c, &actor, id_, version, &header, &drafts_)).await } else { Err(AppError::Validation { message: String::new(), errors: errors.clone() }) };
    let conflict = match result {
        Ok(()) => return Ok(Redirect::to(&format!("/order_detail/{}/{id_}?ok=1", t.route_name())).into_response()),
        Err(AppError::Validation { errors: e, .. }) => {
            errors.extend(e);
            false
        }
        Err(AppError::Conflict { message, .. }) => {
            errors.insert("form".into(), message);
            true
        }
        Err(e) => return Err(e),
    };
    render(&state, &auth, Render::edit(t, &o.no, o.id, f, island, errors, true), if conflict { StatusCode::CONFLICT } else { StatusCode::UNPROCESSABLE_ENTITY }).await
}
