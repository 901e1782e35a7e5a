//! Calendar helpers: "today" and day boundaries in the organisation's time zone.

use chrono::{NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;

/// The default zone of an organisation (DESIGN §2).
pub const DEFAULT_ZONE: Tz = chrono_tz::Australia::Sydney;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sydney_midnight_is_the_previous_utc_afternoon() {
        let d = NaiveDate::from_ymd_opt(2026, 1, 15).unwrap();
        // AEDT is UTC+11 in January.
        assert_eq!(day_start_utc(d, DEFAULT_ZONE), NaiveDate::from_ymd_opt(2026, 1, 14).unwrap().and_hms_opt(13, 0, 0).unwrap());
        let w = NaiveDate::from_ymd_opt(2026, 7, 15).unwrap();
        // AEST is UTC+10 in July.
        assert_eq!(day_start_utc(w, DEFAULT_ZONE), NaiveDate::from_ymd_opt(2026, 7, 14).unwrap().and_hms_opt(14, 0, 0).unwrap());
    }
}
