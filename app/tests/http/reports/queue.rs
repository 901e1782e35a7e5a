//! The report job queue through the API: queueing, the worker, downloads per company,
//! identical requests, cancelling, dead workers and cost (issue 11).

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::{Value, json};
use db::schema::jobs as report_jobs;

use crate::support::{TestApp, normalise_html};

/// A year up to today: the demo's sheets are dated around today.
fn year() -> Value {
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    json!([(today - chrono::Duration::days(364)).to_string(), today.to_string()])
}

fn sales_detail() -> Value {
    json!({"type": "invoiceDetails", "dateRange": year()})
}

/// The job's row, read directly.
async fn row(app: &TestApp, id: i64) -> db::reports::Job {
    app.state.db.run(move |c| Ok(report_jobs::table.find(id).select(db::reports::Job::as_select()).first(c)?)).await.unwrap()
}

fn files_of(app: &TestApp, org: i64) -> Vec<String> {
    let dir = app.state.config.data_dir.join("reports").join(org.to_string());
    let mut v: Vec<String> = std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect()).unwrap_or_default();
    v.sort();
    v
}

#[tokio::test]
async fn a_report_is_queued_run_and_downloaded_by_its_company_only() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let res = app.post_json("/api/reports", &s, sales_detail()).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let body = res.json();
    assert_eq!(body["message"], "Preparing for the report, please check it later");
    assert_eq!(body["data"]["state"], "queued");
    assert_eq!(body["data"]["type"], "invoiceDetails");
    let listed = app.get("/api/reports", Some(&s)).await.json();
    assert_eq!(listed["data"][0]["state"], "queued", "listed before it runs");

    let job = app.run_report(&s, sales_detail()).await;
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["progress"], 100);
    let name = job["name"].as_str().unwrap().to_string();
    let res = app.get(&format!("/api/download/{name}"), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK);
    let range = year();
    let expected = format!("attachment; filename=\"invoiceDetails-{}~{}.xlsx\"", range[0].as_str().unwrap(), range[1].as_str().unwrap());
    assert_eq!(res.headers["content-disposition"], expected.as_str());
    assert!(res.bytes.starts_with(b"PK"), "an xlsx file");
    assert_eq!(files_of(&app, 4), vec![name.clone()], "only the finished file is in the company's folder");

    // Another company: the same name is not found, and its list does not show the job.
    let s9 = app.session_in("approver@demo.test", 9).await;
    assert_eq!(app.get(&format!("/api/download/{name}"), Some(&s9)).await.status, StatusCode::NOT_FOUND);
    assert!(app.get("/api/reports", Some(&s9)).await.json()["data"].as_array().unwrap().is_empty());
    for guess in ["..%2F..%2Ftyredesk.sqlite3", "invoiceDetails-2020-01-01~2020-12-31-999.xlsx", ".x.xlsx.part", "x.txt"] {
        assert_eq!(app.get(&format!("/api/download/{guess}"), Some(&s)).await.status, StatusCode::NOT_FOUND, "{guess}");
    }
}

#[tokio::test]
async fn an_identical_request_while_one_waits_returns_that_job() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let first = app.post_json("/api/reports", &s, sales_detail()).await;
    assert_eq!(first.status, StatusCode::CREATED);
    // The same report by someone else of the company, with the lists in another order.
    let other = app.session_in("manager@demo.test", 4).await;
    let second = app.post_json("/api/reports", &other, json!({"dateRange": year(), "type": "invoiceDetails", "tags": []})).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.body);
    assert_eq!(first.json()["data"]["id"], second.json()["data"]["id"]);
    let different = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": year(), "group": "asProducts"})).await;
    assert_eq!(different.status, StatusCode::CREATED, "another grouping is another report");
    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let again = app.post_json("/api/reports", &s, sales_detail()).await;
    assert_eq!(again.status, StatusCode::CREATED, "once done, the same request prepares a fresh file");
}

#[tokio::test]
async fn a_bad_request_is_422_naming_the_field() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let w9 = {
        let s9 = app.session_in("approver@demo.test", 9).await;
        app.get("/api/warehouses", Some(&s9)).await.json()["data"][0]["id"].as_i64().unwrap()
    };
    let mut answers = Vec::new();
    for (body, field) in [
        (json!({"type": "profitForecast", "dateRange": year()}), "type"),
        (json!({"type": "invoiceDetails"}), "dateRange"),
        (json!({"type": "invoiceDetails", "dateRange": ["2026-02-30", "2026-03-01"]}), "dateRange"),
        (json!({"type": "invoiceDetails", "dateRange": year(), "warehouses": [w9]}), "warehouses"),
        (json!({"type": "slowMoving", "unSoldDay": -3}), "unSoldDay"),
        (json!({"type": "invoiceDetails", "dateRange": year(), "sort": 1}), "sort"),
    ] {
        let res = app.post_json("/api/reports", &s, body.clone()).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(res.json()["errors"][field].is_string(), "{body} → {}", res.body);
        answers.push(json!({"field": field, "answer": res.json()}));
    }
    // Each answer whole: the field at fault alone under `errors`, its message also on top.
    insta::assert_json_snapshot!("bad_report_requests", answers, {
        "[].answer.message" => insta::dynamic_redaction(move |v, _| v.as_str().unwrap_or_default().replace(&format!("{w9} was"), "[w9] was")),
        "[].answer.errors.warehouses" => insta::dynamic_redaction(move |v, _| v.as_str().unwrap_or_default().replace(&format!("{w9} was"), "[w9] was")),
    });
    assert!(app.get("/api/reports", Some(&s)).await.json()["data"].as_array().unwrap().is_empty(), "nothing was queued");
}

#[tokio::test]
async fn a_job_whose_worker_died_runs_again_and_fails_after_too_many_attempts() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let a = app.post_json("/api/reports", &s, sales_detail()).await.json()["data"]["id"].as_i64().unwrap();
    let b = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": year(), "group": "asProducts"})).await.json()["data"]["id"]
        .as_i64()
        .unwrap();
    // Both were claimed by a worker that was killed a while ago: a on its first run, b on its last.
    let long_ago = db::now() - chrono::Duration::minutes(10);
    app.state
        .db
        .write(move |c| {
            for (id, attempts) in [(a, 1), (b, services::jobs::files::MAX_ATTEMPTS)] {
                diesel::update(report_jobs::table.find(id))
                    .set((report_jobs::state.eq(1), report_jobs::locked_by.eq("dead-worker"), report_jobs::heartbeat_at.eq(long_ago), report_jobs::attempts.eq(attempts)))
                    .execute(c)?;
            }
            Ok(())
        })
        .await
        .unwrap();
    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let (ra, rb) = (row(&app, a).await, row(&app, b).await);
    assert_eq!((ra.state, ra.attempts), (2, 2), "run again to the end: {ra:?}");
    assert_eq!(rb.state, 3, "failed: {rb:?}");
    assert_eq!(rb.error, db::reports::GAVE_UP);
    assert_eq!(files_of(&app, 4), vec![ra.file_name.clone()], "no half-written file is left");
    let listed = app.get("/api/reports", Some(&s)).await.json();
    let failed = listed["data"].as_array().unwrap().iter().find(|j| j["id"] == b).unwrap().clone();
    assert_eq!(failed["state"], "failed");
    assert!(failed["error"].as_str().unwrap().contains("Try a shorter date range"));
}

#[tokio::test]
async fn a_user_cancels_their_own_waiting_report() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let id = app.post_json("/api/reports", &s, sales_detail()).await.json()["data"]["id"].as_i64().unwrap();
    let other = app.session_in("manager@demo.test", 4).await;
    assert_eq!(app.post_json(&format!("/api/reports/{id}/cancel"), &other, json!({})).await.status, StatusCode::NOT_FOUND, "not theirs");
    let res = app.post_json(&format!("/api/reports/{id}/cancel"), &s, json!({})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["data"]["state"], "cancelled");
    assert_eq!(services::jobs::files::run_once(&app.state.core).await.unwrap(), None, "nothing left to run");
    let again = app.post_json(&format!("/api/reports/{id}/cancel"), &s, json!({})).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(files_of(&app, 4).is_empty());
}

#[tokio::test]
async fn cost_never_reaches_those_who_may_not_see_it() {
    let (app, approver) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let sales = app.session_in("sales@demo.test", 4).await;
    let with_cost = json!({"type": "saleSummary", "dateRange": year(), "includeCost": "Yes"});
    let job = app.run_report(&approver, with_cost.clone()).await;
    let name = job["name"].as_str().unwrap().to_string();
    assert!(
        app.get("/api/reports", Some(&sales)).await.json()["data"].as_array().unwrap().iter().all(|j| j["id"] != job["id"]),
        "a report with cost is not listed for sales staff"
    );
    assert_eq!(app.get(&format!("/api/download/{name}"), Some(&sales)).await.status, StatusCode::NOT_FOUND);
    // Sales staff asking for cost get the report without it: another job, no cost in the file.
    let theirs = app.run_report(&sales, with_cost).await;
    assert_ne!(theirs["id"], job["id"]);
    let row = row(&app, theirs["id"].as_i64().unwrap()).await;
    assert!(!services::reports::shows_cost(&row));
}

#[tokio::test]
async fn the_download_center_refreshes_itself_only_while_a_report_runs() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let empty = app.get("/reports_download", Some(&s)).await;
    assert_eq!(empty.status, StatusCode::OK);
    assert!(empty.body.contains("Reports Download Center") && empty.body.contains("No reports yet"));
    assert!(!empty.body.contains("every 2s"), "nothing runs: no polling");
    for button in ["Refresh", "Batch SendXero", "Import Draft Inv", "Import Basic"] {
        assert!(empty.body.contains(button), "{button}");
    }

    let id = app.post_json("/api/reports", &s, sales_detail()).await.json()["data"]["id"].as_i64().unwrap();
    let queued = app.get_fragment("/reports_download/jobs", &s).await;
    assert!(queued.body.contains("Queued") && queued.body.contains("every 2s"), "{}", queued.body);
    assert!(queued.body.contains(&format!("/reports_download/{id}/cancel")), "the requester may cancel it");
    // The fragment whole: a card that polls every 2s, one queued row and its Cancel form.
    let year_ago = year()[0].as_str().unwrap().to_string();
    let fragment = normalise_html(&queued.body).replace(&format!("/reports_download/{id}/"), "/reports_download/[id]/").replace(&year_ago, "[a year ago]").replace(&domain::dates::range_text(&year_ago), "[a year ago]");
    insta::assert_snapshot!("download_center_with_a_queued_report", fragment);
    let manager = app.session_in("manager@demo.test", 4).await;
    assert!(!app.get_fragment("/reports_download/jobs", &manager).await.body.contains("/cancel"), "only the requester cancels");

    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let done = app.get_fragment("/reports_download/jobs", &s).await;
    assert!(done.body.contains("Done") && done.body.contains("/api/download/invoiceDetails-"), "{}", done.body);
    assert!(!done.body.contains("every 2s"), "polling stops when nothing runs");

    // Cancelling through the screen answers the table.
    let id2 = app.post_json("/api/reports", &s, json!({"type": "saleSummary", "dateRange": year()})).await.json()["data"]["id"].as_i64().unwrap();
    let res = app.post_form(&format!("/reports_download/{id2}/cancel"), &s, &[]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(res.body.contains("Cancelled"));
}

/// Issue 29: one user cannot fill the only worker's queue — at most three reports waiting or
/// running each, with a clear message — and the worker takes companies in turn, so another
/// company's report waits for at most the one that is running.
#[tokio::test]
async fn a_user_may_have_three_reports_waiting_and_companies_are_served_in_turn() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").in_org(4).await;
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    let range = |years: i64| json!([(today - chrono::Duration::days(365 * years)).to_string(), today.to_string()]);
    let mut mine = Vec::new();
    for years in 1..=3 {
        let res = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": range(years)})).await;
        assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
        mine.push(res.json()["data"]["id"].as_i64().unwrap());
    }
    let fourth = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": range(10)})).await;
    assert_eq!(fourth.status, StatusCode::CONFLICT, "{}", fourth.body);
    assert_eq!(fourth.json()["message"], domain::reports::too_many_active(3));
    let same = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": range(2)})).await;
    assert_eq!(same.status, StatusCode::OK, "an identical request still finds its job: {}", same.body);
    // Another company's user asks after all of them.
    let other = app.session_in("approver@demo.test", 9).await;
    let theirs = app.post_json("/api/reports", &other, json!({"type": "invoiceDetails", "dateRange": range(1)})).await;
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.body);
    let theirs = theirs.json()["data"]["id"].as_i64().unwrap();

    let first = services::jobs::files::run_once(&app.state.core).await.unwrap();
    assert_eq!(first, Some(mine[0]), "the oldest goes first");
    let second = services::jobs::files::run_once(&app.state.core).await.unwrap();
    assert_eq!(second, Some(theirs), "then the company not yet served, before the first company's next two");
    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let again = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": range(10)})).await;
    assert_eq!(again.status, StatusCode::CREATED, "once they are done the user may ask again: {}", again.body);
}
