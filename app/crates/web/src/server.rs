//! The router, the security headers every answer carries, and the connection loop with its
//! limits for slow clients. The start-up sequence (checks, migrations, demo data) is the
//! binary's (`tyredesk::serve`).

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, Request as HttpRequest, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutBody;
use tower_http::trace::TraceLayer;

use db::error::AppError;
use crate::state::AppState;
use crate::{api, assets, auth, pages};

pub use crate::http::CSP;

/// How each request is answered, by its method. A read still running after
/// `Config::request_timeout` is answered 408. Writes (every
/// method but GET and HEAD) are never cut off: a timeout drops the handler, but a write
/// already on the blocking pool runs on and commits, and answering failure for it would be
/// untrue. Their work is bounded instead: input ranges, upload limits, short transactions
/// (`docs/decisions/operations.md`, "Server limits and timeouts"); slow clients are cut off by the connection's read limits.
/// Their database calls, reads included, go to the connections kept for writes, so a save
/// does not queue behind the readers (`db::writing`), and where the state has a runtime for
/// them they are answered there, at a higher priority than the reads (`crate::runtimes`).
///
/// A read first takes one of the few places for reads (`crate::admission`), kept until its
/// answer is produced, so a save competes with a few readers rather than all of them; files
/// sent as they are and the health check take none. Its database calls share one connection
/// (`db::one_connection`), a streamed page's content included.
async fn by_method(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !req.method().is_safe() {
        let write = db::writing(next.run(req));
        return match &state.writes {
            Some(writes) => writes.spawn(tracing::Instrument::instrument(write, tracing::Span::current())).await.unwrap_or_else(|e| {
                tracing::error!("a request that changes data failed: {e}");
                StatusCode::INTERNAL_SERVER_ERROR.into_response()
            }),
            None => write.await,
        };
    }
    let place = if crate::admission::takes_a_place(req.uri().path()) { state.readers.enter().await } else { None };
    match tokio::time::timeout(state.config.request_timeout, db::one_connection(next.run(req))).await {
        Ok(res) => res.map(|body| crate::admission::Holding::body(body, place)),
        Err(_) => StatusCode::REQUEST_TIMEOUT.into_response(),
    }
}

/// Largest accepted request body; the upload routes set their own, smaller limit.
const BODY_LIMIT: usize = 20 * 1024 * 1024;

/// The sign-ins whose cookies vouch for forms, most specific path first (the CSRF guard).
const SIGN_IN_SIDES: &[auth::SignInCookies] = &[crate::shop::SHOP_COOKIES, auth::STAFF_COOKIES];

/// The whole application; tests call it in-process.
pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(pages::router())
        .merge(api::router())
        .merge(crate::shop::router())
        .route("/static/{*path}", get(assets::serve))
        .route("/favicon.ico", get(|| async { axum::response::Redirect::permanent("/static/favicon.svg") }))
        .route("/healthz", get(|| async { "ok" }))
        .fallback(|| async { AppError::NotFound })
        .layer(middleware::from_fn_with_state(SIGN_IN_SIDES, auth::csrf::guard))
        // Inside the error renderer, so its bare 413 is answered in the app's words.
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(middleware::from_fn(pages::errors::render))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("same-origin")))
        .layer(SetResponseHeaderLayer::if_not_present(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)))
        // Pages and API answers hold one company's data and a CSRF token: no cache keeps them.
        // Static files set their own caching first, so `if_not_present` leaves theirs.
        .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static("no-store")))
        // Spreadsheets are zip files already: compressing them again costs CPU for nothing and
        // would drop their Content-Length.
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(NotForContentType::const_new("application/vnd.openxmlformats"))))
        .layer(middleware::from_fn_with_state(state.clone(), by_method))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// How long a client may take to send its request, so slow clients cannot hold connections.
#[derive(Clone, Copy, Debug)]
pub struct ConnLimits {
    /// From the connection's first byte (or the previous request) to the end of the headers.
    pub header_read: Duration,
    /// Longest pause between two pieces of a request body (reads are also bounded by the
    /// router's request timeout).
    pub body_idle: Duration,
    /// The whole body of a request that carries credentials (a session cookie or a bearer
    /// token): a 5 MB upload over a 400 kbit/s branch link takes under two minutes.
    pub body_total: Duration,
    /// The whole body of a request without any (sign-in, `/oauth/token`): a sign-in form is
    /// a few hundred bytes, so one trickled a byte at a time is cut off early (issue 29).
    pub anonymous_body_total: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        Self { header_read: Duration::from_secs(10), body_idle: Duration::from_secs(20), body_total: Duration::from_secs(180), anonymous_body_total: Duration::from_secs(10) }
    }
}

/// Whether a request carries credentials of some kind: a session cookie of staff or shop,
/// or an `Authorization` header. Whether they are valid is the handler's business; this only
/// picks the body's deadline.
fn carries_credentials(headers: &axum::http::HeaderMap) -> bool {
    headers.contains_key(header::AUTHORIZATION)
        || headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).any(|c| {
            c.split(';').filter_map(|kv| kv.trim().split_once('=')).any(|(k, v)| !v.is_empty() && (k == auth::SESSION_COOKIE || k == crate::shop::SHOP_COOKIE))
        })
}

/// A request body that must have arrived whole by a deadline: past it, the next read fails,
/// the handler answers without it and the connection closes.
struct Deadline {
    inner: Body,
    at: std::pin::Pin<Box<tokio::time::Sleep>>,
}

impl hyper::body::Body for Deadline {
    type Data = bytes::Bytes;
    type Error = axum::BoxError;

    fn poll_frame(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        if self.at.as_mut().poll(cx).is_ready() {
            return std::task::Poll::Ready(Some(Err("the request body did not arrive in time".into())));
        }
        std::pin::Pin::new(&mut self.inner).poll_frame(cx).map_err(Into::into)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// Serves HTTP/1.1 on `listener` until `shutdown` completes, then lets open requests finish.
/// Like `axum::serve` with connection info, plus the read time limits it does not offer.
pub async fn serve_on(listener: TcpListener, app: Router, limits: ConnLimits, shutdown: impl Future<Output = ()> + Send + 'static) {
    // Dropping `stop_rx` tells every connection to finish; each holds a `done_rx` until it has.
    let (stop_tx, stop_rx) = watch::channel(());
    tokio::spawn(async move {
        shutdown.await;
        drop(stop_rx);
    });
    let (done_tx, done_rx) = watch::channel(());
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(conn) => conn,
                Err(e) => {
                    // Usually out of file descriptors: pause rather than spin.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = stop_tx.closed() => break,
        };
        // A streamed page is written in parts (its head first): with Nagle's algorithm the
        // second part waits for the client's delayed ACK of the first, about 40 ms a page.
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY could not be set");
        }
        let service = app.clone().map_request(move |mut req: HttpRequest<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(remote));
            let has_body = req.headers().contains_key(header::CONTENT_LENGTH) || req.headers().contains_key(header::TRANSFER_ENCODING);
            // A driver's link (`/r/…`) is credentialed by the token in its address: its photo
            // may come over a weak mobile connection.
            let credentialed = carries_credentials(req.headers()) || crate::http::is_driver_path(req.uri().path());
            let total = if credentialed { limits.body_total } else { limits.anonymous_body_total };
            req.map(|body| {
                let idle = Body::new(TimeoutBody::new(limits.body_idle, body));
                if has_body { Body::new(Deadline { inner: idle, at: Box::pin(tokio::time::sleep(total)) }) } else { idle }
            })
        });
        let stop_tx = stop_tx.clone();
        let done_rx = done_rx.clone();
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(limits.header_read);
            let mut conn = std::pin::pin!(http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
            let mut stop = std::pin::pin!(stop_tx.closed());
            let mut stopping = false;
            loop {
                tokio::select! {
                    served = conn.as_mut() => {
                        if let Err(e) = served {
                            tracing::debug!(error = %e, %remote, "connection ended with an error");
                        }
                        break;
                    }
                    () = &mut stop, if !stopping => {
                        stopping = true;
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
            drop(done_rx);
        });
    }
    drop(done_rx);
    drop(listener);
    done_tx.closed().await;
}

pub async fn shutdown_signal() {
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
