//! Report and import jobs: the `report` and `import` queues of the one job queue (`jobs`,
//! `super::jobs`; docs/decisions/reports.md). An identical request of a company while one
//! is queued or running answers that job; a job that took its worker down too often fails
//! instead of being claimed again; a job ends Done with its file or summary, Failed with a
//! message, or Cancelled, never left Queued or Running.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Text, Timestamp};

use super::DbConn;
use super::jobs::{self, GiveUp, Lease};
use super::schema::jobs as table;
use domain::jobs::{JobState, Queue};
use crate::error::{AppError, AppResult};

/// The queues of this module, one worker slot.
pub const QUEUES: [Queue; 2] = [Queue::Report, Queue::Import];

/// The codes of [`QUEUES`], as stored.
fn codes() -> [&'static str; 2] {
    QUEUES.map(Queue::code)
}

/// A report or import job as stored. `locked_by` names the worker that ran it last (kept
/// after it ends, for the log and the two-process test); `date_range` is the range a report
/// covers, or what an import did once it is done (the `summary` column).
#[derive(Clone, Debug, Queryable, Selectable, QueryableByName)]
#[diesel(table_name = table)]
pub struct Job {
    pub id: i64,
    pub org_id: i64,
    pub requested_by: Option<i64>,
    pub kind: String,
    pub params: String,
    #[diesel(column_name = summary)]
    pub date_range: String,
    pub state: i32,
    pub progress: i32,
    pub file_name: String,
    pub error: String,
    pub locked_by: String,
    pub created_at: NaiveDateTime,
    pub started_at: Option<NaiveDateTime>,
    pub finished_at: Option<NaiveDateTime>,
    pub attempts: i32,
    pub heartbeat_at: Option<NaiveDateTime>,
    pub dedupe_key: String,
}

impl Job {
    pub fn job_state(&self) -> JobState {
        JobState::from_i32(self.state).unwrap_or(JobState::Failed)
    }
}

/// A job to add.
pub struct NewJob<'a> {
    pub org_id: i64,
    pub user_id: i64,
    pub kind: &'a str,
    pub params: &'a str,
    pub date_range: &'a str,
    pub dedupe_key: &'a str,
}

impl NewJob<'_> {
    /// An import's kind names an import; any other kind is a report's.
    fn queue(&self) -> Queue {
        if domain::imports::ImportKind::from_code(self.kind).is_some() { Queue::Import } else { Queue::Report }
    }
}

/// Adds a job, or answers the company's identical job still queued or running; `true` when
/// it was added. The partial unique index `jobs_active` decides between two requests
/// arriving together, on one process or two.
pub fn enqueue(conn: &mut DbConn, job: &NewJob<'_>, now: NaiveDateTime) -> AppResult<(Job, bool)> {
    // One request of a user at a time from here (PostgreSQL; SQLite's writers queue), so the
    // count below cannot be passed by several requests at once.
    if let DbConn::Pg(pg) = conn {
        diesel::sql_query("SELECT id FROM users WHERE id = $1 FOR UPDATE").bind::<BigInt, _>(job.user_id).execute(pg)?;
    }
    // Twice at most: the identical job may finish between a refused insert and the read.
    for _ in 0..2 {
        if let Some(j) = active_identical(conn, job)? {
            return Ok((j, false));
        }
        let active: i64 = table::table
            .filter(table::queue.eq_any(codes()))
            .filter(table::requested_by.eq(job.user_id))
            .filter(table::state.eq_any(jobs::ACTIVE))
            .count()
            .get_result(conn)?;
        if active >= domain::reports::ACTIVE_PER_USER {
            return Err(AppError::Conflict { message: domain::reports::too_many_active(active), code: Some("too_many_reports"), reasons: vec![] });
        }
        let inserted = diesel::sql_query(
            "INSERT INTO jobs (org_id, requested_by, kind, params, summary, state, dedupe_key, created_at, not_before, queue) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) ON CONFLICT DO NOTHING RETURNING *",
        )
        .bind::<BigInt, _>(job.org_id)
        .bind::<BigInt, _>(job.user_id)
        .bind::<Text, _>(job.kind)
        .bind::<Text, _>(job.params)
        .bind::<Text, _>(job.date_range)
        .bind::<Integer, _>(JobState::Queued.as_i32())
        .bind::<Text, _>(job.dedupe_key)
        .bind::<Timestamp, _>(now)
        .bind::<Text, _>(job.queue().code())
        .get_result::<Job>(conn)
        .optional()?;
        if let Some(j) = inserted {
            return Ok((j, true));
        }
    }
    Err(AppError::Internal(anyhow::anyhow!("a report job could neither be added nor found")))
}

/// The company's job identical to `job` still queued or running.
fn active_identical(conn: &mut DbConn, job: &NewJob<'_>) -> AppResult<Option<Job>> {
    Ok(table::table
        .filter(table::org_id.eq(job.org_id))
        .filter(table::queue.eq(job.queue().code()))
        .filter(table::dedupe_key.eq(job.dedupe_key))
        .filter(table::state.eq_any(jobs::ACTIVE))
        .select(Job::as_select())
        .first::<Job>(conn)
        .optional()?)
}

/// What a person reads on a job whose worker died too often.
pub const GAVE_UP: &str = "The report stopped without finishing several times (the server restarted or ran out of memory while writing it). \
                           Try a shorter date range or fewer filters; if it keeps failing, ask an administrator to check the server's log.";

/// Claims the report or import whose company waited longest (`jobs::claim`). Each claim
/// counts: a job whose worker died `max_attempts` times fails with [`GAVE_UP`].
pub fn claim(conn: &mut DbConn, worker: &str, now: NaiveDateTime, stale_before: NaiveDateTime, max_attempts: i32) -> AppResult<Option<Job>> {
    let lease = Lease { worker, now, stale_before, give_up: Some(GiveUp { max_attempts, message: GAVE_UP }) };
    match jobs::claim(conn, &QUEUES, lease)? {
        Some(id) => Ok(Some(table::table.find(id).select(Job::as_select()).first(conn)?)),
        None => Ok(None),
    }
}

/// Beats a running job's heartbeat and records its progress; `false` when the job is no
/// longer this worker's (cancelled, or given to another worker after a stall).
pub fn heartbeat(conn: &mut DbConn, id: i64, worker: &str, progress: i32, now: NaiveDateTime) -> AppResult<bool> {
    jobs::heartbeat(conn, id, worker, now, Some(progress))
}

/// Marks the job done with its file; `false` when it is no longer this worker's (the file
/// must then be removed).
pub fn finish(conn: &mut DbConn, id: i64, worker: &str, file_name: &str, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(jobs::mine(id, worker))
        .set((
            table::state.eq(JobState::Done.as_i32()),
            table::progress.eq(100),
            table::file_name.eq(file_name),
            table::finished_at.eq(now),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// Marks an import job done; `summary` replaces its date range column (what was imported).
pub fn finish_import(conn: &mut DbConn, id: i64, worker: &str, summary: &str, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(jobs::mine(id, worker))
        .set((table::state.eq(JobState::Done.as_i32()), table::progress.eq(100), table::summary.eq(summary), table::finished_at.eq(now)))
        .execute(conn)?;
    Ok(n == 1)
}

/// Marks the job failed with a message a person can act on.
pub fn fail(conn: &mut DbConn, id: i64, worker: &str, message: &str, now: NaiveDateTime) -> AppResult<()> {
    jobs::fail(conn, id, worker, message, now)?;
    Ok(())
}

/// Cancels a queued or running job of the user in the company. A job of someone else or
/// of another company is not found; a finished one is a conflict that says so.
pub fn cancel(conn: &mut DbConn, org: i64, user: i64, id: i64, now: NaiveDateTime) -> AppResult<()> {
    let job = table::table
        .filter(table::id.eq(id))
        .filter(table::org_id.eq(org))
        .filter(table::queue.eq_any(codes()))
        .filter(table::requested_by.eq(user))
        .select(Job::as_select())
        .first::<Job>(conn)
        .optional()?
        .ok_or(AppError::NotFound)?;
    let n = diesel::update(table::table)
        .filter(table::id.eq(job.id))
        .filter(table::state.eq_any(jobs::ACTIVE))
        .set((table::state.eq(JobState::Cancelled.as_i32()), table::finished_at.eq(now)))
        .execute(conn)?;
    if n == 0 {
        return Err(AppError::Conflict {
            message: format!("The report is already {}; only a queued or running report can be cancelled.", job.job_state().label().to_lowercase()),
            code: Some("finished"),
            reasons: vec![],
        });
    }
    Ok(())
}

/// The company's jobs, newest first.
pub fn list(conn: &mut DbConn, org: i64, limit: i64) -> AppResult<Vec<Job>> {
    Ok(table::table
        .filter(table::org_id.eq(org))
        .filter(table::queue.eq_any(codes()))
        .order((table::created_at.desc(), table::id.desc()))
        .limit(limit)
        .select(Job::as_select())
        .load(conn)?)
}

/// The company's finished job whose file is `file_name`.
pub fn done_with_file(conn: &mut DbConn, org: i64, file_name: &str) -> AppResult<Option<Job>> {
    Ok(table::table
        .filter(table::org_id.eq(org))
        .filter(table::queue.eq_any(codes()))
        .filter(table::file_name.eq(file_name))
        .filter(table::state.eq(JobState::Done.as_i32()))
        .select(Job::as_select())
        .first(conn)
        .optional()?)
}

/// One job of the company.
pub fn get(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Job> {
    table::table
        .filter(table::id.eq(id))
        .filter(table::org_id.eq(org))
        .filter(table::queue.eq_any(codes()))
        .select(Job::as_select())
        .first(conn)
        .optional()?
        .ok_or(AppError::NotFound)
}

/// Removes the finished reports and imports created before `before` and answers their
/// files (`(org_id, file_name)`) for the caller to delete.
pub fn expire(conn: &mut DbConn, before: NaiveDateTime) -> AppResult<Vec<(i64, String)>> {
    let finished = [JobState::Done.as_i32(), JobState::Failed.as_i32(), JobState::Cancelled.as_i32()];
    let old = || table::table.filter(table::queue.eq_any(codes())).filter(table::created_at.lt(before)).filter(table::state.eq_any(finished));
    let files: Vec<(i64, String)> = old().select((table::org_id, table::file_name)).load(conn)?;
    diesel::delete(old()).execute(conn)?;
    Ok(files.into_iter().filter(|(_, f)| !f.is_empty()).collect())
}
