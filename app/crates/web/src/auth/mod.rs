//! Who is calling: sessions (browser) and bearer tokens (API clients), the current
//! organisation, CSRF protection and sign-in throttling.

pub mod csrf;

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;

use db::accounts::{self, Membership};
use db::token;
use domain::enums::Role;
use db::error::{AppError, AppResult};
use crate::state::AppState;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "td_session";
/// Header carrying the current organisation (DESIGN §7).
pub const ORG_HEADER: &str = "x-org-id";
/// An organisation the user may switch to.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OrgChoice {
    pub id: i64,
    pub name: String,
    pub role: i32,
}

/// The browser session behind a request, when it came with one.
#[derive(Clone, Debug)]
pub struct SessionInfo {
    pub id: String,
    pub csrf: String,
}

/// The signed-in user in the current organisation.
#[derive(Clone, Debug)]
pub struct Auth {
    pub user_id: i64,
    pub user_name: String,
    pub email: String,
    pub org_id: i64,
    pub org_name: String,
    pub role: Role,
    pub mod_prc: bool,
    pub is_acct: bool,
    pub crt_csr: bool,
    /// May use the purchase suggestions without being an approver (issue 35).
    pub is_buyer: bool,
    pub orgs: Vec<OrgChoice>,
    pub session: Option<SessionInfo>,
    /// The company's time zone: "today" is its date.
    pub zone: chrono_tz::Tz,
    /// Signed in with a one-time password that must be changed before anything else.
    pub must_change_password: bool,
}

impl From<&Auth> for domain::Actor {
    fn from(a: &Auth) -> Self {
        Self { org_id: a.org_id, user_id: a.user_id, name: a.user_name.clone(), role: a.role, is_acct: a.is_acct, crt_csr: a.crt_csr }
    }
}

impl Auth {
    /// What this staff member may see of cost and reference purchase price (the one gate of
    /// `domain::permissions::Sight`).
    pub fn sight(&self) -> domain::permissions::Sight {
        domain::permissions::Sight::of(self.role, self.mod_prc)
    }

    /// The user as the report queue sees them.
    pub fn asker(&self) -> services::reports::Asker {
        services::reports::Asker::new(self.org_id, self.user_id, self.role, self.mod_prc, self.zone)
    }
}

fn build(user_id: i64, user_name: String, email: String, m: &Membership, all: &[Membership], session: Option<SessionInfo>) -> Auth {
    Auth {
        user_id,
        user_name,
        email,
        org_id: m.org_id,
        org_name: m.org_name.clone(),
        role: Role::from_i32(m.role).unwrap_or(Role::Business),
        mod_prc: m.mod_prc,
        is_acct: m.is_acct,
        crt_csr: m.crt_csr,
        is_buyer: m.is_buyer,
        orgs: accounts::usable(all).into_iter().map(|m| OrgChoice { id: m.org_id, name: m.org_name.clone(), role: m.role }).collect(),
        session,
        zone: domain::dates::zone_of(&m.time_zone),
        must_change_password: false,
    }
}

/// A `Set-Cookie` value of ours: HttpOnly, SameSite=Lax, Secure behind HTTPS, on `path`;
/// `max_age` 0 deletes it.
fn set_cookie(secure: bool, path: &str, name: &str, value: &str, max_age: Option<i64>) -> axum::http::HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let age = max_age.map(|a| format!("; Max-Age={a}")).unwrap_or_default();
    axum::http::HeaderValue::from_str(&format!("{name}={value}; Path={path}; HttpOnly; SameSite=Lax{secure}{age}"))
        .unwrap_or_else(|_| axum::http::HeaderValue::from_static(""))
}

/// The cookies of one sign-in: the session it starts and the pre-sign-in cookie carrying
/// the sign-in form's CSRF secret until then. Staff sign in at `/`, customers at `/shop`;
/// each side's cookies vouch only for its own forms.
pub struct SignInCookies {
    pub session: &'static str,
    pub pre: &'static str,
    pub path: &'static str,
}

/// Staff: `td_session` and `td_pre`.
pub const STAFF_COOKIES: SignInCookies = SignInCookies { session: SESSION_COOKIE, pre: csrf::PRE_COOKIE, path: "/" };

impl SignInCookies {
    /// Whether a request to `path` belongs to this side (its cookies vouch for its forms).
    pub fn covers(&self, path: &str) -> bool {
        self.path == "/" || path == self.path || path.strip_prefix(self.path).is_some_and(|rest| rest.starts_with('/'))
    }

    /// The secret the CSRF guard checks a form against: the session cookie, else the
    /// pre-sign-in cookie.
    pub fn secret(&self, headers: &HeaderMap) -> Option<String> {
        cookie(headers, self.session).or_else(|| cookie(headers, self.pre))
    }

    /// The secret of a sign-in form: [`Self::secret`], else a new one (`true`), which
    /// [`Self::form_page`] gives to the browser.
    pub fn form_secret(&self, headers: &HeaderMap) -> (String, bool) {
        match self.secret(headers) {
            Some(s) => (s, false),
            None => (token::random_token(), true),
        }
    }

    /// A sign-in form: `page` made with the form's secret, given to the browser as the
    /// pre-sign-in cookie when it is new.
    pub fn form_page(&self, headers: &HeaderMap, secure: bool, page: impl FnOnce(&str) -> axum::response::Response) -> axum::response::Response {
        let (secret, fresh) = self.form_secret(headers);
        let mut res = page(&secret);
        if fresh {
            self.set_pre(&mut res, secure, &secret);
        }
        res
    }

    /// One of these cookies on this side's path; `max_age` 0 deletes it.
    pub fn set(&self, res: &mut axum::response::Response, secure: bool, name: &str, value: &str, max_age: Option<i64>) {
        res.headers_mut().append(axum::http::header::SET_COOKIE, set_cookie(secure, self.path, name, value, max_age));
    }

    /// Gives the browser a new form secret as the pre-sign-in cookie.
    fn set_pre(&self, res: &mut axum::response::Response, secure: bool, secret: &str) {
        self.set(res, secure, self.pre, secret, None);
    }

    /// Sets the session cookie and deletes the pre-sign-in cookie.
    pub fn signed_in(&self, res: &mut axum::response::Response, secure: bool, token: &str) {
        self.set(res, secure, self.session, token, None);
        self.set(res, secure, self.pre, "", Some(0));
    }

    /// Deletes the session cookie.
    pub fn signed_out(&self, res: &mut axum::response::Response, secure: bool) {
        self.set(res, secure, self.session, "", Some(0));
    }
}

/// Reads a cookie value from the request headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get_all(axum::http::header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == name && !v.is_empty()).then(|| v.to_string())
    })
}

/// The token of an `Authorization: Bearer …` header.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string())
}

fn org_header(headers: &HeaderMap) -> AppResult<Option<i64>> {
    match headers.get(ORG_HEADER) {
        None => Ok(None),
        Some(v) => {
            let s = v.to_str().unwrap_or("").trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse().map(Some).map_err(|_| AppError::bad_request("X-Org-Id must be an organisation id"))
        }
    }
}

/// Resolves the caller from a session cookie or a bearer token; `Ok(None)` when neither is present.
pub async fn load(state: &AppState, headers: &HeaderMap) -> AppResult<Option<Auth>> {
    let session_token = cookie(headers, SESSION_COOKIE);
    let bearer_token = bearer(headers);
    if session_token.is_none() && bearer_token.is_none() {
        return Ok(None);
    }
    let requested_org = org_header(headers)?;
    state
        .db
        .run(move |conn| {
            if let Some(token) = session_token {
                let Some((s, all)) = accounts::session_with_memberships(conn, &token)? else {
                    return Err(AppError::Unauthorized);
                };
                let m = match accounts::choose_org(&all, Some(s.org_id)) {
                    Some(m) => m,
                    // The session's company is no longer open to the user: fall back, or end the session.
                    None => match accounts::choose_org(&all, None) {
                        Some(m) => {
                            accounts::set_session_org(conn, &s.id, m.org_id)?;
                            m
                        }
                        None => {
                            accounts::delete_session(conn, &s.id)?;
                            return Err(AppError::forbidden(domain::permissions::WAREHOUSE_REFUSED));
                        }
                    },
                };
                if requested_org.is_some_and(|o| o != m.org_id) {
                    return Err(AppError::org_changed());
                }
                if db::now() - s.last_seen_at > chrono::Duration::minutes(5) {
                    accounts::touch_session(conn, &s.id)?;
                }
                let csrf = csrf::token_for(&token);
                let info = SessionInfo { id: s.id.clone(), csrf };
                let mut auth = build(s.user_id, s.user_name, s.user_email, m, &all, Some(info));
                auth.must_change_password = s.must_change_password;
                return Ok(Some(auth));
            }
            let token = bearer_token.unwrap_or_default();
            let Some((user_id, token_org, name, email)) = accounts::api_token(conn, &token)? else {
                return Err(AppError::Unauthorized);
            };
            let all = accounts::memberships_of(conn, user_id)?;
            let m = accounts::choose_org(&all, Some(requested_org.unwrap_or(token_org)))
                .ok_or_else(|| AppError::forbidden("No access to this organisation."))?;
            Ok(Some(build(user_id, name, email, m, &all, None)))
        })
        .await
}

/// Sets the signed-in user's own password (its rules already checked) and ends their other
/// sessions and tokens; the session asking goes on.
pub async fn change_own_password(state: &AppState, auth: &Auth, new_password: &str) -> AppResult<()> {
    let hash = services::password::hash(new_password)?;
    let (user_id, keep) = (auth.user_id, auth.session.as_ref().map(|s| s.id.clone()));
    state
        .db
        .write(move |c| {
            accounts::set_password(c, user_id, &hash)?;
            accounts::delete_other_sessions(c, user_id, keep.as_deref())
        })
        .await
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(auth) = parts.extensions.get::<Auth>() {
            return Ok(auth.clone());
        }
        let auth = load(state, &parts.headers).await?.ok_or(AppError::Unauthorized)?;
        if auth.must_change_password && !domain::admin::reachable_before_change(parts.uri.path()) {
            return Err(AppError::forbidden(domain::admin::PASSWORD_CHANGE_REQUIRED));
        }
        parts.extensions.insert(auth.clone());
        Ok(auth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_read_by_name() {
        let mut h = HeaderMap::new();
        h.insert("cookie", "a=1; td_session=abc; b=".parse().unwrap());
        assert_eq!(cookie(&h, SESSION_COOKIE).as_deref(), Some("abc"));
        assert_eq!(cookie(&h, "b"), None);
        assert_eq!(cookie(&h, "zz"), None);
    }

    #[test]
    fn a_side_covers_its_own_pages_only() {
        let shop = SignInCookies { session: "s", pre: "p", path: "/shop" };
        assert!(shop.covers("/shop") && shop.covers("/shop/cart"));
        assert!(!shop.covers("/shopping") && !shop.covers("/invoices") && !shop.covers("/"));
        assert!(STAFF_COOKIES.covers("/invoices") && STAFF_COOKIES.covers("/"));
    }
}
