//! Static files embedded in the binary (CSS, JS, images, built island bundles), the Vite
//! manifest that maps island names to bundles, and cache-friendly serving.

use std::collections::HashMap;

use axum::body::Body;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;
use serde::Deserialize;

#[derive(Embed)]
#[folder = "../../../static/"]
#[exclude = "islands/.vite/*"]
#[exclude = "islands/ssr/*"]
struct Static;

#[derive(Embed)]
#[folder = "../../../static/islands/.vite/"]
#[include = "manifest.json"]
struct ViteManifest;

#[derive(Deserialize)]
struct ManifestEntry {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default, rename = "isEntry")]
    is_entry: bool,
}

/// The script tags one page needs for its islands.
#[derive(Clone, Debug, Default)]
pub struct IslandScripts {
    pub loader: Option<String>,
    /// The date-field enhancer every page loads (islands/src/date-input.ts).
    pub date_input: Option<String>,
    pub preload: Vec<String>,
}

/// Versioned URLs and island bundles, computed once at start-up.
pub struct Assets {
    versions: HashMap<String, String>,
    islands: HashMap<String, (String, Vec<String>)>,
    loader: Option<String>,
    /// The date-field enhancer and the chunks it imports (preloaded, no request chain).
    date_input: Option<(String, Vec<String>)>,
}

impl Assets {
    /// Reads the embedded manifest; a build without islands still serves every page.
    pub fn load() -> anyhow::Result<Self> {
        let mut versions = HashMap::new();
        for path in Static::iter() {
            if let Some(f) = Static::get(&path) {
                let hash = f.metadata.sha256_hash();
                versions.insert(path.to_string(), format!("{:02x}{:02x}{:02x}{:02x}", hash[0], hash[1], hash[2], hash[3]));
            }
        }
        let mut islands = HashMap::new();
        let mut loader = None;
        let mut date_input = None;
        if let Some(raw) = ViteManifest::get("manifest.json") {
            let manifest: HashMap<String, ManifestEntry> = serde_json::from_slice(&raw.data)?;
            for (key, entry) in &manifest {
                if !entry.is_entry {
                    continue;
                }
                let url = format!("/static/islands/{}", entry.file);
                if key.ends_with("src/loader.ts") {
                    loader = Some(url);
                } else if key.ends_with("src/date-input.ts") {
                    date_input = Some((url, static_imports(&manifest, entry)));
                } else if let Some(name) = key.strip_prefix("src/islands/").and_then(|k| k.split('/').next()) {
                    islands.insert(name.to_string(), (url, static_imports(&manifest, entry)));
                }
            }
        }
        Ok(Self { versions, islands, loader, date_input })
    }

    /// `/static/<path>?v=<content hash>` so browsers cache it until it changes.
    pub fn url(&self, path: &str) -> String {
        match self.versions.get(path) {
            Some(v) => format!("/static/{path}?v={v}"),
            None => format!("/static/{path}"),
        }
    }

    /// The bundle URL of an island, if it was built.
    pub fn island(&self, name: &str) -> Option<&str> {
        self.islands.get(name).map(|(u, _)| u.as_str())
    }

    /// The loader (every page has the lazy Change Password island), the date-field enhancer
    /// and preload tags for the islands a page mounts at once.
    pub fn scripts_for(&self, names: &[&str]) -> IslandScripts {
        let mut preload: Vec<String> = self.date_input.iter().flat_map(|(_, imports)| imports.iter().cloned()).collect();
        for name in names {
            if let Some((url, imports)) = self.islands.get(*name) {
                for u in std::iter::once(url).chain(imports) {
                    if !preload.contains(u) {
                        preload.push(u.clone());
                    }
                }
            }
        }
        IslandScripts { loader: self.loader.clone(), date_input: self.date_input.as_ref().map(|(url, _)| url.clone()), preload }
    }
}

/// The URLs of every chunk `entry` imports statically, the chunks' own imports too (a chunk
/// known only once its importer has arrived costs the page a round trip on a slow link,
/// issue 37), each once, nearest first. Dynamic imports are left to load when asked for.
fn static_imports(manifest: &HashMap<String, ManifestEntry>, entry: &ManifestEntry) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut queue: std::collections::VecDeque<&str> = entry.imports.iter().map(String::as_str).collect();
    while let Some(key) = queue.pop_front() {
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        if let Some(chunk) = manifest.get(key) {
            queue.extend(chunk.imports.iter().map(String::as_str));
        }
    }
    seen.into_iter().filter_map(|key| manifest.get(key)).map(|e| format!("/static/islands/{}", e.file)).collect()
}

#[derive(Deserialize)]
pub struct VersionQuery {
    v: Option<String>,
}

/// Serves an embedded file: hashed or versioned URLs are immutable, others revalidate by ETag.
pub async fn serve(Path(path): Path<String>, Query(q): Query<VersionQuery>, headers: HeaderMap) -> Response {
    let Some(file) = Static::get(&path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let hash = file.metadata.sha256_hash();
    let etag = format!("\"{}\"", hash.iter().take(8).map(|b| format!("{b:02x}")).collect::<String>());
    if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    let immutable = path.starts_with("islands/assets/") || q.v.is_some();
    let cache = if immutable { "public, max-age=31536000, immutable" } else { "no-cache" };
    let mime = mime_guess::from_path(&path).first_or_octet_stream();
    let mut res = Response::new(Body::from(file.data.into_owned()));
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(mime.as_ref()) {
        h.insert(header::CONTENT_TYPE, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_island_preloads_the_chunks_its_chunks_import_but_not_its_dynamic_ones() {
        let manifest: HashMap<String, ManifestEntry> = serde_json::from_str(
            r#"{
              "src/islands/line-editor/index.tsx": {"file": "assets/line-editor-1.js", "isEntry": true, "imports": ["_api.js", "_dialog.js"], "dynamicImports": ["src/islands/line-editor/HistoryDialog.tsx"]},
              "_api.js": {"file": "assets/api-2.js"},
              "_dialog.js": {"file": "assets/dialog-3.js", "imports": ["_dist.js", "_api.js"]},
              "_dist.js": {"file": "assets/dist-4.js", "imports": ["_api.js"]},
              "src/islands/line-editor/HistoryDialog.tsx": {"file": "assets/HistoryDialog-5.js", "imports": ["_radix.js"]},
              "_radix.js": {"file": "assets/radix-6.js"}
            }"#,
        )
        .unwrap();
        let entry = &manifest["src/islands/line-editor/index.tsx"];
        assert_eq!(static_imports(&manifest, entry), ["/static/islands/assets/api-2.js", "/static/islands/assets/dialog-3.js", "/static/islands/assets/dist-4.js"]);
    }
}
