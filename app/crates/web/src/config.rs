//! Configuration from flags and environment (flags win), validated before anything is written.

use std::path::{Path, PathBuf};

use db::DatabaseUrl;

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct Config {
    pub database: DatabaseUrl,
    pub bind: String,
    pub data_dir: PathBuf,
    /// Where report files, queued uploads and backups go (`TYREDESK_STORAGE_URL`).
    pub storage: services::store::Location,
    /// How long a read (GET, HEAD) may run before it answers 408; writes are never cut off
    /// (`server::by_method` says why).
    pub request_timeout: std::time::Duration,
    /// Rows per database read of an export ([`EXPORT_CHUNK`]; tests use a small one).
    pub export_chunk: usize,
    /// The most sheets an export writes while its request waits ([`domain::exports::DIRECT_MAX`]).
    pub export_direct_max: i64,
}

/// The request timeout of a server started from the command line.
pub const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Rows an export reads from the database at a time: large enough that per-query overhead
/// is small, small enough that a chunk stays a few MB (docs/decisions/imports.md, "Exports").
pub const EXPORT_CHUNK: usize = 2_000;

impl Config {
    /// Builds the configuration; `database_url` `None` means the SQLite file in the data
    /// directory, `storage_url` `None` keeps the shared files there too.
    pub fn new(database_url: Option<&str>, bind: Option<&str>, data_dir: Option<&Path>, storage_url: Option<&str>) -> Result<Self, String> {
        let data_dir = data_dir.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("./data"));
        let database = match database_url {
            Some(raw) => DatabaseUrl::parse(raw)?,
            None => DatabaseUrl::Sqlite(data_dir.join("tyredesk.sqlite3")),
        };
        let bind = bind.unwrap_or("127.0.0.1:8080").to_string();
        bind.parse::<std::net::SocketAddr>()
            .map_err(|_| format!("bind address '{bind}' is not host:port, e.g. 127.0.0.1:8080 (TYREDESK_BIND)"))?;
        let storage = services::store::Location::parse(storage_url)?;
        Ok(Self { database, bind, data_dir, storage, request_timeout: REQUEST_TIMEOUT, export_chunk: EXPORT_CHUNK, export_direct_max: domain::exports::DIRECT_MAX })
    }

    /// Makes sure the data directory exists and is writable, without leaving anything behind.
    pub fn check_data_dir(&self) -> Result<(), String> {
        let dir = &self.data_dir;
        let existed = dir.exists();
        if !existed {
            std::fs::create_dir_all(dir).map_err(|e| {
                format!("cannot create data directory {}: {e}. Choose another with TYREDESK_DATA_DIR or --data-dir", dir.display())
            })?;
        }
        let probe = dir.join(format!(".write-check-{}", std::process::id()));
        match std::fs::write(&probe, b"") {
            Ok(()) => {
                let _ = std::fs::remove_file(&probe);
                let tightened = crate::files::tighten(dir);
                if tightened > 0 {
                    tracing::info!("made {tightened} files and folders in {} private to this user (0600/0700)", dir.display());
                }
                Ok(())
            }
            Err(e) => {
                if !existed {
                    let _ = std::fs::remove_dir(dir);
                }
                Err(format!(
                    "data directory {} is not writable: {e}. Fix its permissions or choose another with TYREDESK_DATA_DIR",
                    dir.display()
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bind_must_be_host_port() {
        assert!(Config::new(None, Some("localhost"), None, None).is_err());
        let c = Config::new(None, None, Some(Path::new("/tmp/tdx")), None).unwrap();
        assert_eq!(c.bind, "127.0.0.1:8080");
        assert_eq!(c.database, DatabaseUrl::Sqlite("/tmp/tdx/tyredesk.sqlite3".into()));
    }

    #[test]
    fn unwritable_data_dir_is_reported_and_left_alone() {
        let c = Config::new(None, None, Some(Path::new("/proc/tyredesk-no")), None).unwrap();
        let err = c.check_data_dir().unwrap_err();
        assert!(err.contains("TYREDESK_DATA_DIR"), "{err}");
        assert!(!Path::new("/proc/tyredesk-no").exists());
    }
}
