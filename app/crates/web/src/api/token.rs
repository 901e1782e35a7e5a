//! `POST /oauth/token`: the password grant for API clients (DESIGN §7).

use axum::Json;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, header};
use serde::{Deserialize, Serialize};

use services::password;
use db::accounts;
use db::error::{AppError, AppResult};
use crate::state::AppState;
use crate::http::ClientIp;
use services::sign_in;

#[derive(Deserialize, Default)]
pub struct TokenRequest {
    #[serde(default)]
    grant_type: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    client_id: String,
    #[serde(default)]
    client_secret: String,
    #[serde(default)]
    scope: String,
}

/// Accepts the request as a form or as JSON.
pub struct FormOrJson(TokenRequest);

impl<S: Send + Sync> FromRequest<S> for FormOrJson {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/json"));
        if is_json {
            let Json(body) = Json::<TokenRequest>::from_request(req, state).await.map_err(|e| AppError::bad_request(e.body_text()))?;
            Ok(Self(body))
        } else {
            let axum::Form(body) =
                axum::Form::<TokenRequest>::from_request(req, state).await.map_err(|e| AppError::bad_request(e.body_text()))?;
            Ok(Self(body))
        }
    }
}

#[derive(Serialize)]
pub struct TokenAnswer {
    token_type: &'static str,
    access_token: String,
    expires_in: i64,
}

/// Issues a bearer token for a known client and valid staff credentials, or a customer
/// token (for `/api/shop`) when the e-mail is not a staff member's but a shop customer's.
pub async fn issue(State(state): State<AppState>, ClientIp(ip): ClientIp, headers: HeaderMap, FormOrJson(req): FormOrJson) -> AppResult<Json<TokenAnswer>> {
    if req.grant_type != "password" {
        return Err(AppError::bad_request("unsupported grant_type: use password"));
    }
    let client_id = req.client_id.clone();
    let secret_hash = state.db.run(move |c| accounts::client_secret_hash(c, &client_id)).await?;
    let client_ok = secret_hash.is_some_and(|h| password::verify(&req.client_secret, &h));
    if !client_ok {
        return Err(AppError::InvalidClient);
    }
    let email = req.username.trim().to_lowercase();
    let is_staff = state.db.run(move |c| accounts::user_by_email(c, &email)).await?.is_some();
    if !is_staff {
        return customer_token(&state, &req, ip, &headers).await;
    }
    let signed_in = sign_in::staff(&state, &req.username, &req.password, ip).await?;
    if signed_in.must_change_password {
        // A one-time password opens only the browser's change-password page.
        return Err(AppError::forbidden(domain::admin::PASSWORD_CHANGE_REQUIRED));
    }
    let (user_id, org_id) = (signed_in.user_id, signed_in.org_id);
    let (client_id, scope) = (req.client_id, req.scope);
    let access_token = state.db.write(move |c| accounts::create_api_token(c, user_id, &client_id, org_id, &scope)).await?;
    Ok(Json(TokenAnswer { token_type: "Bearer", access_token, expires_in: accounts::TOKEN_LIFETIME.num_seconds() }))
}

/// A customer's token: the shop the e-mail and password open (the `X-Org-Id` header picks
/// one when they open several).
async fn customer_token(state: &AppState, req: &TokenRequest, ip: Option<std::net::IpAddr>, headers: &HeaderMap) -> AppResult<Json<TokenAnswer>> {
    let opened = sign_in::customer(state, &req.username, &req.password, ip).await?;
    let wanted: Option<i64> = headers.get(crate::auth::ORG_HEADER).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse().ok());
    let chosen = match (opened.as_slice(), wanted) {
        ([one], None) => one.clone(),
        (many, Some(org)) => many.iter().find(|a| a.org_id == org).cloned().ok_or_else(|| AppError::forbidden("No access to this organisation."))?,
        (_, None) => return Err(AppError::bad_request("This e-mail opens the shops of several companies: send X-Org-Id with the company's id.")),
    };
    if chosen.must_change {
        return Err(AppError::forbidden(domain::shop::PASSWORD_CHANGE_FIRST));
    }
    let (org, customer) = (chosen.org_id, chosen.customer_id);
    let access_token = state.db.write(move |c| db::shop::create_token(c, org, customer)).await?;
    Ok(Json(TokenAnswer { token_type: "Bearer", access_token, expires_in: db::shop::TOKEN_LIFETIME.num_seconds() }))
}
