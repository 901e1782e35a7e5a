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

/// The client's address when the server runs with connection info (not in in-process tests).
pub struct ClientIp(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip())))
    }
}
