//! Excel 97–2003 workbooks (.xls, BIFF8 in an OLE compound file), checked before calamine
//! parses them.
//!
//! calamine parses every worksheet of an xls when it opens the file and keeps each as a dense
//! range, reserving what the file's DIMENSIONS records claim, copying a shared string into
//! every cell that names it and expanding formulas into text; a few KB of records can ask for
//! gigabytes. So the file is read here first, record header by record header, the way
//! calamine will read it, and refused past the limits below with a clear message:
//! - the compound file is opened with the `cfb` crate and only its `Workbook` stream is kept
//!   (at most the upload limit); calamine is then given a compound file written here holding
//!   just the checked stream, so it never parses the uploaded container itself;
//! - the cells calamine keeps (their bounding box per worksheet, what DIMENSIONS reserves, and
//!   the cells pushed) are counted over every worksheet, as are rows, columns and the text
//!   of strings (shared strings once, again for every cell naming one);
//! - formulas are emptied (their token count set to 0): the import reads the cached values,
//!   never the formula text, which calamine would otherwise build token by token (a sheet
//!   name of up to 255 characters for a 7-byte reference); calamine then keeps a note of
//!   about 70 bytes per formula, and a formula record takes at least 26 bytes of the file;
//! - records calamine would index past their end (and panic on) are refused.
//!
//! See `docs/decisions/imports.md`, "Uploads".

use std::collections::VecDeque;
use std::io::{Cursor, Read, Write};
use std::ops::Range;

use calamine::{Xls, XlsOptions};

use domain::uploads::{self, FILE_TOO_LARGE, MAX_COLUMNS, MAX_FILE_BYTES, MAX_ROWS};

/// Cells over every worksheet of an xls (about 40 bytes each while calamine reads a sheet,
/// 32 in the range it keeps): counted as the worksheets' bounding boxes, as DIMENSIONS
/// reserves, and as cells read, each on its own.
pub const MAX_CELLS: u64 = 1_000_000;
/// Characters of text (strings and text cells, at most 3 bytes each once decoded).
pub const MAX_TEXT_CHARS: u64 = 10_000_000;
/// Worksheets (BoundSheet records) of an xls.
pub const MAX_SHEETS: usize = 256;
/// Records walked over all worksheets: each worksheet is read from its start to its EOF, so
/// worksheets sharing records (or lacking an EOF) are walked again, by calamine too.
pub const MAX_RECORDS: u64 = 2 * MAX_CELLS;

pub const UNREADABLE: &str =
    "The file is not a readable Excel 97–2003 workbook (.xls). Open it in Excel or LibreOffice, save it again as .xls or as an Excel Workbook (.xlsx), and upload it again.";
pub const OLD_FORMAT: &str =
    "The file is in a format older than Excel 97–2003. Save it as an Excel Workbook (.xlsx) or Excel 97–2003 Workbook (.xls) and upload it again.";
pub const PASSWORD: &str = "The file is password-protected. Save it without a password and upload it again.";

pub fn too_many_cells() -> String {
    format!("The file's worksheets span more than {MAX_CELLS} cells. Save it as an Excel Workbook (.xlsx), or split it into smaller files, and upload it again.")
}

pub fn too_much_text() -> String {
    format!("The file holds more than {MAX_TEXT_CHARS} characters of text. Split it into smaller files and upload it again.")
}

fn u16_at(s: &[u8], at: usize) -> Option<u16> {
    s.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(s: &[u8], at: usize) -> Option<u32> {
    s.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// One record as calamine's record iterator gives it: its type, its data and the data of
/// the CONTINUE records right after it (offsets into the stream).
struct Record {
    typ: u16,
    data: Range<usize>,
    conts: Vec<Range<usize>>,
}

/// The records from `pos`, grouped exactly as calamine groups them.
struct Records<'a> {
    stream: &'a [u8],
    pos: usize,
}

impl Iterator for Records<'_> {
    type Item = Result<Record, &'static str>;

    fn next(&mut self) -> Option<Self::Item> {
        let header = |pos: usize| Some((u16_at(self.stream, pos)?, u16_at(self.stream, pos + 2)? as usize));
        let rest = self.stream.len() - self.pos;
        if rest < 4 {
            return if rest == 0 { None } else { Some(Err(UNREADABLE)) };
        }
        let (typ, len) = header(self.pos)?;
        if rest < len + 4 {
            return Some(Err(UNREADABLE));
        }
        let data = self.pos + 4..self.pos + 4 + len;
        self.pos = data.end;
        let mut conts = Vec::new();
        // calamine: `while stream.len() > 4 && type == CONTINUE`.
        while self.stream.len() - self.pos > 4 && u16_at(self.stream, self.pos) == Some(0x003C) {
            let (_, len) = header(self.pos)?;
            if self.stream.len() - self.pos < len + 4 {
                return Some(Err(UNREADABLE));
            }
            conts.push(self.pos + 4..self.pos + 4 + len);
            self.pos += 4 + len;
        }
        Some(Ok(Record { typ, data, conts }))
    }
}

/// A record's data and its continuations, read as calamine's `Record` reads them.
struct Chunks<'a> {
    data: &'a [u8],
    conts: VecDeque<&'a [u8]>,
}

impl<'a> Chunks<'a> {
    fn next_chunk(&mut self) -> bool {
        match self.conts.pop_front() {
            Some(c) => {
                self.data = c;
                true
            }
            None => false,
        }
    }

    fn skip(&mut self, mut len: usize) -> Result<(), &'static str> {
        while len > 0 {
            if self.data.is_empty() && !self.next_chunk() {
                return Err(UNREADABLE);
            }
            let l = len.min(self.data.len());
            self.data = &self.data[l..];
            len -= l;
        }
        Ok(())
    }

    fn advance(&mut self, n: usize) -> Result<(), &'static str> {
        self.data = self.data.get(n..).ok_or(UNREADABLE)?;
        Ok(())
    }
}

/// The character count of each string of a shared-string table (SST), walked as calamine's
/// `parse_sst` walks it; a string calamine would read past its data is refused.
fn shared_string_lengths(stream: &[u8], r: &Record) -> Result<Vec<u16>, &'static str> {
    let mut c = Chunks { data: &stream[r.data.clone()], conts: r.conts.iter().map(|x| &stream[x.clone()]).collect() };
    c.advance(8)?;
    let mut out = Vec::new();
    while !c.data.is_empty() || c.next_chunk() {
        if c.data.is_empty() {
            out.push(0);
            continue;
        }
        let cch = u16_at(c.data, 0).ok_or(UNREADABLE)?;
        let flags = *c.data.get(2).ok_or(UNREADABLE)?;
        c.advance(3)?;
        let mut high_byte = flags & 0x1 != 0;
        let mut runs = 0;
        let mut ext = 0;
        if flags & 0x8 != 0 {
            runs = u16_at(c.data, 0).ok_or(UNREADABLE)? as usize;
            c.advance(2)?;
        }
        if flags & 0x4 != 0 {
            // calamine reads an i32 and casts it; a negative size fails its skip below.
            ext = u32_at(c.data, 0).ok_or(UNREADABLE)? as i32 as usize;
            c.advance(4)?;
        }
        let mut left = cch as usize;
        while left > 0 {
            let (chars, bytes) = if high_byte {
                let l = (c.data.len() / 2).min(left);
                (l, 2 * l)
            } else {
                let l = c.data.len().min(left);
                (l, l)
            };
            c.advance(bytes)?;
            left -= chars;
            if left > 0 {
                if !c.next_chunk() {
                    return Err(UNREADABLE);
                }
                high_byte = *c.data.first().ok_or(UNREADABLE)? & 0x1 != 0;
                c.advance(1)?;
            }
        }
        c.skip(runs * 4)?;
        c.skip(ext)?;
        out.push(cch);
    }
    Ok(out)
}

/// The cells of one worksheet as calamine will keep them.
#[derive(Default)]
struct Sheet {
    records: u64,
    cells: u64,
    reserved: u64,
    text: u64,
    values: Option<(u32, u32, u32, u32)>,
    formulas: Option<(u32, u32, u32, u32)>,
}

fn widen(b: &mut Option<(u32, u32, u32, u32)>, row: u32, col: u32) {
    *b = Some(match *b {
        None => (row, row, col, col),
        Some((r0, r1, c0, c1)) => (r0.min(row), r1.max(row), c0.min(col), c1.max(col)),
    });
}

fn area(b: Option<(u32, u32, u32, u32)>) -> (u64, u64) {
    b.map_or((0, 0), |(r0, r1, c0, c1)| {
        let rows = u64::from(r1 - r0) + 1;
        (rows, rows * (u64::from(c1 - c0) + 1))
    })
}

impl Sheet {
    fn cell(&mut self, row: u16, col: u16) -> Result<(), String> {
        if col as usize >= MAX_COLUMNS {
            return Err(uploads::too_many_columns());
        }
        self.cells += 1;
        if self.cells > MAX_CELLS {
            return Err(too_many_cells());
        }
        widen(&mut self.values, row.into(), col.into());
        Ok(())
    }
}

/// A string cell's character count (calamine's `parse_string`, BIFF8); `None` where calamine
/// would fail on it.
fn string_chars(s: &[u8]) -> Option<u16> {
    if s.len() < 3 {
        return (s.len() == 2 && u16_at(s, 0) == Some(0)).then_some(0);
    }
    u16_at(s, 0)
}

/// Walks one worksheet from its BOF the way calamine's sheet loop does; empties the formulas
/// it meets (in `stream`).
fn walk_sheet(stream: &mut [u8], pos: usize, sst: &[u16]) -> Result<Sheet, String> {
    let mut sheet = Sheet::default();
    let mut seen_bof = false;
    let mut depth = 0usize;
    let mut formula_at = (0u16, 0u16);
    let mut to_empty = Vec::new();
    for record in (Records { stream: &*stream, pos }) {
        let r = record?;
        sheet.records += 1;
        if sheet.records > MAX_RECORDS {
            return Err(too_many_cells());
        }
        let d = &stream[r.data.clone()];
        if depth > 0 {
            match r.typ {
                0x0809 => depth += 1,
                0x000A => depth -= 1,
                _ => (),
            }
            continue;
        }
        let short = |min: usize| if d.len() < min { Err(UNREADABLE.to_string()) } else { Ok(()) };
        let at = |i: usize| u16_at(d, i).unwrap_or(0);
        match r.typ {
            0x0809 if seen_bof => depth += 1,
            0x0809 => seen_bof = true,
            // DIMENSIONS: calamine reserves rows × columns for the sheet's cells.
            0x0200 => {
                let (rf, rl, mut cf, cl) = match d.len() {
                    10 => (u32::from(at(0)), u32::from(at(2)), u32::from(at(4)), u32::from(at(6))),
                    14 | 16 => (u32_at(d, 0).unwrap_or(0), u32_at(d, 4).unwrap_or(0), u32::from(at(8)), u32::from(at(10))),
                    _ => return Err(UNREADABLE.into()),
                };
                if cf > 0xFF || cl < cf {
                    cf = 0;
                }
                let reserved = if rl >= 1 && cl >= 1 {
                    if rl - 1 < rf || cl - 1 < cf {
                        return Err(UNREADABLE.into());
                    }
                    u64::from(rl - rf) * u64::from(cl - cf)
                } else {
                    1
                };
                sheet.reserved = sheet.reserved.saturating_add(reserved);
                if sheet.reserved > MAX_CELLS {
                    return Err(too_many_cells());
                }
            }
            // NUMBER, BOOLERR, RK
            0x0203 | 0x0205 | 0x027E => {
                short(match r.typ {
                    0x0203 => 14,
                    0x0205 => 8,
                    _ => 10,
                })?;
                sheet.cell(at(0), at(2))?;
            }
            // LABEL, RSTRING
            0x0204 | 0x00D6 => {
                short(6)?;
                let chars = string_chars(&d[6..]).ok_or(UNREADABLE)?;
                sheet.text += u64::from(chars);
                sheet.cell(at(0), at(2))?;
            }
            // STRING: the text value of the formula before it.
            0x0207 => {
                let chars = string_chars(d).ok_or(UNREADABLE)?;
                sheet.text += u64::from(chars);
                sheet.cell(formula_at.0, formula_at.1)?;
            }
            // LABELSST: a copy of a shared string.
            0x00FD => {
                short(10)?;
                if let Some(chars) = u32_at(d, 6).and_then(|i| sst.get(i as usize)) {
                    sheet.text += u64::from(*chars);
                    sheet.cell(at(0), at(2))?;
                }
            }
            // MULRK: several numbers on a row.
            0x00BD => {
                short(6)?;
                let (first, last) = (at(2), at(d.len() - 2));
                if last < first || d.len() != 6 + 6 * (usize::from(last - first) + 1) {
                    return Err(UNREADABLE.into());
                }
                for col in first..=last {
                    sheet.cell(at(0), col)?;
                }
            }
            // MERGECELLS: calamine reads `count` ranges without checking the length.
            0x00E5 => {
                short(2)?;
                if d.len() < 2 + usize::from(at(0)) * 8 {
                    return Err(UNREADABLE.into());
                }
            }
            // FORMULA: its cached value is a cell; its tokens are emptied.
            0x0006 => {
                short(22)?;
                formula_at = (at(0), at(2));
                sheet.cell(at(0), at(2))?;
                widen(&mut sheet.formulas, at(0).into(), at(2).into());
                to_empty.push(r.data.start + 20);
            }
            0x000A => break,
            _ => (),
        }
    }
    for at in to_empty {
        stream[at..at + 2].copy_from_slice(&[0, 0]);
    }
    Ok(sheet)
}

/// The BIFF version calamine reads from a BOF record (`parse_bof`); only BIFF8 is taken.
fn is_biff8(d: &[u8]) -> Result<bool, &'static str> {
    let version = u16_at(d, 0).ok_or(UNREADABLE)?;
    Ok(match version {
        0x0200 | 0x0002 | 0x0007 | 0x0300 | 0x0400 | 0x0500 => false,
        0 => u16_at(d, 2) != Some(0x1000),
        _ => true,
    })
}

/// Checks a workbook stream against the limits and empties its formulas; answers the
/// stream calamine may parse.
fn check_stream(mut stream: Vec<u8>) -> Result<Vec<u8>, String> {
    let mut sheets = Vec::new();
    let mut sst: Vec<u16> = Vec::new();
    let mut text: u64 = 0;
    let mut first = true;
    for record in (Records { stream: &stream, pos: 0 }) {
        let r = record?;
        let d = &stream[r.data.clone()];
        if first && r.typ != 0x0809 {
            return Err(UNREADABLE.into());
        }
        first = false;
        match r.typ {
            0x002F => return Err(PASSWORD.into()),
            0x0809 if !is_biff8(d)? => return Err(OLD_FORMAT.into()),
            0x0085 => {
                if d.len() < 8 {
                    return Err(UNREADABLE.into());
                }
                let pos = u32_at(d, 0).unwrap_or(0) as usize;
                if pos >= stream.len() {
                    return Err(UNREADABLE.into());
                }
                sheets.push(pos);
                if sheets.len() > MAX_SHEETS {
                    return Err(format!("The file has more than {MAX_SHEETS} worksheets. Split it into smaller files and upload it again."));
                }
            }
            0x00FC => {
                sst = shared_string_lengths(&stream, &r)?;
                text += sst.iter().map(|n| u64::from(*n)).sum::<u64>();
            }
            0x000A => break,
            _ => (),
        }
    }
    if first {
        return Err(UNREADABLE.into());
    }
    // Each shared string is a `String` calamine keeps, even an empty one.
    let (mut cells, mut reserved, mut kept, mut formulas, mut rows, mut records) = (sst.len() as u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    for pos in &sheets {
        let s = walk_sheet(&mut stream, *pos, &sst)?;
        let (sheet_rows, values) = area(s.values);
        records += s.records;
        cells += s.cells;
        reserved += s.reserved;
        kept += values;
        formulas += area(s.formulas).1;
        text += s.text;
        // The first row of each worksheet is its header.
        rows += sheet_rows.saturating_sub(1);
        if rows > MAX_ROWS as u64 {
            return Err(uploads::too_many_rows());
        }
        if [cells, reserved, kept, formulas].iter().any(|n| *n > MAX_CELLS) || records > MAX_RECORDS {
            return Err(too_many_cells());
        }
        if text > MAX_TEXT_CHARS {
            return Err(too_much_text());
        }
    }
    if text > MAX_TEXT_CHARS {
        return Err(too_much_text());
    }
    Ok(stream)
}

/// Reads the `Workbook` stream of an uploaded compound file, at most the upload limit.
fn workbook_stream(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut file = cfb::CompoundFile::open(Cursor::new(bytes)).map_err(|_| UNREADABLE.to_string())?;
    if !file.is_stream("/Workbook") {
        return Err(if file.is_stream("/Book") { OLD_FORMAT } else { UNREADABLE }.into());
    }
    let len = file.entry("/Workbook").map_err(|_| UNREADABLE.to_string())?.len();
    if len > MAX_FILE_BYTES as u64 {
        return Err(FILE_TOO_LARGE.into());
    }
    let mut stream = Vec::with_capacity(len as usize);
    file.open_stream("/Workbook")
        .map_err(|_| UNREADABLE.to_string())?
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut stream)
        .map_err(|_| UNREADABLE.to_string())?;
    if stream.len() > MAX_FILE_BYTES {
        return Err(FILE_TOO_LARGE.into());
    }
    Ok(stream)
}

/// A compound file holding only `stream` as its `Workbook`.
fn compound_file(stream: &[u8]) -> Result<Vec<u8>, String> {
    let failed = |e: std::io::Error| format!("The workbook could not be prepared for reading: {e}");
    let mut file = cfb::CompoundFile::create_with_version(cfb::Version::V3, Cursor::new(Vec::new())).map_err(failed)?;
    {
        let mut s = file.create_stream("/Workbook").map_err(failed)?;
        s.write_all(stream).map_err(failed)?;
        s.flush().map_err(failed)?;
    }
    file.flush().map_err(failed)?;
    Ok(file.into_inner().into_inner())
}

/// Checks an uploaded .xls against the limits, then opens it with calamine.
pub fn open(bytes: &[u8]) -> Result<Xls<Cursor<Vec<u8>>>, String> {
    let stream = check_stream(workbook_stream(bytes)?)?;
    let file = compound_file(&stream)?;
    drop(stream);
    let mut options = XlsOptions::default();
    // BIFF8 text is UTF-16 whatever CODEPAGE says, and so at most 3 bytes a character.
    options.force_codepage = Some(1200);
    // calamine still indexes some records without checking their length; a file it cannot
    // read is refused, never a crash of the request.
    match std::panic::catch_unwind(move || Xls::new_with_options(Cursor::new(file), options)) {
        Ok(Ok(book)) => Ok(book),
        Ok(Err(calamine::XlsError::Password)) => Err(PASSWORD.into()),
        Ok(Err(e)) => {
            tracing::info!("xls upload refused by calamine: {e}");
            Err(UNREADABLE.into())
        }
        Err(_) => Err(UNREADABLE.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record: type, length, data.
    fn rec(typ: u16, data: &[u8]) -> Vec<u8> {
        let mut r = typ.to_le_bytes().to_vec();
        r.extend((data.len() as u16).to_le_bytes());
        r.extend(data);
        r
    }

    fn bof(version: u16, dt: u16) -> Vec<u8> {
        let mut d = version.to_le_bytes().to_vec();
        d.extend(dt.to_le_bytes());
        d.extend([0u8; 12]);
        rec(0x0809, &d)
    }

    fn cell(row: u16, col: u16) -> Vec<u8> {
        let mut d = row.to_le_bytes().to_vec();
        d.extend(col.to_le_bytes());
        d.extend([0u8; 2]);
        d
    }

    /// A BIFF8 workbook stream: globals (with `globals` records) and one worksheet of `cells`
    /// records.
    fn stream(globals: &[Vec<u8>], cells: &[Vec<u8>]) -> Vec<u8> {
        let name = b"Lines";
        let sheet_rec_len = 4 + 8 + name.len();
        let mut head = bof(0x0600, 0x0005);
        for g in globals {
            head.extend(g);
        }
        let pos = head.len() + sheet_rec_len + 4;
        let mut bound = (pos as u32).to_le_bytes().to_vec();
        bound.extend([0, 0, name.len() as u8, 0]);
        bound.extend(name);
        head.extend(rec(0x0085, &bound));
        head.extend(rec(0x000A, &[]));
        assert_eq!(head.len(), pos);
        head.extend(bof(0x0600, 0x0010));
        for c in cells {
            head.extend(c);
        }
        head.extend(rec(0x000A, &[]));
        head
    }

    fn number(row: u16, col: u16, v: f64) -> Vec<u8> {
        let mut d = cell(row, col);
        d.extend(v.to_le_bytes());
        rec(0x0203, &d)
    }

    fn label(row: u16, col: u16, text: &str, claimed: Option<u16>) -> Vec<u8> {
        let mut d = cell(row, col);
        d.extend(claimed.unwrap_or(text.len() as u16).to_le_bytes());
        d.push(0);
        d.extend(text.as_bytes());
        rec(0x0204, &d)
    }

    #[test]
    fn a_libreoffice_xls_reads_like_an_xlsx() {
        let bytes = include_bytes!("../../../tests/http/fixtures/lines.xls");
        let t = crate::import::read_first_sheet(bytes, &[&["Item Code"], &["Qty"], &["Price"], &["Description"]]).unwrap();
        let rows: Vec<_> = t.rows.iter().map(|(n, c)| (*n, c.join("|"))).collect();
        assert_eq!(
            rows,
            vec![(2, "XLS-TYRE-1|4|123.45|front pair".to_string()), (3, "XLS-TYRE-2|2||Rücklicht – spare".into()), (4, "XLS-TYRE-1|1|99|".into())]
        );
    }

    #[test]
    fn a_written_stream_is_read_back_by_calamine_with_formulas_emptied() {
        use calamine::Reader;
        let mut formula = cell(1, 1);
        formula.extend(7.0f64.to_le_bytes());
        formula.extend([0u8; 6]);
        formula.extend(3u16.to_le_bytes());
        formula.extend([0x1E, 0x07, 0x00]); // PtgInt 7
        let s = stream(&[], &[label(0, 0, "Qty", None), number(1, 0, 4.0), rec(0x0006, &formula)]);
        let checked = check_stream(s).unwrap();
        let mut book = Xls::new(Cursor::new(compound_file(&checked).unwrap())).unwrap();
        let range = book.worksheet_range("Lines").unwrap();
        assert_eq!(range.get_value((1, 1)), Some(&calamine::Data::Float(7.0)), "the formula's cached value");
        // The tokens are gone: calamine answers its short note for an empty formula.
        let text = book.worksheet_formula("Lines").unwrap().get_value((1, 1)).cloned().unwrap_or_default();
        assert!(text.starts_with("Unrecognised formula") && !text.contains('7'), "{text}");
    }

    #[test]
    fn claims_past_the_limits_are_refused_before_calamine() {
        // DIMENSIONS: 65,536 rows × 256 columns.
        let mut dims = 0u32.to_le_bytes().to_vec();
        dims.extend(65_536u32.to_le_bytes());
        dims.extend([0, 0, 0, 1, 0, 0]);
        assert_eq!(check_stream(stream(&[], &[rec(0x0200, &dims)])).err(), Some(too_many_cells()));
        // Last row before the first: calamine's subtraction would overflow.
        let mut upside_down = 10u32.to_le_bytes().to_vec();
        upside_down.extend(5u32.to_le_bytes());
        upside_down.extend([0, 0, 2, 0, 0, 0]);
        assert_eq!(check_stream(stream(&[], &[rec(0x0200, &upside_down)])).err().as_deref(), Some(UNREADABLE));
        // Two cells far apart make a dense range of rows × columns.
        let far = stream(&[], &[number(0, 0, 1.0), number(60_000, 40, 1.0)]);
        assert_eq!(check_stream(far).err(), Some(too_many_cells()));
        // A cell past the column limit.
        assert_eq!(check_stream(stream(&[], &[number(0, 50, 1.0)])).err(), Some(uploads::too_many_columns()));
        // Text cells each claiming 65,535 characters (calamine reserves them).
        let labels: Vec<_> = (0..200).map(|r| label(r, 0, "x", Some(u16::MAX))).collect();
        assert_eq!(check_stream(stream(&[], &labels)).err(), Some(too_much_text()));
        // One long shared string copied into many cells.
        let long = "y".repeat(8_000);
        let mut sst = 1u32.to_le_bytes().to_vec();
        sst.extend(1u32.to_le_bytes());
        sst.extend(8_000u16.to_le_bytes());
        sst.push(0);
        sst.extend(&long.as_bytes()[..8_000 - 20]);
        let mut globals = vec![rec(0x00FC, &sst)];
        globals.push(rec(0x003C, &[&[0u8][..], &long.as_bytes()[..20]].concat()));
        let copies: Vec<_> = (0..1_300u16)
            .map(|r| {
                let mut d = cell(r, 0);
                d.extend(0u32.to_le_bytes());
                rec(0x00FD, &d)
            })
            .collect();
        assert_eq!(check_stream(stream(&globals, &copies[..1_200])).map(|_| ()), Ok(()), "9.6 million characters pass");
        assert_eq!(check_stream(stream(&globals, &copies)).err(), Some(too_much_text()));
    }

    #[test]
    fn records_calamine_would_crash_on_are_refused() {
        // MULRK whose last column is before its first.
        let mut mulrk = cell(0, 5);
        mulrk.truncate(4);
        mulrk.extend([0u8; 6]);
        mulrk.extend(2u16.to_le_bytes());
        assert_eq!(check_stream(stream(&[], &[rec(0x00BD, &mulrk)])).err().as_deref(), Some(UNREADABLE));
        // MERGECELLS counting more ranges than it holds.
        assert_eq!(check_stream(stream(&[], &[rec(0x00E5, &[9, 0])])).err().as_deref(), Some(UNREADABLE));
        // A shared string with rich-text runs but no room for their count.
        let mut sst = vec![0u8; 8];
        sst.extend([1, 0, 0x08]);
        assert_eq!(check_stream(stream(&[rec(0x00FC, &sst)], &[])).err().as_deref(), Some(UNREADABLE));
        // A formula too short for its token count.
        assert_eq!(check_stream(stream(&[], &[rec(0x0006, &[0u8; 20])])).err().as_deref(), Some(UNREADABLE));
        // Worksheets that all start at the same records are walked (by calamine too) once each.
        let mut s = stream(&[], &(0..8_000).map(|_| rec(0x0099, &[])).collect::<Vec<_>>());
        let bound = s.windows(2).position(|w| w == [0x85, 0x00]).unwrap();
        let sheet = s[bound..bound + 17].to_vec();
        for _ in 0..MAX_SHEETS - 1 {
            s.splice(bound..bound, sheet.clone());
        }
        let shift = ((MAX_SHEETS - 1) * sheet.len()) as u32;
        for i in 0..MAX_SHEETS {
            let at = bound + i * sheet.len() + 4;
            let pos = u32::from_le_bytes(s[at..at + 4].try_into().unwrap()) + shift;
            s[at..at + 4].copy_from_slice(&pos.to_le_bytes());
        }
        assert_eq!(check_stream(s).err(), Some(too_many_cells()));
        // A worksheet starting past the stream.
        let mut s = stream(&[], &[]);
        let at = s.windows(2).position(|w| w == [0x85, 0x00]).unwrap() + 4;
        s[at..at + 4].copy_from_slice(&9_999u32.to_le_bytes());
        assert_eq!(check_stream(s).err().as_deref(), Some(UNREADABLE));
    }

    #[test]
    fn passwords_and_older_formats_say_so() {
        assert_eq!(check_stream(stream(&[rec(0x002F, &[1, 0, 0, 0])], &[])).err().as_deref(), Some(PASSWORD));
        let mut old = bof(0x0500, 0x0005);
        old.extend(rec(0x000A, &[]));
        assert_eq!(check_stream(old).err().as_deref(), Some(OLD_FORMAT));
        assert_eq!(check_stream(rec(0x0203, &[0; 14])).err().as_deref(), Some(UNREADABLE), "a stream not starting with BOF");
        assert_eq!(open(&compound_file(b"").unwrap()).err().as_deref(), Some(UNREADABLE));
    }
}
