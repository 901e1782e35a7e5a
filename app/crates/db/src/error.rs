//! One error type for every layer above storage: services, jobs and handlers return it, and
//! it lives here because it is what a failed query becomes (`From<diesel::result::Error>`).
//! With the `http` feature (the web crate turns it on) it also knows its HTTP status and
//! answers a request: the response carries the error as an extension and a middleware
//! renders it for the caller (JSON under `/api`, a page, a toast or a redirect).

use std::collections::BTreeMap;

#[cfg(feature = "http")]
use axum_core::response::{IntoResponse, Response};
#[cfg(feature = "http")]
use http::StatusCode;

pub type AppResult<T> = Result<T, AppError>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("Not found")]
    NotFound,
    #[error("{0}")]
    BadRequest(String),
    /// Field-level validation failure; `errors` maps field name to message.
    #[error("{message}")]
    Validation { message: String, errors: BTreeMap<String, String> },
    #[error("Login info expired, please login again")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    /// A state conflict; `code` lets clients react (e.g. `org_changed`), `reasons` lists causes.
    #[error("{message}")]
    Conflict { message: String, code: Option<&'static str>, reasons: Vec<String> },
    /// An upload over the size limit; rendered with the message on the field `file`.
    #[error("{0}")]
    TooLarge(String),
    /// The request did not finish in time; nothing was changed.
    #[error("{0}")]
    Timeout(String),
    #[error("Too many attempts, please slow down the fresh pace")]
    TooManyRequests,
    #[error("{0}")]
    Unavailable(String),
    /// The server could not write a file it needed (an export on a full disk); the message
    /// says so, since retrying later or freeing space is what helps.
    #[error("{0}")]
    Storage(String),
    #[error("Internal error")]
    Internal(#[from] anyhow::Error),
}

/// The error as seen by the renderer (cloned into the response extensions).
#[cfg(feature = "http")]
#[derive(Clone, Debug)]
pub struct ErrorInfo {
    pub status: StatusCode,
    pub message: String,
    pub errors: BTreeMap<String, String>,
    pub code: Option<&'static str>,
    pub reasons: Vec<String>,
}

/// The message shown when an organisation was switched in another tab.
pub const ORG_CHANGED: &str = "Organization has been changed, reload the page ?";

impl AppError {
    pub fn bad_request(msg: impl Into<String>) -> Self {
        Self::BadRequest(msg.into())
    }
    pub fn forbidden(msg: impl Into<String>) -> Self {
        Self::Forbidden(msg.into())
    }
    pub fn field(field: &str, msg: impl Into<String>) -> Self {
        let msg = msg.into();
        let mut errors = BTreeMap::new();
        errors.insert(field.to_string(), msg.clone());
        Self::Validation { message: msg, errors }
    }
    pub fn org_changed() -> Self {
        Self::Conflict { message: ORG_CHANGED.into(), code: Some("org_changed"), reasons: vec![] }
    }
}

#[cfg(feature = "http")]
impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Validation { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            Self::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Storage(_) | Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        match e {
            Error::NotFound => Self::NotFound,
            // PostgreSQL aborted the transaction because another one wrote the same rows:
            // SQLSTATE 40001, or 40P01 'deadlock detected', which diesel does not name.
            Error::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => Self::write_conflict(),
            Error::DatabaseError(_, ref info) if info.message().starts_with("deadlock detected") => Self::write_conflict(),
            other => Self::Internal(anyhow::Error::new(other)),
        }
    }
}

/// The code of [`AppError::write_conflict`].
pub const WRITE_CONFLICT: &str = "write_conflict";

impl AppError {
    /// Another user's transaction wrote the same rows at the same moment, and running this
    /// one again did not help: explained as a 409, never a 500.
    pub fn write_conflict() -> Self {
        Self::Conflict { message: "Someone else was saving the same records at this moment. Please try again.".into(), code: Some(WRITE_CONFLICT), reasons: vec![] }
    }

    /// Whether this is a [`AppError::write_conflict`] (the database aborted the transaction).
    pub fn is_write_conflict(&self) -> bool {
        matches!(self, Self::Conflict { code: Some(WRITE_CONFLICT), .. })
    }
}

#[cfg(feature = "http")]
impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let Self::Internal(e) = &self {
            tracing::error!(error = ?e, "request failed");
        }
        let (errors, code, reasons) = match &self {
            Self::Validation { errors, .. } => (errors.clone(), None, vec![]),
            Self::Conflict { code, reasons, .. } => (BTreeMap::new(), *code, reasons.clone()),
            Self::TooLarge(m) => (BTreeMap::from([("file".to_string(), m.clone())]), None, vec![]),
            _ => (BTreeMap::new(), None, vec![]),
        };
        let info = ErrorInfo { status, message: self.to_string(), errors, code, reasons };
        let mut res = status.into_response();
        res.extensions_mut().insert(info);
        res
    }
}
