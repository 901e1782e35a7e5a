//! Tyres by DOT date (issue 36): the lots through every kind of sheet (flow), on paper and in
//! the reports (docs), where they are sold and counted (shown). What the three share.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::{Value, json};

use db::schema::{stock_lots, stocks};

use crate::support::{Session, TestApp};

mod docs;
mod flow;
mod shown;

/// The demo company the tests work in.
const ORG: i64 = 4;

/// Product `p` tracked by DOT with nothing on hand anywhere (its lots and stock cleared), so
/// the codes it holds are the test's alone.
async fn empty_tyre(app: &TestApp, p: i64) {
    app.state
        .db
        .write(move |c| {
            diesel::update(db::schema::products::table.find(p)).set(db::schema::products::dot_tracked.eq(true)).execute(c)?;
            diesel::delete(stock_lots::table.filter(stock_lots::product_id.eq(p))).execute(c)?;
            diesel::update(stocks::table.filter(stocks::product_id.eq(p))).set(stocks::on_hand.eq(0)).execute(c)?;
            Ok(())
        })
        .await
        .unwrap();
}

/// A sheet saved as a draft through the JSON API (dated 20/11/2026 unless the body says);
/// answers its id.
async fn draft(app: &TestApp, s: &Session, mut body: Value) -> i64 {
    if body.get("date").is_none() {
        body["date"] = json!("2026-11-20");
    }
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let v = res.json();
    v["data"]["id"].as_i64().or_else(|| v["id"].as_i64()).expect("an id")
}

/// Approves sheet `id`, its warnings confirmed.
async fn approve(app: &TestApp, s: &Session, id: i64) {
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"confirmed": true})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
}

/// A sheet saved and approved; answers its id.
async fn approved(app: &TestApp, s: &Session, body: Value) -> i64 {
    let id = draft(app, s, body).await;
    approve(app, s, id).await;
    id
}
