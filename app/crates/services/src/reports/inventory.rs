//! Inventory reports: Inventory Classification Summary and Inventory Items Trace Detail.
//!
//! Both read the stock ledger (`stock_moves`): approving a sheet writes one row per line
//! movement and unapproving writes the exact reversing rows, so the ledger's sum per
//! warehouse and product is `stocks.on_hand`, and a trace ending today ends at the stock on
//! hand. Only the quantity on hand is followed: rows that move only the quantity in transit
//! (purchase orders, a closed PO's remainder) are left out.
//!
//! The date of a move is its sheet's date (`orders.order_date`); a move without a sheet (an
//! opening balance) takes the Sydney day of its `created_at`. The sheet date, not the moment
//! of approval: a sheet dated last week and approved today is last week's movement in the
//! books, an unapproval's reversal falls on the same day as the approval it undoes (so a
//! withdrawn approval nets to nothing inside any range), and the summary's Opening and
//! Closing and the trace's running balance are the same sums over the same dates. The
//! balance on a past day is therefore the stock as the sheets dated up to that day make it,
//! not the stock the system showed that day.
//!
//! Every balance is summed in SQL; the trace then reads the moves of a few products at a
//! time (at most [`PRODUCTS_PER_BATCH`] products and [`MOVES_PER_BATCH`] moves, unless one
//! product alone has more moves), so memory is bounded by a batch, not by the year; the
//! balances themselves are one row per product and warehouse, bounded by the catalogue.

use std::collections::HashMap;

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Integer, Nullable, Text, Timestamp};

use super::Ctx;
use super::rows::total_row;
use super::sql::{Bind, Sql};
use db::DbConn;
use domain::dates::{Tz, day_start_utc};
use domain::enums::{CodeEnum, OrderType};
use domain::reports::Params;
use db::error::{AppError, AppResult};
use xlsx::export::{Col, Kind, Layout, SheetWriter, Val};

/// Rows handed to the writer at once.
const ROWS_PER_CHUNK: usize = 2_000;
/// Moves the trace reads at once (whole products; one product with more is read alone).
const MOVES_PER_BATCH: i64 = 2_000;
/// Products the trace reads at once: their ids are listed in the statement.
const PRODUCTS_PER_BATCH: usize = db::CHUNK;

/// Words of the trace's opening and closing rows.
pub const OPENING: &str = "Opening balance";
pub const CLOSING: &str = "Closing balance";

// ---------------------------------------------------------------------------------------
// The arithmetic (pure)

/// An overflowing figure is refused, never written wrong.
fn too_large() -> AppError {
    AppError::bad_request("A stock figure of this report is too large to add up; narrow the filters.")
}

/// The stock of one product (in one warehouse, or in all chosen) over the range: the balance
/// before it, what came in and what went out (a positive number) inside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    pub opening: i64,
    pub inflow: i64,
    pub outflow: i64,
}

impl Flow {
    /// Opening + In − Out; `None` when it overflows.
    pub fn closing(self) -> Option<i64> {
        self.opening.checked_add(self.inflow)?.checked_sub(self.outflow)
    }

    /// Adds another flow (a totals row); `None` when a sum overflows.
    pub fn plus(self, other: Flow) -> Option<Flow> {
        Some(Flow {
            opening: self.opening.checked_add(other.opening)?,
            inflow: self.inflow.checked_add(other.inflow)?,
            outflow: self.outflow.checked_add(other.outflow)?,
        })
    }
}

/// The closing balance of `flow`, checked against the ledger's own sum up to the end of the
/// range: they differ only if the sums were cut or the ledger changed under the report.
fn checked_closing(flow: Flow, ledger_closing: i64, what: &str) -> AppResult<i64> {
    match flow.closing() {
        Some(c) if c == ledger_closing => Ok(c),
        Some(_) => Err(AppError::bad_request(format!("The stock ledger of {what} does not add up (Opening + In − Out ≠ Closing); run the report again."))),
        None => Err(too_large()),
    }
}

/// A move's In and Out cells (Out as a positive number) and the balance after it.
pub fn step(balance: i64, qty: i64) -> Option<(i64, i64, i64)> {
    let after = balance.checked_add(qty)?;
    Some(if qty >= 0 { (qty, 0, after) } else { (0, qty.checked_neg()?, after) })
}

/// The day a move counts on: its sheet's date, or else the company's day (in `zone`) it was
/// written.
pub fn move_date(sheet_date: Option<NaiveDate>, created_at: NaiveDateTime, zone: Tz) -> NaiveDate {
    sheet_date.unwrap_or_else(|| domain::dates::local_date(created_at, zone))
}

/// Splits groups (ordered so one product's groups are adjacent) into batches of whole
/// products: at most `max_products` products and `max_moves` moves, or one product alone
/// when it has more moves. `groups` gives each group's product and its number of moves.
pub fn batches(groups: &[(i64, i64)], max_moves: i64, max_products: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut moves, mut products) = (0, 0i64, 0usize);
    let mut i = 0;
    while i < groups.len() {
        // The product's groups: [i, end).
        let product = groups[i].0;
        let end = groups[i..].iter().position(|g| g.0 != product).map_or(groups.len(), |n| i + n);
        let n: i64 = groups[i..end].iter().map(|g| g.1).fold(0i64, i64::saturating_add);
        if i > start && (moves.saturating_add(n) > max_moves || products == max_products) {
            out.push(start..i);
            (start, moves, products) = (i, 0, 0);
        }
        moves = moves.saturating_add(n);
        products += 1;
        i = end;
    }
    if start < groups.len() {
        out.push(start..groups.len());
    }
    out
}

// ---------------------------------------------------------------------------------------
// The queries

/// The range as the ledger compares it: sheet dates with the days, moves without a sheet
/// (UTC timestamps) with the instants those days start and end in the company's zone.
struct Bounds {
    from: NaiveDate,
    to: NaiveDate,
    from_utc: NaiveDateTime,
    end_utc: NaiveDateTime,
    zone: Tz,
}

impl Bounds {
    fn of(p: &Params, zone: Tz) -> AppResult<Self> {
        let (from, to) = p.from.zip(p.to).ok_or_else(|| AppError::field("dateRange", "Choose the date range."))?;
        let after = to.succ_opt().ok_or_else(|| AppError::field("dateRange", "The range ends too late."))?;
        Ok(Self { from, to, from_utc: day_start_utc(from, zone), end_utc: day_start_utc(after, zone), zone })
    }
}

/// ` AND …` of the report's filters on a move `m` and its product `p`.
fn push_filters(q: &mut Sql, p: &Params, only_products: &[i64]) {
    q.any_of("m.warehouse_id", &p.warehouses).any_of("m.product_id", &p.products).any_of("m.product_id", only_products).brands_and_categories(p);
}

/// The company's moves of stock on hand under the report's filters, each with its `phase`:
/// 0 before the range, 1 inside it, 2 after it.
fn push_ledger(q: &mut Sql, org: i64, p: &Params, b: &Bounds, only_products: &[i64]) {
    q.push(
        "SELECT m.id AS id, m.product_id AS product_id, m.warehouse_id AS warehouse_id, m.qty_delta AS qty, m.reason AS reason, \
                m.created_at AS created_at, o.no AS sheet_no, o.order_type AS sheet_type, o.order_date AS sheet_date, \
                CASE WHEN o.id IS NOT NULL THEN (CASE WHEN o.order_date < ",
    )
    .bind(Bind::Date(b.from))
    .push(" THEN 0 WHEN o.order_date <= ")
    .bind(Bind::Date(b.to))
    .push(" THEN 1 ELSE 2 END) ELSE (CASE WHEN m.created_at < ")
    .bind(Bind::Timestamp(b.from_utc))
    .push(" THEN 0 WHEN m.created_at < ")
    .bind(Bind::Timestamp(b.end_utc))
    .push(
        " THEN 1 ELSE 2 END) END AS phase \
         FROM stock_moves m \
         JOIN products p ON p.id = m.product_id AND p.org_id = m.org_id \
         LEFT JOIN orders o ON o.id = m.order_id AND o.org_id = m.org_id \
         WHERE m.org_id = ",
    )
    .bind(Bind::BigInt(org))
    .push(" AND m.qty_delta <> 0");
    push_filters(q, p, only_products);
}

/// One row of [`balances`]: a product, or a product in one warehouse, with its sums.
#[derive(Debug, QueryableByName)]
struct Balance {
    #[diesel(sql_type = BigInt)]
    product_id: i64,
    #[diesel(sql_type = BigInt)]
    warehouse_id: i64,
    #[diesel(sql_type = Text)]
    warehouse: String,
    #[diesel(sql_type = Text)]
    category: String,
    #[diesel(sql_type = Text)]
    brand: String,
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = BigInt)]
    unit_cost: i64,
    #[diesel(sql_type = BigInt)]
    opening: i64,
    #[diesel(sql_type = BigInt)]
    inflow: i64,
    #[diesel(sql_type = BigInt)]
    outflow: i64,
    /// The ledger's sum up to the end of the range, summed on its own to check the others.
    #[diesel(sql_type = BigInt)]
    closing: i64,
    /// Moves inside the range.
    #[diesel(sql_type = BigInt)]
    moves: i64,
}

impl Balance {
    fn flow(&self) -> Flow {
        Flow { opening: self.opening, inflow: self.inflow, outflow: self.outflow }
    }
}

/// The sums per product (`per_warehouse` false) or per product and warehouse, of those with
/// a balance before the range or a move inside it, ordered by category path, brand, code
/// (then warehouse). One row per product or pair: bounded by the catalogue, not the ledger.
fn balances(conn: &mut DbConn, org: i64, p: &Params, b: &Bounds, per_warehouse: bool) -> AppResult<Vec<Balance>> {
    let (wh_cols, wh_join, wh_group, wh_order) = if per_warehouse {
        ("x.warehouse_id AS warehouse_id, w.name AS warehouse", " JOIN warehouses w ON w.id = x.warehouse_id", ", x.warehouse_id, w.name", ", w.name, x.warehouse_id")
    } else {
        ("CAST(0 AS BIGINT) AS warehouse_id, '' AS warehouse", "", "", "")
    };
    let opening = "SUM(CASE WHEN x.phase = 0 THEN x.qty ELSE 0 END)";
    let moves = "SUM(CASE WHEN x.phase = 1 THEN 1 ELSE 0 END)";
    let mut q = Sql::new(&format!(
        "SELECT x.product_id AS product_id, {wh_cols}, p.tag1 AS category, COALESCE(br.name, '') AS brand, p.code AS code, p.name AS name, \
                p.cost_price AS unit_cost, CAST({opening} AS BIGINT) AS opening, \
                CAST(SUM(CASE WHEN x.phase = 1 AND x.qty > 0 THEN x.qty ELSE 0 END) AS BIGINT) AS inflow, \
                CAST(SUM(CASE WHEN x.phase = 1 AND x.qty < 0 THEN 0 - x.qty ELSE 0 END) AS BIGINT) AS outflow, \
                CAST(SUM(x.qty) AS BIGINT) AS closing, CAST({moves} AS BIGINT) AS moves \
         FROM ("
    ));
    push_ledger(&mut q, org, p, b, &[]);
    q.push(&format!(
        ") x \
         JOIN products p ON p.id = x.product_id \
         LEFT JOIN brands br ON br.id = p.brand_id AND br.org_id = p.org_id{wh_join} \
         WHERE x.phase < 2 \
         GROUP BY x.product_id, p.tag1, br.name, p.code, p.name, p.cost_price{wh_group} \
         HAVING {opening} <> 0 OR {moves} > 0 \
         ORDER BY p.tag1, COALESCE(br.name, ''), p.code, x.product_id{wh_order}"
    ));
    q.load(conn)
}

/// One move inside the range, for the trace.
#[derive(Debug, QueryableByName)]
struct Move {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    product_id: i64,
    #[diesel(sql_type = BigInt)]
    warehouse_id: i64,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = Text)]
    reason: String,
    #[diesel(sql_type = Timestamp)]
    created_at: NaiveDateTime,
    #[diesel(sql_type = Nullable<Text>)]
    sheet_no: Option<String>,
    #[diesel(sql_type = Nullable<Integer>)]
    sheet_type: Option<i32>,
    #[diesel(sql_type = Nullable<Date>)]
    sheet_date: Option<NaiveDate>,
}

impl Move {
    fn date(&self, zone: Tz) -> NaiveDate {
        move_date(self.sheet_date, self.created_at, zone)
    }
}

/// The moves inside the range of some products, per (product, warehouse), each list in date
/// order (then in the order written).
fn moves_of(conn: &mut DbConn, org: i64, p: &Params, b: &Bounds, products: &[i64]) -> AppResult<HashMap<(i64, i64), Vec<Move>>> {
    let mut q = Sql::new("SELECT x.id, x.product_id, x.warehouse_id, x.qty, x.reason, x.created_at, x.sheet_no, x.sheet_type, x.sheet_date FROM (");
    push_ledger(&mut q, org, p, b, products);
    q.push(") x WHERE x.phase = 1");
    let rows: Vec<Move> = q.load(conn)?;
    let mut out: HashMap<(i64, i64), Vec<Move>> = HashMap::new();
    for m in rows {
        out.entry((m.product_id, m.warehouse_id)).or_default().push(m);
    }
    for list in out.values_mut() {
        list.sort_by_cached_key(|m| (m.date(b.zone), m.id));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// The worksheets

/// Rows on their way to the writer, handed over [`ROWS_PER_CHUNK`] at a time.
struct Rows<'a> {
    out: &'a mut SheetWriter,
    buf: Vec<Vec<Val>>,
}

impl<'a> Rows<'a> {
    fn new(out: &'a mut SheetWriter) -> Self {
        Self { out, buf: Vec::with_capacity(ROWS_PER_CHUNK) }
    }

    fn push(&mut self, row: Vec<Val>) -> AppResult<()> {
        self.buf.push(row);
        if self.buf.len() >= ROWS_PER_CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> AppResult<()> {
        if !self.buf.is_empty() {
            self.out.append(std::mem::take(&mut self.buf))?;
        }
        Ok(())
    }
}

fn text(s: &str) -> Val {
    Val::Text(s.to_string())
}

/// The summary's columns; the cost columns only when cost is shown.
fn summary_cols(cost: bool) -> Vec<Col> {
    let mut cols = vec![
        Col::new("Category", 22.0, Kind::Text),
        Col::new("Brand", 16.0, Kind::Text),
        Col::new("Code", 18.0, Kind::Text),
        Col::new("Name", 40.0, Kind::Text),
        Col::new("Opening", 10.0, Kind::Int),
        Col::new("In", 10.0, Kind::Int),
        Col::new("Out", 10.0, Kind::Int),
        Col::new("Closing", 10.0, Kind::Int),
    ];
    if cost {
        cols.push(Col::new("Unit Cost", 12.0, Kind::Aud));
        cols.push(Col::new("Closing Value", 15.0, Kind::Aud));
    }
    cols
}

/// Inventory Classification Summary: one row per product with its opening, in, out and
/// closing stock over the chosen warehouses; with cost, the product's cost price (the moving
/// average kept on bill approval) and the closing value at it.
pub fn inventory_summary(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let bounds = Bounds::of(ctx.params, ctx.zone)?;
    let cost = ctx.params.include_cost;
    let cols = summary_cols(cost);
    let width = cols.len();
    out.begin(Layout { name: "Summary".into(), cols, title: ctx.title(conn, "")? })?;
    let rows = balances(conn, ctx.org_id, ctx.params, &bounds, false)?;
    let total_rows = rows.len() as u64;
    ctx.progress.set(0, total_rows.max(1));
    let (mut sum, mut sum_closing, mut sum_value) = (Flow::default(), 0i64, 0i64);
    let mut writer = Rows::new(out);
    for (i, r) in rows.iter().enumerate() {
        let closing = checked_closing(r.flow(), r.closing, &r.code)?;
        sum = sum.plus(r.flow()).ok_or_else(too_large)?;
        sum_closing = sum_closing.checked_add(closing).ok_or_else(too_large)?;
        let mut row = vec![text(&r.category), text(&r.brand), text(&r.code), text(&r.name), Val::Int(r.opening), Val::Int(r.inflow), Val::Int(r.outflow), Val::Int(closing)];
        if cost {
            let value = closing.checked_mul(r.unit_cost).ok_or_else(too_large)?;
            sum_value = sum_value.checked_add(value).ok_or_else(too_large)?;
            row.extend([Val::Cents(r.unit_cost), Val::Cents(value)]);
        }
        writer.push(row)?;
        if (i + 1) % ROWS_PER_CHUNK == 0 {
            ctx.progress.set(i as u64 + 1, total_rows);
        }
    }
    writer.flush()?;
    let mut figures = vec![Val::Int(sum.opening), Val::Int(sum.inflow), Val::Int(sum.outflow), Val::Int(sum_closing)];
    if cost {
        figures.extend([text(""), Val::Cents(sum_value)]);
    }
    out.total(total_row(width, 4, figures))
}

/// The trace's columns (no cost: the trace follows quantities). Movement is the ledger's
/// own words, e.g. "Approved INV-000123" or "Unapproved INV-000123" for a reversal.
fn trace_cols() -> Vec<Col> {
    vec![
        Col::new("Date", 12.0, Kind::Date),
        Col::new("Sheet No.", 16.0, Kind::Text),
        Col::new("Sheet Type", 16.0, Kind::Text),
        Col::new("Warehouse", 18.0, Kind::Text),
        Col::new("Product Code", 18.0, Kind::Text),
        Col::new("Product Name", 40.0, Kind::Text),
        Col::new("In", 10.0, Kind::Int),
        Col::new("Out", 10.0, Kind::Int),
        Col::new("Balance", 10.0, Kind::Int),
        Col::new("Movement", 24.0, Kind::Text),
    ]
}

/// A trace row; `in_out` empty on the opening and closing rows.
fn trace_row(date: NaiveDate, no: &str, kind: &str, g: &Balance, in_out: Option<(i64, i64)>, balance: i64, movement: &str) -> Vec<Val> {
    let (i, o) = match in_out {
        Some((i, o)) => (Val::Int(i), Val::Int(o)),
        None => (text(""), text("")),
    };
    vec![Val::Date(Some(date)), text(no), text(kind), text(&g.warehouse), text(&g.code), text(&g.name), i, o, Val::Int(balance), text(movement)]
}

/// Writes one product-warehouse's opening row, its moves with the running balance, and its
/// closing row; answers the closing balance.
fn write_group(rows: &mut Rows<'_>, b: &Bounds, g: &Balance, moves: &[Move]) -> AppResult<i64> {
    let expected = checked_closing(g.flow(), g.closing, &format!("{} in {}", g.code, g.warehouse))?;
    rows.push(trace_row(b.from, OPENING, "", g, None, g.opening, ""))?;
    let mut balance = g.opening;
    for m in moves {
        let (i, o, after) = step(balance, m.qty).ok_or_else(too_large)?;
        balance = after;
        let kind = m.sheet_type.and_then(OrderType::from_code).map_or("", OrderType::label);
        rows.push(trace_row(m.date(b.zone), m.sheet_no.as_deref().unwrap_or(""), kind, g, Some((i, o)), balance, &m.reason))?;
    }
    if balance != expected || moves.len() as i64 != g.moves {
        return Err(AppError::bad_request(format!("The stock ledger of {} in {} changed while the report ran; run it again.", g.code, g.warehouse)));
    }
    rows.push(trace_row(b.to, CLOSING, "", g, None, balance, ""))?;
    Ok(balance)
}

/// Inventory Items Trace Detail: for each product and warehouse with a balance before the
/// range or a move inside it, an opening row, every move in date order with the running
/// balance, and a closing row; the total row sums In and Out, and its Balance is the sum of
/// the closing balances.
pub fn inventory_details(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let bounds = Bounds::of(ctx.params, ctx.zone)?;
    let cols = trace_cols();
    let width = cols.len();
    out.begin(Layout { name: "Trace".into(), cols, title: ctx.title(conn, "")? })?;
    let groups = balances(conn, ctx.org_id, ctx.params, &bounds, true)?;
    let keys: Vec<(i64, i64)> = groups.iter().map(|g| (g.product_id, g.moves)).collect();
    let work = keys.iter().map(|k| k.1.max(0) as u64 + 2).sum::<u64>().max(1);
    let (mut done, mut sum, mut sum_closing) = (0u64, Flow::default(), 0i64);
    let mut rows = Rows::new(out);
    for batch in batches(&keys, MOVES_PER_BATCH, PRODUCTS_PER_BATCH) {
        let part = &groups[batch];
        let mut products: Vec<i64> = part.iter().filter(|g| g.moves > 0).map(|g| g.product_id).collect();
        products.dedup();
        // Products with only an opening balance have nothing to read.
        let mut moves = if products.is_empty() { HashMap::new() } else { moves_of(conn, ctx.org_id, ctx.params, &bounds, &products)? };
        for g in part {
            let list = moves.remove(&(g.product_id, g.warehouse_id)).unwrap_or_default();
            let closing = write_group(&mut rows, &bounds, g, &list)?;
            sum = sum.plus(g.flow()).ok_or_else(too_large)?;
            sum_closing = sum_closing.checked_add(closing).ok_or_else(too_large)?;
            done += list.len() as u64 + 2;
        }
        ctx.progress.set(done, work);
    }
    rows.flush()?;
    out.total(total_row(width, 6, [Val::Int(sum.inflow), Val::Int(sum.outflow), Val::Int(sum_closing)]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::enums::ProductCategory;

    #[test]
    fn closing_is_opening_plus_in_less_out() {
        let f = Flow { opening: 10, inflow: 7, outflow: 12 };
        assert_eq!(f.closing(), Some(5));
        assert_eq!(Flow { opening: -3, inflow: 0, outflow: 4 }.closing(), Some(-7), "stock may go below zero");
        assert_eq!(Flow { opening: i64::MAX, inflow: 1, outflow: 1 }.closing(), None, "an overflow is refused, even when the net fits");
        assert_eq!(Flow { opening: i64::MIN, inflow: 0, outflow: 1 }.closing(), None);
    }

    #[test]
    fn a_closing_balance_that_disagrees_with_the_ledger_is_an_error() {
        let f = Flow { opening: 10, inflow: 7, outflow: 12 };
        assert_eq!(checked_closing(f, 5, "X").ok(), Some(5));
        assert!(checked_closing(f, 6, "X").is_err());
        assert!(checked_closing(Flow { opening: i64::MAX, inflow: 1, outflow: 0 }, 0, "X").is_err());
    }

    #[test]
    fn totals_add_every_column_checked() {
        let a = Flow { opening: 1, inflow: 2, outflow: 3 };
        let b = Flow { opening: 10, inflow: 20, outflow: 30 };
        let t = a.plus(b).unwrap();
        assert_eq!(t, Flow { opening: 11, inflow: 22, outflow: 33 });
        assert_eq!(t.closing(), Some(a.closing().unwrap() + b.closing().unwrap()), "the total row balances like its rows");
        assert_eq!(a.plus(Flow { inflow: i64::MAX, ..a }), None);
    }

    #[test]
    fn a_move_goes_in_or_out_and_carries_the_balance() {
        assert_eq!(step(5, 3), Some((3, 0, 8)));
        assert_eq!(step(5, -7), Some((0, 7, -2)), "out is shown as a positive number; the balance may go below zero");
        assert_eq!(step(0, 0), Some((0, 0, 0)));
        assert_eq!(step(i64::MAX, 1), None);
        assert_eq!(step(0, i64::MIN), None, "no positive Out for i64::MIN");
        // A reversal (an unapproval) puts back exactly what the approval took.
        let (_, _, after) = step(10, -4).unwrap();
        assert_eq!(step(after, 4), Some((4, 0, 10)));
    }

    #[test]
    fn a_move_counts_on_its_sheet_date_or_else_the_companys_day() {
        use domain::dates::DEFAULT_ZONE;
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        // Approved today (UTC 2026-01-20 03:00) for a sheet dated a week earlier: the sheet's day.
        let written = d(2026, 1, 20).and_hms_opt(3, 0, 0).unwrap();
        assert_eq!(move_date(Some(d(2026, 1, 13)), written, DEFAULT_ZONE), d(2026, 1, 13));
        // No sheet: 13:30 UTC on the 14th is already the 15th in Sydney (AEDT, UTC+11).
        assert_eq!(move_date(None, d(2026, 1, 14).and_hms_opt(13, 30, 0).unwrap(), DEFAULT_ZONE), d(2026, 1, 15));
        // In Perth (AWST, UTC+8) it is still the 14th until 16:00 UTC.
        assert_eq!(move_date(None, d(2026, 1, 14).and_hms_opt(13, 30, 0).unwrap(), chrono_tz::Australia::Perth), d(2026, 1, 14));
        assert_eq!(move_date(None, d(2026, 1, 14).and_hms_opt(12, 59, 0).unwrap(), DEFAULT_ZONE), d(2026, 1, 14));
    }

    #[test]
    fn batches_hold_whole_products_up_to_the_limit() {
        // (product, moves) per product-warehouse, a product's groups adjacent.
        let groups = [(1, 600), (1, 500), (2, 800), (3, 5_000), (4, 10), (4, 0), (5, 1_990)];
        let b = batches(&groups, 2_000, 500);
        assert_eq!(b, vec![0..3, 3..4, 4..7], "1,900 then 5,000 alone then exactly 2,000");
        assert_eq!(batches(&[(1, 1_500), (2, 501)], 2_000, 500), vec![0..1, 1..2], "one move over the limit starts a new batch");
        assert!(batches(&[], 2_000, 500).is_empty());
        assert_eq!(batches(&[(1, 0), (2, 0), (2, 0), (3, 0)], 2_000, 500), vec![0..4], "groups without moves share a batch");
        assert_eq!(batches(&[(1, 0), (2, 0), (2, 0), (3, 0)], 2_000, 2), vec![0..3, 3..4], "at most two products, a product's groups together");
        // Every group is in exactly one batch, in order.
        let covered: Vec<usize> = b.into_iter().flatten().collect();
        assert_eq!(covered, (0..groups.len()).collect::<Vec<_>>());
    }

    #[test]
    fn filters_keep_to_the_choices_and_categories_take_their_children() {
        let p = Params { warehouses: vec![3, 4], brands: vec![7], products: vec![9], categories: vec![ProductCategory::Wheels.as_i32()], ..Params::default() };
        let mut q = Sql::new("");
        push_filters(&mut q, &p, &[11, 12]);
        let s = q.render(db::Backend::Sqlite);
        assert!(s.contains("m.warehouse_id IN (3,4)"), "{s}");
        assert!(s.contains("m.product_id IN (9)") && s.contains("m.product_id IN (11,12)") && s.contains("p.brand_id IN (7)"), "{s}");
        assert!(s.contains("p.tag1 = $5 OR p.tag1 LIKE $6"), "{s}");
        let s = q.render(db::Backend::Postgres);
        assert!(s.contains("m.warehouse_id = ANY(CAST($1 AS BIGINT[]))") && s.contains("p.brand_id = ANY(CAST($4 AS BIGINT[]))"), "{s}");
        let bound: Vec<String> = q.binds.iter().filter_map(|b| if let Bind::Text(t) = b { Some(t.clone()) } else { None }).collect();
        assert_eq!(bound, ["Wheels", "Wheels/%"], "categories take their children");
        let mut none = Sql::new("");
        push_filters(&mut none, &Params::default(), &[]);
        assert_eq!(none.render(db::Backend::Postgres), "", "no choice, no filter");
    }
}
