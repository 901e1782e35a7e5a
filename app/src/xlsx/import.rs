//! Reads spreadsheets (xls and xlsx, with calamine) into typed rows with row-numbered errors.

use std::io::Cursor;

use calamine::{Data, Reader, open_workbook_auto_from_rs};

/// A sheet read into header names and string cells (row 1 is the header).
pub struct Table {
    pub headers: Vec<String>,
    /// Data rows with their spreadsheet row number (2 = first data row).
    pub rows: Vec<(usize, Vec<String>)>,
}

impl Table {
    /// The column of the first header matching one of `names` (case-insensitive).
    pub fn column(&self, names: &[&str]) -> Option<usize> {
        self.headers.iter().position(|h| names.iter().any(|n| h.trim().eq_ignore_ascii_case(n)))
    }
}

fn cell_text(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        Data::String(s) => s.trim().to_string(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Data::Float(f) => format!("{f}"),
        Data::Int(i) => i.to_string(),
        Data::Bool(b) => b.to_string(),
        other => other.to_string(),
    }
}

/// Reads the first worksheet of an xls or xlsx file.
pub fn read_first_sheet(bytes: Vec<u8>) -> Result<Table, String> {
    let mut book = open_workbook_auto_from_rs(Cursor::new(bytes)).map_err(|e| format!("The file is not a readable xls/xlsx spreadsheet: {e}"))?;
    let range = book
        .worksheet_range_at(0)
        .ok_or_else(|| "The spreadsheet has no worksheet.".to_string())?
        .map_err(|e| format!("The first worksheet cannot be read: {e}"))?;
    let mut rows = range.rows();
    let headers: Vec<String> = rows.next().map(|r| r.iter().map(cell_text).collect()).unwrap_or_default();
    let start = range.start().map(|(r, _)| r as usize).unwrap_or(0);
    let rows = rows
        .enumerate()
        .map(|(i, r)| (start + i + 2, r.iter().map(cell_text).collect::<Vec<_>>()))
        .filter(|(_, cells)| cells.iter().any(|c| !c.is_empty()))
        .collect();
    Ok(Table { headers, rows })
}
