//! Issue 9, sign-in and hardening: a throttle that slows guessers without locking owners out,
//! login CSRF, security headers, and time limits on slow clients.

use std::time::Duration;

use axum::http::{Method, StatusCode, header};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{Session, TestApp};

const PASSWORD: &str = "tyredesk";
const TOO_MANY: &str = "Too many attempts, please slow down the fresh pace";
const GUESSER: Option<&str> = Some("203.0.113.9");
const OWNER: Option<&str> = Some("198.51.100.4");

// ---- sign-in throttle ----

#[tokio::test]
async fn a_guesser_hammering_one_account_gets_429_with_the_spec_message() {
    let app = TestApp::new().await;
    for n in 1..=5 {
        let res = app.login_from(GUESSER, "manager@demo.test", "guess").await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "guess {n} is heard");
    }
    let res = app.login_from(GUESSER, "manager@demo.test", "guess").await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(res.body.contains(TOO_MANY));
    assert!(res.cookie("td_session").is_none());
    // Guessing the right password from that address right away does not help the guesser.
    assert_eq!(app.login_from(GUESSER, "manager@demo.test", PASSWORD).await.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn the_owner_signs_in_from_another_address_while_a_guesser_is_throttled() {
    let app = TestApp::new().await;
    for _ in 0..6 {
        app.login_from(GUESSER, "manager@demo.test", "guess").await;
    }
    let res = app.login_from(OWNER, "manager@demo.test", PASSWORD).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert!(res.cookie("td_session").is_some());
}

#[tokio::test]
async fn the_right_password_from_the_same_address_works_after_the_pause() {
    let app = TestApp::new().await;
    for _ in 0..5 {
        app.login_from(OWNER, "manager@demo.test", "mistyped").await;
    }
    assert_eq!(app.login_from(OWNER, "manager@demo.test", PASSWORD).await.status, StatusCode::TOO_MANY_REQUESTS);
    app.clock.advance(Duration::from_secs(30));
    let res = app.login_from(OWNER, "manager@demo.test", PASSWORD).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    // Signing in forgave the earlier mistakes: a later typo is an ordinary failure again.
    let typo = app.login_from(OWNER, "manager@demo.test", "typo").await;
    assert_eq!(typo.status, StatusCode::FORBIDDEN);
    assert!(typo.body.contains("Login failed. Incorrect email or password"));
}

#[tokio::test]
async fn an_office_behind_one_address_is_not_locked_out_by_mistyped_passwords() {
    let app = TestApp::new().await;
    let office = Some("192.0.2.10");
    for n in 0..30 {
        let res = app.login_from(office, &format!("colleague{n}@demo.test"), "mistyped").await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "colleague {n}");
    }
    for email in ["sales@demo.test", "service@demo.test"] {
        assert_eq!(app.login_from(office, email, "mistyped").await.status, StatusCode::FORBIDDEN, "{email}");
        let res = app.login_from(office, email, PASSWORD).await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{email}: {}", res.body);
    }
}

#[tokio::test]
async fn an_account_guessed_from_many_addresses_still_opens_for_its_owner() {
    let app = TestApp::new().await;
    for n in 1..=4 {
        let from = format!("203.0.113.{n}");
        for _ in 0..5 {
            app.login_from(Some(&from), "approver@demo.test", "guess").await;
        }
    }
    // A new guessing address is told to slow down, even on its first wrong password ...
    let res = app.login_from(Some("203.0.113.50"), "approver@demo.test", "guess").await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(res.body.contains(TOO_MANY));
    // ... while the owner's right password from a clean address gets in.
    assert_eq!(app.login_from(OWNER, "approver@demo.test", PASSWORD).await.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn the_token_endpoint_is_throttled_too() {
    let app = TestApp::new().await;
    let form = "grant_type=password&username=sales%40demo.test&password=guess&client_id=tyredesk-web&client_secret=demo-secret";
    let mut statuses = vec![];
    for _ in 0..6 {
        let res = app.request(Method::POST, "/oauth/token", Some(form.into()), Some("application/x-www-form-urlencoded"), &[]).await;
        statuses.push(res.status);
        if res.status == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(res.json()["message"], TOO_MANY);
        }
    }
    // Each wrong password is RFC 6749's 400 invalid_grant (issue 32), then the throttle's 429.
    assert_eq!(statuses[..5], [StatusCode::BAD_REQUEST; 5]);
    assert_eq!(statuses[5], StatusCode::TOO_MANY_REQUESTS);
}

// ---- /oauth/token client check ----

#[tokio::test]
async fn a_wrong_client_secret_is_invalid_client_and_a_wrong_password_still_login_failed() {
    let app = TestApp::new().await;
    let post = |body: serde_json::Value| {
        let app = &app;
        async move { app.request(Method::POST, "/oauth/token", Some(body.to_string().into()), Some("application/json"), &[]).await }
    };
    let base = serde_json::json!({"grant_type":"password","username":"sales@demo.test","password":PASSWORD,"client_id":"tyredesk-web","client_secret":"wrong"});
    let res = post(base.clone()).await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    let body = res.json();
    assert_eq!(body["error"], "invalid_client");
    assert_eq!(body["message"], "Invalid client: the client id or secret is wrong.");
    let mut unknown = base.clone();
    unknown["client_id"] = "nobody".into();
    assert_eq!(post(unknown).await.json()["error"], "invalid_client");
    let mut wrong_password = base;
    wrong_password["client_secret"] = "demo-secret".into();
    wrong_password["password"] = "nope".into();
    let res = post(wrong_password).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "RFC 6749 §5.2's invalid_grant (issue 32)");
    assert_eq!(res.json()["error"], "invalid_grant");
    assert_eq!(res.json()["message"], "Login failed. Incorrect email or password");
}

// ---- login CSRF ----

#[tokio::test]
async fn a_sign_in_without_the_pre_session_cookie_is_refused() {
    let app = TestApp::new().await;
    let body = "email=sales%40demo.test&password=tyredesk";
    let res = app.request(Method::POST, "/login", Some(body.into()), Some("application/x-www-form-urlencoded"), &[]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert!(res.body.contains("This sign-in form has expired. Please reload the page and sign in again."));
    assert!(res.cookie("td_session").is_none(), "no session was created");
    assert!(res.body.contains(">Signin</button>"), "the sign-in form is offered again");
    // The normal flow (page first, then the form with its cookie and token) still signs in.
    assert_eq!(app.login("sales@demo.test", PASSWORD).await.status, StatusCode::SEE_OTHER);
}

// ---- headers ----

/// The first listed invoice that prints (drafts do not).
async fn printable_invoice(app: &TestApp, s: &Session) -> i64 {
    let list = app.get("/invoices", Some(s)).await;
    let ids: Vec<i64> = list.body.split("/order_detail/invoices/").skip(1).filter_map(|rest| rest.split('"').next()?.parse().ok()).collect();
    for id in ids {
        if app.get(&format!("/order_print/{id}"), Some(s)).await.status == StatusCode::OK {
            return id;
        }
    }
    panic!("the demo data lists no printable invoice");
}

#[tokio::test]
async fn every_answer_carries_the_content_security_policy() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let anonymous = app.get("/login", None).await;
    let answers = [
        ("/login", anonymous),
        ("/invoices", app.get("/invoices", Some(&s)).await),
        ("/quotings", app.get("/quotings", Some(&s)).await),
        ("/api/warehouses", app.get("/api/warehouses", Some(&s)).await),
        ("/no-such-page", app.get("/no-such-page/1", Some(&s)).await),
    ];
    for (path, res) in answers {
        let csp = res.headers.get(header::CONTENT_SECURITY_POLICY).and_then(|v| v.to_str().ok()).unwrap_or_else(|| panic!("{path}: no CSP"));
        for directive in ["default-src 'self'", "script-src 'self';", "object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'"] {
            assert!(csp.contains(directive), "{path}: {directive} missing in {csp}");
        }
        assert!(!csp.contains("unsafe-eval"), "{path}");
    }
}

/// `<script>` tags without `src` and `on…=` handler attributes: both need 'unsafe-inline'.
fn inline_code(html: &str) -> Vec<String> {
    let mut found = vec![];
    for tag in html.split('<').skip(1).filter_map(|t| t.split_once('>').map(|(inside, _)| inside)) {
        if tag.starts_with("script") && !tag.contains(" src=") {
            found.push(format!("<{tag}>"));
        }
        let handler = tag.split_whitespace().skip(1).any(|attr| {
            attr.strip_prefix("on").and_then(|rest| rest.split_once('=')).is_some_and(|(name, _)| !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase()))
        });
        if handler {
            found.push(format!("<{tag}>"));
        }
    }
    found
}

#[test]
fn the_inline_code_finder_finds_inline_code() {
    assert_eq!(inline_code(r#"<p><script>alert(1)</script><button type="button" onclick="x()">"#).len(), 2);
    assert!(inline_code(r#"<script src="/static/js/app.js" defer></script><button data-dialog-open="d">"#).is_empty());
}

#[tokio::test]
async fn main_pages_contain_no_inline_script_or_event_handler() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let id = printable_invoice(&app, &s).await;
    let mut pages = vec![("/login".to_string(), app.get("/login", None).await)];
    for path in ["/invoices".to_string(), "/order_add/invoices".into(), "/quotings".into(), format!("/order_detail/invoices/{id}"), format!("/order_print/{id}")]
    {
        let res = app.get(&path, Some(&s)).await;
        pages.push((path, res));
    }
    assert!(pages[4].1.body.contains("data-dialog-open=\"dlg-history\""), "the detail page's buttons open their dialogs from the page script");
    for (path, res) in pages {
        assert_eq!(res.status, StatusCode::OK, "{path}");
        assert!(res.body.contains("<script"), "{path}: the page loads its script");
        let inline = inline_code(&res.body);
        assert!(inline.is_empty(), "{path}: inline code {inline:?}");
    }
}

#[tokio::test]
async fn signed_in_answers_are_not_stored_and_static_files_stay_cached() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let page = app.get("/invoices", Some(&s)).await;
    let api = app.get("/api/warehouses", Some(&s)).await;
    for (what, res) in [("page", &page), ("api", &api)] {
        assert_eq!(res.status, StatusCode::OK, "{what}");
        assert_eq!(res.headers.get(header::CACHE_CONTROL).and_then(|v| v.to_str().ok()), Some("no-store"), "{what}");
    }
    let marker = "href=\"/static/css/app.css";
    let start = page.body.find(marker).expect("stylesheet link") + "href=\"".len();
    let css_url = page.body[start..].split('"').next().unwrap().to_string();
    let css = app.get(&css_url, None).await;
    assert_eq!(css.status, StatusCode::OK);
    let cache = css.headers.get(header::CACHE_CONTROL).and_then(|v| v.to_str().ok()).unwrap_or("");
    assert!(cache.contains("max-age") && !cache.contains("no-store"), "{css_url}: {cache}");
}

// ---- slow clients, over a real socket ----

struct Server {
    addr: std::net::SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    done: tokio::task::JoinHandle<()>,
}

async fn start(app: &TestApp) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = web::server::ConnLimits {
        header_read: Duration::from_secs(1),
        body_idle: Duration::from_secs(1),
        body_total: Duration::from_secs(3),
        anonymous_body_total: Duration::from_millis(1_500),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let done = tokio::spawn(web::server::serve_on(listener, app.router.clone(), limits, async {
        let _ = stopped.await;
    }));
    Server { addr, stop, done }
}

/// Writes `sent`, then waits (at most 5 s) for the server to answer and close.
async fn exchange(addr: std::net::SocketAddr, sent: &str) -> (String, Duration) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(sent.as_bytes()).await.unwrap();
    let started = std::time::Instant::now();
    let mut got = vec![];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut got)).await;
    assert!(read.is_ok(), "the server kept a stalled connection open: {sent:?}");
    (String::from_utf8_lossy(&got).into_owned(), started.elapsed())
}

#[tokio::test]
async fn slow_clients_are_cut_off_and_the_server_shuts_down_gracefully() {
    let app = TestApp::new().await;
    let server = start(&app).await;
    let (whole, _) = exchange(server.addr, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").await;
    assert!(whole.starts_with("HTTP/1.1 200"), "{whole}");
    let (headers, waited) = exchange(server.addr, "GET /healthz HTTP/1.1\r\nHost: t\r\n").await;
    assert!(!headers.contains("200 OK"), "an unfinished request is not answered: {headers}");
    assert!(waited >= Duration::from_millis(500), "closed by the header timeout, not at once ({waited:?})");
    let stalled_body = "POST /login HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=a";
    let (body, _) = exchange(server.addr, stalled_body).await;
    assert!(!body.contains("200 OK") && !body.contains("303 See Other"), "{body}");
    server.stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(5), server.done).await.expect("shut down").unwrap();
}

/// Sends `head`, then the body a byte every 400 ms (under the 1 s pause limit) until the
/// server closes; answers how long it stayed open and what it said.
async fn trickle(addr: std::net::SocketAddr, head: String, body_len: usize) -> (Duration, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    let started = std::time::Instant::now();
    let (mut read, mut write) = stream.into_split();
    let writer = tokio::spawn(async move {
        for _ in 0..body_len {
            if write.write_all(b"a").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(400)).await;
        }
    });
    let mut got = vec![];
    let done = tokio::time::timeout(Duration::from_secs(10), read.read_to_end(&mut got)).await;
    writer.abort();
    assert!(done.is_ok(), "still open after 10 s: {head:?}");
    (started.elapsed(), String::from_utf8_lossy(&got).into_owned())
}

/// Issue 29: a body trickled a byte at a time (each pause under the idle limit) is cut off at
/// a whole-body deadline, short for requests without credentials: twenty such posts to the
/// sign-in forms and `/oauth/token` used to stay open past 45 s.
#[tokio::test]
async fn a_trickled_body_is_cut_off_at_a_whole_body_deadline_shorter_for_anonymous_posts() {
    let app = TestApp::new().await;
    let server = start(&app).await;
    let mut anonymous = Vec::new();
    for path in ["/oauth/token", "/shop/login", "/login"] {
        let head = format!("POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 400\r\n\r\n");
        anonymous.push(tokio::spawn(trickle(server.addr, head, 400)));
    }
    for t in anonymous {
        let (open, said) = t.await.unwrap();
        assert!(open < Duration::from_millis(2_800), "anonymous body cut at 1.5 s, not {open:?}: {said}");
        assert!(open >= Duration::from_millis(1_200), "not before its deadline ({open:?})");
    }
    // With a session cookie the allowance is longer (uploads over slow links), but not endless.
    let s = app.session("sales@demo.test").await;
    let head = format!("POST /api/orders HTTP/1.1\r\nHost: t\r\nCookie: {}\r\nX-CSRF-Token: {}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n", s.cookie, s.csrf);
    let (open, said) = trickle(server.addr, head, 400).await;
    assert!(open >= Duration::from_millis(2_500) && open < Duration::from_millis(4_500), "cut at 3 s, not {open:?}: {said}");
    server.stop.send(()).unwrap();
}
