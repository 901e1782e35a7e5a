//! `tyredesk backup [--to FILE]`: a consistent copy of a live SQLite database and the report
//! files, in one `.tar.gz`, taken while the server runs. On PostgreSQL it explains `pg_dump`.
//! With an S3-compatible file store (`TYREDESK_STORAGE_URL`) the report files are read from
//! it and, unless `--to` names a file, the archive is stored there under `backups/`.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use diesel::connection::SimpleConnection;

use services::store::{Location, Store};
use web::config::Config;
use db::DatabaseUrl;

/// The database's name inside the archive.
pub const DATABASE_ENTRY: &str = "tyredesk.sqlite3";
/// The report files' folder inside the archive.
pub const REPORTS_ENTRY: &str = "reports";
/// The backups' folder in the file store.
pub const BACKUPS_ENTRY: &str = "backups";

/// What a backup did.
#[derive(Debug)]
pub enum Backup {
    /// The archive written, its size in bytes, and how many report files it holds.
    Written { path: PathBuf, bytes: u64, report_files: usize },
    /// The archive stored in the S3-compatible file store: where, its size, its report files.
    Stored { location: String, bytes: u64, report_files: usize },
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
    if to.is_none() && config.storage != Location::DataDir {
        return store_in_bucket(config, &db_path);
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
    let result = snapshot_db(&db_path, &snapshot).and_then(|()| archive(config, &snapshot, &part));
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

/// The archive in the bucket: written in the data directory's `tmp/`, streamed up to
/// `backups/<name>`, then removed here.
fn store_in_bucket(config: &Config, db_path: &Path) -> Result<Backup, String> {
    let name = default_target(config).file_name().and_then(|n| n.to_str()).unwrap_or("tyredesk.tar.gz").to_string();
    let key = format!("{BACKUPS_ENTRY}/{name}");
    let tmp = xlsx::export::temp_dir(&config.data_dir);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let (snapshot, part) = (tmp.join(format!(".{name}.sqlite3.part")), tmp.join(format!(".{name}.part")));
    let result = snapshot_db(db_path, &snapshot).and_then(|()| archive(config, &snapshot, &part));
    let _ = std::fs::remove_file(&snapshot);
    let report_files = result.inspect_err(|_| {
        let _ = std::fs::remove_file(&part);
    })?;
    let bytes = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    let store = open_store(config)?;
    runtime()?.block_on(store.put_file(&key, &part)).map_err(|e| format!("the archive could not be stored in {}: {e}", store.location()))?;
    Ok(Backup::Stored { location: format!("{}/{key}", store.location()), bytes, report_files })
}

fn open_store(config: &Config) -> Result<Store, String> {
    Store::open(&config.data_dir, &config.storage)
}

/// The command line has no runtime of its own; the S3 client needs one.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| format!("cannot start the runtime: {e}"))
}

/// Writes the database copy and the report files into a gzip-compressed tar; answers the
/// number of report files.
fn archive(config: &Config, db_copy: &Path, to: &Path) -> Result<usize, String> {
    let io = |e: std::io::Error| format!("cannot write the archive {}: {e}", to.display());
    let file = File::create(to).map_err(io)?;
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::default()));
    tar.append_path_with_name(db_copy, DATABASE_ENTRY).map_err(io)?;
    let count = if config.storage == Location::DataDir {
        local_reports(&mut tar, &config.data_dir.join(REPORTS_ENTRY)).map_err(io)?
    } else {
        stored_reports(config, &mut tar, to)?
    };
    let gz = tar.into_inner().map_err(io)?;
    let mut file = gz.finish().map_err(io)?;
    file.flush().map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(count)
}

type Tar = tar::Builder<flate2::write::GzEncoder<File>>;

/// Every report object of the S3-compatible store, each streamed to a temporary file beside
/// the archive and added from there (a report is not held whole in memory).
fn stored_reports(config: &Config, tar: &mut Tar, archive: &Path) -> Result<usize, String> {
    let store = open_store(config)?;
    let rt = runtime()?;
    let failed = |e: &dyn std::fmt::Display| format!("cannot read the report files from {}: {e}", store.location());
    let keys = rt.block_on(store.list(REPORTS_ENTRY)).map_err(|e| failed(&e))?;
    let copy = archive.with_extension("report.part");
    let mut count = 0;
    for (key, _) in keys {
        // `false`: expired between the listing and the read.
        let written: Result<bool, String> = rt.block_on(async {
            use futures::StreamExt;
            use tokio::io::AsyncWriteExt;
            let Some(mut object) = store.get(&key).await.map_err(|e| failed(&e))? else { return Ok(false) };
            let mut out = tokio::fs::File::create(&copy).await.map_err(|e| failed(&e))?;
            while let Some(chunk) = object.bytes.next().await {
                out.write_all(&chunk.map_err(|e| failed(&e))?).await.map_err(|e| failed(&e))?;
            }
            out.flush().await.map_err(|e| failed(&e))?;
            Ok(true)
        });
        let added = written.and_then(|found| if found { tar.append_path_with_name(&copy, &key).map(|()| 1).map_err(|e| failed(&e)) } else { Ok(0) });
        let _ = std::fs::remove_file(&copy);
        count += added?;
    }
    Ok(count)
}

/// Every finished report file under the data directory's `reports/`.
fn local_reports(tar: &mut Tar, reports: &Path) -> std::io::Result<usize> {
    let mut count = 0;
    if reports.is_dir() {
        for entry in walk(reports)? {
            let rel = entry.strip_prefix(reports).map_err(std::io::Error::other)?;
            // Reports still being written are not reports yet.
            if entry.extension().is_some_and(|x| x == "part") {
                continue;
            }
            tar.append_path_with_name(&entry, Path::new(REPORTS_ENTRY).join(rel))?;
            count += 1;
        }
    }
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
