//! The schema migrations of both backends, and the lock that start-up work takes.

use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::DbConn;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../../migrations/sqlite");
const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../../migrations/postgres");

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

/// Reverts the newest applied migration (its `down.sql`) and answers its name: the way back
/// from a release, and how the tests check that a migration carries old rows forward.
pub fn revert_last(conn: &mut DbConn) -> Result<String, String> {
    match conn {
        DbConn::Sqlite(c) => c.revert_last_migration(SQLITE_MIGRATIONS),
        DbConn::Pg(c) => c.revert_last_migration(PG_MIGRATIONS),
    }
    .map(|v| v.to_string())
    .map_err(|e| format!("reverting the last migration failed: {e}"))
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
