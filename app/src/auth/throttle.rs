//! Sign-in throttling: per e-mail address and per client address (governor's keyed GCRA).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Limits sign-in attempts; exceeding either limit answers 429.
pub struct LoginThrottle {
    per_email: DefaultKeyedRateLimiter<String>,
    per_ip: DefaultKeyedRateLimiter<IpAddr>,
}

fn quota(burst: u32, every: Duration) -> Quota {
    let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(every).map(|q| q.allow_burst(burst)).unwrap_or_else(|| Quota::per_minute(burst))
}

impl Default for LoginThrottle {
    /// 5 quick tries per address then one per 20 s; 30 per client then one per 2 s.
    fn default() -> Self {
        Self {
            per_email: RateLimiter::keyed(quota(5, Duration::from_secs(20))),
            per_ip: RateLimiter::keyed(quota(30, Duration::from_secs(2))),
        }
    }
}

impl LoginThrottle {
    /// Records an attempt; false when it must be refused.
    pub fn allow(&self, email: &str, ip: Option<IpAddr>) -> bool {
        let email_ok = self.per_email.check_key(&email.trim().to_lowercase()).is_ok();
        let ip_ok = ip.is_none_or(|ip| self.per_ip.check_key(&ip).is_ok());
        email_ok && ip_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixth_quick_attempt_for_one_address_is_refused() {
        let t = LoginThrottle::default();
        for _ in 0..5 {
            assert!(t.allow("a@x.test", None));
        }
        assert!(!t.allow("A@x.test ", None));
        assert!(t.allow("b@x.test", None));
    }
}
