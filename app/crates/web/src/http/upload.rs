//! Reads a spreadsheet upload (multipart: one `file` and a few short text fields) with one
//! size message for every oversize upload, whichever limit stops it.

use std::collections::HashMap;
use std::time::Duration;

use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::StatusCode;

use domain::uploads::{FIELD_TOO_LONG, FILE_FIELD, FILE_TOO_LARGE, MAX_FILE_BYTES, NOT_AN_UPLOAD, UPLOAD_BROKEN};
use db::error::{AppError, AppResult};

/// A form upload whose refusal is the app's own (axum's answers a plain-text 400 for a
/// missing boundary): every upload route reads its body through this or [`Upload`].
pub struct Form(pub Multipart);

impl<S: Send + Sync> FromRequest<S> for Form {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Multipart::from_request(req, state).await.map(Self).map_err(|_| AppError::field("file", NOT_AN_UPLOAD))
    }
}

impl<S: Send + Sync> FromRequest<S> for Upload {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Form(multipart) = Form::from_request(req, state).await?;
        read(multipart).await
    }
}

/// How long the body of an upload may take to arrive. Writes are exempt from the server's
/// request timeout (it must never answer failure for a write that then commits, see
/// `server::by_method`), so a slow sender is cut off here, before anything is written.
const READ_TIMEOUT: Duration = Duration::from_secs(60);
/// Longest text field (ids and codes).
const FIELD_LIMIT: usize = 256;

/// The uploaded file and the text fields sent beside it.
pub struct Upload {
    pub file: Vec<u8>,
    /// The file's name as the browser sent it (shown, never used as a path).
    pub file_name: String,
    pub fields: HashMap<String, String>,
}

impl Upload {
    /// A text field, trimmed; `None` when absent or blank.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }
}

/// Reads the whole upload, refusing a file over the limit as soon as it is known.
pub async fn read(multipart: Multipart) -> AppResult<Upload> {
    tokio::time::timeout(READ_TIMEOUT, read_fields(multipart))
        .await
        .map_err(|_| AppError::Timeout("The upload did not arrive within 60 seconds; nothing was changed. Try again.".into()))?
}

async fn read_fields(mut multipart: Multipart) -> AppResult<Upload> {
    let mut file = None;
    let mut file_name = String::new();
    let mut files = 0;
    let mut fields = HashMap::new();
    while let Some(mut field) = multipart.next_field().await.map_err(refusal)? {
        let name = field.name().unwrap_or("").to_string();
        let is_file = name == "file";
        if !is_file && field.file_name().is_some() {
            // A file under another name: say where it belongs, not that a field is too long.
            return Err(AppError::field("file", FILE_FIELD));
        }
        if is_file {
            file_name = field.file_name().unwrap_or("upload.xlsx").chars().filter(|c| !c.is_control()).take(100).collect();
        }
        let limit = if is_file { MAX_FILE_BYTES } else { FIELD_LIMIT };
        let mut data = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(refusal)? {
            if data.len().saturating_add(chunk.len()) > limit {
                return Err(if is_file { AppError::TooLarge(FILE_TOO_LARGE.into()) } else { AppError::field(&name, FIELD_TOO_LONG) });
            }
            data.extend_from_slice(&chunk);
        }
        if is_file {
            files += 1;
            file = Some(data);
        } else {
            fields.insert(name, String::from_utf8_lossy(&data).trim().to_string());
        }
    }
    match (files, file) {
        (1, Some(file)) => Ok(Upload { file, file_name, fields }),
        _ => Err(AppError::field("file", "Choose one xlsx file.")),
    }
}

/// A multipart error in the app's words: the body limit of the route means the file is too
/// large; anything else is a broken upload (axum's own text is logged, not answered).
pub fn refusal(e: MultipartError) -> AppError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        AppError::TooLarge(FILE_TOO_LARGE.into())
    } else {
        tracing::debug!(error = %e.body_text(), "an upload could not be read");
        AppError::field("file", UPLOAD_BROKEN)
    }
}
