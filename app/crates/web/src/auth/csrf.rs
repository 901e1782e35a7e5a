//! CSRF protection for cookie-authenticated requests.
//!
//! The token is derived from the secret cookie (session, or the pre-sign-in cookie on the
//! sign-in form), so it needs no lookup and cannot be forged without reading the cookie.
//! Every unsafe method carrying a cookie must present it in `X-CSRF-Token` or a form field
//! `_csrf`; bearer-token calls carry no ambient credentials and are exempt.

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use db::token;
use db::error::AppError;

/// Cookie set on the sign-in page before any session exists.
pub const PRE_COOKIE: &str = "td_pre";
/// Answer to a sign-in form that came without its cookie (login CSRF, or a stale page).
pub const SIGN_IN_FORM_EXPIRED: &str = "This sign-in form has expired. Please reload the page and sign in again.";
const FORM_LIMIT: usize = 2 * 1024 * 1024;

/// The CSRF token that goes with a cookie secret.
pub fn token_for(secret: &str) -> String {
    token::digest(&format!("csrf:{secret}"))
}

fn refused() -> Response {
    AppError::forbidden("Invalid or missing CSRF token, reload the page and try again.").into_response()
}

/// Middleware enforcing the token on POST/PUT/PATCH/DELETE. `sides` are the sign-ins whose
/// cookies vouch for forms, most specific path first: a request is checked against the first
/// side that covers its path, so a staff cookie never vouches for a shop form, nor a shop
/// cookie for a staff one.
pub async fn guard(State(sides): State<&'static [super::SignInCookies]>, req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(req).await;
    }
    let headers = req.headers();
    let path = req.uri().path();
    if crate::http::is_driver_path(path) {
        // A driver's link is its own key (the token in the address) and reads no cookie: a
        // staff cookie the same browser happens to hold vouches for nothing there.
        return next.run(req).await;
    }
    let secret = sides.iter().find(|side| side.covers(path)).and_then(|side| side.secret(headers));
    let Some(secret) = secret else {
        // No cookie: either a bearer call or an anonymous one that the handler refuses
        // (the sign-in form refuses to go on without its pre-session cookie).
        return next.run(req).await;
    };
    let expected = token_for(&secret);
    if let Some(sent) = headers.get("x-csrf-token").and_then(|v| v.to_str().ok()) {
        return if token::same(sent, &expected) { next.run(req).await } else { refused() };
    }
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    if content_type.starts_with("multipart/form-data") {
        // A plain HTML upload form cannot set a header: its token is a field of the body,
        // never the address (where it would stay in the history and re-post on reload).
        // The body is read here within the upload limit and handed on whole.
        let (parts, body) = req.into_parts();
        let bytes = match to_bytes(body, domain::uploads::MAX_UPLOAD_BODY_BYTES).await {
            Ok(b) => b,
            Err(_) => return AppError::TooLarge(domain::uploads::FILE_TOO_LARGE.into()).into_response(),
        };
        let sent = multipart_value(&content_type, bytes.clone(), "_csrf").await;
        return if sent.is_some_and(|s| token::same(&s, &expected)) { next.run(Request::from_parts(parts, Body::from(bytes))).await } else { refused() };
    }
    if !content_type.starts_with("application/x-www-form-urlencoded") {
        return refused();
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = to_bytes(body, FORM_LIMIT).await else {
        return AppError::bad_request("The form is too large.").into_response();
    };
    let sent = form_urlencoded_value(&bytes, "_csrf");
    if sent.is_some_and(|s| token::same(&s, &expected)) {
        next.run(Request::from_parts(parts, Body::from(bytes))).await
    } else {
        refused()
    }
}

/// The text of field `key` in a multipart body (a short field; files are not read).
async fn multipart_value(content_type: &str, body: axum::body::Bytes, key: &str) -> Option<String> {
    use axum::extract::{FromRequest, Multipart};
    let req = Request::builder().header(header::CONTENT_TYPE, content_type).body(Body::from(body)).ok()?;
    let mut form = Multipart::from_request(req, &()).await.ok()?;
    while let Ok(Some(field)) = form.next_field().await {
        if field.name() == Some(key) && field.file_name().is_none() {
            return field.text().await.ok().map(|t| t.trim().to_string());
        }
    }
    None
}

fn form_urlencoded_value(body: &[u8], key: &str) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).ok()?;
    pairs.into_iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_depends_on_the_secret() {
        assert_eq!(token_for("a"), token_for("a"));
        assert_ne!(token_for("a"), token_for("b"));
        assert_ne!(token_for("a"), token::digest("a"));
    }

    #[test]
    fn form_field_is_found() {
        assert_eq!(form_urlencoded_value(b"x=1&_csrf=abc%20d", "_csrf").as_deref(), Some("abc d"));
        assert_eq!(form_urlencoded_value(b"x=1", "_csrf"), None);
    }
}
