//! The stand-in's identity service for "Connect to Xero" (issue 31): Xero's consent screen
//! (`/identity/connect/authorize`, one page with Allow access and Cancel), the
//! authorization-code and refresh-token grants of `/connect/token` (RFC 6749 §4.1.3 and §6,
//! the PKCE S256 check of RFC 7636 §4.6; refresh tokens single-use and replaced on every
//! refresh, as Xero's), `/connect/revocation` (RFC 7009), and the organisations a code
//! token reaches (`GET /connections`, `DELETE /connections/{id}`). Knobs let a test add an
//! organisation, or revoke every grant as an adviser pressing Disconnect in Xero would.

use std::collections::HashMap;

use base64::Engine;
use chrono::NaiveDateTime;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::store::random_id;
use super::{Answer, FakeXero};

/// A code issued by the consent screen, until exchanged (once) or ten minutes pass.
#[derive(Clone, Debug)]
pub(super) struct Code {
    client_id: String,
    redirect_uri: String,
    challenge: String,
    expires: NaiveDateTime,
}

impl super::State {
    /// Every code access token expires (the refresh tokens stay).
    pub(super) fn identity_expire(&mut self) {
        self.identity.code_access.clear();
    }
}

/// The stand-in's sign-in state.
#[derive(Default)]
pub(super) struct Identity {
    codes: HashMap<String, Code>,
    /// Live refresh tokens → the app they were issued to.
    refresh: HashMap<String, String>,
    /// Access tokens issued by the code flow (they reach the organisations below).
    code_access: HashMap<String, NaiveDateTime>,
    /// Organisations besides the fake's own: (connection id, tenant id, name).
    others: Vec<(String, String, String)>,
    /// The connection id of the fake's own organisation, and whether it was removed.
    own_connection: String,
    own_removed: bool,
}

fn form_of(body: &[u8]) -> HashMap<String, String> {
    serde_urlencoded::from_bytes::<Vec<(String, String)>>(body).unwrap_or_default().into_iter().collect()
}

fn query_of(query: &str) -> HashMap<String, String> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(query).unwrap_or_default().into_iter().collect()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// One organisation as `GET /connections` answers it.
pub(super) fn connection(id: &str, tenant: &str, name: &str, at: NaiveDateTime) -> Value {
    let at = at.format("%Y-%m-%dT%H:%M:%S%.6f").to_string();
    json!({"id": id, "authEventId": random_id(), "tenantId": tenant, "tenantType": "ORGANISATION", "tenantName": name, "createdDateUtc": at, "updatedDateUtc": at})
}

fn oauth_error(error: &str) -> Answer {
    Answer::new(400, json!({"error": error}))
}

impl FakeXero {
    /// Adds an organisation the next code sign-in reaches (its tenant id).
    pub fn add_organisation(&self, name: &str) -> String {
        let tenant = random_id();
        self.st().identity.others.push((random_id(), tenant.clone(), name.to_string()));
        tenant
    }

    /// Revokes every refresh token and code access token (as disconnecting the app in Xero
    /// does): the next refresh is refused with `invalid_grant`.
    pub fn revoke_grants(&self) {
        let mut st = self.st();
        st.identity.refresh.clear();
        let gone: Vec<String> = st.identity.code_access.keys().cloned().collect();
        for t in gone {
            st.tokens.remove(&t);
        }
        st.identity.code_access.clear();
    }

    /// How many refresh tokens are live (one per connected app after each rotation).
    pub fn live_refresh_tokens(&self) -> usize {
        self.st().identity.refresh.len()
    }

    /// `GET /identity/connect/authorize`: the consent screen, or an error page when the
    /// request is not one Xero would accept.
    pub(super) fn authorize_page(&self, query: &str) -> Answer {
        let q = query_of(query);
        let get = |k: &str| q.get(k).cloned().unwrap_or_default();
        let (client_id, redirect_uri, state, challenge) = (get("client_id"), get("redirect_uri"), get("state"), get("code_challenge"));
        let problem = if get("response_type") != "code" {
            Some("response_type must be code")
        } else if client_id != self.inner.client_id {
            Some("unknown client_id")
        } else if !redirect_uri.starts_with("http://") && !redirect_uri.starts_with("https://") {
            Some("redirect_uri is missing")
        } else if get("code_challenge_method") != "S256" || challenge.len() < 43 {
            Some("a PKCE S256 code_challenge is required")
        } else if !get("scope").split(' ').any(|s| s == "offline_access") {
            Some("offline_access is needed for a refresh token")
        } else {
            None
        };
        if let Some(p) = problem {
            return Answer::html(400, format!("<!doctype html><title>Xero sign-in</title><h1>Sign-in refused</h1><p id=\"problem\">{}</p>", html_escape(p)));
        }
        let code = random_id();
        let expires = self.now() + chrono::Duration::minutes(10);
        self.st().identity.codes.insert(code.clone(), Code { client_id, redirect_uri: redirect_uri.clone(), challenge, expires });
        let sep = if redirect_uri.contains('?') { '&' } else { '?' };
        let allow = format!("{redirect_uri}{sep}{}", serde_urlencoded::to_string([("code", code.as_str()), ("state", state.as_str())]).unwrap_or_default());
        let deny = format!("{redirect_uri}{sep}{}", serde_urlencoded::to_string([("error", "access_denied"), ("state", state.as_str())]).unwrap_or_default());
        Answer::html(
            200,
            format!(
                "<!doctype html><html lang=\"en\"><title>Xero stand-in: allow access</title><main><h1>Allow TyreDesk to access Demo Company (AU)?</h1>\
                 <p>Scopes: {}</p><p><a id=\"allow\" href=\"{}\">Allow access</a> <a id=\"deny\" href=\"{}\">Cancel</a></p></main></html>",
                html_escape(&get("scope")),
                html_escape(&allow),
                html_escape(&deny)
            ),
        )
    }

    /// The code and refresh grants of `/connect/token` (the client-credentials grant is `token`).
    pub(super) fn code_grants(&self, client: Option<(String, Option<String>)>, form: &HashMap<String, String>) -> Answer {
        let Some((client_id, secret)) = client else { return oauth_error("invalid_client") };
        if client_id != self.inner.client_id || secret.as_deref().is_some_and(|s| s != self.inner.client_secret) {
            return oauth_error("invalid_client");
        }
        let now = self.now();
        let mut st = self.st();
        match form.get("grant_type").map(String::as_str) {
            Some("authorization_code") => {
                let Some(code) = form.get("code").and_then(|c| st.identity.codes.remove(c)) else { return oauth_error("invalid_grant") };
                let verifier = form.get("code_verifier").cloned().unwrap_or_default();
                let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
                if code.expires < now || code.client_id != client_id || form.get("redirect_uri") != Some(&code.redirect_uri) || challenge != code.challenge {
                    return oauth_error("invalid_grant");
                }
            }
            Some("refresh_token") => {
                // Single-use: the token presented is spent whatever follows.
                let presented = form.get("refresh_token").cloned().unwrap_or_default();
                if st.identity.refresh.remove(&presented).is_none_or(|app| app != client_id) {
                    return oauth_error("invalid_grant");
                }
            }
            _ => return oauth_error("unsupported_grant_type"),
        }
        let (access, refresh) = (random_id(), random_id());
        let until = now + chrono::Duration::minutes(30);
        st.tokens.insert(access.clone(), until);
        st.identity.code_access.insert(access.clone(), until);
        st.identity.refresh.insert(refresh.clone(), client_id);
        Answer::new(200, json!({"access_token": access, "refresh_token": refresh, "expires_in": 1800, "token_type": "Bearer", "scope": "offline_access accounting.transactions accounting.contacts accounting.settings"}))
    }

    /// `POST /connect/revocation`: the refresh token is revoked (an unknown one too: RFC 7009 §2.2).
    pub(super) fn revocation(&self, body: &[u8]) -> Answer {
        let form = form_of(body);
        if let Some(t) = form.get("token") {
            self.st().identity.refresh.remove(t);
        }
        Answer::new(200, Value::Null)
    }

    /// The organisations a code token reaches (`GET /connections`), or `None` when the token
    /// is not one of the code flow's.
    pub(super) fn code_connections(&self, bearer: &str) -> Option<Answer> {
        let mut st = self.st();
        if !st.identity.code_access.contains_key(bearer) {
            return None;
        }
        if st.identity.own_connection.is_empty() {
            st.identity.own_connection = random_id();
        }
        let now = self.now();
        let mut list = Vec::new();
        if !st.identity.own_removed {
            list.push(connection(&st.identity.own_connection, &self.inner.tenant_id, "Demo Company (AU)", now));
        }
        for (id, tenant, name) in &st.identity.others {
            list.push(connection(id, tenant, name, now));
        }
        Some(Answer::new(200, Value::Array(list)))
    }

    /// `DELETE /connections/{id}`: the app no longer reaches that organisation.
    pub(super) fn remove_connection(&self, id: &str) -> Answer {
        let mut st = self.st();
        if id == st.identity.own_connection && !id.is_empty() {
            st.identity.own_removed = true;
            return Answer::new(204, Value::Null);
        }
        let before = st.identity.others.len();
        st.identity.others.retain(|o| o.0 != id);
        Answer::new(if st.identity.others.len() < before { 204 } else { 404 }, Value::Null)
    }

    /// Whether the fake's own organisation was disconnected from the app.
    pub(super) fn own_removed(&self) -> bool {
        self.st().identity.own_removed
    }
}
