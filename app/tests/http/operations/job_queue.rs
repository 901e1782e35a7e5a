//! The one job queue (issue 30): reports, imports and Xero calls are rows of one table with
//! one way to claim; the migration that made it carries the jobs of the two old tables
//! forward (and back); the queues stay apart where a screen lists them; claiming is fair
//! between companies in every queue.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};
use serde_json::json;

use crate::support::TestApp;
use db::schema::jobs;

const ORG: i64 = 4;
const OTHER_ORG: i64 = 9;

fn user_id(c: &mut db::DbConn, email: &str) -> Result<i64, db::error::AppError> {
    Ok(db::schema::users::table.filter(db::schema::users::email.eq(email)).select(db::schema::users::id).first(c)?)
}

fn any_order(c: &mut db::DbConn, org: i64) -> Result<i64, db::error::AppError> {
    Ok(db::schema::orders::table.filter(db::schema::orders::org_id.eq(org)).select(db::schema::orders::id).first(c)?)
}

/// The version of the migration that made the one queue (`2026-11-28-000015_one_job_queue`).
const ONE_QUEUE: &str = "20261128000015";

/// Reverts migrations, newest first, up to and including the one queue's.
fn revert_to_before_the_one_queue(c: &mut db::DbConn) -> Result<(), db::error::AppError> {
    loop {
        let reverted = db::revert_last(c).map_err(|e| db::error::AppError::Internal(anyhow::anyhow!(e)))?;
        assert!(reverted.as_str() >= ONE_QUEUE, "reverted past the one queue: {reverted}");
        if reverted == ONE_QUEUE {
            return Ok(());
        }
    }
}

#[tokio::test]
async fn the_migration_carries_report_import_and_xero_jobs_into_the_one_queue_and_back() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let now = db::now();
    let (order, user) = app
        .state
        .db
        .run(move |c| {
            revert_to_before_the_one_queue(c)?;
            let (order, user) = (any_order(c, ORG)?, user_id(c, "approver@demo.test")?);
            // Rows as the two old tables held them: a finished report (its id names its file),
            // a queued import, and a Xero send whose outcome was left unknown.
            let report = "INSERT INTO report_jobs (id, org_id, user_id, kind, params, date_range, state, file_name, created_at, dedupe_key) \
                          VALUES ($1, $2, $3, $4, '{}', $5, $6, $7, $8, $9)";
            for (id, kind, state, file, key) in [(41_i64, "invoiceDetails", 2, "invoiceDetails-x-41.xlsx", "a"), (42, "import-basic", 0, "", "b")] {
                diesel::sql_query(report)
                    .bind::<BigInt, _>(id)
                    .bind::<BigInt, _>(ORG)
                    .bind::<BigInt, _>(user)
                    .bind::<Text, _>(kind)
                    .bind::<Text, _>("2026-01-01~2026-12-31")
                    .bind::<diesel::sql_types::Integer, _>(state)
                    .bind::<Text, _>(file)
                    .bind::<Timestamp, _>(now)
                    .bind::<Text, _>(key)
                    .execute(c)?;
            }
            diesel::sql_query(
                "INSERT INTO xero_jobs (org_id, target, order_id, kind, state, not_before, idempotency_key, outcome_unknown, error, created_at) \
                 VALUES ($1, $2, $3, 1, 3, $4, 'key-1', TRUE, 'no answer', $4)",
            )
            .bind::<BigInt, _>(ORG)
            .bind::<Text, _>(format!("order:{order}"))
            .bind::<BigInt, _>(order)
            .bind::<Timestamp, _>(now)
            .execute(c)?;
            db::migrate(c).map_err(|e| db::error::AppError::Internal(anyhow::anyhow!(e)))?;
            Ok((order, user))
        })
        .await
        .unwrap();

    let rows: Vec<(i64, String, String, String, Option<i64>, bool)> = app
        .state
        .db
        .run(|c| {
            Ok(jobs::table
                .order(jobs::id)
                .select((jobs::id, jobs::queue, jobs::kind, jobs::dedupe_key, jobs::requested_by, jobs::outcome_unknown))
                .load(c)?)
        })
        .await
        .unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(rows[0], (41, "report".into(), "invoiceDetails".into(), "a".into(), Some(user), false));
    assert_eq!(rows[1], (42, "import".into(), "import-basic".into(), "b".into(), Some(user), false));
    assert_eq!((&rows[2].1[..], &rows[2].2[..], &rows[2].3[..], rows[2].5), ("xero", "send", &format!("order:{order}")[..], true));
    assert!(app.state.db.run(move |c| db::xero::outcome_was_unknown(c, order)).await.unwrap(), "the next send looks first, as before");

    // The Download Center lists the report and the import, never the Xero call; the finished
    // report's file keeps its id.
    let listed = app.get("/api/reports", Some(&s)).await.json();
    let ids: Vec<i64> = listed["data"].as_array().unwrap().iter().map(|j| j["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, vec![42, 41], "{listed}");
    // A new job is numbered after the carried ones (PostgreSQL's sequence moved on).
    let added = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": ["2026-01-01", "2026-01-31"]})).await;
    assert!(added.json()["data"]["id"].as_i64().unwrap() > 42, "{}", added.body);

    // And back: the old tables get their rows again.
    let back: (i64, i64) = app
        .state
        .db
        .run(|c| {
            revert_to_before_the_one_queue(c)?;
            #[derive(QueryableByName)]
            struct N {
                #[diesel(sql_type = BigInt)]
                n: i64,
            }
            let count = |c: &mut db::DbConn, t: &str| diesel::sql_query(format!("SELECT COUNT(*) AS n FROM {t}")).get_result::<N>(c).map(|r| r.n);
            let counts = (count(c, "report_jobs")?, count(c, "xero_jobs")?);
            db::migrate(c).map_err(|e| db::error::AppError::Internal(anyhow::anyhow!(e)))?;
            Ok(counts)
        })
        .await
        .unwrap();
    assert_eq!(back, (3, 1));
}

#[tokio::test]
async fn claiming_is_fair_between_companies_and_queues_stay_apart() {
    let app = TestApp::new().await;
    let now = db::now();
    // Company 4 queued three balance reads, then company 9 one.
    let queued = app
        .state
        .db
        .write(move |c| {
            let mut n = 0;
            for (org, target) in [(ORG, "balance:1"), (ORG, "balance:2"), (ORG, "balance:3"), (OTHER_ORG, "balance:4")] {
                let job = db::xero::NewJob { org_id: org, target, order_id: None, kind: db::xero::JobKind::Balance, requested_by: None, outcome_unknown: false };
                n += i32::from(db::xero::enqueue(c, &job, now)?);
            }
            Ok(n)
        })
        .await
        .unwrap();
    assert_eq!(queued, 4);

    // The reports' worker finds nothing: these are not its queue's.
    let stale = now - chrono::Duration::minutes(1);
    assert!(app.state.db.write(move |c| db::reports::claim(c, "files-worker", now, stale, 3)).await.unwrap().is_none());
    assert!(app.state.db.run(|c| db::reports::list(c, ORG, 50)).await.unwrap().is_empty(), "the Download Center lists no Xero call");

    // One after another, each finished before the next claim: company 9 goes second, not
    // behind all of company 4's.
    let mut order = vec![];
    for i in 0..4 {
        let at = now + chrono::Duration::seconds(i);
        let job = app.state.db.write(move |c| db::xero::claim(c, "xero-worker", at, stale)).await.unwrap().expect("a job is due");
        let id = job.id;
        assert!(app.state.db.write(move |c| db::xero::finish(c, id, "xero-worker", false, "", true, at)).await.unwrap());
        order.push((job.org_id, job.target));
    }
    let orgs: Vec<i64> = order.iter().map(|(o, _)| *o).collect();
    assert_eq!(orgs, vec![ORG, OTHER_ORG, ORG, ORG], "{order:?}");
    assert_eq!(order[0].1, "balance:1", "oldest first within a company");
}

#[tokio::test]
async fn the_worker_loop_runs_a_report_and_a_xero_call_to_their_ends() {
    // The one loop of a server process, started as `serve` starts it: a report queued here
    // and a balance read queued for a company without a connection both end, each in its
    // own slot.
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let now = db::now();
    app.state
        .db
        .write(move |c| {
            let job = db::xero::NewJob { org_id: ORG, target: "balance:1", order_id: None, kind: db::xero::JobKind::Balance, requested_by: None, outcome_unknown: false };
            db::xero::enqueue(c, &job, now)
        })
        .await
        .unwrap();
    let report = app.post_json("/api/reports", &s, json!({"type": "invoiceDetails", "dateRange": ["2026-01-01", "2026-01-31"]})).await.json()["data"]["id"]
        .as_i64()
        .unwrap();
    let worker = tokio::spawn(services::jobs::run(app.state.core.clone()));
    let started = std::time::Instant::now();
    let states = loop {
        let states: Vec<(String, i32, String)> =
            app.state.db.run(|c| Ok(jobs::table.order(jobs::id).select((jobs::queue, jobs::state, jobs::error)).load(c)?)).await.unwrap();
        if states.iter().all(|(_, st, _)| *st >= 2) {
            break states;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "still waiting: {states:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    worker.abort();
    assert_eq!(states.len(), 2, "{states:?}");
    let xero = states.iter().find(|(q, ..)| q == "xero").unwrap();
    assert_eq!((xero.1, &xero.2[..]), (3, db::xero::NOT_CONNECTED), "the call failed with the reason, visibly");
    let done = app.get("/api/reports", Some(&s)).await.json();
    assert_eq!(done["data"][0]["id"].as_i64(), Some(report));
    assert_eq!(done["data"][0]["state"], "done", "{done}");
}
