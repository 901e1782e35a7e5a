//! Sheet queries.

use diesel::prelude::*;

use super::DbConn;
use super::schema::orders;
use crate::domain::enums::{DrafterType, OrderStatus, OrderType};
use crate::error::AppResult;

/// Customer self-orders waiting for staff: invoice drafts with drafterType 3 (spec §1).
pub fn self_order_count(conn: &mut DbConn, org: i64) -> AppResult<i64> {
    Ok(orders::table
        .filter(orders::org_id.eq(org))
        .filter(orders::drafter_type.eq(DrafterType::Customer.as_i32()))
        .filter(orders::status.eq(OrderStatus::Draft.as_i32()))
        .filter(orders::order_type.eq(OrderType::Invoice.as_i32()))
        .count()
        .get_result(conn)?)
}

use chrono::{NaiveDate, NaiveDateTime};

use super::schema::{order_events, order_lines, order_sequences};

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

crate::batch_insert_fn!(insert_orders, orders::table, NewOrder);
crate::batch_insert_fn!(insert_lines, order_lines::table, NewLine);
crate::batch_insert_fn!(insert_events, order_events::table, NewEvent);
crate::batch_insert_fn!(insert_sequences, order_sequences::table, NewSequence);

/// Ok when the sheet belongs to the organisation, NotFound otherwise.
pub fn ensure_exists(conn: &mut DbConn, org: i64, id: i64) -> AppResult<()> {
    orders::table.filter(orders::org_id.eq(org)).find(id).select(orders::id).first::<i64>(conn)?;
    Ok(())
}
