//! Due dates from payment terms (spec §9, DESIGN §5) and the date pickers' shortcuts.

use chrono::{Datelike, Days, Months, NaiveDate};

use crate::enums::{DrafterType, OrderType, PaymentType};

/// The organisations from this id on put 'month' terms at the end of the next month (DESIGN §5).
pub const NEXT_MONTH_END_FROM_ORG: i64 = 9;

/// Which rule a payment term selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DueRule {
    /// 'week': the next Monday strictly after today.
    NextMonday,
    /// 'month': month end (this month below org 9, next month from org 9).
    MonthEnd,
    /// 'night' (fortnight): the 14th while the day is before the 15th, else month end.
    Fortnight,
    /// '30': thirty days ahead.
    ThirtyDays,
    /// Any other term: due today.
    Today,
}

/// The rule for a payment term, matched case-insensitively.
///
/// When a term matches several keywords the first of week, month, night, 30 wins, so
/// "Monthly (30 days)" is a month-end term; the order is the one the specification lists.
pub fn due_rule(payment_term: &str) -> DueRule {
    let term = payment_term.to_lowercase();
    if term.contains("week") {
        DueRule::NextMonday
    } else if term.contains("month") {
        DueRule::MonthEnd
    } else if term.contains("night") {
        DueRule::Fortnight
    } else if term.contains("30") {
        DueRule::ThirtyDays
    } else {
        DueRule::Today
    }
}

/// The due date of a sheet dated `today` for a customer on `payment_term` in organisation `org_id`.
pub fn due_date(payment_term: &str, today: NaiveDate, org_id: i64) -> NaiveDate {
    match due_rule(payment_term) {
        DueRule::NextMonday => next_monday(today),
        DueRule::MonthEnd if org_id >= NEXT_MONTH_END_FROM_ORG => month_end(today, 1),
        DueRule::MonthEnd => month_end(today, 0),
        DueRule::Fortnight if today.day() < 15 => today.with_day(14).unwrap_or(today),
        DueRule::Fortnight => month_end(today, 0),
        DueRule::ThirtyDays => add_days(today, 30),
        DueRule::Today => today,
    }
}

/// The payment term of a customer's stored payment type; an unknown code has no term (due today).
pub fn payment_term(payment_type: i32) -> &'static str {
    PaymentType::from_i32(payment_type)
        .map(PaymentType::label)
        .unwrap_or("")
}

/// A new sheet's due date: the one given, else for an invoice or credit note raised by staff
/// for a customer (`payment_term` is the customer's) the terms' due date from the sheet's
/// `date`, as the sheet form fills it. A customer's own shop order stays undated: staff take
/// it up by setting its due date, and the self-order badge counts the undated ones.
pub fn due_date_for_new_sheet(
    order_type: OrderType,
    drafter: DrafterType,
    given: Option<NaiveDate>,
    payment_term: Option<&str>,
    date: NaiveDate,
    org_id: i64,
) -> Option<NaiveDate> {
    if given.is_some() || !order_type.is_sales() || drafter.is_self_order() {
        return given;
    }
    payment_term.map(|term| due_date(term, date, org_id))
}

/// A date-picker shortcut (spec §2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateShortcut {
    /// Today.
    Today,
    /// Today + 1 day.
    Tomorrow,
    /// Today + 7 days.
    OneWeek,
    /// Today + 14 days.
    TwoWeeks,
    /// Today + 30 days (not a calendar month).
    OneMonth,
}

impl DateShortcut {
    /// Every shortcut, in the picker's order.
    pub const ALL: &'static [Self] = &[
        Self::Today,
        Self::Tomorrow,
        Self::OneWeek,
        Self::TwoWeeks,
        Self::OneMonth,
    ];

    /// The button text.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Today => "Today",
            Self::Tomorrow => "Tomorrow",
            Self::OneWeek => "1 Week",
            Self::TwoWeeks => "2 Weeks",
            Self::OneMonth => "1 Month",
        }
    }

    /// How many days after today the shortcut lands.
    pub const fn days(self) -> u64 {
        match self {
            Self::Today => 0,
            Self::Tomorrow => 1,
            Self::OneWeek => 7,
            Self::TwoWeeks => 14,
            Self::OneMonth => 30,
        }
    }
}

/// The date a shortcut picks when pressed on `today`.
pub fn date_shortcut(kind: DateShortcut, today: NaiveDate) -> NaiveDate {
    add_days(today, kind.days())
}

// Chrono's checked arithmetic only fails at the end of its calendar (year 262143);
// saturating there keeps these functions total without a panic path.

fn add_days(date: NaiveDate, days: u64) -> NaiveDate {
    date.checked_add_days(Days::new(days))
        .unwrap_or(NaiveDate::MAX)
}

fn next_monday(today: NaiveDate) -> NaiveDate {
    let ahead = 7 - u64::from(today.weekday().num_days_from_monday());
    add_days(today, ahead)
}

/// The last day of the month `months_ahead` months after `date`'s month.
fn month_end(date: NaiveDate, months_ahead: u32) -> NaiveDate {
    // Step from the 1st so 31 January never spills into March.
    date.with_day(1)
        .and_then(|first| first.checked_add_months(Months::new(months_ahead + 1)))
        .and_then(|first_after| first_after.pred_opt())
        .unwrap_or(NaiveDate::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Weekday;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).expect("valid test date")
    }

    #[test]
    fn every_payment_type_for_both_org_ranges() {
        // Tuesday 10 Mar 2026.
        let today = d(2026, 3, 10);
        // (payment type, due below org 9, due from org 9)
        let table = [
            (PaymentType::CodChq, today, today),
            (PaymentType::CodTransfer, today, today),
            (PaymentType::CodEft, today, today),
            (PaymentType::CodPos, today, today),
            (PaymentType::CodCash, today, today),
            (PaymentType::CodCard, today, today),
            (PaymentType::Cod, today, today),
            (PaymentType::MustCod, today, today),
            (PaymentType::Chq, today, today),
            (PaymentType::Cbd, today, today),
            (PaymentType::CardDeduction, today, today),
            (PaymentType::Weekly, d(2026, 3, 16), d(2026, 3, 16)),
            (PaymentType::Fortnightly, d(2026, 3, 14), d(2026, 3, 14)),
            (PaymentType::Monthly, d(2026, 3, 31), d(2026, 4, 30)),
            (PaymentType::ThirtyDays, d(2026, 4, 9), d(2026, 4, 9)),
            (PaymentType::TransferThemselves, today, today),
            (PaymentType::Other, today, today),
        ];
        assert_eq!(table.len(), PaymentType::ALL.len());
        for (payment, below_9, from_9) in table {
            for org in [1, 4, 8] {
                assert_eq!(
                    due_date(payment.label(), today, org),
                    below_9,
                    "{payment:?} org {org}"
                );
            }
            for org in [9, 10, 42] {
                assert_eq!(
                    due_date(payment.label(), today, org),
                    from_9,
                    "{payment:?} org {org}"
                );
            }
        }
    }

    #[test]
    fn every_payment_type_late_in_the_month() {
        // Friday 20 Mar 2026: the fortnight rule now gives the month end.
        let today = d(2026, 3, 20);
        let expect = |p: PaymentType, org: i64| match p {
            PaymentType::Weekly => d(2026, 3, 23),
            PaymentType::Fortnightly => d(2026, 3, 31),
            PaymentType::Monthly if org >= 9 => d(2026, 4, 30),
            PaymentType::Monthly => d(2026, 3, 31),
            PaymentType::ThirtyDays => d(2026, 4, 19),
            _ => today,
        };
        for payment in PaymentType::ALL {
            for org in [4, 9] {
                assert_eq!(
                    due_date(payment.label(), today, org),
                    expect(*payment, org),
                    "{payment:?} org {org}"
                );
            }
        }
    }

    #[test]
    fn week_terms_give_the_next_monday_strictly_after_today() {
        // 9 Mar 2026 is a Monday.
        let table = [
            (d(2026, 3, 9), d(2026, 3, 16)), // Monday -> the following Monday, never today
            (d(2026, 3, 10), d(2026, 3, 16)),
            (d(2026, 3, 14), d(2026, 3, 16)), // Saturday
            (d(2026, 3, 15), d(2026, 3, 16)), // Sunday -> tomorrow
            (d(2026, 12, 27), d(2026, 12, 28)),
            (d(2026, 12, 29), d(2027, 1, 4)), // across the year end
            (d(2024, 2, 27), d(2024, 3, 4)),  // across a leap February
        ];
        for (today, monday) in table {
            let due = due_date("Weekly", today, 4);
            assert_eq!(due, monday, "from {today}");
            assert_eq!(due.weekday(), Weekday::Mon);
            assert!(due > today && (due - today).num_days() <= 7);
        }
    }

    #[test]
    fn month_terms_for_orgs_below_9_give_this_month_end() {
        let table = [
            (d(2024, 2, 1), d(2024, 2, 29)), // leap year
            (d(2024, 2, 29), d(2024, 2, 29)),
            (d(2025, 2, 10), d(2025, 2, 28)),
            (d(2026, 4, 30), d(2026, 4, 30)), // already the last day
            (d(2026, 12, 5), d(2026, 12, 31)),
            (d(2026, 1, 31), d(2026, 1, 31)),
        ];
        for (today, end) in table {
            assert_eq!(due_date("Monthly", today, 8), end, "from {today}");
        }
    }

    #[test]
    fn month_terms_from_org_9_give_next_month_end() {
        let table = [
            (d(2024, 1, 15), d(2024, 2, 29)), // into a leap February
            (d(2025, 1, 31), d(2025, 2, 28)), // 31 Jan never overflows into March
            (d(2024, 2, 29), d(2024, 3, 31)),
            (d(2026, 3, 31), d(2026, 4, 30)),
            (d(2026, 12, 5), d(2027, 1, 31)), // December -> January next year
            (d(2026, 11, 30), d(2026, 12, 31)),
        ];
        for (today, end) in table {
            assert_eq!(due_date("Monthly", today, 9), end, "from {today}");
        }
    }

    #[test]
    fn fortnight_terms_switch_on_the_15th() {
        let table = [
            (d(2026, 3, 1), d(2026, 3, 14)),
            (d(2026, 3, 14), d(2026, 3, 14)), // the 14th is due the same day
            (d(2026, 3, 15), d(2026, 3, 31)),
            (d(2024, 2, 20), d(2024, 2, 29)),
            (d(2025, 2, 15), d(2025, 2, 28)),
            (d(2026, 12, 31), d(2026, 12, 31)),
        ];
        for (today, due) in table {
            for org in [4, 9] {
                assert_eq!(
                    due_date("Fortnightly", today, org),
                    due,
                    "from {today} org {org}"
                );
            }
        }
    }

    #[test]
    fn thirty_day_terms_add_thirty_days() {
        let table = [
            (d(2024, 2, 1), d(2024, 3, 2)), // leap February has 29 days
            (d(2025, 2, 1), d(2025, 3, 3)),
            (d(2026, 12, 15), d(2027, 1, 14)),
            (d(2026, 3, 10), d(2026, 4, 9)),
        ];
        for (today, due) in table {
            assert_eq!(due_date("30-Days", today, 4), due, "from {today}");
            assert_eq!(due_date("30-Days", today, 9), due, "from {today}");
        }
    }

    #[test]
    fn keywords_match_case_insensitively_in_order_week_month_night_30() {
        let table = [
            ("WEEKLY", DueRule::NextMonday),
            ("every week", DueRule::NextMonday),
            ("MONTHLY", DueRule::MonthEnd),
            ("end of month", DueRule::MonthEnd),
            ("FORTNIGHTLY", DueRule::Fortnight),
            ("30 days", DueRule::ThirtyDays),
            ("Net 30", DueRule::ThirtyDays),
            ("week or month", DueRule::NextMonday),
            ("Monthly (30 days)", DueRule::MonthEnd),
            ("month or fortnight", DueRule::MonthEnd),
            ("fortnight, 30 max", DueRule::Fortnight),
            ("weekly 30", DueRule::NextMonday),
            ("", DueRule::Today),
            ("COD", DueRule::Today),
            ("3 0 days", DueRule::Today),
            ("60-Days", DueRule::Today),
        ];
        for (term, rule) in table {
            assert_eq!(due_rule(term), rule, "{term:?}");
        }
    }

    #[test]
    fn payment_terms_read_from_the_stored_code() {
        for payment in PaymentType::ALL {
            assert_eq!(payment_term(payment.as_i32()), payment.label());
        }
        assert_eq!(payment_term(0), "");
        assert_eq!(payment_term(999), "");
    }

    #[test]
    fn a_new_sheet_without_a_due_date_takes_its_customers_terms_unless_self_ordered() {
        // Tuesday 10 Mar 2026; Monthly is the month end below org 9.
        let date = d(2026, 3, 10);
        let given = d(2026, 5, 1);
        let staff = [
            DrafterType::Admin,
            DrafterType::StaffService,
            DrafterType::StaffBusiness,
        ];
        for t in OrderType::ALL {
            for drafter in DrafterType::ALL {
                let new = |given, term| due_date_for_new_sheet(*t, *drafter, given, term, date, 4);
                assert_eq!(
                    new(Some(given), Some("Monthly")),
                    Some(given),
                    "{t:?} {drafter:?}: a given date is kept"
                );
                assert_eq!(
                    new(Some(given), None),
                    Some(given),
                    "{t:?} {drafter:?}: a given date is kept"
                );
                assert_eq!(
                    new(None, None),
                    None,
                    "{t:?} {drafter:?}: no customer, no terms"
                );
                let filled = t.is_sales() && staff.contains(drafter);
                assert_eq!(
                    new(None, Some("Monthly")),
                    filled.then(|| d(2026, 3, 31)),
                    "{t:?} {drafter:?}"
                );
                assert_eq!(
                    new(None, Some("COD")),
                    filled.then_some(date),
                    "{t:?} {drafter:?}: COD is due on the day"
                );
            }
        }
        // The organisation's month rule applies as on the form.
        let from_9 = due_date_for_new_sheet(
            OrderType::Invoice,
            DrafterType::StaffService,
            None,
            Some("Monthly"),
            date,
            9,
        );
        assert_eq!(from_9, Some(d(2026, 4, 30)));
        assert_eq!(
            due_date_for_new_sheet(
                OrderType::Invoice,
                DrafterType::Customer,
                None,
                Some("Weekly"),
                date,
                4
            ),
            None,
            "a shop order stays undated"
        );
    }

    #[test]
    fn shortcuts_add_fixed_days() {
        let today = d(2026, 1, 31);
        let table = [
            (DateShortcut::Today, "Today", d(2026, 1, 31)),
            (DateShortcut::Tomorrow, "Tomorrow", d(2026, 2, 1)),
            (DateShortcut::OneWeek, "1 Week", d(2026, 2, 7)),
            (DateShortcut::TwoWeeks, "2 Weeks", d(2026, 2, 14)),
            (DateShortcut::OneMonth, "1 Month", d(2026, 3, 2)), // 30 days, not "31 Feb"
        ];
        assert_eq!(table.len(), DateShortcut::ALL.len());
        for ((kind, label, date), listed) in table.iter().zip(DateShortcut::ALL) {
            assert_eq!(kind, listed, "picker order");
            assert_eq!(kind.label(), *label);
            assert_eq!(date_shortcut(*kind, today), *date, "{kind:?}");
        }
        assert_eq!(
            date_shortcut(DateShortcut::Tomorrow, d(2026, 12, 31)),
            d(2027, 1, 1)
        );
    }

    #[test]
    fn calendar_end_saturates_instead_of_panicking() {
        let last = NaiveDate::MAX;
        assert_eq!(due_date("30-Days", last, 4), NaiveDate::MAX);
        assert_eq!(due_date("Monthly", last, 9), NaiveDate::MAX);
        assert_eq!(due_date("Weekly", last, 4), NaiveDate::MAX);
        assert_eq!(date_shortcut(DateShortcut::OneMonth, last), NaiveDate::MAX);
    }
}
