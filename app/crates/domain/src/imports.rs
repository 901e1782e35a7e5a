//! The two imports of the Download Center (spec §2.9): Import Draft Inv (rows become lines
//! of draft invoices, grouped into sheets) and Import Basic (one worksheet per kind of
//! master data, created or updated by code). How cells are read, how rows group, and how
//! row messages read. No I/O.

use chrono::NaiveDate;

use super::enums::CodeEnum;
use super::limits::check_date;

/// Files with at most this many data rows are imported while the upload waits; larger ones
/// become a job of the report queue, shown in the Download Center.
pub const INLINE_ROWS: usize = 2_000;
/// Rows written per transaction once a whole file has been checked: other users' saves wait
/// for one chunk at most, never for the whole file. 100 keeps that wait near 10 ms on SQLite
/// (`tyredesk bench --scenario "Import Basic"`: 500 made a save wait up to ~50 ms).
pub const WRITE_CHUNK: usize = 100;
/// The answer to a successful import (spec §8: 'Operation Success' for report imports).
pub const SUCCESS: &str = "Operation Success";
/// The answer to a file queued as a job.
pub const QUEUED: &str = "The file is being imported in the background; see its state in the Reports Download Center.";
pub const NO_ROWS: &str = "The file has no data rows under its header row.";

/// The refusal of the same file as the company's last import of its kind (issue 29: a reload
/// of the page after an import imported the file again), unless asked for again.
pub fn same_file(when: &str, who: &str) -> String {
    format!("This file was already imported on {when} by {who}. To import it again, tick 'Import it again' and upload it once more.")
}

/// An import as the Download Center lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    DraftInvoices,
    Basic,
}

impl ImportKind {
    pub const ALL: [Self; 2] = [Self::DraftInvoices, Self::Basic];

    /// The job kind stored in `report_jobs.kind`.
    pub const fn code(self) -> &'static str {
        match self {
            Self::DraftInvoices => "import-draft-inv",
            Self::Basic => "import-basic",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }

    pub const fn title(self) -> &'static str {
        match self {
            Self::DraftInvoices => "Import Draft Inv",
            Self::Basic => "Import Basic",
        }
    }

    /// The template's file name.
    pub const fn template_name(self) -> &'static str {
        match self {
            Self::DraftInvoices => "import-draft-invoices-template.xlsx",
            Self::Basic => "import-basic-template.xlsx",
        }
    }
}

pub const BAD_DATE: &str = "Enter the date as yyyy-mm-dd or dd/mm/yyyy.";
pub const BAD_YES_NO: &str = "Enter Yes or No.";

/// A date cell: `yyyy-mm-dd` (also with a time after it, as spreadsheets write dates),
/// `dd/mm/yyyy`, or an Excel day number; within the accepted range.
pub fn parse_date(text: &str) -> Result<NaiveDate, &'static str> {
    let t = text.trim();
    let date = NaiveDate::parse_from_str(t.get(..10).unwrap_or(t), "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(t, "%d/%m/%Y"))
        .ok()
        .or_else(|| {
            // Excel's day 1 is 1900-01-01 with its phantom 29 Feb 1900: day n is 1899-12-30 + n.
            let n: i64 = t.parse().ok().filter(|n| (1..=2_958_465).contains(n))?;
            NaiveDate::from_ymd_opt(1899, 12, 30)?.checked_add_signed(chrono::Duration::days(n))
        })
        .ok_or(BAD_DATE)?;
    check_date(date)
}

/// A yes/no cell: Yes/No, Y/N, 1/0, True/False.
pub fn parse_yes_no(text: &str) -> Result<bool, &'static str> {
    match text.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "1" | "true" => Ok(true),
        "no" | "n" | "0" | "false" => Ok(false),
        _ => Err(BAD_YES_NO),
    }
}

/// A coded choice given by its code or its wording ('2' or 'Alloy').
pub fn parse_choice<T: CodeEnum>(text: &str) -> Option<i32> {
    let t = text.trim();
    if let Ok(code) = t.parse::<i32>() {
        return T::from_code(code).map(|v| v.code());
    }
    T::ALL.iter().find(|v| v.text().eq_ignore_ascii_case(t)).map(|v| v.code())
}

/// A row's message: 'Products row 12: Item Code: Please enter'.
pub fn row_message(sheet: &str, row: usize, field: &str, message: &str) -> String {
    if field.is_empty() { format!("{sheet} row {row}: {message}") } else { format!("{sheet} row {row}: {field}: {message}") }
}

/// The key that puts rows on the same draft invoice: the customer they resolve to (so a
/// code and the same customer's name meet), the reference and the date.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SheetKey {
    pub customer: i64,
    pub reference: String,
    pub date: NaiveDate,
}

impl SheetKey {
    pub fn new(customer: i64, reference: &str, date: NaiveDate) -> Self {
        Self { customer, reference: reference.trim().to_string(), date }
    }
}

/// Groups rows by key, keeping the sheets in the order their first row appears and the
/// lines in row order.
pub fn group<K: Eq + std::hash::Hash + Clone, R>(rows: impl IntoIterator<Item = (K, R)>) -> Vec<(K, Vec<R>)> {
    let mut order: Vec<(K, Vec<R>)> = Vec::new();
    let mut index: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    for (k, r) in rows {
        match index.get(&k) {
            Some(&i) => order[i].1.push(r),
            None => {
                index.insert(k.clone(), order.len());
                order.push((k, vec![r]));
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::Material;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn dates_read_in_the_three_shapes_spreadsheets_use() {
        assert_eq!(parse_date("2026-11-23"), Ok(d(2026, 11, 23)));
        assert_eq!(parse_date("2026-11-23 00:00:00"), Ok(d(2026, 11, 23)));
        assert_eq!(parse_date("23/11/2026"), Ok(d(2026, 11, 23)));
        assert_eq!(parse_date("46349"), Ok(d(2026, 11, 23)), "Excel's day number");
        assert_eq!(parse_date("11/23/2026"), Err(BAD_DATE), "American order is refused, not guessed");
        assert_eq!(parse_date("1999-12-31"), Err(crate::limits::DATE_OUT_OF_RANGE));
    }

    #[test]
    fn yes_no_and_choices() {
        assert_eq!(parse_yes_no(" Yes"), Ok(true));
        assert_eq!(parse_yes_no("0"), Ok(false));
        assert_eq!(parse_yes_no("maybe"), Err(BAD_YES_NO));
        assert_eq!(parse_choice::<Material>("alloy"), Some(2));
        assert_eq!(parse_choice::<Material>("3"), Some(3));
        assert_eq!(parse_choice::<Material>("9"), None);
        assert_eq!(parse_choice::<Material>("Chrome"), None);
    }

    #[test]
    fn rows_group_into_sheets_by_customer_reference_and_date() {
        let day = d(2026, 11, 23);
        let rows = vec![
            (SheetKey::new(7, "PO-1", day), 2),
            (SheetKey::new(8, "PO-1", day), 3),
            (SheetKey::new(7, "PO-1 ", day), 4),
            (SheetKey::new(7, "PO-2", day), 5),
            (SheetKey::new(7, "PO-1", d(2026, 11, 24)), 6),
        ];
        let g = group(rows);
        assert_eq!(g.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>(), vec![vec![2, 4], vec![3], vec![5], vec![6]]);
    }

    #[test]
    fn kinds_round_trip_and_row_messages_name_the_sheet() {
        for k in ImportKind::ALL {
            assert_eq!(ImportKind::from_code(k.code()), Some(k));
        }
        assert_eq!(ImportKind::from_code("sales-detail"), None);
        assert_eq!(row_message("Products", 12, "Item Code", "Please enter"), "Products row 12: Item Code: Please enter");
        assert_eq!(row_message("Draft Inv", 3, "", "Unknown customer 'X'."), "Draft Inv row 3: Unknown customer 'X'.");
    }
}
