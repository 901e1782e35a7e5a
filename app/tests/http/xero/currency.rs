//! A bill in US dollars sent to Xero (issue 35): refused with Xero's reason while the
//! organisation has no USD (no multi-currency), then sent in USD at the sheet's rate once it
//! has; every call as Xero's description has it.

use diesel::prelude::*;
use serde_json::json;

use db::schema::{orders, products, suppliers, warehouses};

use super::link::{ORG, rig};

#[tokio::test]
async fn a_usd_bill_is_refused_without_multi_currency_and_goes_in_usd_at_its_rate_with_it() {
    let r = rig().await;
    r.connect().await;
    let (supplier, product, warehouse) = r
        .sql(|c| {
            let s: i64 = suppliers::table.filter(suppliers::org_id.eq(ORG)).select(suppliers::id).order(suppliers::id).first(c)?;
            diesel::update(suppliers::table.find(s)).set(suppliers::currency.eq("USD")).execute(c)?;
            let p: i64 = products::table.filter(products::org_id.eq(ORG)).filter(products::category.eq(1)).select(products::id).order(products::id).first(c)?;
            let w: i64 = warehouses::table.filter(warehouses::org_id.eq(ORG)).select(warehouses::id).order(warehouses::id).first(c)?;
            Ok((s, p, w))
        })
        .await;
    let res = r.app.post_form("/settings/exchange_rates", &r.s, &[("currency", "USD"), ("date", "2026-11-01"), ("rate", "0.652375")]).await;
    assert_eq!(res.status, 303, "{}", res.body);
    let created = r
        .app
        .post_json("/api/orders", &r.s, json!({"type": 4, "supplierId": supplier, "warehouseId": warehouse, "date": "2026-11-20", "taxType": 1, "reference": "LL-INV-88",
            "lines": [{"seq": 1, "productId": product, "quantity": 40, "price": 4500}]}))
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let v = created.json();
    let id = v["data"]["id"].as_i64().or_else(|| v["id"].as_i64()).unwrap();
    let ok = r.app.post_json(&format!("/api/orders/{id}/approve"), &r.s, json!({})).await;
    assert_eq!(ok.status, 200, "{}", ok.body);

    // Without USD in the organisation Xero refuses; the reason is on the sheet and nothing
    // went in AUD instead.
    r.send(id).await;
    r.drain().await;
    let (state, error, _) = r.xero_state(id).await;
    assert_eq!(state, 2, "Fail: {error}");
    assert!(error.contains("not subscribed to currency USD"), "{error}");
    assert!(r.fake.invoices().iter().all(|d| d["InvoiceNumber"] != "LL-INV-88"));
    let page = r.app.get(&format!("/order_detail/bills/{id}"), Some(&r.s)).await;
    assert!(page.body.contains("not subscribed to currency USD"), "the reason shows on the bill");

    // The organisation adds USD; sent again, the bill is in USD at the sheet's own rate.
    r.fake.add_currency("USD");
    r.send(id).await;
    r.drain().await;
    assert_eq!(r.xero_state(id).await.0, 1, "Sent");
    let docs: Vec<_> = r.fake.invoices().into_iter().filter(|d| d["InvoiceNumber"] == "LL-INV-88").collect();
    assert_eq!(docs.len(), 1);
    let d = &docs[0];
    assert_eq!((d["Type"].as_str(), d["CurrencyCode"].as_str(), d["CurrencyRate"].as_f64()), (Some("ACCPAY"), Some("USD"), Some(0.652375)));
    assert_eq!((d["LineItems"][0]["UnitAmount"].as_f64(), d["Total"].as_f64()), (Some(45.0), Some(1800.0)), "the supplier's US$ figures");
    let (fx_total, aud_total): (i64, i64) = r.sql(move |c| orders::table.find(id).select((orders::fx_total_amount, orders::total_amount)).first(c)).await;
    assert_eq!(fx_total, 180_000);
    assert_eq!(aud_total, 40 * domain::currency::to_aud(domain::money::Cents(4500), domain::currency::Rate(652_375)).unwrap().0, "our books stay in AUD");
    r.assert_as_xero_describes();
}
