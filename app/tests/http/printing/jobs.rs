//! 'Print' and 'Print selected' send sheets to the printer as jobs of the one queue: the
//! PDF reaches CUPS (read back with pdftotext), the sheets are marked printed with their
//! history row once the printer accepted, a printer that cannot take it is retried then
//! failed without marking anything, and the print page's refusals and company bounds hold.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::json;

use super::{add_printer, closed_port_url, cups, drain, fast_retries, print_row, printed_text};
use crate::support::{Session, TestApp, TestResponse};
use db::schema::{customers, print_jobs, products, warehouses};

struct Fixture {
    customer: i64,
    product: i64,
    price: i64,
    warehouse: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            let customer = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.ne(10)).filter(customers::credit_limit.eq(0)).select(customers::id).order(customers::id).first(c)?;
            let (product, price) = products::table
                .filter(products::org_id.eq(4))
                .filter(products::category.eq(1))
                .filter(products::class_a_price.gt(5_000))
                .select((products::id, products::class_a_price))
                .order(products::id)
                .first::<(i64, i64)>(c)?;
            let own = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false));
            let warehouse = own.filter(warehouses::is_branch.eq(false)).select(warehouses::id).order(warehouses::id).first(c)?;
            Ok(Fixture { customer, product, price, warehouse })
        })
        .await
        .unwrap()
}

/// A sheet of `kind` (1 invoice, 2 credit note): its id and number; approved unless `draft`.
async fn sheet(app: &TestApp, s: &Session, f: &Fixture, kind: i32, draft: bool) -> (i64, String) {
    let body = json!({"type": kind, "customerId": f.customer, "warehouseId": f.warehouse, "date": "2026-11-20", "dueDate": "2026-11-30", "reference": "PO-IPP", "lines": [{"seq": 1, "productId": f.product, "quantity": 2, "price": f.price}]});
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    if !draft {
        let res = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"warehouseId": f.warehouse, "confirmed": true})).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }
    let no = app.get(&format!("/api/orders/{id}"), Some(s)).await.json()["data"]["no"].as_str().unwrap().to_string();
    (id, no)
}

async fn printed(app: &TestApp, _s: &Session, id: i64) -> bool {
    use db::schema::orders;
    app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::printed).first::<bool>(c)?)).await.unwrap()
}

async fn history(app: &TestApp, s: &Session, id: i64) -> Vec<String> {
    let h = app.get(&format!("/api/orders/{id}/history"), Some(s)).await.json();
    h["data"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_string()).collect()
}

/// Posts a print request; answers the response and, when one was queued, its print job id.
async fn send(app: &TestApp, s: &Session, ids: &[i64], variant: &str, from: &str) -> (TestResponse, Option<i64>) {
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let res = app.post_form("/print_jobs", s, &[("ids", &list), ("variant", variant), ("from", from)]).await;
    let id = (res.status == StatusCode::SEE_OTHER).then(|| res.location().rsplit('/').next().unwrap().parse().unwrap());
    (res, id)
}

async fn status(app: &TestApp, s: &Session, id: i64) -> TestResponse {
    app.request(axum::http::Method::GET, &format!("/print_jobs/{id}"), None, None, &[("cookie", &s.cookie), ("hx-request", "true")]).await
}

#[tokio::test]
async fn print_sends_an_approved_invoice_to_its_warehouses_printer_and_marks_it_printed() {
    let Some((url, out)) = cups("print_sends_an_approved_invoice") else { return };
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let f = fixture(&app).await;
    // The sheet's warehouse has its own printer; the one for any warehouse is not used.
    add_printer(&app, &owner, 4, "Anywhere (unplugged)", &closed_port_url(), None).await;
    add_printer(&app, &owner, 4, "Front counter", &url, Some(f.warehouse)).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let (id, no) = sheet(&app, &s, &f, 1, false).await;

    let detail = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(detail.body.contains("Print to Front counter"), "the Print menu sends to the warehouse's printer");
    assert!(detail.body.contains("Standard (browser)"), "the browser's print stays beside it");

    let hx = app
        .request(
            axum::http::Method::POST,
            "/print_jobs",
            Some(format!("_csrf={}&ids={id}&variant=standard&from=sheet", s.csrf).into()),
            Some("application/x-www-form-urlencoded"),
            &[("cookie", &s.cookie), ("hx-request", "true")],
        )
        .await;
    assert_eq!(hx.status, StatusCode::OK, "{}", hx.body);
    assert!(hx.body.contains("Sending to Front counter…") && hx.body.contains("data-hx-trigger=\"load delay:1s\""), "it polls while sending: {}", hx.body);
    let job = app.state.db.run(|c| Ok(print_jobs::table.select(print_jobs::id).order(print_jobs::id.desc()).first::<i64>(c)?)).await.unwrap();
    assert!(!printed(&app, &s, id).await, "not printed before the printer accepted it");

    drain(&app).await;
    let (state, cups_job, attempts, _) = print_row(&app, job).await;
    assert_eq!((state.as_str(), attempts), ("printed", 1));
    let fragment = status(&app, &s, job).await;
    assert!(fragment.body.contains("Print successful (Front counter)") && !fragment.body.contains("data-hx-get"), "done: polling stops: {}", fragment.body);
    let text = printed_text(&out, cups_job.expect("the printer's job-id")).await;
    assert!(text.contains(&no) && text.contains("TAX INVOICE"), "{text}");
    assert!(printed(&app, &s, id).await);
    assert!(history(&app, &s, id).await.iter().any(|h| h == "Printed (Standard)"), "the history says so");

    // Without Price: the delivery document.
    let (_, noprice) = send(&app, &s, &[id], "noprice", "sheet").await;
    drain(&app).await;
    let (state, cups_job, ..) = print_row(&app, noprice.unwrap()).await;
    assert_eq!(state, "printed");
    let text = printed_text(&out, cups_job.unwrap()).await;
    assert!(text.contains(&no) && text.contains("Delivery Doc"), "{text}");
    assert!(history(&app, &s, id).await.iter().any(|h| h == "Printed (Without Price)"));
}

#[tokio::test]
async fn print_selected_sends_one_job_with_every_sheet_and_marks_them_all() {
    let Some((url, out)) = cups("print_selected_sends_one_job") else { return };
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let f = fixture(&app).await;
    add_printer(&app, &owner, 4, "Dispatch", &url, None).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let mut sheets = Vec::new();
    for kind in [1, 1, 2] {
        sheets.push(sheet(&app, &s, &f, kind, false).await);
    }
    let list = app.get("/invoices", Some(&s)).await;
    assert!(list.body.contains("Send to Dispatch"), "the list offers the printer");

    let ids: Vec<i64> = sheets.iter().map(|(id, _)| *id).collect();
    let (res, job) = send(&app, &s, &ids, "standard", "list").await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let job = job.unwrap();
    let page = app.follow(&res, &s).await;
    assert!(page.body.contains("Sending to Dispatch…"), "a browser without JavaScript sees the job's page");
    drain(&app).await;
    let count: i64 = app.state.db.run(|c| Ok(print_jobs::table.count().get_result(c)?)).await.unwrap();
    assert_eq!(count, 1, "one job for the selection");
    let (state, cups_job, ..) = print_row(&app, job).await;
    assert_eq!(state, "printed");
    let text = printed_text(&out, cups_job.unwrap()).await;
    for (id, no) in &sheets {
        assert!(text.contains(no.as_str()), "{no} in the one PDF");
        assert!(printed(&app, &s, *id).await);
        assert!(history(&app, &s, *id).await.iter().any(|h| h == "Printed (Standard, batch of 3)"));
    }
    assert!(text.contains("TAX INVOICE") && text.contains("CREDIT"), "{text}");
}

#[tokio::test]
async fn an_unreachable_printer_is_retried_then_failed_and_nothing_is_marked() {
    fast_retries();
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let f = fixture(&app).await;
    add_printer(&app, &owner, 4, "Unplugged", &closed_port_url(), None).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let (id, _) = sheet(&app, &s, &f, 1, false).await;
    let (res, job) = send(&app, &s, &[id], "standard", "sheet").await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let job = job.unwrap();
    drain(&app).await;
    let (state, cups_job, _, error) = print_row(&app, job).await;
    assert_eq!((state.as_str(), cups_job), ("failed", None));
    assert!(error.contains("could not be reached") && error.contains("after 5 attempts"), "{error}");
    let attempts: i32 = app
        .state
        .db
        .run(move |c| Ok(db::schema::jobs::table.inner_join(print_jobs::table.on(print_jobs::job_id.eq(db::schema::jobs::id))).filter(print_jobs::id.eq(job)).select(db::schema::jobs::attempts).first(c)?))
        .await
        .unwrap();
    assert_eq!(attempts, 4, "four retries after the first attempt, then failed");
    let fragment = status(&app, &s, job).await;
    assert!(fragment.body.contains("role=\"alert\"") && fragment.body.contains("Unplugged: Not printed") && !fragment.body.contains("data-hx-get"), "{}", fragment.body);
    assert!(!printed(&app, &s, id).await, "not marked printed");
    assert!(!history(&app, &s, id).await.iter().any(|h| h.starts_with("Printed")));
    let settings = app.get("/settings", Some(&owner)).await;
    assert!(settings.body.contains("id=\"print-jobs\"") && settings.body.contains("<td>Failed</td>"), "Settings lists it");
}

#[tokio::test]
async fn a_printer_that_refuses_the_job_fails_it_at_once() {
    let Some((url, _)) = cups("a_printer_that_refuses") else { return };
    fast_retries();
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let f = fixture(&app).await;
    // A queue CUPS does not have: client-error-not-found, which no retry cures.
    let missing = url.rsplit_once('/').map(|(base, _)| format!("{base}/NoSuchQueue")).unwrap();
    add_printer(&app, &owner, 4, "Gone", &missing, None).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let (id, _) = sheet(&app, &s, &f, 1, false).await;
    let (_, job) = send(&app, &s, &[id], "standard", "sheet").await;
    drain(&app).await;
    let (state, _, attempts, error) = print_row(&app, job.unwrap()).await;
    assert_eq!(state, "failed");
    assert!(error.contains("client-error-not-found"), "{error}");
    assert!(attempts <= 1, "no retries");
    assert!(!printed(&app, &s, id).await);
}

#[tokio::test]
async fn drafts_and_other_companies_sheets_and_jobs_are_refused() {
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let f = fixture(&app).await;
    add_printer(&app, &owner, 4, "Front", "ipp://127.0.0.1:9/printers/x", None).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let (draft, no) = sheet(&app, &s, &f, 1, true).await;
    let (res, job) = send(&app, &s, &[draft], "standard", "sheet").await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert!(res.body.contains(&no) && res.body.contains("cannot be printed"), "{}", res.body);
    assert!(job.is_none());
    let detail = app.get(&format!("/order_detail/invoices/{draft}"), Some(&s)).await;
    assert!(!detail.body.contains("Print to Front"), "a draft invoice offers no print");

    let (id, _) = sheet(&app, &s, &f, 1, false).await;
    let (res, job) = send(&app, &s, &[id], "standard", "sheet").await;
    assert_eq!(res.status, StatusCode::SEE_OTHER);
    let job = job.unwrap();
    let nine = app.session_in("approver@demo.test", 9).await;
    assert_eq!(send(&app, &nine, &[id], "standard", "sheet").await.0.status, StatusCode::NOT_FOUND, "another company's sheet");
    assert_eq!(status(&app, &nine, job).await.status, StatusCode::NOT_FOUND, "another company's print job");
    assert_eq!(app.get(&format!("/print_jobs/{job}"), Some(&nine)).await.status, StatusCode::NOT_FOUND);
    let count: i64 = app.state.db.run(|c| Ok(print_jobs::table.count().get_result(c)?)).await.unwrap();
    assert_eq!(count, 1, "only the approved invoice's job was queued");
}

#[tokio::test]
async fn a_job_left_sending_asks_the_printer_first_and_does_not_print_twice() {
    let Some((url, _)) = cups("a_job_left_sending") else { return };
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let f = fixture(&app).await;
    add_printer(&app, &owner, 4, "Front", &url, None).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let (id, no) = sheet(&app, &s, &f, 1, false).await;
    let (_, job) = send(&app, &s, &[id], "standard", "sheet").await;
    let job = job.unwrap();
    // A worker sent it, the printer took it, and the worker died before it wrote "printed".
    let asker = app.state.db.run(|c| Ok(db::accounts::user_by_email(c, "sales@demo.test")?.unwrap().name)).await.unwrap();
    let pdf = app.get(&format!("/order_print/{id}?variant=standard&format=pdf"), Some(&s)).await.bytes;
    let name = services::printing::worker::job_name(&format!("{no}.pdf"), job);
    let taken = services::printing::ipp::print(&url, &asker, &name, pdf).await.expect("CUPS takes the job").expect("a job-id");
    app.state.db.write(move |c| Ok(diesel::update(print_jobs::table.find(job)).set(print_jobs::state.eq("sending")).execute(c)?)).await.unwrap();

    drain(&app).await;
    let (state, cups_job, attempts, _) = print_row(&app, job).await;
    assert_eq!(state, "printed");
    assert_eq!(cups_job, Some(taken), "the job the printer already had, not a second one");
    assert_eq!(attempts, 0, "nothing was sent again");
    assert!(printed(&app, &s, id).await);
    assert!(history(&app, &s, id).await.iter().any(|h| h == "Printed (Standard)"));
}

#[tokio::test]
async fn a_printer_not_accepting_jobs_is_retried_then_failed() {
    let Some((url, _)) = cups("a_printer_not_accepting_jobs") else { return };
    fast_retries();
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let f = fixture(&app).await;
    // .ci/cups.sh's second queue, which CUPS set to reject jobs.
    let refusing = url.rsplit_once('/').map(|(base, _)| format!("{base}/TyreDeskRefusing")).unwrap();
    add_printer(&app, &owner, 4, "Closed", &refusing, None).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let (id, _) = sheet(&app, &s, &f, 1, false).await;
    let (_, job) = send(&app, &s, &[id], "standard", "sheet").await;
    drain(&app).await;
    let (state, cups_job, attempts, error) = print_row(&app, job.unwrap()).await;
    assert_eq!((state.as_str(), cups_job, attempts), ("failed", None, 0), "never sent");
    assert!(error.contains("not accepting jobs") && error.contains("after 5 attempts"), "{error}");
    assert!(!printed(&app, &s, id).await);
}
