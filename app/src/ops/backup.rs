//! `tyredesk backup [--to FILE]`: a consistent copy of a live SQLite database and the report
//! files, in one `.tar.gz`, taken while the server runs. On PostgreSQL it explains `pg_dump`.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use diesel::connection::SimpleConnection;

use web::config::Config;
use db::DatabaseUrl;

/// The database's name inside the archive.
pub const DATABASE_ENTRY: &str = "tyredesk.sqlite3";
/// The report files' folder inside the archive.
pub const REPORTS_ENTRY: &str = "reports";

/// What a backup did.
#[derive(Debug)]
pub enum Backup {
    /// The archive written, its size in bytes, and how many report files it holds.
    Written { path: PathBuf, bytes: u64, report_files: usize },
    /// PostgreSQL: nothing copied; the command to run instead.
    UsePgDump { command: String },
}

/// The default archive: `<data dir>/backups/tyredesk-YYYYMMDD-HHMMSS.tar.gz` (UTC).
pub fn default_target(config: &Config) -> PathBuf {
    config.data_dir.join("backups").join(format!("tyredesk-{}.tar.gz", chrono::Utc::now().format("%Y%m%d-%H%M%S")))
}

/// Takes the backup; `to` defaults to [`default_target`]. Never overwrites a file, and never
/// leaves a half-written archive under the final name.
pub fn run(config: &Config, to: Option<&Path>) -> Result<Backup, String> {
    let db_path = match &config.database {
        DatabaseUrl::Postgres(_) => {
            let file = format!("tyredesk-{}.dump", chrono::Utc::now().format("%Y%m%d"));
            let shown = config.database.redacted();
            return Ok(Backup::UsePgDump { command: format!("pg_dump --format=custom --file={file} '{shown}'") });
        }
        DatabaseUrl::Sqlite(path) => path.clone(),
    };
    if !db_path.exists() {
        return Err(format!("there is no SQLite database at {}", db_path.display()));
    }
    let target = to.map_or_else(|| default_target(config), Path::to_path_buf);
    if target.exists() {
        return Err(format!("{} already exists; choose another file", target.display()));
    }
    let folder = target.parent().filter(|p| !p.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("backup");
    let snapshot = folder.join(format!(".{name}.sqlite3.part"));
    let part = folder.join(format!(".{name}.part"));
    let result = snapshot_db(&db_path, &snapshot).and_then(|()| archive(&snapshot, &config.data_dir.join(REPORTS_ENTRY), &part));
    let _ = std::fs::remove_file(&snapshot);
    let report_files = match result {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_file(&part);
            return Err(e);
        }
    };
    std::fs::rename(&part, &target).map_err(|e| format!("cannot move the archive into place at {}: {e}", target.display()))?;
    let bytes = std::fs::metadata(&target).map(|m| m.len()).unwrap_or(0);
    Ok(Backup::Written { path: target, bytes, report_files })
}

/// `VACUUM INTO`: SQLite writes a consistent, compacted copy from one read transaction, so
/// writers go on meanwhile (WAL) and the copy holds every transaction committed before it.
fn snapshot_db(db: &Path, to: &Path) -> Result<(), String> {
    let _ = std::fs::remove_file(to);
    let mut conn = db::connect(&DatabaseUrl::Sqlite(db.to_path_buf()))?;
    let quoted = to.to_str().ok_or_else(|| format!("the path {} is not UTF-8", to.display()))?.replace('\'', "''");
    conn.batch_execute(&format!("VACUUM INTO '{quoted}'")).map_err(|e| format!("the database could not be copied: {e}"))
}

/// Writes the database copy and the report files into a gzip-compressed tar; answers the
/// number of report files.
fn archive(db_copy: &Path, reports: &Path, to: &Path) -> Result<usize, String> {
    let io = |e: std::io::Error| format!("cannot write the archive {}: {e}", to.display());
    let file = File::create(to).map_err(io)?;
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::default()));
    tar.append_path_with_name(db_copy, DATABASE_ENTRY).map_err(io)?;
    let mut count = 0;
    if reports.is_dir() {
        for entry in walk(reports).map_err(io)? {
            let rel = entry.strip_prefix(reports).map_err(|e| e.to_string())?;
            // Reports still being written are not reports yet.
            if entry.extension().is_some_and(|x| x == "part") {
                continue;
            }
            tar.append_path_with_name(&entry, Path::new(REPORTS_ENTRY).join(rel)).map_err(io)?;
            count += 1;
        }
    }
    let gz = tar.into_inner().map_err(io)?;
    let mut file = gz.finish().map_err(io)?;
    file.flush().map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(count)
}

/// Every file under `dir`, sorted.
fn walk(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            let kind = e.file_type()?;
            if kind.is_dir() {
                stack.push(e.path());
            } else if kind.is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    Ok(out)
}
