//! Renders [`AppError`](db::error::AppError)s for the caller: JSON for the API, a redirect
//! to sign-in, an htmx toast, or an error page (spec §8).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};

use crate::auth::{self, SESSION_COOKIE};
use domain::permissions::WAREHOUSE_REFUSED;
use domain::uploads::FILE_TOO_LARGE;
use db::error::{AppError, ErrorInfo};

/// A request body beyond the server-wide limit that is not an upload.
pub const REQUEST_TOO_LARGE: &str = "The request is larger than 20 MB.";

#[derive(Template, WebTemplate)]
#[template(path = "error.html")]
struct ErrorPage {
    status: u16,
    message: String,
}

/// The message a form page shows in place when an action is refused (its board or list stays
/// on screen): what the user can act on — a bad request, a refusal, the fields' messages, a
/// conflict — and, when the page names one, `not_found` for a record outside the company.
/// `None` for anything else, which answers as every other error does.
pub fn refusal(e: &AppError, not_found: Option<&str>) -> Option<String> {
    match e {
        AppError::BadRequest(m) | AppError::Forbidden(m) => Some(m.clone()),
        AppError::Validation { message, errors } => {
            let detail: Vec<&str> = errors.values().map(String::as_str).collect();
            Some(if detail.is_empty() { message.clone() } else { detail.join(" ") })
        }
        AppError::Conflict { message, .. } => Some(message.clone()),
        AppError::NotFound => not_found.map(str::to_string),
        _ => None,
    }
}

/// Middleware turning error responses into the right representation.
pub async fn render(req: Request, next: Next) -> Response {
    let mut res = render_error(req, next).await;
    if res.status() == StatusCode::SERVICE_UNAVAILABLE {
        // Busy, not broken: clients and proxies may retry after a short pause.
        res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECONDS));
    }
    res
}

/// Seconds a client should wait before retrying a 503.
pub const RETRY_AFTER_SECONDS: &str = "2";

async fn render_error(req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let is_upload = [crate::api::LINE_IMPORT, crate::api::OCOP_IMPORT, crate::api::DRAFT_IMPORT, crate::api::BASIC_IMPORT].contains(&path.as_str()) || path.starts_with("/reports_download/import/");
    let is_htmx = req.headers().contains_key("hx-request");
    let had_session = auth::cookie(req.headers(), SESSION_COOKIE).is_some();
    let res = next.run(req).await;
    let info = match res.extensions().get::<ErrorInfo>().cloned() {
        Some(info) => info,
        // The server-wide body limit answers before any handler could: an upload gets the
        // upload's size message, anything else says what was too large.
        None if res.status() == StatusCode::PAYLOAD_TOO_LARGE => match AppError::TooLarge(if is_upload { FILE_TOO_LARGE.into() } else { REQUEST_TOO_LARGE.into() }).into_response().extensions().get::<ErrorInfo>() {
            Some(info) => info.clone(),
            None => return res,
        },
        None => return res,
    };
    if path.starts_with("/api") {
        return json(&info);
    }
    if crate::http::is_driver_path(&path) {
        // A driver's link shows nothing of the company and leads nowhere into the app.
        return super::driver::unhandled(info.status);
    }
    if path.starts_with("/oauth") {
        return oauth_json(&info);
    }
    if crate::shop::is_shop_path(&path) {
        // The shop signs in and changes passwords on its own pages, never the staff's.
        let target = if info.message == domain::shop::PASSWORD_CHANGE_FIRST {
            Some("/shop/password")
        } else if info.status == StatusCode::UNAUTHORIZED {
            Some("/shop/login")
        } else {
            None
        };
        if let Some(target) = target {
            if is_htmx {
                let mut r = (info.status, info.message.clone()).into_response();
                r.headers_mut().insert("hx-redirect", HeaderValue::from_static(target));
                return r;
            }
            return Redirect::to(target).into_response();
        }
    }
    if info.message == domain::admin::PASSWORD_CHANGE_REQUIRED {
        let target = super::login::CHANGE_PASSWORD;
        if is_htmx {
            let mut r = (info.status, info.message.clone()).into_response();
            r.headers_mut().insert("hx-redirect", HeaderValue::from_static(target));
            return r;
        }
        return Redirect::to(target).into_response();
    }
    if info.status == StatusCode::UNAUTHORIZED || info.message == WAREHOUSE_REFUSED {
        let target = if info.message == WAREHOUSE_REFUSED {
            "/login?m=warehouse"
        } else if had_session {
            "/login?m=expired"
        } else {
            "/login"
        };
        if is_htmx {
            let mut r = (info.status, info.message.clone()).into_response();
            r.headers_mut().insert("hx-redirect", HeaderValue::from_static("/login"));
            return r;
        }
        return Redirect::to(target).into_response();
    }
    if is_htmx {
        let mut r = (info.status, info.message.clone()).into_response();
        if let Some(v) = info.code.and_then(|code| HeaderValue::from_str(code).ok()) {
            r.headers_mut().insert("x-td-code", v);
        }
        return r;
    }
    let mut r = ErrorPage { status: info.status.as_u16(), message: info.message }.into_response();
    *r.status_mut() = info.status;
    r
}

/// An error under `/oauth` that the token endpoint did not word itself (a body over the
/// limit, a busy or failed database) in RFC 6749 §5.2's shape, uncached like its own.
fn oauth_json(info: &ErrorInfo) -> Response {
    let error = match info.status {
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::CONFLICT => "temporarily_unavailable",
        s if s.is_server_error() => "server_error",
        StatusCode::UNAUTHORIZED => "invalid_client",
        _ => "invalid_request",
    };
    crate::api::token::OAuthError::new(info.status, error, info.message.clone()).into_response()
}

/// The app's `{message, errors?, code?}`.
fn json(info: &ErrorInfo) -> Response {
    let mut body = serde_json::json!({ "message": info.message });
    if !info.errors.is_empty() {
        body["errors"] = serde_json::json!(info.errors);
    }
    if let Some(code) = info.code {
        body["code"] = serde_json::json!(code);
    }
    if !info.reasons.is_empty() {
        body["reasons"] = serde_json::json!(info.reasons);
    }
    let mut r = (info.status, axum::Json(body)).into_response();
    if let Some(v) = info.code.and_then(|code| HeaderValue::from_str(code).ok()) {
        r.headers_mut().insert("x-td-code", v);
    }
    if info.status == StatusCode::UNAUTHORIZED {
        r.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    r
}
