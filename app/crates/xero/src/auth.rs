//! "Connect to Xero": the OAuth 2.0 authorization-code flow with PKCE (RFC 6749 §4.1,
//! RFC 7636), beside the Custom Connection's client-credentials grant (issue 31,
//! docs/decisions/xero.md "Connect to Xero"). The protocol is the `oauth2` crate's: the
//! authorization address with its state and S256 challenge, the code exchange with the
//! verifier, the refresh (Xero's refresh tokens are single-use: every refresh answers a new
//! one, which the caller keeps sealed before anything else), and revocation (RFC 7009).
//! What is ours: where Xero's endpoints are, the scopes, and what each refusal means.

use oauth2::basic::{BasicClient, BasicErrorResponseType};
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, RequestTokenError, RevocationUrl, Scope,
    StandardRevocableToken, TokenResponse, TokenUrl,
};

use super::client::CallError;

/// Xero's sign-in address (the authorization endpoint is below it).
pub const LOGIN_URL: &str = "https://login.xero.com";

/// What TyreDesk asks to do: keep access while nobody is signed in (a refresh token), and
/// the accounting scopes the link uses (documents, contacts, items, the chart and tax rates).
pub const SCOPES: [&str; 4] = ["offline_access", "accounting.transactions", "accounting.contacts", "accounting.settings"];

/// How long Xero keeps an unused refresh token.
pub const REFRESH_DAYS: i64 = 60;

/// One company's app at Xero and where it signs in.
#[derive(Clone, Debug)]
pub struct Flow {
    pub client_id: String,
    /// A web app's secret; a PKCE-only app has none.
    pub secret: Option<String>,
    /// The base of `/identity/connect/authorize` (Xero: `https://login.xero.com`).
    pub login_url: String,
    /// The base of `/connect/token` and `/connect/revocation` (`https://identity.xero.com`).
    pub identity_url: String,
    /// Where Xero sends the browser back: TyreDesk's `/settings/xero/callback`.
    pub redirect_uri: String,
}

/// The start of a sign-in: the address to send the browser to, and what the callback must
/// find again (the state it carries, the verifier of the challenge sent).
pub struct Started {
    pub url: String,
    pub state: String,
    pub verifier: String,
}

/// What Xero answered a code exchange or a refresh.
#[derive(Clone, Debug)]
pub struct Tokens {
    pub access: String,
    /// The new refresh token: the one used is spent.
    pub refresh: String,
    pub expires_in: u64,
}

fn bad(what: &str, e: impl std::fmt::Display) -> CallError {
    CallError::Refused { status: 0, message: format!("the {what} address is not usable: {e}") }
}

/// The address the approver's browser is sent to: Xero's consent screen for this app, the
/// scopes, a random state and an S256 PKCE challenge.
pub fn start(f: &Flow) -> Result<Started, CallError> {
    let client = BasicClient::new(ClientId::new(f.client_id.clone()))
        .set_auth_uri(AuthUrl::new(format!("{}/identity/connect/authorize", f.login_url.trim_end_matches('/'))).map_err(|e| bad("sign-in", e))?)
        .set_redirect_uri(RedirectUrl::new(f.redirect_uri.clone()).map_err(|e| bad("return", e))?);
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let mut req = client.authorize_url(CsrfToken::new_random).set_pkce_challenge(challenge);
    for s in SCOPES {
        req = req.add_scope(Scope::new(s.to_string()));
    }
    let (url, state) = req.url();
    Ok(Started { url: url.to_string(), state: state.secret().clone(), verifier: verifier.secret().clone() })
}

fn token_url(f: &Flow) -> Result<TokenUrl, CallError> {
    TokenUrl::new(format!("{}/connect/token", f.identity_url.trim_end_matches('/'))).map_err(|e| bad("token", e))
}

/// How a token request ended when it did not answer tokens: Xero refused the grant
/// (`invalid_grant`: the code or refresh token is spent, expired or revoked — sign in
/// again), refused the client, or did not answer.
fn refusal<RE: std::error::Error + 'static>(e: RequestTokenError<RE, oauth2::basic::BasicErrorResponse>) -> CallError {
    match e {
        RequestTokenError::ServerResponse(r) => match r.error() {
            BasicErrorResponseType::InvalidGrant => CallError::Auth("Xero no longer accepts this connection (it was revoked in Xero, or not used for 60 days); connect to Xero again".into()),
            BasicErrorResponseType::InvalidClient | BasicErrorResponseType::UnauthorizedClient => CallError::Auth("Xero did not accept the app's client id or secret".into()),
            other => CallError::Refused { status: 400, message: format!("Xero refused the sign-in ({})", other.as_ref()) },
        },
        RequestTokenError::Request(e) => CallError::Unknown(format!("the sign-in service did not answer: {e}")),
        RequestTokenError::Parse(_, _) | RequestTokenError::Other(_) => CallError::Unknown("the sign-in service answered something other than tokens".into()),
    }
}

fn tokens(t: &oauth2::basic::BasicTokenResponse) -> Result<Tokens, CallError> {
    let refresh = t.refresh_token().map(|r| r.secret().clone()).ok_or_else(|| CallError::Refused { status: 200, message: "Xero gave no refresh token (the offline_access scope was not granted)".into() })?;
    Ok(Tokens { access: t.access_token().secret().clone(), refresh, expires_in: t.expires_in().map_or(1800, |d| d.as_secs()) })
}

/// Exchanges the code the browser brought back, with the verifier of its challenge.
pub async fn exchange(http: &reqwest::Client, f: &Flow, code: &str, verifier: &str) -> Result<Tokens, CallError> {
    let mut client = BasicClient::new(ClientId::new(f.client_id.clone())).set_token_uri(token_url(f)?).set_redirect_uri(RedirectUrl::new(f.redirect_uri.clone()).map_err(|e| bad("return", e))?);
    if let Some(s) = &f.secret {
        client = client.set_client_secret(ClientSecret::new(s.clone()));
    }
    let t = client.exchange_code(AuthorizationCode::new(code.to_string())).set_pkce_verifier(PkceCodeVerifier::new(verifier.to_string())).request_async(http).await.map_err(refusal)?;
    tokens(&t)
}

/// A new access token (and the new refresh token that replaces `refresh`).
pub async fn refresh(http: &reqwest::Client, f: &Flow, refresh: &str) -> Result<Tokens, CallError> {
    let mut client = BasicClient::new(ClientId::new(f.client_id.clone())).set_token_uri(token_url(f)?);
    if let Some(s) = &f.secret {
        client = client.set_client_secret(ClientSecret::new(s.clone()));
    }
    let t = client.exchange_refresh_token(&RefreshToken::new(refresh.to_string())).request_async(http).await.map_err(refusal)?;
    tokens(&t)
}

/// Revokes the refresh token (RFC 7009, `https` only as the standard requires: a stand-in
/// on plain http has nothing revoked here, its connection is removed by `DELETE
/// /connections/{id}`).
pub async fn revoke(http: &reqwest::Client, f: &Flow, refresh: &str) -> Result<(), CallError> {
    let url = RevocationUrl::new(format!("{}/connect/revocation", f.identity_url.trim_end_matches('/'))).map_err(|e| bad("revocation", e))?;
    if url.url().scheme() != "https" {
        return Ok(());
    }
    let mut client = BasicClient::new(ClientId::new(f.client_id.clone())).set_revocation_url(url);
    if let Some(s) = &f.secret {
        client = client.set_client_secret(ClientSecret::new(s.clone()));
    }
    let req = client.revoke_token(StandardRevocableToken::RefreshToken(RefreshToken::new(refresh.to_string()))).map_err(|e| bad("revocation", e))?;
    req.request_async(http).await.map_err(|e| CallError::Unknown(format!("the revocation did not answer: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow() -> Flow {
        Flow { client_id: "app-1".into(), secret: None, login_url: LOGIN_URL.into(), identity_url: "https://identity.xero.com".into(), redirect_uri: "https://tyres.example/settings/xero/callback".into() }
    }

    #[test]
    fn the_sign_in_address_carries_the_app_the_scopes_a_state_and_an_s256_challenge() {
        let s = start(&flow()).unwrap();
        let url = reqwest::Url::parse(&s.url).unwrap();
        assert_eq!(url.as_str().split('?').next(), Some("https://login.xero.com/identity/connect/authorize"));
        let q: std::collections::HashMap<String, String> = url.query_pairs().into_owned().collect();
        assert_eq!(q["response_type"], "code");
        assert_eq!(q["client_id"], "app-1");
        assert_eq!(q["redirect_uri"], "https://tyres.example/settings/xero/callback");
        assert_eq!(q["scope"], SCOPES.join(" "));
        assert_eq!(q["state"], s.state);
        assert_eq!(q["code_challenge_method"], "S256");
        // RFC 7636 §4.2: the challenge is BASE64URL(SHA256(verifier)).
        use sha2::Digest;
        let digest = sha2::Sha256::digest(s.verifier.as_bytes());
        let b64 = base64url(&digest);
        assert_eq!(q["code_challenge"], b64);
        assert!(s.state.len() >= 16 && s.verifier.len() >= 43);
        assert_ne!(start(&flow()).unwrap().state, s.state, "a new state every time");
    }

    fn base64url(bytes: &[u8]) -> String {
        const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
            for i in 0..=chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            }
        }
        out
    }
}
