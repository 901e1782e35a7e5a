//! The accounting link's calls (spec §7, issue 12): the connection (role 4), Batch SendXero.
//! SendXero and XeroRecall of one sheet are `orders::xero`.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiJson, DataAnswer};
use crate::auth::Auth;
use db::error::{AppError, AppResult};
use domain::Actor;
use crate::services::xero::{self as svc, ConnectionInput, Status};
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
    let status = connect(&state, &actor, ConnectionInput { client_id: b.client_id, client_secret: b.client_secret, identity_url: b.identity_url, api_url: b.api_url }).await?;
    Ok(Json(json!({ "message": "Operation successful", "data": status })))
}

/// Connects the actor's company (the settings screen's Connect too).
pub async fn connect(state: &AppState, actor: &Actor, input: ConnectionInput) -> AppResult<Status> {
    crate::services::reference_data::only_approver(actor.role)?;
    let checked = svc::check_input(&input, state.xero.settings.standin)?;
    let tested = svc::test(&state.xero.client, actor.org_id, &checked).await?;
    let (a, key, now) = (actor.clone(), state.xero.key.clone(), state.xero.clock.now());
    state
        .db
        .write(move |c| {
            svc::save(c, &a, &key, &checked, &tested, now)?;
            svc::status(c, &a)
        })
        .await
}

/// Test connection: reads the organisation and tax rates again with the stored settings.
pub async fn retest(state: &AppState, actor: &Actor) -> AppResult<Status> {
    let (a, key) = (actor.clone(), state.xero.key.clone());
    let stored = state.db.run(move |c| svc::stored(c, &a, &key)).await?;
    let tested = svc::test(&state.xero.client, actor.org_id, &stored).await?;
    let (a, now) = (actor.clone(), state.xero.clock.now());
    state
        .db
        .write(move |c| {
            svc::record_test(c, &a, &tested, now)?;
            svc::status(c, &a)
        })
        .await
}

/// `POST /api/xero/connection/test` (role 4).
pub async fn test(State(state): State<AppState>, auth: Auth) -> AppResult<Json<Value>> {
    let status = retest(&state, &Actor::from(&auth)).await?;
    Ok(Json(json!({ "message": "Operation successful", "data": status })))
}

/// `DELETE /api/xero/connection` (role 4).
pub async fn delete(State(state): State<AppState>, auth: Auth) -> AppResult<Json<Value>> {
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    if !state.db.write(move |c| svc::disconnect(c, &actor, now)).await? {
        return Err(AppError::NotFound);
    }
    Ok(Json(json!({ "message": "Operation successful" })))
}

/// `POST /api/xero` (Batch SendXero): `{dateRange, sheets}`.
pub async fn batch(State(state): State<AppState>, auth: Auth, ApiJson(body): ApiJson<Value>) -> AppResult<Json<Value>> {
    let b = svc::parse_batch(&body)?;
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    let queued = state.db.write(move |c| svc::batch(c, &actor, &b, now)).await?;
    state.xero.bell.notify_one();
    Ok(Json(json!({ "message": svc::BATCH_QUEUED, "queued": queued })))
}
