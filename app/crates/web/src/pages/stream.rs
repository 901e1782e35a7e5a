//! The staff pages' streamed layout (`layout/base.html`): how [`crate::http::stream`]
//! sends a staff page in two parts.

use std::future::Future;

use askama::Template;
use axum::http::HeaderMap;
use axum::response::Response;

use crate::auth::Auth;
use crate::http::stream::{Layout, answer};
use crate::state::AppState;
use crate::pages::shell::{Flash, Shell};
use db::error::{AppError, AppResult};

/// The staff pages' layout, `layout/base.html`.
struct Staff;

impl Layout for Staff {
    type Shell = Shell;

    const CONTENT_START: &'static str = "<main class=\"content\" id=\"content\">";

    fn head(shell: &Shell) -> askama::Result<String> {
        Head { shell }.render()
    }

    fn ending(_: &Shell) -> Self {
        Self
    }

    fn failed(&self, message: &str) -> askama::Result<String> {
        Failed { message, shell: NoFlash { flash: None } }.render()
    }
}

#[derive(Template)]
#[template(path = "layout/head.html")]
struct Head<'a> {
    shell: &'a Shell,
}

/// What the end of the page needs when the content failed (no flash).
struct NoFlash {
    flash: Option<Flash>,
}

#[derive(Template)]
#[template(source = "<div class=\"alert alert-error\" role=\"alert\">{{ message }}</div>\n{% include \"layout/tail.html\" %}", ext = "html")]
struct Failed<'a> {
    message: &'a str,
    shell: NoFlash,
}

/// Answers a full page: the head and the shell (`title`, the menu entry `path`, the `islands`
/// whose code the page preloads) go out at once, then the page `content` builds from the
/// shell, whose queries run only after the head was handed over. An htmx request gets the
/// page whole, within the request time limit as any whole answer.
pub async fn respond<T, F, Fut>(state: &AppState, auth: &Auth, request: &HeaderMap, title: &str, path: &str, islands: &[&str], content: F) -> AppResult<Response>
where
    T: Template + Send,
    F: FnOnce(Shell) -> Fut + Send + 'static,
    Fut: Future<Output = Result<T, AppError>> + Send + 'static,
{
    let shell = Shell::new(state, auth, title, path, islands).await?;
    answer::<Staff, _, _, _>(request, state.config.request_timeout, shell, content).await
}
