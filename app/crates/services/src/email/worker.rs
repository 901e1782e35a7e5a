//! The `email` queue's worker (claimed by the process's one worker loop, `services::jobs`,
//! slot `Mail`; or by [`run_once`] in tests). A job renders its document's PDF at send time,
//! records the e-mail `sending` (committed) before it speaks to the relay and `sent` as soon
//! as the relay answered 250 to DATA. Exactly once: a job taken over from a dead worker whose
//! e-mail is already `sent` ends without sending again; one left `sending` is sent again with
//! the same Message-ID (the relay never accepted it, or accepted it in the one window that
//! cannot be closed: docs/decisions/documents.md "E-mail").

use std::sync::Arc;

use chrono::NaiveDateTime;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::Core;
use crate::print::PdfFile;
use db::email::{self as q, Job};
use db::error::{AppError, AppResult};
use documents::Variant;
use domain::email::{self as rules, Doc, Security, State};

/// When a running job's heartbeat is older than this, its worker is gone.
fn stale_before(core: &Core) -> NaiveDateTime {
    db::now() - core.email.config().stale_after
}

/// Whether an e-mail waits (read only).
pub async fn any_claimable(core: &Core) -> AppResult<bool> {
    let (now, stale) = (db::now(), stale_before(core));
    core.db.run(move |c| q::any_claimable(c, now, stale)).await
}

/// When the earliest queued e-mail is due.
pub async fn next_due(core: &Core) -> AppResult<Option<NaiveDateTime>> {
    core.db.run(q::next_due).await
}

/// Claims the due e-mail job whose company waited longest, for this process's worker.
pub async fn claim(core: &Core) -> AppResult<Option<Job>> {
    let (now, stale) = (db::now(), stale_before(core));
    let worker = core.email.worker.clone();
    core.db.write(move |c| q::claim(c, &worker, now, stale)).await
}

/// Claims and runs one due e-mail job; its id, or `None` when none is due.
pub async fn run_once(core: &Arc<Core>) -> AppResult<Option<i64>> {
    let Some(job) = claim(core).await? else { return Ok(None) };
    let id = job.id;
    execute(core, job).await?;
    Ok(Some(id))
}

/// Runs every e-mail job due now, retries whose back-off has passed among them (tests).
pub async fn drain(core: &Arc<Core>) -> AppResult<usize> {
    let mut n = 0;
    while run_once(core).await?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// How an attempt ended when it did not send.
#[derive(Debug)]
pub enum Stop {
    /// Refused for good: the relay's 5xx, or a document that cannot be sent.
    Permanent(String),
    /// Worth another attempt: the relay's 4xx, no connection, a timeout.
    Temporary(String),
    /// The job is no longer this worker's.
    Lost,
}

impl From<AppError> for Stop {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Internal(e) => Stop::Temporary(format!("internal error: {e}")),
            AppError::Unavailable(m) | AppError::Timeout(m) | AppError::Storage(m) => Stop::Temporary(m),
            AppError::NotFound => Stop::Permanent("The document no longer exists.".into()),
            other => Stop::Permanent(other.to_string()),
        }
    }
}

/// Runs a claimed job to its end and records the outcome.
pub async fn execute(core: &Arc<Core>, job: Job) -> AppResult<()> {
    let worker = core.email.worker.clone();
    let (jid, org) = (job.id, job.org_id);
    let Some(eid) = job.email_id else {
        core.db.write(move |c| q::mark_failed(c, jid, &worker, None, "The job names no e-mail.", db::now())).await?;
        return Ok(());
    };
    let e = core.db.run(move |c| q::get(c, org, eid)).await?;
    match e.state() {
        // Taken over after the relay accepted it: never sent twice.
        State::Sent => {
            core.db.write(move |c| q::end(c, jid, &worker, false, "", db::now())).await?;
            return Ok(());
        }
        State::Failed => {
            let error = e.last_error.clone();
            core.db.write(move |c| q::end(c, jid, &worker, true, &error, db::now())).await?;
            return Ok(());
        }
        State::Queued | State::Sending => {}
    }
    let attempts = e.attempts;
    let outcome = if attempts >= rules::MAX_ATTEMPTS { Err(Stop::Permanent(gave_up(attempts, &e.last_error))) } else { attempt(core, &job, &e).await };
    let config = core.email.config();
    let now = db::now();
    match outcome {
        Ok(()) => {}
        Err(Stop::Lost) => {}
        Err(Stop::Permanent(m)) => {
            core.db.write(move |c| q::mark_failed(c, jid, &worker, Some(eid), &m, now)).await?;
        }
        Err(Stop::Temporary(m)) => {
            // The attempt was counted when it was marked sending; one that failed before
            // (the PDF not rendered) is counted here, so it too ends after MAX_ATTEMPTS.
            let tried = attempts + 1;
            tracing::warn!(email = eid, attempt = tried, "an e-mail could not be sent: {m}");
            if tried >= rules::MAX_ATTEMPTS {
                let why = gave_up(tried, &m);
                core.db.write(move |c| q::mark_failed(c, jid, &worker, Some(eid), &why, now)).await?;
            } else {
                let at = now + rules::backoff(&config.backoff, tried);
                core.db.write(move |c| q::retry_at(c, jid, &worker, eid, tried, &m, at)).await?;
            }
        }
    }
    core.email.bell.notify_one();
    Ok(())
}

fn gave_up(attempts: i32, last: &str) -> String {
    format!("Not sent after {attempts} attempts; the last: {last}")
}

/// One attempt: settings, attachment, message; `sending` committed; the relay; `sent`.
async fn attempt(core: &Arc<Core>, job: &Job, e: &q::Email) -> Result<(), Stop> {
    let org = job.org_id;
    let Some(settings) = core.db.run(move |c| q::settings(c, org)).await?.filter(|s| !s.host.is_empty()) else {
        return Err(Stop::Permanent(super::NOT_SET_UP.into()));
    };
    let doc = Doc::from_code(&e.kind).ok_or_else(|| Stop::Permanent(format!("Unknown document type '{}'.", e.kind)))?;
    let pdf = attachment(core, org, doc, e.target_id.unwrap_or_default(), &e.reference).await?;
    let company = core.db.run(move |c| Ok(db::accounts::organisation(c, org)?.name)).await?;
    let message_id = if e.message_id.is_empty() { rules::message_id(org, e.id, &e.token, &settings.from_address) } else { e.message_id.clone() };
    let message = build(&settings, &company, e, &message_id, pdf)?;
    let password = if settings.password_sealed.is_empty() {
        String::new()
    } else {
        core.xero.key.open(org, &settings.password_sealed).ok_or_else(|| Stop::Permanent("The stored SMTP password cannot be opened with this server's key: enter it again in Settings › E-mail.".into()))?
    };
    let transport = transport(&settings, password, core.email.config().timeout)?;

    let (jid, eid, worker, mid) = (job.id, e.id, core.email.worker.clone(), message_id.clone());
    if !core.db.write(move |c| q::mark_sending(c, jid, &worker, eid, &mid, db::now())).await? {
        return Err(Stop::Lost);
    }
    let sent = with_heartbeat(core, jid, transport.send(message)).await;
    match sent {
        Ok(_) => {
            let worker = core.email.worker.clone();
            core.db.write(move |c| q::mark_sent(c, jid, &worker, eid, db::now())).await?;
            Ok(())
        }
        Err(err) if err.is_permanent() => Err(Stop::Permanent(format!("The mail server refused the e-mail: {err}"))),
        Err(err) => Err(Stop::Temporary(format!("The mail server did not take the e-mail: {err}"))),
    }
}

/// Runs `send`, beating the job's heartbeat meanwhile (a relay that holds its answer must not
/// make the job look abandoned).
async fn with_heartbeat<T>(core: &Arc<Core>, job: i64, send: impl std::future::Future<Output = T>) -> T {
    let beat = (core.email.config().stale_after / 4).to_std().unwrap_or(std::time::Duration::from_secs(1)).max(std::time::Duration::from_millis(200));
    tokio::pin!(send);
    loop {
        tokio::select! {
            out = &mut send => return out,
            () = tokio::time::sleep(beat) => {
                let worker = core.email.worker.clone();
                if let Err(e) = core.db.write(move |c| q::heartbeat(c, job, &worker, db::now())).await {
                    tracing::warn!(error = %e, job, "an e-mail job's heartbeat could not be written");
                }
            }
        }
    }
}

/// The document's PDF, rendered at send time, one function per document type (the same
/// functions the pages show the PDFs with).
pub async fn attachment(core: &Arc<Core>, org: i64, doc: Doc, target: i64, reference: &str) -> Result<Option<PdfFile>, Stop> {
    Ok(Some(match doc {
        Doc::Invoice | Doc::CreditNote => crate::print::pdf(core, org, vec![target], Variant::Standard).await?,
        Doc::DeliveryDocket => crate::print::pdf(core, org, vec![target], Variant::NoPrice).await?,
        Doc::PurchaseOrder => crate::po_print::purchase_order_pdf(core, org, target).await?,
        Doc::Quotation => crate::quotations::quotation_pdf(core, org, target).await?,
        Doc::Statement => {
            let month = reference.to_string();
            let month = core.db.run(move |c| crate::statements::month(c, org, Some(&month))).await?;
            crate::statements::statement_pdf(core, org, target, month).await?
        }
        Doc::Test => return Ok(None),
    }))
}

fn mailbox(name: Option<&str>, address: &str, what: &str) -> Result<Mailbox, Stop> {
    let addr = address.parse().map_err(|_| Stop::Permanent(format!("The {what} address '{address}' is not valid.")))?;
    Ok(Mailbox::new(name.map(str::to_string), addr))
}

/// The message: From (the company's name and address), Reply-To, the recipients, the
/// subject and text filled when it was queued, the row's Message-ID, the PDF attached.
fn build(s: &q::Settings, company: &str, e: &q::Email, message_id: &str, pdf: Option<PdfFile>) -> Result<Message, Stop> {
    let mut m = Message::builder().from(mailbox(Some(company), &s.from_address, "From")?).message_id(Some(message_id.to_string())).subject(e.subject.clone());
    if !s.reply_to.is_empty() {
        m = m.reply_to(mailbox(None, &s.reply_to, "Reply-To")?);
    }
    for to in e.to() {
        m = m.to(mailbox(None, &to, "recipient")?);
    }
    let text = SinglePart::plain(e.body.clone());
    let built = match pdf {
        Some(f) => {
            let pdf_type = ContentType::parse("application/pdf").map_err(|e| Stop::Permanent(e.to_string()))?;
            m.multipart(MultiPart::mixed().singlepart(text).singlepart(Attachment::new(f.name).body(f.bytes, pdf_type)))
        }
        None => m.singlepart(text),
    };
    built.map_err(|e| Stop::Permanent(format!("The e-mail could not be put together: {e}")))
}

fn transport(s: &q::Settings, password: String, timeout: std::time::Duration) -> Result<AsyncSmtpTransport<Tokio1Executor>, Stop> {
    let tls = |e: lettre::transport::smtp::Error| Stop::Permanent(format!("The mail server's TLS settings cannot be used: {e}"));
    let builder = match Security::from_code(&s.security).unwrap_or_default() {
        Security::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&s.host),
        Security::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&s.host).map_err(tls)?,
        Security::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&s.host).map_err(tls)?,
    };
    let mut builder = builder.port(u16::try_from(s.port).unwrap_or(25)).timeout(Some(timeout));
    if !s.username.is_empty() {
        builder = builder.credentials(Credentials::new(s.username.clone(), password));
    }
    Ok(builder.build())
}
