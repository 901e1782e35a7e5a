//! Spreadsheet exports of the sheet lists: written while the request waits, or, when too
//! many sheets match to wait for, prepared as a job of the Download Center (issue 37).

use crate::money::thousands;

/// The report-queue kind of a sheet export too large to wait for.
pub const JOB_KIND: &str = "sheetsExport";

/// Its title in the Download Center.
pub const JOB_TITLE: &str = "Sheets export";

/// The most sheets an export writes while its request waits. All of a large wholesaler's
/// invoices at scale L (620,000) are written in under 8 s; the every-type export of the API
/// at L (1M sheets, 136 MB) took 21 s on SQLite and ran into the read timeout on
/// PostgreSQL. Past this, the export is a job, so no export is cut off and nobody watches a
/// download that has not started.
pub const DIRECT_MAX: i64 = 750_000;

/// Whether an export of `sheets` sheets is written while its request waits.
pub fn waits_for(sheets: i64) -> bool {
    sheets <= DIRECT_MAX
}

/// What the person who asked is told when the export went to the Download Center, more
/// than `limit` sheets matching.
pub fn queued_message(limit: i64) -> String {
    format!("More than {} sheets match, too many to wait for: the export is being prepared in the Download Center, where it can be downloaded when it is ready.", thousands(limit))
}

/// The range part of the job's file name: the list's date range, or `all`.
pub fn range_label(from: Option<chrono::NaiveDate>, to: Option<chrono::NaiveDate>) -> String {
    match (from, to) {
        (None, None) => "all".into(),
        (f, t) => format!("{}~{}", f.map(|d| d.to_string()).unwrap_or_default(), t.map(|d| d.to_string()).unwrap_or_default()),
    }
}

/// The part of a sheet export job's parameters the Download Center reads: whether the person
/// who asked sees cost (then the file shows purchase amounts and is hidden from those who do
/// not). The job's other parameters (the list's filter) are the services'.
#[derive(serde::Deserialize)]
struct Sight {
    cost: bool,
}

/// Whether a sheet export job with `params` shows cost; unreadable parameters count as
/// showing it, so a doubtful file is never shown to those who may not see cost.
pub fn job_shows_cost(params: &str) -> bool {
    serde_json::from_str::<Sight>(params).map_or(true, |s| s.cost)
}

/// The name a finished export job's file downloads as (`orders-2026-01-01~2026-12-31.xlsx`,
/// `orders-all.xlsx`): the list's `orders.xlsx` with its range.
pub fn download_name(range: &str) -> String {
    format!("orders-{range}.xlsx")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn up_to_the_limit_the_request_waits_past_it_the_download_center_prepares_it() {
        assert!(waits_for(0));
        assert!(waits_for(620_630), "all of an L wholesaler's invoices download at once");
        assert!(waits_for(DIRECT_MAX));
        assert!(!waits_for(DIRECT_MAX + 1));
        assert!(!waits_for(1_000_000), "every sheet of every type at L goes to the Download Center");
        assert!(queued_message(DIRECT_MAX).contains("More than 750,000 sheets"), "{}", queued_message(DIRECT_MAX));
    }

    #[test]
    fn the_file_is_named_by_the_lists_range() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
        assert_eq!(range_label(None, None), "all");
        assert_eq!(range_label(d("2026-01-01"), d("2026-12-31")), "2026-01-01~2026-12-31");
        assert_eq!(range_label(d("2026-01-01"), None), "2026-01-01~");
        assert_eq!(download_name("all"), "orders-all.xlsx");
    }

    #[test]
    fn an_export_asked_by_someone_who_sees_cost_is_kept_from_those_who_do_not() {
        assert!(job_shows_cost(r#"{"types":[4],"filter":{},"cost":true}"#));
        assert!(!job_shows_cost(r#"{"types":[1],"filter":{},"cost":false}"#));
        assert!(job_shows_cost("not json"), "a doubtful file counts as showing cost");
    }
}
