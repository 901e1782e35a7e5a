//! Issue 29, PostgreSQL under concurrency: a check-out posted several times at once places
//! one order (through one process and through two), approvals and unapprovals of sheets
//! sharing products never deadlock into a 500, and servers started together on an empty
//! database all come up. The in-process parts run on SQLite too.

use axum::body::Body;
use axum::http::{Method, StatusCode};
use diesel::prelude::*;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::json;
use db::DatabaseUrl;
use db::schema::{customers, orders, products, warehouses};

use crate::operations::scale_out::{Http, send, wait_until_up};
use crate::shop::{SHOP, add_to_cart, shown_and_hidden, signed_in};
use crate::support::{ServerProcess as Server, Session, TestApp, extract_input};

async fn self_orders(app: &TestApp) -> i64 {
    app.state
        .db
        .run(|c| {
            let me: i64 = customers::table.filter(customers::email.eq(SHOP)).select(customers::id).first(c)?;
            Ok(orders::table.filter(orders::customer_id.eq(me)).filter(orders::drafter_type.eq(3)).count().get_result(c)?)
        })
        .await
        .unwrap()
}

/// A cart with one product and the check-out form as the customer confirmed it.
async fn confirmed_checkout(app: &TestApp, s: &Session) -> String {
    let ((product, _), _) = shown_and_hidden(app).await;
    add_to_cart(app, s, product, "2").await;
    let page = app.get("/shop/checkout", Some(s)).await;
    let confirmed = extract_input(&page.body, "confirmed");
    serde_urlencoded::to_string([("_csrf", s.csrf.as_str()), ("confirmed", confirmed.as_str()), ("reference", "DOUBLE"), ("shipping", "delivery"), ("note", "")]).unwrap()
}

#[tokio::test]
async fn a_check_out_posted_six_times_at_once_places_one_order_and_answers_it_six_times() {
    let app = TestApp::new().await;
    let s = signed_in(&app, SHOP, "tyredesk").await;
    let before = self_orders(&app).await;
    let form = confirmed_checkout(&app, &s).await;
    let mut posts = Vec::new();
    for _ in 0..6 {
        let req = axum::http::Request::builder()
            .method(Method::POST)
            .uri("/shop/checkout")
            .header("content-type", "application/x-www-form-urlencoded")
            .header("cookie", &s.cookie)
            .body(Body::from(form.clone()))
            .unwrap();
        let router = app.router.clone();
        posts.push(tokio::spawn(async move {
            use tower::ServiceExt;
            let res = router.oneshot(req).await.unwrap();
            (res.status(), res.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string())
        }));
    }
    let mut answers = Vec::new();
    for p in posts {
        answers.push(p.await.unwrap());
    }
    assert_eq!(self_orders(&app).await, before + 1, "one order: {answers:?}");
    assert!(answers.iter().all(|(status, _)| *status == StatusCode::SEE_OTHER), "{answers:?}");
    let first = &answers[0].1;
    assert!(first.starts_with("/shop/orders/"), "{answers:?}");
    assert!(answers.iter().all(|(_, to)| to == first), "every post is answered with the order placed: {answers:?}");
    // Later, a reload of the same check-out still shows that order, and a new cart orders anew.
    let again = app.request(Method::POST, "/shop/checkout", Some(Body::from(form.clone())), Some("application/x-www-form-urlencoded"), &[("cookie", &s.cookie)]).await;
    assert_eq!(again.location(), first.as_str());
    let ((product, _), _) = shown_and_hidden(&app).await;
    add_to_cart(&app, &s, product, "2").await;
    crate::shop::check_out(&app, &s, "SECOND").await;
    assert_eq!(self_orders(&app).await, before + 2);
}

fn client() -> Http {
    Client::builder(TokioExecutor::new()).build_http()
}

/// Two `tyredesk serve` processes on the test's PostgreSQL database, up.
async fn two_processes(app: &TestApp, data: &std::path::Path) -> Option<(Server, Server, Http)> {
    let DatabaseUrl::Postgres(url) = app.state.config.database.clone() else { return None };
    let (a, b) = (Server::start(&url, data, &[]), Server::start(&url, data, &[]));
    let http = client();
    wait_until_up(&http, &a).await;
    wait_until_up(&http, &b).await;
    Some((a, b, http))
}

#[tokio::test]
async fn a_check_out_posted_at_once_through_two_processes_places_one_order() {
    let app = TestApp::new().await;
    let dir = tempfile::tempdir().unwrap();
    let Some((a, b, http)) = two_processes(&app, dir.path()).await else { return };
    let s = signed_in(&app, SHOP, "tyredesk").await;
    let before = self_orders(&app).await;
    let form = confirmed_checkout(&app, &s).await;
    let mut posts = Vec::new();
    for i in 0..8 {
        let (http, url, cookie, form) = (http.clone(), format!("{}/shop/checkout", if i % 2 == 0 { &a.base } else { &b.base }), s.cookie.clone(), form.clone());
        posts.push(tokio::spawn(async move {
            let res = send(&http, Method::POST, &url, &[("cookie", &cookie)], Some(("application/x-www-form-urlencoded", form))).await;
            (res.status, res.headers.get("location").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string())
        }));
    }
    let mut answers = Vec::new();
    for p in posts {
        answers.push(p.await.unwrap());
    }
    assert_eq!(self_orders(&app).await, before + 1, "one order: {answers:?}");
    assert!(answers.iter().all(|(status, to)| *status == StatusCode::SEE_OTHER && to == &answers[0].1), "{answers:?}");
}

#[tokio::test]
async fn approvals_and_unapprovals_sharing_products_through_two_processes_never_answer_500() {
    let app = TestApp::new().await;
    let dir = tempfile::tempdir().unwrap();
    let Some((a, b, http)) = two_processes(&app, dir.path()).await else { return };
    let s = app.session("approver@demo.test").await;
    let (customer, warehouse, items) = app
        .state
        .db
        .run(|c| {
            let cu: i64 = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.ne(10)).filter(customers::credit_limit.eq(0)).order(customers::id).select(customers::id).first(c)?;
            let w: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false)).order(warehouses::id).select(warehouses::id).first(c)?;
            let p: Vec<(i64, i64)> = products::table.filter(products::org_id.eq(4)).filter(products::category.eq(1)).filter(products::class_a_price.gt(0)).order(products::id).limit(6).select((products::id, products::class_a_price)).load(c)?;
            Ok((cu, w, p))
        })
        .await
        .unwrap();
    // 60 invoices over the same six products, each naming them in another order.
    let mut ids = Vec::new();
    for n in 0..60usize {
        let mut lines: Vec<serde_json::Value> = items.iter().map(|(p, a)| json!({"productId": p, "quantity": 1, "price": a})).collect();
        lines.rotate_left(n % items.len());
        if n % 2 == 1 {
            lines.reverse();
        }
        let lines: Vec<serde_json::Value> = lines.into_iter().enumerate().map(|(i, mut l)| {
            l["seq"] = json!(i + 1);
            l
        }).collect();
        let res = app.post_json("/api/orders", &s, json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "lines": lines})).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        ids.push(res.json()["data"]["id"].as_i64().unwrap());
    }
    let csrf = s.csrf.clone();
    for action in ["approve", "unApprove"] {
        let mut calls = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            let base = if i % 2 == 0 { a.base.clone() } else { b.base.clone() };
            let (http, cookie, csrf, id) = (http.clone(), s.cookie.clone(), csrf.clone(), *id);
            calls.push(tokio::spawn(async move {
                let body = json!({"warehouseId": warehouse, "confirmed": true}).to_string();
                send(&http, Method::POST, &format!("{base}/api/orders/{id}/{action}"), &[("cookie", &cookie), ("x-csrf-token", &csrf)], Some(("application/json", body))).await
            }));
        }
        let mut statuses = Vec::new();
        for c in calls {
            let res = c.await.unwrap();
            statuses.push((res.status, res.body.chars().take(200).collect::<String>()));
        }
        let failed: Vec<_> = statuses.iter().filter(|(st, _)| *st != StatusCode::OK).collect();
        assert!(failed.is_empty(), "{action}: {} of {} did not succeed: {failed:?}", failed.len(), statuses.len());
    }
    let approved: i64 = app.state.db.run(move |c| Ok(orders::table.filter(orders::id.eq_any(ids)).filter(orders::status.eq(1)).count().get_result(c)?)).await.unwrap();
    assert_eq!(approved, 60, "all back to Draft, each moved once");
}

/// Issue 36: sales of one tyre approved at once through two processes take its oldest DOT
/// code first and never the same units twice — the oldest lot empties, none goes below zero
/// while another still holds stock, and the warehouse's stock stays the sum of its lots.
#[tokio::test]
async fn sales_of_one_tyre_approved_at_once_through_two_processes_take_the_oldest_lot_exactly() {
    use db::schema::{stock_lots, stocks, suppliers};
    let app = TestApp::new().await;
    let dir = tempfile::tempdir().unwrap();
    let Some((a, b, http)) = two_processes(&app, dir.path()).await else { return };
    let s = app.session("approver@demo.test").await;
    let (customer, supplier, warehouse, tyre) = app
        .state
        .db
        .write(|c| {
            let cu: i64 = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.ne(10)).filter(customers::credit_limit.eq(0)).order(customers::id).select(customers::id).first(c)?;
            let su: i64 = suppliers::table.filter(suppliers::org_id.eq(4)).filter(suppliers::currency.eq("AUD")).order(suppliers::id).select(suppliers::id).first(c)?;
            let w: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false)).order(warehouses::id).select(warehouses::id).first(c)?;
            let p: i64 = products::table.filter(products::org_id.eq(4)).filter(products::dot_tracked.eq(true)).order(products::id.desc()).select(products::id).first(c)?;
            diesel::update(stocks::table.filter(stocks::product_id.eq(p))).set(stocks::on_hand.eq(0)).execute(c)?;
            diesel::delete(stock_lots::table.filter(stock_lots::product_id.eq(p))).execute(c)?;
            Ok((cu, su, w, p))
        })
        .await
        .unwrap();
    let line = |qty: i64, dot: &str| json!({"seq": 1, "productId": tyre, "quantity": qty, "price": 1_000_000, "dot": dot});
    for (qty, dot) in [(10, "0123"), (30, "0125")] {
        let bill = app.post_json("/api/orders", &s, json!({"type": 4, "supplierId": supplier, "warehouseId": warehouse, "date": "2026-11-20", "lines": [line(qty, dot)]})).await;
        let id = bill.json()["data"]["id"].as_i64().expect("a bill");
        assert_eq!(app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({"confirmed": true})).await.status, StatusCode::OK);
    }
    let mut ids = Vec::new();
    for _ in 0..20 {
        let res = app.post_json("/api/orders", &s, json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "date": "2026-11-20", "lines": [line(1, "")]})).await;
        ids.push(res.json()["data"]["id"].as_i64().expect("an invoice"));
    }
    let mut calls = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let base = if i % 2 == 0 { a.base.clone() } else { b.base.clone() };
        let (http, cookie, csrf, id) = (http.clone(), s.cookie.clone(), s.csrf.clone(), *id);
        calls.push(tokio::spawn(async move {
            let body = json!({"confirmed": true}).to_string();
            send(&http, Method::POST, &format!("{base}/api/orders/{id}/approve"), &[("cookie", &cookie), ("x-csrf-token", &csrf)], Some(("application/json", body))).await
        }));
    }
    for c in calls {
        let res = c.await.unwrap();
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }
    let lots: Vec<(i32, i64)> = app
        .state
        .db
        .run(move |c| Ok(stock_lots::table.filter(stock_lots::product_id.eq(tyre)).filter(stock_lots::warehouse_id.eq(warehouse)).order(stock_lots::dot).select((stock_lots::dot, stock_lots::on_hand)).load(c)?))
        .await
        .unwrap();
    assert_eq!(lots, vec![(202_301, 0), (202_501, 20)], "ten of the oldest, then ten of the next");
}

#[tokio::test]
async fn servers_started_together_on_an_empty_postgresql_all_come_up() {
    let Some(url) = crate::support::empty_postgres_database() else { return };
    let dir = tempfile::tempdir().unwrap();
    let starts: Vec<_> = (0..3)
        .map(|_| {
            let (url, data) = (url.clone(), dir.path().to_path_buf());
            std::thread::spawn(move || Server::start(&url, &data, &[]))
        })
        .collect();
    let servers: Vec<Server> = starts.into_iter().map(|t| t.join().expect("every server starts")).collect();
    let http = client();
    for s in &servers {
        wait_until_up(&http, s).await;
    }
}
