//! A customer's statement (issue 33): which month it covers and how its closing balance is
//! aged by due date at the month's end (docs/decisions/documents.md, "Quotations,
//! statements and purchase orders").

use chrono::{Datelike, Months, NaiveDate};

use super::money::Cents;

/// The message for a month that is not `YYYY-MM`.
pub const MONTH_FORMAT: &str = "Choose the statement's month as YYYY-MM, e.g. 2026-10.";

/// The first and last day of a calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    pub first: NaiveDate,
    pub last: NaiveDate,
}

impl Month {
    /// The month holding `day`.
    pub fn of(day: NaiveDate) -> Self {
        let first = day.with_day(1).unwrap_or(day);
        let last = first.checked_add_months(Months::new(1)).and_then(|d| d.pred_opt()).unwrap_or(first);
        Self { first, last }
    }

    /// The month before the one holding `today`: a statement's default.
    pub fn before(today: NaiveDate) -> Self {
        Self::of(Self::of(today).first.pred_opt().unwrap_or(today))
    }

    /// `YYYY-MM` as typed (empty: the month before `today`); a month after `today`'s is
    /// refused, as nothing can be stated about it yet.
    pub fn parse(text: Option<&str>, today: NaiveDate) -> Result<Self, &'static str> {
        let t = text.map(str::trim).unwrap_or("");
        if t.is_empty() {
            return Ok(Self::before(today));
        }
        let (y, m) = t.split_once('-').ok_or(MONTH_FORMAT)?;
        let ok = y.len() == 4 && m.len() == 2 && y.chars().chain(m.chars()).all(|c| c.is_ascii_digit());
        let (y, m): (i32, u32) = if ok { (y.parse().map_err(|_| MONTH_FORMAT)?, m.parse().map_err(|_| MONTH_FORMAT)?) } else { return Err(MONTH_FORMAT) };
        let first = NaiveDate::from_ymd_opt(y, m, 1).filter(|_| y >= 2000).ok_or(MONTH_FORMAT)?;
        if first > Self::of(today).first {
            return Err("A statement can only be made for this month or an earlier one.");
        }
        Ok(Self::of(first))
    }

    /// `2026-10`.
    pub fn code(self) -> String {
        self.first.format("%Y-%m").to_string()
    }

    /// `October 2026`.
    pub fn label(self) -> String {
        self.first.format("%B %Y").to_string()
    }
}

/// The ageing buckets, in order.
pub const BUCKETS: [&str; 5] = ["Current", "1–30 days", "31–60 days", "61–90 days", "90+ days"];

/// Which bucket an amount due on `due` falls in at `at`: not yet past due is Current, then
/// by whole days past due, 1–30, 31–60, 61–90 and over 90.
pub fn bucket(due: NaiveDate, at: NaiveDate) -> usize {
    match (at - due).num_days() {
        ..=0 => 0,
        1..=30 => 1,
        31..=60 => 2,
        61..=90 => 3,
        _ => 4,
    }
}

/// A closing balance split by how far past due its parts are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ageing(pub [Cents; 5]);

impl Ageing {
    /// The outstanding amounts (credit notes negative) each with its due date, aged at `at`.
    pub fn of(items: impl IntoIterator<Item = (NaiveDate, Cents)>, at: NaiveDate) -> Self {
        let mut b = [Cents::ZERO; 5];
        for (due, amount) in items {
            let i = bucket(due, at);
            b[i] = Cents(b[i].0.saturating_add(amount.0));
        }
        Self(b)
    }

    pub fn total(&self) -> Cents {
        Cents(self.0.iter().fold(0i64, |s, c| s.saturating_add(c.0)))
    }
}

/// The report-queue kind of the statements of every customer with a balance (one PDF).
pub const JOB_KIND: &str = "statements";

/// Its title in the Download Center.
pub const JOB_TITLE: &str = "Customer Statements (every customer with a balance)";

/// The file name of a statements job of `date_range` (`2026-10-01..2026-10-31`).
pub fn download_name(date_range: &str) -> String {
    let code = date_range.get(..7).unwrap_or("");
    format!("Statements {code}.pdf")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn months_parse_default_to_last_month_and_refuse_the_future() {
        let today = d(2026, 11, 27);
        assert_eq!(Month::parse(None, today).unwrap(), Month { first: d(2026, 10, 1), last: d(2026, 10, 31) });
        assert_eq!(Month::parse(Some(" "), d(2026, 1, 5)).unwrap(), Month { first: d(2025, 12, 1), last: d(2025, 12, 31) });
        assert_eq!(Month::parse(Some("2024-02"), today).unwrap().last, d(2024, 2, 29));
        assert_eq!(Month::parse(Some("2026-11"), today).unwrap().first, d(2026, 11, 1));
        for bad in ["2026-13", "2026-1", "26-10", "2026/10", "x", "2026-10-01", "1999-12"] {
            assert_eq!(Month::parse(Some(bad), today), Err(MONTH_FORMAT), "{bad}");
        }
        assert!(Month::parse(Some("2026-12"), today).unwrap_err().contains("earlier"));
        assert_eq!(Month::of(d(2026, 10, 9)).code(), "2026-10");
        assert_eq!(Month::of(d(2026, 10, 9)).label(), "October 2026");
    }

    #[test]
    fn ageing_buckets_by_whole_days_past_due() {
        let at = d(2026, 10, 31);
        assert_eq!(bucket(d(2026, 11, 15), at), 0, "not yet due");
        assert_eq!(bucket(at, at), 0, "due today is current");
        assert_eq!(bucket(d(2026, 10, 30), at), 1);
        assert_eq!(bucket(d(2026, 10, 1), at), 1, "30 days");
        assert_eq!(bucket(d(2026, 9, 30), at), 2, "31 days");
        assert_eq!(bucket(d(2026, 9, 1), at), 2, "60 days");
        assert_eq!(bucket(d(2026, 8, 31), at), 3, "61 days");
        assert_eq!(bucket(d(2026, 8, 2), at), 3, "90 days");
        assert_eq!(bucket(d(2026, 8, 1), at), 4, "91 days");
    }

    #[test]
    fn ageing_sums_to_the_balance_with_credits_negative() {
        let at = d(2026, 10, 31);
        let a = Ageing::of([(d(2026, 11, 30), Cents(100_00)), (d(2026, 10, 10), Cents(50_00)), (d(2026, 10, 20), Cents(-20_00)), (d(2026, 6, 1), Cents(7_00))], at);
        assert_eq!(a.0, [Cents(100_00), Cents(30_00), Cents::ZERO, Cents::ZERO, Cents(7_00)]);
        assert_eq!(a.total(), Cents(137_00));
    }
}
