//! Screens of the route table whose work is scheduled in later issues: they answer inside
//! the shell and say plainly that the screen is not available yet.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use std::collections::HashMap;
use axum::http::Uri;

use super::shell::Shell;
use crate::auth::Auth;
use crate::error::AppResult;
use crate::state::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "pending.html")]
pub struct PendingPage {
    pub shell: Shell,
    pub heading: String,
}

/// Title of a route (spec §2.1 page titles).
pub fn title_of(path: &str) -> &'static str {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    match first {
        "quotings" => "Quoting",
        "ocops" => "OCOP Price",
        "invoices" => "Invoices",
        "credit_notes" => "Credit Notes",
        "purchase_orders" => "Purchase Orders",
        "bills" => "Bills",
        "bill_credit_notes" => "Bill Credit Notes",
        "transfers" => "Transfers",
        "adjustments" => "Adjustments",
        "products" => "Products",
        "customers" => "Customers",
        "sales_reports" => "Sales Reports",
        "purchase_reports" => "Purchase Reports",
        "inventory_reports" => "Inventory Reports",
        "reports_download" => "Reports Download Center",
        "order_add" => "New Sheet",
        "order_edit" => "Edit Sheet",
        "order_detail" => "Sheet Detail",
        "baseinfo" => "Base Info",
        _ => "TyreDesk",
    }
}

/// Any not-yet-built screen of spec §2.1.
pub async fn page(State(state): State<AppState>, auth: Auth, uri: Uri, params: Option<Path<HashMap<String, String>>>) -> AppResult<PendingPage> {
    if let Some(Path(params)) = params {
        ensure_record(&state, &auth, &params).await?;
    }
    let heading = title_of(uri.path());
    let active = format!("/{}", uri.path().trim_start_matches('/').split('/').next().unwrap_or(""));
    let shell = Shell::new(&state, &auth, heading, &active, &[]).await?;
    Ok(PendingPage { shell, heading: heading.to_string() })
}

/// A route naming a record answers 404 unless the record belongs to the current company.
async fn ensure_record(state: &AppState, auth: &Auth, params: &HashMap<String, String>) -> AppResult<()> {
    let (Some(route), Some(id)) = (params.get("route"), params.get("id")) else {
        return Ok(());
    };
    let id: i64 = id.parse().map_err(|_| crate::error::AppError::NotFound)?;
    let (org, route) = (auth.org_id, route.clone());
    state
        .db
        .run(move |c| match route.as_str() {
            "customers" => crate::db::customers::customer(c, org, id).map(|_| ()),
            "products" => crate::db::products::product(c, org, id).map(|_| ()),
            _ => crate::db::orders::ensure_exists(c, org, id),
        })
        .await
}
