//! The end of a dispatch day as a spreadsheet (issue 34): money per driver and pay type,
//! the stops not done, and the runs' counts. Money is written as numbers in the AUD
//! currency format, so the sheet adds up in Excel.

use rust_xlsxwriter::{Format, FormatBorder, Workbook, XlsxError};

use db::dispatch::StopRow;
use db::error::AppResult;
use domain::dispatch::ReconLine;
use domain::enums::AreaType;

const AUD: &str = "\"$\"#,##0.00;-\"$\"#,##0.00";

/// A run's counts as the reconciliation lists them.
pub struct RunCount {
    pub run: String,
    pub driver: String,
    pub stops: i64,
    pub done: i64,
    pub not_done: i64,
}

/// What the reconciliation sheet shows.
pub struct Recon<'a> {
    /// "Warehouse · 03/12/2026".
    pub title: String,
    pub lines: &'a [ReconLine],
    /// Stops not done or still open, with their driver.
    pub undelivered: Vec<(&'a str, &'a StopRow)>,
    pub runs: Vec<RunCount>,
}

fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// The workbook's bytes: one sheet "Reconciliation" with three tables.
pub fn reconciliation(r: &Recon<'_>) -> AppResult<Vec<u8>> {
    build(r).map_err(crate::export::write_failed)
}

fn build(r: &Recon<'_>) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let title = Format::new().set_bold().set_font_size(14);
    let header = Format::new().set_bold().set_border_bottom(FormatBorder::Thin);
    let bold = Format::new().set_bold();
    let aud = Format::new().set_num_format(AUD);
    let total = Format::new().set_bold().set_num_format(AUD).set_border_top(FormatBorder::Thin);
    let sheet = book.add_worksheet();
    sheet.set_name("Reconciliation")?;
    for (col, width) in [(0u16, 24.0), (1, 16.0), (2, 14.0), (3, 14.0), (4, 14.0), (5, 30.0)] {
        sheet.set_column_width(col, width)?;
    }
    sheet.write_string_with_format(0, 0, format!("Reconciliation · {}", r.title), &title)?;
    let mut row = 2u32;
    sheet.write_string_with_format(row, 0, "Money per driver and pay type", &bold)?;
    row += 1;
    for (c, h) in ["Driver", "Pay type", "Expected", "Collected", "Difference"].iter().enumerate() {
        sheet.write_string_with_format(row, c as u16, *h, &header)?;
    }
    row += 1;
    let (mut expected, mut collected) = (0i64, 0i64);
    for l in r.lines {
        sheet.write_string(row, 0, &l.driver)?;
        sheet.write_string(row, 1, l.pay_type.label())?;
        sheet.write_number_with_format(row, 2, dollars(l.expected.0), &aud)?;
        sheet.write_number_with_format(row, 3, dollars(l.collected.0), &aud)?;
        sheet.write_number_with_format(row, 4, dollars(l.collected.0.saturating_sub(l.expected.0)), &aud)?;
        expected = expected.saturating_add(l.expected.0);
        collected = collected.saturating_add(l.collected.0);
        row += 1;
    }
    sheet.write_string_with_format(row, 0, "Total", &bold)?;
    sheet.write_number_with_format(row, 2, dollars(expected), &total)?;
    sheet.write_number_with_format(row, 3, dollars(collected), &total)?;
    sheet.write_number_with_format(row, 4, dollars(collected.saturating_sub(expected)), &total)?;
    row += 2;

    sheet.write_string_with_format(row, 0, "Not delivered", &bold)?;
    row += 1;
    for (c, h) in ["Driver", "Sheet", "Customer", "Area", "Status", "Reason"].iter().enumerate() {
        sheet.write_string_with_format(row, c as u16, *h, &header)?;
    }
    row += 1;
    for (driver, s) in &r.undelivered {
        sheet.write_string(row, 0, *driver)?;
        sheet.write_string(row, 1, &s.no)?;
        sheet.write_string(row, 2, s.customer.as_deref().unwrap_or(""))?;
        sheet.write_string(row, 3, s.area_type.and_then(AreaType::from_i32).map_or("", AreaType::label))?;
        sheet.write_string(row, 4, if s.outcome == domain::dispatch::Outcome::NotDone.as_i32() { "Not done" } else { "Not recorded" })?;
        sheet.write_string(row, 5, &s.reason)?;
        row += 1;
    }
    row += 1;
    sheet.write_string_with_format(row, 0, "Runs", &bold)?;
    row += 1;
    for (c, h) in ["Run", "Driver", "Stops", "Done", "Not done", "Not recorded"].iter().enumerate() {
        sheet.write_string_with_format(row, c as u16, *h, &header)?;
    }
    row += 1;
    for run in &r.runs {
        sheet.write_string(row, 0, &run.run)?;
        sheet.write_string(row, 1, &run.driver)?;
        sheet.write_number(row, 2, run.stops as f64)?;
        sheet.write_number(row, 3, run.done as f64)?;
        sheet.write_number(row, 4, run.not_done as f64)?;
        sheet.write_number(row, 5, (run.stops - run.done - run.not_done) as f64)?;
        row += 1;
    }
    book.save_to_buffer()
}
