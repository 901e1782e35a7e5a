//! Lists whose filter was lately seen to match more than the pager counts: their next pages
//! skip the count. A list counts its matches only up to `domain::limits::COUNT_CAP` past its
//! offset, so a page's count reads up to 10,001 index entries and shows 'Total 10,000+'; a
//! broad filter paged through (a common word, issue 37's 'trailers') paid that on every page
//! for an answer that does not change. Only "more than the cap" is remembered: a count below
//! it is exact and made every time, so a sheet just saved shows in the total at once.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use domain::limits::count_limit;

/// How long a filter is taken to still match more than the cap.
const KEEP: Duration = Duration::from_secs(60);
/// Filters remembered at most; past it the oldest half is forgotten.
const MOST: usize = 2_000;

/// A list's filters, remembered by their text, with how many rows each was seen to match at least.
#[derive(Default)]
pub struct OverCap {
    seen: Mutex<HashMap<String, (i64, Instant)>>,
}

impl OverCap {
    /// Whether `key` was seen, within [`KEEP`], to match at least `limit` rows.
    pub(crate) fn known(&self, key: &str, limit: i64) -> bool {
        self.known_at(key, limit, Instant::now())
    }

    fn known_at(&self, key: &str, limit: i64, now: Instant) -> bool {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.get(key).is_some_and(|&(reached, at)| reached >= limit && now.duration_since(at) < KEEP)
    }

    /// Records that `key` matched `count` rows (or more, when the count stopped at its
    /// limit): remembered only when more than the first page counts, since no page asks for
    /// less.
    pub(crate) fn counted(&self, key: String, count: i64) {
        self.counted_at(key, count, Instant::now());
    }

    fn counted_at(&self, key: String, count: i64, now: Instant) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if count < count_limit(0) {
            seen.remove(&key);
            return;
        }
        if seen.len() >= MOST {
            let mut ages: Vec<Instant> = seen.values().map(|&(_, at)| at).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            seen.retain(|_, &mut (_, at)| at > cut);
        }
        seen.insert(key, (count, now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_count_past_the_first_page_s_limit_is_remembered_and_only_for_a_while() {
        let c = OverCap::default();
        let t = Instant::now();
        c.counted_at("trailers".into(), 148, t);
        assert!(!c.known_at("trailers", 10_001, t), "an exact count is made every time");
        c.counted_at("trailers".into(), 10_001, t);
        assert!(c.known_at("trailers", 10_001, t + Duration::from_secs(59)));
        assert!(!c.known_at("trailers", 10_151, t), "a later page asks for more than was seen");
        c.counted_at("trailers".into(), 10_060, t);
        assert!(c.known_at("trailers", 10_001, t), "an exact count past the first page's limit answers it");
        assert!(!c.known_at("trailers", 10_001, t + KEEP), "forgotten after a minute");
        assert!(!c.known_at("anderson", 10_001, t));
        c.counted_at("trailers".into(), 40, t);
        assert!(!c.known_at("trailers", 10_001, t), "a smaller count since replaces it");
    }

    #[test]
    fn a_full_memory_forgets_its_oldest_half() {
        let c = OverCap::default();
        let t = Instant::now();
        for i in 0..MOST {
            c.counted_at(format!("f{i}"), 10_001, t + Duration::from_millis(i as u64));
        }
        c.counted_at("new".into(), 10_001, t + Duration::from_secs(1));
        assert!(c.known_at("new", 10_001, t + Duration::from_secs(1)));
        assert!(!c.known_at("f0", 10_001, t + Duration::from_secs(1)));
        assert!(c.known_at(&format!("f{}", MOST - 1), 10_001, t + Duration::from_secs(1)));
        assert!(c.seen.lock().unwrap().len() <= MOST / 2 + 1);
    }
}
