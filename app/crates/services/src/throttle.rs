//! Sign-in throttling that slows a password guesser without locking the account's owner out.
//!
//! Only failed sign-ins are counted, in three meters:
//! - per account *and* client address, tight: the guesser's own address is slowed first,
//!   while the owner signing in from elsewhere is not affected;
//! - per account across all addresses, looser: when many addresses guess one account, a
//!   wrong password answers 429 everywhere and addresses with recent failures for that
//!   account are refused unheard, but a right password from a clean address still gets in;
//! - per client address across all accounts, generous: an office behind one NAT address
//!   mistyping passwords stays well under it, one address spraying many accounts does not.
//!
//! A successful sign-in clears its account-and-address meter. On top, governor's keyed GCRA
//! caps the raw attempt rate per address (every attempt costs a password hash).
//!
//! The failure meters are a small GCRA of their own rather than governor's: they must be
//! read without spending a cell and cleared on success, and governor offers neither.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use chrono::NaiveDateTime;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Where the failure meters read the time; tests move it by hand.
pub trait Clock: Send + Sync {
    fn now(&self) -> Instant;
    /// The same moment as UTC wall time, for the meters shared through the database.
    fn utc(&self) -> NaiveDateTime;
}

/// The real monotonic clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn utc(&self) -> NaiveDateTime {
        chrono::Utc::now().naive_utc()
    }
}

/// A clock that only moves when told to, so tests need not sleep.
pub struct ManualClock {
    start: Instant,
    start_utc: NaiveDateTime,
    offset: Mutex<Duration>,
}

impl Default for ManualClock {
    fn default() -> Self {
        Self { start: Instant::now(), start_utc: chrono::Utc::now().naive_utc(), offset: Mutex::new(Duration::ZERO) }
    }
}

impl ManualClock {
    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        *self.offset.lock().unwrap_or_else(PoisonError::into_inner) += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        self.start + *self.offset.lock().unwrap_or_else(PoisonError::into_inner)
    }
    fn utc(&self) -> NaiveDateTime {
        self.start_utc + chrono::Duration::from_std(*self.offset.lock().unwrap_or_else(PoisonError::into_inner)).unwrap_or_default()
    }
}

/// `burst` events at once, then one more per `every`.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub burst: u32,
    pub every: Duration,
}

/// The numbers of the policy (recorded in docs/decisions/sign-in-and-sessions.md, "Sign-in throttling").
#[derive(Clone, Debug)]
pub struct ThrottleLimits {
    /// Failures for one account from one address.
    pub account_at_address: Limit,
    /// Failures for one account from all addresses.
    pub account: Limit,
    /// Failures from one address for all accounts.
    pub address: Limit,
    /// Attempts of any outcome from one address.
    pub address_attempts: Limit,
    /// Keys each meter keeps at most; the soonest to expire go first.
    pub max_keys: usize,
}

impl Default for ThrottleLimits {
    fn default() -> Self {
        Self {
            account_at_address: Limit { burst: 5, every: Duration::from_secs(30) },
            account: Limit { burst: 20, every: Duration::from_secs(60) },
            address: Limit { burst: 100, every: Duration::from_secs(10) },
            address_attempts: Limit { burst: 200, every: Duration::from_millis(250) },
            max_keys: 50_000,
        }
    }
}

/// Failures per key as a GCRA "theoretical arrival time": each failure pushes it one period
/// further; the key is over its limit while it lies more than `burst - 1` periods ahead.
struct FailureMeter<K> {
    limit: Limit,
    max_keys: usize,
    tats: Mutex<HashMap<K, Instant>>,
}

impl<K: Hash + Eq + Clone> FailureMeter<K> {
    fn new(limit: Limit, max_keys: usize) -> Self {
        let limit = Limit { burst: limit.burst.max(1), every: limit.every };
        Self { limit, max_keys: max_keys.max(1), tats: Mutex::new(HashMap::new()) }
    }

    fn tat(&self, key: &K) -> Option<Instant> {
        self.tats.lock().unwrap_or_else(PoisonError::into_inner).get(key).copied()
    }

    /// Over the limit: another failure now would exceed the burst.
    fn over(&self, key: &K, now: Instant) -> bool {
        self.tat(key).is_some_and(|tat| tat > now + self.limit.every * (self.limit.burst - 1))
    }

    /// No failure of this key is still counted.
    fn clean(&self, key: &K, now: Instant) -> bool {
        self.tat(key).is_none_or(|tat| tat <= now)
    }

    fn fail(&self, key: K, now: Instant) {
        let mut tats = self.tats.lock().unwrap_or_else(PoisonError::into_inner);
        // Capped so that failures while over the limit do not extend the wait without end.
        let cap = now + self.limit.every * self.limit.burst;
        let tat = tats.get(&key).copied().unwrap_or(now).max(now) + self.limit.every;
        if !tats.contains_key(&key) && tats.len() >= self.max_keys {
            tats.retain(|_, t| *t > now);
            if tats.len() >= self.max_keys {
                // Still full of live keys (an attack from many addresses): drop the one that
                // would be forgotten first, the least restrictive.
                let soonest = tats.iter().min_by_key(|(_, t)| **t).map(|(k, _)| k.clone());
                if let Some(soonest) = soonest {
                    tats.remove(&soonest);
                }
            }
        }
        tats.insert(key, tat.min(cap));
    }

    fn clear(&self, key: &K) {
        self.tats.lock().unwrap_or_else(PoisonError::into_inner).remove(key);
    }

    /// Takes in a time another process reached for this key, if it is further ahead.
    fn raise(&self, key: K, tat: Instant, now: Instant) {
        let cap = now + self.limit.every * self.limit.burst;
        let mut tats = self.tats.lock().unwrap_or_else(PoisonError::into_inner);
        let known = tats.get(&key).copied();
        if tat > now && known.is_none_or(|t| t < tat) {
            tats.insert(key, tat.min(cap));
        }
    }
}

/// The throttle in the application state.
pub struct LoginThrottle {
    clock: Arc<dyn Clock>,
    account_at_address: FailureMeter<(String, IpAddr)>,
    account: FailureMeter<String>,
    address: FailureMeter<IpAddr>,
    address_attempts: DefaultKeyedRateLimiter<IpAddr>,
    checks: AtomicU32,
}

/// A sign-in the throttle let through; report how it ended with
/// [`LoginThrottle::failed`] or [`LoginThrottle::succeeded`].
pub struct Attempt {
    account: String,
    address: IpAddr,
    account_over: bool,
}

/// The meters every process shares through the database: the account, and the account at
/// one address. (The per-address meters protect each process's own CPU and stay local.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedKeys {
    account: String,
    address: IpAddr,
}

impl SharedKeys {
    /// The database key of the account's meter.
    pub fn account_key(&self) -> String {
        format!("a:{}", self.account)
    }

    /// The database key of the account-at-this-address meter.
    pub fn pair_key(&self) -> String {
        format!("p:{}|{}", self.account, self.address)
    }

    pub fn both(&self) -> [String; 2] {
        [self.account_key(), self.pair_key()]
    }
}

impl Attempt {
    /// Where this attempt's shared meters live in the database.
    pub fn shared_keys(&self) -> SharedKeys {
        SharedKeys { account: self.account.clone(), address: self.address }
    }

    /// A wrong password answers 429 rather than 'Login failed': the account is being
    /// guessed from many addresses, and only a right password gets through.
    pub fn wrong_password_is_throttled(&self) -> bool {
        self.account_over
    }
}

fn quota(limit: Limit) -> Quota {
    let burst = NonZeroU32::new(limit.burst).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(limit.every).map(|q| q.allow_burst(burst)).unwrap_or_else(|| Quota::per_second(burst))
}

/// The throttle's key for an e-mail address: the same account however it is typed.
fn account_key(email: &str) -> String {
    email.trim().to_lowercase().chars().take(254).collect()
}

/// The throttle's key for a client: an IPv6 client usually holds a whole /64, so the /64
/// is one client; no address (in-process calls) is one shared unknown client.
fn address_key(ip: Option<IpAddr>) -> IpAddr {
    match ip {
        Some(IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_none() => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        Some(IpAddr::V6(v6)) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        Some(v4) => v4,
        None => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
    }
}

/// How often (in attempts) governor's limiter forgets addresses that are back to full.
const PRUNE_EVERY: u32 = 1024;

impl Default for LoginThrottle {
    fn default() -> Self {
        Self::new(ThrottleLimits::default(), Arc::new(SystemClock))
    }
}

impl LoginThrottle {
    pub fn new(limits: ThrottleLimits, clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            account_at_address: FailureMeter::new(limits.account_at_address, limits.max_keys),
            account: FailureMeter::new(limits.account, limits.max_keys),
            address: FailureMeter::new(limits.address, limits.max_keys),
            address_attempts: RateLimiter::keyed(quota(limits.address_attempts)),
            checks: AtomicU32::new(0),
        }
    }

    /// The shared meters' keys of a sign-in, read from the database before [`Self::admit`].
    pub fn shared_keys(&self, email: &str, ip: Option<IpAddr>) -> SharedKeys {
        SharedKeys { account: account_key(email), address: address_key(ip) }
    }

    /// Takes in the shared meters as the database holds them (failures other processes
    /// counted), so the decision below sees every process's failures.
    pub fn merge_shared(&self, keys: &SharedKeys, stored: &[(String, NaiveDateTime)]) {
        let (now, utc) = (self.clock.now(), self.clock.utc());
        let at = |t: NaiveDateTime| (t - utc).to_std().ok().map(|ahead| now + ahead);
        let (account, pair) = (keys.account_key(), keys.pair_key());
        for (key, tat) in stored {
            let Some(tat) = at(*tat) else { continue };
            if *key == account {
                self.account.raise(keys.account.clone(), tat, now);
            } else if *key == pair {
                self.account_at_address.raise((keys.account.clone(), keys.address), tat, now);
            }
        }
    }

    /// This process's view of an attempt's shared meters, as UTC times to store after a
    /// failure.
    pub fn shared_tats(&self, attempt: &Attempt) -> Vec<(String, NaiveDateTime)> {
        let (now, utc) = (self.clock.now(), self.clock.utc());
        let wall = |t: Instant| utc + chrono::Duration::from_std(t.saturating_duration_since(now)).unwrap_or_default();
        let keys = attempt.shared_keys();
        let mut out = Vec::with_capacity(2);
        if let Some(t) = self.account.tat(&attempt.account) {
            out.push((keys.account_key(), wall(t)));
        }
        if let Some(t) = self.account_at_address.tat(&(attempt.account.clone(), attempt.address)) {
            out.push((keys.pair_key(), wall(t)));
        }
        out
    }

    /// Decides before the password is checked; `None` answers 429 unheard.
    pub fn admit(&self, email: &str, ip: Option<IpAddr>) -> Option<Attempt> {
        let now = self.clock.now();
        let account = account_key(email);
        let address = address_key(ip);
        let pair = (account.clone(), address);
        if self.address.over(&address, now) || self.account_at_address.over(&pair, now) {
            return None;
        }
        let account_over = self.account.over(&account, now);
        if account_over && !self.account_at_address.clean(&pair, now) {
            return None;
        }
        if self.checks.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1 {
            self.address_attempts.retain_recent();
        }
        self.address_attempts.check_key(&address).ok()?;
        Some(Attempt { account, address, account_over })
    }

    /// The password (or the e-mail) was wrong.
    pub fn failed(&self, attempt: &Attempt) {
        let now = self.clock.now();
        self.account_at_address.fail((attempt.account.clone(), attempt.address), now);
        self.account.fail(attempt.account.clone(), now);
        self.address.fail(attempt.address, now);
    }

    /// The password was right: this address's mistakes for the account are forgiven.
    pub fn succeeded(&self, attempt: &Attempt) {
        self.account_at_address.clear(&(attempt.account.clone(), attempt.address));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "owner@x.test";

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    fn throttle() -> (LoginThrottle, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::default());
        (LoginThrottle::new(ThrottleLimits::default(), clock.clone()), clock)
    }

    fn fail(t: &LoginThrottle, email: &str, from: Option<IpAddr>) -> bool {
        match t.admit(email, from) {
            Some(a) => {
                t.failed(&a);
                true
            }
            None => false,
        }
    }

    #[test]
    fn five_failures_slow_that_address_only_then_one_per_period() {
        let (t, clock) = throttle();
        for _ in 0..5 {
            assert!(fail(&t, A, ip("10.0.0.1")));
        }
        assert!(t.admit(" OWNER@x.test", ip("10.0.0.1")).is_none(), "same account however typed");
        assert!(t.admit(A, ip("10.0.0.2")).is_some(), "another address is not affected");
        clock.advance(Duration::from_secs(29));
        assert!(t.admit(A, ip("10.0.0.1")).is_none());
        clock.advance(Duration::from_secs(1));
        assert!(fail(&t, A, ip("10.0.0.1")), "one try after the pause");
        assert!(t.admit(A, ip("10.0.0.1")).is_none(), "and then the pause again");
    }

    #[test]
    fn success_forgives_the_address_mistakes() {
        let (t, _) = throttle();
        for _ in 0..4 {
            fail(&t, A, ip("10.0.0.1"));
        }
        let a = t.admit(A, ip("10.0.0.1")).unwrap();
        t.succeeded(&a);
        for _ in 0..5 {
            assert!(fail(&t, A, ip("10.0.0.1")));
        }
    }

    #[test]
    fn account_guessed_from_many_addresses_lets_only_clean_addresses_try() {
        let (t, _) = throttle();
        for n in 1..=4 {
            for _ in 0..5 {
                assert!(fail(&t, A, ip(&format!("10.0.1.{n}"))));
            }
        }
        let fresh = t.admit(A, ip("10.0.2.1")).expect("a clean address is heard");
        assert!(fresh.wrong_password_is_throttled());
        t.failed(&fresh);
        assert!(t.admit(A, ip("10.0.2.1")).is_none(), "after its failure that address is refused unheard");
        assert!(t.admit(A, ip("10.0.2.2")).is_some_and(|a| a.wrong_password_is_throttled()));
        assert!(t.admit("other@x.test", ip("10.0.2.1")).is_some_and(|a| !a.wrong_password_is_throttled()));
    }

    #[test]
    fn an_office_address_has_a_generous_failure_budget() {
        let (t, _) = throttle();
        for n in 0..100 {
            assert!(fail(&t, &format!("user{n}@x.test"), ip("192.0.2.7")), "failure {n}");
        }
        assert!(t.admit("user200@x.test", ip("192.0.2.7")).is_none(), "spraying many accounts is slowed");
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64_prefix() {
        assert_eq!(address_key(ip("2001:db8:1:2:aaaa::1")), address_key(ip("2001:db8:1:2:bbbb::9")));
        assert_ne!(address_key(ip("2001:db8:1:2::1")), address_key(ip("2001:db8:1:3::1")));
        assert_eq!(address_key(ip("::ffff:192.0.2.1")), address_key(ip("192.0.2.1")));
    }

    #[test]
    fn meters_keep_a_bounded_number_of_keys() {
        let now = Instant::now();
        let m = FailureMeter::new(Limit { burst: 2, every: Duration::from_secs(10) }, 3);
        for k in 0..10 {
            m.fail(k, now + Duration::from_secs(k));
        }
        let tats = m.tats.lock().unwrap();
        assert_eq!(tats.len(), 3);
        assert!(tats.contains_key(&9), "the newest failure is kept");
    }
}
