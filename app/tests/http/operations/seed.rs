//! The demo data seeded at first start (issue 15): no seeded row was created, modified or
//! approved after the moment of seeding, on SQLite or PostgreSQL.

use diesel::prelude::*;
use diesel::sql_types::{Nullable, Timestamp};
use db::DatabaseUrl;
use db::Db;

#[derive(QueryableByName)]
struct Latest {
    #[diesel(sql_type = Nullable<Timestamp>)]
    at: Option<chrono::NaiveDateTime>,
}

/// Every seeded timestamp column: a modified date that lies after now was the mistake.
const STAMPS: &[(&str, &str)] = &[
    ("organisations", "created_at"),
    ("organisations", "updated_at"),
    ("users", "created_at"),
    ("users", "updated_at"),
    ("memberships", "created_at"),
    ("warehouses", "updated_at"),
    ("brands", "updated_at"),
    ("suppliers", "updated_at"),
    ("customers", "created_at"),
    ("customers", "updated_at"),
    ("products", "created_at"),
    ("products", "updated_at"),
    ("stocks", "updated_at"),
    ("stock_moves", "created_at"),
    ("ocop_prices", "updated_at"),
    ("orders", "created_at"),
    ("orders", "updated_at"),
    ("orders", "last_approved_at"),
    ("order_events", "created_at"),
];

#[tokio::test]
async fn the_first_start_seeds_no_date_after_now() {
    let dir = tempfile::tempdir().unwrap();
    let admin = std::env::var("TEST_DATABASE_URL").ok().filter(|u| u.starts_with("postgres"));
    let name = format!("td_seed_{}", std::process::id());
    let url = match &admin {
        Some(admin) => {
            let mut root = diesel::PgConnection::establish(admin).unwrap();
            diesel::sql_query(format!("DROP DATABASE IF EXISTS {name}")).execute(&mut root).unwrap();
            diesel::sql_query(format!("CREATE DATABASE {name}")).execute(&mut root).unwrap();
            let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap();
            DatabaseUrl::Postgres(format!("{base}/{name}"))
        }
        None => DatabaseUrl::Sqlite(dir.path().join("first-start.sqlite3")),
    };
    let db = Db::open(&url).unwrap();
    db::migrate(&mut db.get().unwrap()).unwrap();
    // The server's own first-start path, with today's date in the company's zone.
    assert!(tyredesk::serve::seed_demo_if_empty(&db).unwrap(), "an empty database is seeded");
    let seeded = chrono::Utc::now().naive_utc();
    let mut conn = db.get().unwrap();
    for (table, column) in STAMPS {
        let latest: Latest = diesel::sql_query(format!("SELECT MAX({column}) AS at FROM {table}")).get_result(&mut *conn).unwrap();
        let at = latest.at.unwrap_or_else(|| panic!("{table} has seeded rows"));
        assert!(at <= seeded, "{table}.{column}: {at} lies after the seeding ({seeded})");
    }
    for table in ["customers", "products", "orders"] {
        let later: i64 = diesel::sql_query(format!("SELECT COUNT(*) AS n FROM {table} WHERE updated_at < created_at")).get_result::<Count>(&mut *conn).unwrap().n;
        assert_eq!(later, 0, "{table}: modified before created");
    }
    drop(conn);
    drop(db);
    if let Some(admin) = admin {
        let mut root = diesel::PgConnection::establish(&admin).unwrap();
        diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut root).unwrap();
    }
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// An empty, migrated database for one seeding: on the test PostgreSQL server when
/// `TEST_DATABASE_URL` names one (`support::empty_postgres_database`, dropped by a later
/// run), else a SQLite file in `dir`.
fn empty_database(dir: &std::path::Path, label: &str) -> db::DbConn {
    let url = match crate::support::empty_postgres_database() {
        Some(url) => DatabaseUrl::Postgres(url),
        None => DatabaseUrl::Sqlite(dir.join(format!("{label}.sqlite3"))),
    };
    let mut conn = db::connect(&url).unwrap();
    db::migrate(&mut conn).unwrap();
    conn
}

#[derive(QueryableByName, Debug, PartialEq)]
struct Definition {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    sql: String,
}

/// The indexes, triggers and (PostgreSQL) foreign keys of every table, as the database
/// describes them.
fn schema(conn: &mut db::DbConn) -> Vec<Definition> {
    let q = match conn.backend() {
        db::Backend::Sqlite => "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name",
        db::Backend::Postgres => {
            "SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE schemaname = current_schema() \
             UNION ALL SELECT conrelid::regclass::text || '.' || conname, pg_get_constraintdef(oid) FROM pg_constraint \
             WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2"
        }
    };
    diesel::sql_query(q).load(conn).unwrap()
}

/// Rows, amounts and the last numbers of the sheets.
fn sheets(conn: &mut db::DbConn) -> (i64, i64, i64, Vec<String>) {
    use db::schema::{order_events, order_lines, orders};
    let n: i64 = orders::table.count().get_result(conn).unwrap();
    let l: i64 = order_lines::table.count().get_result(conn).unwrap();
    let e: i64 = order_events::table.count().get_result(conn).unwrap();
    let last = orders::table.order(orders::id.desc()).limit(5).select(orders::uuid).load(conn).unwrap();
    (n, l, e, last)
}

/// Issue 37 (scale XL): the bulk load of large scales copies the sheets in (PostgreSQL's
/// COPY) without their indexes and, on PostgreSQL, without their foreign keys, and makes
/// them again after the rows. Seeded that way in small batches, the data and the schema are
/// those of the same data written in one transaction, and a reference to no sheet is
/// refused again afterwards.
#[tokio::test]
async fn a_bulk_load_gives_back_every_index_and_foreign_key() {
    let dir = tempfile::tempdir().unwrap();
    let today = chrono::NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
    let mut whole = empty_database(dir.path(), "whole");
    tyredesk::seed::seed_committing(&mut whole, tyredesk::seed::Scale::Demo, today, None).unwrap();
    let mut batched = empty_database(dir.path(), "batched");
    tyredesk::seed::seed_committing(&mut batched, tyredesk::seed::Scale::Demo, today, Some(100)).unwrap();
    assert_eq!(sheets(&mut whole), sheets(&mut batched));
    assert!(sheets(&mut batched).1 > 0, "lines were seeded");
    let (before, after) = (schema(&mut whole), schema(&mut batched));
    assert!(before.iter().any(|d| d.sql.contains("FOREIGN KEY") || d.sql.contains("REFERENCES")), "the schema has foreign keys: {before:?}");
    assert_eq!(before, after);
    // The key of a line's sheet holds again (SQLite checks it on connections as the server
    // opens them, with `foreign_keys` on).
    let orphan = diesel::sql_query(
        "INSERT INTO order_lines (org_id, order_id, seq, description, unit, quantity, in_warehouse_qty, in_system_qty, price, amount, tax_type, cost_price, fx_price, fx_amount) \
         VALUES (4, -1, 1, 'x', 'ea', 1, 0, 0, 0, 0, 3, 0, 0, 0)",
    )
    .execute(&mut batched);
    assert!(orphan.is_err(), "a line of no sheet was stored");
}
