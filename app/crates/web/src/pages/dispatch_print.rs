//! Dispatch on paper (issue 34): the picking list of the sheets chosen on the board
//! (`GET /dispatch/picking?warehouse_id=W&order_id=1&order_id=2[&per_sheet=1]`) and a
//! driver's run sheet (`GET /dispatch/runs/{id}/run_sheet`), both PDFs shown inline, for
//! signed-in staff. A sheet of another company or warehouse is refused with a message;
//! another company's run is not found.

use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;

use crate::auth::Auth;
use crate::state::AppState;
use db::error::{AppError, AppResult};
use domain::Actor;
use services::dispatch_print as svc;

fn pairs(raw: Option<&str>) -> AppResult<Vec<(String, String)>> {
    serde_urlencoded::from_str(raw.unwrap_or("")).map_err(|e| AppError::bad_request(format!("Invalid picking list request: {e}")))
}

/// `GET /dispatch/picking?warehouse_id=W&order_id=…[&per_sheet=1]`.
pub async fn picking(State(state): State<AppState>, auth: Auth, RawQuery(raw): RawQuery) -> AppResult<Response> {
    let pairs = pairs(raw.as_deref())?;
    let values = |key: &str| pairs.iter().filter(move |(k, _)| k == key).map(|(_, v)| v.trim()).filter(|v| !v.is_empty()).collect::<Vec<_>>();
    let warehouse: i64 = match values("warehouse_id").first() {
        Some(w) => w.parse().map_err(|_| AppError::field("warehouse_id", "Choose a warehouse."))?,
        None => return Err(AppError::field("warehouse_id", "Choose a warehouse.")),
    };
    let mut ids = Vec::new();
    for v in values("order_id") {
        let id: i64 = v.parse().map_err(|_| AppError::bad_request(format!("'{v}' is not a sheet id.")))?;
        ids.push(id);
    }
    let per_sheet = matches!(values("per_sheet").first().copied(), Some("1" | "true" | "on"));
    let file = svc::picking_pdf(&state, &Actor::from(&auth), warehouse, ids, per_sheet).await?;
    Ok(crate::http::download::pdf(&file.name, true, file.bytes))
}

/// `GET /dispatch/runs/{id}/run_sheet`: the run sheet with the QR code of the run's link
/// (the live one, or a new one when it has none).
pub async fn run_sheet(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<i64>) -> AppResult<Response> {
    let file = svc::run_sheet_pdf(&state, &Actor::from(&auth), id, |path| crate::http::public_url(&headers, path)).await?;
    Ok(crate::http::download::pdf(&file.name, true, file.bytes))
}
