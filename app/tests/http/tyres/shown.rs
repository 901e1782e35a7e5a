//! Tyres by DOT date where they are sold and counted (issue 36): the quoting stock dropdown
//! lists a tyre's lots with their ages; the shop shows the years of manufacture in stock
//! (with the company's setting, never a quantity); the company's DOT settings; the product's
//! 'Tracked by DOT' keeping stock equal to the sum of its lots; the customer's 'Accepts old
//! tyres'; and the line editor's DOT cell and lots on a saved sheet.

use std::collections::HashMap;

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::{Value, json};

use db::schema::{audit_log, customers, organisations, products, stock_lots, stocks, suppliers, warehouses};

use crate::shop::{SHOP, shown_and_hidden, signed_in};
use super::{ORG, approved, empty_tyre};
use crate::support::{Session, TestApp, between, extract_input};

/// The company's today, as the pages age tyres.
fn today() -> chrono::NaiveDate {
    domain::dates::today(domain::dates::DEFAULT_ZONE)
}

fn age(code: &str) -> String {
    domain::dot::Dot::parse(code, today()).unwrap().age_label(today())
}

struct Fixture {
    supplier: i64,
    warehouse: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            let supplier = suppliers::table.filter(suppliers::org_id.eq(ORG)).order(suppliers::id.asc()).select(suppliers::id).first(c)?;
            let warehouse = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).order(warehouses::id.asc()).select(warehouses::id).first(c)?;
            Ok(Fixture { supplier, warehouse })
        })
        .await
        .unwrap()
}

/// A bill of product `p` in lots `(code, qty)`, approved through the JSON API.
async fn bought(app: &TestApp, s: &Session, f: &Fixture, p: i64, lots: &[(&str, i64)]) -> i64 {
    let lines: Vec<Value> = lots.iter().enumerate().map(|(i, (dot, qty))| json!({"seq": i + 1, "productId": p, "quantity": qty, "price": 10_000, "dot": dot})).collect();
    approved(app, s, json!({"type": 4, "supplierId": f.supplier, "warehouseId": f.warehouse, "taxType": 1, "lines": lines})).await
}

/// A physical product of the company that is not tracked by DOT.
async fn untracked(app: &TestApp) -> i64 {
    app.state
        .db
        .run(|c| Ok(products::table.filter(products::org_id.eq(ORG)).filter(products::category.eq(1)).filter(products::dot_tracked.eq(false)).order(products::id.asc()).select(products::id).first(c)?))
        .await
        .unwrap()
}

async fn a_tyre(app: &TestApp) -> i64 {
    app.state
        .db
        .run(|c| Ok(products::table.filter(products::org_id.eq(ORG)).filter(products::category.eq(1)).filter(products::dot_tracked.eq(true)).order(products::id.asc()).select(products::id).first(c)?))
        .await
        .unwrap()
}

/// Per warehouse: the `stocks` row's on hand and the sum of the product's lots.
async fn stock_and_lots(app: &TestApp, p: i64) -> (HashMap<i64, i64>, HashMap<i64, i64>) {
    app.state
        .db
        .run(move |c| {
            let stock: Vec<(i64, i64)> = stocks::table.filter(stocks::product_id.eq(p)).filter(stocks::on_hand.ne(0)).select((stocks::warehouse_id, stocks::on_hand)).load(c)?;
            let lots: Vec<(i64, i64)> = stock_lots::table.filter(stock_lots::product_id.eq(p)).select((stock_lots::warehouse_id, stock_lots::on_hand)).load(c)?;
            let mut summed = HashMap::new();
            for (w, q) in lots {
                *summed.entry(w).or_insert(0) += q;
            }
            summed.retain(|_, q| *q != 0);
            Ok((stock.into_iter().collect(), summed))
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn the_quoting_stock_dropdown_lists_a_tyres_lots_oldest_first_with_their_ages() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let tyre = a_tyre(&app).await;
    empty_tyre(&app, tyre).await;
    bought(&app, &s, &f, tyre, &[("0125", 4), ("2323", 2)]).await;
    let coming = app.get(&format!("/quotings/coming/{tyre}"), Some(&s)).await;
    assert_eq!(coming.status, StatusCode::OK);
    let lots = between(&coming.body, "By DOT date", "</table>");
    let (old, new) = (lots.find("2323").expect("the older lot"), lots.find("0125").expect("the newer lot"));
    assert!(old < new, "oldest first: {lots}");
    for shown in [format!("<td>{}</td>", age("2323")), format!("<td>{}</td>", age("0125")), ">2<".into(), ">4<".into()] {
        assert!(lots.contains(&shown), "{shown} in {lots}");
    }
    assert!(!lots.contains("$") && !lots.contains("100.00"), "quantities only, never cost: {lots}");
    // A product not tracked by DOT has no such section; another company sees none of it.
    let plain = untracked(&app).await;
    assert!(!app.get(&format!("/quotings/coming/{plain}"), Some(&s)).await.body.contains("By DOT date"));
    let other = app.session_in("approver@demo.test", 9).await;
    assert!(!app.get(&format!("/quotings/coming/{tyre}"), Some(&other)).await.body.contains("By DOT date"));
}

#[tokio::test]
async fn the_line_editor_shows_a_tracked_lines_dot_and_the_warehouses_lots() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let tyre = a_tyre(&app).await;
    empty_tyre(&app, tyre).await;
    bought(&app, &s, &f, tyre, &[("0125", 4), ("2323", 2)]).await;
    // A draft invoice picking the newer code: its edit page shows the line's code and the lots.
    let customer: i64 = app.state.db.run(|c| Ok(customers::table.filter(customers::org_id.eq(ORG)).order(customers::id.asc()).select(customers::id).first(c)?)).await.unwrap();
    let body = json!({"type": 1, "customerId": customer, "warehouseId": f.warehouse, "taxType": 3, "lines": [{"seq": 1, "productId": tyre, "quantity": 1, "price": 20_000, "dot": "0125"}]});
    let res = app.post_json("/api/orders", &s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let invoice = res.json()["data"]["id"].as_i64().or_else(|| res.json()["id"].as_i64()).expect("an id");
    let page = app.get(&format!("/order_edit/invoices/{invoice}"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("aria-label=\"DOT line 1\"") && page.body.contains("value=\"0125\""), "the line's DOT cell with its code");
    // The island's props and its server-rendered rows carry the code and the lots.
    assert!(page.body.contains("&#34;dotTracked&#34;:true") || page.body.contains("&quot;dotTracked&quot;:true"), "tracked: {}", page.body.len());
    assert!(page.body.contains(&format!("2323 · {} · 2 in stock", age("2323"))), "the lots with their ages");
    let lots = app.get(&format!("/api/products/{tyre}/lots?warehouseId={}", f.warehouse), Some(&s)).await;
    assert_eq!(lots.status, StatusCode::OK);
    assert_eq!(lots.json()["data"], json!([{"dot": "2323", "age": age("2323"), "qty": 2}, {"dot": "0125", "age": age("0125"), "qty": 4}]));
    let other = app.session_in("approver@demo.test", 9).await;
    assert_eq!(app.get(&format!("/api/products/{tyre}/lots"), Some(&other)).await.status, StatusCode::NOT_FOUND);
    // A bad code comes back on the line's DOT cell.
    let form = app.get("/order_add/bills", Some(&s)).await;
    assert_eq!(form.status, StatusCode::OK);
    let lines = json!([{"key": "new_1", "productId": tyre, "qty": "1", "price": "10", "taxType": 1, "dot": "5425"}]).to_string();
    let (sup, wh) = (f.supplier.to_string(), f.warehouse.to_string());
    let res = app.post_form("/order_add/bills", &s, &[("supplier_id", &sup), ("warehouse_id", &wh), ("tax_type", "1"), ("date", &today().to_string()), ("lines_json", &lines)]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("lines.0.dot"), "the message is keyed to the cell");
    assert!(res.body.contains("aria-label=\"DOT line 1\""), "the DOT cell is drawn on the server");
}

/// Sets the company's `shop_shows_dot`.
async fn shop_shows_dot(app: &TestApp, on: bool) {
    app.state.db.write(move |c| Ok(diesel::update(organisations::table.find(ORG)).set(organisations::shop_shows_dot.eq(on)).execute(c)?)).await.unwrap();
}

#[tokio::test]
async fn the_shop_shows_the_dot_years_with_the_setting_on_and_never_a_quantity() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let ((tyre, code), _) = shown_and_hidden(&app).await;
    empty_tyre(&app, tyre).await;
    bought(&app, &s, &f, tyre, &[("0125", 3), ("1025", 2)]).await;
    let customer = signed_in(&app, SHOP, "tyredesk").await;
    let list = format!("/shop?key={code}");
    let product = format!("/shop/products/{tyre}");
    for path in [&list, &product] {
        assert!(!app.get(path, Some(&customer)).await.body.contains("DOT 2025"), "off by default: {path}");
    }
    shop_shows_dot(&app, true).await;
    for path in [&list, &product] {
        let body = app.get(path, Some(&customer)).await.body;
        assert!(body.contains("<span class=\"dot-years muted small\">DOT 2025</span>"), "the years only, never a quantity: {path}");
    }
    // An older lot widens the range; unknown stock from before tracking is not shown.
    bought(&app, &s, &f, tyre, &[("4823", 1)]).await;
    let body = app.get(&product, Some(&customer)).await.body;
    assert!(body.contains("<span class=\"dot-years muted small\">DOT 2023–2025</span>"), "the range of years in stock");
    // The shop's JSON API says the same.
    let bearer = crate::shop::token(&app, SHOP).await.json()["access_token"].as_str().unwrap().to_string();
    let listed = app.get_bearer(&format!("/api/shop/products?key={code}"), &bearer, None).await.json();
    assert_eq!(listed["data"][0]["dotYears"], json!("DOT 2023–2025"));
    shop_shows_dot(&app, false).await;
    assert!(!app.get(&product, Some(&customer)).await.body.contains("dot-years"), "off again");
    let listed = app.get_bearer(&format!("/api/shop/products?key={code}"), &bearer, None).await.json();
    assert!(listed["data"][0].get("dotYears").is_none(), "absent with the setting off");
}

/// The company's DOT settings as stored.
async fn stored(app: &TestApp) -> AppResultOf<(bool, bool, Option<i32>)> {
    app.state.db.run(|c| Ok(organisations::table.find(ORG).select((organisations::dot_on_documents, organisations::shop_shows_dot, organisations::old_tyre_years)).first(c)?)).await
}

type AppResultOf<T> = db::error::AppResult<T>;

#[tokio::test]
async fn the_dot_settings_are_checked_saved_and_audited() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let page = app.get("/settings", Some(&s)).await;
    assert!(page.body.contains("Print DOT codes on tax invoices and delivery dockets"));
    assert!(page.body.contains("Show DOT year in the shop"));
    assert_eq!(extract_input(&page.body, "old_tyre_years"), "");
    let names = ["name", "abn", "addressLine1", "addressLine2", "phone", "email", "website", "bankAccountName", "bsb", "bankAccount", "department_id", "tier_b", "tier_c", "tier_d", "tier_e", "time_zone", "quotation_valid_days", "version"];
    let form = |years: &str, ticked: &[&str]| -> Vec<(String, String)> {
        let mut f: Vec<(String, String)> = names.iter().map(|n| (n.to_string(), extract_input(&page.body, n))).collect();
        f.push(("old_tyre_years".into(), years.into()));
        f.extend(ticked.iter().map(|t| (t.to_string(), "1".to_string())));
        f
    };
    let post = |f: Vec<(String, String)>| {
        let (app, s) = (&app, &s);
        async move {
            let refs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            app.post_form("/settings", s, &refs).await
        }
    };
    for bad in ["0", "21", "two"] {
        let res = post(form(bad, &["shop_shows_dot"])).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert!(res.body.contains(domain::admin::OLD_TYRE_YEARS_RANGE), "{bad}");
        assert!(res.body.contains(&format!("value=\"{bad}\"")), "what was typed stays: {bad}");
    }
    assert_eq!(stored(&app).await.unwrap(), (false, false, None), "a refused save changes nothing");
    let ok = post(form("5", &["dot_on_documents", "shop_shows_dot"])).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    assert_eq!(stored(&app).await.unwrap(), (true, true, Some(5)));
    let again = app.get("/settings", Some(&s)).await;
    for change in ["Old-tyre rule (years): off → 5", "DOT codes on documents: no → yes", "DOT year in the shop: no → yes"] {
        assert!(again.body.contains(change), "audited: {change}");
    }
    assert!(again.body.contains("name=\"shop_shows_dot\" value=\"1\" type=\"checkbox\" checked"), "ticked again on the page");
    assert_eq!(extract_input(&again.body, "old_tyre_years"), "5");
    // Unticked and emptied: off.
    let version = extract_input(&again.body, "version");
    let mut off = form("", &[]);
    off.iter_mut().filter(|(k, _)| k == "version").for_each(|(_, v)| *v = version.clone());
    assert_eq!(post(off).await.status, StatusCode::SEE_OTHER);
    assert_eq!(stored(&app).await.unwrap(), (false, false, None));
    // Only an approver changes them.
    let sales = app.session("sales@demo.test").await;
    assert_eq!(app.post_form("/settings", &sales, &[("old_tyre_years", "3")]).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn tracking_a_product_by_dot_keeps_its_stock_equal_to_the_sum_of_its_lots() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let plain = untracked(&app).await;
    let warehouses_: Vec<i64> = app.state.db.run(|c| Ok(warehouses::table.filter(warehouses::org_id.eq(ORG)).order(warehouses::id.asc()).select(warehouses::id).limit(2).load(c)?)).await.unwrap();
    // Stock in two warehouses, none of it in lots yet.
    app.state
        .db
        .write(move |c| {
            diesel::delete(stocks::table.filter(stocks::product_id.eq(plain))).execute(c)?;
            for (w, q) in warehouses_.iter().zip([7_i64, 3]) {
                diesel::insert_into(stocks::table).values((stocks::org_id.eq(ORG), stocks::warehouse_id.eq(*w), stocks::product_id.eq(plain), stocks::on_hand.eq(q), stocks::updated_at.eq(db::now()))).execute(c)?;
            }
            Ok(())
        })
        .await
        .unwrap();
    let (stock, lots) = stock_and_lots(&app, plain).await;
    assert_eq!(stock.values().sum::<i64>(), 10);
    assert!(lots.is_empty());

    let mut p = app.get(&format!("/api/products/{plain}"), Some(&s)).await.json()["data"].clone();
    assert_eq!(p["dotTracked"], json!(false));
    p["dotTracked"] = json!(true);
    let res = app.put_json(&format!("/api/products/{plain}"), &s, p.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["data"]["dotTracked"], json!(true));
    let (stock, lots) = stock_and_lots(&app, plain).await;
    assert_eq!(stock, lots, "each warehouse's stock is its lots' sum");
    let unknown: Vec<i32> = app.state.db.run(move |c| Ok(stock_lots::table.filter(stock_lots::product_id.eq(plain)).select(stock_lots::dot).load(c)?)).await.unwrap();
    assert!(unknown.iter().all(|d| *d == domain::dot::UNKNOWN), "its stock is of unknown code until counted");
    let audited: Vec<String> = app
        .state
        .db
        .run(move |c| Ok(audit_log::table.filter(audit_log::entity.eq("product")).filter(audit_log::entity_id.eq(plain)).select(audit_log::detail).load(c)?))
        .await
        .unwrap();
    assert_eq!(audited, vec!["Tracked by DOT: no → yes".to_string()]);

    // Off again (through the product form): the lots are forgotten, the stock stays.
    let form = app.get(&format!("/baseinfo/products/{plain}"), Some(&s)).await;
    assert!(form.body.contains("Tracked by DOT"));
    let version = res.json()["data"]["version"].as_i64().unwrap().to_string();
    p["dotTracked"] = json!(false);
    p["version"] = json!(version.parse::<i64>().unwrap());
    assert_eq!(app.put_json(&format!("/api/products/{plain}"), &s, p).await.status, StatusCode::OK);
    let (stock, lots) = stock_and_lots(&app, plain).await;
    assert_eq!(stock.values().sum::<i64>(), 10, "the stock is untouched");
    assert!(lots.is_empty(), "no lots for a product not tracked");

    // A new physical tyre is tracked unless told; a new non-tyre is not.
    let brand: i64 = app.state.db.run(|c| Ok(products::table.filter(products::org_id.eq(ORG)).filter(products::brand_id.is_not_null()).select(products::brand_id.assume_not_null()).first(c)?)).await.unwrap();
    let new = |code: &str, tag1: &str| json!({"code": code, "helperCode": "2256517", "name": format!("{code} test"), "unit": "EA", "tag1": tag1, "brand": brand, "material": 1});
    let tyre = app.post_json("/api/products", &s, new("DOT-T1", "PCR tyres")).await;
    assert_eq!(tyre.status, StatusCode::CREATED, "{}", tyre.body);
    assert_eq!(tyre.json()["data"]["dotTracked"], json!(true));
    let part = app.post_json("/api/products", &s, new("DOT-P1", "Autoparts")).await;
    assert_eq!(part.json()["data"]["dotTracked"], json!(false));
    let mut told = new("DOT-T2", "PCR tyres");
    told["dotTracked"] = json!(false);
    assert_eq!(app.post_json("/api/products", &s, told).await.json()["data"]["dotTracked"], json!(false));
}

#[tokio::test]
async fn a_customers_accepts_old_tyres_saves() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let id: i64 = app.state.db.run(|c| Ok(customers::table.filter(customers::org_id.eq(ORG)).order(customers::id.asc()).select(customers::id).first(c)?)).await.unwrap();
    let form = app.get(&format!("/baseinfo/customers/{id}"), Some(&s)).await;
    assert!(form.body.contains("Accepts old tyres"));
    let mut c = app.get(&format!("/api/customers/{id}"), Some(&s)).await.json()["data"].clone();
    assert_eq!(c["acceptsOldTyres"], json!(false));
    c["acceptsOldTyres"] = json!(true);
    let res = app.put_json(&format!("/api/customers/{id}"), &s, c).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["data"]["acceptsOldTyres"], json!(true));
    let stored: bool = app.state.db.run(move |c| Ok(customers::table.find(id).select(customers::accepts_old_tyres).first(c)?)).await.unwrap();
    assert!(stored);
}
