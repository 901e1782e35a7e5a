//! E-mail (issue 33, docs/decisions/documents.md "E-mail"): a company's relay settings
//! (`email_settings`), the history of e-mails (`emails`), and their jobs in the one queue
//! (`jobs`, queue `email`, `params` naming the `emails` row). Every write of the worker is
//! limited to a job that is still its own (`jobs::mine`).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::DbConn;
use super::jobs::{self as queue, Lease, mine};
use super::schema::{email_settings, emails, jobs};
use crate::error::AppResult;
use domain::email::State;
use domain::jobs::{JobState, Queue};

pub const QUEUES: [Queue; 1] = [Queue::Email];

/// A company's relay settings as stored (the password sealed).
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = email_settings)]
pub struct Settings {
    pub org_id: i64,
    pub host: String,
    pub port: i32,
    pub security: String,
    pub username: String,
    pub password_sealed: String,
    pub from_address: String,
    pub reply_to: String,
    pub invoice_on_approval: bool,
    pub templates: String,
    pub updated_at: NaiveDateTime,
}

impl Settings {
    /// The templates kept (an unreadable column reads as none: the defaults apply).
    pub fn templates(&self) -> domain::email::Templates {
        serde_json::from_str(&self.templates).unwrap_or_default()
    }
}

pub fn settings(conn: &mut DbConn, org: i64) -> AppResult<Option<Settings>> {
    Ok(email_settings::table.find(org).select(Settings::as_select()).first(conn).optional()?)
}

/// Stores the company's settings, replacing the earlier ones.
pub fn save_settings(conn: &mut DbConn, s: &Settings) -> AppResult<()> {
    let values = (
        email_settings::host.eq(&s.host),
        email_settings::port.eq(s.port),
        email_settings::security.eq(&s.security),
        email_settings::username.eq(&s.username),
        email_settings::password_sealed.eq(&s.password_sealed),
        email_settings::from_address.eq(&s.from_address),
        email_settings::reply_to.eq(&s.reply_to),
        email_settings::invoice_on_approval.eq(s.invoice_on_approval),
        email_settings::templates.eq(&s.templates),
        email_settings::updated_at.eq(s.updated_at),
    );
    let n = diesel::update(email_settings::table.find(s.org_id)).set(values.clone()).execute(conn)?;
    if n == 0 {
        diesel::insert_into(email_settings::table).values((email_settings::org_id.eq(s.org_id), values)).execute(conn)?;
    }
    Ok(())
}

/// An e-mail of the history.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = emails)]
pub struct Email {
    pub id: i64,
    pub org_id: i64,
    pub job_id: Option<i64>,
    pub kind: String,
    pub order_id: Option<i64>,
    pub target_id: Option<i64>,
    pub reference: String,
    pub recipients: String,
    pub subject: String,
    pub body: String,
    pub token: String,
    pub message_id: String,
    pub state: String,
    pub attempts: i32,
    pub last_error: String,
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub sent_at: Option<NaiveDateTime>,
}

impl Email {
    pub fn state(&self) -> State {
        State::from_code(&self.state).unwrap_or(State::Queued)
    }

    /// The recipients, one address each.
    pub fn to(&self) -> Vec<String> {
        self.recipients.split(", ").filter(|s| !s.is_empty()).map(str::to_string).collect()
    }
}

/// A new e-mail to queue.
#[derive(Clone, Debug)]
pub struct NewEmail<'a> {
    pub org_id: i64,
    pub kind: &'a str,
    pub order_id: Option<i64>,
    pub target_id: Option<i64>,
    pub reference: &'a str,
    pub recipients: &'a [String],
    pub subject: &'a str,
    pub body: &'a str,
    pub token: &'a str,
    pub created_by: Option<i64>,
}

/// Adds the e-mail to the history and its job to the queue (due now); answers the row's id.
pub fn enqueue(conn: &mut DbConn, e: &NewEmail<'_>, now: NaiveDateTime) -> AppResult<i64> {
    let id = insert_row(conn, e, State::Queued, "", now)?;
    let job: i64 = diesel::insert_into(jobs::table)
        .values((
            jobs::org_id.eq(e.org_id),
            jobs::queue.eq(Queue::Email.code()),
            jobs::kind.eq(e.kind),
            jobs::state.eq(JobState::Queued.as_i32()),
            jobs::not_before.eq(now),
            jobs::created_at.eq(now),
            jobs::requested_by.eq(e.created_by),
            jobs::dedupe_key.eq(format!("email:{id}")),
            jobs::params.eq(id.to_string()),
        ))
        .returning(jobs::id)
        .get_result(conn)?;
    diesel::update(emails::table.find(id)).set(emails::job_id.eq(Some(job))).execute(conn)?;
    Ok(id)
}

/// A recorded e-mail that failed before it was queued (the automatic e-mail of an invoice
/// whose customer has no address): its history says why.
pub fn record_failed(conn: &mut DbConn, e: &NewEmail<'_>, error: &str, now: NaiveDateTime) -> AppResult<i64> {
    insert_row(conn, e, State::Failed, error, now)
}

/// The history row of `e` in `state`.
fn insert_row(conn: &mut DbConn, e: &NewEmail<'_>, state: State, error: &str, now: NaiveDateTime) -> AppResult<i64> {
    Ok(diesel::insert_into(emails::table)
        .values((
            emails::org_id.eq(e.org_id),
            emails::kind.eq(e.kind),
            emails::order_id.eq(e.order_id),
            emails::target_id.eq(e.target_id),
            emails::reference.eq(e.reference),
            emails::recipients.eq(e.recipients.join(", ")),
            emails::subject.eq(e.subject),
            emails::body.eq(e.body),
            emails::token.eq(e.token),
            emails::state.eq(state.code()),
            emails::last_error.eq(error),
            emails::created_by.eq(e.created_by),
            emails::created_at.eq(now),
        ))
        .returning(emails::id)
        .get_result(conn)?)
}

/// The e-mail `id` of company `org`.
pub fn get(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Email> {
    Ok(emails::table.filter(emails::org_id.eq(org)).find(id).select(Email::as_select()).first(conn)?)
}

/// The e-mails of a sheet, newest first.
pub fn of_order(conn: &mut DbConn, org: i64, order: i64) -> AppResult<Vec<Email>> {
    Ok(emails::table.filter(emails::org_id.eq(org)).filter(emails::order_id.eq(order)).order((emails::created_at.desc(), emails::id.desc())).limit(50).select(Email::as_select()).load(conn)?)
}

/// The company's latest e-mails, newest first.
pub fn recent(conn: &mut DbConn, org: i64, limit: i64) -> AppResult<Vec<Email>> {
    Ok(emails::table.filter(emails::org_id.eq(org)).order((emails::created_at.desc(), emails::id.desc())).limit(limit).select(Email::as_select()).load(conn)?)
}

/// A claimed job: its id, company, attempts so far and the e-mail it sends.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: i64,
    pub org_id: i64,
    pub email_id: Option<i64>,
}

/// Claims the due e-mail job whose company waited longest, or one whose worker died.
pub fn claim(conn: &mut DbConn, worker: &str, now: NaiveDateTime, stale_before: NaiveDateTime) -> AppResult<Option<Job>> {
    let Some(id) = queue::claim(conn, &QUEUES, Lease { worker, now, stale_before, give_up: None })? else { return Ok(None) };
    let (org_id, params): (i64, String) = jobs::table.find(id).select((jobs::org_id, jobs::params)).first(conn)?;
    Ok(Some(Job { id, org_id, email_id: params.parse().ok() }))
}

/// Whether an e-mail job waits (a read: an idle worker does not take the write lock).
pub fn any_claimable(conn: &mut DbConn, now: NaiveDateTime, stale_before: NaiveDateTime) -> AppResult<bool> {
    queue::any_claimable(conn, &QUEUES, now, stale_before)
}

/// When the earliest queued e-mail is due (a retry waits for its back-off).
pub fn next_due(conn: &mut DbConn) -> AppResult<Option<NaiveDateTime>> {
    queue::next_due(conn, &QUEUES)
}

pub fn heartbeat(conn: &mut DbConn, job: i64, worker: &str, now: NaiveDateTime) -> AppResult<bool> {
    queue::heartbeat(conn, job, worker, now, None)
}

/// Records, before the relay is spoken to, that the e-mail is being handed over: state
/// `sending`, one more attempt, and its Message-ID. `false` (nothing written) when the job is
/// no longer this worker's.
pub fn mark_sending(conn: &mut DbConn, job: i64, worker: &str, email: i64, message_id: &str, now: NaiveDateTime) -> AppResult<bool> {
    if diesel::update(mine(job, worker)).set(jobs::heartbeat_at.eq(Some(now))).execute(conn)? != 1 {
        return Ok(false);
    }
    diesel::update(emails::table.find(email))
        .set((emails::state.eq(State::Sending.code()), emails::attempts.eq(emails::attempts + 1), emails::message_id.eq(message_id), emails::last_error.eq("")))
        .execute(conn)?;
    Ok(true)
}

/// The relay accepted the e-mail: it is `sent`, whoever's job this is now (the relay's
/// acceptance is a fact), and the job ends done if it is still this worker's.
pub fn mark_sent(conn: &mut DbConn, job: i64, worker: &str, email: i64, now: NaiveDateTime) -> AppResult<()> {
    diesel::update(emails::table.find(email)).set((emails::state.eq(State::Sent.code()), emails::sent_at.eq(Some(now)), emails::last_error.eq(""))).execute(conn)?;
    end(conn, job, worker, false, "", now)?;
    Ok(())
}

/// The e-mail failed for good (or gave up): its history says why, and the job ends failed.
/// `false` when the job was no longer this worker's (nothing written).
pub fn mark_failed(conn: &mut DbConn, job: i64, worker: &str, email: Option<i64>, error: &str, now: NaiveDateTime) -> AppResult<bool> {
    if !end(conn, job, worker, true, error, now)? {
        return Ok(false);
    }
    if let Some(email) = email {
        diesel::update(emails::table.find(email)).set((emails::state.eq(State::Failed.code()), emails::last_error.eq(error))).execute(conn)?;
    }
    Ok(true)
}

/// A temporary failure: the e-mail waits for its retry at `at` (state `queued`, the error
/// kept, `attempts` counted so far) and the job goes back to the queue until then.
pub fn retry_at(conn: &mut DbConn, job: i64, worker: &str, email: i64, attempts: i32, error: &str, at: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(mine(job, worker)).set((jobs::state.eq(JobState::Queued.as_i32()), jobs::not_before.eq(at), jobs::error.eq(error), jobs::attempts.eq(jobs::attempts + 1))).execute(conn)?;
    if n != 1 {
        return Ok(false);
    }
    diesel::update(emails::table.find(email)).set((emails::state.eq(State::Queued.code()), emails::attempts.eq(attempts), emails::last_error.eq(error))).execute(conn)?;
    Ok(true)
}

/// Ends the job as done (an e-mail found already sent) or failed.
pub fn end(conn: &mut DbConn, job: i64, worker: &str, failed: bool, error: &str, now: NaiveDateTime) -> AppResult<bool> {
    let st = if failed { JobState::Failed } else { JobState::Done }.as_i32();
    Ok(diesel::update(mine(job, worker)).set((jobs::state.eq(st), jobs::error.eq(error), jobs::finished_at.eq(Some(now)))).execute(conn)? == 1)
}
