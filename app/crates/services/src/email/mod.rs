//! E-mail of documents through the company's own SMTP relay (issue 33, docs/decisions/
//! documents.md "E-mail"): Settings › E-mail (role 4, audited, the password sealed like the
//! Xero secret), [`send`] — the one way other code asks for an e-mail, which checks the
//! document inside the actor's company, fills the subject and text from the company's
//! template and queues a job of the `email` queue — and the worker (`worker`) that renders
//! the PDF at send time and hands the message to the relay exactly once.

pub mod worker;

use std::sync::Mutex;
use std::time::Duration;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tokio::sync::Notify;

use crate::Core;
use crate::orders::ensure;
use crate::reference_data::{audit_change, only_approver};
use db::DbConn;
use db::email::{self as q, NewEmail};
use db::error::{AppError, AppResult};
use db::schema::{customers, memberships, suppliers};
use domain::Actor;
use domain::email::{self as rules, Doc, Fill, Security, SettingsInput, Template};
use domain::enums::OrderType;
use domain::status::Action;
use xero::secret::SecretKey;

/// How the outbox behaves; tests shorten the waits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seconds to wait before each retry (the last repeats).
    pub backoff: Vec<i64>,
    /// A running job whose heartbeat is older than this lost its worker and is claimed again.
    pub stale_after: chrono::Duration,
    /// How long one conversation with the relay may take.
    pub timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Self { backoff: rules::BACKOFF_SECS.to_vec(), stale_after: chrono::Duration::seconds(120), timeout: Duration::from_secs(60) }
    }
}

impl Config {
    /// The defaults, with `TYREDESK_EMAIL_BACKOFF_SECS` (comma-separated seconds, e.g. `0` or
    /// `1,2,3`), `TYREDESK_EMAIL_STALE_SECS` (1–3600) and `TYREDESK_EMAIL_TIMEOUT_SECS` (1–600)
    /// when set: tests and the kill -9 test do not wait minutes.
    pub fn from_env() -> Self {
        let mut c = Self::default();
        if let Ok(v) = std::env::var("TYREDESK_EMAIL_BACKOFF_SECS") {
            let list: Vec<i64> = v.split(',').filter_map(|s| s.trim().parse().ok()).filter(|s| (0..=86_400).contains(s)).collect();
            if !list.is_empty() {
                c.backoff = list;
            }
        }
        let secs = |name: &str, max: i64| std::env::var(name).ok().and_then(|v| v.trim().parse::<i64>().ok()).filter(|s| (1..=max).contains(s));
        if let Some(s) = secs("TYREDESK_EMAIL_STALE_SECS", 3600) {
            c.stale_after = chrono::Duration::seconds(s);
        }
        if let Some(s) = secs("TYREDESK_EMAIL_TIMEOUT_SECS", 600) {
            c.timeout = Duration::from_secs(s.unsigned_abs());
        }
        c
    }
}

/// The outbox's part of the application state: this process's worker name, its bell and
/// its configuration.
pub struct Outbox {
    /// This process's worker name (host, process, random), kept in `jobs.locked_by`.
    pub worker: String,
    /// Rung when an e-mail is queued, so the worker starts at once.
    pub bell: Notify,
    config: Mutex<Config>,
}

impl Default for Outbox {
    fn default() -> Self {
        Self::with(Config::from_env())
    }
}

impl Outbox {
    pub fn with(config: Config) -> Self {
        let host = std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "tyredesk".into());
        Self { worker: format!("{host}-{}-mail-{:04x}", std::process::id(), rand::random::<u16>()), bell: Notify::new(), config: Mutex::new(config) }
    }

    pub fn config(&self) -> Config {
        self.config.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replaces the configuration (tests: a zero back-off).
    pub fn set_config(&self, config: Config) {
        *self.config.lock().unwrap_or_else(|e| e.into_inner()) = config;
    }
}

/// What the settings form shows: never the password, only whether one is kept.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// Whether settings were saved (e-mail can be sent).
    pub configured: bool,
    pub host: String,
    pub port: String,
    pub security: String,
    pub username: String,
    pub password_set: bool,
    pub from_address: String,
    pub reply_to: String,
    pub invoice_on_approval: bool,
    /// The template of each document type (the default where none was kept).
    pub templates: Vec<(Doc, Template)>,
}

/// The company's e-mail settings (role 4).
pub fn view(conn: &mut DbConn, actor: &Actor) -> AppResult<View> {
    only_approver(actor.role)?;
    let s = q::settings(conn, actor.org_id)?;
    let kept = s.as_ref().map(q::Settings::templates).unwrap_or_default();
    let templates = Doc::TEMPLATED.into_iter().map(|d| (d, rules::template_of(&kept, d))).collect();
    Ok(match s {
        Some(s) => View {
            configured: !s.host.is_empty(),
            port: s.port.to_string(),
            host: s.host,
            security: s.security,
            username: s.username,
            password_set: !s.password_sealed.is_empty(),
            from_address: s.from_address,
            reply_to: s.reply_to,
            invoice_on_approval: s.invoice_on_approval,
            templates,
        },
        None => View { port: "587".into(), security: Security::StartTls.code().into(), templates, ..View::default() },
    })
}

/// Saves the company's e-mail settings (role 4), audited; an empty password keeps the one
/// stored, which is sealed with the server's key and never shown again.
pub fn save(conn: &mut DbConn, actor: &Actor, key: &SecretKey, input: &SettingsInput, now: NaiveDateTime) -> AppResult<()> {
    only_approver(actor.role)?;
    let c = rules::check(input).map_err(|errors| AppError::Validation { message: "Check the highlighted e-mail settings.".into(), errors })?;
    let before = q::settings(conn, actor.org_id)?;
    let password_sealed = match &c.password {
        Some(p) => key.seal(actor.org_id, p),
        None => before.as_ref().map(|b| b.password_sealed.clone()).unwrap_or_default(),
    };
    let templates = serde_json::to_string(&c.templates).map_err(|e| AppError::Internal(e.into()))?;
    let s = q::Settings {
        org_id: actor.org_id,
        host: c.host.clone(),
        port: c.port,
        security: c.security.code().into(),
        username: c.username.clone(),
        password_sealed,
        from_address: c.from_address.clone(),
        reply_to: c.reply_to.clone(),
        invoice_on_approval: c.invoice_on_approval,
        templates,
        updated_at: now,
    };
    q::save_settings(conn, &s)?;
    let own: Vec<&str> = c.templates.keys().map(String::as_str).collect();
    let detail = format!(
        "server {}:{} ({}), user '{}', password {}, from {}{}, e-mail invoices on approval {}, own templates: {}",
        c.host,
        c.port,
        c.security.code(),
        c.username,
        if c.password.is_some() { "changed" } else if s.password_sealed.is_empty() { "none" } else { "kept" },
        c.from_address,
        if c.reply_to.is_empty() { String::new() } else { format!(", reply-to {}", c.reply_to) },
        if c.invoice_on_approval { "on" } else { "off" },
        if own.is_empty() { "none".to_string() } else { own.join(", ") },
    );
    audit_change(conn, actor, "settings", None, if before.is_some() { "update e-mail" } else { "set up e-mail" }, detail)
}

/// An e-mail other code asks for.
#[derive(Clone, Debug)]
pub struct Outgoing {
    pub doc: Doc,
    /// What the document is of: the sheet (tax invoice, credit note, delivery docket,
    /// purchase order), the quotation, or the customer (statement).
    pub target: i64,
    /// A further reference: a statement's month (`2026-11`); empty otherwise.
    pub reference: String,
    /// The recipients as typed: addresses separated by commas.
    pub to: String,
}

/// A queued e-mail: its history row and recipients.
#[derive(Clone, Debug)]
pub struct Queued {
    pub id: i64,
    pub to: Vec<String>,
}

/// Why an e-mail cannot be sent before the relay is set up.
pub const NOT_SET_UP: &str = "E-mail is not set up yet: an approver enters the mail server in Settings › E-mail.";

/// What an e-mail is about, read inside the company.
#[derive(Clone, Debug, Default)]
pub struct Subject {
    /// The sheet, for the sheet's e-mail history.
    pub order_id: Option<i64>,
    pub fill: Fill,
    /// Where it goes unless the sender says otherwise (the customer's e-mail).
    pub default_to: String,
}

/// Reads what `doc` of `target` is about inside the actor's company (another company's id
/// is not found), refusing a sheet that may not be sent as that document.
pub fn subject_of(conn: &mut DbConn, actor: &Actor, doc: Doc, target: i64, reference: &str) -> AppResult<Subject> {
    let org = actor.org_id;
    let company = db::accounts::organisation(conn, org)?.name;
    match doc {
        Doc::Invoice | Doc::CreditNote | Doc::DeliveryDocket | Doc::PurchaseOrder => {
            let o = db::orders::get(conn, org, target)?;
            check_sheet(conn, actor, doc, &o)?;
            let (name, email) = party_of(conn, org, &o)?;
            Ok(Subject { order_id: Some(o.id), fill: Fill { company, number: o.no.clone(), customer: name, reference: o.reference.clone() }, default_to: email })
        }
        Doc::Statement => {
            let (name, email) = customers::table.filter(customers::org_id.eq(org)).find(target).select((customers::name, customers::email)).first::<(String, String)>(conn)?;
            Ok(Subject { order_id: None, fill: Fill { company, number: reference.to_string(), customer: name, reference: reference.to_string() }, default_to: email })
        }
        Doc::Quotation => {
            let (no, customer, ..) = crate::quotations::head(conn, org, target)?;
            let (name, email) = customers::table.filter(customers::org_id.eq(org)).find(customer).select((customers::name, customers::email)).first::<(String, String)>(conn)?;
            Ok(Subject { order_id: None, fill: Fill { company, number: no, customer: name, reference: String::new() }, default_to: email })
        }
        Doc::Test => Ok(Subject { order_id: None, fill: Fill { company, ..Fill::default() }, default_to: String::new() }),
    }
}

/// Refuses a sheet that may not be sent as `doc` (a sheet document): another type, a sheet
/// not yet printable, or a purchase order to staff who may not see its prices.
fn check_sheet(conn: &mut DbConn, actor: &Actor, doc: Doc, o: &db::orders::Order) -> AppResult<()> {
    let (types, what): (&[OrderType], &str) = match doc {
        Doc::Invoice => (&[OrderType::Invoice], "a tax invoice"),
        Doc::CreditNote => (&[OrderType::CreditNote], "a credit note"),
        Doc::DeliveryDocket => (&[OrderType::Invoice, OrderType::CreditNote], "a delivery docket"),
        Doc::PurchaseOrder => (&[OrderType::PurchaseOrder], "a purchase order"),
        Doc::Statement | Doc::Quotation | Doc::Test => return Err(AppError::NotFound),
    };
    if doc == Doc::PurchaseOrder && !may_see_purchase_prices(conn, actor)? {
        return Err(AppError::forbidden("Only staff who may see purchase prices may e-mail a purchase order."));
    }
    if !types.iter().any(|t| t.as_i32() == o.order_type) {
        return Err(AppError::NotFound);
    }
    if doc != Doc::PurchaseOrder {
        ensure(o, Action::Print).map_err(|_| AppError::Conflict { message: format!("{} cannot be e-mailed as {what}: only approved invoices and credit notes, and draft credit notes, are sent.", o.no), code: Some("not_printable"), reasons: vec![] })?;
    }
    Ok(())
}

/// The name and e-mail of the sheet's customer, else its supplier.
fn party_of(conn: &mut DbConn, org: i64, o: &db::orders::Order) -> AppResult<(String, String)> {
    Ok(match (o.customer_id, o.supplier_id) {
        (Some(c), _) => customers::table.filter(customers::org_id.eq(org)).find(c).select((customers::name, customers::email)).first::<(String, String)>(conn).optional()?.unwrap_or_default(),
        (None, Some(s)) => suppliers::table.filter(suppliers::org_id.eq(org)).find(s).select((suppliers::name, suppliers::email)).first::<(String, String)>(conn).optional()?.unwrap_or_default(),
        _ => Default::default(),
    })
}

/// The address each of a sheet's documents goes to unless the sender types another: the
/// sheet's customer's (or supplier's) e-mail, or nothing for a document the sheet may not
/// be sent as. The sheet and its party are read once for all of `docs`.
pub fn sheet_recipients(conn: &mut DbConn, actor: &Actor, docs: &[Doc], target: i64) -> AppResult<Vec<String>> {
    let o = db::orders::get(conn, actor.org_id, target)?;
    let (_, email) = party_of(conn, actor.org_id, &o)?;
    Ok(docs.iter().map(|&d| if check_sheet(conn, actor, d, &o).is_ok() { email.clone() } else { String::new() }).collect())
}

/// The refusal of a document type whose PDF is not wired yet.
pub fn not_yet_available(doc: Doc) -> AppError {
    AppError::Conflict { message: format!("E-mailing a {} is not yet available.", doc.label().to_lowercase()), code: Some("not_yet_available"), reasons: vec![] }
}

/// Whether the actor sees purchase prices in this company (approvers, and staff who set prices).
fn may_see_purchase_prices(conn: &mut DbConn, actor: &Actor) -> AppResult<bool> {
    let mod_prc = memberships::table
        .filter(memberships::user_id.eq(actor.user_id))
        .filter(memberships::org_id.eq(actor.org_id))
        .select(memberships::mod_prc)
        .first::<bool>(conn)
        .optional()?
        .unwrap_or(false);
    Ok(domain::permissions::may_see_cost(actor.role, mod_prc))
}

/// Where `doc` of `target` goes unless the sender says otherwise (the form's default).
pub fn default_recipient(conn: &mut DbConn, actor: &Actor, doc: Doc, target: i64) -> AppResult<String> {
    Ok(subject_of(conn, actor, doc, target, "")?.default_to)
}

fn token() -> String {
    use rand::RngCore;
    let mut b = [0u8; 12];
    rand::rng().fill_bytes(&mut b);
    hex::encode(b)
}

/// Queues an e-mail inside the caller's transaction: checks the recipients and the
/// document, fills the company's template, adds the history row and the job.
pub fn queue(conn: &mut DbConn, actor: &Actor, out: &Outgoing, now: NaiveDateTime) -> AppResult<Queued> {
    let to = rules::recipients(&out.to).map_err(|m| AppError::field("to", m))?;
    // What the e-mail is about first: another company's id is not found, set up or not.
    let subject = subject_of(conn, actor, out.doc, out.target, &out.reference)?;
    let settings = q::settings(conn, actor.org_id)?.filter(|s| !s.host.is_empty()).ok_or_else(|| AppError::Conflict { message: NOT_SET_UP.into(), code: Some("email_not_set_up"), reasons: vec![] })?;
    let t = rules::template_of(&settings.templates(), out.doc);
    let (title, body) = (subject.fill.apply(&t.subject), subject.fill.apply(&t.body));
    let token = token();
    let id = q::enqueue(
        conn,
        &NewEmail {
            org_id: actor.org_id,
            kind: out.doc.code(),
            order_id: subject.order_id,
            target_id: (out.doc != Doc::Test).then_some(out.target),
            reference: &out.reference,
            recipients: &to,
            subject: &title,
            body: &body,
            token: &token,
            created_by: Some(actor.user_id),
        },
        now,
    )?;
    Ok(Queued { id, to })
}

/// `send`: queues the e-mail ([`queue`]) in its own transaction and wakes the worker.
pub async fn send(core: &Core, actor: &Actor, out: Outgoing) -> AppResult<Queued> {
    let a = actor.clone();
    let queued = core.db.write(move |c| queue(c, &a, &out, db::now())).await?;
    core.email.bell.notify_one();
    Ok(queued)
}

/// "Send test e-mail" (role 4): to `to`, or the signed-in user's own address when empty;
/// through the queue like every e-mail.
pub async fn send_test(core: &Core, actor: &Actor, to: &str) -> AppResult<Queued> {
    only_approver(actor.role)?;
    let to = if to.trim().is_empty() {
        let uid = actor.user_id;
        core.db.run(move |c| Ok(db::schema::users::table.find(uid).select(db::schema::users::email).first::<String>(c)?)).await?
    } else {
        to.to_string()
    };
    send(core, actor, Outgoing { doc: Doc::Test, target: 0, reference: String::new(), to }).await
}

/// After an invoice's approval committed: e-mails the tax invoice to the customer when the
/// company asked for it. Never fails the approval: a customer without an address gets a
/// failed history row saying so; any other problem is logged.
pub async fn on_approval(core: &Core, actor: &Actor, order: i64) {
    let a = actor.clone();
    let result = core
        .db
        .write(move |c| {
            let org = a.org_id;
            let Some(s) = q::settings(c, org)? else { return Ok(false) };
            if !s.invoice_on_approval || s.host.is_empty() {
                return Ok(false);
            }
            let o = db::orders::get(c, org, order)?;
            if o.order_type != OrderType::Invoice.as_i32() {
                return Ok(false);
            }
            let subject = subject_of(c, &a, Doc::Invoice, order, "")?;
            let out = Outgoing { doc: Doc::Invoice, target: order, reference: String::new(), to: subject.default_to.clone() };
            match queue(c, &a, &out, db::now()) {
                Ok(_) => Ok(true),
                Err(AppError::Validation { errors, .. }) => {
                    let why = if subject.default_to.trim().is_empty() {
                        format!("Not e-mailed on approval: the customer {} has no e-mail address.", subject.fill.customer)
                    } else {
                        format!("Not e-mailed on approval: {}", errors.values().cloned().collect::<Vec<_>>().join(" "))
                    };
                    let t = rules::template_of(&s.templates(), Doc::Invoice);
                    q::record_failed(
                        c,
                        &NewEmail {
                            org_id: org,
                            kind: Doc::Invoice.code(),
                            order_id: Some(order),
                            target_id: Some(order),
                            reference: "",
                            recipients: &[subject.default_to.trim().to_string()],
                            subject: &subject.fill.apply(&t.subject),
                            body: &subject.fill.apply(&t.body),
                            token: &token(),
                            created_by: Some(a.user_id),
                        },
                        &why,
                        db::now(),
                    )?;
                    Ok(false)
                }
                Err(e) => Err(e),
            }
        })
        .await;
    match result {
        Ok(true) => core.email.bell.notify_one(),
        Ok(false) => {}
        Err(e) => tracing::warn!(error = %e, order, "the tax invoice could not be queued for e-mail after its approval"),
    }
}

/// A row of an e-mail history as pages show it.
#[derive(Clone, Debug)]
pub struct HistoryRow {
    pub id: i64,
    pub doc: &'static str,
    pub to: String,
    pub subject: String,
    pub created_at: NaiveDateTime,
    pub sent_at: Option<NaiveDateTime>,
    pub state: rules::State,
    pub attempts: i32,
    pub error: String,
}

impl From<q::Email> for HistoryRow {
    fn from(e: q::Email) -> Self {
        Self {
            id: e.id,
            doc: Doc::from_code(&e.kind).map(Doc::label).unwrap_or("E-mail"),
            state: e.state(),
            to: e.recipients,
            subject: e.subject,
            created_at: e.created_at,
            sent_at: e.sent_at,
            attempts: e.attempts,
            error: e.last_error,
        }
    }
}

/// The e-mails of a sheet of the company, newest first.
pub fn history_of_sheet(conn: &mut DbConn, org: i64, order: i64) -> AppResult<Vec<HistoryRow>> {
    Ok(q::of_order(conn, org, order)?.into_iter().map(HistoryRow::from).collect())
}

/// The company's latest e-mails (the settings page shows the test e-mail's outcome there).
pub fn recent(conn: &mut DbConn, actor: &Actor, limit: i64) -> AppResult<Vec<HistoryRow>> {
    only_approver(actor.role)?;
    Ok(q::recent(conn, actor.org_id, limit)?.into_iter().map(HistoryRow::from).collect())
}
