//! Sales reports: Invoices & Credit Notes Detail (`detail`), Customers Sales Summary
//! (`summary`), Slow-moving Products Analysis (`slow_moving`). This module holds what the
//! three share: the SQL that picks the sheets a report counts, and the rules that turn a
//! stored sheet or line into the report's figures (credit notes negative, GST, margin).
//!
//! Every query is written once for both backends as plain SQL with numbered placeholders,
//! built piece by piece by [`Sql`]; the summaries group in SQL, the detail streams.

mod detail;
mod slow_moving;
mod summary;

use chrono::NaiveDate;

pub use detail::invoice_details;
pub use slow_moving::slow_moving;
pub use summary::sale_summary;

use super::Ctx;
use super::sql::{Bind, Id, Sql, date_column, has_product_filter, ids, overflow};
use domain::dates::day_start_utc;
use domain::enums::{CodeEnum, OrderStatus, OrderType, TaxType};
use domain::money::{Cents, gst_of_inclusive};
use domain::reports::{Params, margin};
use db::error::{AppError, AppResult};
use xlsx::export::{Col, Kind as Cell, SheetWriter, Val};

/// Ids per `IN (…)` list.
const CHUNK: usize = db::CHUNK;

/// Most rows handed to the writer at once (it streams each batch to disk).
const APPEND_MAX: usize = 2_000;

/// Cost, Margin, Margin %: shown only when `include_cost` (asked for and allowed).
const COST_COLS: [Col; 3] = [Col::new("Cost", 14.0, Cell::Aud), Col::new("Margin", 14.0, Cell::Aud), Col::new("Margin %", 10.0, Cell::Percent)];

/// `cols`, then the cost columns when cost is shown: absent otherwise, not empty.
fn with_cost(cols: &[Col], cost: bool) -> Vec<Col> {
    let mut all = cols.to_vec();
    if cost {
        all.extend(COST_COLS);
    }
    all
}

/// Rows on their way to the writer, handed over [`APPEND_MAX`] at a time, so a chunk of
/// sheets with many lines never becomes one huge batch.
#[derive(Default)]
struct Rows(Vec<Vec<Val>>);

impl Rows {
    fn push(&mut self, out: &mut SheetWriter, row: Vec<Val>) -> AppResult<()> {
        self.0.push(row);
        if self.0.len() >= APPEND_MAX { self.flush(out) } else { Ok(()) }
    }

    fn flush(&mut self, out: &mut SheetWriter) -> AppResult<()> {
        if self.0.is_empty() {
            return Ok(());
        }
        out.append(std::mem::take(&mut self.0))
    }
}

/// Reads `ids` [`CHUNK`] at a time with `load` on a thread of its own, one chunk ahead of
/// `each`, which gets each chunk's ids and what `load` read for them, in order. So the
/// database works on the next chunk while this thread turns the last into cells and the
/// workbook's thread writes the one before: a year's detail at scale XL spent its time in
/// PostgreSQL and in this thread by turns (issue 37). Both sides use the one connection,
/// `load` alone while they run. The first error, on either side, ends both.
fn read_ahead<C: Send, T: Send>(
    conn: &mut C,
    ids: &[i64],
    mut load: impl FnMut(&mut C, &[i64]) -> AppResult<T> + Send,
    mut each: impl FnMut(&[i64], T) -> AppResult<()>,
) -> AppResult<()> {
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<AppResult<T>>(1);
        let reader = std::thread::Builder::new()
            .name("report-read".into())
            .spawn_scoped(scope, move || {
                for chunk in ids.chunks(CHUNK) {
                    let read = load(conn, chunk);
                    let failed = read.is_err();
                    // A closed channel means `each` failed: stop reading.
                    if tx.send(read).is_err() || failed {
                        break;
                    }
                }
            })
            .map_err(|e| AppError::Internal(anyhow::anyhow!("could not start the report's reader: {e}")))?;
        let mut chunks = ids.chunks(CHUNK);
        let result = rx.iter().try_for_each(|read| {
            let chunk = chunks.next().ok_or_else(|| AppError::Internal(anyhow::anyhow!("the report read more chunks than it has")))?;
            each(chunk, read?)
        });
        drop(rx);
        if let Err(panic) = reader.join() {
            std::panic::resume_unwind(panic);
        }
        result
    })
}

fn codes(values: &[i32]) -> Vec<i64> {
    values.iter().map(|v| i64::from(*v)).collect()
}

/// Which dates of the sales sheets a query counts.
#[derive(Clone, Copy, Debug)]
struct Dates {
    column: &'static str,
    from: Option<NaiveDate>,
    to: NaiveDate,
}

impl Dates {
    /// The report's range on the date its `dateType` picks.
    fn of_range(p: &Params) -> AppResult<Self> {
        let (Some(from), Some(to)) = (p.from, p.to) else { return Err(AppError::bad_request("Choose the date range.")) };
        Ok(Self { column: date_column(p.date_type), from: Some(from), to })
    }
}

/// `FROM` the sales sheets a report counts, aliased `o` (orders) and `c` (customers).
const SHEETS_FROM: &str = " FROM orders o LEFT JOIN customers c ON c.id = o.customer_id AND c.org_id = o.org_id";

/// Their lines, aliased `l`; follows [`SHEETS_FROM`].
const LINES_OF: &str = " JOIN order_lines l ON l.order_id = o.id AND l.org_id = o.org_id";

/// Their lines, `l`, and the lines' products, `p` (the product filters read them).
const LINES_JOIN: &str = " JOIN order_lines l ON l.order_id = o.id AND l.org_id = o.org_id \
                          LEFT JOIN products p ON p.id = l.product_id AND p.org_id = l.org_id";

/// ` WHERE …` of the sheets a report counts: the company's invoices (and credit notes when
/// `credits`), approved or closed, in `dates`, with the sheet and customer filters.
fn push_sheet_filter(q: &mut Sql, ctx: &Ctx<'_>, dates: Dates, credits: bool) {
    let p = ctx.params;
    let mut types = vec![i64::from(OrderType::Invoice.as_i32())];
    if credits {
        types.push(i64::from(OrderType::CreditNote.as_i32()));
    }
    let counted = [i64::from(OrderStatus::Approved.as_i32()), i64::from(OrderStatus::Closed.as_i32())];
    q.push(" WHERE o.org_id = ").bind(Bind::BigInt(ctx.org_id));
    q.any_of("o.order_type", &types).any_of("o.status", &counted);
    if let Some(from) = dates.from {
        q.push(&format!(" AND {} >= ", dates.column)).bind(Bind::Date(from));
    }
    q.push(&format!(" AND {} <= ", dates.column)).bind(Bind::Date(dates.to));
    q.any_of("o.tag_id", &codes(&p.tags)).any_of("o.warehouse_id", &p.warehouses);
    q.any_of("c.area_type", &codes(&p.areas)).any_of("c.payment_type", &codes(&p.payments)).any_of("c.id", &p.csrs);
    if let Some((from, to)) = p.csr_created {
        q.push(" AND c.created_at >= ").bind(Bind::Timestamp(day_start_utc(from, ctx.zone)));
        if let Some(next) = to.succ_opt() {
            q.push(" AND c.created_at < ").bind(Bind::Timestamp(day_start_utc(next, ctx.zone)));
        }
    }
}

/// ` AND …` of the product filters on products aliased `p`, whose id is `id_column`.
fn push_product_filter(q: &mut Sql, p: &Params, id_column: &str) {
    q.brands_and_categories(p).any_of(id_column, &p.products);
}

/// `expr` with a credit note's sign: credit notes count negative in every sales report.
fn signed_sql(expr: &str) -> String {
    format!("(CASE WHEN o.order_type = {} THEN -({expr}) ELSE ({expr}) END)", OrderType::CreditNote.as_i32())
}

/// The GST inside the tax-inclusive `expr` when the sheet `o` charges GST: 1/11 rounded half
/// away from zero, in integers, as [`gst_of_inclusive`] does (the summaries group in SQL).
fn gst_sql(expr: &str) -> String {
    let taxed: Vec<String> = TaxType::ALL.iter().filter(|t| t.charges_gst()).map(|t| t.code().to_string()).collect();
    format!(
        "(CASE WHEN o.tax_type NOT IN ({}) THEN 0 WHEN ({expr}) >= 0 THEN (({expr}) * 2 + 11) / 22 ELSE -((-({expr}) * 2 + 11) / 22) END)",
        taxed.join(", ")
    )
}

/// `value` as the report counts it: negative on a credit note.
fn signed(order_type: i32, value: i64) -> AppResult<i64> {
    if order_type == OrderType::CreditNote.as_i32() { value.checked_neg().ok_or_else(overflow) } else { Ok(value) }
}

/// `acc += value`, checked.
fn add(acc: &mut i64, value: i64) -> AppResult<()> {
    *acc = acc.checked_add(value).ok_or_else(overflow)?;
    Ok(())
}

/// `qty × unit` (a line's cost, a stock value), checked.
fn times(qty: i64, unit: i64) -> AppResult<i64> {
    qty.checked_mul(unit).ok_or_else(overflow)
}

/// A sheet's figures in the report, credit notes negative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SheetFigures {
    qty: i64,
    /// Ex GST.
    subtotal: i64,
    gst: i64,
    /// Inc GST (the amount when the sheet charges no GST).
    total: i64,
}

impl SheetFigures {
    /// From the sheet's `qty` and tax-inclusive `amount`: its stored totals with their stored
    /// `gst`, or the sums of its matching lines (`gst` `None`), whose GST is 1/11 of that sum
    /// when the sheet charges GST, rounded once like a sheet's own.
    fn new(order_type: i32, tax_type: i32, qty: i64, amount: i64, gst: Option<i64>) -> AppResult<Self> {
        let gst = gst.unwrap_or_else(|| gst_of_inclusive(Cents(amount), TaxType::from_i32(tax_type).unwrap_or_default()).0);
        let subtotal = amount.checked_sub(gst).ok_or_else(overflow)?;
        Ok(Self { qty: signed(order_type, qty)?, subtotal: signed(order_type, subtotal)?, gst: signed(order_type, gst)?, total: signed(order_type, amount)? })
    }

    /// Adds `other` to these running totals.
    fn add(&mut self, other: &SheetFigures) -> AppResult<()> {
        add(&mut self.qty, other.qty)?;
        add(&mut self.subtotal, other.subtotal)?;
        add(&mut self.gst, other.gst)?;
        add(&mut self.total, other.total)
    }
}

/// Sales and cost of a row or a total, and the cells of Cost, Margin, Margin %.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CostFigures {
    /// What the margin is measured against: sales ex GST.
    sales_ex: i64,
    cost: i64,
}

impl CostFigures {
    fn add(&mut self, other: &CostFigures) -> AppResult<()> {
        add(&mut self.sales_ex, other.sales_ex)?;
        add(&mut self.cost, other.cost)
    }

    /// Cost, Margin, Margin % (empty without sales to measure against).
    fn cells(&self) -> AppResult<[Val; 3]> {
        let (m, pct) = margin(self.sales_ex, self.cost).ok_or_else(overflow)?;
        Ok([Val::Cents(self.cost), Val::Cents(m), Val::Basis(pct)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `read_ahead`'s reading side was asked for, standing in for a connection.
    #[derive(Default)]
    struct Loads(Vec<i64>);

    #[test]
    fn chunks_read_ahead_arrive_whole_and_in_order() {
        let ids: Vec<i64> = (1..=(CHUNK as i64) * 3 + 7).collect();
        let mut loads = Loads::default();
        let mut seen = Vec::new();
        read_ahead(
            &mut loads,
            &ids,
            |loads, chunk| {
                loads.0.push(chunk[0]);
                Ok(chunk.iter().map(|id| id * 10).collect::<Vec<i64>>())
            },
            |chunk, read| {
                assert_eq!(read, chunk.iter().map(|id| id * 10).collect::<Vec<_>>(), "each chunk gets what was read for it");
                seen.extend_from_slice(chunk);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, ids, "every id once, in order");
        assert_eq!(loads.0.len(), 4, "three full chunks and the rest");
    }

    #[test]
    fn a_failed_read_ends_the_report_with_its_error() {
        let ids: Vec<i64> = (1..=(CHUNK as i64) * 5).collect();
        let mut loads = Loads::default();
        let mut written = 0;
        let err = read_ahead(
            &mut loads,
            &ids,
            |loads, chunk| {
                loads.0.push(chunk[0]);
                if loads.0.len() == 2 { Err(AppError::bad_request("the second chunk failed")) } else { Ok(()) }
            },
            |_, ()| {
                written += 1;
                Ok(())
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("second chunk"), "{err}");
        assert_eq!(written, 1, "the chunk before the failure was written, none after");
        assert_eq!(loads.0.len(), 2, "no chunk is read after a failed one");
    }

    #[test]
    fn a_failed_write_stops_the_reading() {
        let ids: Vec<i64> = (1..=(CHUNK as i64) * 20).collect();
        let mut loads = Loads::default();
        let err = read_ahead(&mut loads, &ids, |loads, chunk| Ok(loads.0.push(chunk[0])), |_, ()| Err(AppError::bad_request("the disk is full")))
            .unwrap_err();
        assert!(err.to_string().contains("disk is full"), "{err}");
        assert!(loads.0.len() <= 3, "the reader stops within the channel's room, read {}", loads.0.len());
    }

    #[test]
    fn credit_notes_count_negative() {
        assert_eq!(signed(1, 500).unwrap(), 500, "an invoice keeps its sign");
        assert_eq!(signed(2, 500).unwrap(), -500, "a credit note counts negative");
        assert_eq!(signed(2, -7).unwrap(), 7);
        assert!(signed(2, i64::MIN).is_err(), "a sign that cannot flip is an error");
    }

    #[test]
    fn sheet_figures_from_stored_totals_and_from_lines() {
        let stored = SheetFigures::new(1, 3, 4, 11_000, Some(1_000)).unwrap();
        assert_eq!(stored, SheetFigures { qty: 4, subtotal: 10_000, gst: 1_000, total: 11_000 });
        let credit = SheetFigures::new(2, 3, 4, 11_000, Some(1_000)).unwrap();
        assert_eq!(credit, SheetFigures { qty: -4, subtotal: -10_000, gst: -1_000, total: -11_000 });
        // Matching lines only: GST is 1/11 of their sum, rounded once (1000/11 = 90.9).
        let lines = SheetFigures::new(1, 2, 3, 1_000, None).unwrap();
        assert_eq!(lines, SheetFigures { qty: 3, subtotal: 909, gst: 91, total: 1_000 });
        let untaxed = SheetFigures::new(1, 1, 3, 1_000, None).unwrap();
        assert_eq!(untaxed, SheetFigures { qty: 3, subtotal: 1_000, gst: 0, total: 1_000 }, "No Tax carries no GST");
    }

    #[test]
    fn totals_are_invoices_minus_credit_notes_and_refuse_overflow() {
        let mut total = SheetFigures::default();
        total.add(&SheetFigures::new(1, 3, 5, 5_500, Some(500)).unwrap()).unwrap();
        total.add(&SheetFigures::new(2, 3, 2, 2_200, Some(200)).unwrap()).unwrap();
        assert_eq!(total, SheetFigures { qty: 3, subtotal: 3_000, gst: 300, total: 3_300 });
        let huge = SheetFigures { qty: 0, subtotal: i64::MAX, gst: 0, total: 0 };
        assert!(total.add(&huge).is_err(), "an overflow is an error, never a wrong figure");
        let mut acc = i64::MAX;
        assert!(add(&mut acc, 1).is_err());
        assert!(times(i64::MAX, 2).is_err());
        assert_eq!(times(-3, 250).unwrap(), -750);
    }

    #[test]
    fn margin_cells_measure_against_sales_ex_gst() {
        let c = CostFigures { sales_ex: 10_000, cost: 7_500 };
        assert_eq!(c.cells().unwrap(), [Val::Cents(7_500), Val::Cents(2_500), Val::Basis(Some(2_500))]);
        let none = CostFigures { sales_ex: 0, cost: 300 };
        assert_eq!(none.cells().unwrap(), [Val::Cents(300), Val::Cents(-300), Val::Basis(None)], "no sales, no margin %");
        let mut sum = CostFigures::default();
        sum.add(&c).unwrap();
        sum.add(&CostFigures { sales_ex: -5_000, cost: -4_000 }).unwrap();
        assert_eq!(sum, CostFigures { sales_ex: 5_000, cost: 3_500 });
    }

    #[test]
    fn cost_columns_are_absent_unless_shown() {
        let cols = [Col::new("Qty", 8.0, Cell::Int)];
        assert_eq!(with_cost(&cols, false).len(), 1);
        let shown: Vec<&str> = with_cost(&cols, true).iter().map(|c| c.header).collect();
        assert_eq!(shown, ["Qty", "Cost", "Margin", "Margin %"]);
    }

    #[test]
    fn gst_in_sql_rounds_as_the_money_rules_do() {
        use diesel::sql_types::{BigInt, Integer};
        #[derive(diesel::QueryableByName)]
        struct G {
            #[diesel(sql_type = BigInt)]
            gst: i64,
        }
        let url = db::DatabaseUrl::Sqlite(":memory:".into());
        let mut conn = db::connect(&url).expect("in-memory SQLite");
        for amount in [0i64, 5, 6, 55, 100, 165, 1_000, 11_000, -6, -100, -1_000, 123_456_789] {
            for tax in TaxType::ALL {
                let sql = format!("SELECT CAST({} AS BIGINT) AS gst FROM (SELECT $1 AS tax_type, $2 AS amount) o", gst_sql("o.amount"));
                let got: Vec<G> = {
                    use diesel::RunQueryDsl;
                    diesel::sql_query(sql).bind::<Integer, _>(tax.code()).bind::<BigInt, _>(amount).load(&mut conn).unwrap()
                };
                assert_eq!(got[0].gst, gst_of_inclusive(Cents(amount), *tax).0, "{amount} under {tax:?}");
            }
        }
    }
}
