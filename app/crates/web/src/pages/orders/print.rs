//! The A4 print page (DESIGN §5): `/order_print/{id}?variant=standard|noprice` for one
//! sheet and `/order_print/batch?ids=…&variant=…` for several, each document starting on a
//! new page. The page prints itself; `static/js/print.js` then asks whether the sheets
//! printed and marks them printed only when the user says so.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::auth::Auth;
use db::error::{AppError, AppResult};
use documents::Variant;
use crate::print::html::PrintPage;
use services::print as print_svc;
use crate::state::AppState;

fn pairs(raw: Option<&str>) -> AppResult<Vec<(String, String)>> {
    serde_urlencoded::from_str(raw.unwrap_or("")).map_err(|e| AppError::bad_request(format!("Invalid print request: {e}")))
}

fn value<'a>(pairs: &'a [(String, String)], key: &str) -> impl Iterator<Item = &'a str> {
    pairs.iter().filter(move |(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn variant(pairs: &[(String, String)]) -> AppResult<Variant> {
    Variant::parse(value(pairs, "variant").next()).ok_or_else(|| AppError::bad_request("Choose variant=standard (with prices) or variant=noprice (delivery document)."))
}

/// `format=pdf` asks for the documents as one A4 PDF instead of the print page.
fn wants_pdf(pairs: &[(String, String)]) -> AppResult<bool> {
    match value(pairs, "format").next() {
        None | Some("") | Some("html") => Ok(false),
        Some("pdf") => Ok(true),
        Some(_) => Err(AppError::bad_request("Choose format=html (the print page) or format=pdf.")),
    }
}

/// `GET /order_print/{id}`.
pub async fn one(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, RawQuery(raw): RawQuery) -> AppResult<Response> {
    let pairs = pairs(raw.as_deref())?;
    let v = variant(&pairs)?;
    if wants_pdf(&pairs)? {
        return pdf(&state, &auth, vec![id], v).await;
    }
    page(&state, &auth, vec![id], v).await
}

/// `GET /order_print/batch?ids=1,2&ids=3&variant=…`.
pub async fn batch(State(state): State<AppState>, auth: Auth, RawQuery(raw): RawQuery) -> AppResult<Response> {
    let pairs = pairs(raw.as_deref())?;
    let ids = print_svc::parse_ids(value(&pairs, "ids"))?;
    let v = variant(&pairs)?;
    if wants_pdf(&pairs)? {
        return pdf(&state, &auth, ids, v).await;
    }
    page(&state, &auth, ids, v).await
}

/// The documents as one PDF, shown in the browser's own viewer (`inline`), named by the
/// sheet; viewing it does not mark anything printed.
async fn pdf(state: &AppState, auth: &Auth, ids: Vec<i64>, variant: Variant) -> AppResult<Response> {
    let file = print_svc::pdf(state, auth.org_id, ids, variant).await?;
    Ok(crate::http::download::pdf(&file.name, true, file.bytes))
}

async fn page(state: &AppState, auth: &Auth, ids: Vec<i64>, variant: Variant) -> AppResult<Response> {
    let org = auth.org_id;
    let wanted = ids.clone();
    let documents = state.db.run(move |c| print_svc::documents(c, org, &wanted, variant)).await?;
    let title = match documents.as_slice() {
        [one] => format!("{} {}", one.title, one.no),
        many => format!("{} documents ({})", many.len(), variant.label()),
    };
    let page = PrintPage {
        title,
        css: state.assets.url("css/print.css"),
        js: state.assets.url("js/print.js"),
        csrf: auth.session.as_ref().map(|s| s.csrf.clone()).unwrap_or_default(),
        org_id: org,
        ids: ids.iter().map(i64::to_string).collect::<Vec<_>>().join(","),
        variant: variant.as_str(),
        mark_url: "/api/orders/print",
        documents,
    };
    let mut res = page.into_response();
    // A printed page reflects the sheet at that moment; never show a stale copy.
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}
