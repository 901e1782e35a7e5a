//! Sales reports: Invoices & Credit Notes Detail, Customers Sales Summary, Slow-moving
//! Products Analysis.

use super::Ctx;
use crate::db::DbConn;
use crate::error::{AppError, AppResult};
use crate::xlsx::export::SheetWriter;

pub fn invoice_details(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}

pub fn sale_summary(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}

pub fn slow_moving(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}
