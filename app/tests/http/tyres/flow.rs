//! A tyre by DOT date through every kind of sheet (issue 36): bought in two codes on one
//! bill, sold oldest first, one line pinned to the newer code, credited back to the codes
//! sold, transferred, counted per code, unapproved and voided — with each warehouse's stock
//! equal to the sum of its lots after every step.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::json;

use db::schema::{customers, organisations, products, stock_lots, stock_moves, stocks, warehouses};

use super::{ORG, approved, draft, empty_tyre};
use crate::support::TestApp;

struct Fixture {
    tyre: i64,
    plain: i64,
    a: i64,
    b: i64,
    customer: i64,
    supplier: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    let f = app
        .state
        .db
        .run(|c| {
            let tyre: i64 = products::table.filter(products::org_id.eq(ORG)).filter(products::dot_tracked.eq(true)).order(products::id.asc()).select(products::id).first(c)?;
            let plain: i64 = products::table.filter(products::org_id.eq(ORG)).filter(products::dot_tracked.eq(false)).filter(products::category.eq(1)).order(products::id.asc()).select(products::id).first(c)?;
            let own: Vec<i64> = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).order(warehouses::id.asc()).select(warehouses::id).limit(2).load(c)?;
            let customer = customers::table.filter(customers::org_id.eq(ORG)).filter(customers::payment_type.ne(10)).order(customers::id.asc()).select(customers::id).first(c)?;
            let supplier = db::schema::suppliers::table.filter(db::schema::suppliers::org_id.eq(ORG)).filter(db::schema::suppliers::currency.eq("AUD")).order(db::schema::suppliers::id.asc()).select(db::schema::suppliers::id).first(c)?;
            Ok(Fixture { tyre, plain, a: own[0], b: own[1], customer, supplier })
        })
        .await
        .unwrap();
    // The tyre starts with nothing anywhere, so every lot below is worked out by hand.
    empty_tyre(app, f.tyre).await;
    f
}

/// The tyre's lots in a warehouse that hold stock (or less than none), oldest code first.
async fn lots(app: &TestApp, f: &Fixture, wh: i64) -> Vec<(i32, i64)> {
    let (p, w) = (f.tyre, wh);
    app.state
        .db
        .run(move |c| {
            Ok(stock_lots::table
                .filter(stock_lots::product_id.eq(p))
                .filter(stock_lots::warehouse_id.eq(w))
                .filter(stock_lots::on_hand.ne(0))
                .order(stock_lots::dot.asc())
                .select((stock_lots::dot, stock_lots::on_hand))
                .load(c)?)
        })
        .await
        .unwrap()
}

/// Each warehouse's stock of the tyre equals the sum of its lots; answers the lots of A and B.
async fn check(app: &TestApp, f: &Fixture, step: &str) -> (Vec<(i32, i64)>, Vec<(i32, i64)>) {
    let p = f.tyre;
    let per_wh: Vec<(i64, i64)> = app.state.db.run(move |c| Ok(stocks::table.filter(stocks::product_id.eq(p)).select((stocks::warehouse_id, stocks::on_hand)).load(c)?)).await.unwrap();
    for (w, on_hand) in per_wh {
        let sum: i64 = lots(app, f, w).await.iter().map(|l| l.1).sum();
        assert_eq!(sum, on_hand, "after {step}: warehouse {w} holds {on_hand}, its lots {sum}");
    }
    (lots(app, f, f.a).await, lots(app, f, f.b).await)
}

// Stored codes: '2324' is week 23 of 2024, '1025' week 10 of 2025, '0126' week 1 of 2026.
const W23_24: i32 = 202_423;
const W10_25: i32 = 202_510;
const W01_26: i32 = 202_601;

#[tokio::test]
async fn a_tyre_in_two_codes_is_sold_oldest_first_pinned_credited_transferred_and_counted_by_lot() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let line = |seq: i64, qty: i64, dot: &str| json!({"seq": seq, "productId": f.tyre, "quantity": qty, "price": 1_000_000, "dot": dot});

    // One bill, the tyre split over two lines in two codes.
    let bill = approved(&app, &s, json!({"type": 4, "supplierId": f.supplier, "warehouseId": f.a, "taxType": 3, "lines": [line(1, 4, "2324"), line(2, 6, "1025")]})).await;
    assert_eq!(check(&app, &f, "the bill").await.0, vec![(W23_24, 4), (W10_25, 6)]);
    let sheet = app.get(&format!("/api/orders/{bill}"), Some(&s)).await.json();
    let codes: Vec<&str> = sheet["data"]["lines"].as_array().expect("lines").iter().map(|l| l["dot"].as_str().unwrap_or("")).collect();
    assert_eq!(codes, ["2324", "1025"], "the sheet answers each line's code");
    // The ledger names the lot on every row of the tyre.
    let rows: Vec<Option<i32>> = app.state.db.run(move |c| Ok(stock_moves::table.filter(stock_moves::order_id.eq(bill)).order(stock_moves::id.asc()).select(stock_moves::dot).load(c)?)).await.unwrap();
    assert_eq!(rows, vec![Some(W23_24), Some(W10_25)]);

    // Sold oldest first: 3 from week 23 of 2024.
    let sale = |qty: i64, dot: &str| json!({"type": 1, "customerId": f.customer, "warehouseId": f.a, "taxType": 3, "lines": [line(1, qty, dot)]});
    let oldest = approved(&app, &s, sale(3, "")).await;
    assert_eq!(check(&app, &f, "a sale").await.0, vec![(W23_24, 1), (W10_25, 6)]);
    // A customer who asks for the newer tyre: the line pinned to '1025' takes from it alone.
    let pinned = approved(&app, &s, sale(2, "1025")).await;
    assert_eq!(check(&app, &f, "a pinned sale").await.0, vec![(W23_24, 1), (W10_25, 4)]);
    // The sheet's page names the codes each line took.
    for (id, codes) in [(oldest, "DOT 2324 ×3"), (pinned, "DOT 1025 ×2")] {
        let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
        assert!(page.body.contains(codes), "{codes} on the invoice's page");
    }

    // Credited back: each return goes to the code its invoice sold.
    let credit = |invoice: i64, qty: i64| json!({"type": 2, "customerId": f.customer, "warehouseId": f.a, "relatedOrderId": invoice, "taxType": 3, "lines": [line(1, qty, "")]});
    approved(&app, &s, credit(oldest, 2)).await;
    assert_eq!(check(&app, &f, "the first credit note").await.0, vec![(W23_24, 3), (W10_25, 4)]);
    approved(&app, &s, credit(pinned, 1)).await;
    assert_eq!(check(&app, &f, "the second credit note").await.0, vec![(W23_24, 3), (W10_25, 5)]);
    // A second return on the first invoice: 1 sold is left to return, then unknown.
    approved(&app, &s, credit(oldest, 2)).await;
    assert_eq!(check(&app, &f, "a return beyond the sale").await.0, vec![(0, 1), (W23_24, 4), (W10_25, 5)]);

    // Transferred to B, oldest first: the unknown tyre, the four of 2024, one of 2025.
    let transfer = approved(&app, &s, json!({"type": 6, "warehouseId": f.a, "inWarehouseId": f.b, "lines": [{"seq": 1, "productId": f.tyre, "quantity": 6}]})).await;
    let (a, b) = check(&app, &f, "the transfer").await;
    assert_eq!(a, vec![(W10_25, 4)]);
    assert_eq!(b, vec![(0, 1), (W23_24, 4), (W10_25, 1)]);

    // Counted in B per code: 3 of 2024 where the system says 4, the unknown one found to be
    // '0126', which the count puts in its own lot.
    let count = |seq: i64, counted: i64, system: i64, dot: &str| json!({"seq": seq, "productId": f.tyre, "inWarehouseQty": counted, "inSystemQty": system, "dot": dot});
    approved(&app, &s, json!({"type": 7, "warehouseId": f.b, "lines": [count(1, 3, 4, "2324"), count(2, 0, 1, ""), count(3, 1, 0, "0126")]})).await;
    assert_eq!(check(&app, &f, "the count").await.1, vec![(W23_24, 3), (W10_25, 1), (W01_26, 1)]);

    // A bill credit note from A takes the oldest there.
    approved(&app, &s, json!({"type": 5, "supplierId": f.supplier, "warehouseId": f.a, "taxType": 3, "lines": [line(1, 1, "")]})).await;
    assert_eq!(check(&app, &f, "the bill credit note").await.0, vec![(W10_25, 3)]);

    // Unapproving undoes exactly what the approval recorded: the pinned sale's two of 2025
    // come back to A, and the transfer's lots go back from B to A.
    let back = app.post_json(&format!("/api/orders/{pinned}/unApprove"), &s, json!({})).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    assert_eq!(check(&app, &f, "unapproving the pinned sale").await.0, vec![(W10_25, 5)]);
    let back = app.post_json(&format!("/api/orders/{transfer}/unApprove"), &s, json!({})).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    let (a, b) = check(&app, &f, "unapproving the transfer").await;
    assert_eq!(a, vec![(0, 1), (W23_24, 4), (W10_25, 6)]);
    // B keeps what the count changed: one fewer of 2024 and the new '0126'; the unknown tyre it
    // counted away is owed back (-1), as B's stock is.
    assert_eq!(b, vec![(0, -1), (W23_24, -1), (W01_26, 1)]);
    // Voiding the draft moves nothing.
    let void = app.post_json(&format!("/api/orders/{pinned}/void"), &s, json!({})).await;
    assert_eq!(void.status, StatusCode::OK, "{}", void.body);
    check(&app, &f, "voiding").await;
}

#[tokio::test]
async fn bad_codes_are_refused_by_line_and_a_code_short_of_stock_asks_first() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let body = |product: i64, dot: &str| json!({"type": 4, "supplierId": f.supplier, "warehouseId": f.a, "taxType": 3, "date": "2026-11-20", "lines": [{"seq": 1, "productId": product, "quantity": 1, "price": 100, "dot": dot}]});
    for (dot, message) in [("5425", "Week 54 does not exist"), ("0199", "DOT 0199 is in the future"), ("239", "before 2000"), ("23x5", "4 digits")] {
        let res = app.post_json("/api/orders", &s, body(f.tyre, dot)).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{dot}: {}", res.body);
        assert!(res.body.contains(message), "{dot}: {}", res.body);
    }
    let res = app.post_json("/api/orders", &s, body(f.plain, "2324")).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("not tracked by DOT"), "{}", res.body);
    let res = app.post_json("/api/orders", &s, json!({"type": 3, "supplierId": f.supplier, "warehouseId": f.a, "taxType": 3, "date": "2026-11-20", "deliveryDate": "2026-12-20", "lines": [{"seq": 1, "productId": f.tyre, "quantity": 1, "price": 100, "dot": "2324"}]})).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "a purchase order keeps no code: {}", res.body);

    // Two of 2025 in A and none of 2024: a sale pinned to '2324' is confirmed first, by code.
    approved(&app, &s, body(f.tyre, "1025")).await;
    let sale = draft(&app, &s, json!({"type": 1, "customerId": f.customer, "warehouseId": f.a, "taxType": 3, "lines": [{"seq": 1, "productId": f.tyre, "quantity": 1, "price": 1_000_000, "dot": "2324"}]})).await;
    let asked = app.post_json(&format!("/api/orders/{sale}/approve"), &s, json!({"confirmed": false})).await;
    assert_eq!(asked.status, StatusCode::CONFLICT, "{}", asked.body);
    assert!(asked.body.contains("DOT 2324") && asked.body.contains("would be -1"), "{}", asked.body);
    assert_eq!(check(&app, &f, "a refused approval").await.0, vec![(W10_25, 1)], "nothing moved");
}

#[tokio::test]
async fn the_old_tyre_rule_asks_an_approver_unless_the_customer_accepted_old_tyres() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    approved(&app, &s, json!({"type": 4, "supplierId": f.supplier, "warehouseId": f.a, "taxType": 3, "lines": [{"seq": 1, "productId": f.tyre, "quantity": 4, "price": 100, "dot": "0120"}]})).await;
    app.state.db.write(|c| Ok(diesel::update(organisations::table.find(ORG)).set(organisations::old_tyre_years.eq(Some(5))).execute(c)?)).await.unwrap();
    let sale = || json!({"type": 1, "customerId": f.customer, "warehouseId": f.a, "taxType": 3, "lines": [{"seq": 1, "productId": f.tyre, "quantity": 1, "price": 1_000_000}]});
    let id = draft(&app, &s, sale()).await;
    let asked = app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({"confirmed": false})).await;
    assert_eq!(asked.status, StatusCode::CONFLICT, "{}", asked.body);
    assert!(asked.body.contains("Tyres 5 years old or more") && asked.body.contains("DOT 0120"), "{}", asked.body);
    // The customer accepts old tyres: no question.
    let c = f.customer;
    app.state.db.write(move |conn| Ok(diesel::update(customers::table.find(c)).set(customers::accepts_old_tyres.eq(true)).execute(conn)?)).await.unwrap();
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({"confirmed": false})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
}
