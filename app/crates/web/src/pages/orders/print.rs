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

/// `GET /order_print/{id}`.
pub async fn one(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, RawQuery(raw): RawQuery) -> AppResult<Response> {
    let v = variant(&pairs(raw.as_deref())?)?;
    page(&state, &auth, vec![id], v).await
}

/// `GET /order_print/batch?ids=1,2&ids=3&variant=…`.
pub async fn batch(State(state): State<AppState>, auth: Auth, RawQuery(raw): RawQuery) -> AppResult<Response> {
    let pairs = pairs(raw.as_deref())?;
    let ids = print_svc::parse_ids(value(&pairs, "ids"))?;
    let v = variant(&pairs)?;
    page(&state, &auth, ids, v).await
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
