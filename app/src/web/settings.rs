//! Organisation settings (`/settings`, role 4 only). Today the accounting link: connect a
//! Xero Custom Connection, test it, disconnect (issue 12); the company's print details,
//! staff and the rest follow with issue 13.

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::State;
use axum::http::Uri;
use serde::Deserialize;

use super::shell::Shell;
use crate::auth::Auth;
use crate::domain::enums::Role;
use crate::error::{AppError, AppResult};
use crate::services::orders::Actor;
use crate::services::xero::{self as svc, ConnectionInput, Status};
use crate::state::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "settings.html")]
pub struct SettingsPage {
    pub shell: Shell,
    pub xero: Status,
    pub tested: Option<String>,
    pub alert: Option<(&'static str, String)>,
    pub form_client_id: String,
    pub form_identity_url: String,
    pub form_api_url: String,
}

fn owner(auth: &Auth) -> AppResult<()> {
    if auth.role == Role::Approver { Ok(()) } else { Err(AppError::forbidden(svc::ONLY_APPROVER)) }
}

async fn render(state: &AppState, auth: &Auth, uri: &Uri, alert: Option<(&'static str, String)>, form: Option<&XeroForm>) -> AppResult<SettingsPage> {
    let shell = Shell::new(state, auth, "Settings", uri.path(), &[]).await?;
    let org = auth.org_id;
    let xero = state.db.run(move |c| svc::status(c, org)).await?;
    let tested = xero.tested_at.map(|t| t.and_utc().with_timezone(&crate::domain::dates::DEFAULT_ZONE).format("%d/%m/%Y %H:%M").to_string());
    let keep = |f: fn(&XeroForm) -> &String, stored: &str| form.map(|x| f(x).clone()).unwrap_or_else(|| stored.to_string());
    Ok(SettingsPage {
        form_client_id: keep(|f| &f.client_id, &xero.client_id),
        form_identity_url: keep(|f| &f.identity_url, if xero.identity_url == svc::IDENTITY_URL { "" } else { &xero.identity_url }),
        form_api_url: keep(|f| &f.api_url, if xero.api_url == svc::API_URL { "" } else { &xero.api_url }),
        shell,
        xero,
        tested,
        alert,
    })
}

/// `GET /settings`.
pub async fn page(State(state): State<AppState>, auth: Auth, uri: Uri) -> AppResult<SettingsPage> {
    owner(&auth)?;
    render(&state, &auth, &uri, None, None).await
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

/// The page again with the outcome: success, or the error in words (the form keeps what
/// was typed, except the secret).
async fn outcome(state: &AppState, auth: &Auth, uri: &Uri, r: AppResult<String>, form: Option<&XeroForm>) -> AppResult<SettingsPage> {
    let alert = match r {
        Ok(m) => ("success", m),
        Err(AppError::Validation { message, .. }) => ("error", message),
        Err(AppError::Conflict { message, .. }) => ("error", message),
        Err(e) => return Err(e),
    };
    render(state, auth, uri, Some(alert), form).await
}

/// `POST /settings/xero`: Connect.
pub async fn connect(State(state): State<AppState>, auth: Auth, uri: Uri, Form(f): Form<XeroForm>) -> AppResult<SettingsPage> {
    owner(&auth)?;
    let input = ConnectionInput { client_id: f.client_id.clone(), client_secret: f.client_secret.clone(), identity_url: Some(f.identity_url.clone()), api_url: Some(f.api_url.clone()) };
    let r = crate::api::xero::connect(&state, &Actor::from(&auth), input).await.map(|s| format!("Connected to {}.", s.organisation_name));
    let keep = r.is_err().then_some(&f);
    outcome(&state, &auth, &uri, r, keep).await
}

/// `POST /settings/xero/test`: Test connection.
pub async fn test(State(state): State<AppState>, auth: Auth, uri: Uri) -> AppResult<SettingsPage> {
    owner(&auth)?;
    let r = crate::api::xero::retest(&state, &Actor::from(&auth)).await.map(|s| format!("The connection works: {} ({} tax rates).", s.organisation_name, s.tax_types.len()));
    outcome(&state, &auth, &uri, r, None).await
}

/// `POST /settings/xero/disconnect`: Disconnect.
pub async fn disconnect(State(state): State<AppState>, auth: Auth, uri: Uri) -> AppResult<SettingsPage> {
    owner(&auth)?;
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    let r = state.db.write(move |c| svc::disconnect(c, &actor, now)).await.map(|was| if was { "Xero is disconnected.".to_string() } else { "Xero was not connected.".to_string() });
    outcome(&state, &auth, &uri, r, None).await
}
