//! The one job queue (`jobs`, DESIGN §9, docs/decisions/operations.md "One job queue"): the
//! mechanism every family of background job shares. A worker claims the due job of its
//! queues whose company waited longest, beats its heartbeat while it runs, and writes its
//! end only while the job is still its own; a running job whose heartbeat went stale lost
//! its worker (killed, power lost) and is claimed again. What a job does and how it ends are
//! its family's (`reports` for reports and imports, `xero` for Xero calls).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};

use super::DbConn;
use super::schema::jobs;
use crate::error::AppResult;
use domain::jobs::{JobState, Queue};

/// The states of a job still to finish: queued, or running.
pub const ACTIVE: [i32; 2] = [JobState::Queued.as_i32(), JobState::Running.as_i32()];

/// How a worker claims jobs.
#[derive(Clone, Copy, Debug)]
pub struct Lease<'a> {
    /// The worker's name (host, process, random), kept in `locked_by`.
    pub worker: &'a str,
    pub now: NaiveDateTime,
    /// A running job whose heartbeat is older than this has lost its worker.
    pub stale_before: NaiveDateTime,
    /// When set, every claim counts as an attempt, and a stale job that had this many is
    /// failed with the message instead of claimed again (a job that kills its worker must
    /// not kill every worker in turn). Unset, the family counts its own attempts.
    pub give_up: Option<GiveUp<'a>>,
}

/// The limit of claims of a family whose job may take its worker down.
#[derive(Clone, Copy, Debug)]
pub struct GiveUp<'a> {
    pub max_attempts: i32,
    pub message: &'a str,
}

fn queue_list(queues: &[Queue]) -> String {
    // The codes are our own constants, never input.
    queues.iter().map(|q| format!("'{}'", q.code())).collect::<Vec<_>>().join(", ")
}

/// Claims one job of `queues` for `lease.worker`: a queued job that is due, or a running one
/// whose worker died. Fair between companies: the candidate whose company started a job of
/// that queue longest ago (or never) goes first, then the earliest due; one company's long
/// queue cannot hold another's job behind all of it. PostgreSQL skips rows another process
/// is claiming (`FOR UPDATE SKIP LOCKED`); SQLite has one writer at a time, so the statement
/// alone is the lease. Answers the claimed job's id.
pub fn claim(conn: &mut DbConn, queues: &[Queue], lease: Lease<'_>) -> AppResult<Option<i64>> {
    let list = queue_list(queues);
    let running = JobState::Running.as_i32();
    if let Some(give_up) = lease.give_up {
        let failed = JobState::Failed.as_i32();
        diesel::sql_query(format!(
            "UPDATE jobs SET state = {failed}, error = $1, finished_at = $2 \
             WHERE queue IN ({list}) AND state = {running} AND heartbeat_at < $3 AND attempts >= $4"
        ))
        .bind::<Text, _>(give_up.message)
        .bind::<Timestamp, _>(lease.now)
        .bind::<Timestamp, _>(lease.stale_before)
        .bind::<diesel::sql_types::Integer, _>(give_up.max_attempts)
        .execute(conn)?;
    }
    let skip_locked = match conn.backend() {
        super::Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        super::Backend::Sqlite => "",
    };
    let counted = if lease.give_up.is_some() { 1 } else { 0 };
    let sql = format!(
        "UPDATE jobs SET state = {running}, locked_by = $1, attempts = attempts + {counted}, progress = 0, started_at = $2, heartbeat_at = $2 \
         WHERE id = (SELECT j.id FROM jobs j \
                     WHERE j.queue IN ({list}) AND ((j.state = {queued} AND j.not_before <= $2) OR (j.state = {running} AND j.heartbeat_at < $3)) \
                     ORDER BY (SELECT MAX(s.started_at) FROM jobs s WHERE s.org_id = j.org_id AND s.queue = j.queue) NULLS FIRST, j.not_before, j.id \
                     LIMIT 1{skip_locked}) \
         RETURNING id",
        queued = JobState::Queued.as_i32(),
    );
    #[derive(QueryableByName)]
    struct Claimed {
        #[diesel(sql_type = BigInt)]
        id: i64,
    }
    let claimed = diesel::sql_query(sql)
        .bind::<Text, _>(lease.worker)
        .bind::<Timestamp, _>(lease.now)
        .bind::<Timestamp, _>(lease.stale_before)
        .get_result::<Claimed>(conn)
        .optional()?;
    Ok(claimed.map(|c| c.id))
}

/// Whether a job of `queues` waits for a worker: one queued and due, or one running whose
/// worker died. An idle worker reads this before it takes the write lock to claim.
pub fn any_claimable(conn: &mut DbConn, queues: &[Queue], now: NaiveDateTime, stale_before: NaiveDateTime) -> AppResult<bool> {
    let codes: Vec<&str> = queues.iter().map(|q| q.code()).collect();
    let due = jobs::state.eq(JobState::Queued.as_i32()).and(jobs::not_before.le(now));
    let lost = jobs::state.eq(JobState::Running.as_i32()).and(jobs::heartbeat_at.lt(stale_before));
    let found = jobs::table.filter(jobs::queue.eq_any(codes)).filter(due.or(lost)).select(jobs::id).first::<i64>(conn).optional()?;
    Ok(found.is_some())
}

/// When the earliest queued job of `queues` is due (a Xero job waiting for its budget or
/// back-off), so an idle worker sleeps until then.
pub fn next_due(conn: &mut DbConn, queues: &[Queue]) -> AppResult<Option<NaiveDateTime>> {
    let codes: Vec<&str> = queues.iter().map(|q| q.code()).collect();
    Ok(jobs::table
        .filter(jobs::queue.eq_any(codes))
        .filter(jobs::state.eq(JobState::Queued.as_i32()))
        .select(diesel::dsl::min(jobs::not_before))
        .first::<Option<NaiveDateTime>>(conn)?)
}

/// The job `id` while running under `worker`: every write of a worker is limited to it, so a
/// worker that stalled and lost its job to another (or whose job was cancelled) changes
/// nothing.
pub type Mine = diesel::dsl::Filter<
    diesel::dsl::Filter<diesel::dsl::Filter<jobs::table, diesel::dsl::Eq<jobs::id, i64>>, diesel::dsl::Eq<jobs::locked_by, String>>,
    diesel::dsl::Eq<jobs::state, i32>,
>;

pub fn mine(id: i64, worker: &str) -> Mine {
    jobs::table.filter(jobs::id.eq(id)).filter(jobs::locked_by.eq(worker.to_string())).filter(jobs::state.eq(JobState::Running.as_i32()))
}

/// Beats a running job's heartbeat (and records its progress, 0–99, when it keeps one);
/// `false` when the job is no longer this worker's.
pub fn heartbeat(conn: &mut DbConn, id: i64, worker: &str, now: NaiveDateTime, progress: Option<i32>) -> AppResult<bool> {
    let q = diesel::update(mine(id, worker));
    let n = match progress {
        Some(p) => q.set((jobs::heartbeat_at.eq(Some(now)), jobs::progress.eq(p.clamp(0, 99)))).execute(conn)?,
        None => q.set(jobs::heartbeat_at.eq(Some(now))).execute(conn)?,
    };
    Ok(n == 1)
}

/// Ends a running job of this worker as failed with a message a person can act on; `false`
/// when it was no longer this worker's.
pub fn fail(conn: &mut DbConn, id: i64, worker: &str, message: &str, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(mine(id, worker))
        .set((jobs::state.eq(JobState::Failed.as_i32()), jobs::error.eq(message), jobs::finished_at.eq(Some(now))))
        .execute(conn)?;
    Ok(n == 1)
}
