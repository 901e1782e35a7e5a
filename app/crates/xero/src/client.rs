//! A thin client of the Xero Accounting API (xero-facts.md): the client-credentials token
//! of a Custom Connection, cached until a minute before it expires for exactly the
//! credentials and addresses it was issued for, and one JSON call at a time with Xero's
//! answers sorted into what the worker must do next. Redirects are never followed.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::Value;

use domain::xero::refusal_text;

/// Where and as whom a company's calls go.
#[derive(Clone, Debug)]
pub struct Endpoint {
    pub org_id: i64,
    pub client_id: String,
    pub secret: String,
    /// The base `/connect/token` is appended to.
    pub identity_url: String,
    /// The base `/Invoices` etc. are appended to (`…/api.xro/2.0`).
    pub api_url: String,
    /// The organisation every Accounting call names in `xero-tenant-id` (empty before
    /// [`Client::tenant`] has read it).
    pub tenant_id: String,
    /// A connection made with "Connect to Xero" calls with this access token (fetched by
    /// `auth` through its refresh token) instead of signing in with the secret.
    pub bearer: Option<String>,
}

impl Endpoint {
    /// Where `GET /connections` lives: beside the API base (`https://api.xero.com/connections`
    /// for `https://api.xero.com/api.xro/2.0`).
    pub fn connections_url(&self) -> String {
        let base = self.api_url.trim_end_matches('/');
        let root = base.strip_suffix("/api.xro/2.0").unwrap_or(base);
        format!("{root}/connections")
    }
}

/// How a call ended when it did not answer 2xx.
#[derive(Debug, Clone)]
pub enum CallError {
    /// Xero answered and refused (400 validation, 403, 404 …): nothing was done.
    Refused { status: u16, message: String },
    /// 429: wait this long, then try again.
    RateLimited { wait: chrono::Duration, problem: String },
    /// No answer, a dropped connection, a timeout or a 5xx: Xero may or may not have done it.
    Unknown(String),
    /// The connection's credentials were refused.
    Auth(String),
    /// The connection must be made again (Xero revoked it, or its secret or refresh token
    /// can no longer be opened); says why.
    Reconnect(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused { status, message } => write!(f, "Xero refused ({status}): {message}"),
            Self::RateLimited { wait, problem } => write!(f, "Xero's {problem} limit was reached; waiting {} s", wait.num_seconds()),
            Self::Unknown(m) => write!(f, "Xero did not answer: {m}"),
            Self::Auth(m) => write!(f, "Xero did not accept the connection's client id and secret: {m}"),
            Self::Reconnect(m) => write!(f, "{m}; connect to Xero again in Settings"),
        }
    }
}

/// Default time a call may take before its outcome counts as unknown.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// What a cached token belongs to: the company, the client id, a digest of the secret and
/// both addresses. A token is only ever sent to the API address it was fetched for, with
/// the secret it was fetched with: changed settings (a wrong secret, another address) find
/// no token and must sign in themselves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct TokenKey {
    org_id: i64,
    client_id: String,
    secret_digest: String,
    identity_url: String,
    api_url: String,
}

impl TokenKey {
    fn of(ep: &Endpoint) -> Self {
        Self {
            org_id: ep.org_id,
            client_id: ep.client_id.clone(),
            secret_digest: db::token::digest(&ep.secret),
            identity_url: ep.identity_url.clone(),
            api_url: ep.api_url.clone(),
        }
    }
}

/// The HTTP client with its token cache.
pub struct Client {
    http: reqwest::Client,
    tokens: Mutex<HashMap<TokenKey, (String, Instant)>>,
}

impl Client {
    /// The HTTP client itself (the OAuth 2.0 requests of `auth` go through it: no redirects).
    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// A client whose calls time out after `timeout`.
    pub fn new(timeout: Duration) -> Self {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("TyreDesk/", env!("CARGO_PKG_VERSION")))
            // A redirect would carry the call (and its bearer token) to an address nobody checked.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self { http, tokens: Mutex::new(HashMap::new()) }
    }

    fn cached(&self, ep: &Endpoint) -> Option<String> {
        let tokens = self.tokens.lock().ok()?;
        tokens.get(&TokenKey::of(ep)).filter(|(_, until)| Instant::now() < *until).map(|(t, _)| t.clone())
    }

    fn forget(&self, ep: &Endpoint) {
        if let Ok(mut t) = self.tokens.lock() {
            t.remove(&TokenKey::of(ep));
        }
    }

    /// A bearer token for the endpoint: the code connection's own, or (client-credentials
    /// grant) from the cache when one was fetched for exactly these settings.
    pub async fn token(&self, ep: &Endpoint) -> Result<String, CallError> {
        if let Some(t) = &ep.bearer {
            return Ok(t.clone());
        }
        if let Some(t) = self.cached(ep) {
            return Ok(t);
        }
        self.sign_in(ep).await
    }

    /// Signs in with the endpoint's own client id and secret, whatever is cached: Test
    /// connection proves the credentials entered, not a token an earlier sign-in left.
    pub async fn sign_in(&self, ep: &Endpoint) -> Result<String, CallError> {
        let url = format!("{}/connect/token", ep.identity_url.trim_end_matches('/'));
        let res = self
            .http
            .post(&url)
            .basic_auth(&ep.client_id, Some(&ep.secret))
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .map_err(|e| CallError::Unknown(describe(&e)))?;
        let status = res.status();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        if status.is_server_error() {
            return Err(CallError::Unknown(format!("the sign-in service answered {status}")));
        }
        let token = body.get("access_token").and_then(Value::as_str).filter(|_| status.is_success());
        let Some(token) = token else {
            return Err(CallError::Auth(refusal_text(&body)));
        };
        let secs = body.get("expires_in").and_then(Value::as_u64).unwrap_or(1800).max(120);
        if let Ok(mut t) = self.tokens.lock() {
            let now = Instant::now();
            t.retain(|_, (_, until)| now < *until);
            t.insert(TokenKey::of(ep), (token.to_string(), now + Duration::from_secs(secs - 60)));
        }
        Ok(token.to_string())
    }

    /// The organisations the token reaches (`GET /connections`, Xero's identity API), each
    /// with the id of its connection. A 401 renews a Custom Connection's token once.
    pub async fn tenants(&self, ep: &Endpoint) -> Result<Vec<db::xero::Tenant>, CallError> {
        for renewed in [false, true] {
            let token = self.token(ep).await?;
            let res = self.http.get(ep.connections_url()).bearer_auth(&token).header("Accept", "application/json").send().await.map_err(|e| CallError::Unknown(describe(&e)))?;
            let status = res.status();
            let json: Value = res.json().await.unwrap_or(Value::Null);
            if status == StatusCode::UNAUTHORIZED && !renewed && ep.bearer.is_none() {
                self.forget(ep);
                continue;
            }
            if status == StatusCode::UNAUTHORIZED {
                return Err(CallError::Auth("Xero did not accept the token".into()));
            }
            if !status.is_success() {
                return Err(if status.is_server_error() { CallError::Unknown(format!("Xero answered {status}")) } else { CallError::Refused { status: status.as_u16(), message: format!("the connections call answered {status}") } });
            }
            let id_like = |s: &str| s.len() <= 64 && s.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
            return Ok(json
                .as_array()
                .into_iter()
                .flatten()
                .filter(|c| c["tenantType"].as_str().is_none_or(|t| t == "ORGANISATION"))
                .filter_map(|c| {
                    let tenant_id = c["tenantId"].as_str().filter(|s| id_like(s))?;
                    let connection_id = c["id"].as_str().filter(|s| id_like(s)).unwrap_or_default();
                    Some(db::xero::Tenant { connection_id: connection_id.into(), tenant_id: tenant_id.into(), name: c["tenantName"].as_str().unwrap_or_default().chars().take(200).collect() })
                })
                .take(50)
                .collect());
        }
        Err(CallError::Auth("the token was refused twice".into()))
    }

    /// The one organisation a Custom Connection reaches (the first Xero lists).
    pub async fn tenant(&self, ep: &Endpoint) -> Result<db::xero::Tenant, CallError> {
        self.tenants(ep).await?.into_iter().next().ok_or_else(|| CallError::Refused { status: 200, message: "the connection reaches no Xero organisation; connect it to one in Xero".into() })
    }

    /// Removes the connection to one organisation (`DELETE /connections/{id}`): how Xero
    /// disconnects an app from an organisation.
    pub async fn remove_connection(&self, ep: &Endpoint, connection_id: &str) -> Result<(), CallError> {
        let token = self.token(ep).await?;
        let url = format!("{}/{connection_id}", ep.connections_url());
        let res = self.http.delete(url).bearer_auth(&token).send().await.map_err(|e| CallError::Unknown(describe(&e)))?;
        match res.status() {
            s if s.is_success() || s == StatusCode::NOT_FOUND => Ok(()),
            StatusCode::UNAUTHORIZED => Err(CallError::Auth("Xero did not accept the token".into())),
            s => Err(CallError::Unknown(format!("Xero answered {s}"))),
        }
    }

    /// One call: `path` below the API base, an optional `where` and other query pairs, an
    /// optional JSON body and `Idempotency-Key`. A 401 renews a Custom Connection's token
    /// once (a code connection's is renewed by the worker, which holds its refresh token).
    pub async fn call(&self, ep: &Endpoint, method: Method, path: &str, query: &[(&str, &str)], body: Option<&Value>, key: Option<&str>) -> Result<Value, CallError> {
        self.request(ep, method, path, query, body, key, None).await
    }

    /// A `GET` of the records changed since `since` (`If-Modified-Since`, as Xero's
    /// description has it); a 304 (nothing changed) is an empty answer.
    pub async fn get_changed_since(&self, ep: &Endpoint, path: &str, query: &[(&str, &str)], since: Option<&str>) -> Result<Value, CallError> {
        self.request(ep, Method::GET, path, query, None, None, since).await
    }

    #[allow(clippy::too_many_arguments)]
    async fn request(&self, ep: &Endpoint, method: Method, path: &str, query: &[(&str, &str)], body: Option<&Value>, key: Option<&str>, since: Option<&str>) -> Result<Value, CallError> {
        for renewed in [false, true] {
            let token = self.token(ep).await?;
            let url = format!("{}{}", ep.api_url.trim_end_matches('/'), path);
            let mut req = self.http.request(method.clone(), &url).bearer_auth(&token).header("Accept", "application/json").query(query);
            if !ep.tenant_id.is_empty() {
                req = req.header("xero-tenant-id", &ep.tenant_id);
            }
            if let Some(b) = body {
                req = req.json(b);
            }
            if let Some(k) = key {
                req = req.header("Idempotency-Key", k);
            }
            if let Some(t) = since {
                req = req.header("If-Modified-Since", t);
            }
            let res = req.send().await.map_err(|e| CallError::Unknown(describe(&e)))?;
            let status = res.status();
            let retry = res.headers().get("Retry-After").and_then(|v| v.to_str().ok()).map(str::to_string);
            let problem = res.headers().get("X-Rate-Limit-Problem").and_then(|v| v.to_str().ok()).unwrap_or("rate").to_string();
            let text = res.text().await.map_err(|e| CallError::Unknown(describe(&e)))?;
            let json: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            match status {
                s if s.is_success() => return Ok(json),
                StatusCode::NOT_MODIFIED if since.is_some() => return Ok(Value::Null),
                StatusCode::UNAUTHORIZED if !renewed && ep.bearer.is_none() => {
                    self.forget(ep);
                    continue;
                }
                StatusCode::UNAUTHORIZED => return Err(CallError::Auth(refusal_text(&json))),
                StatusCode::TOO_MANY_REQUESTS => {
                    return Err(CallError::RateLimited { wait: domain::xero::retry_after(retry.as_deref()), problem });
                }
                s if s.is_server_error() || s == StatusCode::REQUEST_TIMEOUT => {
                    return Err(CallError::Unknown(format!("Xero answered {s}")));
                }
                s => {
                    // Only the messages of Xero's own error shape are kept: another answer's
                    // body (an HTML page, a proxy's text) is never repeated to anyone.
                    let mut message = refusal_text(&json);
                    if message.is_empty() {
                        message = format!("the call answered {s}");
                    }
                    return Err(CallError::Refused { status: s.as_u16(), message });
                }
            }
        }
        Err(CallError::Auth("the token was refused twice".into()))
    }
}

fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "the call timed out".into()
    } else if e.is_connect() {
        "cannot connect".into()
    } else {
        let mut s = e.to_string();
        let mut src = std::error::Error::source(e);
        while let Some(inner) = src {
            s = format!("{s}: {inner}");
            src = inner.source();
        }
        s
    }
}
