//! Printing without a dialog (issue 33, docs/decisions/documents.md "Printing to IPP
//! printers"): the company's IPP printers, and the print jobs sent to them. A print job is a
//! job of the one queue (`jobs`, queue `print`), claimed, beaten and taken over like every
//! other (`super::jobs`), with a `print_jobs` row beside it that keeps its history: the
//! sheets, the variant, the printer, where it got to and the printer's own job-id.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};

use super::DbConn;
use super::jobs::{self as queue, Lease, mine};
use super::schema::{jobs, print_jobs, printers};
use crate::error::{AppError, AppResult};
use domain::jobs::{JobState, Queue};

/// The queues the print worker claims from.
pub const QUEUES: [Queue; 1] = [Queue::Print];

/// A printer of the company.
#[derive(Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = printers)]
pub struct Printer {
    pub id: i64,
    pub org_id: i64,
    pub name: String,
    pub url: String,
    /// The warehouse (or branch) that prints on it; `None`: any.
    pub warehouse_id: Option<i64>,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A printer's fields as saved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrinterInput {
    pub name: String,
    pub url: String,
    pub warehouse_id: Option<i64>,
    pub active: bool,
}

/// The company's printers by name.
pub fn printers(conn: &mut DbConn, org: i64) -> AppResult<Vec<Printer>> {
    Ok(printers::table.filter(printers::org_id.eq(org)).order((printers::name, printers::id)).select(Printer::as_select()).load(conn)?)
}

/// One printer of the company; another company's id is not found.
pub fn printer(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Printer> {
    printers::table.filter(printers::org_id.eq(org)).filter(printers::id.eq(id)).select(Printer::as_select()).first(conn).optional()?.ok_or(AppError::NotFound)
}

/// Whether another printer of the company has this name.
pub fn name_taken(conn: &mut DbConn, org: i64, name: &str, except: Option<i64>) -> AppResult<bool> {
    let mut q = printers::table.filter(printers::org_id.eq(org)).filter(printers::name.eq(name)).select(printers::id).into_boxed();
    if let Some(id) = except {
        q = q.filter(printers::id.ne(id));
    }
    Ok(q.first::<i64>(conn).optional()?.is_some())
}

pub fn insert_printer(conn: &mut DbConn, org: i64, p: &PrinterInput, now: NaiveDateTime) -> AppResult<i64> {
    Ok(diesel::insert_into(printers::table)
        .values((
            printers::org_id.eq(org),
            printers::name.eq(&p.name),
            printers::url.eq(&p.url),
            printers::warehouse_id.eq(p.warehouse_id),
            printers::active.eq(p.active),
            printers::created_at.eq(now),
            printers::updated_at.eq(now),
        ))
        .returning(printers::id)
        .get_result(conn)?)
}

pub fn update_printer(conn: &mut DbConn, org: i64, id: i64, p: &PrinterInput, now: NaiveDateTime) -> AppResult<()> {
    let n = diesel::update(printers::table.filter(printers::org_id.eq(org)).filter(printers::id.eq(id)))
        .set((
            printers::name.eq(&p.name),
            printers::url.eq(&p.url),
            printers::warehouse_id.eq(p.warehouse_id),
            printers::active.eq(p.active),
            printers::updated_at.eq(now),
        ))
        .execute(conn)?;
    if n == 1 { Ok(()) } else { Err(AppError::NotFound) }
}

/// Removes a printer; its print history keeps the name it printed under.
pub fn delete_printer(conn: &mut DbConn, org: i64, id: i64) -> AppResult<()> {
    let n = diesel::delete(printers::table.filter(printers::org_id.eq(org)).filter(printers::id.eq(id))).execute(conn)?;
    if n == 1 { Ok(()) } else { Err(AppError::NotFound) }
}

/// The printer a sheet of `warehouse` prints on: an active printer of that warehouse, else
/// an active printer for any warehouse; the first by name. One statement.
pub fn printer_for(conn: &mut DbConn, org: i64, warehouse: Option<i64>) -> AppResult<Option<Printer>> {
    let active = printers::table.filter(printers::org_id.eq(org)).filter(printers::active.eq(true));
    // A warehouse's own printers come first (`IS NULL` is false for them).
    Ok(active
        .filter(printers::warehouse_id.is_null().or(printers::warehouse_id.eq(warehouse)))
        .order((printers::warehouse_id.is_null(), printers::name, printers::id))
        .select(Printer::as_select())
        .first(conn)
        .optional()?)
}

/// Where a print job got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintState {
    /// Waiting for the worker (or for its next attempt).
    Queued,
    /// The document is being (or may have been) sent: a job taken over in this state asks
    /// the printer whether it took it before sending again.
    Sending,
    /// The printer accepted it (its job-id is kept) and the sheets are marked printed.
    Printed,
    /// It will not print; `last_error` says why.
    Failed,
}

impl PrintState {
    pub const fn code(self) -> &'static str {
        match self {
            PrintState::Queued => "queued",
            PrintState::Sending => "sending",
            PrintState::Printed => "printed",
            PrintState::Failed => "failed",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        [PrintState::Queued, PrintState::Sending, PrintState::Printed, PrintState::Failed].into_iter().find(|s| s.code() == code)
    }

    /// Printed or failed: nothing more happens to it.
    pub const fn is_final(self) -> bool {
        matches!(self, PrintState::Printed | PrintState::Failed)
    }
}

/// A print job's history row.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = print_jobs)]
pub struct PrintJob {
    pub id: i64,
    pub org_id: i64,
    /// The job of the one queue that sends it.
    pub job_id: i64,
    pub printer_id: i64,
    pub printer_name: String,
    /// The sheets, comma-separated ids, in the order they print.
    pub order_ids: String,
    /// `standard` or `noprice`.
    pub variant: String,
    pub state: String,
    pub printer_job_id: Option<i32>,
    pub attempts: i32,
    pub last_error: String,
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub done_at: Option<NaiveDateTime>,
}

impl PrintJob {
    pub fn print_state(&self) -> PrintState {
        PrintState::from_code(&self.state).unwrap_or(PrintState::Failed)
    }

    pub fn ids(&self) -> Vec<i64> {
        self.order_ids.split(',').filter_map(|s| s.trim().parse().ok()).collect()
    }
}

/// Queues a print job of `ids` on `printer` for `user`: the queue's job and its history row,
/// in the caller's transaction. Answers the history row's id.
pub fn enqueue(conn: &mut DbConn, printer: &Printer, ids: &[i64], variant: &str, user: i64, now: NaiveDateTime) -> AppResult<i64> {
    #[derive(QueryableByName)]
    struct Inserted {
        #[diesel(sql_type = BigInt)]
        id: i64,
    }
    let job = diesel::sql_query(
        "INSERT INTO jobs (org_id, queue, kind, state, not_before, requested_by, created_at) VALUES ($1, $2, 'print', $3, $4, $5, $4) RETURNING id",
    )
    .bind::<BigInt, _>(printer.org_id)
    .bind::<Text, _>(Queue::Print.code())
    .bind::<diesel::sql_types::Integer, _>(JobState::Queued.as_i32())
    .bind::<Timestamp, _>(now)
    .bind::<Nullable<BigInt>, _>(Some(user))
    .get_result::<Inserted>(conn)?
    .id;
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    Ok(diesel::insert_into(print_jobs::table)
        .values((
            print_jobs::org_id.eq(printer.org_id),
            print_jobs::job_id.eq(job),
            print_jobs::printer_id.eq(printer.id),
            print_jobs::printer_name.eq(&printer.name),
            print_jobs::order_ids.eq(list),
            print_jobs::variant.eq(variant),
            print_jobs::state.eq(PrintState::Queued.code()),
            print_jobs::created_by.eq(Some(user)),
            print_jobs::created_at.eq(now),
        ))
        .returning(print_jobs::id)
        .get_result(conn)?)
}

/// A print job of the company; another company's id is not found.
pub fn print_job(conn: &mut DbConn, org: i64, id: i64) -> AppResult<PrintJob> {
    print_jobs::table.filter(print_jobs::org_id.eq(org)).filter(print_jobs::id.eq(id)).select(PrintJob::as_select()).first(conn).optional()?.ok_or(AppError::NotFound)
}

/// The print job of a queue job.
pub fn of_job(conn: &mut DbConn, job: i64) -> AppResult<Option<PrintJob>> {
    Ok(print_jobs::table.filter(print_jobs::job_id.eq(job)).select(PrintJob::as_select()).first(conn).optional()?)
}

/// A claimed job: the queue's row (attempts so far) and its print job.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub job_id: i64,
    /// Attempts ended before this one (failures that were retried).
    pub attempts: i32,
    pub print: Option<PrintJob>,
}

/// Claims the due print job whose company waited longest (or one whose worker died).
pub fn claim(conn: &mut DbConn, worker: &str, now: NaiveDateTime, stale_before: NaiveDateTime) -> AppResult<Option<Claimed>> {
    let Some(id) = queue::claim(conn, &QUEUES, Lease { worker, now, stale_before, give_up: None })? else { return Ok(None) };
    let attempts = jobs::table.find(id).select(jobs::attempts).first::<i32>(conn)?;
    Ok(Some(Claimed { job_id: id, attempts, print: of_job(conn, id)? }))
}

/// When the earliest queued print job is due (a retry waits for its back-off).
pub fn next_due(conn: &mut DbConn) -> AppResult<Option<NaiveDateTime>> {
    queue::next_due(conn, &QUEUES)
}

/// Records, before the document goes out, that it is being sent (committed on its own, so a
/// worker that dies mid-send leaves a row that says so); `false` when the job is no longer
/// this worker's.
pub fn mark_sending(conn: &mut DbConn, print: i64, job: i64, worker: &str, now: NaiveDateTime) -> AppResult<bool> {
    if diesel::update(mine(job, worker)).set(jobs::heartbeat_at.eq(Some(now))).execute(conn)? != 1 {
        return Ok(false);
    }
    diesel::update(print_jobs::table.find(print))
        .set((print_jobs::state.eq(PrintState::Sending.code()), print_jobs::attempts.eq(print_jobs::attempts + 1)))
        .execute(conn)?;
    Ok(true)
}

/// Ends the job: the printer took the document as its job `printer_job`. The caller marks
/// the sheets printed in the same transaction. `false` when the job is no longer this
/// worker's (nothing is written).
pub fn record_printed(conn: &mut DbConn, print: i64, job: i64, worker: &str, printer_job: Option<i32>, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(mine(job, worker))
        .set((jobs::state.eq(JobState::Done.as_i32()), jobs::error.eq(""), jobs::finished_at.eq(Some(now))))
        .execute(conn)?;
    if n != 1 {
        return Ok(false);
    }
    diesel::update(print_jobs::table.find(print))
        .set((
            print_jobs::state.eq(PrintState::Printed.code()),
            print_jobs::printer_job_id.eq(printer_job),
            print_jobs::last_error.eq(""),
            print_jobs::done_at.eq(Some(now)),
        ))
        .execute(conn)?;
    Ok(true)
}

/// Ends the job as failed with a message a person can act on.
pub fn record_failed(conn: &mut DbConn, print: Option<i64>, job: i64, worker: &str, message: &str, now: NaiveDateTime) -> AppResult<bool> {
    if !queue::fail(conn, job, worker, message, now)? {
        return Ok(false);
    }
    if let Some(print) = print {
        diesel::update(print_jobs::table.find(print))
            .set((print_jobs::state.eq(PrintState::Failed.code()), print_jobs::last_error.eq(message), print_jobs::done_at.eq(Some(now))))
            .execute(conn)?;
    }
    Ok(true)
}

/// Ends a job taken over after its print job was already recorded printed (the worker died
/// after that commit): done, nothing sent again.
pub fn finish_done(conn: &mut DbConn, job: i64, worker: &str, now: NaiveDateTime) -> AppResult<bool> {
    Ok(diesel::update(mine(job, worker)).set((jobs::state.eq(JobState::Done.as_i32()), jobs::finished_at.eq(Some(now)))).execute(conn)? == 1)
}

/// Puts the job back in the queue until `at` after a temporary failure. `maybe_sent`: the
/// printer may have taken the document (no answer after it went out), so the row stays
/// `sending` and the next attempt asks the printer first; otherwise it is `queued` again.
pub fn retry_at(conn: &mut DbConn, print: i64, job: i64, worker: &str, at: NaiveDateTime, maybe_sent: bool, error: &str) -> AppResult<bool> {
    let n = diesel::update(mine(job, worker))
        .set((jobs::state.eq(JobState::Queued.as_i32()), jobs::not_before.eq(at), jobs::attempts.eq(jobs::attempts + 1), jobs::error.eq(error)))
        .execute(conn)?;
    if n != 1 {
        return Ok(false);
    }
    let state = if maybe_sent { PrintState::Sending } else { PrintState::Queued };
    diesel::update(print_jobs::table.find(print)).set((print_jobs::state.eq(state.code()), print_jobs::last_error.eq(error))).execute(conn)?;
    Ok(true)
}

/// Beats the job's heartbeat; `false` when it is no longer this worker's.
pub fn heartbeat(conn: &mut DbConn, job: i64, worker: &str, now: NaiveDateTime) -> AppResult<bool> {
    queue::heartbeat(conn, job, worker, now, None)
}

/// The company's latest print jobs, newest first (Settings › Printers shows them).
pub fn recent(conn: &mut DbConn, org: i64, limit: i64) -> AppResult<Vec<PrintJob>> {
    Ok(print_jobs::table.filter(print_jobs::org_id.eq(org)).order(print_jobs::id.desc()).limit(limit).select(PrintJob::as_select()).load(conn)?)
}
