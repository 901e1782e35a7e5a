//! Invoices & Credit Notes Detail ("2 sublists"): the "Sheets" worksheet, one row per sheet,
//! and the "Lines" worksheet, one row per line. Credit notes count negative, so each total
//! is invoices minus credit notes, and the two totals inc GST are the same figure.
//!
//! Memory stays flat for a year at scale L: the matching ids are read first (narrow, in the
//! report's order), then their rows `db::CHUNK` ids at a time with `IN (…)`, each chunk read
//! one ahead of the rows being written ([`read_ahead`]).

use std::collections::{HashMap, HashSet};

use chrono::NaiveDate;
use diesel::prelude::*;
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Date, Integer, Nullable, Text};

use super::{
    Bind, CostFigures, Dates, Id, LINES_JOIN, Rows, SHEETS_FROM, SheetFigures, Sql, add, has_product_filter, ids,
    overflow, push_product_filter, push_sheet_filter, read_ahead, signed, times, with_cost,
};
use db::DbConn;
use domain::enums::{CodeEnum, Tag, TaxType};
use domain::money::{Cents, gst_of_inclusive};
use domain::reports::Group;
use db::error::AppResult;
use crate::reports::Ctx;
use crate::reports::rows::{SHEET_HEAD, SheetHead, total_row, type_label};
use xlsx::export::{Col, Kind as Cell, Layout, SheetWriter, Val};

const SHEET_COLS: [Col; 13] = [
    Col::new("Date", 12.0, Cell::Date),
    Col::new("Due Date", 12.0, Cell::Date),
    Col::new("ETA Date", 12.0, Cell::Date),
    Col::new("No.", 14.0, Cell::Text),
    Col::new("Type", 12.0, Cell::Text),
    Col::new("Customer", 32.0, Cell::Text),
    Col::new("Customer Code (ABN)", 18.0, Cell::Text),
    Col::new("Tag", 12.0, Cell::Text),
    Col::new("Warehouse", 18.0, Cell::Text),
    Col::new("Qty", 8.0, Cell::Int),
    Col::new("Subtotal (ex GST)", 16.0, Cell::Aud),
    Col::new("GST", 14.0, Cell::Aud),
    Col::new("Total (inc GST)", 16.0, Cell::Aud),
];

const LINE_COLS: [Col; 10] = [
    Col::new("Date", 12.0, Cell::Date),
    Col::new("No.", 14.0, Cell::Text),
    Col::new("Type", 12.0, Cell::Text),
    Col::new("Customer", 32.0, Cell::Text),
    Col::new("Product Code", 18.0, Cell::Text),
    Col::new("Product Name", 36.0, Cell::Text),
    Col::new("Description", 36.0, Cell::Text),
    Col::new("Qty", 8.0, Cell::Int),
    Col::new("Unit Price", 14.0, Cell::Aud),
    Col::new("Amount (inc GST)", 16.0, Cell::Aud),
];

/// Writes the Sheets and Lines worksheets.
pub fn invoice_details(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let sheets = sheet_ids(conn, ctx)?;
    // By customer the lines follow their sheets; by product they have an order of their own.
    let lines = match ctx.params.group {
        Group::Customers => LinesOf::Sheets(&sheets),
        Group::Products => LinesOf::Lines(line_ids_by_product(conn, ctx)?),
    };
    let work = Work { done: 0, total: (sheets.len() + lines.ids().len()) as u64 };
    let mut read = Read::default();
    let work = write_sheets(conn, ctx, out, &sheets, &mut read, work)?;
    write_lines(conn, ctx, out, &lines, &mut read, work)
}

/// The names the two worksheets share: asked for by the reading thread, kept by this one.
#[derive(Default)]
struct Read {
    asked: Asked,
    names: Names,
}

/// Units of work done and to do (ids read), for the job's progress.
#[derive(Clone, Copy)]
struct Work {
    done: u64,
    total: u64,
}

impl Work {
    fn step(self, ctx: &Ctx<'_>, n: usize) -> Self {
        let done = self.done + n as u64;
        ctx.progress.set(done, self.total);
        Self { done, ..self }
    }
}

/// The ids of the sheets listed, in the Sheets worksheet's order: by customer name, date
/// and number, or by date and number. With a product filter, only sheets with a matching line.
fn sheet_ids(conn: &mut DbConn, ctx: &Ctx<'_>) -> AppResult<Vec<i64>> {
    let p = ctx.params;
    let mut q = Sql::new("SELECT o.id AS id");
    q.push(SHEETS_FROM);
    push_sheet_filter(&mut q, ctx, Dates::of_range(p)?, true);
    if has_product_filter(p) {
        q.push(
            " AND EXISTS (SELECT 1 FROM order_lines l LEFT JOIN products p ON p.id = l.product_id AND p.org_id = l.org_id \
             WHERE l.order_id = o.id AND l.org_id = o.org_id",
        );
        push_product_filter(&mut q, p, "l.product_id");
        q.push(")");
    }
    q.push(match p.group {
        Group::Customers => " ORDER BY COALESCE(c.name, ''), o.order_date, o.no, o.id",
        Group::Products => " ORDER BY o.order_date, o.no, o.id",
    });
    Ok(ids(q.load::<Id>(conn)?))
}

/// The ids of the lines listed when grouped by product: by product code, then date and number.
fn line_ids_by_product(conn: &mut DbConn, ctx: &Ctx<'_>) -> AppResult<Vec<i64>> {
    let p = ctx.params;
    let mut q = Sql::new("SELECT l.id AS id");
    q.push(SHEETS_FROM).push(LINES_JOIN);
    push_sheet_filter(&mut q, ctx, Dates::of_range(p)?, true);
    push_product_filter(&mut q, p, "l.product_id");
    q.push(" ORDER BY COALESCE(p.code, ''), o.order_date, o.no, o.id, l.seq, l.id");
    Ok(ids(q.load::<Id>(conn)?))
}

/// A sheet as the Sheets worksheet reads it: `qty` and `amount` are its stored totals, or
/// the sums of its matching lines under a product filter.
#[derive(QueryableByName)]
struct SheetRow {
    #[diesel(embed)]
    sheet: SheetHead,
    #[diesel(sql_type = Integer)]
    tag_id: i32,
    #[diesel(sql_type = Nullable<BigInt>)]
    customer_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    warehouse_id: Option<i64>,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    gst: i64,
}

/// The names the rows show: customers' (name, code), products' (code, name) and
/// warehouses', kept for the rest of the report as [`Asked::read`] brings them. They hold
/// at most the company's customers, products and warehouses.
#[derive(Default)]
struct Names {
    customers: HashMap<i64, (String, String)>,
    products: HashMap<i64, (String, String)>,
    warehouses: HashMap<i64, String>,
}

impl Names {
    fn extend(&mut self, new: NewNames) {
        self.customers.extend(new.customers);
        self.products.extend(new.products);
        self.warehouses.extend(new.warehouses);
    }

    fn customer(&self, id: Option<i64>) -> (String, String) {
        id.and_then(|id| self.customers.get(&id)).cloned().unwrap_or_default()
    }

    fn product(&self, id: Option<i64>) -> (String, String) {
        id.and_then(|id| self.products.get(&id)).cloned().unwrap_or_default()
    }

    fn warehouse(&self, id: Option<i64>) -> String {
        id.and_then(|id| self.warehouses.get(&id)).cloned().unwrap_or_default()
    }
}

/// Names read for a chunk that no earlier chunk asked for.
#[derive(Default)]
struct NewNames {
    customers: Vec<(i64, (String, String))>,
    products: Vec<(i64, (String, String))>,
    warehouses: Vec<(i64, String)>,
}

/// The ids whose names the reading thread has asked for. Names are read for the ids of
/// each chunk that earlier chunks did not name, one statement each. Joining the company's
/// 5,000 customers or 20,000 products made PostgreSQL hash them all for every chunk (70 ms
/// of a 75 ms chunk at scale L); a subquery per row instead cost three index probes a
/// line; reading every chunk's products again cost 4 ms a chunk (1.7 s of a year at scale
/// XL, issue 37).
#[derive(Default)]
struct Asked {
    customers: HashSet<i64>,
    products: HashSet<i64>,
    warehouses: HashSet<i64>,
}

impl Asked {
    /// Reads the names of the ids not asked for yet.
    fn read(&mut self, conn: &mut DbConn, org: i64, customers: impl Iterator<Item = i64>, products: impl Iterator<Item = i64>, warehouses: impl Iterator<Item = i64>) -> AppResult<NewNames> {
        use db::schema::{customers as c, products as p, warehouses as w};
        fn missing(ids: impl Iterator<Item = i64>, asked: &mut HashSet<i64>) -> Vec<i64> {
            let mut v: Vec<i64> = ids.filter(|id| asked.insert(*id)).collect();
            v.sort_unstable();
            v
        }
        let mut new = NewNames::default();
        let cs = missing(customers, &mut self.customers);
        if !cs.is_empty() {
            let rows: Vec<(i64, String, String)> = c::table.filter(c::org_id.eq(org)).filter(c::id.eq_any(cs)).select((c::id, c::name, c::code)).load(conn)?;
            new.customers = rows.into_iter().map(|(id, name, code)| (id, (name, code))).collect();
        }
        let ps = missing(products, &mut self.products);
        if !ps.is_empty() {
            let rows: Vec<(i64, String, String)> = p::table.filter(p::org_id.eq(org)).filter(p::id.eq_any(ps)).select((p::id, p::code, p::name)).load(conn)?;
            new.products = rows.into_iter().map(|(id, code, name)| (id, (code, name))).collect();
        }
        let ws = missing(warehouses, &mut self.warehouses);
        if !ws.is_empty() {
            new.warehouses = w::table.filter(w::org_id.eq(org)).filter(w::id.eq_any(ws)).select((w::id, w::name)).load(conn)?;
        }
        Ok(new)
    }
}

/// The sheets of `chunk`, in its order.
fn load_sheets(conn: &mut DbConn, ctx: &Ctx<'_>, chunk: &[i64]) -> AppResult<Vec<SheetRow>> {
    let p = ctx.params;
    let filtered = has_product_filter(p);
    let mut q = Sql::new(&format!("SELECT {SHEET_HEAD}, o.tag_id AS tag_id, "));
    q.push("o.customer_id AS customer_id, o.warehouse_id AS warehouse_id, o.total_gst AS gst, ");
    q.push(if filtered { "m.qty AS qty, m.amount AS amount" } else { "o.total_qty AS qty, o.total_amount AS amount" });
    q.push(" FROM orders o");
    if filtered {
        q.push(
            " JOIN (SELECT l.order_id AS order_id, CAST(SUM(l.quantity) AS BIGINT) AS qty, CAST(SUM(l.amount) AS BIGINT) AS amount \
             FROM order_lines l LEFT JOIN products p ON p.id = l.product_id AND p.org_id = l.org_id WHERE l.org_id = ",
        )
        .bind(Bind::BigInt(ctx.org_id))
        .any_of("l.order_id", chunk);
        push_product_filter(&mut q, p, "l.product_id");
        q.push(" GROUP BY l.order_id) m ON m.order_id = o.id");
    }
    // `+o.org_id`: the ids drive the query. SQLite's sampled statistics (`db::optimize`) put
    // a company's sheets at a few hundred, and with a plain `o.org_id` it walked the covering
    // `orders_date` index through the whole company for every chunk (issue 37: 133 s for a
    // year at L).
    q.push(" WHERE +o.org_id = ").bind(Bind::BigInt(ctx.org_id)).any_of("o.id", chunk);
    let mut by_id: HashMap<i64, SheetRow> = q.load::<SheetRow>(conn)?.into_iter().map(|r| (r.sheet.id, r)).collect();
    Ok(chunk.iter().filter_map(|id| by_id.remove(id)).collect())
}

fn sheet_cells(r: SheetRow, f: &SheetFigures, names: &Names) -> Vec<Val> {
    let mut cells = r.sheet.cells().to_vec();
    let (customer, customer_code) = names.customer(r.customer_id);
    cells.extend([
        Val::Text(customer),
        Val::Text(customer_code),
        Val::Text(Tag::from_code(r.tag_id).map_or("", Tag::text).into()),
        Val::Text(names.warehouse(r.warehouse_id)),
        Val::Int(f.qty),
        Val::Cents(f.subtotal),
        Val::Cents(f.gst),
        Val::Cents(f.total),
    ]);
    cells
}

/// The "Sheets" worksheet: the sheets of `ids` in that order, and their total.
fn write_sheets(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter, ids: &[i64], read: &mut Read, mut work: Work) -> AppResult<Work> {
    out.begin(Layout { name: "Sheets".into(), cols: SHEET_COLS.to_vec(), title: ctx.title(conn, "Sheets")? })?;
    let filtered = has_product_filter(ctx.params);
    let mut total = SheetFigures::default();
    let mut rows = Rows::default();
    let Read { asked, names } = read;
    read_ahead(
        conn,
        ids,
        |conn, chunk| {
            let sheets = load_sheets(conn, ctx, chunk)?;
            let new = asked.read(conn, ctx.org_id, sheets.iter().filter_map(|r| r.customer_id), std::iter::empty(), sheets.iter().filter_map(|r| r.warehouse_id))?;
            Ok((sheets, new))
        },
        |chunk, (sheets, new)| {
            names.extend(new);
            for r in sheets {
                let stored_gst = (!filtered).then_some(r.gst);
                let f = SheetFigures::new(r.sheet.order_type, r.sheet.tax_type, r.qty, r.amount, stored_gst)?;
                total.add(&f)?;
                rows.push(out, sheet_cells(r, &f, names))?;
            }
            rows.flush(out)?;
            work = work.step(ctx, chunk.len());
            Ok(())
        },
    )?;
    out.total(total_row(SHEET_COLS.len(), 9, [Val::Int(total.qty), Val::Cents(total.subtotal), Val::Cents(total.gst), Val::Cents(total.total)]))?;
    Ok(work)
}

/// The lines the Lines worksheet lists: those of sheets (in the sheets' order, then by
/// line number), or lines in their own order.
enum LinesOf<'a> {
    Sheets(&'a [i64]),
    Lines(Vec<i64>),
}

impl LinesOf<'_> {
    fn ids(&self) -> &[i64] {
        match self {
            LinesOf::Sheets(ids) => ids,
            LinesOf::Lines(ids) => ids,
        }
    }
}

/// A line as the Lines worksheet reads it, with its sheet's fields.
#[derive(QueryableByName)]
struct LineRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    order_id: i64,
    #[diesel(sql_type = Integer)]
    seq: i32,
    #[diesel(sql_type = Date)]
    order_date: NaiveDate,
    #[diesel(sql_type = Text)]
    no: String,
    #[diesel(sql_type = Integer)]
    order_type: i32,
    #[diesel(sql_type = Integer)]
    tax_type: i32,
    #[diesel(sql_type = Nullable<BigInt>)]
    customer_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    product_id: Option<i64>,
    #[diesel(sql_type = Text)]
    description: String,
    #[diesel(sql_type = BigInt)]
    quantity: i64,
    #[diesel(sql_type = BigInt)]
    price: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    cost_price: i64,
}

/// The lines of a chunk of `of`'s ids, in the worksheet's order.
fn load_lines(conn: &mut DbConn, ctx: &Ctx<'_>, of: &LinesOf<'_>, chunk: &[i64]) -> AppResult<Vec<LineRow>> {
    let mut q = Sql::new(
        "SELECT l.id AS id, l.order_id AS order_id, l.seq AS seq, o.order_date AS order_date, o.no AS no, o.order_type AS order_type, \
         o.tax_type AS tax_type, ",
    );
    q.push("o.customer_id AS customer_id, l.product_id AS product_id").push(
        ", l.description AS description, l.quantity AS quantity, l.price AS price, l.amount AS amount, l.cost_price AS cost_price \
         FROM orders o JOIN order_lines l ON l.order_id = o.id AND l.org_id = +o.org_id",
    );
    if matches!(of, LinesOf::Sheets(_)) && has_product_filter(ctx.params) {
        q.push(" LEFT JOIN products p ON p.id = l.product_id AND p.org_id = l.org_id");
    }
    q.push(" WHERE l.org_id = ").bind(Bind::BigInt(ctx.org_id));
    let mut rows: Vec<LineRow> = match of {
        LinesOf::Sheets(_) => {
            q.any_of("l.order_id", chunk);
            push_product_filter(&mut q, ctx.params, "l.product_id");
            q.load(conn)?
        }
        LinesOf::Lines(_) => {
            q.any_of("l.id", chunk);
            q.load(conn)?
        }
    };
    let at: HashMap<i64, usize> = chunk.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let place = |id: i64| at.get(&id).copied().unwrap_or(usize::MAX);
    match of {
        LinesOf::Sheets(_) => rows.sort_by_key(|r| (place(r.order_id), r.seq, r.id)),
        LinesOf::Lines(_) => rows.sort_by_key(|r| place(r.id)),
    }
    Ok(rows)
}

/// A line's figures in the report, credit notes negative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct LineFigures {
    qty: i64,
    /// Inc GST when the sheet charges GST.
    amount: i64,
    /// Sales ex GST (the amount less 1/11 when the sheet charges GST) and cost (unit cost
    /// kept at approval × quantity): the margin is measured against the line's sales ex GST.
    cost: CostFigures,
}

impl LineFigures {
    fn new(order_type: i32, tax_type: i32, quantity: i64, amount: i64, unit_cost: i64) -> AppResult<Self> {
        let gst = gst_of_inclusive(Cents(amount), TaxType::from_code(tax_type).unwrap_or_default()).0;
        let sales_ex = amount.checked_sub(gst).ok_or_else(overflow)?;
        Ok(Self {
            qty: signed(order_type, quantity)?,
            amount: signed(order_type, amount)?,
            cost: CostFigures { sales_ex: signed(order_type, sales_ex)?, cost: signed(order_type, times(quantity, unit_cost)?)? },
        })
    }

    fn add(&mut self, other: &LineFigures) -> AppResult<()> {
        add(&mut self.qty, other.qty)?;
        add(&mut self.amount, other.amount)?;
        self.cost.add(&other.cost)
    }
}

fn line_cells(r: LineRow, f: &LineFigures, cost: bool, names: &Names) -> AppResult<Vec<Val>> {
    let (product_code, product_name) = names.product(r.product_id);
    let mut cells = vec![
        Val::Date(Some(r.order_date)),
        Val::Text(r.no),
        Val::Text(type_label(r.order_type).into()),
        Val::Text(names.customer(r.customer_id).0),
        Val::Text(product_code),
        Val::Text(product_name),
        Val::Text(r.description),
        Val::Int(f.qty),
        Val::Cents(r.price),
        Val::Cents(f.amount),
    ];
    if cost {
        cells.extend(f.cost.cells()?);
    }
    Ok(cells)
}

/// The "Lines" worksheet and its total.
fn write_lines(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter, of: &LinesOf<'_>, read: &mut Read, mut work: Work) -> AppResult<()> {
    let cost = ctx.params.include_cost;
    let cols = with_cost(&LINE_COLS, cost);
    let width = cols.len();
    out.begin(Layout { name: "Lines".into(), cols, title: ctx.title(conn, "Lines")? })?;
    let mut total = LineFigures::default();
    let mut rows = Rows::default();
    let Read { asked, names } = read;
    read_ahead(
        conn,
        of.ids(),
        |conn, chunk| {
            let lines = load_lines(conn, ctx, of, chunk)?;
            let new = asked.read(conn, ctx.org_id, lines.iter().filter_map(|r| r.customer_id), lines.iter().filter_map(|r| r.product_id), std::iter::empty())?;
            Ok((lines, new))
        },
        |chunk, (lines, new)| {
            names.extend(new);
            for r in lines {
                let f = LineFigures::new(r.order_type, r.tax_type, r.quantity, r.amount, r.cost_price)?;
                total.add(&f)?;
                rows.push(out, line_cells(r, &f, cost, names)?)?;
            }
            rows.flush(out)?;
            work = work.step(ctx, chunk.len());
            Ok(())
        },
    )?;
    let mut figures = vec![Val::Int(total.qty), Val::Text(String::new()), Val::Cents(total.amount)];
    if cost {
        figures.extend(total.cost.cells()?);
    }
    out.total(total_row(width, 7, figures))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_measures_its_margin_against_its_amount_ex_gst() {
        // 2 × $55.00 inc GST on a GST sheet: $100.00 ex GST, cost 2 × $30.00.
        let f = LineFigures::new(1, 3, 2, 11_000, 3_000).unwrap();
        assert_eq!(f, LineFigures { qty: 2, amount: 11_000, cost: CostFigures { sales_ex: 10_000, cost: 6_000 } });
        assert_eq!(f.cost.cells().unwrap()[2], Val::Basis(Some(4_000)), "40.00 %");
        let untaxed = LineFigures::new(1, 1, 2, 11_000, 3_000).unwrap();
        assert_eq!(untaxed.cost.sales_ex, 11_000, "no GST to take out on a No Tax sheet");
    }

    #[test]
    fn a_credit_note_line_counts_negative_and_totals_net() {
        let credit = LineFigures::new(2, 3, 1, 5_500, 3_000).unwrap();
        assert_eq!(credit, LineFigures { qty: -1, amount: -5_500, cost: CostFigures { sales_ex: -5_000, cost: -3_000 } });
        let mut total = LineFigures::new(1, 3, 2, 11_000, 3_000).unwrap();
        total.add(&credit).unwrap();
        assert_eq!(total, LineFigures { qty: 1, amount: 5_500, cost: CostFigures { sales_ex: 5_000, cost: 3_000 } });
        assert!(LineFigures::new(1, 3, i64::MAX, 0, 2).is_err(), "a cost beyond i64 is an error");
    }

    #[test]
    fn the_total_rows_line_up_with_the_columns() {
        assert_eq!(SHEET_COLS[9].header, "Qty", "the Sheets total skips 8 columns after its label");
        assert_eq!(LINE_COLS[7].header, "Qty", "the Lines total skips 6 columns after its label");
        assert_eq!(LINE_COLS[9].header, "Amount (inc GST)");
    }
}
