//! Sheet queries.

use diesel::prelude::*;

use super::DbConn;
use super::schema::orders;
use domain::enums::{DrafterType, OrderStatus, OrderType};
use crate::error::AppResult;
use domain::money::Cents;
use domain::permissions::{Cost, Sight};

/// Customer self-orders waiting for staff: invoice drafts with drafterType 3 (spec §1) that
/// no one has taken up yet (no due date: staff set it when they take the order, spec §4).
pub fn self_order_count(conn: &mut DbConn, org: i64) -> AppResult<i64> {
    Ok(orders::table
        .filter(orders::org_id.eq(org))
        .filter(orders::drafter_type.eq(DrafterType::Customer.as_i32()))
        .filter(orders::status.eq(OrderStatus::Draft.as_i32()))
        .filter(orders::order_type.eq(OrderType::Invoice.as_i32()))
        .filter(orders::due_date.is_null())
        .count()
        .get_result(conn)?)
}

use chrono::{NaiveDate, NaiveDateTime};

use super::schema::{order_events, order_lines, order_sequences};

/// A sheet as stored (money in cents). The JSON answers add its `amount` through the
/// viewer's `Sight` (an adjustment's is valued at cost): see `api::orders`.
#[derive(Queryable, Selectable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = orders)]
pub struct Order {
    pub id: i64,
    #[serde(skip)]
    pub org_id: i64,
    pub no: String,
    #[serde(rename = "type")]
    pub order_type: i32,
    pub uuid: String,
    #[serde(rename = "tagId")]
    pub tag_id: i32,
    #[serde(rename = "customerId")]
    pub customer_id: Option<i64>,
    #[serde(rename = "supplierId")]
    pub supplier_id: Option<i64>,
    #[serde(rename = "date")]
    pub order_date: NaiveDate,
    #[serde(rename = "dueDate")]
    pub due_date: Option<NaiveDate>,
    #[serde(rename = "deliveryDate")]
    pub delivery_date: Option<NaiveDate>,
    pub address: String,
    pub phone: String,
    #[serde(rename = "csrServiceId")]
    pub csr_service_id: Option<i64>,
    #[serde(rename = "csrBDId")]
    pub csr_bd_id: Option<i64>,
    #[serde(rename = "driverId")]
    pub driver_id: Option<i64>,
    #[serde(rename = "deliveryStatus")]
    pub delivery_status: i32,
    #[serde(rename = "actualPayType")]
    pub actual_pay_type: i32,
    #[serde(rename = "deliveryComment")]
    pub delivery_comment: String,
    #[serde(rename = "csrCreditLimit")]
    pub csr_credit_limit: i64,
    #[serde(rename = "csrXeroBalance")]
    pub csr_xero_balance: i64,
    #[serde(rename = "csrSelfNote")]
    pub csr_self_note: String,
    pub reference: String,
    pub comments: String,
    #[serde(rename = "warehouseId")]
    pub warehouse_id: Option<i64>,
    #[serde(rename = "inWarehouseId")]
    pub in_warehouse_id: Option<i64>,
    #[serde(rename = "relatedOrderId")]
    pub related_order_id: Option<i64>,
    #[serde(rename = "taxType")]
    pub tax_type: i32,
    #[serde(rename = "shipType")]
    pub ship_type: i32,
    #[serde(rename = "paymentType")]
    pub payment_type: Option<i32>,
    #[serde(rename = "areaType")]
    pub area_type: Option<i32>,
    #[serde(rename = "priceType")]
    pub price_type: Option<i32>,
    pub status: i32,
    #[serde(rename = "closure")]
    pub closed: bool,
    #[serde(rename = "xeroSent")]
    pub xero_sent: i32,
    #[serde(rename = "xeroError")]
    pub xero_error: String,
    #[serde(skip)]
    pub xero_id: String,
    #[serde(rename = "print")]
    pub printed: bool,
    #[serde(rename = "printedAt")]
    pub printed_at: Option<NaiveDateTime>,
    #[serde(rename = "drafterType")]
    pub drafter_type: i32,
    #[serde(rename = "drafterId")]
    pub drafter_id: Option<i64>,
    #[serde(rename = "lastApproverId")]
    pub last_approver_id: Option<i64>,
    #[serde(rename = "lastApprovedAt")]
    pub last_approved_at: Option<NaiveDateTime>,
    #[serde(rename = "qty")]
    pub total_qty: i64,
    #[serde(skip)]
    pub total_amount: i64,
    #[serde(rename = "gst")]
    pub total_gst: i64,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// The total `total` of a sheet of type `order_type` as `sight` may see it (an adjustment's
/// is valued at cost).
pub fn amount_for(order_type: i32, total: i64, sight: Sight) -> Option<i64> {
    sight.sheet_total(OrderType::from_i32(order_type)?, Cents(total)).map(|c| c.0)
}

impl Order {
    /// The sheet's total as `sight` may see it ([`amount_for`]).
    pub fn amount_for(&self, sight: Sight) -> Option<i64> {
        amount_for(self.order_type, self.total_amount, sight)
    }
}

/// The columns of a sheet that the list export writes (and its keyset walk sorts by): a
/// third of the row, and none of the timestamps, which cost more to read than the rest.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = orders)]
pub struct ExportedOrder {
    pub id: i64,
    pub no: String,
    pub order_type: i32,
    pub customer_id: Option<i64>,
    pub supplier_id: Option<i64>,
    pub reference: String,
    pub order_date: NaiveDate,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
    pub warehouse_id: Option<i64>,
    pub driver_id: Option<i64>,
    pub delivery_status: i32,
    pub ship_type: i32,
    pub status: i32,
    pub closed: bool,
    pub xero_sent: i32,
    pub printed: bool,
    pub drafter_type: i32,
    pub total_qty: i64,
    pub total_amount: i64,
    pub total_gst: i64,
}

impl Counterparties for ExportedOrder {
    fn customer_id(&self) -> Option<i64> {
        self.customer_id
    }
    fn supplier_id(&self) -> Option<i64> {
        self.supplier_id
    }
}

/// A sheet line as stored. Its cost at approval is a [`Cost`]; the JSON sheet answers a
/// line through [`LineJson`], which asks the viewer's `Sight`.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = order_lines)]
pub struct Line {
    pub id: i64,
    pub org_id: i64,
    pub order_id: i64,
    pub seq: i32,
    pub product_id: Option<i64>,
    pub description: String,
    pub unit: String,
    pub quantity: i64,
    pub in_warehouse_qty: i64,
    pub in_system_qty: i64,
    pub price: i64,
    pub amount: i64,
    pub tax_type: i32,
    #[diesel(deserialize_as = i64)]
    pub cost_price: Cost,
}

/// A sheet line as answered to one viewer (spec §3's line fields): the cost at approval, and
/// an adjustment's price and amount (valued at cost), only for a viewer who may see cost.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LineJson {
    pub id: i64,
    pub seq: i32,
    #[serde(rename = "productId")]
    pub product_id: Option<i64>,
    #[serde(rename = "desc")]
    pub description: String,
    pub unit: String,
    pub quantity: i64,
    #[serde(rename = "inWarehouseQty")]
    pub in_warehouse_qty: i64,
    #[serde(rename = "inSystemQty")]
    pub in_system_qty: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price: Option<i64>,
    #[serde(rename = "line_amount", skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    #[serde(rename = "taxType")]
    pub tax_type: i32,
    #[serde(rename = "costPrice", skip_serializing_if = "Option::is_none")]
    pub cost_price: Option<i64>,
}

impl LineJson {
    /// Line `l` of a sheet of type `t` as `sight` may see it.
    pub fn new(l: Line, t: domain::enums::OrderType, sight: Sight) -> Self {
        let money = sight.line_money(t, Cents(l.price), Cents(l.amount));
        Self {
            id: l.id,
            seq: l.seq,
            product_id: l.product_id,
            description: l.description,
            unit: l.unit,
            quantity: l.quantity,
            in_warehouse_qty: l.in_warehouse_qty,
            in_system_qty: l.in_system_qty,
            price: money.map(|m| m.0.0),
            amount: money.map(|m| m.1.0),
            tax_type: l.tax_type,
            cost_price: sight.cost(l.cost_price).map(|c| c.0),
        }
    }
}

/// A history row (spec §3: date, operator, action).
#[derive(Queryable, Clone, Debug, serde::Serialize)]
pub struct Event {
    #[serde(rename = "date")]
    pub created_at: NaiveDateTime,
    pub operator: String,
    pub action: String,
}

/// One sheet of the organisation; another company's id is not found.
pub fn get(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Order> {
    Ok(orders::table.filter(orders::org_id.eq(org)).find(id).select(Order::as_select()).first(conn)?)
}

/// The lines of a sheet in `seq` order.
pub fn lines_of(conn: &mut DbConn, order_id: i64) -> AppResult<Vec<Line>> {
    Ok(order_lines::table.filter(order_lines::order_id.eq(order_id)).order((order_lines::seq.asc(), order_lines::id.asc())).select(Line::as_select()).load(conn)?)
}

/// The history of a sheet, oldest first.
pub fn events_of(conn: &mut DbConn, order_id: i64) -> AppResult<Vec<Event>> {
    Ok(order_events::table
        .filter(order_events::order_id.eq(order_id))
        .order((order_events::created_at.asc(), order_events::id.asc()))
        .select((order_events::created_at, order_events::operator, order_events::action))
        .load(conn)?)
}

/// Writes one history row.
pub fn add_event(conn: &mut DbConn, org: i64, order_id: i64, user_id: Option<i64>, operator: &str, action: &str) -> AppResult<()> {
    diesel::insert_into(order_events::table)
        .values(NewEvent { org_id: org, order_id, user_id, operator: operator.to_string(), action: action.to_string(), created_at: super::now() })
        .execute(conn)?;
    Ok(())
}

/// Takes the next number of a sheet type in the organisation (atomic under the row lock).
pub fn next_seq(conn: &mut DbConn, org: i64, order_type: i32) -> AppResult<i64> {
    let taken: Option<i64> = diesel::update(order_sequences::table.filter(order_sequences::org_id.eq(org)).filter(order_sequences::order_type.eq(order_type)))
        .set(order_sequences::next_value.eq(order_sequences::next_value + 1))
        .returning(order_sequences::next_value)
        .get_result(conn)
        .optional()?;
    match taken {
        Some(next) => Ok(next - 1),
        None => {
            diesel::insert_into(order_sequences::table).values(NewSequence { org_id: org, order_type, next_value: 2 }).execute(conn)?;
            Ok(1)
        }
    }
}

/// The neighbour of a sheet across all types: the previous or next id in the organisation.
pub fn neighbour(conn: &mut DbConn, org: i64, id: i64, forward: bool) -> AppResult<Option<(i64, i32)>> {
    let base = orders::table.filter(orders::org_id.eq(org)).select((orders::id, orders::order_type));
    Ok(if forward {
        base.filter(orders::id.gt(id)).order(orders::id.asc()).first(conn).optional()?
    } else {
        base.filter(orders::id.lt(id)).order(orders::id.desc()).first(conn).optional()?
    })
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = orders, treat_none_as_default_value = false)]
pub struct NewOrder {
    pub id: i64,
    pub org_id: i64,
    pub no: String,
    pub order_type: i32,
    pub uuid: String,
    pub tag_id: i32,
    pub customer_id: Option<i64>,
    pub supplier_id: Option<i64>,
    pub order_date: NaiveDate,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
    pub address: String,
    pub phone: String,
    pub csr_service_id: Option<i64>,
    pub csr_bd_id: Option<i64>,
    pub driver_id: Option<i64>,
    pub delivery_status: i32,
    pub actual_pay_type: i32,
    pub csr_credit_limit: i64,
    pub csr_xero_balance: i64,
    pub reference: String,
    pub comments: String,
    pub warehouse_id: Option<i64>,
    pub in_warehouse_id: Option<i64>,
    pub related_order_id: Option<i64>,
    pub tax_type: i32,
    pub ship_type: i32,
    pub payment_type: Option<i32>,
    pub area_type: Option<i32>,
    pub price_type: Option<i32>,
    pub status: i32,
    pub closed: bool,
    pub xero_sent: i32,
    pub printed: bool,
    pub drafter_type: i32,
    pub drafter_id: Option<i64>,
    pub last_approver_id: Option<i64>,
    pub last_approved_at: Option<NaiveDateTime>,
    pub total_qty: i64,
    pub total_amount: i64,
    pub total_gst: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = order_lines, treat_none_as_default_value = false)]
pub struct NewLine {
    pub id: i64,
    pub org_id: i64,
    pub order_id: i64,
    pub seq: i32,
    pub product_id: Option<i64>,
    pub description: String,
    pub unit: String,
    pub quantity: i64,
    pub in_warehouse_qty: i64,
    pub in_system_qty: i64,
    pub price: i64,
    pub amount: i64,
    pub tax_type: i32,
    pub cost_price: i64,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = order_events, treat_none_as_default_value = false)]
pub struct NewEvent {
    pub org_id: i64,
    pub order_id: i64,
    pub user_id: Option<i64>,
    pub operator: String,
    pub action: String,
    pub created_at: NaiveDateTime,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = order_sequences, treat_none_as_default_value = false)]
pub struct NewSequence {
    pub org_id: i64,
    pub order_type: i32,
    pub next_value: i64,
}

/// Writes a sheet's lines (their `id`s are ignored: the database numbers them), a few hundred
/// per statement instead of one statement per line.
pub fn add_lines(conn: &mut DbConn, lines: &[NewLine]) -> AppResult<()> {
    for chunk in lines.chunks(super::CHUNK) {
        let values: Vec<_> = chunk
            .iter()
            .map(|r| {
                (
                    order_lines::org_id.eq(r.org_id),
                    order_lines::order_id.eq(r.order_id),
                    order_lines::seq.eq(r.seq),
                    order_lines::product_id.eq(r.product_id),
                    order_lines::description.eq(r.description.clone()),
                    order_lines::unit.eq(r.unit.clone()),
                    order_lines::quantity.eq(r.quantity),
                    order_lines::in_warehouse_qty.eq(r.in_warehouse_qty),
                    order_lines::in_system_qty.eq(r.in_system_qty),
                    order_lines::price.eq(r.price),
                    order_lines::amount.eq(r.amount),
                    order_lines::tax_type.eq(r.tax_type),
                    order_lines::cost_price.eq(r.cost_price),
                )
            })
            .collect();
        crate::per_backend!(&mut *conn, |c| diesel::insert_into(order_lines::table).values(values.clone()).execute(c))?;
    }
    Ok(())
}

/// Copies each product's current average cost onto the sheet's lines (at approval, so a
/// sale's margin stays what it was: DESIGN §5), in one statement.
pub fn keep_line_costs(conn: &mut DbConn, org: i64, order_id: i64) -> AppResult<()> {
    use super::schema::products;
    let cost = products::table
        .filter(products::org_id.eq(org))
        .filter(products::id.nullable().eq(order_lines::product_id))
        .select(products::cost_price)
        .single_value()
        .assume_not_null();
    diesel::update(order_lines::table.filter(order_lines::order_id.eq(order_id)).filter(order_lines::product_id.is_not_null()))
        .set(order_lines::cost_price.eq(cost))
        .execute(conn)?;
    Ok(())
}

crate::batch_insert_fn!(insert_orders, orders::table, NewOrder);
crate::batch_insert_fn!(insert_lines, order_lines::table, NewLine);
crate::batch_insert_fn!(insert_events, order_events::table, NewEvent);
crate::batch_insert_fn!(insert_sequences, order_sequences::table, NewSequence);


use super::masters::Paged;
use super::search::{self, Searchable};
use super::Backend;
use domain::limits::count_limit;
use super::schema::{customers, products, suppliers};
use crate::multi_connection_impl::MultiBackend;
use domain::enums::{OrderSort, OrderSortKey, SortDirection};

/// Filters of the sheet lists (spec §2.4, §3 Order list filter), cleaned of dropped values.
#[derive(serde::Deserialize, Debug, Clone, Default)]
pub struct OrderFilter {
    /// A type code, or `csr` for the customer self-order view (spec §2.1).
    #[serde(rename = "type")]
    pub order_type: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub due_from: Option<NaiveDate>,
    pub due_to: Option<NaiveDate>,
    /// ETA / dispatch date range (purchase orders).
    pub eta_from: Option<NaiveDate>,
    pub eta_to: Option<NaiveDate>,
    pub tag: Option<i32>,
    pub no: Option<String>,
    pub csr: Option<String>,
    pub supplier: Option<String>,
    pub reference: Option<String>,
    pub drafter_type: Option<i32>,
    /// Sheets with a line whose product matches (code, helper code or name).
    pub product: Option<String>,
    pub warehouse: Option<i64>,
    pub in_warehouse: Option<i64>,
    pub sort: Option<i32>,
    pub delivery_status: Option<i32>,
    pub status: Option<i32>,
    /// `printed` or `unprinted`.
    pub print: Option<String>,
    /// `unsent`, `sent` or `fail`.
    pub xero: Option<String>,
    /// `closed` or `unclosed`.
    pub closure: Option<String>,
    /// Customer self-orders: `awaiting` (undated drafts), `taken` (dated drafts) or `done`
    /// (`handled` is read as `done`).
    pub csr_status: Option<String>,
}

impl domain::validate::ListedValues for OrderFilter {
    fn unlisted(&self) -> std::collections::BTreeMap<String, String> {
        use domain::enums::{DeliveryStatus, Tag};
        use domain::validate::{listed_code, listed_word};
        let mut e = std::collections::BTreeMap::new();
        if let Some(t) = self.order_type.as_deref().filter(|t| *t != "csr") {
            listed_code(&mut e, "type", Some(t.parse().unwrap_or(-1)), OrderType::from_i32);
        }
        listed_code(&mut e, "tag", self.tag, Tag::from_i32);
        listed_code(&mut e, "drafter_type", self.drafter_type, DrafterType::from_i32);
        listed_code(&mut e, "delivery_status", self.delivery_status, DeliveryStatus::from_i32);
        listed_code(&mut e, "status", self.status, OrderStatus::from_i32);
        listed_code(&mut e, "sort", self.sort, OrderSort::from_i32);
        listed_word(&mut e, "print", self.print.as_deref(), &["printed", "unprinted"]);
        // Checked by the reader the list query uses, so the two cannot differ.
        domain::validate::listed_if(&mut e, "xero", self.xero.as_deref(), |v| crate::products::xero_state(Some(v)).is_some());
        listed_word(&mut e, "closure", self.closure.as_deref(), &["closed", "unclosed"]);
        listed_word(&mut e, "csr_status", self.csr_status.as_deref(), &["awaiting", "taken", "done", "handled"]);
        e
    }
}

/// A list row: the sheet (whole, or the columns an export writes) with its counterparty's name.
pub struct OrderRow<O = Order> {
    pub order: O,
    pub customer: Option<String>,
    pub supplier: Option<String>,
}

type BoxedOrders = orders::BoxedQuery<'static, MultiBackend>;

/// A counterparty or product filter matches its whole text as one phrase.
fn phrase(s: &str) -> String {
    s.trim().to_lowercase()
}

/// What the text filters of a list match, looked up before the list query so that the list
/// is planned from real numbers instead of a planner's guess about a text match.
pub struct TextMatches {
    backend: Backend,
    /// Sheets found by number or reference, when few (see `search::few`).
    no: Option<Vec<i64>>,
    reference: Option<Vec<i64>>,
    /// The company's customers / suppliers matching 'To CSR' / supplier, when not too many.
    customers: Option<Vec<i64>>,
    suppliers: Option<Vec<i64>>,
}

/// At most this many sheets found by number or reference drive a list by their ids.
const FEW_SHEETS: i64 = 1_000;
/// Counterparties matching a filter are listed by id up to this many.
const LISTED_COUNTERPARTIES: i64 = 1_000;
/// A page of sheets of up to this many counterparties is read through the counterparty
/// index and sorted (at L about 120 invoices each); for more, walking the list's date index
/// and keeping theirs finds a page sooner. Counts always use the counterparty index.
const FEW_COUNTERPARTIES: usize = 40;

/// What a query wants from the filters: a count enumerates matches by the most selective
/// index; a page wants them in list order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Count,
    Page,
}

fn text_matches(conn: &mut DbConn, org: i64, f: &OrderFilter) -> AppResult<TextMatches> {
    let backend = conn.backend();
    let mut few = |what, text: Option<&str>| text.map_or(Ok(None), |t| search::few(conn, what, t.trim(), FEW_SHEETS));
    let (no, reference) = (few(Searchable::SheetNumbers, f.no.as_deref())?, few(Searchable::SheetReferences, f.reference.as_deref())?);
    let customers = match f.csr.as_deref() {
        Some(c) => {
            let q = customers::table.filter(customers::org_id.eq(org)).filter(search::contains(backend, Searchable::Customers, &phrase(c)));
            listed(q.select(customers::id).limit(LISTED_COUNTERPARTIES + 1).load(conn)?)
        }
        None => None,
    };
    let suppliers = match f.supplier.as_deref() {
        Some(s) => {
            let q = suppliers::table.filter(suppliers::org_id.eq(org)).filter(search::contains(backend, Searchable::Suppliers, &phrase(s)));
            listed(q.select(suppliers::id).limit(LISTED_COUNTERPARTIES + 1).load(conn)?)
        }
        None => None,
    };
    Ok(TextMatches { backend, no, reference, customers, suppliers })
}

fn listed(ids: Vec<i64>) -> Option<Vec<i64>> {
    (ids.len() as i64 <= LISTED_COUNTERPARTIES).then_some(ids)
}

/// A counterparty column (`orders.customer_id`, `orders.supplier_id`) as a filter should use
/// it: as is for a count or a page of few counterparties (their index drives the query), or
/// with unary plus, which no index can serve on either backend, so that a page of many
/// counterparties is driven by the list's ordered index instead.
fn counterparty_column(column: &str, listed: Option<&Vec<i64>>, purpose: Use) -> diesel::expression::SqlLiteral<diesel::sql_types::Nullable<diesel::sql_types::BigInt>> {
    let by_index = purpose == Use::Count || listed.is_some_and(|ids| ids.len() <= FEW_COUNTERPARTIES);
    diesel::dsl::sql(&format!("{}{column}", if by_index { "" } else { "+" }))
}

fn filtered(m: &TextMatches, org: i64, types: &[i32], f: &OrderFilter, purpose: Use) -> BoxedOrders {
    let backend = m.backend;
    // Orders only: counterparties filter through subqueries, so counting never joins.
    let mut q = orders::table.filter(orders::org_id.eq(org)).into_boxed();
    match f.order_type.as_deref().and_then(|t| t.parse::<i32>().ok()).filter(|t| types.contains(t)) {
        Some(t) => q = q.filter(orders::order_type.eq(t)),
        None => q = q.filter(orders::order_type.eq_any(types.to_vec())),
    }
    if let Some(d) = f.from {
        q = q.filter(orders::order_date.ge(d));
    }
    if let Some(d) = f.to {
        q = q.filter(orders::order_date.le(d));
    }
    if let Some(d) = f.due_from {
        q = q.filter(orders::due_date.ge(d));
    }
    if let Some(d) = f.due_to {
        q = q.filter(orders::due_date.le(d));
    }
    if let Some(d) = f.eta_from {
        q = q.filter(orders::delivery_date.ge(d));
    }
    if let Some(d) = f.eta_to {
        q = q.filter(orders::delivery_date.le(d));
    }
    if let Some(t) = f.tag {
        q = q.filter(orders::tag_id.eq(t));
    }
    if let Some(no) = f.no.as_deref() {
        q = match &m.no {
            Some(ids) => q.filter(orders::id.eq_any(ids.clone())),
            None => q.filter(search::contains(backend, Searchable::SheetNumbers, no.trim())),
        };
    }
    if let Some(c) = f.csr.as_deref() {
        let column = counterparty_column("orders.customer_id", m.customers.as_ref(), purpose);
        q = match &m.customers {
            Some(ids) => q.filter(column.eq_any(ids.clone())),
            None => {
                let matching = customers::table.filter(customers::org_id.eq(org)).select(customers::id).filter(search::contains(backend, Searchable::Customers, &phrase(c)));
                q.filter(column.eq_any(matching.nullable()))
            }
        };
    }
    if let Some(s) = f.supplier.as_deref() {
        let column = counterparty_column("orders.supplier_id", m.suppliers.as_ref(), purpose);
        q = match &m.suppliers {
            Some(ids) => q.filter(column.eq_any(ids.clone())),
            None => {
                let matching = suppliers::table.filter(suppliers::org_id.eq(org)).select(suppliers::id).filter(search::contains(backend, Searchable::Suppliers, &phrase(s)));
                q.filter(column.eq_any(matching.nullable()))
            }
        };
    }
    if let Some(r) = f.reference.as_deref() {
        q = match &m.reference {
            Some(ids) => q.filter(orders::id.eq_any(ids.clone())),
            None => q.filter(search::contains(backend, Searchable::SheetReferences, r.trim())),
        };
    }
    if let Some(d) = f.drafter_type {
        q = q.filter(orders::drafter_type.eq(d));
    }
    if let Some(p) = f.product.as_deref() {
        let inside = order_lines::table
            .inner_join(products::table)
            .filter(order_lines::org_id.eq(org))
            .filter(search::contains(backend, Searchable::Products, &phrase(p)))
            .select(order_lines::order_id);
        q = q.filter(orders::id.eq_any(inside));
    }
    if let Some(w) = f.warehouse {
        q = q.filter(orders::warehouse_id.eq(w));
    }
    if let Some(w) = f.in_warehouse {
        q = q.filter(orders::in_warehouse_id.eq(w));
    }
    if let Some(d) = f.delivery_status {
        q = q.filter(orders::delivery_status.eq(d));
    }
    if let Some(s) = f.status {
        q = q.filter(orders::status.eq(s));
    }
    match f.print.as_deref() {
        Some("printed") => q = q.filter(orders::printed.eq(true)),
        Some("unprinted") => q = q.filter(orders::printed.eq(false)),
        _ => {}
    }
    if let Some(x) = super::products::xero_state(f.xero.as_deref()) {
        q = q.filter(orders::xero_sent.eq(x.as_i32()));
    }
    match f.closure.as_deref() {
        Some("closed") => q = q.filter(orders::closed.eq(true)),
        Some("unclosed") => q = q.filter(orders::closed.eq(false)),
        _ => {}
    }
    match f.csr_status.as_deref() {
        // Awaiting staff: a customer's draft nobody has taken up (staff take it up by setting
        // its due date, spec §4); taken: dated but still a draft; done: approved or voided.
        Some("awaiting") => q = q.filter(orders::drafter_type.eq(3)).filter(orders::status.eq(1)).filter(orders::due_date.is_null()),
        Some("taken") => q = q.filter(orders::drafter_type.eq(3)).filter(orders::status.eq(1)).filter(orders::due_date.is_not_null()),
        Some("done" | "handled") => q = q.filter(orders::drafter_type.eq(3)).filter(orders::status.ne(1)),
        _ => {}
    }
    q
}

fn sorted(q: BoxedOrders, sort: Option<i32>) -> BoxedOrders {
    match sort.and_then(OrderSort::from_i32).and_then(OrderSort::order) {
        Some((OrderSortKey::Number, SortDirection::Desc)) => q.order((orders::no.desc(), orders::id.desc())),
        Some((OrderSortKey::Number, SortDirection::Asc)) => q.order((orders::no.asc(), orders::id.asc())),
        Some((OrderSortKey::Amount, SortDirection::Desc)) => q.order((orders::total_amount.desc(), orders::id.desc())),
        Some((OrderSortKey::Amount, SortDirection::Asc)) => q.order((orders::total_amount.asc(), orders::id.asc())),
        Some((OrderSortKey::DueDate, SortDirection::Desc)) => q.order((orders::due_date.desc(), orders::id.desc())),
        Some((OrderSortKey::DueDate, SortDirection::Asc)) => q.order((orders::due_date.asc(), orders::id.asc())),
        None => q.order((orders::order_date.desc(), orders::id.desc())),
    }
}

/// A sheet that names its counterparties by id.
pub trait Counterparties {
    fn customer_id(&self) -> Option<i64>;
    fn supplier_id(&self) -> Option<i64>;
}

impl Counterparties for Order {
    fn customer_id(&self) -> Option<i64> {
        self.customer_id
    }
    fn supplier_id(&self) -> Option<i64> {
        self.supplier_id
    }
}

/// Adds the counterparties' names to sheets (two keyed lookups for the whole page), only
/// from company `org`: a reference to another company's row shows no name.
fn with_names<O: Counterparties>(conn: &mut DbConn, org: i64, orders_: Vec<O>) -> AppResult<Vec<OrderRow<O>>> {
    let cids: Vec<i64> = orders_.iter().filter_map(|o| o.customer_id()).collect();
    let sids: Vec<i64> = orders_.iter().filter_map(|o| o.supplier_id()).collect();
    let mut cnames = std::collections::HashMap::new();
    for chunk in cids.chunks(super::CHUNK) {
        cnames.extend(customers::table.filter(customers::org_id.eq(org)).filter(customers::id.eq_any(chunk)).select((customers::id, customers::name)).load::<(i64, String)>(conn)?);
    }
    let mut snames = std::collections::HashMap::new();
    for chunk in sids.chunks(super::CHUNK) {
        snames.extend(suppliers::table.filter(suppliers::org_id.eq(org)).filter(suppliers::id.eq_any(chunk)).select((suppliers::id, suppliers::name)).load::<(i64, String)>(conn)?);
    }
    Ok(orders_
        .into_iter()
        .map(|order| OrderRow {
            customer: order.customer_id().and_then(|c| cnames.get(&c).cloned()),
            supplier: order.supplier_id().and_then(|s| snames.get(&s).cloned()),
            order,
        })
        .collect())
}

/// One page of a sheet list limited to `types`.
pub fn list(conn: &mut DbConn, org: i64, types: &[i32], f: &OrderFilter, offset: i64, limit: i64) -> AppResult<Paged<OrderRow>> {
    let m = text_matches(conn, org, f)?;
    let total = super::CountOf(filtered(&m, org, types, f, Use::Count).select(orders::id).limit(count_limit(offset))).get_result(conn)?;
    let page: Vec<Order> = sorted(filtered(&m, org, types, f, Use::Page), f.sort).offset(offset).limit(limit).select(Order::as_select()).load(conn)?;
    Ok(Paged { rows: with_names(conn, org, page)?, total })
}

/// How the backend runs the page query of [`list`] (tests pin the index that drives it).
pub fn list_plan(conn: &mut DbConn, org: i64, types: &[i32], f: &OrderFilter) -> AppResult<Vec<String>> {
    let m = text_matches(conn, org, f)?;
    let q = sorted(filtered(&m, org, types, f, Use::Page), f.sort).limit(150).select(Order::as_select());
    super::plan(conn, q)
}

/// A past sheet line of a product (the 'CHK' price history, spec §3 Price-history row).
#[derive(Queryable, Clone, Debug, serde::Serialize)]
pub struct PriceHistoryRow {
    pub id: i64,
    pub no: String,
    pub date: NaiveDate,
    #[serde(rename = "dueDate")]
    pub due_date: Option<NaiveDate>,
    pub reference: String,
    #[serde(rename = "csrName")]
    pub csr_name: Option<String>,
    pub qty: i64,
    #[serde(rename = "unitPrice")]
    pub unit_price: i64,
    pub amount: i64,
    #[serde(rename = "type")]
    pub order_type: i32,
}

/// The latest approved sales lines of a product, for one customer when given.
pub fn price_history(conn: &mut DbConn, org: i64, product_id: i64, customer: Option<i64>, limit: i64) -> AppResult<Vec<PriceHistoryRow>> {
    let mut q = order_lines::table
        .inner_join(orders::table.left_join(customers::table))
        .filter(order_lines::org_id.eq(org))
        .filter(order_lines::product_id.eq(product_id))
        .filter(orders::order_type.eq_any([1, 2]))
        .filter(orders::status.eq_any([2, 4]))
        .into_boxed();
    if let Some(c) = customer {
        q = q.filter(orders::customer_id.eq(c));
    }
    Ok(q.order((orders::order_date.desc(), orders::id.desc()))
        .limit(limit)
        .select((
            orders::id,
            orders::no,
            orders::order_date,
            orders::due_date,
            orders::reference,
            customers::name.nullable(),
            order_lines::quantity,
            order_lines::price,
            order_lines::amount,
            orders::order_type,
        ))
        .load(conn)?)
}

/// Visits every sheet matching the list filter, in list order, `chunk` sheets at a time with
/// their counterparties' names (exports). Keyset paging on the sort key and id; a due-date
/// sort walks the sheets without a due date as their own run, where the backend sorts them.
pub fn for_each_chunk(
    conn: &mut DbConn,
    org: i64,
    types: &[i32],
    f: &OrderFilter,
    chunk: usize,
    mut visit: impl FnMut(Vec<OrderRow<ExportedOrder>>) -> AppResult<()>,
) -> AppResult<()> {
    let order = f.sort.and_then(OrderSort::from_i32).and_then(OrderSort::order);
    let desc = order.is_none_or(|(_, dir)| dir == SortDirection::Desc);
    let runs: &[Run] = match order {
        Some((OrderSortKey::DueDate, _)) if super::nulls_first(conn.backend(), desc) => &[Run::NoDueDate, Run::DueDate],
        Some((OrderSortKey::DueDate, _)) => &[Run::DueDate, Run::NoDueDate],
        _ => &[Run::All],
    };
    let m = text_matches(conn, org, f)?;
    let mut named = |c: &mut DbConn, rows: Vec<ExportedOrder>| visit(with_names(c, org, rows)?);
    for run in runs {
        let page = |c: &mut DbConn, after: Option<&ExportedOrder>, limit: i64| -> AppResult<Vec<ExportedOrder>> {
            let mut q = sorted(filtered(&m, org, types, f, Use::Page), f.sort);
            q = match run {
                Run::All => q,
                Run::DueDate => q.filter(orders::due_date.is_not_null()),
                Run::NoDueDate => q.filter(orders::due_date.is_null()),
            };
            if let Some(last) = after {
                q = q.filter(after_order(order, *run, desc, last));
            }
            Ok(q.limit(limit).select(ExportedOrder::as_select()).load(c)?)
        };
        super::keyset_chunks(conn, chunk, page, &mut named)?;
    }
    Ok(())
}

/// One stretch of an export's keyset walk.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Run {
    All,
    /// Sheets with a due date (due-date sorts).
    DueDate,
    /// Sheets without one, ordered by id alone.
    NoDueDate,
}

/// The sheets after `last` in the order of [`sorted`].
fn after_order(order: Option<(OrderSortKey, SortDirection)>, run: Run, desc: bool, last: &ExportedOrder) -> super::Predicate<orders::table> {
    use diesel::sql_types::{BigInt, Date, Nullable, Text};
    let id = last.id;
    match (order, run) {
        (_, Run::NoDueDate) if desc => Box::new(orders::id.lt(id)),
        (_, Run::NoDueDate) => Box::new(orders::id.gt(id)),
        (Some((OrderSortKey::Number, _)), _) => super::after_key::<_, Text, _>("orders.no", "orders.id", desc, last.no.clone(), id),
        (Some((OrderSortKey::Amount, _)), _) => super::after_key::<_, BigInt, _>("orders.total_amount", "orders.id", desc, last.total_amount, id),
        // This run holds only dated sheets, so the bound key is never NULL.
        (Some((OrderSortKey::DueDate, _)), _) => super::after_key::<_, Nullable<Date>, _>("orders.due_date", "orders.id", desc, last.due_date, id),
        (None, _) => super::after_key::<_, Date, _>("orders.order_date", "orders.id", desc, last.order_date, id),
    }
}
