//! What the server writes is for its own user only: data files 0600, folders 0700
//! (docs/decisions/operations.md, "The data directory and its files"). The database, its journal, report files,
//! exports, uploads and backups hold every company's books and customers.

use std::path::Path;

/// Makes every file and folder this process creates from now on private to its user
/// (umask 077), whoever creates it: SQLite's database, journal and shared-memory files, the
/// report worker, exports, backups. Called first thing by the command line.
pub fn private_from_now_on() {
    #[cfg(unix)]
    // SAFETY: umask only sets the process's file-mode creation mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
}

/// Tightens what an earlier version left readable in the data directory: folders to 0700 and
/// files to 0600, the directory itself included. Symbolic links are left alone (they may
/// point outside). Answers how many entries were changed; a failure is logged, not fatal.
pub fn tighten(dir: &Path) -> usize {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut changed = 0;
        let mut stack = vec![dir.to_path_buf()];
        while let Some(path) = stack.pop() {
            let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
            let want = if meta.is_dir() {
                0o700
            } else if meta.is_file() {
                0o600
            } else {
                continue;
            };
            if meta.permissions().mode() & 0o777 != want {
                match std::fs::set_permissions(&path, std::fs::Permissions::from_mode(want)) {
                    Ok(()) => changed += 1,
                    Err(e) => tracing::warn!("cannot make {} private: {e}", path.display()),
                }
            }
            if meta.is_dir()
                && let Ok(entries) = std::fs::read_dir(&path)
            {
                stack.extend(entries.filter_map(Result::ok).map(|e| e.path()));
            }
        }
        changed
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        0
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &std::path::Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn tightening_makes_folders_0700_and_files_0600_below_the_data_directory() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir_all(data.join("reports/4")).unwrap();
        for f in ["tyredesk.sqlite3", "tyredesk.sqlite3-wal", "reports/4/1-sales.xlsx"] {
            std::fs::write(data.join(f), b"x").unwrap();
            std::fs::set_permissions(data.join(f), std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        for d in ["", "reports", "reports/4"] {
            std::fs::set_permissions(data.join(d), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        assert_eq!(super::tighten(&data), 6);
        for f in ["tyredesk.sqlite3", "tyredesk.sqlite3-wal", "reports/4/1-sales.xlsx"] {
            assert_eq!(mode(&data.join(f)), 0o600, "{f}");
        }
        for d in ["", "reports", "reports/4"] {
            assert_eq!(mode(&data.join(d)), 0o700, "{d}");
        }
        assert_eq!(super::tighten(&data), 0, "nothing left to change");
    }
}
