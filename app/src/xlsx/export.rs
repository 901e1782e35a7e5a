//! Writes list exports as formatted xlsx: a bold frozen header row, sensible widths, money
//! as AUD with cents, dates as real dates. Rows stream to disk (constant memory), so
//! 20k-row exports stay small in RAM.

use chrono::NaiveDate;
use rust_xlsxwriter::{Color, Format, FormatBorder, Workbook, XlsxError};

/// How a column's cells are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// Integer cents written as dollars with 2 decimals.
    Money,
    Int,
    Date,
}

/// A column: header, width in characters, kind.
#[derive(Clone, Copy, Debug)]
pub struct Col {
    pub header: &'static str,
    pub width: f64,
    pub kind: Kind,
}

impl Col {
    pub const fn new(header: &'static str, width: f64, kind: Kind) -> Self {
        Self { header, width, kind }
    }
}

/// One cell value.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Text(String),
    Cents(i64),
    Int(i64),
    Date(Option<NaiveDate>),
}

/// Excel's limit for the text of one cell, in characters.
pub const CELL_MAX: usize = 32_767;
/// Ends a cell whose text was cut at [`CELL_MAX`], so the reader sees it is not whole.
pub const TRUNCATED: &str = "… [truncated]";

/// The text as it fits one cell: whole, or cut with [`TRUNCATED`] at the end. One oversized
/// cell must not fail a whole company's export.
pub fn fit_cell(s: String) -> String {
    if s.chars().nth(CELL_MAX).is_none() {
        return s;
    }
    let keep = CELL_MAX - TRUNCATED.chars().count();
    let mut cut: String = s.chars().take(keep).collect();
    cut.push_str(TRUNCATED);
    cut
}

/// Builds the workbook in memory and returns its bytes.
pub fn write(sheet_name: &str, cols: &[Col], rows: impl IntoIterator<Item = Vec<Val>>) -> Result<Vec<u8>, XlsxError> {
    let mut wb = Workbook::new();
    let header = Format::new().set_bold().set_background_color(Color::RGB(0xE8EEF6)).set_border_bottom(FormatBorder::Thin);
    let money = Format::new().set_num_format("#,##0.00");
    let date = Format::new().set_num_format("dd mmm yyyy");
    let ws = wb.add_worksheet_with_constant_memory()?;
    ws.set_name(sheet_name)?;
    for (c, col) in cols.iter().enumerate() {
        let c = c as u16;
        ws.set_column_width(c, col.width)?;
        ws.write_string_with_format(0, c, col.header, &header)?;
    }
    ws.set_freeze_panes(1, 0)?;
    let mut r: u32 = 0;
    for row in rows {
        r += 1;
        for (c, v) in row.into_iter().enumerate() {
            let c = c as u16;
            match v {
                Val::Text(s) if s.is_empty() => {}
                Val::Text(s) => {
                    ws.write_string(r, c, fit_cell(s))?;
                }
                Val::Cents(cents) => {
                    ws.write_number_with_format(r, c, cents as f64 / 100.0, &money)?;
                }
                Val::Int(n) => {
                    ws.write_number(r, c, n as f64)?;
                }
                Val::Date(Some(d)) => {
                    ws.write_datetime_with_format(r, c, d, &date)?;
                }
                Val::Date(None) => {}
            }
        }
    }
    if r > 0 {
        ws.autofilter(0, 0, r, cols.len().saturating_sub(1) as u16)?;
    }
    wb.save_to_buffer()
}

/// The response headers of a download named `file_name`.
pub fn download(file_name: &str, bytes: Vec<u8>) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse;
    (
        [
            (header::CONTENT_TYPE, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{file_name}\"")),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::{Data, Reader, Xlsx};
    use std::io::Cursor;

    #[test]
    fn writes_headers_money_and_dates() {
        let cols = [Col::new("Code", 12.0, Kind::Text), Col::new("Price", 10.0, Kind::Money), Col::new("Qty", 6.0, Kind::Int), Col::new("Date", 12.0, Kind::Date)];
        let d = NaiveDate::from_ymd_opt(2026, 3, 5).unwrap();
        let rows = vec![vec![Val::Text("A1".into()), Val::Cents(123_456), Val::Int(7), Val::Date(Some(d))]];
        let bytes = write("Products", &cols, rows).unwrap();
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).unwrap();
        let range = book.worksheet_range("Products").unwrap();
        assert_eq!(range.get((0, 0)), Some(&Data::String("Code".into())));
        assert_eq!(range.get((1, 1)), Some(&Data::Float(1234.56)));
        assert_eq!(range.get((1, 2)), Some(&Data::Float(7.0)));
        match range.get((1, 3)) {
            Some(Data::DateTime(dt)) => assert_eq!(dt.as_datetime().unwrap().date(), d),
            other => panic!("date cell is {other:?}"),
        }
    }

    #[test]
    fn a_cell_beyond_excels_limit_is_cut_with_a_marker_not_an_error() {
        let long = "x".repeat(1_000_000);
        let bytes = write("T", &[Col::new("Name", 20.0, Kind::Text)], [vec![Val::Text(long)], vec![Val::Text("short".into())]]).expect("export never fails on one cell");
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).unwrap();
        let range = book.worksheet_range("T").unwrap();
        let cut = range.get((1, 0)).unwrap().to_string();
        assert_eq!(cut.chars().count(), CELL_MAX);
        assert!(cut.ends_with(TRUNCATED));
        assert_eq!(range.get((2, 0)), Some(&Data::String("short".into())));
        assert_eq!(fit_cell("é".repeat(CELL_MAX)), "é".repeat(CELL_MAX), "exactly the limit stays whole");
    }
}
