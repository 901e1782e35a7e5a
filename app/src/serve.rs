//! The start-up sequence of `tyredesk serve`: checks, migrations, demo data, the background
//! work, then listening (the router and the connection loop are `web::server`'s).

use db::{self, DatabaseUrl, Db};
use web::config::Config;
use web::server::{ConnLimits, router, serve_on, shutdown_signal};
use web::state::AppState;

use crate::seed;

/// Checks the data directory and opens the database in the order that writes nothing when
/// something is wrong; then applies the migrations.
pub fn open(config: &Config) -> Result<Db, String> {
    match &config.database {
        DatabaseUrl::Sqlite(path) => {
            config.check_data_dir()?;
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
                && !parent.exists()
            {
                return Err(format!("the folder of the SQLite file {} does not exist", path.display()));
            }
        }
        DatabaseUrl::Postgres(_) => {}
    }
    let db = Db::open(&config.database)?;
    if matches!(config.database, DatabaseUrl::Postgres(_)) {
        config.check_data_dir()?;
    }
    let mut conn = db.get().map_err(|e| e.to_string())?;
    db::migrate(&mut conn)?;
    db::optimize(&mut conn).map_err(|e| format!("cannot refresh the database statistics: {e}"))?;
    Ok(db)
}

/// Seeds demo data when the database is empty; returns whether it did.
pub fn seed_demo_if_empty(db: &Db) -> Result<bool, String> {
    let mut conn = db.get().map_err(|e| e.to_string())?;
    // Under the start-up lock: of several processes started on one empty database, one seeds.
    db::under_start_lock(&mut conn, |conn| {
        if !db::masters::is_empty(conn).map_err(|e| e.to_string())? {
            return Ok(false);
        }
        let today = chrono::Utc::now().with_timezone(&chrono_tz::Australia::Sydney).date_naive();
        seed::seed(conn, seed::Scale::Demo, today).map_err(|e| format!("seeding demo data failed: {e}"))?;
        Ok(true)
    })
}

/// Runs the server until Ctrl-C or SIGTERM, answering requests that change data on `writes`
/// (`web::runtimes`).
pub async fn serve(config: Config, demo: bool, writes: tokio::runtime::Handle) -> anyhow::Result<()> {
    let db = open(&config).map_err(anyhow::Error::msg)?;
    if demo {
        if seed_demo_if_empty(&db).map_err(anyhow::Error::msg)? {
            println!("Demo data seeded into an empty database.");
        }
        print!("{}", seed::demo_signins());
    }
    let state = AppState::new(config.clone(), db)?.with_writes(writes);
    // A wrong bucket, endpoint or key stops the start, not the first report.
    state.store.check().await.map_err(anyhow::Error::msg)?;
    let listener = tokio::net::TcpListener::bind(&config.bind)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}. Choose another address with TYREDESK_BIND", config.bind))?;
    // The address actually bound: with port 0 the system chose it, and tools read it here.
    let bound = listener.local_addr().map_or_else(|_| config.bind.clone(), |a| a.to_string());
    println!("TyreDesk is running on http://{bound} (database: {})", config.database.redacted());
    // Exports left by a crash; a running export's file is younger, and open files survive.
    xlsx::export::sweep(&xlsx::export::temp_dir(&config.data_dir), xlsx::export::LEFTOVER_AGE);
    if !state.store.is_local() {
        println!("Files (reports, uploads, backups) are kept in {}.", state.store.location());
    }
    if let Err(e) = services::jobs::files::clean(&state).await {
        tracing::warn!("cleaning old reports failed: {e}");
    }
    state.ssr.warm_up();
    services::jobs::start(state.core.clone());
    serve_on(listener, router(state), ConnLimits::default(), shutdown_signal()).await;
    Ok(())
}

