//! The limits every API call is held to (calls per minute, per day and at once, and how long an
//! idempotency key is remembered), and the parsing of `where` filters and Basic credentials.

use chrono::NaiveDateTime;
use serde_json::{Value, json};

use super::{Answer, State};

pub(super) const MINUTE_LIMIT: usize = 60;
pub(super) const DAY_LIMIT: u32 = 5000;
const CONCURRENT_LIMIT: u32 = 5;
pub(super) const IDEMPOTENCY_MINUTES: i64 = 6;

impl State {
    /// Takes a call from the minute, day and concurrency limits, or answers the 429.
    pub(super) fn take_slot(&mut self, now: NaiveDateTime) -> Option<Answer> {
        while self.minute.front().is_some_and(|t| now - *t >= chrono::Duration::seconds(60)) {
            self.minute.pop_front();
        }
        let limited = |problem: &str, wait: i64| {
            let mut a = Answer::new(429, json!({"Title": "Too Many Requests", "Detail": format!("{problem} rate limit exceeded")}));
            a.headers.push(("Retry-After", wait.max(1).to_string()));
            a.headers.push(("X-Rate-Limit-Problem", problem.to_string()));
            a
        };
        if self.in_flight >= CONCURRENT_LIMIT {
            return Some(limited("concurrent", 1));
        }
        let today = now.date();
        let day_count = self.day.filter(|d| d.0 == today).map_or(0, |d| d.1);
        if day_count >= DAY_LIMIT {
            let midnight = today.succ_opt().unwrap_or(today).and_hms_opt(0, 0, 0).unwrap_or(now);
            return Some(limited("day", (midnight - now).num_seconds()));
        }
        if self.minute.len() >= MINUTE_LIMIT {
            let oldest = self.minute.front().copied().unwrap_or(now);
            let wait = (oldest + chrono::Duration::seconds(60) - now).num_milliseconds();
            return Some(limited("minute", (wait + 999) / 1000));
        }
        self.minute.push_back(now);
        self.day = Some((today, day_count + 1));
        self.in_flight += 1;
        None
    }
}

/// A parsed `where` filter: conditions joined left to right.
#[derive(Debug, Default)]
pub(super) struct Filter {
    /// (joined by AND?, field path, equal?, value)
    conds: Vec<(bool, Vec<String>, bool, String)>,
}

impl Filter {
    pub(super) fn matches(&self, doc: &Value) -> bool {
        let mut result = true;
        for (i, (and, path, eq, value)) in self.conds.iter().enumerate() {
            let mut v = doc;
            for p in path {
                v = &v[p.as_str()];
            }
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            let hit = (text == *value) == *eq;
            result = if i == 0 { hit } else if *and { result && hit } else { result || hit };
        }
        result
    }
}

pub(super) fn where_of(query: &str) -> Result<Filter, String> {
    let raw = query.split('&').find_map(|p| p.strip_prefix("where="));
    let Some(raw) = raw else { return Ok(Filter::default()) };
    let text: String = serde_urlencoded::from_str::<Vec<(String, String)>>(&format!("w={raw}")).ok().and_then(|v| v.into_iter().next()).map(|(_, v)| v).ok_or("the where filter is not URL-encoded text")?;
    let mut conds = Vec::new();
    let mut rest = text.trim().to_string();
    let mut and = true;
    while !rest.is_empty() {
        let (field, after) = rest.split_once("==").map(|(f, a)| (f, (true, a))).or_else(|| rest.split_once("!=").map(|(f, a)| (f, (false, a)))).ok_or_else(|| format!("cannot read the condition '{rest}'"))?;
        let (eq, after) = after;
        let field = field.trim();
        if field.is_empty() || !field.chars().all(|c| c.is_ascii_alphanumeric() || c == '.') {
            return Err(format!("'{field}' is not a field"));
        }
        let after = after.trim_start();
        let after = after.strip_prefix("guid(").map(|a| a.replacen(')', "", 1)).unwrap_or_else(|| after.to_string());
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            let end = q.find('"').ok_or("a quoted value is not closed")?;
            (q[..end].to_string(), q[end + 1..].to_string())
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            (after[..end].to_string(), after[end..].to_string())
        };
        conds.push((and, field.split('.').map(str::to_string).collect(), eq, value));
        let tail = tail.trim_start();
        rest = if let Some(t) = tail.strip_prefix("AND ") {
            and = true;
            t.to_string()
        } else if let Some(t) = tail.strip_prefix("OR ") {
            and = false;
            t.to_string()
        } else if tail.is_empty() {
            String::new()
        } else {
            return Err(format!("cannot read '{tail}'"));
        };
    }
    Ok(Filter { conds })
}

/// Standard base64 (the Basic authorization header only).
pub(super) fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bytes: Vec<u8> = s.trim().bytes().filter(|b| *b != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Option<Vec<u8>> = chunk.iter().map(|c| val(*c)).collect();
        let v = v?;
        let n = v.iter().enumerate().fold(0u32, |acc, (i, x)| acc | (u32::from(*x) << (18 - 6 * i)));
        let take = match v.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        out.extend_from_slice(&n.to_be_bytes()[1..1 + take]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn where_filters_read_and_or_and_guid() {
        let f = where_of("where=InvoiceNumber%3D%3D%22INV%201%22%20AND%20Type%3D%3D%22ACCREC%22").unwrap();
        assert!(f.matches(&json!({"InvoiceNumber": "INV 1", "Type": "ACCREC"})));
        assert!(!f.matches(&json!({"InvoiceNumber": "INV 1", "Type": "ACCPAY"})));
        let g = where_of("where=Contact.ContactID%3D%3Dguid(%22abc%22)%20OR%20Status!%3D%22VOIDED%22").unwrap();
        assert!(g.matches(&json!({"Contact": {"ContactID": "abc"}, "Status": "VOIDED"})));
        assert!(!g.matches(&json!({"Contact": {"ContactID": "x"}, "Status": "VOIDED"})));
        assert!(where_of("where=Name%3E%3D1").is_err());
    }

    #[test]
    fn basic_credentials_decode() {
        assert_eq!(base64_decode("Y2lkOmNzZWNyZXQ=").as_deref(), Some(&b"cid:csecret"[..]));
        assert_eq!(base64_decode("!!"), None);
    }

    #[test]
    fn the_minute_limit_refuses_the_61st_call_until_the_first_leaves_the_window() {
        let mut st = State::default();
        let t0 = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap().and_hms_opt(9, 0, 0).unwrap();
        for i in 0..60 {
            assert!(st.take_slot(t0 + chrono::Duration::milliseconds(i * 100)).is_none());
            st.in_flight = 0;
        }
        let refused = st.take_slot(t0 + chrono::Duration::seconds(10)).expect("the 61st");
        assert_eq!(refused.status, 429);
        assert!(refused.headers.iter().any(|(k, v)| *k == "Retry-After" && v == "50"));
        assert!(st.take_slot(t0 + chrono::Duration::seconds(60)).is_none());
    }
}
