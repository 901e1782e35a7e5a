//! The dispatch board (issue 34): which sheets a day and warehouse lists, bulk status and
//! Assign (all or nothing, scoped to the company and the warehouse), a run's page (stop
//! order, the driver's link), the reconciliation (page and xlsx) and closing the day.

use std::io::Cursor;

use axum::http::StatusCode;
use calamine::{Data, Reader, Xlsx};
use chrono::NaiveDate;
use diesel::prelude::*;
use serde_json::json;

use crate::support::{Session, TestApp};
use db::schema::{customers, dispatch_runs, order_events, orders, products, run_stops, users, warehouses};

const ORG: i64 = 4;
/// A day far from the demo data's, so the board holds only this test's sheets.
const DAY: &str = "2030-06-03";

fn day() -> NaiveDate {
    NaiveDate::parse_from_str(DAY, "%Y-%m-%d").unwrap()
}

struct Fixture {
    product: i64,
    price: i64,
    w1: i64,
    w2: i64,
    /// Two customers, `customers[0]` first by name.
    customers: [(i64, String); 2],
    driver: i64,
    approver: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            let (product, price) = products::table
                .filter(products::org_id.eq(ORG))
                .filter(products::category.eq(1))
                .filter(products::class_a_price.gt(5_000))
                .select((products::id, products::class_a_price))
                .order(products::id.asc())
                .first(c)?;
            let whs: Vec<i64> = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).load(c)?;
            let mut cs: Vec<(i64, String)> =
                customers::table.filter(customers::org_id.eq(ORG)).filter(customers::payment_type.ne(10)).select((customers::id, customers::name)).order(customers::id.asc()).limit(2).load(c)?;
            cs.sort_by_key(|(_, n)| n.to_lowercase());
            let driver = users::table.filter(users::email.eq("driver@demo.test")).select(users::id).first(c)?;
            let approver = users::table.filter(users::email.eq("approver@demo.test")).select(users::id).first(c)?;
            Ok(Fixture { product, price, w1: whs[0], w2: whs[1], customers: [cs[0].clone(), cs[1].clone()], driver, approver })
        })
        .await
        .unwrap()
}

/// How a test sheet ships.
#[derive(Clone, Copy)]
struct Ship {
    warehouse: i64,
    customer: i64,
    ship_type: i32,
    area: Option<i32>,
    /// The sheet's payment type (5 is COD+CASH), `None` for an account customer (Monthly).
    payment: Option<i32>,
    approve: bool,
}

/// An invoice of the day through the API, approved unless told, then given its ship type,
/// area, payment type and no delivery date: (id, number).
async fn sheet(app: &TestApp, s: &Session, f: &Fixture, ship: Ship) -> (i64, String) {
    let lines = json!([{"seq": 1, "productId": f.product, "quantity": 2, "price": f.price}]);
    let body = json!({"type": 1, "customerId": ship.customer, "warehouseId": ship.warehouse, "date": DAY, "lines": lines});
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    if ship.approve {
        let ok = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"warehouseId": ship.warehouse, "confirmed": true})).await;
        assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    }
    let payment = ship.payment.unwrap_or(14);
    app.state
        .db
        .run(move |c| {
            diesel::update(orders::table.find(id))
                .set((
                    orders::ship_type.eq(ship.ship_type),
                    orders::area_type.eq(ship.area),
                    orders::delivery_date.eq(None::<NaiveDate>),
                    orders::order_date.eq(day()),
                    orders::payment_type.eq(Some(payment)),
                    orders::actual_pay_type.eq(0),
                    orders::delivery_status.eq(0),
                ))
                .execute(c)?;
            Ok(orders::table.find(id).select(orders::no).first::<String>(c)?)
        })
        .await
        .map(|no| (id, no))
        .unwrap()
}

fn delivery(f: &Fixture) -> Ship {
    Ship { warehouse: f.w1, customer: f.customers[0].0, ship_type: 1, area: Some(1), payment: None, approve: true }
}

async fn status_of(app: &TestApp, id: i64) -> i32 {
    app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::delivery_status).first::<i32>(c)?)).await.unwrap()
}

async fn events_of(app: &TestApp, id: i64) -> Vec<String> {
    app.state.db.run(move |c| Ok(order_events::table.filter(order_events::order_id.eq(id)).order(order_events::id.asc()).select(order_events::action).load::<String>(c)?)).await.unwrap()
}

async fn runs_of_day(app: &TestApp) -> Vec<(i64, String, i64)> {
    app.state
        .db
        .run(|c| Ok(dispatch_runs::table.filter(dispatch_runs::org_id.eq(ORG)).filter(dispatch_runs::run_date.eq(day())).select((dispatch_runs::id, dispatch_runs::name, dispatch_runs::driver_id)).load(c)?))
        .await
        .unwrap()
}

fn board_url(f: &Fixture) -> String {
    format!("/dispatch?warehouse_id={}&date={DAY}", f.w1)
}

/// Where each sheet number first appears in `html` (to check an order on the page).
fn at(html: &str, no: &str) -> usize {
    html.find(&format!(">{no}<")).unwrap_or_else(|| panic!("{no} is not on the page"))
}

async fn follow_ok(app: &TestApp, res: &crate::support::TestResponse, s: &Session) -> String {
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let page = app.follow(res, s).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    page.body
}

#[tokio::test]
async fn the_board_lists_the_days_approved_sheets_of_its_warehouse_and_company_only() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    let (a, a_no) = sheet(&app, &s, &f, delivery(&f)).await;
    let (b, b_no) = sheet(&app, &s, &f, Ship { ship_type: 4, area: Some(2), ..delivery(&f) }).await;
    // A credit note of the day: the driver picks the goods up.
    app.state.db.run(move |c| Ok(diesel::update(orders::table.find(b)).set((orders::order_type.eq(2), orders::delivery_status.eq(1))).execute(c)?)).await.unwrap();
    let (_, draft_no) = sheet(&app, &s, &f, Ship { approve: false, ..delivery(&f) }).await;
    let (_, other_wh_no) = sheet(&app, &s, &f, Ship { warehouse: f.w2, ..delivery(&f) }).await;
    let (e, other_org_no) = sheet(&app, &s, &f, delivery(&f)).await;
    app.state.db.run(move |c| Ok(diesel::update(orders::table.find(e)).set((orders::org_id.eq(9), orders::no.eq("INV-OTHER-ORG"))).execute(c)?)).await.unwrap();
    let _ = other_org_no;

    let res = app.get(&board_url(&f), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let html = res.body;
    for no in [&a_no, &b_no] {
        assert!(html.contains(&format!(r#"aria-label="Select {no}""#)), "{no} is on the board");
    }
    assert!(html.contains(&format!(r#"name="order_id" value="{a}""#)));
    assert!(html.contains(&format!(r#"href="/order_detail/invoices/{a}""#)), "the number links to the sheet");
    assert!(html.contains(&format!(r#"href="/order_detail/credit_notes/{b}""#)), "the credit note links to its detail");
    for no in [&draft_no, &other_wh_no, &"INV-OTHER-ORG".to_string()] {
        assert!(!html.contains(no.as_str()), "{no} is not on this board");
    }
    // Wording per ship type, no driver yet, grouped by area then driver.
    assert!(html.contains(">Confirmed<"), "a driver pick-up that is Ready reads Confirmed");
    assert!(html.contains("North · not assigned") && html.contains("South · not assigned"), "group headings by area and driver");
    assert!(html.contains(r#"href="/dispatch""#), "the menu links to Dispatch");

    // Filters: pick-ups by the driver only; the table alone for the polling.
    let res = app.get(&format!("{}&group=driver_pickups", board_url(&f)), Some(&s)).await;
    assert!(res.body.contains(&b_no) && !res.body.contains(&format!(">{a_no}<")));
    let res = app.get(&format!("{}&area=1&part=table", board_url(&f)), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(!res.body.contains("<html") && res.body.contains(r#"id="board-table""#) && res.body.contains(&a_no) && !res.body.contains(&b_no));

    // Without parameters: today, the company's default (or first) warehouse.
    let res = app.get("/dispatch", Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    // Another company's warehouse is refused with a message.
    let foreign: i64 = app.state.db.run(|c| Ok(warehouses::table.filter(warehouses::org_id.ne(ORG)).select(warehouses::id).first(c)?)).await.unwrap();
    let res = app.get(&format!("/dispatch?warehouse_id={foreign}&date={DAY}"), Some(&s)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("That warehouse is not one of this company&#x27;s.") || res.body.contains("That warehouse is not one of this company"), "{}", res.body);
}

#[tokio::test]
async fn set_status_writes_each_sheets_ship_type_wording_in_its_history() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    let (a, a_no) = sheet(&app, &s, &f, Ship { ship_type: 2, ..delivery(&f) }).await;
    let (b, _) = sheet(&app, &s, &f, Ship { ship_type: 5, ..delivery(&f) }).await;
    let (c, _) = sheet(&app, &s, &f, delivery(&f)).await;
    let (a_s, b_s, c_s) = (a.to_string(), b.to_string(), c.to_string());
    let w = f.w1.to_string();
    let res = app.post_form("/dispatch/status", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &a_s), ("order_id", &b_s), ("order_id", &c_s), ("delivery_status", "3")]).await;
    let html = follow_ok(&app, &res, &s).await;
    assert!(html.contains("Delivery status set to Finished on 3 sheets."), "the notice says what changed");
    assert!(html.contains(">Picked up<") && html.contains(">Returned<") && html.contains(">Delivered<"));
    assert!(at(&html, &a_no) > 0);
    assert!(events_of(&app, a).await.contains(&"Delivery: Picked up (dispatch board)".to_string()));
    assert!(events_of(&app, b).await.contains(&"Delivery: Returned (dispatch board)".to_string()));
    assert!(events_of(&app, c).await.contains(&"Delivery: Delivered (dispatch board)".to_string()));

    // Nothing chosen, or no status: refused with the message, nothing written.
    let res = app.post_form("/dispatch/status", &s, &[("warehouse_id", &w), ("date", DAY), ("delivery_status", "1")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("Choose one or more sheets first."));
    let res = app.post_form("/dispatch/status", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &a_s), ("delivery_status", "")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("Choose a delivery status."));
    assert!(res.body.contains(&format!(r#"value="{a}" aria-label="Select {a_no}" checked"#)), "the chosen sheet stays ticked");
    assert_eq!(status_of(&app, a).await, 3);
}

#[tokio::test]
async fn a_sheet_of_another_company_or_warehouse_is_refused_and_nothing_changes() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    let (a, _) = sheet(&app, &s, &f, delivery(&f)).await;
    let (d, d_no) = sheet(&app, &s, &f, Ship { warehouse: f.w2, ..delivery(&f) }).await;
    let (e, _) = sheet(&app, &s, &f, delivery(&f)).await;
    app.state.db.run(move |c| Ok(diesel::update(orders::table.find(e)).set(orders::org_id.eq(9)).execute(c)?)).await.unwrap();
    let before = events_of(&app, a).await.len();
    let (w, a_s, d_s, e_s, drv) = (f.w1.to_string(), a.to_string(), d.to_string(), e.to_string(), f.driver.to_string());

    let res = app.post_form("/dispatch/status", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &a_s), ("order_id", &d_s), ("delivery_status", "2")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains(&format!("{d_no} ships from another warehouse: it is not on this board.")), "{}", res.body);
    let res = app.post_form("/dispatch/status", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &a_s), ("order_id", &e_s), ("delivery_status", "2")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("A sheet you chose does not exist in this company."));
    let res = app.post_form("/dispatch/assign", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &a_s), ("order_id", &e_s), ("driver_id", &drv), ("run_name", "Morning North")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("A sheet you chose does not exist in this company."));
    let res = app.post_form("/dispatch/status", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", "not-a-number"), ("delivery_status", "2")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);

    assert_eq!(status_of(&app, a).await, 0, "the good sheet did not change either");
    assert_eq!(events_of(&app, a).await.len(), before);
    assert!(runs_of_day(&app).await.is_empty(), "no run was made");
    let driver: Option<i64> = app.state.db.run(move |c| Ok(orders::table.find(a).select(orders::driver_id).first(c)?)).await.unwrap();
    assert_eq!(driver, None);
}

#[tokio::test]
async fn a_counter_pick_up_cannot_go_on_a_run() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    let (a, a_no) = sheet(&app, &s, &f, Ship { ship_type: 2, ..delivery(&f) }).await;
    let (w, a_s, drv) = (f.w1.to_string(), a.to_string(), f.driver.to_string());
    let res = app.post_form("/dispatch/assign", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &a_s), ("driver_id", &drv), ("run_name", "Morning North")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains(&a_no) && res.body.contains("Pick-up"), "{}", res.body);
    assert!(res.body.contains(r#"value="Morning North""#), "what was typed stays");
    assert!(runs_of_day(&app).await.is_empty());
    // No driver or no run name: refused with the field's message.
    let (b, _) = sheet(&app, &s, &f, delivery(&f)).await;
    let b_s = b.to_string();
    let res = app.post_form("/dispatch/assign", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &b_s), ("driver_id", ""), ("run_name", "Morning North")]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("Choose a driver."));
}

#[tokio::test]
async fn assign_makes_the_run_in_area_then_customer_order_and_the_run_page_reorders_and_links() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    let (first_c, second_c) = (f.customers[0].0, f.customers[1].0);
    let (x, x_no) = sheet(&app, &s, &f, Ship { area: Some(2), customer: first_c, ..delivery(&f) }).await;
    let (y, y_no) = sheet(&app, &s, &f, Ship { area: Some(1), customer: second_c, ..delivery(&f) }).await;
    let (z, z_no) = sheet(&app, &s, &f, Ship { area: Some(1), customer: first_c, ..delivery(&f) }).await;
    let (w, drv) = (f.w1.to_string(), f.driver.to_string());
    let (xs, ys, zs) = (x.to_string(), y.to_string(), z.to_string());
    let res = app.post_form("/dispatch/assign", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &xs), ("order_id", &ys), ("order_id", &zs), ("driver_id", &drv), ("run_name", "Morning North")]).await;
    let html = follow_ok(&app, &res, &s).await;
    assert!(html.contains("3 sheets assigned to Dan Driver on the run Morning North (3 stops)."), "{html}");
    let runs = runs_of_day(&app).await;
    assert_eq!(runs.len(), 1);
    let (run, name, driver) = runs[0].clone();
    assert_eq!((name.as_str(), driver), ("Morning North", f.driver));
    assert!(html.contains(&format!(r#"href="/dispatch/runs/{run}""#)), "the board lists the run");
    assert!(html.contains("North · Dan Driver"), "the rows are grouped under their driver now");
    for id in [x, y, z] {
        let d: Option<i64> = app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::driver_id).first(c)?)).await.unwrap();
        assert_eq!(d, Some(f.driver));
        assert!(events_of(&app, id).await.contains(&"Driver assigned: Dan Driver · Run: Morning North".to_string()));
    }

    // The run page: area 1 first (its customers by name), then area 2.
    let page = app.get(&format!("/dispatch/runs/{run}"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let p = &page.body;
    assert!(at(p, &z_no) < at(p, &y_no) && at(p, &y_no) < at(p, &x_no), "stops by area, then customer");
    assert!(p.contains(r#"href="/dispatch/runs/"#) || p.contains("/run_sheet"));
    assert!(p.contains(&format!(r#"href="/dispatch/runs/{run}/run_sheet""#)) && p.contains("Run sheet (PDF)"));
    assert!(p.contains("No link"));
    assert!(!p.contains(r#"id="run-link""#));

    // Down on the first stop: it swaps with the second.
    let stops: Vec<(i64, i64)> = app.state.db.run(move |c| Ok(run_stops::table.filter(run_stops::run_id.eq(run)).order(run_stops::position.asc()).select((run_stops::id, run_stops::order_id)).load(c)?)).await.unwrap();
    assert_eq!(stops.iter().map(|s| s.1).collect::<Vec<_>>(), vec![z, y, x]);
    let res = app.post_form(&format!("/dispatch/runs/{run}/stops/{}/down", stops[0].0), &s, &[]).await;
    let p = follow_ok(&app, &res, &s).await;
    assert!(at(&p, &y_no) < at(&p, &z_no) && at(&p, &z_no) < at(&p, &x_no), "Down moved it one place");
    let res = app.post_form(&format!("/dispatch/runs/{run}/stops/{}/up", stops[2].0), &s, &[]).await;
    let p = follow_ok(&app, &res, &s).await;
    assert!(at(&p, &y_no) < at(&p, &x_no) && at(&p, &x_no) < at(&p, &z_no), "Up moved it one place");
    // Remove takes a stop off; the sheet leaves the run.
    let res = app.post_form(&format!("/dispatch/runs/{run}/stops/{}/remove", stops[2].0), &s, &[]).await;
    let p = follow_ok(&app, &res, &s).await;
    assert!(!p.contains(&format!(">{x_no}<")));

    // A link: made, shown in full, replaced, revoked.
    let res = app.post_form(&format!("/dispatch/runs/{run}/link"), &s, &[]).await;
    let p = follow_ok(&app, &res, &s).await;
    assert!(p.contains("Live until"), "{p}");
    let token = |p: &str| p.split(r#"id="run-link" href=""#).nth(1).map(|r| r.split('"').next().unwrap().to_string());
    let first = token(&p).expect("the link is shown");
    assert!(first.starts_with("http") && first.contains("/r/"), "{first}");
    let res = app.post_form(&format!("/dispatch/runs/{run}/link"), &s, &[]).await;
    let p = follow_ok(&app, &res, &s).await;
    let second = token(&p).expect("a new link");
    assert_ne!(first, second, "New link replaces the old one");
    let res = app.post_form(&format!("/dispatch/runs/{run}/link/revoke"), &s, &[]).await;
    let p = follow_ok(&app, &res, &s).await;
    assert!(token(&p).is_none() && p.contains("No link"));

    // Another company's run is not found, and its stops cannot be moved.
    app.state.db.run(move |c| Ok(diesel::update(dispatch_runs::table.find(run)).set(dispatch_runs::org_id.eq(9)).execute(c)?)).await.unwrap();
    assert_eq!(app.get(&format!("/dispatch/runs/{run}"), Some(&s)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form(&format!("/dispatch/runs/{run}/stops/{}/up", stops[1].0), &s, &[]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form(&format!("/dispatch/runs/{run}/link"), &s, &[]).await.status, StatusCode::NOT_FOUND);
}

fn cells(bytes: &[u8]) -> Vec<Vec<Data>> {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an xlsx file");
    let range = book.worksheet_range("Reconciliation").expect("the sheet");
    range.rows().map(<[Data]>::to_vec).collect()
}

#[tokio::test]
async fn reconciliation_sets_expected_against_collected_and_close_day_sends_the_rest_back() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let f = fixture(&app).await;
    // A COD+CASH invoice the driver delivers and is paid for (short by $10), and an account
    // customer's the driver cannot deliver.
    let (cod, _) = sheet(&app, &s, &f, Ship { payment: Some(5), ..delivery(&f) }).await;
    let (acct, acct_no) = sheet(&app, &s, &f, Ship { area: Some(2), customer: f.customers[1].0, ..delivery(&f) }).await;
    let due: i64 = app.state.db.run(move |c| Ok(orders::table.find(cod).select(orders::total_amount).first(c)?)).await.unwrap();
    let (w, drv, cs, als) = (f.w1.to_string(), f.driver.to_string(), cod.to_string(), acct.to_string());
    let res = app.post_form("/dispatch/status", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &cs), ("order_id", &als), ("delivery_status", "2")]).await;
    follow_ok(&app, &res, &s).await;
    let res = app.post_form("/dispatch/assign", &s, &[("warehouse_id", &w), ("date", DAY), ("order_id", &cs), ("order_id", &als), ("driver_id", &drv), ("run_name", "Morning North")]).await;
    let board = follow_ok(&app, &res, &s).await;
    let cents = |c: i64| format!("${}", domain::money::Cents(c));
    assert!(board.contains(&format!("{} Cash", cents(due))), "the board says what to collect");

    // The driver records both stops (as the phone would post them).
    let run = runs_of_day(&app).await[0].0;
    let actor = domain::Actor { org_id: ORG, user_id: f.approver, name: "Alex Approver".into(), role: domain::enums::Role::Approver, is_acct: true, crt_csr: true };
    let token = services::dispatch::issue_link(&app.state, &actor, run).await.unwrap();
    let stops: Vec<(i64, i64)> = app.state.db.run(move |c| Ok(run_stops::table.filter(run_stops::run_id.eq(run)).select((run_stops::id, run_stops::order_id)).load(c)?)).await.unwrap();
    let stop_of = |o: i64| stops.iter().find(|s| s.1 == o).unwrap().0;
    let paid = due - 1_000;
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let done = domain::dispatch::StopInput {
        outcome: "done".into(),
        received_by: "Sam at the counter".into(),
        collected: format!("{}.{:02}", paid / 100, paid % 100),
        pay_type: Some(1),
        ..Default::default()
    };
    let proof = services::dispatch::Proof { kind: domain::dispatch::ProofKind::Signature, bytes: png };
    services::dispatch::driver_record(&app.state, token.clone(), stop_of(cod), "key-1".into(), done, Some(proof)).await.unwrap();
    let not_done = domain::dispatch::StopInput { outcome: "not_done".into(), reason: "Shop closed".into(), ..Default::default() };
    services::dispatch::driver_record(&app.state, token, stop_of(acct), "key-2".into(), not_done, None).await.unwrap();

    // The run page shows what was recorded, with the proof.
    let p = app.get(&format!("/dispatch/runs/{run}"), Some(&s)).await.body;
    assert!(p.contains("Received by: Sam at the counter") && p.contains("Reason: Shop closed"), "{p}");
    assert!(p.contains(&format!(r#"src="/dispatch/proofs/{}""#, stop_of(cod))));

    let url = format!("/dispatch/reconciliation?warehouse_id={}&date={DAY}", f.w1);
    let res = app.get(&url, Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let r = res.body;
    assert!(r.contains(&format!(r#"id="total-expected">{}<"#, cents(due))), "{r}");
    assert!(r.contains(&format!(r#"id="total-collected">{}<"#, cents(paid))));
    assert!(r.contains(&format!(r#"id="total-difference">{}<"#, cents(-1_000))));
    assert!(r.contains(&acct_no) && r.contains("Shop closed"), "the stop not done is listed with its reason");
    assert!(r.contains("Close day"));

    // The xlsx holds the same figures, as numbers.
    let x = app.get(&format!("{url}&format=xlsx"), Some(&s)).await;
    assert_eq!(x.status, StatusCode::OK);
    let rows = cells(&x.bytes);
    let line = rows.iter().find(|r| r.first() == Some(&Data::String("Dan Driver".into())) && r.get(1) == Some(&Data::String("Cash".into()))).expect("Dan Driver's cash line");
    assert_eq!(line[2], Data::Float(due as f64 / 100.0));
    assert_eq!(line[3], Data::Float(paid as f64 / 100.0));
    assert_eq!(line[4], Data::Float(-10.0));
    assert!(rows.iter().any(|r| r.get(1) == Some(&Data::String(acct_no.clone())) && r.get(5) == Some(&Data::String("Shop closed".into()))));

    // Close the day: the stop not done goes back to Preparing; the run closes.
    let res = app.post_form("/dispatch/close_day", &s, &[("warehouse_id", &w), ("date", DAY)]).await;
    let r = follow_ok(&app, &res, &s).await;
    assert!(r.contains("The day is closed: 1 sheet went back to Preparing."), "{r}");
    assert!(r.contains("The day is closed.") && !r.contains(">Close day<"));
    assert_eq!(status_of(&app, acct).await, 0);
    assert_eq!(status_of(&app, cod).await, 3, "the delivered one stays Finished");
    assert!(events_of(&app, acct).await.iter().any(|e| e.contains("back to Preparing")));
    let p = app.get(&format!("/dispatch/runs/{run}"), Some(&s)).await.body;
    assert!(p.contains("The run is closed"));
}

/// The board's statement reads two ranges of `orders_dispatch` (the days' dated sheets, and
/// the few without a delivery date by their own date), with the index statistics of scale L.
/// (The plan that once read every undated sheet of the warehouse at L, 93 ms against 1 ms,
/// needed L's value samples as well to appear; `tyredesk bench --scenario "dispatch board"`
/// at L is what caught it.)
#[tokio::test]
async fn the_board_reads_two_ranges_of_its_index() {
    let app = TestApp::new().await;
    if app.state.db.backend() != db::Backend::Sqlite {
        return; // PostgreSQL plans from its own statistics; the bench measures the board at L.
    }
    let day = NaiveDate::parse_from_str(DAY, "%Y-%m-%d").unwrap();
    let plan = app
        .state
        .db
        .run(move |c| {
            use diesel::connection::SimpleConnection;
            c.batch_execute("ANALYZE")?;
            // As ANALYZE writes them at scale L (`tyredesk seed --scale L`).
            c.batch_execute(
                "DELETE FROM sqlite_stat1 WHERE tbl = 'orders';
                 INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
                   ('orders', 'orders_type_status_date', '1000320 500160 71452 20840 14 1'),
                   ('orders', 'orders_type_status', '1000320 500160 71452 20840'),
                   ('orders', 'orders_type_due', '1000320 500160 71452 68'),
                   ('orders', 'orders_type_date', '1000320 500160 71452 39 1 1 1'),
                   ('orders', 'orders_supplier_type', '1000320 500160 33344 12350 9 1'),
                   ('orders', 'orders_self', '1000320 500160 166720 50016 15879 11 1'),
                   ('orders', 'orders_related', '1000320 1000320'),
                   ('orders', 'orders_no', '1000320 500160 1'),
                   ('orders', 'orders_dispatch', '1000320 500160 125040 68 10'),
                   ('orders', 'orders_customer_type', '1000320 500160 198 100 2 1'),
                   ('orders', 'sqlite_autoindex_orders_1', '1000320 500160 71452 1');
                 ANALYZE sqlite_schema;",
            )?;
            let warehouse: i64 = warehouses::table.filter(warehouses::org_id.eq(ORG)).select(warehouses::id).first(c)?;
            db::dispatch::board_plan(c, ORG, warehouse, day)
        })
        .await
        .unwrap();
    let on_index: Vec<&String> = plan.iter().filter(|l| l.contains("orders_dispatch")).collect();
    assert_eq!(on_index.len(), 2, "two ranges of orders_dispatch: {plan:#?}");
    for line in on_index {
        assert!(line.contains("delivery_date>?") || line.contains("order_date>?"), "each a range of days, not every undated sheet: {plan:#?}");
    }
}
