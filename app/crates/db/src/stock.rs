//! The stock table (running sums per warehouse and product) and its ledger.

use chrono::NaiveDate;
use diesel::prelude::*;
use diesel::upsert::excluded;

use super::masters::NewStockMove;
use super::schema::{stock_moves, stocks};
use super::{DbConn, now};
use crate::error::AppResult;

/// Adds deltas to one stock row, creating it when missing; a positive in-transit change
/// with an ETA sets the ETA.
pub fn apply(conn: &mut DbConn, org: i64, warehouse_id: i64, product_id: i64, on_hand: i64, in_transit: i64, eta: Option<NaiveDate>) -> AppResult<()> {
    apply_all(conn, org, &[Delta { warehouse_id, product_id, on_hand, in_transit, eta }])
}

/// One stock change of [`apply_all`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    pub warehouse_id: i64,
    pub product_id: i64,
    pub on_hand: i64,
    pub in_transit: i64,
    /// A purchase order's ETA: written on a new row, and set on an existing one when
    /// `in_transit` is positive.
    pub eta: Option<NaiveDate>,
}

/// [`apply`] for many changes in one statement (and one more for ETAs): changes to the same
/// row are summed first (checked: a sum that overflows is refused, nothing is written), since
/// one upsert cannot touch a row twice. A sheet of 20 lines costs two round trips instead of
/// twenty. Rows are written in (warehouse, product) order, so two sheets sharing products
/// lock their stock rows in the same order and never wait on each other in a circle
/// (PostgreSQL's deadlock, issue 29).
pub fn apply_all(conn: &mut DbConn, org: i64, deltas: &[Delta]) -> AppResult<()> {
    // Per row: the summed change, and the ETA a positive in-transit change sets (as `apply`).
    let mut rows: Vec<(Delta, Option<NaiveDate>)> = Vec::with_capacity(deltas.len());
    for d in deltas {
        let sets_eta = if d.in_transit > 0 { d.eta } else { None };
        match rows.iter_mut().find(|(r, _)| (r.warehouse_id, r.product_id) == (d.warehouse_id, d.product_id)) {
            Some((r, eta)) => {
                let overflow = || crate::error::AppError::bad_request("The stock change is too large.");
                r.on_hand = r.on_hand.checked_add(d.on_hand).ok_or_else(overflow)?;
                r.in_transit = r.in_transit.checked_add(d.in_transit).ok_or_else(overflow)?;
                *eta = sets_eta.or(*eta);
            }
            None => rows.push((*d, sets_eta)),
        }
    }
    if rows.is_empty() {
        return Ok(());
    }
    rows.sort_unstable_by_key(|(r, _)| (r.warehouse_id, r.product_id));
    let t = now();
    let values: Vec<_> = rows
        .iter()
        .map(|(r, _)| {
            (
                stocks::org_id.eq(org),
                stocks::warehouse_id.eq(r.warehouse_id),
                stocks::product_id.eq(r.product_id),
                stocks::on_hand.eq(r.on_hand),
                stocks::in_transit.eq(r.in_transit),
                stocks::eta.eq(r.eta),
                stocks::avg_cost.eq(0i64),
                stocks::updated_at.eq(t),
            )
        })
        .collect();
    crate::per_backend!(&mut *conn, |c| {
        diesel::insert_into(stocks::table)
            .values(values.clone())
            .on_conflict((stocks::warehouse_id, stocks::product_id))
            .do_update()
            .set((
                stocks::on_hand.eq(stocks::on_hand + excluded(stocks::on_hand)),
                stocks::in_transit.eq(stocks::in_transit + excluded(stocks::in_transit)),
                stocks::updated_at.eq(t),
            ))
            .execute(c)
    })?;
    for (r, eta) in rows.iter().filter(|(_, eta)| eta.is_some()) {
        diesel::update(stocks::table.filter(stocks::warehouse_id.eq(r.warehouse_id)).filter(stocks::product_id.eq(r.product_id)))
            .set(stocks::eta.eq(eta))
            .execute(conn)?;
    }
    Ok(())
}

/// On hand of some products in company `org`, by (warehouse, product); rows that do not
/// exist are absent (their stock is 0).
pub fn on_hand_of(conn: &mut DbConn, org: i64, product_ids: &[i64]) -> AppResult<std::collections::HashMap<(i64, i64), i64>> {
    let mut found = std::collections::HashMap::new();
    for chunk in product_ids.chunks(super::CHUNK) {
        let rows: Vec<(i64, i64, i64)> = stocks::table
            .filter(stocks::org_id.eq(org))
            .filter(stocks::product_id.eq_any(chunk))
            .select((stocks::warehouse_id, stocks::product_id, stocks::on_hand))
            .load(conn)?;
        found.extend(rows.into_iter().map(|(w, p, n)| ((w, p), n)));
    }
    Ok(found)
}

/// Writes ledger rows.
pub fn record(conn: &mut DbConn, moves: &[NewStockMove]) -> AppResult<()> {
    super::masters::insert_stock_moves(conn, moves)
}

/// On hand of a product over all warehouses of the organisation.
pub fn on_hand_total(conn: &mut DbConn, org: i64, product_id: i64) -> AppResult<i64> {
    use diesel::dsl::sql;
    use diesel::sql_types::BigInt;
    Ok(stocks::table
        .filter(stocks::org_id.eq(org))
        .filter(stocks::product_id.eq(product_id))
        .select(sql::<BigInt>("CAST(COALESCE(SUM(on_hand), 0) AS BIGINT)"))
        .first(conn)?)
}

/// The ledger rows a sheet wrote (for tests and audits).
pub fn moves_of_order(conn: &mut DbConn, order_id: i64) -> AppResult<Vec<(i64, i64, i64, i64)>> {
    Ok(stock_moves::table
        .filter(stock_moves::order_id.eq(order_id))
        .order(stock_moves::id.asc())
        .select((stock_moves::warehouse_id, stock_moves::product_id, stock_moves::qty_delta, stock_moves::in_transit_delta))
        .load(conn)?)
}

/// A stock row of [`of_products`]: product, warehouse, on hand, in transit, ETA.
pub type StockRow = (i64, i64, i64, i64, Option<NaiveDate>);

/// Stock rows of several products at once, by product and warehouse within each chunk of ids.
pub fn of_products(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<Vec<StockRow>> {
    let mut rows = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(super::CHUNK) {
        rows.extend(
            stocks::table
                .filter(stocks::org_id.eq(org))
                .filter(stocks::product_id.eq_any(chunk))
                .order((stocks::product_id.asc(), stocks::warehouse_id.asc()))
                .select((stocks::product_id, stocks::warehouse_id, stocks::on_hand, stocks::in_transit, stocks::eta))
                .load::<StockRow>(conn)?,
        );
    }
    Ok(rows)
}

/// On hand in one warehouse for several products (missing rows are 0); chunked.
pub fn on_hand_in(conn: &mut DbConn, org: i64, warehouse_id: i64, ids: &[i64]) -> AppResult<std::collections::HashMap<i64, i64>> {
    let mut out = std::collections::HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(super::CHUNK) {
        let rows: Vec<(i64, i64)> = stocks::table
            .filter(stocks::org_id.eq(org))
            .filter(stocks::warehouse_id.eq(warehouse_id))
            .filter(stocks::product_id.eq_any(chunk))
            .select((stocks::product_id, stocks::on_hand))
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}
