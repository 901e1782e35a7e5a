//! Payments read back from Xero (issue 31): what the payments job writes on a sent invoice,
//! and a customer's sent invoices still owing, for the overdue amount and the approval guard.

use std::collections::HashMap;

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use domain::enums::{OrderType, XeroState};
use domain::money::Cents;
use domain::payments::Owed;

use crate::DbConn;
use crate::error::AppResult;
use crate::schema::orders;

/// What Xero said of one invoice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentRead {
    pub xero_id: String,
    /// `None` when the invoice is no longer live in Xero (voided, deleted): nothing is shown.
    pub amount_due: Option<Cents>,
    pub amount_paid: Option<Cents>,
    pub paid_on: Option<NaiveDate>,
}

/// Keeps what Xero said on the company's sheet sent as that invoice; `true` when one matched.
pub fn record_payment(conn: &mut DbConn, org: i64, read: &PaymentRead, at: NaiveDateTime) -> AppResult<bool> {
    if read.xero_id.is_empty() {
        return Ok(false);
    }
    // `xero_id <> ''` names the partial index `orders_xero_id` (a bound id alone does not).
    let n = diesel::update(orders::table.filter(orders::org_id.eq(org)).filter(orders::xero_id.ne("")).filter(orders::xero_id.eq(&read.xero_id)))
        .set((
            orders::xero_amount_due.eq(read.amount_due.map(|c| c.0)),
            orders::xero_amount_paid.eq(read.amount_paid.map(|c| c.0)),
            orders::xero_paid_on.eq(read.paid_on),
            orders::xero_payments_at.eq(Some(at)),
        ))
        .execute(conn)?;
    Ok(n > 0)
}

/// Forgets what was read of the sheet's invoice (it was recalled: another may follow).
pub fn forget_payment(conn: &mut DbConn, org: i64, order: i64) -> AppResult<()> {
    diesel::update(orders::table.filter(orders::org_id.eq(org)).filter(orders::id.eq(order)))
        .set((orders::xero_amount_due.eq(None::<i64>), orders::xero_amount_paid.eq(None::<i64>), orders::xero_paid_on.eq(None::<NaiveDate>), orders::xero_payments_at.eq(None::<NaiveDateTime>)))
        .execute(conn)?;
    Ok(())
}

/// The customers' owing invoices: customer, amount due, due date and date.
macro_rules! owed_query {
    ($org:expr, $customers:expr) => {
        orders::table
            .filter(orders::org_id.eq($org))
            .filter(orders::customer_id.eq_any($customers))
            .filter(owing())
            .select((orders::customer_id, orders::xero_amount_due, orders::due_date, orders::order_date))
    };
}

/// The sent invoices of these customers that Xero says still owe something, by customer
/// (the due date is the sheet's date when it has none, as it was sent).
pub fn owed_by_customers(conn: &mut DbConn, org: i64, customers: &[i64]) -> AppResult<HashMap<i64, Vec<Owed>>> {
    let mut out: HashMap<i64, Vec<Owed>> = HashMap::new();
    for chunk in customers.chunks(500) {
        let rows: Vec<(Option<i64>, Option<i64>, Option<NaiveDate>, NaiveDate)> = owed_query!(org, chunk).load(conn)?;
        for (customer, due, due_date, date) in rows {
            if let (Some(c), Some(due)) = (customer, due) {
                out.entry(c).or_default().push(Owed { amount_due: Cents(due), due_date: due_date.unwrap_or(date) });
            }
        }
    }
    Ok(out)
}

/// An invoice sent to Xero that still owes: the condition of the partial index
/// `orders_owing`, written with constants, as a backend can use a partial index only when
/// the query implies its condition without knowing bound values.
fn owing() -> diesel::expression::SqlLiteral<diesel::sql_types::Bool> {
    diesel::dsl::sql(&format!(
        "orders.order_type = {} AND orders.xero_sent = {} AND orders.xero_amount_due > 0",
        OrderType::Invoice.as_i32(),
        XeroState::Sent.as_i32()
    ))
}

/// The plan of the customers' owing invoices (a test pins `orders_owing`).
pub fn owed_plan(conn: &mut DbConn, org: i64, customers: &[i64]) -> AppResult<Vec<String>> {
    crate::planner::plan(conn, owed_query!(org, customers))
}

/// The customer's sent invoices still owing ([`owed_by_customers`]).
pub fn owed_by(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<Vec<Owed>> {
    Ok(owed_by_customers(conn, org, &[customer])?.remove(&customer).unwrap_or_default())
}

/// The customers' overdue amounts on `today` (absent: nothing overdue).
pub fn overdue_by_customers(conn: &mut DbConn, org: i64, customers: &[i64], today: NaiveDate) -> AppResult<HashMap<i64, Cents>> {
    Ok(owed_by_customers(conn, org, customers)?
        .into_iter()
        .filter_map(|(c, owed)| domain::payments::overdue_amount(&owed, today).filter(|a| *a > Cents::ZERO).map(|a| (c, a)))
        .collect())
}

/// Whether any of the company's sheets was sent to Xero as an invoice (before the first
/// payments read: none, no call).
pub fn any_invoice_sent(conn: &mut DbConn, org: i64) -> AppResult<bool> {
    let sent = orders::table.filter(orders::org_id.eq(org)).filter(orders::order_type.eq(OrderType::Invoice.as_i32())).filter(orders::xero_id.ne(""));
    Ok(diesel::select(diesel::dsl::exists(sent)).get_result(conn)?)
}
