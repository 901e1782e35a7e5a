//! Where the data lives, as `DATABASE_URL` names it.

use std::path::PathBuf;

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
}
