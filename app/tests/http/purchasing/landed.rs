//! Landed costs (issue 35): two stock bills received, some sold, a freight bill allocated by
//! value and a duty bill by quantity raise the cost by the to-stock share only (the COGS part
//! shown), the quoting COST shows it and a new invoice line keeps it; unapproving restores
//! the cost exactly; the refusals change nothing; the cost history shows the steps; a sales
//! user sees no cost figure.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::json;

use crate::support::{Session, TestApp};
use db::schema::{cost_changes, landed_costs, order_events, order_lines, orders, products, stocks, suppliers, warehouses};

const ORG: i64 = 4;

struct Fixture {
    p1: i64,
    p1_code: String,
    p2: i64,
    freight_product: i64,
    supplier: i64,
    warehouse: i64,
    customer: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .write(|c| {
            let phys: Vec<(i64, String)> = products::table
                .filter(products::org_id.eq(ORG))
                .filter(products::category.eq(1))
                .order(products::id.asc())
                .select((products::id, products::code))
                .limit(3)
                .load(c)?;
            let (p1, p1_code) = phys[0].clone();
            let p2 = phys[1].0;
            // A service item for the freight and duty bills: made virtual for this test.
            let freight_product = phys[2].0;
            diesel::update(products::table.find(freight_product)).set(products::category.eq(4)).execute(c)?;
            // Start from nothing on hand at no cost, so every figure below is worked out by hand.
            diesel::update(stocks::table.filter(stocks::product_id.eq_any([p1, p2]))).set(stocks::on_hand.eq(0)).execute(c)?;
            diesel::update(products::table.filter(products::id.eq_any([p1, p2]))).set(products::cost_price.eq(0)).execute(c)?;
            let supplier = suppliers::table.filter(suppliers::org_id.eq(ORG)).order(suppliers::id.asc()).select(suppliers::id).first(c)?;
            let warehouse = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).order(warehouses::id.asc()).select(warehouses::id).first(c)?;
            let customer = db::schema::customers::table
                .filter(db::schema::customers::org_id.eq(ORG))
                .filter(db::schema::customers::payment_type.ne(10))
                .order(db::schema::customers::id.asc())
                .select(db::schema::customers::id)
                .first(c)?;
            Ok(Fixture { p1, p1_code, p2, freight_product, supplier, warehouse, customer })
        })
        .await
        .unwrap()
}

/// A sheet through the API: (product, qty, price in cents) lines; approved when asked.
async fn sheet(app: &TestApp, s: &Session, f: &Fixture, order_type: i64, tax_type: i64, lines: &[(i64, i64, i64)], approve: bool) -> i64 {
    let lines: Vec<_> = lines.iter().enumerate().map(|(i, (p, q, price))| json!({"seq": i + 1, "productId": p, "quantity": q, "price": price})).collect();
    let mut body = json!({"type": order_type, "warehouseId": f.warehouse, "date": "2026-11-20", "taxType": tax_type, "lines": lines});
    if order_type == 1 {
        body["customerId"] = json!(f.customer);
    } else {
        body["supplierId"] = json!(f.supplier);
    }
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().or_else(|| res.json()["id"].as_i64()).expect("sheet id");
    if approve {
        let ok = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"confirmed": true, "warehouseId": f.warehouse})).await;
        assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    }
    id
}

async fn cost(app: &TestApp, p: i64) -> i64 {
    app.state.db.run(move |c| Ok(products::table.find(p).select(products::cost_price).first::<i64>(c)?)).await.unwrap()
}

async fn allocations(app: &TestApp) -> i64 {
    app.state.db.run(|c| Ok(landed_costs::table.count().get_result::<i64>(c)?)).await.unwrap()
}

/// Posts the form; answers the response.
async fn allocate(app: &TestApp, s: &Session, source: i64, kind: &str, method: &str, amount: &str, targets: &[i64]) -> crate::support::TestResponse {
    let ts: Vec<String> = targets.iter().map(i64::to_string).collect();
    let src = source.to_string();
    let mut pairs: Vec<(&str, &str)> = vec![("source_id", &src), ("kind", kind), ("method", method), ("amount", amount)];
    for t in &ts {
        pairs.push(("target", t));
    }
    app.post_form("/landed_costs", s, &pairs).await
}

fn id_from(location: &str) -> i64 {
    location.trim_start_matches("/landed_costs/").split('?').next().unwrap().parse().expect("allocation id")
}

#[tokio::test]
async fn landed_costs_raise_the_cost_by_what_is_in_stock_and_unapprove_exactly() {
    let app = TestApp::new().start().await;
    let approver = app.session("approver@demo.test").await;
    let sales = app.session("sales@demo.test").await;
    let f = fixture(&app).await;

    // Bill A: P1 10 × $100, P2 10 × $50; bill B: P1 10 × $100 (no tax: the AUD amounts as typed).
    let a = sheet(&app, &approver, &f, 4, 1, &[(f.p1, 10, 10_000), (f.p2, 10, 5_000)], true).await;
    let b = sheet(&app, &approver, &f, 4, 1, &[(f.p1, 10, 10_000)], true).await;
    assert_eq!((cost(&app, f.p1).await, cost(&app, f.p2).await), (10_000, 5_000));
    // Five of P1 sold: 15 left of the 20 received.
    sheet(&app, &approver, &f, 1, 3, &[(f.p1, 5, 20_000)], true).await;

    // Freight $330 incl. GST: $300 ex GST is what is allocated (GST is claimable).
    let freight = sheet(&app, &approver, &f, 4, 2, &[(f.freight_product, 1, 33_000)], true).await;
    let form = app.get(&format!("/landed_costs/new?source_id={freight}"), Some(&approver)).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    let bill_page = app.get(&format!("/order_detail/bills/{freight}"), Some(&approver)).await;
    assert!(bill_page.body.contains("Allocate landed cost"), "the approved bill offers the allocation");

    let res = allocate(&app, &approver, freight, "1", "1", "", &[a, b]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let lc1 = id_from(res.location());
    let page = app.get(&format!("/landed_costs/{lc1}"), Some(&approver)).await;
    assert!(page.body.contains("300.00"), "the amount is the bill's ex GST: {}", page.body);
    let ok = app.post_form(&format!("/landed_costs/{lc1}/approve"), &approver, &[]).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    // By value: A-P1 $120, A-P2 $60, B-P1 $120. P1 holds 15: A's 10 all in stock, B's 5 of 10 →
    // $60 of B's share to COGS; P1 + $180 / 15 = $12.00 each, P2 + $60 / 10 = $6.00 each.
    assert_eq!((cost(&app, f.p1).await, cost(&app, f.p2).await), (11_200, 5_600));
    let page = app.get(&format!("/landed_costs/{lc1}"), Some(&approver)).await;
    assert!(page.body.contains(r#"id="total-to-cogs">$60.00"#), "the COGS part is shown: {}", page.body);
    assert!(page.body.contains(r#"id="total-to-stock">$240.00"#));
    assert!(page.body.contains("$100.00") && page.body.contains("$112.00"), "old → new cost");

    // Duty $200 by quantity over bill A: $100 to each line; P1 holds 15 ≥ 10 → + $100 / 15 = 6.67.
    let duty = sheet(&app, &approver, &f, 4, 1, &[(f.freight_product, 1, 20_000)], true).await;
    let res = allocate(&app, &approver, duty, "2", "2", "", &[a]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let lc2 = id_from(res.location());
    assert_eq!(app.post_form(&format!("/landed_costs/{lc2}/approve"), &approver, &[]).await.status, StatusCode::SEE_OTHER);
    assert_eq!((cost(&app, f.p1).await, cost(&app, f.p2).await), (11_867, 6_600));

    // The quoting COST column shows the landed cost to the approver.
    let quoting = app.get(&format!("/quotings?key={}", f.p1_code), Some(&approver)).await;
    assert!(quoting.body.contains("118.67"), "{}", quoting.body);
    // A new invoice line keeps it as its cost.
    let inv = sheet(&app, &approver, &f, 1, 3, &[(f.p1, 1, 20_000)], true).await;
    let kept: i64 = app.state.db.run(move |c| Ok(order_lines::table.filter(order_lines::order_id.eq(inv)).select(order_lines::cost_price).first(c)?)).await.unwrap();
    assert_eq!(kept, 11_867);

    // The cost bill's and each target's history say so.
    let events: Vec<(i64, String)> = app.state.db.run(|c| Ok(order_events::table.select((order_events::order_id, order_events::action)).load(c)?)).await.unwrap();
    let said = format!("Landed cost {} allocated", domain::landed::number(lc1));
    for bill in [freight, a, b] {
        assert!(events.iter().any(|(o, e)| *o == bill && *e == said), "{bill}: {said}");
    }

    // The bills stay approved while an allocation is.
    let refused = app.post_json(&format!("/api/orders/{a}/unApprove"), &approver, json!({})).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.body.contains(&domain::landed::number(lc1)) || refused.body.contains(&domain::landed::number(lc2)), "{}", refused.body);
    let refused = app.post_json(&format!("/api/orders/{freight}/unApprove"), &approver, json!({})).await;
    assert!(refused.body.contains(&domain::landed::number(lc1)), "{}", refused.body);

    // The bill page lists them; a sales user sees neither the section nor the pages.
    let bill_page = app.get(&format!("/order_detail/bills/{a}"), Some(&approver)).await;
    assert!(bill_page.body.contains(&domain::landed::number(lc1)) && bill_page.body.contains(&domain::landed::number(lc2)));
    let bill_page = app.get(&format!("/order_detail/bills/{a}"), Some(&sales)).await;
    assert!(!bill_page.body.contains(r#"id="landed-costs""#));
    for path in [format!("/landed_costs/{lc1}"), "/landed_costs".to_string(), format!("/products/{}/cost_history", f.p1), format!("/landed_costs/new?source_id={freight}")] {
        let res = app.get(&path, Some(&sales)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}");
        assert!(!res.body.contains("118.67") && !res.body.contains("112.00"), "{path}");
    }
    assert_eq!(app.post_form(&format!("/landed_costs/{lc2}/unapprove"), &sales, &[]).await.status, StatusCode::FORBIDDEN);

    // Unapprove in reverse: exactly the costs before each.
    assert_eq!(app.post_form(&format!("/landed_costs/{lc2}/unapprove"), &approver, &[]).await.status, StatusCode::SEE_OTHER);
    assert_eq!((cost(&app, f.p1).await, cost(&app, f.p2).await), (11_200, 5_600));
    assert_eq!(app.post_form(&format!("/landed_costs/{lc1}/unapprove"), &approver, &[]).await.status, StatusCode::SEE_OTHER);
    assert_eq!((cost(&app, f.p1).await, cost(&app, f.p2).await), (10_000, 5_000));
    // Now the bill may be unapproved again.
    assert_eq!(app.post_json(&format!("/api/orders/{freight}/unApprove"), &approver, json!({})).await.status, StatusCode::OK);

    // The cost history shows every step, linked.
    let history = app.get(&format!("/products/{}/cost_history", f.p1), Some(&approver)).await;
    assert_eq!(history.status, StatusCode::OK);
    for text in ["approved", &format!("Landed cost {} allocated", domain::landed::number(lc1)), &format!("Landed cost {} reversed", domain::landed::number(lc2)), "$118.67", "$112.00", "$100.00"] {
        assert!(history.body.contains(text), "{text}: {}", history.body);
    }
    let steps: i64 = app.state.db.run(move |c| Ok(cost_changes::table.filter(cost_changes::product_id.eq(f.p1)).count().get_result(c)?)).await.unwrap();
    // Bill A (0 → 100), lc1, lc2, lc2 reversed, lc1 reversed (bill B left the average at $100).
    assert_eq!(steps, 5);
}

#[tokio::test]
async fn refusals_say_why_and_change_nothing() {
    let app = TestApp::new().start().await;
    let approver = app.session("approver@demo.test").await;
    let f = fixture(&app).await;
    let a = sheet(&app, &approver, &f, 4, 1, &[(f.p1, 10, 10_000)], true).await;
    let freight = sheet(&app, &approver, &f, 4, 1, &[(f.freight_product, 1, 30_000)], true).await;
    let draft = sheet(&app, &approver, &f, 4, 1, &[(f.p1, 10, 10_000)], false).await;
    let voided = sheet(&app, &approver, &f, 4, 1, &[(f.p1, 10, 10_000)], false).await;
    assert_eq!(app.post_json(&format!("/api/orders/{voided}/void"), &approver, json!({})).await.status, StatusCode::OK);
    let foreign: i64 = app.state.db.run(|c| Ok(orders::table.filter(orders::org_id.ne(ORG)).select(orders::id).first(c)?)).await.unwrap();
    let credit = sheet(&app, &approver, &f, 5, 1, &[(f.freight_product, 1, 5_000_000)], true).await;
    let draft_cost = sheet(&app, &approver, &f, 4, 1, &[(f.freight_product, 1, 30_000)], false).await;

    let before = (allocations(&app).await, cost(&app, f.p1).await);
    let cases: Vec<(i64, Vec<i64>, &str, String)> = vec![
        (freight, vec![draft], "", "is a draft".into()),
        (freight, vec![voided], "", "is voided".into()),
        (freight, vec![foreign], "", "This sheet does not exist in this company.".into()),
        (foreign, vec![a], "", "This sheet does not exist in this company.".into()),
        (draft_cost, vec![a], "", "is a draft".into()),
        (freight, vec![freight], "", "is the cost bill itself".into()),
        (freight, vec![a], "301", "must be within what is left".into()),
        (credit, vec![a], "", format!("would make the cost of {} negative", f.p1_code)),
    ];
    for (source, targets, amount, message) in cases {
        let res = allocate(&app, &approver, source, "1", "1", amount, &targets).await;
        assert!(res.status.is_client_error(), "{source} → {targets:?}: {} {}", res.status, res.body);
        assert!(res.body.contains(&message), "{message}: {}", res.body);
        assert_eq!((allocations(&app).await, cost(&app, f.p1).await), before, "nothing changed");
    }

    // Fully allocated: a second allocation of the whole bill is refused.
    let first = allocate(&app, &approver, freight, "1", "1", "", &[a]).await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.body);
    let res = allocate(&app, &approver, freight, "1", "1", "", &[a]).await;
    assert!(res.body.contains("already fully allocated"), "{}", res.body);

    // Editing the draft down to $100 leaves $200 for another allocation.
    let lc = id_from(first.location());
    let edit = app.get(&format!("/landed_costs/{lc}/edit"), Some(&approver)).await;
    assert_eq!(edit.status, StatusCode::OK, "{}", edit.body);
    let version = crate::support::extract_input(&edit.body, "version");
    let (src, target) = (freight.to_string(), a.to_string());
    let res = app.post_form(&format!("/landed_costs/{lc}/edit"), &approver, &[("version", &version), ("source_id", &src), ("kind", "1"), ("method", "2"), ("amount", "100"), ("target", &target)]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    // The same version again is stale.
    let stale = app.post_form(&format!("/landed_costs/{lc}/edit"), &approver, &[("version", &version), ("source_id", &src), ("kind", "1"), ("method", "2"), ("amount", "50"), ("target", &target)]).await;
    assert!(stale.body.contains("changed meanwhile"), "{}", stale.body);
    let second = allocate(&app, &approver, freight, "1", "1", "", &[a]).await;
    assert_eq!(second.status, StatusCode::SEE_OTHER, "{}", second.body);
    let amounts: Vec<i64> = app.state.db.run(|c| Ok(landed_costs::table.order(landed_costs::id.asc()).select(landed_costs::amount).load(c)?)).await.unwrap();
    assert_eq!(amounts, vec![10_000, 20_000]);
}

#[tokio::test]
async fn unapprove_after_another_bill_moved_the_cost_takes_the_same_delta_off() {
    let app = TestApp::new().start().await;
    let approver = app.session("approver@demo.test").await;
    let f = fixture(&app).await;
    let a = sheet(&app, &approver, &f, 4, 1, &[(f.p2, 10, 5_000)], true).await;
    let freight = sheet(&app, &approver, &f, 4, 1, &[(f.freight_product, 1, 10_000)], true).await;
    let res = allocate(&app, &approver, freight, "1", "2", "", &[a]).await;
    let lc = id_from(res.location());
    assert_eq!(app.post_form(&format!("/landed_costs/{lc}/approve"), &approver, &[]).await.status, StatusCode::SEE_OTHER);
    assert_eq!(cost(&app, f.p2).await, 6_000, "$50 + $100 / 10");
    // Another bill: 10 more at $80 → (10 × 60 + 10 × 80) / 20 = $70.
    sheet(&app, &approver, &f, 4, 1, &[(f.p2, 10, 8_000)], true).await;
    assert_eq!(cost(&app, f.p2).await, 7_000);
    assert_eq!(app.post_form(&format!("/landed_costs/{lc}/unapprove"), &approver, &[]).await.status, StatusCode::SEE_OTHER);
    assert_eq!(cost(&app, f.p2).await, 6_000, "the recorded $10.00 a unit comes off what the cost is now");
    let history = app.get(&format!("/products/{}/cost_history", f.p2), Some(&approver)).await;
    assert!(history.body.contains("$70.00") && history.body.contains("reversed"), "{}", history.body);
}
