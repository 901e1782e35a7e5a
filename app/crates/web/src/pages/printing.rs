//! Printing without a dialog (issue 33): Settings › Printers (`/settings/printers…`, role 4,
//! audited), sending sheets to their printer (`POST /print_jobs`) and the status of a print
//! job (`GET /print_jobs/{id}`, a fragment htmx polls until the job is printed or failed).

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::shell::Shell;
use crate::auth::Auth;
use crate::state::AppState;
use db::error::{AppError, AppResult};
use db::printing::{PrintJob, PrintState, Printer};
use documents::Variant;
use domain::Actor;
use services::print::PRINT_SUCCESSFUL;
use services::printing::{self as svc, Choice, PrinterForm};

/// How many print jobs Settings › Printers lists.
const RECENT_JOBS: i64 = 15;

/// The Printers section of the settings page.
pub struct PrintersSection {
    pub rows: Vec<PrinterRow>,
    /// The add form (what was typed, after a refusal).
    pub add: PrinterFormView,
    pub recent: Vec<RecentJob>,
}

pub struct PrinterRow {
    pub id: i64,
    pub name: String,
    pub url: String,
    /// The warehouse's name, or "Any".
    pub warehouse: String,
    pub active: bool,
    pub form: PrinterFormView,
}

/// A printer's form: its values and messages.
pub struct PrinterFormView {
    /// Where it posts.
    pub action: String,
    /// Prefix of its inputs' ids (unique on the page).
    pub key: String,
    pub name: String,
    pub url: String,
    pub warehouse_id: String,
    pub active: bool,
    pub errors: BTreeMap<String, String>,
    /// (value, name): "" for any, then the company's warehouses.
    pub warehouses: Vec<(String, String)>,
}

impl PrinterFormView {
    pub fn error(&self, field: &str) -> String {
        self.errors.get(field).cloned().unwrap_or_default()
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }
}

pub struct RecentJob {
    pub id: i64,
    pub at: String,
    pub printer: String,
    pub sheets: usize,
    pub state: &'static str,
    pub note: String,
}

/// What was typed into a refused printer form: which form (`None`: the add form).
pub struct Typed {
    pub id: Option<i64>,
    pub form: PrinterForm,
    pub errors: BTreeMap<String, String>,
}

fn form_view(action: String, key: String, f: &PrinterForm, errors: BTreeMap<String, String>, warehouses: &[(String, String)]) -> PrinterFormView {
    PrinterFormView {
        action,
        key,
        name: f.name.clone(),
        url: f.url.clone(),
        warehouse_id: f.warehouse_id.map(|w| w.to_string()).unwrap_or_default(),
        active: f.active,
        errors,
        warehouses: warehouses.to_vec(),
    }
}

fn state_word(s: PrintState) -> &'static str {
    match s {
        PrintState::Queued => "Queued",
        PrintState::Sending => "Sending",
        PrintState::Printed => "Printed",
        PrintState::Failed => "Failed",
    }
}

/// The Printers section for role 4 (empty for anyone else, who never sees the page).
pub async fn section(state: &AppState, auth: &Auth, typed: Option<Typed>) -> AppResult<PrintersSection> {
    let actor = Actor::from(auth);
    let printers = svc::printers(state, &actor).await?;
    let recent = svc::recent_jobs(state, &actor, RECENT_JOBS).await?;
    let org = auth.org_id;
    let warehouses: Vec<(String, String)> = state.db.run(move |c| db::masters::all_warehouses(c, org)).await?.into_iter().map(|w| (w.id.to_string(), w.name)).collect();
    let mut choices = vec![(String::new(), "Any warehouse".to_string())];
    choices.extend(warehouses.iter().cloned());
    let (mut typed_edit, typed_add) = match typed {
        Some(t) if t.id.is_some() => (Some(t), None),
        other => (None, other),
    };
    let rows = printers
        .into_iter()
        .map(|p: Printer| {
            let stored = PrinterForm { name: p.name.clone(), url: p.url.clone(), warehouse_id: p.warehouse_id, active: p.active };
            let (form, errors) = match typed_edit.take_if(|t| t.id == Some(p.id)) {
                Some(t) => (t.form, t.errors),
                None => (stored, BTreeMap::new()),
            };
            PrinterRow {
                id: p.id,
                warehouse: match p.warehouse_id {
                    None => "Any".to_string(),
                    Some(w) => warehouses.iter().find(|(id, _)| *id == w.to_string()).map_or_else(|| format!("#{w}"), |(_, n)| n.clone()),
                },
                form: form_view(format!("/settings/printers/{}", p.id), format!("p{}", p.id), &form, errors, &choices),
                name: p.name,
                url: p.url,
                active: p.active,
            }
        })
        .collect();
    let (add_form, add_errors) = match typed_add {
        Some(t) => (t.form, t.errors),
        None => (PrinterForm { active: true, ..Default::default() }, BTreeMap::new()),
    };
    let zone = auth.zone;
    Ok(PrintersSection {
        rows,
        add: form_view("/settings/printers".into(), "new".into(), &add_form, add_errors, &choices),
        recent: recent
            .into_iter()
            .map(|j| RecentJob {
                id: j.id,
                at: domain::dates::date_time(j.created_at, zone),
                printer: j.printer_name.clone(),
                sheets: j.ids().len(),
                state: state_word(j.print_state()),
                note: if j.print_state() == PrintState::Printed {
                    j.printer_job_id.map(|n| format!("printer job {n}")).unwrap_or_default()
                } else {
                    j.last_error.clone()
                },
            })
            .collect(),
    })
}

#[derive(Deserialize, Default)]
pub struct PrinterPost {
    #[serde(default)]
    name: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    warehouse_id: String,
    #[serde(default)]
    active: String,
}

impl PrinterPost {
    fn form(&self) -> Result<PrinterForm, BTreeMap<String, String>> {
        let w = self.warehouse_id.trim();
        let warehouse_id = if w.is_empty() {
            None
        } else {
            match w.parse::<i64>() {
                Ok(id) => Some(id),
                Err(_) => return Err(BTreeMap::from([("warehouse_id".to_string(), "Choose one of the company's warehouses, or any.".to_string())])),
            }
        };
        Ok(PrinterForm { name: self.name.clone(), url: self.url.clone(), warehouse_id, active: !self.active.is_empty() })
    }
}

/// Back to the settings page with a notice that shows once.
async fn back(state: &AppState, auth: &Auth, level: &'static str, text: String) -> AppResult<Response> {
    crate::pages::redirect_with_notice(state, auth, "/settings", level, text).await
}

fn owner(auth: &Auth) -> AppResult<()> {
    services::reference_data::only_approver(auth.role)
}

/// After a post: a success goes back to the section with its notice; a refused form comes
/// back on the page (422) with what was typed and the message under each field.
async fn answer(state: &AppState, auth: &Auth, uri: &Uri, id: Option<i64>, form: PrinterForm, r: AppResult<String>) -> AppResult<Response> {
    match r {
        Ok(m) => back(state, auth, "success", m).await,
        Err(AppError::Validation { message, errors }) => {
            let detail: Vec<String> = errors.values().cloned().collect();
            let alert = format!("{message} {}", detail.join(" "));
            let page = super::settings::page_with_printers(state, auth, uri, ("error", alert), Typed { id, form, errors }).await?;
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e),
    }
}

/// `POST /settings/printers`: adds a printer.
pub async fn add(State(state): State<AppState>, auth: Auth, uri: Uri, Form(p): Form<PrinterPost>) -> AppResult<Response> {
    owner(&auth)?;
    save(&state, &auth, &uri, None, &p).await
}

/// `POST /settings/printers/{id}`: changes a printer.
pub async fn edit(State(state): State<AppState>, auth: Auth, uri: Uri, Path(id): Path<i64>, Form(p): Form<PrinterPost>) -> AppResult<Response> {
    owner(&auth)?;
    svc::printer(&state, &Actor::from(&auth), id).await?;
    save(&state, &auth, &uri, Some(id), &p).await
}

async fn save(state: &AppState, auth: &Auth, uri: &Uri, id: Option<i64>, p: &PrinterPost) -> AppResult<Response> {
    let typed = PrinterForm { name: p.name.clone(), url: p.url.clone(), warehouse_id: None, active: !p.active.is_empty() };
    let form = match p.form() {
        Ok(f) => f,
        Err(errors) => return answer(state, auth, uri, id, typed, Err(AppError::Validation { message: "Check the printer's fields.".into(), errors })).await,
    };
    let name = form.name.trim().to_string();
    let r = svc::save_printer(state, &Actor::from(auth), id, form.clone()).await.map(|_| if id.is_some() { format!("The printer {name} is saved.") } else { format!("The printer {name} is added.") });
    answer(state, auth, uri, id, form, r).await
}

/// `POST /settings/printers/{id}/delete`: removes a printer.
pub async fn remove(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    owner(&auth)?;
    let actor = Actor::from(&auth);
    let p = svc::printer(&state, &actor, id).await?;
    svc::remove_printer(&state, &actor, id).await?;
    back(&state, &auth, "success", format!("The printer {} is removed.", p.name)).await
}

/// `POST /settings/printers/{id}/test`: asks the printer for its state (Get-Printer-Attributes).
pub async fn test(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    owner(&auth)?;
    let (level, text) = match svc::test_printer(&state, &Actor::from(&auth), id).await? {
        Ok(summary) => ("success", format!("The printer answered: {summary}.")),
        Err(why) => ("error", format!("The printer could not be asked: {why}.")),
    };
    back(&state, &auth, level, text).await
}

/// The status of a print job as the page shows it (a fragment htmx polls while it runs).
#[derive(Template, WebTemplate)]
#[template(path = "print_status.html")]
pub struct StatusFragment {
    pub id: i64,
    pub state: &'static str,
    pub text: String,
    /// Queued or sending: the fragment asks again in a second.
    pub active: bool,
    pub failed: bool,
}

impl StatusFragment {
    pub fn of(job: &PrintJob) -> Self {
        let state = job.print_state();
        let text = match state {
            PrintState::Queued | PrintState::Sending if job.last_error.is_empty() => format!("Sending to {}…", job.printer_name),
            PrintState::Queued | PrintState::Sending => format!("Sending to {}… (will try again: {})", job.printer_name, job.last_error),
            PrintState::Printed if job.last_error.is_empty() => format!("{PRINT_SUCCESSFUL} ({})", job.printer_name),
            PrintState::Printed => format!("{PRINT_SUCCESSFUL} ({}). {}", job.printer_name, job.last_error),
            PrintState::Failed => format!("{}: {}", job.printer_name, job.last_error),
        };
        Self { id: job.id, state: state.code(), text, active: !state.is_final(), failed: state == PrintState::Failed }
    }
}

/// A print job's own page, for a browser without JavaScript (the same fragment).
#[derive(Template, WebTemplate)]
#[template(path = "print_job.html")]
pub struct StatusPage {
    pub shell: Shell,
    /// The status fragment, rendered.
    pub fragment: String,
}

/// `GET /print_jobs/{id}`: the job's status; another company's job is not found.
pub async fn status(State(state): State<AppState>, auth: Auth, headers: HeaderMap, uri: Uri, Path(id): Path<i64>) -> AppResult<Response> {
    let job = svc::status(&state, auth.org_id, id).await?;
    let fragment = StatusFragment::of(&job);
    if headers.contains_key("hx-request") {
        return Ok(fragment.into_response());
    }
    let shell = Shell::new(&state, &auth, "Print job", uri.path(), &[]).await?;
    let fragment = fragment.render().map_err(|e| AppError::Internal(anyhow::anyhow!("the print status could not be rendered: {e}")))?;
    Ok(StatusPage { shell, fragment }.into_response())
}

/// `POST /print_jobs` with `ids` (one or more, repeated or comma-separated), `variant` and
/// `from` (`sheet`: the sheet's warehouse's printer; `list`: the company's default
/// warehouse's). htmx gets the status fragment; a plain form post goes to the job's page.
pub async fn send(State(state): State<AppState>, auth: Auth, headers: HeaderMap, RawQuery(_q): RawQuery, body: axum::body::Bytes) -> AppResult<Response> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).map_err(|e| AppError::bad_request(format!("The print request could not be read: {e}")))?;
    let values = |key: &str| pairs.iter().filter(|(k, _)| k == key).map(|(_, v)| v.as_str()).collect::<Vec<_>>();
    let ids = services::print::parse_ids(values("ids"))?;
    let variant = Variant::parse(values("variant").first().copied()).ok_or_else(|| AppError::bad_request("Choose variant=standard (with prices) or variant=noprice (delivery document)."))?;
    let choice = match values("from").first().copied() {
        Some("list") => Choice::Selection,
        _ if ids.len() == 1 => Choice::Sheet(ids[0]),
        _ => Choice::Selection,
    };
    let Some(queued) = svc::send(&state, &Actor::from(&auth), ids, variant, choice).await? else {
        return Err(AppError::Conflict {
            message: "No printer is set up for this warehouse (Settings › Printers); print from the browser instead.".into(),
            code: Some("no_printer"),
            reasons: vec![],
        });
    };
    if headers.contains_key("hx-request") {
        let org = auth.org_id;
        let job = svc::status(&state, org, queued.id).await?;
        return Ok(StatusFragment::of(&job).into_response());
    }
    Ok(Redirect::to(&format!("/print_jobs/{}", queued.id)).into_response())
}
