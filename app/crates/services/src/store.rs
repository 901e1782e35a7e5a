//! Where the files several processes share live (issue 37): report files of the Download
//! Center, uploaded imports waiting for their job, and backups. One interface over two
//! backends of the `object_store` crate: the data directory (`LocalFileSystem`, the default,
//! the same layout as before) or any S3-compatible store (`TYREDESK_STORAGE_URL=s3://…`,
//! credentials from the standard `AWS_*` variables). Keys are relative, `reports/<company
//! id>/<file>`, `imports/<company id>/<file>`, `backups/<file>`; the company id in a key is
//! the company whose row names it, resolved by the caller before the object is read.
//! Secrets (`secret.key`), the SQLite database and an export's temporary files stay in the
//! data directory (docs/decisions/operations.md, "Files in object storage").

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as Key;
use object_store::prefix::PrefixStore;
use object_store::{ObjectStore, PutPayload};
use tokio::io::AsyncWriteExt;

use db::error::{AppError, AppResult};

/// Where the shared files are kept, as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// Under the data directory (one machine).
    DataDir,
    /// In an S3-compatible bucket, under `prefix` (empty: the bucket's root).
    S3 { bucket: String, prefix: String },
}

impl Location {
    /// Reads `TYREDESK_STORAGE_URL`: empty or absent means the data directory; otherwise
    /// `s3://bucket` or `s3://bucket/some/prefix`.
    pub fn parse(url: Option<&str>) -> Result<Self, String> {
        let Some(url) = url.map(str::trim).filter(|u| !u.is_empty()) else { return Ok(Self::DataDir) };
        let bad = || format!("TYREDESK_STORAGE_URL '{url}' is not s3://bucket or s3://bucket/prefix (an S3-compatible store; leave it unset to keep files in the data directory)");
        let rest = url.strip_prefix("s3://").ok_or_else(bad)?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let prefix = prefix.trim_matches('/');
        if bucket.is_empty() || !bucket.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')) {
            return Err(bad());
        }
        if Key::parse(prefix).is_err() || prefix.split('/').any(|p| p == "." || p == "..") {
            return Err(bad());
        }
        Ok(Self::S3 { bucket: bucket.to_string(), prefix: prefix.to_string() })
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::DataDir => f.write_str("the data directory"),
            Self::S3 { bucket, prefix } if prefix.is_empty() => write!(f, "s3://{bucket}"),
            Self::S3 { bucket, prefix } => write!(f, "s3://{bucket}/{prefix}"),
        }
    }
}

/// The shared files' store: cheap to clone, one per process.
#[derive(Clone, Debug)]
pub struct Store {
    objects: Arc<dyn ObjectStore>,
    /// The data directory when it is the store: a finished file is moved into place there
    /// instead of copied.
    local: Option<PathBuf>,
    location: Location,
}

/// An object being read: its length and its bytes as they arrive.
pub struct Object {
    pub size: u64,
    pub bytes: BoxStream<'static, Result<Bytes, object_store::Error>>,
}

impl Store {
    /// Builds the store for `location`; the data directory must exist. Builds the client
    /// only; [`Store::check`] is what proves it works.
    pub fn open(data_dir: &Path, location: &Location) -> Result<Self, String> {
        match location {
            Location::DataDir => {
                let fs = LocalFileSystem::new_with_prefix(data_dir).map_err(|e| format!("cannot use the data directory {} for files: {e}", data_dir.display()))?;
                Ok(Self { objects: Arc::new(fs), local: Some(data_dir.to_path_buf()), location: location.clone() })
            }
            Location::S3 { bucket, prefix } => {
                let s3 = AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()
                    .map_err(|e| format!("cannot use the file store {location}: {e}. Check TYREDESK_STORAGE_URL and the AWS_* settings (README, Configuration)"))?;
                let objects: Arc<dyn ObjectStore> = if prefix.is_empty() { Arc::new(s3) } else { Arc::new(PrefixStore::new(s3, prefix.as_str())) };
                Ok(Self { objects, local: None, location: location.clone() })
            }
        }
    }

    /// Where the files are, for messages.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Whether the files are in the data directory.
    pub fn is_local(&self) -> bool {
        self.local.is_some()
    }

    /// Writes, reads back and removes a small object, so a wrong bucket, endpoint or key is
    /// refused at start-up, not at the first report.
    pub async fn check(&self) -> Result<(), String> {
        let key = format!(".write-check-{}-{}", std::process::id(), rand::random::<u32>());
        let fail = |what: &str, e: &dyn std::fmt::Display| format!("cannot {what} the file store {}: {e}. Check TYREDESK_STORAGE_URL and the AWS_* settings (README, Configuration)", self.location);
        let k = Key::from(key.as_str());
        self.objects.put(&k, PutPayload::from_static(b"ok")).await.map_err(|e| fail("write to", &e))?;
        let read = self.objects.get(&k).await.map_err(|e| fail("read from", &e))?.bytes().await.map_err(|e| fail("read from", &e))?;
        self.objects.delete(&k).await.map_err(|e| fail("delete from", &e))?;
        if read.as_ref() != b"ok" {
            return Err(fail("read back from", &"the bytes read differ from those written"));
        }
        Ok(())
    }

    /// Stores the finished file at `from` (in the data directory) as `key` and removes it
    /// there: moved into place when the store is the data directory, streamed up in parts
    /// otherwise (a report is never held whole in memory to move it). The object appears
    /// only once complete.
    pub async fn put_file(&self, key: &str, from: &Path) -> AppResult<()> {
        let k = parse(key)?;
        if let Some(root) = &self.local {
            let to = root.join(key);
            let (from, dir) = (from.to_path_buf(), to.parent().map(Path::to_path_buf));
            let moved = tokio::task::spawn_blocking(move || {
                if let Some(dir) = dir {
                    std::fs::create_dir_all(dir)?;
                }
                std::fs::rename(&from, &to)
            })
            .await
            .map_err(|e| AppError::Internal(e.into()))?;
            return moved.map_err(|e| stored_failed(key, &e));
        }
        let result = async {
            let mut file = tokio::fs::File::open(from).await.map_err(|e| stored_failed(key, &e))?;
            let mut up = object_store::buffered::BufWriter::new(self.objects.clone(), k);
            if let Err(e) = tokio::io::copy(&mut file, &mut up).await {
                let _ = up.abort().await;
                return Err(stored_failed(key, &e));
            }
            up.shutdown().await.map_err(|e| stored_failed(key, &e))
        }
        .await;
        remove_local(from);
        result
    }

    /// Stores `bytes` as `key` (small files: an upload already read, a PDF just typeset).
    pub async fn put_bytes(&self, key: &str, bytes: Vec<u8>) -> AppResult<()> {
        let k = parse(key)?;
        self.objects.put(&k, PutPayload::from(bytes)).await.map(|_| ()).map_err(|e| stored_failed(key, &e))
    }

    /// The object `key` as a stream, or `None` when there is none.
    pub async fn get(&self, key: &str) -> AppResult<Option<Object>> {
        let k = parse(key)?;
        match self.objects.get(&k).await {
            Ok(got) => Ok(Some(Object { size: got.meta.size, bytes: got.into_stream() })),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(read_failed(key, &e)),
        }
    }

    /// The whole object `key` (small files only), or `None` when there is none.
    pub async fn get_bytes(&self, key: &str) -> AppResult<Option<Bytes>> {
        let k = parse(key)?;
        match self.objects.get(&k).await {
            Ok(got) => got.bytes().await.map(Some).map_err(|e| read_failed(key, &e)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(read_failed(key, &e)),
        }
    }

    /// Removes `key`; logs anything but "already gone".
    pub async fn remove(&self, key: &str) {
        let Ok(k) = parse(key) else { return };
        match self.objects.delete(&k).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => tracing::warn!(error = %e, key, store = %self.location, "cannot remove a stored file"),
        }
    }

    /// The keys under `prefix` (e.g. `reports`) with their sizes, sorted.
    pub async fn list(&self, prefix: &str) -> AppResult<Vec<(String, u64)>> {
        let p = parse(prefix)?;
        let mut found = Vec::new();
        let mut items = self.objects.list(Some(&p));
        while let Some(item) = items.next().await {
            let meta = item.map_err(|e| read_failed(prefix, &e))?;
            found.push((meta.location.to_string(), meta.size));
        }
        found.sort();
        Ok(found)
    }
}

fn parse(key: &str) -> AppResult<Key> {
    Key::parse(key).map_err(|e| AppError::Internal(anyhow::anyhow!("a stored file's key '{key}' is malformed: {e}")))
}

fn stored_failed(key: &str, e: &dyn std::fmt::Display) -> AppError {
    tracing::error!(error = %e, key, "storing a file failed");
    AppError::Storage(format!("The file could not be stored ({e}). Try again later, or ask an administrator to check the file store or the free space of the data folder."))
}

fn read_failed(key: &str, e: &dyn std::fmt::Display) -> AppError {
    tracing::error!(error = %e, key, "reading a stored file failed");
    AppError::Storage(format!("The file could not be read from the file store ({e}). Try again later, or ask an administrator to check the file store."))
}

/// Removes a file of the data directory (a temporary or a written file once stored), logging
/// anything but "already gone".
pub fn remove_local(path: &Path) {
    if let Err(e) = std::fs::remove_file(path)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        tracing::warn!(error = %e, file = %path.display(), "cannot remove a temporary file");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_urls_are_s3_buckets_with_an_optional_prefix() {
        assert_eq!(Location::parse(None), Ok(Location::DataDir));
        assert_eq!(Location::parse(Some(" ")), Ok(Location::DataDir));
        assert_eq!(Location::parse(Some("s3://files")), Ok(Location::S3 { bucket: "files".into(), prefix: String::new() }));
        assert_eq!(Location::parse(Some("s3://files/tyredesk/prod/")), Ok(Location::S3 { bucket: "files".into(), prefix: "tyredesk/prod".into() }));
        assert_eq!(Location::parse(Some("s3://files/tyredesk")).unwrap().to_string(), "s3://files/tyredesk");
        for bad in ["files", "gs://files", "s3://", "s3:///x", "s3://fi les", "s3://files/../x", "file:///srv"] {
            let e = Location::parse(Some(bad)).unwrap_err();
            assert!(e.contains("TYREDESK_STORAGE_URL"), "{bad}: {e}");
        }
    }

    #[tokio::test]
    async fn the_data_directory_keeps_its_layout() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &Location::DataDir).unwrap();
        store.check().await.unwrap();
        let tmp = dir.path().join("tmp-report");
        std::fs::write(&tmp, b"report").unwrap();
        store.put_file("reports/4/a-1.xlsx", &tmp).await.unwrap();
        assert!(!tmp.exists(), "moved, not copied");
        assert_eq!(std::fs::read(dir.path().join("reports/4/a-1.xlsx")).unwrap(), b"report");
        store.put_bytes("imports/4/x.xlsx", b"upload".to_vec()).await.unwrap();
        assert_eq!(std::fs::read(dir.path().join("imports/4/x.xlsx")).unwrap(), b"upload");
        let got = store.get("reports/4/a-1.xlsx").await.unwrap().unwrap();
        assert_eq!(got.size, 6);
        assert!(store.get("reports/4/missing.xlsx").await.unwrap().is_none());
        assert_eq!(store.list("reports").await.unwrap(), vec![("reports/4/a-1.xlsx".to_string(), 6)]);
        store.remove("imports/4/x.xlsx").await;
        store.remove("imports/4/x.xlsx").await;
        assert!(store.get_bytes("imports/4/x.xlsx").await.unwrap().is_none());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(!left.iter().any(|n| n.to_string_lossy().starts_with(".write-check")), "{left:?}");
    }
}
