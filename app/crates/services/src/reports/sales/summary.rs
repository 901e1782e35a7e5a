//! Customers Sales Summary: one worksheet, a row per customer (`asCustomers`) or per product
//! (`asProducts`), net of credit notes, largest sales inc GST first. Grouped in SQL, so the
//! worker holds one row per customer or product, never the sheets.

use diesel::sql_types::{BigInt, Integer, Nullable, Text};

use super::{
    CostFigures, Dates, LINES_JOIN, Rows, SHEETS_FROM, Sql, add, gst_sql, has_product_filter, overflow, push_product_filter,
    push_sheet_filter, signed_sql, with_cost,
};
use db::DbConn;
use domain::enums::{AreaType, CodeEnum, PaymentType, TaxType};
use domain::money::{Cents, gst_of_inclusive};
use domain::reports::Group;
use db::error::AppResult;
use crate::reports::Ctx;
use crate::reports::rows::total_row;
use xlsx::export::{Col, Kind as Cell, Layout, SheetWriter, Val};

const CUSTOMER_COLS: [Col; 9] = [
    Col::new("Customer", 32.0, Cell::Text),
    Col::new("Code", 16.0, Cell::Text),
    Col::new("Area Type", 14.0, Cell::Text),
    Col::new("Payment Type", 16.0, Cell::Text),
    Col::new("Sheets", 8.0, Cell::Int),
    Col::new("Qty", 8.0, Cell::Int),
    Col::new("Sales ex GST", 16.0, Cell::Aud),
    Col::new("GST", 14.0, Cell::Aud),
    Col::new("Sales inc GST", 16.0, Cell::Aud),
];

const PRODUCT_COLS: [Col; 7] = [
    Col::new("Code", 18.0, Cell::Text),
    Col::new("Name", 36.0, Cell::Text),
    Col::new("Brand", 18.0, Cell::Text),
    Col::new("Qty", 8.0, Cell::Int),
    Col::new("Sales ex GST", 16.0, Cell::Aud),
    Col::new("GST", 14.0, Cell::Aud),
    Col::new("Sales inc GST", 16.0, Cell::Aud),
];

/// Writes the summary worksheet of the report's grouping.
pub fn sale_summary(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    ctx.progress.set(0, 2);
    match ctx.params.group {
        Group::Customers => by_customer(conn, ctx, out),
        Group::Products => by_product(conn, ctx, out),
    }
}

/// Net sales of one row: qty, sales inc GST, GST, and cost (0 when cost is not shown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Sales {
    sheets: i64,
    qty: i64,
    inc: i64,
    gst: i64,
    cost: i64,
}

impl Sales {
    fn ex(&self) -> AppResult<i64> {
        self.inc.checked_sub(self.gst).ok_or_else(overflow)
    }

    fn add(&mut self, other: &Sales) -> AppResult<()> {
        add(&mut self.sheets, other.sheets)?;
        add(&mut self.qty, other.qty)?;
        add(&mut self.inc, other.inc)?;
        add(&mut self.gst, other.gst)?;
        add(&mut self.cost, other.cost)
    }

    /// Qty, Sales ex GST, GST, Sales inc GST [, Cost, Margin, Margin %].
    fn cells(&self, cost: bool) -> AppResult<Vec<Val>> {
        let ex = self.ex()?;
        let mut cells = vec![Val::Int(self.qty), Val::Cents(ex), Val::Cents(self.gst), Val::Cents(self.inc)];
        if cost {
            cells.extend(CostFigures { sales_ex: ex, cost: self.cost }.cells()?);
        }
        Ok(cells)
    }
}

#[derive(diesel::QueryableByName)]
struct CustomerRow {
    #[diesel(sql_type = Text)]
    customer_name: String,
    #[diesel(sql_type = Text)]
    customer_code: String,
    #[diesel(sql_type = Integer)]
    area_type: i32,
    #[diesel(sql_type = Integer)]
    payment_type: i32,
    #[diesel(sql_type = BigInt)]
    sheets: i64,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    sales_inc: i64,
    #[diesel(sql_type = BigInt)]
    gst: i64,
    #[diesel(sql_type = BigInt)]
    cost: i64,
}

/// Per sheet, credit notes negative: its stored totals, or under a product filter the sums
/// of its matching lines with GST 1/11 of their sum (rounded per sheet, as the detail's
/// Sheets worksheet shows it). Cost is read from the lines only when shown.
fn push_per_sheet(q: &mut Sql, ctx: &Ctx<'_>) -> AppResult<()> {
    let p = ctx.params;
    let dates = Dates::of_range(p)?;
    if has_product_filter(p) {
        let amount = "CAST(SUM(l.amount) AS BIGINT)";
        q.push(&format!(
            "SELECT o.customer_id AS customer_id, {} AS qty, {} AS amount, {} AS gst, {} AS cost",
            signed_sql("CAST(SUM(l.quantity) AS BIGINT)"),
            signed_sql(amount),
            signed_sql(&gst_sql(amount)),
            signed_sql("CAST(SUM(l.cost_price * l.quantity) AS BIGINT)"),
        ));
        q.push(SHEETS_FROM).push(LINES_JOIN);
        push_sheet_filter(q, ctx, dates, true);
        push_product_filter(q, p, "l.product_id");
        q.push(" GROUP BY o.id, o.customer_id, o.order_type, o.tax_type");
    } else {
        let cost = if p.include_cost {
            "(SELECT COALESCE(CAST(SUM(x.cost_price * x.quantity) AS BIGINT), 0) FROM order_lines x WHERE x.order_id = o.id AND x.org_id = o.org_id)"
        } else {
            "0"
        };
        q.push(&format!(
            "SELECT o.customer_id AS customer_id, {} AS qty, {} AS amount, {} AS gst, {} AS cost",
            signed_sql("o.total_qty"),
            signed_sql("o.total_amount"),
            signed_sql("o.total_gst"),
            signed_sql(cost),
        ));
        q.push(SHEETS_FROM);
        push_sheet_filter(q, ctx, dates, true);
    }
    Ok(())
}

fn by_customer(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let cost = ctx.params.include_cost;
    let mut q = Sql::new(
        "SELECT COALESCE(c.name, '') AS customer_name, COALESCE(c.code, '') AS customer_code, COALESCE(c.area_type, 0) AS area_type, \
         COALESCE(c.payment_type, 0) AS payment_type, COUNT(*) AS sheets, CAST(SUM(s.qty) AS BIGINT) AS qty, \
         CAST(SUM(s.amount) AS BIGINT) AS sales_inc, CAST(SUM(s.gst) AS BIGINT) AS gst, CAST(SUM(s.cost) AS BIGINT) AS cost FROM (",
    );
    push_per_sheet(&mut q, ctx)?;
    q.push(
        ") s LEFT JOIN customers c ON c.id = s.customer_id GROUP BY s.customer_id, c.name, c.code, c.area_type, c.payment_type \
         ORDER BY sales_inc DESC, customer_name, s.customer_id",
    );
    let found: Vec<CustomerRow> = q.load(conn)?;
    ctx.progress.set(1, 2);
    let cols = with_cost(&CUSTOMER_COLS, cost);
    let width = cols.len();
    out.begin(Layout { name: "Summary".into(), cols, title: ctx.title(conn, "By Customer")? })?;
    let mut total = Sales::default();
    let mut rows = Rows::default();
    for r in found {
        let sales = Sales { sheets: r.sheets, qty: r.qty, inc: r.sales_inc, gst: r.gst, cost: r.cost };
        total.add(&sales)?;
        let mut cells = vec![
            Val::Text(r.customer_name),
            Val::Text(r.customer_code),
            Val::Text(AreaType::from_code(r.area_type).map_or("", AreaType::text).into()),
            Val::Text(PaymentType::from_code(r.payment_type).map_or("", PaymentType::text).into()),
            Val::Int(r.sheets),
        ];
        cells.extend(sales.cells(cost)?);
        rows.push(out, cells)?;
    }
    rows.flush(out)?;
    out.total(total_row(width, 4, std::iter::once(Val::Int(total.sheets)).chain(total.cells(cost)?)))
}

#[derive(diesel::QueryableByName)]
struct ProductRow {
    #[diesel(sql_type = Nullable<BigInt>)]
    product_id: Option<i64>,
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    brand: String,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    sales_inc: i64,
    /// The part of `sales_inc` from sheets that charge GST.
    #[diesel(sql_type = BigInt)]
    taxed: i64,
    #[diesel(sql_type = BigInt)]
    cost: i64,
}

/// A product's GST: 1/11 of its sales inc GST on sheets that charge GST, rounded once for
/// the product (its lines belong to many sheets, so a sheet's rounding has no share of them).
fn product_gst(taxed: i64) -> i64 {
    gst_of_inclusive(Cents(taxed), TaxType::GstOnIncome).0
}

fn by_product(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let p = ctx.params;
    let cost = p.include_cost;
    let taxed: Vec<String> = TaxType::ALL.iter().filter(|t| t.charges_gst()).map(|t| t.code().to_string()).collect();
    let mut q = Sql::new(&format!(
        "SELECT l.product_id AS product_id, COALESCE(p.code, '') AS code, COALESCE(p.name, '') AS name, COALESCE(b.name, '') AS brand, \
         CAST(SUM({qty}) AS BIGINT) AS qty, CAST(SUM({amount}) AS BIGINT) AS sales_inc, \
         CAST(SUM(CASE WHEN o.tax_type IN ({taxed}) THEN {amount} ELSE 0 END) AS BIGINT) AS taxed, CAST(SUM({cost}) AS BIGINT) AS cost",
        qty = signed_sql("l.quantity"),
        amount = signed_sql("l.amount"),
        taxed = taxed.join(", "),
        cost = if cost { signed_sql("l.cost_price * l.quantity") } else { "0".into() },
    ));
    q.push(SHEETS_FROM).push(LINES_JOIN).push(" LEFT JOIN brands b ON b.id = p.brand_id AND b.org_id = p.org_id");
    push_sheet_filter(&mut q, ctx, Dates::of_range(p)?, true);
    push_product_filter(&mut q, p, "l.product_id");
    q.push(" GROUP BY l.product_id, p.code, p.name, b.name ORDER BY sales_inc DESC, code, l.product_id");
    let found: Vec<ProductRow> = q.load(conn)?;
    ctx.progress.set(1, 2);
    let cols = with_cost(&PRODUCT_COLS, cost);
    let width = cols.len();
    out.begin(Layout { name: "Summary".into(), cols, title: ctx.title(conn, "By Product")? })?;
    let mut total = Sales::default();
    let mut rows = Rows::default();
    for r in found {
        let sales = Sales { sheets: 0, qty: r.qty, inc: r.sales_inc, gst: product_gst(r.taxed), cost: r.cost };
        total.add(&sales)?;
        let name = if r.product_id.is_none() { "(lines without a product)".to_string() } else { r.name };
        let mut cells = vec![Val::Text(r.code), Val::Text(name), Val::Text(r.brand)];
        cells.extend(sales.cells(cost)?);
        rows.push(out, cells)?;
    }
    rows.flush(out)?;
    out.total(total_row(width, 3, total.cells(cost)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_products_gst_is_one_eleventh_of_its_taxed_sales_rounded_once() {
        assert_eq!(product_gst(11_000), 1_000);
        assert_eq!(product_gst(1_000), 91, "90.9 rounds up");
        assert_eq!(product_gst(-1_000), -91, "net of credit notes, a negative figure rounds alike");
        assert_eq!(product_gst(0), 0, "sales on No Tax sheets only carry no GST");
    }

    #[test]
    fn a_rows_cells_are_ex_gst_gst_inc_gst_then_cost() {
        let s = Sales { sheets: 2, qty: 3, inc: 11_000, gst: 1_000, cost: 7_500 };
        assert_eq!(s.cells(false).unwrap(), vec![Val::Int(3), Val::Cents(10_000), Val::Cents(1_000), Val::Cents(11_000)]);
        let with_cost = s.cells(true).unwrap();
        assert_eq!(with_cost[4..], [Val::Cents(7_500), Val::Cents(2_500), Val::Basis(Some(2_500))], "margin against sales ex GST");
        let mut total = Sales::default();
        total.add(&s).unwrap();
        total.add(&Sales { sheets: 1, qty: -1, inc: -5_500, gst: -500, cost: -2_500 }).unwrap();
        assert_eq!(total, Sales { sheets: 3, qty: 2, inc: 5_500, gst: 500, cost: 5_000 }, "net of a credit note");
        assert!(total.add(&Sales { inc: i64::MAX, ..Sales::default() }).is_err());
    }

    #[test]
    fn the_total_rows_line_up_with_the_columns() {
        assert_eq!(CUSTOMER_COLS[4].header, "Sheets");
        assert_eq!(CUSTOMER_COLS[5].header, "Qty");
        assert_eq!(PRODUCT_COLS[3].header, "Qty");
    }
}
