//! OCOP price import (spec: every row is checked and either all apply or none).
//!
//! The file is parsed and every code resolved on a read connection, outside SQLite's writer
//! queue; only the finished list of prices enters one short write transaction of multi-row
//! upserts, so other users' saves wait for that transaction alone (see `docs/decisions/imports.md`, "OCOP import").

use std::collections::{BTreeMap, HashSet};

use db::{self, Db, DbConn};
use domain::validate::parse_line_price;
use db::error::{AppError, AppResult};
use xlsx::import::{Table, read_sheet, row_errors};

/// The columns read, each with the header names it may have.
const COLUMNS: &[&[&str]] = &[&["Item Code", "Code"], &["Customer Code", "CSR Code", "ABN", "Customer", "CSR"], &["Price", "OCOP", "OCOP Price"]];
const NAMES: [&str; 3] = ["Item Code", "Customer Code", "Price"];

/// Imports of at least this many rows refresh the table's statistics.
const LARGE_IMPORT: usize = 10_000;

/// One price to set: customer, product, cents.
pub type OcopPrice = (i64, i64, i64);

/// Imports an uploaded file for the company; answers the number of prices set.
pub async fn import(db: &Db, org: i64, user: i64, file: Vec<u8>) -> AppResult<usize> {
    let table = read_sheet(file, COLUMNS).await?;
    if let Some(k) = (0..COLUMNS.len()).find(|k| !table.has(*k)) {
        return Err(AppError::field("file", format!("The first row must name the columns; '{}' is missing.", NAMES[k])));
    }
    let prices = db.run(move |c| resolve(c, org, &table)).await?;
    let count = prices.len();
    // The blocking task runs to the end even if this future is dropped (the client went
    // away), so the answer, when there is one, is always what happened.
    db.write(move |c| db::ocops::upsert_many(c, org, user, &prices)).await?;
    if count >= LARGE_IMPORT {
        // New row counts reach the planner now, not at the next periodic optimize. ANALYZE
        // writes the statistics tables, so on SQLite it queues with the other writers.
        db.write(|c| db::analyze(c, &["ocop_prices"])).await?;
    }
    Ok(count)
}

/// Resolves every row within the company; any bad row refuses the file with row messages.
/// A later row for the same customer and product wins.
fn resolve(conn: &mut DbConn, org: i64, table: &Table) -> AppResult<Vec<OcopPrice>> {
    let distinct = |k: usize| -> Vec<String> { table.rows.iter().map(|(_, r)| r[k].clone()).collect::<HashSet<_>>().into_iter().collect() };
    let products = db::products::by_codes(conn, org, &distinct(0))?;
    let customers = db::customers::ids_by_code_or_name(conn, org, &distinct(1))?;
    let mut errors = Vec::new();
    let mut prices = BTreeMap::new();
    for (row_no, cells) in &table.rows {
        let (code, cust, price_text) = (&cells[0], &cells[1], &cells[2]);
        match (products.get(code), customers.get(cust), parse_line_price(price_text)) {
            (None, _, _) => errors.push(format!("Row {row_no}: unknown item code '{code}'.")),
            (_, None, _) => errors.push(format!("Row {row_no}: unknown customer '{cust}'.")),
            (_, _, Err(e)) => errors.push(format!("Row {row_no}: price '{price_text}': {e}")),
            (Some(p), Some(cu), Ok(v)) => {
                prices.insert((*cu, p.id), v.0);
            }
        }
    }
    if !errors.is_empty() {
        return Err(row_errors(errors));
    }
    if prices.is_empty() {
        return Err(AppError::field("file", "The spreadsheet has no rows."));
    }
    Ok(prices.into_iter().map(|((cu, p), v)| (cu, p, v)).collect())
}
