//! Reads the first worksheet of an uploaded xlsx or xls into rows of the asked-for columns,
//! after checking the file against the upload limits (`domain::uploads`).
//!
//! Memory stays bounded whatever the file claims: the zip directory of an xlsx is checked
//! before anything is inflated; the declared sizes hold, as the zip crate fails any read past
//! an entry's declared size (calamine reads through it); and the sheet is streamed cell by
//! cell (calamine's cell reader) instead of built as a dense range, keeping only the columns
//! the import reads. An xls is walked record by record and held to its own limits before
//! calamine parses it (`crate::xls`).

use std::io::Cursor;

use calamine::{Data, DataRef, Reader, Xls, Xlsx};
use zip::ZipArchive;

use db::error::{AppError, AppResult};
use domain::uploads::{self, EntrySize, FILE_TOO_LARGE, MAX_COLUMNS, MAX_ENTRIES, MAX_FILE_BYTES, MAX_ROWS};

/// The start of an OLE compound file, the container of the older .xls format.
const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// The answer to a file that is neither an xlsx nor an xls.
pub const NOT_A_SPREADSHEET: &str = "The file is not an Excel spreadsheet. Upload an Excel Workbook (.xlsx) or Excel 97–2003 Workbook (.xls).";

/// A sheet read into its header names and the asked-for columns of each data row.
pub struct Table {
    pub headers: Vec<String>,
    found: Vec<bool>,
    /// Data rows with their spreadsheet row number; cell `k` is asked-for column `k`
    /// (empty when the header row does not name it).
    pub rows: Vec<(usize, Vec<String>)>,
}

impl Table {
    /// Whether the header row names asked-for column `k`.
    pub fn has(&self, k: usize) -> bool {
        self.found.get(k).copied().unwrap_or(false)
    }
}

fn text_of(d: &DataRef<'_>) -> String {
    match d {
        DataRef::Empty => String::new(),
        DataRef::String(s) => s.trim().to_string(),
        DataRef::SharedString(s) => s.trim().to_string(),
        DataRef::Float(f) => float_text(*f),
        DataRef::Int(i) => i.to_string(),
        DataRef::Bool(b) => b.to_string(),
        other => Data::from(other.clone()).to_string(),
    }
}

/// A cell of an xls as text, as [`text_of`] gives an xlsx cell.
fn text_of_data(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        Data::String(s) => s.trim().to_string(),
        Data::Float(f) => float_text(*f),
        Data::Int(i) => i.to_string(),
        Data::Bool(b) => b.to_string(),
        other => other.to_string(),
    }
}

fn float_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 { format!("{}", f as i64) } else { format!("{f}") }
}

/// Checks the zip directory against the limits before anything is inflated.
fn check_zip(bytes: &[u8]) -> Result<(), String> {
    let unreadable = |e: &dyn std::fmt::Display| format!("The file is not a readable xlsx spreadsheet: {e}");
    let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| unreadable(&e))?;
    let mut sizes = Vec::new();
    // One past the limit is enough to refuse; no need to list the rest.
    for i in 0..zip.len().min(MAX_ENTRIES + 1) {
        let f = zip.by_index_raw(i).map_err(|e| unreadable(&e))?;
        // calamine finds the part through the workbook's relationships; any part so named is
        // held to the limit, wherever it sits.
        let shared_strings = f.name().is_ok_and(|n| n.to_ascii_lowercase().ends_with("sharedstrings.xml"));
        sizes.push(EntrySize { compressed: f.compressed_size(), uncompressed: f.size(), shared_strings });
    }
    uploads::check_archive(&sizes)
}

/// An opened upload: an xlsx read as a stream, or an xls already checked and parsed.
enum Book<'a> {
    Xlsx(Xlsx<Cursor<&'a [u8]>>),
    Xls(Xls<Cursor<Vec<u8>>>),
}

impl Book<'_> {
    fn sheet_names(&self) -> Vec<String> {
        match self {
            Book::Xlsx(b) => b.sheet_names(),
            Book::Xls(b) => b.sheet_names(),
        }
    }
}

/// Checks an upload before anything is inflated or parsed and opens it as a workbook; the
/// kind is told by the file's first bytes, not its name.
fn open_book(bytes: &[u8]) -> Result<Book<'_>, String> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(FILE_TOO_LARGE.into());
    }
    if bytes.starts_with(&CFB_MAGIC) {
        return crate::xls::open(bytes).map(Book::Xls);
    }
    if !bytes.starts_with(b"PK") {
        return Err(NOT_A_SPREADSHEET.into());
    }
    check_zip(bytes)?;
    Xlsx::new(Cursor::new(bytes)).map(Book::Xlsx).map_err(|e| format!("The file is not a readable xlsx spreadsheet: {e}"))
}

/// Reads the first worksheet of an xlsx file. `columns` lists, for each column the import
/// reads, the header names it may have (matched case-insensitively); the first non-empty row
/// is the header row.
pub fn read_first_sheet(bytes: &[u8], columns: &[&[&str]]) -> Result<Table, String> {
    let mut book = open_book(bytes)?;
    let first = book.sheet_names().first().cloned().ok_or_else(|| "The spreadsheet has no worksheet.".to_string())?;
    let mut budget = MAX_ROWS;
    read_worksheet(&mut book, &first, columns, &mut budget)
}

/// Reads the worksheets named in `wanted` (each with the names it may have, matched
/// case-insensitively, and its columns); a worksheet the file does not have is `None`. The
/// row limit counts the rows of every worksheet together.
pub fn read_named_sheets(bytes: &[u8], wanted: &[(&[&str], &[&[&str]])]) -> Result<Vec<Option<Table>>, String> {
    let mut book = open_book(bytes)?;
    let names = book.sheet_names();
    let mut budget = MAX_ROWS;
    let mut out = Vec::with_capacity(wanted.len());
    for (sheet_names, columns) in wanted {
        match names.iter().find(|n| sheet_names.iter().any(|w| n.trim().eq_ignore_ascii_case(w))) {
            Some(name) => out.push(Some(read_worksheet(&mut book, &name.clone(), columns, &mut budget)?)),
            None => out.push(None),
        }
    }
    Ok(out)
}

/// Streams one worksheet into a [`Table`]; `budget` is the number of data rows still allowed.
fn read_worksheet(book: &mut Book<'_>, sheet: &str, columns: &[&[&str]], budget: &mut usize) -> Result<Table, String> {
    let unreadable = |e: &dyn std::fmt::Display| format!("The worksheet '{sheet}' cannot be read: {e}");
    match book {
        Book::Xlsx(book) => {
            let mut cells = book.worksheet_cells_reader(sheet).map_err(|e| unreadable(&e))?;
            let cells = std::iter::from_fn(move || match cells.next_cell() {
                Ok(Some(cell)) => {
                    let (r, c) = cell.get_position();
                    Some(Ok((r, c, text_of(cell.get_value()))))
                }
                Ok(None) => None,
                Err(e) => Some(Err(unreadable(&e))),
            });
            collect_rows(cells, columns, budget)
        }
        Book::Xls(book) => {
            // Already bounded by `xls::open`; the range is the one calamine built.
            let range = book.worksheet_range(sheet).map_err(|e| unreadable(&e))?;
            let (r0, c0) = range.start().unwrap_or((0, 0));
            let cells = range.used_cells().map(|(r, c, d)| Ok((r0 + r as u32, c0 + c as u32, text_of_data(d))));
            collect_rows(cells, columns, budget)
        }
    }
}

/// Gathers a worksheet's cells, in row order, into a [`Table`].
fn collect_rows(cells: impl Iterator<Item = Result<(u32, u32, String), String>>, columns: &[&[&str]], budget: &mut usize) -> Result<Table, String> {
    let mut header_row: Option<u32> = None;
    let mut headers: Vec<String> = Vec::new();
    let mut wanted: Option<Vec<Option<usize>>> = None;
    let mut rows: Vec<(usize, Vec<String>)> = Vec::new();
    let mut current: Option<(u32, Vec<String>)> = None;
    // Rows this worksheet may hold: a row numbered past it is refused before it is read.
    // (`budget` itself shrinks with every row read, so it is not the bound of a row number.)
    let allowed = *budget;
    for cell in cells {
        let (r, c, text) = cell?;
        // Empty (styled) cells cost nothing and are common at a sheet's edges.
        if text.is_empty() {
            continue;
        }
        let c = c as usize;
        if c >= MAX_COLUMNS {
            return Err(uploads::too_many_columns());
        }
        let header = *header_row.get_or_insert(r);
        if r == header {
            if headers.len() <= c {
                headers.resize(c + 1, String::new());
            }
            headers[c] = text;
            continue;
        }
        if r.saturating_sub(header) as usize > allowed {
            return Err(uploads::too_many_rows());
        }
        let map = wanted.get_or_insert_with(|| {
            columns.iter().map(|names| headers.iter().position(|h| names.iter().any(|n| h.eq_ignore_ascii_case(n)))).collect()
        });
        if current.as_ref().is_none_or(|(row, _)| *row != r) {
            if let Some((row, done)) = current.take() {
                push_row(&mut rows, row, done, budget)?;
            }
            current = Some((r, vec![String::new(); columns.len()]));
        }
        if let (Some(k), Some((_, cells))) = (map.iter().position(|m| *m == Some(c)), current.as_mut()) {
            cells[k] = text;
        }
    }
    if let Some((row, done)) = current.take() {
        push_row(&mut rows, row, done, budget)?;
    }
    let found = match wanted {
        Some(map) => map.iter().map(Option::is_some).collect(),
        None => columns.iter().map(|names| headers.iter().any(|h| names.iter().any(|n| h.eq_ignore_ascii_case(n)))).collect(),
    };
    Ok(Table { headers, found, rows })
}

/// Reads an uploaded file on the blocking pool (inflating and parsing is CPU work); a
/// refusal is an error on the field `file`.
pub async fn read_sheet(bytes: Vec<u8>, columns: &'static [&'static [&'static str]]) -> AppResult<Table> {
    tokio::task::spawn_blocking(move || read_first_sheet(&bytes, columns))
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("spreadsheet task failed: {e}")))?
        .map_err(|m| if m == FILE_TOO_LARGE { AppError::TooLarge(m) } else { AppError::field("file", m) })
}

/// Row messages shown at most; a file of 100,000 bad rows must not answer megabytes.
const SHOWN_ERRORS: usize = 50;

/// The refusal of a file with bad rows: the first messages, each also under its own key.
pub fn row_errors(mut errors: Vec<String>) -> AppError {
    let more = errors.len().saturating_sub(SHOWN_ERRORS);
    errors.truncate(SHOWN_ERRORS);
    let mut message = errors.join(" ");
    if more > 0 {
        message.push_str(&format!(" …and {more} more rows with errors."));
    }
    AppError::Validation { message, errors: errors.into_iter().enumerate().map(|(i, e)| (format!("row{i}"), e)).collect() }
}

/// Adds a data row (numbered as the spreadsheet shows it); rows out of order count too, so
/// the row limit also bounds memory.
fn push_row(rows: &mut Vec<(usize, Vec<String>)>, row: u32, cells: Vec<String>, budget: &mut usize) -> Result<(), String> {
    if *budget == 0 {
        return Err(uploads::too_many_rows());
    }
    *budget -= 1;
    rows.push((row as usize + 1, cells));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_xlsxwriter::Workbook;

    fn book(rows: &[&[&str]]) -> Vec<u8> {
        let mut wb = Workbook::new();
        let ws = wb.add_worksheet();
        for (r, cells) in rows.iter().enumerate() {
            for (c, v) in cells.iter().enumerate() {
                if !v.is_empty() {
                    ws.write_string(r as u32, c as u16, *v).unwrap();
                }
            }
        }
        wb.save_to_buffer().unwrap()
    }

    #[test]
    fn keeps_the_asked_columns_by_header_name() {
        let bytes = book(&[&["Price", "Junk", "item code"], &["1.50", "x", "A1"], &["", "y", ""], &["2", "", "B2"]]);
        let t = read_first_sheet(&bytes, &[&["Item Code"], &["Price"], &["Qty"]]).unwrap();
        assert!(t.has(0) && t.has(1) && !t.has(2));
        let rows: Vec<_> = t.rows.iter().map(|(n, c)| (*n, c.clone())).collect();
        assert_eq!(rows[0], (2, vec!["A1".to_string(), "1.50".into(), String::new()]));
        assert_eq!(rows[1].0, 3, "a row with only unread columns is still a row");
        assert_eq!(rows[2], (4, vec!["B2".to_string(), "2".into(), String::new()]));
    }

    #[test]
    fn a_sheet_of_exactly_the_row_limit_is_read_whole() {
        // Regression: the row-number bound was compared with the shrinking budget, so any
        // sheet past half the limit was refused.
        let mut wb = Workbook::new();
        let ws = wb.add_worksheet();
        ws.write_string(0, 0, "Item Code").unwrap();
        for r in 1..=MAX_ROWS as u32 {
            ws.write_number(r, 0, f64::from(r)).unwrap();
        }
        let bytes = wb.save_to_buffer().unwrap();
        let table = read_first_sheet(&bytes, &[&["Item Code"]]).unwrap();
        assert_eq!(table.rows.len(), MAX_ROWS);
        assert_eq!(table.rows.last().unwrap().1[0], MAX_ROWS.to_string());
        ws_over_limit();
    }

    fn ws_over_limit() {
        let mut wb = Workbook::new();
        let ws = wb.add_worksheet();
        ws.write_string(0, 0, "Item Code").unwrap();
        for r in 1..=MAX_ROWS as u32 + 1 {
            ws.write_number(r, 0, f64::from(r)).unwrap();
        }
        let bytes = wb.save_to_buffer().unwrap();
        assert_eq!(read_first_sheet(&bytes, &[&["Item Code"]]).err(), Some(uploads::too_many_rows()), "one row more is refused");
    }

    #[test]
    fn reads_worksheets_by_name_and_counts_rows_over_all_of_them() {
        let mut wb = Workbook::new();
        for (name, rows) in [("Brands", vec![vec!["Name"], vec!["Zetum"]]), ("suppliers ", vec![vec!["Code", "Name"], vec!["S1", "One"], vec!["S2", "Two"]])] {
            let ws = wb.add_worksheet().set_name(name).unwrap();
            for (r, cells) in rows.iter().enumerate() {
                for (c, v) in cells.iter().enumerate() {
                    ws.write_string(r as u32, c as u16, *v).unwrap();
                }
            }
        }
        let bytes = wb.save_to_buffer().unwrap();
        let code: &[&str] = &["Code"];
        let name: &[&str] = &["Name"];
        let t = read_named_sheets(&bytes, &[(&["Suppliers"], &[code, name]), (&["Products"], &[code]), (&["Brands"], &[name])]).unwrap();
        assert_eq!(t[0].as_ref().unwrap().rows.len(), 2);
        assert!(t[1].is_none(), "a missing worksheet is None");
        assert_eq!(t[2].as_ref().unwrap().rows[0].1, vec!["Zetum".to_string()]);
    }

    #[test]
    fn refuses_a_broken_xls_and_non_spreadsheets() {
        let mut xls = CFB_MAGIC.to_vec();
        xls.extend([0u8; 512]);
        assert_eq!(read_first_sheet(&xls, &[]).err().as_deref(), Some(crate::xls::UNREADABLE));
        assert_eq!(read_first_sheet(b"hello", &[]).err().as_deref(), Some(NOT_A_SPREADSHEET));
    }

    #[test]
    fn refuses_a_column_past_the_limit() {
        let mut wide = vec!["h"; MAX_COLUMNS + 1];
        wide[0] = "Item Code";
        let err = read_first_sheet(&book(&[&wide]), &[&["Item Code"]]).err().unwrap();
        assert!(err.contains("more than 50 columns"), "{err}");
    }
}
