//! Sheet use cases: save, approve (guard, stock, cost), unapprove, void, close, print mark,
//! date/address/driver edits. Each runs inside the caller's transaction (`Db::write`) and
//! writes its history row there too.

use chrono::NaiveDate;
use diesel::prelude::*;

use db::masters::NewStockMove;
use db::orders::{self as order_db, NewLine, NewOrder, Order};
use db::refs::{self, BusinessStaff, Customer, Driver, Ref, ServiceStaff, Sheet, Supplier, Unchecked, Warehouse};
use db::schema::{customers, order_lines, orders, products, warehouses};
use db::{DbConn, now, products as product_db, stock};
use domain::due_date::{due_date, due_date_for_new_sheet, payment_term};
use domain::enums::{DrafterType, OrderStatus, OrderType, PaymentType, ProductKind, ShipType, TaxType, XeroState, format_number};
use domain::guard::{self, GuardInput, GuardLine, GuardOutcome};
use domain::Actor;
use domain::limits;
use domain::money::Cents;
use domain::permissions::Cost;
use domain::sheet::{self, LineDraft, SheetDraft, ValidLine};
use domain::status::{Action, SheetState, allowed};
use domain::stock::{self as stock_rules, StockLine, StockSheet, StockTransition, moving_average_cost};
use db::error::{AppError, AppResult};

/// Header fields of a sheet as entered; the references are resolved in the actor's company
/// before anything is written.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub tag_id: i32,
    pub customer_id: Option<Unchecked<Customer>>,
    pub supplier_id: Option<Unchecked<Supplier>>,
    pub date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
    pub address: String,
    pub phone: String,
    pub reference: String,
    pub comments: String,
    pub csr_self_note: String,
    pub csr_service_id: Option<Unchecked<ServiceStaff>>,
    pub csr_bd_id: Option<Unchecked<BusinessStaff>>,
    pub warehouse_id: Option<Unchecked<Warehouse>>,
    pub in_warehouse_id: Option<Unchecked<Warehouse>>,
    pub related_order_id: Option<Unchecked<Sheet>>,
    pub tax_type: i32,
    pub ship_type: Option<i32>,
    /// A purchase sheet's own exchange rate (issue 35); `None` takes the company's rate of
    /// the sheet's date. Ignored on a sheet in AUD.
    pub exchange_rate: Option<domain::currency::Rate>,
    /// A purchase order's container or vessel (issue 35).
    pub shipment_ref: String,
}

/// The header's references, each proved to be of the actor's company.
#[derive(Clone, Copy, Debug, Default)]
struct Refs {
    customer: Option<Ref<Customer>>,
    supplier: Option<Ref<Supplier>>,
    service_staff: Option<Ref<ServiceStaff>>,
    business_staff: Option<Ref<BusinessStaff>>,
    warehouse: Option<Ref<Warehouse>>,
    in_warehouse: Option<Ref<Warehouse>>,
    related_order: Option<Ref<Sheet>>,
}

/// Looks every reference up in company `org`; an id that names nothing there is a field
/// message, exactly as for an id that does not exist anywhere.
fn resolve_refs(conn: &mut DbConn, org: i64, h: &Header, errors: &mut sheet::FieldErrors) -> AppResult<Refs> {
    fn one<K: refs::Kind>(conn: &mut DbConn, org: i64, id: Option<Unchecked<K>>, field: &str, errors: &mut sheet::FieldErrors) -> AppResult<Option<Ref<K>>> {
        let Some(id) = id else { return Ok(None) };
        let found = id.lookup(conn, org)?;
        if found.is_none() {
            errors.insert(field.into(), K::NOT_FOUND.into());
        }
        Ok(found)
    }
    Ok(Refs {
        customer: one(conn, org, h.customer_id, "customer_id", errors)?,
        supplier: one(conn, org, h.supplier_id, "supplier_id", errors)?,
        service_staff: one(conn, org, h.csr_service_id, "csr_service_id", errors)?,
        business_staff: one(conn, org, h.csr_bd_id, "csr_bd_id", errors)?,
        warehouse: one(conn, org, h.warehouse_id, "warehouse_id", errors)?,
        in_warehouse: one(conn, org, h.in_warehouse_id, "in_warehouse_id", errors)?,
        related_order: one(conn, org, h.related_order_id, "related_order_id", errors)?,
    })
}

fn id_of<K>(r: Option<Ref<K>>) -> Option<i64> {
    r.map(Ref::id)
}

/// The message shown when a sheet changed since it was opened.
pub const STALE: &str = "This sheet was changed by someone else since you opened it. Reload to see the latest version.";

fn invalid(errors: sheet::FieldErrors) -> AppError {
    let message = errors.values().next().cloned().unwrap_or_else(|| "Please check the form.".into());
    AppError::Validation { message, errors }
}

fn state_of(o: &Order) -> AppResult<SheetState> {
    Ok(SheetState {
        order_type: OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?,
        status: OrderStatus::from_i32(o.status).ok_or(AppError::NotFound)?,
        closed: o.closed,
        xero: XeroState::from_i32(o.xero_sent).unwrap_or_default(),
    })
}

/// Refuses an action the status machine does not offer (spec §4).
pub fn ensure(o: &Order, action: Action) -> AppResult<SheetState> {
    let s = state_of(o)?;
    if allowed(action, &s) {
        Ok(s)
    } else {
        Err(AppError::Conflict { message: format!("{} is not possible for sheet {} in its current state.", action.label(), o.no), code: Some("not_allowed"), reasons: vec![] })
    }
}

mod approval;
mod edits;
mod save;

pub use approval::{ApproveInput, Approved, approve, approve_then_email, close, unapprove, void};
pub use edits::{Dates, assign_driver, mark_printed, set_address, set_dates};
pub use save::{Drafter, create, create_by, customer_due_date, update};
