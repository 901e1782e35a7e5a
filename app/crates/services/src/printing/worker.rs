//! The print jobs of the one queue (queue `print`, slot `Print`): claims one, renders its
//! sheets' PDF at send time, sends it with IPP Print-Job, and records how it ended.
//!
//! Exactly once: `sending` is committed before the Print-Job goes out; when the printer
//! accepts, one transaction records `printed` with the printer's job-id and marks the sheets
//! printed. A job taken over (its worker died) whose row says `printed` ends done without
//! sending; one left in `sending` first asks the printer (Get-Jobs, all of this user's jobs)
//! for a job of its name, which carries the print job's id, and sends only when the printer
//! has none. Temporary failures are retried with back-off; permanent ones fail at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use chrono::NaiveDateTime;
use db::error::{AppError, AppResult};
use db::printing::{self as store, Claimed, PrintJob, PrintState};
use diesel::prelude::*;
use documents::Variant;
use domain::Actor;
use domain::enums::Role;

use super::ipp::{self, Fail};
use crate::Core;

/// Attempts a job has before it fails for good.
pub const MAX_ATTEMPTS: i32 = 5;
/// The first retry's wait; each next one doubles it.
pub const BACKOFF: Duration = Duration::from_secs(15);
/// The longest wait between two attempts.
const LONGEST_BACKOFF: Duration = Duration::from_secs(600);
/// A running print job whose heartbeat is older than this lost its worker. Longer than a
/// render plus the three requests' timeouts, so a live worker is never taken over.
pub const STALE_AFTER: Duration = Duration::from_secs(300);
/// The environment variable that shortens the first back-off (milliseconds): tests and
/// demos retry in moments instead of seconds.
pub const BACKOFF_ENV: &str = "TYREDESK_PRINT_BACKOFF_MS";

/// The first back-off in milliseconds when set by [`set_backoff`] (0: unset).
static BACKOFF_MS: AtomicU64 = AtomicU64::new(0);

/// Sets the first back-off for this process (the test harness's way; the server reads
/// [`BACKOFF_ENV`]).
pub fn set_backoff(first: Duration) {
    BACKOFF_MS.store(first.as_millis().max(1) as u64, Ordering::Relaxed);
}

fn first_backoff() -> Duration {
    match BACKOFF_MS.load(Ordering::Relaxed) {
        0 => std::env::var(BACKOFF_ENV).ok().and_then(|v| v.trim().parse::<u64>().ok()).map_or(BACKOFF, Duration::from_millis),
        ms => Duration::from_millis(ms),
    }
}

/// The wait after the `attempt`th failed attempt (1-based): the first back-off, doubled
/// each time, at most ten minutes.
pub fn backoff(attempt: i32) -> Duration {
    let n = u32::try_from(attempt.clamp(1, 16) - 1).unwrap_or(0);
    first_backoff().saturating_mul(1 << n).min(LONGEST_BACKOFF)
}

fn stale_before(now: NaiveDateTime) -> NaiveDateTime {
    now - chrono::Duration::from_std(STALE_AFTER).unwrap_or_default()
}

/// The name a print job carries at the printer: the file's name and the print job's id,
/// which Get-Jobs finds it by after a send whose outcome was unknown.
pub fn job_name(file: &str, print: i64) -> String {
    format!("{file} [TyreDesk print {print}]")
}

/// Whether a print job waits (a read, so an idle worker does not take the write lock).
pub async fn any_claimable(core: &Core) -> AppResult<bool> {
    let now = db::now();
    let stale = stale_before(now);
    core.db.run(move |c| db::jobs::any_claimable(c, &store::QUEUES, now, stale)).await
}

/// When the earliest queued print job is due.
pub async fn next_due(core: &Core) -> AppResult<Option<NaiveDateTime>> {
    core.db.run(store::next_due).await
}

/// Claims the print job whose company waited longest, for this process's worker.
pub async fn claim(core: &Core) -> AppResult<Option<Claimed>> {
    if !any_claimable(core).await? {
        return Ok(None);
    }
    let worker = core.reports.worker.clone();
    let now = db::now();
    let stale = stale_before(now);
    core.db.write(move |c| store::claim(c, &worker, now, stale)).await
}

/// Claims and runs one due print job; its queue id, or `None` when none is due.
pub async fn run_once(core: &Arc<Core>) -> AppResult<Option<i64>> {
    let Some(job) = claim(core).await? else { return Ok(None) };
    let id = job.job_id;
    execute(core, job).await?;
    Ok(Some(id))
}

/// Runs print jobs until none is queued, waiting out each back-off (tests, with a short
/// back-off); at most `limit` runs.
pub async fn drain(core: &Arc<Core>, limit: usize) -> AppResult<usize> {
    let mut n = 0;
    while n < limit {
        if run_once(core).await?.is_some() {
            n += 1;
            continue;
        }
        match next_due(core).await? {
            Some(t) => {
                let wait = (t - db::now()).to_std().unwrap_or_default();
                tokio::time::sleep(wait.min(Duration::from_secs(30)) + Duration::from_millis(5)).await;
            }
            None => break,
        }
    }
    Ok(n)
}

/// How an attempt ended when it did not print.
#[derive(Debug)]
enum Stop {
    Fail(Fail),
    /// The job is no longer this worker's: write nothing.
    Lost,
}

impl From<Fail> for Stop {
    fn from(f: Fail) -> Self {
        Stop::Fail(f)
    }
}

impl From<AppError> for Stop {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Conflict { message, .. } | AppError::BadRequest(message) | AppError::Forbidden(message) => Stop::Fail(Fail::Permanent(message)),
            AppError::NotFound => Stop::Fail(Fail::Permanent("a sheet of the job no longer exists".into())),
            AppError::Internal(inner) => {
                tracing::error!(error = ?inner, "a print job failed");
                Stop::Fail(Fail::Permanent("the documents could not be prepared because of an error on the server; ask an administrator to check its log".into()))
            }
            other => Stop::Fail(Fail::Temporary(format!("the database was not available ({other})"))),
        }
    }
}

/// What a successful attempt learnt.
struct Printed {
    printer_job: Option<i32>,
    actor: Actor,
    ids: Vec<i64>,
    variant: Variant,
}

/// Runs a claimed job to its end and records how it ended.
pub async fn execute(core: &Arc<Core>, job: Claimed) -> AppResult<()> {
    let worker = core.reports.worker.clone();
    let job_id = job.job_id;
    let Some(print) = job.print.clone() else {
        let w = worker.clone();
        core.db.write(move |c| store::record_failed(c, None, job_id, &w, "The print job has no history row.", db::now())).await?;
        return Ok(());
    };
    match print.print_state() {
        PrintState::Printed | PrintState::Failed => {
            // Taken over after the outcome was committed: nothing is sent again.
            core.db.write(move |c| store::finish_done(c, job_id, &worker, db::now())).await?;
            return Ok(());
        }
        PrintState::Queued | PrintState::Sending => {}
    }
    let outcome = attempt(core, &print, job_id).await;
    settle(core, &print, &job, outcome).await
}

async fn attempt(core: &Arc<Core>, print: &PrintJob, job_id: i64) -> Result<Printed, Stop> {
    let (org, printer_id) = (print.org_id, print.printer_id);
    let printer = core.db.run(move |c| store::printer(c, org, printer_id)).await.map_err(|e| match e {
        AppError::NotFound => Stop::Fail(Fail::Permanent("the printer was removed from Settings › Printers".into())),
        other => Stop::from(other),
    })?;
    if !printer.active {
        return Err(Fail::Permanent(format!("the printer {} is switched off in Settings › Printers", printer.name)).into());
    }
    let actor = asker(core, print).await?;
    let variant = Variant::parse(Some(&print.variant)).unwrap_or(Variant::Standard);
    let ids = print.ids();
    let file = crate::print::pdf(core, org, ids.clone(), variant).await?;
    let name = job_name(&file.name, print.id);
    if print.print_state() == PrintState::Sending {
        // An earlier attempt may have reached the printer: ask before sending again.
        if let Some(found) = ipp::find_job(&printer.url, &actor.name, &name).await.map_err(|f| match f {
            Fail::Permanent(m) => Fail::Permanent(format!("{m} (asked whether an earlier attempt had printed)")),
            other => other,
        })? {
            return Ok(Printed { printer_job: Some(found), actor, ids, variant });
        }
    }
    let info = ipp::attributes(&printer.url).await?;
    if let Some(why) = info.unavailable() {
        return Err(Fail::Temporary(why).into());
    }
    let (worker, print_id) = (core.reports.worker.clone(), print.id);
    if !core.db.write(move |c| store::mark_sending(c, print_id, job_id, &worker, db::now())).await? {
        return Err(Stop::Lost);
    }
    let printer_job = ipp::print(&printer.url, &actor.name, &name, file.bytes).await?;
    Ok(Printed { printer_job, actor, ids, variant })
}

/// The staff member who asked for the print, as they are now in the company: the sheets are
/// marked printed in their name, as the print page would.
async fn asker(core: &Core, print: &PrintJob) -> Result<Actor, Stop> {
    let org = print.org_id;
    let user = print.created_by.ok_or_else(|| Stop::Fail(Fail::Permanent("the print job names nobody".into())))?;
    let who = core
        .db
        .run(move |c| {
            let user_row = db::accounts::user_by_id(c, user)?;
            let m = db::accounts::memberships_of(c, user)?.into_iter().find(|m| m.org_id == org);
            Ok(m.map(|m| Actor { org_id: org, user_id: user, name: user_row.name, role: Role::from_i32(m.role).unwrap_or(Role::Business), is_acct: m.is_acct, crt_csr: m.crt_csr }))
        })
        .await?;
    who.ok_or_else(|| Stop::Fail(Fail::Permanent("the person who asked for the print is no longer a member of the company".into())))
}

/// Writes the outcome: printed (with the sheets marked, in one transaction), retried later,
/// or failed.
async fn settle(core: &Core, print: &PrintJob, job: &Claimed, outcome: Result<Printed, Stop>) -> AppResult<()> {
    let worker = core.reports.worker.clone();
    let (print_id, job_id, attempts) = (print.id, job.job_id, job.attempts);
    let now = db::now();
    match outcome {
        Ok(p) => {
            core.db
                .write(move |c| {
                    if !store::record_printed(c, print_id, job_id, &worker, p.printer_job, now)? {
                        return Ok(());
                    }
                    // The printer has the document: marking is kept apart (a savepoint), so a
                    // sheet changed meanwhile is said, not a rollback of "printed".
                    if let Err(e) = c.transaction(|c| crate::print::mark_all_printed(c, &p.actor, &p.ids, p.variant)) {
                        let note = format!("Printed, but the sheets could not be marked printed: {e}");
                        diesel::update(db::schema::print_jobs::table.find(print_id)).set(db::schema::print_jobs::last_error.eq(note)).execute(c)?;
                    }
                    Ok(())
                })
                .await
        }
        Err(Stop::Lost) => Ok(()),
        Err(Stop::Fail(Fail::Permanent(m))) => {
            let message = failure(&m);
            core.db.write(move |c| store::record_failed(c, Some(print_id), job_id, &worker, &message, now).map(|_| ())).await
        }
        Err(Stop::Fail(f)) if attempts + 1 >= MAX_ATTEMPTS => {
            let message = match &f {
                Fail::Unknown(m) => format!(
                    "The printer did not confirm the job after {MAX_ATTEMPTS} attempts (last: {m}). Check the printer before printing again: it may have printed."
                ),
                _ => failure(&format!("{} (after {MAX_ATTEMPTS} attempts)", f.message())),
            };
            core.db.write(move |c| store::record_failed(c, Some(print_id), job_id, &worker, &message, now).map(|_| ())).await
        }
        Err(Stop::Fail(f)) => {
            let maybe_sent = matches!(f, Fail::Unknown(_)) || print.print_state() == PrintState::Sending;
            let at = now + chrono::Duration::from_std(backoff(attempts + 1)).unwrap_or_default();
            let message = f.message().to_string();
            tracing::warn!(print = print_id, attempt = attempts + 1, "a print job will be retried: {message}");
            core.db.write(move |c| store::retry_at(c, print_id, job_id, &worker, at, maybe_sent, &message).map(|_| ())).await
        }
    }
}

fn failure(m: &str) -> String {
    let mut s = format!("Not printed: {m}");
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_off_doubles_from_the_first_wait_up_to_ten_minutes() {
        assert_eq!(backoff(1), first_backoff());
        assert_eq!(backoff(2), first_backoff() * 2);
        assert!(backoff(40) <= LONGEST_BACKOFF);
        assert_eq!(job_name("INV-000001.pdf", 7), "INV-000001.pdf [TyreDesk print 7]");
    }
}
