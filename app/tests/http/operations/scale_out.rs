//! Issue 10, scale-out: two `tyredesk serve` processes on one PostgreSQL behave as one
//! server. A user signs in through the first, saves and approves an invoice through the
//! second, and reads the result back through the first. Runs on PostgreSQL only (SQLite is
//! one process by design).

use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::json;
use db::DatabaseUrl;

use crate::support::{ServerProcess as Server, TestApp, extract_input};

pub(crate) type Http = Client<HttpConnector, Full<Bytes>>;

pub(crate) struct Answer {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

pub(crate) async fn send(http: &Http, method: Method, url: &str, headers: &[(&str, &str)], body: Option<(&str, String)>) -> Answer {
    let mut req = Request::builder().method(method).uri(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let bytes = match body {
        Some((content_type, b)) => {
            req = req.header(header::CONTENT_TYPE, content_type);
            Bytes::from(b)
        }
        None => Bytes::new(),
    };
    let res = http.request(req.body(Full::new(bytes)).unwrap()).await.expect("request");
    let status = res.status();
    let headers = res.headers().clone();
    let body = String::from_utf8_lossy(&res.into_body().collect().await.unwrap().to_bytes()).into_owned();
    Answer { status, headers, body }
}

pub(crate) fn cookie(a: &Answer, name: &str) -> Option<String> {
    a.headers.get_all(header::SET_COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
        let (k, val) = v.split(';').next()?.split_once('=')?;
        (k == name).then(|| val.to_string())
    })
}

pub(crate) async fn wait_until_up(http: &Http, s: &Server) {
    let started = Instant::now();
    loop {
        let req = Request::get(format!("{}/login", s.base)).body(Full::new(Bytes::new())).unwrap();
        if http.request(req).await.is_ok_and(|res| res.status() == StatusCode::OK) {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the server at {} did not start", s.base);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn two_processes_on_one_postgresql_serve_one_user() {
    let app = TestApp::new().await;
    let DatabaseUrl::Postgres(url) = app.state.config.database.clone() else {
        return; // SQLite serves from one process.
    };
    let shared = tempfile::tempdir().unwrap();
    let (a, b) = (Server::start(&url, shared.path(), &[]), Server::start(&url, shared.path(), &[]));
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    wait_until_up(&http, &a).await;
    wait_until_up(&http, &b).await;

    // Sign in through A with the real form.
    let page = send(&http, Method::GET, &format!("{}/login", a.base), &[], None).await;
    let pre = cookie(&page, "td_pre").expect("pre-session cookie");
    let form = serde_urlencoded::to_string([("_csrf", extract_input(&page.body, "_csrf").as_str()), ("email", "approver@demo.test"), ("password", "tyredesk")]).unwrap();
    let signed = send(&http, Method::POST, &format!("{}/login", a.base), &[("cookie", &format!("td_pre={pre}"))], Some(("application/x-www-form-urlencoded", form))).await;
    assert_eq!(signed.status, StatusCode::SEE_OTHER, "{}", signed.body);
    let session = cookie(&signed, "td_session").expect("session cookie");
    let csrf = web::auth::csrf::token_for(&session);
    let cookie_header = format!("td_session={session}");
    let auth: [(&str, &str); 2] = [("cookie", &cookie_header), ("x-csrf-token", &csrf)];

    // The session made by A is good on B: B saves and approves an invoice.
    let options = send(&http, Method::GET, &format!("{}/api/warehouses", b.base), &auth, None).await;
    assert_eq!(options.status, StatusCode::OK, "{}", options.body);
    let warehouse = serde_json::from_str::<serde_json::Value>(&options.body).unwrap()["data"][0]["id"].as_i64().unwrap();
    let customers = send(&http, Method::GET, &format!("{}/api/customers?per_page=20", b.base), &auth, None).await;
    let customers: serde_json::Value = serde_json::from_str(&customers.body).unwrap();
    let customer = customers["data"].as_array().unwrap().iter().find(|c| c["creditLimit"].as_i64() == Some(0)).expect("a customer without a credit limit")["id"].as_i64().unwrap();
    let products = send(&http, Method::GET, &format!("{}/api/products?per_page=1&key=r16", b.base), &auth, None).await;
    let product = serde_json::from_str::<serde_json::Value>(&products.body).unwrap()["data"][0].clone();
    let invoice = json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "lines": [{"seq": 1, "productId": product["id"], "quantity": 2, "price": 10_000}]});
    let saved = send(&http, Method::POST, &format!("{}/api/orders", b.base), &auth, Some(("application/json", invoice.to_string()))).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let id = serde_json::from_str::<serde_json::Value>(&saved.body).unwrap()["data"]["id"].as_i64().unwrap();
    let approve = json!({"warehouseId": warehouse, "confirmed": true});
    let approved = send(&http, Method::POST, &format!("{}/api/orders/{id}/approve", b.base), &auth, Some(("application/json", approve.to_string()))).await;
    assert_eq!(approved.status, StatusCode::OK, "{}", approved.body);

    // A reads the approved sheet back.
    let read = send(&http, Method::GET, &format!("{}/api/orders/{id}", a.base), &auth, None).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);
    let sheet: serde_json::Value = serde_json::from_str(&read.body).unwrap();
    assert_eq!(sheet["data"]["status"], 2, "approved through the other process: {sheet}");
    let page = send(&http, Method::GET, &format!("{}/order_detail/invoices/{id}", a.base), &auth, None).await;
    assert_eq!(page.status, StatusCode::OK);

    // Reports asked through either process share one queue: each runs once, on whichever
    // worker claimed it, and its file downloads through either process.
    // Two people ask, three each (a person may have three waiting, issue 29).
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    let manager = app.session("manager@demo.test").await;
    let manager_auth: [(&str, &str); 2] = [("cookie", &manager.cookie), ("x-csrf-token", &manager.csrf)];
    let mut ids = Vec::new();
    for days in 0..6i64 {
        let (server, who) = if days % 2 == 0 { (&a, &auth) } else { (&b, &manager_auth) };
        let from = (today - chrono::Duration::days(30 + days)).to_string();
        let body = json!({"type": "invoiceDetails", "dateRange": [from, today.to_string()]});
        let asked = send(&http, Method::POST, &format!("{}/api/reports", server.base), who, Some(("application/json", body.to_string()))).await;
        assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.body);
        ids.push(serde_json::from_str::<serde_json::Value>(&asked.body).unwrap()["data"]["id"].as_i64().unwrap());
    }
    let started = Instant::now();
    let jobs = loop {
        let list = send(&http, Method::GET, &format!("{}/api/reports", a.base), &auth, None).await;
        let list: serde_json::Value = serde_json::from_str(&list.body).unwrap();
        let jobs: Vec<serde_json::Value> = list["data"].as_array().unwrap().iter().filter(|j| ids.contains(&j["id"].as_i64().unwrap())).cloned().collect();
        if jobs.iter().all(|j| j["state"] == "done" || j["state"] == "failed") {
            break jobs;
        }
        assert!(started.elapsed() < Duration::from_secs(90), "reports still waiting: {jobs:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(jobs.iter().all(|j| j["state"] == "done"), "{jobs:?}");
    let rows = {
        let ids = ids.clone();
        app.state.db.run(move |c| {
            use diesel::prelude::*;
            use db::schema::jobs as report_jobs;
            Ok(report_jobs::table.filter(report_jobs::id.eq_any(ids)).select((report_jobs::attempts, report_jobs::locked_by)).load::<(i32, String)>(c)?)
        })
        .await
        .unwrap()
    };
    assert!(rows.iter().all(|(attempts, _)| *attempts == 1), "each report ran once: {rows:?}");
    for j in &jobs {
        let name = j["name"].as_str().unwrap();
        for server in [&a, &b] {
            let file = send(&http, Method::GET, &format!("{}/api/download/{name}", server.base), &auth, None).await;
            assert_eq!(file.status, StatusCode::OK, "{name} through {}", server.base);
        }
    }

    // Signing out through B ends the session on A too.
    let out = send(&http, Method::POST, &format!("{}/logout", b.base), &auth, Some(("application/x-www-form-urlencoded", format!("_csrf={csrf}")))).await;
    assert!(out.status.is_redirection(), "{} {}", out.status, out.body);
    let after = send(&http, Method::GET, &format!("{}/api/warehouses", a.base), &auth, None).await;
    assert_eq!(after.status, StatusCode::UNAUTHORIZED);
}

/// A second server on the same database as `app`, with its own sign-in throttle and clock.
fn second_process(app: &TestApp) -> axum::Router {
    use std::sync::Arc;
    use services::throttle::{LoginThrottle, ManualClock, ThrottleLimits};
    let db = db::Db::open(&app.state.config.database).unwrap();
    let throttle = LoginThrottle::new(ThrottleLimits::default(), Arc::new(ManualClock::default()));
    web::router(web::state::AppState::with_throttle(app.state.config.clone(), db, throttle).unwrap())
}

async fn sign_in(router: &axum::Router, email: &str, password: &str) -> StatusCode {
    use tower::ServiceExt;
    let get = |r: &axum::Router| r.clone().oneshot(Request::get("/login").body(axum::body::Body::empty()).unwrap());
    let page = get(router).await.unwrap();
    let pre = page.headers().get_all(header::SET_COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|v| v.strip_prefix("td_pre=")).unwrap().split(';').next().unwrap().to_string();
    let html = String::from_utf8(page.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    let form = serde_urlencoded::to_string([("_csrf", extract_input(&html, "_csrf").as_str()), ("email", email), ("password", password)]).unwrap();
    let req = Request::post("/login")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, format!("td_pre={pre}"))
        .body(axum::body::Body::from(form))
        .unwrap();
    router.clone().oneshot(req).await.unwrap().status()
}

#[tokio::test]
async fn sign_in_failures_counted_by_one_process_slow_the_guesser_on_another() {
    let app = TestApp::new().await;
    let (a, b) = (app.router.clone(), second_process(&app));
    // Five wrong passwords through A…
    for _ in 0..5 {
        assert_eq!(sign_in(&a, "sales@demo.test", "wrong").await, StatusCode::FORBIDDEN);
    }
    // …and B, which never saw them, slows the same guesser too.
    assert_eq!(sign_in(&b, "sales@demo.test", "wrong").await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(sign_in(&b, "sales@demo.test", "tyredesk").await, StatusCode::TOO_MANY_REQUESTS, "unheard while slowed");
    // Another account is not affected.
    assert_eq!(sign_in(&b, "approver@demo.test", "tyredesk").await, StatusCode::SEE_OTHER);

    // Once the pause is over (both clocks), the owner gets in and the slate is clean for all.
    app.clock.advance(Duration::from_secs(31));
    let keys = app.state.db.run(|c| db::accounts::failure_tats(c, &["p:sales@demo.test|0.0.0.0".to_string()])).await.unwrap();
    assert_eq!(keys.len(), 1, "the account-and-address meter is stored: {keys:?}");
    assert_eq!(sign_in(&a, "sales@demo.test", "tyredesk").await, StatusCode::SEE_OTHER);
    let keys = app.state.db.run(|c| db::accounts::failure_tats(c, &["p:sales@demo.test|0.0.0.0".to_string()])).await.unwrap();
    assert!(keys.is_empty(), "a right password forgives that address everywhere");
}
