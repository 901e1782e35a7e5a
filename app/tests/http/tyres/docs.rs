//! Tyres by DOT date on paper and in the report queue (issue 36): the printed tax invoice,
//! delivery docket and a draft credit note name each tyre line's DOT codes when the company
//! prints them (and not otherwise); the picking list names the codes to pick; the tyre age
//! report's totals reconcile with stock on hand, with cost only when shown.

use std::io::Cursor;

use axum::http::StatusCode;
use calamine::{Data, Reader, Xlsx};
use db::schema::{organisations, products, stock_lots, stocks, suppliers, warehouses};
use diesel::prelude::*;
use serde_json::json;

use super::{ORG, approved, draft, empty_tyre};
use crate::support::{Session, TestApp, pdf_text};

/// A tracked tyre of company 4 with no stock anywhere (its lots and stock cleared), a product
/// that is not tracked, the main warehouse, a customer and a supplier.
struct Fixture {
    tyre: (i64, i64),
    plain: (i64, i64),
    warehouse: i64,
    customer: i64,
    supplier: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    let f = app
        .state
        .db
        .run(|c| {
            let pick = |c: &mut db::DbConn, tracked: bool| -> Result<(i64, i64), db::error::AppError> {
                Ok(products::table
                    .filter(products::org_id.eq(ORG))
                    .filter(products::category.eq(1))
                    .filter(products::dot_tracked.eq(tracked))
                    .filter(products::class_a_price.gt(5_000))
                    .order(products::id.asc())
                    .select((products::id, products::class_a_price))
                    .first(c)?)
            };
            let tyre = pick(c, true)?;
            let plain = pick(c, false)?;
            let warehouse = warehouses::table
                .filter(warehouses::org_id.eq(ORG))
                .filter(warehouses::is_third_party.eq(false))
                .filter(warehouses::is_branch.eq(false))
                .select(warehouses::id)
                .order(warehouses::id.asc())
                .first(c)?;
            let customer = db::schema::customers::table
                .filter(db::schema::customers::org_id.eq(ORG))
                .filter(db::schema::customers::payment_type.ne(10))
                .filter(db::schema::customers::credit_limit.eq(0))
                .select(db::schema::customers::id)
                .order(db::schema::customers::id.asc())
                .first(c)?;
            let supplier = suppliers::table.filter(suppliers::org_id.eq(ORG)).select(suppliers::id).order(suppliers::id.asc()).first(c)?;
            Ok(Fixture { tyre, plain, warehouse, customer, supplier })
        })
        .await
        .unwrap();
    empty_tyre(app, f.tyre.0).await;
    f
}

async fn set_dot_on_documents(app: &TestApp, on: bool) {
    app.state.db.write(move |c| Ok(diesel::update(organisations::table.find(ORG)).set(organisations::dot_on_documents.eq(on)).execute(c)?)).await.unwrap();
}

/// A bill of the tyre in two codes: 2 of week 23 of 2023, 1 of week 25 of 2025.
async fn bill_in_two_codes(app: &TestApp, s: &Session, f: &Fixture) {
    let lines = json!([
        {"seq": 1, "productId": f.tyre.0, "quantity": 2, "price": 9_000, "dot": "2323"},
        {"seq": 2, "productId": f.tyre.0, "quantity": 1, "price": 9_000, "dot": "2525"},
    ]);
    approved(app, s, json!({"type": 4, "supplierId": f.supplier, "warehouseId": f.warehouse, "taxType": 1, "lines": lines})).await;
}

/// An approved invoice of the tyre (`qty`) and of the untracked product (1).
async fn sale(app: &TestApp, s: &Session, f: &Fixture, qty: i64) -> i64 {
    let lines = json!([
        {"seq": 1, "productId": f.tyre.0, "quantity": qty, "price": f.tyre.1},
        {"seq": 2, "productId": f.plain.0, "quantity": 1, "price": f.plain.1},
    ]);
    approved(app, s, json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "date": "2026-11-20", "dueDate": "2026-11-30", "lines": lines})).await
}

async fn pdf(app: &TestApp, s: &Session, id: i64, variant: &str) -> String {
    let res = app.get(&format!("/order_print/{id}?variant={variant}&format=pdf"), Some(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    pdf_text(&res.bytes)
}

#[tokio::test]
async fn the_printed_invoice_and_docket_name_the_codes_sold_only_when_the_company_prints_them() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    bill_in_two_codes(&app, &s, &f).await;
    let invoice = sale(&app, &s, &f, 3).await;
    // Stock is gone: one more comes from the lot of unknown code (below zero).
    let beyond = sale(&app, &s, &f, 1).await;

    // Off (the default): the documents are as before.
    for variant in ["standard", "noprice"] {
        let text = pdf(&app, &s, invoice, variant).await;
        assert!(!text.contains("DOT"), "{variant}: no DOT codes unless the company prints them\n{text}");
    }
    let page = app.get(&format!("/order_print/{invoice}?variant=standard"), Some(&s)).await;
    assert!(!page.body.contains("DOT 2323"));

    set_dot_on_documents(&app, true).await;
    for (variant, title) in [("standard", "TAX INVOICE"), ("noprice", "Delivery Doc")] {
        let text = pdf(&app, &s, invoice, variant).await;
        assert!(text.contains(title), "{text}");
        // Oldest first: both of 2323, then the one of 2525; the untracked product names none.
        assert!(text.contains("DOT 2323 ×2, 2525 ×1"), "{variant}: the codes sold under the tyre's line\n{text}");
        assert_eq!(text.matches("DOT").count(), 1, "{variant}: only the tyre's line\n{text}");
    }
    let page = app.get(&format!("/order_print/{invoice}?variant=standard"), Some(&s)).await;
    assert!(page.body.contains("<span class=\"dots\">DOT 2323 ×2, 2525 ×1</span>"), "the print page says it too");
    assert!(pdf(&app, &s, beyond, "standard").await.contains("DOT unknown ×1"), "stock of unknown code says so");

    // A draft credit note names the code its line gives.
    let lines = json!([{"seq": 1, "productId": f.tyre.0, "quantity": 1, "price": f.tyre.1, "dot": "2525"}]);
    let credit = draft(&app, &s, json!({"type": 2, "customerId": f.customer, "warehouseId": f.warehouse, "date": "2026-11-21", "lines": lines})).await;
    let text = pdf(&app, &s, credit, "standard").await;
    assert!(text.contains("CREDIT NOTE") && text.contains("DOT 2525 ×1"), "{text}");
}

#[tokio::test]
async fn the_picking_list_names_the_codes_to_pick() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    bill_in_two_codes(&app, &s, &f).await;
    let invoice = sale(&app, &s, &f, 3).await;
    let res = app.get(&format!("/dispatch/picking?warehouse_id={}&order_id={invoice}", f.warehouse), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let text = pdf_text(&res.bytes);
    assert!(text.contains("PICKING LIST"), "{text}");
    assert!(text.contains("DOT 2323 ×2, 2525 ×1"), "the codes the approval took\n{text}");
    assert_eq!(text.matches("DOT").count(), 1, "the untracked product names none\n{text}");
}

/// The report's one worksheet: its header, rows and total row.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<Data>>,
    total: Vec<Data>,
}

impl Table {
    fn read(bytes: &[u8]) -> Self {
        Self::sheet(bytes, "Tyre age", "Brand")
    }

    fn sheet(bytes: &[u8], name: &str, first_header: &str) -> Self {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an xlsx file");
        let all: Vec<Vec<Data>> = book.worksheet_range(name).expect("the sheet").rows().map(|r| r.to_vec()).collect();
        let at = all.iter().position(|r| r.first().map(|d| d.to_string()).as_deref() == Some(first_header)).expect("the header row");
        let header = all[at].iter().map(|d| d.to_string()).take_while(|h| !h.is_empty()).collect();
        let mut rows = all[at + 1..].to_vec();
        let total = rows.pop().expect("a totals row");
        assert_eq!(total[0].to_string(), "Total");
        Self { header, rows, total }
    }

    fn col(&self, name: &str) -> usize {
        self.header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {:?}", self.header))
    }
}

fn int(d: &Data) -> i64 {
    match d {
        Data::Float(f) => *f as i64,
        Data::Int(i) => *i,
        Data::Empty => 0,
        other => panic!("not a number: {other:?}"),
    }
}

fn cents(d: &Data) -> i64 {
    match d {
        Data::Float(f) => (f * 100.0).round() as i64,
        Data::Int(i) => i * 100,
        other => panic!("not money: {other:?}"),
    }
}

#[tokio::test]
async fn the_tyre_age_reports_totals_reconcile_with_stock_on_hand() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    bill_in_two_codes(&app, &s, &f).await;
    sale(&app, &s, &f, 1).await;

    let (on_hand, value, unknown): (i64, i64, i64) = app
        .state
        .db
        .run(|c| {
            let rows: Vec<(i64, i64)> = stocks::table
                .inner_join(products::table)
                .filter(stocks::org_id.eq(ORG))
                .filter(products::dot_tracked.eq(true))
                .select((stocks::on_hand, products::cost_price))
                .load(c)?;
            let lots: Vec<(i32, i64, i64)> = stock_lots::table
                .inner_join(products::table.on(products::id.eq(stock_lots::product_id)))
                .filter(stock_lots::org_id.eq(ORG))
                .select((stock_lots::dot, stock_lots::on_hand, products::cost_price))
                .load(c)?;
            let value = lots.iter().map(|l| l.1 * l.2).sum();
            let unknown = lots.iter().filter(|l| l.0 == 0).map(|l| l.1).sum();
            Ok((rows.iter().map(|r| r.0).sum(), value, unknown))
        })
        .await
        .unwrap();

    let t = Table::read(&app.report_file(&s, json!({"type": "tyreAge", "includeCost": "Yes"})).await);
    assert_eq!(&t.header[..3], ["Brand", "Size", "Warehouse"]);
    let qty_at = t.col("Total Qty");
    assert_eq!(int(&t.total[qty_at]), on_hand, "the total quantity is the tracked tyres' stock on hand");
    assert_eq!(t.rows.iter().map(|r| int(&r[qty_at])).sum::<i64>(), on_hand, "and the rows add up to it");
    let bands: i64 = ["0–1 years", "1–2 years", "2–3 years", "3–5 years", "5+ years", "Unknown"].iter().map(|b| int(&t.total[t.col(b)])).sum();
    assert_eq!(bands, on_hand, "every unit is in one band");
    assert_eq!(int(&t.total[t.col("Unknown")]), unknown);
    assert_eq!(cents(&t.total[t.col("Total Cost")]), value, "cost at the moving-average cost price");

    // The tyre alone: 2323 was sold first, so one of 2323 and one of 2525 are left, each in
    // its band on the company's today.
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    let mine = Table::read(&app.report_file(&s, json!({"type": "tyreAge", "products": [f.tyre.0]})).await);
    assert_eq!(mine.rows.len(), 1, "one brand, size and warehouse");
    assert_eq!(int(&mine.rows[0][mine.col("Total Qty")]), 2);
    for band in domain::dot::AgeBand::ALL {
        let expected = [202323, 202525].iter().filter(|d| domain::dot::AgeBand::of(**d, today) == band).count() as i64;
        assert_eq!(int(&mine.rows[0][mine.col(band.label())]), expected, "{}", band.label());
    }

    // Without cost asked for (or for those who may not see it): no cost columns.
    let plain = Table::read(&app.report_file(&s, json!({"type": "tyreAge"})).await);
    assert!(!plain.header.iter().any(|h| h.contains("Cost")), "{:?}", plain.header);
    let sales = app.session("sales@demo.test").await;
    let theirs = Table::read(&app.report_file(&sales, json!({"type": "tyreAge", "includeCost": "Yes"})).await);
    assert!(!theirs.header.iter().any(|h| h.contains("Cost")), "{:?}", theirs.header);
    assert_eq!(int(&theirs.total[theirs.col("Total Qty")]), on_hand);

    // Filtered to the tyre's warehouse: only its rows.
    let warehouse: String = app.state.db.run(move |c| Ok(warehouses::table.find(f.warehouse).select(warehouses::name).first(c)?)).await.unwrap();
    let one = Table::read(&app.report_file(&s, json!({"type": "tyreAge", "warehouses": [f.warehouse]})).await);
    assert!(one.rows.iter().all(|r| r[2].to_string() == warehouse));
}

#[tokio::test]
async fn slow_moving_by_age_splits_a_tyres_stock_by_dot_age_band() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    bill_in_two_codes(&app, &s, &f).await;
    let (tyre, plain) = (f.tyre.0, f.plain.0);
    let codes: Vec<(i64, String)> = app.state.db.run(move |c| Ok(products::table.filter(products::id.eq_any([tyre, plain])).select((products::id, products::code)).load(c)?)).await.unwrap();
    let code = |id: i64| codes.iter().find(|c| c.0 == id).unwrap().1.clone();
    // The untracked product holds some stock in the warehouse, so it is listed too.
    app.state.db.write(move |c| Ok(diesel::update(stocks::table.filter(stocks::product_id.eq(plain))).set(stocks::on_hand.eq(4)).execute(c)?)).await.unwrap();

    let body = json!({"type": "slowMoving", "lessThan": 1_000_000, "byAge": "Yes", "products": [tyre, plain], "warehouses": [f.warehouse]});
    let t = Table::sheet(&app.report_file(&s, body).await, "Slow-moving", "Code");
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    let row = |id: i64| t.rows.iter().find(|r| r[0].to_string() == code(id)).unwrap_or_else(|| panic!("{} listed", code(id)));
    for band in domain::dot::AgeBand::ALL {
        let expected: i64 = [(202323, 2), (202525, 1)].iter().filter(|(d, _)| domain::dot::AgeBand::of(*d, today) == band).map(|(_, q)| q).sum();
        assert_eq!(int(&row(tyre)[t.col(band.label())]), expected, "{}", band.label());
        assert_eq!(row(plain)[t.col(band.label())], Data::Empty, "an untracked product has no age");
    }
    assert_eq!(int(&row(tyre)[t.col("On Hand")]), 3);
    let banded: i64 = domain::dot::AgeBand::ALL.iter().map(|b| int(&t.total[t.col(b.label())])).sum();
    assert_eq!(banded, 3, "the total's bands add the tyres' stock");

    // Without it, the report is as it was.
    let plain_report = Table::sheet(&app.report_file(&s, json!({"type": "slowMoving", "lessThan": 1_000_000, "products": [tyre]})).await, "Slow-moving", "Code");
    assert!(!plain_report.header.iter().any(|h| h == "Unknown"), "{:?}", plain_report.header);
}
