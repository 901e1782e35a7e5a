//! `tyredesk copy-to-postgres --to postgres://…`: copies an SQLite database into an empty
//! PostgreSQL database with the same schema, so a company that outgrows one machine moves
//! without re-keying. One PostgreSQL transaction: a failure leaves the target empty.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Text};

use web::config::Config;
use db::DatabaseUrl;
use db::{self, DbConn};

/// Rows read and inserted per statement.
const BATCH: i64 = 2_000;

/// Tables of one side only: SQLite's search indexes and bookkeeping, diesel's migration list.
fn skipped(table: &str) -> bool {
    table.starts_with("sqlite_") || table.contains("_fts") || table == "__diesel_schema_migrations"
}

/// Rows copied per table, in the order they were copied.
#[derive(Debug, Default)]
pub struct Copied {
    pub tables: Vec<(String, i64)>,
}

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName)]
struct Pair {
    #[diesel(sql_type = Text)]
    child: String,
    #[diesel(sql_type = Text)]
    parent: String,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct Any {
    #[diesel(sql_type = Bool)]
    any: bool,
}

fn sql_err(what: &str) -> impl Fn(diesel::result::Error) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// The target's tables, parents before children (foreign keys), skipping one-sided ones.
fn tables_in_order(pg: &mut DbConn) -> Result<Vec<String>, String> {
    let names: Vec<String> = diesel::sql_query(
        "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    )
    .load::<Name>(pg)
    .map_err(sql_err("cannot list the target's tables"))?
    .into_iter()
    .map(|n| n.name)
    .filter(|n| !skipped(n))
    .collect();
    let edges: Vec<Pair> = diesel::sql_query(
        "SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint WHERE contype = 'f'",
    )
    .load(pg)
    .map_err(sql_err("cannot read the target's foreign keys"))?;
    let mut ordered: Vec<String> = Vec::with_capacity(names.len());
    let mut left = names;
    while !left.is_empty() {
        let ready: Vec<String> = left
            .iter()
            .filter(|t| edges.iter().all(|e| e.child != **t || e.parent == **t || ordered.contains(&e.parent) || !left.contains(&e.parent)))
            .cloned()
            .collect();
        if ready.is_empty() {
            return Err(format!("the foreign keys of {} form a cycle", left.join(", ")));
        }
        left.retain(|t| !ready.contains(t));
        ordered.extend(ready);
    }
    Ok(ordered)
}

fn sqlite_columns(src: &mut DbConn, table: &str) -> Result<Vec<String>, String> {
    Ok(diesel::sql_query(format!("SELECT name FROM pragma_table_info('{table}')")).load::<Name>(src).map_err(sql_err("cannot read the source's columns"))?.into_iter().map(|n| n.name).collect())
}

fn count(conn: &mut DbConn, table: &str) -> Result<i64, String> {
    Ok(diesel::sql_query(format!("SELECT COUNT(*) AS n FROM \"{table}\"")).get_result::<Count>(conn).map_err(sql_err("cannot count rows"))?.n)
}

/// Copies the configured SQLite database into the empty PostgreSQL database `to`.
pub fn run(config: &Config, to: &str, mut report: impl FnMut(&str, i64)) -> Result<Copied, String> {
    let DatabaseUrl::Sqlite(path) = &config.database else {
        return Err("the source must be an SQLite database (give it with --database-url or --data-dir)".into());
    };
    if !path.exists() {
        return Err(format!("there is no SQLite database at {}", path.display()));
    }
    if !to.starts_with("postgres://") && !to.starts_with("postgresql://") {
        return Err("--to must be a postgres:// URL".into());
    }
    let mut src = db::connect(&DatabaseUrl::Sqlite(path.clone()))?;
    db::migrate(&mut src)?;
    let mut pg = db::connect(&DatabaseUrl::Postgres(to.to_string()))?;
    db::migrate(&mut pg)?;
    let tables = tables_in_order(&mut pg)?;
    for t in &tables {
        let any = diesel::sql_query(format!("SELECT EXISTS (SELECT 1 FROM \"{t}\") AS any")).get_result::<Any>(&mut pg).map_err(sql_err("cannot read the target"))?;
        if any.any {
            return Err(format!("the target database is not empty (table {t} has rows); copy into a new, empty database"));
        }
    }
    let mut copied = Copied::default();
    let fail = db::error::AppError::bad_request;
    pg.transaction::<_, db::error::AppError, _>(|pg| {
        for t in &tables {
            let cols = sqlite_columns(&mut src, t).map_err(fail)?;
            if cols.is_empty() {
                continue;
            }
            let object = cols.iter().map(|c| format!("'{c}', \"{c}\"")).collect::<Vec<_>>().join(", ");
            let mut n = 0;
            let mut after = i64::MIN;
            loop {
                // Keyset on rowid: every SQLite table here has one.
                let rows: Vec<(i64, String)> = diesel::sql_query(format!("SELECT rowid AS k, json_object({object}) AS row FROM \"{t}\" WHERE rowid > {after} ORDER BY rowid LIMIT {BATCH}"))
                    .load::<KeyedJson>(&mut src)
                    .map_err(sql_err("cannot read the source")).map_err(fail)?
                    .into_iter()
                    .map(|r| (r.k, r.row))
                    .collect();
                let Some(&(last, _)) = rows.last() else { break };
                after = last;
                let array = format!("[{}]", rows.iter().map(|(_, r)| r.as_str()).collect::<Vec<_>>().join(","));
                let list = cols.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
                diesel::sql_query(format!("INSERT INTO \"{t}\" ({list}) SELECT {list} FROM json_populate_recordset(NULL::\"{t}\", $1::json)"))
                    .bind::<Text, _>(&array)
                    .execute(pg)
                    .map_err(|e| fail(format!("cannot copy {t}: {e}")))?;
                n += i64::try_from(rows.len()).unwrap_or(i64::MAX);
            }
            report(t, n);
            copied.tables.push((t.clone(), n));
        }
        // Ids continue after the copied rows.
        let serial: Vec<String> = diesel::sql_query(
            "SELECT table_name::text AS name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'id' AND column_default LIKE 'nextval%'",
        )
        .load::<Name>(pg)
        .map_err(sql_err("cannot list the id sequences")).map_err(fail)?
        .into_iter()
        .map(|n| n.name)
        .collect();
        let refs: Vec<&str> = serial.iter().map(String::as_str).collect();
        db::sync_sequences(pg, &refs)?;
        for (t, n) in &copied.tables {
            let there = count(pg, t).map_err(fail)?;
            if there != *n {
                return Err(fail(format!("{t}: {n} rows read but {there} in the target; nothing was copied")));
            }
        }
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    let _ = src.batch_execute("PRAGMA optimize");
    let _ = pg.batch_execute("ANALYZE");
    Ok(copied)
}

#[derive(QueryableByName)]
struct KeyedJson {
    #[diesel(sql_type = BigInt)]
    k: i64,
    #[diesel(sql_type = Text)]
    row: String,
}
