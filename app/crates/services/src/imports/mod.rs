//! The two imports of the Download Center (spec §2.9, §7): Import Draft Inv and Import
//! Basic. A file is read and every row checked before anything is written; a small file is
//! imported while the upload waits, a large one becomes a job of the report queue with its
//! state in the Download Center (docs/decisions/imports.md, "Import Draft Inv and Import Basic").

pub mod basic;
pub mod draft_invoices;

use std::sync::Arc;

use sha2::{Digest, Sha256};

use db::reports::{self as queue, Job, NewJob};
use db::{self, Db};
use domain::Actor;
use domain::enums::Role;
use domain::imports::{INLINE_ROWS, ImportKind, NO_ROWS, SUCCESS, WRITE_CHUNK, row_message};
use db::error::{AppError, AppResult};
use crate::reports::Progress;
use crate::orders;
use crate::reference_data::{audit_change, only_approver};
use crate::Core;
use xlsx::import::{Table, read_first_sheet, read_named_sheets};

/// A file read into its worksheets.
pub enum Parsed {
    DraftInvoices(Table),
    Basic(Vec<Option<Table>>),
}

impl Parsed {
    pub fn rows(&self) -> usize {
        match self {
            Parsed::DraftInvoices(t) => t.rows.len(),
            Parsed::Basic(ts) => ts.iter().flatten().map(|t| t.rows.len()).sum(),
        }
    }
}

/// Reads an upload on the blocking pool, within the upload limits.
pub async fn parse(kind: ImportKind, bytes: Arc<Vec<u8>>) -> AppResult<Parsed> {
    let read = tokio::task::spawn_blocking(move || match kind {
        ImportKind::DraftInvoices => read_first_sheet(&bytes, draft_invoices::COLUMNS).map(Parsed::DraftInvoices),
        ImportKind::Basic => {
            let wanted = basic::wanted();
            let refs: Vec<(&[&str], &[&[&str]])> = wanted.iter().map(|(n, c)| (*n, c.as_slice())).collect();
            read_named_sheets(&bytes, &refs).map(Parsed::Basic)
        }
    });
    read.await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("spreadsheet task failed: {e}")))?
        .map_err(|m| if m == domain::uploads::FILE_TOO_LARGE { AppError::TooLarge(m) } else { AppError::field("file", m) })
}

/// What an import did, in words for the toast and the Download Center.
pub struct Done {
    pub message: String,
}

/// The answer to an upload.
pub enum Outcome {
    /// Imported now.
    Done(Done),
    /// Queued as job `id`; its state is in the Download Center.
    Queued { id: i64 },
}

/// Imports an uploaded file, now or as a job (role 4 only). The same file as the company's
/// last import of this kind is refused (409 `same_file`) unless `again` asks for it.
pub async fn submit(core: &Core, who: &Actor, zone: chrono_tz::Tz, kind: ImportKind, file_name: &str, bytes: Vec<u8>, again: bool) -> AppResult<Outcome> {
    only_approver(who.role)?;
    let digest = hex::encode(Sha256::digest(&bytes));
    if !again {
        let org = who.org_id;
        if let Some((last, at, by)) = core.db.run(move |c| db::imports::last(c, org, kind.code())).await?
            && last == digest
        {
            let when = domain::dates::date_time(at, zone);
            return Err(AppError::Conflict { message: domain::imports::same_file(&when, &by), code: Some("same_file"), reasons: vec![] });
        }
    }
    let bytes = Arc::new(bytes);
    let parsed = parse(kind, bytes.clone()).await?;
    let rows = parsed.rows();
    if rows == 0 {
        return Err(AppError::field("file", NO_ROWS));
    }
    let outcome = if rows <= INLINE_ROWS {
        Outcome::Done(run(&core.db, kind, &who, zone, parsed, &|_, _| {}).await?)
    } else {
        drop(parsed);
        Outcome::Queued { id: enqueue(core, &who, kind, file_name, &bytes).await? }
    };
    let message = match &outcome {
        Outcome::Done(d) => d.message.clone(),
        Outcome::Queued { .. } => domain::imports::QUEUED.to_string(),
    };
    let (org, user, name, done) = (who.org_id, who.user_id, file_name.to_string(), matches!(outcome, Outcome::Done(_)));
    core
        .db
        .write(move |c| db::imports::record(c, &db::imports::Accepted { org_id: org, user_id: user, kind: kind.code(), file_name: &name, digest: &digest, rows, done, message: &message }))
        .await?;
    Ok(outcome)
}

/// Checks and writes a parsed file for `who`, in a company whose time zone is `zone`.
async fn run(db: &Db, kind: ImportKind, who: &Actor, zone: chrono_tz::Tz, parsed: Parsed, progress: &(dyn Fn(usize, usize) + Sync)) -> AppResult<Done> {
    let org = who.org_id;
    let message = match parsed {
        Parsed::Basic(tables) => {
            let actor = who.clone();
            let plan = db.run(move |c| db::read_snapshot(c, |c| basic::plan(c, org, &actor, tables))).await?;
            let counts = plan.apply(db, who, WRITE_CHUNK, progress).await?;
            format!("{SUCCESS}: {} created, {} updated.", counts.created, counts.updated)
        }
        Parsed::DraftInvoices(table) => {
            let today = domain::dates::today(zone);
            let planned = db.run(move |c| db::read_snapshot(c, |c| draft_invoices::plan(c, org, today, &table))).await?;
            let numbers = write_drafts(db, who.clone(), planned, progress).await?;
            match (numbers.first(), numbers.last()) {
                (Some(a), Some(b)) if numbers.len() > 1 => format!("{SUCCESS}: {} draft invoices created, {a} to {b}.", numbers.len()),
                (Some(a), _) => format!("{SUCCESS}: draft invoice {a} created."),
                _ => SUCCESS.to_string(),
            }
        }
    };
    let (detail, actor) = (message.clone(), who.clone());
    db.write(move |c| audit_change(c, &actor, "import", None, kind.title(), detail.clone())).await?;
    Ok(Done { message })
}

/// Creates the planned drafts, whole sheets of about [`WRITE_CHUNK`] lines per transaction;
/// answers their numbers.
async fn write_drafts(db: &Db, actor: Actor, planned: Vec<draft_invoices::Planned>, progress: &(dyn Fn(usize, usize) + Sync)) -> AppResult<Vec<String>> {
    let total: usize = planned.iter().map(|p| p.lines.len()).sum();
    let planned = Arc::new(planned);
    let mut numbers = Vec::new();
    let (mut start, mut done) = (0, 0);
    while start < planned.len() {
        let mut end = start;
        let mut lines = 0;
        while end < planned.len() && (lines == 0 || lines + planned[end].lines.len() <= WRITE_CHUNK) {
            lines += planned[end].lines.len();
            end += 1;
        }
        let (batch, actor) = (planned.clone(), actor.clone());
        let created = db
            .write(move |c| {
                let mut out = Vec::new();
                for p in &batch[start..end] {
                    let id = orders::create(c, &actor, draft_invoices::TYPE, &p.header, &p.lines).map_err(|e| {
                        let reason = match &e {
                            AppError::Validation { message, .. } => message.clone(),
                            other => other.to_string(),
                        };
                        AppError::bad_request(row_message("Draft Inv", p.first_row, "", &reason))
                    })?;
                    out.push(db::orders::get(c, actor.org_id, id)?.no);
                }
                Ok(out)
            })
            .await;
        match created {
            Ok(nos) => numbers.extend(nos),
            Err(AppError::BadRequest(m)) => {
                let saved = if numbers.is_empty() { "No sheet was created.".to_string() } else { format!("{} draft invoices before it were created ({} to {}).", numbers.len(), numbers[0], numbers[numbers.len() - 1]) };
                return Err(AppError::field("file", format!("{m} The import stopped there. {saved}")));
            }
            Err(e) => return Err(e),
        }
        done += lines;
        progress(done, total);
        start = end;
    }
    Ok(numbers)
}

// ---------------------------------------------------------------------------------------
// Large files: jobs of the report queue
// ---------------------------------------------------------------------------------------

/// The key a queued upload waits under in the file store for its job.
fn upload_key(org: i64, file: &str) -> String {
    format!("imports/{org}/{file}")
}

#[derive(serde::Serialize, serde::Deserialize)]
struct JobParams {
    /// The stored upload, relative to the company's upload folder.
    file: String,
    /// The name the file was uploaded with.
    name: String,
}

async fn enqueue(core: &Core, who: &Actor, kind: ImportKind, file_name: &str, bytes: &[u8]) -> AppResult<i64> {
    let digest = hex::encode(Sha256::digest(bytes));
    let stored = format!("{}-{}.xlsx", kind.code(), &digest[..32]);
    core.store.put_bytes(&upload_key(who.org_id, &stored), bytes.to_vec()).await.map_err(|e| match e {
        AppError::Storage(m) => AppError::Storage(format!("{m} Nothing was imported.")),
        other => other,
    })?;
    let name: String = file_name.chars().filter(|c| !c.is_control()).take(100).collect();
    let params = serde_json::to_string(&JobParams { file: stored, name: name.clone() }).map_err(|e| AppError::Internal(e.into()))?;
    let key = format!("{}:{digest}", kind.code());
    let (org, user) = (who.org_id, who.user_id);
    let (job, fresh) = core
        .db
        .write(move |c| {
            let new = NewJob { org_id: org, user_id: user, kind: kind.code(), params: &params, date_range: &name, dedupe_key: &key };
            queue::enqueue(c, &new, db::now())
        })
        .await?;
    if fresh {
        core.reports.wake.notify_one();
    }
    Ok(job.id)
}

/// Runs an import job claimed by the report worker; answers the line the Download Center
/// shows for it.
pub async fn run_job(core: &Core, job: &Job, kind: ImportKind, progress: Arc<Progress>) -> AppResult<String> {
    let params: JobParams = serde_json::from_str(&job.params).map_err(|e| AppError::Internal(anyhow::anyhow!("import {} has unreadable parameters: {e}", job.id)))?;
    let key = upload_key(job.org_id, &params.file);
    let outcome = run_stored(core, job, kind, &key, &params, progress).await;
    // Done or refused, the upload has served; a crash keeps it for the job's next run.
    core.store.remove(&key).await;
    outcome
}

async fn run_stored(core: &Core, job: &Job, kind: ImportKind, key: &str, params: &JobParams, progress: Arc<Progress>) -> AppResult<String> {
    if kind == ImportKind::DraftInvoices && job.attempts > 1 {
        // Creating drafts is not repeatable: a second run could create them twice.
        return Err(AppError::bad_request(
            "The import stopped part-way when the server restarted. Look for its drafts in the invoice list (by reference) before importing the file again.",
        ));
    }
    let org = job.org_id;
    let user = job.requested_by.ok_or_else(|| AppError::Internal(anyhow::anyhow!("import job {} names nobody", job.id)))?;
    let who = core
        .db
        .run(move |c| {
            let user_row = db::accounts::user_by_id(c, user)?;
            let m = db::accounts::memberships_of(c, user)?.into_iter().find(|m| m.org_id == org);
            let zone = m.as_ref().map_or(domain::dates::DEFAULT_ZONE, |m| domain::dates::zone_of(&m.time_zone));
            Ok(m.map(|m| {
                let actor = Actor { org_id: org, user_id: user, name: user_row.name, role: Role::from_i32(m.role).unwrap_or(Role::Business), is_acct: m.is_acct, crt_csr: m.crt_csr };
                (actor, zone)
            }))
        })
        .await?;
    let (who, zone) = who.filter(|(w, _)| domain::permissions::may_administer(w.role)).ok_or_else(|| AppError::forbidden("The person who queued this import is no longer an approver of the company; nothing was imported."))?;
    let bytes = core.store.get_bytes(key).await?.ok_or_else(|| AppError::Storage("The uploaded file is gone; upload it again.".into()))?.to_vec();
    let parsed = parse(kind, Arc::new(bytes)).await?;
    let p = progress.clone();
    let done = run(&core.db, kind, &who, zone, parsed, &move |d, t| p.set(d as u64, t as u64)).await?;
    Ok(format!("{} — {}", params.name, done.message))
}

/// The downloadable template: the worksheets and their header rows.
pub fn template(kind: ImportKind) -> AppResult<Vec<u8>> {
    use rust_xlsxwriter::{Format, Workbook};
    let sheets: Vec<(&str, Vec<&str>)> = match kind {
        ImportKind::DraftInvoices => vec![("Draft Inv", draft_invoices::COLUMNS.iter().map(|c| c[0]).collect())],
        ImportKind::Basic => basic::template_headers(),
    };
    let failed = |e: rust_xlsxwriter::XlsxError| AppError::Internal(e.into());
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    for (name, headers) in sheets {
        let ws = book.add_worksheet();
        ws.set_name(name).map_err(failed)?;
        for (i, h) in headers.iter().enumerate() {
            let col = u16::try_from(i).unwrap_or(u16::MAX);
            ws.write_string_with_format(0, col, *h, &bold).map_err(failed)?;
            ws.set_column_width(col, 18).map_err(failed)?;
        }
        ws.set_freeze_panes(1, 0).map_err(failed)?;
    }
    book.save_to_buffer().map_err(failed)
}
