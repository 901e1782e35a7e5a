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

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use chrono::{NaiveDate, NaiveDateTime};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The time the fake runs on, shared with the code under test.
pub type Clock = Arc<dyn Fn() -> NaiveDateTime + Send + Sync>;

/// The client id and secret `tyredesk xero-fake` accepts.
pub const CLI_CLIENT_ID: &str = "fake-client-id";
pub const CLI_CLIENT_SECRET: &str = "fake-client-secret";

const MINUTE_LIMIT: usize = 60;
const DAY_LIMIT: u32 = 5000;
const CONCURRENT_LIMIT: u32 = 5;
const IDEMPOTENCY_MINUTES: i64 = 6;

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
    hang_next: Option<Duration>,
    lock_date: Option<NaiveDate>,
    payments: HashMap<String, f64>,
    log: Vec<Logged>,
}

struct Inner {
    client_id: String,
    client_secret: String,
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
}

impl Answer {
    fn new(status: u16, body: Value) -> Self {
        Self { status, body, headers: Vec::new(), hang: None }
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
        Self { inner: Arc::new(Inner { client_id: client_id.into(), client_secret: client_secret.into(), clock, state: Mutex::new(State::default()) }) }
    }

    fn st(&self) -> MutexGuard<'_, State> {
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> NaiveDateTime {
        (self.inner.clock)()
    }

    /// The router (every path goes through one handler).
    pub fn router(&self) -> Router {
        let me = self.clone();
        Router::new().fallback(move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
            let me = me.clone();
            async move { me.handle(method, uri, headers, body).await }
        })
    }

    /// Binds `addr`, serves in a spawned task, answers the bound address.
    pub async fn spawn(&self, addr: SocketAddr) -> std::io::Result<SocketAddr> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        let router = self.router();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Ok(bound)
    }

    /// The next API call answers `status` with `body` (and `Retry-After`), doing nothing else.
    pub fn fail_next(&self, status: u16, body: Value, retry_after: Option<u64>) {
        self.st().fail_next = Some((status, body, retry_after));
    }

    /// The next create of an invoice or credit note is stored, then answered after `hang`.
    pub fn hang_after_commit_next(&self, hang: Duration) {
        self.st().hang_next = Some(hang);
    }

    /// Documents dated on or before `date` are refused (None removes the lock).
    pub fn set_lock_date(&self, date: Option<NaiveDate>) {
        self.st().lock_date = date;
    }

    /// Records a payment on the document with this number: it can no longer be voided or deleted.
    pub fn add_payment(&self, number: &str, amount: f64) {
        let mut st = self.st();
        *st.payments.entry(number.to_string()).or_default() += amount;
        for d in st.invoices.iter_mut().filter(|d| d["InvoiceNumber"] == number) {
            let paid = d["AmountPaid"].as_f64().unwrap_or(0.0) + amount;
            d["AmountPaid"] = json!(round2(paid));
            d["AmountDue"] = json!(round2(d["Total"].as_f64().unwrap_or(0.0) - paid));
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

    /// Every request answered, oldest first.
    pub fn requests(&self) -> Vec<Logged> {
        self.st().log.clone()
    }

    /// `tyredesk xero-fake`: serves on `bind` until Ctrl-C, after printing the settings to paste.
    pub async fn run_cli(bind: SocketAddr) -> std::io::Result<()> {
        let fake = Self::new(CLI_CLIENT_ID, CLI_CLIENT_SECRET);
        let listener = tokio::net::TcpListener::bind(bind).await?;
        let addr = listener.local_addr()?;
        println!("A Xero stand-in ('Demo Company (AU)') is running on http://{addr}. Start TyreDesk with TYREDESK_XERO_STANDIN=1, then in Settings › Accounting link:");
        println!("  Client id      {CLI_CLIENT_ID}");
        println!("  Client secret  {CLI_CLIENT_SECRET}");
        println!("  Identity URL   http://{addr}");
        println!("  API URL        http://{addr}/api.xro/2.0");
        println!("What was created: GET http://{addr}/api.xro/2.0/Invoices (with a bearer token from /connect/token). Ctrl-C stops it; nothing is kept.");
        axum::serve(listener, fake.router()).with_graceful_shutdown(async { let _ = tokio::signal::ctrl_c().await; }).await
    }

    async fn handle(&self, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
        let at = self.now();
        let path = uri.path().to_string();
        let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_string);
        let answer = if path == "/connect/token" && method == Method::POST {
            self.token(&headers, &body)
        } else if let Some(rest) = path.strip_prefix("/api.xro/2.0/") {
            self.api(&method, rest, uri.query().unwrap_or(""), &headers, &body, key.as_deref()).await
        } else {
            Answer::new(404, json!({"Title": "NotFound"}))
        };
        // Logged before a hang: a client that gives up drops this future.
        self.st().log.push(Logged { at, method: method.to_string(), path, status: answer.status, idempotency_key: key });
        if let Some(h) = answer.hang {
            tokio::time::sleep(h).await;
        }
        let mut res = (StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR), axum::Json(answer.body)).into_response();
        for (k, v) in answer.headers {
            if let Ok(v) = HeaderValue::from_str(&v) {
                res.headers_mut().insert(k, v);
            }
        }
        res
    }

    fn token(&self, headers: &HeaderMap, body: &[u8]) -> Answer {
        let form = String::from_utf8_lossy(body);
        let grant_ok = form.split('&').any(|p| p == "grant_type=client_credentials");
        let creds = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Basic ")).and_then(base64_decode).and_then(|b| String::from_utf8(b).ok());
        let expected = format!("{}:{}", self.inner.client_id, self.inner.client_secret);
        if !grant_ok {
            return Answer::new(400, json!({"error": "unsupported_grant_type"}));
        }
        if creds.as_deref() != Some(expected.as_str()) {
            return Answer::new(400, json!({"error": "invalid_client"}));
        }
        let token = random_id();
        self.st().tokens.insert(token.clone(), self.now() + chrono::Duration::minutes(30));
        Answer::new(200, json!({"access_token": token, "expires_in": 1800, "token_type": "Bearer", "scope": "accounting.transactions accounting.contacts accounting.settings"}))
    }

    /// Checks the token and the limits, then runs the call; the concurrency slot is held
    /// until the answer is ready (including a hang).
    async fn api(&self, method: &Method, rest: &str, query: &str, headers: &HeaderMap, body: &[u8], key: Option<&str>) -> Answer {
        let now = self.now();
        let bearer = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
        {
            let mut st = self.st();
            if st.tokens.get(bearer).is_none_or(|exp| *exp <= now) {
                return Answer::new(401, json!({"Title": "Unauthorized", "Status": 401, "Detail": "AuthenticationUnsuccessful"}));
            }
            if let Some(refusal) = st.take_slot(now) {
                return refusal;
            }
        }
        let mut answer = self.call(method, rest, query, body, key, now);
        {
            let mut st = self.st();
            st.in_flight = st.in_flight.saturating_sub(1);
            let (min_left, day_left) = (MINUTE_LIMIT.saturating_sub(st.minute.len()), DAY_LIMIT.saturating_sub(st.day.map_or(0, |d| d.1)));
            answer.headers.push(("X-MinLimit-Remaining", min_left.to_string()));
            answer.headers.push(("X-DayLimit-Remaining", day_left.to_string()));
        }
        answer
    }

    fn call(&self, method: &Method, rest: &str, query: &str, body: &[u8], key: Option<&str>, now: NaiveDateTime) -> Answer {
        let mut st = self.st();
        if let Some((status, b, retry)) = st.fail_next.take() {
            let mut a = Answer::new(status, b);
            if let Some(r) = retry {
                a.headers.push(("Retry-After", r.to_string()));
            }
            return a;
        }
        let writes = matches!(*method, Method::PUT | Method::POST);
        let digest = hex::encode(Sha256::digest(body));
        if let (true, Some(k)) = (writes, key) {
            if k.len() > 128 {
                return Answer::new(400, json!({"Type": "IdempotencyException", "Message": "Idempotency-Key must be 128 characters or less."}));
            }
            st.idempotent.retain(|_, v| now - v.3 < chrono::Duration::minutes(IDEMPOTENCY_MINUTES));
            if let Some((d, status, b, _)) = st.idempotent.get(k) {
                if *d != digest {
                    return Answer::new(400, json!({"Type": "IdempotencyException", "Message": "The Idempotency-Key was used with a different request body."}));
                }
                return Answer::new(*status, b.clone());
            }
        }
        let segs: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
        let parsed: Result<Value, Answer> = if writes {
            serde_json::from_slice(body).map_err(|e| Answer::new(400, json!({"ErrorNumber": 14, "Type": "PostDataInvalidException", "Message": format!("Invalid JSON: {e}")})))
        } else {
            Ok(Value::Null)
        };
        let mut answer = match parsed {
            Err(a) => a,
            Ok(b) => st.route(method, &segs, query, &b, now),
        };
        if writes && answer.status == 200 && matches!(segs.first(), Some(&"Invoices") | Some(&"CreditNotes")) {
            answer.hang = st.hang_next.take();
        }
        if let (true, Some(k)) = (writes, key) {
            st.idempotent.insert(k.to_string(), (digest, answer.status, answer.body.clone(), now));
        }
        answer
    }
}

/// What differs between invoices and credit notes.
#[derive(Clone, Copy)]
struct DocKind {
    coll: &'static str,
    id: &'static str,
    number: &'static str,
    types: [&'static str; 2],
    /// The type whose numbers must be unique.
    unique: &'static str,
    unique_message: &'static str,
}

const INVOICES: DocKind = DocKind { coll: "Invoices", id: "InvoiceID", number: "InvoiceNumber", types: ["ACCREC", "ACCPAY"], unique: "ACCREC", unique_message: "Invoice # must be unique." };
const CREDIT_NOTES: DocKind =
    DocKind { coll: "CreditNotes", id: "CreditNoteID", number: "CreditNoteNumber", types: ["ACCRECCREDIT", "ACCPAYCREDIT"], unique: "ACCRECCREDIT", unique_message: "Credit Note # must be unique." };

/// The chart of accounts (code, name, type).
const ACCOUNTS: &[(&str, &str, &str)] = &[
    ("200", "Sales", "REVENUE"),
    ("300", "Purchases", "DIRECTCOSTS"),
    ("310", "Cost of Goods Sold", "DIRECTCOSTS"),
    ("610", "Accounts Receivable", "CURRENT"),
    ("630", "Inventory", "INVENTORY"),
    ("800", "Accounts Payable", "CURRLIAB"),
    ("820", "GST", "CURRLIAB"),
];

/// Tax rates (name, type, rate).
const TAX_RATES: &[(&str, &str, f64)] = &[
    ("GST on Income", "OUTPUT", 10.0),
    ("GST on Expenses", "INPUT", 10.0),
    ("GST Free Income", "EXEMPTOUTPUT", 0.0),
    ("GST Free Expenses", "EXEMPTEXPENSES", 0.0),
    ("BAS Excluded", "BASEXCLUDED", 0.0),
];

fn account_type(code: &str) -> Option<&'static str> {
    ACCOUNTS.iter().find(|a| a.0 == code).map(|a| a.2)
}

fn tax_rate(tax_type: &str) -> Option<f64> {
    TAX_RATES.iter().find(|t| t.1 == tax_type).map(|t| t.2)
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn ok(coll: &str, items: Vec<Value>, now: NaiveDateTime) -> Answer {
    Answer::new(200, json!({"Id": random_id(), "Status": "OK", "ProviderName": "TyreDesk fake", "DateTimeUTC": ms_date(now), coll: items}))
}

fn invalid(elements: Vec<(Value, Vec<String>)>) -> Answer {
    let els: Vec<Value> = elements
        .into_iter()
        .map(|(mut el, msgs)| {
            el["ValidationErrors"] = Value::Array(msgs.into_iter().map(|m| json!({"Message": m})).collect());
            el
        })
        .collect();
    Answer::new(400, json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": "A validation exception occurred", "Elements": els}))
}

fn ms_date(t: NaiveDateTime) -> String {
    format!("/Date({}+0000)/", t.and_utc().timestamp_millis())
}

fn parse_day(v: &Value) -> Option<NaiveDate> {
    let s = v.as_str()?;
    NaiveDate::parse_from_str(s.get(..10)?, "%Y-%m-%d").ok()
}

fn random_id() -> String {
    let b: [u8; 16] = rand::random();
    let h = hex::encode(b);
    format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
}

fn elements(body: &Value, coll: &str) -> Vec<Value> {
    body.get(coll).and_then(Value::as_array).cloned().unwrap_or_else(|| if body.is_object() && body.get(coll).is_none() { vec![body.clone()] } else { vec![] })
}

impl State {
    /// Takes a call from the minute, day and concurrency limits, or answers the 429.
    fn take_slot(&mut self, now: NaiveDateTime) -> Option<Answer> {
        while self.minute.front().is_some_and(|t| now - *t >= chrono::Duration::seconds(60)) {
            self.minute.pop_front();
        }
        let limited = |problem: &str, wait: i64| {
            let mut a = Answer::new(429, json!({"Title": "Too Many Requests", "Detail": format!("{problem} rate limit exceeded")}));
            a.headers.push(("Retry-After", wait.max(1).to_string()));
            a.headers.push(("X-Rate-Limit-Problem", problem.to_string()));
            a
        };
        if self.in_flight >= CONCURRENT_LIMIT {
            return Some(limited("concurrent", 1));
        }
        let today = now.date();
        let day_count = self.day.filter(|d| d.0 == today).map_or(0, |d| d.1);
        if day_count >= DAY_LIMIT {
            let midnight = today.succ_opt().unwrap_or(today).and_hms_opt(0, 0, 0).unwrap_or(now);
            return Some(limited("day", (midnight - now).num_seconds()));
        }
        if self.minute.len() >= MINUTE_LIMIT {
            let oldest = self.minute.front().copied().unwrap_or(now);
            let wait = (oldest + chrono::Duration::seconds(60) - now).num_milliseconds();
            return Some(limited("minute", (wait + 999) / 1000));
        }
        self.minute.push_back(now);
        self.day = Some((today, day_count + 1));
        self.in_flight += 1;
        None
    }

    fn route(&mut self, method: &Method, segs: &[&str], query: &str, body: &Value, now: NaiveDateTime) -> Answer {
        let filter = match where_of(query) {
            Ok(f) => f,
            Err(m) => return Answer::new(400, json!({"Type": "QueryParseException", "Message": m})),
        };
        match (method.as_str(), segs) {
            ("GET", ["Organisation"]) => ok("Organisations", vec![json!({"OrganisationID": "00000000-0000-0000-0000-00000000a001", "Name": "Demo Company (AU)", "CountryCode": "AU", "BaseCurrency": "AUD"})], now),
            ("GET", ["TaxRates"]) => ok(
                "TaxRates",
                TAX_RATES.iter().map(|(n, t, r)| json!({"Name": n, "TaxType": t, "Status": "ACTIVE", "EffectiveRate": r, "DisplayTaxRate": r})).collect(),
                now,
            ),
            ("GET", ["Accounts"]) => ok("Accounts", ACCOUNTS.iter().map(|(c, n, t)| json!({"Code": c, "Name": n, "Type": t, "Status": "ACTIVE"})).collect(), now),
            ("GET", ["Contacts"]) => ok("Contacts", self.contacts.iter().filter(|c| filter.matches(c)).cloned().collect(), now),
            ("GET", ["Contacts", id]) => match self.contacts.iter().find(|c| c["ContactID"] == *id).cloned() {
                Some(mut c) => {
                    c["Balances"] = self.balances(id, now.date());
                    ok("Contacts", vec![c], now)
                }
                None => Answer::new(404, json!({"Title": "NotFound", "Detail": "Resource not found"})),
            },
            ("PUT", ["Contacts"]) => self.save_contacts(body, None, false, now),
            ("POST", ["Contacts"]) => self.save_contacts(body, None, true, now),
            ("POST", ["Contacts", id]) => self.save_contacts(body, Some(id), true, now),
            ("GET", ["Items"]) => ok("Items", self.items.iter().filter(|i| filter.matches(i)).cloned().collect(), now),
            ("GET", ["Items", id]) => match self.items.iter().find(|i| i["ItemID"] == *id || i["Code"] == *id).cloned() {
                Some(i) => ok("Items", vec![i], now),
                None => Answer::new(404, json!({"Title": "NotFound"})),
            },
            ("PUT", ["Items"]) => self.save_items(body, false, now),
            ("POST", ["Items"]) => self.save_items(body, true, now),
            ("GET", [coll]) if *coll == "Invoices" || *coll == "CreditNotes" => {
                let k = if *coll == "Invoices" { INVOICES } else { CREDIT_NOTES };
                let page: usize = query.split('&').find_map(|p| p.strip_prefix("page=")).and_then(|p| p.parse().ok()).unwrap_or(1).max(1);
                let docs: Vec<Value> = self.docs(k).iter().filter(|d| filter.matches(d)).skip((page - 1) * 100).take(100).cloned().collect();
                ok(k.coll, docs, now)
            }
            ("GET", [coll, id]) if *coll == "Invoices" || *coll == "CreditNotes" => {
                let k = if *coll == "Invoices" { INVOICES } else { CREDIT_NOTES };
                match self.docs(k).iter().find(|d| d[k.id] == *id || d[k.number] == *id).cloned() {
                    Some(d) => ok(k.coll, vec![d], now),
                    None => Answer::new(404, json!({"Title": "NotFound"})),
                }
            }
            ("PUT" | "POST", [coll, rest @ ..]) if (*coll == "Invoices" || *coll == "CreditNotes") && rest.len() <= 1 => {
                let k = if *coll == "Invoices" { INVOICES } else { CREDIT_NOTES };
                self.save_docs(k, body, rest.first().copied(), method == Method::POST, now)
            }
            _ => Answer::new(404, json!({"Title": "NotFound"})),
        }
    }

    fn docs(&self, k: DocKind) -> &Vec<Value> {
        if k.coll == "Invoices" { &self.invoices } else { &self.credit_notes }
    }

    fn docs_mut(&mut self, k: DocKind) -> &mut Vec<Value> {
        if k.coll == "Invoices" { &mut self.invoices } else { &mut self.credit_notes }
    }

    fn balances(&self, contact: &str, today: NaiveDate) -> Value {
        let mut sums = [[0.0f64; 2]; 2];
        let mut add = |side: usize, amount: f64, due: Option<NaiveDate>| {
            sums[side][0] += amount;
            if due.is_some_and(|d| d < today) {
                sums[side][1] += amount;
            }
        };
        for d in self.invoices.iter().chain(self.credit_notes.iter()).filter(|d| d["Contact"]["ContactID"] == contact && d["Status"] == "AUTHORISED") {
            let due = parse_day(&d["DueDateString"]);
            match d["Type"].as_str().unwrap_or("") {
                "ACCREC" => add(0, d["AmountDue"].as_f64().unwrap_or(0.0), due),
                "ACCRECCREDIT" => add(0, -d["RemainingCredit"].as_f64().unwrap_or(0.0), due),
                "ACCPAY" => add(1, d["AmountDue"].as_f64().unwrap_or(0.0), due),
                "ACCPAYCREDIT" => add(1, -d["RemainingCredit"].as_f64().unwrap_or(0.0), due),
                _ => {}
            }
        }
        json!({"AccountsReceivable": {"Outstanding": round2(sums[0][0]), "Overdue": round2(sums[0][1])},
               "AccountsPayable": {"Outstanding": round2(sums[1][0]), "Overdue": round2(sums[1][1])}})
    }

    fn save_contacts(&mut self, body: &Value, path_id: Option<&str>, upsert: bool, now: NaiveDateTime) -> Answer {
        let els = elements(body, "Contacts");
        let mut errors = Vec::new();
        let mut plan = Vec::new();
        for el in &els {
            let id = path_id.map(str::to_string).or_else(|| el["ContactID"].as_str().map(str::to_string)).filter(|_| upsert);
            let existing = id.as_ref().and_then(|id| self.contacts.iter().position(|c| c["ContactID"] == id.as_str()));
            let mut msgs = Vec::new();
            if id.is_some() && existing.is_none() {
                msgs.push("The contact could not be found.".to_string());
            }
            let name = el["Name"].as_str().map(str::trim).unwrap_or("");
            if existing.is_none() && name.is_empty() {
                msgs.push("The contact name must be entered.".into());
            }
            if !name.is_empty() {
                let clash = self.contacts.iter().enumerate().any(|(i, c)| Some(i) != existing && c["Name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)));
                if clash {
                    msgs.push(format!("The contact name {name} is already assigned to another contact. The contact name must be unique across all active contacts."));
                }
            }
            if el["ContactNumber"].as_str().is_some_and(|n| n.chars().count() > 50) {
                msgs.push("The ContactNumber must be 50 characters or less.".into());
            }
            if msgs.is_empty() {
                plan.push((existing, el.clone()));
            } else {
                errors.push((el.clone(), msgs));
            }
        }
        if !errors.is_empty() || els.is_empty() {
            return if els.is_empty() { invalid(vec![(json!({}), vec!["No contacts were sent.".into()])]) } else { invalid(errors) };
        }
        let mut out = Vec::new();
        for (existing, el) in plan {
            let c = match existing {
                Some(i) => {
                    let c = &mut self.contacts[i];
                    for (k, v) in el.as_object().into_iter().flatten().filter(|(k, _)| *k != "ContactID") {
                        c[k] = v.clone();
                    }
                    c["UpdatedDateUTC"] = json!(ms_date(now));
                    c.clone()
                }
                None => {
                    let mut c = el.clone();
                    c["ContactID"] = json!(random_id());
                    c["ContactStatus"] = json!("ACTIVE");
                    c["UpdatedDateUTC"] = json!(ms_date(now));
                    self.contacts.push(c.clone());
                    c
                }
            };
            out.push(c);
        }
        ok("Contacts", out, now)
    }

    fn save_items(&mut self, body: &Value, upsert: bool, now: NaiveDateTime) -> Answer {
        let els = elements(body, "Items");
        let mut errors = Vec::new();
        let mut plan = Vec::new();
        for el in &els {
            let mut msgs = Vec::new();
            let code = el["Code"].as_str().unwrap_or("").trim().to_string();
            if code.is_empty() {
                msgs.push("The Code must be entered.".to_string());
            } else if code.chars().count() > 30 {
                msgs.push("The Code must be 30 characters or less.".into());
            }
            if el["Name"].as_str().is_some_and(|n| n.chars().count() > 50) {
                msgs.push("The Name must be 50 characters or less.".into());
            }
            if let Some(asset) = el["InventoryAssetAccountCode"].as_str() {
                if account_type(asset) != Some("INVENTORY") {
                    msgs.push(format!("Account code '{asset}' is not an inventory asset account."));
                }
                if el["PurchaseDetails"]["COGSAccountCode"].as_str().is_none() {
                    msgs.push("A tracked item needs a cost of goods sold account (PurchaseDetails.COGSAccountCode).".into());
                }
            }
            let existing = self.items.iter().position(|i| (el["ItemID"].is_string() && i["ItemID"] == el["ItemID"]) || i["Code"] == code.as_str());
            if existing.is_some() && !upsert {
                msgs.push(format!("Item code '{code}' already exists."));
            }
            if msgs.is_empty() {
                plan.push((existing, el.clone()));
            } else {
                errors.push((el.clone(), msgs));
            }
        }
        if !errors.is_empty() || els.is_empty() {
            return invalid(if els.is_empty() { vec![(json!({}), vec!["No items were sent.".into()])] } else { errors });
        }
        let mut out = Vec::new();
        for (existing, el) in plan {
            let mut item = match existing {
                Some(i) => self.items[i].clone(),
                None => json!({"ItemID": random_id()}),
            };
            for (k, v) in el.as_object().into_iter().flatten().filter(|(k, _)| *k != "ItemID") {
                item[k] = v.clone();
            }
            item["IsTrackedAsInventory"] = json!(item["InventoryAssetAccountCode"].is_string());
            item["UpdatedDateUTC"] = json!(ms_date(now));
            match existing {
                Some(i) => self.items[i] = item.clone(),
                None => self.items.push(item.clone()),
            }
            out.push(item);
        }
        ok("Items", out, now)
    }

    fn save_docs(&mut self, k: DocKind, body: &Value, path_id: Option<&str>, upsert: bool, now: NaiveDateTime) -> Answer {
        let els = elements(body, k.coll);
        if els.is_empty() {
            return invalid(vec![(json!({}), vec![format!("No {} were sent.", k.coll)])]);
        }
        let mut errors = Vec::new();
        let mut plan: Vec<(Option<usize>, Value)> = Vec::new();
        for el in &els {
            let id = path_id.map(str::to_string).or_else(|| el[k.id].as_str().map(str::to_string)).filter(|_| upsert);
            let result = match id {
                Some(id) => match self.docs(k).iter().position(|d| d[k.id] == id.as_str()) {
                    Some(i) => self.check_change(k, i, el).map(|v| (Some(i), v)),
                    None => Err(vec![format!("{} {id} could not be found.", k.coll)]),
                },
                None => self.build_doc(k, el, &plan, now).map(|v| (None, v)),
            };
            match result {
                Ok(p) => plan.push(p),
                Err(msgs) => errors.push((el.clone(), msgs)),
            }
        }
        if !errors.is_empty() {
            return invalid(errors);
        }
        let mut out = Vec::new();
        for (at, doc) in plan {
            match at {
                Some(i) => self.docs_mut(k)[i] = doc.clone(),
                None => self.docs_mut(k).push(doc.clone()),
            }
            out.push(doc);
        }
        ok(k.coll, out, now)
    }

    /// A status change of an existing document (the only update the link makes).
    fn check_change(&self, k: DocKind, i: usize, el: &Value) -> Result<Value, Vec<String>> {
        let mut doc = self.docs(k)[i].clone();
        let Some(to) = el["Status"].as_str() else { return Ok(doc) };
        let from = doc["Status"].as_str().unwrap_or("DRAFT").to_string();
        if to == from {
            return Ok(doc);
        }
        let allowed = matches!((from.as_str(), to), ("DRAFT" | "SUBMITTED", "DELETED" | "SUBMITTED" | "AUTHORISED") | ("AUTHORISED", "VOIDED"));
        if !allowed {
            return Err(vec![format!("{} not of valid status for modification", if k.coll == "Invoices" { "Invoice" } else { "Credit note" })]);
        }
        let number = doc[k.number].as_str().unwrap_or("").to_string();
        if matches!(to, "DELETED" | "VOIDED") && self.payments.get(&number).is_some_and(|p| *p > 0.0) {
            return Err(vec!["This document cannot be edited as it has a payment or credit note allocated to it.".into()]);
        }
        doc["Status"] = json!(to);
        Ok(doc)
    }

    fn build_doc(&self, k: DocKind, el: &Value, pending: &[(Option<usize>, Value)], now: NaiveDateTime) -> Result<Value, Vec<String>> {
        let mut msgs = Vec::new();
        let ty = el["Type"].as_str().unwrap_or("");
        if !k.types.contains(&ty) {
            msgs.push(format!("The Type field is mandatory and must be {} or {}.", k.types[0], k.types[1]));
        }
        let contact = el["Contact"]["ContactID"].as_str().unwrap_or("");
        if !self.contacts.iter().any(|c| c["ContactID"] == contact) {
            msgs.push("The contact could not be found.".into());
        }
        let date = parse_day(&el["Date"]);
        match date {
            None => msgs.push("A valid Date must be entered (yyyy-MM-dd).".into()),
            Some(d) if self.lock_date.is_some_and(|l| d <= l) => {
                let l = self.lock_date.unwrap_or(d);
                msgs.push(format!("The document date cannot be before the period lock date of {}.", l.format("%-d %b %Y")));
            }
            Some(_) => {}
        }
        let due = if el["DueDate"].is_null() { None } else { parse_day(&el["DueDate"]) };
        let status = el["Status"].as_str().unwrap_or("DRAFT");
        if !matches!(status, "DRAFT" | "SUBMITTED" | "AUTHORISED") {
            msgs.push(format!("Status {status} is not valid for a new document."));
        }
        let number = el[k.number].as_str().unwrap_or("");
        if ty == k.unique && !number.is_empty() {
            let taken = self.docs(k).iter().chain(pending.iter().map(|p| &p.1)).any(|d| d["Type"] == ty && d[k.number] == number);
            if taken {
                msgs.push(k.unique_message.into());
            }
        }
        let lat = el["LineAmountTypes"].as_str().unwrap_or("Exclusive");
        if !matches!(lat, "Exclusive" | "Inclusive" | "NoTax") {
            msgs.push(format!("LineAmountTypes {lat} is not valid."));
        }
        let mut lines = Vec::new();
        let (mut sum_lines, mut sum_tax) = (0.0, 0.0);
        for l in el["LineItems"].as_array().into_iter().flatten() {
            let mut line = l.clone();
            let account = l["AccountCode"].as_str().unwrap_or("");
            match account_type(account) {
                None => msgs.push(format!("Account code '{account}' is not a valid code for this document.")),
                Some("INVENTORY") => {
                    let tracked = l["ItemCode"].as_str().and_then(|c| self.items.iter().find(|i| i["Code"] == c)).is_some_and(|i| i["IsTrackedAsInventory"] == true);
                    if !tracked {
                        msgs.push("You cannot save this transaction using an inventory account type.".into());
                    }
                }
                Some(_) => {}
            }
            if let Some(code) = l["ItemCode"].as_str()
                && !self.items.iter().any(|i| i["Code"] == code)
            {
                msgs.push(format!("Item code '{code}' is not valid."));
            }
            let tax_type = l["TaxType"].as_str().unwrap_or(if ty.starts_with("ACCREC") { "OUTPUT" } else { "INPUT" });
            let rate = match tax_rate(tax_type) {
                Some(r) => r,
                None => {
                    msgs.push(format!("The TaxType code '{tax_type}' does not exist or cannot be used for this type of transaction."));
                    0.0
                }
            };
            let qty = l["Quantity"].as_f64().unwrap_or(1.0);
            let unit = l["UnitAmount"].as_f64().unwrap_or(0.0);
            let amount = l["LineAmount"].as_f64().unwrap_or_else(|| round2(qty * unit));
            let tax = match (lat, l["TaxAmount"].as_f64()) {
                ("NoTax", _) => 0.0,
                (_, Some(t)) => t,
                ("Inclusive", None) => round2(amount * rate / (100.0 + rate)),
                (_, None) => round2(amount * rate / 100.0),
            };
            line["LineItemID"] = json!(random_id());
            line["TaxType"] = json!(tax_type);
            line["LineAmount"] = json!(round2(amount));
            line["TaxAmount"] = json!(round2(tax));
            sum_lines += amount;
            sum_tax += tax;
            lines.push(line);
        }
        if !msgs.is_empty() {
            return Err(msgs);
        }
        let (sub, total) = if lat == "Inclusive" { (sum_lines - sum_tax, sum_lines) } else { (sum_lines, sum_lines + sum_tax) };
        let mut doc = el.clone();
        doc[k.id] = json!(random_id());
        doc["Status"] = json!(status);
        doc["LineAmountTypes"] = json!(lat);
        doc["CurrencyCode"] = json!(el["CurrencyCode"].as_str().unwrap_or("AUD"));
        doc["LineItems"] = Value::Array(lines);
        if let Some(d) = date {
            doc["Date"] = json!(ms_date(d.and_hms_opt(0, 0, 0).unwrap_or(now)));
            doc["DateString"] = json!(format!("{d}T00:00:00"));
        }
        if let Some(d) = due {
            doc["DueDate"] = json!(ms_date(d.and_hms_opt(0, 0, 0).unwrap_or(now)));
            doc["DueDateString"] = json!(format!("{d}T00:00:00"));
        }
        doc["SubTotal"] = json!(round2(sub));
        doc["TotalTax"] = json!(round2(sum_tax));
        doc["Total"] = json!(round2(total));
        if k.coll == "Invoices" {
            doc["AmountDue"] = json!(round2(total));
            doc["AmountPaid"] = json!(0.0);
        } else {
            doc["RemainingCredit"] = json!(round2(total));
        }
        doc["UpdatedDateUTC"] = json!(ms_date(now));
        doc["HasErrors"] = json!(false);
        Ok(doc)
    }
}

/// A parsed `where` filter: conditions joined left to right.
#[derive(Debug, Default)]
struct Filter {
    /// (joined by AND?, field path, equal?, value)
    conds: Vec<(bool, Vec<String>, bool, String)>,
}

impl Filter {
    fn matches(&self, doc: &Value) -> bool {
        let mut result = true;
        for (i, (and, path, eq, value)) in self.conds.iter().enumerate() {
            let mut v = doc;
            for p in path {
                v = &v[p.as_str()];
            }
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            let hit = (text == *value) == *eq;
            result = if i == 0 { hit } else if *and { result && hit } else { result || hit };
        }
        result
    }
}

fn where_of(query: &str) -> Result<Filter, String> {
    let raw = query.split('&').find_map(|p| p.strip_prefix("where="));
    let Some(raw) = raw else { return Ok(Filter::default()) };
    let text: String = serde_urlencoded::from_str::<Vec<(String, String)>>(&format!("w={raw}")).ok().and_then(|v| v.into_iter().next()).map(|(_, v)| v).ok_or("the where filter is not URL-encoded text")?;
    let mut conds = Vec::new();
    let mut rest = text.trim().to_string();
    let mut and = true;
    while !rest.is_empty() {
        let (field, after) = rest.split_once("==").map(|(f, a)| (f, (true, a))).or_else(|| rest.split_once("!=").map(|(f, a)| (f, (false, a)))).ok_or_else(|| format!("cannot read the condition '{rest}'"))?;
        let (eq, after) = after;
        let field = field.trim();
        if field.is_empty() || !field.chars().all(|c| c.is_ascii_alphanumeric() || c == '.') {
            return Err(format!("'{field}' is not a field"));
        }
        let after = after.trim_start();
        let after = after.strip_prefix("guid(").map(|a| a.replacen(')', "", 1)).unwrap_or_else(|| after.to_string());
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            let end = q.find('"').ok_or("a quoted value is not closed")?;
            (q[..end].to_string(), q[end + 1..].to_string())
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            (after[..end].to_string(), after[end..].to_string())
        };
        conds.push((and, field.split('.').map(str::to_string).collect(), eq, value));
        let tail = tail.trim_start();
        rest = if let Some(t) = tail.strip_prefix("AND ") {
            and = true;
            t.to_string()
        } else if let Some(t) = tail.strip_prefix("OR ") {
            and = false;
            t.to_string()
        } else if tail.is_empty() {
            String::new()
        } else {
            return Err(format!("cannot read '{tail}'"));
        };
    }
    Ok(Filter { conds })
}

/// Standard base64 (the Basic authorization header only).
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bytes: Vec<u8> = s.trim().bytes().filter(|b| *b != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Option<Vec<u8>> = chunk.iter().map(|c| val(*c)).collect();
        let v = v?;
        let n = v.iter().enumerate().fold(0u32, |acc, (i, x)| acc | (u32::from(*x) << (18 - 6 * i)));
        let take = match v.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        out.extend_from_slice(&n.to_be_bytes()[1..1 + take]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_filters_read_and_or_and_guid() {
        let f = where_of("where=InvoiceNumber%3D%3D%22INV%201%22%20AND%20Type%3D%3D%22ACCREC%22").unwrap();
        assert!(f.matches(&json!({"InvoiceNumber": "INV 1", "Type": "ACCREC"})));
        assert!(!f.matches(&json!({"InvoiceNumber": "INV 1", "Type": "ACCPAY"})));
        let g = where_of("where=Contact.ContactID%3D%3Dguid(%22abc%22)%20OR%20Status!%3D%22VOIDED%22").unwrap();
        assert!(g.matches(&json!({"Contact": {"ContactID": "abc"}, "Status": "VOIDED"})));
        assert!(!g.matches(&json!({"Contact": {"ContactID": "x"}, "Status": "VOIDED"})));
        assert!(where_of("where=Name%3E%3D1").is_err());
    }

    #[test]
    fn basic_credentials_decode() {
        assert_eq!(base64_decode("Y2lkOmNzZWNyZXQ=").as_deref(), Some(&b"cid:csecret"[..]));
        assert_eq!(base64_decode("!!"), None);
    }

    #[test]
    fn the_minute_limit_refuses_the_61st_call_until_the_first_leaves_the_window() {
        let mut st = State::default();
        let t0 = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap().and_hms_opt(9, 0, 0).unwrap();
        for i in 0..60 {
            assert!(st.take_slot(t0 + chrono::Duration::milliseconds(i * 100)).is_none());
            st.in_flight = 0;
        }
        let refused = st.take_slot(t0 + chrono::Duration::seconds(10)).expect("the 61st");
        assert_eq!(refused.status, 429);
        assert!(refused.headers.iter().any(|(k, v)| *k == "Retry-After" && v == "50"));
        assert!(st.take_slot(t0 + chrono::Duration::seconds(60)).is_none());
    }
}
