//! Customer statements (issue 33): one customer's month on demand, or every customer with
//! a balance as one PDF written by the report queue (`jobs::files`). The ledger is the
//! customer's approved (and closed) invoices and credit notes; payments are those Xero's
//! read-back recorded (`orders.xero_amount_paid`, `xero_paid_on`), see documents::statement.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use diesel::prelude::*;

use crate::Core;
use crate::print::{PdfFile, logo, typeset};
use db::DbConn;
use db::accounts;
use db::error::{AppError, AppResult};
use db::schema::{customers, orders};
use documents::statement::{self as doc, LedgerSheet, SheetKind, StatementCustomer, StatementDoc};
use domain::enums::{OrderStatus, OrderType};
use domain::money::Cents;
use domain::statement::Month;

/// The month of `text` (`YYYY-MM`; empty: last month) by the company's calendar; a bad
/// month is the user's error (400 with the reason).
pub fn month(conn: &mut DbConn, org: i64, text: Option<&str>) -> AppResult<Month> {
    let o = accounts::organisation(conn, org)?;
    let today = domain::dates::today(domain::dates::zone_of(&o.time_zone));
    Month::parse(text, today).map_err(AppError::bad_request)
}

type Row = (Option<i64>, String, i32, NaiveDate, Option<NaiveDate>, String, i64, Option<i64>, Option<NaiveDate>);

/// The ledger sheets of company `org` dated up to `last`, by customer (one customer when
/// `customer` is given).
fn ledgers(conn: &mut DbConn, org: i64, customer: Option<i64>, last: NaiveDate) -> AppResult<BTreeMap<i64, Vec<LedgerSheet>>> {
    let mut q = orders::table
        .filter(orders::org_id.eq(org))
        .filter(orders::order_type.eq_any([OrderType::Invoice.as_i32(), OrderType::CreditNote.as_i32()]))
        .filter(orders::status.eq_any([OrderStatus::Approved.as_i32(), OrderStatus::Closed.as_i32()]))
        .filter(orders::customer_id.is_not_null())
        .filter(orders::order_date.le(last))
        .into_boxed();
    if let Some(c) = customer {
        q = q.filter(orders::customer_id.eq(c));
    }
    let rows: Vec<Row> = q
        .order((orders::order_date, orders::no))
        .select((orders::customer_id, orders::no, orders::order_type, orders::order_date, orders::due_date, orders::reference, orders::total_amount, orders::xero_amount_paid, orders::xero_paid_on))
        .load(conn)?;
    let mut out: BTreeMap<i64, Vec<LedgerSheet>> = BTreeMap::new();
    for (cust, no, t, date, due, reference, total, paid, paid_on) in rows {
        let Some(cust) = cust else { continue };
        let kind = if t == OrderType::CreditNote.as_i32() { SheetKind::CreditNote } else { SheetKind::Invoice };
        let paid = match (paid, paid_on) {
            (Some(amount), Some(on)) if amount > 0 => Some((on, Cents(amount))),
            _ => None,
        };
        out.entry(cust).or_default().push(LedgerSheet { kind, no, date, due, reference, amount: Cents(total.abs()), paid });
    }
    Ok(out)
}

fn customer_of(conn: &mut DbConn, org: i64, id: i64) -> AppResult<StatementCustomer> {
    let (name, code, address, city, state, postal, phone, email): (String, String, String, String, String, String, String, String) = customers::table
        .filter(customers::org_id.eq(org))
        .find(id)
        .select((customers::name, customers::code, customers::address, customers::city, customers::state, customers::postal, customers::phone, customers::email))
        .first(conn)
        .optional()?
        .ok_or(AppError::NotFound)?;
    let place = [city, state, postal].into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
    let address = [address.trim().to_string(), place].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", ");
    Ok(StatementCustomer { name, code, address, phone, email })
}

/// The statement of customer `customer` of company `org` for `month` (404 for another
/// company's customer).
pub fn statement(conn: &mut DbConn, org: i64, customer: i64, month: Month) -> AppResult<StatementDoc> {
    let who = customer_of(conn, org, customer)?;
    let sheets = ledgers(conn, org, Some(customer), month.last)?.remove(&customer).unwrap_or_default();
    let company = crate::print::company(conn, org)?;
    Ok(doc::build(&company, &who, &sheets, month))
}

/// The statements of every customer of company `org` whose closing balance for `month` is
/// not zero, by customer name.
pub fn with_balance(conn: &mut DbConn, org: i64, month: Month) -> AppResult<Vec<StatementDoc>> {
    let company = crate::print::company(conn, org)?;
    let mut docs = Vec::new();
    for (customer, sheets) in ledgers(conn, org, None, month.last)? {
        if doc::balances(&sheets, month).closing.0 == 0 {
            continue;
        }
        let who = customer_of(conn, org, customer)?;
        docs.push(doc::build(&company, &who, &sheets, month));
    }
    docs.sort_by(|a, b| a.customer.name.to_lowercase().cmp(&b.customer.name.to_lowercase()));
    Ok(docs)
}

/// Customer `customer_id`'s statement for `month` as a PDF
/// (`Statement 2026-10 Harbour Auto.pdf`), for the page and the e-mail of a statement.
pub async fn statement_pdf(core: &Core, org: i64, customer_id: i64, month: Month) -> AppResult<PdfFile> {
    let (d, logo) = core.db.run(move |c| Ok((statement(c, org, customer_id, month)?, logo(c, org)?))).await?;
    let name = format!("Statement {} {}.pdf", month.code(), d.customer.name.trim());
    let bytes = typeset(move || pdf::statements(std::slice::from_ref(&d), &logo)).await?;
    Ok(PdfFile { name, bytes })
}

// ---------------------------------------------------------------------------------------
// Every customer with a balance: a job of the report queue (Download Center)
// ---------------------------------------------------------------------------------------

/// The queue's kind of the statements job.
pub use domain::statement::{JOB_KIND, JOB_TITLE};

/// Why a statements job ends without a file.
pub fn nobody_owes(month: Month) -> String {
    format!("No customer has a balance at the end of {}: there are no statements to print.", month.label())
}

#[derive(serde::Serialize, serde::Deserialize)]
struct JobParams {
    month: String,
}

/// The file a statements job writes in the company's folder (`statements-2026-10-17.pdf`).
pub fn file_name(id: i64, month: Month) -> String {
    format!("{JOB_KIND}-{}-{id}.pdf", month.code())
}


/// Queues the statements of every customer with a balance for the month of `month_text`
/// (`YYYY-MM`, empty: last month), or answers the same job still queued or running.
pub async fn submit(core: &Core, who: crate::reports::Asker, month_text: Option<String>) -> AppResult<(db::reports::Job, bool)> {
    let org = who.org_id;
    let month = core.db.run(move |c| month(c, org, month_text.as_deref())).await?;
    let params = serde_json::to_string(&JobParams { month: month.code() }).map_err(|e| AppError::Internal(e.into()))?;
    let range = format!("{}~{}", month.first, month.last);
    let key = format!("{JOB_KIND}:{}", month.code());
    let job = core
        .db
        .write(move |c| {
            let new = db::reports::NewJob { org_id: org, user_id: who.user_id, kind: JOB_KIND, params: &params, date_range: &range, dedupe_key: &key };
            db::reports::enqueue(c, &new, db::now())
        })
        .await?;
    if job.1 {
        core.reports.wake.notify_one();
    }
    Ok(job)
}

/// Runs a claimed statements job: every statement of the month in one PDF, each starting on
/// a new page, stored in the file store when whole (an object appears complete or not at
/// all); answers the file's name. Progress: the statements built, then the typesetting.
pub async fn run_job(core: &Core, job: &db::reports::Job, progress: std::sync::Arc<crate::reports::Progress>) -> AppResult<String> {
    let p: JobParams = serde_json::from_str(&job.params).map_err(|e| AppError::Internal(anyhow::anyhow!("statements job {} has unreadable parameters: {e}", job.id)))?;
    let org = job.org_id;
    let month = Month::parse(Some(&p.month), NaiveDate::MAX).map_err(|m| AppError::Internal(anyhow::anyhow!("statements job {}: {m}", job.id)))?;
    let (docs, logo) = core.db.run(move |c| Ok((with_balance(c, org, month)?, logo(c, org)?))).await?;
    if docs.is_empty() {
        return Err(AppError::bad_request(nobody_owes(month)));
    }
    progress.set(1, 2);
    let bytes = typeset(move || pdf::statements(&docs, &logo)).await?;
    let name = file_name(job.id, month);
    core.store.put_bytes(&crate::reports::files::key(org, &name), bytes).await?;
    Ok(name)
}
