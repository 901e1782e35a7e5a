//! Reports calls of spec §7: `POST /api/reports` queues a report, `GET /api/reports` lists
//! the company's reports, `GET /api/download/{name}` answers a finished file, and
//! `POST /api/reports/{id}/cancel` stops the user's own queued or running report.

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::http::json::{ApiJson, ListAnswer};
use crate::auth::Auth;
use db::error::{AppError, AppResult};
use services::reports::{self, JobView, PREPARING};
use crate::state::AppState;

#[derive(Serialize)]
pub struct Queued {
    data: JobView,
    message: &'static str,
}

/// `POST /api/reports`: 201 with the new job, or 200 with the company's identical job still
/// queued or running; 422 naming a bad field.
pub async fn create(State(state): State<AppState>, auth: Auth, ApiJson(body): ApiJson<serde_json::Value>) -> AppResult<Response> {
    let (job, created) = reports::submit(&state.db, &state.reports, auth.asker(), body).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(Queued { data: JobView::new(&job, auth.user_id, auth.zone), message: PREPARING })).into_response())
}

/// `GET /api/reports`: the download list, newest first.
pub async fn list(State(state): State<AppState>, auth: Auth) -> AppResult<Json<ListAnswer<JobView>>> {
    let jobs = reports::visible_jobs(&state.db, auth.asker()).await?;
    Ok(Json(ListAnswer::all(jobs.iter().map(|j| JobView::new(j, auth.user_id, auth.zone)).collect())))
}

/// `POST /api/reports/{id}/cancel`.
pub async fn cancel(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> AppResult<Json<crate::http::json::DataAnswer<JobView>>> {
    let id: i64 = id.parse().map_err(|_| AppError::NotFound)?;
    reports::cancel(&state.db, auth.asker(), id).await?;
    let org = auth.org_id;
    let job = state.db.run(move |c| db::reports::get(c, org, id)).await?;
    Ok(Json(crate::http::json::DataAnswer { data: JobView::new(&job, auth.user_id, auth.zone) }))
}

/// `GET /api/download/{name}`: the file as `type-dateRange.xlsx`.
pub async fn download(State(state): State<AppState>, auth: Auth, Path(name): Path<String>) -> AppResult<Response> {
    file(&state, &auth, &name).await
}

/// Answers a finished report's file, streamed from the file store as it arrives.
pub async fn file(state: &AppState, auth: &Auth, name: &str) -> AppResult<Response> {
    let (key, download_as) = reports::file_for(&state.db, auth.asker(), name).await?;
    let Some(file) = state.store.get(&key).await? else {
        return Err(AppError::bad_request("The report's file is no longer on the server; prepare the report again."));
    };
    let mut res = crate::http::download::attachment(&download_as, Body::from_stream(file.bytes));
    res.headers_mut().insert(header::CONTENT_LENGTH, file.size.into());
    if download_as.ends_with(".pdf") {
        // The customer statements job writes a PDF (issue 33).
        res.headers_mut().insert(header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/pdf"));
    }
    Ok(res)
}
