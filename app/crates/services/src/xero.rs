//! The accounting link's use cases (issue 12): connect, test and disconnect a company's
//! Xero; SendXero and XeroRecall of one sheet; Batch SendXero; a customer's balance. Each
//! write runs inside the caller's transaction; the calls to Xero are the worker's, except
//! Connect and Test, which a person waits for.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde_json::Value;

use super::orders::ensure;
use super::reference_data::only_approver;
use domain::Actor;
use db::orders::{self as order_db};
use db::schema::{customers, orders};
use db::xero::{self as q, JobKind, NewConnection, NewJob};
use db::DbConn;
use domain::enums::{OrderStatus, OrderType, XeroState};
use domain::permissions;
use domain::status::Action;
use domain::xero_mapping::{self as mapping, Account, Mapping, Rate};
use db::error::{AppError, AppResult};
use xero::client::{CallError, Client, Endpoint};
use xero::secret::SecretKey;
use crate::Core;

/// Xero's production addresses, used when a connection names none.
pub const IDENTITY_URL: &str = "https://identity.xero.com";
pub const API_URL: &str = "https://api.xero.com/api.xro/2.0";

/// The answer to Batch SendXero (spec §2.9).
pub const BATCH_QUEUED: &str = "Preparing for Sending, please CHECK in sheet list pages";

/// Sheets one batch may queue: about a day of Xero's 5,000 calls at two to four calls a sheet.
pub const BATCH_MAX: i64 = 2000;

/// The connection as `GET /api/xero/connection` and the settings screen show it; never the secret.
#[derive(Debug, Clone, serde::Serialize, Default)]
pub struct Status {
    pub connected: bool,
    #[serde(rename = "organisationName")]
    pub organisation_name: String,
    #[serde(rename = "clientId")]
    pub client_id: String,
    #[serde(rename = "identityUrl")]
    pub identity_url: String,
    #[serde(rename = "apiUrl")]
    pub api_url: String,
    #[serde(rename = "taxTypes")]
    pub tax_types: Vec<String>,
    #[serde(rename = "testedAt")]
    pub tested_at: Option<NaiveDateTime>,
    #[serde(rename = "connectedAt")]
    pub connected_at: Option<NaiveDateTime>,
    /// Jobs of the company still queued or running.
    pub pending: i64,
    /// Where sheets post, what keeps it from being used (nothing is sent until this is
    /// empty), and the chart and rates it was checked against.
    pub mapping: Mapping,
    pub problems: Vec<String>,
    pub accounts: Vec<Account>,
    pub rates: Vec<Rate>,
    /// How the connection was made: "customConnection" or "connectToXero".
    pub grant: String,
    /// Why the connection must be made again (empty while Xero accepts it).
    pub reconnect: String,
    /// The organisations Xero offered a "Connect to Xero" connection, and whether one is
    /// still to be picked.
    pub organisations: Vec<q::Tenant>,
    #[serde(rename = "chooseOrganisation")]
    pub choose_organisation: bool,
}

/// A connection whose chart was never read (made before it was kept).
const NOT_READ: &str = "Xero's chart of accounts and tax rates have not been read yet: Test connection reads them.";

/// The actor's company's connection status (role 4: it names the client id and addresses).
pub fn status(conn: &mut DbConn, actor: &Actor) -> AppResult<Status> {
    only_approver(actor.role)?;
    let org = actor.org_id;
    let Some(c) = q::connection(conn, org)? else { return Ok(Status::default()) };
    let (accounts, rates, mapping) = c.reading().unwrap_or_default();
    let problems = if c.chart.is_empty() { vec![NOT_READ.to_string()] } else { mapping.problems(&accounts, &rates) };
    Ok(Status {
        grant: if c.is_code() { "connectToXero" } else { "customConnection" }.into(),
        reconnect: c.reconnect.clone(),
        organisations: c.tenant_list(),
        choose_organisation: c.is_code() && c.tenant_id.is_empty(),
        mapping,
        problems,
        accounts,
        rates,
        connected: true,
        organisation_name: c.xero_org_name,
        client_id: c.client_id,
        identity_url: c.identity_url,
        api_url: c.api_url,
        tax_types: c.tax_types.split(',').filter(|t| !t.is_empty()).map(str::to_string).collect(),
        tested_at: c.tested_at,
        connected_at: Some(c.connected_at),
        pending: q::active_count(conn, org)?,
    })
}

/// Connection settings as entered.
#[derive(Debug, Clone, Default)]
pub struct ConnectionInput {
    pub client_id: String,
    pub client_secret: String,
    pub identity_url: Option<String>,
    pub api_url: Option<String>,
}

/// Checked settings: the URLs defaulted and trimmed of a trailing slash.
#[derive(Debug, Clone)]
pub struct CheckedConnection {
    pub client_id: String,
    pub client_secret: String,
    pub identity_url: String,
    pub api_url: String,
}


/// Refuses XeroRecall and Batch SendXero to anyone `permissions::may_recall_or_batch_send` does not name.
fn may_recall_or_batch(actor: &Actor) -> AppResult<()> {
    if permissions::may_recall_or_batch_send(actor.role, actor.is_acct) { Ok(()) } else { Err(AppError::forbidden(permissions::RECALL_OR_BATCH_REFUSED)) }
}

/// A base URL as entered, parsed by the URL standard's parser (the same one the HTTP client
/// uses, so what is checked is what is called). Without the stand-in mode only Xero's own
/// address is accepted; with it (`TYREDESK_XERO_STANDIN=1`, docs/decisions/xero.md) also an address
/// on this machine's loopback, plain http allowed there. Never a user name or password, a
/// query or a fragment.
fn check_url(field: &str, raw: Option<&str>, default: &str, standin: bool) -> AppResult<String> {
    let text = raw.map(str::trim).filter(|u| !u.is_empty()).unwrap_or(default);
    if text.len() > 300 || text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(AppError::field(field, "Enter a web address of at most 300 characters, without spaces."));
    }
    let url = reqwest::Url::parse(text).map_err(|_| AppError::field(field, "Enter a web address such as https://api.xero.com/api.xro/2.0."))?;
    if !url.username().is_empty() || url.password().is_some() || url.query().is_some() || url.fragment().is_some() {
        return Err(AppError::field(field, "The address may not carry a user name, password, query or fragment."));
    }
    let normal = url.as_str().trim_end_matches('/').to_string();
    if normal == default {
        return Ok(normal);
    }
    if !standin {
        return Err(AppError::field(field, format!("Only Xero's own address is accepted here ({default}); leave the field empty to use it.")));
    }
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    if !matches!(url.scheme(), "http" | "https") || !loopback {
        return Err(AppError::field(field, format!("Use Xero's own address ({default}) or a stand-in on this machine (127.0.0.1, [::1] or localhost).")));
    }
    Ok(normal)
}

/// Checks the settings: id and secret present and of sane length, the URLs as [`check_url`].
pub fn check_input(input: &ConnectionInput, standin: bool) -> AppResult<CheckedConnection> {
    let id = input.client_id.trim();
    if id.is_empty() {
        return Err(AppError::field("clientId", "Enter the client id of the Custom Connection."));
    }
    if id.len() > 100 || id.chars().any(char::is_whitespace) {
        return Err(AppError::field("clientId", "The client id is at most 100 characters, without spaces."));
    }
    let secret = input.client_secret.trim();
    if secret.is_empty() {
        return Err(AppError::field("clientSecret", "Enter the client secret of the Custom Connection."));
    }
    if secret.len() > 200 {
        return Err(AppError::field("clientSecret", "The client secret is at most 200 characters."));
    }
    Ok(CheckedConnection {
        client_id: id.to_string(),
        client_secret: secret.to_string(),
        identity_url: check_url("identityUrl", input.identity_url.as_deref(), IDENTITY_URL, standin)?,
        api_url: check_url("apiUrl", input.api_url.as_deref(), API_URL, standin)?,
    })
}

/// What Test connection read from Xero.
#[derive(Debug, Clone)]
pub struct Tested {
    /// The organisation's id in Xero (`xero-tenant-id`).
    pub tenant_id: String,
    pub organisation_name: String,
    /// Active tax types, comma-separated.
    pub tax_types: String,
    /// The chart's active accounts and the active tax rates.
    pub accounts: Vec<Account>,
    pub rates: Vec<Rate>,
}

impl Tested {
    /// What to keep, with `mapping` completed from the chart and rates read.
    fn keep(&self, mapping: &Mapping, f: impl FnOnce(&q::Reading<'_>) -> AppResult<()>) -> AppResult<()> {
        let mapping = mapping.completed(&self.accounts, &self.rates);
        f(&q::Reading { tenant_id: &self.tenant_id, name: &self.organisation_name, tax_types: &self.tax_types, accounts: &self.accounts, rates: &self.rates, mapping: &mapping })
    }

    /// Charges the test's calls to the company's budget, so that the worker's calls right
    /// after it stay under Xero's limit.
    fn charge(&self, conn: &mut DbConn, org: i64, now: NaiveDateTime) -> AppResult<()> {
        q::charge_calls(conn, org, TEST_CALLS, now)
    }
}

/// The Accounting API calls a test makes (Organisation, TaxRates, Accounts).
const TEST_CALLS: i32 = 3;

/// What a failed test says: what failed, never what the other side answered.
fn said(e: CallError) -> AppError {
    match e {
        CallError::Auth(_) => AppError::field("clientSecret", "Xero did not accept this client id and secret."),
        CallError::Reconnect(m) => AppError::Conflict { message: format!("{m}. Connect to Xero again."), code: Some("xero_reconnect"), reasons: vec![] },
        CallError::Refused { status, .. } => AppError::Conflict { message: format!("Test connection failed: the address answered {status}; check the addresses."), code: Some("xero_unreachable"), reasons: vec![] },
        CallError::RateLimited { .. } => AppError::Conflict { message: "Test connection failed: Xero's call limit was reached; try again in a minute.".into(), code: Some("xero_unreachable"), reasons: vec![] },
        CallError::Unknown(m) => AppError::Conflict { message: format!("Test connection failed: Xero did not answer ({m})."), code: Some("xero_unreachable"), reasons: vec![] },
    }
}

/// Signs in to Xero with the settings as entered (never a cached token), reads the
/// organisation the Custom Connection reaches, and [`read`]s it.
pub async fn test(client: &Client, org: i64, c: &CheckedConnection) -> AppResult<Tested> {
    let mut ep = Endpoint { org_id: org, client_id: c.client_id.clone(), secret: c.client_secret.clone(), identity_url: c.identity_url.clone(), api_url: c.api_url.clone(), tenant_id: String::new(), bearer: None };
    client.sign_in(&ep).await.map_err(said)?;
    ep.tenant_id = client.tenant(&ep).await.map_err(said)?.tenant_id;
    read(client, &ep).await
}

/// Reads the organisation's name, its active tax rates and its chart of accounts.
async fn read(client: &Client, ep: &Endpoint) -> AppResult<Tested> {
    let orgs = client.call(ep, reqwest::Method::GET, "/Organisation", &[], None, None).await.map_err(said)?;
    let name = orgs["Organisations"][0]["Name"].as_str().unwrap_or_default().to_string();
    let rates = mapping::rates_of(&client.call(ep, reqwest::Method::GET, "/TaxRates", &[], None, None).await.map_err(said)?);
    let accounts = mapping::accounts_of(&client.call(ep, reqwest::Method::GET, "/Accounts", &[], None, None).await.map_err(said)?);
    let types: Vec<&str> = rates.iter().map(|r| r.tax_type.as_str()).collect();
    Ok(Tested { tenant_id: ep.tenant_id.clone(), organisation_name: name.chars().take(200).collect(), tax_types: types.join(","), accounts, rates })
}

/// Stores a tested connection for the actor's company (role 4), replacing any earlier one.
pub fn save(conn: &mut DbConn, actor: &Actor, key: &SecretKey, c: &CheckedConnection, tested: &Tested, now: NaiveDateTime) -> AppResult<()> {
    only_approver(actor.role)?;
    let sealed = key.seal(actor.org_id, &c.client_secret);
    // A new connection of the same company keeps the mapping chosen before.
    let before = q::connection(conn, actor.org_id)?.map(|c| c.mapping()).unwrap_or_default();
    q::save_connection(conn, &NewConnection { org_id: actor.org_id, client_id: &c.client_id, secret_sealed: &sealed, identity_url: &c.identity_url, api_url: &c.api_url, connected_by: actor.user_id }, now)?;
    tested.keep(&before, |r| q::record_test(conn, actor.org_id, r, now))?;
    tested.charge(conn, actor.org_id, now)
}

/// The stored settings with the secret opened, for Test connection.
pub fn stored(conn: &mut DbConn, actor: &Actor, key: &SecretKey) -> AppResult<CheckedConnection> {
    only_approver(actor.role)?;
    let c = q::connection(conn, actor.org_id)?.ok_or_else(|| AppError::Conflict { message: q::NOT_CONNECTED.into(), code: Some("xero_not_configured"), reasons: vec![] })?;
    let secret = key.open(actor.org_id, &c.secret_sealed).ok_or_else(|| AppError::Conflict {
        message: "The stored client secret cannot be opened with this server's key; connect again with the client secret.".into(),
        code: Some("xero_secret_unreadable"),
        reasons: vec![],
    })?;
    Ok(CheckedConnection { client_id: c.client_id, client_secret: secret, identity_url: c.identity_url, api_url: c.api_url })
}

/// Keeps a new test's reading.
pub fn record_test(conn: &mut DbConn, actor: &Actor, tested: &Tested, now: NaiveDateTime) -> AppResult<()> {
    only_approver(actor.role)?;
    let before = q::connection(conn, actor.org_id)?.map(|c| c.mapping()).unwrap_or_default();
    tested.keep(&before, |r| q::record_test(conn, actor.org_id, r, now))?;
    tested.charge(conn, actor.org_id, now)
}

/// Keeps the accounts and tax rates the approver chose (the settings screen's mapping and
/// `PUT /api/xero/mapping`), once each names an active account or rate of the chart last
/// read that fits it; otherwise nothing changes and each setting says what is wrong.
pub fn save_mapping(conn: &mut DbConn, actor: &Actor, input: &Value, now: NaiveDateTime) -> AppResult<Mapping> {
    only_approver(actor.role)?;
    let c = q::connection(conn, actor.org_id)?.ok_or_else(|| AppError::Conflict { message: q::NOT_CONNECTED.into(), code: Some("xero_not_configured"), reasons: vec![] })?;
    let Some((accounts, rates, _)) = c.reading() else {
        return Err(AppError::Conflict { message: NOT_READ.into(), code: Some("xero_chart_not_read"), reasons: vec![] });
    };
    let m = Mapping::from_input(input).map_err(AppError::BadRequest)?;
    let errors: std::collections::BTreeMap<String, String> =
        mapping::SLOTS.iter().filter_map(|s| m.problems(&accounts, &rates).into_iter().find(|p| p.starts_with(s.label)).map(|p| (s.field.to_string(), p))).collect();
    if !errors.is_empty() {
        return Err(AppError::Validation { message: "Choose an account or tax rate of your Xero for each setting.".into(), errors });
    }
    q::save_mapping(conn, actor.org_id, &m, now)?;
    Ok(m)
}

/// Disconnects: the connection is removed and the company's pending jobs end — a sheet on
/// its way to Xero becomes Fail (it may be sent again after connecting), one being
/// recalled stays Sent. `false` when there was no connection.
pub fn disconnect(conn: &mut DbConn, actor: &Actor, now: NaiveDateTime) -> AppResult<bool> {
    only_approver(actor.role)?;
    const WHY: &str = "Xero was disconnected before this was done.";
    let jobs = q::cancel_active(conn, actor.org_id, WHY, now)?;
    for j in jobs {
        let Some(oid) = j.order_id else { continue };
        let (from, to) = if j.job_kind() == Some(JobKind::Send) { (XeroState::Sending, XeroState::Fail) } else { (XeroState::Recalling, XeroState::Sent) };
        let n = diesel::update(orders::table.filter(orders::id.eq(oid)).filter(orders::org_id.eq(actor.org_id)).filter(orders::xero_sent.eq(from.as_i32())))
            .set((orders::xero_sent.eq(to.as_i32()), orders::xero_error.eq(WHY), orders::updated_at.eq(now)))
            .execute(conn)?;
        if n == 1 {
            order_db::add_event(conn, actor.org_id, oid, Some(actor.user_id), &actor.name, WHY)?;
        }
    }
    q::delete_connection(conn, actor.org_id)
}

fn require_connection(conn: &mut DbConn, org: i64) -> AppResult<()> {
    if q::connection(conn, org)?.is_none() {
        return Err(AppError::Conflict { message: q::NOT_CONNECTED.into(), code: Some("xero_not_configured"), reasons: vec![] });
    }
    Ok(())
}

/// SendXero / XeroRecall of one sheet: checked against the status machine, then the sheet
/// becomes Sending… (Recalling…) and a job is queued. Without a connection nothing changes.
pub fn request(conn: &mut DbConn, actor: &Actor, id: i64, action: Action, now: NaiveDateTime) -> AppResult<()> {
    if action == Action::XeroRecall {
        may_recall_or_batch(actor)?;
    }
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, action)?;
    require_connection(conn, actor.org_id)?;
    let (kind, from, to, event) = match action {
        Action::SendXero => (JobKind::Send, vec![XeroState::Unsent.as_i32(), XeroState::Fail.as_i32()], XeroState::Sending, "SendXero"),
        Action::XeroRecall => (JobKind::Recall, vec![XeroState::Sent.as_i32()], XeroState::Recalling, "XeroRecall"),
        _ => return Err(AppError::NotFound),
    };
    queue_sheet(conn, actor, &o, kind, &from, to, now)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, event)
}

fn queue_sheet(conn: &mut DbConn, actor: &Actor, o: &order_db::Order, kind: JobKind, from: &[i32], to: XeroState, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(orders::table.filter(orders::id.eq(o.id)).filter(orders::org_id.eq(actor.org_id)).filter(orders::xero_sent.eq_any(from)))
        .set((orders::xero_sent.eq(to.as_i32()), orders::xero_error.eq(""), orders::updated_at.eq(now)))
        .execute(conn)?;
    if n == 0 {
        return Err(AppError::Conflict { message: format!("Sheet {} changed meanwhile; reload it.", o.no), code: Some("stale"), reasons: vec![] });
    }
    let unknown = kind == JobKind::Send && q::outcome_was_unknown(conn, o.id)?;
    let target = format!("order:{}", o.id);
    let added = q::enqueue(conn, &NewJob { org_id: actor.org_id, target: &target, order_id: Some(o.id), kind, requested_by: Some(actor.user_id), outcome_unknown: unknown }, now)?;
    if !added {
        return Err(AppError::Conflict { message: format!("Sheet {} is already on its way to Xero.", o.no), code: Some("xero_busy"), reasons: vec![] });
    }
    Ok(true)
}

/// What Batch SendXero asks: sheet types among 1, 2, 4, 5 and a date range.
#[derive(Debug, Clone)]
pub struct Batch {
    pub types: Vec<OrderType>,
    pub from: NaiveDate,
    pub to: NaiveDate,
}

/// Reads `{dateRange: [from, to], sheets: [1, 2, 4, 5]}`.
pub fn parse_batch(body: &Value) -> AppResult<Batch> {
    let obj = body.as_object().ok_or_else(|| AppError::field("sheets", "Send {\"dateRange\": [from, to], \"sheets\": [1, 2, 4, 5]}."))?;
    let (from, to) = domain::reports::range(obj, "dateRange")
        .map_err(|e| AppError::field(&e.field, e.message))?
        .ok_or_else(|| AppError::field("dateRange", "Choose the date range."))?;
    let raw = match obj.get("sheets") {
        Some(Value::Array(a)) => a.clone(),
        Some(v @ (Value::Number(_) | Value::String(_))) => vec![v.clone()],
        _ => return Err(AppError::field("sheets", "Choose the sheets to send.")),
    };
    if raw.is_empty() || raw.len() > 4 {
        return Err(AppError::field("sheets", "Choose the sheets to send: Invoices, Credit Notes, Bills or Bill CreditNotes."));
    }
    let mut types = Vec::new();
    for v in raw {
        let n = v.as_i64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()));
        let t = n.and_then(|n| i32::try_from(n).ok()).and_then(OrderType::from_i32).filter(|t| t.syncs_to_xero());
        let Some(t) = t else {
            return Err(AppError::field("sheets", "Only Invoices (1), Credit Notes (2), Bills (4) and Bill CreditNotes (5) go to Xero."));
        };
        if !types.contains(&t) {
            types.push(t);
        }
    }
    Ok(Batch { types, from, to })
}

/// Queues every approved, unsent (or failed) sheet of the types dated in the range; the
/// number queued. More than [`BATCH_MAX`] is refused whole, asking for a shorter range.
pub fn batch(conn: &mut DbConn, actor: &Actor, b: &Batch, now: NaiveDateTime) -> AppResult<usize> {
    may_recall_or_batch(actor)?;
    require_connection(conn, actor.org_id)?;
    let types: Vec<i32> = b.types.iter().map(|t| t.as_i32()).collect();
    let eligible = orders::table
        .filter(orders::org_id.eq(actor.org_id))
        .filter(orders::order_type.eq_any(&types))
        .filter(orders::order_date.between(b.from, b.to))
        .filter(orders::status.eq_any([OrderStatus::Approved.as_i32(), OrderStatus::Closed.as_i32()]))
        .filter(orders::xero_sent.eq_any([XeroState::Unsent.as_i32(), XeroState::Fail.as_i32()]));
    let count: i64 = eligible.clone().count().get_result(conn)?;
    if count > BATCH_MAX {
        return Err(AppError::field("dateRange", format!("{count} sheets match; a batch sends at most {BATCH_MAX}. Choose a shorter date range.")));
    }
    let ids: Vec<i64> = eligible.select(orders::id).order((orders::order_date.asc(), orders::id.asc())).load(conn)?;
    let mut queued = 0;
    for id in ids {
        let o = order_db::get(conn, actor.org_id, id)?;
        if ensure(&o, Action::SendXero).is_err() {
            continue;
        }
        queue_sheet(conn, actor, &o, JobKind::Send, &[XeroState::Unsent.as_i32(), XeroState::Fail.as_i32()], XeroState::Sending, now)?;
        order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "SendXero (batch)")?;
        queued += 1;
    }
    Ok(queued)
}

/// A customer's balance is read again when older than this.
pub const BALANCE_FRESH: chrono::Duration = chrono::Duration::minutes(15);

/// Whether the company is connected, the customer in Xero, and its balance older than
/// [`BALANCE_FRESH`] (a read, so opening a sheet writes only when a refresh is due).
pub fn balance_is_stale(conn: &mut DbConn, org: i64, customer: i64, now: NaiveDateTime) -> AppResult<bool> {
    if q::connection(conn, org)?.is_none() {
        return Ok(false);
    }
    let row: Option<(String, Option<NaiveDateTime>)> = customers::table
        .filter(customers::org_id.eq(org))
        .find(customer)
        .select((customers::xero_contact_id, customers::xero_balance_at))
        .first(conn)
        .optional()?;
    Ok(row.is_some_and(|(contact, at)| !contact.is_empty() && at.is_none_or(|t| now - t >= BALANCE_FRESH)))
}

/// Queues a balance refresh of the customer when the company is connected, the customer
/// is in Xero, and the kept balance is older than [`BALANCE_FRESH`]; `true` when queued.
pub fn refresh_balance(conn: &mut DbConn, org: i64, customer: i64, now: NaiveDateTime) -> AppResult<bool> {
    if !balance_is_stale(conn, org, customer, now)? {
        return Ok(false);
    }
    let target = format!("{}{customer}", xero::worker::BALANCE_TARGET);
    q::enqueue(conn, &NewJob { org_id: org, target: &target, order_id: None, kind: JobKind::Balance, requested_by: None, outcome_unknown: false }, now)
}

/// Customers whose balance the hourly refresh reads, per company: one call each, so 50 an
/// hour (1,200 a day) leaves most of Xero's 5,000 daily calls to sending.
pub const BALANCES_PER_HOUR: i64 = 50;

/// The hourly refresh: per connected company, the [`BALANCES_PER_HOUR`] customers in Xero
/// whose balance was read longest ago (never read first), when stale.
pub fn refresh_all_balances(conn: &mut DbConn, now: NaiveDateTime) -> AppResult<usize> {
    use db::schema::xero_connections;
    let orgs: Vec<i64> = xero_connections::table.select(xero_connections::org_id).load(conn)?;
    let mut n = 0;
    for org in orgs {
        let ids: Vec<i64> = customers::table
            .filter(customers::org_id.eq(org))
            .filter(customers::xero_contact_id.ne(""))
            .order((customers::xero_balance_at.is_not_null(), customers::xero_balance_at.asc(), customers::id.asc()))
            .limit(BALANCES_PER_HOUR)
            .select(customers::id)
            .load(conn)?;
        for id in ids {
            if refresh_balance(conn, org, id, now)? {
                n += 1;
            }
        }
    }
    Ok(n)
}

/// Queues the read of the company's payments (one active per company: `false` when one is
/// already queued or running). Nothing when the company is not connected.
pub fn queue_payments(conn: &mut DbConn, org: i64, requested_by: Option<i64>, now: NaiveDateTime) -> AppResult<bool> {
    if q::connection(conn, org)?.is_none() {
        return Ok(false);
    }
    let target = format!("{}{org}", xero::worker::PAYMENTS_TARGET);
    q::enqueue(conn, &NewJob { org_id: org, target: &target, order_id: None, kind: JobKind::Payments, requested_by, outcome_unknown: false }, now)
}

/// `POST /api/xero/payments`: an approver or an accountant asks for the payments to be read
/// now; `true` when queued, `false` when a read is already on its way.
pub fn request_payments(conn: &mut DbConn, actor: &Actor, now: NaiveDateTime) -> AppResult<bool> {
    if !permissions::may_recall_or_batch_send(actor.role, actor.is_acct) {
        return Err(AppError::forbidden(PAYMENTS_REFUSED));
    }
    require_connection(conn, actor.org_id)?;
    queue_payments(conn, actor.org_id, Some(actor.user_id), now)
}

/// The refusal of `POST /api/xero/payments` to anyone but an approver or an accountant.
pub const PAYMENTS_REFUSED: &str = "Only an approver or an accountant may ask Xero for payments.";

/// The hourly read of payments: one job per connected company; the number queued.
pub fn refresh_all_payments(conn: &mut DbConn, now: NaiveDateTime) -> AppResult<usize> {
    use db::schema::xero_connections;
    let orgs: Vec<i64> = xero_connections::table.select(xero_connections::org_id).load(conn)?;
    let mut n = 0;
    for org in orgs {
        if queue_payments(conn, org, None, now)? {
            n += 1;
        }
    }
    Ok(n)
}

/// Connects the actor's company: signs in to Xero with `input`, reads the organisation and
/// its tax rates, and only then stores the settings, the secret sealed (the settings
/// screen's Connect and `PUT /api/xero/connection`).
pub async fn connect(core: &Core, actor: &Actor, input: ConnectionInput) -> AppResult<Status> {
    only_approver(actor.role)?;
    let checked = check_input(&input, core.xero.settings.standin)?;
    let tested = test(&core.xero.client, actor.org_id, &checked).await?;
    let (a, key, now) = (actor.clone(), core.xero.key.clone(), core.xero.clock.now());
    core
        .db
        .write(move |c| {
            save(c, &a, &key, &checked, &tested, now)?;
            status(c, &a)
        })
        .await
}

/// Test connection: reads the organisation and tax rates again with the stored settings
/// (the settings screen's Test and `POST /api/xero/connection/test`).
pub async fn retest(core: &Core, actor: &Actor) -> AppResult<Status> {
    only_approver(actor.role)?;
    let org = actor.org_id;
    let conn = core.db.run(move |c| q::connection(c, org)).await?;
    let tested = match conn {
        Some(conn) if conn.is_code() => {
            let ep = xero::access::endpoint(&core.db, &core.xero, &conn).await.map_err(said)?;
            if ep.tenant_id.is_empty() {
                return Err(AppError::Conflict { message: CHOOSE_ORGANISATION.into(), code: Some("xero_choose_organisation"), reasons: vec![] });
            }
            read(&core.xero.client, &ep).await?
        }
        _ => {
            let (a, key) = (actor.clone(), core.xero.key.clone());
            let stored = core.db.run(move |c| stored(c, &a, &key)).await?;
            test(&core.xero.client, actor.org_id, &stored).await?
        }
    };
    let (a, now) = (actor.clone(), core.xero.clock.now());
    core
        .db
        .write(move |c| {
            record_test(c, &a, &tested, now)?;
            status(c, &a)
        })
        .await
}

/// A code connection that reaches several organisations and has none picked yet.
pub const CHOOSE_ORGANISATION: &str = "Choose the Xero organisation to send to in Settings › Accounting link.";

/// The page Xero sends the approver's browser back to after Connect to Xero (its redirect
/// URI is this below the server's public address).
pub const CALLBACK_PATH: &str = "/settings/xero/callback";

/// How long a sign-in at Xero may take, from leaving TyreDesk to coming back.
const SIGN_IN_MINUTES: i64 = 10;

/// "Connect to Xero" as entered: the app's client id and (for a web app) secret, and in
/// stand-in mode the three addresses.
#[derive(Debug, Clone, Default)]
pub struct CodeInput {
    pub client_id: String,
    pub client_secret: String,
    pub login_url: Option<String>,
    pub identity_url: Option<String>,
    pub api_url: Option<String>,
}

/// Starts "Connect to Xero" (role 4): keeps the sign-in under way (its state, the PKCE
/// verifier and the secret sealed, for ten minutes) and answers the address at Xero to send
/// the approver's browser to. `redirect_uri` is TyreDesk's `/settings/xero/callback` as
/// the browser reaches it.
pub async fn start_code_flow(core: &Core, actor: &Actor, input: &CodeInput, redirect_uri: &str) -> AppResult<String> {
    only_approver(actor.role)?;
    let standin = core.xero.settings.standin;
    let id = input.client_id.trim();
    if id.is_empty() || id.len() > 100 || id.chars().any(char::is_whitespace) {
        return Err(AppError::field("clientId", "Enter the client id of your Xero app (at most 100 characters, without spaces)."));
    }
    let secret = input.client_secret.trim();
    if secret.len() > 200 {
        return Err(AppError::field("clientSecret", "The client secret is at most 200 characters."));
    }
    let login_url = check_url("loginUrl", input.login_url.as_deref(), xero::auth::LOGIN_URL, standin)?;
    let identity_url = check_url("identityUrl", input.identity_url.as_deref(), IDENTITY_URL, standin)?;
    let api_url = check_url("apiUrl", input.api_url.as_deref(), API_URL, standin)?;
    let flow = xero::auth::Flow { client_id: id.into(), secret: None, login_url: login_url.clone(), identity_url: identity_url.clone(), redirect_uri: redirect_uri.into() };
    let started = xero::auth::start(&flow).map_err(|e| AppError::bad_request(e.to_string()))?;
    let key = &core.xero.key;
    let org = actor.org_id;
    let now = core.xero.clock.now();
    let row = q::SignIn {
        state: started.state,
        org_id: org,
        user_id: actor.user_id,
        client_id: id.into(),
        secret_sealed: if secret.is_empty() { String::new() } else { key.seal(org, secret) },
        verifier_sealed: key.seal(org, &started.verifier),
        login_url,
        identity_url,
        api_url,
        redirect_uri: redirect_uri.into(),
        created_at: now,
    };
    let stale = now - chrono::Duration::minutes(SIGN_IN_MINUTES);
    core.db.write(move |c| q::start_sign_in(c, &row, stale)).await?;
    Ok(started.url)
}

/// The approver came back from Xero (`/settings/xero/callback?code&state`): the sign-in
/// under way with this state — begun by this approver of this company less than ten
/// minutes ago, used once — exchanges the code with its verifier, reads the organisations
/// the tokens reach, and keeps the connection with its refresh token sealed. With exactly
/// one organisation it is tested and read at once; with several the approver picks one.
pub async fn finish_code_flow(core: &Core, actor: &Actor, code: &str, state: &str) -> AppResult<Status> {
    only_approver(actor.role)?;
    let (org, user, now) = (actor.org_id, actor.user_id, core.xero.clock.now());
    if code.is_empty() || code.len() > 2000 || state.len() > 200 {
        return Err(AppError::bad_request("Xero's answer carries no usable code or state; press Connect to Xero again."));
    }
    let stale = now - chrono::Duration::minutes(SIGN_IN_MINUTES);
    let state = state.to_string();
    let sign_in = core.db.write(move |c| q::take_sign_in(c, &state, org, user, stale)).await?.ok_or_else(|| AppError::Conflict {
        message: "This sign-in at Xero is no longer valid (it was used already, is older than ten minutes, or was begun by someone else); press Connect to Xero again.".into(),
        code: Some("xero_sign_in_expired"),
        reasons: vec![],
    })?;
    let key = &core.xero.key;
    let unreadable = || AppError::Conflict { message: "The sign-in cannot be read with this server's key; press Connect to Xero again.".into(), code: Some("xero_sign_in_expired"), reasons: vec![] };
    let verifier = key.open(org, &sign_in.verifier_sealed).ok_or_else(unreadable)?;
    let secret = if sign_in.secret_sealed.is_empty() { None } else { Some(key.open(org, &sign_in.secret_sealed).ok_or_else(unreadable)?) };
    let flow = xero::auth::Flow { client_id: sign_in.client_id.clone(), secret, login_url: sign_in.login_url.clone(), identity_url: sign_in.identity_url.clone(), redirect_uri: sign_in.redirect_uri.clone() };
    let client = &core.xero.client;
    let tokens = xero::auth::exchange(client.http(), &flow, code, &verifier).await.map_err(said)?;
    let mut ep = Endpoint { org_id: org, client_id: flow.client_id.clone(), secret: String::new(), identity_url: flow.identity_url.clone(), api_url: sign_in.api_url.clone(), tenant_id: String::new(), bearer: Some(tokens.access.clone()) };
    let tenants = client.tenants(&ep).await.map_err(said)?;
    if tenants.is_empty() {
        return Err(AppError::Conflict { message: "Xero connected no organisation; choose one on Xero's consent screen.".into(), code: Some("xero_no_organisation"), reasons: vec![] });
    }
    let refresh_sealed = key.seal(org, &tokens.refresh);
    let expires = now + chrono::Duration::days(xero::auth::REFRESH_DAYS);
    let (s_row, t) = (sign_in.clone(), tenants.clone());
    core.db
        .write(move |c| {
            q::save_code_connection(
                c,
                &q::NewCodeConnection {
                    org_id: org,
                    client_id: &s_row.client_id,
                    secret_sealed: &s_row.secret_sealed,
                    login_url: &s_row.login_url,
                    identity_url: &s_row.identity_url,
                    api_url: &s_row.api_url,
                    refresh_sealed: &refresh_sealed,
                    refresh_expires_at: expires,
                    tenants: &t,
                    connected_by: user,
                },
                now,
            )
        })
        .await?;
    xero::access::remember(&core.xero, org, &tokens);
    if let [only] = tenants.as_slice() {
        ep.tenant_id = only.tenant_id.clone();
        let tested = read(client, &ep).await?;
        let a = actor.clone();
        return core
            .db
            .write(move |c| {
                record_test(c, &a, &tested, now)?;
                status(c, &a)
            })
            .await;
    }
    let a = actor.clone();
    core.db.run(move |c| status(c, &a)).await
}

/// Picks the organisation of a code connection (one Xero offered), then tests and reads it.
pub async fn pick_organisation(core: &Core, actor: &Actor, tenant_id: &str) -> AppResult<Status> {
    only_approver(actor.role)?;
    let (org, t) = (actor.org_id, tenant_id.to_string());
    if !core.db.write(move |c| q::pick_tenant(c, org, &t)).await? {
        return Err(AppError::field("tenantId", "Choose one of the organisations Xero offered."));
    }
    retest(core, actor).await
}

/// Disconnects (role 4): a code connection is also removed at Xero (`DELETE
/// /connections/{id}`) and its refresh token revoked, as far as Xero answers; the
/// connection is removed here whatever Xero said. See [`disconnect`].
pub async fn disconnect_everywhere(core: &Core, actor: &Actor) -> AppResult<bool> {
    only_approver(actor.role)?;
    let org = actor.org_id;
    if let Some(conn) = core.db.run(move |c| q::connection(c, org)).await?
        && conn.is_code()
        && conn.reconnect.is_empty()
    {
        match xero::access::endpoint(&core.db, &core.xero, &conn).await {
            Ok(ep) => {
                if let Some(t) = conn.tenant_list().iter().find(|t| t.tenant_id == conn.tenant_id)
                    && let Err(e) = core.xero.client.remove_connection(&ep, &t.connection_id).await
                {
                    tracing::warn!("company {org}: Xero did not remove the connection: {e}");
                }
                // Getting the endpoint may have replaced the refresh token: revoke the one kept now.
                let kept = core.db.run(move |c| q::connection(c, org)).await?;
                let refresh = kept.as_ref().and_then(|c| core.xero.key.open(org, &c.refresh_sealed));
                if let (Ok(flow), Some(refresh)) = (xero::access::flow(&core.xero, &conn), refresh)
                    && let Err(e) = xero::auth::revoke(core.xero.client.http(), &flow, &refresh).await
                {
                    tracing::warn!("company {org}: Xero did not revoke the refresh token: {e}");
                }
            }
            Err(e) => tracing::warn!("company {org}: disconnecting without reaching Xero: {e}"),
        }
        xero::access::forget(&core.xero, org);
    }
    let (a, now) = (actor.clone(), core.xero.clock.now());
    core.db.write(move |c| disconnect(c, &a, now)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_the_stand_in_mode_only_xeros_own_addresses_are_accepted() {
        assert_eq!(check_url("apiUrl", None, API_URL, false).unwrap(), API_URL);
        assert_eq!(check_url("apiUrl", Some("https://api.xero.com/api.xro/2.0/"), API_URL, false).unwrap(), API_URL);
        assert_eq!(check_url("identityUrl", Some("HTTPS://IDENTITY.XERO.COM"), IDENTITY_URL, false).unwrap(), IDENTITY_URL);
        for other in ["https://evil.example/api.xro/2.0", "http://127.0.0.1:9911/api.xro/2.0", "https://api.xero.com.evil.example/api.xro/2.0", "https://api.xero.com:8443/api.xro/2.0"] {
            assert!(check_url("apiUrl", Some(other), API_URL, false).is_err(), "{other}");
        }
    }

    #[test]
    fn the_stand_in_mode_adds_loopback_only_as_the_http_client_would_read_the_address() {
        assert_eq!(check_url("apiUrl", Some("http://127.0.0.1:9911/api.xro/2.0/"), API_URL, true).unwrap(), "http://127.0.0.1:9911/api.xro/2.0");
        assert!(check_url("apiUrl", Some("http://localhost:1/x"), API_URL, true).is_ok());
        assert!(check_url("apiUrl", Some("http://[::1]:1/x"), API_URL, true).is_ok());
        // What is checked is what is called: here the host is 127.0.0.1 and the rest a path.
        assert_eq!(check_url("apiUrl", Some("http://127.0.0.1:80\\@10.0.0.5:80/x"), API_URL, true).unwrap(), "http://127.0.0.1/@10.0.0.5:80/x");
        for bad in [
            "http://10.0.0.5/x",
            "http://127.0.0.1@10.0.0.5/x",
            // A backslash ends the authority for http: the host is 10.0.0.5, not 127.0.0.1.
            "http://10.0.0.5:80\\@127.0.0.1:80/x",
            "http://user:pw@127.0.0.1/x",
            "http://127.0.0.1/x?y=1",
            "http://127.0.0.1/x#frag",
            "ftp://127.0.0.1/x",
            "https://",
            "http://2130706433.evil/x",
            "http://localhost.evil.example/x",
        ] {
            assert!(check_url("apiUrl", Some(bad), API_URL, true).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_batch_names_a_range_and_only_the_four_xero_sheet_types() {
        let b = parse_batch(&serde_json::json!({"dateRange": ["2026-11-01", "2026-11-30"], "sheets": [1, "2", 5, 1]})).unwrap();
        assert_eq!(b.types, [OrderType::Invoice, OrderType::CreditNote, OrderType::BillCreditNote]);
        assert!(parse_batch(&serde_json::json!({"dateRange": ["2026-11-01", "2026-11-30"], "sheets": [3]})).is_err());
        assert!(parse_batch(&serde_json::json!({"sheets": [1]})).is_err());
        assert!(parse_batch(&serde_json::json!({"dateRange": ["2026-11-30", "2026-11-01"], "sheets": [1]})).is_err());
    }
}
