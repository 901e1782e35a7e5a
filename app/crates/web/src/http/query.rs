//! What every list answers from the query string, pages, JSON API and shop alike: the
//! filters (with the spec's drop rule and listed values), paging, and `format=xlsx`.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use db::error::AppError;
use domain::limits::PAGE_MAX;

/// Page sizes offered (spec §9).
pub const PAGE_SIZES: [i64; 4] = [20, 50, 100, 150];

/// True for filter values the list drops before querying (spec §2.4).
pub fn is_dropped(value: &str) -> bool {
    matches!(value.trim(), "" | "0" | "9999" | "All")
}

/// Applies the drop rule and the 'deliver preparing' → 0 mapping to query pairs.
pub fn clean_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<(String, String)> {
    pairs
        .into_iter()
        .filter(|(_, v)| !is_dropped(v))
        .map(|(k, v)| (k.to_string(), if v == "deliver preparing" { "0".to_string() } else { v.trim().to_string() }))
        .collect()
}

/// `?page=&per_page=` of any list.
#[derive(Deserialize, Debug, Default, Clone, Copy)]
pub struct Paging {
    pub page: Option<i64>,
    pub per_page: Option<i64>,
}

impl Paging {
    /// The page request, with the list's default size and sizes outside the choices refused.
    /// Pages run from 1 to `PAGE_MAX`; a page past the end is an empty page, and past
    /// `PAGE_MAX` it is that page (so the offset never overflows).
    pub fn resolve(self, default_size: i64) -> PageReq {
        let per_page = self.per_page.filter(|p| PAGE_SIZES.contains(p)).unwrap_or(default_size);
        PageReq { page: self.page.unwrap_or(1).clamp(1, PAGE_MAX), per_page }
    }
}

/// A resolved page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageReq {
    pub page: i64,
    pub per_page: i64,
}

impl PageReq {
    pub fn offset(&self) -> i64 {
        (self.page - 1) * self.per_page
    }
}

/// A list's filters from the query string: values the spec drops (9999, 0, '0', '', 'All')
/// are removed first, paging and `format` are split off, and the rest becomes `T`.
pub struct Filters<T> {
    pub value: T,
    /// The kept filter pairs, for links that must repeat the search.
    pub pairs: Vec<(String, String)>,
    pub paging: Paging,
    /// `format=xlsx` asks for the export.
    pub export: bool,
    /// The raw `format` value; the API refuses values it does not know ([`wants_xlsx`]).
    pub format: Option<String>,
}

impl<T: DeserializeOwned + domain::validate::ListedValues, S: Send + Sync> FromRequestParts<S> for Filters<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let raw: Vec<(String, String)> = serde_urlencoded::from_str(parts.uri.query().unwrap_or(""))
            .map_err(|e| AppError::bad_request(format!("Invalid search: {e}")))?;
        let mut paging = Paging::default();
        let mut format = None;
        let mut kept = Vec::new();
        for (k, v) in &raw {
            match k.as_str() {
                "page" => paging.page = v.trim().parse().ok(),
                "per_page" => paging.per_page = v.trim().parse().ok(),
                "format" => format = Some(v.clone()),
                _ => kept.push((k.as_str(), v.as_str())),
            }
        }
        let pairs = clean_pairs(kept);
        let encoded = serde_urlencoded::to_string(&pairs).unwrap_or_default();
        let value: T = serde_urlencoded::from_str(&encoded).map_err(|e| AppError::bad_request(format!("Invalid search: {e}")))?;
        // A value no filter lists is refused, never ignored (which would list everything).
        let unlisted = value.unlisted();
        if let Some((field, _)) = unlisted.iter().next() {
            let message = format!("Choose one of the listed values for {field}.");
            return Err(AppError::Validation { message, errors: unlisted });
        }
        Ok(Self { value, pairs, paging, export: format.as_deref() == Some("xlsx"), format })
    }
}

/// Whether an API list answers the xlsx file (`format=xlsx`) or JSON (no `format`, or an
/// empty one, dropped like any empty filter); any other value is refused by name.
pub fn wants_xlsx(format: Option<&str>) -> Result<bool, AppError> {
    match format.map(str::trim) {
        None | Some("") => Ok(false),
        Some("xlsx") => Ok(true),
        Some(other) => Err(AppError::field("format", format!("format '{other}' is not offered: use format=xlsx for a spreadsheet, or leave format out for JSON."))),
    }
}
