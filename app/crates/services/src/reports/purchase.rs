//! Purchase and warehouse-sheet reports: Purchase Orders or Bills Detail, Purchase Summary,
//! Transfers Detail, Adjustments Detail (spec §2.9).
//!
//! Every figure comes from the sheets' lines, so a product filter narrows a sheet to its
//! matching lines (and leaves out sheets without one); without a filter the figures equal the
//! sheet totals the lists show. Bill credit notes count negative, so totals are bills minus
//! credit notes. Details walk the matching sheet ids in report order, [`CHUNK`] sheets at a
//! time; summaries group in SQL. None of these kinds shows cost.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text};

use super::Ctx;
use super::rows::{SHEET_HEAD, SheetHead, total_row, type_label};
use super::sql::{Bind, Id, Sql, date_column, has_product_filter, overflow};
use db::schema::warehouses;
use db::{CHUNK, DbConn};
use domain::enums::{OrderStatus, OrderType, TaxType};
use domain::money::{Cents, div_round_half_away, gst_of_inclusive};
use domain::reports::Source;
use db::error::AppResult;
use xlsx::export::{Col, Kind, Layout, SheetWriter, Val};

/// Rows handed to the writer at once: its unit of constant memory.
const ROWS_PER_APPEND: usize = 2_000;

/// Purchase Orders or Bills Detail: worksheet "Sheets" (one row per sheet) and "Lines".
pub fn purchase_details(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let reads = Reads::Purchase(ctx.params.source);
    let ids = sheet_ids(conn, ctx, reads)?;
    let chunks = ids.chunks(CHUNK).count() as u64;
    let warehouses = warehouse_names(conn, ctx.org_id)?;

    out.begin(Layout { name: "Sheets".into(), cols: SHEET_COLS.to_vec(), title: ctx.title(conn, &reads.part("Sheets"))? })?;
    let mut sums = Sums::<4>::default();
    for (i, chunk) in ids.chunks(CHUNK).enumerate() {
        let heads = heads_of(conn, ctx.org_id, chunk)?;
        let figures = figures_of(conn, ctx, chunk)?;
        let mut rows = Vec::with_capacity(chunk.len());
        for id in chunk {
            let (Some(head), Some(&(qty, amount))) = (heads.get(id), figures.get(id)) else { continue };
            let f = sheet_figures(head.sheet.order_type, head.sheet.tax_type, qty, amount)?;
            sums.add(f)?;
            rows.push(sheet_row(head, &warehouses, f));
        }
        append(out, rows)?;
        ctx.progress.set(i as u64 + 1, 2 * chunks);
    }
    let [qty, subtotal, gst, total] = sums.0;
    out.total(total_row(SHEET_COLS.len(), 8, [Val::Int(qty), Val::Cents(subtotal), Val::Cents(gst), Val::Cents(total)]))?;

    out.begin(Layout { name: "Lines".into(), cols: PURCHASE_LINE_COLS.to_vec(), title: ctx.title(conn, &reads.part("Lines"))? })?;
    let mut sums = Sums::<2>::default();
    for (i, chunk) in ids.chunks(CHUNK).enumerate() {
        let rows = lines_in_order(conn, ctx, chunk, |head, line| {
            let f = [signed(head.sheet.order_type, line.quantity)?, signed(head.sheet.order_type, line.amount)?];
            sums.add(f)?;
            Ok(purchase_line_row(head, line, f))
        })?;
        append(out, rows)?;
        ctx.progress.set(chunks + i as u64 + 1, 2 * chunks);
    }
    let [qty, amount] = sums.0;
    out.total(total_row(PURCHASE_LINE_COLS.len(), 7, [Val::Int(qty), Val::Text(String::new()), Val::Cents(amount)]))
}

/// Purchase Summary: worksheets "By Supplier" and "By Product", net of credit notes, largest
/// first.
pub fn purchase_summary(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let reads = Reads::Purchase(ctx.params.source);
    out.begin(Layout { name: "By Supplier".into(), cols: SUPPLIER_COLS.to_vec(), title: ctx.title(conn, &reads.part("By Supplier"))? })?;
    let mut sums = Sums::<5>::default();
    let mut rows = Vec::new();
    for s in by_supplier(conn, ctx)? {
        let subtotal = s.amount.checked_sub(s.gst).ok_or_else(overflow)?;
        let f = [s.sheets, s.qty, subtotal, s.gst, s.amount];
        sums.add(f)?;
        rows.push(vec![Val::Text(s.name), Val::Text(s.code), Val::Int(f[0]), Val::Int(f[1]), Val::Cents(f[2]), Val::Cents(f[3]), Val::Cents(f[4])]);
    }
    append(out, rows)?;
    let [sheets, qty, subtotal, gst, total] = sums.0;
    out.total(total_row(SUPPLIER_COLS.len(), 2, [Val::Int(sheets), Val::Int(qty), Val::Cents(subtotal), Val::Cents(gst), Val::Cents(total)]))?;
    ctx.progress.set(1, 2);

    out.begin(Layout { name: "By Product".into(), cols: PRODUCT_COLS.to_vec(), title: ctx.title(conn, &reads.part("By Product"))? })?;
    let mut sums = Sums::<2>::default();
    let mut rows = Vec::new();
    for p in by_product(conn, ctx)? {
        sums.add([p.qty, p.amount])?;
        rows.push(vec![Val::Text(p.code), Val::Text(p.name), Val::Text(p.brand), Val::Int(p.qty), Val::Cents(p.amount), average_cell(p.amount, p.qty)]);
    }
    append(out, rows)?;
    let [qty, amount] = sums.0;
    out.total(total_row(PRODUCT_COLS.len(), 3, [Val::Int(qty), Val::Cents(amount), average_cell(amount, qty)]))?;
    ctx.progress.set(2, 2);
    Ok(())
}

/// Transfers Detail: one row per line, by date and number.
pub fn transfer_details(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let ids = sheet_ids(conn, ctx, Reads::Transfers)?;
    let chunks = ids.chunks(CHUNK).count() as u64;
    let warehouses = warehouse_names(conn, ctx.org_id)?;
    out.begin(Layout { name: "Transfers".into(), cols: TRANSFER_COLS.to_vec(), title: ctx.title(conn, "")? })?;
    let mut sums = Sums::<1>::default();
    for (i, chunk) in ids.chunks(CHUNK).enumerate() {
        let rows = lines_in_order(conn, ctx, chunk, |head, line| {
            sums.add([line.quantity])?;
            Ok(vec![
                Val::Date(Some(head.sheet.order_date)),
                Val::Text(head.sheet.no.clone()),
                Val::Text(name_of(&warehouses, head.warehouse_id)),
                Val::Text(name_of(&warehouses, head.in_warehouse_id)),
                Val::Text(line.code.clone()),
                Val::Text(line.name.clone()),
                Val::Int(line.quantity),
                Val::Text(head.reference.clone()),
                Val::Text(head.comments.clone()),
            ])
        })?;
        append(out, rows)?;
        ctx.progress.set(i as u64 + 1, chunks);
    }
    out.total(total_row(TRANSFER_COLS.len(), 6, [Val::Int(sums.0[0])]))
}

/// Adjustments Detail: one row per line with the counted and the system quantity and the
/// change the adjustment applied to stock.
pub fn adjustment_details(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let ids = sheet_ids(conn, ctx, Reads::Adjustments)?;
    let chunks = ids.chunks(CHUNK).count() as u64;
    let warehouses = warehouse_names(conn, ctx.org_id)?;
    out.begin(Layout { name: "Adjustments".into(), cols: ADJUSTMENT_COLS.to_vec(), title: ctx.title(conn, "")? })?;
    let mut sums = Sums::<3>::default();
    for (i, chunk) in ids.chunks(CHUNK).enumerate() {
        let rows = lines_in_order(conn, ctx, chunk, |head, line| {
            let f = [line.in_system_qty, line.in_warehouse_qty, stock_change(line.in_warehouse_qty, line.in_system_qty)?];
            sums.add(f)?;
            Ok(vec![
                Val::Date(Some(head.sheet.order_date)),
                Val::Text(head.sheet.no.clone()),
                Val::Text(name_of(&warehouses, head.warehouse_id)),
                Val::Text(line.code.clone()),
                Val::Text(line.name.clone()),
                Val::Int(f[0]),
                Val::Int(f[1]),
                Val::Int(f[2]),
                Val::Text(head.reference.clone()),
                Val::Text(head.comments.clone()),
            ])
        })?;
        append(out, rows)?;
        ctx.progress.set(i as u64 + 1, chunks);
    }
    let [system, counted, change] = sums.0;
    out.total(total_row(ADJUSTMENT_COLS.len(), 5, [Val::Int(system), Val::Int(counted), Val::Int(change)]))
}

const SHEET_COLS: &[Col] = &[
    Col::new("Date", 12.0, Kind::Date),
    Col::new("Due Date", 12.0, Kind::Date),
    Col::new("ETA Date", 12.0, Kind::Date),
    Col::new("No.", 14.0, Kind::Text),
    Col::new("Type", 16.0, Kind::Text),
    Col::new("Supplier", 30.0, Kind::Text),
    Col::new("Reference", 16.0, Kind::Text),
    Col::new("Warehouse", 18.0, Kind::Text),
    Col::new("Qty", 8.0, Kind::Int),
    Col::new("Subtotal (ex GST)", 16.0, Kind::Aud),
    Col::new("GST", 14.0, Kind::Aud),
    Col::new("Total", 16.0, Kind::Aud),
];

const PURCHASE_LINE_COLS: &[Col] = &[
    Col::new("Date", 12.0, Kind::Date),
    Col::new("No.", 14.0, Kind::Text),
    Col::new("Type", 16.0, Kind::Text),
    Col::new("Supplier", 30.0, Kind::Text),
    Col::new("Product Code", 18.0, Kind::Text),
    Col::new("Product Name", 34.0, Kind::Text),
    Col::new("Description", 34.0, Kind::Text),
    Col::new("Qty", 8.0, Kind::Int),
    Col::new("Unit Price", 14.0, Kind::Aud),
    Col::new("Amount", 16.0, Kind::Aud),
];

const SUPPLIER_COLS: &[Col] = &[
    Col::new("Supplier", 30.0, Kind::Text),
    Col::new("Code", 14.0, Kind::Text),
    Col::new("Sheets", 8.0, Kind::Int),
    Col::new("Qty", 10.0, Kind::Int),
    Col::new("Subtotal (ex GST)", 16.0, Kind::Aud),
    Col::new("GST", 14.0, Kind::Aud),
    Col::new("Total", 16.0, Kind::Aud),
];

const PRODUCT_COLS: &[Col] = &[
    Col::new("Code", 18.0, Kind::Text),
    Col::new("Name", 34.0, Kind::Text),
    Col::new("Brand", 18.0, Kind::Text),
    Col::new("Qty", 10.0, Kind::Int),
    Col::new("Amount", 16.0, Kind::Aud),
    Col::new("Average Unit Price", 16.0, Kind::Aud),
];

const TRANSFER_COLS: &[Col] = &[
    Col::new("Date", 12.0, Kind::Date),
    Col::new("No.", 14.0, Kind::Text),
    Col::new("Out Warehouse", 18.0, Kind::Text),
    Col::new("In Warehouse", 18.0, Kind::Text),
    Col::new("Product Code", 18.0, Kind::Text),
    Col::new("Product Name", 34.0, Kind::Text),
    Col::new("Qty", 8.0, Kind::Int),
    Col::new("Reference", 16.0, Kind::Text),
    Col::new("Comments", 30.0, Kind::Text),
];

const ADJUSTMENT_COLS: &[Col] = &[
    Col::new("Date", 12.0, Kind::Date),
    Col::new("No.", 14.0, Kind::Text),
    Col::new("Warehouse", 18.0, Kind::Text),
    Col::new("Product Code", 18.0, Kind::Text),
    Col::new("Product Name", 34.0, Kind::Text),
    Col::new("In System Qty", 14.0, Kind::Int),
    Col::new("In Warehouse Qty", 16.0, Kind::Int),
    Col::new("Adjustment", 12.0, Kind::Int),
    Col::new("Reference", 16.0, Kind::Text),
    Col::new("Comments", 30.0, Kind::Text),
];

// ---- The rules: signs, GST, averages, totals ----

/// A figure of a sheet as the report counts it: a bill credit note takes goods and money
/// back, so it counts negative and totals are bills minus credit notes.
fn signed(order_type: i32, value: i64) -> AppResult<i64> {
    if order_type == OrderType::BillCreditNote.as_i32() { value.checked_neg().ok_or_else(overflow) } else { Ok(value) }
}

/// Qty, subtotal (ex GST), GST and total of a sheet whose lines add up to `qty` and `amount`:
/// amounts hold GST when the sheet's tax type charges it, and the GST is 1/11 of the total,
/// rounded once, as the sheet stores it. Signed by [`signed`].
fn sheet_figures(order_type: i32, tax_type: i32, qty: i64, amount: i64) -> AppResult<[i64; 4]> {
    let gst = gst_of_inclusive(Cents(amount), TaxType::from_i32(tax_type).unwrap_or_default()).0;
    let subtotal = amount.checked_sub(gst).ok_or_else(overflow)?;
    Ok([signed(order_type, qty)?, signed(order_type, subtotal)?, signed(order_type, gst)?, signed(order_type, amount)?])
}

/// The change an adjustment line applied to stock: counted minus what the system held (as
/// `domain::stock::stock_effects` moves it).
fn stock_change(in_warehouse_qty: i64, in_system_qty: i64) -> AppResult<i64> {
    in_warehouse_qty.checked_sub(in_system_qty).ok_or_else(overflow)
}

/// The average unit price of `amount` over `qty`, to the cent; none without a quantity.
fn average_price(amount: i64, qty: i64) -> Option<i64> {
    (qty != 0).then(|| i64::try_from(div_round_half_away(i128::from(amount), i128::from(qty))).ok()).flatten()
}

fn average_cell(amount: i64, qty: i64) -> Val {
    average_price(amount, qty).map_or_else(|| Val::Text(String::new()), Val::Cents)
}

/// Sums of a worksheet's figure columns, checked: an overflow is an error, never a wrong total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sums<const N: usize>([i64; N]);

impl<const N: usize> Default for Sums<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

impl<const N: usize> Sums<N> {
    fn add(&mut self, row: [i64; N]) -> AppResult<()> {
        let mut next = self.0;
        for (sum, v) in next.iter_mut().zip(row) {
            *sum = sum.checked_add(v).ok_or_else(overflow)?;
        }
        self.0 = next;
        Ok(())
    }
}

fn name_of(names: &HashMap<i64, String>, id: Option<i64>) -> String {
    id.and_then(|id| names.get(&id).cloned()).unwrap_or_default()
}

fn sheet_row(head: &Head, warehouses: &HashMap<i64, String>, [qty, subtotal, gst, total]: [i64; 4]) -> Vec<Val> {
    let mut row = head.sheet.cells().to_vec();
    row.extend([
        Val::Text(head.supplier.clone()),
        Val::Text(head.reference.clone()),
        Val::Text(name_of(warehouses, head.warehouse_id)),
        Val::Int(qty),
        Val::Cents(subtotal),
        Val::Cents(gst),
        Val::Cents(total),
    ]);
    row
}

fn purchase_line_row(head: &Head, line: &LineRow, [qty, amount]: [i64; 2]) -> Vec<Val> {
    vec![
        Val::Date(Some(head.sheet.order_date)),
        Val::Text(head.sheet.no.clone()),
        Val::Text(type_label(head.sheet.order_type).into()),
        Val::Text(head.supplier.clone()),
        Val::Text(line.code.clone()),
        Val::Text(line.name.clone()),
        Val::Text(line.description.clone()),
        Val::Int(qty),
        Val::Cents(line.price),
        Val::Cents(amount),
    ]
}

fn append(out: &mut SheetWriter, rows: Vec<Vec<Val>>) -> AppResult<()> {
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        out.append(rows.by_ref().take(ROWS_PER_APPEND))?;
    }
    Ok(())
}

// ---- Which sheets and lines a report reads ----

/// The sheets a report reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    Purchase(Source),
    Transfers,
    Adjustments,
}

impl Reads {
    fn types(self) -> &'static [OrderType] {
        match self {
            Reads::Purchase(Source::Bills) => &[OrderType::Bill, OrderType::BillCreditNote],
            Reads::Purchase(Source::PurchaseOrders) => &[OrderType::PurchaseOrder],
            Reads::Transfers => &[OrderType::Transfer],
            Reads::Adjustments => &[OrderType::Adjustment],
        }
    }

    /// A worksheet's part of the title, naming the source of a purchase report.
    fn part(self, part: &str) -> String {
        match self {
            Reads::Purchase(Source::Bills) => format!("{part} (Bills and Bill Credit Notes)"),
            Reads::Purchase(Source::PurchaseOrders) => format!("{part} (Purchase Orders)"),
            Reads::Transfers | Reads::Adjustments => part.to_string(),
        }
    }
}

/// The conditions on sheet `o`: the company, the types read, the counted states (Approved and
/// Closed), the date range on the chosen date, and the sheet-level filters.
fn sheet_conditions(sql: &mut Sql, ctx: &Ctx<'_>, reads: Reads) {
    let p = ctx.params;
    sql.push(" o.org_id = ").bind(Bind::BigInt(ctx.org_id));
    sql.push(" AND o.order_type IN ").values(reads.types().iter().map(|t| Bind::Int(t.as_i32())));
    sql.push(" AND o.status IN ").values([Bind::Int(OrderStatus::Approved.as_i32()), Bind::Int(OrderStatus::Closed.as_i32())]);
    if let (Some(from), Some(to)) = (p.from, p.to) {
        let column = date_column(p.date_type);
        sql.push(&format!(" AND {column} >= ")).bind(Bind::Date(from));
        sql.push(&format!(" AND {column} <= ")).bind(Bind::Date(to));
    }
    if !p.tags.is_empty() {
        sql.push(" AND o.tag_id IN ").values(p.tags.iter().map(|t| Bind::Int(*t)));
    }
    match reads {
        Reads::Purchase(_) => {
            sql.any_of("o.warehouse_id", &p.warehouses).any_of("o.supplier_id", &p.suppliers);
        }
        Reads::Adjustments => {
            sql.any_of("o.warehouse_id", &p.warehouses);
        }
        Reads::Transfers => {
            sql.any_of("o.warehouse_id", &p.out_warehouses).any_of("o.in_warehouse_id", &p.in_warehouses);
            // A plain warehouse filter on a transfer: either end is in it.
            if !p.warehouses.is_empty() {
                sql.push(" AND (o.warehouse_id IN ").values(p.warehouses.iter().map(|w| Bind::BigInt(*w)));
                sql.push(" OR o.in_warehouse_id IN ").values(p.warehouses.iter().map(|w| Bind::BigInt(*w))).push(")");
            }
        }
    }
}

/// The conditions on line `l` of the product filters: designated products, and products of
/// the brands and categories chosen.
fn line_conditions(sql: &mut Sql, ctx: &Ctx<'_>) {
    let p = ctx.params;
    sql.any_of("l.product_id", &p.products);
    if p.brands.is_empty() && p.categories.is_empty() {
        return;
    }
    sql.push(" AND l.product_id IN (SELECT p.id FROM products p WHERE p.org_id = ").bind(Bind::BigInt(ctx.org_id));
    sql.brands_and_categories(p).push(")");
}

/// The ids of the sheets the report lists, in its order: purchases by supplier name, date
/// and number; transfers and adjustments by date and number. With a product filter, only
/// sheets with a matching line.
fn sheet_ids(conn: &mut DbConn, ctx: &Ctx<'_>, reads: Reads) -> AppResult<Vec<i64>> {
    let mut sql = Sql::new("SELECT o.id AS id FROM orders o LEFT JOIN suppliers s ON s.id = o.supplier_id AND s.org_id = o.org_id WHERE");
    sheet_conditions(&mut sql, ctx, reads);
    if has_product_filter(ctx.params) {
        sql.push(" AND o.id IN (SELECT l.order_id FROM order_lines l WHERE l.org_id = ").bind(Bind::BigInt(ctx.org_id));
        line_conditions(&mut sql, ctx);
        sql.push(")");
    }
    sql.push(match reads {
        Reads::Purchase(_) => " ORDER BY COALESCE(s.name, ''), o.order_date, o.no, o.id",
        Reads::Transfers | Reads::Adjustments => " ORDER BY o.order_date, o.no, o.id",
    });
    Ok(sql.query(conn).load::<Id>(conn)?.into_iter().map(|r| r.id).collect())
}

/// What a row needs of its sheet.
#[derive(QueryableByName)]
struct Head {
    #[diesel(embed)]
    sheet: SheetHead,
    #[diesel(sql_type = Text)]
    supplier: String,
    #[diesel(sql_type = Text)]
    reference: String,
    #[diesel(sql_type = Text)]
    comments: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    warehouse_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    in_warehouse_id: Option<i64>,
}

fn heads_of(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<HashMap<i64, Head>> {
    let mut sql = Sql::new(&format!(
        "SELECT {SHEET_HEAD}, COALESCE(s.name, '') AS supplier, o.reference AS reference, o.comments AS comments, \
         o.warehouse_id AS warehouse_id, o.in_warehouse_id AS in_warehouse_id \
         FROM orders o LEFT JOIN suppliers s ON s.id = o.supplier_id AND s.org_id = o.org_id WHERE o.org_id = "
    ));
    sql.bind(Bind::BigInt(org)).any_of("o.id", ids);
    Ok(sql.query(conn).load::<Head>(conn)?.into_iter().map(|h| (h.sheet.id, h)).collect())
}

#[derive(QueryableByName)]
struct Figures {
    #[diesel(sql_type = BigInt)]
    order_id: i64,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

/// Qty and amount of each sheet's lines (its matching lines under a product filter).
fn figures_of(conn: &mut DbConn, ctx: &Ctx<'_>, ids: &[i64]) -> AppResult<HashMap<i64, (i64, i64)>> {
    let mut sql = Sql::new(
        "SELECT l.order_id AS order_id, CAST(SUM(l.quantity) AS BIGINT) AS qty, CAST(SUM(l.amount) AS BIGINT) AS amount \
         FROM order_lines l WHERE l.org_id = ",
    );
    sql.bind(Bind::BigInt(ctx.org_id)).any_of("l.order_id", ids);
    line_conditions(&mut sql, ctx);
    sql.push(" GROUP BY l.order_id");
    Ok(sql.query(conn).load::<Figures>(conn)?.into_iter().map(|f| (f.order_id, (f.qty, f.amount))).collect())
}

/// A line as the detail reports show it.
#[derive(QueryableByName)]
struct LineRow {
    #[diesel(sql_type = BigInt)]
    order_id: i64,
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    description: String,
    #[diesel(sql_type = BigInt)]
    quantity: i64,
    #[diesel(sql_type = BigInt)]
    in_system_qty: i64,
    #[diesel(sql_type = BigInt)]
    in_warehouse_qty: i64,
    #[diesel(sql_type = BigInt)]
    price: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

/// The rows of the lines of sheets `ids` (matching the product filters), in the order of
/// `ids` and then of each sheet's lines; `row` makes a line's row.
fn lines_in_order(
    conn: &mut DbConn,
    ctx: &Ctx<'_>,
    ids: &[i64],
    mut row: impl FnMut(&Head, &LineRow) -> AppResult<Vec<Val>>,
) -> AppResult<Vec<Vec<Val>>> {
    let heads = heads_of(conn, ctx.org_id, ids)?;
    let mut sql = Sql::new(
        "SELECT l.order_id AS order_id, COALESCE(p.code, '') AS code, COALESCE(p.name, '') AS name, l.description AS description, \
         l.quantity AS quantity, l.in_system_qty AS in_system_qty, l.in_warehouse_qty AS in_warehouse_qty, l.price AS price, l.amount AS amount \
         FROM order_lines l LEFT JOIN products p ON p.id = l.product_id AND p.org_id = l.org_id WHERE l.org_id = ",
    );
    sql.bind(Bind::BigInt(ctx.org_id)).any_of("l.order_id", ids);
    line_conditions(&mut sql, ctx);
    sql.push(" ORDER BY l.order_id, l.seq, l.id");
    let mut by_sheet: HashMap<i64, Vec<LineRow>> = HashMap::new();
    for line in sql.query(conn).load::<LineRow>(conn)? {
        by_sheet.entry(line.order_id).or_default().push(line);
    }
    let mut rows = Vec::new();
    for id in ids {
        let (Some(head), Some(lines)) = (heads.get(id), by_sheet.get(id)) else { continue };
        for line in lines {
            rows.push(row(head, line)?);
        }
    }
    Ok(rows)
}

fn warehouse_names(conn: &mut DbConn, org: i64) -> AppResult<HashMap<i64, String>> {
    let rows: Vec<(i64, String)> = warehouses::table.filter(warehouses::org_id.eq(org)).select((warehouses::id, warehouses::name)).load(conn)?;
    Ok(rows.into_iter().collect())
}

/// `money::gst_of_inclusive` of a sheet's `t.amount` in SQL: 1/11 rounded half away from
/// zero (integer division truncates toward zero on both backends) when `t.tax_type`
/// charges GST.
fn gst_sql() -> String {
    let taxed: Vec<String> = TaxType::ALL.iter().filter(|t| t.charges_gst()).map(|t| t.as_i32().to_string()).collect();
    format!(
        "CASE WHEN t.tax_type IN ({}) THEN (CASE WHEN t.amount >= 0 THEN (t.amount + 5) / 11 ELSE (t.amount - 5) / 11 END) ELSE 0 END",
        taxed.join(", ")
    )
}

/// `expr` negated on a bill credit note of the row with type column `column`.
fn signed_sql(column: &str, expr: &str) -> String {
    format!("CASE WHEN {column} = {} THEN -({expr}) ELSE {expr} END", OrderType::BillCreditNote.as_i32())
}

#[derive(QueryableByName)]
struct SupplierSum {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = BigInt)]
    sheets: i64,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
    #[diesel(sql_type = BigInt)]
    gst: i64,
}

/// Per supplier: sheets, and qty, total and GST net of credit notes, largest total first.
/// Each sheet's GST is taken from its own (matching) lines' total first, as the sheet holds it.
fn by_supplier(conn: &mut DbConn, ctx: &Ctx<'_>) -> AppResult<Vec<SupplierSum>> {
    let reads = Reads::Purchase(ctx.params.source);
    let mut sql = Sql::new(&format!(
        "SELECT COALESCE(s.name, '') AS name, COALESCE(s.code, '') AS code, COUNT(*) AS sheets, \
         CAST(SUM({qty}) AS BIGINT) AS qty, CAST(SUM({amount}) AS BIGINT) AS amount, CAST(SUM({gst}) AS BIGINT) AS gst \
         FROM (SELECT o.supplier_id AS supplier_id, o.order_type AS order_type, o.tax_type AS tax_type, \
               CAST(SUM(l.quantity) AS BIGINT) AS qty, CAST(SUM(l.amount) AS BIGINT) AS amount \
               FROM orders o JOIN order_lines l ON l.order_id = o.id AND l.org_id = o.org_id WHERE",
        qty = signed_sql("t.order_type", "t.qty"),
        amount = signed_sql("t.order_type", "t.amount"),
        gst = signed_sql("t.order_type", &gst_sql()),
    ));
    sheet_conditions(&mut sql, ctx, reads);
    line_conditions(&mut sql, ctx);
    sql.push(
        " GROUP BY o.id, o.supplier_id, o.order_type, o.tax_type) t \
         LEFT JOIN suppliers s ON s.id = t.supplier_id \
         GROUP BY t.supplier_id, s.name, s.code \
         ORDER BY CAST(SUM(",
    );
    sql.push(&signed_sql("t.order_type", "t.amount")).push(") AS BIGINT) DESC, COALESCE(s.name, ''), t.supplier_id");
    Ok(sql.query(conn).load(conn)?)
}

#[derive(QueryableByName)]
struct ProductSum {
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    brand: String,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

/// Per product: qty and amount net of credit notes, largest amount first.
fn by_product(conn: &mut DbConn, ctx: &Ctx<'_>) -> AppResult<Vec<ProductSum>> {
    let reads = Reads::Purchase(ctx.params.source);
    let (qty, amount) = (signed_sql("o.order_type", "l.quantity"), signed_sql("o.order_type", "l.amount"));
    let mut sql = Sql::new(&format!(
        "SELECT COALESCE(p.code, '') AS code, COALESCE(p.name, '') AS name, COALESCE(b.name, '') AS brand, \
         CAST(SUM({qty}) AS BIGINT) AS qty, CAST(SUM({amount}) AS BIGINT) AS amount \
         FROM orders o JOIN order_lines l ON l.order_id = o.id AND l.org_id = o.org_id \
         LEFT JOIN products p ON p.id = l.product_id AND p.org_id = l.org_id \
         LEFT JOIN brands b ON b.id = p.brand_id AND b.org_id = p.org_id WHERE"
    ));
    sheet_conditions(&mut sql, ctx, reads);
    line_conditions(&mut sql, ctx);
    sql.push(&format!(" GROUP BY p.id, p.code, p.name, b.name ORDER BY CAST(SUM({amount}) AS BIGINT) DESC, COALESCE(p.code, ''), p.id"));
    Ok(sql.query(conn).load(conn)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::stock::{StockLine, StockSheet, StockTransition, stock_effects};

    const BILL: i32 = 4;
    const BCN: i32 = 5;

    #[test]
    fn a_bill_credit_note_counts_negative() {
        assert_eq!(signed(BILL, 1_100).unwrap(), 1_100);
        assert_eq!(signed(BCN, 1_100).unwrap(), -1_100);
        assert_eq!(signed(OrderType::PurchaseOrder.as_i32(), 7).unwrap(), 7);
        assert!(signed(BCN, i64::MIN).is_err(), "an overflow is an error, not a wrong figure");
    }

    #[test]
    fn a_sheets_gst_is_a_eleventh_of_its_total_rounded_once() {
        // GST on Income (3): $110.00 holds $10.00 GST.
        assert_eq!(sheet_figures(BILL, 3, 4, 11_000).unwrap(), [4, 10_000, 1_000, 11_000]);
        // Tax Inclusive (2) alike; 1/11 of 10.05 is 0.9136… → 0.91.
        assert_eq!(sheet_figures(BILL, 2, 1, 1_005).unwrap(), [1, 914, 91, 1_005]);
        // No Tax (1): no GST.
        assert_eq!(sheet_figures(BILL, 1, 2, 5_000).unwrap(), [2, 5_000, 0, 5_000]);
        // A credit note: every figure negative, so it takes away what a bill adds.
        assert_eq!(sheet_figures(BCN, 3, 4, 11_000).unwrap(), [-4, -10_000, -1_000, -11_000]);
        let [_, sub, gst, total] = sheet_figures(BILL, 3, 1, 1_005).unwrap();
        assert_eq!(sub + gst, total, "subtotal and GST make the total");
    }

    #[test]
    fn the_sql_gst_rounds_as_the_domain_does() {
        // The SQL of `gst_sql` in Rust, compared over both signs and every remainder.
        fn like_sql(a: i64) -> i64 {
            if a >= 0 { (a + 5) / 11 } else { (a - 5) / 11 }
        }
        for a in -50..=50 {
            assert_eq!(like_sql(a), gst_of_inclusive(Cents(a), TaxType::GstOnIncome).0, "{a}");
        }
        assert!(gst_sql().contains("IN (2, 3)"), "{}", gst_sql());
    }

    #[test]
    fn an_adjustment_is_the_change_approving_it_applied_to_stock() {
        let line = StockLine { product_id: 1, qty: 0, in_warehouse_qty: 7, in_system_qty: 10 };
        let sheet = StockSheet { order_type: OrderType::Adjustment, warehouse_id: 1, in_warehouse_id: None, related_po_warehouse_id: None, lines: &[line] };
        let moved = stock_effects(&sheet, StockTransition::Approve).unwrap()[0].on_hand_delta;
        assert_eq!(stock_change(7, 10).unwrap(), moved);
        assert_eq!(stock_change(12, 4).unwrap(), 8);
        assert!(stock_change(i64::MIN, 1).is_err());
    }

    #[test]
    fn the_average_unit_price_is_rounded_to_the_cent_and_absent_without_qty() {
        assert_eq!(average_price(1_000, 3), Some(333));
        assert_eq!(average_price(2_000, 3), Some(667));
        assert_eq!(average_price(-2_000, -3), Some(667), "a net return keeps a positive price");
        assert_eq!(average_price(500, 0), None);
        assert_eq!(average_cell(500, 0), Val::Text(String::new()));
    }

    #[test]
    fn totals_are_checked_sums() {
        let mut s = Sums::<2>::default();
        s.add([1, 100]).unwrap();
        s.add([-3, 50]).unwrap();
        assert_eq!(s.0, [-2, 150]);
        assert!(s.add([1, i64::MAX]).is_err(), "an overflow is an error, not a wrapped total");
        assert_eq!(s.0, [-2, 150], "and adds nothing");
    }

    #[test]
    fn each_report_reads_its_sheet_types() {
        assert_eq!(Reads::Purchase(Source::Bills).types(), &[OrderType::Bill, OrderType::BillCreditNote]);
        assert_eq!(Reads::Purchase(Source::PurchaseOrders).types(), &[OrderType::PurchaseOrder]);
        assert_eq!(Reads::Transfers.types(), &[OrderType::Transfer]);
        assert_eq!(Reads::Adjustments.types(), &[OrderType::Adjustment]);
        assert_eq!(Reads::Purchase(Source::PurchaseOrders).part("Lines"), "Lines (Purchase Orders)");
    }
}
