//! The inventory reports through the API (issue 11): Inventory Classification Summary and
//! Inventory Items Trace Detail, read back with calamine and checked against the ledger and
//! the stock table read directly.

use std::collections::{BTreeMap, HashMap};
use std::io::Cursor;

use axum::http::StatusCode;
use calamine::{Data, DataType, Reader, Xlsx};
use chrono::{Duration, NaiveDate, NaiveDateTime, TimeZone};
use diesel::prelude::*;
use serde_json::{Value, json};
use db::schema::{brands, customers, orders, products, stock_moves, stocks, warehouses};
use domain::dates::{DEFAULT_ZONE, today};

use crate::support::{Session, TestApp};

const ORG: i64 = 4;

fn day(offset: i64) -> NaiveDate {
    today(DEFAULT_ZONE) + Duration::days(offset)
}

fn range(from: i64, to: i64) -> Value {
    json!([day(from).to_string(), day(to).to_string()])
}

/// A worksheet of the file: the header, the rows below it and the totals row.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<Data>>,
    total: Vec<Data>,
}

impl Table {
    fn read(bytes: &[u8], sheet: &str, first_header: &str) -> Self {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an xlsx file");
        let all: Vec<Vec<Data>> = book.worksheet_range(sheet).expect("the sheet").rows().map(|r| r.to_vec()).collect();
        let at = all.iter().position(|r| r.first().map(text).as_deref() == Some(first_header)).expect("the header row");
        assert!(at >= 4, "title lines above the header");
        let header = all[at].iter().map(text).take_while(|h| !h.is_empty()).collect();
        let mut rows = all[at + 1..].to_vec();
        let total = rows.pop().expect("a totals row");
        assert_eq!(text(&total[0]), "Total");
        Self { header, rows, total }
    }

    fn col(&self, name: &str) -> usize {
        self.header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {:?}", self.header))
    }

    fn num(&self, row: &[Data], name: &str) -> i64 {
        num(&row[self.col(name)])
    }

    fn str(&self, row: &[Data], name: &str) -> String {
        text(&row[self.col(name)])
    }

    /// The sum of a quantity column over the rows, as a spreadsheet adds it (empty cells
    /// are nothing).
    fn sum(&self, name: &str) -> i64 {
        self.rows.iter().filter(|r| r[self.col(name)] != Data::Empty).map(|r| self.num(r, name)).sum()
    }
}

fn text(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        other => other.to_string(),
    }
}

/// An integer cell (quantities); money cells are read as cents by [`cents`].
fn num(d: &Data) -> i64 {
    match d {
        Data::Float(f) => {
            assert_eq!(f.fract(), 0.0, "a whole number: {f}");
            *f as i64
        }
        Data::Int(i) => *i,
        other => panic!("not a number: {other:?}"),
    }
}

fn cents(d: &Data) -> i64 {
    match d {
        Data::Float(f) => (f * 100.0).round() as i64,
        other => panic!("not money: {other:?}"),
    }
}

/// Every move of stock on hand of the company, read directly: warehouse, product, quantity
/// and the day it counts on (its sheet's date, or the Sydney day it was written).
async fn ledger(app: &TestApp) -> Vec<(i64, i64, i64, NaiveDate)> {
    let rows: Vec<(i64, i64, i64, Option<NaiveDate>, NaiveDateTime)> = app
        .state
        .db
        .run(|c| {
            Ok(stock_moves::table
                .left_join(orders::table)
                .filter(stock_moves::org_id.eq(ORG))
                .filter(stock_moves::qty_delta.ne(0))
                .select((stock_moves::warehouse_id, stock_moves::product_id, stock_moves::qty_delta, orders::order_date.nullable(), stock_moves::created_at))
                .load(c)?)
        })
        .await
        .unwrap();
    rows.into_iter().map(|(w, p, q, d, at)| (w, p, q, d.unwrap_or_else(|| DEFAULT_ZONE.from_utc_datetime(&at).date_naive()))).collect()
}

/// On hand per (warehouse, product) of the company.
async fn on_hand(app: &TestApp) -> HashMap<(i64, i64), i64> {
    let rows: Vec<(i64, i64, i64)> =
        app.state.db.run(|c| Ok(stocks::table.filter(stocks::org_id.eq(ORG)).select((stocks::warehouse_id, stocks::product_id, stocks::on_hand)).load(c)?)).await.unwrap();
    rows.into_iter().map(|(w, p, n)| ((w, p), n)).collect()
}

/// Ids of the company's products by code and warehouses by name, and each product's brand
/// name, category path and cost.
struct Names {
    product: HashMap<String, i64>,
    warehouse: HashMap<String, i64>,
    detail: HashMap<i64, (String, String, i64)>,
}

async fn names(app: &TestApp) -> Names {
    app.state
        .db
        .run(|c| {
            let ps: Vec<(i64, String, Option<String>, String, i64)> = products::table
                .left_join(brands::table)
                .filter(products::org_id.eq(ORG))
                .select((products::id, products::code, brands::name.nullable(), products::tag1, products::cost_price))
                .load(c)?;
            let ws: Vec<(i64, String)> = warehouses::table.filter(warehouses::org_id.eq(ORG)).select((warehouses::id, warehouses::name)).load(c)?;
            Ok(Names {
                product: ps.iter().map(|p| (p.1.clone(), p.0)).collect(),
                warehouse: ws.into_iter().map(|(id, n)| (n, id)).collect(),
                detail: ps.into_iter().map(|(id, _, b, t, cost)| (id, (b.unwrap_or_default(), t, cost))).collect(),
            })
        })
        .await
        .unwrap()
}

/// The ledger's sum per (warehouse, product) is the stock on hand, for every pair.
async fn assert_ledger_is_the_stock(app: &TestApp) {
    let mut sums: HashMap<(i64, i64), i64> = HashMap::new();
    for (w, p, q, _) in ledger(app).await {
        *sums.entry((w, p)).or_default() += q;
    }
    let stock = on_hand(app).await;
    for (key, n) in &stock {
        assert_eq!(sums.get(key).copied().unwrap_or(0), *n, "ledger vs on hand of (warehouse, product) {key:?}");
    }
    for (key, n) in &sums {
        assert_eq!(stock.get(key).copied().unwrap_or(0), *n, "ledger of {key:?} without its stock row");
    }
}

/// A product, two own warehouses and a customer to move stock with.
struct Fixture {
    product: i64,
    price: i64,
    w1: i64,
    w2: i64,
    customer: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            // Not a tyre tracked by DOT: a tyre's move is a ledger row per lot it touches
            // (issue 36), and this test counts one row per sheet line.
            let (product, price) = products::table
                .filter(products::org_id.eq(ORG))
                .filter(products::category.eq(1))
                .filter(products::dot_tracked.eq(false))
                .filter(products::class_a_price.gt(5_000))
                .select((products::id, products::class_a_price))
                .order(products::id.asc())
                .first(c)?;
            let whs: Vec<i64> = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).load(c)?;
            let customer = customers::table.filter(customers::org_id.eq(ORG)).filter(customers::payment_type.ne(10)).select(customers::id).order(customers::id.asc()).first(c)?;
            Ok(Fixture { product, price, w1: whs[0], w2: whs[1], customer })
        })
        .await
        .unwrap()
}

/// Creates a sheet through the API and approves it; answers its id and number.
async fn approved(app: &TestApp, s: &Session, body: Value, approve: Value) -> (i64, String) {
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), s, approve).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    let no = app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::no).first::<String>(c)?)).await.unwrap();
    (id, no)
}

/// An invoice of `qty` of the fixture's product from its first warehouse, dated `date`, approved.
async fn invoice(app: &TestApp, s: &Session, f: &Fixture, qty: i64, date: NaiveDate) -> (i64, String) {
    let lines = json!([{"seq": 1, "productId": f.product, "quantity": qty, "price": f.price}]);
    let body = json!({"type": 1, "customerId": f.customer, "warehouseId": f.w1, "date": date.to_string(), "lines": lines});
    approved(app, s, body, json!({"warehouseId": f.w1, "confirmed": true})).await
}

/// Sheets of several kinds moving the fixture's product, dated in the past and approved
/// today, one of them unapproved again; answers the number of the invoice dated 10 days ago.
async fn move_stock(app: &TestApp, s: &Session, f: &Fixture) -> String {
    let (_, no) = invoice(app, s, f, 2, day(-10)).await;
    let lines = json!([{"seq": 1, "productId": f.product, "quantity": 3, "price": 0}]);
    let transfer = json!({"type": 6, "warehouseId": f.w1, "inWarehouseId": f.w2, "taxType": 1, "date": day(-5).to_string(), "lines": lines});
    approved(app, s, transfer, json!({})).await;
    let (withdrawn, _) = invoice(app, s, f, 1, day(-3)).await;
    let un = app.post_json(&format!("/api/orders/{withdrawn}/unApprove"), s, json!({})).await;
    assert_eq!(un.status, StatusCode::OK, "{}", un.body);
    no
}

#[tokio::test]
async fn the_trace_ends_at_the_stock_on_hand_and_lists_every_move() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    assert_ledger_is_the_stock(&app).await;
    let f = fixture(&app).await;
    let dated_earlier = move_stock(&app, &s, &f).await;
    assert_ledger_is_the_stock(&app).await;

    let bytes = app.report_file(&s, json!({"type": "inventoryDetails", "dateRange": range(-364, 0)})).await;
    let t = Table::read(&bytes, "Trace", "Date");
    assert_eq!(t.header, ["Date", "Sheet No.", "Sheet Type", "Warehouse", "Product Code", "Product Name", "In", "Out", "Balance", "Movement"]);

    // What the ledger, read directly, says the file must hold.
    let (from, to) = (day(-364), day(0));
    let mut before: BTreeMap<(i64, i64), i64> = BTreeMap::new();
    let mut inside: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    let (mut ins, mut outs) = (0, 0);
    for (w, p, q, d) in ledger(&app).await {
        if d < from {
            *before.entry((w, p)).or_default() += q;
        } else if d <= to {
            *inside.entry((w, p)).or_default() += 1;
            if q > 0 { ins += q } else { outs -= q }
        }
    }
    let groups: Vec<(i64, i64)> = before.iter().filter(|(_, n)| **n != 0).map(|(k, _)| *k).chain(inside.keys().copied()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    let moves: usize = inside.values().sum();
    assert!(moves > 0 && !groups.is_empty(), "the demo has stock");
    assert_eq!(t.rows.len(), moves + 2 * groups.len(), "every move, and an opening and a closing row per product and warehouse");
    assert_eq!((t.num(&t.total, "In"), t.num(&t.total, "Out")), (ins, outs), "totals of the moves");
    assert_eq!((t.sum("In"), t.sum("Out")), (ins, outs), "totals equal the rows");

    // Each product-warehouse ends at its stock on hand, and the running balance runs.
    let n = names(&app).await;
    let stock = on_hand(&app).await;
    let key = |r: &[Data]| (n.warehouse[&t.str(r, "Warehouse")], n.product[&t.str(r, "Product Code")]);
    let (mut closings, mut balance, mut sum_closing) = (0, 0, 0);
    for r in &t.rows {
        match t.str(r, "Sheet No.").as_str() {
            "Opening balance" => balance = t.num(r, "Balance"),
            "Closing balance" => {
                assert_eq!(t.num(r, "Balance"), balance, "the closing row carries the running balance");
                assert_eq!(balance, stock.get(&key(r)).copied().unwrap_or(0), "the trace ends at the stock on hand: {r:?}");
                closings += 1;
                sum_closing += balance;
            }
            _ => {
                balance += t.num(r, "In") - t.num(r, "Out");
                assert_eq!(t.num(r, "Balance"), balance, "running balance: {r:?}");
                let d = r[t.col("Date")].as_date().expect("a date");
                assert!((from..=to).contains(&d), "{d} in range");
            }
        }
    }
    assert_eq!(closings, groups.len());
    assert_eq!(t.num(&t.total, "Balance"), sum_closing, "the total's balance is the sum of the closing balances");

    // A sheet dated ten days ago and approved today counts on its own date; the withdrawn
    // approval shows as the move and its reversal.
    let row = t.rows.iter().find(|r| t.str(r, "Sheet No.") == dated_earlier).expect("the earlier invoice");
    assert_eq!(row[t.col("Date")].as_date(), Some(day(-10)));
    assert_eq!((t.str(row, "Sheet Type").as_str(), t.num(row, "Out")), ("Invoice", 2));
    assert!(t.rows.iter().any(|r| t.str(r, "Movement").starts_with("Unapproved ") && t.num(r, "In") == 1), "the reversal of the withdrawn invoice");
    assert!(t.rows.iter().any(|r| t.str(r, "Sheet Type") == "Transfer" && t.num(r, "In") == 3), "the transfer's receiving side");
}

#[tokio::test]
async fn a_past_range_opens_with_the_earlier_balance_and_filters_narrow_the_trace() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    let dated_earlier = move_stock(&app, &s, &f).await;
    let (from, to) = (day(-30), day(-7));
    let bytes = app.report_file(&s, json!({"type": "inventoryDetails", "dateRange": range(-30, -7), "warehouses": [f.w1], "products": [f.product]})).await;
    let t = Table::read(&bytes, "Trace", "Date");
    let n = names(&app).await;
    let code = n.product.iter().find(|(_, id)| **id == f.product).map(|(c, _)| c.clone()).unwrap();
    let wh = n.warehouse.iter().find(|(_, id)| **id == f.w1).map(|(w, _)| w.clone()).unwrap();
    assert!(t.rows.iter().all(|r| t.str(r, "Product Code") == code && t.str(r, "Warehouse") == wh), "only the chosen product and warehouse");

    let ledger: Vec<(i64, NaiveDate)> = ledger(&app).await.into_iter().filter(|m| (m.0, m.1) == (f.w1, f.product)).map(|m| (m.2, m.3)).collect();
    let opening: i64 = ledger.iter().filter(|m| m.1 < from).map(|m| m.0).sum();
    let inside: Vec<i64> = ledger.iter().filter(|m| (from..=to).contains(&m.1)).map(|m| m.0).collect();
    assert_eq!(inside, vec![-2], "only the invoice dated ten days ago; the transfer (5 days ago) and today's moves are later");
    assert_eq!(t.rows.len(), 3);
    assert_eq!((t.str(&t.rows[0], "Sheet No."), t.num(&t.rows[0], "Balance")), ("Opening balance".to_string(), opening));
    assert_eq!(t.rows[0][t.col("Date")].as_date(), Some(from));
    assert_eq!((t.str(&t.rows[1], "Sheet No."), t.num(&t.rows[1], "Out"), t.num(&t.rows[1], "Balance")), (dated_earlier, 2, opening - 2));
    assert_eq!((t.str(&t.rows[2], "Sheet No."), t.num(&t.rows[2], "Balance")), ("Closing balance".to_string(), opening - 2));
    assert_eq!(t.rows[2][t.col("Date")].as_date(), Some(to));
    assert_eq!((t.num(&t.total, "In"), t.num(&t.total, "Out"), t.num(&t.total, "Balance")), (0, 2, opening - 2));

    // A range with nothing in it still has its header and a zero total.
    let empty = app.report_file(&s, json!({"type": "inventoryDetails", "dateRange": ["2020-01-01", "2020-01-31"], "warehouses": [f.w1], "products": [f.product]})).await;
    let t = Table::read(&empty, "Trace", "Date");
    assert!(t.rows.is_empty());
    assert_eq!((t.num(&t.total, "In"), t.num(&t.total, "Out"), t.num(&t.total, "Balance")), (0, 0, 0));
}

/// Per product over all warehouses: opening, in, out, closing by the ledger read directly,
/// for the products with a balance before the range or a move inside it.
async fn expected_summary(app: &TestApp, from: NaiveDate, to: NaiveDate) -> BTreeMap<i64, (i64, i64, i64, i64)> {
    let mut per: BTreeMap<i64, (i64, i64, i64, i64, usize)> = BTreeMap::new();
    for (_, p, q, d) in ledger(app).await {
        let e = per.entry(p).or_default();
        if d < from {
            e.0 += q;
        } else if d <= to {
            if q > 0 { e.1 += q } else { e.2 -= q }
            e.4 += 1;
        }
    }
    per.into_iter().filter(|(_, e)| e.0 != 0 || e.4 > 0).map(|(p, e)| (p, (e.0, e.1, e.2, e.0 + e.1 - e.2))).collect()
}

#[tokio::test]
async fn the_summary_balances_each_product_and_shows_cost_only_to_those_who_may_see_it() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    move_stock(&app, &s, &f).await;
    let body = json!({"type": "inventorySummary", "dateRange": range(-364, 0), "includeCost": "Yes"});
    let bytes = app.report_file(&s, body.clone()).await;
    let t = Table::read(&bytes, "Summary", "Category");
    assert_eq!(t.header, ["Category", "Brand", "Code", "Name", "Opening", "In", "Out", "Closing", "Unit Cost", "Closing Value"]);

    let expected = expected_summary(&app, day(-364), day(0)).await;
    let n = names(&app).await;
    let stock = on_hand(&app).await;
    assert_eq!(t.rows.len(), expected.len(), "one row per product with stock or movement");
    let mut value = 0;
    for r in &t.rows {
        let p = n.product[&t.str(r, "Code")];
        let (brand, category, cost) = &n.detail[&p];
        let row = (t.num(r, "Opening"), t.num(r, "In"), t.num(r, "Out"), t.num(r, "Closing"));
        assert_eq!(row, expected[&p], "{r:?}");
        assert_eq!(row.0 + row.1 - row.2, row.3);
        let held: i64 = stock.iter().filter(|((_, sp), _)| *sp == p).map(|(_, n)| n).sum();
        assert_eq!(row.3, held, "a range ending today closes at the stock on hand");
        assert_eq!((&t.str(r, "Brand"), &t.str(r, "Category")), (brand, category));
        assert_eq!(cents(&r[t.col("Unit Cost")]), *cost, "the product's cost price");
        assert_eq!(cents(&r[t.col("Closing Value")]), row.3 * cost);
        value += row.3 * cost;
    }
    for c in ["Opening", "In", "Out", "Closing"] {
        assert_eq!(t.num(&t.total, c), t.sum(c), "total of {c}");
        assert_eq!(t.num(&t.total, c), expected.values().map(|e| [e.0, e.1, e.2, e.3][t.col(c) - 4]).sum::<i64>(), "{c} against the ledger");
    }
    assert_eq!(cents(&t.total[t.col("Closing Value")]), value);
    // Ordered by category path, then brand, then code (the file's order is the query's).
    let keys: Vec<(String, String)> = t.rows.iter().map(|r| (t.str(r, "Category"), t.str(r, "Brand"))).collect();
    let mut runs = keys.clone();
    runs.dedup();
    let mut distinct = runs.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(runs.len(), distinct.len(), "each category and brand is one run of rows");

    // No cost for a user who may not see it, whatever they ask; none when not asked for.
    let sales = app.session_in("sales@demo.test", ORG).await;
    let no_cost = Table::read(&app.report_file(&sales, body).await, "Summary", "Category");
    assert_eq!(no_cost.header, ["Category", "Brand", "Code", "Name", "Opening", "In", "Out", "Closing"]);
    assert_eq!(no_cost.rows.len(), t.rows.len());
    let not_asked = Table::read(&app.report_file(&s, json!({"type": "inventorySummary", "dateRange": range(-364, 0)})).await, "Summary", "Category");
    assert_eq!(not_asked.header.len(), 8);

    // A brand narrows the rows to its products.
    let brand_row = t.rows.iter().find(|r| !t.str(r, "Brand").is_empty()).expect("a branded product");
    let brand_name = t.str(brand_row, "Brand");
    let brand_id: i64 = {
        let name = brand_name.clone();
        app.state.db.run(move |c| Ok(brands::table.filter(brands::org_id.eq(ORG)).filter(brands::name.eq(name)).select(brands::id).first(c)?)).await.unwrap()
    };
    let narrowed = Table::read(&app.report_file(&s, json!({"type": "inventorySummary", "dateRange": range(-364, 0), "brands": [brand_id]})).await, "Summary", "Category");
    let of_brand = t.rows.iter().filter(|r| t.str(r, "Brand") == brand_name).count();
    assert!(of_brand < t.rows.len());
    assert_eq!(narrowed.rows.len(), of_brand);
    assert!(narrowed.rows.iter().all(|r| narrowed.str(r, "Brand") == brand_name));

    // A category takes its children: Wheels is Wheels/Alloy and Wheels/Steel.
    let wheels = Table::read(&app.report_file(&s, json!({"type": "inventorySummary", "dateRange": range(-364, 0), "categories": [5]})).await, "Summary", "Category");
    let of_wheels = t.rows.iter().filter(|r| t.str(r, "Category").starts_with("Wheels")).count();
    assert!(of_wheels > 0 && of_wheels < t.rows.len());
    assert_eq!(wheels.rows.len(), of_wheels);
    assert!(wheels.rows.iter().all(|r| ["Wheels/Alloy", "Wheels/Steel", "Wheels"].contains(&wheels.str(r, "Category").as_str())));

    // A warehouse narrows the sums to its moves.
    let one = Table::read(&app.report_file(&s, json!({"type": "inventorySummary", "dateRange": range(-364, 0), "warehouses": [f.w1]})).await, "Summary", "Category");
    let in_w1: i64 = stock.iter().filter(|((w, _), _)| *w == f.w1).map(|(_, n)| n).sum();
    assert_eq!(one.num(&one.total, "Closing"), in_w1);
    assert!(one.rows.len() <= t.rows.len());
}
