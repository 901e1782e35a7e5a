//! The customer shop (issue 14, DESIGN §12): the wholesaler's customers sign in under
//! `/shop` with their own sessions and CSRF cookie, browse and order at their own prices;
//! outside clients use `/api/shop/…` with a customer token from `/oauth/token`. Nothing
//! here accepts a staff session or token, and nothing of the staff side accepts a
//! customer's.

pub mod api;
pub mod pages;
pub mod shell;

use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::routing::{get, post};

use crate::auth::{self, csrf};
use db::shop::{self as shop_db, ShopPrincipal};
use db::error::{AppError, AppResult};
use crate::state::AppState;

/// The shop's session cookie (never the staff one).
pub const SHOP_COOKIE: &str = "td_shop";
/// The shop's cookie before sign-in (its CSRF secret on the sign-in form).
pub const SHOP_PRE_COOKIE: &str = "td_shop_pre";
/// The shop's sign-in cookies, on `/shop` only.
pub const SHOP_COOKIES: auth::SignInCookies = auth::SignInCookies { session: SHOP_COOKIE, pre: SHOP_PRE_COOKIE, path: "/shop" };

/// Whether a path belongs to the shop's pages (its CSRF cookie and sign-in page).
pub fn is_shop_path(path: &str) -> bool {
    SHOP_COOKIES.covers(path)
}

/// Pages a customer who must change their password may still open.
fn reachable_before_change(path: &str) -> bool {
    matches!(path, "/shop/password" | "/shop/logout")
}

/// The signed-in customer: from the shop cookie on `/shop` pages, from a customer bearer
/// token on `/api/shop`.
#[derive(Clone, Debug)]
pub struct Shopper {
    pub who: ShopPrincipal,
    /// The session's id (its token's digest), for a browser.
    pub session: Option<String>,
    /// The CSRF token of the session's forms.
    pub csrf: String,
}

/// Resolves the customer of a request, `Ok(None)` when it carries no shop credentials.
pub async fn load(state: &AppState, parts: &Parts) -> AppResult<Option<Shopper>> {
    let path = parts.uri.path();
    if is_shop_path(path) {
        let Some(token) = auth::cookie(&parts.headers, SHOP_COOKIE) else { return Ok(None) };
        let found = state
            .db
            .run(move |c| {
                let Some((id, last_seen, who)) = shop_db::session(c, &token)? else { return Ok(None) };
                if db::now() - last_seen > chrono::Duration::minutes(5) {
                    shop_db::touch_session(c, &id)?;
                }
                Ok(Some(Shopper { who, session: Some(id), csrf: csrf::token_for(&token) }))
            })
            .await?;
        return found.map(Some).ok_or(AppError::Unauthorized);
    }
    let Some(token) = auth::bearer(&parts.headers) else { return Ok(None) };
    let who = state.db.run(move |c| shop_db::token(c, &token)).await?.ok_or(AppError::Unauthorized)?;
    Ok(Some(Shopper { who, session: None, csrf: String::new() }))
}

impl FromRequestParts<AppState> for Shopper {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(s) = parts.extensions.get::<Shopper>() {
            return Ok(s.clone());
        }
        let s = load(state, parts).await?.ok_or(AppError::Unauthorized)?;
        if s.who.must_change && !reachable_before_change(parts.uri.path()) {
            return Err(AppError::forbidden(domain::shop::PASSWORD_CHANGE_FIRST));
        }
        parts.extensions.insert(s.clone());
        Ok(s)
    }
}

/// A shop query string as the pages and the API read it: the catalogue's filters, the page,
/// and the pages' notice code `m`.
#[derive(serde::Deserialize, Default)]
pub struct ShopQuery {
    #[serde(default, deserialize_with = "domain::lenient::string")]
    pub key: String,
    #[serde(default, deserialize_with = "domain::lenient::string")]
    pub brand: String,
    #[serde(default, deserialize_with = "domain::lenient::string")]
    pub category: String,
    #[serde(default, deserialize_with = "domain::lenient::string")]
    pub page: String,
    #[serde(default, deserialize_with = "domain::lenient::string")]
    pub m: String,
}

fn optional_number<T: std::str::FromStr>(text: &str, field: &str) -> AppResult<Option<T>> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse().map(Some).map_err(|_| AppError::field(field, "Must be a number."))
}

impl ShopQuery {
    /// The catalogue's filters; a brand, category or page that is not a number is a field
    /// message.
    pub fn browse(&self) -> AppResult<services::shop::Browse> {
        Ok(services::shop::Browse {
            key: Some(self.key.trim().to_string()).filter(|k| !k.is_empty()),
            brand: optional_number(&self.brand, "brand")?,
            category: optional_number(&self.category, "category")?,
            page: self.page()?,
        })
    }

    /// The page asked for (1 without one), within 1..=PAGE_MAX so links, the meta and the
    /// rows served agree.
    pub fn page(&self) -> AppResult<i64> {
        Ok(optional_number::<i64>(&self.page, "page")?.unwrap_or(1).clamp(1, domain::limits::PAGE_MAX))
    }
}

/// The shop's routes: pages under `/shop`, JSON under `/api/shop`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/shop", get(pages::catalogue))
        .route("/shop/login", get(pages::login_page).post(pages::login))
        .route("/shop/logout", post(pages::logout))
        .route("/shop/password", get(pages::password_page).post(pages::change_password))
        .route("/shop/products/{id}", get(pages::product))
        .route("/shop/cart", get(pages::cart))
        .route("/shop/cart/add", post(pages::add))
        .route("/shop/cart/update", post(pages::update))
        .route("/shop/cart/remove", post(pages::remove))
        .route("/shop/checkout", get(pages::checkout).post(pages::place))
        .route("/shop/orders", get(pages::orders))
        .route("/shop/orders/{id}", get(pages::order))
        .route("/shop/orders/{id}/again", post(pages::again))
        .route("/shop/orders/{id}/invoice", get(pages::invoice))
        .route("/api/shop/products", get(api::products))
        .route("/api/shop/products/{id}", get(api::product))
        .route("/api/shop/cart/check", post(api::check))
        .route("/api/shop/orders", get(api::orders).post(api::place))
        .route("/api/shop/orders/{id}", get(api::order))
}
