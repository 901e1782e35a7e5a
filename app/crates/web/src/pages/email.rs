//! E-mail on the pages (issue 33): Settings › E-mail (`POST /settings/email`, `POST
//! /settings/email/test`, role 4) and the sheet detail page's 'Email …' buttons (`POST
//! /order_email/{id}/{doc}`) with the sheet's e-mail history.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use axum::body::Bytes;
use serde::Deserialize;

use crate::auth::Auth;
use crate::state::AppState;
use db::error::{AppError, AppResult};
use domain::Actor;
use domain::email::{Doc, PLACEHOLDERS, Security, SettingsInput, State as MailState, Template, Templates};
use domain::enums::OrderType;
use services::email as svc;

/// One input of the e-mail settings form.
pub struct Field {
    pub name: &'static str,
    pub label: &'static str,
    pub value: String,
    pub kind: &'static str,
    pub max: usize,
    pub hint: &'static str,
    pub error: String,
}

/// A document type's template in the form.
pub struct TemplateRow {
    pub code: &'static str,
    pub label: &'static str,
    pub subject: String,
    pub body: String,
    pub subject_error: String,
    pub body_error: String,
}

/// An e-mail of a history, as listed.
pub struct HistoryView {
    pub id: i64,
    pub doc: &'static str,
    pub to: String,
    pub subject: String,
    pub at: String,
    pub state: &'static str,
    pub state_class: &'static str,
    pub attempts: i32,
    pub error: String,
}

impl HistoryView {
    fn new(h: svc::HistoryRow, zone: chrono_tz::Tz) -> Self {
        let state_class = match h.state {
            MailState::Sent => "tag-green",
            MailState::Failed => "tag-red",
            MailState::Queued | MailState::Sending => "tag-amber",
        };
        let at = domain::dates::date_time(h.sent_at.unwrap_or(h.created_at), zone);
        Self { id: h.id, doc: h.doc, to: h.to, subject: h.subject, at, state: h.state.label(), state_class, attempts: h.attempts, error: h.error }
    }

    pub fn is_pending(&self) -> bool {
        self.state == MailState::Queued.label() || self.state == MailState::Sending.label()
    }
}

/// The e-mail section of the settings page.
pub struct Section {
    pub fields: Vec<Field>,
    pub security: String,
    pub securities: Vec<(&'static str, &'static str)>,
    pub security_error: String,
    pub password_set: bool,
    pub invoice_on_approval: bool,
    pub templates: Vec<TemplateRow>,
    pub placeholders: Vec<(&'static str, &'static str)>,
    pub configured: bool,
    /// The signed-in user's address: the test e-mail's default.
    pub me: String,
    pub recent: Vec<HistoryView>,
}

impl Section {
    pub fn any_pending(&self) -> bool {
        self.recent.iter().any(HistoryView::is_pending)
    }
}

/// The section as stored, or with what was typed and its messages after a refusal.
pub async fn section(state: &AppState, auth: &Auth, typed: Option<(SettingsInput, BTreeMap<String, String>)>) -> AppResult<Section> {
    let actor = Actor::from(auth);
    let (view, recent) = state.db.run(move |c| Ok((svc::view(c, &actor)?, svc::recent(c, &actor, 10)?))).await?;
    let (input, errors) = match typed {
        Some(t) => t,
        None => (
            SettingsInput {
                host: view.host.clone(),
                port: view.port.clone(),
                security: view.security.clone(),
                username: view.username.clone(),
                password: String::new(),
                from_address: view.from_address.clone(),
                reply_to: view.reply_to.clone(),
                invoice_on_approval: view.invoice_on_approval,
                templates: view.templates.iter().map(|(d, t)| (d.code().to_string(), t.clone())).collect(),
            },
            BTreeMap::new(),
        ),
    };
    let err = |f: &str| errors.get(f).cloned().unwrap_or_default();
    let f = |name: &'static str, label: &'static str, value: &str, kind: &'static str, max: usize, hint: &'static str| Field { name, label, value: value.to_string(), kind, max, hint, error: err(name) };
    let fields = vec![
        f("host", "SMTP server", &input.host, "text", domain::email::HOST_MAX, "The host name of your company's mail server, e.g. smtp.office365.com."),
        f("port", "Port", &input.port, "number", 5, "1–65535: usually 587 with STARTTLS, 465 with TLS, 25 without."),
        f("username", "User name", &input.username, "text", domain::email::CREDENTIAL_MAX, "Leave empty when the server takes mail without signing in."),
        f("password", "Password", "", "password", domain::email::CREDENTIAL_MAX, "Stored encrypted and never shown again; leave empty to keep the stored one."),
        f("from_address", "From address", &input.from_address, "email", 254, "E-mails are sent from this address, with your company's name."),
        f("reply_to", "Reply-To address", &input.reply_to, "email", 254, "Optional: where replies go, if not to the From address."),
    ];
    let templates = Doc::TEMPLATED
        .into_iter()
        .map(|d| {
            let t = input.templates.get(d.code()).cloned().unwrap_or_else(|| domain::email::template_of(&Templates::new(), d));
            TemplateRow { code: d.code(), label: d.label(), subject: t.subject, body: t.body, subject_error: err(&format!("subject_{}", d.code())), body_error: err(&format!("body_{}", d.code())) }
        })
        .collect();
    Ok(Section {
        fields,
        security: input.security.clone(),
        securities: Security::ALL.iter().map(|s| (s.code(), s.label())).collect(),
        security_error: err("security"),
        password_set: view.password_set,
        invoice_on_approval: input.invoice_on_approval,
        templates,
        placeholders: PLACEHOLDERS.to_vec(),
        configured: view.configured,
        me: auth.email.clone(),
        recent: recent.into_iter().map(|h| HistoryView::new(h, auth.zone)).collect(),
    })
}

/// Reads the settings form (urlencoded: `host`, `port`, …, `subject_<doc>`, `body_<doc>`).
fn read_form(body: &[u8]) -> AppResult<SettingsInput> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))?;
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()).unwrap_or_default();
    let mut templates = Templates::new();
    for d in Doc::TEMPLATED {
        templates.insert(d.code().to_string(), Template { subject: get(&format!("subject_{}", d.code())), body: get(&format!("body_{}", d.code())) });
    }
    Ok(SettingsInput {
        host: get("host"),
        port: get("port"),
        security: get("security"),
        username: get("username"),
        password: get("password"),
        from_address: get("from_address"),
        reply_to: get("reply_to"),
        invoice_on_approval: matches!(get("invoice_on_approval").as_str(), "1" | "on" | "true"),
        templates,
    })
}

/// `POST /settings/email`: saves the e-mail settings (role 4, audited).
pub async fn save(State(state): State<AppState>, auth: Auth, uri: Uri, body: Bytes) -> AppResult<Response> {
    services::reference_data::only_approver(auth.role)?;
    let input = read_form(&body)?;
    let (actor, key, typed) = (Actor::from(&auth), state.xero.key.clone(), input.clone());
    match state.db.write(move |c| svc::save(c, &actor, &key, &typed, db::now())).await {
        Ok(()) => crate::pages::redirect_with_notice(&state, &auth, "/settings", "success", "The e-mail settings are saved.".into()).await,
        Err(AppError::Validation { message, errors }) => {
            let mut page = super::settings::render_page(&state, &auth, &uri, Some(("error", message))).await?;
            page.email = section(&state, &auth, Some((input, errors))).await?;
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e),
    }
}

#[derive(Deserialize, Default)]
pub struct TestForm {
    #[serde(default)]
    to: String,
}

/// `POST /settings/email/test`: queues a test e-mail (to the given address, or the signed-in
/// user's); the outcome shows in the section's list of latest e-mails.
pub async fn test(State(state): State<AppState>, auth: Auth, uri: Uri, axum::Form(f): axum::Form<TestForm>) -> AppResult<Response> {
    services::reference_data::only_approver(auth.role)?;
    match svc::send_test(&state, &Actor::from(&auth), &f.to).await {
        Ok(q) => crate::pages::redirect_with_notice(&state, &auth, "/settings", "success", format!("Test e-mail queued for {}: its outcome shows under 'Latest e-mails' below.", q.to.join(", "))).await,
        Err(e @ (AppError::Validation { .. } | AppError::Conflict { .. })) => {
            let status = e.status();
            let page = super::settings::render_page(&state, &auth, &uri, Some(("error", validation_text(e)))).await?;
            Ok((status, page).into_response())
        }
        Err(e) => Err(e),
    }
}

fn validation_text(e: AppError) -> String {
    match e {
        AppError::Validation { errors, message } if !errors.is_empty() => errors.into_values().next().unwrap_or(message),
        other => other.to_string(),
    }
}

/// An 'Email …' button of the sheet detail page.
pub struct SheetAction {
    pub doc: &'static str,
    pub label: &'static str,
    pub default_to: String,
}

/// The detail page's e-mail part: the buttons the viewer may use and the sheet's history.
#[derive(Default)]
pub struct SheetEmail {
    pub actions: Vec<SheetAction>,
    pub history: Vec<HistoryView>,
}

impl SheetEmail {
    pub fn any_pending(&self) -> bool {
        self.history.iter().any(HistoryView::is_pending)
    }
}

/// The documents of a sheet of type `t` that `auth` may e-mail: the sheet must be printable
/// (`printable`) for the customer's documents; a purchase order is e-mailed by staff who
/// see purchase prices.
pub fn docs_for(t: OrderType, printable: bool, auth: &Auth) -> Vec<(Doc, &'static str)> {
    match t {
        OrderType::Invoice if printable => vec![(Doc::Invoice, "Email invoice"), (Doc::DeliveryDocket, "Email delivery docket")],
        OrderType::CreditNote if printable => vec![(Doc::CreditNote, "Email credit note")],
        OrderType::PurchaseOrder if auth.sight().sees_cost() => vec![(Doc::PurchaseOrder, "Email PO to supplier")],
        _ => vec![],
    }
}

/// The sheet's e-mail part for the detail page.
pub async fn sheet_email(state: &AppState, auth: &Auth, id: i64, t: OrderType, printable: bool) -> AppResult<SheetEmail> {
    let docs = docs_for(t, printable, auth);
    let (org, actor) = (auth.org_id, Actor::from(auth));
    let (history, defaults) = state
        .db
        .run(move |c| {
            let history = svc::history_of_sheet(c, org, id)?;
            let to = svc::sheet_recipients(c, &actor, &docs.iter().map(|(d, _)| *d).collect::<Vec<_>>(), id)?;
            let defaults = docs.iter().zip(to).map(|((d, label), default_to)| SheetAction { doc: d.code(), label, default_to }).collect();
            Ok((history, defaults))
        })
        .await?;
    Ok(SheetEmail { actions: defaults, history: history.into_iter().map(|h| HistoryView::new(h, auth.zone)).collect() })
}

#[derive(Deserialize, Default)]
pub struct SendForm {
    #[serde(default)]
    to: String,
}

/// `POST /order_email/{id}/{doc}`: queues the sheet's document for e-mail to the addresses
/// typed; back on the sheet, which says "Queued for e-mail to …" and lists it.
pub async fn send(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path((id, doc)): Path<(i64, String)>, axum::Form(f): axum::Form<SendForm>) -> AppResult<Response> {
    // Sheets only: quotations and statements have routes of their own.
    let doc = Doc::from_code(&doc).filter(|d| !matches!(d, Doc::Test | Doc::Quotation | Doc::Statement)).ok_or(AppError::NotFound)?;
    let queued = svc::send(&state, &Actor::from(&auth), svc::Outgoing { doc, target: id, reference: String::new(), to: f.to }).await?;
    let org = auth.org_id;
    let t = state.db.run(move |c| db::orders::get(c, org, id)).await?.order_type;
    let route = OrderType::from_i32(t).map(OrderType::route_name).unwrap_or("invoices");
    let url = format!("/order_detail/{route}/{id}?emailed={}", queued.id);
    if headers.contains_key("hx-request") {
        let mut res = StatusCode::NO_CONTENT.into_response();
        if let Ok(v) = HeaderValue::from_str(&url) {
            res.headers_mut().insert("hx-redirect", v);
        }
        Ok(res)
    } else {
        Ok(Redirect::to(&url).into_response())
    }
}
