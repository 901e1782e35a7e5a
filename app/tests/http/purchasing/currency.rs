//! Purchase sheets in the supplier's currency (issue 35): the company's dated rates, a USD
//! purchase order and a part receipt booked in AUD, a rate that is refused, and the sheet's
//! own rate.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::{Value, json};

use db::schema::{products, stocks, warehouses};
use domain::currency::{Rate, to_aud};
use domain::money::Cents;
use domain::stock::moving_average_cost;

use crate::support::{Session, TestApp};

const ORG: i64 = 4;

/// A physical product and a warehouse of company 4.
async fn product_and_warehouse(app: &TestApp) -> (i64, i64) {
    app.state
        .db
        .run(|c| {
            let p: i64 = products::table.filter(products::org_id.eq(ORG)).filter(products::category.eq(1)).select(products::id).order(products::id).first(c)?;
            let w: i64 = warehouses::table.filter(warehouses::org_id.eq(ORG)).select(warehouses::id).order(warehouses::id).first(c)?;
            Ok((p, w))
        })
        .await
        .unwrap()
}

/// A new supplier of company 4 billing in `currency`, through the supplier form.
pub(crate) async fn supplier_in(app: &TestApp, s: &Session, code: &str, currency: &str) -> i64 {
    let created = app.post_form("/baseinfo/suppliers", s, &[("code", code), ("name", &format!("Factory {code}")), ("currency", currency), ("lead_time_days", "42")]).await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    created.location().rsplit('/').next().and_then(|id| id.split('?').next()).and_then(|id| id.parse().ok()).expect("supplier id")
}

/// Sets the company's rate through Settings › Exchange rates.
pub(crate) async fn set_rate(app: &TestApp, s: &Session, currency: &str, date: &str, rate: &str) {
    let res = app.post_form("/settings/exchange_rates", s, &[("currency", currency), ("date", date), ("rate", rate)]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
}

fn data(v: &Value) -> &Value {
    if v.get("data").is_some() { &v["data"] } else { v }
}

async fn sheet(app: &TestApp, s: &Session, id: i64) -> Value {
    let res = app.get(&format!("/api/orders/{id}"), Some(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    data(&res.json()).clone()
}

async fn stock_of(app: &TestApp, product: i64, warehouse: i64) -> (i64, i64, i64) {
    app.state
        .db
        .run(move |c| {
            let (on_hand, in_transit): (i64, i64) = stocks::table.filter(stocks::warehouse_id.eq(warehouse)).filter(stocks::product_id.eq(product)).select((stocks::on_hand, stocks::in_transit)).first(c).optional()?.unwrap_or((0, 0));
            Ok((on_hand, in_transit, db::stock::on_hand_total(c, ORG, product)?))
        })
        .await
        .unwrap()
}

async fn cost_of(app: &TestApp, product: i64) -> i64 {
    app.state.db.run(move |c| Ok(products::table.find(product).select(products::cost_price).first::<i64>(c)?)).await.unwrap()
}

#[tokio::test]
async fn a_usd_container_is_ordered_at_the_companys_rate_received_in_part_and_costed_in_aud() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let (product, warehouse) = product_and_warehouse(&app).await;
    let supplier = supplier_in(&app, &s, "LL-USD", "USD").await;
    let form = app.get(&format!("/baseinfo/suppliers/{supplier}"), Some(&s)).await;
    assert!(form.body.contains("<option value=\"USD\" selected"), "the supplier form keeps the currency");

    // No rate yet: the purchase order is refused with a message and nothing is saved.
    let po_body = json!({"type": 3, "supplierId": supplier, "warehouseId": warehouse, "date": "2026-11-20", "deliveryDate": "2026-12-20", "shipmentRef": "MSCU 123456-7 / MSC Aurora", "taxType": 1,
        "lines": [{"seq": 1, "productId": product, "quantity": 400, "price": 4500}]});
    let refused = app.post_json("/api/orders", &s, po_body.clone()).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", refused.body);
    assert!(refused.body.contains("There is no USD rate on or before 20/11/2026"), "{}", refused.body);

    // Settings › Exchange rates: a rate of 0 or an absurd one is refused; 0.652 from 1 Nov.
    for (bad, says) in [("0", "must be above 0"), ("-1", "must be above 0"), ("250000", "between 0.0001 and 100,000"), ("abc", "at most 6 decimals")] {
        let res = app.post_form("/settings/exchange_rates", &s, &[("currency", "USD"), ("date", "2026-11-01"), ("rate", bad)]).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert!(res.body.contains(says), "{bad}: {says}");
    }
    set_rate(&app, &s, "USD", "2026-11-01", "0.652").await;
    let page = app.get("/settings/exchange_rates", Some(&s)).await;
    assert!(page.body.contains("1 AUD = 0.6520 USD"), "the rate as Xero writes it");

    // The purchase order: USD lines, AUD lines at 0.652 (US$45.00 = A$69.02).
    let created = app.post_json("/api/orders", &s, po_body.clone()).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let po = data(&created.json())["id"].as_i64().unwrap();
    let o = sheet(&app, &s, po).await;
    let aud_price = to_aud(Cents(4500), Rate(652_000)).unwrap();
    assert_eq!(aud_price, Cents(6902));
    assert_eq!((o["currency"].as_str(), o["exchangeRate"].as_f64(), o["shipmentRef"].as_str()), (Some("USD"), Some(0.652), Some("MSCU 123456-7 / MSC Aurora")));
    assert_eq!((o["lines"][0]["fxPrice"].as_i64(), o["lines"][0]["price"].as_i64(), o["lines"][0]["line_amount"].as_i64()), (Some(4500), Some(6902), Some(400 * 6902)));
    assert_eq!(o["fxAmount"].as_i64(), Some(1_800_000), "the supplier's total, US$18,000.00");
    let detail = app.get(&format!("/order_detail/purchase_orders/{po}"), Some(&s)).await;
    for shown in ["1 AUD = 0.6520 USD", "Unit Price (USD)", "Line Amount (AUD)", "MSCU 123456-7 / MSC Aurora", "18,000.00", "27,608.00"] {
        assert!(detail.body.contains(shown), "the purchase order shows {shown}");
    }
    let edit = app.get(&format!("/order_edit/purchase_orders/{po}"), Some(&s)).await;
    assert!(edit.body.contains("Currency USD") && edit.body.contains("45.00"), "the editor has the supplier's prices");
    assert!(edit.body.contains("name=\"exchange_rate\" value=\"\""), "the company's rate is not fixed on the draft");
    let ok = app.post_json(&format!("/api/orders/{po}/approve"), &s, json!({})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    let (on_hand_before, in_transit, total_before) = stock_of(&app, product, warehouse).await;
    assert!(in_transit >= 400, "the container is in transit");
    let cost_before = cost_of(&app, product).await;

    // A sheet's own rate far from the company's is taken for a slip (AUD per USD typed).
    let mut slip = po_body.clone();
    slip["exchangeRate"] = json!("1.5337");
    let res = app.post_json("/api/orders", &s, slip).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("far from the company's rate"), "{}", res.body);

    // 250 of the 400 arrive; the bill is dated after a new rate and takes it.
    set_rate(&app, &s, "USD", "2026-11-25", "0.66").await;
    let bill = app
        .post_json("/api/orders", &s, json!({"type": 4, "supplierId": supplier, "warehouseId": warehouse, "relatedOrderId": po, "date": "2026-11-26", "taxType": 1,
            "lines": [{"seq": 1, "productId": product, "quantity": 250, "price": 4500}]}))
        .await;
    assert_eq!(bill.status, StatusCode::OK, "{}", bill.body);
    let bill = data(&bill.json())["id"].as_i64().unwrap();
    let b = sheet(&app, &s, bill).await;
    let bill_price = to_aud(Cents(4500), Rate(660_000)).unwrap();
    assert_eq!((b["exchangeRate"].as_f64(), b["lines"][0]["price"].as_i64()), (Some(0.66), Some(bill_price.0)));
    let ok = app.post_json(&format!("/api/orders/{bill}/approve"), &s, json!({})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    let (on_hand, left_in_transit, _) = stock_of(&app, product, warehouse).await;
    assert_eq!((on_hand, left_in_transit), (on_hand_before + 250, in_transit - 250), "150 stay in transit");
    assert_eq!(cost_of(&app, product).await, moving_average_cost(total_before, Cents(cost_before), 250, bill_price).0, "the cost moves in AUD at the bill's rate");

    // The next bill from the purchase order starts with what is still to come, in USD.
    let next = app.get(&format!("/order_add/bills/clone?from={po}"), Some(&s)).await;
    assert_eq!(next.status, StatusCode::OK);
    assert!(next.body.contains("&#34;qty&#34;:&#34;150&#34;") && next.body.contains("&#34;price&#34;:&#34;45.00&#34;"), "150 at US$45.00 left to receive");
    let list = app.get("/purchase_orders", Some(&s)).await;
    assert!(list.body.contains("Shipment") && list.body.contains("MSCU 123456-7 / MSC Aurora"), "the list shows the container");
}

#[tokio::test]
async fn a_sheet_of_an_aud_supplier_ignores_rates_and_a_sales_user_sets_none() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let (product, warehouse) = product_and_warehouse(&app).await;
    let supplier = supplier_in(&app, &s, "LOCAL-AUD", "AUD").await;
    let created = app
        .post_json("/api/orders", &s, json!({"type": 4, "supplierId": supplier, "warehouseId": warehouse, "date": "2026-11-20", "exchangeRate": 0.5, "lines": [{"seq": 1, "productId": product, "quantity": 2, "price": 11000}]}))
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let o = sheet(&app, &s, data(&created.json())["id"].as_i64().unwrap()).await;
    assert_eq!((o["currency"].as_str(), o["exchangeRate"].as_f64(), o["lines"][0]["price"].as_i64()), (Some("AUD"), Some(1.0), Some(11000)));
    assert!(o["lines"][0].get("fxPrice").is_none(), "an AUD line has no foreign price");

    let (app2, sales) = TestApp::new().with_user("sales@demo.test").await;
    let res = app2.post_form("/settings/exchange_rates", &sales, &[("currency", "USD"), ("date", "2026-11-01"), ("rate", "0.65")]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let page = app2.get("/settings/exchange_rates", Some(&sales)).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
}
