//! Database access: one connection type over SQLite and PostgreSQL, a pool, and the async
//! helpers every handler uses (`run` for reads, `write` for transactions).
//!
//! The crate root holds the connection type and names every public item; the code lives in
//! `conn` (connecting, the pool, `Db`), `migrate`, `keyset` (paging), `planner` (statistics,
//! query plans) and `bulk` (loading many rows), and in one module per kind of record.

pub mod schema;
pub mod accounts;
pub mod customers;
pub mod dispatch;
pub mod email;
pub mod exchange_rates;
pub mod masters;
pub mod ocops;
pub mod products;
pub mod stock;
pub mod lots;
pub mod orders;
pub mod order_views;
pub mod price_views;
pub mod reference_data;
pub mod refs;
pub mod reorder;
pub mod reports;
pub mod search;
pub mod shop;
pub mod imports;
pub mod jobs;
pub mod notices;
pub mod xero;
pub mod printing;
pub mod error;
pub mod token;
mod url;
mod bulk;
mod conn;
mod counts;
pub use counts::OverCap;
mod keyset;
mod migrate;
mod planner;

pub use url::DatabaseUrl;

pub use bulk::{DeferredIndexes, SchemaObject, analyze_all, bulk_load, checkpoint, defer_indexes, sync_sequences};
pub use conn::{BUSY, Conn, ConnectError, Db, Kept, Manager, POOL_WAIT, WRITE_ATTEMPTS, after_large_reads, connect, kept, one_connection, polled_with, writing};
pub use keyset::{CountOf, Predicate, SortedPage, after_key, keyset_chunks, nulls_first, read_snapshot};
pub use migrate::{migrate, revert_last, under_start_lock};
pub use planner::{PLANNED_TABLES, analyze, optimize, plan};

use diesel::prelude::*;

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

/// A list of ids as each backend reads one best, for statements written as text: the
/// condition on `column`, and the one value to bind to `$n` if any. PostgreSQL gets one
/// array parameter (`= ANY(CAST($n AS BIGINT[]))`, bound as the text '{1,2,3}'): 500
/// parameters took PostgreSQL about 1.3 ms a statement to parse and bind, a fifth of a
/// report chunk's statement at scale XL (issue 37). SQLite gets the ids written in as
/// integers, which binds nothing and plans as its `IN (?, ?, …)` did.
pub fn ids_in(backend: Backend, column: &str, n: usize, ids: &[i64]) -> (String, Option<String>) {
    use std::fmt::Write;
    let list = |open: char, close: char| {
        let mut s = String::with_capacity(ids.len() * 8 + 2);
        s.push(open);
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{id}");
        }
        s.push(close);
        s
    };
    match backend {
        Backend::Postgres => (format!("{column} = ANY(CAST(${n} AS BIGINT[]))"), Some(list('{', '}'))),
        Backend::Sqlite => (format!("{column} IN {}", list('(', ')')), None),
    }
}

/// Current UTC time as stored in timestamp columns.
pub fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}
