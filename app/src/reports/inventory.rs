//! Inventory reports: Inventory Classification Summary and Inventory Items Trace Detail.

use super::Ctx;
use crate::db::DbConn;
use crate::error::{AppError, AppResult};
use crate::xlsx::export::SheetWriter;

pub fn inventory_summary(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}

pub fn inventory_details(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}
