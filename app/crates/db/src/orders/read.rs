//! One sheet: the stored row, its lines and history, the neighbour of a sheet, the self-order
//! count and a product's price history.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use domain::enums::{DrafterType, OrderStatus, OrderType};
use domain::money::Cents;
use domain::permissions::{Cost, Sight};

use crate::DbConn;
use crate::error::AppResult;
use crate::schema::{customers, order_events, order_lines, orders};

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
    /// What Xero last said the invoice sent from this sheet still owes and has been paid,
    /// in cents, the day it was fully paid and when that was read (issue 31; `None` until
    /// the payments job first read it).
    #[serde(rename = "xeroAmountDue")]
    pub xero_amount_due: Option<i64>,
    #[serde(rename = "xeroAmountPaid")]
    pub xero_amount_paid: Option<i64>,
    #[serde(rename = "xeroPaidOn")]
    pub xero_paid_on: Option<NaiveDate>,
    #[serde(rename = "xeroPaymentsAt")]
    pub xero_payments_at: Option<NaiveDateTime>,
    /// A purchase sheet's currency (issue 35): 'AUD', or its supplier's currency.
    pub currency: String,
    /// Units of `currency` per 1 AUD, in millionths (`domain::currency::Rate`).
    #[serde(rename = "exchangeRate", serialize_with = "rate_json")]
    pub exchange_rate: i64,
    /// The totals in `currency` (0 on an AUD sheet, whose totals are the AUD ones).
    #[serde(rename = "fxAmount")]
    pub fx_total_amount: i64,
    #[serde(rename = "fxGst")]
    pub fx_total_gst: i64,
    /// A purchase order's container or vessel.
    #[serde(rename = "shipmentRef")]
    pub shipment_ref: String,
}

/// A rate in millionths as the JSON sheet carries it: a decimal like Xero's `CurrencyRate`.
fn rate_json<S: serde::Serializer>(rate: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(domain::currency::Rate(*rate).as_decimal())
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
    /// On a sheet in a foreign currency: the unit price and amount the supplier billed, in
    /// that currency (price and amount are their AUD conversion); 0 otherwise.
    pub fx_price: i64,
    pub fx_amount: i64,
    /// A tyre line's DOT code (year * 100 + week, issue 36): the lot a bill, adjustment or
    /// credit note puts stock into, or the lot an invoice, bill credit note or transfer is
    /// pinned to; `None` takes the oldest first.
    pub dot: Option<i32>,
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
    /// The line in the sheet's foreign currency (issue 35); absent on an AUD sheet.
    #[serde(rename = "fxPrice", skip_serializing_if = "Option::is_none")]
    pub fx_price: Option<i64>,
    #[serde(rename = "fxAmount", skip_serializing_if = "Option::is_none")]
    pub fx_amount: Option<i64>,
    /// The DOT code the line names, 'WWYY' (issue 36); absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dot: Option<String>,
}

impl LineJson {
    /// Line `l` of a sheet of type `t` as `sight` may see it; `foreign` when the sheet is in
    /// a currency other than AUD.
    pub fn new(l: Line, t: domain::enums::OrderType, sight: Sight, foreign: bool) -> Self {
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
            fx_price: foreign.then_some(l.fx_price),
            fx_amount: foreign.then_some(l.fx_amount),
            dot: l.dot.and_then(domain::dot::Dot::from_stored).map(domain::dot::Dot::code),
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

/// The invoice credit note `o` credits (issue 32): its id and number, when `o` is a credit
/// note linked to an invoice of its own company and customer (the save allows no other).
pub fn credited_invoice(conn: &mut DbConn, o: &Order) -> AppResult<Option<(i64, String)>> {
    let (Some(id), Some(customer)) = (o.related_order_id, o.customer_id) else { return Ok(None) };
    if o.order_type != OrderType::CreditNote.as_i32() {
        return Ok(None);
    }
    Ok(orders::table
        .filter(orders::org_id.eq(o.org_id))
        .filter(orders::order_type.eq(OrderType::Invoice.as_i32()))
        .filter(orders::customer_id.eq(customer))
        .find(id)
        .select((orders::id, orders::no))
        .first(conn)
        .optional()?)
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

/// The neighbour of a sheet across all types: the previous or next id in the organisation.
pub fn neighbour(conn: &mut DbConn, org: i64, id: i64, forward: bool) -> AppResult<Option<(i64, i32)>> {
    let base = orders::table.filter(orders::org_id.eq(org)).select((orders::id, orders::order_type));
    Ok(if forward {
        base.filter(orders::id.gt(id)).order(orders::id.asc()).first(conn).optional()?
    } else {
        base.filter(orders::id.lt(id)).order(orders::id.desc()).first(conn).optional()?
    })
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

/// What approved bills against purchase order `po` of company `org` received: (product,
/// quantity) per bill line, in bill order (issue 35: part receipts of a container).
pub fn received_of(conn: &mut DbConn, org: i64, po: i64) -> AppResult<Vec<(i64, i64)>> {
    let rows: Vec<(Option<i64>, i64)> = order_lines::table
        .inner_join(orders::table)
        .filter(orders::org_id.eq(org))
        .filter(orders::related_order_id.eq(po))
        .filter(orders::order_type.eq(OrderType::Bill.as_i32()))
        .filter(orders::status.eq_any([OrderStatus::Approved.as_i32(), OrderStatus::Closed.as_i32()]))
        .order((orders::id.asc(), order_lines::seq.asc()))
        .select((order_lines::product_id, order_lines::quantity))
        .load(conn)?;
    Ok(rows.into_iter().filter_map(|(p, q)| p.map(|p| (p, q))).collect())
}

/// A purchase order still bringing product `product` of company `org` (issue 35): approved,
/// not closed, with its number, warehouse, ETA, shipment and its lines of the product.
#[derive(Clone, Debug)]
pub struct Coming {
    pub id: i64,
    pub no: String,
    pub warehouse_id: Option<i64>,
    pub eta: Option<NaiveDate>,
    pub shipment_ref: String,
    /// The product's quantity on the order, line by line.
    pub ordered: Vec<i64>,
}

/// The open purchase orders of `product` ([`Coming`]), soonest ETA first (none last).
pub fn coming_of(conn: &mut DbConn, org: i64, product: i64) -> AppResult<Vec<Coming>> {
    let rows: Vec<(i64, String, Option<i64>, Option<NaiveDate>, String, i64)> = order_lines::table
        .inner_join(orders::table)
        .filter(orders::org_id.eq(org))
        .filter(orders::order_type.eq(OrderType::PurchaseOrder.as_i32()))
        .filter(orders::status.eq(OrderStatus::Approved.as_i32()))
        .filter(orders::closed.eq(false))
        .filter(order_lines::org_id.eq(org))
        .filter(order_lines::product_id.eq(product))
        .order((orders::id.asc(), order_lines::seq.asc()))
        .select((orders::id, orders::no, orders::warehouse_id, orders::delivery_date, orders::shipment_ref, order_lines::quantity))
        .load(conn)?;
    let mut out: Vec<Coming> = Vec::new();
    for (id, no, warehouse_id, eta, shipment_ref, qty) in rows {
        match out.last_mut() {
            Some(c) if c.id == id => c.ordered.push(qty),
            _ => out.push(Coming { id, no, warehouse_id, eta, shipment_ref, ordered: vec![qty] }),
        }
    }
    out.sort_by_key(|c| (c.eta.is_none(), c.eta, c.id));
    Ok(out)
}
