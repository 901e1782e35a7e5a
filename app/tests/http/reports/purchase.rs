//! The purchase, transfer and adjustment reports through the API (issue 11): each file read
//! back with calamine, its headers, rows and totals checked against direct queries of the
//! sheets, and its filters seen to narrow the rows.

use std::io::Cursor;

use calamine::{Data, Reader, Xlsx};
use chrono::NaiveDate;
use diesel::prelude::*;
use serde_json::{Value, json};
use db::schema::{order_lines, orders, suppliers, warehouses};

use crate::support::{Session, TestApp};

const COMPANY: i64 = 4;
const PO: i32 = 3;
const BILL: i32 = 4;
const BCN: i32 = 5;
const TRANSFER: i32 = 6;
const ADJUSTMENT: i32 = 7;
/// Approved and Closed: the states reports count.
const COUNTED: [i32; 2] = [2, 4];

/// A year up to today: the demo's sheets are dated around today.
fn year() -> (NaiveDate, NaiveDate) {
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    (today - chrono::Duration::days(364), today)
}

fn range() -> Value {
    let (from, to) = year();
    json!([from.to_string(), to.to_string()])
}

/// One worksheet of a report: its header, its data rows and its totals row.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<Data>>,
    total: Vec<Data>,
}

impl Table {
    fn read(bytes: &[u8], sheet: &str, first_header: &str) -> Table {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an xlsx file");
        let all: Vec<Vec<Data>> = book.worksheet_range(sheet).unwrap_or_else(|e| panic!("worksheet {sheet}: {e}")).rows().map(|r| r.to_vec()).collect();
        let at = all.iter().position(|r| text(&r[0]) == first_header).unwrap_or_else(|| panic!("{sheet}: no header row"));
        assert!(at >= 4, "{sheet}: title lines above the header");
        let header = all[at].iter().map(text).collect();
        let (rows, total) = all[at + 1..].split_at(all.len() - at - 2);
        assert_eq!(text(&total[0][0]), "Total", "{sheet}: a totals row closes the table");
        Table { header, rows: rows.to_vec(), total: total[0].clone() }
    }

    fn col(&self, name: &str) -> usize {
        self.header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {:?}", self.header))
    }

    fn texts(&self, name: &str) -> Vec<String> {
        let c = self.col(name);
        self.rows.iter().map(|r| text(&r[c])).collect()
    }

    /// A money column's cells (or total) in cents; a quantity column as is.
    fn cents(&self, name: &str) -> Vec<i64> {
        let c = self.col(name);
        self.rows.iter().map(|r| cents(&r[c])).collect()
    }

    fn total_cents(&self, name: &str) -> i64 {
        cents(&self.total[self.col(name)])
    }

    /// The column's rows add up to its total.
    fn sums_to_total(&self, name: &str) -> i64 {
        let sum: i64 = self.cents(name).iter().sum();
        assert_eq!(sum, self.total_cents(name), "{name}: the total is the sum of the rows");
        sum
    }
}

fn text(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        other => other.to_string(),
    }
}

/// Money read back in cents (quantities come back as whole numbers × 100 alike, so quantity
/// columns are compared through [`qty`]).
fn cents(d: &Data) -> i64 {
    match d {
        Data::Float(f) => (f * 100.0).round() as i64,
        Data::Int(i) => i * 100,
        Data::Empty => 0,
        other => panic!("not a number: {other:?}"),
    }
}

fn qty(c: i64) -> i64 {
    assert_eq!(c % 100, 0, "a whole quantity");
    c / 100
}

/// Sheets of company 4 counted by the reports, read directly: id, type, supplier, qty, total,
/// GST, warehouse, in-warehouse.
type SheetFacts = (i64, i32, Option<i64>, i64, i64, i64, Option<i64>, Option<i64>);

async fn counted_sheets(app: &TestApp, types: &'static [i32]) -> Vec<SheetFacts> {
    let (from, to) = year();
    app.state
        .db
        .run(move |c| {
            Ok(orders::table
                .filter(orders::org_id.eq(COMPANY))
                .filter(orders::order_type.eq_any(types))
                .filter(orders::status.eq_any(COUNTED))
                .filter(orders::order_date.between(from, to))
                .select((
                    orders::id,
                    orders::order_type,
                    orders::supplier_id,
                    orders::total_qty,
                    orders::total_amount,
                    orders::total_gst,
                    orders::warehouse_id,
                    orders::in_warehouse_id,
                ))
                .load(c)?)
        })
        .await
        .unwrap()
}

/// The lines of some sheets: order id, product id, quantity, in-system and in-warehouse qty.
async fn lines_of(app: &TestApp, ids: Vec<i64>) -> Vec<(i64, Option<i64>, i64, i64, i64)> {
    app.state
        .db
        .run(move |c| {
            Ok(order_lines::table
                .filter(order_lines::order_id.eq_any(ids))
                .select((order_lines::order_id, order_lines::product_id, order_lines::quantity, order_lines::in_system_qty, order_lines::in_warehouse_qty))
                .load(c)?)
        })
        .await
        .unwrap()
}

async fn name_of_supplier(app: &TestApp, id: i64) -> String {
    app.state.db.run(move |c| Ok(suppliers::table.find(id).select(suppliers::name).first(c)?)).await.unwrap()
}

async fn name_of_warehouse(app: &TestApp, id: i64) -> String {
    app.state.db.run(move |c| Ok(warehouses::table.find(id).select(warehouses::name).first(c)?)).await.unwrap()
}

fn sign(t: i32) -> i64 {
    if t == BCN { -1 } else { 1 }
}

/// The product on most of the given lines.
fn commonest_product(lines: &[(i64, Option<i64>, i64, i64, i64)]) -> i64 {
    let mut counts = std::collections::HashMap::new();
    for l in lines {
        *counts.entry(l.1.unwrap()).or_insert(0) += 1;
    }
    counts.into_iter().max_by_key(|(p, n)| (*n, *p)).unwrap().0
}

async fn file(app: &TestApp, s: &Session, body: Value) -> Vec<u8> {
    app.report_file(s, body).await
}

#[tokio::test]
async fn the_bills_detail_lists_bills_less_credit_notes_by_supplier() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(COMPANY).await;
    let bytes = file(&app, &s, json!({"type": "purchaseDetails", "dateRange": range(), "source": "blBcn", "includeCost": "Yes"})).await;
    let sheets = Table::read(&bytes, "Sheets", "Date");
    assert_eq!(
        sheets.header,
        ["Date", "Due Date", "ETA Date", "No.", "Type", "Supplier", "Reference", "Warehouse", "Qty", "Subtotal (ex GST)", "GST", "Total"],
        "no cost columns in a purchase report, whoever asks"
    );
    let facts = counted_sheets(&app, &[BILL, BCN]).await;
    assert!(facts.iter().any(|f| f.1 == BCN), "the demo has bill credit notes in the year");
    assert_eq!(sheets.rows.len(), facts.len(), "one row per approved or closed bill and credit note");
    let total: i64 = facts.iter().map(|f| sign(f.1) * f.4).sum();
    let gst: i64 = facts.iter().map(|f| sign(f.1) * f.5).sum();
    let qty_total: i64 = facts.iter().map(|f| sign(f.1) * f.3).sum();
    assert_eq!(sheets.sums_to_total("Total"), total, "bills minus credit notes");
    assert_eq!(sheets.sums_to_total("GST"), gst);
    assert_eq!(sheets.sums_to_total("Subtotal (ex GST)"), total - gst);
    assert_eq!(qty(sheets.sums_to_total("Qty")), qty_total);
    let types = sheets.texts("Type");
    for (t, amount) in types.iter().zip(sheets.cents("Total")) {
        match t.as_str() {
            "Bill" => assert!(amount >= 0),
            "Bill Credit Note" => assert!(amount <= 0, "a credit note counts negative"),
            other => panic!("type {other}"),
        }
    }
    // Ordered by supplier name: each supplier's sheets together (the order of names is the
    // database's collation, so only the grouping is checked).
    let names = sheets.texts("Supplier");
    let mut seen = std::collections::HashSet::new();
    assert!(names.iter().enumerate().all(|(i, n)| (i > 0 && names[i - 1] == *n) || seen.insert(n.clone())), "one run per supplier: {names:?}");

    let lines = Table::read(&bytes, "Lines", "Date");
    assert_eq!(lines.header, ["Date", "No.", "Type", "Supplier", "Product Code", "Product Name", "Description", "Qty", "Unit Price", "Amount"]);
    let all_lines = lines_of(&app, facts.iter().map(|f| f.0).collect()).await;
    assert_eq!(lines.rows.len(), all_lines.len(), "one row per line");
    assert_eq!(lines.sums_to_total("Amount"), total, "the lines make the sheets' total");
    assert_eq!(qty(lines.sums_to_total("Qty")), qty_total);
}

#[tokio::test]
async fn the_purchase_filters_narrow_the_sheets_and_lines() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").in_org(COMPANY).await;
    let facts = counted_sheets(&app, &[BILL, BCN]).await;

    // One supplier.
    let supplier = facts[0].2.unwrap();
    let name = name_of_supplier(&app, supplier).await;
    let bytes = file(&app, &s, json!({"type": "purchaseDetails", "dateRange": range(), "suppliers": [supplier]})).await;
    let sheets = Table::read(&bytes, "Sheets", "Date");
    let theirs: Vec<_> = facts.iter().filter(|f| f.2 == Some(supplier)).collect();
    assert_eq!(sheets.rows.len(), theirs.len());
    assert!(sheets.rows.len() < facts.len(), "the filter narrows");
    assert!(sheets.texts("Supplier").iter().all(|n| *n == name));
    assert_eq!(sheets.sums_to_total("Total"), theirs.iter().map(|f| sign(f.1) * f.4).sum::<i64>());

    // One product: only sheets with it, their figures its lines'.
    let all_lines = lines_of(&app, facts.iter().map(|f| f.0).collect()).await;
    let product = commonest_product(&all_lines);
    let with_it: std::collections::HashSet<i64> = all_lines.iter().filter(|l| l.1 == Some(product)).map(|l| l.0).collect();
    let body = json!({"type": "purchaseDetails", "dateRange": range(), "products": [product]});
    let bytes = file(&app, &s, body).await;
    let sheets = Table::read(&bytes, "Sheets", "Date");
    let lines = Table::read(&bytes, "Lines", "Date");
    assert_eq!(sheets.rows.len(), with_it.len(), "only sheets with the product");
    assert_eq!(lines.rows.len(), all_lines.iter().filter(|l| l.1 == Some(product)).count(), "only its lines");
    assert_eq!(lines.texts("Product Code").iter().collect::<std::collections::HashSet<_>>().len(), 1);
    assert_eq!(sheets.sums_to_total("Total"), lines.sums_to_total("Amount"), "a sheet's figures are its matching lines'");
    assert_eq!(qty(sheets.sums_to_total("Qty")), qty(lines.sums_to_total("Qty")));

    // The summary with the same filter agrees with the detail (its GST is grouped in SQL).
    let summary = file(&app, &s, json!({"type": "purchaseSummary", "dateRange": range(), "products": [product]})).await;
    let by_supplier = Table::read(&summary, "By Supplier", "Supplier");
    for col in ["Qty", "Subtotal (ex GST)", "GST", "Total"] {
        assert_eq!(by_supplier.sums_to_total(col), sheets.total_cents(col), "{col}");
    }
    assert_eq!(qty(by_supplier.sums_to_total("Sheets")), sheets.rows.len() as i64);
    let by_product = Table::read(&summary, "By Product", "Code");
    assert_eq!(by_product.rows.len(), 1);
    assert_eq!(by_product.sums_to_total("Amount"), lines.total_cents("Amount"));

    // The product's brand and category: its row is among theirs, every row of that brand.
    let (brand, brand_name, tag1) = app
        .state
        .db
        .run(move |c| {
            use db::schema::{brands, products};
            Ok(products::table.inner_join(brands::table).filter(products::id.eq(product)).select((brands::id, brands::name, products::tag1)).first::<(i64, String, String)>(c)?)
        })
        .await
        .unwrap();
    let category = domain::enums::ProductCategory::from_path(&tag1).expect("a demo product has a category").as_i32();
    let body = json!({"type": "purchaseSummary", "dateRange": range(), "brands": [brand], "categories": [category]});
    let summary = file(&app, &s, body).await;
    let by_product = Table::read(&summary, "By Product", "Code");
    let code = lines.texts("Product Code")[0].clone();
    assert!(by_product.texts("Code").contains(&code));
    assert!(by_product.texts("Brand").iter().all(|b| *b == brand_name));
    assert_eq!(Table::read(&summary, "By Supplier", "Supplier").total_cents("Total"), by_product.sums_to_total("Amount"));

    // Bills carry no ETA date: by ETA date nothing is in range, and the sheets still have
    // their title, header and a zero total.
    let bytes = file(&app, &s, json!({"type": "purchaseDetails", "dateRange": range(), "dateType": "deliveryDate"})).await;
    for (sheet, col) in [("Sheets", "Total"), ("Lines", "Amount")] {
        let empty = Table::read(&bytes, sheet, "Date");
        assert!(empty.rows.is_empty());
        assert_eq!(empty.total_cents(col), 0);
    }

    // Purchase orders instead of bills.
    let pos = counted_sheets(&app, &[PO]).await;
    let bytes = file(&app, &s, json!({"type": "purchaseDetails", "dateRange": range(), "source": "po"})).await;
    let sheets = Table::read(&bytes, "Sheets", "Date");
    assert_eq!(sheets.rows.len(), pos.len());
    assert!(sheets.texts("Type").iter().all(|t| t == "Purchase Order"));
    assert_eq!(sheets.sums_to_total("Total"), pos.iter().map(|f| f.4).sum::<i64>());
}

#[tokio::test]
async fn the_purchase_summary_groups_by_supplier_and_by_product() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(COMPANY).await;
    let bytes = file(&app, &s, json!({"type": "purchaseSummary", "dateRange": range(), "includeCost": "Yes"})).await;
    let facts = counted_sheets(&app, &[BILL, BCN]).await;
    let total: i64 = facts.iter().map(|f| sign(f.1) * f.4).sum();
    let gst: i64 = facts.iter().map(|f| sign(f.1) * f.5).sum();

    let by_supplier = Table::read(&bytes, "By Supplier", "Supplier");
    assert_eq!(by_supplier.header, ["Supplier", "Code", "Sheets", "Qty", "Subtotal (ex GST)", "GST", "Total"]);
    let suppliers: std::collections::HashSet<_> = facts.iter().map(|f| f.2).collect();
    assert_eq!(by_supplier.rows.len(), suppliers.len(), "one row per supplier");
    assert_eq!(by_supplier.sums_to_total("Total"), total);
    assert_eq!(by_supplier.sums_to_total("GST"), gst);
    assert_eq!(by_supplier.sums_to_total("Subtotal (ex GST)"), total - gst);
    assert_eq!(qty(by_supplier.sums_to_total("Sheets")), facts.len() as i64);
    let totals = by_supplier.cents("Total");
    assert!(totals.windows(2).all(|w| w[0] >= w[1]), "largest total first");

    let by_product = Table::read(&bytes, "By Product", "Code");
    assert_eq!(by_product.header, ["Code", "Name", "Brand", "Qty", "Amount", "Average Unit Price"]);
    let lines = lines_of(&app, facts.iter().map(|f| f.0).collect()).await;
    let products: std::collections::HashSet<_> = lines.iter().map(|l| l.1).collect();
    assert_eq!(by_product.rows.len(), products.len(), "one row per product");
    assert_eq!(by_product.sums_to_total("Amount"), total, "the products make the suppliers' total");
    let amounts = by_product.cents("Amount");
    assert!(amounts.windows(2).all(|w| w[0] >= w[1]), "largest amount first");
    let (q, a, avg) = (by_product.col("Qty"), by_product.col("Amount"), by_product.col("Average Unit Price"));
    for r in &by_product.rows {
        let (q, a) = (qty(cents(&r[q])), cents(&r[a]));
        if q != 0 {
            assert!((cents(&r[avg]) * q - a).abs() <= q.abs(), "the average is the amount over the qty, to the cent");
        }
    }
}

#[tokio::test]
async fn the_transfers_detail_lists_each_line_with_both_warehouses() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(COMPANY).await;
    let bytes = file(&app, &s, json!({"type": "transferDetails", "dateRange": range(), "includeCost": "Yes"})).await;
    let t = Table::read(&bytes, "Transfers", "Date");
    assert_eq!(t.header, ["Date", "No.", "Out Warehouse", "In Warehouse", "Product Code", "Product Name", "Qty", "Reference", "Comments"]);
    let facts = counted_sheets(&app, &[TRANSFER]).await;
    let lines = lines_of(&app, facts.iter().map(|f| f.0).collect()).await;
    assert!(!lines.is_empty(), "the demo has transfers in the year");
    assert_eq!(t.rows.len(), lines.len(), "one row per line");
    assert_eq!(qty(t.sums_to_total("Qty")), lines.iter().map(|l| l.2).sum::<i64>());
    assert!(t.texts("Out Warehouse").iter().zip(t.texts("In Warehouse")).all(|(o, i)| !o.is_empty() && !i.is_empty() && *o != i));

    // Out of one warehouse only.
    let out = facts[0].6.unwrap();
    let out_name = name_of_warehouse(&app, out).await;
    let bytes = file(&app, &s, json!({"type": "transferDetails", "dateRange": range(), "outWarehouse": [out]})).await;
    let narrowed = Table::read(&bytes, "Transfers", "Date");
    let ids: Vec<i64> = facts.iter().filter(|f| f.6 == Some(out)).map(|f| f.0).collect();
    assert_eq!(narrowed.rows.len(), lines.iter().filter(|l| ids.contains(&l.0)).count());
    assert!(narrowed.texts("Out Warehouse").iter().all(|n| *n == out_name));

    // Into that warehouse: the other transfers.
    let bytes = file(&app, &s, json!({"type": "transferDetails", "dateRange": range(), "inWarehouse": out})).await;
    let into = Table::read(&bytes, "Transfers", "Date");
    let ids: Vec<i64> = facts.iter().filter(|f| f.7 == Some(out)).map(|f| f.0).collect();
    assert_eq!(into.rows.len(), lines.iter().filter(|l| ids.contains(&l.0)).count());
    assert!(into.texts("In Warehouse").iter().all(|n| *n == out_name));
}

#[tokio::test]
async fn the_adjustments_detail_shows_the_change_applied_to_stock() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").in_org(COMPANY).await;
    let bytes = file(&app, &s, json!({"type": "adjustmentDetails", "dateRange": range()})).await;
    let t = Table::read(&bytes, "Adjustments", "Date");
    assert_eq!(
        t.header,
        ["Date", "No.", "Warehouse", "Product Code", "Product Name", "In System Qty", "In Warehouse Qty", "Adjustment", "Reference", "Comments"]
    );
    let facts = counted_sheets(&app, &[ADJUSTMENT]).await;
    let lines = lines_of(&app, facts.iter().map(|f| f.0).collect()).await;
    assert!(!lines.is_empty(), "the demo has adjustments in the year");
    assert_eq!(t.rows.len(), lines.len(), "one row per line");
    let change: i64 = lines.iter().map(|l| l.4 - l.3).sum();
    assert_eq!(qty(t.sums_to_total("Adjustment")), change, "counted minus in system");
    assert_eq!(qty(t.sums_to_total("In Warehouse Qty")) - qty(t.sums_to_total("In System Qty")), change);
    let (sys, wh, adj) = (t.cents("In System Qty"), t.cents("In Warehouse Qty"), t.cents("Adjustment"));
    assert!((0..t.rows.len()).all(|i| wh[i] - sys[i] == adj[i]));

    // One warehouse, and one product.
    let w = facts[0].6.unwrap();
    let w_name = name_of_warehouse(&app, w).await;
    let bytes = file(&app, &s, json!({"type": "adjustmentDetails", "dateRange": range(), "warehouses": [w]})).await;
    let narrowed = Table::read(&bytes, "Adjustments", "Date");
    let ids: Vec<i64> = facts.iter().filter(|f| f.6 == Some(w)).map(|f| f.0).collect();
    assert_eq!(narrowed.rows.len(), lines.iter().filter(|l| ids.contains(&l.0)).count());
    assert!(narrowed.texts("Warehouse").iter().all(|n| *n == w_name));
    let product = commonest_product(&lines);
    let bytes = file(&app, &s, json!({"type": "adjustmentDetails", "dateRange": range(), "products": [product]})).await;
    let one = Table::read(&bytes, "Adjustments", "Date");
    assert_eq!(one.rows.len(), lines.iter().filter(|l| l.1 == Some(product)).count());
    assert!(one.rows.len() < t.rows.len(), "the filter narrows");
}
