//! A small stand-in for the Xero Accounting API (the endpoints the link uses, issue 12): the
//! client-credentials token, Organisation, TaxRates, Accounts, Contacts, Items, Invoices and
//! CreditNotes with `where` filters, Xero's validation rules that matter to us (unique
//! invoice numbers, inventory account only through tracked items, status changes, payments,
//! a period lock date), `Idempotency-Key` replay, and the per-organisation limits (60 calls
//! in any minute, 5,000 a day, 5 at once) answered with 429 and `Retry-After`.
//!
//! The test suite runs it in-process on the app's clock; `tyredesk xero-fake` runs it on
//! loopback for demos. Knobs let a test refuse the next call, or store a document and then
//! answer too late. It keeps everything in memory and is not a Xero emulator beyond this.
//!
//! Here: the fake's types, its construction, the knobs and what a test reads back. `store`
//! keeps the organisation's records and applies Xero's rules to changes; `routes` serves HTTP
//! and answers each call (the token, the bearer check, the idempotent replay, the route table);
//! `checks` holds the limits every call is held to and the parsing of `where` filters and
//! Basic credentials.

mod checks;
mod identity;
pub mod description;
mod routes;
mod store;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use chrono::{NaiveDate, NaiveDateTime};
use serde_json::{Value, json};

use store::round2;

/// The time the fake runs on, shared with the code under test.
pub type Clock = Arc<dyn Fn() -> NaiveDateTime + Send + Sync>;

/// The client id and secret `tyredesk xero-fake` accepts.
pub const CLI_CLIENT_ID: &str = "fake-client-id";
pub const CLI_CLIENT_SECRET: &str = "fake-client-secret";

/// A request the fake answered.
#[derive(Clone, Debug)]
pub struct Logged {
    /// Clock time at arrival.
    pub at: NaiveDateTime,
    pub method: String,
    /// Path without the query.
    pub path: String,
    pub status: u16,
    pub idempotency_key: Option<String>,
    /// The query as sent, and the `If-Modified-Since` header, if any.
    pub query: String,
    pub if_modified_since: Option<String>,
}

#[derive(Default)]
struct State {
    tokens: HashMap<String, NaiveDateTime>,
    minute: VecDeque<NaiveDateTime>,
    day: Option<(NaiveDate, u32)>,
    in_flight: u32,
    invoices: Vec<Value>,
    credit_notes: Vec<Value>,
    contacts: Vec<Value>,
    items: Vec<Value>,
    idempotent: HashMap<String, (String, u16, Value, NaiveDateTime)>,
    fail_next: Option<(u16, Value, Option<u64>)>,
    refuse_element_next: Option<(String, String)>,
    /// Quantities on hand of tracked items by code, when a test asked the fake to keep them.
    stock: Option<HashMap<String, f64>>,
    /// The chart of accounts (code, name, type) when a test replaced the AU default.
    accounts: Option<Vec<(String, String, String)>>,
    hang_next: Option<Duration>,
    lock_date: Option<NaiveDate>,
    /// The foreign currencies the organisation has added (multi-currency); none by default.
    currencies: Vec<String>,
    payments: HashMap<String, f64>,
    log: Vec<Logged>,
    /// Where calls and answers differed from Xero's API description ("METHOD path: …").
    violations: Vec<String>,
    /// "Connect to Xero": codes, refresh tokens, organisations.
    identity: identity::Identity,
}

struct Inner {
    client_id: String,
    client_secret: String,
    /// The organisation's id, as `GET /connections` answers it and `xero-tenant-id` names it.
    tenant_id: String,
    clock: Clock,
    state: Mutex<State>,
}

/// The fake organisation "Demo Company (AU)".
#[derive(Clone)]
pub struct FakeXero {
    inner: Arc<Inner>,
}

/// One answer: status, JSON body, extra headers.
struct Answer {
    status: u16,
    body: Value,
    headers: Vec<(&'static str, String)>,
    /// Stored something, then waits this long before answering.
    hang: Option<Duration>,
    /// A page instead of JSON (the consent screen).
    html: Option<String>,
}

impl Answer {
    fn new(status: u16, body: Value) -> Self {
        Self { status, body, headers: Vec::new(), hang: None, html: None }
    }

    fn html(status: u16, page: String) -> Self {
        Self { html: Some(page), ..Self::new(status, Value::Null) }
    }
}

fn now_utc() -> NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

impl FakeXero {
    /// A fake organisation accepting `client_id`/`client_secret`, timed by the real UTC clock.
    pub fn new(client_id: &str, client_secret: &str) -> Self {
        Self::with_clock(client_id, client_secret, Arc::new(now_utc))
    }

    /// The same, timed by `clock` (rate limits, tokens, the request log).
    pub fn with_clock(client_id: &str, client_secret: &str, clock: Clock) -> Self {
        Self { inner: Arc::new(Inner { client_id: client_id.into(), client_secret: client_secret.into(), tenant_id: store::random_id(), clock, state: Mutex::new(State::default()) }) }
    }

    fn st(&self) -> MutexGuard<'_, State> {
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> NaiveDateTime {
        (self.inner.clock)()
    }

    /// The next API call answers `status` with `body` (and `Retry-After`), doing nothing else.
    pub fn fail_next(&self, status: u16, body: Value, retry_after: Option<u64>) {
        self.st().fail_next = Some((status, body, retry_after));
    }

    /// The next create or update of `collection` (Contacts, Items, Invoices, CreditNotes)
    /// answers as Xero does with `summarizeErrors=false` when it refuses an element: 200,
    /// each element with `StatusAttributeString: "ERROR"`, `message` in its
    /// `ValidationErrors` and the nil id; nothing is stored.
    pub fn refuse_next_element(&self, collection: &str, message: &str) {
        self.st().refuse_element_next = Some((collection.to_string(), message.to_string()));
    }

    /// Keeps tracked items' quantities on hand from now on: an authorised bill or sales credit
    /// note adds, an invoice or bill credit note takes away, and one that would take a
    /// tracked item below zero is refused (what Xero is understood to do; not in its
    /// description, docs/decisions/xero.md "Negative stock").
    pub fn keep_stock(&self) {
        self.st().stock = Some(HashMap::new());
    }

    /// A tracked item's quantity on hand (when stock is kept).
    pub fn on_hand(&self, code: &str) -> Option<f64> {
        self.st().stock.as_ref().map(|s| s.get(code).copied().unwrap_or(0.0))
    }

    /// Replaces the chart of accounts (code, name, type): an organisation whose chart is not
    /// the AU default.
    pub fn set_accounts(&self, accounts: &[(&str, &str, &str)]) {
        self.st().accounts = Some(accounts.iter().map(|(c, n, t)| (c.to_string(), n.to_string(), t.to_string())).collect());
    }

    /// The next create of an invoice or credit note is stored, then answered after `hang`.
    pub fn hang_after_commit_next(&self, hang: Duration) {
        self.st().hang_next = Some(hang);
    }

    /// Adds a foreign currency to the organisation, as a plan with multi-currency allows;
    /// without it a document in that currency is refused.
    pub fn add_currency(&self, code: &str) {
        self.st().currencies.push(code.to_string());
    }

    /// Documents dated on or before `date` are refused (None removes the lock).
    pub fn set_lock_date(&self, date: Option<NaiveDate>) {
        self.st().lock_date = date;
    }

    /// Records a payment on the document with this number: it can no longer be voided or
    /// deleted, its `UpdatedDateUTC` moves to now, and once nothing is due it is `PAID` with
    /// today as its `FullyPaidOnDate`.
    pub fn add_payment(&self, number: &str, amount: f64) {
        let now = self.now();
        let mut st = self.st();
        *st.payments.entry(number.to_string()).or_default() += amount;
        for d in st.invoices.iter_mut().filter(|d| d["InvoiceNumber"] == number) {
            let paid = round2(d["AmountPaid"].as_f64().unwrap_or(0.0) + amount);
            let due = round2(d["Total"].as_f64().unwrap_or(0.0) - paid);
            d["AmountPaid"] = json!(paid);
            d["AmountDue"] = json!(due);
            d["UpdatedDateUTC"] = json!(store::ms_date(now));
            if due <= 0.0 {
                d["Status"] = json!("PAID");
                d["FullyPaidOnDate"] = json!(store::ms_date(now.date().and_hms_opt(0, 0, 0).unwrap_or(now)));
            }
        }
    }

    /// Invoices as the API answers them, in creation order.
    pub fn invoices(&self) -> Vec<Value> {
        self.st().invoices.clone()
    }

    /// Credit notes, in creation order.
    pub fn credit_notes(&self) -> Vec<Value> {
        self.st().credit_notes.clone()
    }

    /// Contacts, in creation order.
    pub fn contacts(&self) -> Vec<Value> {
        self.st().contacts.clone()
    }

    /// Items, in creation order.
    pub fn items(&self) -> Vec<Value> {
        self.st().items.clone()
    }

    /// The organisation's tenant id.
    pub fn tenant_id(&self) -> String {
        self.inner.tenant_id.clone()
    }

    /// Every request answered, oldest first.
    pub fn requests(&self) -> Vec<Logged> {
        self.st().log.clone()
    }

    /// Where the calls received and the answers given differed from Xero's API description
    /// (`openapi/xero_accounting.yaml`), oldest first.
    pub fn violations(&self) -> Vec<String> {
        self.st().violations.clone()
    }
}
