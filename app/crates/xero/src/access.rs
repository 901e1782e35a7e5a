//! How the server reaches a company's Xero: the endpoint of a stored connection of either
//! grant. A Custom Connection signs in with its sealed secret (`client`); a connection made
//! with "Connect to Xero" calls with an access token got through its refresh token (`auth`),
//! kept in memory until a minute before it expires. Every refresh answers a new refresh
//! token, sealed and kept before the access token is used; a refresh Xero refuses
//! (`invalid_grant`: revoked in Xero, or unused for 60 days) marks the connection for
//! reconnecting, which the settings screen and every job then say.

use std::time::{Duration, Instant};

use db::Db;
use db::xero::{self as q, Connection};

use super::Link;
use super::auth::{self, Flow};
use super::client::{CallError, Endpoint};

/// The endpoint of the company's stored connection, signed in.
pub async fn endpoint(db: &Db, link: &Link, conn: &Connection) -> Result<Endpoint, CallError> {
    let org = conn.org_id;
    let mut ep = Endpoint { org_id: org, client_id: conn.client_id.clone(), secret: String::new(), identity_url: conn.identity_url.clone(), api_url: conn.api_url.clone(), tenant_id: conn.tenant_id.clone(), bearer: None };
    if !conn.is_code() {
        ep.secret = link.key.open(org, &conn.secret_sealed).ok_or_else(|| {
            CallError::Reconnect("The stored Xero client secret cannot be opened with this server's key (TYREDESK_SECRET_KEY or secret.key in the data directory changed)".into())
        })?;
        return Ok(ep);
    }
    if !conn.reconnect.is_empty() {
        return Err(CallError::Reconnect(conn.reconnect.clone()));
    }
    ep.bearer = Some(access_token(db, link, conn).await?);
    Ok(ep)
}

/// The flow of a stored code connection (the app's secret opened when it has one).
pub fn flow(link: &Link, conn: &Connection) -> Result<Flow, CallError> {
    let secret = if conn.secret_sealed.is_empty() {
        None
    } else {
        Some(link.key.open(conn.org_id, &conn.secret_sealed).ok_or_else(|| CallError::Reconnect("The stored app secret cannot be opened with this server's key".into()))?)
    };
    Ok(Flow { client_id: conn.client_id.clone(), secret, login_url: conn.login_url.clone(), identity_url: conn.identity_url.clone(), redirect_uri: String::new() })
}

async fn access_token(db: &Db, link: &Link, conn: &Connection) -> Result<String, CallError> {
    let org = conn.org_id;
    if let Some(t) = link.code_tokens.lock().ok().and_then(|m| m.get(&org).filter(|(_, until)| Instant::now() < *until).map(|(t, _)| t.clone())) {
        return Ok(t);
    }
    let refresh = link.key.open(org, &conn.refresh_sealed).ok_or_else(|| CallError::Reconnect("The stored refresh token cannot be opened with this server's key".into()))?;
    let flow = flow(link, conn)?;
    match auth::refresh(link.client.http(), &flow, &refresh).await {
        Ok(tokens) => {
            let sealed = link.key.seal(org, &tokens.refresh);
            let expires = link.clock.now() + chrono::Duration::days(auth::REFRESH_DAYS);
            db.write(move |c| q::rotate_refresh(c, org, &sealed, expires)).await.map_err(|e| CallError::Unknown(format!("the new refresh token could not be kept: {e}")))?;
            remember(link, org, &tokens);
            Ok(tokens.access)
        }
        Err(CallError::Auth(why)) => {
            let kept = why.clone();
            let _ = db.write(move |c| q::needs_reconnect(c, org, &kept)).await;
            Err(CallError::Reconnect(why))
        }
        Err(e) => Err(e),
    }
}

/// Keeps the company's access token until a minute before it expires.
pub fn remember(link: &Link, org: i64, tokens: &auth::Tokens) {
    if let Ok(mut m) = link.code_tokens.lock() {
        m.insert(org, (tokens.access.clone(), Instant::now() + Duration::from_secs(tokens.expires_in.max(120) - 60)));
    }
}

/// Forgets the company's access token (after Xero refused it, or on disconnecting).
pub fn forget(link: &Link, org: i64) {
    if let Ok(mut m) = link.code_tokens.lock() {
        m.remove(&org);
    }
}
