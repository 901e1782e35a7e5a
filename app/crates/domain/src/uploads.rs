//! Limits on uploaded spreadsheets (DESIGN §12: refused by size, inflated size and row count
//! before they are parsed) and the check of a zip archive's directory against them.

/// Largest accepted file, for every upload route.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// The body limit of an upload route: the file plus room for the multipart framing and the
/// small text fields beside it, so a larger body is stopped while it streams in.
pub const MAX_UPLOAD_BODY_BYTES: usize = MAX_FILE_BYTES + 64 * 1024;
/// The one message for every oversize upload, whichever check stops it.
pub const FILE_TOO_LARGE: &str = "The file is larger than 5 MB. Split it into smaller files.";
/// A request to an upload route that is not a well-formed form upload (no boundary, another
/// content type).
pub const NOT_AN_UPLOAD: &str = "Send the file as a form upload (multipart/form-data); nothing was read.";
/// A file sent under another field name than `file`.
pub const FILE_FIELD: &str = "Send the spreadsheet in the form field named 'file'.";
/// An upload whose parts could not be read (cut off, malformed).
pub const UPLOAD_BROKEN: &str = "The upload could not be read; choose the file and send it again.";
/// A text field beside the file longer than it may be.
pub const FIELD_TOO_LONG: &str = "This value is too long.";

/// Sum of the declared uncompressed sizes of all entries of an xlsx (a zip archive).
pub const MAX_INFLATED_BYTES: u64 = 50 * 1024 * 1024;
/// Entries above this uncompressed size must not be compressed more than `MAX_RATIO`:1.
pub const RATIO_FLOOR_BYTES: u64 = 1024 * 1024;
/// Highest compression ratio of a large entry; spreadsheet XML compresses ~10–30:1.
pub const MAX_RATIO: u64 = 100;
/// Most entries in an archive; a plain xlsx has about a dozen.
pub const MAX_ENTRIES: usize = 1_000;
/// Largest shared-strings part: calamine holds every shared string as its own `String`
/// (~56 bytes for a one-letter string written in ~16), so this part bounds memory ~3.5× its
/// size. 20 MB is 100,000 rows of five distinct 30-character texts.
pub const MAX_SHARED_STRINGS_BYTES: u64 = 20 * 1024 * 1024;
/// Most data rows below the header row.
pub const MAX_ROWS: usize = 100_000;
/// Most columns a sheet may use.
pub const MAX_COLUMNS: usize = 50;

/// What the zip central directory declares about one entry.
#[derive(Clone, Copy, Debug)]
pub struct EntrySize {
    pub compressed: u64,
    pub uncompressed: u64,
    /// Whether this is the workbook's shared-strings part.
    pub shared_strings: bool,
}

/// Checks an archive's declared entries against the limits; the message is the user's.
pub fn check_archive(entries: &[EntrySize]) -> Result<(), String> {
    if entries.len() > MAX_ENTRIES {
        return Err(format!("The file holds more than {MAX_ENTRIES} parts; it is not a plain spreadsheet."));
    }
    let mut total: u64 = 0;
    for e in entries {
        total = total.saturating_add(e.uncompressed);
        // Multiplying the compressed size avoids dividing by a declared size of 0.
        let ratio_too_high = e.uncompressed > RATIO_FLOOR_BYTES && e.uncompressed > e.compressed.saturating_mul(MAX_RATIO);
        if ratio_too_high {
            return Err("The file unpacks to far more data than it holds; it is not a plain spreadsheet.".into());
        }
        if e.shared_strings && e.uncompressed > MAX_SHARED_STRINGS_BYTES {
            return Err(format!("The spreadsheet holds more than {} MB of text. Split it into smaller files.", MAX_SHARED_STRINGS_BYTES / (1024 * 1024)));
        }
    }
    if total > MAX_INFLATED_BYTES {
        return Err(format!("The spreadsheet unpacks to more than {} MB. Split it into smaller files.", MAX_INFLATED_BYTES / (1024 * 1024)));
    }
    Ok(())
}

/// The message for a sheet with too many data rows.
pub fn too_many_rows() -> String {
    format!("The sheet has more than {MAX_ROWS} rows. Split it into smaller files.")
}

/// The message for a sheet with too many columns.
pub fn too_many_columns() -> String {
    format!("The sheet uses more than {MAX_COLUMNS} columns; keep only the columns of the template.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(compressed: u64, uncompressed: u64) -> EntrySize {
        EntrySize { compressed, uncompressed, shared_strings: false }
    }

    #[test]
    fn the_shared_strings_part_is_bounded() {
        let strings = |uncompressed| EntrySize { compressed: uncompressed / 10, uncompressed, shared_strings: true };
        assert!(check_archive(&[strings(MAX_SHARED_STRINGS_BYTES)]).is_ok());
        let err = check_archive(&[strings(MAX_SHARED_STRINGS_BYTES + 1)]).unwrap_err();
        assert!(err.contains("more than 20 MB of text"), "{err}");
        assert!(check_archive(&[e(MAX_SHARED_STRINGS_BYTES, MAX_SHARED_STRINGS_BYTES + 1)]).is_ok(), "only that part");
    }

    #[test]
    fn a_plain_spreadsheet_passes() {
        assert!(check_archive(&[e(1_000, 5_000), e(400_000, 8_000_000), e(200, 200)]).is_ok());
    }

    #[test]
    fn small_entries_may_compress_well() {
        // 1 MB of zeros compresses ~1000:1 and is harmless.
        assert!(check_archive(&[e(1_000, RATIO_FLOOR_BYTES)]).is_ok());
    }

    #[test]
    fn a_large_entry_above_the_ratio_is_refused() {
        let big = 2 * RATIO_FLOOR_BYTES;
        assert!(check_archive(&[e(big.div_ceil(MAX_RATIO), big)]).is_ok());
        assert!(check_archive(&[e(big.div_ceil(MAX_RATIO) - 1, big)]).is_err());
        assert!(check_archive(&[e(0, big)]).is_err());
    }

    #[test]
    fn the_total_inflated_size_is_bounded() {
        let half = MAX_INFLATED_BYTES / 2;
        assert!(check_archive(&[e(half, half), e(half, half)]).is_ok());
        let err = check_archive(&[e(half, half), e(half, half + 1)]).unwrap_err();
        assert!(err.contains("more than 50 MB"), "{err}");
        assert!(check_archive(&[e(u64::MAX, u64::MAX), e(u64::MAX, u64::MAX)]).is_err(), "no overflow");
    }

    #[test]
    fn the_entry_count_is_bounded() {
        assert!(check_archive(&vec![e(10, 10); MAX_ENTRIES]).is_ok());
        assert!(check_archive(&vec![e(10, 10); MAX_ENTRIES + 1]).is_err());
    }
}
