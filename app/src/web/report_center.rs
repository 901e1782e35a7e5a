//! The Reports Download Center (`/reports_download`, spec §2.9): the company's reports with
//! their state, progress while running, and a download once done. The table refreshes
//! itself (htmx polling) while a report is queued or running, and stops when none is.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::http::Uri;

use super::shell::Shell;
use crate::auth::Auth;
use crate::error::{AppError, AppResult};
use crate::reports::{self, JobView};
use crate::state::AppState;

/// The jobs table, alone (htmx refresh) or inside the page.
#[derive(Template, WebTemplate)]
#[template(path = "reports/jobs.html")]
pub struct JobsTable {
    pub jobs: Vec<JobView>,
    /// A report is queued or running: the table asks again in a moment.
    pub polling: bool,
    pub csrf: String,
}

impl JobsTable {
    async fn load(state: &AppState, auth: &Auth) -> AppResult<Self> {
        let jobs: Vec<JobView> = reports::visible_jobs(state, auth).await?.iter().map(|j| JobView::new(j, auth.user_id)).collect();
        let polling = jobs.iter().any(|j| j.active);
        Ok(Self { jobs, polling, csrf: auth.session.as_ref().map(|s| s.csrf.clone()).unwrap_or_default() })
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "reports/center.html")]
pub struct CenterPage {
    pub shell: Shell,
    pub table: JobsTable,
}

/// `GET /reports_download`.
pub async fn page(State(state): State<AppState>, auth: Auth, uri: Uri) -> AppResult<CenterPage> {
    let shell = Shell::new(&state, &auth, "Reports Download Center", uri.path(), &[]).await?;
    let table = JobsTable::load(&state, &auth).await?;
    Ok(CenterPage { shell, table })
}

/// `GET /reports_download/jobs`: the table alone, for Refresh and the polling.
pub async fn jobs(State(state): State<AppState>, auth: Auth) -> AppResult<JobsTable> {
    JobsTable::load(&state, &auth).await
}

/// `POST /reports_download/{id}/cancel`: cancels the user's queued or running report and
/// answers the table.
pub async fn cancel(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> AppResult<JobsTable> {
    let id: i64 = id.parse().map_err(|_| AppError::NotFound)?;
    reports::cancel(&state, &auth, id).await?;
    JobsTable::load(&state, &auth).await
}
