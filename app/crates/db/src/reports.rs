//! The report job queue (`report_jobs`, docs/decisions/reports.md): rows claimed by the
//! workers of any server process, kept alive by a heartbeat, claimed again when their worker
//! died, and never left Queued or Running after a failure.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Text, Timestamp};

use super::DbConn;
use super::schema::report_jobs;
use domain::reports::JobState;
use crate::error::{AppError, AppResult};

/// A report job as stored. `locked_by` names the worker that ran it last (kept after it
/// ends, for the log and the two-process test).
#[derive(Clone, Debug, Queryable, Selectable, QueryableByName)]
#[diesel(table_name = report_jobs)]
pub struct Job {
    pub id: i64,
    pub org_id: i64,
    pub user_id: i64,
    pub kind: String,
    pub params: String,
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

/// Adds a job, or answers the company's identical job still queued or running; `true` when
/// it was added. The partial unique index `report_jobs_active` decides between two requests
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
        let active: i64 = report_jobs::table
            .filter(report_jobs::user_id.eq(job.user_id))
            .filter(report_jobs::state.eq_any([JobState::Queued.as_i32(), JobState::Running.as_i32()]))
            .count()
            .get_result(conn)?;
        if active >= domain::reports::ACTIVE_PER_USER {
            return Err(AppError::Conflict { message: domain::reports::too_many_active(active), code: Some("too_many_reports"), reasons: vec![] });
        }
        let inserted = diesel::sql_query(
            "INSERT INTO report_jobs (org_id, user_id, kind, params, date_range, state, dedupe_key, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING *",
        )
        .bind::<BigInt, _>(job.org_id)
        .bind::<BigInt, _>(job.user_id)
        .bind::<Text, _>(job.kind)
        .bind::<Text, _>(job.params)
        .bind::<Text, _>(job.date_range)
        .bind::<Integer, _>(JobState::Queued.as_i32())
        .bind::<Text, _>(job.dedupe_key)
        .bind::<Timestamp, _>(now)
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
    Ok(report_jobs::table
        .filter(report_jobs::org_id.eq(job.org_id))
        .filter(report_jobs::dedupe_key.eq(job.dedupe_key))
        .filter(report_jobs::state.eq_any([JobState::Queued.as_i32(), JobState::Running.as_i32()]))
        .select(Job::as_select())
        .first::<Job>(conn)
        .optional()?)
}

/// How a worker claims jobs.
#[derive(Clone, Copy, Debug)]
pub struct Lease<'a> {
    /// The worker's name (host, process, random), kept in `locked_by`.
    pub worker: &'a str,
    pub now: NaiveDateTime,
    /// A running job whose heartbeat is older than this has lost its worker.
    pub stale_before: NaiveDateTime,
    /// Runs a job may have; a job whose worker died this often fails instead.
    pub max_attempts: i32,
}

/// What a person reads on a job whose worker died too often.
pub const GAVE_UP: &str = "The report stopped without finishing several times (the server restarted or ran out of memory while writing it). \
                           Try a shorter date range or fewer filters; if it keeps failing, ask an administrator to check the server's log.";

/// Claims the oldest queued job, or a running one whose worker died, for `lease.worker`.
/// Running jobs that died too often are failed first, with [`GAVE_UP`]. PostgreSQL skips
/// rows another process is claiming (`FOR UPDATE SKIP LOCKED`); SQLite has one writer at a
/// time, so the statement alone is the lease.
pub fn claim(conn: &mut DbConn, lease: Lease<'_>) -> AppResult<Option<Job>> {
    diesel::update(report_jobs::table)
        .filter(report_jobs::state.eq(JobState::Running.as_i32()))
        .filter(report_jobs::heartbeat_at.lt(lease.stale_before))
        .filter(report_jobs::attempts.ge(lease.max_attempts))
        .set((
            report_jobs::state.eq(JobState::Failed.as_i32()),
            report_jobs::error.eq(GAVE_UP),
            report_jobs::finished_at.eq(lease.now),
        ))
        .execute(conn)?;
    let skip_locked = match conn.backend() {
        super::Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        super::Backend::Sqlite => "",
    };
    // Fair across companies: the company whose last report started longest ago (or never)
    // goes first, then the oldest request within it; one company's long queue cannot hold
    // another's report behind all of it (issue 29).
    let sql = format!(
        "UPDATE report_jobs SET state = {running}, locked_by = $1, attempts = attempts + 1, progress = 0, started_at = $2, heartbeat_at = $2 \
         WHERE id = (SELECT j.id FROM report_jobs j WHERE j.state = {queued} OR (j.state = {running} AND j.heartbeat_at < $3) \
                     ORDER BY (SELECT MAX(s.started_at) FROM report_jobs s WHERE s.org_id = j.org_id) NULLS FIRST, j.created_at, j.id \
                     LIMIT 1{skip_locked}) \
         RETURNING *",
        running = JobState::Running.as_i32(),
        queued = JobState::Queued.as_i32(),
    );
    let job = diesel::sql_query(sql)
        .bind::<Text, _>(lease.worker)
        .bind::<Timestamp, _>(lease.now)
        .bind::<Timestamp, _>(lease.stale_before)
        .get_result::<Job>(conn)
        .optional()?;
    Ok(job)
}

/// Beats a running job's heartbeat and records its progress; `false` when the job is no
/// longer this worker's (cancelled, or given to another worker after a stall).
pub fn heartbeat(conn: &mut DbConn, id: i64, worker: &str, progress: i32, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(report_jobs::table)
        .filter(report_jobs::id.eq(id))
        .filter(report_jobs::locked_by.eq(worker))
        .filter(report_jobs::state.eq(JobState::Running.as_i32()))
        .set((report_jobs::heartbeat_at.eq(now), report_jobs::progress.eq(progress.clamp(0, 99))))
        .execute(conn)?;
    Ok(n == 1)
}

/// Marks the job done with its file; `false` when it is no longer this worker's (the file
/// must then be removed).
pub fn finish(conn: &mut DbConn, id: i64, worker: &str, file_name: &str, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(report_jobs::table)
        .filter(report_jobs::id.eq(id))
        .filter(report_jobs::locked_by.eq(worker))
        .filter(report_jobs::state.eq(JobState::Running.as_i32()))
        .set((
            report_jobs::state.eq(JobState::Done.as_i32()),
            report_jobs::progress.eq(100),
            report_jobs::file_name.eq(file_name),
            report_jobs::finished_at.eq(now),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// Marks an import job done; `summary` replaces its date range column (what was imported).
pub fn finish_import(conn: &mut DbConn, id: i64, worker: &str, summary: &str, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(report_jobs::table)
        .filter(report_jobs::id.eq(id))
        .filter(report_jobs::locked_by.eq(worker))
        .filter(report_jobs::state.eq(JobState::Running.as_i32()))
        .set((report_jobs::state.eq(JobState::Done.as_i32()), report_jobs::progress.eq(100), report_jobs::date_range.eq(summary), report_jobs::finished_at.eq(now)))
        .execute(conn)?;
    Ok(n == 1)
}

/// Marks the job failed with a message a person can act on.
pub fn fail(conn: &mut DbConn, id: i64, worker: &str, message: &str, now: NaiveDateTime) -> AppResult<()> {
    diesel::update(report_jobs::table)
        .filter(report_jobs::id.eq(id))
        .filter(report_jobs::locked_by.eq(worker))
        .filter(report_jobs::state.eq(JobState::Running.as_i32()))
        .set((
            report_jobs::state.eq(JobState::Failed.as_i32()),
            report_jobs::error.eq(message),
            report_jobs::finished_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Cancels a queued or running job of the user in the company. A job of someone else or
/// of another company is not found; a finished one is a conflict that says so.
pub fn cancel(conn: &mut DbConn, org: i64, user: i64, id: i64, now: NaiveDateTime) -> AppResult<()> {
    let job = report_jobs::table
        .filter(report_jobs::id.eq(id))
        .filter(report_jobs::org_id.eq(org))
        .filter(report_jobs::user_id.eq(user))
        .select(Job::as_select())
        .first::<Job>(conn)
        .optional()?
        .ok_or(AppError::NotFound)?;
    let n = diesel::update(report_jobs::table)
        .filter(report_jobs::id.eq(job.id))
        .filter(report_jobs::state.eq_any([JobState::Queued.as_i32(), JobState::Running.as_i32()]))
        .set((
            report_jobs::state.eq(JobState::Cancelled.as_i32()),
            report_jobs::finished_at.eq(now),
        ))
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
    Ok(report_jobs::table
        .filter(report_jobs::org_id.eq(org))
        .order((report_jobs::created_at.desc(), report_jobs::id.desc()))
        .limit(limit)
        .select(Job::as_select())
        .load(conn)?)
}

/// The company's finished job whose file is `file_name`.
pub fn done_with_file(conn: &mut DbConn, org: i64, file_name: &str) -> AppResult<Option<Job>> {
    Ok(report_jobs::table
        .filter(report_jobs::org_id.eq(org))
        .filter(report_jobs::file_name.eq(file_name))
        .filter(report_jobs::state.eq(JobState::Done.as_i32()))
        .select(Job::as_select())
        .first(conn)
        .optional()?)
}

/// One job of the company.
pub fn get(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Job> {
    report_jobs::table
        .filter(report_jobs::id.eq(id))
        .filter(report_jobs::org_id.eq(org))
        .select(Job::as_select())
        .first(conn)
        .optional()?
        .ok_or(AppError::NotFound)
}

/// Removes the finished jobs created before `before` and answers their files
/// (`(org_id, file_name)`) for the caller to delete.
pub fn expire(conn: &mut DbConn, before: NaiveDateTime) -> AppResult<Vec<(i64, String)>> {
    let finished = [JobState::Done.as_i32(), JobState::Failed.as_i32(), JobState::Cancelled.as_i32()];
    let old = report_jobs::table
        .filter(report_jobs::created_at.lt(before))
        .filter(report_jobs::state.eq_any(finished));
    let files: Vec<(i64, String)> = old.select((report_jobs::org_id, report_jobs::file_name)).load(conn)?;
    diesel::delete(report_jobs::table.filter(report_jobs::created_at.lt(before)).filter(report_jobs::state.eq_any(finished))).execute(conn)?;
    Ok(files.into_iter().filter(|(_, f)| !f.is_empty()).collect())
}

/// Whether any job of any company is queued or running (a running one may have lost its
/// worker). An idle worker reads this before it takes the write lock to claim.
pub fn any_unfinished(conn: &mut DbConn) -> AppResult<bool> {
    let found = report_jobs::table
        .filter(report_jobs::state.eq_any([JobState::Queued.as_i32(), JobState::Running.as_i32()]))
        .select(report_jobs::id)
        .first::<i64>(conn)
        .optional()?;
    Ok(found.is_some())
}
