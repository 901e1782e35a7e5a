//! Slow-moving Products Analysis: products with stock on hand that sold less than the Qty
//! Criterion on invoices (net of credit notes) in the 'Unsolde days' up to the as-of date,
//! longest unsold first. Stock on hand is today's (the `stocks` table), whatever the as-of date.

use chrono::{Duration, NaiveDate};
use diesel::sql_types::{BigInt, Date, Nullable, Text};

use super::{
    Bind, Dates, LINES_OF, Rows, SHEETS_FROM, Sql, add, overflow, push_product_filter, push_sheet_filter, signed_sql, times,
};
use std::collections::HashMap;

use db::DbConn;
use domain::dot::AgeBand;
use domain::tyre_age::Banded;
use db::error::{AppError, AppResult};
use crate::reports::Ctx;
use crate::reports::rows::total_row;
use xlsx::export::{Col, Kind as Cell, Layout, SheetWriter, Val};

const COLS: [Col; 8] = [
    Col::new("Code", 18.0, Cell::Text),
    Col::new("Name", 36.0, Cell::Text),
    Col::new("Brand", 18.0, Cell::Text),
    Col::new("Category", 22.0, Cell::Text),
    Col::new("On Hand", 10.0, Cell::Int),
    Col::new("Sold in Period", 14.0, Cell::Int),
    Col::new("Last Sold", 12.0, Cell::Date),
    Col::new("Days Unsold", 12.0, Cell::Int),
];

/// Unit Cost and Stock Value at cost: shown only when cost is shown.
const VALUE_COLS: [Col; 2] = [Col::new("Unit Cost", 14.0, Cell::Aud), Col::new("Stock Value", 16.0, Cell::Aud)];

/// The days the sales are counted over: `unsold_days` days up to and including `as_of`.
fn period(as_of: NaiveDate, unsold_days: i64) -> Dates {
    let from = as_of.checked_sub_signed(Duration::days(unsold_days.max(1) - 1));
    Dates { column: "o.order_date", from: Some(from.unwrap_or(NaiveDate::MIN)), to: as_of }
}

/// Whole days from the last sale to the as-of date; `None` when never sold.
fn days_unsold(last_sold: Option<NaiveDate>, as_of: NaiveDate) -> Option<i64> {
    last_sold.map(|d| (as_of - d).num_days())
}

#[derive(diesel::QueryableByName)]
struct SlowRow {
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    brand: String,
    #[diesel(sql_type = Text)]
    category: String,
    #[diesel(sql_type = BigInt)]
    on_hand: i64,
    #[diesel(sql_type = BigInt)]
    sold: i64,
    #[diesel(sql_type = Nullable<Date>)]
    last_sold: Option<NaiveDate>,
    #[diesel(sql_type = BigInt)]
    unit_cost: i64,
    #[diesel(sql_type = BigInt)]
    product_id: i64,
}

/// The listed products, never sold first, then the longest unsold. A product is listed
/// when its stock on hand in the chosen warehouses (all when none) adds up to more than 0
/// and its invoices less credit notes in the period add up to less than `less_than`. The
/// sheet filters (tags, warehouses, customers) narrow the sales counted, as in every sales
/// report; the product filters narrow the products.
fn load(conn: &mut DbConn, ctx: &Ctx<'_>, as_of: NaiveDate) -> AppResult<Vec<SlowRow>> {
    let p = ctx.params;
    let mut q = Sql::new(
        "SELECT x.* FROM (SELECT p.code AS code, p.name AS name, COALESCE(b.name, '') AS brand, p.tag1 AS category, \
         st.on_hand AS on_hand, COALESCE(sold.qty, 0) AS sold, p.cost_price AS unit_cost, p.id AS product_id, \
         (SELECT MAX(o.order_date)",
    );
    // The last sale: the product's latest approved invoice on or before the as-of date.
    q.push(SHEETS_FROM).push(LINES_OF);
    push_sheet_filter(&mut q, ctx, Dates { column: "o.order_date", from: None, to: as_of }, false);
    q.push(" AND l.product_id = p.id) AS last_sold FROM products p");
    q.push(" JOIN (SELECT s.product_id AS product_id, CAST(SUM(s.on_hand) AS BIGINT) AS on_hand FROM stocks s WHERE s.org_id = ")
        .bind(Bind::BigInt(ctx.org_id))
        .any_of("s.warehouse_id", &p.warehouses)
        .push(" GROUP BY s.product_id) st ON st.product_id = p.id");
    q.push(" LEFT JOIN brands b ON b.id = p.brand_id AND b.org_id = p.org_id");
    q.push(&format!(" LEFT JOIN (SELECT l.product_id AS product_id, CAST(SUM({}) AS BIGINT) AS qty", signed_sql("l.quantity")));
    q.push(SHEETS_FROM).push(LINES_OF);
    push_sheet_filter(&mut q, ctx, period(as_of, p.unsold_days), true);
    q.push(" GROUP BY l.product_id) sold ON sold.product_id = p.id");
    q.push(" WHERE p.org_id = ").bind(Bind::BigInt(ctx.org_id)).push(" AND st.on_hand > 0");
    push_product_filter(&mut q, p, "p.id");
    q.push(" AND COALESCE(sold.qty, 0) < ").bind(Bind::BigInt(p.less_than));
    q.push(") x ORDER BY CASE WHEN x.last_sold IS NULL THEN 0 ELSE 1 END, x.last_sold, x.code, x.product_id");
    q.load(conn)
}

/// The stock on hand of each listed tyre tracked by DOT, in the chosen warehouses (all when
/// none), by age band on the as-of date (issue 36): its lots, read for the listed products
/// only. Products not tracked are absent.
fn ages(conn: &mut DbConn, ctx: &Ctx<'_>, as_of: NaiveDate, found: &[SlowRow]) -> AppResult<HashMap<i64, Banded>> {
    let ids: Vec<i64> = found.iter().map(|r| r.product_id).collect();
    let tracked = db::lots::tracked(conn, ctx.org_id, &ids)?;
    let ids: Vec<i64> = ids.into_iter().filter(|id| tracked.contains(id)).collect();
    let mut out: HashMap<i64, Banded> = ids.iter().map(|id| (*id, Banded::default())).collect();
    let chosen = &ctx.params.warehouses;
    for lot in db::lots::of_products(conn, ctx.org_id, &ids)? {
        if chosen.is_empty() || chosen.contains(&lot.warehouse_id) {
            let b = out.entry(lot.product_id).or_default();
            b.add(AgeBand::of(lot.dot, as_of), lot.on_hand, 0).map_err(|_| overflow())?;
        }
    }
    Ok(out)
}

/// Writes the one worksheet and its total (on hand, sold, stock value; with `byAge`, the
/// on-hand of each DOT age band).
pub fn slow_moving(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let as_of = ctx.params.as_of.ok_or_else(|| AppError::bad_request("Choose the as-of date."))?;
    let cost = ctx.params.include_cost;
    ctx.progress.set(0, 2);
    let found = load(conn, ctx, as_of)?;
    ctx.progress.set(1, 2);
    let by_age = if ctx.params.by_age { Some(ages(conn, ctx, as_of, &found)?) } else { None };
    let mut cols = COLS.to_vec();
    if by_age.is_some() {
        cols.extend(AgeBand::ALL.iter().map(|b| Col::new(b.label(), 11.0, Cell::Int)));
    }
    if cost {
        cols.extend(VALUE_COLS);
    }
    let width = cols.len();
    out.begin(Layout { name: "Slow-moving".into(), cols, title: ctx.title(conn, "")? })?;
    let (mut on_hand, mut sold, mut value) = (0i64, 0i64, 0i64);
    let mut bands = Banded::default();
    let mut rows = Rows::default();
    for r in found {
        add(&mut on_hand, r.on_hand)?;
        add(&mut sold, r.sold)?;
        let days = days_unsold(r.last_sold, as_of).map_or(Val::Text(String::new()), Val::Int);
        let mut cells = vec![
            Val::Text(r.code),
            Val::Text(r.name),
            Val::Text(r.brand),
            Val::Text(r.category),
            Val::Int(r.on_hand),
            Val::Int(r.sold),
            Val::Date(r.last_sold),
            days,
        ];
        if let Some(ages) = &by_age {
            match ages.get(&r.product_id) {
                Some(b) => {
                    bands.plus(b).map_err(|_| overflow())?;
                    cells.extend(b.qty.iter().map(|q| Val::Int(*q)));
                }
                // Not a tyre tracked by DOT: no age to tell.
                None => cells.extend(AgeBand::ALL.iter().map(|_| Val::Text(String::new()))),
            }
        }
        if cost {
            let stock_value = times(r.on_hand, r.unit_cost)?;
            add(&mut value, stock_value)?;
            cells.extend([Val::Cents(r.unit_cost), Val::Cents(stock_value)]);
        }
        rows.push(out, cells)?;
    }
    rows.flush(out)?;
    let mut figures = vec![Val::Int(on_hand), Val::Int(sold), Val::Date(None), Val::Text(String::new())];
    if by_age.is_some() {
        figures.extend(bands.qty.iter().map(|q| Val::Int(*q)));
    }
    if cost {
        figures.extend([Val::Text(String::new()), Val::Cents(value)]);
    }
    out.total(total_row(width, 4, figures))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn the_period_is_the_unsold_days_up_to_and_including_the_as_of_date() {
        let p = period(d("2026-03-31"), 90);
        assert_eq!((p.from, p.to), (Some(d("2026-01-01")), d("2026-03-31")), "90 days: 1 Jan to 31 Mar 2026");
        let one = period(d("2026-03-31"), 1);
        assert_eq!(one.from, Some(d("2026-03-31")), "one day is the as-of date alone");
        assert_eq!(p.column, "o.order_date", "sales count by the sheet's date");
    }

    #[test]
    fn days_unsold_run_from_the_last_sale_to_the_as_of_date() {
        assert_eq!(days_unsold(Some(d("2026-03-01")), d("2026-03-31")), Some(30));
        assert_eq!(days_unsold(Some(d("2026-03-31")), d("2026-03-31")), Some(0), "sold on the as-of date");
        assert_eq!(days_unsold(None, d("2026-03-31")), None, "never sold: empty, listed first");
    }
}
