//! Background work of a server process: one worker loop over the one job queue (`jobs`,
//! DESIGN §9, docs/decisions/operations.md "One job queue"), and the hourly upkeep.
//!
//! The loop keeps a slot per family of work (`domain::jobs::Slot`): reports and imports
//! (`files`) take turns in one, Xero calls (`xero::worker`), e-mails (`email::worker`) and
//! print jobs (`printing::worker`) each run in their own, so a year's report never holds a
//! send back, a Xero back-off never holds a report, and a slow mail relay never holds a
//! print job at the counter. In each free
//! slot it claims the due job whose company waited longest, runs it on its own task, and
//! sleeps until a job is queued here, a slot frees, the next Xero job falls due, or the
//! poll interval passes (jobs queued by another process). Every failure is logged and the
//! loop goes on.

pub mod files;
pub mod upkeep;

use std::sync::Arc;
use std::time::Duration;

use domain::jobs::Slot;
use tokio::sync::mpsc;

use crate::Core;

/// How often an idle worker looks for jobs queued by other processes.
pub const IDLE_POLL: Duration = Duration::from_secs(2);
/// The shortest sleep between two rounds (a job due "now" is claimed on the next round).
const SHORTEST_WAIT: Duration = Duration::from_millis(50);

/// Starts this process's background work on the Tokio runtime.
pub fn start(core: Arc<Core>) {
    tokio::spawn(run(core.clone()));
    tokio::spawn(upkeep::run(core));
}

/// The worker loop: runs until the process ends.
pub async fn run(core: Arc<Core>) {
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Slot>();
    let mut busy = [false; Slot::ALL.len()];
    loop {
        for (i, slot) in Slot::ALL.into_iter().enumerate() {
            if busy[i] {
                continue;
            }
            match start_one(&core, slot, done_tx.clone()).await {
                Ok(started) => busy[i] = started,
                Err(e) => tracing::warn!(error = %e, ?slot, "the job worker could not reach the database"),
            }
        }
        let wait = next_wait(&core, busy[index(Slot::Xero)]).await.min(next_email_wait(&core, busy[index(Slot::Mail)]).await).min(next_print_wait(&core, busy[index(Slot::Print)]).await);
        tokio::select! {
            Some(slot) = done_rx.recv() => busy[index(slot)] = false,
            () = core.reports.wake.notified() => {}
            () = core.xero.bell.notified() => {}
            () = core.email.bell.notified() => {}
            () = tokio::time::sleep(wait) => {}
        }
    }
}

fn index(slot: Slot) -> usize {
    Slot::ALL.iter().position(|s| *s == slot).unwrap_or(0)
}

/// Frees its slot when the job's task ends, however it ends: a job that panics must not
/// leave its slot busy for the life of the process.
struct Release {
    slot: Slot,
    done: mpsc::UnboundedSender<Slot>,
}

impl Drop for Release {
    fn drop(&mut self) {
        let _ = self.done.send(self.slot);
    }
}

/// Claims a job for `slot` and runs it on its own task, which reports back on `done` when it
/// ends; `true` when a job was started.
async fn start_one(core: &Arc<Core>, slot: Slot, done: mpsc::UnboundedSender<Slot>) -> db::error::AppResult<bool> {
    match slot {
        Slot::Files => {
            let Some(job) = files::claim(core).await? else { return Ok(false) };
            let (core, release) = (core.clone(), Release { slot, done });
            tokio::spawn(async move {
                let _release = release;
                let id = job.id;
                if let Err(e) = files::execute(&core, job).await {
                    tracing::warn!(error = %e, job = id, "a report or import job could not record its end");
                }
            });
        }
        Slot::Xero => {
            let link = core.xero.clone();
            if !::xero::worker::any_claimable(&core.db, &link).await? {
                return Ok(false);
            }
            let Some(job) = ::xero::worker::claim(&core.db, &link).await? else { return Ok(false) };
            let (db, release) = (core.db.clone(), Release { slot, done });
            tokio::spawn(async move {
                let _release = release;
                let id = job.id;
                if let Err(e) = ::xero::worker::execute(&db, &link, job).await {
                    tracing::warn!(error = %e, job = id, "a Xero job could not record its end");
                }
            });
        }
        Slot::Mail => {
            if !crate::email::worker::any_claimable(core).await? {
                return Ok(false);
            }
            let Some(job) = crate::email::worker::claim(core).await? else { return Ok(false) };
            let (core, release) = (core.clone(), Release { slot, done });
            tokio::spawn(async move {
                let _release = release;
                let id = job.id;
                if let Err(e) = crate::email::worker::execute(&core, job).await {
                    tracing::warn!(error = %e, job = id, "an e-mail job could not record its end");
                }
            });
        }
        Slot::Print => {
            let Some(job) = crate::printing::worker::claim(core).await? else { return Ok(false) };
            let (core, release) = (core.clone(), Release { slot, done });
            tokio::spawn(async move {
                let _release = release;
                let id = job.job_id;
                if let Err(e) = crate::printing::worker::execute(&core, job).await {
                    tracing::warn!(error = %e, job = id, "a print job could not record its end");
                }
            });
        }
    }
    Ok(true)
}

/// How long an idle round sleeps for the outbox: the poll interval, or less when an
/// e-mail's retry falls due sooner.
async fn next_email_wait(core: &Core, busy: bool) -> Duration {
    if busy {
        return IDLE_POLL;
    }
    match crate::email::worker::next_due(core).await {
        Ok(Some(t)) => (t - db::now()).to_std().unwrap_or_default().clamp(SHORTEST_WAIT, IDLE_POLL),
        _ => IDLE_POLL,
    }
}

/// How long an idle round sleeps for the printers: the poll interval, or less when a print
/// job's back-off ends sooner.
async fn next_print_wait(core: &Core, busy: bool) -> Duration {
    if busy {
        return IDLE_POLL;
    }
    match crate::printing::worker::next_due(core).await {
        Ok(Some(t)) => (t - db::now()).to_std().unwrap_or_default().clamp(SHORTEST_WAIT, IDLE_POLL),
        _ => IDLE_POLL,
    }
}

/// How long an idle round sleeps: the poll interval, or less when a Xero job falls due
/// sooner (a back-off or the rate budget put it back with a time).
async fn next_wait(core: &Core, xero_busy: bool) -> Duration {
    if xero_busy {
        return IDLE_POLL;
    }
    match ::xero::worker::next_due(&core.db).await {
        Ok(Some(t)) => (t - core.xero.clock.now()).to_std().unwrap_or_default().clamp(SHORTEST_WAIT, IDLE_POLL),
        _ => IDLE_POLL,
    }
}
