//! Quoting lookup, cost visibility, OCOP prices (dialogs' API and import), price dialog.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::json;
use db::schema::{customers, ocop_prices, products};

use crate::support::{self, Session, TestApp};

#[tokio::test]
async fn quoting_waits_for_a_search_and_finds_sizes() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let first = app.get("/quotings", Some(&s)).await;
    assert_eq!(first.status, StatusCode::OK);
    assert!(first.body.contains("Enter Some Key Words to Search"));
    assert!(!first.body.contains("export-link"), "no Export on quoting");
    let found = app.get("/quotings?key=2055516", Some(&s)).await;
    assert!(found.body.contains("205/55R16"));
    assert!(found.body.contains(r#"class="btn small cart-add" type="button" disabled>Add</button>"#), "Add disabled at 0");
    assert!(found.body.contains(">CHK</button>"));
    let none = app.get("/quotings?key=zzzz-nothing", Some(&s)).await;
    assert!(none.body.contains("No Data"));
}

#[tokio::test]
async fn cost_and_tempe_are_hidden_from_sales_in_page_and_json() {
    let (app, sales) = TestApp::new().with_user("sales@demo.test").await;
    let page = app.get("/quotings?key=2055516", Some(&sales)).await;
    assert!(!page.body.contains(">COST</th>") && !page.body.contains(">Tempe</th>"));
    let json = app.get("/api/quotings?key=2055516", Some(&sales)).await.json();
    assert!(json["data"][0].get("costPrice").is_none() && json["data"][0].get("ref_pur").is_none());
    let approver = app.session("approver@demo.test").await;
    let page = app.get("/quotings?key=2055516", Some(&approver)).await;
    assert!(page.body.contains(">COST</th>") && page.body.contains(">Tempe</th>"));
    let seen_by_approver = app.get("/api/quotings?key=2055516", Some(&approver)).await.json();
    assert!(seen_by_approver["data"][0]["costPrice"].is_i64());
    // The same first row whole, as each sees it: the approver's has costPrice and ref_pur, and
    // nothing else differs.
    let first = |list: &serde_json::Value| list["data"][0].clone();
    assert_eq!(first(&json)["id"], first(&seen_by_approver)["id"], "the same product");
    insta::assert_json_snapshot!("quoting_row_seen_by_sales", first(&json), { ".id" => support::row_id() });
    insta::assert_json_snapshot!("quoting_row_seen_by_an_approver", first(&seen_by_approver), { ".id" => support::row_id() });
}

#[tokio::test]
async fn stock_availability_and_warehouse_filters() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let out = app.get("/api/quotings?stock=2&per_page=150", Some(&s)).await.json();
    assert!(out["meta"]["total"].as_i64().unwrap() > 0);
    assert!(out["data"].as_array().unwrap().iter().all(|r| r["stock"].as_i64().unwrap() <= 0));
    let in_stock = app.get("/api/quotings?stock=1&key=2055516", Some(&s)).await.json();
    assert!(in_stock["data"].as_array().unwrap().iter().all(|r| r["stock"].as_i64().unwrap() > 0));
    let five = app.get("/api/quotings?stock=3&key=r16&per_page=150", Some(&s)).await.json();
    assert!(five["data"].as_array().unwrap().iter().all(|r| r["stock"].as_i64().unwrap() <= 5));
    let wh = app.get("/api/warehouses", Some(&s)).await.json()["data"][0]["id"].as_i64().unwrap();
    let by_wh = app.get(&format!("/api/quotings?key=2055516&warehouse={wh}"), Some(&s)).await.json();
    for r in by_wh["data"].as_array().unwrap() {
        let at: i64 = r["stocks"].as_array().unwrap().iter().filter(|w| w["warehouse_id"] == wh).map(|w| w["on_hand"].as_i64().unwrap()).sum();
        assert_eq!(r["stock"].as_i64().unwrap(), at, "stock is the chosen warehouse's");
    }
}

async fn ocop_pair(app: &TestApp) -> (i64, i64, i64) {
    app.state
        .db
        .run(|c| Ok(ocop_prices::table.filter(ocop_prices::org_id.eq(4)).select((ocop_prices::customer_id, ocop_prices::product_id, ocop_prices::price)).first::<(i64, i64, i64)>(c)?))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_customers_ocop_price_is_offered_for_that_customer() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (customer, product, price) = ocop_pair(&app).await;
    let strategy: i32 = app.state.db.run(move |c| Ok(customers::table.find(customer).select(customers::price_strategy).first(c)?)).await.unwrap();
    let hit = app.get(&format!("/api/products?ids={product}&customerId={customer}"), Some(&s)).await.json();
    let prices = hit["data"][0]["prices"].as_array().unwrap();
    assert!(prices.iter().any(|p| p["label"] == "OCOP" && p["price"] == price));
    if strategy == 6 {
        assert_eq!(hit["data"][0]["unitPrice"], price, "OCOP/VIP customers pay their OCOP price");
    }
    let plain = app.get(&format!("/api/products?ids={product}"), Some(&s)).await.json();
    assert!(!plain["data"][0]["prices"].as_array().unwrap().iter().any(|p| p["label"] == "OCOP"));
    let chk = app.get(&format!("/quotings/history/{product}?csr={customer}"), Some(&s)).await;
    assert!(chk.body.contains("Price History") && chk.body.contains("OCOP"));
}

#[tokio::test]
async fn ocop_list_and_dialog_api_read_and_write() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let page = app.get("/ocops", Some(&s)).await;
    assert!(page.body.contains("Enter or Select Filters to Search"));
    assert!(page.body.contains("Import Data"));
    let with = app.get("/ocops?with_ocop=yes", Some(&s)).await;
    assert!(with.body.contains(r#"data-action="open-ocop""#));
    let (customer, product, _) = ocop_pair(&app).await;
    let got = app.get(&format!("/api/ocops/{product}"), Some(&s)).await.json();
    assert!(got["data"]["csrs"].as_array().unwrap().iter().any(|c| c["id"] == customer));
    let other: i64 = app.state.db.run(move |c| Ok(customers::table.filter(customers::org_id.eq(4)).filter(customers::id.ne(customer)).select(customers::id).first(c)?)).await.unwrap();
    let put = app.request(
        axum::http::Method::PUT,
        &format!("/api/ocops/{product}"),
        Some(json!({"prices": [{"id": other, "price": 12345}]}).to_string().into()),
        Some("application/json"),
        &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)],
    ).await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.body);
    let got = app.get(&format!("/api/ocops/{product}"), Some(&s)).await.json();
    let csrs = got["data"]["csrs"].as_array().unwrap();
    assert_eq!(csrs.len(), 1, "the list replaces the old one");
    assert_eq!(csrs[0]["price"], 12345);
    let mine = app.get(&format!("/api/ocops?customerId={other}"), Some(&s)).await.json();
    assert!(mine["data"].as_array().unwrap().iter().any(|p| p["id"] == product && p["price"] == 12345));
    let neg = app.request(axum::http::Method::PUT, &format!("/api/ocops/{product}"), Some(json!({"prices": [{"id": other, "price": -1}]}).to_string().into()), Some("application/json"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)]).await;
    assert_eq!(neg.status, StatusCode::UNPROCESSABLE_ENTITY);
}

fn xlsx(rows: &[(&str, &str, &str)]) -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    for (i, h) in ["Item Code", "Customer Code", "Price"].iter().enumerate() {
        ws.write_string(0, i as u16, *h).unwrap();
    }
    for (r, (a, b, c)) in rows.iter().enumerate() {
        ws.write_string(r as u32 + 1, 0, *a).unwrap();
        ws.write_string(r as u32 + 1, 1, *b).unwrap();
        ws.write_string(r as u32 + 1, 2, *c).unwrap();
    }
    wb.save_to_buffer().unwrap()
}

async fn upload(app: &TestApp, s: &Session, path: &str, bytes: Vec<u8>) -> crate::support::TestResponse {
    let mut body = b"--B0UND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"o.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    body.extend(bytes);
    body.extend(b"\r\n--B0UND--\r\n");
    app.request(axum::http::Method::POST, path, Some(body.into()), Some("multipart/form-data; boundary=B0UND"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)]).await
}

#[tokio::test]
async fn ocop_import_applies_all_rows_or_none() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let (pcode, ccode, cid, pid): (String, String, i64, i64) = app
        .state
        .db
        .run(|c| {
            let (pid, pcode): (i64, String) = products::table.filter(products::org_id.eq(4)).select((products::id, products::code)).order(products::id.desc()).first(c)?;
            let (cid, ccode): (i64, String) = customers::table.filter(customers::org_id.eq(4)).select((customers::id, customers::code)).order(customers::id.desc()).first(c)?;
            Ok((pcode, ccode, cid, pid))
        })
        .await
        .unwrap();
    let bad = upload(&app, &s, "/api/ag/ocops", xlsx(&[(&pcode, &ccode, "55.00"), ("NOPE", &ccode, "1"), (&pcode, &ccode, "-3")])).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let msg = bad.json()["message"].as_str().unwrap().to_string();
    assert!(msg.contains("Row 3: unknown item code 'NOPE'.") && msg.contains("Row 4:"), "{msg}");
    let mine = app.get(&format!("/api/ocops?customerId={cid}&per_page=150"), Some(&s)).await.json();
    assert!(!mine["data"].as_array().unwrap().iter().any(|p| p["id"] == pid && p["price"] == 5500), "nothing applied");
    let good = upload(&app, &s, "/api/ag/ocops", xlsx(&[(&pcode, &ccode, "55.00")])).await;
    assert_eq!(good.status, StatusCode::OK, "{}", good.body);
    assert_eq!(good.json()["message"], "Operation Success");
    let mine = app.get(&format!("/api/ocops?customerId={cid}&per_page=150"), Some(&s)).await.json();
    assert!(mine["data"].as_array().unwrap().iter().any(|p| p["id"] == pid && p["price"] == 5500));
}

#[tokio::test]
async fn price_dialog_rules_permission_and_history() {
    let app = TestApp::new().await;
    let product = app.get("/api/products?per_page=20", Some(&app.session("sales@demo.test").await)).await.json()["data"][0]["id"].as_i64().unwrap();
    let body = |is_special: bool, special: i64| json!({"standardPrice": 20000, "specialPrice": special, "classAPrice": 18000, "classBPrice": null, "ref_pur": 12000, "is_special": is_special, "is_clearance": false, "is_customer_show": true});
    let sales = app.session("sales@demo.test").await;
    let refused = app.post_json(&format!("/api/products/{product}/price"), &sales, body(false, 0)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(refused.json()["message"], "Sorry, no permission to modify the prices.");
    let approver = app.session("approver@demo.test").await;
    let r = app.post_json(&format!("/api/products/{product}/price"), &approver, body(true, 0)).await;
    assert_eq!(r.json()["message"], "When \"Special or not\" is YES, \"Monthly Special\" price CANNOT be 0");
    let r = app.post_json(&format!("/api/products/{product}/price"), &approver, body(false, 500)).await;
    assert_eq!(r.json()["message"], "When the \"Monthly Special\" price is set, \"Special or not\" MUST be YES");
    let ok = app.post_json(&format!("/api/products/{product}/price"), &approver, body(true, 15000)).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    let p = app.get(&format!("/api/products/{product}"), Some(&approver)).await.json();
    assert_eq!((p["data"]["classAPrice"].as_i64(), p["data"]["specialPrice"].as_i64()), (Some(18000), Some(15000)));
    let b = app.get(&format!("/api/products?ids={product}"), Some(&approver)).await.json();
    assert!(b["data"][0]["prices"].as_array().unwrap().iter().any(|x| x["label"] == "B" && x["price"] == 18900), "B derives +5% from A");
    let changes = app.get(&format!("/api/products/{product}/price-changes"), Some(&approver)).await.json();
    assert_eq!(changes["data"][0]["operator"], "Alex Approver");
    assert_eq!(changes["data"].as_array().unwrap().len(), 1, "refused attempts leave no history");
}

#[tokio::test]
async fn the_monthly_special_column_shows_only_when_a_row_has_one() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let code: String = app
        .state
        .db
        .run(|c| Ok(products::table.filter(products::org_id.eq(4)).filter(products::is_special.eq(false)).filter(products::code.like("%2055516%")).select(products::code).first(c)?))
        .await
        .unwrap();
    let plain = app.get(&format!("/quotings?key={code}"), Some(&s)).await;
    assert!(plain.body.contains(&format!(r#"data-code="{code}""#)), "found {code}");
    assert!(!plain.body.contains(">M.Special</th>"), "no empty M.Special column");
    let target = code.clone();
    app.state
        .db
        .run(move |c| Ok(diesel::update(products::table.filter(products::org_id.eq(4)).filter(products::code.eq(&target))).set((products::is_special.eq(true), products::special_price.eq(12_345))).execute(c)?))
        .await
        .unwrap();
    let special = app.get(&format!("/quotings?key={code}"), Some(&s)).await;
    assert!(special.body.contains(">M.Special</th>") && special.body.contains(">123.45</td>"));
    // Codes and names are shown whole, never cut (issue 32: names wrap).
    assert!(special.body.contains(&format!(r#"<td class="code">{code}</td><td class="name">"#)));
    assert!(!special.body.contains(r#"class="clip"#), "nothing is cut");
}
