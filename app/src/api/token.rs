//! `POST /oauth/token`: the password grant for API clients (DESIGN §7).

use axum::Json;
use axum::extract::{FromRequest, Request, State};
use axum::http::header;
use serde::{Deserialize, Serialize};

use crate::auth::password;
use crate::db::accounts;
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use crate::web::ClientIp;
use crate::web::login::authenticate;

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

/// Issues a bearer token for a known client and valid staff credentials.
pub async fn issue(State(state): State<AppState>, ClientIp(ip): ClientIp, FormOrJson(req): FormOrJson) -> AppResult<Json<TokenAnswer>> {
    if req.grant_type != "password" {
        return Err(AppError::bad_request("unsupported grant_type: use password"));
    }
    let client_id = req.client_id.clone();
    let secret_hash = state.db.run(move |c| accounts::client_secret_hash(c, &client_id)).await?;
    let client_ok = secret_hash.is_some_and(|h| password::verify(&req.client_secret, &h));
    if !client_ok {
        return Err(AppError::InvalidClient);
    }
    let signed_in = authenticate(&state, &req.username, &req.password, ip).await?;
    if signed_in.must_change_password {
        // A one-time password opens only the browser's change-password page.
        return Err(AppError::forbidden(crate::domain::admin::PASSWORD_CHANGE_REQUIRED));
    }
    let (user_id, org_id) = (signed_in.user_id, signed_in.org_id);
    let (client_id, scope) = (req.client_id, req.scope);
    let access_token = state.db.write(move |c| accounts::create_api_token(c, user_id, &client_id, org_id, &scope)).await?;
    Ok(Json(TokenAnswer { token_type: "Bearer", access_token, expires_in: accounts::TOKEN_LIFETIME.num_seconds() }))
}
