//! `POST /oauth/token`: the password grant for API clients (DESIGN §7), answered as RFC 6749
//! says, since outside clients use standard OAuth 2.0 libraries. The client authenticates by
//! HTTP Basic (§2.3.1: id and secret each form-urlencoded inside) or by `client_id` and
//! `client_secret` in the body, never both; parameters come as a form (or JSON, DESIGN §7),
//! each at most once (§3.2); a refusal is §5.2's `{error, error_description}` with the app's
//! `message` beside it; no answer is cached (§5.1). The mapping of refusals to codes:
//! docs/decisions/sign-in-and-sessions.md, "`/oauth/token` and API clients".

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde::{Deserialize, Serialize};

use services::password;
use db::accounts;
use db::error::AppError;
use crate::state::AppState;
use crate::http::ClientIp;
use services::sign_in;

/// The challenge on every 401: the client may authenticate by HTTP Basic (§5.2).
pub const BASIC_CHALLENGE: &str = "Basic realm=\"tyredesk\"";
/// `invalid_client`'s description: which of id and secret was wrong is not told.
pub const INVALID_CLIENT: &str = "Invalid client: the client id or secret is wrong.";
/// A customer whose e-mail and password open the shops of several companies.
pub const SEVERAL_COMPANIES: &str = "This e-mail opens the shops of several companies: send X-Org-Id with the company's id.";
/// `X-Org-Id` names a company the credentials open no shop in.
pub const NO_ACCESS_TO_ORG: &str = "No access to this organisation.";

/// An RFC 6749 §5.2 error answer.
#[derive(Debug)]
pub struct OAuthError {
    status: StatusCode,
    error: &'static str,
    description: String,
}

impl OAuthError {
    pub fn new(status: StatusCode, error: &'static str, description: impl Into<String>) -> Self {
        Self { status, error, description: description.into() }
    }
    fn invalid_request(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", description)
    }
    fn invalid_client() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "invalid_client", INVALID_CLIENT)
    }
    fn invalid_grant(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_grant", description)
    }
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.error, "error_description": self.description, "message": self.description });
        let mut res = (self.status, Json(body)).into_response();
        no_store(res.headers_mut());
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(BASIC_CHALLENGE));
        }
        res
    }
}

/// §5.1: token answers and errors are never cached.
pub fn no_store(headers: &mut HeaderMap) {
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
}

/// Why no token was issued: a refusal in RFC 6749's words, or a failure of the server (a
/// busy or failed database), which the error renderer words for `/oauth` (`pages::errors`).
#[derive(Debug)]
pub enum TokenError {
    Refused(OAuthError),
    Failed(AppError),
}

impl From<OAuthError> for TokenError {
    fn from(e: OAuthError) -> Self {
        Self::Refused(e)
    }
}

/// The sign-in services refuse with the spec's messages: a wrong or unknown e-mail or
/// password and an account without API access are `invalid_grant`, and so is the throttle,
/// though with 429 so that a client backs off (see the decisions page).
impl From<AppError> for TokenError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::TooManyRequests => Self::Refused(OAuthError::new(StatusCode::TOO_MANY_REQUESTS, "invalid_grant", e.to_string())),
            AppError::Forbidden(message) => Self::Refused(OAuthError::invalid_grant(message)),
            other => Self::Failed(other),
        }
    }
}

impl IntoResponse for TokenError {
    fn into_response(self) -> Response {
        match self {
            Self::Refused(e) => e.into_response(),
            Self::Failed(e) => e.into_response(),
        }
    }
}

/// The token request's parameters; an empty one counts as not sent (§3.2).
#[derive(Deserialize, Default)]
struct Params {
    grant_type: Option<String>,
    username: Option<String>,
    password: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    scope: Option<String>,
}

fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().filter(|s| !s.is_empty())
}

/// The parameters, from a form or a JSON body. A parameter sent twice is refused: serde
/// answers 'duplicate field' for the form and for JSON alike.
pub struct TokenRequest(Params);

impl<S: Send + Sync> FromRequest<S> for TokenRequest {
    type Rejection = OAuthError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
        let bytes = Bytes::from_request(req, state).await.map_err(|e| OAuthError::new(e.status(), "invalid_request", e.body_text()))?;
        let parsed = if content_type.starts_with("application/json") {
            serde_json::from_slice::<Params>(&bytes).map_err(|e| e.to_string())
        } else if content_type.starts_with("application/x-www-form-urlencoded") {
            serde_urlencoded::from_bytes::<Params>(&bytes).map_err(|e| e.to_string())
        } else {
            return Err(OAuthError::invalid_request("Send the parameters as a form (application/x-www-form-urlencoded) or as JSON."));
        };
        parsed.map(Self).map_err(|e| OAuthError::invalid_request(format!("The parameters could not be read: {e}.")))
    }
}

/// The client's id and secret as presented: in HTTP Basic or in the body, never both (§2.3).
/// An `Authorization` header that is not Basic with a readable id and secret fails the
/// client's authentication.
fn client_credentials(headers: &HeaderMap, params: &Params) -> Result<(String, String), OAuthError> {
    let (body_id, body_secret) = (given(&params.client_id), given(&params.client_secret));
    let Some(authorization) = headers.get(header::AUTHORIZATION) else {
        return match (body_id, body_secret) {
            (Some(id), Some(secret)) => Ok((id.to_string(), secret.to_string())),
            _ => Err(OAuthError::invalid_client()),
        };
    };
    let (id, secret) = basic(authorization).ok_or_else(OAuthError::invalid_client)?;
    if body_secret.is_some() {
        return Err(OAuthError::invalid_request("Authenticate the client one way only: HTTP Basic, or client_id and client_secret in the body."));
    }
    // A client may still name itself in the body (§3.2.1), but not another client.
    if body_id.is_some_and(|b| b != id) {
        return Err(OAuthError::invalid_request("The client_id in the body is not the client of the Authorization header."));
    }
    Ok((id, secret))
}

/// The id and secret of `Authorization: Basic …`, each form-urlencoded inside (§2.3.1).
fn basic(value: &HeaderValue) -> Option<(String, String)> {
    let (scheme, encoded) = value.to_str().ok()?.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()?;
    let (id, secret) = std::str::from_utf8(&decoded).ok()?.split_once(':')?;
    let unescape = |s: &str| percent_encoding::percent_decode_str(&s.replace('+', " ")).decode_utf8().ok().map(|s| s.into_owned());
    Some((unescape(id)?, unescape(secret)?))
}

#[derive(Serialize)]
pub struct TokenAnswer {
    token_type: &'static str,
    access_token: String,
    expires_in: i64,
}

fn answer(access_token: String, lifetime: chrono::Duration) -> Response {
    let mut res = Json(TokenAnswer { token_type: "Bearer", access_token, expires_in: lifetime.num_seconds() }).into_response();
    no_store(res.headers_mut());
    res
}

/// Issues a bearer token for a known client and valid staff credentials, or a customer
/// token (for `/api/shop`) when the e-mail is not a staff member's but a shop customer's.
pub async fn issue(State(state): State<AppState>, ClientIp(ip): ClientIp, headers: HeaderMap, TokenRequest(req): TokenRequest) -> Result<Response, TokenError> {
    match given(&req.grant_type) {
        None => return Err(OAuthError::invalid_request("The grant_type parameter is missing: use password.").into()),
        Some("password") => {}
        Some(_) => return Err(OAuthError::new(StatusCode::BAD_REQUEST, "unsupported_grant_type", "Only the password grant is supported: grant_type=password.").into()),
    }
    let (Some(username), Some(pass)) = (given(&req.username), given(&req.password)) else {
        return Err(OAuthError::invalid_request("The password grant needs both username and password.").into());
    };
    let (client_id, client_secret) = client_credentials(&headers, &req)?;
    let id = client_id.clone();
    // An unknown client costs the same hash as a known one, so timing tells no client ids.
    let client_ok = state
        .db
        .run(move |c| {
            let hash = accounts::client_secret_hash(c, &id)?;
            let ok = password::verify(&client_secret, hash.as_deref().unwrap_or(sign_in::dummy_hash()));
            Ok(ok && hash.is_some())
        })
        .await?;
    if !client_ok {
        return Err(OAuthError::invalid_client().into());
    }
    let email = username.trim().to_lowercase();
    let is_staff = state.db.run(move |c| accounts::user_by_email(c, &email)).await?.is_some();
    if !is_staff {
        return customer_token(&state, username, pass, ip, &headers).await;
    }
    let signed_in = sign_in::staff(&state, username, pass, ip).await?;
    if signed_in.must_change_password {
        // A one-time password opens only the browser's change-password page.
        return Err(OAuthError::invalid_grant(domain::admin::PASSWORD_CHANGE_REQUIRED).into());
    }
    let (user_id, org_id) = (signed_in.user_id, signed_in.org_id);
    let scope = given(&req.scope).unwrap_or_default().to_string();
    let access_token = state.db.write(move |c| accounts::create_api_token(c, user_id, &client_id, org_id, &scope)).await?;
    Ok(answer(access_token, accounts::TOKEN_LIFETIME))
}

/// A customer's token: the shop the e-mail and password open (the `X-Org-Id` header picks
/// one when they open several).
async fn customer_token(state: &AppState, username: &str, pass: &str, ip: Option<std::net::IpAddr>, headers: &HeaderMap) -> Result<Response, TokenError> {
    let opened = sign_in::customer(state, username, pass, ip).await?;
    let wanted: Option<i64> = headers.get(crate::auth::ORG_HEADER).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse().ok());
    let chosen = match (opened.as_slice(), wanted) {
        ([one], None) => one.clone(),
        (many, Some(org)) => many.iter().find(|a| a.org_id == org).cloned().ok_or_else(|| OAuthError::invalid_grant(NO_ACCESS_TO_ORG))?,
        (_, None) => return Err(OAuthError::invalid_request(SEVERAL_COMPANIES).into()),
    };
    if chosen.must_change {
        return Err(OAuthError::invalid_grant(domain::shop::PASSWORD_CHANGE_FIRST).into());
    }
    let (org, customer) = (chosen.org_id, chosen.customer_id);
    let access_token = state.db.write(move |c| db::shop::create_token(c, org, customer)).await?;
    Ok(answer(access_token, db::shop::TOKEN_LIFETIME))
}
