//! The accounting link's jobs: a due job of the `xero` queue (claimed by the process's one
//! worker loop, `services::jobs`, or by `run_once` in tests) calls Xero within the
//! company's budget and writes the outcome on the sheet. Exactly once: before the call
//! that creates a document the job is marked "outcome unknown"; a job so marked (a timeout,
//! a dropped connection, a crash, a second process taking over a stalled job) first looks
//! the document up by its number and only creates it when Xero has none. Each create also
//! carries an `Idempotency-Key`, so a repeat within Xero's few minutes is answered from
//! its cache.

use std::collections::HashSet;
use std::sync::Arc;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::client::{CallError, Endpoint};
use db::orders::{self as order_db, Order};
use db::schema::{customers, orders, products, stocks, suppliers};
use db::xero::{self as q, Job, JobKind};
use domain::enums::{OrderType, ProductKind, TaxType, XeroState};
use domain::money::Cents;
use domain::payments;
use domain::xero::{self as rules, ContactDraft, DocDraft, DocKind, DocLine, ItemDraft, RecallStep};
use domain::xero_mapping::{self, Mapping};
use db::error::{AppError, AppResult};
use db::Db;

use super::Link;

/// The name on history rows the link writes.
pub const OPERATOR: &str = "Xero link";

/// The target of a customer's balance job: `balance:<customer id>`.
pub const BALANCE_TARGET: &str = "balance:";

/// The target of a company's payments read: `payments:<company id>`.
pub const PAYMENTS_TARGET: &str = "payments:";

/// Pages one payments read reads at most (100,000 invoices changed since the last read);
/// beyond, it stops without moving the cursor and the next read starts again.
const MAX_PAYMENT_PAGES: usize = 1000;

/// The id Xero answers for an element it did not save.
const NIL_ID: &str = "00000000-0000-0000-0000-000000000000";

/// Waits for the budget longer than this put the job back in the queue instead.
const LONGEST_WAIT_SECS: i64 = 20;

/// Runs every job due, moving a manual clock to the next one while any is queued (tests).
pub async fn drain(db: &Db, link: &Arc<Link>) -> AppResult<usize> {
    let mut n = 0;
    loop {
        if run_once(db, link).await?.is_some() {
            n += 1;
            continue;
        }
        match db.run(q::next_due).await? {
            Some(t) if matches!(link.clock, super::Clock::Manual(_)) => link.clock.sleep_until(t).await,
            _ => return Ok(n),
        }
    }
}

/// Claims and runs one due job; its id, or `None` when none is due.
pub async fn run_once(db: &Db, link: &Arc<Link>) -> AppResult<Option<i64>> {
    let Some(job) = claim(db, link).await? else { return Ok(None) };
    let id = job.id;
    execute(db, link, job).await?;
    Ok(Some(id))
}

/// When a running job's heartbeat is older than this, its worker is gone.
pub fn stale_before(link: &Link) -> NaiveDateTime {
    link.clock.now() - link.settings.stale_after
}

/// Whether a job waits: one due, or one whose worker died (a read, so that an idle worker
/// does not take the write lock to find out).
pub async fn any_claimable(db: &Db, link: &Arc<Link>) -> AppResult<bool> {
    let (now, stale) = (link.clock.now(), stale_before(link));
    db.run(move |c| db::jobs::any_claimable(c, &q::QUEUES, now, stale)).await
}

/// When the earliest queued job is due.
pub async fn next_due(db: &Db) -> AppResult<Option<NaiveDateTime>> {
    db.run(q::next_due).await
}

/// Claims the due job whose company waited longest, for this process's worker.
pub async fn claim(db: &Db, link: &Arc<Link>) -> AppResult<Option<Job>> {
    let (now, stale) = (link.clock.now(), stale_before(link));
    let worker = link.worker.clone();
    db.write(move |c| q::claim(c, &worker, now, stale)).await
}

/// Runs a claimed job to its end and writes the outcome on the sheet.
pub async fn execute(db: &Db, link: &Arc<Link>, job: Job) -> AppResult<()> {
    let mut w = Work { db: db.clone(), link: link.clone(), job, endpoint: std::sync::Mutex::new(None), conn: None, mapping: Mapping::default() };
    let outcome = w.run().await;
    w.settle(outcome).await
}

/// How a step of a job ended when it did not succeed.
#[derive(Debug)]
enum Stop {
    /// Xero (or our own rules) refused: the sheet shows why; nothing was created.
    Refused(String),
    /// No answer: try again after a back-off.
    Unknown(String),
    /// The budget or a 429 says not before this time.
    Later(NaiveDateTime),
    /// Another worker took the job over (this one stalled).
    Lost,
    /// The job has nothing left to do (the sheet moved on meanwhile).
    Moot,
}

impl From<AppError> for Stop {
    fn from(e: AppError) -> Self {
        Stop::Unknown(format!("database: {e}"))
    }
}

impl From<CallError> for Stop {
    fn from(e: CallError) -> Self {
        match e {
            CallError::Refused { message, .. } => Stop::Refused(message),
            CallError::Auth(m) => Stop::Refused(format!("Xero did not accept the connection's client id and secret ({m}); check them in Settings.")),
            CallError::Reconnect(m) => Stop::Refused(format!("{m}. Connect to Xero again in Settings › Accounting link, then send again.")),
            CallError::Unknown(m) => Stop::Unknown(m),
            // `call` turns a 429 into `Later` itself.
            CallError::RateLimited { problem, .. } => Stop::Unknown(format!("rate limited ({problem})")),
        }
    }
}

/// What a finished job did.
enum Done {
    /// The sheet is Sent with this Xero id; the history says so, with the note when there is one.
    Sent(String, String),
    /// The sheet is unsent again (history says how).
    Recalled(String),
    /// The recall was refused; the sheet stays Sent with this reason.
    RecallRefused(String),
    /// A balance was read.
    Balance,
    /// The company's payments were read.
    Payments,
}

struct Work {
    db: Db,
    link: Arc<Link>,
    job: Job,
    /// Where and as whom calls go (a code connection's token is renewed mid-job).
    endpoint: std::sync::Mutex<Option<Endpoint>>,
    /// The connection the job runs with.
    conn: Option<q::Connection>,
    /// Where a send posts (read by `run` before a send).
    mapping: Mapping,
}

impl Work {
    fn now(&self) -> NaiveDateTime {
        self.link.clock.now()
    }

    async fn db<T: Send + 'static>(&self, f: impl FnMut(&mut db::DbConn) -> AppResult<T> + Send + 'static) -> Result<T, Stop> {
        Ok(self.db.write(f).await?)
    }

    async fn run(&mut self) -> Result<Done, Stop> {
        let org = self.job.org_id;
        let Some(conn) = self.db(move |c| q::connection(c, org)).await? else {
            return Err(Stop::Refused(q::NOT_CONNECTED.into()));
        };
        let mut ep = super::access::endpoint(&self.db, &self.link, &conn).await?;
        if ep.tenant_id.is_empty() && conn.is_code() {
            return Err(Stop::Refused("Choose the Xero organisation to send to in Settings › Accounting link, then send again.".into()));
        }
        if ep.tenant_id.is_empty() {
            // A connection made before the tenant was kept: read it once (issue 31).
            ep.tenant_id = self.link.client.tenant(&ep).await?.tenant_id;
            let tenant = ep.tenant_id.clone();
            self.db(move |c| q::record_tenant(c, org, &tenant)).await?;
        }
        self.endpoint = std::sync::Mutex::new(Some(ep));
        self.conn = Some(conn.clone());
        match self.job.job_kind() {
            Some(JobKind::Send) => {
                self.mapping = self.mapping(&conn).await?;
                self.send().await
            }
            Some(JobKind::Recall) => self.recall().await,
            Some(JobKind::Balance) => self.balance().await,
            Some(JobKind::Payments) => self.payments().await,
            None => Err(Stop::Moot),
        }
    }

    /// The company's accounts and tax rates, complete and fitting the chart last read, or
    /// the refusal that says what to choose. A connection made before the chart was kept
    /// reads it once and takes the mapping it proposes.
    async fn mapping(&self, conn: &q::Connection) -> Result<Mapping, Stop> {
        let (accounts, rates, mapping) = match conn.reading() {
            Some(r) => r,
            None => {
                let rates = xero_mapping::rates_of(&self.call(Method::GET, "/TaxRates", &[], None, None).await?);
                let accounts = xero_mapping::accounts_of(&self.call(Method::GET, "/Accounts", &[], None, None).await?);
                let mapping = conn.mapping().completed(&accounts, &rates);
                let (org, a, r, m) = (self.job.org_id, accounts.clone(), rates.clone(), mapping.clone());
                self.db(move |c| q::record_chart(c, org, &a, &r, &m)).await?;
                (accounts, rates, mapping)
            }
        };
        let problems = mapping.problems(&accounts, &rates);
        if problems.is_empty() {
            Ok(mapping)
        } else {
            Err(Stop::Refused(format!("Xero's accounts and tax rates are not chosen yet ({}) Choose them in Settings › Accounting link, then send again.", problems.join(" "))))
        }
    }

    /// One call within the company's budget; a 429 blocks the company's calls until its
    /// Retry-After and puts the job back until then.
    async fn call(&self, method: Method, path: &str, query: &[(&str, &str)], body: Option<&Value>, key: Option<&str>) -> Result<Value, Stop> {
        for renewed in [false, true] {
            self.take_slot().await?;
            let ep = self.ep()?;
            let answer = self.link.client.call(&ep, method.clone(), path, query, body, key).await;
            if let Some(v) = self.answered(answer, &ep, renewed).await? {
                return Ok(v);
            }
        }
        Err(Stop::Unknown("Xero refused a fresh access token".into()))
    }

    /// A `GET` of records changed since `since` (`If-Modified-Since`), within the budget as [`Work::call`].
    async fn get_since(&self, path: &str, query: &[(&str, &str)], since: Option<&str>) -> Result<Value, Stop> {
        for renewed in [false, true] {
            self.take_slot().await?;
            let ep = self.ep()?;
            let answer = self.link.client.get_changed_since(&ep, path, query, since).await;
            if let Some(v) = self.answered(answer, &ep, renewed).await? {
                return Ok(v);
            }
        }
        Err(Stop::Unknown("Xero refused a fresh access token".into()))
    }

    /// Where and as whom the job's calls go now.
    fn ep(&self) -> Result<Endpoint, Stop> {
        self.endpoint.lock().unwrap_or_else(|e| e.into_inner()).clone().ok_or(Stop::Moot)
    }

    /// Takes a slot of the company's budget, waiting for it when the wait is short.
    async fn take_slot(&self) -> Result<(), Stop> {
        let org = self.job.org_id;
        loop {
            let now = self.now();
            match self.db(move |c| q::take_call(c, org, now)).await? {
                Ok(()) => break,
                Err(at) if (at - now).num_seconds() > LONGEST_WAIT_SECS => return Err(Stop::Later(at)),
                Err(at) => {
                    self.beat().await?;
                    self.link.clock.sleep_until(at).await;
                }
            }
        }
        Ok(())
    }

    /// Sorts a call's answer: the answer, or `None` when a code connection's access token
    /// was refused (it expired at Xero before our copy said) and was renewed for one more
    /// call. A 429 blocks the company's calls until its Retry-After.
    async fn answered(&self, answer: Result<Value, CallError>, ep: &Endpoint, renewed: bool) -> Result<Option<Value>, Stop> {
        let org = self.job.org_id;
        match answer {
            Ok(v) => Ok(Some(v)),
            Err(CallError::RateLimited { wait, problem }) => {
                let until = self.now() + wait;
                tracing::info!("Xero asked company {org} to wait {} s ({problem} limit)", wait.num_seconds());
                self.db(move |c| q::block_calls(c, org, until)).await?;
                Err(Stop::Later(until))
            }
            Err(CallError::Auth(_)) if ep.bearer.is_some() && !renewed => {
                super::access::forget(&self.link, org);
                let conn = self.conn.as_ref().ok_or(Stop::Moot)?;
                let mut fresh = super::access::endpoint(&self.db, &self.link, conn).await?;
                fresh.tenant_id = ep.tenant_id.clone();
                *self.endpoint.lock().unwrap_or_else(|e| e.into_inner()) = Some(fresh);
                Ok(None)
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn beat(&self) -> Result<(), Stop> {
        let (id, worker, now) = (self.job.id, self.link.worker.clone(), self.now());
        if self.db(move |c| q::heartbeat(c, id, &worker, now)).await? { Ok(()) } else { Err(Stop::Lost) }
    }

    async fn order(&self) -> Result<Order, Stop> {
        let (org, id) = (self.job.org_id, self.job.order_id.ok_or(Stop::Moot)?);
        self.db(move |c| order_db::get(c, org, id)).await
    }

    /// The live document Xero holds under `number` (for a purchase: of this contact and with
    /// this total, since a supplier's reference is not unique in Xero), if any.
    async fn find(&self, kind: DocKind, number: &str, contact_id: &str, total: Option<Cents>) -> Result<Option<Value>, Stop> {
        let filter = kind.lookup_filter(number, contact_id);
        let found = self.call(Method::GET, &format!("/{}", kind.collection()), &[("where", &filter)], None, None).await?;
        Ok(found[kind.collection()]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["Status"].as_str().is_some_and(rules::is_live))
            .find(|d| kind.is_sales() || total.is_none_or(|t| d["Total"].as_f64().and_then(rules::cents_of) == Some(t)))
            .cloned())
    }

    async fn send(&mut self) -> Result<Done, Stop> {
        let o = self.order().await?;
        if XeroState::from_i32(o.xero_sent) != Some(XeroState::Sending) {
            return Err(Stop::Moot);
        }
        let kind = OrderType::from_i32(o.order_type).and_then(DocKind::of).ok_or(Stop::Moot)?;
        let oid = o.id;
        let recalls = self.db(move |c| q::recalls_done(c, oid)).await?;
        let number = kind.number_sent(&o.no, recalls, &o.reference);
        let tax = TaxType::from_i32(o.tax_type).unwrap_or_default();
        let contact_id = if kind.is_sales() { self.customer_contact(&o).await? } else { self.supplier_contact(&o).await? };
        let (lines, note) = self.items_and_lines(&o, kind).await?;
        if self.job.outcome_unknown {
            let total = lines.iter().try_fold(Cents::ZERO, |s, l| s.checked_add(l.amount));
            if let Some(doc) = self.find(kind, &number, &contact_id, total).await? {
                return Ok(Done::Sent(doc[kind.id_field()].as_str().unwrap_or_default().to_string(), note));
            }
        }
        // A credit note names the invoice it credits ('Credit for INV-…', issue 32).
        let credit_for = if kind == DocKind::CreditNote {
            let linked = o.clone();
            self.db(move |c| order_db::credited_invoice(c, &linked)).await?.map(|(_, no)| no)
        } else {
            None
        };
        let reference = rules::sales_reference(&o.reference, credit_for.as_deref());
        let currency = (o.currency != domain::currency::AUD).then(|| (o.currency.clone(), domain::currency::Rate(o.exchange_rate)));
        let draft = DocDraft { kind, number, date: o.order_date, due_date: o.due_date, reference, contact_id, tax, lines, currency };
        let body = json!({ kind.collection(): [draft.to_json(&self.mapping).map_err(Stop::Refused)?] });
        let (id, worker, now) = (self.job.id, self.link.worker.clone(), self.now());
        if !self.db(move |c| q::mark_unknown(c, id, &worker, now)).await? {
            return Err(Stop::Lost);
        }
        self.job.outcome_unknown = true;
        let answer = self.save(kind.collection(), &body).await?;
        let saved = &answer[kind.collection()][0];
        if let Some(why) = rules::element_refusal(saved) {
            return Err(Stop::Refused(why));
        }
        match saved[kind.id_field()].as_str().filter(|id| !id.is_empty() && *id != NIL_ID) {
            Some(xero_id) => Ok(Done::Sent(xero_id.to_string(), note)),
            // Not refused, yet no document named: the next attempt looks for it first.
            None => Err(Stop::Unknown(format!("Xero's answer named no {}", kind.id_field()))),
        }
    }

    /// Creates or updates records of `collection` (`PUT`/`POST` with `summarizeErrors=false`,
    /// so that Xero answers each element's own status rather than one refusal for all): the
    /// answer, whose elements the caller reads with [`rules::element_refusal`].
    async fn save(&self, collection: &str, body: &Value) -> Result<Value, Stop> {
        let key = idempotency_key(&self.job.idempotency_key, body);
        let method = if matches!(collection, "Invoices" | "CreditNotes") { Method::PUT } else { Method::POST };
        self.call(method, &format!("/{collection}"), &[("summarizeErrors", "false")], Some(body), Some(&key)).await
    }

    /// The customer's contact: created, or updated when edited since it was last sent.
    async fn customer_contact(&self, o: &Order) -> Result<String, Stop> {
        let (org, cid) = (o.org_id, o.customer_id.ok_or_else(|| Stop::Refused("The sheet has no customer; Xero needs a contact.".into()))?);
        type Row = (String, String, String, String, String, String, String, String, String, String, i32, i32, i32);
        let row: Row = self
            .db(move |c| {
                Ok(customers::table
                    .filter(customers::org_id.eq(org))
                    .find(cid)
                    .select((customers::code, customers::name, customers::email, customers::phone, customers::address, customers::city, customers::state, customers::postal, customers::country, customers::xero_contact_id, customers::version, customers::xero_synced_version, customers::xero_sent))
                    .first::<Row>(c)?)
            })
            .await?;
        let (code, name, email, phone, address, city, region, postal, country, contact_id, version, synced, sent) = row;
        if !contact_id.is_empty() && synced == version && sent == XeroState::Sent.as_i32() {
            return Ok(contact_id);
        }
        let draft = ContactDraft { number: code, name, email, phone, address: address.lines().map(str::to_string).collect(), city, region, postal, country, is_supplier: false };
        let result = self.upsert_contact(&draft, &contact_id).await;
        let (state, id) = match &result {
            Ok(id) => (XeroState::Sent, id.clone()),
            Err(Stop::Refused(_)) => (XeroState::Fail, contact_id.clone()),
            Err(_) => return result,
        };
        self.db(move |c| {
            diesel::update(customers::table.find(cid))
                .set((customers::xero_sent.eq(state.as_i32()), customers::xero_contact_id.eq(&id), customers::xero_synced_version.eq(if state == XeroState::Sent { version } else { synced })))
                .execute(c)?;
            Ok(())
        })
        .await?;
        result.map_err(|e| match e {
            Stop::Refused(m) => Stop::Refused(format!("Customer {}: {m}", draft.number)),
            other => other,
        })
    }

    /// The supplier's contact: created, or updated when changed since it was last sent.
    async fn supplier_contact(&self, o: &Order) -> Result<String, Stop> {
        let (org, sid) = (o.org_id, o.supplier_id.ok_or_else(|| Stop::Refused("The sheet has no supplier; Xero needs a contact.".into()))?);
        type Row = (String, String, String, Option<NaiveDateTime>, NaiveDateTime);
        let (code, name, contact_id, synced_at, updated_at): Row = self
            .db(move |c| {
                Ok(suppliers::table
                    .filter(suppliers::org_id.eq(org))
                    .find(sid)
                    .select((suppliers::code, suppliers::name, suppliers::xero_contact_id, suppliers::xero_synced_at, suppliers::updated_at))
                    .first::<Row>(c)?)
            })
            .await?;
        if !contact_id.is_empty() && synced_at.is_some_and(|s| s >= updated_at) {
            return Ok(contact_id);
        }
        let draft = ContactDraft { number: code.clone(), name, is_supplier: true, ..Default::default() };
        let id = self.upsert_contact(&draft, &contact_id).await.map_err(|e| match e {
            Stop::Refused(m) => Stop::Refused(format!("Supplier {code}: {m}")),
            other => other,
        })?;
        let (keep, now) = (id.clone(), self.now());
        self.db(move |c| {
            diesel::update(suppliers::table.find(sid)).set((suppliers::xero_contact_id.eq(&keep), suppliers::xero_synced_at.eq(Some(now)))).execute(c)?;
            Ok(())
        })
        .await?;
        Ok(id)
    }

    /// The record's contact in Xero, created or brought up to date. One not linked yet is
    /// looked for by its `ContactNumber`, then by its exact name (a business that is both a
    /// customer and a supplier is one contact in Xero, whose names are unique), and only then
    /// created (docs/decisions/xero.md "Contacts").
    async fn upsert_contact(&self, draft: &ContactDraft, known_id: &str) -> Result<String, Stop> {
        let mut id = known_id.to_string();
        if id.is_empty() {
            id = self.find_contact(&format!("ContactNumber=={}", rules::quoted(&draft.number_sent())), |_| true).await?;
        }
        if id.is_empty() && !draft.name.trim().is_empty() {
            let name = draft.name.trim().to_string();
            id = self.find_contact(&format!("Name=={}", rules::quoted(&name)), |c| c["Name"].as_str().is_some_and(|n| n.trim().eq_ignore_ascii_case(&name))).await?;
        }
        let contact = draft.to_json((!id.is_empty()).then_some(id.as_str()));
        let answer = self.save("Contacts", &json!({ "Contacts": [contact] })).await?;
        let saved = &answer["Contacts"][0];
        if let Some(why) = rules::element_refusal(saved) {
            return Err(Stop::Refused(why));
        }
        saved["ContactID"].as_str().filter(|id| !id.is_empty() && *id != NIL_ID).map(str::to_string).ok_or_else(|| Stop::Unknown("Xero's answer had no ContactID".into()))
    }

    /// The id of the first active contact the filter finds that `fits`, or empty.
    async fn find_contact(&self, filter: &str, fits: impl Fn(&Value) -> bool) -> Result<String, Stop> {
        let found = self.call(Method::GET, "/Contacts", &[("where", filter)], None, None).await?;
        Ok(found["Contacts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["ContactStatus"].as_str().is_none_or(|s| s == "ACTIVE"))
            .find(|c| fits(c))
            .and_then(|c| c["ContactID"].as_str())
            .unwrap_or_default()
            .to_string())
    }

    /// The document's lines, after the items of their products exist in Xero as they are now.
    /// With the note for the sheet's history when a line went without its item: a sale (or
    /// a return to the supplier) takes a tracked item out of Xero's stock, and Xero keeps no
    /// negative stock of a tracked item while TyreDesk allows it; a line of a product whose
    /// stock in TyreDesk is below zero is sent as an untracked line on the same account
    /// (docs/decisions/xero.md "Negative stock").
    async fn items_and_lines(&self, o: &Order, kind: DocKind) -> Result<(Vec<DocLine>, String), Stop> {
        let (org, oid) = (o.org_id, o.id);
        let foreign = o.currency != domain::currency::AUD;
        type P = (i64, String, String, i32, i32, i32, i32);
        let (lines, prods, short): (Vec<order_db::Line>, Vec<P>, HashSet<i64>) = self
            .db(move |c| {
                let lines = order_db::lines_of(c, oid)?;
                let ids: Vec<i64> = lines.iter().filter_map(|l| l.product_id).collect();
                let prods = products::table
                    .filter(products::org_id.eq(org))
                    .filter(products::id.eq_any(&ids))
                    .select((products::id, products::code, products::name, products::category, products::version, products::xero_synced_version, products::xero_sent))
                    .load::<P>(c)?;
                let short = if kind.takes_stock() {
                    let rows: Vec<(i64, i64)> = stocks::table.filter(stocks::org_id.eq(org)).filter(stocks::product_id.eq_any(&ids)).select((stocks::product_id, stocks::on_hand)).load(c)?;
                    let mut held: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
                    for (p, n) in rows {
                        let sum = held.entry(p).or_default();
                        *sum = sum.saturating_add(n);
                    }
                    held.into_iter().filter(|(_, n)| *n < 0).map(|(p, _)| p).collect()
                } else {
                    HashSet::new()
                };
                Ok((lines, prods, short))
            })
            .await?;
        let mut stale = Vec::new();
        let mut drafts = std::collections::HashMap::new();
        for (id, code, name, category, version, synced, sent) in &prods {
            let item = ItemDraft::new(code, name, *category == ProductKind::Physical.as_i32());
            if *sent != XeroState::Sent.as_i32() || synced != version {
                stale.push((*id, *version, item.clone()));
            }
            drafts.insert(*id, item);
        }
        for chunk in stale.chunks(50) {
            let body = json!({ "Items": chunk.iter().map(|(_, _, i)| i.to_json(&self.mapping)).collect::<Vec<_>>() });
            let answer = self.save("Items", &body).await?;
            // Every element answers for itself: a refused item stops the sheet with its reason.
            let refusals: Vec<String> = chunk
                .iter()
                .enumerate()
                .filter_map(|(n, (_, _, item))| rules::element_refusal(&answer["Items"][n]).map(|why| format!("Item {}: {why}", item.code)))
                .collect();
            if !refusals.is_empty() {
                return Err(Stop::Refused(refusals.join(" ")));
            }
            let done: Vec<(i64, i32)> = chunk.iter().map(|(id, v, _)| (*id, *v)).collect();
            self.db(move |c| {
                for &(id, v) in &done {
                    diesel::update(products::table.find(id)).set((products::xero_sent.eq(XeroState::Sent.as_i32()), products::xero_synced_version.eq(v))).execute(c)?;
                }
                Ok(())
            })
            .await?;
        }
        let mut untracked: Vec<String> = Vec::new();
        let lines = lines
            .into_iter()
            .map(|l| {
                let mut item = l.product_id.and_then(|p| drafts.get(&p));
                if let Some(i) = item.filter(|i| i.tracked && l.product_id.is_some_and(|p| short.contains(&p))) {
                    if !untracked.contains(&i.code) {
                        untracked.push(i.code.clone());
                    }
                    item = None;
                }
                DocLine {
                    description: l.description,
                    quantity: l.quantity,
                    // A foreign sheet goes in its currency: the supplier's prices (issue 35).
                    price: Cents(if foreign { l.fx_price } else { l.price }),
                    amount: Cents(if foreign { l.fx_amount } else { l.amount }),
                    item_code: item.map(|i| i.code.clone()),
                    tracked: item.is_some_and(|i| i.tracked),
                }
            })
            .collect();
        let note = if untracked.is_empty() {
            String::new()
        } else {
            format!("the lines of {} went without their item, as TyreDesk's stock of it is below zero and Xero keeps no negative stock of a tracked item", untracked.join(", "))
        };
        Ok((lines, note))
    }

    /// The Xero contact the sheet's customer or supplier is linked to (empty when none).
    async fn linked_contact(&self, o: &Order) -> Result<String, Stop> {
        let (org, customer, supplier) = (o.org_id, o.customer_id, o.supplier_id);
        self.db(move |c| {
            let id = match (customer, supplier) {
                (Some(cid), _) => customers::table.filter(customers::org_id.eq(org)).find(cid).select(customers::xero_contact_id).first::<String>(c).optional()?,
                (None, Some(sid)) => suppliers::table.filter(suppliers::org_id.eq(org)).find(sid).select(suppliers::xero_contact_id).first::<String>(c).optional()?,
                (None, None) => None,
            };
            Ok(id.unwrap_or_default())
        })
        .await
    }

    async fn recall(&mut self) -> Result<Done, Stop> {
        let o = self.order().await?;
        if XeroState::from_i32(o.xero_sent) != Some(XeroState::Recalling) {
            return Err(Stop::Moot);
        }
        let kind = OrderType::from_i32(o.order_type).and_then(DocKind::of).ok_or(Stop::Moot)?;
        let path = format!("/{}", kind.collection());
        let doc = if o.xero_id.is_empty() {
            let oid = o.id;
            let recalls = self.db(move |c| q::recalls_done(c, oid)).await?;
            let contact_id = self.linked_contact(&o).await?;
            self.find(kind, &kind.number_sent(&o.no, recalls, &o.reference), &contact_id, None).await?
        } else {
            let found = self.call(Method::GET, &format!("{path}/{}", o.xero_id), &[], None, None).await;
            match found {
                Ok(v) => v[kind.collection()].get(0).cloned(),
                Err(Stop::Refused(_)) => None,
                Err(e) => return Err(e),
            }
        };
        let Some(doc) = doc else {
            return Ok(Done::Recalled("Recalled from Xero (the document was no longer in Xero)".into()));
        };
        let status = doc["Status"].as_str().unwrap_or_default().to_string();
        let id = doc[kind.id_field()].as_str().unwrap_or_default().to_string();
        match rules::recall_step(&status) {
            RecallStep::Gone => Ok(Done::Recalled(format!("Recalled from Xero (already {status} there)"))),
            RecallStep::Refuse => Ok(Done::RecallRefused(format!("Xero cannot void or delete a {status} document; remove its payments in Xero first, then recall again."))),
            RecallStep::Set(to) => {
                let body = json!({ kind.collection(): [{ kind.id_field(): id, "Status": to }] });
                let key = idempotency_key(&self.job.idempotency_key, &body);
                match self.call(Method::POST, &format!("{path}/{id}"), &[], Some(&body), Some(&key)).await {
                    Ok(_) => Ok(Done::Recalled(format!("Recalled from Xero ({to})"))),
                    Err(Stop::Refused(m)) => Ok(Done::RecallRefused(m)),
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// Reads the customer's receivable balance from Xero (the approval guard's credit-limit
    /// rule uses it) and keeps it with the time it was read.
    async fn balance(&mut self) -> Result<Done, Stop> {
        let org = self.job.org_id;
        let cid: i64 = self.job.target.strip_prefix(BALANCE_TARGET).and_then(|s| s.parse().ok()).ok_or(Stop::Moot)?;
        let contact_id: String = self
            .db(move |c| Ok(customers::table.filter(customers::org_id.eq(org)).find(cid).select(customers::xero_contact_id).first::<String>(c)?))
            .await?;
        let balance = if contact_id.is_empty() {
            // Not in Xero yet: nothing is owed there.
            None
        } else {
            let answer = self.call(Method::GET, &format!("/Contacts/{contact_id}"), &[], None, None).await?;
            let outstanding = answer["Contacts"][0]["Balances"]["AccountsReceivable"]["Outstanding"].as_f64().unwrap_or(0.0);
            Some(rules::cents_of(outstanding).ok_or_else(|| Stop::Refused(format!("Xero's balance {outstanding} is out of range.")))?)
        };
        let now = self.now();
        self.db(move |c| {
            let t = customers::table.filter(customers::org_id.eq(org)).find(cid);
            match balance {
                Some(b) => diesel::update(t).set((customers::xero_balance.eq(b.0), customers::xero_balance_at.eq(Some(now)))).execute(c)?,
                None => diesel::update(t).set(customers::xero_balance_at.eq(Some(now))).execute(c)?,
            };
            Ok(())
        })
        .await?;
        Ok(Done::Balance)
    }

    /// Reads the company's sales invoices changed since the last read (`GET /Invoices` with
    /// `If-Modified-Since`, `where=Type=="ACCREC"`, 100 a page while pages are full, each
    /// page one call of the budget) and keeps on each sheet sent as one of them what is due
    /// and paid and the day it was fully paid. The cursor is Xero's own latest
    /// `UpdatedDateUTC` read, so this server's clock never skips a change; a read that finds
    /// nothing keeps it. The first read (no cursor) reads every sales invoice once; a
    /// company with no invoice sent makes no call.
    async fn payments(&mut self) -> Result<Done, Stop> {
        let org = self.job.org_id;
        let cursor = self.db(move |c| q::payments_cursor(c, org)).await?;
        if cursor.is_none() && !self.db(move |c| order_db::any_invoice_sent(c, org)).await? {
            return Ok(Done::Payments);
        }
        let header = cursor.map(payments::if_modified_since);
        let mut latest = cursor;
        let mut complete = false;
        for page in 1..=MAX_PAYMENT_PAGES {
            let number = page.to_string();
            let answer = self.get_since("/Invoices", &[("where", "Type==\"ACCREC\""), ("page", &number)], header.as_deref()).await?;
            let docs = answer["Invoices"].as_array().cloned().unwrap_or_default();
            for d in &docs {
                if let Some(t) = d["UpdatedDateUTC"].as_str().and_then(payments::parse_ms_date) {
                    latest = Some(latest.map_or(t, |l| l.max(t)));
                }
            }
            let reads: Vec<order_db::PaymentRead> = docs.iter().filter_map(payment_of).collect();
            let now = self.now();
            self.db(move |c| {
                for r in &reads {
                    order_db::record_payment(c, org, r, now)?;
                }
                Ok(())
            })
            .await?;
            if docs.len() < payments::PAGE_SIZE {
                complete = true;
                break;
            }
            self.beat().await?;
        }
        match latest.filter(|_| complete) {
            Some(t) => self.db(move |c| q::record_payments_cursor(c, org, t)).await?,
            None if !complete => tracing::warn!("Xero payments of company {org}: more than {MAX_PAYMENT_PAGES} pages changed; the next read starts again"),
            None => {}
        }
        Ok(Done::Payments)
    }

    /// Writes the outcome: on the sheet (state, error, history) and on the job.
    async fn settle(&mut self, outcome: Result<Done, Stop>) -> AppResult<()> {
        let job = self.job.clone();
        let worker = self.link.worker.clone();
        let now = self.now();
        let kind = job.job_kind();
        let sending = kind == Some(JobKind::Send);
        if let Err(Stop::Unknown(m)) = &outcome {
            tracing::warn!("Xero job {} (attempt {}): {m}", job.id, job.attempts + 1);
        }
        let result = self
            .db
            .write(move |c| {
                let sheet = |c: &mut db::DbConn, from: XeroState, to: XeroState, xero_id: Option<&str>, error: &str, event: &str| -> AppResult<bool> {
                    let Some(oid) = job.order_id else { return Ok(false) };
                    let t = orders::table.filter(orders::id.eq(oid)).filter(orders::org_id.eq(job.org_id)).filter(orders::xero_sent.eq(from.as_i32()));
                    let n = match xero_id {
                        Some(id) => diesel::update(t).set((orders::xero_sent.eq(to.as_i32()), orders::xero_id.eq(id), orders::xero_error.eq(error), orders::updated_at.eq(now))).execute(c)?,
                        None => diesel::update(t).set((orders::xero_sent.eq(to.as_i32()), orders::xero_error.eq(error), orders::updated_at.eq(now))).execute(c)?,
                    };
                    if n == 1 {
                        order_db::add_event(c, job.org_id, oid, job.requested_by, OPERATOR, event)?;
                    }
                    Ok(n == 1)
                };
                let (in_flight, before) = if sending { (XeroState::Sending, XeroState::Fail) } else { (XeroState::Recalling, XeroState::Sent) };
                match &outcome {
                    Ok(Done::Sent(id, note)) => {
                        if q::finish(c, job.id, &worker, false, "", true, now)? {
                            let event = if note.is_empty() { "Sent to Xero".to_string() } else { format!("Sent to Xero; {note}") };
                            sheet(c, XeroState::Sending, XeroState::Sent, Some(id), "", &event)?;
                        }
                    }
                    Ok(Done::Recalled(event)) => {
                        if q::finish(c, job.id, &worker, false, "", true, now)? {
                            if sheet(c, XeroState::Recalling, XeroState::Unsent, Some(""), "", event)? {
                                // What was read of the recalled invoice no longer applies.
                                if let Some(oid) = job.order_id {
                                    order_db::forget_payment(c, job.org_id, oid)?;
                                }
                            }
                        }
                    }
                    Ok(Done::RecallRefused(reason)) => {
                        if q::finish(c, job.id, &worker, false, &reason, true, now)? {
                            sheet(c, XeroState::Recalling, XeroState::Sent, None, &reason, &format!("Xero refused the recall: {reason}"))?;
                        }
                    }
                    Ok(Done::Balance | Done::Payments) => {
                        q::finish(c, job.id, &worker, false, "", true, now)?;
                    }
                    Err(Stop::Refused(reason)) => {
                        if q::finish(c, job.id, &worker, true, &reason, true, now)? {
                            let event = if sending { format!("Xero refused the sheet: {reason}") } else { format!("Xero refused the recall: {reason}") };
                            sheet(c, in_flight, before, None, &reason, &event)?;
                        }
                    }
                    Err(Stop::Unknown(m)) if job.attempts + 1 >= rules::MAX_ATTEMPTS => {
                        let reason = format!(
                            "Xero did not answer after {} attempts (last: {m}). {} again to retry; it looks for the document in Xero first.",
                            rules::MAX_ATTEMPTS,
                            if sending { "Send" } else { "Recall" }
                        );
                        if q::finish(c, job.id, &worker, true, &reason, false, now)? {
                            sheet(c, in_flight, before, None, &reason, &format!("Xero did not answer: {m}"))?;
                        }
                    }
                    Err(Stop::Unknown(m)) => {
                        q::retry_at(c, job.id, &worker, now + rules::backoff(job.attempts + 1), true, &m)?;
                    }
                    Err(Stop::Later(at)) => {
                        q::retry_at(c, job.id, &worker, *at, false, "")?;
                    }
                    Err(Stop::Moot) => {
                        q::finish(c, job.id, &worker, false, "", false, now)?;
                    }
                    Err(Stop::Lost) => {}
                }
                Ok(())
            })
            .await;
        self.link.bell.notify_one();
        result
    }
}

/// What an invoice of `GET /Invoices` says of its payments: a voided or deleted one owes
/// nothing to show.
fn payment_of(d: &Value) -> Option<order_db::PaymentRead> {
    let xero_id = d["InvoiceID"].as_str().filter(|id| !id.is_empty() && *id != NIL_ID)?.to_string();
    if !d["Status"].as_str().is_some_and(rules::is_live) {
        return Some(order_db::PaymentRead { xero_id, amount_due: None, amount_paid: None, paid_on: None });
    }
    Some(order_db::PaymentRead {
        xero_id,
        amount_due: d["AmountDue"].as_f64().and_then(rules::cents_of),
        amount_paid: d["AmountPaid"].as_f64().and_then(rules::cents_of),
        paid_on: d["FullyPaidOnDate"].as_str().and_then(payments::parse_ms_date).map(|t| t.date()),
    })
}

/// The key of one request: the job's key and a digest of the body, so a retry of the same
/// request is answered from Xero's cache, and a changed body (the sheet edited between
/// attempts) is a new request rather than a refused reuse.
fn idempotency_key(job_key: &str, body: &Value) -> String {
    let digest = Sha256::digest(body.to_string().as_bytes());
    let mut key = format!("{job_key}-{}", hex::encode(&digest[..8]));
    key.truncate(128);
    key
}
