//! The accounting link's rows (docs/decisions/xero.md): each company's connection and
//! shared call budget, and the `xero` queue of the one job queue (`super::jobs`: claimed
//! fairly, heartbeat, stale claims taken over, `FOR UPDATE SKIP LOCKED` on PostgreSQL),
//! with a time before which a job waits (back-off, 429) and the flag that an attempt's
//! outcome is unknown. A job's target (a sheet, or a customer's balance) is its dedupe key:
//! one active job per target.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamp};

use super::DbConn;
use super::jobs::{self as queue, Lease};
use super::schema::{jobs as xero_jobs, xero_connections, xero_sign_ins};
use domain::jobs::{JobState, Queue};
use domain::xero::Budget;
use domain::xero_mapping::{Account, Mapping, Rate};
use crate::error::{AppError, AppResult};

/// A company's connection as stored (the secret sealed).
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = xero_connections)]
pub struct Connection {
    pub org_id: i64,
    pub client_id: String,
    pub secret_sealed: String,
    pub identity_url: String,
    pub api_url: String,
    pub xero_org_name: String,
    pub tax_types: String,
    pub tested_at: Option<NaiveDateTime>,
    pub connected_by: i64,
    pub connected_at: NaiveDateTime,
    /// The Xero organisation the calls name (`xero-tenant-id`); empty until first read.
    pub tenant_id: String,
    /// The chart of accounts and the tax rates last read (JSON), empty until first read.
    pub chart: String,
    pub rates: String,
    /// Where sheets post (JSON `domain::xero_mapping::Mapping`).
    pub mapping: String,
    /// `client_credentials` (a Custom Connection) or `authorization_code` (Connect to Xero).
    pub grant_type: String,
    /// Code connections: the sign-in base, the refresh token sealed and when it expires,
    /// the organisations Xero offered (JSON [`Tenant`]s), and why the connection must be
    /// made again (empty while Xero accepts it).
    pub login_url: String,
    pub refresh_sealed: String,
    pub refresh_expires_at: Option<NaiveDateTime>,
    pub tenants: String,
    pub reconnect: String,
}

/// The grant of a connection made with "Connect to Xero".
pub const CODE_GRANT: &str = "authorization_code";

/// An organisation Xero offered a code connection (`GET /connections`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tenant {
    /// The connection's id (what `DELETE /connections/{id}` removes).
    pub connection_id: String,
    pub tenant_id: String,
    pub name: String,
}

impl Connection {
    /// The chart, rates and mapping kept; `None` before they were first read.
    pub fn reading(&self) -> Option<(Vec<Account>, Vec<Rate>, Mapping)> {
        if self.chart.is_empty() {
            return None;
        }
        let accounts = serde_json::from_str(&self.chart).unwrap_or_default();
        let rates = serde_json::from_str(&self.rates).unwrap_or_default();
        Some((accounts, rates, self.mapping()))
    }

    /// The mapping kept (empty settings when none was).
    pub fn mapping(&self) -> Mapping {
        serde_json::from_str(&self.mapping).unwrap_or_default()
    }

    /// Made with "Connect to Xero" (OAuth 2.0 authorization code).
    pub fn is_code(&self) -> bool {
        self.grant_type == CODE_GRANT
    }

    /// The organisations Xero offered.
    pub fn tenant_list(&self) -> Vec<Tenant> {
        serde_json::from_str(&self.tenants).unwrap_or_default()
    }
}

/// What "Connect to Xero" keeps once Xero answered tokens.
pub struct NewCodeConnection<'a> {
    pub org_id: i64,
    pub client_id: &'a str,
    pub secret_sealed: &'a str,
    pub login_url: &'a str,
    pub identity_url: &'a str,
    pub api_url: &'a str,
    pub refresh_sealed: &'a str,
    pub refresh_expires_at: NaiveDateTime,
    pub tenants: &'a [Tenant],
    pub connected_by: i64,
}

/// Connects a company with "Connect to Xero", replacing any earlier connection; the mapping
/// chosen before is kept. The organisation is set when Xero offered exactly one.
pub fn save_code_connection(conn: &mut DbConn, c: &NewCodeConnection<'_>, now: NaiveDateTime) -> AppResult<()> {
    let before = connection(conn, c.org_id)?.map(|x| x.mapping).unwrap_or_default();
    save_connection(conn, &NewConnection { org_id: c.org_id, client_id: c.client_id, secret_sealed: c.secret_sealed, identity_url: c.identity_url, api_url: c.api_url, connected_by: c.connected_by }, now)?;
    let tenants = serde_json::to_string(c.tenants).map_err(|e| AppError::Internal(anyhow::anyhow!("cannot write the organisations: {e}")))?;
    let only = if c.tenants.len() == 1 { c.tenants[0].tenant_id.as_str() } else { "" };
    diesel::update(xero_connections::table.find(c.org_id))
        .set((
            xero_connections::grant_type.eq(CODE_GRANT),
            xero_connections::login_url.eq(c.login_url),
            xero_connections::refresh_sealed.eq(c.refresh_sealed),
            xero_connections::refresh_expires_at.eq(Some(c.refresh_expires_at)),
            xero_connections::tenants.eq(tenants),
            xero_connections::tenant_id.eq(only),
            xero_connections::mapping.eq(before),
        ))
        .execute(conn)?;
    Ok(())
}

/// Keeps the refresh token that replaced the one just used (Xero's are single-use).
pub fn rotate_refresh(conn: &mut DbConn, org: i64, sealed: &str, expires_at: NaiveDateTime) -> AppResult<()> {
    diesel::update(xero_connections::table.find(org))
        .set((xero_connections::refresh_sealed.eq(sealed), xero_connections::refresh_expires_at.eq(Some(expires_at)), xero_connections::reconnect.eq("")))
        .execute(conn)?;
    Ok(())
}

/// Xero no longer accepts the connection: it must be made again, and this says why.
pub fn needs_reconnect(conn: &mut DbConn, org: i64, why: &str) -> AppResult<()> {
    diesel::update(xero_connections::table.find(org)).set(xero_connections::reconnect.eq(why)).execute(conn)?;
    Ok(())
}

/// Picks the organisation of a code connection (one Xero offered).
pub fn pick_tenant(conn: &mut DbConn, org: i64, tenant_id: &str) -> AppResult<bool> {
    let Some(c) = connection(conn, org)? else { return Ok(false) };
    if !c.tenant_list().iter().any(|t| t.tenant_id == tenant_id) {
        return Ok(false);
    }
    diesel::update(xero_connections::table.find(org)).set(xero_connections::tenant_id.eq(tenant_id)).execute(conn)?;
    Ok(true)
}

/// A sign-in under way (Connect to Xero), between the approver leaving for Xero and
/// coming back.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = xero_sign_ins)]
pub struct SignIn {
    pub state: String,
    pub org_id: i64,
    pub user_id: i64,
    pub client_id: String,
    pub secret_sealed: String,
    pub verifier_sealed: String,
    pub login_url: String,
    pub identity_url: String,
    pub api_url: String,
    pub redirect_uri: String,
    pub created_at: NaiveDateTime,
}

/// Keeps a sign-in under way; sign-ins older than `stale_before` are dropped.
pub fn start_sign_in(conn: &mut DbConn, s: &SignIn, stale_before: NaiveDateTime) -> AppResult<()> {
    diesel::delete(xero_sign_ins::table.filter(xero_sign_ins::created_at.lt(stale_before))).execute(conn)?;
    diesel::insert_into(xero_sign_ins::table).values(s).execute(conn)?;
    Ok(())
}

/// Takes (once) the sign-in with this state, of this company and approver, begun after
/// `stale_before`.
pub fn take_sign_in(conn: &mut DbConn, state: &str, org: i64, user: i64, stale_before: NaiveDateTime) -> AppResult<Option<SignIn>> {
    let found = xero_sign_ins::table.find(state).select(SignIn::as_select()).first(conn).optional()?;
    let Some(s) = found else { return Ok(None) };
    if diesel::delete(xero_sign_ins::table.find(state)).execute(conn)? != 1 {
        return Ok(None);
    }
    Ok((s.org_id == org && s.user_id == user && s.created_at >= stale_before).then_some(s))
}

/// What a test of the connection read from Xero, with the mapping it leads to.
pub struct Reading<'a> {
    pub tenant_id: &'a str,
    pub name: &'a str,
    pub tax_types: &'a str,
    pub accounts: &'a [Account],
    pub rates: &'a [Rate],
    pub mapping: &'a Mapping,
}

/// The company's connection, if any.
pub fn connection(conn: &mut DbConn, org: i64) -> AppResult<Option<Connection>> {
    Ok(xero_connections::table.find(org).select(Connection::as_select()).first(conn).optional()?)
}

/// What `PUT /api/xero/connection` stores.
#[derive(Insertable)]
#[diesel(table_name = xero_connections)]
pub struct NewConnection<'a> {
    pub org_id: i64,
    pub client_id: &'a str,
    pub secret_sealed: &'a str,
    pub identity_url: &'a str,
    pub api_url: &'a str,
    pub connected_by: i64,
}

/// Connects a company, or replaces its connection (the organisation name and tax rates are
/// read again by the next test).
pub fn save_connection(conn: &mut DbConn, c: &NewConnection<'_>, now: NaiveDateTime) -> AppResult<()> {
    diesel::delete(xero_connections::table.find(c.org_id)).execute(conn)?;
    diesel::insert_into(xero_connections::table)
        .values((c, xero_connections::connected_at.eq(now), xero_connections::updated_at.eq(now)))
        .execute(conn)?;
    Ok(())
}

/// Keeps what Test connection read: the organisation (Xero's tenant id and name), its
/// active tax types, chart and rates, and the mapping completed from them.
pub fn record_test(conn: &mut DbConn, org: i64, r: &Reading<'_>, now: NaiveDateTime) -> AppResult<()> {
    diesel::update(xero_connections::table.find(org))
        .set((
            xero_connections::tenant_id.eq(r.tenant_id),
            xero_connections::xero_org_name.eq(r.name),
            xero_connections::tax_types.eq(r.tax_types),
            xero_connections::tested_at.eq(Some(now)),
            xero_connections::updated_at.eq(now),
        ))
        .execute(conn)?;
    record_chart(conn, org, r.accounts, r.rates, r.mapping)
}

/// Keeps the chart and rates read and the mapping.
pub fn record_chart(conn: &mut DbConn, org: i64, accounts: &[Account], rates: &[Rate], mapping: &Mapping) -> AppResult<()> {
    let json = |v: serde_json::Result<String>| v.map_err(|e| AppError::Internal(anyhow::anyhow!("cannot write the Xero chart: {e}")));
    diesel::update(xero_connections::table.find(org))
        .set((xero_connections::chart.eq(json(serde_json::to_string(accounts))?), xero_connections::rates.eq(json(serde_json::to_string(rates))?), xero_connections::mapping.eq(json(serde_json::to_string(mapping))?)))
        .execute(conn)?;
    Ok(())
}

/// Keeps a mapping the approver chose.
pub fn save_mapping(conn: &mut DbConn, org: i64, mapping: &Mapping, now: NaiveDateTime) -> AppResult<bool> {
    let text = serde_json::to_string(mapping).map_err(|e| AppError::Internal(anyhow::anyhow!("cannot write the mapping: {e}")))?;
    Ok(diesel::update(xero_connections::table.find(org)).set((xero_connections::mapping.eq(text), xero_connections::updated_at.eq(now))).execute(conn)? == 1)
}

/// Keeps the tenant id a job read for a connection made before it was stored.
pub fn record_tenant(conn: &mut DbConn, org: i64, tenant_id: &str) -> AppResult<()> {
    diesel::update(xero_connections::table.find(org)).set(xero_connections::tenant_id.eq(tenant_id)).execute(conn)?;
    Ok(())
}

/// Where the company's last payments read stopped (Xero's latest `UpdatedDateUTC` read):
/// the next read asks only for invoices changed after it. `None` before the first read.
pub fn payments_cursor(conn: &mut DbConn, org: i64) -> AppResult<Option<NaiveDateTime>> {
    Ok(xero_connections::table.find(org).select(xero_connections::payments_read_at).first::<Option<NaiveDateTime>>(conn).optional()?.flatten())
}

/// Moves the company's payments cursor on to `at` (never back).
pub fn record_payments_cursor(conn: &mut DbConn, org: i64, at: NaiveDateTime) -> AppResult<()> {
    let before = payments_cursor(conn, org)?;
    if before.is_none_or(|b| at > b) {
        diesel::update(xero_connections::table.find(org)).set(xero_connections::payments_read_at.eq(Some(at))).execute(conn)?;
    }
    Ok(())
}

/// Removes the connection; `false` when there was none.
pub fn delete_connection(conn: &mut DbConn, org: i64) -> AppResult<bool> {
    Ok(diesel::delete(xero_connections::table.find(org)).execute(conn)? == 1)
}

/// Takes one call from the company's budget at `now`, or answers when one may be made.
/// Inside the caller's transaction; on PostgreSQL the row is locked so two processes
/// never spend the same slot, on SQLite the one writer does the same.
pub fn take_call(conn: &mut DbConn, org: i64, now: NaiveDateTime) -> AppResult<Result<(), NaiveDateTime>> {
    let q = xero_connections::table.find(org).select((xero_connections::rate_tat, xero_connections::day_count, xero_connections::day_of, xero_connections::blocked_until));
    type Row = (Option<NaiveDateTime>, i32, String, Option<NaiveDateTime>);
    let row: Option<Row> = match conn {
        super::DbConn::Pg(c) => q.for_update().first::<Row>(c).optional()?,
        super::DbConn::Sqlite(c) => q.first::<Row>(c).optional()?,
    };
    let Some((tat, day_count, day_of, blocked_until)) = row else {
        return Err(AppError::Conflict { message: NOT_CONNECTED.into(), code: Some("xero_not_configured"), reasons: vec![] });
    };
    let budget = Budget { tat, day_count, day: NaiveDate::parse_from_str(&day_of, "%Y-%m-%d").ok(), blocked_until };
    match budget.take(now) {
        Ok(b) => {
            diesel::update(xero_connections::table.find(org))
                .set((
                    xero_connections::rate_tat.eq(b.tat),
                    xero_connections::day_count.eq(b.day_count),
                    xero_connections::day_of.eq(b.day.map(|d| d.to_string()).unwrap_or_default()),
                    xero_connections::blocked_until.eq(None::<NaiveDateTime>),
                ))
                .execute(conn)?;
            Ok(Ok(()))
        }
        Err(at) => Ok(Err(at)),
    }
}

/// Counts `n` calls a person's Test connection made at `now` in the company's budget.
pub fn charge_calls(conn: &mut DbConn, org: i64, n: i32, now: NaiveDateTime) -> AppResult<()> {
    type Row = (Option<NaiveDateTime>, i32, String, Option<NaiveDateTime>);
    let q = xero_connections::table.find(org).select((xero_connections::rate_tat, xero_connections::day_count, xero_connections::day_of, xero_connections::blocked_until));
    let row: Option<Row> = match conn {
        super::DbConn::Pg(c) => q.for_update().first::<Row>(c).optional()?,
        super::DbConn::Sqlite(c) => q.first::<Row>(c).optional()?,
    };
    let Some((tat, day_count, day_of, blocked_until)) = row else { return Ok(()) };
    let b = Budget { tat, day_count, day: NaiveDate::parse_from_str(&day_of, "%Y-%m-%d").ok(), blocked_until }.charge(now, n);
    diesel::update(xero_connections::table.find(org))
        .set((xero_connections::rate_tat.eq(b.tat), xero_connections::day_count.eq(b.day_count), xero_connections::day_of.eq(b.day.map(|d| d.to_string()).unwrap_or_default())))
        .execute(conn)?;
    Ok(())
}

/// Xero answered 429: no call of the company before `until`.
pub fn block_calls(conn: &mut DbConn, org: i64, until: NaiveDateTime) -> AppResult<()> {
    diesel::update(xero_connections::table.find(org)).set(xero_connections::blocked_until.eq(Some(until))).execute(conn)?;
    Ok(())
}

/// The message of a send or recall while the company has no connection.
pub const NOT_CONNECTED: &str = "The accounting link (Xero) is not configured for this company yet; nothing was sent.";

/// A job's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    Send,
    Recall,
    Balance,
    /// One per company: read the payments of its sent sales invoices (issue 31).
    Payments,
}

impl JobKind {
    /// The word stored in `jobs.kind`.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Send => "send",
            Self::Recall => "recall",
            Self::Balance => "balance",
            Self::Payments => "payments",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        [Self::Send, Self::Recall, Self::Balance, Self::Payments].into_iter().find(|k| k.code() == code)
    }
}

/// The queue of this module.
pub const QUEUES: [Queue; 1] = [Queue::Xero];

/// A job as stored; its target is the `dedupe_key` column.
#[derive(Clone, Debug, Queryable, Selectable, QueryableByName)]
#[diesel(table_name = xero_jobs)]
pub struct Job {
    pub id: i64,
    pub org_id: i64,
    #[diesel(column_name = dedupe_key)]
    pub target: String,
    pub order_id: Option<i64>,
    pub kind: String,
    pub state: i32,
    pub attempts: i32,
    pub not_before: NaiveDateTime,
    pub idempotency_key: String,
    pub outcome_unknown: bool,
    pub error: String,
    pub locked_by: String,
    pub heartbeat_at: Option<NaiveDateTime>,
    pub requested_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
}

impl Job {
    pub fn job_kind(&self) -> Option<JobKind> {
        JobKind::from_code(&self.kind)
    }
}

/// A job to add.
pub struct NewJob<'a> {
    pub org_id: i64,
    pub target: &'a str,
    pub order_id: Option<i64>,
    pub kind: JobKind,
    pub requested_by: Option<i64>,
    /// An earlier attempt for the same target may have created the document.
    pub outcome_unknown: bool,
}

/// Adds a job unless the target has one queued or running (`false` then). The partial
/// unique index `jobs_active` decides between two requests at the same instant.
pub fn enqueue(conn: &mut DbConn, job: &NewJob<'_>, now: NaiveDateTime) -> AppResult<bool> {
    let key = format!("tyredesk-{}-{}-{}", job.org_id, job.target.replace(':', "-"), random_hex());
    let sql = "INSERT INTO jobs (org_id, queue, dedupe_key, order_id, kind, state, not_before, idempotency_key, outcome_unknown, requested_by, created_at) \
               VALUES ($1, 'xero', $2, $3, $4, 0, $5, $6, $7, $8, $5) ON CONFLICT DO NOTHING";
    let n = diesel::sql_query(sql)
        .bind::<diesel::sql_types::BigInt, _>(job.org_id)
        .bind::<Text, _>(job.target)
        .bind::<diesel::sql_types::Nullable<diesel::sql_types::BigInt>, _>(job.order_id)
        .bind::<Text, _>(job.kind.code())
        .bind::<Timestamp, _>(now)
        .bind::<Text, _>(&key)
        .bind::<diesel::sql_types::Bool, _>(job.outcome_unknown)
        .bind::<diesel::sql_types::Nullable<diesel::sql_types::BigInt>, _>(job.requested_by)
        .execute(conn)?;
    Ok(n == 1)
}

fn random_hex() -> String {
    use rand::RngCore;
    let mut b = [0u8; 8];
    rand::rng().fill_bytes(&mut b);
    hex::encode(b)
}

/// Whether an earlier job of the sheet ended with its outcome unknown (it gave up while
/// Xero might hold the document), so the next send looks first.
pub fn outcome_was_unknown(conn: &mut DbConn, order: i64) -> AppResult<bool> {
    let n: i64 = xero_jobs::table
        .filter(xero_jobs::order_id.eq(order))
        .filter(xero_jobs::queue.eq(Queue::Xero.code()))
        .filter(xero_jobs::kind.eq(JobKind::Send.code()))
        .filter(xero_jobs::outcome_unknown.eq(true))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

/// Recalls of the sheet that succeeded (each gives the next document a new number suffix).
pub fn recalls_done(conn: &mut DbConn, order: i64) -> AppResult<i64> {
    Ok(xero_jobs::table
        .filter(xero_jobs::order_id.eq(order))
        .filter(xero_jobs::queue.eq(Queue::Xero.code()))
        .filter(xero_jobs::kind.eq(JobKind::Recall.code()))
        .filter(xero_jobs::state.eq(JobState::Done.as_i32()))
        .filter(xero_jobs::error.eq(""))
        .count()
        .get_result(conn)?)
}

/// Claims the due job whose company waited longest (`jobs::claim`), or a running one whose
/// worker stopped beating before `stale_before`, for `worker`. Attempts are counted by the
/// worker (a transient failure), not by claims.
pub fn claim(conn: &mut DbConn, worker: &str, now: NaiveDateTime, stale_before: NaiveDateTime) -> AppResult<Option<Job>> {
    match queue::claim(conn, &QUEUES, Lease { worker, now, stale_before, give_up: None })? {
        Some(id) => Ok(Some(xero_jobs::table.find(id).select(Job::as_select()).first(conn)?)),
        None => Ok(None),
    }
}

/// When the earliest queued job is due: the worker sleeps until then.
pub fn next_due(conn: &mut DbConn) -> AppResult<Option<NaiveDateTime>> {
    queue::next_due(conn, &QUEUES)
}

use queue::mine;

/// Beats the heartbeat; `false` when the job is no longer this worker's.
pub fn heartbeat(conn: &mut DbConn, id: i64, worker: &str, now: NaiveDateTime) -> AppResult<bool> {
    queue::heartbeat(conn, id, worker, now, None)
}

/// Records, before the call that creates the document, that its outcome will be unknown
/// until Xero answers; `false` when the job is no longer this worker's.
pub fn mark_unknown(conn: &mut DbConn, id: i64, worker: &str, now: NaiveDateTime) -> AppResult<bool> {
    Ok(diesel::update(mine(id, worker)).set((xero_jobs::outcome_unknown.eq(true), xero_jobs::heartbeat_at.eq(Some(now)))).execute(conn)? == 1)
}

/// Ends the job: done (`error` empty, or the reason Xero refused a recall) or failed.
pub fn finish(conn: &mut DbConn, id: i64, worker: &str, failed: bool, error: &str, outcome_known: bool, now: NaiveDateTime) -> AppResult<bool> {
    let st = if failed { JobState::Failed } else { JobState::Done }.as_i32();
    let q = diesel::update(mine(id, worker));
    let n = if outcome_known {
        q.set((xero_jobs::state.eq(st), xero_jobs::error.eq(error), xero_jobs::finished_at.eq(Some(now)), xero_jobs::outcome_unknown.eq(false))).execute(conn)?
    } else {
        q.set((xero_jobs::state.eq(st), xero_jobs::error.eq(error), xero_jobs::finished_at.eq(Some(now)))).execute(conn)?
    };
    Ok(n == 1)
}

/// Puts the job back in the queue until `at`; `count` says whether this was an attempt
/// (a transient failure) or only a wait for the budget.
pub fn retry_at(conn: &mut DbConn, id: i64, worker: &str, at: NaiveDateTime, count: bool, error: &str) -> AppResult<bool> {
    let attempts = if count { xero_jobs::attempts + 1 } else { xero_jobs::attempts + 0 };
    Ok(diesel::update(mine(id, worker))
        .set((xero_jobs::state.eq(JobState::Queued.as_i32()), xero_jobs::not_before.eq(at), xero_jobs::attempts.eq(attempts), xero_jobs::error.eq(error)))
        .execute(conn)?
        == 1)
}

/// The queued and running jobs of a company (Disconnect ends them).
pub fn cancel_active(conn: &mut DbConn, org: i64, message: &str, now: NaiveDateTime) -> AppResult<Vec<Job>> {
    let jobs: Vec<Job> = xero_jobs::table
        .filter(xero_jobs::org_id.eq(org))
        .filter(xero_jobs::queue.eq(Queue::Xero.code()))
        .filter(xero_jobs::state.eq_any(queue::ACTIVE))
        .select(Job::as_select())
        .load(conn)?;
    diesel::update(xero_jobs::table.filter(xero_jobs::id.eq_any(jobs.iter().map(|j| j.id).collect::<Vec<_>>())))
        .set((xero_jobs::state.eq(JobState::Failed.as_i32()), xero_jobs::error.eq(message), xero_jobs::finished_at.eq(Some(now))))
        .execute(conn)?;
    Ok(jobs)
}

/// The company's jobs still waiting or running.
pub fn active_count(conn: &mut DbConn, org: i64) -> AppResult<i64> {
    Ok(xero_jobs::table
        .filter(xero_jobs::org_id.eq(org))
        .filter(xero_jobs::queue.eq(Queue::Xero.code()))
        .filter(xero_jobs::state.eq_any(queue::ACTIVE))
        .count()
        .get_result(conn)?)
}

#[cfg(test)]
mod tests {
    use super::JobKind;

    #[test]
    fn job_kinds_round_trip_through_their_stored_words() {
        for k in [JobKind::Send, JobKind::Recall, JobKind::Balance, JobKind::Payments] {
            assert_eq!(JobKind::from_code(k.code()), Some(k));
        }
        assert_eq!(JobKind::from_code("1"), None);
    }
}
