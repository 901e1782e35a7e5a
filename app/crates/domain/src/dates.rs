//! Calendar helpers and the one rule for showing dates and times (issue 32).
//!
//! Every "today", every day boundary and every shown time is in the organisation's zone
//! (`organisations.time_zone`; Sydney when unset). Shown dates are `dd MMM yyyy` (en-AU,
//! `05 Mar 2026`), shown times `dd MMM yyyy HH:mm` (24-hour, no seconds), ranges
//! `01 Oct 2026 – 31 Oct 2026`; dense list cells may use `dd/mm/yy` with the long form as
//! the tooltip. Machine-readable values (inputs' `value`, `datetime=`, file names, JSON)
//! stay ISO. The islands mirror this in `islands/src/lib/dates.ts`.

use chrono::format::{Item, StrftimeItems};
use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};
pub use chrono_tz::Tz;

/// A display pattern parsed once. `format("%d %b %Y")` parses its pattern on every call,
/// and a list page of 150 rows shows up to five dates a row: the parsing showed in `perf`
/// of the list pages (issue 38).
macro_rules! pattern {
    ($fmt:literal) => {{
        static ITEMS: std::sync::LazyLock<Vec<Item<'static>>> = std::sync::LazyLock::new(|| StrftimeItems::new($fmt).parse_to_owned().expect("a valid date pattern"));
        ITEMS.iter()
    }};
}

/// The default zone of an organisation (DESIGN §2).
pub const DEFAULT_ZONE: Tz = chrono_tz::Australia::Sydney;

/// A company's zone from its stored name (`organisations.time_zone`): the default when the
/// name is not one the server knows (settings refuse such names, so only old rows have them).
pub fn zone_of(name: &str) -> Tz {
    crate::admin::parse_zone(name).unwrap_or(DEFAULT_ZONE)
}

/// Today's date in `zone`.
pub fn today(zone: Tz) -> NaiveDate {
    Utc::now().with_timezone(&zone).date_naive()
}

/// The UTC instant at which `day` starts in `zone` (for filtering UTC timestamps by local dates).
pub fn day_start_utc(day: NaiveDate, zone: Tz) -> NaiveDateTime {
    let midnight = day.and_hms_opt(0, 0, 0).unwrap_or_default();
    match zone.from_local_datetime(&midnight).earliest() {
        Some(t) => t.naive_utc(),
        // Midnight skipped by a DST change (not in Australian zones): fall back to UTC midnight.
        None => midnight,
    }
}

/// The UTC instants `[start, end)` of the days `from..=to` in `zone` (either end open).
pub fn days_utc(from: Option<NaiveDate>, to: Option<NaiveDate>, zone: Tz) -> (Option<NaiveDateTime>, Option<NaiveDateTime>) {
    (from.map(|d| day_start_utc(d, zone)), to.and_then(|d| d.succ_opt()).map(|d| day_start_utc(d, zone)))
}

/// A UTC timestamp (as stored) in `zone`.
pub fn local(t: NaiveDateTime, zone: Tz) -> DateTime<Tz> {
    zone.from_utc_datetime(&t)
}

/// The day a UTC timestamp falls on in `zone`.
pub fn local_date(t: NaiveDateTime, zone: Tz) -> NaiveDate {
    local(t, zone).date_naive()
}

/// A date as shown: `05 Mar 2026`.
pub fn date(d: NaiveDate) -> String {
    d.format_with_items(pattern!("%d %b %Y")).to_string()
}

/// A date in a dense list cell: `05/03/26` (the cell's tooltip is [`date`]).
pub fn short_date(d: NaiveDate) -> String {
    d.format_with_items(pattern!("%d/%m/%y")).to_string()
}

/// A UTC timestamp as shown in `zone`: `27 Nov 2026 07:11` (24-hour, no seconds).
pub fn date_time(t: NaiveDateTime, zone: Tz) -> String {
    local(t, zone).format_with_items(pattern!("%d %b %Y %H:%M")).to_string()
}

/// The machine-readable form of a shown time (`<time datetime=…>`): RFC 3339 with the
/// zone's offset, e.g. `2026-11-27T07:11:00+11:00`.
pub fn date_time_iso(t: NaiveDateTime, zone: Tz) -> String {
    local(t, zone).format_with_items(pattern!("%Y-%m-%dT%H:%M:%S%:z")).to_string()
}

/// A range of days as shown: `01 Oct 2026 – 31 Oct 2026`.
pub fn range(from: NaiveDate, to: NaiveDate) -> String {
    format!("{} – {}", date(from), date(to))
}

/// A stored range label (`2026-10-01~2026-10-31`, or one `2026-10-01`) as shown; anything
/// else unchanged.
pub fn range_text(label: &str) -> String {
    let day = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
    if label == "all" {
        // An export of a list without a date range (`domain::exports::range_label`).
        return "All dates".into();
    }
    match label.split_once('~') {
        Some((f, t)) => match (day(f), day(t)) {
            (Some(f), Some(t)) => range(f, t),
            _ => label.to_string(),
        },
        None => day(label).map(date).unwrap_or_else(|| label.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn sydney_midnight_is_the_previous_utc_afternoon() {
        // AEDT is UTC+11 in January.
        assert_eq!(day_start_utc(d(2026, 1, 15), DEFAULT_ZONE), d(2026, 1, 14).and_hms_opt(13, 0, 0).unwrap());
        // AEST is UTC+10 in July.
        assert_eq!(day_start_utc(d(2026, 7, 15), DEFAULT_ZONE), d(2026, 7, 14).and_hms_opt(14, 0, 0).unwrap());
    }

    #[test]
    fn dates_and_times_show_one_way_in_the_companys_zone() {
        assert_eq!(date(d(2026, 3, 5)), "05 Mar 2026");
        assert_eq!(short_date(d(2026, 3, 5)), "05/03/26");
        assert_eq!(range(d(2026, 10, 1), d(2026, 10, 31)), "01 Oct 2026 – 31 Oct 2026");
        assert_eq!(range_text("2026-10-01~2026-10-31"), "01 Oct 2026 – 31 Oct 2026");
        assert_eq!(range_text("2026-11-27"), "27 Nov 2026");
        assert_eq!(range_text(""), "");
        // 20:11 UTC on 26 Nov is 07:11 on the 27th in Sydney (AEDT), 04:11 in Perth (AWST)
        // and 09:11 in Auckland (NZDT).
        let t = d(2026, 11, 26).and_hms_opt(20, 11, 42).unwrap();
        assert_eq!(date_time(t, DEFAULT_ZONE), "27 Nov 2026 07:11");
        assert_eq!(date_time(t, chrono_tz::Australia::Perth), "27 Nov 2026 04:11");
        assert_eq!(date_time(t, chrono_tz::Pacific::Auckland), "27 Nov 2026 09:11");
        assert_eq!(date_time_iso(t, DEFAULT_ZONE), "2026-11-27T07:11:42+11:00");
        assert_eq!(local_date(t, DEFAULT_ZONE), d(2026, 11, 27));
        assert_eq!(local_date(d(2026, 11, 26).and_hms_opt(15, 59, 0).unwrap(), chrono_tz::Australia::Perth), d(2026, 11, 26));
    }

    #[test]
    fn a_day_in_perth_runs_from_its_midnight_to_the_next() {
        let (from, to) = days_utc(Some(d(2026, 11, 27)), Some(d(2026, 11, 27)), chrono_tz::Australia::Perth);
        assert_eq!(from, Some(d(2026, 11, 26).and_hms_opt(16, 0, 0).unwrap()));
        assert_eq!(to, Some(d(2026, 11, 27).and_hms_opt(16, 0, 0).unwrap()));
        assert_eq!(days_utc(None, None, DEFAULT_ZONE), (None, None));
    }
}
