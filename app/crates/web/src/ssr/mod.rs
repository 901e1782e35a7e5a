//! Islands rendered on the server (DESIGN §6, second step).
//!
//! The Vite SSR build of the islands (`islands/src/server.tsx`, built by
//! `islands/vite.ssr.config.ts` into `static/islands/ssr/server.js`) is embedded in the
//! binary and evaluated by QuickJS (`rquickjs`). A few prepared engines sit in a pool; a
//! render takes one on the blocking pool, calls `TyreDeskSsr.render(name, props)`, and puts
//! it back. Each engine has a memory limit, and each render a time limit (QuickJS's
//! interrupt handler). An engine whose render failed is dropped (it may have stopped
//! half-way) and a fresh one is made when next needed.
//!
//! A render that fails, times out or finds no bundle answers `None`: the page sends the
//! island's plain fallback, as before server rendering, and the failure is logged. A page
//! is never blank because of this module. Nor is it slow because of it: a render waits for
//! a free engine at most [`Limits::wait`], then the page goes out with the fallback (issue
//! 29: 32 clients opening 1,000-line editors made another user's page wait 13 s).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rquickjs::{CatchResultExt, Context, Function, Object, Runtime};
use rust_embed::Embed;
use tokio::sync::Semaphore;

#[derive(Embed)]
#[folder = "../../../static/islands/ssr/"]
#[include = "server.js"]
struct Bundle;

/// The global the bundle defines (vite.ssr.config.ts `name`).
const GLOBAL: &str = "TyreDeskSsr";

/// How rendering is bounded.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Engines kept ready; also the number of renders that run at once.
    pub engines: usize,
    /// One render's wall-clock limit.
    pub time: Duration,
    /// One engine's heap limit.
    pub memory: usize,
    /// How long a render waits for a free engine before the page takes the fallback.
    pub wait: Duration,
}

impl Default for Limits {
    /// One engine per core (at least two, at most eight): renders use a core each while they
    /// run, and more engines than cores would only queue on the CPU instead of here.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        Self { engines: cores.clamp(2, 8), time: Duration::from_millis(500), memory: 64 << 20, wait: Duration::from_millis(150) }
    }
}

/// Why a render gave no HTML (logged; the page sends the fallback).
#[derive(Debug, thiserror::Error)]
pub enum SsrError {
    #[error("no server bundle was built (islands/vite.ssr.config.ts)")]
    NoBundle,
    #[error("the engine could not start: {0}")]
    Start(String),
    #[error("the render threw: {0}")]
    Threw(String),
    #[error("the render took longer than {0:?}")]
    TimedOut(Duration),
}

/// The island renderer every page uses (cheap to clone).
#[derive(Clone)]
pub struct Ssr {
    inner: Arc<Inner>,
}

struct Inner {
    bundle: Option<String>,
    limits: Limits,
    idle: Mutex<Vec<Engine>>,
    running: Semaphore,
    /// Renders that found no engine free in time and sent the fallback (the benchmark reports it).
    fallbacks: AtomicU64,
    /// Renders that repeat: a render is a pure function of the island and its props, and
    /// most islands' props are the same on every request of a page (the header's Change
    /// Password, the cart, the dialogs, a company's report forms).
    remembered: Mutex<Remembered>,
}

/// Props up to this size are remembered with their HTML: a report form's (about 4 KB with
/// its warehouses and brands) but not a sheet's lines, which differ from sheet to sheet.
const REMEMBERED_PROPS: usize = 16 * 1024;
/// The most the remembered renders hold, props and HTML; emptied when a new one would pass
/// it (the set that repeats is small: one per island and company).
const REMEMBERED_BYTES: usize = 4 << 20;

/// Renders kept by island and props, and the bytes they hold.
#[derive(Default)]
struct Remembered {
    renders: HashMap<(String, String), String>,
    bytes: usize,
}

impl Remembered {
    fn get(&self, key: &(String, String)) -> Option<String> {
        self.renders.get(key).cloned()
    }

    fn keep(&mut self, key: (String, String), html: &str) {
        let size = key.0.len() + key.1.len() + html.len();
        if size > REMEMBERED_BYTES / 16 {
            return;
        }
        if self.bytes + size > REMEMBERED_BYTES {
            self.renders.clear();
            self.bytes = 0;
        }
        if self.renders.insert(key, html.to_owned()).is_none() {
            self.bytes += size;
        }
    }
}

impl Ssr {
    /// A renderer over the embedded bundle (none in a build without islands).
    pub fn embedded(limits: Limits) -> Self {
        let bundle = Bundle::get("server.js").map(|f| String::from_utf8_lossy(&f.data).into_owned());
        Self::with_bundle(bundle, limits)
    }

    /// A renderer over `bundle` (tests pass their own scripts).
    pub fn with_bundle(bundle: Option<String>, limits: Limits) -> Self {
        let engines = limits.engines.max(1);
        Self {
            inner: Arc::new(Inner {
                bundle,
                limits,
                idle: Mutex::new(Vec::new()),
                running: Semaphore::new(engines),
                fallbacks: AtomicU64::new(0),
                remembered: Mutex::new(Remembered::default()),
            }),
        }
    }

    /// Whether a bundle is there to render with.
    pub fn enabled(&self) -> bool {
        self.inner.bundle.is_some()
    }

    /// Prepares the pool's engines in the background, so the first pages do not pay for it.
    pub fn warm_up(&self) {
        if !self.enabled() {
            tracing::warn!("{}: islands are sent with their plain fallback", SsrError::NoBundle);
            return;
        }
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            for _ in 0..inner.limits.engines.max(1) {
                match inner.new_engine() {
                    Ok(engine) => inner.idle.lock().unwrap_or_else(|p| p.into_inner()).push(engine),
                    Err(e) => {
                        tracing::error!(error = %e, "island server rendering is off");
                        return;
                    }
                }
            }
        });
    }

    /// The first render of island `name` with `props` (its JSON `props` attribute), or
    /// `None` (logged) when it cannot be had: the caller sends the plain fallback.
    pub async fn render(&self, name: &str, props: &str) -> Option<String> {
        if !self.enabled() {
            return None;
        }
        let key = (props.len() <= REMEMBERED_PROPS).then(|| (name.to_owned(), props.to_owned()));
        if let Some(html) = key.as_ref().and_then(|k| self.inner.remembered.lock().unwrap_or_else(|p| p.into_inner()).get(k)) {
            return Some(html);
        }
        let started = Instant::now();
        let _turn = match tokio::time::timeout(self.inner.limits.wait, self.inner.running.acquire()).await {
            Ok(turn) => turn.ok()?,
            Err(_) => {
                self.inner.fallbacks.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(island = name, wait_ms = self.inner.limits.wait.as_millis() as u64, "no engine free in time; sent the island's fallback");
                return None;
            }
        };
        let (inner, island, json) = (self.inner.clone(), name.to_owned(), props.to_owned());
        let answer = tokio::task::spawn_blocking(move || inner.render_blocking(&island, &json)).await;
        match answer {
            Ok(Ok(html)) => {
                tracing::debug!(island = name, ms = started.elapsed().as_secs_f64() * 1e3, "island rendered");
                if let Some(key) = key {
                    self.inner.remembered.lock().unwrap_or_else(|p| p.into_inner()).keep(key, &html);
                }
                Some(html)
            }
            Ok(Err(e)) => {
                tracing::error!(island = name, error = %e, "island render failed; sent its fallback");
                None
            }
            Err(e) => {
                tracing::error!(island = name, error = %e, "island render panicked; sent its fallback");
                None
            }
        }
    }

    /// Renders that found no engine free within [`Limits::wait`] so far.
    pub fn fallbacks(&self) -> u64 {
        self.inner.fallbacks.load(Ordering::Relaxed)
    }

    /// `render` on the calling thread (the benchmark measures it without the runtime).
    pub fn render_blocking(&self, name: &str, props: &str) -> Result<String, SsrError> {
        self.inner.render_blocking(name, props)
    }

    /// Bytes the idle engines hold (the benchmark watches it over many renders).
    pub fn memory_in_use(&self) -> usize {
        let idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.iter().map(|e| e.runtime.memory_usage().memory_used_size.max(0) as usize).sum()
    }
}

impl Inner {
    fn render_blocking(&self, name: &str, props: &str) -> Result<String, SsrError> {
        let engine = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let engine = match engine {
            Some(e) => e,
            None => self.new_engine()?,
        };
        let html = engine.render(name, props, self.limits.time)?;
        // Only an engine that finished its render cleanly goes back to the pool.
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).push(engine);
        Ok(html)
    }

    fn new_engine(&self) -> Result<Engine, SsrError> {
        let bundle = self.bundle.as_deref().ok_or(SsrError::NoBundle)?;
        Engine::new(bundle, &self.limits)
    }
}

/// One QuickJS runtime with the bundle evaluated in its context.
struct Engine {
    runtime: Runtime,
    context: Context,
    /// When the running render must stop, in ms since `epoch` (0: no render running).
    deadline: Arc<AtomicU64>,
    epoch: Instant,
}

impl Engine {
    fn new(bundle: &str, limits: &Limits) -> Result<Self, SsrError> {
        let start = |e: rquickjs::Error| SsrError::Start(e.to_string());
        let runtime = Runtime::new().map_err(start)?;
        runtime.set_memory_limit(limits.memory);
        // Cycle collection first runs at 8 MiB instead of QuickJS's 256 KiB: a large render
        // (a 200-line editor) otherwise runs it several times over the whole bundle's
        // objects. Reference counting frees the rest at once; the limit above still holds.
        runtime.set_gc_threshold(8 << 20);
        // Below the blocking pool's 2 MiB thread stacks.
        runtime.set_max_stack_size(1 << 20);
        let deadline = Arc::new(AtomicU64::new(0));
        let epoch = Instant::now();
        let watched = deadline.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || {
            let until = watched.load(Ordering::Relaxed);
            until != 0 && epoch.elapsed().as_millis() as u64 >= until
        })));
        let context = Context::full(&runtime).map_err(start)?;
        context.with(|ctx| ctx.eval::<(), _>(bundle).catch(&ctx).map_err(|e| SsrError::Start(e.to_string())))?;
        Ok(Self { runtime, context, deadline, epoch })
    }

    fn render(&self, name: &str, props: &str, limit: Duration) -> Result<String, SsrError> {
        let until = (self.epoch.elapsed() + limit).as_millis() as u64;
        self.deadline.store(until.max(1), Ordering::Relaxed);
        let result = self.context.with(|ctx| {
            let call = || -> rquickjs::Result<String> {
                let ssr: Object = ctx.globals().get(GLOBAL)?;
                let render: Function = ssr.get("render")?;
                render.call((name, props))
            };
            call().catch(&ctx).map_err(|e| e.to_string())
        });
        let timed_out = self.epoch.elapsed().as_millis() as u64 >= until;
        self.deadline.store(0, Ordering::Relaxed);
        match result {
            Ok(html) => Ok(html),
            Err(_) if timed_out => Err(SsrError::TimedOut(limit)),
            Err(message) => Err(SsrError::Threw(message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in bundle with the real one's shape: `render` echoes, throws or loops.
    const FAKE: &str = r#"
        var TyreDeskSsr = {
          render: function (name, props) {
            if (name === 'throws') throw new Error('broken island');
            if (name === 'loops') { for (;;) {} }
            if (name === 'hungry') { var a = []; for (;;) a.push(new Array(100000).fill(1)); }
            if (name === 'slow') { var t = Date.now(); while (Date.now() - t < 400) {} }
            if (name === 'counted') { globalThis.calls = (globalThis.calls || 0) + 1; return '<b>call ' + globalThis.calls + '</b>'; }
            return '<b>' + name + ':' + JSON.parse(props).n + '</b>';
          }
        };
    "#;

    fn fake(limits: Limits) -> Ssr {
        Ssr::with_bundle(Some(FAKE.to_owned()), limits)
    }

    #[test]
    fn renders_with_the_props_given() {
        let ssr = fake(Limits::default());
        assert_eq!(ssr.render_blocking("cart", r#"{"n":3}"#).unwrap(), "<b>cart:3</b>");
    }

    #[test]
    fn a_throwing_island_is_an_error_and_the_next_render_works() {
        let ssr = fake(Limits::default());
        let err = ssr.render_blocking("throws", "{}").unwrap_err();
        assert!(matches!(err, SsrError::Threw(ref m) if m.contains("broken island")), "{err}");
        assert_eq!(ssr.render_blocking("cart", r#"{"n":1}"#).unwrap(), "<b>cart:1</b>");
    }

    #[test]
    fn a_render_that_never_ends_is_stopped_at_the_time_limit() {
        let ssr = fake(Limits { time: Duration::from_millis(50), ..Limits::default() });
        let started = Instant::now();
        let err = ssr.render_blocking("loops", "{}").unwrap_err();
        assert!(matches!(err, SsrError::TimedOut(_)), "{err}");
        assert!(started.elapsed() < Duration::from_secs(2), "stopped after {:?}", started.elapsed());
        assert_eq!(ssr.render_blocking("cart", r#"{"n":2}"#).unwrap(), "<b>cart:2</b>");
    }

    #[test]
    fn a_render_that_eats_memory_is_stopped_at_the_memory_limit() {
        let ssr = fake(Limits { memory: 16 << 20, time: Duration::from_secs(5), ..Limits::default() });
        let err = ssr.render_blocking("hungry", "{}").unwrap_err();
        assert!(matches!(err, SsrError::Threw(_)), "{err}");
        assert_eq!(ssr.render_blocking("cart", r#"{"n":4}"#).unwrap(), "<b>cart:4</b>");
    }

    #[test]
    fn without_a_bundle_nothing_renders() {
        let ssr = Ssr::with_bundle(None, Limits::default());
        assert!(!ssr.enabled());
        assert!(matches!(ssr.render_blocking("cart", "{}"), Err(SsrError::NoBundle)));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_render_waits_for_an_engine_at_most_its_limit_then_sends_the_fallback() {
        let ssr = fake(Limits { engines: 1, wait: Duration::from_millis(50), ..Limits::default() });
        let busy = ssr.clone();
        let slow = tokio::spawn(async move { busy.render("slow", r#"{"n":1}"#).await });
        tokio::time::sleep(Duration::from_millis(100)).await;
        let started = Instant::now();
        assert_eq!(ssr.render("cart", r#"{"n":9}"#).await, None, "no engine free: the fallback");
        assert!(started.elapsed() < Duration::from_millis(300), "answered after {:?}", started.elapsed());
        assert_eq!(ssr.fallbacks(), 1);
        assert_eq!(slow.await.unwrap().as_deref(), Some("<b>slow:1</b>"), "the render that had the engine finishes");
        assert_eq!(ssr.render("cart", r#"{"n":9}"#).await.as_deref(), Some("<b>cart:9</b>"), "and the next one gets it");
    }

    #[tokio::test]
    async fn the_async_render_answers_none_on_failure() {
        let ssr = fake(Limits::default());
        assert_eq!(ssr.render("cart", r#"{"n":5}"#).await.as_deref(), Some("<b>cart:5</b>"));
        assert_eq!(ssr.render("throws", "{}").await, None);
    }

    #[tokio::test]
    async fn a_report_forms_props_render_once_and_a_sheets_lines_every_time() {
        // One engine, so the bundle's call counter is the engine's.
        let ssr = fake(Limits { engines: 1, ..Limits::default() });
        let form = format!(r#"{{"warehouses":"{}"}}"#, "w".repeat(4_500));
        assert_eq!(ssr.render("counted", &form).await.as_deref(), Some("<b>call 1</b>"));
        assert_eq!(ssr.render("counted", &form).await.as_deref(), Some("<b>call 1</b>"), "the same props: the remembered HTML");
        let lines = format!(r#"{{"lines":"{}"}}"#, "l".repeat(REMEMBERED_PROPS + 1));
        assert_eq!(ssr.render("counted", &lines).await.as_deref(), Some("<b>call 2</b>"));
        assert_eq!(ssr.render("counted", &lines).await.as_deref(), Some("<b>call 3</b>"), "props past the size: rendered again");
    }
}
