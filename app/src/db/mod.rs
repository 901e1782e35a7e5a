//! Database access: one connection type over SQLite and PostgreSQL, a pool, and the async
//! helpers every handler uses (`run` for reads, `write` for transactions).

pub mod schema;
pub mod accounts;
pub mod customers;
pub mod masters;
pub mod ocops;
pub mod products;
pub mod stock;
pub mod orders;
pub mod refs;

use std::sync::Arc;
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{ManageConnection, Pool, PooledConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::config::DatabaseUrl;
use crate::error::{AppError, AppResult};

/// One connection to whichever backend the URL selected.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    Pg(PgConnection),
    Sqlite(SqliteConnection),
}

/// The backend in use; only `db/` branches on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl DbConn {
    /// Which backend this connection talks to.
    pub fn backend(&self) -> Backend {
        match self {
            DbConn::Pg(_) => Backend::Postgres,
            DbConn::Sqlite(_) => Backend::Sqlite,
        }
    }
}

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");
const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");

/// SQLite page cache per connection, in KiB.
const CACHE_KIB: u32 = 32_000;
/// SQLite page cache of a connection that bulk-loads: at scale L the index pages that
/// inserts touch (a leaf per product, per customer, per type and status) exceed 32 MB, and
/// every miss is a read from the OS and a spill to the log (docs/decisions.md, "Seeding at
/// scale L").
const BULK_CACHE_KIB: u32 = 512 * 1024;

/// Opens one connection, choosing the backend from the URL (never by trial) and keeping the
/// driver's own error message.
pub fn connect(url: &DatabaseUrl) -> Result<DbConn, String> {
    match url {
        DatabaseUrl::Postgres(raw) => PgConnection::establish(raw).map(DbConn::Pg).map_err(|e| {
            format!(
                "cannot connect to PostgreSQL at {}: {}. Check DATABASE_URL and that the server is running",
                url.redacted(),
                e.to_string().trim()
            )
        }),
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

/// Applies the migrations of the connection's backend; returns the names applied.
pub fn migrate(conn: &mut DbConn) -> Result<Vec<String>, String> {
    let applied = match conn {
        DbConn::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS),
        DbConn::Pg(c) => c.run_pending_migrations(PG_MIGRATIONS),
    }
    .map_err(|e| format!("database migration failed: {e}"))?;
    Ok(applied.iter().map(|v| v.to_string()).collect())
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

/// The shared database handle kept in the application state.
#[derive(Clone)]
pub struct Db {
    pool: Pool<Manager>,
    backend: Backend,
    /// SQLite has one writer at a time; queueing writers here avoids SQLITE_BUSY upgrades
    /// between deferred transactions. PostgreSQL relies on row locks instead.
    write_lock: Arc<tokio::sync::Mutex<()>>,
}

impl Db {
    /// Opens the pool after checking that one connection works.
    pub fn open(url: &DatabaseUrl) -> Result<Self, String> {
        let backend = match url {
            DatabaseUrl::Sqlite(_) => Backend::Sqlite,
            DatabaseUrl::Postgres(_) => Backend::Postgres,
        };
        // Fail fast with the driver's message instead of r2d2's generic timeout.
        drop(connect(url)?);
        let pool = Pool::builder()
            .max_size(if backend == Backend::Sqlite { 8 } else { 12 })
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(5))
            .build(Manager { url: url.clone() })
            .map_err(|e| format!("cannot open database pool: {e}"))?;
        Ok(Self { pool, backend, write_lock: Arc::new(tokio::sync::Mutex::new(())) })
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A connection for blocking code (CLI, seeding).
    pub fn get(&self) -> AppResult<Conn> {
        self.pool.get().map_err(|e| AppError::Unavailable(format!("database busy: {e}")))
    }

    /// Runs `f` on the blocking pool with a pooled connection, keeping the tracing span.
    pub async fn run<T, F>(&self, f: F) -> AppResult<T>
    where
        F: FnOnce(&mut DbConn) -> AppResult<T> + Send + 'static,
        T: Send + 'static,
    {
        let pool = self.pool.clone();
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            span.in_scope(|| {
                let mut conn = pool.get().map_err(|e| AppError::Unavailable(format!("database busy: {e}")))?;
                f(&mut conn)
            })
        })
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("database task failed: {e}")))?
    }

    /// Runs `f` inside one transaction; on SQLite writers queue so they never collide.
    pub async fn write<T, F>(&self, f: F) -> AppResult<T>
    where
        F: FnOnce(&mut DbConn) -> AppResult<T> + Send + 'static,
        T: Send + 'static,
    {
        let _guard = match self.backend {
            Backend::Sqlite => Some(self.write_lock.lock().await),
            Backend::Postgres => None,
        };
        self.run(move |conn| conn.transaction(f)).await
    }
}

/// Runs `$body` with `$c` bound to the concrete backend connection, for the few statements
/// whose SQL differs (batch inserts, upserts, SKIP LOCKED).
#[macro_export]
macro_rules! per_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConn::Sqlite($c) => $body,
            $crate::db::DbConn::Pg($c) => $body,
        }
    };
}

/// Ids per `IN (…)` list: far under SQLite's 32,766 and PostgreSQL's 65,535 bind variables.
pub const CHUNK: usize = 500;

/// Current UTC time as stored in timestamp columns.
pub fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// Declares a function inserting rows in chunks (multi-row INSERT on both backends).
#[macro_export]
macro_rules! batch_insert_fn {
    ($(#[$doc:meta])* $name:ident, $table:path, $ty:ty) => {
        $(#[$doc])*
        pub fn $name(conn: &mut $crate::db::DbConn, rows: &[$ty]) -> $crate::error::AppResult<()> {
            // 400 rows × ≤ 60 columns stays under both backends' bind-parameter limits.
            for chunk in rows.chunks(400) {
                $crate::per_backend!(&mut *conn, |c| diesel::insert_into($table).values(chunk).execute(c))?;
            }
            Ok(())
        }
    };
}

/// After rows were inserted with explicit ids, moves PostgreSQL's id sequences past them.
pub fn sync_sequences(conn: &mut DbConn, tables: &[&str]) -> AppResult<()> {
    if conn.backend() == Backend::Postgres {
        for t in tables {
            conn.batch_execute(&format!(
                "SELECT setval(pg_get_serial_sequence('{t}', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM {t}), 1))"
            ))?;
        }
    }
    Ok(())
}

/// Puts a SQLite connection into bulk-load mode (`true`: the big page cache, no foreign key
/// checks) or back to normal. Only for generated data whose references are right by
/// construction; must be called outside a transaction, where SQLite ignores `foreign_keys`.
pub fn bulk_load(conn: &mut DbConn, bulk: bool) -> AppResult<()> {
    if conn.backend() == Backend::Sqlite {
        let (cache, fks) = if bulk { (BULK_CACHE_KIB, "OFF") } else { (CACHE_KIB, "ON") };
        conn.batch_execute(&format!("PRAGMA cache_size = -{cache}; PRAGMA foreign_keys = {fks};"))?;
    }
    Ok(())
}

/// Copies SQLite's write-ahead log into the database file and truncates it, so a bulk load
/// that commits as it goes keeps the log small; PostgreSQL needs nothing.
pub fn checkpoint(conn: &mut DbConn) -> AppResult<()> {
    if conn.backend() == Backend::Sqlite {
        conn.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)")?;
    }
    Ok(())
}

/// Refreshes the query planner's statistics after a bulk load (SQLite also lets `optimize`
/// do whatever else it finds worth doing).
pub fn analyze(conn: &mut DbConn) -> AppResult<()> {
    match conn.backend() {
        Backend::Sqlite => conn.batch_execute("ANALYZE; PRAGMA optimize;")?,
        Backend::Postgres => conn.batch_execute("ANALYZE")?,
    }
    Ok(())
}
