//! One way to show dates and times, in the company's zone (issue 32): sheet history, the
//! settings change log, the Download Center, list date filters, report boundaries and the
//! company's "today" all follow `organisations.time_zone`.

use std::io::Cursor;

use axum::http::StatusCode;
use calamine::{Data, DataType, Reader, Xlsx};
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde_json::json;
use db::schema::{customers, jobs, order_events, orders, organisations, products, warehouses, stock_moves};

use crate::support::{TestApp, between};

const ORG: i64 = 4;

fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d).unwrap().and_hms_opt(h, min, 0).unwrap()
}

async fn set_zone(app: &TestApp, zone: &'static str) {
    app.state.db.run(move |c| Ok(diesel::update(organisations::table.find(ORG)).set(organisations::time_zone.eq(zone)).execute(c)?)).await.unwrap();
}

/// The company's first invoice, with a history row written at `when` (UTC).
async fn invoice_with_event_at(app: &TestApp, when: NaiveDateTime) -> i64 {
    app.state
        .db
        .run(move |c| {
            let id: i64 = orders::table.filter(orders::org_id.eq(ORG)).filter(orders::order_type.eq(1)).select(orders::id).order(orders::id.asc()).first(c)?;
            diesel::insert_into(order_events::table)
                .values((order_events::org_id.eq(ORG), order_events::order_id.eq(id), order_events::operator.eq("Clock Test"), order_events::action.eq("Created"), order_events::created_at.eq(when)))
                .execute(c)?;
            Ok(id)
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn sheet_history_shows_the_time_in_the_companys_zone() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    // 20:11 UTC on 26 Nov: 07:11 on the 27th in Sydney (AEDT, UTC+11).
    let id = invoice_with_event_at(&app, at(2026, 11, 26, 20, 11)).await;
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    let history = between(&page.body, "id=\"dlg-history\"", "</dialog>");
    assert!(history.contains("27 Nov 2026 07:11"), "Sydney time: {history}");
    assert!(!history.contains("26 Nov 2026 20:11"), "not UTC: {history}");
    assert!(history.contains("datetime=\"2026-11-27T07:11:00+11:00\""), "the machine-readable time: {history}");

    // A company in Perth (AWST, UTC+8) reads 04:11.
    set_zone(&app, "Australia/Perth").await;
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    let history = between(&page.body, "id=\"dlg-history\"", "</dialog>");
    assert!(history.contains("27 Nov 2026 04:11"), "Perth time: {history}");
}

#[tokio::test]
async fn the_settings_change_log_shows_the_one_date_time_format_in_the_companys_zone() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    set_zone(&app, "Pacific/Auckland").await;
    app.state
        .db
        .run(|c| {
            use db::schema::audit_log;
            let user: i64 = db::schema::memberships::table.filter(db::schema::memberships::org_id.eq(ORG)).select(db::schema::memberships::user_id).first(c)?;
            diesel::insert_into(audit_log::table)
                .values((audit_log::org_id.eq(ORG), audit_log::user_id.eq(user), audit_log::at.eq(at(2030, 1, 1, 0, 5)), audit_log::entity.eq("settings"), audit_log::action.eq("updated"), audit_log::detail.eq("Clock test")))
                .execute(c)?;
            Ok(())
        })
        .await
        .unwrap();
    let page = app.get("/settings", Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    // 00:05 UTC on 1 Jan is 13:05 the same day in Auckland (NZDT, UTC+13).
    assert!(page.body.contains("01 Jan 2030 13:05"), "{}", between(&page.body, "id=\"audit\"", "</table>"));
    assert!(!page.body.contains("01/01/2030 13:05"));
}

/// Two of the company's customers, renamed, written at 23:30 and 00:30 Perth time around
/// midnight of 14 Oct 2026.
async fn customers_around_perth_midnight(app: &TestApp) -> (i64, i64) {
    app.state
        .db
        .run(|c| {
            let ids: Vec<i64> = customers::table.filter(customers::org_id.eq(ORG)).select(customers::id).order(customers::id.asc()).limit(2).load(c)?;
            // 15:30 UTC is 23:30 in Perth (UTC+8) but already 02:30 on the 15th in Sydney (UTC+11).
            diesel::update(customers::table.find(ids[0])).set((customers::name.eq("Late Evening Tyres"), customers::created_at.eq(at(2026, 10, 14, 15, 30)))).execute(c)?;
            diesel::update(customers::table.find(ids[1])).set((customers::name.eq("Past Midnight Tyres"), customers::created_at.eq(at(2026, 10, 14, 16, 30)))).execute(c)?;
            Ok((ids[0], ids[1]))
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn a_list_date_filter_takes_the_day_in_the_companys_zone() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    set_zone(&app, "Australia/Perth").await;
    customers_around_perth_midnight(&app).await;
    let page = app.get("/customers?date_type=created&from=2026-10-14&to=2026-10-14", Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Late Evening Tyres"), "23:30 Perth time is on the 14th");
    assert!(!page.body.contains("Past Midnight Tyres"), "00:30 Perth time is on the 15th");
    let next = app.get("/customers?date_type=created&from=2026-10-15&to=2026-10-15", Some(&s)).await;
    assert!(next.body.contains("Past Midnight Tyres") && !next.body.contains("Late Evening Tyres"));

    // The export of the same search dates the customer on the company's day.
    let file = app.get("/customers?date_type=created&from=2026-10-14&to=2026-10-14&format=xlsx", Some(&s)).await;
    assert_eq!(file.status, StatusCode::OK);
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(file.bytes)).expect("an xlsx file");
    let rows: Vec<Vec<Data>> = book.worksheet_range("Customers").expect("the sheet").rows().map(|r| r.to_vec()).collect();
    let header = rows.iter().position(|r| r.first().map(|d| d.to_string()).as_deref() == Some("Name")).expect("header");
    let created = rows[header].iter().position(|d| d.to_string() == "Created").unwrap();
    let row = rows.iter().find(|r| r[0].to_string() == "Late Evening Tyres").expect("the customer");
    assert_eq!(row[created].as_date(), NaiveDate::from_ymd_opt(2026, 10, 14));
    assert!(!rows.iter().any(|r| r[0].to_string() == "Past Midnight Tyres"));
}

#[tokio::test]
async fn a_report_boundary_takes_the_day_in_the_companys_zone() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    set_zone(&app, "Australia/Perth").await;
    let (product, warehouse) = app
        .state
        .db
        .run(|c| {
            let p: i64 = products::table.filter(products::org_id.eq(ORG)).select(products::id).order(products::id.asc()).first(c)?;
            let w: i64 = warehouses::table.filter(warehouses::org_id.eq(ORG)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            // Two moves without a sheet: 23:30 on the 14th and 00:30 on the 15th, Perth time.
            for (qty, when) in [(7i64, at(2026, 10, 14, 15, 30)), (11, at(2026, 10, 14, 16, 30))] {
                diesel::insert_into(stock_moves::table)
                    .values((
                        stock_moves::org_id.eq(ORG),
                        stock_moves::warehouse_id.eq(w),
                        stock_moves::product_id.eq(p),
                        stock_moves::qty_delta.eq(qty),
                        stock_moves::in_transit_delta.eq(0i64),
                        stock_moves::unit_cost.eq(0i64),
                        stock_moves::reason.eq("Clock test"),
                        stock_moves::created_at.eq(when),
                    ))
                    .execute(c)?;
            }
            Ok((p, w))
        })
        .await
        .unwrap();
    let bytes = app.report_file(&s, json!({"type": "inventoryDetails", "dateRange": ["2026-10-14", "2026-10-14"], "warehouses": [warehouse], "products": [product]})).await;
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).expect("an xlsx file");
    let rows: Vec<Vec<Data>> = book.worksheet_range("Trace").expect("the sheet").rows().map(|r| r.to_vec()).collect();
    let header = rows.iter().position(|r| r.first().map(|d| d.to_string()).as_deref() == Some("Date")).expect("header");
    let col = |name: &str| rows[header].iter().position(|d| d.to_string() == name).unwrap();
    let moves: Vec<(Option<NaiveDate>, String)> = rows[header + 1..].iter().filter(|r| r[col("Movement")].to_string() == "Clock test").map(|r| (r[col("Date")].as_date(), r[col("In")].to_string())).collect();
    assert_eq!(moves, vec![(NaiveDate::from_ymd_opt(2026, 10, 14), "7".to_string())], "the 23:30 move only, on the 14th");
    // The title states the range the one way.
    let title: Vec<String> = rows[..header].iter().map(|r| r[0].to_string()).collect();
    assert!(title.iter().any(|t| t.ends_with("14 Oct 2026 – 14 Oct 2026")), "{title:?}");
}

#[tokio::test]
async fn the_download_center_shows_ranges_and_times_the_one_way() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let job = app.run_report(&s, json!({"type": "saleSummary", "dateRange": ["2026-10-01", "2026-10-31"]})).await;
    assert_eq!(job["dateRange"], "2026-10-01~2026-10-31", "the API keeps the ISO range");
    let id = job["id"].as_i64().unwrap();
    app.state.db.run(move |c| Ok(diesel::update(jobs::table.find(id)).set(jobs::created_at.eq(at(2026, 11, 26, 20, 11))).execute(c)?)).await.unwrap();
    let page = app.get("/reports_download", Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    let table = between(&page.body, "id=\"report-jobs\"", "</table>");
    assert!(table.contains("01 Oct 2026 – 31 Oct 2026"), "{table}");
    assert!(!table.contains("<td>2026-10-01~2026-10-31</td>"), "the file name keeps it, the cell does not: {table}");
    assert!(table.contains("27 Nov 2026 07:11"), "Sydney time, one format: {table}");
    set_zone(&app, "Australia/Perth").await;
    let table = app.get("/reports_download/jobs", Some(&s)).await.body;
    assert!(table.contains("27 Nov 2026 04:11"), "Perth time: {table}");
}

#[tokio::test]
async fn the_companys_today_is_its_own_date() {
    // Pago Pago (UTC-11) is a day behind Sydney (UTC+11) at all but two hours of the day.
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    set_zone(&app, "Pacific/Pago_Pago").await;
    let job = app.run_report(&s, json!({"type": "slowMoving", "unSoldDay": 30, "lessThan": 1})).await;
    let today = domain::dates::today(chrono_tz::Pacific::Pago_Pago);
    assert_eq!(job["dateRange"], today.to_string(), "a slow-moving report is as of the company's today");
}
