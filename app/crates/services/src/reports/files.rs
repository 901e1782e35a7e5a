//! Where report files live: `reports/<company id>/` in the file store (`crate::store`),
//! written under a temporary name in the data directory's `tmp/` and stored when complete,
//! so a half-written file is never listed or downloaded.

use std::path::{Path, PathBuf};
use std::time::Duration;

use domain::reports::Kind;

/// How long finished reports are kept (docs/decisions/reports.md).
pub const RETENTION: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// A temporary file older than this was left by a crash (a report takes seconds).
pub const LEFTOVER_AGE: Duration = Duration::from_secs(60 * 60);

/// The key of one company's report file in the file store.
pub fn key(org: i64, file_name: &str) -> String {
    format!("reports/{org}/{file_name}")
}

/// The stored name of a job's file, unique by the job's id:
/// `invoiceDetails-2026-01-01~2026-12-31-17.xlsx`.
pub fn file_name(id: i64, kind: Kind, range_label: &str) -> String {
    format!("{}-{}-{id}.xlsx", kind.code(), range_label)
}

/// The temporary name a file is written under before it is complete.
pub fn part_name(file_name: &str) -> String {
    format!(".{file_name}.part")
}

/// Where a report is written before it is stored: the data directory's `tmp/`.
pub fn part_path(data_dir: &Path, file_name: &str) -> PathBuf {
    xlsx::export::temp_dir(data_dir).join(part_name(file_name))
}

/// Whether `name` could be one of our file names: letters, digits, `-`, `~`, `_`, one
/// `.xlsx` at the end, nothing that leaves the folder.
pub fn valid_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".xlsx").or_else(|| name.strip_suffix(".pdf")) else { return false };
    !stem.is_empty() && name.len() <= 120 && stem.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '~' | '_'))
}

/// Removes temporary report files older than `max_age` from the data directory's `tmp/`:
/// what a crash left half-written.
pub fn sweep_parts(data_dir: &Path, max_age: Duration) {
    let Ok(entries) = std::fs::read_dir(xlsx::export::temp_dir(data_dir)) else { return };
    for entry in entries.flatten() {
        let part = entry.file_name().to_str().is_some_and(|n| n.starts_with('.') && n.ends_with(".part"));
        let old = entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t.elapsed().is_ok_and(|age| age >= max_age));
        if part && old {
            crate::store::remove_local(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_never_leave_the_company_folder() {
        let name = file_name(17, Kind::InvoiceDetails, "2026-01-01~2026-12-31");
        assert_eq!(name, "invoiceDetails-2026-01-01~2026-12-31-17.xlsx");
        assert!(valid_name(&name));
        assert!(valid_name("statements-2026-10-17.pdf"), "the statements job's PDF");
        for bad in ["../1/x.xlsx", "..xlsx", ".xlsx", "a/b.xlsx", "a\\b.xlsx", "x.xlsx.part", "x.csv", "%2e%2e.xlsx", ""] {
            assert!(!valid_name(bad), "{bad}");
        }
        assert!(!valid_name(&part_name(&name)), "a half-written file is never downloadable");
    }

    #[test]
    fn the_sweep_removes_only_old_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let part = part_path(dir.path(), "a-1.xlsx");
        std::fs::create_dir_all(part.parent().unwrap()).unwrap();
        let other = part.with_file_name("export-1.xlsx");
        std::fs::write(&part, b"x").unwrap();
        std::fs::write(&other, b"x").unwrap();
        sweep_parts(dir.path(), Duration::from_secs(3600));
        assert!(part.exists(), "a report may be writing it");
        sweep_parts(dir.path(), Duration::ZERO);
        assert!(!part.exists() && other.exists(), "an export's file is the export sweep's");
    }
}
