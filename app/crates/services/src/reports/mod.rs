//! Reports prepared in the background (issue 11, spec §2.9, DESIGN §9): a request becomes a
//! row of the one job queue (`submit`), a worker inside a server process claims it
//! (`worker`), writes the xlsx through the streaming writer into the company's folder of the
//! data directory (`files`), and the Download Center lists it. What each kind's file holds
//! is in `docs/decisions/reports.md` and in its module.

pub mod files;
pub mod inventory;
pub mod purchase;
mod rows;
pub mod sales;
mod sql;
pub mod tyre_age;

use std::sync::atomic::{AtomicI32, Ordering};

use chrono::NaiveDateTime;
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use db::reports::{self as queue, Job, NewJob};
use db::schema::{brands, customers, products, suppliers, warehouses};
use db::{self, DbConn};
use domain::dates::{self as dates, Tz};
use domain::enums::{AreaType, CodeEnum, PaymentType, ProductCategory, Tag};
use domain::permissions::may_see_cost;
use domain::reports::{FieldError, JobState, Kind, Params, download_name};
use db::error::{AppError, AppResult};
use db::Db;
use xlsx::export::SheetWriter;

/// The message after a report is asked for (spec §2.9).
pub const PREPARING: &str = "Preparing for the report, please check it later";

/// Jobs the Download Center and `GET /api/reports` list.
pub const LIST_LIMIT: i64 = 100;

/// How far a running report has got, 0–99 (100 is Done), shared with the heartbeat.
#[derive(Debug, Default)]
pub struct Progress(AtomicI32);

impl Progress {
    /// Records `done` of `total` units of work.
    pub fn set(&self, done: u64, total: u64) {
        let pct = (done.min(total) * 99).checked_div(total).map_or(0, |p| p as i32);
        self.0.store(pct, Ordering::Relaxed);
    }

    pub fn get(&self) -> i32 {
        self.0.load(Ordering::Relaxed)
    }
}

/// What a report's writer is given.
pub struct Ctx<'a> {
    pub org_id: i64,
    pub org_name: &'a str,
    pub kind: Kind,
    /// Validated, every id inside the company; `include_cost` already means "cost is
    /// shown": asked for, possible for the kind, and the requester may see cost.
    pub params: &'a Params,
    pub progress: &'a Progress,
    /// When the job was asked for (the title says so).
    pub created_at: NaiveDateTime,
    /// The company's zone: a day of the range runs from its midnight to the next there.
    pub zone: Tz,
}

impl Ctx<'_> {
    /// The lines above a worksheet's header: the report and part, the company, the dates,
    /// the filters in words.
    pub fn title(&self, conn: &mut DbConn, part: &str) -> AppResult<Vec<String>> {
        let p = self.params;
        let mut lines = vec![if part.is_empty() { self.kind.title().to_string() } else { format!("{} — {}", self.kind.title(), part) }];
        lines.push(self.org_name.to_string());
        lines.push(match (p.from, p.to, p.as_of) {
            (Some(f), Some(t), _) => format!("{}: {}", p.date_type.label(), dates::range(f, t)),
            (_, _, Some(d)) if self.kind == Kind::TyreAge => format!("Ages on {}; stock on hand today", dates::date(d)),
            (_, _, Some(d)) => {
                format!("As of {}; unsold for {} days; sold less than {} in those days", dates::date(d), p.unsold_days, p.less_than)
            }
            _ => String::new(),
        });
        let filters = describe_filters(conn, self.org_id, p)?;
        lines.push(if filters.is_empty() { "Filters: none".into() } else { format!("Filters: {}", filters.join("; ")) });
        Ok(lines)
    }
}

/// Names of the chosen filters, e.g. `Warehouses: Main, North`.
fn describe_filters(conn: &mut DbConn, org: i64, p: &Params) -> AppResult<Vec<String>> {
    fn names_of<E: CodeEnum>(codes: &[i32]) -> String {
        codes.iter().filter_map(|c| E::from_code(*c)).map(E::text).collect::<Vec<_>>().join(", ")
    }
    let mut out = Vec::new();
    let mut add = |label: &str, v: String| {
        if !v.is_empty() {
            out.push(format!("{label}: {v}"));
        }
    };
    add("Sheet tags", names_of::<Tag>(&p.tags));
    add("Warehouses", warehouse_names(conn, org, &p.warehouses)?);
    add("Out warehouses", warehouse_names(conn, org, &p.out_warehouses)?);
    add("In warehouses", warehouse_names(conn, org, &p.in_warehouses)?);
    let b: Vec<String> = brands::table.filter(brands::org_id.eq(org)).filter(brands::id.eq_any(&p.brands)).select(brands::name).load(conn)?;
    add("Brands", b.join(", "));
    add("Categories", p.categories.iter().filter_map(|c| ProductCategory::from_i32(*c)).map(ProductCategory::path).collect::<Vec<_>>().join(", "));
    let pr: Vec<String> = products::table.filter(products::org_id.eq(org)).filter(products::id.eq_any(&p.products)).select(products::code).load(conn)?;
    add("Products", pr.join(", "));
    if let Some((f, t)) = p.csr_created {
        add("Customers created", dates::range(f, t));
    }
    add("Area types", names_of::<AreaType>(&p.areas));
    add("Payment types", names_of::<PaymentType>(&p.payments));
    let c: Vec<String> = customers::table.filter(customers::org_id.eq(org)).filter(customers::id.eq_any(&p.csrs)).select(customers::name).load(conn)?;
    add("Customers", c.join(", "));
    let s: Vec<String> = suppliers::table.filter(suppliers::org_id.eq(org)).filter(suppliers::id.eq_any(&p.suppliers)).select(suppliers::name).load(conn)?;
    add("Suppliers", s.join(", "));
    if p.include_cost {
        add("Cost", "shown".into());
    }
    Ok(out)
}

fn warehouse_names(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<String> {
    if ids.is_empty() {
        return Ok(String::new());
    }
    let v: Vec<String> = warehouses::table.filter(warehouses::org_id.eq(org)).filter(warehouses::id.eq_any(ids)).select(warehouses::name).load(conn)?;
    Ok(v.join(", "))
}

/// Writes the report of `ctx` into `out` (one or more worksheets).
pub fn write(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    match ctx.kind {
        Kind::InvoiceDetails => sales::invoice_details(conn, ctx, out),
        Kind::SaleSummary => sales::sale_summary(conn, ctx, out),
        Kind::SlowMoving => sales::slow_moving(conn, ctx, out),
        Kind::PurchaseDetails => purchase::purchase_details(conn, ctx, out),
        Kind::PurchaseSummary => purchase::purchase_summary(conn, ctx, out),
        Kind::TransferDetails => purchase::transfer_details(conn, ctx, out),
        Kind::AdjustmentDetails => purchase::adjustment_details(conn, ctx, out),
        Kind::InventorySummary => inventory::inventory_summary(conn, ctx, out),
        Kind::InventoryDetails => inventory::inventory_details(conn, ctx, out),
        Kind::TyreAge => tyre_age::write(conn, ctx, out),
    }
}

/// What is stored in a job's `params`: the kind and the validated parameters.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Stored {
    #[serde(rename = "type")]
    pub kind: Kind,
    pub params: Params,
}

fn field(e: FieldError) -> AppError {
    AppError::field(&e.field, e.message)
}

/// Every id of the request resolved inside the caller's company: an id of another company,
/// or of nothing, is named as not found.
fn check_ids(conn: &mut DbConn, org: i64, p: &Params) -> AppResult<()> {
    fn all_found(field_name: &str, wanted: &[i64], found: Vec<i64>) -> AppResult<()> {
        match wanted.iter().find(|id| !found.contains(id)) {
            Some(id) => Err(AppError::field(field_name, format!("{id} was not found."))),
            None => Ok(()),
        }
    }
    for (name, ids) in [("warehouses", &p.warehouses), ("outWarehouse", &p.out_warehouses), ("inWarehouse", &p.in_warehouses)] {
        if !ids.is_empty() {
            let found = warehouses::table.filter(warehouses::org_id.eq(org)).filter(warehouses::id.eq_any(ids)).select(warehouses::id).load(conn)?;
            all_found(name, ids, found)?;
        }
    }
    if !p.brands.is_empty() {
        let found = brands::table.filter(brands::org_id.eq(org)).filter(brands::id.eq_any(&p.brands)).select(brands::id).load(conn)?;
        all_found("brands", &p.brands, found)?;
    }
    if !p.products.is_empty() {
        let found = products::table.filter(products::org_id.eq(org)).filter(products::id.eq_any(&p.products)).select(products::id).load(conn)?;
        all_found("products", &p.products, found)?;
    }
    if !p.csrs.is_empty() {
        let found = customers::table.filter(customers::org_id.eq(org)).filter(customers::id.eq_any(&p.csrs)).select(customers::id).load(conn)?;
        all_found("csrs", &p.csrs, found)?;
    }
    if !p.suppliers.is_empty() {
        let found = suppliers::table.filter(suppliers::org_id.eq(org)).filter(suppliers::id.eq_any(&p.suppliers)).select(suppliers::id).load(conn)?;
        all_found("suppliers", &p.suppliers, found)?;
    }
    Ok(())
}

/// Asks for a report: validates the request, resolves its ids in the company, and queues
/// it — or answers the company's identical report still queued or running. `true` when a
/// new job was queued.
pub async fn submit(db: &Db, queue: &Queue, who: Asker, body: serde_json::Value) -> AppResult<(Job, bool)> {
    let today = dates::today(who.zone);
    let (kind, mut params) = domain::reports::parse(&body, today).map_err(field)?;
    // Cost is shown only when asked for, where the kind has it, and to those who may see it:
    // whatever the payload says.
    params.include_cost = params.include_cost && kind.can_show_cost() && who.sees_cost;
    let stored = serde_json::to_string(&Stored { kind, params: params.clone() }).map_err(|e| AppError::Internal(e.into()))?;
    let key = hex(&Sha256::digest(stored.as_bytes()));
    let (org, user) = (who.org_id, who.user_id);
    let range = params.range_label();
    let job = db
        .write(move |c| {
            check_ids(c, org, &params)?;
            let new = NewJob { org_id: org, user_id: user, kind: kind.code(), params: &stored, date_range: &range, dedupe_key: &key };
            queue::enqueue(c, &new, db::now())
        })
        .await?;
    if job.1 {
        queue.wake.notify_one();
    }
    Ok(job)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether the job's file shows cost (then only users who may see cost see the job).
pub fn shows_cost(job: &Job) -> bool {
    if job.kind == domain::exports::JOB_KIND {
        return domain::exports::job_shows_cost(&job.params);
    }
    serde_json::from_str::<Stored>(&job.params).is_ok_and(|s| s.params.include_cost)
}

/// The company's jobs the user may see, newest first: a report showing cost is hidden from
/// those who may not see cost.
pub async fn visible_jobs(db: &Db, who: Asker) -> AppResult<Vec<Job>> {
    let org = who.org_id;
    let jobs = db.run(move |c| queue::list(c, org, LIST_LIMIT)).await?;
    Ok(jobs.into_iter().filter(|j| who.sees_cost || !shows_cost(j)).collect())
}

/// A job as listed (Download Center and `GET /api/reports`).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    /// The stored range, ISO (`2026-10-01~2026-10-31`), as the API has always sent it.
    pub date_range: String,
    /// The range as the Download Center shows it (`01 Oct 2026 – 31 Oct 2026`).
    #[serde(skip)]
    pub range_text: String,
    /// When it was asked for, `yyyy-MM-dd HH:mm:ss` in the company's zone (the API's form).
    pub created_at: String,
    /// The same as the Download Center shows it (`27 Nov 2026 07:11`).
    #[serde(skip)]
    pub created_text: String,
    pub state: &'static str,
    #[serde(skip)]
    pub state_label: &'static str,
    pub progress: i32,
    /// The file's name for `GET /api/download/{name}`, once done.
    pub name: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// Still queued or running (the Download Center polls while any is).
    #[serde(skip)]
    pub active: bool,
    /// Whether the viewer may cancel it (their own, still queued or running).
    pub cancellable: bool,
}

impl JobView {
    /// The job as `viewer` sees it, its times in the company's `zone`.
    pub fn new(job: &Job, viewer: i64, zone: Tz) -> Self {
        let state = job.job_state();
        let kind = Kind::from_code(&job.kind);
        let created = dates::local(job.created_at, zone);
        Self {
            id: job.id,
            kind: job.kind.clone(),
            title: kind
                .map(|k| k.title().to_string())
                .or_else(|| domain::imports::ImportKind::from_code(&job.kind).map(|k| k.title().to_string()))
                .or_else(|| (job.kind == domain::statement::JOB_KIND).then(|| domain::statement::JOB_TITLE.to_string()))
                .or_else(|| (job.kind == domain::exports::JOB_KIND).then(|| domain::exports::JOB_TITLE.to_string()))
                .unwrap_or_else(|| job.kind.clone()),
            date_range: job.date_range.clone(),
            range_text: dates::range_text(&job.date_range),
            created_at: created.format("%Y-%m-%d %H:%M:%S").to_string(),
            created_text: dates::date_time(job.created_at, zone),
            state: state.code(),
            state_label: state.label(),
            progress: job.progress,
            name: (state == JobState::Done && !job.file_name.is_empty()).then(|| job.file_name.clone()),
            error: (state == JobState::Failed).then(|| job.error.clone()),
            active: state.is_active(),
            cancellable: state.is_active() && job.requested_by == Some(viewer),
        }
    }
}

/// The file-store key of the company's finished report `name`, and the name to download it
/// as (`type-dateRange.xlsx`). Another company's file, a guessed or malformed name, a report
/// showing cost asked by someone who may not see cost: not found.
pub async fn file_for(db: &Db, who: Asker, name: &str) -> AppResult<(String, String)> {
    if !files::valid_name(name) {
        return Err(AppError::NotFound);
    }
    let (org, wanted) = (who.org_id, name.to_string());
    let job = db.run(move |c| queue::done_with_file(c, org, &wanted)).await?.ok_or(AppError::NotFound)?;
    if shows_cost(&job) && !who.sees_cost {
        return Err(AppError::NotFound);
    }
    let path = files::key(org, &job.file_name);
    if job.kind == domain::statement::JOB_KIND {
        return Ok((path, domain::statement::download_name(&job.date_range)));
    }
    if job.kind == domain::exports::JOB_KIND {
        return Ok((path, domain::exports::download_name(&job.date_range)));
    }
    let kind = Kind::from_code(&job.kind).ok_or(AppError::NotFound)?;
    Ok((path, download_name(kind, &job.date_range)))
}

/// Cancels the user's queued or running job.
pub async fn cancel(db: &Db, who: Asker, id: i64) -> AppResult<()> {
    let (org, user) = (who.org_id, who.user_id);
    db.write(move |c| queue::cancel(c, org, user, id, db::now())).await
}

/// Who asks the queue: their company, themselves, and whether they may see cost (spec §6;
/// a report showing cost is neither made for nor shown to anyone else).
#[derive(Clone, Copy, Debug)]
pub struct Asker {
    pub org_id: i64,
    pub user_id: i64,
    pub sees_cost: bool,
    /// The company's zone: its "today" is the default as-of date.
    pub zone: Tz,
}

impl Asker {
    pub fn new(org_id: i64, user_id: i64, role: domain::enums::Role, mod_prc: bool, zone: Tz) -> Self {
        Self { org_id, user_id, sees_cost: may_see_cost(role, mod_prc), zone }
    }
}

/// The queue's handle in the application state: the worker's name and the bell that wakes
/// it when a job is queued by this process (other processes' jobs are found by polling).
pub struct Queue {
    pub worker: String,
    pub wake: tokio::sync::Notify,
}

impl Default for Queue {
    fn default() -> Self {
        let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "host".into());
        Self { worker: format!("{host}-{}-{:08x}", std::process::id(), rand::random::<u32>()), wake: tokio::sync::Notify::new() }
    }
}
