//! Opening a connection, the pool, and [`Db`], the handle whose `run` and `write` every handler
//! uses (a write collided with another is run again, see [`WRITE_ATTEMPTS`]).

use std::sync::Arc;
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{ManageConnection, Pool, PooledConnection};

use crate::error::{AppError, AppResult};
use crate::{Backend, DatabaseUrl, DbConn};

/// SQLite page cache per connection, in KiB. A large read gives its connection's back when
/// it ends ([`Db::run_large`]). 8 MB was tried (issue 38): the customer picker's overdue
/// amounts, read from the sheets of twenty customers, no longer stayed in the cache, and at
/// scale L the picker fell from 560 to 290 requests/s at 32 clients.
pub(crate) const CACHE_KIB: u32 = 32_000;

/// Opens one connection, choosing the backend from the URL (never by trial) and keeping the
/// driver's own error message.
pub fn connect(url: &DatabaseUrl) -> Result<DbConn, String> {
    match url {
        DatabaseUrl::Postgres(raw) => {
            let mut conn = PgConnection::establish(raw).map_err(|e| {
                format!(
                    "cannot connect to PostgreSQL at {}: {}. Check DATABASE_URL and that the server is running",
                    url.redacted(),
                    e.to_string().trim()
                )
            })?;
            // No JIT compilation: our statements are short, and where the planner overestimates
            // rows (a report's chunk of lines by an `IN (…)` list, estimated at 4× its rows)
            // PostgreSQL compiled each one for 47 ms to run it in 30 (docs/decisions/operations.md, "PostgreSQL and SQLite"; figures in docs/performance.md).
            // No parallel workers either: for the same overestimates PostgreSQL started two
            // workers for each chunk of a year's report at scale XL, 26 ms a chunk against 7 ms
            // without; and beside other requests a worker only takes a core from them
            // (docs/decisions/operations.md, "No parallel query").
            conn.batch_execute("SET jit = off; SET max_parallel_workers_per_gather = 0")
                .map_err(|e| format!("cannot configure the PostgreSQL connection: {e}"))?;
            Ok(DbConn::Pg(conn))
        }
        DatabaseUrl::Sqlite(path) => {
            let path_str = path.to_str().ok_or_else(|| format!("SQLite path {} is not UTF-8", path.display()))?;
            let mut conn = SqliteConnection::establish(path_str)
                .map_err(|e| format!("cannot open SQLite database {}: {}", path.display(), e.to_string().trim()))?;
            // WAL lets readers run beside the writer; busy_timeout absorbs short write waits
            // from a second process such as the CLI.
            conn.batch_execute(
                "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; \
                 PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;",
            )
            .and_then(|()| conn.batch_execute(&format!("PRAGMA cache_size = -{CACHE_KIB}")))
            .map_err(|e| format!("cannot configure SQLite database {}: {e}", path.display()))?;
            Ok(DbConn::Sqlite(conn))
        }
    }
}

/// r2d2 manager that opens connections with [`connect`].
pub struct Manager {
    url: DatabaseUrl,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConnectError(String);

impl ManageConnection for Manager {
    type Connection = DbConn;
    type Error = ConnectError;

    fn connect(&self) -> Result<DbConn, ConnectError> {
        connect(&self.url).map_err(ConnectError)
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), ConnectError> {
        conn.batch_execute("SELECT 1").map_err(|e| ConnectError(e.to_string()))
    }

    fn has_broken(&self, _conn: &mut DbConn) -> bool {
        false
    }
}

pub type Conn = PooledConnection<Manager>;

/// How long a request waits for a free connection before it is answered 503 (with
/// Retry-After): requests queue through a burst instead of failing at once.
pub const POOL_WAIT: Duration = Duration::from_secs(10);

/// The message of a request that waited [`POOL_WAIT`] in vain.
pub const BUSY: &str = "The server is busy; try again in a few seconds.";

/// Read connections per process, from the machine's cores: enough to keep every core busy
/// while some connections wait on disk or on the network (PostgreSQL), without letting dozens
/// of queries compete for two cores. SQLite has one writer and caches pages per connection, so
/// it gets fewer.
fn pool_size(backend: Backend) -> u32 {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
    match backend {
        Backend::Sqlite => (cores * 2 + 4).clamp(8, 16),
        Backend::Postgres => (cores * 4).clamp(8, 32),
    }
}

/// Connections kept for requests that change data (see [`writing`]): on SQLite one writes at a
/// time and the others read what the write needs; on PostgreSQL a few users save at once.
fn writer_pool_size(backend: Backend) -> u32 {
    match backend {
        Backend::Sqlite => 3,
        Backend::Postgres => 4,
    }
}

tokio::task_local! {
    /// Set while a request that changes data is answered.
    static WRITING: ();
}

/// Runs `f` (the answer to a request that changes data) with every database call it makes on
/// the connections kept for writes, so a save never queues behind the readers of a busy
/// moment: the session look-up and the reads before the transaction included (issue 38).
pub async fn writing<F: std::future::Future>(f: F) -> F::Output {
    WRITING.scope((), f).await
}

fn in_a_write() -> bool {
    WRITING.try_with(|()| ()).is_ok()
}

tokio::task_local! {
    /// Set while a read request is answered: the connection its calls share.
    static KEPT: Kept;
}

/// The read connection of one request, checked out by its first database call and kept for
/// the others until the request has been answered (see [`one_connection`]).
#[derive(Clone, Default)]
pub struct Kept(Arc<std::sync::Mutex<Option<Conn>>>);

impl Kept {
    fn take(&self) -> Option<Conn> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take()
    }

    fn keep(&self, conn: Conn) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(conn);
    }
}

/// Runs `f` (the answer to a read request) with its database calls on one read connection:
/// the session look-up, the shell's count and the page's queries each took a connection of
/// their own, with r2d2's `SELECT 1` check each time (issue 38). The connection goes back to
/// the pool when `f` ends and no [`kept`] handle is left; two calls at once use two.
pub async fn one_connection<F: std::future::Future>(f: F) -> F::Output {
    KEPT.scope(Kept::default(), f).await
}

/// The connection of the read request being answered, for work that goes on after its
/// handler (a streamed page's content, run with [`polled_with`]); `None` outside one.
pub fn kept() -> Option<Kept> {
    KEPT.try_with(Kept::clone).ok()
}

/// Runs `f` (one poll of work that reads for a request) on `kept`, the request's connection.
pub fn polled_with<R>(kept: &Kept, f: impl FnOnce() -> R) -> R {
    KEPT.sync_scope(kept.clone(), f)
}

fn busy(e: diesel::r2d2::PoolError) -> AppError {
    tracing::warn!("no database connection in time: {e}");
    AppError::Unavailable(BUSY.into())
}

/// The shared database handle kept in the application state.
#[derive(Clone)]
pub struct Db {
    /// Connections for reads: pages, lists, reports, jobs.
    pool: Pool<Manager>,
    /// Connections for writes and for every call of a request that changes data.
    writers: Pool<Manager>,
    backend: Backend,
    /// Sheet-list filters lately seen to match more than the pager counts.
    over_cap: Arc<crate::OverCap>,
    /// SQLite has one writer at a time; queueing writers here avoids SQLITE_BUSY upgrades
    /// between deferred transactions. PostgreSQL relies on row locks instead.
    write_lock: Arc<tokio::sync::Mutex<()>>,
}

impl Db {
    /// Opens the pool after checking that one connection works.
    pub fn open(url: &DatabaseUrl) -> Result<Self, String> {
        Self::open_with(url, pool_size(Backend::of(url)), POOL_WAIT)
    }

    /// Opens a pool of `size` read connections (and the few kept for writes) whose requests
    /// wait at most `wait` for one.
    pub fn open_with(url: &DatabaseUrl, size: u32, wait: Duration) -> Result<Self, String> {
        let backend = Backend::of(url);
        // Fail fast with the driver's message instead of r2d2's generic timeout.
        drop(connect(url)?);
        let build = |size: u32| {
            Pool::builder()
                .max_size(size)
                .min_idle(Some(1))
                .connection_timeout(wait)
                .build(Manager { url: url.clone() })
                .map_err(|e| format!("cannot open database pool: {e}"))
        };
        let (pool, writers) = (build(size)?, build(writer_pool_size(backend))?);
        Ok(Self { pool, writers, backend, over_cap: Arc::default(), write_lock: Arc::new(tokio::sync::Mutex::new(())) })
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The list filters of this database lately seen to match more than a page counts.
    pub fn over_cap(&self) -> Arc<crate::OverCap> {
        Arc::clone(&self.over_cap)
    }

    /// A connection for blocking code (CLI, seeding).
    pub fn get(&self) -> AppResult<Conn> {
        self.pool.get().map_err(busy)
    }

    /// Runs `f` on the blocking pool with a pooled connection, keeping the tracing span: a
    /// read connection, or one kept for writes inside [`writing`].
    pub async fn run<T, F>(&self, f: F) -> AppResult<T>
    where
        F: FnOnce(&mut DbConn) -> AppResult<T> + Send + 'static,
        T: Send + 'static,
    {
        if in_a_write() {
            return Self::run_on(self.writers.clone(), None, f).await;
        }
        Self::run_on(self.pool.clone(), kept(), f).await
    }

    /// Like [`Db::run`], for a read through a large part of the database (an export, a
    /// report): afterwards SQLite's connection gives back its page cache and the C heap its
    /// free pages, so a process that ran many keeps no more than one that ran none (issue 38:
    /// seven reports in a row grew the process from 112 to 192 MB).
    pub async fn run_large<T, F>(&self, f: F) -> AppResult<T>
    where
        F: FnOnce(&mut DbConn) -> AppResult<T> + Send + 'static,
        T: Send + 'static,
    {
        self.run(move |conn| {
            let done = f(conn);
            release_memory(conn);
            done
        })
        .await
    }

    /// Runs `f` on the blocking pool with a connection of `pool`, or with the request's `kept`
    /// one (checked out first if it has none, and kept afterwards).
    async fn run_on<T, F>(pool: Pool<Manager>, kept: Option<Kept>, f: F) -> AppResult<T>
    where
        F: FnOnce(&mut DbConn) -> AppResult<T> + Send + 'static,
        T: Send + 'static,
    {
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            span.in_scope(|| {
                let mut conn = match kept.as_ref().and_then(Kept::take) {
                    Some(conn) => conn,
                    None => pool.get().map_err(busy)?,
                };
                let done = f(&mut conn);
                if let Some(kept) = &kept {
                    kept.keep(conn);
                }
                done
            })
        })
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("database task failed: {e}")))?
    }

    /// Runs `f` inside one transaction; on SQLite writers queue so they never collide. On
    /// PostgreSQL a transaction the database aborted for a deadlock or a serialisation failure
    /// (two users writing the same rows at once) is run again from the start, at most
    /// [`WRITE_ATTEMPTS`] times in all, after a short random pause; if it still cannot
    /// commit, the caller gets the 409 of [`AppError::write_conflict`], never a 500. `f` must
    /// therefore be safe to run again: it sees none of an aborted attempt's writes.
    pub async fn write<T, F>(&self, mut f: F) -> AppResult<T>
    where
        F: FnMut(&mut DbConn) -> AppResult<T> + Send + 'static,
        T: Send + 'static,
    {
        let _guard = match self.backend {
            Backend::Sqlite => Some(self.write_lock.lock().await),
            Backend::Postgres => None,
        };
        Self::run_on(self.writers.clone(), None, move |conn| {
            let mut attempt = 1;
            loop {
                match conn.transaction(&mut f) {
                    Err(e) if e.is_write_conflict() && attempt < WRITE_ATTEMPTS => {
                        tracing::debug!(attempt, "a write collided with another; running it again");
                        std::thread::sleep(Duration::from_millis(rand::random_range(5..40) * attempt as u64));
                        attempt += 1;
                    }
                    done => return done,
                }
            }
        })
        .await
    }
}

/// What the binary's allocator does to give back the memory this thread freed (see
/// [`after_large_reads`]).
static ALLOCATOR_RELEASE: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Sets what a large read ends with on its thread, for the allocator the binary chose: the
/// server's mimalloc keeps a thread's freed pages in that thread's heap until the thread
/// allocates again, and the blocking-pool thread a report ran on may then sit idle (issue 38:
/// on PostgreSQL seven reports in a row grew the process by 88 MB).
pub fn after_large_reads(release: fn()) {
    let _ = ALLOCATOR_RELEASE.set(release);
}

/// Frees what a large read left behind on its thread: SQLite's page cache of the connection
/// and the pages glibc's malloc (SQLite's allocator) holds free, then the allocator's own.
fn release_memory(conn: &mut DbConn) {
    if conn.backend() == Backend::Sqlite {
        if let Err(e) = conn.batch_execute("PRAGMA shrink_memory") {
            tracing::debug!("shrink_memory failed: {e}");
        }
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: malloc_trim only returns free pages of glibc's heaps to the system; it takes
        // glibc's own locks and touches no memory in use.
        unsafe {
            libc::malloc_trim(0);
        }
    }
    if let Some(release) = ALLOCATOR_RELEASE.get() {
        release();
    }
}

/// Times a write runs before a collision with another writer is answered as a conflict.
pub const WRITE_ATTEMPTS: u32 = 4;
