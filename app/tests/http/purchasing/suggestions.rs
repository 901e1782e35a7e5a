//! Purchase suggestions (issue 35): the sales of a product in a warehouse make the proposed
//! levels and the quantity shown; entered levels override them; ticked rows become one draft
//! purchase order per preferred supplier at the last price paid, all or nothing; approvers
//! and buyers only; no cost or price on the screen.

use axum::http::StatusCode;
use chrono::{Duration, Utc};
use diesel::prelude::*;
use serde_json::json;

use crate::support::{Session, TestApp};
use db::schema::{brands, customers, memberships, order_lines, orders, products, suppliers, users, warehouses};

const ORG: i64 = 4;

struct Fixture {
    warehouse: i64,
    customer: i64,
    /// (id, name): the first with no lead time (4 weeks assumed), the second with 14 days.
    s1: (i64, String),
    s2: (i64, String),
    brand: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            let warehouse = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            let customer = customers::table.filter(customers::org_id.eq(ORG)).filter(customers::payment_type.ne(10)).select(customers::id).order(customers::id.asc()).first(c)?;
            let sups: Vec<(i64, String)> = suppliers::table.filter(suppliers::org_id.eq(ORG)).select((suppliers::id, suppliers::name)).order(suppliers::id.asc()).limit(2).load(c)?;
            diesel::update(suppliers::table.find(sups[0].0)).set(suppliers::lead_time_days.eq(None::<i32>)).execute(c)?;
            diesel::update(suppliers::table.find(sups[1].0)).set(suppliers::lead_time_days.eq(Some(14))).execute(c)?;
            let brand = brands::table.filter(brands::org_id.eq(ORG)).select(brands::id).order(brands::id.asc()).first(c)?;
            Ok(Fixture { warehouse, customer, s1: sups[0].clone(), s2: sups[1].clone(), brand })
        })
        .await
        .unwrap()
}

/// A new product of the company (through the API) whose preferred supplier is `supplier`.
async fn product(app: &TestApp, s: &Session, f: &Fixture, code: &str, supplier: i64) -> i64 {
    let body = json!({"code": code, "helperCode": code, "name": format!("{code} suggestion tyre"), "unit": "EA", "tag1": "PCR tyres", "brand": f.brand, "material": 1, "preferredSupplierId": supplier, "supplierCode": format!("SUP-{code}")});
    let res = app.post_json("/api/products", s, body).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let p = res.json()["data"].clone();
    assert_eq!((p["preferredSupplierId"].as_i64(), p["supplierCode"].as_str()), (Some(supplier), Some(format!("SUP-{code}").as_str())));
    p["id"].as_i64().unwrap()
}

/// A sheet through the API, approved into `warehouse`: its id.
async fn approved(app: &TestApp, s: &Session, body: serde_json::Value, warehouse: i64) -> i64 {
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"warehouseId": warehouse, "confirmed": true})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    id
}

fn days_ago(n: i64) -> String {
    (Utc::now().date_naive() - Duration::days(n)).format("%Y-%m-%d").to_string()
}

/// Draft purchase orders of the company: (id, supplier, warehouse, [(product, qty, price)]).
async fn draft_pos(app: &TestApp) -> Vec<(i64, Option<i64>, Option<i64>, Vec<(Option<i64>, i64, i64)>)> {
    app.state
        .db
        .run(|c| {
            let heads: Vec<(i64, Option<i64>, Option<i64>)> = orders::table
                .filter(orders::org_id.eq(ORG))
                .filter(orders::order_type.eq(3))
                .filter(orders::status.eq(1))
                .order(orders::id.asc())
                .select((orders::id, orders::supplier_id, orders::warehouse_id))
                .load(c)?;
            let mut out = Vec::new();
            for (id, s, w) in heads {
                let lines = order_lines::table.filter(order_lines::order_id.eq(id)).order(order_lines::seq.asc()).select((order_lines::product_id, order_lines::quantity, order_lines::price)).load(c)?;
                out.push((id, s, w, lines));
            }
            Ok(out)
        })
        .await
        .unwrap()
}

/// The screen's row of a product code (its `<tr>`), or "" when it is not listed.
fn row<'a>(html: &'a str, code: &str) -> &'a str {
    let marker = format!("<td>{code}</td>");
    let Some(at) = html.find(&marker) else { return "" };
    let start = html[..at].rfind("<tr").unwrap_or(0);
    let end = html[at..].find("</tr>").map_or(html.len(), |e| at + e);
    &html[start..end]
}

/// The row of `code` on whichever page of the screen at `path` lists it ("" when none does).
async fn row_on_any_page(app: &TestApp, s: &Session, path: &str, code: &str) -> String {
    for page in 1..=200 {
        let res = app.get(&format!("{path}&page={page}"), Some(s)).await;
        let r = row(&res.body, code);
        if !r.is_empty() {
            return r.to_string();
        }
        if !res.body.contains("rel=\"next\"") {
            break;
        }
    }
    String::new()
}

#[tokio::test]
async fn sales_make_the_suggestion_entered_levels_override_and_create_makes_one_draft_po_per_supplier() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let a = product(&app, &s, &f, "SUG-A", f.s1.0).await;
    let b = product(&app, &s, &f, "SUG-B", f.s2.0).await;
    // A: bought 30 at $123.45 from its supplier, 24 sold in the last 12 weeks (2 a week), 6
    // on hand. Unknown lead time (4 weeks) + 1 safety week → reorder point 10; + 4 weeks'
    // cover → order up to 18; suggestion 18 − 6 = 12.
    approved(&app, &s, json!({"type": 4, "supplierId": f.s1.0, "warehouseId": f.warehouse, "date": days_ago(30), "lines": [{"seq": 1, "productId": a, "quantity": 30, "price": 12345}]}), f.warehouse).await;
    approved(&app, &s, json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "date": days_ago(14), "lines": [{"seq": 1, "productId": a, "quantity": 24, "price": 20000}]}), f.warehouse).await;
    // B: 2 on hand, nothing sold: proposed 0/0, so nothing suggested until levels are entered.
    approved(&app, &s, json!({"type": 4, "supplierId": f.s2.0, "warehouseId": f.warehouse, "date": days_ago(30), "lines": [{"seq": 1, "productId": b, "quantity": 2, "price": 5000}]}), f.warehouse).await;

    let page = app.get(&format!("/purchase_suggestions?warehouse_id={}", f.warehouse), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let ra = row(&page.body, "SUG-A");
    assert!(ra.contains("SUP-SUG-A") && ra.contains(">2.0<") && ra.contains("proposed 10") && ra.contains("proposed 18"), "{ra}");
    assert!(ra.contains(&format!("name=\"qty_{a}\"")) && ra.contains("value=\"12\""), "{ra}");
    assert!(page.body.contains(&f.s1.1), "grouped under its preferred supplier");
    assert_eq!(row(&page.body, "SUG-B"), "", "B has nothing to order yet");
    // The screen shows no money: not the price paid, not the cost.
    assert!(!page.body.contains("123.45") && !page.body.contains("12345"));

    // Entered levels for B override the proposal: reorder point 5, up to 20 → 18 to order.
    let back = format!("/purchase_suggestions?warehouse_id={}", f.warehouse);
    let (bs, ws) = (b.to_string(), f.warehouse.to_string());
    let res = app.post_form("/purchase_suggestions/levels", &s, &[("product_id", &bs), ("warehouse_id", &ws), ("reorder_point", "5"), ("order_up_to", "20"), ("back", &back)]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let bad = app.post_form("/purchase_suggestions/levels", &s, &[("product_id", &bs), ("warehouse_id", &ws), ("reorder_point", "30"), ("order_up_to", "20")]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains(domain::reorder::LEVELS_ORDER), "{}", bad.body);
    let page = app.get(&back, Some(&s)).await;
    let rb = row(&page.body, "SUG-B");
    assert!(rb.contains("value=\"5\"") && rb.contains("value=\"20\"") && rb.contains("value=\"18\"") && !rb.contains("proposed"), "{rb}");

    // Create: one draft PO per supplier, for the filter's warehouse, at the last price paid.
    let before = draft_pos(&app).await.len();
    let (as_, qa, qb) = (a.to_string(), format!("qty_{a}"), format!("qty_{b}"));
    let res = app.post_form("/purchase_suggestions/create", &s, &[("warehouse_id", &ws), ("pick", &as_), (&qa, "12"), ("pick", &bs), (&qb, "18")]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert!(res.location().starts_with("/purchase_suggestions/created?ids="), "{}", res.location());
    let pos = draft_pos(&app).await;
    assert_eq!(pos.len(), before + 2);
    let new = &pos[before..];
    let of = |sup: i64| new.iter().find(|p| p.1 == Some(sup)).unwrap_or_else(|| panic!("no PO for supplier {sup}"));
    assert_eq!((of(f.s1.0).2, of(f.s1.0).3.clone()), (Some(f.warehouse), vec![(Some(a), 12, 12345)]));
    assert_eq!((of(f.s2.0).2, of(f.s2.0).3.clone()), (Some(f.warehouse), vec![(Some(b), 18, 5000)]));
    let listed = app.follow(&res, &s).await;
    assert_eq!(listed.status, StatusCode::OK);
    for (id, ..) in new {
        assert!(listed.body.contains(&format!("/order_detail/purchase_orders/{id}")), "{}", listed.body);
    }
    // What is on order counts: A's position is now 6 + 12 = 18, above its reorder point.
    let page = app.get(&back, Some(&s)).await;
    assert_eq!(row(&page.body, "SUG-A"), "");
    let ra = row_on_any_page(&app, &s, &format!("{back}&shown=1"), "SUG-A").await;
    assert!(ra.contains("<td class=\"num\">12</td>"), "on order shown: {ra}");
}

#[tokio::test]
async fn a_refused_create_writes_nothing() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let a = product(&app, &s, &f, "SUG-R", f.s1.0).await;
    let foreign: i64 = app.state.db.run(|c| Ok(products::table.filter(products::org_id.ne(ORG)).select(products::id).first(c)?)).await.unwrap();
    let before = draft_pos(&app).await.len();
    let (ws, as_, fs, qa, qf) = (f.warehouse.to_string(), a.to_string(), foreign.to_string(), format!("qty_{a}"), format!("qty_{foreign}"));
    // Another company's product beside a good row.
    let res = app.post_form("/purchase_suggestions/create", &s, &[("warehouse_id", &ws), ("pick", &as_), (&qa, "5"), ("pick", &fs), (&qf, "5")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("This product does not exist in this company."));
    // A quantity out of range.
    let res = app.post_form("/purchase_suggestions/create", &s, &[("warehouse_id", &ws), ("pick", &as_), (&qa, "1000001")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains(domain::reorder::SUGGESTED_OUT_OF_RANGE), "{}", res.body);
    // Another company's warehouse.
    let other_wh: i64 = app.state.db.run(|c| Ok(warehouses::table.filter(warehouses::org_id.ne(ORG)).select(warehouses::id).first(c)?)).await.unwrap();
    let res = app.post_form("/purchase_suggestions/create", &s, &[("warehouse_id", &other_wh.to_string()), ("pick", &as_), (&qa, "5")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(draft_pos(&app).await.len(), before, "nothing half-written");
    // Levels of another company's product are refused too.
    let res = app.post_form("/purchase_suggestions/levels", &s, &[("product_id", &fs), ("warehouse_id", &ws), ("reorder_point", "1"), ("order_up_to", "2")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn sales_staff_need_the_buyer_flag() {
    let app = TestApp::new().start().await;
    let s = app.session("sales@demo.test").await;
    let res = app.get("/purchase_suggestions", Some(&s)).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert!(res.body.contains(services::suggestions::BUYERS_ONLY), "{}", res.body);
    assert_eq!(app.post_form("/purchase_suggestions/create", &s, &[("warehouse_id", "1")]).await.status, StatusCode::FORBIDDEN);
    // An approver ticks 'Buyer' in the Employees form.
    let owner = app.session("approver@demo.test").await;
    let user: i64 = app.state.db.run(|c| Ok(users::table.filter(users::email.eq("sales@demo.test")).select(users::id).first(c)?)).await.unwrap();
    let res = app.post_form(&format!("/baseinfo/employees/{user}"), &owner, &[("name", "Sam Sales"), ("role", "2"), ("isBuyer", "1"), ("active", "1")]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let flag: bool = app.state.db.run(move |c| Ok(memberships::table.filter(memberships::org_id.eq(ORG)).filter(memberships::user_id.eq(user)).select(memberships::is_buyer).first(c)?)).await.unwrap();
    assert!(flag);
    let form = app.get(&format!("/baseinfo/employees/{user}"), Some(&owner)).await;
    assert!(form.body.contains("Buyer: may use the purchase suggestions"));
    let s = app.session("sales@demo.test").await;
    let res = app.get("/purchase_suggestions", Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(res.body.contains("Purchase Suggestions"));
}

#[tokio::test]
async fn the_velocity_is_one_statement_on_an_index_of_orders() {
    let app = TestApp::new().start().await;
    let since = Utc::now().date_naive() - Duration::days(84);
    let plan = app.state.db.run(move |c| db::reorder::sold_plan(c, ORG, 1, since)).await.unwrap();
    let text = plan.join("\n");
    if matches!(app.state.db.backend(), db::Backend::Sqlite) {
        assert!(plan.iter().any(|l| l.starts_with("SEARCH orders USING") && l.contains("order_type=?")), "{text}");
        assert!(plan.iter().any(|l| l.contains("order_lines USING")), "{text}");
        assert!(!plan.iter().any(|l| l.starts_with("SCAN order")), "{text}");
    }
}

#[tokio::test]
async fn the_product_keeps_a_preferred_supplier_of_its_company() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let id = product(&app, &s, &f, "SUG-P", f.s1.0).await;
    // The edit form shows both.
    let form = app.get(&format!("/baseinfo/products/{id}"), Some(&s)).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("Preferred supplier") && form.body.contains("SUP-SUG-P"), "{}", form.body);
    // Another company's supplier is refused and nothing changes.
    let foreign: i64 = app.state.db.run(|c| Ok(suppliers::table.filter(suppliers::org_id.ne(ORG)).select(suppliers::id).first(c)?)).await.unwrap();
    let body = json!({"code": "SUG-P", "helperCode": "SUG-P", "name": "SUG-P suggestion tyre", "unit": "EA", "tag1": "PCR tyres", "brand": f.brand, "material": 1, "version": 1, "preferredSupplierId": foreign, "supplierCode": "X"});
    let res = app.put_json(&format!("/api/products/{id}"), &s, body).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.json()["errors"]["preferredSupplierId"].is_string(), "{}", res.body);
    let p = app.get(&format!("/api/products/{id}"), Some(&s)).await.json()["data"].clone();
    assert_eq!((p["preferredSupplierId"].as_i64(), p["supplierCode"].as_str(), p["version"].as_i64()), (Some(f.s1.0), Some("SUP-SUG-P"), Some(1)));
    // An update that does not send them keeps them.
    let body = json!({"code": "SUG-P", "helperCode": "SUG-P", "name": "SUG-P suggestion tyre", "unit": "SET", "tag1": "PCR tyres", "brand": f.brand, "material": 1, "version": 1});
    let res = app.put_json(&format!("/api/products/{id}"), &s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!((res.json()["data"]["preferredSupplierId"].as_i64(), res.json()["data"]["unit"].as_str()), (Some(f.s1.0), Some("SET")));
}

#[tokio::test]
async fn the_figures_of_the_last_minute_are_shared_until_a_refresh_or_the_buyers_own_change() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let a = product(&app, &s, &f, "SUG-CACHE", f.s1.0).await;
    approved(&app, &s, json!({"type": 4, "supplierId": f.s1.0, "warehouseId": f.warehouse, "date": days_ago(30), "lines": [{"seq": 1, "productId": a, "quantity": 30, "price": 12345}]}), f.warehouse).await;
    approved(&app, &s, json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "date": days_ago(14), "lines": [{"seq": 1, "productId": a, "quantity": 24, "price": 20000}]}), f.warehouse).await;
    let path = format!("/purchase_suggestions?warehouse_id={}&weeks=12&shown=1&only_below=1", f.warehouse);
    let first = app.get(&path, Some(&s)).await;
    assert!(first.body.contains("figures as of") && first.body.contains("refresh=1"), "the screen says when its figures were worked out");
    assert!(row(&first.body, "SUG-CACHE").contains(r#"value="12""#), "12 to order: {}", row(&first.body, "SUG-CACHE"));
    // Two more sold: within the minute the screen keeps its figures (one working-out shared)…
    approved(&app, &s, json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "date": days_ago(1), "lines": [{"seq": 1, "productId": a, "quantity": 2, "price": 20000}]}), f.warehouse).await;
    let again = app.get(&path, Some(&s)).await;
    assert!(row(&again.body, "SUG-CACHE").contains(r#"value="12""#), "the last minute's figures");
    // …and 'Refresh' works them out now: 26 sold, 4 on hand → 2.2 a week, order up to 20, 16.
    let fresh = app.get(&format!("{path}&refresh=1"), Some(&s)).await;
    assert!(!row(&fresh.body, "SUG-CACHE").contains(r#"value="12""#), "refreshed: {}", row(&fresh.body, "SUG-CACHE"));
    assert!(row(&fresh.body, "SUG-CACHE").contains("<td class=\"num\">4</td>"), "4 on hand now: {}", row(&fresh.body, "SUG-CACHE"));
    // The buyer's own change shows at once.
    approved(&app, &s, json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "date": days_ago(1), "lines": [{"seq": 1, "productId": a, "quantity": 1, "price": 20000}]}), f.warehouse).await;
    let res = app.post_form("/purchase_suggestions/levels", &s, &[("product_id", &a.to_string()), ("warehouse_id", &f.warehouse.to_string()), ("reorder_point", "5"), ("order_up_to", "40"), ("back", &path)]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let after = app.get(&path, Some(&s)).await;
    assert!(row(&after.body, "SUG-CACHE").contains(r#"value="37""#), "40 − 3 on hand, at once: {}", row(&after.body, "SUG-CACHE"));
}

#[tokio::test]
async fn a_long_screen_comes_150_rows_a_page() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app).await;
    let path = format!("/purchase_suggestions?warehouse_id={}&weeks=12&shown=1", f.warehouse);
    let first = app.get(&path, Some(&s)).await;
    let count: usize = first.body.split(" products").next().and_then(|t| t.rsplit('>').next()).and_then(|n| n.trim().parse().ok()).expect("the count");
    assert!(count > 150, "the demo company lists more than a page of products: {count}");
    assert_eq!(first.body.matches("data-row ").count(), 150, "150 rows on the first page");
    let pages = count.div_ceil(150);
    assert!(first.body.contains(&format!("page 1 of {pages}")) && first.body.contains("rel=\"next\""));
    let last = app.get(&format!("{path}&page={pages}"), Some(&s)).await;
    assert_eq!(last.body.matches("data-row ").count(), count - 150 * (pages - 1), "the rest on the last page");
    assert!(last.body.contains("rel=\"prev\"") && !last.body.contains("rel=\"next\""));
}
