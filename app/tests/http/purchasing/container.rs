//! A USD container end to end (issue 35): ordered in US dollars, received in part, its
//! freight and duty allocated as landed costs, the landed cost in quoting's COST, in a new
//! sale's cost and in the sales report's margin, and unapproving the allocations restores
//! the cost exactly.

use std::io::Cursor;

use axum::http::StatusCode;
use calamine::{Data, Reader, Xlsx};
use diesel::prelude::*;
use serde_json::{Value, json};

use db::schema::{customers, order_lines, products, stocks, suppliers, warehouses};

use super::currency::{set_rate, supplier_in};
use crate::support::{Session, TestApp};

const ORG: i64 = 4;

struct Fixture {
    tyre: i64,
    tyre_code: String,
    freight: i64,
    forwarder: i64,
    warehouse: i64,
    customer: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .write(|c| {
            let phys: Vec<(i64, String)> = products::table.filter(products::org_id.eq(ORG)).filter(products::category.eq(1)).order(products::id.asc()).select((products::id, products::code)).limit(2).load(c)?;
            let (tyre, tyre_code) = phys[0].clone();
            // The freight and duty lines name a service item (virtual).
            let freight = phys[1].0;
            diesel::update(products::table.find(freight)).set(products::category.eq(4)).execute(c)?;
            // Nothing on hand at no cost: every figure below is worked out by hand.
            diesel::update(stocks::table.filter(stocks::product_id.eq(tyre))).set(stocks::on_hand.eq(0)).execute(c)?;
            diesel::update(products::table.find(tyre)).set(products::cost_price.eq(0)).execute(c)?;
            let forwarder = suppliers::table.filter(suppliers::org_id.eq(ORG)).order(suppliers::id.asc()).select(suppliers::id).first(c)?;
            let warehouse = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).order(warehouses::id.asc()).select(warehouses::id).first(c)?;
            let customer = customers::table.filter(customers::org_id.eq(ORG)).filter(customers::payment_type.ne(10)).order(customers::id.asc()).select(customers::id).first(c)?;
            Ok(Fixture { tyre, tyre_code, freight, forwarder, warehouse, customer })
        })
        .await
        .unwrap()
}

fn id_of(v: &Value) -> i64 {
    v["data"]["id"].as_i64().or_else(|| v["id"].as_i64()).expect("an id")
}

/// A sheet through the API, approved; answers its id.
async fn approved(app: &TestApp, s: &Session, mut body: Value) -> i64 {
    body["date"] = json!("2026-11-20");
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = id_of(&res.json());
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"confirmed": true})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    id
}

async fn cost(app: &TestApp, p: i64) -> i64 {
    app.state.db.run(move |c| Ok(products::table.find(p).select(products::cost_price).first::<i64>(c)?)).await.unwrap()
}

async fn allocate_and_approve(app: &TestApp, s: &Session, source: i64, kind: &str, method: &str, target: i64) -> i64 {
    let (src, t) = (source.to_string(), target.to_string());
    let res = app.post_form("/landed_costs", s, &[("source_id", &src), ("kind", kind), ("method", method), ("amount", ""), ("target", &t)]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let lc: i64 = res.location().trim_start_matches("/landed_costs/").split('?').next().unwrap().parse().unwrap();
    let ok = app.post_form(&format!("/landed_costs/{lc}/approve"), s, &[]).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    lc
}

/// The Cost and Margin of sheet `no`'s line in the sales detail report's Lines worksheet.
fn cost_and_margin(bytes: &[u8], no: &str) -> (f64, f64) {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an xlsx file");
    let rows: Vec<Vec<Data>> = book.worksheet_range("Lines").expect("Lines").rows().map(|r| r.to_vec()).collect();
    let header = rows.iter().find(|r| r.iter().any(|d| *d == Data::String("Margin".into()))).expect("a header with Margin");
    let col = |name: &str| header.iter().position(|d| *d == Data::String(name.into())).unwrap();
    let (no_col, cost_col, margin_col) = (col("No."), col("Cost"), col("Margin"));
    let row = rows.iter().find(|r| r.get(no_col) == Some(&Data::String(no.into()))).unwrap_or_else(|| panic!("{no} in the report"));
    let f = |d: &Data| match d {
        Data::Float(f) => *f,
        Data::Int(i) => *i as f64,
        other => panic!("not a number: {other:?}"),
    };
    (f(&row[cost_col]), f(&row[margin_col]))
}

#[tokio::test]
async fn a_usd_container_with_freight_and_duty_is_costed_landed_and_unapproving_restores_the_cost() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let factory = supplier_in(&app, &s, "CONTAINER-USD", "USD").await;
    set_rate(&app, &s, "USD", "2026-11-01", "0.65").await;

    // 100 tyres at US$65.00 ordered (A$100.00 each at 0.65); 60 arrive on the first bill.
    let line = |qty: i64| json!([{"seq": 1, "productId": f.tyre, "quantity": qty, "price": 6500}]);
    let po = approved(&app, &s, json!({"type": 3, "supplierId": factory, "warehouseId": f.warehouse, "deliveryDate": "2026-12-15", "shipmentRef": "TGHU 778812-0", "taxType": 1, "lines": line(100)})).await;
    let bill = approved(&app, &s, json!({"type": 4, "supplierId": factory, "warehouseId": f.warehouse, "relatedOrderId": po, "taxType": 1, "lines": line(60)})).await;
    assert_eq!(cost(&app, f.tyre).await, 10_000, "A$100.00 a tyre");
    // Ten sold before the freight and duty bills arrive: 50 of the 60 still in stock.
    let sale = |price: i64| json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "taxType": 3, "lines": [{"seq": 1, "productId": f.tyre, "quantity": 10, "price": price}]});
    approved(&app, &s, sale(22_000)).await;

    // Freight A$330 incl. GST from the forwarder: A$300 by value, 50/60 to stock (A$250 over
    // 50 tyres: +A$5.00), A$50 to cost of goods sold.
    let service = |price: i64, tax: i64| json!({"type": 4, "supplierId": f.forwarder, "warehouseId": f.warehouse, "taxType": tax, "lines": [{"seq": 1, "productId": f.freight, "quantity": 1, "price": price}]});
    let freight = approved(&app, &s, service(33_000, 2)).await;
    let lc_freight = allocate_and_approve(&app, &s, freight, "1", "1", bill).await;
    assert_eq!(cost(&app, f.tyre).await, 10_500);
    let page = app.get(&format!("/landed_costs/{lc_freight}"), Some(&s)).await;
    assert!(page.body.contains(r#"id="total-to-cogs">$50.00"#), "the sold part goes to cost of goods sold");
    // Duty A$120 (no GST) by quantity: A$100 to stock, +A$2.00 a tyre.
    let duty = approved(&app, &s, service(12_000, 1)).await;
    let lc_duty = allocate_and_approve(&app, &s, duty, "2", "2", bill).await;
    assert_eq!(cost(&app, f.tyre).await, 10_700, "A$107.00 landed");

    // Quoting's COST shows the landed cost; a sale now keeps it as its cost, and the sales
    // report's margin is measured against it (A$200.00 ex GST − A$107.00).
    let quoting = app.get(&format!("/quotings?key={}", f.tyre_code), Some(&s)).await;
    assert!(quoting.body.contains("107.00"), "quoting shows the landed cost");
    let one = json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "taxType": 3, "lines": [{"seq": 1, "productId": f.tyre, "quantity": 1, "price": 22_000}]});
    let sold = approved(&app, &s, one).await;
    let kept: i64 = app.state.db.run(move |c| Ok(order_lines::table.filter(order_lines::order_id.eq(sold)).select(order_lines::cost_price).first(c)?)).await.unwrap();
    assert_eq!(kept, 10_700);
    let no = sheet_no(&app, &s, sold).await;
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    let range = json!([(today - chrono::Duration::days(364)).to_string(), today.to_string()]);
    let bytes = app.report_file(&s, json!({"type": "invoiceDetails", "dateRange": range, "products": [f.tyre], "includeCost": "Yes"})).await;
    assert_eq!(cost_and_margin(&bytes, &no), (107.0, 93.0), "the report's margin uses the landed cost");

    // Unapproving the allocations, last first, restores the cost exactly.
    assert_eq!(app.post_form(&format!("/landed_costs/{lc_duty}/unapprove"), &s, &[]).await.status, StatusCode::SEE_OTHER);
    assert_eq!(cost(&app, f.tyre).await, 10_500);
    assert_eq!(app.post_form(&format!("/landed_costs/{lc_freight}/unapprove"), &s, &[]).await.status, StatusCode::SEE_OTHER);
    assert_eq!(cost(&app, f.tyre).await, 10_000, "back to A$100.00 exactly");
    // The 40 still at sea come on the next bill from the purchase order.
    let next = app.get(&format!("/order_add/bills/clone?from={po}"), Some(&s)).await;
    assert!(next.body.contains("&#34;qty&#34;:&#34;40&#34;"), "40 left in transit");
    // The quoting stock dropdown says what is coming when.
    let po_no = sheet_no(&app, &s, po).await;
    let coming = app.get(&format!("/quotings/coming/{}", f.tyre), Some(&s)).await;
    assert_eq!(coming.status, StatusCode::OK);
    for shown in [po_no.as_str(), ">40<", "15 Dec 2026", "TGHU 778812-0"] {
        assert!(coming.body.contains(shown), "coming shows {shown}: {}", coming.body);
    }
    let quoting = app.get(&format!("/quotings?key={}", f.tyre_code), Some(&s)).await;
    assert!(quoting.body.contains(&format!("data-hx-get=\"/quotings/coming/{}\"", f.tyre)), "the dropdown loads it when opened");
}

async fn sheet_no(app: &TestApp, s: &Session, id: i64) -> String {
    let res = app.get(&format!("/api/orders/{id}"), Some(s)).await;
    let v = res.json();
    v["data"]["no"].as_str().or_else(|| v["no"].as_str()).unwrap().to_string()
}
