//! `TestApp`: the real router in-process over a fresh copy of a demo-seeded database —
//! SQLite by default, PostgreSQL when `TEST_DATABASE_URL` names a server.

use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;
use services::throttle::{LoginThrottle, ManualClock, ThrottleLimits};
use db::DatabaseUrl;
use web::config::Config;
use db::{Db, accounts};
use web::state::AppState;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Where the seeded template lives.
enum Template {
    Sqlite(PathBuf),
    Postgres { admin: String, name: String },
}

fn template() -> &'static Template {
    static T: OnceLock<Template> = OnceLock::new();
    T.get_or_init(|| {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
        match std::env::var("TEST_DATABASE_URL").ok().filter(|u| u.starts_with("postgres")) {
            Some(admin) => {
                drop_leftovers(&admin);
                let name = format!("td_tpl_{}", std::process::id());
                admin_exec(&admin, &format!("DROP DATABASE IF EXISTS {name}"));
                admin_exec(&admin, &format!("CREATE DATABASE {name}"));
                let url = DatabaseUrl::Postgres(with_db(&admin, &name));
                let db = Db::open(&url).expect("open template db");
                let mut conn = db.get().expect("conn");
                db::migrate(&mut conn).expect("migrate");
                tyredesk::seed::seed(&mut conn, tyredesk::seed::Scale::Demo, today).expect("seed");
                drop(conn);
                drop(db);
                Template::Postgres { admin, name }
            }
            None => {
                let dir = std::env::temp_dir().join(format!("tyredesk-test-{}", std::process::id()));
                std::fs::create_dir_all(&dir).unwrap();
                let path = dir.join("template.sqlite3");
                let _ = std::fs::remove_file(&path);
                let url = DatabaseUrl::Sqlite(path.clone());
                let mut conn = db::connect(&url).expect("open template");
                db::migrate(&mut conn).expect("migrate");
                tyredesk::seed::seed(&mut conn, tyredesk::seed::Scale::Demo, today).expect("seed");
                use diesel::connection::SimpleConnection;
                conn.batch_execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;").unwrap();
                drop(conn);
                Template::Sqlite(path)
            }
        }
    })
}

fn with_db(admin: &str, db: &str) -> String {
    let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(admin);
    format!("{base}/{db}")
}

/// Drops the databases earlier test runs left (`td_tpl_<pid>`, `td_t<pid>_<n>`) whose
/// process has ended: each run makes one per test, and a machine that runs the suite often
/// would otherwise fill its disk. A run still going keeps its own.
fn drop_leftovers(admin: &str) {
    use diesel::sql_types::Text;
    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Name {
        #[diesel(sql_type = Text)]
        datname: String,
    }
    if !std::path::Path::new("/proc/self").exists() {
        return; // no way to tell a finished run from a running one
    }
    let mut c = diesel::PgConnection::establish(admin).expect("admin connection");
    let names: Vec<Name> = diesel::sql_query(r"SELECT datname FROM pg_database WHERE datname ~ '^td_(tpl_\d+|t\d+_\d+)$'").load(&mut c).expect("list test databases");
    for Name { datname } in names {
        let pid = datname.trim_start_matches("td_tpl_").trim_start_matches("td_t").split('_').next().unwrap_or_default();
        let alive = std::path::Path::new("/proc").join(pid).exists();
        if !alive {
            admin_exec(admin, &format!("DROP DATABASE IF EXISTS {datname}"));
        }
    }
}

fn admin_exec(admin: &str, sql: &str) {
    use diesel::Connection;
    use diesel::connection::SimpleConnection;
    let mut c = diesel::PgConnection::establish(admin).expect("admin connection");
    c.batch_execute(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// A new, empty database on the test PostgreSQL server (named so that a later run drops it
/// once this one has ended), or `None` on SQLite.
pub fn empty_postgres_database() -> Option<String> {
    let Template::Postgres { admin, .. } = template() else { return None };
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let db = format!("td_t{}_{}", std::process::id(), n);
    admin_exec(admin, &format!("DROP DATABASE IF EXISTS {db}"));
    admin_exec(admin, &format!("CREATE DATABASE {db}"));
    Some(with_db(admin, &db))
}

/// A signed-in browser: its cookie and CSRF token.
#[derive(Clone, Debug)]
pub struct Session {
    pub cookie: String,
    pub csrf: String,
}

/// An answer, with the body read.
pub struct TestResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
    /// The body as sent (downloads are binary).
    pub bytes: Vec<u8>,
}

impl TestResponse {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    pub fn location(&self) -> &str {
        self.headers.get(header::LOCATION).and_then(|v| v.to_str().ok()).unwrap_or("")
    }
    /// `name=value` of a Set-Cookie header.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers.get_all(header::SET_COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
            let first = v.split(';').next()?;
            let (k, val) = first.split_once('=')?;
            (k == name).then(|| val.to_string())
        })
    }
}

pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    /// The sign-in throttle's clock: it moves only when a test advances it.
    pub clock: Arc<ManualClock>,
    _dir: Option<tempfile::TempDir>,
}

/// How a [`TestApp`] is made: `TestApp::new()`, any of the `with_…` settings, then `.await`
/// (or `.start().await`) for the app, or `.with_user(email).await` for the app and a
/// signed-in [`Session`]:
///
/// ```ignore
/// let app = TestApp::new().await;
/// let app = TestApp::new().with_export_chunk(3).await;
/// let (app, s) = TestApp::new().with_user("approver@demo.test").await;
/// let (app, s) = TestApp::new().with_xero(link).with_user("sales@demo.test").in_org(4).await;
/// ```
///
/// Every app has its own copy of the demo data: a file copy of the seeded SQLite template,
/// or a PostgreSQL database created from the seeded template database.
#[must_use = "a TestApp is built only when the builder is awaited"]
pub struct TestAppBuilder {
    request_timeout: Duration,
    pool: Option<(u32, Duration)>,
    export_chunk: usize,
    export_direct_max: i64,
    xero: Option<xero::Link>,
    ssr: Option<web::ssr::Ssr>,
}

impl Default for TestAppBuilder {
    /// The server's own settings: its request timeout, its pool, its export chunk, an
    /// accounting link and island renderer of its own.
    fn default() -> Self {
        Self { request_timeout: web::config::REQUEST_TIMEOUT, pool: None, export_chunk: web::config::EXPORT_CHUNK, export_direct_max: domain::exports::DIRECT_MAX, xero: None, ssr: None }
    }
}

impl TestAppBuilder {
    /// Requests answer 408 after `timeout`.
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// A database pool of `size` connections and a wait of `wait` for one.
    pub fn with_pool(mut self, size: u32, wait: Duration) -> Self {
        self.pool = Some((size, wait));
        self
    }

    /// Exports read `chunk` rows at a time (small, to cross chunk boundaries).
    pub fn with_export_chunk(mut self, chunk: usize) -> Self {
        self.export_chunk = chunk;
        self
    }

    /// Exports of more than `max` sheets go to the Download Center.
    pub fn with_export_direct_max(mut self, max: i64) -> Self {
        self.export_direct_max = max;
        self
    }

    /// The accounting link runs on `xero` (a manual clock, short waits).
    pub fn with_xero(mut self, xero: xero::Link) -> Self {
        self.xero = Some(xero);
        self
    }

    /// Islands are rendered by `ssr` (e.g. a bundle that throws).
    pub fn with_ssr(mut self, ssr: web::ssr::Ssr) -> Self {
        self.ssr = Some(ssr);
        self
    }

    /// Starts signed in as the demo account `email`, in the company it would land in (or the
    /// one [`SignedIn::in_org`] names); awaiting answers the app and the session, made as
    /// [`TestApp::session`] makes it.
    pub fn with_user(self, email: &str) -> SignedIn {
        SignedIn { app: self, email: email.to_owned(), org: None }
    }

    /// The app, over a fresh copy of the demo data.
    pub async fn start(self) -> TestApp {
        let Self { request_timeout, pool, export_chunk, export_direct_max, xero, ssr } = self;
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let data = tempfile::tempdir().unwrap();
        let url = match template() {
            Template::Sqlite(path) => {
                let copy = data.path().join("tyredesk.sqlite3");
                std::fs::copy(path, &copy).unwrap();
                DatabaseUrl::Sqlite(copy)
            }
            Template::Postgres { admin, name } => {
                let db = format!("td_t{}_{}", std::process::id(), n);
                admin_exec(admin, &format!("DROP DATABASE IF EXISTS {db}"));
                admin_exec(admin, &format!("CREATE DATABASE {db} TEMPLATE {name}"));
                DatabaseUrl::Postgres(with_db(admin, &db))
            }
        };
        let config = Config { database: url.clone(), bind: "127.0.0.1:0".into(), data_dir: data.path().to_path_buf(), storage: services::store::Location::DataDir, request_timeout, export_chunk, export_direct_max };
        let db = match pool {
            Some((size, wait)) => Db::open_with(&url, size, wait),
            None => Db::open(&url),
        }
        .expect("open test db");
        let clock = Arc::new(ManualClock::default());
        let throttle = LoginThrottle::new(ThrottleLimits::default(), clock.clone());
        let state = match xero {
            Some(link) => AppState::with_parts(config, db, throttle, link),
            None => AppState::with_throttle(config, db, throttle),
        }
        .expect("state");
        let state = match ssr {
            Some(ssr) => state.with_ssr(ssr),
            None => state,
        };
        TestApp { router: web::router(state.clone()), state, clock, _dir: Some(data) }
    }
}

impl IntoFuture for TestAppBuilder {
    type Output = TestApp;
    type IntoFuture = Pin<Box<dyn Future<Output = TestApp> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.start())
    }
}

/// A [`TestAppBuilder`] that starts signed in: `.await` answers `(TestApp, Session)`.
#[must_use = "a TestApp is built only when the builder is awaited"]
pub struct SignedIn {
    app: TestAppBuilder,
    email: String,
    org: Option<i64>,
}

impl SignedIn {
    /// Signed in to company `org` (as [`TestApp::session_in`]).
    pub fn in_org(mut self, org: i64) -> Self {
        self.org = Some(org);
        self
    }

    /// The app and the session.
    pub async fn start(self) -> (TestApp, Session) {
        let app = self.app.start().await;
        let session = app.session_at(&self.email, self.org).await;
        (app, session)
    }
}

impl IntoFuture for SignedIn {
    type Output = (TestApp, Session);
    type IntoFuture = Pin<Box<dyn Future<Output = (TestApp, Session)> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.start())
    }
}

impl TestApp {
    /// A builder for a fresh app over its own copy of the demo data (see [`TestAppBuilder`]).
    #[allow(clippy::new_ret_no_self)]
    pub fn new() -> TestAppBuilder {
        TestAppBuilder::default()
    }

    /// Signs in through the real form (throttling, password check, cookies).
    pub async fn login(&self, email: &str, password: &str) -> TestResponse {
        self.login_from(None, email, password).await
    }

    /// Signs in through the real form from a client address (`"10.0.0.1"`), as the server
    /// sees it from the connection.
    pub async fn login_from(&self, client: Option<&str>, email: &str, password: &str) -> TestResponse {
        let page = self.request(Method::GET, "/login", None, None, &[]).await;
        let pre = page.cookie("td_pre").expect("pre-session cookie");
        let csrf = extract_input(&page.body, "_csrf");
        let body = serde_urlencoded::to_string([("_csrf", csrf.as_str()), ("email", email), ("password", password)]).unwrap();
        let mut req = Request::builder()
            .method(Method::POST)
            .uri("/login")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::COOKIE, format!("td_pre={pre}"))
            .body(Body::from(body))
            .unwrap();
        if let Some(ip) = client {
            let addr = SocketAddr::new(ip.parse().expect("an IP address"), 50_000);
            req.extensions_mut().insert(axum::extract::ConnectInfo(addr));
        }
        self.send(req).await
    }

    /// A session for a demo account, created directly (no password hashing in every test).
    pub async fn session(&self, email: &str) -> Session {
        self.session_at(email, None).await
    }

    /// A session for a demo account in company `org`.
    pub async fn session_in(&self, email: &str, org: i64) -> Session {
        self.session_at(email, Some(org)).await
    }

    async fn session_at(&self, email: &str, org: Option<i64>) -> Session {
        let email = email.to_string();
        let token = self
            .state
            .db
            .write(move |c| {
                let user = accounts::user_by_email(c, &email)?.expect("demo user");
                let org = match org {
                    Some(org) => org,
                    None => db::accounts::choose_org(&accounts::memberships_of(c, user.id)?, None).expect("usable org").org_id,
                };
                Ok(accounts::create_session(c, user.id, org)?.0)
            })
            .await
            .unwrap();
        Session { csrf: web::auth::csrf::token_for(&token), cookie: format!("td_session={token}") }
    }

    pub async fn request(&self, method: Method, path: &str, body: Option<Body>, content_type: Option<&str>, headers: &[(&str, &str)]) -> TestResponse {
        let mut req = Request::builder().method(method).uri(path);
        if let Some(ct) = content_type {
            req = req.header(header::CONTENT_TYPE, ct);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        self.send(req.body(body.unwrap_or_else(Body::empty)).unwrap()).await
    }

    /// Sends a prepared request through the router.
    pub async fn send(&self, req: Request<Body>) -> TestResponse {
        let res = self.router.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        TestResponse { status, headers, body: String::from_utf8_lossy(&bytes).into_owned(), bytes: bytes.to_vec() }
    }

    pub async fn get(&self, path: &str, s: Option<&Session>) -> TestResponse {
        let cookie = s.map(|s| s.cookie.clone()).unwrap_or_default();
        let headers: Vec<(&str, &str)> = if s.is_some() { vec![("cookie", cookie.as_str())] } else { vec![] };
        self.request(Method::GET, path, None, None, &headers).await
    }

    /// An htmx request for the results fragment.
    pub async fn get_fragment(&self, path: &str, s: &Session) -> TestResponse {
        self.request(Method::GET, path, None, None, &[("cookie", &s.cookie), ("hx-request", "true"), ("hx-target", "results")]).await
    }

    pub async fn post_form(&self, path: &str, s: &Session, pairs: &[(&str, &str)]) -> TestResponse {
        let mut all = vec![("_csrf", s.csrf.as_str())];
        all.extend_from_slice(pairs);
        let body = serde_urlencoded::to_string(&all).unwrap();
        self.request(Method::POST, path, Some(Body::from(body)), Some("application/x-www-form-urlencoded"), &[("cookie", &s.cookie)]).await
    }

    pub async fn post_json(&self, path: &str, s: &Session, json: serde_json::Value) -> TestResponse {
        self.request(
            Method::POST,
            path,
            Some(Body::from(json.to_string())),
            Some("application/json"),
            &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)],
        )
        .await
    }

    pub async fn put_json(&self, path: &str, s: &Session, json: serde_json::Value) -> TestResponse {
        self.request(
            Method::PUT,
            path,
            Some(Body::from(json.to_string())),
            Some("application/json"),
            &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)],
        )
        .await
    }

    /// Follows a post's 303 (post/redirect/get) with the same session.
    pub async fn follow(&self, res: &TestResponse, s: &Session) -> TestResponse {
        assert_eq!(res.status, StatusCode::SEE_OTHER, "a post answers with a redirect: {}", res.body);
        self.get(res.location(), Some(s)).await
    }

    /// Posts a multipart form as a browser does: the text fields first (the session's
    /// `_csrf` among them), then `file` named `file_name`.
    pub async fn post_multipart(&self, path: &str, s: &Session, fields: &[(&str, &str)], file_field: &str, file_name: &str, file: &[u8]) -> TestResponse {
        let mut body = Vec::new();
        for (k, v) in std::iter::once(&("_csrf", s.csrf.as_str())).chain(fields) {
            body.extend(format!("--B0UND\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n").into_bytes());
        }
        body.extend(format!("--B0UND\r\nContent-Disposition: form-data; name=\"{file_field}\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n").into_bytes());
        body.extend(file);
        body.extend(b"\r\n--B0UND--\r\n");
        self.request(Method::POST, path, Some(Body::from(body)), Some("multipart/form-data; boundary=B0UND"), &[("cookie", &s.cookie)]).await
    }

    /// GET with a bearer token and an organisation header.
    pub async fn get_bearer(&self, path: &str, token: &str, org: Option<i64>) -> TestResponse {
        let auth = format!("Bearer {token}");
        let org = org.map(|o| o.to_string());
        let mut headers = vec![("authorization", auth.as_str())];
        if let Some(o) = &org {
            headers.push(("x-org-id", o.as_str()));
        }
        self.request(Method::GET, path, None, None, &headers).await
    }
}

impl TestApp {
    /// Asks for a report through `POST /api/reports`, runs the worker until the job ends,
    /// and answers the job as `GET /api/reports` lists it.
    pub async fn run_report(&self, s: &Session, body: serde_json::Value) -> serde_json::Value {
        let res = self.post_json("/api/reports", s, body).await;
        assert!(res.status.is_success(), "{} {}", res.status, res.body);
        let id = res.json()["data"]["id"].as_i64().expect("job id");
        while services::jobs::files::run_once(&self.state.core).await.expect("worker").is_some() {}
        let list = self.get("/api/reports", Some(s)).await;
        list.json()["data"].as_array().expect("report list").iter().find(|j| j["id"] == id).cloned().expect("the job is listed")
    }

    /// [`TestApp::run_report`], then downloads the finished file and answers its bytes.
    pub async fn report_file(&self, s: &Session, body: serde_json::Value) -> Vec<u8> {
        let job = self.run_report(s, body).await;
        assert_eq!(job["state"], "done", "{job}");
        let name = job["name"].as_str().expect("file name");
        let res = self.get(&format!("/api/download/{name}"), Some(s)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.bytes
    }
}

/// The `value` of the first `<input name=…>` in a page.
pub fn extract_input(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no input {name}")) + marker.len();
    html[start..].split('"').next().unwrap_or_default().to_string()
}

/// The part of `html` from the first `start` to the `end` after it, both included (e.g. a
/// page's `<main>` … `</main>`), for a snapshot of one fragment.
pub fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html.find(start).unwrap_or_else(|| panic!("no {start} in:\n{html}"));
    let to = html[from..].find(end).unwrap_or_else(|| panic!("no {end} after {start} in:\n{html}")) + from + end.len();
    &html[from..to]
}

/// HTML as a snapshot shows it: CSRF tokens (64 hex digits) read `[csrf]`; today's date, in
/// UTC or in Sydney and in each format the pages print (`2026-11-27`, `27/11/2026`,
/// `27/11/26`, `27 Nov 2026`), reads `[today]` and a time of day after it `[time]`; lines
/// lose their trailing blanks and runs of empty lines become one.
pub fn normalise_html(html: &str) -> String {
    let mut text = csrf_tokens_out(html);
    let utc = chrono::Utc::now();
    let mut days = vec![utc.date_naive(), utc.with_timezone(&chrono_tz::Australia::Sydney).date_naive()];
    days.dedup();
    for day in days {
        for format in ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d %b %Y", "%-d %b %Y"] {
            text = text.replace(&day.format(format).to_string(), "[today]");
        }
    }
    let text = times_of_today_out(&text);
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() && (blank || out.is_empty()) {
            continue;
        }
        blank = line.is_empty();
        out.push_str(line);
        out.push('\n');
    }
    out.trim_end().to_string()
}

fn csrf_tokens_out(text: &str) -> String {
    let is_hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(is_hex) {
        let run = rest[start..].find(|c: char| !is_hex(c)).unwrap_or(rest.len() - start);
        // A token stands alone: not the tail or head of a longer word.
        let alone = !rest[..start].ends_with(|c: char| c.is_ascii_alphanumeric()) && !rest[start + run..].starts_with(|c: char| c.is_ascii_alphanumeric());
        out.push_str(&rest[..start]);
        out.push_str(if run == 64 && alone { "[csrf]" } else { &rest[start..start + run] });
        rest = &rest[start + run..];
    }
    out.push_str(rest);
    out
}

/// `[today] 12:57:12`, `[today] 12:57` and `[today]T01:57:12.5` read `[today] [time]`.
fn times_of_today_out(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("[today]") {
        let after = at + "[today]".len();
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let Some(time) = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('T')) else { continue };
        let b = time.as_bytes();
        let digits = |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
        if !(digits(0..2) && b.get(2) == Some(&b':') && digits(3..5)) {
            continue;
        }
        let mut len = 5;
        if b.get(5) == Some(&b':') && digits(6..8) {
            len = 8;
            if b.get(8) == Some(&b'.') {
                len = 9 + time[9..].find(|c: char| !c.is_ascii_digit()).unwrap_or(time.len() - 9);
            }
        }
        out.push_str(" [time]");
        rest = &time[len..];
    }
    out.push_str(rest);
    out
}

/// A redaction for a timestamp the server wrote (`2026-11-27T01:57:12.572824`): it must be
/// one, and it reads `[ts]`.
pub fn timestamp() -> insta::internals::Redaction {
    insta::dynamic_redaction(|value, path| {
        let text = value.as_str().unwrap_or_else(|| panic!("{path}: not a string: {value:?}"));
        let parsed = chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f").or_else(|_| chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S"));
        assert!(parsed.is_ok(), "{path}: not a timestamp: {text}");
        "[ts]"
    })
}

/// A redaction for a row id the database chose: it must be a positive whole number, and it
/// reads `[id]` (sequences need not agree between SQLite and PostgreSQL).
pub fn row_id() -> insta::internals::Redaction {
    insta::dynamic_redaction(|value, path| {
        assert!(value.as_i64().is_some_and(|id| id > 0), "{path}: not a row id: {value:?}");
        "[id]"
    })
}

/// A redaction for a value that must equal `expected` (an id the test knows but the snapshot
/// should not pin); it reads `[name]`.
pub fn equal_to(expected: serde_json::Value, name: &'static str) -> insta::internals::Redaction {
    insta::dynamic_redaction(move |value, path| {
        let seen = serde_json::to_value(&value).expect("a JSON value");
        assert_eq!(seen, expected, "{path}");
        format!("[{name}]")
    })
}

/// Counts the rows in the results table body (`<tr>`, or `<tr data-href=…>` for rows that
/// open a detail).
pub fn body_rows(html: &str) -> usize {
    let Some(start) = html.find("<tbody>") else { return 0 };
    let end = html[start..].find("</tbody>").map(|e| start + e).unwrap_or(html.len());
    html[start..end].matches("<tr>").count() + html[start..end].matches("<tr ").count()
}

/// A `tyredesk serve` process, killed when dropped. It binds port 0 and the address it prints
/// is read back: a port picked by the test and freed before the server binds it could be
/// taken meanwhile by another test's listener. Its output is kept for the failure message.
pub struct ServerProcess {
    child: std::process::Child,
    pub base: String,
}

impl ServerProcess {
    pub fn start(database_url: &str, data_dir: &std::path::Path, env: &[(&str, &str)]) -> Self {
        use std::io::{BufRead, BufReader};
        use std::sync::{Mutex, mpsc};
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tyredesk"))
            .args(["serve", "--no-demo"])
            .env("DATABASE_URL", database_url)
            .env("TYREDESK_BIND", "127.0.0.1:0")
            .env("TYREDESK_DATA_DIR", data_dir)
            .envs(env.iter().copied())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start tyredesk serve");
        let output = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = mpsc::channel();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let seen = output.clone();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("TyreDesk is running on ") {
                    let _ = tx.send(rest.split_whitespace().next().unwrap_or_default().to_string());
                }
                seen.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        let seen = output.clone();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                seen.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        match rx.recv_timeout(std::time::Duration::from_secs(120)) {
            Ok(base) => Self { child, base },
            Err(_) => {
                let _ = child.kill();
                let status = child.wait().ok();
                std::thread::sleep(std::time::Duration::from_millis(200)); // let the readers drain
                panic!("tyredesk serve did not start ({status:?}):\n{}", output.lock().unwrap());
            }
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn normalise_html_hides_csrf_tokens_and_today_only() {
    let token = "0123456789abcdef".repeat(4);
    let now = chrono::Utc::now().with_timezone(&chrono_tz::Australia::Sydney);
    let today = now.date_naive();
    let html = format!(
        "<p>{} {} at {}</p>  \n\n\n<input value=\"{token}\">\n<a href=\"/x?v=10dcea67\">{}</a> {} 2020-01-02 {token}0 <i>{}</i>\n",
        today.format("%d/%m/%y"),
        today.format("%d %b %Y"),
        today.format("%Y-%m-%d 12:57:01"),
        today.format("%Y-%m-%dT01:57:12.572824"),
        today.format("%d/%m/%Y"),
        "abcdef".repeat(10),
    );
    assert_eq!(
        normalise_html(&html),
        format!(
            "<p>[today] [today] at [today] [time]</p>\n\n<input value=\"[csrf]\">\n<a href=\"/x?v=10dcea67\">[today] [time]</a> [today] 2020-01-02 {token}0 <i>{}</i>",
            "abcdef".repeat(10)
        )
    );
    assert_eq!(between("<body><main><h1>Cart</h1></main></body>", "<main>", "</main>"), "<main><h1>Cart</h1></main>");
}

/// The text of a PDF (`pdftotext -layout`), with runs of spaces made one so that a table
/// row reads as `1 P001 Tyre 2 100.00 …`.
pub fn pdf_text(bytes: &[u8]) -> String {
    assert!(bytes.starts_with(b"%PDF-"), "a PDF: {}", String::from_utf8_lossy(&bytes[..bytes.len().min(200)]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.pdf");
    std::fs::write(&path, bytes).unwrap();
    let out = std::process::Command::new("pdftotext")
        .args(["-layout", "-enc", "UTF-8"])
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed: .ci/run installs it");
    assert!(out.status.success(), "pdftotext failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n")
}
