//! Issue 29, fair use of the shared report worker and island engines: how long another
//! company's small report waits behind one user's full queue of ten-year reports, and how
//! fast another user's page answers while many clients open 1,000-line editors.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::client::Client;
use super::measure::{self, Limits, PathFn};
use super::report::{Budget, LatencyRow, Timings};

async fn ask(client: &Client, body: serde_json::Value) -> anyhow::Result<(u16, i64)> {
    let answer = client.post_json("/api/reports", &body.to_string()).await?;
    let id = serde_json::from_slice::<serde_json::Value>(&answer.body).ok().and_then(|v| v["data"]["id"].as_i64()).unwrap_or(0);
    Ok((answer.status.as_u16(), id))
}

async fn wait_done(client: &Client, id: i64, name: &str) -> anyhow::Result<Duration> {
    let started = Instant::now();
    loop {
        let (job, ended) = super::memory::job_state(client, id).await?;
        if ended {
            if job["state"] != "done" {
                anyhow::bail!("{name}: report {id} ended {}: {}", job["state"], job["error"]);
            }
            return Ok(started.elapsed());
        }
        if started.elapsed() > Duration::from_secs(900) {
            anyhow::bail!("{name}: report {id} still {} after 15 minutes", job["state"]);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One user of company A asks for ten-year sales reports until refused (three are let
/// through); then a user of company B asks for a one-day report. Answers B's wait, judged
/// against the time the report running when B asked takes (plus two seconds): the worker
/// takes companies in turn, so B never waits for A's whole queue. The notes say how many of
/// A's requests were refused.
pub async fn report_queue(name: &str, a: &Client, b: &Client, today: chrono::NaiveDate) -> anyhow::Result<(LatencyRow, String)> {
    let mut queued = Vec::new();
    let mut refused = 0;
    for days in 0..5 {
        // Five different reports (a day apart), so none is answered as an identical one.
        let range = serde_json::json!([(today - chrono::Duration::days(3_650 + days)).to_string(), today.to_string()]);
        let body = serde_json::json!({"type": "invoiceDetails", "dateRange": range});
        match ask(a, body).await? {
            (201, id) => queued.push(id),
            (409, _) => refused += 1,
            (status, _) => anyhow::bail!("{name}: asking for a ten-year report answered {status}"),
        }
    }
    let first = *queued.first().ok_or_else(|| anyhow::anyhow!("{name}: no report was queued"))?;
    let asked_at = Instant::now();
    let (status, small) = ask(b, serde_json::json!({"type": "invoiceDetails", "dateRange": [today.to_string(), today.to_string()]})).await?;
    if status != 201 {
        anyhow::bail!("{name}: the other company's report answered {status}");
    }
    let (waited, first_took) = {
        let small_wait = wait_done(b, small, name);
        let first_done = async {
            let t = Instant::now();
            wait_done(a, first, name).await.map(|_| t.elapsed())
        };
        let (w, f) = tokio::join!(small_wait, first_done);
        (w?, f?)
    };
    for id in &queued {
        wait_done(a, *id, name).await?;
    }
    let budget_ms = (first_took.as_secs_f64() + 2.0) * 1000.0;
    let t = Timings { http: vec![waited], errors: 0, wall: asked_at.elapsed(), sql: vec![] };
    let note = format!(
        "{name}: {} ten-year reports queued, {refused} more refused (at most 3 a user); the other company's report waited {:.2} s, the ten-year report running when it was asked took {:.2} s more",
        queued.len(),
        waited.as_secs_f64(),
        first_took.as_secs_f64()
    );
    Ok((LatencyRow::new(name, 1, t, Budget::P95Ms(budget_ms)), note))
}

/// `clients` open the edit page of a 1,000-line sheet over and over while one more client
/// opens `page` (a page with a small island) over the same seconds: its latency, and how many
/// island renders found no engine free in time and sent the fallback instead.
pub async fn page_during_editors(name: &str, crowd: &[Arc<Client>], one: &Client, editor: &str, page: &str, limits: Limits, budget_ms: f64) -> anyhow::Result<LatencyRow> {
    let editor_path: PathFn = {
        let p = editor.to_string();
        Arc::new(move |_| p.clone())
    };
    let load = {
        let crowd: Vec<Arc<Client>> = crowd.to_vec();
        let name = format!("{name} (the editors)");
        tokio::spawn(async move { measure::concurrent(&name, &crowd, &editor_path, limits).await })
    };
    // Let the crowd's first wave arrive before measuring.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut t = Timings::default();
    let started = Instant::now();
    while started.elapsed() < limits.concurrent.saturating_sub(Duration::from_millis(600)) {
        let s = Instant::now();
        let answer = one.get(page).await?;
        if answer.status.is_success() {
            t.http.push(s.elapsed());
        } else {
            t.errors += 1;
        }
    }
    t.wall = started.elapsed();
    let editors = load.await?;
    if editors.errors > 0 {
        anyhow::bail!("{name}: {} editor pages failed", editors.errors);
    }
    Ok(LatencyRow::new(name, crowd.len() + 1, t, Budget::P95Ms(budget_ms)))
}

/// `crowd` reads the lists of `reads` without pause while `one` saves and approves a 20-line
/// invoice over and over (issue 38: a save waited 206–396 ms behind 32 readers). Answers the
/// saves' timings and the readers' rate; a reader that failed fails the scenario.
///
/// The saving user's browser is on another machine: its client runs on a thread and runtime
/// of its own, started from `outside` (a runtime at normal priority), not among the readers'
/// clients on the server's main runtime, whose queue it would otherwise wait in to send each
/// request and read each answer.
pub async fn save_during_reads(name: &str, crowd: &[Arc<Client>], one: &Client, reads: &PathFn, save_body: &str, warehouse: i64, limits: Limits, outside: &tokio::runtime::Handle) -> anyhow::Result<(Timings, f64)> {
    let load = {
        let (crowd, reads, name) = (crowd.to_vec(), Arc::clone(reads), format!("{name} (the readers)"));
        tokio::spawn(async move { measure::concurrent(&name, &crowd, &reads, limits).await })
    };
    // Let the readers' first wave arrive before measuring.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let until = limits.concurrent.saturating_sub(Duration::from_millis(600));
    let (one, body) = (one.another(), save_body.to_owned());
    let saving = outside.spawn_blocking(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        rt.block_on(super::save_and_approve(&one, &body, warehouse, Limits { requests: usize::MAX, max_single: until, ..limits }))
    });
    let saves = saving.await??;
    let readers = load.await?;
    if readers.errors > 0 {
        anyhow::bail!("{name}: {} of the readers' requests failed", readers.errors);
    }
    let rate = readers.http.len() as f64 / readers.wall.as_secs_f64().max(1e-9);
    Ok((saves, rate))
}
