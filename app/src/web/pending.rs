//! Screens of the route table whose work is scheduled in later issues (the Reports Download
//! Center): they answer inside the shell and say plainly that the screen is not available yet.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
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
    match path.trim_start_matches('/').split('/').next().unwrap_or("") {
        "reports_download" => "Reports Download Center",
        _ => "TyreDesk",
    }
}

/// A not-yet-built screen of spec §2.1.
pub async fn page(State(state): State<AppState>, auth: Auth, uri: Uri) -> AppResult<PendingPage> {
    let heading = title_of(uri.path());
    let shell = Shell::new(&state, &auth, heading, uri.path(), &[]).await?;
    Ok(PendingPage { shell, heading: heading.to_string() })
}
