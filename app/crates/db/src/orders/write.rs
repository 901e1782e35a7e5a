//! Writing sheets: history rows, numbers, the insertable rows, lines and their costs at
//! approval, and the batch inserts of seeding.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use crate::DbConn;
use crate::error::AppResult;
use crate::schema::{order_events, order_lines, order_sequences, orders};

/// Writes one history row.
pub fn add_event(conn: &mut DbConn, org: i64, order_id: i64, user_id: Option<i64>, operator: &str, action: &str) -> AppResult<()> {
    diesel::insert_into(order_events::table)
        .values(NewEvent { org_id: org, order_id, user_id, operator: operator.to_string(), action: action.to_string(), created_at: crate::now() })
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
    /// The line in a foreign sheet's currency (issue 35); 0 on an AUD sheet.
    pub fx_price: i64,
    pub fx_amount: i64,
    /// The line's DOT code (issue 36), `None` for no code.
    pub dot: Option<i32>,
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
    for chunk in lines.chunks(crate::CHUNK) {
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
                    order_lines::fx_price.eq(r.fx_price),
                    order_lines::fx_amount.eq(r.fx_amount),
                    order_lines::dot.eq(r.dot),
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
    use crate::schema::products;
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

crate::bulk_copy_fn!(insert_orders, orders::table, NewOrder);
crate::bulk_copy_fn!(insert_lines, order_lines::table, NewLine);
crate::bulk_copy_fn!(insert_events, order_events::table, NewEvent);
crate::batch_insert_fn!(insert_sequences, order_sequences::table, NewSequence);
