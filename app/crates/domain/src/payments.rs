//! Payments read back from Xero for sent sales invoices (issue 31, docs/decisions/xero.md
//! "Payments read back"): Xero's `/Date(ms+0000)/` times, the payment state a sheet shows,
//! a customer's overdue amount, and how many days their oldest unpaid invoice is past due.

use chrono::{DateTime, NaiveDate, NaiveDateTime};

use super::money::Cents;

/// A time in Xero's JSON form `/Date(1573755038314+0000)/` (milliseconds since 1970 in UTC;
/// the offset, when present, is informational), as UTC. `None` for anything else.
pub fn parse_ms_date(text: &str) -> Option<NaiveDateTime> {
    let inner = text.trim().strip_prefix("/Date(")?.strip_suffix(")/")?;
    // The offset follows the milliseconds as `+hhmm` or `-hhmm`; a negative time starts with '-'.
    let end = inner.char_indices().skip(1).find(|(_, c)| *c == '+' || *c == '-').map_or(inner.len(), |(i, _)| i);
    let (ms, offset) = inner.split_at(end);
    if !offset.is_empty() && !(offset.len() == 5 && offset[1..].chars().all(|c| c.is_ascii_digit())) {
        return None;
    }
    let ms: i64 = ms.parse().ok()?;
    DateTime::from_timestamp_millis(ms).map(|t| t.naive_utc())
}

/// A time as the `If-Modified-Since` header carries it (RFC 3339 in UTC, to the
/// millisecond, as Xero's description has it: `2020-02-06T12:17:43.202Z`).
pub fn if_modified_since(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Invoices Xero answers in one page of `GET /Invoices`: a full page means another may follow.
pub const PAGE_SIZE: usize = 100;

/// The payment state of a sent invoice, as the lists and the detail page show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentState {
    /// Nothing is due.
    Paid,
    /// Something was paid and something is still due.
    PartPaid,
    /// Past its due date with something due, by this many whole days.
    Overdue(i64),
}

impl PaymentState {
    /// "Paid", "Part paid", "Overdue 3 days" ("Overdue 1 day").
    pub fn label(self) -> String {
        match self {
            Self::Paid => "Paid".into(),
            Self::PartPaid => "Part paid".into(),
            Self::Overdue(1) => "Overdue 1 day".into(),
            Self::Overdue(n) => format!("Overdue {n} days"),
        }
    }

    /// The tag colour the pages give it.
    pub fn tone(self) -> &'static str {
        match self {
            Self::Paid => "green",
            Self::PartPaid => "amber",
            Self::Overdue(_) => "red",
        }
    }
}

/// The payment state of a sent invoice from what Xero last said (`None` before it was read):
/// Paid when nothing is due; Overdue N days when something is due and its due date is before
/// `today` (N whole days), paid in part or not — money late is what the counter must see
/// first; Part paid when something was paid and the rest is not due yet; else nothing.
pub fn payment_state(amount_due: Option<Cents>, amount_paid: Option<Cents>, due_date: NaiveDate, today: NaiveDate) -> Option<PaymentState> {
    let due = amount_due?;
    let paid = amount_paid.unwrap_or(Cents::ZERO);
    if due <= Cents::ZERO {
        return Some(PaymentState::Paid);
    }
    let late = (today - due_date).num_days();
    if late > 0 {
        return Some(PaymentState::Overdue(late));
    }
    (paid > Cents::ZERO).then_some(PaymentState::PartPaid)
}

/// A customer's sent invoice as the overdue rules see it: what Xero says is still due, and
/// the due date (the sheet's date when it has none, as it was sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owed {
    pub amount_due: Cents,
    pub due_date: NaiveDate,
}

impl Owed {
    fn is_overdue(&self, today: NaiveDate) -> bool {
        self.amount_due > Cents::ZERO && self.due_date < today
    }
}

/// The customer's overdue amount: the sum of what is due on their sent invoices past their
/// due date. `None` when the sum leaves what money holds.
pub fn overdue_amount(invoices: &[Owed], today: NaiveDate) -> Option<Cents> {
    invoices.iter().filter(|i| i.is_overdue(today)).try_fold(Cents::ZERO, |sum, i| sum.checked_add(i.amount_due))
}

/// How many whole days the customer's longest-overdue invoice is past due (0 when none is).
pub fn days_overdue(invoices: &[Owed], today: NaiveDate) -> i64 {
    invoices.iter().filter(|i| i.is_overdue(today)).map(|i| (today - i.due_date).num_days()).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    #[test]
    fn xeros_dates_are_read_as_utc_with_or_without_an_offset() {
        let t = parse_ms_date("/Date(1573755038314+0000)/").unwrap();
        assert_eq!(t.to_string(), "2019-11-14 18:10:38.314");
        assert_eq!(parse_ms_date("/Date(1573755038314)/"), Some(t));
        assert_eq!(parse_ms_date("/Date(1573755038314+1300)/"), Some(t), "the offset is informational");
        assert_eq!(parse_ms_date("/Date(1764460800000+0000)/").unwrap().date(), NaiveDate::from_ymd_opt(2025, 11, 30).unwrap());
        assert_eq!(parse_ms_date("/Date(-1000+0000)/").unwrap().to_string(), "1969-12-31 23:59:59");
        for bad in ["", "2019-11-14", "/Date()/", "/Date(12a)/", "/Date(1+00)/", "Date(1)", "/Date(99999999999999999999)/"] {
            assert_eq!(parse_ms_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_cursor_goes_out_as_rfc_3339_utc_and_comes_back_the_same() {
        let t = parse_ms_date("/Date(1573755038314+0000)/").unwrap();
        assert_eq!(if_modified_since(t), "2019-11-14T18:10:38.314Z");
        let whole = NaiveDate::from_ymd_opt(2026, 11, 30).unwrap().and_hms_opt(9, 5, 0).unwrap();
        assert_eq!(if_modified_since(whole), "2026-11-30T09:05:00.000Z");
        assert_eq!(DateTime::parse_from_rfc3339(&if_modified_since(t)).unwrap().naive_utc(), t);
    }

    #[test]
    fn the_payment_state_is_paid_part_paid_overdue_or_nothing() {
        let today = day(20);
        let s = |due: Option<i64>, paid: Option<i64>, due_date| payment_state(due.map(Cents), paid.map(Cents), due_date, today);
        assert_eq!(s(None, None, day(1)), None, "not read yet");
        assert_eq!(s(Some(0), Some(11_000), day(1)), Some(PaymentState::Paid));
        assert_eq!(s(Some(0), Some(0), day(25)), Some(PaymentState::Paid), "a $0 invoice owes nothing");
        assert_eq!(s(Some(5_000), Some(6_000), day(25)), Some(PaymentState::PartPaid));
        assert_eq!(s(Some(5_000), Some(6_000), day(1)), Some(PaymentState::Overdue(19)), "late money shows first, paid in part or not");
        assert_eq!(s(Some(11_000), Some(0), day(17)), Some(PaymentState::Overdue(3)));
        assert_eq!(s(Some(11_000), None, day(19)), Some(PaymentState::Overdue(1)));
        assert_eq!(s(Some(11_000), Some(0), day(20)), None, "due today is not overdue");
        assert_eq!(s(Some(11_000), Some(0), day(28)), None);
        assert_eq!(PaymentState::Overdue(3).label(), "Overdue 3 days");
        assert_eq!(PaymentState::Overdue(1).label(), "Overdue 1 day");
        assert_eq!((PaymentState::Paid.label(), PaymentState::PartPaid.label()), ("Paid".to_string(), "Part paid".to_string()));
    }

    #[test]
    fn the_overdue_amount_sums_what_is_due_past_the_due_date() {
        let today = day(20);
        let owed = [
            Owed { amount_due: Cents(10_000), due_date: day(10) },
            Owed { amount_due: Cents(2_550), due_date: day(19) },
            Owed { amount_due: Cents(7_000), due_date: day(20) }, // due today
            Owed { amount_due: Cents(9_000), due_date: day(30) }, // not yet due
            Owed { amount_due: Cents::ZERO, due_date: day(1) },   // paid
        ];
        assert_eq!(overdue_amount(&owed, today), Some(Cents(12_550)));
        assert_eq!(days_overdue(&owed, today), 10);
        assert_eq!(overdue_amount(&[], today), Some(Cents::ZERO));
        assert_eq!(days_overdue(&owed[2..], today), 0);
        let huge = [Owed { amount_due: Cents(i64::MAX), due_date: day(1) }, Owed { amount_due: Cents(1), due_date: day(1) }];
        assert_eq!(overdue_amount(&huge, today), None, "checked arithmetic");
    }
}
