//! Sign-in, sign-out, company switch (spec §2.2, §4 Session, §6).

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::http::ClientIp;
use crate::auth::{self, Auth, SESSION_COOKIE, csrf};
use domain::permissions::WAREHOUSE_REFUSED;
use db::accounts;
use domain::validate;
use db::error::{AppError, AppResult};
use services::sign_in::{self, SignedIn};
use crate::state::AppState;

/// Where a signed-in user lands.
pub const HOME: &str = "/quotings";
/// Where a user signed in with a one-time password lands, and must stay until it is changed.
pub const CHANGE_PASSWORD: &str = "/password/change";
/// The answer to 'Forgot password' (no e-mail server is assumed).
pub const FORGOT_PASSWORD: &str = "Forgot your password? Ask an approver of your company (Base Infos › Employees) \
    to set a one-time password for you; you choose a new one when you first sign in with it. \
    Signed in, you can change yours at any time with Change Password.";

#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
pub struct LoginPage {
    pub css: String,
    pub js: String,
    pub logo: String,
    pub csrf: String,
    pub email: String,
    pub errors: BTreeMap<String, String>,
    pub alert: Option<String>,
    /// Information (not an error), e.g. how a forgotten password is reset.
    pub notice: Option<&'static str>,
}

impl LoginPage {
    fn error(&self, field: &str) -> &str {
        self.errors.get(field).map(String::as_str).unwrap_or("")
    }
}

#[derive(Deserialize)]
pub struct LoginQuery {
    m: Option<String>,
}

fn login_page(state: &AppState, secret: &str, email: String, errors: BTreeMap<String, String>, alert: Option<String>) -> LoginPage {
    LoginPage {
        css: state.assets.url("css/app.css"),
        js: state.assets.url("js/app.js"),
        logo: state.assets.url("img/logo.svg"),
        csrf: csrf::token_for(secret),
        email,
        errors,
        alert,
        notice: None,
    }
}

/// `GET /` and `/login`: the sign-in form, or the home for a signed-in user.
pub async fn page(State(state): State<AppState>, Query(q): Query<LoginQuery>, headers: HeaderMap) -> Response {
    if let Ok(Some(_)) = auth::load(&state, &headers).await {
        return Redirect::to(HOME).into_response();
    }
    let alert = match q.m.as_deref() {
        Some("expired") => Some("Login info expired, please login again".to_string()),
        Some("warehouse") => Some(WAREHOUSE_REFUSED.to_string()),
        _ => None,
    };
    auth::STAFF_COOKIES.form_page(&headers, state.secure_cookies, |secret| login_page(&state, secret, String::new(), BTreeMap::new(), alert).into_response())
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
}

/// `POST /login`.
pub async fn submit(State(state): State<AppState>, ClientIp(ip): ClientIp, headers: HeaderMap, Form(form): Form<LoginForm>) -> Response {
    let Some(secret) = auth::STAFF_COOKIES.secret(&headers) else {
        // No cookie, so the CSRF guard had nothing to check: a forged cross-site sign-in
        // (login CSRF) or a form from before the cookie existed. Offer a fresh form.
        let alert = Some(csrf::SIGN_IN_FORM_EXPIRED.to_string());
        return auth::STAFF_COOKIES.form_page(&headers, state.secure_cookies, |secret| {
            (StatusCode::FORBIDDEN, login_page(&state, secret, form.email, BTreeMap::new(), alert)).into_response()
        });
    };
    let mut errors = BTreeMap::new();
    if let Err(msg) = validate::sign_in_email(&form.email) {
        errors.insert("email".to_string(), msg.to_string());
    }
    if let Err(msg) = validate::sign_in_password(&form.password) {
        errors.insert("password".to_string(), msg.to_string());
    }
    if !errors.is_empty() {
        let page = login_page(&state, &secret, form.email, errors, None);
        return (StatusCode::UNPROCESSABLE_ENTITY, page).into_response();
    }
    let outcome = sign_in::staff(&state, &form.email, &form.password, ip).await;
    let SignedIn { user_id, org_id, must_change_password } = match outcome {
        Ok(ok) => ok,
        Err(e) => {
            let status = e.status();
            let page = login_page(&state, &secret, form.email, BTreeMap::new(), Some(e.to_string()));
            return (status, page).into_response();
        }
    };
    let created = state
        .db
        .write(move |conn| {
            accounts::mark_org_used(conn, user_id, org_id)?;
            accounts::create_session(conn, user_id, org_id)
        })
        .await;
    match created {
        Ok((token, _)) => {
            let mut res = Redirect::to(if must_change_password { CHANGE_PASSWORD } else { HOME }).into_response();
            auth::STAFF_COOKIES.signed_in(&mut res, state.secure_cookies, &token);
            res
        }
        Err(e) => e.into_response(),
    }
}

/// `POST /logout`: ends the session (the page script clears the cart).
pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(token) = auth::cookie(&headers, SESSION_COOKIE) {
        let id = db::token::digest(&token);
        if let Err(e) = state.db.write(move |conn| accounts::delete_session(conn, &id)).await {
            return e.into_response();
        }
    }
    let mut res = Redirect::to("/login").into_response();
    auth::STAFF_COOKIES.signed_out(&mut res, state.secure_cookies);
    res
}

#[derive(Deserialize)]
pub struct SwitchForm {
    org_id: i64,
}

/// Lists a company switch may return to; other pages hold records of the old company.
const LIST_PATHS: &[&str] = &[
    "quotings", "ocops", "invoices", "credit_notes", "purchase_orders", "bills", "bill_credit_notes", "transfers",
    "adjustments", "products", "customers", "suppliers", "warehouses", "brands", "employees", "sales_reports",
    "purchase_reports", "inventory_reports", "reports_download",
];

/// `POST /switch-org`: switches the session's company and reloads the list the user was on.
pub async fn switch_org(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Form(form): Form<SwitchForm>) -> AppResult<Response> {
    let session = auth.session.clone().ok_or(AppError::Unauthorized)?;
    if !auth.orgs.iter().any(|o| o.id == form.org_id) {
        return Err(AppError::forbidden("No access to this organisation."));
    }
    let (user_id, org_id) = (auth.user_id, form.org_id);
    state
        .db
        .write(move |conn| {
            accounts::set_session_org(conn, &session.id, org_id)?;
            accounts::mark_org_used(conn, user_id, org_id)
        })
        .await?;
    let back = headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.split("://").nth(1).and_then(|rest| rest.split_once('/')).map(|(_, p)| p.to_string()))
        .and_then(|p| p.split(['/', '?']).next().map(str::to_string))
        .filter(|seg| LIST_PATHS.contains(&seg.as_str()))
        .map(|seg| format!("/{seg}"))
        .unwrap_or_else(|| HOME.to_string());
    Ok(Redirect::to(&back).into_response())
}

/// `GET /password/reset`: explains how a forgotten password is reset (not an error).
pub async fn password_reset(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let (secret, _) = auth::STAFF_COOKIES.form_secret(&headers);
    let mut page = login_page(&state, &secret, String::new(), BTreeMap::new(), None);
    page.notice = Some(FORGOT_PASSWORD);
    page.into_response()
}

#[derive(Template, WebTemplate)]
#[template(path = "password_change.html")]
pub struct ChangePasswordPage {
    pub css: String,
    pub js: String,
    pub logo: String,
    pub csrf: String,
    pub name: String,
    /// Signed in with a one-time password: nothing else opens until it is changed.
    pub forced: bool,
    pub error: String,
}

fn change_page(state: &AppState, auth: &Auth, error: String) -> ChangePasswordPage {
    ChangePasswordPage {
        css: state.assets.url("css/app.css"),
        js: state.assets.url("js/app.js"),
        logo: state.assets.url("img/logo.svg"),
        csrf: auth.session.as_ref().map(|s| s.csrf.clone()).unwrap_or_default(),
        name: auth.user_name.clone(),
        forced: auth.must_change_password,
        error,
    }
}

/// `GET /password/change`: choose a new password (where a one-time password leads).
pub async fn change_password_page(State(state): State<AppState>, auth: Auth) -> ChangePasswordPage {
    change_page(&state, &auth, String::new())
}

#[derive(Deserialize)]
pub struct NewPasswordForm {
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
}

/// `POST /password/change`: sets the new password, ends the user's other sessions and tokens,
/// and opens the app.
pub async fn change_password(State(state): State<AppState>, auth: Auth, Form(form): Form<NewPasswordForm>) -> AppResult<Response> {
    if let Err(m) = validate::new_password_confirmed(&form.password, &form.confirm) {
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, change_page(&state, &auth, m.to_string())).into_response());
    }
    auth::change_own_password(&state, &auth, &form.password).await?;
    Ok(Redirect::to(HOME).into_response())
}
