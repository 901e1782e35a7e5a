//! Dispatch on paper (issue 34): the picking list of the chosen sheets (one row per product,
//! in walking order, with the sheets it goes to), its per-sheet slips, and a driver's run
//! sheet (stops in the run's order, money to collect, the run's link), read back from the
//! PDFs' text; and the refusals: a sheet of another warehouse or company, another company's run.

use axum::http::StatusCode;
use diesel::prelude::*;
use db::schema::{customers, dispatch_runs, orders, products, warehouses};
use serde_json::json;

use crate::support::{Session, TestApp, pdf_text};

const ORG: i64 = 4;

/// Company 4's data the tests use: its main warehouse and a branch, two customers (the
/// first pays cash on delivery, the second is on account), four products whose locations
/// are A10, B2/A2, call and none, and the approver acting in services.
struct Setup {
    warehouse: i64,
    branch: i64,
    cod: (i64, String),
    account: (i64, String),
    /// (id, code, price)
    products: Vec<(i64, String, i64)>,
    driver: i64,
    actor: domain::Actor,
}

async fn setup(app: &TestApp) -> Setup {
    app.state
        .db
        .write(|c| {
            let own = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false));
            let warehouse: i64 = own.filter(warehouses::is_branch.eq(false)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            let branch: i64 = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_branch.eq(true)).select(warehouses::id).first(c)?;
            let two: Vec<(i64, String)> = customers::table
                .filter(customers::org_id.eq(ORG))
                .filter(customers::payment_type.ne(10))
                .filter(customers::credit_limit.eq(0))
                .order(customers::id.asc())
                .select((customers::id, customers::name))
                .limit(2)
                .load(c)?;
            diesel::update(customers::table.find(two[0].0)).set(customers::payment_type.eq(5)).execute(c)?;
            diesel::update(customers::table.find(two[1].0)).set(customers::payment_type.eq(12)).execute(c)?;
            let products: Vec<(i64, String, i64)> = products::table
                .filter(products::org_id.eq(ORG))
                .filter(products::category.eq(1))
                .filter(products::class_a_price.gt(5_000))
                .order(products::id.asc())
                .select((products::id, products::code, products::class_a_price))
                .limit(4)
                .load(c)?;
            for ((id, _, _), tag4) in products.iter().zip(["A10", " B2 / A2 ", "call", ""]) {
                diesel::update(products::table.find(id)).set(products::tag4.eq(tag4)).execute(c)?;
            }
            let approver = db::accounts::user_by_email(c, "approver@demo.test")?.unwrap().id;
            let driver = db::accounts::user_by_email(c, "driver@demo.test")?.unwrap().id;
            let actor = domain::Actor { org_id: ORG, user_id: approver, name: "Alex Approver".into(), role: domain::enums::Role::Approver, is_acct: true, crt_csr: true };
            Ok(Setup { warehouse, branch, cod: two[0].clone(), account: two[1].clone(), products, driver, actor })
        })
        .await
        .unwrap()
}

/// An invoice for `customer` from `warehouse` with (product index, qty) lines, approved
/// unless `draft`: (id, number).
async fn invoice(app: &TestApp, s: &Session, f: &Setup, customer: i64, warehouse: i64, lines: &[(usize, i64)], draft: bool) -> (i64, String) {
    let lines: Vec<_> = lines.iter().enumerate().map(|(i, (p, q))| json!({"seq": i + 1, "productId": f.products[*p].0, "quantity": q, "price": f.products[*p].2})).collect();
    let body = json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "date": "2026-11-20", "dueDate": "2026-11-30", "lines": lines});
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    if !draft {
        let res = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"warehouseId": warehouse, "confirmed": true})).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        let status: i32 = app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::status).first(c)?)).await.unwrap();
        assert_eq!(status, 2, "approved: {}", res.body);
    }
    let no = app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::no).first::<String>(c)?)).await.unwrap();
    (id, no)
}

fn picking_url(warehouse: i64, ids: &[i64], per_sheet: bool) -> String {
    let mut url = format!("/dispatch/picking?warehouse_id={warehouse}");
    for id in ids {
        url.push_str(&format!("&order_id={id}"));
    }
    if per_sheet {
        url.push_str("&per_sheet=1");
    }
    url
}

/// The one line of `text` that holds `needle`.
fn line_with<'a>(text: &'a str, needle: &str) -> &'a str {
    let found: Vec<&str> = text.lines().filter(|l| l.contains(needle)).collect();
    assert_eq!(found.len(), 1, "{needle} once in:\n{text}");
    found[0]
}

/// What the QR codes drawn in a PDF say: its images taken out by poppler's pdfimages (beside
/// pdftotext) and read by rqrr.
fn qr_codes(pdf: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdfimages").arg("-png").arg(&path).arg(dir.path().join("img")).output().expect("pdfimages (poppler-utils)");
    assert!(out.status.success(), "pdfimages: {}", String::from_utf8_lossy(&out.stderr));
    let mut found = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "png")).collect();
    files.sort();
    for file in files {
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&file).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let (w, h, samples) = (info.width as usize, info.height as usize, info.color_type.samples());
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| buf[(y * w + x) * samples]);
        for grid in image.detect_grids() {
            found.push(grid.decode().expect("a QR code that reads").1);
        }
    }
    found
}

fn at(text: &str, needle: &str) -> usize {
    text.find(needle).unwrap_or_else(|| panic!("{needle} in:\n{text}"))
}

#[tokio::test]
async fn the_picking_list_names_each_product_once_with_its_total_and_sheets_in_walking_order() {
    let app = TestApp::new().await;
    let f = setup(&app).await;
    let s = app.session("approver@demo.test").await;
    let (a, a_no) = invoice(&app, &s, &f, f.cod.0, f.warehouse, &[(0, 2), (1, 1), (2, 1)], false).await;
    let (b, b_no) = invoice(&app, &s, &f, f.account.0, f.warehouse, &[(0, 3), (3, 2)], false).await;

    let res = app.get(&picking_url(f.warehouse, &[a, b], false), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.headers["content-type"], "application/pdf");
    assert!(res.headers["content-disposition"].to_str().unwrap().starts_with("inline"));
    let text = pdf_text(res.bytes.as_ref());
    assert!(text.contains("PICKING LIST"), "{text}");
    let code = |i: usize| f.products[i].1.as_str();
    // A10 ×5 goes to both sheets; A2 (B2/A2 sorted) comes first, 'call' and no location last.
    let p0 = line_with(&text, code(0));
    assert!(p0.contains("A10") && p0.contains(" 5 "), "{p0}");
    assert!(p0.contains(&format!("{a_no} × 2, {b_no} × 3")), "{p0}");
    let p1 = line_with(&text, code(1));
    assert!(p1.contains("A2/B2") && p1.contains(&format!("{a_no} × 1")), "{p1}");
    let p2 = line_with(&text, code(2));
    assert!(!p2.to_lowercase().contains("call"), "'call' prints blank: {p2}");
    assert!(p2.contains(&format!("{a_no} × 1")), "{p2}");
    assert!(line_with(&text, code(3)).contains(&format!("{b_no} × 2")));
    assert!(at(&text, code(1)) < at(&text, code(0)), "A2 before A10");
    assert!(at(&text, code(0)) < at(&text, code(2)) && at(&text, code(0)) < at(&text, code(3)), "'call' and no location at the end");
    assert!(text.contains(&f.cod.1) && text.contains(&f.account.1), "the sheets' customers");
    assert!(text.contains("Picked by"));
}

#[tokio::test]
async fn the_per_sheet_variant_prints_one_slip_per_sheet_to_sign_at_the_counter() {
    let app = TestApp::new().await;
    let f = setup(&app).await;
    let s = app.session("approver@demo.test").await;
    let (a, a_no) = invoice(&app, &s, &f, f.cod.0, f.warehouse, &[(0, 2), (1, 1)], false).await;
    let (b, b_no) = invoice(&app, &s, &f, f.account.0, f.warehouse, &[(0, 3)], false).await;

    let res = app.get(&picking_url(f.warehouse, &[a, b], true), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let text = pdf_text(res.bytes.as_ref());
    assert_eq!(text.matches("PICK-UP SLIP").count(), 2, "{text}");
    assert_eq!(text.matches("Collected by").count(), 2);
    let (first, second) = text.split_at(text.rfind("PICK-UP SLIP").unwrap());
    assert!(first.contains(&a_no) && first.contains(&f.cod.1) && !first.contains(&b_no), "{first}");
    assert!(second.contains(&b_no) && second.contains(&f.account.1), "{second}");
    assert!(line_with(first, &f.products[0].1).contains(" 2"), "{first}");
    assert!(line_with(second, &f.products[0].1).contains(" 3"), "{second}");
    assert!(at(first, &f.products[1].1) < at(first, &f.products[0].1), "A2 before A10 on the slip");
}

#[tokio::test]
async fn a_sheet_of_another_warehouse_or_company_or_not_approved_is_refused() {
    let app = TestApp::new().await;
    let f = setup(&app).await;
    let s = app.session("approver@demo.test").await;
    let (a, _) = invoice(&app, &s, &f, f.cod.0, f.warehouse, &[(0, 1)], false).await;
    let (branch, branch_no) = invoice(&app, &s, &f, f.cod.0, f.branch, &[(0, 1)], false).await;
    let (draft, draft_no) = invoice(&app, &s, &f, f.cod.0, f.warehouse, &[(0, 1)], true).await;
    let other: i64 = app.state.db.run(|c| Ok(orders::table.filter(orders::org_id.ne(ORG)).select(orders::id).first(c)?)).await.unwrap();

    let res = app.get(&picking_url(f.warehouse, &[a, branch], false), Some(&s)).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert!(res.body.contains(&format!("{branch_no} ships from another warehouse")), "{}", res.body);
    let res = app.get(&picking_url(f.warehouse, &[a, other], false), Some(&s)).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert!(res.body.contains("A sheet you chose does not exist in this company."), "{}", res.body);
    let res = app.get(&picking_url(f.warehouse, &[draft], true), Some(&s)).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert!(res.body.contains(&format!("{draft_no} is not an approved invoice")), "{}", res.body);
    let res = app.get(&picking_url(f.warehouse, &[], false), Some(&s)).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert!(res.body.contains("Choose one or more sheets first."), "{}", res.body);
    let other_wh: i64 = app.state.db.run(|c| Ok(warehouses::table.filter(warehouses::org_id.ne(ORG)).select(warehouses::id).first(c)?)).await.unwrap();
    let res = app.get(&picking_url(other_wh, &[a], false), Some(&s)).await;
    assert_ne!(res.status, StatusCode::OK, "another company's warehouse");
    let anonymous = app.get(&picking_url(f.warehouse, &[a], false), None).await;
    assert!(anonymous.status.is_redirection() || anonymous.status == StatusCode::UNAUTHORIZED, "signed-in staff only: {}", anonymous.status);
}

/// A run of today for the demo driver with the sheets `ids`, through the dispatch service
/// (the board's routes are another part's): its id.
async fn run_of(app: &TestApp, f: &Setup, ids: Vec<i64>, name: &str) -> i64 {
    let a = services::dispatch::Assign { day: chrono::Utc::now().date_naive(), warehouse: f.warehouse, orders: ids, driver: Some(f.driver), run_name: name.into() };
    services::dispatch::assign(&app.state, &f.actor, a).await.unwrap()
}

#[tokio::test]
async fn the_run_sheet_lists_the_stops_in_the_runs_order_with_the_money_to_collect_and_the_link() {
    let app = TestApp::new().await;
    let f = setup(&app).await;
    let s = app.session("approver@demo.test").await;
    let (a, a_no) = invoice(&app, &s, &f, f.cod.0, f.warehouse, &[(0, 2), (1, 1)], false).await;
    let (b, b_no) = invoice(&app, &s, &f, f.account.0, f.warehouse, &[(0, 3)], false).await;
    app.state.db.write(move |c| Ok(diesel::update(orders::table.filter(orders::id.eq_any([a, b]))).set(orders::ship_type.eq(1)).execute(c)?)).await.unwrap();
    let run = run_of(&app, &f, vec![a, b], "Morning North").await;
    // The office moves the account customer's stop first.
    let view = services::dispatch::run(&app.state, &f.actor, run).await.unwrap();
    let b_stop = view.stops.iter().find(|x| x.order_id == b).unwrap().stop_id;
    if view.stops[0].order_id != b {
        services::dispatch::move_stop(&app.state, &f.actor, run, b_stop, true).await.unwrap();
    }
    let due: i64 = app.state.db.run(move |c| Ok(orders::table.find(a).select(orders::total_amount).first(c)?)).await.unwrap();
    let due = format!("${}", domain::money::Cents(due));

    let res = app.get(&format!("/dispatch/runs/{run}/run_sheet"), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.headers["content-type"], "application/pdf");
    let text = pdf_text(res.bytes.as_ref());
    for want in ["RUN SHEET", "Morning North", "Dan Driver", "Southern Cross Tyres", "Received by", "Signature", "Driver", "Cash handed over to", "Office"] {
        assert!(text.contains(want), "{want} in:\n{text}");
    }
    assert!(at(&text, &b_no) < at(&text, &a_no), "the office's order: {text}");
    let a_line = line_with(&text, &a_no);
    assert!(a_line.contains(&due), "COD+CASH collects its amount: {a_line}");
    assert!(!line_with(&text, &b_no).contains('$'), "an account customer pays nothing at the door");
    assert!(text.contains("Cash"), "how it is paid");
    assert!(line_with(&text, "Total to collect").contains(&due), "{text}");
    let token: String = app.state.db.run(move |c| Ok(dispatch_runs::table.find(run).select(dispatch_runs::link_token).first(c)?)).await.unwrap();
    assert_eq!(token.len(), domain::dispatch::TOKEN_LEN, "printing issued the run's link");
    assert!(text.contains(&format!("/r/{token}")), "the link as text: {text}");
    assert_eq!(qr_codes(&res.bytes), vec![format!("http://localhost/r/{token}")], "the QR code opens the same link");

    // Printed again, the same link.
    let again = pdf_text(app.get(&format!("/dispatch/runs/{run}/run_sheet"), Some(&s)).await.bytes.as_ref());
    assert!(again.contains(&format!("/r/{token}")));

    // Once the day is closed the sheet still prints, as the day's record, without a link.
    services::dispatch::close_day(&app.state, &f.actor, f.warehouse, chrono::Utc::now().date_naive()).await.unwrap();
    let closed = app.get(&format!("/dispatch/runs/{run}/run_sheet"), Some(&s)).await;
    assert_eq!(closed.status, StatusCode::OK, "{}", closed.body);
    assert_eq!(qr_codes(&closed.bytes), Vec::<String>::new(), "no QR code");
    let text = pdf_text(&closed.bytes);
    assert!(text.contains("This run is closed") && !text.contains("/r/"), "{text}");
    assert!(at(&text, &b_no) < at(&text, &a_no));
}

#[tokio::test]
async fn another_companys_run_is_not_found() {
    let app = TestApp::new().await;
    let f = setup(&app).await;
    let s = app.session("approver@demo.test").await;
    let driver = f.driver;
    let other = app
        .state
        .db
        .write(move |c| {
            let wh: i64 = warehouses::table.filter(warehouses::org_id.eq(9)).select(warehouses::id).first(c)?;
            db::dispatch::insert_run(c, 9, wh, chrono::Utc::now().date_naive(), driver, "Elsewhere", driver)
        })
        .await
        .unwrap();
    assert_eq!(app.get(&format!("/dispatch/runs/{other}/run_sheet"), Some(&s)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/dispatch/runs/999999/run_sheet", Some(&s)).await.status, StatusCode::NOT_FOUND);
    let token: String = app.state.db.run(move |c| Ok(dispatch_runs::table.find(other).select(dispatch_runs::link_token).first(c)?)).await.unwrap();
    assert_eq!(token, "", "no link was issued for it");
}
