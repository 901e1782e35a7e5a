//! What every full shop page shows around its content, and how it is sent (issue 16).
//! `shop/base.html` is `shop/head.html`, the content and `shop/tail.html`; the head and the
//! header go out before the page's own queries run, then the content and the footer, as the
//! staff pages do (`http::stream`). The header's cart badge is read before the head, like the
//! staff shell's queries; a page whose title names a record (a product, an order) reads that
//! one thing before too, inside the customer's company, so a missing or foreign id is still
//! a 404.

use std::future::Future;

use askama::Template;
use axum::http::HeaderMap;
use axum::response::Response;

use super::Shopper;
use db::error::{AppError, AppResult};
use services::shop as svc;
use crate::state::AppState;
use crate::http::stream::{self, Layout};

/// What every shop page shows around its content.
pub struct Shell {
    /// The page's title, before the company's name.
    pub title: String,
    pub css: String,
    pub htmx: String,
    pub company: String,
    pub customer: String,
    pub csrf: String,
    pub cart_count: i64,
    /// The search box's text.
    pub key: String,
}

impl Shell {
    /// The shell of a page titled `title`: reads the cart badge's count.
    pub async fn new(state: &AppState, s: &Shopper, title: impl Into<String>) -> AppResult<Self> {
        let who = s.who.clone();
        let count = state.db.run(move |c| svc::cart_count(c, &who)).await?;
        Ok(Self {
            title: title.into(),
            css: state.assets.url("css/shop.css"),
            htmx: state.assets.url("vendor/htmx.min.js"),
            company: s.who.org_name.clone(),
            customer: s.who.name.clone(),
            csrf: s.csrf.clone(),
            cart_count: count,
            key: String::new(),
        })
    }
}

#[derive(Template)]
#[template(path = "shop/head.html")]
struct Head<'a> {
    shell: &'a Shell,
}

/// The shop's layout as a streamed page ends it: the footer names the customer and signs
/// them out with the session's CSRF token.
struct Footer {
    customer: String,
    csrf: String,
}

#[derive(Template)]
#[template(source = "<p class=\"alert\" role=\"alert\">{{ message }}</p>\n{% include \"shop/tail.html\" %}", ext = "html")]
struct Failed<'a> {
    message: &'a str,
    shell: &'a Footer,
}

impl Layout for Footer {
    type Shell = Shell;

    const CONTENT_START: &'static str = "<main>";

    fn head(shell: &Shell) -> askama::Result<String> {
        Head { shell }.render()
    }

    fn ending(shell: &Shell) -> Self {
        Self { customer: shell.customer.clone(), csrf: shell.csrf.clone() }
    }

    fn failed(&self, message: &str) -> askama::Result<String> {
        Failed { message, shell: self }.render()
    }
}

/// Answers a full shop page: `shell`'s head and header go out at once, then the page
/// `content` builds from the shell (`stream::answer`; an htmx request gets it whole).
pub async fn respond<T, F, Fut>(state: &AppState, request: &HeaderMap, shell: Shell, content: F) -> AppResult<Response>
where
    T: Template + Send,
    F: FnOnce(Shell) -> Fut + Send + 'static,
    Fut: Future<Output = Result<T, AppError>> + Send + 'static,
{
    stream::answer::<Footer, _, _, _>(request, state.config.request_timeout, shell, content).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_that_failed_after_its_head_shows_the_message_and_ends_with_the_footer() {
        let footer = Footer { customer: "Kerb & Co".into(), csrf: "token".into() };
        let end = footer.failed("Not <found>").unwrap();
        assert!(end.starts_with("<p class=\"alert\" role=\"alert\">Not ") && !end.contains("<found>"), "{end}");
        assert!(end.contains("</p>\n</main>\n<footer class=\"foot\">") && end.contains("Signed in as Kerb &") && end.contains("value=\"token\""), "{end}");
        assert!(end.ends_with("</body>\n</html>"), "{end}");
    }
}
