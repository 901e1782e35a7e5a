//! Sheets end to end over HTTP: create, validate, approve with the guard, stock, unapprove,
//! void, transfer, adjustment, edits, navigation, JSON API, clone and cart prefill, imports.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::json;
use db::schema::{customers, order_lines, products, stock_moves, stocks, suppliers, warehouses};

use crate::support::{Session, TestApp};

struct Fixture {
    plain_customer: i64,
    cbd_customer: i64,
    product: i64,
    product_class_a: i64,
    warehouse: i64,
    warehouse2: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            let plain_customer = customers::table
                .filter(customers::org_id.eq(4))
                .filter(customers::payment_type.ne(10))
                .filter(customers::credit_limit.eq(0))
                .select(customers::id)
                .order(customers::id.asc())
                .first(c)?;
            let cbd_customer = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.eq(10)).select(customers::id).order(customers::id.asc()).first(c)?;
            let (product, product_class_a) =
                products::table.filter(products::org_id.eq(4)).filter(products::category.eq(1)).filter(products::class_a_price.gt(5_000)).select((products::id, products::class_a_price)).order(products::id.asc()).first(c)?;
            let whs: Vec<i64> = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).load(c)?;
            Ok(Fixture { plain_customer, cbd_customer, product, product_class_a, warehouse: whs[0], warehouse2: whs[1] })
        })
        .await
        .unwrap()
}

async fn stock(app: &TestApp, wh: i64, product: i64) -> i64 {
    app.state
        .db
        .run(move |c| Ok(stocks::table.filter(stocks::warehouse_id.eq(wh)).filter(stocks::product_id.eq(product)).select(stocks::on_hand).first::<i64>(c).optional()?.unwrap_or(0)))
        .await
        .unwrap()
}

fn lines_json(lines: &[(i64, &str, &str)]) -> String {
    json!(lines.iter().enumerate().map(|(i, (p, q, pr))| json!({"key": format!("new_{i}"), "productId": p, "qty": q, "price": pr, "description": "", "taxType": 3, "inWarehouseQty": "", "inSystemQty": ""})).collect::<Vec<_>>()).to_string()
}

/// Creates a sheet through the HTML form; returns its id.
async fn create_form(app: &TestApp, s: &Session, route: &str, fields: &[(&str, &str)], lines: &str) -> i64 {
    let mut all: Vec<(&str, &str)> = vec![("date", "2026-11-20"), ("tax_type", "3"), ("tag_id", "1")];
    all.retain(|(k, _)| !fields.iter().any(|(fk, _)| fk == k));
    all.extend_from_slice(fields);
    all.push(("lines_json", lines));
    let res = app.post_form(&format!("/order_add/{route}"), s, &all).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let loc = res.location().to_string();
    assert!(loc.contains(&format!("/order_detail/{route}/")), "{loc}");
    loc.split('/').next_back().unwrap().split('?').next().unwrap().parse().unwrap()
}

async fn act(app: &TestApp, s: &Session, id: i64, action: &str, fields: &[(&str, &str)]) -> crate::support::TestResponse {
    let mut all = vec![("_csrf", s.csrf.as_str())];
    all.extend_from_slice(fields);
    let body = serde_urlencoded::to_string(&all).unwrap();
    app.request(
        axum::http::Method::POST,
        &format!("/order_action/{id}/{action}"),
        Some(body.into()),
        Some("application/x-www-form-urlencoded"),
        &[("cookie", &s.cookie), ("hx-request", "true")],
    )
    .await
}

#[tokio::test]
async fn an_invoice_is_created_shown_and_numbered() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let c = f.plain_customer.to_string();
    let w = f.warehouse.to_string();
    let id = create_form(&app, &s, "invoices", &[("customer_id", &c), ("warehouse_id", &w)], &lines_json(&[(f.product, "3", "36.67"), (f.product, "1", "0.01")])).await;
    let page = app.get(&format!("/order_detail/invoices/{id}?ok=1"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Operation successful"));
    assert!(page.body.contains("<h1>Invoice INV-"));
    assert!(page.body.contains(">Draft</span>"));
    assert!(page.body.contains("Total Qty <strong>4</strong>"));
    assert!(page.body.contains("Total Amount <strong>110.02</strong>"));
    assert!(page.body.contains("Total Tax (GST 10%) <strong>10.00</strong>"));
    assert!(page.body.contains("SubTotal <strong>100.02</strong>"));
    assert!(page.body.contains("<td>Created</td>"), "history row");
    for button in ["Void</button>", "Approve</button>", ">Content</a>"] {
        assert!(page.body.contains(button), "draft offers {button}");
    }
    assert!(!page.body.contains(">UnApprove</button>"));
    let json = app.get(&format!("/api/orders/{id}"), Some(&s)).await.json();
    assert_eq!(json["data"]["lines"][0]["seq"], 1);
    assert_eq!(json["data"]["amount"], 11002);
    assert_eq!(json["data"]["csr"]["id"], f.plain_customer);
}

#[tokio::test]
async fn invalid_sheets_come_back_with_messages_and_what_was_typed() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let lines = lines_json(&[(f.product, "1.5", "10.999")]);
    let res = app.post_form("/order_add/invoices", &s, &[("date", "2026-11-20"), ("reference", "PO-KEEP-ME"), ("lines_json", &lines)]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("Please enter"), "customer required");
    assert!(res.body.contains("value=\"PO-KEEP-ME\""), "typed header kept");
    assert!(res.body.contains("1.5") && res.body.contains("10.999"), "typed lines handed back to the editor");
    assert!(res.body.contains("lines.0.qty"), "line errors reach the editor");
    let empty = app.post_form("/order_add/invoices", &s, &[("date", "2026-11-20"), ("customer_id", &f.plain_customer.to_string()), ("lines_json", "[]")]).await;
    assert!(empty.body.contains("Add at least one line with a product."));
}

#[tokio::test]
async fn the_sheet_form_folds_secondary_fields_under_more_and_opens_it_for_notes() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let blank = app.get("/order_add/invoices", Some(&s)).await;
    let more = blank.body.split(r#"<details class="more-fields""#).nth(1).expect("a More fold");
    assert!(more.starts_with("><summary>More"), "closed on a new sheet");
    for field in [r#"name="address""#, r#"name="phone""#, r#"name="csr_service_id""#, r#"name="csr_bd_id""#, r#"name="csr_self_note""#, r#"name="comments""#] {
        assert!(more.split("</details>").next().unwrap().contains(field), "{field} under More");
    }
    // Typed notes come back with the fold open and named on its line.
    let lines = lines_json(&[(f.product, "1.5", "10")]);
    let res = app.post_form("/order_add/invoices", &s, &[("date", "2026-11-20"), ("comments", "Call before delivery"), ("lines_json", &lines)]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains(r#"<details class="more-fields" open><summary>More <span class="muted" data-more-summary>(Comments)</span>"#));
    assert!(res.body.contains("Call before delivery</textarea>"));
}

#[tokio::test]
async fn approval_guard_refuses_role_2_and_asks_role_4_then_moves_stock_once() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let sales = app.session("sales@demo.test").await;
    let low = format!("{:.2}", (f.product_class_a - 1_500) as f64 / 100.0);
    let c = f.cbd_customer.to_string();
    let w = f.warehouse.to_string();
    let id = create_form(&app, &sales, "invoices", &[("customer_id", &c), ("warehouse_id", &w)], &lines_json(&[(f.product, "2", &low)])).await;
    let before = stock(&app, f.warehouse, f.product).await;

    let refused = act(&app, &sales, id, "approve", &[("warehouse_id", &w)]).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.body.contains("The price of line 1 is $10 (or more) lower than PriceA."), "{}", refused.body);
    assert!(refused.body.contains(" *AND* This is CBD (Cash Before Delivery) customer. Contact manager."), "{}", refused.body);

    let manager = app.session("manager@demo.test").await;
    let needs_permit = act(&app, &manager, id, "approve", &[("warehouse_id", &w)]).await;
    assert!(needs_permit.body.contains("You need Accountant-Permit. And This is CBD (Cash Before Delivery) customer."));

    let approver = app.session("approver@demo.test").await;
    let ask = act(&app, &approver, id, "approve", &[("warehouse_id", &w)]).await;
    assert_eq!(ask.status, StatusCode::OK);
    assert!(ask.body.contains("Confirm Approve") && ask.body.contains("Approve now?"));
    assert!(ask.body.contains("lower than PriceA. *AND* This is CBD"));
    assert_eq!(stock(&app, f.warehouse, f.product).await, before, "nothing moved before confirmation");

    let ok = act(&app, &approver, id, "approve", &[("warehouse_id", &w), ("confirmed", "1")]).await;
    assert_eq!(ok.status, StatusCode::NO_CONTENT, "{}", ok.body);
    assert!(ok.headers["hx-redirect"].to_str().unwrap().ends_with(&format!("/order_detail/invoices/{id}?ok=1")));
    assert_eq!(stock(&app, f.warehouse, f.product).await, before - 2);
    let again = act(&app, &approver, id, "approve", &[("warehouse_id", &w), ("confirmed", "1")]).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(stock(&app, f.warehouse, f.product).await, before - 2, "a second approval moves nothing");

    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&approver)).await;
    assert!(page.body.contains(">Approved</span>") && page.body.contains(">UnApprove</button>"));
    assert!(page.body.contains("<td>Approved</td>"));
    let un = act(&app, &approver, id, "unapprove", &[]).await;
    assert_eq!(un.status, StatusCode::NO_CONTENT);
    assert_eq!(stock(&app, f.warehouse, f.product).await, before, "unapprove restores exactly");
}

#[tokio::test]
async fn an_invoice_without_reasons_is_approved_by_role_2_at_once() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let price = format!("{:.2}", f.product_class_a as f64 / 100.0);
    let id = create_form(&app, &s, "invoices", &[("customer_id", &f.plain_customer.to_string()), ("warehouse_id", &f.warehouse.to_string())], &lines_json(&[(f.product, "1", &price)])).await;
    let ok = act(&app, &s, id, "approve", &[("warehouse_id", &f.warehouse.to_string())]).await;
    assert_eq!(ok.status, StatusCode::NO_CONTENT, "{}", ok.body);
    let void = act(&app, &s, id, "void", &[]).await;
    assert_eq!(void.status, StatusCode::CONFLICT, "void is draft-only");
    let edit = app.post_form(&format!("/order_edit/invoices/{id}"), &s, &[("date", "2026-11-20"), ("customer_id", &f.plain_customer.to_string()), ("lines_json", &lines_json(&[(f.product, "9", &price)]))]).await;
    assert_eq!(edit.status, StatusCode::CONFLICT, "content is editable only while Draft");
}

#[tokio::test]
async fn void_is_irreversible_and_closes_every_door() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let id = create_form(&app, &s, "invoices", &[("customer_id", &f.plain_customer.to_string())], &lines_json(&[(f.product, "1", "100")])).await;
    assert_eq!(act(&app, &s, id, "void", &[]).await.status, StatusCode::NO_CONTENT);
    assert_eq!(act(&app, &s, id, "approve", &[]).await.status, StatusCode::CONFLICT);
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(page.body.contains(">Voided</span>"));
    assert!(!page.body.contains(">Approve</button>") && !page.body.contains(">Void</button>"));
}

/// An approval writes the stock rows, the ledger and the lines' costs a few statements at a
/// time (issue 10); what it writes must be what one statement per line wrote.
#[tokio::test]
async fn approval_moves_each_line_once_keeps_costs_and_warns_once_per_negative_stock() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    let (other, other_cost, code, cost) = app
        .state
        .db
        .run(move |c| {
            let (other, other_cost) = products::table
                .filter(products::org_id.eq(4))
                .filter(products::id.ne(f.product))
                .filter(products::cost_price.gt(0))
                .filter(products::category.eq(1))
                .select((products::id, products::cost_price))
                .order(products::id.asc())
                .first::<(i64, i64)>(c)?;
            let (code, cost) = products::table.find(f.product).select((products::code, products::cost_price)).first::<(String, i64)>(c)?;
            Ok((other, other_cost, code, cost))
        })
        .await
        .unwrap();
    let (p0, o0) = (stock(&app, f.warehouse, f.product).await, stock(&app, f.warehouse, other).await);
    // The same product on two lines takes the stock below zero; the other stays above.
    let first = p0.max(0) + 1;
    let lines = json!([
        {"seq": 1, "productId": f.product, "quantity": first, "price": f.product_class_a},
        {"seq": 2, "productId": other, "quantity": 1, "price": 100_000},
        {"seq": 3, "productId": f.product, "quantity": 2, "price": f.product_class_a},
    ]);
    let res = app.post_json("/api/orders", &s, json!({"type": 1, "customerId": f.plain_customer, "warehouseId": f.warehouse, "lines": lines})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let left = p0 - first - 2;
    // Asked before, not after (issue 29): the confirmation names what would be left.
    let asked = app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({"warehouseId": f.warehouse})).await;
    assert_eq!(asked.status, StatusCode::CONFLICT, "{}", asked.body);
    let wh = warehouse_name(&app, f.warehouse).await;
    let shortfall = format!("Stock of {code} at {wh} would be {left} after approval.");
    assert!(asked.json()["reasons"].as_array().unwrap().iter().any(|r| r == shortfall.as_str()), "{}", asked.body);
    assert_eq!(stock(&app, f.warehouse, f.product).await, p0, "nothing moved before the confirmation");
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({"warehouseId": f.warehouse, "confirmed": true})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    let expected = if o0 - 1 < 0 { 2 } else { 1 };
    let warnings = ok.json()["warnings"].as_array().unwrap().clone();
    assert_eq!(warnings.len(), expected, "one warning per product and warehouse: {warnings:?}");
    assert!(warnings.iter().any(|w| w == shortfall.as_str()), "{warnings:?}");
    assert_eq!(stock(&app, f.warehouse, f.product).await, left);
    assert_eq!(stock(&app, f.warehouse, other).await, o0 - 1);
    let (moves, costs) = app
        .state
        .db
        .run(move |c| {
            let moves = stock_moves::table.filter(stock_moves::order_id.eq(id)).order(stock_moves::id).select((stock_moves::product_id, stock_moves::qty_delta, stock_moves::unit_cost)).load::<(i64, i64, i64)>(c)?;
            let costs = order_lines::table.filter(order_lines::order_id.eq(id)).order(order_lines::seq).select(order_lines::cost_price).load::<i64>(c)?;
            Ok((moves, costs))
        })
        .await
        .unwrap();
    // A tyre tracked by DOT writes its line as a row per lot it takes from (issue 36): the
    // rows of one line are adjacent and add up to it.
    let mut per_line: Vec<(i64, i64, i64)> = Vec::new();
    for (p, q, c) in moves {
        match per_line.last_mut() {
            Some(last) if last.0 == p && last.2 == c => last.1 += q,
            _ => per_line.push((p, q, c)),
        }
    }
    assert_eq!(per_line, vec![(f.product, -first, cost), (other, -1, other_cost), (f.product, -2, cost)], "the ledger rows of each line, at the product's cost");
    assert_eq!(costs, vec![cost, other_cost, cost], "each line keeps its product's cost");
    let un = app.post_json(&format!("/api/orders/{id}/unApprove"), &s, json!({})).await;
    assert_eq!(un.status, StatusCode::OK, "{}", un.body);
    assert_eq!((stock(&app, f.warehouse, f.product).await, stock(&app, f.warehouse, other).await), (p0, o0), "unapprove puts back exactly");
}

/// A purchase order's approval puts its lines in transit with the sheet's delivery date as
/// their ETA, also when a product is on two lines.
#[tokio::test]
async fn an_approved_purchase_order_puts_stock_in_transit_with_its_eta() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    let supplier: i64 = app.state.db.run(|c| Ok(suppliers::table.filter(suppliers::org_id.eq(4)).select(suppliers::id).order(suppliers::id).first(c)?)).await.unwrap();
    let transit = |app: &TestApp| {
        let db = app.state.db.clone();
        let (wh, p) = (f.warehouse, f.product);
        async move {
            db.run(move |c| Ok(stocks::table.filter(stocks::warehouse_id.eq(wh)).filter(stocks::product_id.eq(p)).select((stocks::in_transit, stocks::eta)).first::<(i64, Option<chrono::NaiveDate>)>(c).optional()?.unwrap_or((0, None))))
                .await
                .unwrap()
        }
    };
    let (t0, _) = transit(&app).await;
    let lines = json!([{"seq": 1, "productId": f.product, "quantity": 4, "price": 5_000}, {"seq": 2, "productId": f.product, "quantity": 3, "price": 5_000}]);
    let body = json!({"type": 3, "supplierId": supplier, "warehouseId": f.warehouse, "deliveryDate": "2031-05-06", "lines": lines});
    let res = app.post_json("/api/orders", &s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert_eq!(transit(&app).await, (t0 + 7, chrono::NaiveDate::from_ymd_opt(2031, 5, 6)));
}

#[tokio::test]
async fn transfers_move_stock_and_adjustments_set_the_count() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    let (a, b) = (stock(&app, f.warehouse, f.product).await, stock(&app, f.warehouse2, f.product).await);
    let id = create_form(&app, &s, "transfers", &[("warehouse_id", &f.warehouse.to_string()), ("in_warehouse_id", &f.warehouse2.to_string()), ("tax_type", "1")], &lines_json(&[(f.product, "5", "")])).await;
    assert_eq!(act(&app, &s, id, "approve", &[]).await.status, StatusCode::NO_CONTENT);
    assert_eq!(stock(&app, f.warehouse, f.product).await, a - 5);
    assert_eq!(stock(&app, f.warehouse2, f.product).await, b + 5);

    let now = stock(&app, f.warehouse, f.product).await;
    let lines = json!([{"key": "new_0", "productId": f.product, "qty": "", "price": "12.00", "inWarehouseQty": "40", "inSystemQty": now.to_string(), "taxType": 1, "description": ""}]).to_string();
    let adj = create_form(&app, &s, "adjustments", &[("warehouse_id", &f.warehouse.to_string()), ("tax_type", "1")], &lines).await;
    assert_eq!(act(&app, &s, adj, "approve", &[]).await.status, StatusCode::NO_CONTENT);
    assert_eq!(stock(&app, f.warehouse, f.product).await, 40, "the counted stock is what remains");
    let same = create_form(&app, &s, "transfers", &[("warehouse_id", &f.warehouse.to_string()), ("in_warehouse_id", &f.warehouse2.to_string())], &lines_json(&[(f.product, "1", "")])).await;
    assert!(same > 0);
    let refused = app.post_form("/order_add/transfers", &s, &[("date", "2026-11-20"), ("warehouse_id", &f.warehouse.to_string()), ("in_warehouse_id", &f.warehouse.to_string()), ("lines_json", &lines_json(&[(f.product, "1", "")]))]).await;
    assert!(refused.body.contains("The IN warehouse must differ from the OUT warehouse."));
}

#[tokio::test]
async fn concurrent_approvals_move_stock_once() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    let price = format!("{:.2}", f.product_class_a as f64 / 100.0);
    let id = create_form(&app, &s, "invoices", &[("customer_id", &f.plain_customer.to_string()), ("warehouse_id", &f.warehouse.to_string())], &lines_json(&[(f.product, "3", &price)])).await;
    let before = stock(&app, f.warehouse, f.product).await;
    let w = f.warehouse.to_string();
    let fields = [("warehouse_id", w.as_str())];
    let (r1, r2) = tokio::join!(act(&app, &s, id, "approve", &fields), act(&app, &s, id, "approve", &fields));
    let oks = [r1.status, r2.status].iter().filter(|s| **s == StatusCode::NO_CONTENT).count();
    assert_eq!(oks, 1, "exactly one approval wins ({} / {})", r1.status, r2.status);
    assert_eq!(stock(&app, f.warehouse, f.product).await, before - 3);
}

#[tokio::test]
async fn date_address_and_driver_edits_write_history() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("approver@demo.test").await;
    let price = format!("{:.2}", f.product_class_a as f64 / 100.0);
    let id = create_form(&app, &s, "invoices", &[("customer_id", &f.plain_customer.to_string()), ("warehouse_id", &f.warehouse.to_string())], &lines_json(&[(f.product, "1", &price)])).await;
    assert_eq!(act(&app, &s, id, "date", &[("date", "2026-11-21"), ("due_date", "2026-12-31"), ("delivery_date", "2026-11-22")]).await.status, StatusCode::NO_CONTENT);
    assert_eq!(act(&app, &s, id, "address", &[("address", "1 New St, Tempe NSW 2044"), ("phone", "02 9000 0000")]).await.status, StatusCode::NO_CONTENT);
    let drivers = app.get("/api/employees?role=6", Some(&s)).await.json();
    let driver = drivers["data"][0]["id"].as_i64().unwrap().to_string();
    assert_eq!(act(&app, &s, id, "driver", &[("driver_id", &driver)]).await.status, StatusCode::CONFLICT, "driver needs an approved sheet");
    act(&app, &s, id, "approve", &[("warehouse_id", &f.warehouse.to_string())]).await;
    assert_eq!(act(&app, &s, id, "driver", &[("driver_id", &driver)]).await.status, StatusCode::NO_CONTENT);
    let not_driver = app.get("/api/employees?role=2", Some(&s)).await.json()["data"][0]["id"].as_i64().unwrap().to_string();
    assert_eq!(act(&app, &s, id, "driver", &[("driver_id", &not_driver)]).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    let history = app.get(&format!("/api/orders/{id}/history"), Some(&s)).await.json();
    let actions: Vec<&str> = history["data"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions[..4], ["Created", "Dates edited", "Address edited", "Approved"]);
    assert!(actions[4].starts_with("Driver assigned: "));
    let o = app.get(&format!("/api/orders/{id}"), Some(&s)).await.json();
    assert_eq!(o["data"]["dueDate"], "2026-12-31");
    assert_eq!(o["data"]["phone"], "02 9000 0000");
}

#[tokio::test]
async fn prev_and_next_cross_types_and_stop_at_the_end() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let first = app.get("/api/orders?sort=2&per_page=20&type=1", Some(&s)).await.json()["data"][0]["id"].as_i64().unwrap();
    let next = app.get(&format!("/order_nav/{first}?dir=next"), Some(&s)).await;
    assert_eq!(next.status, StatusCode::SEE_OTHER);
    assert!(next.location().starts_with("/order_detail/"));
    let api = app.get(&format!("/api/order-next?id={first}&direction=next"), Some(&s)).await.json();
    assert!(api["data"]["id"].as_i64().unwrap() > first);
    let last = app.get("/api/orders?per_page=20", Some(&s)).await.json();
    let max = last["data"].as_array().unwrap().iter().map(|o| o["id"].as_i64().unwrap()).max().unwrap();
    let all_max = app.get(&format!("/api/order-next?id={max}&direction=next"), Some(&s)).await;
    if all_max.status == StatusCode::CONFLICT {
        assert_eq!(all_max.json()["message"], "No more data to load");
        let stop = app.get(&format!("/order_nav/{max}?dir=next"), Some(&s)).await;
        assert!(stop.location().ends_with("?nomore=1"));
        let page = app.get(stop.location(), Some(&s)).await;
        assert!(page.body.contains("No more data to load"));
    }
}

#[tokio::test]
async fn json_api_creates_approves_and_answers_409_with_reasons() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let body = json!({"type": 1, "customerId": f.cbd_customer, "warehouseId": f.warehouse, "lines": [{"seq": 1, "productId": f.product, "quantity": 1, "price": f.product_class_a}]});
    let res = app.post_json("/api/orders", &s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let refused = app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({"warehouseId": f.warehouse})).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let j = refused.json();
    assert_eq!(j["message"], "This is CBD (Cash Before Delivery) customer. Contact manager.");
    assert_eq!(j["reasons"][0], "This is CBD (Cash Before Delivery) customer.");
    let bad = app.post_json("/api/orders", &s, json!({"type": 1, "lines": []})).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.json()["errors"]["customer_id"], "Please enter");
    let other = app.session("multi@demo.test").await;
    app.post_form("/switch-org", &other, &[("org_id", "9")]).await;
    assert_eq!(app.get(&format!("/api/orders/{id}"), Some(&other)).await.status, StatusCode::NOT_FOUND, "another company's sheet");
    assert_eq!(app.get(&format!("/order_detail/invoices/{id}"), Some(&other)).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn clone_and_cart_prefill_new_sheets() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let id = create_form(&app, &s, "invoices", &[("customer_id", &f.plain_customer.to_string()), ("reference", "REF-CLONE")], &lines_json(&[(f.product, "7", "123.45")])).await;
    let clone = app.get(&format!("/order_add/invoices/clone?from={id}"), Some(&s)).await;
    assert_eq!(clone.status, StatusCode::OK);
    assert!(clone.body.contains("REF-CLONE"));
    assert!(clone.body.contains("123.45") && clone.body.contains("&#34;qty&#34;:&#34;7&#34;"), "lines prefilled");
    let cart = app.get(&format!("/order_add/invoices/addFromCart?items={}:4&csr={}", f.product, f.plain_customer), Some(&s)).await;
    assert!(cart.body.contains("&#34;qty&#34;:&#34;4&#34;"));
    assert!(cart.body.contains(&format!("name=\"customer_id\" value=\"{}\"", f.plain_customer)));
    let pending = app.get("/order_add/invoices/addFromCartAndClear", Some(&s)).await;
    assert!(pending.body.contains("data-cart-operation=\"addFromCartAndClear\""), "the browser hands over its cart");
}

#[tokio::test]
async fn line_import_is_all_or_nothing_with_row_numbers() {
    use rust_xlsxwriter::Workbook;
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let code: String = app.state.db.run(move |c| Ok(products::table.find(f.product).select(products::code).first(c)?)).await.unwrap();
    let make = |rows: &[(&str, &str, &str)]| {
        let mut wb = Workbook::new();
        let ws = wb.add_worksheet();
        for (i, h) in ["Item Code", "Qty", "Price", "Description"].iter().enumerate() {
            ws.write_string(0, i as u16, *h).unwrap();
        }
        for (r, (c, q, p)) in rows.iter().enumerate() {
            ws.write_string(r as u32 + 1, 0, *c).unwrap();
            ws.write_string(r as u32 + 1, 1, *q).unwrap();
            ws.write_string(r as u32 + 1, 2, *p).unwrap();
        }
        wb.save_to_buffer().unwrap()
    };
    let upload = |bytes: Vec<u8>| {
        let boundary = "XBOUNDARYX";
        let mut body = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"orderType\"\r\n\r\n1\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"lines.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n").into_bytes();
        body.extend(bytes);
        body.extend(format!("\r\n--{boundary}--\r\n").into_bytes());
        body
    };
    let good = app
        .request(axum::http::Method::POST, "/api/ag/lines", Some(upload(make(&[(&code, "2", "99.50"), (&code, "1", "")])).into()), Some("multipart/form-data; boundary=XBOUNDARYX"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)])
        .await;
    assert_eq!(good.status, StatusCode::OK, "{}", good.body);
    let rows = good.json()["data"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["price"], 9950);
    assert_eq!(rows[0]["amount"], 19900);
    let bad = app
        .request(axum::http::Method::POST, "/api/ag/lines", Some(upload(make(&[(&code, "2", "1"), ("NO-SUCH-CODE", "1", "1"), (&code, "-4", "1")])).into()), Some("multipart/form-data; boundary=XBOUNDARYX"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)])
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let msg = bad.json()["message"].as_str().unwrap().to_string();
    assert!(msg.contains("Row 3: unknown item code 'NO-SUCH-CODE'.") && msg.contains("Row 4:"), "{msg}");
    assert!(bad.json().get("data").is_none(), "nothing half-imported");
}

#[tokio::test]
async fn product_history_and_due_dates() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let h = app.get(&format!("/api/products/{}/history", f.product), Some(&s)).await.json();
    assert_eq!(h["product"]["classA"], f.product_class_a);
    assert!(h["data"].is_array());
    let due = app.get(&format!("/api/due-date?customerId={}&date=2026-11-20", f.plain_customer), Some(&s)).await;
    assert_eq!(due.status, StatusCode::OK);
    assert!(due.json()["dueDate"].as_str().unwrap() >= "2026-11-20");
}

#[tokio::test]
async fn api_sheets_without_a_due_date_take_the_customers_terms_as_the_form_does() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let customer = f.plain_customer;
    // 30-Days terms: due thirty days after the sheet's date.
    app.state.db.run(move |c| Ok(diesel::update(customers::table.find(customer)).set(customers::payment_type.eq(15)).execute(c)?)).await.unwrap();
    let create = |t: i32, due: Option<&'static str>| {
        let mut body = json!({"type": t, "customerId": customer, "warehouseId": f.warehouse, "date": "2026-11-20", "lines": [{"seq": 1, "productId": f.product, "quantity": 1, "price": f.product_class_a}]});
        if let Some(d) = due {
            body["dueDate"] = json!(d);
        }
        let (app, s) = (&app, &s);
        async move {
            let res = app.post_json("/api/orders", s, body).await;
            assert_eq!(res.status, StatusCode::OK, "{}", res.body);
            let id = res.json()["data"]["id"].as_i64().unwrap();
            app.get(&format!("/api/orders/{id}"), Some(s)).await.json()["data"]["dueDate"].clone()
        }
    };
    let form = app.get(&format!("/api/due-date?customerId={customer}&date=2026-11-20"), Some(&s)).await.json()["dueDate"].clone();
    assert_eq!(form, "2026-12-20", "what the sheet form fills in");
    assert_eq!(create(1, None).await, form, "an invoice without a due date");
    assert_eq!(create(2, None).await, form, "a credit note, as its form fills it too");
    assert_eq!(create(1, Some("2026-12-24")).await, "2026-12-24", "a given due date is kept");
}

async fn warehouse_name(app: &TestApp, id: i64) -> String {
    use db::schema::warehouses;
    app.state.db.run(move |c| Ok(warehouses::table.find(id).select(warehouses::name).first::<String>(c)?)).await.unwrap()
}

/// Issue 29: negative stock is shown where the decision is made — the approval's
/// confirmation, for every sheet that takes stock out, whoever approves — and only for
/// physical products (a virtual one holds no stock, before or after approval).
#[tokio::test]
async fn approving_stock_below_zero_asks_first_for_physical_products_only() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("service@demo.test").await;
    let virtual_product: i64 = app.state.db.run(|c| Ok(products::table.filter(products::org_id.eq(4)).filter(products::category.eq(4)).order(products::id).select(products::id).first(c)?)).await.unwrap();
    let on_hand = stock(&app, f.warehouse, f.product).await;
    let too_many = (on_hand.max(0) + 4).to_string();
    let (w, w2) = (f.warehouse.to_string(), f.warehouse2.to_string());
    // A transfer: no approval guard of its own, yet it is asked.
    let id = create_form(&app, &s, "transfers", &[("warehouse_id", &w), ("in_warehouse_id", &w2)], &lines_json(&[(f.product, &too_many, ""), (virtual_product, "500", "")])).await;
    let asked = act(&app, &s, id, "approve", &[]).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    assert!(asked.body.contains("Confirm Approve") && asked.body.contains("Approve now?"), "{}", asked.body);
    let wh = warehouse_name(&app, f.warehouse).await;
    let left = on_hand - (on_hand.max(0) + 4);
    assert!(asked.body.contains(&format!("at {wh} would be {left} after approval.")), "{}", asked.body);
    assert_eq!(asked.body.matches("would be").count(), 1, "the virtual product is never short: {}", asked.body);
    assert_eq!(stock(&app, f.warehouse, f.product).await, on_hand, "nothing moved yet");
    let done = act(&app, &s, id, "approve", &[("confirmed", "1")]).await;
    assert!(done.headers.contains_key("hx-redirect"), "{} {}", done.status, done.body);
    let page = app.get(&format!("/order_detail/transfers/{id}"), Some(&s)).await;
    assert_eq!(page.body.matches("Stock now").count(), 1, "the physical line only");
}
