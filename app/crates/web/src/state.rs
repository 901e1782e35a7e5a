//! The application state shared by every handler (one `Arc`, built once).

use std::ops::Deref;
use std::sync::Arc;

use crate::assets::Assets;
use services::throttle::LoginThrottle;
use crate::config::Config;
use db::Db;
use services::Core;

/// Everything a request may need: what the services work with ([`Core`], reached through
/// `Deref`: `state.db`, `state.xero`), and what only the web needs.
pub struct App {
    pub core: Arc<Core>,
    pub config: Config,
    pub assets: Assets,
    /// Marks cookies `Secure`; on when served behind HTTPS (`TYREDESK_SECURE_COOKIES=1`).
    pub secure_cookies: bool,
    /// Renders islands on the server (DESIGN §6, second step).
    pub ssr: crate::ssr::Ssr,
    /// The places reads take before they are answered ([`crate::admission`]).
    pub readers: crate::admission::Readers,
    /// The runtime that answers requests changing data, at normal priority (`serve`'s; tests
    /// answer them on their own runtime): `crate::runtimes`.
    pub writes: Option<tokio::runtime::Handle>,
}

impl Deref for App {
    type Target = Core;
    fn deref(&self) -> &Core {
        &self.core
    }
}

/// Cheap clonable handle to [`App`].
#[derive(Clone)]
pub struct AppState(pub Arc<App>);

impl Deref for AppState {
    type Target = App;
    fn deref(&self) -> &App {
        &self.0
    }
}

impl AppState {
    /// Builds the state around an open database.
    pub fn new(config: Config, db: Db) -> anyhow::Result<Self> {
        Self::with_throttle(config, db, LoginThrottle::default())
    }

    /// Builds the state with a given sign-in throttle (tests pass one on a manual clock).
    pub fn with_throttle(config: Config, db: Db, throttle: LoginThrottle) -> anyhow::Result<Self> {
        let xero = xero::Link::new(&config.data_dir).map_err(anyhow::Error::msg)?;
        Self::with_parts(config, db, throttle, xero)
    }

    /// The same state answering requests that change data on `writes` (`crate::runtimes`).
    /// Call it before the state is shared.
    pub fn with_writes(self, writes: tokio::runtime::Handle) -> Self {
        match Arc::try_unwrap(self.0) {
            Ok(mut app) => {
                app.writes = Some(writes);
                Self(Arc::new(app))
            }
            Err(_) => panic!("AppState::with_writes on a state already shared"),
        }
    }

    /// The same state with islands rendered by `ssr` (tests pass a bundle that fails).
    /// Call it before the state is shared.
    pub fn with_ssr(self, ssr: crate::ssr::Ssr) -> Self {
        match Arc::try_unwrap(self.0) {
            Ok(mut app) => {
                app.ssr = ssr;
                Self(Arc::new(app))
            }
            Err(_) => panic!("AppState::with_ssr on a state already shared"),
        }
    }

    /// Builds the state with a given sign-in throttle and accounting link (tests pass a
    /// manual clock and short waits).
    pub fn with_parts(config: Config, db: Db, throttle: LoginThrottle, xero: xero::Link) -> anyhow::Result<Self> {
        let secure_cookies = std::env::var("TYREDESK_SECURE_COOKIES").is_ok_and(|v| v == "1");
        let ssr = crate::ssr::Ssr::embedded(crate::ssr::Limits::default());
        let store = services::store::Store::open(&config.data_dir, &config.storage).map_err(anyhow::Error::msg)?;
        let core = Core { db, data_dir: config.data_dir.clone(), store, export_chunk: config.export_chunk, export_direct_max: config.export_direct_max, throttle, reports: Default::default(), xero: Arc::new(xero), email: Default::default(), suggestions: Default::default() };
        Ok(Self(Arc::new(App { core: Arc::new(core), config, assets: Assets::load()?, secure_cookies, ssr, readers: crate::admission::Readers::for_this_machine(), writes: None })))
    }
}
