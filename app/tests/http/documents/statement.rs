//! Customer statements: a seeded month in 2001 (before any demo sheet) with an opening
//! balance, the month's invoice, credit note and a payment read back from Xero, a draft
//! that does not count, the closing balance and its ageing.

use axum::http::StatusCode;
use chrono::NaiveDate;
use diesel::prelude::*;

use db::schema::{customers, orders};
use domain::enums::{OrderStatus, OrderType};

use super::inline_pdf;
use crate::support::TestApp;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

/// One sheet of customer `customer` written straight into the table.
#[allow(clippy::too_many_arguments)]
fn sheet(c: &mut db::DbConn, customer: i64, no: &str, t: OrderType, status: OrderStatus, date: NaiveDate, due: Option<NaiveDate>, total: i64, paid: Option<(NaiveDate, i64)>) -> db::error::AppResult<()> {
    let now = db::now();
    diesel::insert_into(orders::table)
        .values((
            orders::org_id.eq(4),
            orders::no.eq(no),
            orders::order_type.eq(t.as_i32()),
            orders::uuid.eq(format!("stmt-{no}")),
            orders::customer_id.eq(customer),
            orders::order_date.eq(date),
            orders::due_date.eq(due),
            orders::reference.eq(format!("REF-{no}")),
            orders::status.eq(status.as_i32()),
            orders::total_amount.eq(total),
            orders::xero_amount_paid.eq(paid.map(|p| p.1)),
            orders::xero_paid_on.eq(paid.map(|p| p.0)),
            orders::created_at.eq(now),
            orders::updated_at.eq(now),
        ))
        .execute(c)?;
    Ok(())
}

async fn scenario(app: &TestApp) -> (i64, String) {
    app.state
        .db
        .write(|c| {
            let (id, name) = customers::table.filter(customers::org_id.eq(4)).order(customers::id.desc()).select((customers::id, customers::name)).first::<(i64, String)>(c)?;
            use OrderStatus::*;
            use OrderType::*;
            sheet(c, id, "INV-S00001", Invoice, Approved, d(2001, 1, 10), Some(d(2001, 2, 10)), 300_00, None)?;
            sheet(c, id, "INV-S00002", Invoice, Closed, d(2001, 2, 5), Some(d(2001, 3, 5)), 200_00, Some((d(2001, 3, 10), 200_00)))?;
            sheet(c, id, "INV-S00003", Invoice, Approved, d(2001, 3, 12), Some(d(2001, 4, 12)), 500_00, None)?;
            sheet(c, id, "CN-S00001", CreditNote, Approved, d(2001, 3, 20), None, 120_00, None)?;
            sheet(c, id, "INV-S00004", Invoice, Draft, d(2001, 3, 25), None, 999_00, None)?;
            sheet(c, id, "INV-S00005", Invoice, Voided, d(2001, 3, 26), None, 888_00, None)?;
            sheet(c, id, "INV-S00006", Invoice, Approved, d(2001, 4, 2), Some(d(2001, 5, 2)), 777_00, None)?;
            Ok((id, name))
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn a_month_shows_opening_sheets_payments_closing_and_ageing() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (customer, name) = scenario(&app).await;
    let res = app.get(&format!("/customers/{customer}/statement?month=2001-03"), Some(&s)).await;
    let text = inline_pdf(&res);
    for want in [
        "STATEMENT",
        name.as_str(),
        "Month March 2001",
        "Date 31 Mar 2001",
        "Opening balance $500.00",
        "10 Mar 2001 Payment INV-S00002 REF-INV-S00002 200.00 300.00",
        "12 Mar 2001 Invoice INV-S00003 REF-INV-S00003 500.00 800.00",
        "20 Mar 2001 Credit Note CN-S00001 REF-CN-S00001 120.00 680.00",
        "Closing balance $680.00",
        "Current 1–30 days 31–60 days 61–90 days 90+ days Total due",
        "$500.00 -$120.00 $300.00 $0.00 $0.00 $680.00",
        "Page 1 of 1",
    ] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    for absent in ["INV-S00004", "INV-S00005", "INV-S00006", "INV-S00001 "] {
        assert!(!text.contains(absent), "{absent} is not on March's statement:\n{text}");
    }
    let cd = res.headers.get("content-disposition").unwrap().to_str().unwrap();
    assert!(cd.contains("Statement 2001-03"), "{cd}");

    // April opens where March closed.
    let april = inline_pdf(&app.get(&format!("/customers/{customer}/statement?month=2001-04"), Some(&s)).await);
    assert!(april.contains("Opening balance $680.00") && april.contains("Closing balance $1,457.00"), "{april}");
}

#[tokio::test]
async fn the_month_is_checked_and_another_companys_customer_is_not_found() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (customer, _) = scenario(&app).await;
    for bad in ["2001-13", "March", "2001-3"] {
        let r = app.get(&format!("/customers/{customer}/statement?month={bad}"), Some(&s)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(r.body.replace("&#39;", "'").contains(domain::statement::MONTH_FORMAT), "{}", r.body);
    }
    let future = app.get(&format!("/customers/{customer}/statement?month=2999-01"), Some(&s)).await;
    assert_eq!(future.status, StatusCode::BAD_REQUEST);
    // Without a month: last month.
    let last = domain::statement::Month::before(domain::dates::today(domain::dates::zone_of("Australia/Sydney")));
    let text = inline_pdf(&app.get(&format!("/customers/{customer}/statement"), Some(&s)).await);
    assert!(text.contains(&format!("Month {}", last.label())), "{text}");
    let other = app.session_in("approver@demo.test", 9).await;
    assert_eq!(app.get(&format!("/customers/{customer}/statement?month=2001-03"), Some(&other)).await.status, StatusCode::NOT_FOUND);
    let page = app.get(&format!("/baseinfo/customers/{customer}"), Some(&s)).await;
    assert!(page.body.contains(&format!("href=\"/customers/{customer}/statement\"")), "the customer's page links the statement");
}

#[tokio::test]
async fn every_customer_with_a_balance_in_one_pdf_from_the_report_queue() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (first, first_name) = scenario(&app).await;
    // A second customer owing 50.00, and a third whose invoice was paid: no statement.
    let (second, second_name) = app
        .state
        .db
        .write(move |c| {
            let mut others = customers::table.filter(customers::org_id.eq(4)).filter(customers::id.ne(first)).order(customers::id).select((customers::id, customers::name)).limit(2).load::<(i64, String)>(c)?;
            let (paid, _) = others.pop().unwrap();
            let (id, name) = others.pop().unwrap();
            sheet(c, id, "INV-S00010", OrderType::Invoice, OrderStatus::Approved, d(2001, 3, 1), Some(d(2001, 3, 31)), 50_00, None)?;
            sheet(c, paid, "INV-S00011", OrderType::Invoice, OrderStatus::Approved, d(2001, 3, 1), Some(d(2001, 3, 31)), 70_00, Some((d(2001, 3, 15), 70_00)))?;
            Ok((id, name))
        })
        .await
        .unwrap();
    let center = app.get("/reports_download", Some(&s)).await;
    assert!(center.body.contains("action=\"/reports_download/statements\""), "the Download Center starts it");
    let asked = app.post_form("/reports_download/statements", &s, &[("month", "2001-03")]).await;
    assert_eq!(asked.status, StatusCode::SEE_OTHER, "{}", asked.body);
    assert!(app.follow(&asked, &s).await.body.contains("Preparing the statements of every customer with a balance"));
    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let jobs = app.get("/api/reports", Some(&s)).await.json();
    let job = jobs["data"].as_array().unwrap().iter().find(|j| j["type"] == "statements").cloned().expect("the job is listed");
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["title"], services::statements::JOB_TITLE);
    let file = app.get(&format!("/api/download/{}", job["name"].as_str().unwrap()), Some(&s)).await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.headers.get("content-type").unwrap(), "application/pdf");
    assert!(file.headers.get("content-disposition").unwrap().to_str().unwrap().contains("Statements 2001-03.pdf"));
    let text = super::pdf_text(&file.bytes);
    assert_eq!(text.matches("STATEMENT").count(), 2, "two customers owe:\n{text}");
    assert_eq!(text.matches("Page 1 of 1").count(), 2, "each statement counts its own pages");
    for want in [first_name.as_str(), second_name.as_str(), "Closing balance $680.00", "Closing balance $50.00"] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    assert!(!text.contains("INV-S00011"), "a customer who owes nothing gets no statement");
    let _ = second;

    // A month nobody owes anything in: the job says so.
    let asked = app.post_form("/reports_download/statements", &s, &[("month", "2000-06")]).await;
    assert_eq!(asked.status, StatusCode::SEE_OTHER);
    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let jobs = app.get("/api/reports", Some(&s)).await.json();
    let failed = jobs["data"].as_array().unwrap().iter().find(|j| j["type"] == "statements" && j["state"] == "failed").cloned().expect("failed job");
    assert!(failed["error"].as_str().unwrap().contains("No customer has a balance at the end of June 2000"), "{failed}");
    let bad = app.post_form("/reports_download/statements", &s, &[("month", "June")]).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}
