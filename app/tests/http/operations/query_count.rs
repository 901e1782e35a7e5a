//! Round trips of the sheet and quoting screens: a screen reads its data in a fixed number
//! of statements, however many lines or rows it shows (no query per line).
//!
//! Every connection the process opens after [`watch`] carries a counting hook (diesel's
//! default instrumentation); only the connections of a watched database count, so the tests
//! running beside these ones are not disturbed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Once, OnceLock, RwLock};

use axum::http::StatusCode;
use diesel::connection::{Instrumentation, InstrumentationEvent, set_default_instrumentation};
use diesel::prelude::*;
use serde_json::json;
use db::DatabaseUrl;
use db::schema::{customers, products, warehouses};

use crate::support::{Session, TestApp};

/// Statements per watched database URL.
fn watched() -> &'static RwLock<HashMap<String, Arc<AtomicUsize>>> {
    static WATCHED: OnceLock<RwLock<HashMap<String, Arc<AtomicUsize>>>> = OnceLock::new();
    WATCHED.get_or_init(Default::default)
}

/// Pool checkouts per watched database URL: the pool tests each connection it hands out
/// with `SELECT 1`.
fn checkouts() -> &'static RwLock<HashMap<String, Arc<AtomicUsize>>> {
    static CHECKOUTS: OnceLock<RwLock<HashMap<String, Arc<AtomicUsize>>>> = OnceLock::new();
    CHECKOUTS.get_or_init(Default::default)
}

/// One connection's hook: it learns its URL when the connection opens and finds its tallies
/// at the first statement after the URL is watched.
struct Counter {
    url: String,
    tally: Option<Arc<AtomicUsize>>,
    checked: Option<Arc<AtomicUsize>>,
}

impl Instrumentation for Counter {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        match event {
            InstrumentationEvent::StartEstablishConnection { url, .. } => self.url = url.to_owned(),
            InstrumentationEvent::StartQuery { query, .. } => {
                if self.tally.is_none() {
                    self.tally = watched().read().unwrap().get(&self.url).cloned();
                    self.checked = checkouts().read().unwrap().get(&self.url).cloned();
                }
                if let Some(t) = &self.tally {
                    t.fetch_add(1, Ordering::SeqCst);
                }
                if let Some(c) = self.checked.as_ref().filter(|_| query.to_string() == "SELECT 1") {
                    c.fetch_add(1, Ordering::SeqCst);
                }
            }
            _ => {}
        }
    }
}

/// Gives every connection opened from now on a [`Counter`]; call before the app is built.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| set_default_instrumentation(|| Some(Box::new(Counter { url: String::new(), tally: None, checked: None }))).expect("install the counting hook"));
}

fn url_of(app: &TestApp) -> String {
    match &app.state.config.database {
        DatabaseUrl::Sqlite(path) => path.to_str().expect("UTF-8 path").to_owned(),
        DatabaseUrl::Postgres(raw) => raw.clone(),
    }
}

/// The statement tally of the app's database.
fn watch(app: &TestApp) -> Arc<AtomicUsize> {
    watched().write().unwrap().entry(url_of(app)).or_default().clone()
}

/// A fresh app whose statements are counted.
async fn counted_app() -> (TestApp, Arc<AtomicUsize>) {
    install();
    let app = TestApp::new().await;
    let tally = watch(&app);
    (app, tally)
}

/// The statements one GET runs (the page is asked for once before, so the count is the
/// steady one), with its status checked.
async fn statements_of(app: &TestApp, tally: &AtomicUsize, path: &str, s: &Session) -> usize {
    assert_eq!(app.get(path, Some(s)).await.status, StatusCode::OK, "{path}");
    let before = tally.load(Ordering::SeqCst);
    let res = app.get(path, Some(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.body);
    tally.load(Ordering::SeqCst) - before
}

struct Data {
    customer: i64,
    warehouse: i64,
    /// Products with their class A price.
    products: Vec<(i64, i64)>,
}

async fn data(app: &TestApp) -> Data {
    app.state
        .db
        .run(|c| {
            let customer = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.ne(10)).filter(customers::credit_limit.eq(0)).select(customers::id).order(customers::id.asc()).first(c)?;
            let warehouse = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            let products = products::table.filter(products::org_id.eq(4)).select((products::id, products::class_a_price)).order(products::id.asc()).limit(30).load(c)?;
            Ok(Data { customer, warehouse, products })
        })
        .await
        .unwrap()
}

/// An approved invoice of `n` lines, each of another product (so the detail page reads the
/// stock left of each).
async fn approved_invoice(app: &TestApp, s: &Session, d: &Data, n: usize) -> i64 {
    let lines: Vec<_> = d.products[..n].iter().enumerate().map(|(i, (p, price))| json!({"seq": i + 1, "productId": p, "quantity": 1, "price": price})).collect();
    let res = app.post_json("/api/orders", s, json!({"type": 1, "customerId": d.customer, "warehouseId": d.warehouse, "lines": lines})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let ok = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"warehouseId": d.warehouse, "confirmed": true})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    id
}

#[tokio::test]
async fn the_sheet_detail_page_reads_as_many_statements_for_1_line_as_for_30() {
    let (app, tally) = counted_app().await;
    let d = data(&app).await;
    assert_eq!(d.products.len(), 30);
    let s = app.session("approver@demo.test").await;
    let one = approved_invoice(&app, &s, &d, 1).await;
    let thirty = approved_invoice(&app, &s, &d, 30).await;
    let page = app.get(&format!("/order_detail/invoices/{thirty}"), Some(&s)).await;
    assert!(page.body.contains(">Approved</span>"), "the sheets are approved, so the page reads the stock of each line");
    let small = statements_of(&app, &tally, &format!("/order_detail/invoices/{one}"), &s).await;
    let large = statements_of(&app, &tally, &format!("/order_detail/invoices/{thirty}"), &s).await;
    eprintln!("order detail page: {small} statements with 1 line, {large} with 30 lines");
    assert_eq!(small, large, "the detail page runs a query per line");

    let small = statements_of(&app, &tally, &format!("/order_edit/invoices/{one}"), &s).await;
    let large = statements_of(&app, &tally, &format!("/order_edit/invoices/{thirty}"), &s).await;
    eprintln!("order edit page: {small} statements with 1 line, {large} with 30 lines");
    assert_eq!(small, large, "the edit page runs a query per line");

    let small = statements_of(&app, &tally, &format!("/api/orders/{one}"), &s).await;
    let large = statements_of(&app, &tally, &format!("/api/orders/{thirty}"), &s).await;
    eprintln!("GET /api/orders/{{id}}: {small} statements with 1 line, {large} with 30 lines");
    assert_eq!(small, large, "the JSON sheet runs a query per line");
}

/// Issue 38: a page's session look-up, its shell's count and its own queries each took a
/// connection from the pool, tested with `SELECT 1` every time (four a list page). A read
/// request now keeps the first it takes, a streamed page's content included.
#[tokio::test]
async fn a_page_takes_one_connection_from_the_pool() {
    install();
    let app = TestApp::new().await;
    // Before the statements are watched, so each connection finds its tallies at once.
    let checked = checkouts().write().unwrap().entry(url_of(&app)).or_default().clone();
    let tally = watch(&app);
    let s = app.session("sales@demo.test").await;
    let d = data(&app).await;
    let approver = app.session("approver@demo.test").await;
    let id = approved_invoice(&app, &approver, &d, 3).await;
    for path in ["/invoices?per_page=150".to_string(), format!("/order_detail/invoices/{id}"), "/products?key=r16".into(), "/customers".into(), "/api/orders?type=1".into()] {
        assert_eq!(app.get(&path, Some(&s)).await.status, StatusCode::OK, "{path}");
        let before = checked.load(Ordering::SeqCst);
        let statements = statements_of(&app, &tally, &path, &s).await;
        // `statements_of` asks twice: the warm-up and the counted request.
        let taken = checked.load(Ordering::SeqCst) - before;
        assert_eq!(taken, 2, "{path}: {} pool checkouts a request ({statements} statements)", taken as f64 / 2.0);
    }
}

/// Issue 38: a request signed in by cookie read its session, then its user's companies,
/// before any statement of its own; it reads both in one now.
#[tokio::test]
async fn a_signed_in_request_reads_its_session_and_companies_in_one_statement() {
    let (app, tally) = counted_app().await;
    let s = app.session("sales@demo.test").await;
    // The smallest signed-in call: the count behind the header's self-order badge. The
    // fewest of three, as a request that opens a new connection also runs its set-up.
    let mut n = usize::MAX;
    for _ in 0..3 {
        n = n.min(statements_of(&app, &tally, "/api/csr-self-order", &s).await);
    }
    assert_eq!(n, 3, "the pool's check, the session with its companies, and the count");
}

#[tokio::test]
async fn a_list_past_the_count_cap_is_not_counted_again_on_every_page() {
    let (app, tally) = counted_app().await;
    let s = app.session("sales@demo.test").await;
    app.state.db.run(|c| super::search::add_invoices(c, 10_050).map_err(Into::into)).await.unwrap();
    let over = "/invoices?status=1&per_page=150";
    let first = app.get(over, Some(&s)).await;
    assert!(first.body.contains("Total 10,000+"));
    let before = tally.load(Ordering::SeqCst);
    let again = app.get(&format!("{over}&page=2"), Some(&s)).await;
    let on_page_2 = tally.load(Ordering::SeqCst) - before;
    assert_eq!(again.status, StatusCode::OK);
    // Page 2 needed more than page 1 saw, so it counted; page 1 again is known to be over.
    let steady = statements_of(&app, &tally, over, &s).await;
    assert!(app.get(over, Some(&s)).await.body.contains("Total 10,000+"));
    assert_eq!(steady + 1, on_page_2, "page 1 again skips the count of 10,001 sheets: {steady} statements against {on_page_2}");
    // A filter under the cap is counted every time: a sheet saved shows in its total at once.
    let few = "/invoices?status=2&per_page=150";
    let total = |body: &str| body.split("Total ").nth(1).and_then(|t| t.split('<').next()).map(str::to_owned);
    let shown = total(&app.get(few, Some(&s)).await.body);
    let d = data(&app).await;
    let approver = app.session("approver@demo.test").await;
    approved_invoice(&app, &approver, &d, 1).await;
    let now = total(&app.get(few, Some(&s)).await.body);
    assert_ne!(shown, now, "the total of a small list follows the saved sheet");
}

#[tokio::test]
async fn the_quoting_lookup_reads_as_many_statements_for_20_rows_as_for_150() {
    let (app, tally) = counted_app().await;
    let d = data(&app).await;
    let s = app.session("sales@demo.test").await;
    let lookup = |per_page: i64| format!("/quotings?key=r1&csr={}&per_page={per_page}", d.customer);
    let page = app.get(&lookup(150), Some(&s)).await;
    let rows = page.body.matches(">CHK</button>").count();
    assert!(rows > 20, "the lookup finds more than a page of 20 ({rows})");
    let small = statements_of(&app, &tally, &lookup(20), &s).await;
    let large = statements_of(&app, &tally, &lookup(150), &s).await;
    eprintln!("quoting page: {small} statements for 20 rows, {large} for {rows} rows");
    assert_eq!(small, large, "the quoting page runs a query per row");
}

/// A streamed page as it arrived: its first part and the whole page (decoded), and the
/// statements run before the first part was handed over and in all.
struct Streamed {
    head: String,
    whole: String,
    at_first: usize,
    total: usize,
}

/// Where the first part of a streamed page ends: the start of the content.
const CONTENT_START: &str = "<main class=\"content\" id=\"content\">";

/// GETs `path` (with gzip when `gzip`), counting the statements run before its first body
/// frame and after the last. The page is asked for once before, so the counts are the steady
/// ones (no first-time connection set-up).
async fn streamed(app: &TestApp, tally: &AtomicUsize, path: &str, s: &Session, gzip: bool) -> Streamed {
    use axum::body::Body;
    use axum::http::{Request, header};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    assert_eq!(app.get(path, Some(s)).await.status, StatusCode::OK, "{path}");
    let mut req = Request::builder().uri(path).header(header::COOKIE, &s.cookie);
    if gzip {
        req = req.header(header::ACCEPT_ENCODING, "gzip");
    }
    let before = tally.load(Ordering::SeqCst);
    let res = app.router.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    assert_eq!(res.headers().get(header::CONTENT_ENCODING).is_some(), gzip, "{path}");
    let mut body = res.into_body();
    let first = body.frame().await.expect("a first part").unwrap().into_data().unwrap();
    let at_first = tally.load(Ordering::SeqCst) - before;
    let mut rest = Vec::new();
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.unwrap().into_data() {
            rest.extend_from_slice(&data);
        }
    }
    let total = tally.load(Ordering::SeqCst) - before;
    let decode = |bytes: &[u8]| {
        if !gzip {
            return String::from_utf8_lossy(bytes).into_owned();
        }
        let mut out = Vec::new();
        // A sync-flushed part decodes up to its end; the stream's end may be missing.
        let _ = std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    };
    Streamed { head: decode(&first), whole: decode(&[first.to_vec(), rest].concat()), at_first, total }
}

/// The first part is the head and the shell (header, menu) and nothing of the content; the
/// rest completes the page.
fn assert_split(path: &str, page: &Streamed) {
    let head = &page.head;
    assert!(head.starts_with("<!doctype html>") && head.ends_with(CONTENT_START), "{path}: the first part is the head and the shell:\n{head}");
    assert!(head.contains("<nav class=\"sidebar\""), "{path}: the menu is in the first part");
    assert!(page.whole.trim_end().ends_with("</html>"), "{path}: the rest is the content and the end of the page");
    assert_eq!(page.whole.matches("<nav class=\"sidebar\"").count(), 1, "{path}: the shell is sent once");
    assert!(!page.whole.contains("alert-error"), "{path}: the content did not fail");
}

/// The first part of a streamed list page (head, header, menu) is handed over before the
/// list's own queries run; they run when the rest is asked for. gzip, when accepted, is
/// flushed after the first part so it decodes on its own.
#[tokio::test]
async fn a_list_page_sends_its_head_and_shell_before_its_queries_run() {
    let (app, tally) = counted_app().await;
    let s = app.session("approver@demo.test").await;
    for (path, gzip) in [("/invoices?per_page=150", false), ("/customers", true), ("/suppliers", false)] {
        let page = streamed(&app, &tally, path, &s, gzip).await;
        assert_split(path, &page);
        assert!(!page.head.contains("<table"), "{path}: no list in the first part");
        assert!(page.whole.contains("<table"), "{path}: the rest is the list");
        eprintln!("{path}: {} statements before the first part, {} in all", page.at_first, page.total);
        assert!(page.at_first < page.total, "{path}: the list's queries ran before the first part was sent ({} of {})", page.at_first, page.total);
    }
}

/// The other full pages stream too. Before the first part only the session and the shell
/// are read (as for a list page), and on a page addressed by an id the one statement that
/// finds the record in the company (404 otherwise) and names it in the title; the page's own
/// queries and island renders run after.
#[tokio::test]
async fn every_full_page_sends_its_head_and_shell_before_its_queries_run() {
    let (app, tally) = counted_app().await;
    let d = data(&app).await;
    let s = app.session("approver@demo.test").await;
    let invoice = approved_invoice(&app, &s, &d, 3).await;
    let no: String = app.get(&format!("/api/orders/{invoice}"), Some(&s)).await.json()["data"]["no"].as_str().expect("a number").to_owned();
    let shell_only = streamed(&app, &tally, "/suppliers", &s, false).await.at_first;
    // One head query as the pages run it, on the connection their session look-up took.
    let (head_query, _) = read_later(&app, &tally, move |c| db::order_views::head_of(c, 4, invoice)).await;
    let pages = [
        ("/quotings".to_string(), 0, "Quoting"),
        ("/order_add/invoices".into(), 0, "New Invoice"),
        (format!("/order_edit/invoices/{invoice}"), head_query, &*format!("Edit Invoice {no}")),
        (format!("/order_detail/invoices/{invoice}"), head_query, &*format!("Invoice {no}")),
        ("/sales_reports".into(), 0, "Sales Reports"),
        ("/settings".into(), 0, "Settings"),
        (format!("/baseinfo/customers/{}", d.customer), head_query, "Edit Customer"),
    ];
    for (i, (path, head_statements, title)) in pages.iter().enumerate() {
        let page = streamed(&app, &tally, path, &s, i % 2 == 1).await;
        assert_split(path, &page);
        assert!(page.head.contains(&format!("<title>{title} - TyreDesk</title>")), "{path}: the title is in the first part");
        eprintln!("{path}: {} statements before the first part, {} in all", page.at_first, page.total);
        assert_eq!(page.at_first, shell_only + head_statements, "{path}: only the session, the shell and the record's head are read before the first part");
        assert!(page.at_first < page.total, "{path}: the page reads its data after the first part");
    }
}

/// The statements `read` runs as a page's first read runs it (the pool's check of the
/// connection and its queries), and its answer.
async fn read_alone<T, F>(app: &TestApp, tally: &AtomicUsize, read: F) -> (usize, T)
where
    T: Send + 'static,
    F: FnOnce(&mut db::DbConn) -> db::error::AppResult<T> + Send + 'static,
{
    let before = tally.load(Ordering::SeqCst);
    let answer = app.state.db.run(read).await.unwrap();
    (tally.load(Ordering::SeqCst) - before, answer)
}

/// The statements `read` runs as a page's later reads run it, on the connection its first
/// took (`db::one_connection`): its queries alone.
async fn read_later<T, F>(app: &TestApp, tally: &AtomicUsize, read: F) -> (usize, T)
where
    T: Send + 'static,
    F: FnOnce(&mut db::DbConn) -> db::error::AppResult<T> + Send + 'static,
{
    db::one_connection(async {
        app.state.db.run(|_| Ok(())).await.unwrap();
        read_alone(app, tally, read).await
    })
    .await
}

/// Where the first part of a streamed shop page ends: the start of its content.
const SHOP_CONTENT_START: &str = "<main>";

/// The customer shop's full pages stream as the staff pages do. Before the first part only
/// the session and the shell (the cart badge's count) are read, and on a page titled with a
/// record (a product, an order) the one statement that finds it for the customer (404
/// otherwise), on the check-out the one that finds something to order in the cart; the
/// page's own queries run after.
#[tokio::test]
async fn every_shop_page_sends_its_head_and_header_before_its_queries_run() {
    use db::shop as shop_db;

    let (app, tally) = counted_app().await;
    let s = crate::shop::signed_in(&app, crate::shop::SHOP, "tyredesk").await;
    let ((product, code), _) = crate::shop::shown_and_hidden(&app).await;
    crate::shop::add_to_cart(&app, &s, product, "2").await;
    let order = crate::shop::check_out(&app, &s, "Q-1").await;
    crate::shop::add_to_cart(&app, &s, product, "3").await;
    // The session and the shell as a page reads them, and each head statement, by themselves.
    let token = s.cookie.trim_start_matches("td_shop=").to_owned();
    let (session, who) = read_alone(&app, &tally, move |c| Ok(shop_db::session(c, &token)?.expect("a session").2)).await;
    let (company, org, customer) = (who.org_name.clone(), who.org_id, who.customer_id);
    let (shell, _) = read_later(&app, &tally, move |c| services::shop::cart_count(c, &who)).await;
    let (product_head, _) = read_later(&app, &tally, move |c| shop_db::shown_code(c, org, product)).await;
    let (order_head, no) = read_later(&app, &tally, move |c| shop_db::my_order_no(c, org, customer, order)).await;
    let (checkout_head, _) = read_later(&app, &tally, move |c| shop_db::cart_has_shown(c, org, customer)).await;
    let no = no.expect("the order's number");
    let pages = [
        (format!("/shop?key={code}"), 0, "Products".to_string()),
        (format!("/shop/products/{product}"), product_head, code.clone()),
        ("/shop/cart".into(), 0, "Cart".into()),
        ("/shop/checkout".into(), checkout_head, "Check out".into()),
        ("/shop/orders".into(), 0, "My orders".into()),
        (format!("/shop/orders/{order}"), order_head, no),
    ];
    for (i, (path, head_statements, title)) in pages.iter().enumerate() {
        let page = streamed(&app, &tally, path, &s, i % 2 == 1).await;
        let head = &page.head;
        assert!(head.starts_with("<!doctype html>") && head.ends_with(SHOP_CONTENT_START), "{path}: the first part is the head and the header:\n{head}");
        assert!(head.contains(&format!("<title>{title} - {company}</title>")), "{path}: the title is in the first part:\n{head}");
        assert!(head.contains(&format!("<a class=\"brand\" href=\"/shop\">{company}</a>")), "{path}: the company is in the first part");
        assert!(head.contains("<span class=\"badge\">3</span>"), "{path}: the cart badge is in the first part");
        assert!(page.whole.trim_end().ends_with("</html>") && page.whole.matches("<footer class=\"foot\">").count() == 1, "{path}: the rest is the content and the footer");
        assert_eq!(page.whole.matches("<header class=\"top\">").count(), 1, "{path}: the header is sent once");
        assert!(!page.whole.contains("<p class=\"alert\" role=\"alert\">"), "{path}: the content did not fail:\n{}", page.whole);
        eprintln!("{path}: {} statements before the first part, {} in all", page.at_first, page.total);
        assert_eq!(page.at_first, session + shell + head_statements, "{path}: only the session, the cart badge and the record's head are read before the first part");
        assert!(page.at_first < page.total, "{path}: the page reads its data after the first part");
    }
    // The password page has nothing of its own to read: all of it comes with the head's reads.
    let page = streamed(&app, &tally, "/shop/password", &s, false).await;
    assert!(page.head.ends_with(SHOP_CONTENT_START) && page.whole.contains("<h1>Change password</h1>"), "{}", page.whole);
    assert_eq!((page.at_first, page.total), (session + shell, session + shell), "/shop/password: the session and the cart badge");
}
