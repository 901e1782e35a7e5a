//! Tyre stock by DOT code (issue 36): the lots per warehouse and product, whose sum is the
//! `stocks` row's on hand, and what each approved line took from or put into them.

use std::collections::BTreeMap;

use diesel::prelude::*;
use diesel::upsert::excluded;

use super::DbConn;
use super::schema::{line_lots, products, stock_lots, stocks};
use crate::error::{AppError, AppResult};

/// One lot of [`of_products`].
#[derive(Queryable, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LotRow {
    pub product_id: i64,
    pub warehouse_id: i64,
    /// The stored code (`year * 100 + week`, 0 = unknown).
    pub dot: i32,
    pub on_hand: i64,
}

/// The lots of some products in company `org` that hold stock (or less than none), by
/// product, warehouse and code (oldest first); chunked. One statement per chunk, on the index
/// (org_id, product_id, warehouse_id, dot).
pub fn of_products(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<Vec<LotRow>> {
    let mut rows = Vec::new();
    for chunk in ids.chunks(super::CHUNK) {
        rows.extend(
            stock_lots::table
                .filter(stock_lots::org_id.eq(org))
                .filter(stock_lots::product_id.eq_any(chunk))
                .filter(stock_lots::on_hand.ne(0))
                .order((stock_lots::product_id.asc(), stock_lots::warehouse_id.asc(), stock_lots::dot.asc()))
                .select((stock_lots::product_id, stock_lots::warehouse_id, stock_lots::dot, stock_lots::on_hand))
                .load::<LotRow>(conn)?,
        );
    }
    Ok(rows)
}

/// The lots of [`of_products`] as the allocation reads them: by (warehouse, product).
pub fn book(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<BTreeMap<(i64, i64), Vec<domain::dot::Lot>>> {
    let mut book: BTreeMap<(i64, i64), Vec<domain::dot::Lot>> = BTreeMap::new();
    for r in of_products(conn, org, ids)? {
        book.entry((r.warehouse_id, r.product_id)).or_default().push(domain::dot::Lot { dot: r.dot, on_hand: r.on_hand });
    }
    Ok(book)
}

/// Locks the stock rows of `products` in `warehouses` (PostgreSQL; SQLite has one writer at
/// a time) in (warehouse, product) order — the order [`crate::stock::apply_all`] writes them —
/// so two approvals of the same tyre read its lots one after the other and never both take
/// the same oldest units, and a switch of tracking ([`lock_product`]) is never half-seen.
pub fn lock_stock(conn: &mut DbConn, org: i64, warehouses: &[i64], products: &[i64]) -> AppResult<()> {
    if let DbConn::Pg(c) = conn {
        stocks::table
            .filter(stocks::org_id.eq(org))
            .filter(stocks::warehouse_id.eq_any(warehouses))
            .filter(stocks::product_id.eq_any(products))
            .order((stocks::warehouse_id.asc(), stocks::product_id.asc()))
            .select(stocks::id)
            .for_update()
            .load::<i64>(c)?;
    }
    Ok(())
}

/// Locks every stock row of one product (PostgreSQL), in warehouse order: taken before its
/// tracking is switched, so no approval moves its stock between the switch and the lots.
pub fn lock_product(conn: &mut DbConn, org: i64, product_id: i64) -> AppResult<()> {
    if let DbConn::Pg(c) = conn {
        stocks::table
            .filter(stocks::org_id.eq(org))
            .filter(stocks::product_id.eq(product_id))
            .order(stocks::warehouse_id.asc())
            .select(stocks::id)
            .for_update()
            .load::<i64>(c)?;
    }
    Ok(())
}

/// Which of some products are tracked by DOT.
pub fn tracked(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<std::collections::HashSet<i64>> {
    let mut out = std::collections::HashSet::new();
    for chunk in ids.chunks(super::CHUNK) {
        let rows: Vec<i64> = products::table
            .filter(products::org_id.eq(org))
            .filter(products::id.eq_any(chunk))
            .filter(products::dot_tracked.eq(true))
            .select(products::id)
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}

/// One lot change: warehouse, product, code, signed quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LotDelta {
    pub warehouse_id: i64,
    pub product_id: i64,
    pub dot: i32,
    pub qty: i64,
}

/// Adds lot changes in one statement, summed per lot first (checked), rows written in
/// (warehouse, product, code) order like the stock rows, so two sheets never lock in a circle.
pub fn apply_all(conn: &mut DbConn, org: i64, deltas: &[LotDelta]) -> AppResult<()> {
    let mut sums: BTreeMap<(i64, i64, i32), i64> = BTreeMap::new();
    for d in deltas {
        let e = sums.entry((d.warehouse_id, d.product_id, d.dot)).or_default();
        *e = e.checked_add(d.qty).ok_or_else(|| AppError::bad_request("The stock change is too large."))?;
    }
    sums.retain(|_, q| *q != 0);
    if sums.is_empty() {
        return Ok(());
    }
    let values: Vec<_> = sums
        .iter()
        .map(|(&(w, p, d), &q)| (stock_lots::org_id.eq(org), stock_lots::warehouse_id.eq(w), stock_lots::product_id.eq(p), stock_lots::dot.eq(d), stock_lots::on_hand.eq(q)))
        .collect();
    crate::per_backend!(&mut *conn, |c| {
        diesel::insert_into(stock_lots::table)
            .values(values.clone())
            .on_conflict((stock_lots::warehouse_id, stock_lots::product_id, stock_lots::dot))
            .do_update()
            .set(stock_lots::on_hand.eq(stock_lots::on_hand + excluded(stock_lots::on_hand)))
            .execute(c)
    })?;
    Ok(())
}

/// A row of `line_lots`: what an approved line took from (negative) or put into a lot.
#[derive(Queryable, Insertable, Clone, Copy, Debug, PartialEq, Eq)]
#[diesel(table_name = line_lots)]
pub struct LineLot {
    pub org_id: i64,
    pub order_id: i64,
    pub line_id: i64,
    pub warehouse_id: i64,
    pub product_id: i64,
    pub dot: i32,
    pub qty: i64,
}

crate::batch_insert_fn!(
    /// Records what the approval of a sheet moved per line and lot.
    record_lines,
    line_lots::table,
    LineLot
);

/// What the approval of sheets `order_ids` moved per line and lot, in line and insertion order.
pub fn of_orders(conn: &mut DbConn, org: i64, order_ids: &[i64]) -> AppResult<Vec<LineLot>> {
    let mut rows = Vec::new();
    for chunk in order_ids.chunks(super::CHUNK) {
        rows.extend(
            line_lots::table
                .filter(line_lots::org_id.eq(org))
                .filter(line_lots::order_id.eq_any(chunk))
                .order((line_lots::order_id.asc(), line_lots::line_id.asc(), line_lots::id.asc()))
                .select((line_lots::org_id, line_lots::order_id, line_lots::line_id, line_lots::warehouse_id, line_lots::product_id, line_lots::dot, line_lots::qty))
                .load::<LineLot>(conn)?,
        );
    }
    Ok(rows)
}

/// Forgets what a sheet's approval moved (on unapprove, once reversed).
pub fn forget_order(conn: &mut DbConn, org: i64, order_id: i64) -> AppResult<()> {
    diesel::delete(line_lots::table.filter(line_lots::org_id.eq(org)).filter(line_lots::order_id.eq(order_id))).execute(conn)?;
    Ok(())
}

/// Sets a product's `dot_tracked` flag (the lots follow with [`set_tracked`]).
pub fn set_flag(conn: &mut DbConn, org: i64, product_id: i64, on: bool) -> AppResult<()> {
    diesel::update(products::table.filter(products::org_id.eq(org)).filter(products::id.eq(product_id))).set(products::dot_tracked.eq(on)).execute(conn)?;
    Ok(())
}

/// Starts or stops tracking a product by DOT: tracking starts with its stock in each
/// warehouse as one lot of unknown code; stopping forgets the lots.
pub fn set_tracked(conn: &mut DbConn, org: i64, product_id: i64, on: bool) -> AppResult<()> {
    diesel::delete(stock_lots::table.filter(stock_lots::org_id.eq(org)).filter(stock_lots::product_id.eq(product_id))).execute(conn)?;
    if on {
        let rows: Vec<(i64, i64)> = stocks::table
            .filter(stocks::org_id.eq(org))
            .filter(stocks::product_id.eq(product_id))
            .filter(stocks::on_hand.ne(0))
            .select((stocks::warehouse_id, stocks::on_hand))
            .load(conn)?;
        let deltas: Vec<LotDelta> = rows.into_iter().map(|(w, q)| LotDelta { warehouse_id: w, product_id, dot: domain::dot::UNKNOWN, qty: q }).collect();
        apply_all(conn, org, &deltas)?;
    }
    Ok(())
}

/// Marks the company's physical tyre products (PCR, TBR, trailer tyres) as tracked by DOT,
/// with their stock as lots of unknown code, as the migration did for existing data (seed).
pub fn track_tyres(conn: &mut DbConn, org: i64) -> AppResult<()> {
    let tyres: Vec<String> = domain::enums::ProductCategory::ALL.iter().filter(|c| c.is_tyre()).map(|c| c.path()).collect();
    diesel::update(products::table.filter(products::org_id.eq(org)).filter(products::category.eq(domain::enums::ProductKind::Physical.as_i32())).filter(products::tag1.eq_any(&tyres)))
        .set(products::dot_tracked.eq(true))
        .execute(conn)?;
    let rows: Vec<(i64, i64, i64)> = stocks::table
        .inner_join(products::table)
        .filter(stocks::org_id.eq(org))
        .filter(products::dot_tracked.eq(true))
        .filter(stocks::on_hand.ne(0))
        .select((stocks::warehouse_id, stocks::product_id, stocks::on_hand))
        .load(conn)?;
    let deltas: Vec<LotDelta> = rows.into_iter().map(|(w, p, q)| LotDelta { warehouse_id: w, product_id: p, dot: domain::dot::UNKNOWN, qty: q }).collect();
    for chunk in deltas.chunks(400) {
        apply_all(conn, org, chunk)?;
    }
    Ok(())
}
