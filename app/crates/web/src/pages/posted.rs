//! A posted form whose fields repeat (`order_id=1&order_id=2`, `pick=…`): what the bulk forms
//! of the dispatch board and the purchase suggestions read.

use db::error::{AppError, AppResult};

/// The form's (name, value) pairs, in order.
pub struct Posted(Vec<(String, String)>);

impl Posted {
    /// The form of a request body; one that is no form is refused in plain words.
    pub fn read(body: &[u8]) -> AppResult<Self> {
        serde_urlencoded::from_bytes(body).map(Posted).map_err(|e| AppError::BadRequest(format!("The form could not be read: {e}")))
    }

    /// The first value of `key`.
    pub fn one(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Every non-blank value of `key`, in order.
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.0.iter().filter(|(k, v)| k == key && !v.trim().is_empty()).map(|(_, v)| v.as_str()).collect()
    }

    /// Every non-blank value of `key` as an id; one that is no number is refused with `unknown`.
    pub fn ids(&self, key: &str, unknown: &str) -> AppResult<Vec<i64>> {
        self.all(key).into_iter().map(|v| v.trim().parse::<i64>().map_err(|_| AppError::BadRequest(unknown.to_string()))).collect()
    }
}
