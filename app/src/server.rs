//! The router and the start-up sequence (checks, migrations, demo data, listening).

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::config::{Config, DatabaseUrl};
use crate::db::{self, Db};
use crate::error::AppError;
use crate::state::AppState;
use crate::{api, assets, auth, seed, web};

/// Largest accepted request body (spreadsheet uploads included).
const BODY_LIMIT: usize = 20 * 1024 * 1024;

/// Answers 408 for a request still running after `Config::request_timeout`, except uploads. A
/// timeout drops the handler, but a write already on the blocking pool runs on and commits:
/// answering failure for it would be untrue. Uploads bound their body read themselves
/// (`api::upload`) and their work by the file limits, and the write they end with is one
/// short transaction (`docs/decisions.md`, Trust).
async fn timeout(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if api::UPLOAD_ROUTES.contains(&req.uri().path()) {
        return next.run(req).await;
    }
    match tokio::time::timeout(state.config.request_timeout, next.run(req)).await {
        Ok(res) => res,
        Err(_) => StatusCode::REQUEST_TIMEOUT.into_response(),
    }
}

/// The whole application; tests call it in-process.
pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(web::router())
        .merge(api::router())
        .route("/static/{*path}", get(assets::serve))
        .route("/favicon.ico", get(|| async { axum::response::Redirect::permanent("/static/favicon.svg") }))
        .route("/healthz", get(|| async { "ok" }))
        .fallback(|| async { AppError::NotFound })
        .layer(middleware::from_fn(auth::csrf::guard))
        // Inside the error renderer, so its bare 413 is answered in the app's words.
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(middleware::from_fn(web::errors::render))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("same-origin")))
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn_with_state(state.clone(), timeout))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Checks the data directory and opens the database in the order that writes nothing when
/// something is wrong; then applies the migrations.
pub fn open(config: &Config) -> Result<Db, String> {
    match &config.database {
        DatabaseUrl::Sqlite(path) => {
            config.check_data_dir()?;
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                if !parent.exists() {
                    return Err(format!("the folder of the SQLite file {} does not exist", path.display()));
                }
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
    Ok(db)
}

/// Seeds demo data when the database is empty; returns whether it did.
pub fn seed_demo_if_empty(db: &Db) -> Result<bool, String> {
    let mut conn = db.get().map_err(|e| e.to_string())?;
    if !crate::db::masters::is_empty(&mut conn).map_err(|e| e.to_string())? {
        return Ok(false);
    }
    let today = chrono::Utc::now().with_timezone(&chrono_tz::Australia::Sydney).date_naive();
    seed::seed(&mut conn, seed::Scale::Demo, today).map_err(|e| format!("seeding demo data failed: {e}"))?;
    Ok(true)
}

/// Runs the server until Ctrl-C or SIGTERM.
pub async fn serve(config: Config, demo: bool) -> anyhow::Result<()> {
    let db = open(&config).map_err(anyhow::Error::msg)?;
    if demo {
        if seed_demo_if_empty(&db).map_err(anyhow::Error::msg)? {
            println!("Demo data seeded into an empty database.");
        }
        print!("{}", seed::demo_signins());
    }
    let listener = tokio::net::TcpListener::bind(&config.bind)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}. Choose another address with TYREDESK_BIND", config.bind))?;
    println!("TyreDesk is running on http://{} (database: {})", config.bind, config.database.redacted());
    let state = AppState::new(config, db)?;
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app).with_graceful_shutdown(shutdown_signal()).await?;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
