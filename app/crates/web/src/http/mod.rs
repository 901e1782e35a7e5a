//! What the three ways in (htmx pages, the JSON API, the shop) share about HTTP: the query
//! of a list, JSON envelopes, spreadsheet uploads, the client's address, streamed pages and
//! file downloads. Nothing here knows a screen.

pub mod download;
pub mod json;
pub mod query;
pub mod stream;
pub mod upload;

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// Content-Security-Policy of every answer (docs/decisions/screens.md, "What every answer carries"): scripts only from
/// our own files, never inline; styles may be inline because Radix's dialogs and htmx add
/// `<style>` elements at run time.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; \
                       font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; \
                       frame-ancestors 'none'; form-action 'self'";

/// The client's address when the server runs with connection info (not in in-process tests).
pub struct ClientIp(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip())))
    }
}

/// Whether `path` is one of the driver's pages (issue 34, `pages::driver`): no session, the
/// token in the address. The CSRF guard, the body deadline and the error renderer ask it.
pub fn is_driver_path(path: &str) -> bool {
    path.starts_with("/r/")
}

/// The address a browser reaches `path` of this server at, for an outside service to send
/// it back to (Connect to Xero's redirect URI): `TYREDESK_PUBLIC_URL` when set (the address
/// registered with that service), else the address this request came to.
pub fn public_url(headers: &axum::http::HeaderMap, path: &str) -> String {
    let base = std::env::var("TYREDESK_PUBLIC_URL").ok().map(|u| u.trim().trim_end_matches('/').to_string()).filter(|u| !u.is_empty()).unwrap_or_else(|| {
        let host = headers.get(axum::http::header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("localhost");
        let https = headers.get("x-forwarded-proto").and_then(|h| h.to_str().ok()).is_some_and(|p| p.eq_ignore_ascii_case("https"));
        format!("{}://{host}", if https { "https" } else { "http" })
    });
    format!("{base}{path}")
}
