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
