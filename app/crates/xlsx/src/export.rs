//! Writes exports as formatted xlsx: a bold frozen header row, sensible widths, money as AUD
//! with cents, dates as real dates. Rows stream from the database in chunks to a file on
//! disk (constant memory), and the file is then sent (`http::download`), so memory stays flat for any
//! size (docs/decisions/imports.md, "Exports").

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::NaiveDate;
use rust_xlsxwriter::{Color, Format, FormatBorder, Workbook, XlsxError};

use db::{self, Db, DbConn};
use db::error::{AppError, AppResult};

/// How a column's cells are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// Integer cents written as dollars with 2 decimals.
    Money,
    Int,
    Date,
    /// Integer cents written as dollars in the AUD currency format (reports).
    Aud,
    /// Hundredths of a percent written as a percentage with 2 decimals (reports' margin %).
    Percent,
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
    /// Hundredths of a percent; `None` leaves the cell empty (no sales to measure against).
    Basis(Option<i64>),
}

/// Excel's limit for the text of one cell, in characters.
pub const CELL_MAX: usize = 32_767;
/// Ends a cell whose text was cut at [`CELL_MAX`], so the reader sees it is not whole.
pub const TRUNCATED: &str = "… [truncated]";

/// The text as it fits one cell: whole, or cut with [`TRUNCATED`] at the end. One oversized
/// cell must not fail a whole company's export.
pub fn fit_cell(s: String) -> String {
    if s.len() <= CELL_MAX || s.chars().nth(CELL_MAX).is_none() {
        return s;
    }
    let keep = CELL_MAX - TRUNCATED.chars().count();
    let mut cut: String = s.chars().take(keep).collect();
    cut.push_str(TRUNCATED);
    cut
}

/// What one export writes: the worksheet's name and its columns.
#[derive(Clone, Copy, Debug)]
pub struct Sheet {
    pub name: &'static str,
    pub cols: &'static [Col],
}

/// Excel's last row, counted from 0 (a worksheet holds 1,048,576 rows).
const LAST_ROW: u32 = 1_048_575;

/// Worksheets of one layout at most: a worksheet that is full continues on "Name (2)" and so
/// on (a year's sales detail at scale XL has about 1.05M lines); beyond this many the export
/// is refused, so a mistaken export of everything cannot fill the disk.
const MAX_PARTS: u32 = 8;

/// Rows one export may append in all: [`MAX_PARTS`] worksheets without title lines.
const MAX_DATA_ROWS: u64 = MAX_PARTS as u64 * (LAST_ROW as u64 - 1);

/// A worksheet of a report: its name, its columns (some shown only to some users, so not
/// `'static`), and the title lines above the header naming the report, company and filters.
#[derive(Clone, Debug)]
pub struct Layout {
    pub name: String,
    pub cols: Vec<Col>,
    pub title: Vec<String>,
}

impl From<Sheet> for Layout {
    fn from(s: Sheet) -> Self {
        Self { name: s.name.to_string(), cols: s.cols.to_vec(), title: vec![] }
    }
}

/// The cell formats of a workbook, made once.
struct Formats {
    header: Format,
    money: Format,
    aud: Format,
    date: Format,
    percent: Format,
    title: Format,
    bold: Format,
    total_aud: Format,
    total_percent: Format,
}

const AUD: &str = "\"$\"#,##0.00;-\"$\"#,##0.00";

impl Formats {
    fn new() -> Self {
        Self {
            header: Format::new().set_bold().set_background_color(Color::RGB(0xE8EEF6)).set_border_bottom(FormatBorder::Thin),
            money: Format::new().set_num_format("#,##0.00"),
            aud: Format::new().set_num_format(AUD),
            date: Format::new().set_num_format("dd mmm yyyy"),
            percent: Format::new().set_num_format("0.00%"),
            title: Format::new().set_bold().set_font_size(14),
            bold: Format::new().set_bold(),
            total_aud: Format::new().set_bold().set_num_format(AUD).set_border_top(FormatBorder::Thin),
            total_percent: Format::new().set_bold().set_num_format("0.00%").set_border_top(FormatBorder::Thin),
        }
    }
}

/// The workbook, owned by its writing thread: cells are written there while the database
/// thread reads and maps the next chunk, so the two halves of an export overlap.
struct Book {
    book: Workbook,
    formats: Formats,
    /// The worksheet being written, its column count and header row.
    sheet: Option<usize>,
    cols: usize,
    header: u32,
    /// The last row written.
    row: u32,
    /// The last row of data (the filter buttons cover the header to it; a total is below).
    last_data: u32,
    /// The layout being written and which worksheet of it (1, 2, …).
    layout: Option<Layout>,
    part: u32,
    /// The last row a worksheet may use ([`LAST_ROW`]; smaller in tests).
    last_row: u32,
}

impl Book {
    fn new(book: Workbook) -> Self {
        Self { book, formats: Formats::new(), sheet: None, cols: 0, header: 0, row: 0, last_data: 0, layout: None, part: 0, last_row: LAST_ROW }
    }

    /// Starts a worksheet of `layout`.
    fn begin(&mut self, layout: Layout) -> Result<(), XlsxError> {
        self.part = 1;
        self.start(&layout, &layout.name)?;
        self.layout = Some(layout);
        Ok(())
    }

    /// Continues the layout on a new worksheet, "Name (2)", with the same title lines and
    /// header, once the current one has no row left for data and a total below it.
    fn next_part(&mut self) -> Result<(), XlsxError> {
        let layout = self.layout.take().ok_or_else(|| XlsxError::ParameterError("rows before a worksheet".into()))?;
        self.part += 1;
        let name = part_name(&layout.name, self.part);
        self.start(&layout, &name)?;
        self.layout = Some(layout);
        Ok(())
    }

    /// Starts a worksheet: title lines, a blank row, the bold frozen header. The worksheet
    /// before it gets its filter buttons.
    fn start(&mut self, layout: &Layout, name: &str) -> Result<(), XlsxError> {
        self.close_sheet()?;
        let index = self.sheet.map_or(0, |i| i + 1);
        let ws = self.book.add_worksheet_with_constant_memory()?;
        ws.set_name(name)?;
        let mut row = 0;
        for (i, line) in layout.title.iter().enumerate() {
            let f = if i == 0 { &self.formats.title } else { &self.formats.bold };
            ws.write_string_with_format(row, 0, fit_cell(line.clone()), f)?;
            row += 1;
        }
        if row > 0 {
            row += 1;
        }
        for (c, col) in layout.cols.iter().enumerate() {
            let c = c as u16;
            ws.set_column_width(c, col.width)?;
            match col.kind {
                Kind::Money => _ = ws.set_column_format(c, &self.formats.money)?,
                Kind::Aud => _ = ws.set_column_format(c, &self.formats.aud)?,
                Kind::Date => _ = ws.set_column_format(c, &self.formats.date)?,
                Kind::Percent => _ = ws.set_column_format(c, &self.formats.percent)?,
                Kind::Text | Kind::Int => {}
            }
            ws.write_string_with_format(row, c, col.header, &self.formats.header)?;
        }
        ws.set_freeze_panes(row + 1, 0)?;
        self.sheet = Some(index);
        self.cols = layout.cols.len();
        self.header = row;
        self.row = row;
        self.last_data = row;
        Ok(())
    }

    /// Gives the finished worksheet its filter buttons over the header and the data.
    fn close_sheet(&mut self) -> Result<(), XlsxError> {
        let Some(i) = self.sheet else { return Ok(()) };
        let (header, last, cols) = (self.header, self.last_data, self.cols);
        let ws = self.book.worksheet_from_index(i)?;
        if last > header {
            ws.autofilter(header, 0, last, cols.saturating_sub(1) as u16)?;
        }
        Ok(())
    }

    fn write(&mut self, rows: Vec<Vec<Val>>) -> Result<(), XlsxError> {
        let mut ws = self.book.worksheet_from_index(self.sheet.unwrap_or(0))?;
        for row in rows {
            // Leave the last row for a total.
            if self.row + 1 >= self.last_row {
                self.last_data = self.row;
                self.next_part()?;
                ws = self.book.worksheet_from_index(self.sheet.unwrap_or(0))?;
            }
            self.row += 1;
            let r = self.row;
            for (c, v) in row.into_iter().enumerate() {
                let c = c as u16;
                match v {
                    Val::Text(s) if s.is_empty() => {}
                    Val::Text(s) => {
                        ws.write_string(r, c, fit_cell(s))?;
                    }
                    // Money and date cells take their column's format (set once in `begin`):
                    // a format passed per cell is hashed whole to find its index, a tenth of
                    // the time of a large export.
                    Val::Cents(cents) => {
                        ws.write_number(r, c, cents as f64 / 100.0)?;
                    }
                    Val::Int(n) => {
                        ws.write_number(r, c, n as f64)?;
                    }
                    Val::Date(Some(d)) => {
                        ws.write_datetime(r, c, d)?;
                    }
                    Val::Basis(Some(bp)) => {
                        ws.write_number(r, c, bp as f64 / 10_000.0)?;
                    }
                    Val::Date(None) | Val::Basis(None) => {}
                }
            }
        }
        self.last_data = self.row;
        Ok(())
    }

    /// A bold totals row below the data.
    fn total(&mut self, row: Vec<Val>) -> Result<(), XlsxError> {
        let ws = self.book.worksheet_from_index(self.sheet.unwrap_or(0))?;
        self.row += 1;
        let r = self.row;
        let f = &self.formats;
        for (c, v) in row.into_iter().enumerate() {
            let c = c as u16;
            match v {
                Val::Text(s) => _ = ws.write_string_with_format(r, c, fit_cell(s), &f.bold)?,
                Val::Cents(cents) => _ = ws.write_number_with_format(r, c, cents as f64 / 100.0, &f.total_aud)?,
                Val::Int(n) => _ = ws.write_number_with_format(r, c, n as f64, &f.bold)?,
                Val::Basis(Some(bp)) => _ = ws.write_number_with_format(r, c, bp as f64 / 10_000.0, &f.total_percent)?,
                Val::Date(_) | Val::Basis(None) => {}
            }
        }
        Ok(())
    }

    /// Adds the last worksheet's filter buttons and writes the finished file at `path`.
    fn save(mut self, path: &Path) -> Result<(), XlsxError> {
        self.close_sheet()?;
        self.book.save(path)
    }
}

/// The name of a layout's `part`th worksheet, "Name (2)": the name is shortened so the whole
/// stays within Excel's 31 characters for a worksheet's name.
fn part_name(name: &str, part: u32) -> String {
    let suffix = format!(" ({part})");
    let keep = 31usize.saturating_sub(suffix.chars().count());
    format!("{}{suffix}", name.chars().take(keep).collect::<String>())
}

/// What the database thread sends the writing thread.
enum Message {
    Begin(Layout),
    Rows(Vec<Vec<Val>>),
    Total(Vec<Val>),
    Save(PathBuf),
}

/// Chunks on their way to the writing thread at most: memory stays bounded when the
/// database reads faster than the cells are written.
const CHUNKS_IN_FLIGHT: usize = 2;

/// Zip level of exports: level 1 deflates several times faster than the default 6, for
/// files about half as large again; an export is written once and downloaded once.
const ZIP_LEVEL: u8 = 1;

/// Writes worksheets row by row. Rows go to a thread that owns the workbook, and from it
/// straight to a temporary file (rust_xlsxwriter's constant-memory mode), so memory stays
/// flat however many rows come.
pub struct SheetWriter {
    to_book: Option<std::sync::mpsc::SyncSender<Message>>,
    book: Option<std::thread::JoinHandle<Result<(), XlsxError>>>,
    rows: u64,
    cancelled: Arc<AtomicBool>,
}

impl SheetWriter {
    /// A workbook with the sheet's header written; its row data is buffered in `tempdir`.
    pub fn new(sheet: Sheet, tempdir: &Path) -> Result<Self, XlsxError> {
        let w = Self::empty(tempdir)?;
        if let Some(tx) = &w.to_book {
            // A failure stops the writing thread; the next append or save reports it.
            let _ = tx.send(Message::Begin(sheet.into()));
        }
        Ok(w)
    }

    /// A workbook without a worksheet yet: [`SheetWriter::begin`] adds each (reports).
    pub fn empty(tempdir: &Path) -> Result<Self, XlsxError> {
        let mut workbook = Workbook::new();
        workbook.set_tempdir(tempdir)?;
        workbook.set_zip_compression_level(ZIP_LEVEL);
        let book = Book::new(workbook);
        Self::with_book(book)
    }

    fn with_book(mut book: Book) -> Result<Self, XlsxError> {
        let (to_book, inbox) = std::sync::mpsc::sync_channel::<Message>(CHUNKS_IN_FLIGHT);
        let worker = std::thread::Builder::new()
            .name("xlsx-export".into())
            .spawn(move || {
                for message in inbox {
                    match message {
                        Message::Begin(layout) => book.begin(layout)?,
                        Message::Rows(rows) => book.write(rows)?,
                        Message::Total(row) => book.total(row)?,
                        Message::Save(path) => return book.save(&path),
                    }
                }
                Ok(()) // the export was dropped before it was saved
            })
            .map_err(XlsxError::IoError)?;
        Ok(Self { to_book: Some(to_book), book: Some(worker), rows: 0, cancelled: Arc::default() })
    }

    /// Starts the next worksheet; rows appended from now on go to it.
    pub fn begin(&mut self, layout: Layout) -> AppResult<()> {
        self.rows = 0;
        self.send(Message::Begin(layout))
    }

    /// Writes a bold totals row below the rows of the current worksheet.
    pub fn total(&mut self, row: Vec<Val>) -> AppResult<()> {
        self.send(Message::Total(row))
    }

    /// Stops the writer at its next chunk once `flag` is raised (a cancelled report).
    pub fn watch_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancelled = flag;
    }

    /// Appends rows below those written. Fails once the client has gone, so the row source
    /// stops reading the database.
    pub fn append(&mut self, rows: impl IntoIterator<Item = Vec<Val>>) -> AppResult<()> {
        if self.cancelled.load(Ordering::Relaxed) {
            return Err(AppError::Timeout("The download was abandoned; the export stopped.".into()));
        }
        let mut chunk = Vec::new();
        for row in rows {
            if self.rows == MAX_DATA_ROWS {
                return Err(AppError::bad_request(format!(
                    "The export has more than {} rows, {MAX_PARTS} full worksheets: narrow the search and export in parts.",
                    domain::money::thousands(MAX_DATA_ROWS)
                )));
            }
            self.rows += 1;
            chunk.push(row);
        }
        self.send(Message::Rows(chunk))
    }

    fn send(&mut self, message: Message) -> AppResult<()> {
        match self.to_book.as_ref().map(|tx| tx.send(message)) {
            Some(Ok(())) => Ok(()),
            // The writing thread stopped: its error says why.
            _ => Err(self.finish().err().unwrap_or_else(|| write_failed(XlsxError::ParameterError("the export's writer stopped".into())))),
        }
    }

    /// Waits for the writing thread and answers how it ended.
    fn finish(&mut self) -> AppResult<()> {
        self.to_book = None;
        match self.book.take().map(std::thread::JoinHandle::join) {
            Some(Ok(result)) => result.map_err(write_failed),
            Some(Err(_)) => Err(write_failed(XlsxError::ParameterError("the export's writer panicked".into()))),
            None => Ok(()),
        }
    }

    /// Adds the header's filter buttons and writes the finished file at `path`.
    pub fn save(mut self, path: &Path) -> AppResult<()> {
        self.send(Message::Save(path.to_path_buf()))?;
        self.finish()
    }
}

/// A failed write, in words that say what to do; the detail goes to the log.
pub fn write_failed(e: XlsxError) -> AppError {
    tracing::error!(error = %e, "writing an export failed");
    AppError::Storage(format!(
        "The export could not be written on the server ({e}). Nothing was downloaded; try again later or ask an administrator to check the free space of the data folder."
    ))
}

/// Where exports are written before they are sent: `tmp/` in the data folder, not the
/// system's temp folder, which may be a RAM disk (tmpfs).
pub fn temp_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("tmp")
}

/// The name prefix of export files, so the sweep removes only ours.
const FILE_PREFIX: &str = "export-";

/// Export files older than this are left over from a crash (a download is over long before).
pub const LEFTOVER_AGE: Duration = Duration::from_secs(60 * 60);

/// Removes export files older than `max_age` from `dir`: what a crash left behind. A file
/// still being sent is open, and removing it does not cut its download short on Unix.
pub fn sweep(dir: &Path, max_age: Duration) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let ours = entry.file_name().to_str().is_some_and(|n| n.starts_with(FILE_PREFIX));
        let old = entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t.elapsed().is_ok_and(|age| age >= max_age));
        if ours && old && let Err(e) = std::fs::remove_file(entry.path()) {
            tracing::warn!(error = %e, file = %entry.path().display(), "cannot remove a leftover export");
        }
    }
}

/// An export file on disk, removed when dropped: after its download, when the client went
/// away mid-way, or when writing it failed.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_file(&self.0)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(error = %e, file = %self.0.display(), "cannot remove an export file");
        }
    }
}

/// Sets the writer's cancel flag when the request is dropped before the file is written
/// (client gone, request timeout), so the export stops and frees its connection.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The one way every export is written: `rows(conn, writer)` appends the rows, chunk by
/// chunk, on the blocking pool with one database connection inside one read snapshot; the
/// workbook is written to a temporary file under `data_dir`, which [`Written`] removes when
/// dropped (after its download). Memory stays flat whatever the size; a failed write is an
/// error, never a partial file. A caller that goes away (the request's future is dropped)
/// stops the writer between chunks.
pub async fn write<F>(db: &Db, data_dir: &Path, sheet: Sheet, rows: F) -> AppResult<Written>
where
    F: FnOnce(&mut DbConn, &mut SheetWriter) -> AppResult<()> + Send + 'static,
{
    let dir = temp_dir(data_dir);
    let path = dir.join(format!("{FILE_PREFIX}{:016x}.xlsx", rand::random::<u64>()));
    let cancel = CancelOnDrop(Arc::default());
    let cancelled = cancel.0.clone();
    let temp = db
        .run_large(move |conn| {
            std::fs::create_dir_all(&dir).map_err(|e| write_failed(XlsxError::IoError(e)))?;
            sweep(&dir, LEFTOVER_AGE);
            let temp = TempFile(path);
            let mut writer = SheetWriter::new(sheet, &dir).map_err(write_failed)?;
            writer.cancelled = cancelled;
            db::read_snapshot(conn, |c| rows(c, &mut writer))?;
            writer.save(&temp.0)?;
            Ok(temp)
        })
        .await?;
    drop(cancel);
    Ok(Written(temp))
}

/// A written export file, removed when this is dropped.
pub struct Written(TempFile);

impl Written {
    /// Where the file is (in the data directory's `tmp/`): a job's file is stored from there.
    pub fn path(&self) -> &Path {
        &self.0.0
    }

    /// The file, open for reading, and its length.
    pub async fn open(&self) -> AppResult<(tokio::fs::File, u64)> {
        let file = tokio::fs::File::open(&self.0.0).await.map_err(|e| write_failed(XlsxError::IoError(e)))?;
        let len = file.metadata().await.map_err(|e| write_failed(XlsxError::IoError(e)))?.len();
        Ok((file, len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::{Data, Reader, Xlsx};
    use std::io::Cursor;

    /// Writes `rows` in two appends through the streaming writer and returns the file.
    fn write(name: &'static str, cols: &'static [Col], mut rows: Vec<Vec<Val>>) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let mut w = SheetWriter::new(Sheet { name, cols }, dir.path()).unwrap();
        let rest = rows.split_off(rows.len() / 2);
        w.append(rows).unwrap();
        w.append(rest).unwrap();
        let path = dir.path().join("out.xlsx");
        w.save(&path).unwrap();
        std::fs::read(path).unwrap()
    }

    /// A full worksheet continues on "Name (2)" with the title lines and header again, and
    /// the total comes below the last row of the last part. `last_row` stands in for Excel's
    /// 1,048,575 (a million rows would make the test slow, not different).
    #[test]
    fn a_full_worksheet_continues_on_the_next_with_its_header() {
        const COLS: [Col; 2] = [Col::new("No.", 12.0, Kind::Text), Col::new("Qty", 6.0, Kind::Int)];
        let dir = tempfile::tempdir().unwrap();
        let mut book = Book::new(Workbook::new());
        book.last_row = 6;
        let mut w = SheetWriter::with_book(book).unwrap();
        w.begin(Layout { name: "Lines".into(), cols: COLS.to_vec(), title: vec!["Sales detail".into()] }).unwrap();
        let rows: Vec<Vec<Val>> = (1..=5).map(|i| vec![Val::Text(format!("INV-{i}")), Val::Int(i)]).collect();
        w.append(rows).unwrap();
        w.total(vec![Val::Text("Total".into()), Val::Int(15)]).unwrap();
        let path = dir.path().join("out.xlsx");
        w.save(&path).unwrap();
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(std::fs::read(path).unwrap())).unwrap();
        assert_eq!(book.sheet_names(), vec!["Lines", "Lines (2)"]);
        let mut column = |name: &str| -> Vec<String> {
            let range = book.worksheet_range(name).unwrap();
            (0..range.height() as u32).map(|r| range.get_value((r, 0)).map(|d| d.to_string()).unwrap_or_default()).collect()
        };
        // Title, blank, header, then rows 3 to 5: row 6 (0-based) is kept for a total.
        assert_eq!(column("Lines"), ["Sales detail", "", "No.", "INV-1", "INV-2", "INV-3"]);
        assert_eq!(column("Lines (2)"), ["Sales detail", "", "No.", "INV-4", "INV-5", "Total"]);
        let last = book.worksheet_range("Lines (2)").unwrap();
        assert_eq!(last.get_value((5, 1)), Some(&Data::Float(15.0)));
    }

    #[test]
    fn a_continued_worksheet_keeps_within_excels_31_characters() {
        assert_eq!(part_name("Lines", 2), "Lines (2)");
        let long = "Invoices & Credit Notes Detail";
        assert_eq!(part_name(long, 2), "Invoices & Credit Notes Det (2)");
        assert_eq!(part_name(long, 2).chars().count(), 31);
        let mut book = Workbook::new();
        book.add_worksheet().set_name(part_name(long, 8)).expect("Excel takes the name");
    }

    #[test]
    fn writes_headers_money_and_dates() {
        const COLS: [Col; 4] = [Col::new("Code", 12.0, Kind::Text), Col::new("Price", 10.0, Kind::Money), Col::new("Qty", 6.0, Kind::Int), Col::new("Date", 12.0, Kind::Date)];
        let d = NaiveDate::from_ymd_opt(2026, 3, 5).unwrap();
        let rows = vec![vec![Val::Text("A1".into()), Val::Cents(123_456), Val::Int(7), Val::Date(Some(d))], vec![Val::Text("B2".into()), Val::Cents(5), Val::Int(0), Val::Date(None)]];
        let bytes = write("Products", &COLS, rows);
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).unwrap();
        let range = book.worksheet_range("Products").unwrap();
        assert_eq!(range.get((0, 0)), Some(&Data::String("Code".into())));
        assert_eq!(range.get((1, 1)), Some(&Data::Float(1234.56)));
        assert_eq!(range.get((1, 2)), Some(&Data::Float(7.0)));
        match range.get((1, 3)) {
            Some(Data::DateTime(dt)) => assert_eq!(dt.as_datetime().unwrap().date(), d),
            other => panic!("date cell is {other:?}"),
        }
        assert_eq!(range.get((2, 0)), Some(&Data::String("B2".into())), "the second append follows the first");
        assert_eq!(range.height(), 3);
    }

    #[test]
    fn a_cell_beyond_excels_limit_is_cut_with_a_marker_not_an_error() {
        const COLS: [Col; 1] = [Col::new("Name", 20.0, Kind::Text)];
        let long = "x".repeat(1_000_000);
        let bytes = write("T", &COLS, vec![vec![Val::Text(long)], vec![Val::Text("short".into())]]);
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).unwrap();
        let range = book.worksheet_range("T").unwrap();
        let cut = range.get((1, 0)).unwrap().to_string();
        assert_eq!(cut.chars().count(), CELL_MAX);
        assert!(cut.ends_with(TRUNCATED));
        assert_eq!(range.get((2, 0)), Some(&Data::String("short".into())));
        assert_eq!(fit_cell("é".repeat(CELL_MAX)), "é".repeat(CELL_MAX), "exactly the limit stays whole");
    }

    #[test]
    fn an_abandoned_export_stops_at_the_next_chunk() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = SheetWriter::new(Sheet { name: "T", cols: &[] }, dir.path()).unwrap();
        w.cancelled.store(true, Ordering::Relaxed);
        assert!(w.append([vec![]]).is_err());
    }

    #[test]
    fn the_sweep_removes_only_old_exports() {
        let dir = tempfile::tempdir().unwrap();
        let ours = dir.path().join(format!("{FILE_PREFIX}1.xlsx"));
        let other = dir.path().join("notes.txt");
        std::fs::write(&ours, b"x").unwrap();
        std::fs::write(&other, b"x").unwrap();
        sweep(dir.path(), Duration::from_secs(3600));
        assert!(ours.exists(), "a fresh export may still be downloading");
        sweep(dir.path(), Duration::ZERO);
        assert!(!ours.exists() && other.exists());
        sweep(&dir.path().join("missing"), Duration::ZERO);
    }
}
