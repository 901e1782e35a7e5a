//! Report and import jobs (the worker slot that writes and reads files): claims one, beats
//! its heartbeat while the file is written or read, and records how it ended
//! (docs/decisions/reports.md). Any number of server processes may run them on the same
//! PostgreSQL; each job runs once at a time.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::reports::{Ctx, Progress, Stored, files, write};
use db::reports::{self as queue, Job};
use db::{self, DbConn};
use db::error::{AppError, AppResult};
use crate::Core;
use xlsx::export::{self, SheetWriter};

/// How often a running job's heartbeat (and progress) is written.
pub const HEARTBEAT: Duration = Duration::from_secs(5);
/// A running job whose heartbeat is older than this has lost its worker (killed, power
/// lost) and is claimed again.
pub const STALE_AFTER: Duration = Duration::from_secs(60);
/// Runs a job may have before it fails with `queue::GAVE_UP`.
pub const MAX_ATTEMPTS: i32 = 3;
/// Claims one job and runs it to its end; answers its id, or `None` when nothing waits.
pub async fn run_once(core: &Arc<Core>) -> AppResult<Option<i64>> {
    let Some(job) = claim(core).await? else { return Ok(None) };
    let id = job.id;
    execute(core, job).await?;
    Ok(Some(id))
}

fn stale_before(now: chrono::NaiveDateTime) -> chrono::NaiveDateTime {
    now - chrono::Duration::from_std(STALE_AFTER).unwrap_or_default()
}

/// Claims the report or import whose company waited longest; `None` when nothing waits.
pub async fn claim(core: &Core) -> AppResult<Option<Job>> {
    let now = db::now();
    let stale = stale_before(now);
    // A read first: an idle worker polls every few seconds, and claiming takes the write lock.
    if !core.db.run(move |c| db::jobs::any_claimable(c, &queue::QUEUES, now, stale)).await? {
        return Ok(None);
    }
    let worker = core.reports.worker.clone();
    core.db.write(move |c| queue::claim(c, &worker, now, stale, MAX_ATTEMPTS)).await
}

/// Runs a claimed job to its end and records how it ended.
pub async fn execute(core: &Arc<Core>, job: Job) -> AppResult<()> {
    let (id, worker) = (job.id, core.reports.worker.clone());
    let progress = Arc::new(Progress::default());
    let cancel = Arc::new(AtomicBool::new(false));
    let beat = tokio::spawn(heartbeat(core.clone(), id, progress.clone(), cancel.clone()));
    if let Some(kind) = domain::imports::ImportKind::from_code(&job.kind) {
        // Imports share the queue (one per process at a time, taken over after a crash).
        let result = crate::imports::run_job(core, &job, kind, progress).await;
        beat.abort();
        match result {
            Ok(summary) => {
                core.db.write(move |c| queue::finish_import(c, id, &worker, &summary, db::now())).await?;
            }
            Err(e) => {
                let message = failure_message(&e);
                core.db.write(move |c| queue::fail(c, id, &worker, &message, db::now())).await?;
            }
        }
        return Ok(());
    }
    // Customer statements (issue 33): one PDF of every customer with a balance; a sheet
    // export too large to wait for (issue 37).
    let file_job = if job.kind == crate::statements::JOB_KIND {
        Some(crate::statements::run_job(core, &job, progress.clone()).await)
    } else if job.kind == domain::exports::JOB_KIND {
        Some(crate::exports::run_job(core, &job).await)
    } else {
        None
    };
    if let Some(result) = file_job {
        beat.abort();
        let org = job.org_id;
        match result {
            Ok(name) => {
                let (file, w) = (name.clone(), worker.clone());
                if !core.db.write(move |c| queue::finish(c, id, &w, &file, db::now())).await? {
                    core.store.remove(&files::key(org, &name)).await;
                }
            }
            Err(e) => {
                let message = failure_message(&e);
                core.db.write(move |c| queue::fail(c, id, &worker, &message, db::now())).await?;
            }
        }
        return Ok(());
    }
    let data_dir = core.data_dir.clone();
    let (p, c) = (progress.clone(), cancel.clone());
    let org = job.org_id;
    let written = core.db.run_large(move |conn| generate(conn, &job, &data_dir, &p, c)).await;
    // Stored while the heartbeat still beats: a large file takes a while to upload.
    let result = match written {
        Ok((name, part)) => core.store.put_file(&files::key(org, &name), &part).await.map(|()| name),
        Err(e) => Err(e),
    };
    beat.abort();
    match result {
        Ok(name) => {
            let file = name.clone();
            let w = worker.clone();
            let ours = core.db.write(move |c| queue::finish(c, id, &w, &file, db::now())).await?;
            if !ours {
                // Cancelled meanwhile, or taken over after a stall: the file is nobody's.
                core.store.remove(&files::key(org, &name)).await;
            }
        }
        // Cancelled or taken over: the job's row already says so.
        Err(_) if cancel.load(Ordering::Relaxed) => {}
        Err(e) => {
            let message = failure_message(&e);
            core.db.write(move |c| queue::fail(c, id, &worker, &message, db::now())).await?;
        }
    }
    Ok(())
}

/// Beats the job's heartbeat with its progress until aborted; raises the cancel flag when
/// the job is no longer ours, so the writer stops at its next chunk.
async fn heartbeat(core: Arc<Core>, id: i64, progress: Arc<Progress>, cancel: Arc<AtomicBool>) {
    let mut every = tokio::time::interval(HEARTBEAT);
    every.tick().await;
    loop {
        every.tick().await;
        let (worker, pct) = (core.reports.worker.clone(), progress.get());
        match core.db.write(move |c| queue::heartbeat(c, id, &worker, pct, db::now())).await {
            Ok(true) => {}
            Ok(false) => {
                cancel.store(true, Ordering::Relaxed);
                return;
            }
            Err(e) => tracing::warn!(error = %e, job = id, "a report's heartbeat failed"),
        }
    }
}

/// What a person reads on a failed job.
fn failure_message(e: &AppError) -> String {
    match e {
        AppError::Validation { message, .. } => message.clone(),
        AppError::Internal(inner) => {
            tracing::error!(error = ?inner, "a report failed");
            "The report could not be prepared because of an error on the server. Try again; if it fails again, ask an administrator to check the server's log.".into()
        }
        other => other.to_string(),
    }
}

/// Writes the job's file under a temporary name in the data directory's `tmp/`; answers the
/// file's name and where the complete file is, for the store to take.
fn generate(conn: &mut DbConn, job: &Job, data_dir: &Path, progress: &Progress, cancel: Arc<AtomicBool>) -> AppResult<(String, PathBuf)> {
    let stored: Stored = serde_json::from_str(&job.params).map_err(|e| AppError::Internal(anyhow::anyhow!("report {} has unreadable parameters: {e}", job.id)))?;
    let org = db::accounts::organisation(conn, job.org_id)?;
    let tmp = export::temp_dir(data_dir);
    std::fs::create_dir_all(&tmp).map_err(|e| export::write_failed(e.into()))?;
    let name = files::file_name(job.id, stored.kind, &job.date_range);
    let part = files::part_path(data_dir, &name);
    let mut out = SheetWriter::empty(&tmp).map_err(export::write_failed)?;
    out.watch_cancel(cancel);
    // The job's company's zone: its days bound the report.
    let zone = domain::dates::zone_of(&org.time_zone);
    let ctx = Ctx { org_id: job.org_id, org_name: &org.name, kind: stored.kind, params: &stored.params, progress, created_at: job.created_at, zone };
    let written = db::read_snapshot(conn, |c| write(c, &ctx, &mut out)).and_then(|()| out.save(&part));
    if let Err(e) = written {
        crate::store::remove_local(&part);
        return Err(e);
    }
    Ok((name, part))
}

/// Removes reports past their retention and temporary files a crash left; run at start-up
/// and hourly.
pub async fn clean(core: &Core) -> AppResult<()> {
    let before = db::now() - chrono::Duration::from_std(files::RETENTION).unwrap_or_default();
    let expired = core.db.write(move |c| queue::expire(c, before)).await?;
    for (org, name) in expired {
        core.store.remove(&files::key(org, &name)).await;
    }
    files::sweep_parts(&core.data_dir, files::LEFTOVER_AGE);
    Ok(())
}
