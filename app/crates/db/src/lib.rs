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
pub mod order_views;
pub mod price_views;
pub mod reference_data;
pub mod refs;
pub mod reports;
pub mod search;
pub mod shop;
pub mod imports;
pub mod notices;
pub mod xero;
pub mod error;
pub mod token;
mod url;

pub use url::DatabaseUrl;

use std::sync::Arc;
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{ManageConnection, Pool, PooledConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

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

impl Backend {
    /// The backend a URL selects.
    pub fn of(url: &DatabaseUrl) -> Self {
        match url {
            DatabaseUrl::Sqlite(_) => Backend::Sqlite,
            DatabaseUrl::Postgres(_) => Backend::Postgres,
        }
    }
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

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../../migrations/sqlite");
const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../../migrations/postgres");

/// SQLite page cache per connection, in KiB.
const CACHE_KIB: u32 = 32_000;
/// SQLite page cache of a connection that bulk-loads: at scale L the index pages that
/// inserts touch (a leaf per product, per customer, per type and status) exceed 32 MB, and
/// every miss is a read from the OS and a spill to the log (docs/decisions/operations.md, "Seeding
/// at scale L").
const BULK_CACHE_KIB: u32 = 512 * 1024;

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
            conn.batch_execute("SET jit = off").map_err(|e| format!("cannot configure the PostgreSQL connection: {e}"))?;
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

/// Applies the migrations of the connection's backend; returns the names applied.
pub fn migrate(conn: &mut DbConn) -> Result<Vec<String>, String> {
    // Several processes may start together on one database: one migrates, the others wait
    // for it and then find nothing pending.
    let applied = under_start_lock(conn, |conn| {
        match conn {
            DbConn::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS),
            DbConn::Pg(c) => c.run_pending_migrations(PG_MIGRATIONS),
        }
        .map(|v| v.iter().map(|v| v.to_string()).collect())
        .map_err(|e| format!("database migration failed: {e}"))
    })?;
    Ok(applied)
}

/// The advisory lock that start-up work takes on PostgreSQL (migrations, demo data), so N
/// server processes started at once on one database do it once, one after another (issue 29).
const START_LOCK: i64 = 0x7479_7265_6465_736b; // "tyredesk"

/// Runs `f` holding [`START_LOCK`] on PostgreSQL: a session lock, released after `f` even
/// when it fails. On SQLite, which one process serves, it just runs `f`.
pub fn under_start_lock<T>(conn: &mut DbConn, f: impl FnOnce(&mut DbConn) -> Result<T, String>) -> Result<T, String> {
    fn advisory(conn: &mut DbConn, call: &str) -> Result<(), String> {
        if let DbConn::Pg(pg) = conn {
            diesel::sql_query(format!("SELECT {call}($1)")).bind::<diesel::sql_types::BigInt, _>(START_LOCK).execute(pg).map_err(|e| format!("{call} failed: {e}"))?;
        }
        Ok(())
    }
    advisory(conn, "pg_advisory_lock")?;
    let done = f(conn);
    let released = advisory(conn, "pg_advisory_unlock");
    let done = done?;
    released.map(|()| done)
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

/// Connections per process, from the machine's cores: enough to keep every core busy while
/// some connections wait on disk or on the network (PostgreSQL), without letting dozens of
/// queries compete for two cores. SQLite has one writer and caches pages per connection, so
/// it gets fewer.
fn pool_size(backend: Backend) -> u32 {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
    match backend {
        Backend::Sqlite => (cores * 2 + 4).clamp(8, 16),
        Backend::Postgres => (cores * 4).clamp(8, 32),
    }
}

fn busy(e: diesel::r2d2::PoolError) -> AppError {
    tracing::warn!("no database connection in time: {e}");
    AppError::Unavailable(BUSY.into())
}

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
        Self::open_with(url, pool_size(Backend::of(url)), POOL_WAIT)
    }

    /// Opens a pool of `size` connections whose requests wait at most `wait` for one.
    pub fn open_with(url: &DatabaseUrl, size: u32, wait: Duration) -> Result<Self, String> {
        let backend = Backend::of(url);
        // Fail fast with the driver's message instead of r2d2's generic timeout.
        drop(connect(url)?);
        let pool = Pool::builder()
            .max_size(size)
            .min_idle(Some(1))
            .connection_timeout(wait)
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
        self.pool.get().map_err(busy)
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
                let mut conn = pool.get().map_err(busy)?;
                f(&mut conn)
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
        self.run(move |conn| {
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

/// Times a write runs before a collision with another writer is answered as a conflict.
pub const WRITE_ATTEMPTS: u32 = 4;

/// Runs `$body` with `$c` bound to the concrete backend connection, for the few statements
/// whose SQL differs (batch inserts, upserts, SKIP LOCKED).
#[macro_export]
macro_rules! per_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::DbConn::Sqlite($c) => $body,
            $crate::DbConn::Pg($c) => $body,
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
        pub fn $name(conn: &mut $crate::DbConn, rows: &[$ty]) -> $crate::error::AppResult<()> {
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

/// `SELECT COUNT(*) FROM (<query>) AS counted`: with a `LIMIT` inside, a count that stops at
/// the limit instead of visiting every match (list totals, issue 10).
#[derive(Debug, Clone, Copy, diesel::query_builder::QueryId)]
pub struct CountOf<Q>(pub Q);

impl<Q> diesel::query_builder::Query for CountOf<Q> {
    type SqlType = diesel::sql_types::BigInt;
}

impl<Q, DB> diesel::query_builder::QueryFragment<DB> for CountOf<Q>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, mut out: diesel::query_builder::AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("SELECT COUNT(*) FROM (");
        self.0.walk_ast(out.reborrow())?;
        out.push_sql(") AS counted");
        Ok(())
    }
}

impl<Q, C> RunQueryDsl<C> for CountOf<Q> {}

/// `SELECT id FROM (<query>) AS matched ORDER BY <order> LIMIT <limit> OFFSET <offset>`: a
/// page of the ids that `query` selects (with `id` and the columns `order` names), sorted
/// after they are all found. The derived table is planned on its own, so its rows are
/// found through the most selective index (a text index) whatever the order wants.
#[derive(Debug, Clone, diesel::query_builder::QueryId)]
pub struct SortedIds<Q> {
    pub query: Q,
    /// An ORDER BY list over the query's column names; our own text, never input.
    pub order: &'static str,
    pub offset: i64,
    pub limit: i64,
}

impl<Q> diesel::query_builder::Query for SortedIds<Q> {
    type SqlType = diesel::sql_types::BigInt;
}

impl<Q, DB> diesel::query_builder::QueryFragment<DB> for SortedIds<Q>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
    i64: diesel::serialize::ToSql<diesel::sql_types::BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: diesel::query_builder::AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("SELECT id FROM (");
        self.query.walk_ast(out.reborrow())?;
        out.push_sql(") AS matched ORDER BY ");
        out.push_sql(self.order);
        out.push_sql(" LIMIT ");
        out.push_bind_param::<diesel::sql_types::BigInt, _>(&self.limit)?;
        out.push_sql(" OFFSET ");
        out.push_bind_param::<diesel::sql_types::BigInt, _>(&self.offset)?;
        Ok(())
    }
}

impl<Q, C> RunQueryDsl<C> for SortedIds<Q> {}

/// Refreshes the planner's statistics where they are missing or stale (issue 10). Cheap: on
/// SQLite `PRAGMA optimize` analyses only tables that need it, reading at most about a
/// thousand rows per index; PostgreSQL's autovacuum does the same on its own. Run at start-up
/// and every hour by the server.
pub fn optimize(conn: &mut DbConn) -> AppResult<()> {
    if conn.backend() == Backend::Sqlite {
        // The limit is per connection: put it back, so a full ANALYZE later on this pooled
        // connection (after seeding) reads every row.
        conn.batch_execute("PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002; PRAGMA analysis_limit = 0;")?;
    }
    Ok(())
}

/// Tables whose statistics steer the list and search plans.
pub const PLANNED_TABLES: [&str; 6] = ["orders", "order_lines", "products", "customers", "suppliers", "ocop_prices"];

/// Statistics of `tables`, gathered now: after seeding and after a large import, so the
/// first query after them is planned with the new row counts (SQLite never analyses on its
/// own; PostgreSQL's autovacuum would, but only some time later).
pub fn analyze(conn: &mut DbConn, tables: &[&str]) -> AppResult<()> {
    for t in tables {
        debug_assert!(t.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "table names are ours");
        conn.batch_execute(&format!("ANALYZE {t}"))?;
    }
    Ok(())
}

/// `EXPLAIN [QUERY PLAN] <query>`: how the backend will run one of our queries.
#[derive(Debug, Clone, Copy, diesel::query_builder::QueryId)]
struct Explain<Q, ST>(Q, &'static str, std::marker::PhantomData<ST>);

impl<Q, ST: 'static> diesel::query_builder::Query for Explain<Q, ST> {
    type SqlType = ST;
}

impl<Q, ST, DB> diesel::query_builder::QueryFragment<DB> for Explain<Q, ST>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, mut out: diesel::query_builder::AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql(self.1);
        self.0.walk_ast(out.reborrow())
    }
}

impl<Q, ST, C> RunQueryDsl<C> for Explain<Q, ST> {}

/// The plan of `query`, one line per step (SQLite's `EXPLAIN QUERY PLAN` details, or
/// PostgreSQL's `EXPLAIN` lines): for tests that pin which index drives a query.
pub fn plan<Q>(conn: &mut DbConn, query: Q) -> AppResult<Vec<String>>
where
    Q: diesel::query_builder::QueryFragment<multi_connection_impl::MultiBackend> + diesel::query_builder::QueryId,
{
    use diesel::sql_types::{Integer, Text};
    Ok(match conn.backend() {
        Backend::Sqlite => Explain::<_, (Integer, Integer, Integer, Text)>(query, "EXPLAIN QUERY PLAN ", std::marker::PhantomData)
            .load::<(i32, i32, i32, String)>(conn)?
            .into_iter()
            .map(|r| r.3)
            .collect(),
        Backend::Postgres => Explain::<_, Text>(query, "EXPLAIN ", std::marker::PhantomData).load::<String>(conn)?,
    })
}

use diesel::expression::{AsExpression, BoxableExpression, TypedExpressionType};
use diesel::query_builder::QueryFragment;
use diesel::sql_types::{BigInt, Bool, SqlType};

/// A filter of a boxed query on `QS`, chosen at run time.
pub type Predicate<QS> = Box<dyn BoxableExpression<QS, MultiBackend, SqlType = Bool>>;

/// The rows after a keyset cursor: `(key_col, id_col) > (key, id)`, or `<` when the list runs
/// descending. One row-value comparison, which both backends answer from an index holding
/// the columns in that order instead of filtering from the start of the list.
pub fn after_key<QS, ST, T>(key_col: &str, id_col: &str, desc: bool, key: T, id: i64) -> Predicate<QS>
where
    ST: SqlType + TypedExpressionType + 'static,
    T: AsExpression<ST>,
    T::Expression: QueryFragment<MultiBackend> + Send + 'static,
{
    let op = if desc { "<" } else { ">" };
    Box::new(diesel::dsl::sql::<Bool>(&format!("({key_col}, {id_col}) {op} (")).bind::<ST, _>(key).sql(", ").bind::<BigInt, _>(id).sql(")"))
}

/// Reads a query in keyset chunks: `page(conn, after, limit)` answers up to `limit` rows that
/// follow the row `after` (from the start when `None`) in a fixed order, and `visit` gets each
/// chunk. Every chunk costs what the first does, however deep the reader is (OFFSET paging
/// re-reads all skipped rows, so a whole export by OFFSET grows with the square of its size).
pub fn keyset_chunks<R: Clone>(
    conn: &mut DbConn,
    chunk: usize,
    mut page: impl FnMut(&mut DbConn, Option<&R>, i64) -> AppResult<Vec<R>>,
    visit: &mut impl FnMut(&mut DbConn, Vec<R>) -> AppResult<()>,
) -> AppResult<()> {
    let chunk = chunk.max(1);
    let mut last: Option<R> = None;
    loop {
        let rows = page(conn, last.as_ref(), chunk as i64)?;
        let n = rows.len();
        match rows.last() {
            Some(row) => last = Some(row.clone()),
            None => return Ok(()),
        }
        visit(conn, rows)?;
        if n < chunk {
            return Ok(());
        }
    }
}

/// Where a nullable sort key puts its NULLs: SQLite sorts them first ascending, PostgreSQL
/// last ascending; descending reverses both. Keyset readers walk the NULL rows and the others
/// as two runs in this order so the export keeps the list's order on either backend.
pub fn nulls_first(backend: Backend, desc: bool) -> bool {
    match backend {
        Backend::Sqlite => !desc,
        Backend::Postgres => desc,
    }
}

/// Runs `f` in one read-only transaction that sees a single snapshot (REPEATABLE READ on
/// PostgreSQL, a WAL read transaction on SQLite), so an export read in many chunks is
/// consistent even while rows change: none is skipped or sent twice.
pub fn read_snapshot<T>(conn: &mut DbConn, f: impl FnOnce(&mut DbConn) -> AppResult<T>) -> AppResult<T> {
    conn.transaction(|c| {
        if c.backend() == Backend::Postgres {
            c.batch_execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")?;
        }
        f(c)
    })
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

/// The secondary indexes of some tables (and, on SQLite, the triggers that keep their text
/// indexes), dropped for a bulk load and built again after it by [`DeferredIndexes::restore`].
/// Building an index once from sorted rows is several times cheaper than keeping it row by
/// row during a load of millions: each insert would seek and dirty a leaf of every index.
#[derive(Debug, Default)]
#[must_use = "the indexes are gone until `restore` runs"]
pub struct DeferredIndexes {
    /// `CREATE …` statements as the database reported them, indexes before triggers.
    create: Vec<String>,
    /// SQLite FTS5 tables whose triggers were dropped: rebuilt from their content tables.
    fts: Vec<String>,
}

/// A row of the schema catalogue: an object's name and the statement that creates it.
#[derive(diesel::QueryableByName)]
pub struct SchemaObject {
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub sql: String,
}

/// Drops the secondary indexes of `tables` (never a primary key or a constraint's index) and,
/// on SQLite, the FTS triggers on them, remembering how to make them again. For seeding only:
/// until `restore` runs, uniqueness is not checked and the text indexes miss new rows.
pub fn defer_indexes(conn: &mut DbConn, tables: &[&str]) -> AppResult<DeferredIndexes> {
    use diesel::sql_types::Text;
    let mut deferred = DeferredIndexes::default();
    for t in tables {
        let objects: Vec<SchemaObject> = match conn.backend() {
            // `sql IS NULL` marks the automatic indexes of PRIMARY KEY and UNIQUE clauses.
            Backend::Sqlite => diesel::sql_query(
                "SELECT name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL \
                 AND (type = 'index' OR (type = 'trigger' AND name LIKE '%\\_fts\\_%' ESCAPE '\\')) \
                 ORDER BY type = 'trigger', name",
            )
            .bind::<Text, _>(*t)
            .load(conn)?,
            Backend::Postgres => diesel::sql_query(
                "SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i \
                 WHERE i.schemaname = current_schema() AND i.tablename = $1 AND NOT EXISTS ( \
                   SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass) \
                 ORDER BY i.indexname",
            )
            .bind::<Text, _>(*t)
            .load(conn)?,
        };
        for o in objects {
            let is_trigger = o.sql.trim_start().to_ascii_uppercase().starts_with("CREATE TRIGGER");
            let drop = if is_trigger { "TRIGGER" } else { "INDEX" };
            conn.batch_execute(&format!("DROP {drop} \"{}\"", o.name.replace('"', "\"\"")))?;
            if is_trigger && let Some(fts) = o.name.strip_suffix("_insert") {
                deferred.fts.push(fts.to_owned());
            }
            deferred.create.push(o.sql);
        }
    }
    Ok(deferred)
}

impl DeferredIndexes {
    /// Builds the dropped indexes again (a unique one fails if the load broke it), puts the
    /// triggers back and rebuilds the FTS tables from their content. Each statement commits
    /// on its own and SQLite's log is checkpointed after it, so the log stays one index big.
    pub fn restore(self, conn: &mut DbConn) -> AppResult<()> {
        for sql in &self.create {
            conn.batch_execute(sql)?;
            checkpoint(conn)?;
        }
        for fts in &self.fts {
            conn.batch_execute(&format!("INSERT INTO {fts} ({fts}) VALUES ('rebuild')"))?;
            checkpoint(conn)?;
        }
        Ok(())
    }
}

/// Copies SQLite's write-ahead log into the database file and truncates it, so a bulk load
/// that commits as it goes keeps the log small; PostgreSQL needs nothing.
pub fn checkpoint(conn: &mut DbConn) -> AppResult<()> {
    if conn.backend() == Backend::Sqlite {
        conn.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)")?;
    }
    Ok(())
}

/// Statistics of every table, after a bulk load such as seeding. On PostgreSQL a `VACUUM`
/// comes with them (8.6 s at scale L): a freshly loaded table has no visibility map, so no
/// query can answer from an index alone, and each row's first readers pay to look up its
/// transaction. At L a product word search counted its matches in 25 ms before and 1.6 ms
/// after (docs/decisions/queries.md, "Statistics"; figures in docs/performance.md). Outside any transaction, as `VACUUM` requires.
pub fn analyze_all(conn: &mut DbConn) -> AppResult<()> {
    match conn.backend() {
        Backend::Sqlite => conn.batch_execute("ANALYZE")?,
        Backend::Postgres => conn.batch_execute("VACUUM (ANALYZE)")?,
    }
    Ok(())
}

#[cfg(test)]
mod keyset_tests {
    use super::*;

    /// Pages over `data` (sorted) the way a keyset query does.
    fn pages(data: &[i64], chunk: usize) -> (Vec<i64>, Vec<usize>) {
        let url = crate::DatabaseUrl::Sqlite(":memory:".into());
        let mut conn = connect(&url).expect("in-memory SQLite");
        let mut seen = vec![];
        let mut sizes = vec![];
        let mut visit = |_: &mut DbConn, rows: Vec<i64>| {
            sizes.push(rows.len());
            seen.extend(rows);
            Ok(())
        };
        keyset_chunks(
            &mut conn,
            chunk,
            |_, after, limit| Ok(data.iter().copied().filter(|v| after.is_none_or(|a| v > a)).take(limit as usize).collect()),
            &mut visit,
        )
        .unwrap();
        (seen, sizes)
    }

    #[test]
    fn every_row_once_in_order_whatever_the_chunk() {
        let data: Vec<i64> = (1..=23).collect();
        for chunk in [1, 2, 7, 22, 23, 24, 100] {
            let (seen, sizes) = pages(&data, chunk);
            assert_eq!(seen, data, "chunk {chunk}");
            assert!(sizes.iter().all(|&n| n > 0 && n <= chunk), "chunk {chunk}: {sizes:?}");
        }
        assert_eq!(pages(&data, 7).1, vec![7, 7, 7, 2]);
        assert_eq!(pages(&[], 7).0, Vec::<i64>::new(), "no rows, no chunk");
        assert_eq!(pages(&data, 0).0, data, "a zero chunk reads one row at a time, never loops");
    }

    #[test]
    fn null_placement_follows_each_backend() {
        assert!(nulls_first(Backend::Sqlite, false) && !nulls_first(Backend::Sqlite, true));
        assert!(!nulls_first(Backend::Postgres, false) && nulls_first(Backend::Postgres, true));
    }
}
