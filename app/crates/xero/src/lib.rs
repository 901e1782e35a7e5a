//! The accounting link to Xero (issue 12, DESIGN §8, docs/decisions/xero.md). A send or
//! recall becomes a row of `xero_jobs` (`services::xero`), the worker of any server process
//! claims it (`worker`), calls Xero through `client` within the company's call budget, and
//! writes the outcome on the sheet. `fake` is a Xero stand-in for tests and demos.

pub mod access;
pub mod auth;
pub mod client;
pub mod fake;
pub mod secret;
pub mod worker;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::NaiveDateTime;
use tokio::sync::Notify;

use self::client::Client;
use self::secret::SecretKey;

/// The time the link runs on: the system's, or a manual one a test moves, so minutes of
/// rate limiting and back-off pass instantly.
#[derive(Clone, Debug, Default)]
pub enum Clock {
    #[default]
    System,
    Manual(Arc<Mutex<NaiveDateTime>>),
}

impl Clock {
    /// A manual clock starting at `t`.
    pub fn manual(t: NaiveDateTime) -> Self {
        Self::Manual(Arc::new(Mutex::new(t)))
    }

    /// Now, in UTC as stored.
    pub fn now(&self) -> NaiveDateTime {
        match self {
            Self::System => db::now(),
            Self::Manual(t) => *t.lock().unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// Waits until `t` (a manual clock jumps there).
    pub async fn sleep_until(&self, t: NaiveDateTime) {
        match self {
            Self::System => {
                let wait = (t - db::now()).to_std().unwrap_or_default();
                tokio::time::sleep(wait).await;
            }
            Self::Manual(m) => {
                let mut now = m.lock().unwrap_or_else(|e| e.into_inner());
                if t > *now {
                    *now = t;
                }
            }
        }
    }

    /// Moves a manual clock on by `d` (the system clock moves by itself).
    pub fn advance(&self, d: chrono::Duration) {
        if let Self::Manual(m) = self {
            let mut now = m.lock().unwrap_or_else(|e| e.into_inner());
            *now += d;
        }
    }
}

/// How the link behaves; tests shorten the waits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// A running job whose heartbeat is older than this lost its worker and is claimed again.
    pub stale_after: chrono::Duration,
    /// A call that takes longer has an unknown outcome.
    pub call_timeout: std::time::Duration,
    /// Whether a connection may name a Xero stand-in on this machine's loopback instead of
    /// Xero's own addresses (`TYREDESK_XERO_STANDIN=1`; tests and demos with `tyredesk
    /// xero-fake`). Off, no setting can aim the server's calls anywhere but Xero.
    pub standin: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self { stale_after: chrono::Duration::seconds(120), call_timeout: client::TIMEOUT, standin: false }
    }
}

impl Settings {
    /// The defaults, with the stale time from `TYREDESK_XERO_STALE_SECS` when set (the
    /// crash test restarts a server and should not wait two minutes) and the stand-in mode
    /// from `TYREDESK_XERO_STANDIN`.
    pub fn from_env() -> Self {
        let mut s = Self::default();
        if let Some(secs) = std::env::var("TYREDESK_XERO_STALE_SECS").ok().and_then(|v| v.parse::<i64>().ok()).filter(|s| (1..=3600).contains(s)) {
            s.stale_after = chrono::Duration::seconds(secs);
        }
        s.standin = std::env::var("TYREDESK_XERO_STANDIN").is_ok_and(|v| v == "1");
        s
    }
}

/// The link's part of the application state.
pub struct Link {
    pub client: Client,
    pub key: SecretKey,
    pub clock: Clock,
    pub settings: Settings,
    /// This process's worker name (host, process, random), kept in `locked_by`.
    pub worker: String,
    /// Rung when a job is queued, so the worker starts at once.
    pub bell: Notify,
    /// Access tokens of code connections, by company, until a minute before they expire.
    pub code_tokens: Mutex<HashMap<i64, (String, std::time::Instant)>>,
}

impl Link {
    /// The link of a server: system clock, the key of the data directory.
    pub fn new(data_dir: &std::path::Path) -> Result<Self, String> {
        Ok(Self::with(SecretKey::load(data_dir)?, Clock::System, Settings::from_env()))
    }

    /// A link with the given parts (tests).
    pub fn with(key: SecretKey, clock: Clock, settings: Settings) -> Self {
        let worker = format!("{}-{}-{:04x}", hostname(), std::process::id(), rand::random::<u16>());
        Self { client: Client::new(settings.call_timeout), key, clock, settings, worker, bell: Notify::new(), code_tokens: Mutex::new(HashMap::new()) }
    }
}

fn hostname() -> String {
    std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "tyredesk".into())
}
