//! Loading many rows at once (seeding, imports): batch inserts, id sequences, bulk-load mode,
//! indexes dropped for a load and built again after it, WAL checkpoints and statistics.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;

use crate::conn::CACHE_KIB;
use crate::error::AppResult;
use crate::{Backend, DbConn};

/// SQLite page cache of a connection that bulk-loads: at scale L the index pages that
/// inserts touch (a leaf per product, per customer, per type and status) exceed 32 MB, and
/// every miss is a read from the OS and a spill to the log (docs/decisions/operations.md, "Seeding
/// at scale L").
const BULK_CACHE_KIB: u32 = 512 * 1024;

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

/// Declares a function loading many generated rows: PostgreSQL's `COPY … FROM STDIN` in its
/// binary format (no statement text to parse and plan per 400 rows), SQLite's multi-row
/// INSERT in chunks. For bulk loads only: a COPY is all or nothing, so a bad row fails the
/// whole call (docs/decisions/operations.md, "Seeding at scale XL").
#[macro_export]
macro_rules! bulk_copy_fn {
    ($(#[$doc:meta])* $name:ident, $table:path, $ty:ty) => {
        $(#[$doc])*
        pub fn $name(conn: &mut $crate::DbConn, rows: &[$ty]) -> $crate::error::AppResult<()> {
            match &mut *conn {
                $crate::DbConn::Pg(c) => {
                    diesel::copy_from($table).from_insertable(rows).execute(c)?;
                }
                $crate::DbConn::Sqlite(c) => {
                    for chunk in rows.chunks(400) {
                        diesel::insert_into($table).values(chunk).execute(c)?;
                    }
                }
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

/// The secondary indexes of some tables (and, on SQLite, the triggers that keep their text
/// indexes; on PostgreSQL, their foreign keys), dropped for a bulk load and made again after
/// it by [`DeferredIndexes::restore`]. Building an index once from sorted rows is several
/// times cheaper than keeping it row by row during a load of millions: each insert would seek
/// and dirty a leaf of every index. A foreign key likewise checks each row with a look-up of
/// its own, where adding it back checks all rows in one join (SQLite's bulk-load mode turns
/// its checks off instead: [`bulk_load`]).
#[derive(Debug, Default)]
#[must_use = "the indexes are gone until `restore` runs"]
pub struct DeferredIndexes {
    /// `CREATE …` statements as the database reported them, indexes before triggers.
    create: Vec<String>,
    /// `ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY …` of the foreign keys dropped (PostgreSQL).
    foreign_keys: Vec<String>,
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
/// on SQLite, the FTS triggers on them, on PostgreSQL their foreign keys, remembering how to
/// make them again. For seeding only: until `restore` runs, uniqueness and references are not
/// checked and the text indexes miss new rows.
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
        if conn.backend() == Backend::Postgres {
            let keys: Vec<SchemaObject> = diesel::sql_query(
                "SELECT conname AS name, format('ALTER TABLE %I ADD CONSTRAINT %I %s', $1, conname, pg_get_constraintdef(oid)) AS sql \
                 FROM pg_constraint WHERE conrelid = to_regclass(quote_ident($1)) AND contype = 'f' ORDER BY conname",
            )
            .bind::<Text, _>(*t)
            .load(conn)?;
            for k in keys {
                conn.batch_execute(&format!("ALTER TABLE \"{t}\" DROP CONSTRAINT \"{}\"", k.name.replace('"', "\"\"")))?;
                deferred.foreign_keys.push(k.sql);
            }
        }
    }
    Ok(deferred)
}

impl DeferredIndexes {
    /// Builds the dropped indexes again (a unique one fails if the load broke it), puts the
    /// triggers back and rebuilds the FTS tables from their content. Each statement commits
    /// on its own and SQLite's log is checkpointed after it, so the log stays one index big.
    pub fn restore(self, conn: &mut DbConn) -> AppResult<()> {
        let postgres = conn.backend() == Backend::Postgres;
        if postgres {
            // Sorting an index of 15M lines (scale XL) in the default 64 MB spills to disk.
            conn.batch_execute("SET maintenance_work_mem = '512MB'")?;
        }
        let built = self.rebuild(conn);
        if postgres {
            conn.batch_execute("RESET maintenance_work_mem")?;
        }
        built
    }

    fn rebuild(&self, conn: &mut DbConn) -> AppResult<()> {
        for sql in &self.create {
            conn.batch_execute(sql)?;
            checkpoint(conn)?;
        }
        for fts in &self.fts {
            conn.batch_execute(&format!("INSERT INTO {fts} ({fts}) VALUES ('rebuild')"))?;
            checkpoint(conn)?;
        }
        // After the indexes: checking a key reads the rows once, in a join.
        for sql in &self.foreign_keys {
            conn.batch_execute(sql)?;
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
