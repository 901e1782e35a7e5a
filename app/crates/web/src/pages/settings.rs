//! Organisation settings (`/settings`, role 4 only): the company's print details,
//! department, price-tier uplifts and time zone; the logo on the A4 documents; the
//! accounting link (Xero Custom Connection: connect, test, disconnect); and the latest
//! audited changes.

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use serde::Deserialize;

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};

use super::shell::Shell;
use super::stream;
use crate::auth::Auth;
use db::accounts::{self, Organisation};
use db::reference_data;
use domain::admin::{AU_ZONES, LOGO_MAX_BYTES, LOGO_TOO_LARGE, SettingsInput, logo_url, show_uplift};
use domain::limits::{ADDRESS_MAX, NAME_MAX, PHONE_MAX, SHORT_MAX};
use services::admin as admin_svc;
use db::error::{AppError, AppResult};
use domain::Actor;
use services::xero::{self as svc, ConnectionInput, Status};
use crate::state::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "settings.html")]
pub struct SettingsPage {
    pub shell: Shell,
    /// The company form: its fields with values and messages.
    pub company: Vec<SettingField>,
    pub version: i32,
    pub logo: String,
    pub has_logo: bool,
    pub zones: &'static [&'static str],
    /// The company's warehouses (id, name): the default warehouse's choices.
    pub warehouses: Vec<(String, String)>,
    pub audit: Vec<AuditLine>,
    pub xero: Status,
    pub tested: Option<String>,
    pub alert: Option<(&'static str, String)>,
    pub form_client_id: String,
    pub form_identity_url: String,
    pub form_api_url: String,
    /// The server runs in stand-in mode: the form offers the two addresses.
    pub xero_standin: bool,
    /// The accounts and tax rates form, one select per setting.
    pub mapping: Vec<MappingRow>,
    /// Settings › E-mail (issue 33).
    pub email: super::email::Section,
    /// Settings › Printers (issue 33).
    pub printers: super::printing::PrintersSection,
}

/// One setting of the accounts and tax rates form: the accounts or rates of the company's
/// Xero that fit it, and the one chosen.
pub struct MappingRow {
    pub field: &'static str,
    pub label: &'static str,
    pub value: String,
    /// (value, text): what fits; the chosen value first when it no longer does.
    pub options: Vec<(String, String)>,
}

fn mapping_rows(x: &Status) -> Vec<MappingRow> {
    domain::xero_mapping::SLOTS
        .iter()
        .map(|slot| {
            let value = x.mapping.get(slot.field).to_string();
            let mut options: Vec<(String, String)> = if slot.is_account() {
                x.accounts.iter().filter(|a| slot.takes_account(a)).map(|a| (a.code.clone(), format!("{} {} ({})", a.code, a.name, a.kind))).collect()
            } else {
                x.rates.iter().filter(|r| slot.takes_rate(r)).map(|r| (r.tax_type.clone(), format!("{} ({}, {}%)", r.name, r.tax_type, r.rate))).collect()
            };
            if !value.is_empty() && !options.iter().any(|o| o.0 == value) {
                options.insert(0, (value.clone(), format!("{value} (does not fit: see above)")));
            }
            MappingRow { field: slot.field, label: slot.label, value, options }
        })
        .collect()
}

/// One input of the company form.
pub struct SettingField {
    pub name: &'static str,
    pub label: &'static str,
    pub value: String,
    pub required: bool,
    pub max: usize,
    /// "text", "email", "tel", "url", "zone" (a text input with the time-zone list) or
    /// "warehouse" (a select of the company's warehouses, or none).
    pub kind: &'static str,
    pub hint: &'static str,
    pub error: String,
}

/// One audited change, as listed.
pub struct AuditLine {
    pub at: String,
    pub who: String,
    pub what: String,
    pub detail: String,
}

fn owner(auth: &Auth) -> AppResult<()> {
    services::reference_data::only_approver(auth.role)
}

fn company_fields(v: &SettingsInput, errors: &BTreeMap<String, String>) -> Vec<SettingField> {
    let f = |name: &'static str, label: &'static str, value: &str, required: bool, max: usize, kind: &'static str, hint: &'static str| SettingField {
        name,
        label,
        value: value.to_string(),
        required,
        max,
        kind,
        hint,
        error: errors.get(name).cloned().unwrap_or_default(),
    };
    vec![
        f("name", "Company name", &v.name, true, NAME_MAX, "text", "Printed at the top of every document."),
        f("abn", "ABN", &v.abn, true, SHORT_MAX, "text", "11 digits."),
        f("addressLine1", "Address line 1", &v.address_line1, true, ADDRESS_MAX, "text", ""),
        f("addressLine2", "Address line 2", &v.address_line2, false, ADDRESS_MAX, "text", ""),
        f("phone", "Phone", &v.phone, false, PHONE_MAX, "tel", ""),
        f("email", "E-mail", &v.email, false, SHORT_MAX, "email", ""),
        f("website", "Website", &v.website, false, SHORT_MAX, "text", ""),
        f("bankAccountName", "Bank account name", &v.bank_account_name, false, NAME_MAX, "text", "Printed under 'Payment' on tax invoices."),
        f("bsb", "BSB", &v.bsb, false, SHORT_MAX, "text", "6 digits."),
        f("bankAccount", "Account number", &v.bank_account, false, SHORT_MAX, "text", ""),
        f("department_id", "Department id", &v.department_id, true, 2, "text", "1–99; it selects the print rules (GST-exclusive prices for 7 and 8, locations for 4, 7 and 9+, reference for 7, 8 and 12)."),
        f("tier_b", "Class B uplift %", &v.tier_b, true, 6, "text", "Over Class A, e.g. 5."),
        f("tier_c", "Class C uplift %", &v.tier_c, true, 6, "text", ""),
        f("tier_d", "Class D uplift %", &v.tier_d, true, 6, "text", ""),
        f("tier_e", "Class E uplift %", &v.tier_e, true, 6, "text", ""),
        f("time_zone", "Time zone", &v.time_zone, true, SHORT_MAX, "zone", "'Today' for new sheets and reports is the date here."),
        f("overdue_guard_days", "Overdue rule (days)", &v.overdue_guard_days, false, 4, "text", "Empty: off. Else an invoice whose customer has a sent invoice unpaid more than this many days past due needs an approver (Xero's payments, read hourly)."),
        f("quotation_valid_days", "Quotation valid for (days)", &v.quotation_valid_days, false, 3, "text", "1–365; empty: 7. A quotation's valid-until date is its date plus this many days."),
        f("default_warehouse_id", "Default warehouse", &v.default_warehouse_id, false, 20, "warehouse", "The warehouse a new sheet starts in; the sheet can still choose another."),
        f("dot_on_documents", "Print DOT codes on tax invoices and delivery dockets", checked(v.dot_on_documents), false, 1, "checkbox", "Each tyre line names the DOT codes (week and year of manufacture) it took."),
        f("shop_shows_dot", "Show DOT year in the shop", checked(v.shop_shows_dot), false, 1, "checkbox", "A tyre shows the years of manufacture in stock, e.g. 'DOT 2024–2025'; never quantities."),
        f("old_tyre_years", "Old-tyre rule: ask an approver before selling tyres this many years old or more to a customer who has not accepted them", &v.old_tyre_years, false, 2, "text", "Empty: off. Else 1–20 years; a customer's 'Accepts old tyres' lets such an invoice through."),
    ]
}

/// A checkbox's value as the company form holds it.
fn checked(on: bool) -> &'static str {
    if on { "1" } else { "" }
}

fn input_of(o: &Organisation) -> SettingsInput {
    SettingsInput {
        name: o.name.clone(),
        abn: o.abn.clone(),
        address_line1: o.address_line1.clone(),
        address_line2: o.address_line2.clone(),
        phone: o.phone.clone(),
        email: o.email.clone(),
        bank_account_name: o.bank_account_name.clone(),
        bsb: o.bsb.clone(),
        bank_account: o.bank_account.clone(),
        website: o.website.clone(),
        department_id: o.department_id.to_string(),
        tier_b: show_uplift(o.tier_b_bp),
        tier_c: show_uplift(o.tier_c_bp),
        tier_d: show_uplift(o.tier_d_bp),
        tier_e: show_uplift(o.tier_e_bp),
        time_zone: o.time_zone.clone(),
        overdue_guard_days: o.overdue_guard_days.map(|d| d.to_string()).unwrap_or_default(),
        default_warehouse_id: o.default_warehouse_id.map(|d| d.to_string()).unwrap_or_default(),
        quotation_valid_days: o.quotation_valid_days.to_string(),
        dot_on_documents: o.dot_on_documents,
        shop_shows_dot: o.shop_shows_dot,
        old_tyre_years: o.old_tyre_years.map(|y| y.to_string()).unwrap_or_default(),
        version: Some(o.version),
    }
}

/// What was typed into the company form, with its messages, to show again after a refusal.
struct Typed {
    input: SettingsInput,
    errors: BTreeMap<String, String>,
}

async fn render(state: &AppState, auth: &Auth, uri: &Uri, alert: Option<(&'static str, String)>, form: Option<&XeroForm>) -> AppResult<SettingsPage> {
    render_with(state, auth, uri, alert, form, None).await
}

/// The page with an outcome `alert` (another section's post that came back refused).
pub(crate) async fn render_page(state: &AppState, auth: &Auth, uri: &Uri, alert: Option<(&'static str, String)>) -> AppResult<SettingsPage> {
    render(state, auth, uri, alert, None).await
}

async fn render_with(state: &AppState, auth: &Auth, uri: &Uri, alert: Option<(&'static str, String)>, form: Option<&XeroForm>, typed: Option<Typed>) -> AppResult<SettingsPage> {
    let shell = Shell::new(state, auth, TITLE, uri.path(), &[]).await?;
    settings_page(state, auth, shell, alert, form, typed).await
}

/// The page around `shell`: the company, the accounting link and the latest changes, with
/// the outcome `alert` and what was typed into a refused form.
async fn settings_page(state: &AppState, auth: &Auth, shell: Shell, alert: Option<(&'static str, String)>, form: Option<&XeroForm>, typed: Option<Typed>) -> AppResult<SettingsPage> {
    let (org, actor) = (auth.org_id, Actor::from(auth));
    let (xero, organisation, audit, warehouses) = state
        .db
        .run(move |c| Ok((svc::status(c, &actor)?, accounts::organisation(c, org)?, reference_data::recent_audit(c, org, AUDIT_ROWS)?, db::masters::all_warehouses(c, org)?)))
        .await?;
    let zone = auth.zone;
    let audit = audit
        .into_iter()
        .map(|a| AuditLine {
            at: domain::dates::date_time(a.at, zone),
            who: a.user_name,
            what: format!("{} {}{}", a.entity, a.action, a.entity_id.filter(|_| a.entity != "settings").map(|id| format!(" #{id}")).unwrap_or_default()),
            detail: a.detail,
        })
        .collect();
    let (input, errors) = match typed {
        Some(t) => (t.input, t.errors),
        None => (input_of(&organisation), BTreeMap::new()),
    };
    let tested = xero.tested_at.map(|t| domain::dates::date_time(t, zone));
    let email = super::email::section(state, auth, None).await?;
    let keep = |f: fn(&XeroForm) -> &String, stored: &str| form.map(|x| f(x).clone()).unwrap_or_else(|| stored.to_string());
    Ok(SettingsPage {
        company: company_fields(&input, &errors),
        version: input.version.unwrap_or(organisation.version),
        has_logo: organisation.logo.starts_with("data:"),
        logo: logo_url(&organisation.logo),
        zones: AU_ZONES,
        warehouses: warehouses.into_iter().map(|w| (w.id.to_string(), w.name)).collect(),
        audit,
        form_client_id: keep(|f| &f.client_id, &xero.client_id),
        form_identity_url: keep(|f| &f.identity_url, if xero.identity_url == svc::IDENTITY_URL { "" } else { &xero.identity_url }),
        form_api_url: keep(|f| &f.api_url, if xero.api_url == svc::API_URL { "" } else { &xero.api_url }),
        xero_standin: state.xero.settings.standin,
        mapping: mapping_rows(&xero),
        email,
        printers: super::printing::section(state, auth, None).await?,
        shell,
        xero,
        tested,
        alert,
    })
}

const TITLE: &str = "Settings";

/// The page with a refused printer form shown again with its messages.
pub async fn page_with_printers(state: &AppState, auth: &Auth, uri: &Uri, alert: (&'static str, String), typed: super::printing::Typed) -> AppResult<SettingsPage> {
    let mut page = render(state, auth, uri, Some(alert), None).await?;
    page.printers = super::printing::section(state, auth, Some(typed)).await?;
    Ok(page)
}

/// `GET /settings`, streamed (web/stream.rs): the settings are read after the head has gone.
pub async fn page(State(state): State<AppState>, auth: Auth, headers: HeaderMap, uri: Uri) -> AppResult<Response> {
    owner(&auth)?;
    let has = |flag: &str| uri.query().is_some_and(|q| q.split('&').any(|kv| kv == flag));
    let kept = if has("notice=1") { crate::pages::take_notice(&state, &auth).await? } else { None };
    let alert = match kept {
        Some((level, text)) => Some((if level == "error" { "error" } else { "success" }, text)),
        None => has("saved=1").then(|| ("success", crate::pages::baseinfo::SAVED.to_string())),
    };
    let (st, au) = (state.clone(), auth.clone());
    let res = stream::respond(&state, &auth, &headers, TITLE, uri.path(), &[], move |shell| async move { settings_page(&st, &au, shell, alert, None, None).await }).await?;
    Ok(may_leave_for_xero(res, state.xero.settings.standin))
}

/// The settings page's own policy: as the server's (`http::CSP`), except that its
/// Connect to Xero form may lead to Xero's sign-in (the browser holds a form's redirects to
/// `form-action`), or in stand-in mode to a stand-in on this machine's loopback.
fn may_leave_for_xero(mut res: Response, standin: bool) -> Response {
    let extra = if standin { format!("{} http://127.0.0.1:* http://localhost:* http://[::1]:*", xero::auth::LOGIN_URL) } else { xero::auth::LOGIN_URL.to_string() };
    let policy = crate::http::CSP.replace("form-action 'self'", &format!("form-action 'self' {extra}"));
    if let Ok(v) = axum::http::HeaderValue::from_str(&policy) {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    res
}

#[derive(Deserialize, Default)]
pub struct XeroForm {
    #[serde(default)]
    client_id: String,
    #[serde(default)]
    client_secret: String,
    #[serde(default)]
    identity_url: String,
    #[serde(default)]
    api_url: String,
}

/// The outcome of a post of the Xero section: a success redirects to the page with it
/// (post/redirect/get), an error comes back on the page with its status (the form keeps
/// what was typed, except the secret).
async fn outcome(state: &AppState, auth: &Auth, uri: &Uri, r: AppResult<String>, form: Option<&XeroForm>) -> AppResult<Response> {
    let (status, message) = match r {
        Ok(m) => return crate::pages::redirect_with_notice(state, auth, "/settings", "success", m).await,
        Err(e @ AppError::Validation { .. }) => (e.status(), e.to_string()),
        Err(e @ AppError::Conflict { .. }) => (e.status(), e.to_string()),
        Err(e) => return Err(e),
    };
    Ok(may_leave_for_xero((status, render(state, auth, uri, Some(("error", message)), form).await?).into_response(), state.xero.settings.standin))
}

/// `POST /settings/xero`: Connect.
pub async fn connect(State(state): State<AppState>, auth: Auth, uri: Uri, Form(f): Form<XeroForm>) -> AppResult<Response> {
    owner(&auth)?;
    let input = ConnectionInput { client_id: f.client_id.clone(), client_secret: f.client_secret.clone(), identity_url: Some(f.identity_url.clone()), api_url: Some(f.api_url.clone()) };
    let r = services::xero::connect(&state, &Actor::from(&auth), input).await.map(|s| format!("Connected to {}.", s.organisation_name));
    let keep = r.is_err().then_some(&f);
    outcome(&state, &auth, &uri, r, keep).await
}

/// `POST /settings/xero/test`: Test connection.
pub async fn test(State(state): State<AppState>, auth: Auth, uri: Uri) -> AppResult<Response> {
    owner(&auth)?;
    let r = services::xero::retest(&state, &Actor::from(&auth)).await.map(|s| format!("The connection works: {} ({} tax rates).", s.organisation_name, s.tax_types.len()));
    outcome(&state, &auth, &uri, r, None).await
}

/// `POST /settings/xero/mapping`: keeps the accounts and tax rates chosen, or shows what
/// does not fit.
pub async fn mapping(State(state): State<AppState>, auth: Auth, uri: Uri, Form(f): Form<BTreeMap<String, String>>) -> AppResult<Response> {
    owner(&auth)?;
    let input = serde_json::to_value(&f).map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))?;
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    let r = state.db.write(move |c| svc::save_mapping(c, &actor, &input, now)).await;
    let r = match r {
        Ok(_) => Ok("The accounts and tax rates are saved.".to_string()),
        Err(AppError::Validation { message, errors }) => {
            Err(AppError::Validation { message: format!("{message} {}", errors.values().cloned().collect::<Vec<_>>().join(" ")), errors: BTreeMap::new() })
        }
        Err(e) => Err(e),
    };
    outcome(&state, &auth, &uri, r, None).await
}

/// `POST /settings/xero/disconnect`: Disconnect.
pub async fn disconnect(State(state): State<AppState>, auth: Auth, uri: Uri) -> AppResult<Response> {
    owner(&auth)?;
    let r = svc::disconnect_everywhere(&state, &Actor::from(&auth)).await.map(|was| if was { "Xero is disconnected.".to_string() } else { "Xero was not connected.".to_string() });
    outcome(&state, &auth, &uri, r, None).await
}

/// "Connect to Xero" as the form sends it.
#[derive(Deserialize, Default)]
pub struct CodeForm {
    #[serde(default)]
    client_id: String,
    #[serde(default)]
    client_secret: String,
    #[serde(default)]
    login_url: String,
    #[serde(default)]
    identity_url: String,
    #[serde(default)]
    api_url: String,
}

/// `POST /settings/xero/authorize`: Connect to Xero — off to Xero's consent screen.
pub async fn authorize(State(state): State<AppState>, auth: Auth, uri: Uri, headers: HeaderMap, Form(f): Form<CodeForm>) -> AppResult<Response> {
    owner(&auth)?;
    let input = svc::CodeInput { client_id: f.client_id, client_secret: f.client_secret, login_url: Some(f.login_url), identity_url: Some(f.identity_url), api_url: Some(f.api_url) };
    match svc::start_code_flow(&state, &Actor::from(&auth), &input, &crate::http::public_url(&headers, svc::CALLBACK_PATH)).await {
        Ok(url) => Ok(Redirect::to(&url).into_response()),
        Err(e) => outcome(&state, &auth, &uri, Err(e), None).await,
    }
}

#[derive(Deserialize, Default)]
pub struct CallbackQuery {
    #[serde(default)]
    code: String,
    #[serde(default)]
    state: String,
    #[serde(default)]
    error: String,
}

/// `GET /settings/xero/callback`: back from Xero, with a code (or Xero's `error`).
pub async fn callback(State(state): State<AppState>, auth: Auth, axum::extract::Query(q): axum::extract::Query<CallbackQuery>) -> AppResult<Response> {
    owner(&auth)?;
    let actor = Actor::from(&auth);
    let (level, text) = if !q.error.is_empty() {
        let why = if q.error == "access_denied" { "access was not allowed".to_string() } else { q.error.chars().filter(char::is_ascii_alphanumeric).take(40).collect() };
        ("error", format!("Xero did not connect: {why}. Nothing was changed."))
    } else {
        match svc::finish_code_flow(&state, &actor, &q.code, &q.state).await {
            Ok(s) if s.choose_organisation => ("success", "Signed in to Xero. Choose the organisation to send to below.".to_string()),
            Ok(s) => ("success", format!("Connected to {}.", s.organisation_name)),
            Err(e @ (AppError::Conflict { .. } | AppError::Validation { .. })) => ("error", e.to_string()),
            Err(e) => return Err(e),
        }
    };
    crate::pages::redirect_with_notice(&state, &auth, "/settings", level, text).await
}

#[derive(Deserialize, Default)]
pub struct OrganisationForm {
    #[serde(default)]
    tenant_id: String,
}

/// `POST /settings/xero/organisation`: picks the organisation of a "Connect to Xero" connection.
pub async fn organisation(State(state): State<AppState>, auth: Auth, uri: Uri, Form(f): Form<OrganisationForm>) -> AppResult<Response> {
    owner(&auth)?;
    let r = svc::pick_organisation(&state, &Actor::from(&auth), &f.tenant_id).await.map(|s| format!("Connected to {}.", s.organisation_name));
    outcome(&state, &auth, &uri, r, None).await
}

/// How many audited changes the page lists.
const AUDIT_ROWS: i64 = 30;

/// `POST /settings`: saves the company form.
pub async fn save(State(state): State<AppState>, auth: Auth, uri: Uri, body: Bytes) -> AppResult<Response> {
    owner(&auth)?;
    let input: SettingsInput = serde_urlencoded::from_bytes(&body).map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))?;
    match admin_svc::save_settings(&state, &domain::Actor::from(&auth), input.clone()).await {
        Ok(()) => Ok(Redirect::to("/settings?saved=1").into_response()),
        Err(AppError::Validation { message, errors }) => {
            let page = render_with(&state, &auth, &uri, Some(("error", message)), None, Some(Typed { input, errors })).await?;
            Ok((axum::http::StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(AppError::Conflict { message, .. }) => {
            let page = render(&state, &auth, &uri, Some(("error", message)), None).await?;
            Ok((axum::http::StatusCode::CONFLICT, page).into_response())
        }
        Err(e) => Err(e),
    }
}

/// `POST /settings/logo`: a new logo (multipart field `logo`), or `remove=1` for the default.
pub async fn upload_logo(State(state): State<AppState>, auth: Auth, uri: Uri, crate::http::upload::Form(mut multipart): crate::http::upload::Form) -> AppResult<Response> {
    owner(&auth)?;
    let mut image = None;
    let mut remove = false;
    while let Some(mut field) = multipart.next_field().await.map_err(crate::http::upload::refusal)? {
        match field.name() {
            Some("logo") => {
                let mut bytes = Vec::new();
                // Read in chunks so an oversized upload is refused without being held whole.
                while let Some(chunk) = field.chunk().await.map_err(crate::http::upload::refusal)? {
                    if bytes.len() + chunk.len() > LOGO_MAX_BYTES {
                        return Err(AppError::field("logo", LOGO_TOO_LARGE));
                    }
                    bytes.extend_from_slice(&chunk);
                }
                if !bytes.is_empty() {
                    image = Some(bytes);
                }
            }
            Some("remove") => remove = true,
            _ => {}
        }
    }
    if image.is_none() && !remove {
        let page = render(&state, &auth, &uri, Some(("error", "Choose an image file for the logo.".to_string())), None).await?;
        return Ok((axum::http::StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
    }
    match admin_svc::set_logo(&state, &domain::Actor::from(&auth), if remove { None } else { image }).await {
        Ok(()) => Ok(Redirect::to("/settings?saved=1").into_response()),
        Err(AppError::Validation { message, .. }) => {
            let page = render(&state, &auth, &uri, Some(("error", message)), None).await?;
            Ok((axum::http::StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e),
    }
}

/// `GET /settings/logo`: the company's uploaded logo, cached for good (its URL changes with it).
pub async fn logo(State(state): State<AppState>, auth: Auth) -> AppResult<Response> {
    let org = auth.org_id;
    let stored = state.db.run(move |c| accounts::logo(c, org)).await?;
    let (mime, bytes) = admin_svc::decode_logo(&stored).ok_or(AppError::NotFound)?;
    let headers = [
        (header::CONTENT_TYPE, mime.to_string()),
        (header::CACHE_CONTROL, "private, max-age=31536000, immutable".to_string()),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
    ];
    Ok((headers, bytes).into_response())
}
