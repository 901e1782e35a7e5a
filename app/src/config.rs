//! Configuration from flags and environment (flags win), validated before anything is written.

use std::path::{Path, PathBuf};

/// Where the data lives: an embedded SQLite file or a PostgreSQL server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseUrl {
    Sqlite(PathBuf),
    Postgres(String),
}

impl DatabaseUrl {
    /// Reads `DATABASE_URL`: a file path or `sqlite://…` selects SQLite, `postgres://…` PostgreSQL.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("DATABASE_URL is empty: give a file path, sqlite://path or postgres://user:pass@host/db".into());
        }
        if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            return Ok(Self::Postgres(raw.to_string()));
        }
        if let Some(path) = raw.strip_prefix("sqlite://").or_else(|| raw.strip_prefix("sqlite:")) {
            if path.is_empty() {
                return Err("DATABASE_URL sqlite:// has no file path: use e.g. sqlite://data/tyredesk.sqlite3".into());
            }
            return Ok(Self::Sqlite(PathBuf::from(path)));
        }
        if let Some((scheme, _)) = raw.split_once("://") {
            return Err(format!(
                "DATABASE_URL scheme '{scheme}' is not supported: use a file path, sqlite://path or postgres://user:pass@host/db"
            ));
        }
        Ok(Self::Sqlite(PathBuf::from(raw)))
    }

    /// The URL with any password masked, for messages and logs.
    pub fn redacted(&self) -> String {
        match self {
            Self::Sqlite(p) => p.display().to_string(),
            Self::Postgres(url) => redact_password(url),
        }
    }
}

fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let Some((creds, host)) = rest.split_once('@') else { return url.to_string() };
    match creds.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct Config {
    pub database: DatabaseUrl,
    pub bind: String,
    pub data_dir: PathBuf,
    /// How long a read (GET, HEAD) may run before it answers 408; writes are never cut off
    /// (`server::timeout` says why).
    pub request_timeout: std::time::Duration,
    /// Rows per database read of an export ([`EXPORT_CHUNK`]; tests use a small one).
    pub export_chunk: usize,
}

/// The request timeout of a server started from the command line.
pub const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Rows an export reads from the database at a time: large enough that per-query overhead
/// is small, small enough that a chunk stays a few MB (docs/decisions.md, Scale).
pub const EXPORT_CHUNK: usize = 2_000;

impl Config {
    /// Builds the configuration; `database_url` `None` means the SQLite file in the data directory.
    pub fn new(database_url: Option<&str>, bind: Option<&str>, data_dir: Option<&Path>) -> Result<Self, String> {
        let data_dir = data_dir.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("./data"));
        let database = match database_url {
            Some(raw) => DatabaseUrl::parse(raw)?,
            None => DatabaseUrl::Sqlite(data_dir.join("tyredesk.sqlite3")),
        };
        let bind = bind.unwrap_or("127.0.0.1:8080").to_string();
        bind.parse::<std::net::SocketAddr>()
            .map_err(|_| format!("bind address '{bind}' is not host:port, e.g. 127.0.0.1:8080 (TYREDESK_BIND)"))?;
        Ok(Self { database, bind, data_dir, request_timeout: REQUEST_TIMEOUT, export_chunk: EXPORT_CHUNK })
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
                let tightened = crate::ops::files::tighten(dir);
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
    fn database_url_schemes() {
        assert_eq!(DatabaseUrl::parse("data/x.db").unwrap(), DatabaseUrl::Sqlite("data/x.db".into()));
        assert_eq!(DatabaseUrl::parse("sqlite://data/x.db").unwrap(), DatabaseUrl::Sqlite("data/x.db".into()));
        assert!(matches!(DatabaseUrl::parse("postgres://u:p@h/db").unwrap(), DatabaseUrl::Postgres(_)));
        assert!(matches!(DatabaseUrl::parse("postgresql://h/db").unwrap(), DatabaseUrl::Postgres(_)));
        let err = DatabaseUrl::parse("mysql://h/db").unwrap_err();
        assert!(err.contains("'mysql' is not supported"), "{err}");
        assert!(DatabaseUrl::parse("  ").is_err());
        assert!(DatabaseUrl::parse("sqlite://").is_err());
    }

    #[test]
    fn password_is_redacted() {
        let url = DatabaseUrl::parse("postgres://td:secret@db.local:5432/td").unwrap();
        assert_eq!(url.redacted(), "postgres://td:***@db.local:5432/td");
    }

    #[test]
    fn bind_must_be_host_port() {
        assert!(Config::new(None, Some("localhost"), None).is_err());
        let c = Config::new(None, None, Some(Path::new("/tmp/tdx"))).unwrap();
        assert_eq!(c.bind, "127.0.0.1:8080");
        assert_eq!(c.database, DatabaseUrl::Sqlite("/tmp/tdx/tyredesk.sqlite3".into()));
    }

    #[test]
    fn unwritable_data_dir_is_reported_and_left_alone() {
        let c = Config::new(None, None, Some(Path::new("/proc/tyredesk-no"))).unwrap();
        let err = c.check_data_dir().unwrap_err();
        assert!(err.contains("TYREDESK_DATA_DIR"), "{err}");
        assert!(!Path::new("/proc/tyredesk-no").exists());
    }
}
