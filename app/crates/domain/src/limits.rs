//! The ranges every input is held to (recorded in docs/decisions/screens.md, "Forms, input and messages"): quantities, line
//! counts, dates, text lengths and characters. HTML forms, the JSON API and uploads share them.

use chrono::NaiveDate;

/// The largest quantity of one line, either way (adjustments may be negative).
pub const QTY_MAX: i64 = 1_000_000;
/// The most lines one sheet holds.
pub const LINES_MAX: usize = 1_000;
/// The earliest date a sheet may carry.
pub const DATE_MIN: NaiveDate = NaiveDate::from_ymd_opt(2000, 1, 1).expect("valid date");
/// The latest date a sheet may carry.
pub const DATE_MAX: NaiveDate = NaiveDate::from_ymd_opt(2099, 12, 31).expect("valid date");

/// Names: customer, supplier, contact, staff, warehouse, brand.
pub const NAME_MAX: usize = 120;
/// Comments, notes and remarks.
pub const COMMENT_MAX: usize = 2_000;
/// One line of an address, or a whole delivery address on a sheet.
pub const ADDRESS_MAX: usize = 250;
/// Phone and fax numbers.
pub const PHONE_MAX: usize = 40;
/// Codes, references, e-mail addresses and other short fields.
pub const SHORT_MAX: usize = 100;
/// A line's description.
pub const DESCRIPTION_MAX: usize = 500;
/// The highest page number a list answers.
pub const PAGE_MAX: i64 = 100_000;
/// Lists count their matches up to this many past the page's offset: a page costs the same
/// whether its filter matches 150 sheets or 500,000, and the pager shows 'Total 10,000+'
/// beyond it.
pub const COUNT_CAP: i64 = 10_000;

/// How many matches a list page at `offset` counts: the cap past the offset, and one more to
/// tell that there are more.
pub fn count_limit(offset: i64) -> i64 {
    offset.saturating_add(COUNT_CAP + 1)
}

/// A count made with [`count_limit`] as shown: the number, and whether more rows match.
pub fn counted(count: i64, offset: i64) -> (i64, bool) {
    let cap = offset.saturating_add(COUNT_CAP);
    if count > cap { (cap, true) } else { (count, false) }
}

/// A date outside [`DATE_MIN`]..=[`DATE_MAX`].
pub const DATE_OUT_OF_RANGE: &str = "Enter a date between 01 Jan 2000 and 31 Dec 2099.";
/// A quantity outside ±[`QTY_MAX`].
pub const QTY_OUT_OF_RANGE: &str = "Quantity must be at most 1,000,000.";
/// More lines than [`LINES_MAX`].
pub const TOO_MANY_LINES: &str = "A sheet holds at most 1,000 lines; split it into two sheets.";
/// Text with NUL or other control characters.
pub const CONTROL_CHARACTERS: &str = "Remove the control characters (such as NUL) from this text.";
/// A sheet whose total cannot be represented.
pub const TOTAL_TOO_LARGE: &str = "The sheet's total is too large.";

/// A date within the accepted range.
pub fn check_date(date: NaiveDate) -> Result<NaiveDate, &'static str> {
    if (DATE_MIN..=DATE_MAX).contains(&date) { Ok(date) } else { Err(DATE_OUT_OF_RANGE) }
}

/// Lines a file brings into one sheet: at most [`LINES_MAX`], refused whole with the count
/// and the limit in the message (issue 29: a 100,000-row file used to answer every line).
pub fn check_imported_lines(n: usize) -> Result<usize, String> {
    if n <= LINES_MAX { Ok(n) } else { Err(format!("The file has {n} lines; a sheet holds at most 1,000 lines. Split the file into sheets of at most 1,000 lines.")) }
}

/// A quantity within ±[`QTY_MAX`].
pub fn check_qty(qty: i64) -> Result<i64, &'static str> {
    if (-QTY_MAX..=QTY_MAX).contains(&qty) { Ok(qty) } else { Err(QTY_OUT_OF_RANGE) }
}

/// How a text field may look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// One line: no control characters at all.
    Line(usize),
    /// Several lines: line breaks and tabs allowed, no other control characters.
    Lines(usize),
}

impl Text {
    /// The longest text, in characters.
    pub const fn max(self) -> usize {
        match self {
            Text::Line(m) | Text::Lines(m) => m,
        }
    }
}

/// The message for a text longer than `max` characters.
pub const fn too_long(max: usize) -> &'static str {
    match max {
        NAME_MAX => "At most 120 characters.",
        COMMENT_MAX => "At most 2,000 characters.",
        ADDRESS_MAX => "At most 250 characters.",
        PHONE_MAX => "At most 40 characters.",
        SHORT_MAX => "At most 100 characters.",
        DESCRIPTION_MAX => "At most 500 characters.",
        _ => "This text is too long.",
    }
}

/// Checks a text field: its length in characters and its characters. The message says what
/// to change.
pub fn check_text(value: &str, rule: Text) -> Result<(), &'static str> {
    let allowed = |c: char| match rule {
        Text::Line(_) => !c.is_control(),
        Text::Lines(_) => !c.is_control() || matches!(c, '\n' | '\r' | '\t'),
    };
    let max = rule.max();
    // Counting stops early: a megabyte of text costs no more than the limit.
    if value.chars().nth(max).is_some() {
        return Err(too_long(max));
    }
    if !value.chars().all(allowed) {
        return Err(CONTROL_CHARACTERS);
    }
    Ok(())
}

/// Checks several fields at once; returns `(field, message)` for each that fails.
pub fn check_texts<'a>(fields: impl IntoIterator<Item = (&'a str, &'a str, Text)>) -> Vec<(String, String)> {
    fields.into_iter().filter_map(|(field, value, rule)| check_text(value, rule).err().map(|m| (field.to_string(), m.to_string()))).collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_import_brings_at_most_a_sheets_1000_lines() {
        assert_eq!(check_imported_lines(1), Ok(1));
        assert_eq!(check_imported_lines(LINES_MAX), Ok(1_000));
        let refused = check_imported_lines(100_000).unwrap_err();
        assert!(refused.contains("100000 lines") && refused.contains("at most 1,000 lines"), "{refused}");
    }

    use super::*;

    #[test]
    fn list_counts_stop_at_the_cap_past_the_page() {
        assert_eq!(count_limit(0), 10_001);
        assert_eq!(counted(10_001, 0), (10_000, true));
        assert_eq!(counted(10_000, 0), (10_000, false));
        assert_eq!(counted(45, 0), (45, false));
        assert_eq!(count_limit(150_000), 160_001);
        assert_eq!(counted(160_001, 150_000), (160_000, true));
        assert_eq!(count_limit(i64::MAX), i64::MAX, "never overflows");
    }

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn dates_are_held_to_this_century() {
        assert_eq!(check_date(d(2000, 1, 1)), Ok(d(2000, 1, 1)));
        assert_eq!(check_date(d(2099, 12, 31)), Ok(d(2099, 12, 31)));
        assert_eq!(check_date(d(1999, 12, 31)), Err(DATE_OUT_OF_RANGE));
        assert_eq!(check_date(d(2100, 1, 1)), Err(DATE_OUT_OF_RANGE));
        assert_eq!(check_date(d(1, 1, 1)), Err(DATE_OUT_OF_RANGE));
        assert_eq!(check_date(d(0, 1, 1)), Err(DATE_OUT_OF_RANGE));
    }

    #[test]
    fn quantities_within_a_million_either_way() {
        assert_eq!(check_qty(1_000_000), Ok(1_000_000));
        assert_eq!(check_qty(-1_000_000), Ok(-1_000_000));
        assert_eq!(check_qty(1_000_001), Err(QTY_OUT_OF_RANGE));
        assert_eq!(check_qty(i64::MAX), Err(QTY_OUT_OF_RANGE));
        assert_eq!(check_qty(i64::MIN), Err(QTY_OUT_OF_RANGE));
    }

    #[test]
    fn text_length_counts_characters_not_bytes() {
        assert_eq!(check_text(&"é".repeat(120), Text::Line(NAME_MAX)), Ok(()));
        assert_eq!(check_text(&"a".repeat(121), Text::Line(NAME_MAX)), Err("At most 120 characters."));
        assert_eq!(check_text(&"a".repeat(1_000_000), Text::Lines(COMMENT_MAX)), Err("At most 2,000 characters."));
        assert_eq!(check_text(&"a".repeat(41), Text::Line(PHONE_MAX)), Err("At most 40 characters."));
        assert_eq!(check_text(&"a".repeat(7), Text::Line(6)), Err("This text is too long."));
        assert_eq!(check_text("", Text::Line(NAME_MAX)), Ok(()));
    }

    #[test]
    fn control_characters_are_refused_line_breaks_only_where_lines_are() {
        assert_eq!(check_text("Smith\0", Text::Line(NAME_MAX)), Err(CONTROL_CHARACTERS));
        assert_eq!(check_text("a\u{1b}[31m", Text::Lines(COMMENT_MAX)), Err(CONTROL_CHARACTERS));
        assert_eq!(check_text("two\nlines", Text::Line(NAME_MAX)), Err(CONTROL_CHARACTERS));
        assert_eq!(check_text("two\r\nlines\tand a tab", Text::Lines(COMMENT_MAX)), Ok(()));
        assert_eq!(check_text("O'Brien & Sons — Tyres", Text::Line(NAME_MAX)), Ok(()));
    }

    #[test]
    fn several_fields_report_each_failure() {
        let bad = check_texts([("name", "ok", Text::Line(PHONE_MAX)), ("note", &"x".repeat(41), Text::Line(PHONE_MAX)), ("phone", "1\0", Text::Line(PHONE_MAX))]);
        assert_eq!(bad, vec![("note".to_string(), "At most 40 characters.".to_string()), ("phone".to_string(), CONTROL_CHARACTERS.to_string())]);
    }
}
