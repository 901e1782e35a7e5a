//! Proof of delivery from the driver's phone (issue 34): the run's link `/r/{token}` reaches
//! its own run and nothing else, a stop's record sets the sheet's delivery status and actual
//! pay type once however often the phone retries, refusals say why and keep the form, and
//! staff see the signature on the sheet.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use chrono::NaiveDate;
use diesel::prelude::*;
use db::schema::{dispatch_runs, order_events, orders, run_stops};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{Session, TestApp, TestResponse, extract_input};

/// A PNG as the phone's canvas sends it (the server checks the first bytes).
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\nIDATx\x9cc\0\x01\0\0\x05\0\x01\r\n-\xb4\0\0\0\0IEND\xaeB`\x82";

fn today() -> NaiveDate {
    domain::dates::today(domain::dates::DEFAULT_ZONE)
}

/// A run of company `org` with its link, set up through the dispatch service as the board
/// would (the board's routes are another part of issue 34).
struct Run {
    id: i64,
    token: String,
    /// (stop id, sheet id, sheet number, amount) in the run's order.
    stops: Vec<(i64, i64, String, i64)>,
    warehouse: i64,
}

async fn actor(app: &TestApp, org: i64) -> domain::Actor {
    let id: i64 = app.state.db.run(|c| Ok(db::accounts::user_by_email(c, "approver@demo.test")?.unwrap().id)).await.unwrap();
    domain::Actor { org_id: org, user_id: id, name: "Alex Approver".into(), role: domain::enums::Role::Approver, is_acct: true, crt_csr: true }
}

/// Puts `n` approved invoices of `org` (of one warehouse, not yet on a run) on a new run of
/// Dan Driver named `name`: each a Delivery of a COD+CASH customer, unpaid, Preparing, due
/// today. Answers the run with a live link.
async fn run_of(app: &TestApp, org: i64, name: &str, n: usize) -> Run {
    let (warehouse, ids, driver) = app
        .state
        .db
        .write(move |c| {
            let taken: Vec<i64> = run_stops::table.select(run_stops::order_id).load(c)?;
            let candidates: Vec<(i64, i64)> = orders::table
                .filter(orders::org_id.eq(org))
                .filter(orders::order_type.eq(1))
                .filter(orders::status.eq(2))
                .filter(orders::closed.eq(false))
                .filter(orders::total_amount.gt(0))
                .filter(orders::warehouse_id.is_not_null())
                .filter(orders::id.ne_all(&taken))
                .order(orders::id.asc())
                .select((orders::id, orders::warehouse_id.assume_not_null()))
                .load(c)?;
            let warehouse = candidates.first().expect("an approved invoice with a warehouse").1;
            let ids: Vec<i64> = candidates.iter().filter(|(_, w)| *w == warehouse).map(|(id, _)| *id).take(n).collect();
            assert_eq!(ids.len(), n, "{n} approved invoices of one warehouse in company {org}");
            diesel::update(orders::table.filter(orders::id.eq_any(&ids)))
                .set((
                    orders::ship_type.eq(1),
                    orders::payment_type.eq(Some(domain::enums::PaymentType::CodCash.as_i32())),
                    orders::actual_pay_type.eq(0),
                    orders::delivery_status.eq(0),
                    orders::delivery_date.eq(Some(today())),
                ))
                .execute(c)?;
            let driver = db::accounts::user_by_email(c, "driver@demo.test")?.unwrap().id;
            Ok((warehouse, ids, driver))
        })
        .await
        .unwrap();
    let actor = actor(app, org).await;
    let assign = services::dispatch::Assign { day: today(), warehouse, orders: ids, driver: Some(driver), run_name: name.into() };
    let id = services::dispatch::assign(&app.state, &actor, assign).await.expect("assigned");
    let token = services::dispatch::issue_link(&app.state, &actor, id).await.expect("a link");
    let view = services::dispatch::run(&app.state, &actor, id).await.unwrap();
    let stops = view.stops.iter().map(|s| (s.stop_id, s.order_id, s.no.clone(), s.total_amount)).collect();
    Run { id, token, stops, warehouse }
}

/// Posts a stop's form as the phone does (multipart, no cookie), with a file part
/// (`signature` or `photo`) if given; `json` as the phone's script asks.
async fn post_stop(app: &TestApp, token: &str, stop: i64, fields: &[(&str, &str)], file: Option<(&str, &[u8])>, json: bool, cookie: Option<&str>) -> TestResponse {
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend(format!("--B0UND\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n").into_bytes());
    }
    if let Some((name, bytes)) = file {
        body.extend(format!("--B0UND\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{name}.png\"\r\nContent-Type: image/png\r\n\r\n").into_bytes());
        body.extend(bytes);
        body.extend(b"\r\n");
    }
    body.extend(b"--B0UND--\r\n");
    let mut headers = vec![];
    if json {
        headers.push(("x-driver-fetch", "1"));
    }
    if let Some(c) = cookie {
        headers.push(("cookie", c));
    }
    app.request(Method::POST, &format!("/r/{token}/stops/{stop}"), Some(Body::from(body)), Some("multipart/form-data; boundary=B0UND"), &headers).await
}

/// The form's key, as the stop's page renders it.
async fn form_key(app: &TestApp, token: &str, stop: i64) -> String {
    let page = app.get(&format!("/r/{token}/stops/{stop}"), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    extract_input(&page.body, "key")
}

async fn history(app: &TestApp, order: i64) -> Vec<String> {
    app.state.db.run(move |c| Ok(order_events::table.filter(order_events::order_id.eq(order)).order(order_events::id.asc()).select(order_events::action).load(c)?)).await.unwrap()
}

async fn sheet_state(app: &TestApp, order: i64) -> (i32, i32) {
    app.state.db.run(move |c| Ok(orders::table.find(order).select((orders::delivery_status, orders::actual_pay_type)).first(c)?)).await.unwrap()
}

async fn stop_outcome(app: &TestApp, stop: i64) -> i32 {
    app.state.db.run(move |c| Ok(run_stops::table.find(stop).select(run_stops::outcome).first(c)?)).await.unwrap()
}

fn amount(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

fn header_of<'a>(res: &'a TestResponse, name: header::HeaderName) -> &'a str {
    res.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// Every address a driver's page links to: its own run's, a phone number, its own files.
fn links_stay_on_the_run(body: &str, token: &str) {
    for part in body.split("href=\"").skip(1) {
        let href = part.split('"').next().unwrap();
        assert!(href.starts_with(&format!("/r/{token}")) || href.starts_with("tel:") || href.starts_with("/static/"), "a link out of the run: {href}");
    }
}

fn assert_gone(res: &TestResponse, what: &str) {
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{what}: {}", res.body);
    assert!(res.body.contains("Link not working"), "{what}: the driver's plain page: {}", res.body);
    assert!(!res.body.contains("href=\"/q") && !res.body.contains("<a "), "{what}: nothing leads into the app: {}", res.body);
    assert_eq!(header_of(res, header::CACHE_CONTROL), "no-store", "{what}");
}

#[tokio::test]
async fn the_link_reaches_its_own_run_and_nothing_else() {
    let app = TestApp::new().await;
    let run = run_of(&app, 4, "Morning North", 2).await;
    let other = run_of(&app, 4, "Afternoon South", 1).await;

    let page = app.get(&format!("/r/{}", run.token), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Morning North") && page.body.contains("Dan Driver"));
    for (_, _, no, due) in &run.stops {
        assert!(page.body.contains(no.as_str()), "its sheet {no}");
        assert!(page.body.contains(&format!("Collect ${} Cash", domain::money::Cents(*due).grouped())), "what to collect for {no}");
    }
    assert!(!page.body.contains(other.stops[0].2.as_str()), "another run's sheet is not shown");
    assert!(page.body.contains("Delivering"), "an open stop in its ship type's wording");
    links_stay_on_the_run(&page.body, &run.token);
    assert_eq!(header_of(&page, header::CACHE_CONTROL), "no-store");
    assert_eq!(header_of(&page, header::REFERRER_POLICY), "no-referrer", "the token never leaves in a Referer");
    assert!(!page.body.contains("csrf") && !page.body.contains("Logout"), "no staff shell");

    let form = app.get(&format!("/r/{}/stops/{}", run.token, run.stops[0].0), None).await;
    assert_eq!(form.status, StatusCode::OK);
    links_stay_on_the_run(&form.body, &run.token);
    assert_eq!(header_of(&form, header::REFERRER_POLICY), "no-referrer");

    // Another run's stop, by its own link's token: not there.
    let (other_stop, other_sheet) = (other.stops[0].0, other.stops[0].1);
    assert_gone(&app.get(&format!("/r/{}/stops/{other_stop}", run.token), None).await, "another run's stop");
    let key = form_key(&app, &other.token, other_stop).await;
    let fields = [("key", key.as_str()), ("outcome", "done"), ("received_by", "Mallory")];
    assert_gone(&post_stop(&app, &run.token, other_stop, &fields, Some(("signature", PNG)), false, None).await, "posting to another run's stop");
    assert_eq!(stop_outcome(&app, other_stop).await, 0, "nothing recorded there");
    assert_eq!(sheet_state(&app, other_sheet).await.0, 0);

    // Another company's run: its link reaches its stops only, never this company's.
    let foreign = run_of(&app, 9, "Morning North", 1).await;
    assert_eq!(app.get(&format!("/r/{}", foreign.token), None).await.status, StatusCode::OK);
    assert_gone(&app.get(&format!("/r/{}/stops/{}", foreign.token, run.stops[0].0), None).await, "a stop of another company");

    // Malformed, unknown, a stop that is no number, an address that is no page.
    assert_gone(&app.get("/r/abc", None).await, "a malformed token");
    assert_gone(&app.get("/r/23456789ABCDEFGHJKMN", None).await, "an unknown token");
    assert_gone(&app.get(&format!("/r/{}/stops/x", run.token), None).await, "a stop that is no number");
    assert_gone(&app.get(&format!("/r/{}/stops/{}/edit", run.token, run.stops[0].0), None).await, "no such page");

    // Expired: the end of the day after the run's day has passed.
    let id = other.id;
    let past = chrono::Utc::now().naive_utc() - chrono::Duration::minutes(1);
    app.state.db.write(move |c| Ok(diesel::update(dispatch_runs::table.find(id)).set(dispatch_runs::link_expires_at.eq(Some(past))).execute(c)?)).await.unwrap();
    assert_gone(&app.get(&format!("/r/{}", other.token), None).await, "an expired link");

    // Revoked, then a new link: the old one stays dead.
    let staff = actor(&app, 4).await;
    services::dispatch::revoke_link(&app.state, &staff, run.id).await.unwrap();
    assert_gone(&app.get(&format!("/r/{}", run.token), None).await, "a revoked link");
    let fresh = services::dispatch::issue_link(&app.state, &staff, run.id).await.unwrap();
    assert_eq!(app.get(&format!("/r/{fresh}"), None).await.status, StatusCode::OK);
    assert_gone(&app.get(&format!("/r/{}", run.token), None).await, "the old link after a new one");

    // A closed run.
    services::dispatch::close_day(&app.state, &staff, run.warehouse, today()).await.unwrap();
    assert_gone(&app.get(&format!("/r/{fresh}"), None).await, "a closed run");
    assert_gone(&app.get(&format!("/r/{fresh}/stops/{}", run.stops[0].0), None).await, "a closed run's stop");
}

#[tokio::test]
async fn a_delivery_with_a_signature_finishes_the_sheet_once_and_staff_of_the_company_see_the_proof() {
    let app = TestApp::new().await;
    let run = run_of(&app, 4, "Morning North", 1).await;
    let (stop, sheet, no, due) = run.stops[0].clone();
    let before = history(&app, sheet).await.len();

    let form = app.get(&format!("/r/{}/stops/{stop}", run.token), None).await;
    assert!(form.body.contains(">Delivered<") || form.body.contains("> Delivered"), "the ship type's wording: {}", form.body);
    assert!(form.body.contains("Not delivered"));
    assert_eq!(extract_input(&form.body, "collected"), amount(due), "prefilled with the amount to collect");
    assert!(form.body.contains("<option value=\"1\" selected>Cash</option>"), "the COD+CASH customer pays cash");
    assert!(form.body.contains("capture=\"environment\"") && form.body.contains("<canvas id=\"signature\""));
    let key = extract_input(&form.body, "key");
    assert!(key.len() >= 16, "a key per form: {key}");
    assert_ne!(form_key(&app, &run.token, stop).await, key, "each form has its own key");

    let collected = amount(due);
    let fields = [("key", key.as_str()), ("outcome", "done"), ("received_by", "Sam Smith"), ("reason", ""), ("collected", collected.as_str()), ("pay_type", "1")];
    let saved = post_stop(&app, &run.token, stop, &fields, Some(("signature", PNG)), false, None).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    assert_eq!(saved.location(), format!("/r/{}?saved={stop}", run.token));
    let list = app.get(saved.location(), None).await;
    assert!(list.body.contains(&format!("Saved: {no} Delivered")), "{}", list.body);
    assert!(list.body.contains(&format!("Collected ${} Cash", domain::money::Cents(due).grouped())), "what was collected shows on the run");

    let cash = domain::enums::ActualPayType::Cash.as_i32();
    assert_eq!(sheet_state(&app, sheet).await, (domain::enums::DeliveryStatus::Finished.as_i32(), cash), "Finished, paid in cash");
    let events = history(&app, sheet).await;
    assert_eq!(events.len(), before + 1, "one history row");
    let last = events.last().unwrap();
    assert!(last.starts_with("Delivered (run Morning North)") && last.contains("Received by: Sam Smith") && last.contains("Cash"), "{last}");

    // The phone did not hear the answer and sends the same post again: nothing twice.
    let again = post_stop(&app, &run.token, stop, &fields, Some(("signature", PNG)), false, None).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    let by_script = post_stop(&app, &run.token, stop, &fields, Some(("signature", PNG)), true, None).await;
    assert_eq!(by_script.status, StatusCode::OK, "{}", by_script.body);
    assert_eq!(by_script.json()["repeat"], true);
    assert_eq!(by_script.json()["next"], format!("/r/{}?saved={stop}", run.token));
    assert_eq!(history(&app, sheet).await.len(), before + 1, "still one history row");

    // Staff of the company see the signature; another company's, and nobody signed out, do not.
    let staff = app.session_in("approver@demo.test", 4).await;
    let image = app.get(&format!("/dispatch/proofs/{stop}"), Some(&staff)).await;
    assert_eq!(image.status, StatusCode::OK);
    assert_eq!(image.bytes, PNG);
    assert_eq!(header_of(&image, header::CONTENT_TYPE), "image/png");
    assert_eq!(header_of(&image, header::CACHE_CONTROL), "private, no-store");
    assert_eq!(header_of(&image, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    let elsewhere = app.session_in("approver@demo.test", 9).await;
    assert_eq!(app.get(&format!("/dispatch/proofs/{stop}"), Some(&elsewhere)).await.status, StatusCode::NOT_FOUND);
    assert_ne!(app.get(&format!("/dispatch/proofs/{stop}"), None).await.status, StatusCode::OK);

    // The sheet shows its proof of delivery, printable.
    let detail = app.get(&format!("/order_detail/invoices/{sheet}"), Some(&staff)).await;
    assert_eq!(detail.status, StatusCode::OK);
    let section = detail.body.split("id=\"proof-of-delivery\"").nth(1).expect("a Proof of delivery section");
    let section = section.split("</div>\n  </div>").next().unwrap();
    assert!(section.contains("Proof of delivery") && section.contains("Morning North") && section.contains("Delivered"), "{section}");
    assert!(section.contains("Sam Smith") && section.contains(&format!("${} Cash", domain::money::Cents(due).grouped())), "{section}");
    assert!(section.contains(&format!("<img class=\"pod-proof\" src=\"/dispatch/proofs/{stop}\" alt=\"Proof of delivery for {no}\">")), "{section}");
    assert!(section.contains("<time datetime="), "when it was recorded");
    let other_company = app.get(&format!("/order_detail/invoices/{sheet}"), Some(&elsewhere)).await;
    assert!(!other_company.body.contains("Sam Smith"));

    // A new form is a correction: it replaces the record (money replaced, not added).
    let key2 = form_key(&app, &run.token, stop).await;
    let fields = [("key", key2.as_str()), ("outcome", "done"), ("received_by", "Sam Smyth"), ("collected", collected.as_str()), ("pay_type", "1")];
    assert_eq!(post_stop(&app, &run.token, stop, &fields, Some(("photo", PNG)), false, None).await.status, StatusCode::SEE_OTHER);
    let events = history(&app, sheet).await;
    assert_eq!(events.len(), before + 2);
    assert!(events.last().unwrap().contains("corrected"), "{:?}", events.last());
    let collected_now: i64 = app.state.db.run(move |c| Ok(run_stops::table.find(stop).select(run_stops::collected).first(c)?)).await.unwrap();
    assert_eq!(collected_now, due, "replaced, not added");
}

#[tokio::test]
async fn refusals_say_why_keep_what_was_typed_and_write_nothing() {
    let app = TestApp::new().await;
    let run = run_of(&app, 4, "Morning North", 1).await;
    let (stop, sheet, _, due) = run.stops[0].clone();
    let before = history(&app, sheet).await.len();
    let key = form_key(&app, &run.token, stop).await;
    let collected = amount(due);
    let k = key.as_str();

    let cases: Vec<(&str, Vec<(&str, &str)>, Option<(&str, &[u8])>, &str, &str)> = vec![
        ("no outcome", vec![("key", k), ("received_by", "Sam")], Some(("signature", PNG)), "outcome", "Choose what happened at this stop."),
        ("not delivered without a reason", vec![("key", k), ("outcome", "not_done")], None, "reason", "Say why"),
        ("delivered without a name", vec![("key", k), ("outcome", "done"), ("collected", &collected), ("pay_type", "1")], Some(("signature", PNG)), "received_by", "Enter the name of who received it."),
        ("delivered without a proof", vec![("key", k), ("outcome", "done"), ("received_by", "Sam Typed")], None, "proof", "Ask for a signature or take a photo."),
        ("money at a stop not delivered", vec![("key", k), ("outcome", "not_done"), ("reason", "Closed"), ("collected", "10.00"), ("pay_type", "1")], None, "collected", "Nothing is collected at a stop that was not delivered."),
        ("a proof that is no picture", vec![("key", k), ("outcome", "done"), ("received_by", "Sam Typed")], Some(("photo", b"%PDF-1.4 not a picture")), "proof", "must be a PNG or JPEG picture"),
        ("bad money", vec![("key", k), ("outcome", "done"), ("received_by", "Sam Typed"), ("collected", "lots"), ("pay_type", "1")], Some(("signature", PNG)), "collected", ""),
    ];
    for (what, fields, file, field, message) in &cases {
        let res = post_stop(&app, &run.token, stop, fields, *file, false, None).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}: {}", res.body);
        let shown = res.body.split(&format!("id=\"err-{field}\"")).nth(1).unwrap_or_else(|| panic!("{what}: no message for {field}"));
        let shown = shown.split("</p>").next().unwrap();
        assert!(!shown.contains("hidden") && shown.contains(message), "{what}: {shown}");
        assert!(!extract_input(&res.body, "key").is_empty(), "{what}: a form to send again");
        if fields.iter().any(|(n, v)| *n == "received_by" && *v == "Sam Typed") {
            assert_eq!(extract_input(&res.body, "received_by"), "Sam Typed", "{what}: what was typed is kept");
        }
        let by_script = post_stop(&app, &run.token, stop, fields, *file, true, None).await;
        assert_eq!(by_script.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}");
        assert!(by_script.json()["errors"][field].as_str().is_some_and(|m| m.contains(message)), "{what}: {}", by_script.body);
    }

    // A photo over 1.5 MB (the phone scales it down first; this one was not).
    let mut big = PNG.to_vec();
    big.resize(1_600_000, 7);
    let fields = [("key", k), ("outcome", "done"), ("received_by", "Sam Typed"), ("collected", collected.as_str()), ("pay_type", "1")];
    let res = post_stop(&app, &run.token, stop, &fields, Some(("photo", &big)), false, None).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("The picture is too large"), "{}", res.body);
    assert_eq!(extract_input(&res.body, "received_by"), "Sam Typed");
    assert_eq!(extract_input(&res.body, "collected"), collected);

    assert_eq!(history(&app, sheet).await.len(), before, "nothing written");
    assert_eq!(stop_outcome(&app, stop).await, 0);
    assert_eq!(sheet_state(&app, sheet).await, (0, 0));

    // Not delivered with a reason: recorded, the sheet waits for the end of the day. A staff
    // cookie the phone's browser happens to hold neither helps nor hinders.
    let staff: Session = app.session_in("approver@demo.test", 4).await;
    let fields = [("key", k), ("outcome", "not_done"), ("reason", "Shop closed"), ("collected", ""), ("pay_type", "1")];
    let res = post_stop(&app, &run.token, stop, &fields, None, false, Some(&staff.cookie)).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert_eq!(stop_outcome(&app, stop).await, 2);
    assert_eq!(sheet_state(&app, sheet).await, (0, 0), "the sheet stays as it was");
    let list = app.get(&format!("/r/{}", run.token), None).await;
    assert!(list.body.contains("Not delivered"), "{}", list.body);
    assert!(history(&app, sheet).await.last().unwrap().contains("Reason: Shop closed"));
}

/// A photo over a weak mobile link needs the deadline of a request with credentials: the
/// link's token is its credential, though it carries no cookie (issue 29's 10 s is for sign-ins).
#[tokio::test]
async fn a_post_to_the_link_gets_the_credentialed_body_deadline() {
    let app = TestApp::new().await;
    let run = run_of(&app, 4, "Morning North", 1).await;
    let path: &'static str = Box::leak(format!("/r/{}/stops/{}", run.token, run.stops[0].0).into_boxed_str());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = web::server::ConnLimits {
        header_read: Duration::from_secs(1),
        body_idle: Duration::from_secs(1),
        body_total: Duration::from_secs(3),
        anonymous_body_total: Duration::from_millis(1_000),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let done = tokio::spawn(web::server::serve_on(listener, app.router.clone(), limits, async {
        let _ = stopped.await;
    }));
    let trickle = |path: &'static str| async move {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let head = format!("POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 400\r\n\r\n");
        stream.write_all(head.as_bytes()).await.unwrap();
        let started = std::time::Instant::now();
        let (mut read, mut write) = stream.into_split();
        let writer = tokio::spawn(async move {
            for _ in 0..400 {
                if write.write_all(b"a").await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
        });
        let mut got = vec![];
        let finished = tokio::time::timeout(Duration::from_secs(10), read.read_to_end(&mut got)).await;
        writer.abort();
        assert!(finished.is_ok(), "still open after 10 s");
        started.elapsed()
    };
    let (link, login) = tokio::join!(trickle(path), trickle("/login"));
    assert!(login < Duration::from_millis(2_200), "a sign-in is cut at 1 s, not {login:?}");
    assert!(link >= Duration::from_millis(2_500) && link < Duration::from_millis(5_000), "the link's post is cut at 3 s, not {link:?}");
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(5), done).await.expect("shut down").unwrap();
}

/// Eight copies of one post arriving at once (the phone retried while the first was still on
/// its way) record the stop once: on PostgreSQL the two transactions race, and the second
/// must find the first's key, not write a second history row.
#[tokio::test]
async fn two_copies_of_one_post_at_once_record_the_stop_once() {
    let app = TestApp::new().await;
    let run = run_of(&app, 4, "Morning South", 1).await;
    let (stop, sheet, _, due) = run.stops[0].clone();
    let before = history(&app, sheet).await.len();
    let key = form_key(&app, &run.token, stop).await;
    let collected = amount(due);
    let fields = [("key", key.as_str()), ("outcome", "done"), ("received_by", "Pat Jones"), ("collected", collected.as_str()), ("pay_type", "1")];
    let post = || post_stop(&app, &run.token, stop, &fields, Some(("signature", PNG)), true, None);
    let (a, b, c, d, e, f, g, h) = tokio::join!(post(), post(), post(), post(), post(), post(), post(), post());
    let answers = [a, b, c, d, e, f, g, h];
    for a in &answers {
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        assert_eq!(a.json()["saved"], true);
    }
    assert_eq!(answers.iter().filter(|a| a.json()["repeat"] == false).count(), 1, "exactly one copy was written");
    let events = history(&app, sheet).await;
    assert_eq!(events.len(), before + 1, "one history row: {events:?}");
}
