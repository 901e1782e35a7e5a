//! `POST /api/ag/orders-import` (Import Draft Inv) and `POST /api/ag/import` (Import Basic):
//! multipart, one xlsx `file` (spec §7). A small file answers 'Operation Success' with what
//! it did; a large one answers 202 with the job that imports it (Download Center).

use axum::Json;
use axum::extract::State;

use crate::http::upload::Upload;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::auth::Auth;
use domain::imports::{ImportKind, QUEUED, SUCCESS};
use db::error::AppResult;
use services::imports::{self, Outcome};
use crate::state::AppState;

#[derive(Serialize)]
struct Answer {
    message: String,
    /// What was done, in words (imported now).
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    /// The job importing the file (queued).
    #[serde(rename = "jobId", skip_serializing_if = "Option::is_none")]
    job_id: Option<i64>,
}

async fn submit(state: &AppState, auth: &Auth, kind: ImportKind, upload: Upload) -> AppResult<Response> {
    let again = upload.field("again") == Some("1");
    Ok(match imports::submit(state, &domain::Actor::from(auth), auth.zone, kind, &upload.file_name, upload.file, again).await? {
        Outcome::Done(done) => Json(Answer { message: SUCCESS.to_string(), detail: Some(done.message), job_id: None }).into_response(),
        Outcome::Queued { id } => (StatusCode::ACCEPTED, Json(Answer { message: QUEUED.to_string(), detail: None, job_id: Some(id) })).into_response(),
    })
}

/// `POST /api/ag/orders-import`.
pub async fn draft_invoices(State(state): State<AppState>, auth: Auth, upload: Upload) -> AppResult<Response> {
    submit(&state, &auth, ImportKind::DraftInvoices, upload).await
}

/// `POST /api/ag/import`.
pub async fn basic(State(state): State<AppState>, auth: Auth, upload: Upload) -> AppResult<Response> {
    submit(&state, &auth, ImportKind::Basic, upload).await
}
