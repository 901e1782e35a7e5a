//! The Reports Download Center (`/reports_download`, spec §2.9): the company's reports with
//! their state, progress while running, and a download once done. The table refreshes
//! itself (htmx polling) while a report is queued or running, and stops when none is.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect, Response};
use chrono::Datelike;

use super::shell::Shell;
use super::stream;
use crate::auth::Auth;
use db::error::{AppError, AppResult};
use domain::imports::ImportKind;
use services::reports::{self, JobView};
use services::imports::{self, Outcome};
use domain::Actor;
use services::xero as xero_svc;
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
        let jobs: Vec<JobView> = reports::visible_jobs(&state.db, auth.asker()).await?.iter().map(|j| JobView::new(j, auth.user_id, auth.zone)).collect();
        let polling = jobs.iter().any(|j| j.active);
        Ok(Self { jobs, polling, csrf: auth.session.as_ref().map(|s| s.csrf.clone()).unwrap_or_default() })
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "reports/center.html")]
pub struct CenterPage {
    pub shell: Shell,
    pub table: JobsTable,
    /// The Batch SendXero dialog's sheet types and default range (this month).
    pub xero_sheets: Vec<(i32, &'static str)>,
    pub xero_from: String,
    pub xero_to: String,
    /// What the last Batch SendXero or import did (after a form post without htmx).
    pub notice: Option<String>,
    /// Why the last import was refused (row-numbered messages).
    pub error: Option<String>,
    /// Whether the user may import (approvers).
    pub may_import: bool,
    /// Whether the user may send a batch to Xero (approvers and accountants).
    pub may_batch_send: bool,
}

#[derive(serde::Deserialize)]
pub struct CenterQuery {
    #[serde(default)]
    xero_queued: Option<usize>,
    /// `notice=1`: an import kept what it did for this page.
    #[serde(flatten)]
    notice: crate::pages::NoticeFlag,
}

const TITLE: &str = "Reports Download Center";
const PATH: &str = "/reports_download";

/// `GET /reports_download`, streamed (web/stream.rs): the reports are read after the head
/// has gone.
pub async fn page(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Query(q): Query<CenterQuery>) -> AppResult<Response> {
    let kept = q.notice.take(&state, &auth).await?.map(|(_, text)| text);
    let notice = q.xero_queued.map(batch_notice).or(kept);
    let (st, au) = (state.clone(), auth.clone());
    stream::respond(&state, &auth, &headers, TITLE, PATH, &[], move |shell| async move { center_page(&st, &au, shell, notice, None).await }).await
}

/// The page whole, after a refused import (its status says how it went).
async fn refused(state: &AppState, auth: &Auth, error: String) -> AppResult<CenterPage> {
    let shell = Shell::new(state, auth, TITLE, PATH, &[]).await?;
    center_page(state, auth, shell, None, Some(error)).await
}

/// The page around `shell`, with what the last Batch SendXero or import did.
async fn center_page(state: &AppState, auth: &Auth, shell: Shell, notice: Option<String>, error: Option<String>) -> AppResult<CenterPage> {
    let table = JobsTable::load(state, auth).await?;
    let today = domain::dates::today(auth.zone);
    let first = today.with_day(1).unwrap_or(today);
    Ok(CenterPage {
        shell,
        table,
        xero_sheets: vec![(1, "Invoices"), (2, "Credit Notes"), (4, "Bills"), (5, "Bill CreditNotes")],
        xero_from: first.to_string(),
        xero_to: today.to_string(),
        notice,
        error,
        may_import: domain::permissions::may_administer(auth.role),
        may_batch_send: domain::permissions::may_recall_or_batch_send(auth.role, auth.is_acct),
    })
}

fn import_kind(raw: &str) -> AppResult<ImportKind> {
    match raw {
        "draft-inv" => Ok(ImportKind::DraftInvoices),
        "basic" => Ok(ImportKind::Basic),
        _ => Err(AppError::NotFound),
    }
}

/// `POST /reports_download/import/{draft-inv|basic}`: the Import buttons' upload (multipart,
/// the CSRF token a field of the form). An import that was accepted redirects to the page
/// with what it did (post/redirect/get: a reload imports nothing again); a refusal comes back
/// on the page with its status. 'Import it again' (`again=1`) lets the same file through.
pub async fn import(State(state): State<AppState>, auth: Auth, Path(kind): Path<String>, upload: Result<crate::http::upload::Upload, AppError>) -> AppResult<Response> {
    let kind = import_kind(&kind)?;
    services::reference_data::only_approver(auth.role)?;
    let outcome = match upload {
        Ok(upload) => {
            let again = upload.field("again") == Some("1");
            imports::submit(&state, &domain::Actor::from(&auth), auth.zone, kind, &upload.file_name, upload.file, again).await
        }
        Err(e) => Err(e),
    };
    let error = match outcome {
        Ok(Outcome::Done(done)) => return crate::pages::redirect_with_notice(&state, &auth, PATH, "success", done.message).await,
        Ok(Outcome::Queued { .. }) => return crate::pages::redirect_with_notice(&state, &auth, PATH, "success", domain::imports::QUEUED.to_string()).await,
        Err(e @ (AppError::Validation { .. } | AppError::Conflict { .. } | AppError::TooLarge(_) | AppError::BadRequest(_) | AppError::Timeout(_) | AppError::Storage(_))) => e,
        Err(e) => return Err(e),
    };
    Ok((error.status(), refused(&state, &auth, error.to_string()).await?).into_response())
}

/// `GET /reports_download/template/{draft-inv|basic}`: the import's xlsx template.
pub async fn template(Path(kind): Path<String>, _auth: Auth) -> AppResult<Response> {
    let kind = import_kind(&kind)?;
    let bytes = tokio::task::spawn_blocking(move || imports::template(kind)).await.map_err(|e| AppError::Internal(e.into()))??;
    Ok(crate::http::download::attachment(kind.template_name(), bytes))
}

fn batch_notice(n: usize) -> String {
    format!("{} ({n} sheet{} queued).", xero_svc::BATCH_QUEUED, if n == 1 { "" } else { "s" })
}

/// `POST /reports_download/xero_batch`: Batch SendXero from the dialog ('Select Send
/// Ranges'); the sheets arrive as repeated `sheets` fields.
pub async fn xero_batch(State(state): State<AppState>, auth: Auth, headers: HeaderMap, body: String) -> AppResult<Response> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&body).map_err(|_| AppError::bad_request("The form could not be read."))?;
    let field = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()).unwrap_or_default();
    let sheets: Vec<serde_json::Value> = pairs.iter().filter(|(n, _)| n == "sheets").map(|(_, v)| serde_json::Value::String(v.clone())).collect();
    let b = xero_svc::parse_batch(&serde_json::json!({"dateRange": [field("date_from"), field("date_to")], "sheets": sheets}))?;
    let (actor, now) = (Actor::from(&auth), state.xero.clock.now());
    let queued = state.db.write(move |c| xero_svc::batch(c, &actor, &b, now)).await?;
    state.xero.bell.notify_one();
    if headers.contains_key("hx-request") {
        let html = format!(r#"<div class="alert alert-success" id="xero-batch-result" role="status">{}</div>"#, batch_notice(queued));
        return Ok(Html(html).into_response());
    }
    Ok(Redirect::to(&format!("/reports_download?xero_queued={queued}")).into_response())
}

/// `GET /reports_download/jobs`: the table alone, for Refresh and the polling.
pub async fn jobs(State(state): State<AppState>, auth: Auth) -> AppResult<JobsTable> {
    JobsTable::load(&state, &auth).await
}

/// `POST /reports_download/{id}/cancel`: cancels the user's queued or running report and
/// answers the table.
pub async fn cancel(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> AppResult<JobsTable> {
    let id: i64 = id.parse().map_err(|_| AppError::NotFound)?;
    reports::cancel(&state.db, auth.asker(), id).await?;
    JobsTable::load(&state, &auth).await
}
