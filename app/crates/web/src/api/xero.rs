//! The accounting link's calls (spec §7, issue 12): the connection (role 4), Batch SendXero.
//! SendXero and XeroRecall of one sheet are `orders::xero`.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::json::{ApiJson, DataAnswer};
use crate::auth::Auth;
use db::error::{AppError, AppResult};
use domain::Actor;
use services::xero::{self as svc, ConnectionInput, Status};
use crate::state::AppState;

/// `GET /api/xero/connection` (role 4): whether the company is connected, to which Xero
/// organisation and through which addresses (never the secret).
pub async fn get(State(state): State<AppState>, auth: Auth) -> AppResult<Json<DataAnswer<Status>>> {
    let actor = Actor::from(&auth);
    Ok(Json(DataAnswer { data: state.db.run(move |c| svc::status(c, &actor)).await? }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionBody {
    #[serde(default)]
    client_id: String,
    #[serde(default)]
    client_secret: String,
    identity_url: Option<String>,
    api_url: Option<String>,
}

/// `PUT /api/xero/connection` (role 4): signs in to Xero with the settings, reads the
/// organisation and its tax rates, and only then stores them, the secret sealed.
pub async fn put(State(state): State<AppState>, auth: Auth, ApiJson(b): ApiJson<ConnectionBody>) -> AppResult<Json<Value>> {
    let actor = Actor::from(&auth);
    let status = svc::connect(&state, &actor, ConnectionInput { client_id: b.client_id, client_secret: b.client_secret, identity_url: b.identity_url, api_url: b.api_url }).await?;
    Ok(Json(json!({ "message": "Operation successful", "data": status })))
}

/// `POST /api/xero/connection/test` (role 4).
pub async fn test(State(state): State<AppState>, auth: Auth) -> AppResult<Json<Value>> {
    let status = svc::retest(&state, &Actor::from(&auth)).await?;
    Ok(Json(json!({ "message": "Operation successful", "data": status })))
}

/// `PUT /api/xero/mapping` (role 4): the accounts and tax rates sheets post to, each an
/// active account or rate of the company's Xero that fits it (`{sales, purchases,
/// inventory, cogs, taxSales, taxPurchases, taxFreeSales, taxFreePurchases}`).
pub async fn mapping(State(state): State<AppState>, auth: Auth, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    let m = state.db.write(move |c| svc::save_mapping(c, &actor, &body, now)).await?;
    Ok(Json(json!({ "message": "Operation successful", "data": m })))
}

/// `DELETE /api/xero/connection` (role 4); a "Connect to Xero" connection is also removed
/// at Xero.
pub async fn delete(State(state): State<AppState>, auth: Auth) -> AppResult<Json<Value>> {
    if !svc::disconnect_everywhere(&state, &Actor::from(&auth)).await? {
        return Err(AppError::NotFound);
    }
    Ok(Json(json!({ "message": "Operation successful" })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizeBody {
    #[serde(default)]
    client_id: String,
    #[serde(default)]
    client_secret: String,
    login_url: Option<String>,
    identity_url: Option<String>,
    api_url: Option<String>,
}

/// `POST /api/xero/authorize` (role 4): starts "Connect to Xero"; answers `{url}`, Xero's
/// consent screen, which returns the browser to `/settings/xero/callback`.
pub async fn authorize(State(state): State<AppState>, auth: Auth, headers: axum::http::HeaderMap, ApiJson(b): ApiJson<AuthorizeBody>) -> AppResult<Json<Value>> {
    let input = svc::CodeInput { client_id: b.client_id, client_secret: b.client_secret, login_url: b.login_url, identity_url: b.identity_url, api_url: b.api_url };
    let url = svc::start_code_flow(&state, &Actor::from(&auth), &input, &crate::http::public_url(&headers, svc::CALLBACK_PATH)).await?;
    Ok(Json(json!({ "message": "Operation successful", "url": url })))
}

/// `PUT /api/xero/organisation` (role 4): `{tenantId}`, one of the organisations Xero offered.
pub async fn organisation(State(state): State<AppState>, auth: Auth, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
    let tenant = body.get("tenantId").and_then(Value::as_str).unwrap_or_default().to_string();
    let status = svc::pick_organisation(&state, &Actor::from(&auth), &tenant).await?;
    Ok(Json(json!({ "message": "Operation successful", "data": status })))
}

/// `POST /api/xero` (Batch SendXero): `{dateRange, sheets}`.
pub async fn batch(State(state): State<AppState>, auth: Auth, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
    let b = svc::parse_batch(&body)?;
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    let queued = state.db.write(move |c| svc::batch(c, &actor, &b, now)).await?;
    state.xero.bell.notify_one();
    Ok(Json(json!({ "message": svc::BATCH_QUEUED, "queued": queued })))
}

/// `POST /api/xero/payments` (approvers and accountants): read the payments of the company's
/// sent sales invoices from Xero now. `queued` is false when a read is already on its way.
pub async fn payments(State(state): State<AppState>, auth: Auth) -> AppResult<Json<Value>> {
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    let queued = state.db.write(move |c| svc::request_payments(c, &actor, now)).await?;
    state.xero.bell.notify_one();
    let message = if queued { "Reading payments from Xero; the invoice lists show them when done." } else { "Payments are already being read from Xero." };
    Ok(Json(json!({ "message": message, "queued": queued })))
}
