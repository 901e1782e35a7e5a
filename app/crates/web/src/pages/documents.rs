//! Quotations, customer statements and the purchase order for the supplier (issue 33): the
//! PDFs shown inline, saving a quotation from the quoting cart, a customer's quotations and
//! converting one to an invoice through the cart's addFromCart path.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::shell::Shell;
use crate::auth::Auth;
use crate::state::AppState;
use db::error::{AppError, AppResult};
use domain::money::Cents;
use domain::email::Doc;
use services::email::{self as mail, Outgoing};
use services::{po_print, quotations, statements};

/// Who may not get a PO's PDF (it carries purchase prices).
pub const PO_REFUSED: &str = "Only staff who may see purchase prices (an approver, or staff who set prices) may print a purchase order for the supplier.";

/// The form of 'Save quotation' on the quoting page: the cart's items and customer.
#[derive(Deserialize)]
pub struct SaveForm {
    #[serde(default)]
    items: String,
    /// The cart's customer (not `csr`: the page's To CSR filter has that name).
    #[serde(default)]
    customer: String,
}

/// `POST /quotations`: saves the quoting cart as a numbered quotation of its customer and
/// opens the customer's quotations, where the new one is first.
pub async fn save(State(state): State<AppState>, auth: Auth, axum::Form(f): axum::Form<SaveForm>) -> AppResult<Response> {
    let customer = match f.customer.trim() {
        "" => None,
        t => Some(t.parse::<i64>().map_err(|_| AppError::bad_request(quotations::NO_CUSTOMER))?),
    };
    let (_, no) = quotations::save(&state, &domain::Actor::from(&auth), customer, &f.items).await?;
    let to = format!("/quotations?customer={}", customer.unwrap_or_default());
    super::redirect_with_notice(&state, &auth, &to, "success", format!("Quotation {no} saved.")).await
}

#[derive(Deserialize)]
pub struct ListQuery {
    customer: Option<String>,
}

pub struct QuotationRow {
    pub id: i64,
    pub no: String,
    pub date: String,
    pub valid_until: String,
    pub expired: bool,
    pub total: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "quotations/list.html")]
pub struct ListPage {
    pub shell: Shell,
    pub customer_id: i64,
    pub customer: String,
    pub rows: Vec<QuotationRow>,
    pub notice: Option<(String, String)>,
    /// Where the quotations and statements are e-mailed unless changed: the customer's e-mail.
    pub default_to: String,
    /// Last month (`YYYY-MM`), the statement form's default.
    pub last_month: String,
}

/// `GET /quotations?customer=ID`: the customer's quotations, newest first, each with its
/// PDF and 'Convert to invoice' while valid (404 for another company's customer).
pub async fn list(State(state): State<AppState>, auth: Auth, Query(q): Query<ListQuery>) -> AppResult<Response> {
    let customer: i64 = q.customer.as_deref().map(str::trim).and_then(|c| c.parse().ok()).ok_or_else(|| AppError::bad_request("Choose a customer: /quotations?customer=<id>."))?;
    let org = auth.org_id;
    let actor = domain::Actor::from(&auth);
    let (name, listed, today, default_to) = state
        .db
        .run(move |c| {
            let (name, rows) = quotations::of_customer(c, org, customer)?;
            let o = db::accounts::organisation(c, org)?;
            let to = mail::default_recipient(c, &actor, Doc::Statement, customer)?;
            Ok((name, rows, domain::dates::today(domain::dates::zone_of(&o.time_zone)), to))
        })
        .await?;
    let last_month = domain::statement::Month::parse(None, today).map(|m| m.code()).unwrap_or_default();
    let notice = super::take_notice(&state, &auth).await?;
    let rows = listed
        .into_iter()
        .map(|r| QuotationRow {
            id: r.id,
            no: r.no,
            date: domain::dates::date(r.date),
            valid_until: domain::dates::date(r.valid_until),
            expired: documents::quotation::expired(r.valid_until, today),
            total: Cents(r.total).grouped(),
        })
        .collect();
    let shell = Shell::new(&state, &auth, "Quotations", "/customers", &[]).await?;
    Ok(ListPage { shell, customer_id: customer, customer: name, rows, notice, default_to, last_month }.into_response())
}

/// `GET /quotations/{id}/pdf`: the quotation as a PDF, shown inline.
pub async fn quotation_pdf(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    let file = quotations::quotation_pdf(&state, auth.org_id, id).await?;
    Ok(crate::http::download::pdf(&file.name, true, file.bytes))
}

/// `GET /quotations/{id}/invoice`: a new invoice with the quotation's customer, lines and
/// quoted prices (the cart's addFromCart path); refused once the quotation expired.
pub async fn convert(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    let org = auth.org_id;
    let q = state.db.run(move |c| quotations::for_invoice(c, org, id)).await?;
    Ok(Redirect::to(&format!("/order_add/invoices/addFromCart?items={}&csr={}&quotation={id}", q.items, q.customer)).into_response())
}

#[derive(Deserialize)]
pub struct MonthQuery {
    month: Option<String>,
}

/// `GET /customers/{id}/statement?month=YYYY-MM`: the customer's statement for the month
/// (default last month) as a PDF, shown inline.
pub async fn statement(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, Query(q): Query<MonthQuery>) -> AppResult<Response> {
    let org = auth.org_id;
    let month = state.db.run(move |c| statements::month(c, org, q.month.as_deref())).await?;
    let file = statements::statement_pdf(&state, org, id, month).await?;
    Ok(crate::http::download::pdf(&file.name, true, file.bytes))
}

/// `GET /purchase_order_print/{id}`: the PO as its supplier sees it, as a PDF shown inline;
/// 403 for staff who may not see purchase prices, 404 for another company's sheet.
pub async fn purchase_order(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    if !auth.sight().sees_cost() {
        return Err(AppError::forbidden(PO_REFUSED));
    }
    let file = po_print::purchase_order_pdf(&state, auth.org_id, id).await?;
    Ok(crate::http::download::pdf(&file.name, true, file.bytes))
}

#[derive(Deserialize)]
pub struct StatementsForm {
    #[serde(default)]
    month: String,
}

/// `POST /reports_download/statements`: queues one PDF of the statements of every customer
/// with a balance for the month (default last month); it appears in the Download Center.
pub async fn statements_job(State(state): State<AppState>, auth: Auth, axum::Form(f): axum::Form<StatementsForm>) -> AppResult<Response> {
    let month = Some(f.month.trim().to_string()).filter(|m| !m.is_empty());
    let (job, queued) = statements::submit(&state, auth.asker(), month).await?;
    let text = if queued {
        format!("Preparing the statements of every customer with a balance ({}); the PDF appears below when it is ready.", domain::dates::range_text(&job.date_range))
    } else {
        "Those statements are already being prepared; the PDF appears below when it is ready.".to_string()
    };
    super::redirect_with_notice(&state, &auth, "/reports_download", "success", text).await
}

/// The recipients of a document's e-mail, as typed (several, comma-separated).
#[derive(Deserialize)]
pub struct EmailForm {
    #[serde(default)]
    to: String,
    #[serde(default)]
    month: String,
}

/// `POST /quotations/{id}/email`: queues the quotation's PDF for e-mail to `to` and goes back
/// to the customer's quotations, saying so (404 for another company's quotation).
pub async fn email_quotation(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, axum::Form(f): axum::Form<EmailForm>) -> AppResult<Response> {
    let org = auth.org_id;
    let customer = state.db.run(move |c| quotations::customer_of(c, org, id)).await?;
    let queued = mail::send(&state, &domain::Actor::from(&auth), Outgoing { doc: Doc::Quotation, target: id, reference: String::new(), to: f.to }).await?;
    let text = format!("Quotation queued for e-mail to {}.", queued.to.join(", "));
    super::redirect_with_notice(&state, &auth, &format!("/quotations?customer={customer}"), "success", text).await
}

/// `POST /customers/{id}/statement/email`: queues the customer's statement of `month`
/// (default last month) for e-mail to `to` (404 for another company's customer; a bad month
/// is refused before anything is queued).
pub async fn email_statement(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, axum::Form(f): axum::Form<EmailForm>) -> AppResult<Response> {
    let org = auth.org_id;
    let text = Some(f.month.trim().to_string()).filter(|m| !m.is_empty());
    let month = state.db.run(move |c| statements::month(c, org, text.as_deref())).await?;
    let queued = mail::send(&state, &domain::Actor::from(&auth), Outgoing { doc: Doc::Statement, target: id, reference: month.code(), to: f.to }).await?;
    let text = format!("Statement for {} queued for e-mail to {}.", month.label(), queued.to.join(", "));
    super::redirect_with_notice(&state, &auth, &format!("/quotations?customer={id}"), "success", text).await
}
