//! Purchase and warehouse-sheet reports: Purchase Orders or Bills Detail, Purchase Summary,
//! Transfers Detail, Adjustments Detail.

use super::Ctx;
use crate::db::DbConn;
use crate::error::{AppError, AppResult};
use crate::xlsx::export::SheetWriter;

pub fn purchase_details(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}

pub fn purchase_summary(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}

pub fn transfer_details(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}

pub fn adjustment_details(_conn: &mut DbConn, _ctx: &Ctx<'_>, _out: &mut SheetWriter) -> AppResult<()> {
    Err(AppError::bad_request("This report is not available yet."))
}
