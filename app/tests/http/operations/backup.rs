//! `tyredesk backup` and `tyredesk copy-to-postgres` (issue 13, docs/operations.md): a
//! backup taken during writes opens, passes `PRAGMA integrity_check` and holds every sheet
//! committed before it; the copy into PostgreSQL keeps every row count and the stock ledger.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use serde_json::json;
use db::DatabaseUrl;
use web::config::Config;
use db::schema::{orders, products, warehouses};
use tyredesk::ops::backup::{self, Backup, DATABASE_ENTRY};
use tyredesk::ops::copy;

use crate::support::TestApp;

fn pg_admin() -> Option<String> {
    std::env::var("TEST_DATABASE_URL").ok().filter(|u| u.starts_with("postgres"))
}

#[derive(QueryableByName)]
struct One {
    #[diesel(sql_type = Text)]
    integrity_check: String,
}

#[tokio::test]
async fn a_backup_taken_during_writes_is_consistent_and_complete() {
    let app = TestApp::new().await;
    let config = app.state.config.clone();
    if matches!(config.database, DatabaseUrl::Postgres(_)) {
        let r = tokio::task::spawn_blocking(move || backup::run(&config, None)).await.unwrap().unwrap();
        assert!(matches!(r, Backup::UsePgDump { ref command } if command.starts_with("pg_dump --format=custom")), "{r:?}");
        return;
    }
    let reports = config.data_dir.join("reports").join("4");
    std::fs::create_dir_all(&reports).unwrap();
    std::fs::write(reports.join("17-sales-detail.xlsx"), b"PK report").unwrap();
    std::fs::write(reports.join("18-sales-detail.xlsx.part"), b"half").unwrap();

    let s = app.session("approver@demo.test").await;
    let (product, warehouse, customer) = app
        .state
        .db
        .run(|c| {
            let p: i64 = products::table.filter(products::org_id.eq(4)).filter(products::category.eq(1)).order(products::id).select(products::id).first(c)?;
            let w: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).order(warehouses::id).select(warehouses::id).first(c)?;
            let cu: i64 = db::schema::customers::table.filter(db::schema::customers::org_id.eq(4)).order(db::schema::customers::id).select(db::schema::customers::id).first(c)?;
            Ok((p, w, cu))
        })
        .await
        .unwrap();
    let invoice = json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "lines": [{"seq": 1, "productId": product, "quantity": 1, "price": 1000}]});
    for _ in 0..5 {
        assert_eq!(app.post_json("/api/orders", &s, invoice.clone()).await.status, axum::http::StatusCode::OK);
    }
    let committed: Vec<i64> = app.state.db.run(|c| Ok(orders::table.select(orders::id).load(c)?)).await.unwrap();
    let to = config.data_dir.join("out").join("backup.tar.gz");
    let (cfg, target) = (config.clone(), to.clone());
    let mut running = tokio::task::spawn_blocking(move || backup::run(&cfg, Some(&target)));
    // Sheets keep being saved while the backup runs.
    let r = loop {
        tokio::select! {
            done = &mut running => break done.unwrap().unwrap(),
            res = app.post_json("/api/orders", &s, invoice.clone()) => assert_eq!(res.status, axum::http::StatusCode::OK, "{}", res.body),
        }
    };
    let Backup::Written { path, report_files, .. } = r else { panic!("expected an archive") };
    assert_eq!(path, to);
    assert_eq!(report_files, 1, "finished reports only, not .part files");

    // A second backup to the same file is refused; the first stays.
    let (cfg, target) = (config.clone(), to.clone());
    let again = tokio::task::spawn_blocking(move || backup::run(&cfg, Some(&target))).await.unwrap();
    assert!(again.unwrap_err().contains("already exists"));

    let out = tempfile::tempdir().unwrap();
    let file = std::fs::File::open(&path).unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(file)).unpack(out.path()).unwrap();
    assert_eq!(std::fs::read(out.path().join("reports/4/17-sales-detail.xlsx")).unwrap(), b"PK report");
    let db_path = out.path().join(DATABASE_ENTRY);
    let mut conn = diesel::SqliteConnection::establish(db_path.to_str().unwrap()).unwrap();
    let check: One = diesel::sql_query("PRAGMA integrity_check").get_result(&mut conn).unwrap();
    assert_eq!(check.integrity_check, "ok");
    let in_backup: Vec<i64> = orders::table.select(orders::id).load(&mut conn).unwrap();
    for id in &committed {
        assert!(in_backup.contains(id), "sheet {id} was committed before the backup started");
    }
    conn.batch_execute("PRAGMA quick_check").unwrap();
}

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct Ledger {
    #[diesel(sql_type = BigInt)]
    warehouse_id: i64,
    #[diesel(sql_type = BigInt)]
    product_id: i64,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    transit: i64,
}

const LEDGER: &str = "SELECT warehouse_id, product_id, CAST(SUM(qty_delta) AS BIGINT) AS qty, CAST(SUM(in_transit_delta) AS BIGINT) AS transit \
                      FROM stock_moves GROUP BY warehouse_id, product_id ORDER BY warehouse_id, product_id";

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[tokio::test]
async fn an_sqlite_database_moves_into_an_empty_postgresql_one() {
    let Some(admin) = pg_admin() else {
        eprintln!("skipped: the SQLite → PostgreSQL copy needs TEST_DATABASE_URL=postgres://…");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sqlite = dir.path().join("tyredesk.sqlite3");
    {
        let mut c = db::connect(&DatabaseUrl::Sqlite(sqlite.clone())).unwrap();
        db::migrate(&mut c).unwrap();
        tyredesk::seed::seed(&mut c, tyredesk::seed::Scale::Demo, chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap()).unwrap();
    }
    let name = format!("td_copy_{}", std::process::id());
    let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap().to_string();
    let target = format!("{base}/{name}");
    let mut root = diesel::PgConnection::establish(&admin).unwrap();
    root.batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).unwrap();
    root.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();

    let config = Config::new(Some(sqlite.to_str().unwrap()), None, Some(dir.path()), None).unwrap();
    let (cfg, to) = (config.clone(), target.clone());
    let copied = tokio::task::spawn_blocking(move || copy::run(&cfg, &to, |_, _| {})).await.unwrap().unwrap();
    assert!(copied.tables.len() >= 20, "{:?}", copied.tables);

    let mut src = diesel::SqliteConnection::establish(sqlite.to_str().unwrap()).unwrap();
    let mut pg = diesel::PgConnection::establish(&target).unwrap();
    for (table, n) in &copied.tables {
        let a: Count = diesel::sql_query(format!("SELECT COUNT(*) AS n FROM \"{table}\"")).get_result(&mut src).unwrap();
        let b: Count = diesel::sql_query(format!("SELECT COUNT(*) AS n FROM \"{table}\"")).get_result(&mut pg).unwrap();
        assert_eq!((a.n, b.n), (*n, *n), "{table}");
    }
    assert!(copied.tables.iter().any(|(t, n)| t == "orders" && *n > 0));
    let ledger_src: Vec<Ledger> = diesel::sql_query(LEDGER).load(&mut src).unwrap();
    let ledger_pg: Vec<Ledger> = diesel::sql_query(LEDGER).load(&mut pg).unwrap();
    assert!(!ledger_src.is_empty());
    assert_eq!(ledger_src, ledger_pg, "the stock ledger sums");
    // The running stock still equals the ledger on the PostgreSQL side.
    let stock: Vec<Ledger> = diesel::sql_query("SELECT warehouse_id, product_id, on_hand AS qty, in_transit AS transit FROM stocks WHERE on_hand <> 0 OR in_transit <> 0 ORDER BY warehouse_id, product_id")
        .load(&mut pg)
        .unwrap();
    let nonzero: Vec<&Ledger> = ledger_pg.iter().filter(|l| l.qty != 0 || l.transit != 0).collect();
    assert_eq!(stock.iter().collect::<Vec<_>>(), nonzero);
    // New rows get fresh ids after the copied ones.
    pg.batch_execute("INSERT INTO brands (org_id, name, presented_to_csr, created_at, updated_at) VALUES (4, 'After Copy', TRUE, NOW(), NOW())").unwrap();

    // Into a database that has rows: refused, and nothing changes.
    let before: Count = diesel::sql_query("SELECT COUNT(*) AS n FROM orders").get_result(&mut pg).unwrap();
    let (cfg, to) = (config.clone(), target.clone());
    let err = tokio::task::spawn_blocking(move || copy::run(&cfg, &to, |_, _| {})).await.unwrap().unwrap_err();
    assert!(err.contains("the target database is not empty"), "{err}");
    let after: Count = diesel::sql_query("SELECT COUNT(*) AS n FROM orders").get_result(&mut pg).unwrap();
    assert_eq!(before.n, after.n);
    drop(pg);
    root.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).unwrap();
}

/// Issue 29: the database, its journal, report files, backups and their folders are the
/// server user's alone, whatever an earlier version or the administrator's umask left.
#[cfg(unix)]
#[tokio::test]
async fn the_server_keeps_its_data_private_to_its_user() {
    use std::os::unix::fs::PermissionsExt;
    if pg_admin().is_some() {
        return; // the same binary and folder on PostgreSQL; SQLite's own files are the point here
    }
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())).permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("reports/4")).unwrap();
    std::fs::write(data.join("reports/4/1-sales-detail.xlsx"), b"PK old report").unwrap();
    std::fs::set_permissions(data.join("reports/4/1-sales-detail.xlsx"), std::fs::Permissions::from_mode(0o644)).unwrap();
    for d in ["", "reports", "reports/4"] {
        std::fs::set_permissions(data.join(d), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let db = data.join("tyredesk.sqlite3");
    {
        let server = crate::support::ServerProcess::start(&db.to_string_lossy(), &data, &[]);
        let res = get_text(&format!("{}/healthz", server.base)).await;
        assert_eq!(res, "ok");
        for f in ["tyredesk.sqlite3", "tyredesk.sqlite3-wal", "tyredesk.sqlite3-shm", "reports/4/1-sales-detail.xlsx"] {
            assert_eq!(mode(&data.join(f)), 0o600, "{f}");
        }
        for d in ["", "reports", "reports/4"] {
            assert_eq!(mode(&data.join(d)), 0o700, "{d}");
        }
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tyredesk"))
        .args(["backup", "--to"])
        .arg(dir.path().join("copies/backup.tar.gz"))
        .env("DATABASE_URL", &db)
        .env("TYREDESK_DATA_DIR", &data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(mode(&dir.path().join("copies/backup.tar.gz")), 0o600);
    assert_eq!(mode(&dir.path().join("copies")), 0o700);
}

async fn get_text(url: &str) -> String {
    use http_body_util::BodyExt;
    let client: hyper_util::client::legacy::Client<_, http_body_util::Empty<axum::body::Bytes>> =
        hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new()).build_http();
    let res = client.get(url.parse().unwrap()).await.unwrap();
    String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap()
}
