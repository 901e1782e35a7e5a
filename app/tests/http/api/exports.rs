//! Streamed exports: the API's `format=xlsx` answers the same rows as its JSON list, in the
//! same order, across many small chunks (every sort, ties and empty due dates included);
//! another company's rows never appear; the temporary file goes with the download.

use std::io::Cursor;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use calamine::{Data, Reader, Xlsx};
use diesel::prelude::*;
use tower::ServiceExt;
use db::schema::{customers, orders, products};
use db::products as product_db;

use crate::support::{Session, TestApp};

/// Small enough that every export below crosses many chunk boundaries.
const CHUNK: usize = 7;

/// The rows of the only sheet of an xlsx download, header first.
fn sheet_rows(bytes: &[u8], sheet: &str) -> Vec<Vec<Data>> {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an xlsx file");
    book.worksheet_range(sheet).expect("the sheet").rows().map(|r| r.to_vec()).collect()
}

/// A downloaded file, checked to be an xlsx attachment named `file`.
async fn download(app: &TestApp, s: &Session, path: &str, file: &str) -> Vec<u8> {
    let res = app.get(path, Some(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.body);
    assert_eq!(res.headers["content-type"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    assert!(res.headers["content-disposition"].to_str().unwrap().contains(file), "{path}");
    res.bytes
}

/// `path` with one more query pair.
fn with(path: &str, pair: &str) -> String {
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{pair}")
}

/// Every row of a JSON list, page by page.
async fn json_all(app: &TestApp, s: &Session, path: &str) -> Vec<serde_json::Value> {
    let mut rows = vec![];
    for page in 1.. {
        let body = app.get(&with(path, &format!("per_page=150&page={page}")), Some(s)).await.json();
        let data = body["data"].as_array().expect("a list").clone();
        let total = body["meta"]["total"].as_i64().unwrap() as usize;
        rows.extend(data);
        if rows.len() >= total {
            return rows;
        }
    }
    unreachable!()
}

fn text(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        other => other.to_string(),
    }
}

/// Export files present in the app's temporary folder.
fn export_files(app: &TestApp) -> Vec<String> {
    let dir = app.state.config.data_dir.join("tmp");
    std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect()).unwrap_or_default()
}

/// Ties on every sort key and sheets without a due date in company 4, so chunk boundaries
/// fall inside runs of equal keys and inside and across the run of NULLs.
async fn make_ties(app: &TestApp) {
    app.state
        .db
        .write(|c| {
            let ids: Vec<i64> = orders::table.filter(orders::org_id.eq(4)).order(orders::id.asc()).select(orders::id).load(c)?;
            let thirds: Vec<i64> = ids.iter().copied().filter(|id| id % 3 == 0).collect();
            let fifths: Vec<i64> = ids.iter().copied().filter(|id| id % 5 == 1).collect();
            diesel::update(orders::table.filter(orders::id.eq_any(&thirds))).set(orders::due_date.eq(None::<chrono::NaiveDate>)).execute(c)?;
            diesel::update(orders::table.filter(orders::id.eq_any(&fifths))).set((orders::total_amount.eq(12_345), orders::due_date.eq(chrono::NaiveDate::from_ymd_opt(2026, 6, 1)))).execute(c)?;
            let pids: Vec<i64> = products::table.filter(products::org_id.eq(4)).select(products::id).load(c)?;
            let same: Vec<i64> = pids.into_iter().filter(|id| id % 4 == 0).collect();
            let t = chrono::NaiveDate::from_ymd_opt(2026, 2, 3).unwrap().and_hms_opt(4, 5, 6).unwrap();
            diesel::update(products::table.filter(products::id.eq_any(&same))).set((products::created_at.eq(t), products::updated_at.eq(t))).execute(c)?;
            let cids: Vec<i64> = customers::table.filter(customers::org_id.eq(4)).select(customers::id).load(c)?;
            let twins: Vec<i64> = cids.into_iter().filter(|id| id % 4 == 0).collect();
            diesel::update(customers::table.filter(customers::id.eq_any(&twins))).set(customers::name.eq("Same Name Tyres")).execute(c)?;
            Ok(())
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn api_orders_xlsx_equals_the_json_list_for_every_sort() {
    let app = TestApp::new().with_export_chunk(CHUNK).await;
    make_ties(&app).await;
    let s = app.session_in("sales@demo.test", 4).await;
    for path in ["/api/orders", "/api/orders?sort=1", "/api/orders?sort=2", "/api/orders?sort=3", "/api/orders?sort=4", "/api/orders?sort=5", "/api/orders?sort=6"] {
        let json = json_all(&app, &s, path).await;
        assert!(json.len() > 10 * CHUNK, "enough sheets to cross chunks: {}", json.len());
        if path.ends_with("sort=5") || path.ends_with("sort=6") {
            assert!(json.iter().any(|o| o["dueDate"].is_null()) && json.iter().any(|o| !o["dueDate"].is_null()));
        }
        let rows = sheet_rows(&download(&app, &s, &with(path, "format=xlsx"), "orders.xlsx").await, "Orders");
        assert_eq!(text(&rows[0][0]), "No.");
        let got: Vec<(String, String, String)> = rows[1..].iter().map(|r| (text(&r[0]), text(&r[2]), text(&r[9]))).collect();
        let want: Vec<(String, String, String)> = json
            .iter()
            .map(|o| {
                let name = o["csrName"].as_str().or(o["supplierName"].as_str()).unwrap_or("").to_string();
                // An adjustment's amount (valued at cost) is neither in the JSON nor the file for sales staff.
                let amount = o["amount"].as_i64().map_or(String::new(), |a| Data::Float(a as f64 / 100.0).to_string());
                assert_eq!(o["amount"].is_null(), o["type"] == 7, "{o}");
                (o["no"].as_str().unwrap().to_string(), name, amount)
            })
            .collect();
        assert_eq!(got, want, "{path}: the export has the list's rows in the list's order");
    }
    let filtered = json_all(&app, &s, "/api/orders?type=1&status=2").await;
    let rows = sheet_rows(&download(&app, &s, "/api/orders?type=1&status=2&format=xlsx", "orders.xlsx").await, "Orders");
    assert_eq!(rows.len() - 1, filtered.len(), "filters apply to the file");
    assert!(!filtered.is_empty());
    assert!(export_files(&app).is_empty(), "temporary files are gone: {:?}", export_files(&app));
}

#[tokio::test]
async fn product_exports_follow_the_list_for_every_sort() {
    let app = TestApp::new().with_export_chunk(CHUNK).await;
    make_ties(&app).await;
    let s = app.session_in("sales@demo.test", 4).await;
    // The API: its JSON list (code order) and the same search as a file.
    let json = json_all(&app, &s, "/api/products").await;
    let rows = sheet_rows(&download(&app, &s, "/api/products?format=xlsx", "products.xlsx").await, "Products");
    let codes: Vec<String> = rows[1..].iter().map(|r| text(&r[0])).collect();
    assert_eq!(codes, json.iter().map(|p| p["code"].as_str().unwrap().to_string()).collect::<Vec<_>>());
    let stock: Vec<String> = rows[1..].iter().map(|r| text(&r[9])).collect();
    assert_eq!(stock, json.iter().map(|p| Data::Float(p["stock"].as_i64().unwrap() as f64).to_string()).collect::<Vec<_>>(), "stock per chunk");
    let word = json[0]["name"].as_str().unwrap().split_whitespace().next().unwrap().to_string();
    let some = json_all(&app, &s, &format!("/api/products?name={word}")).await;
    let rows = sheet_rows(&download(&app, &s, &format!("/api/products?name={word}&format=xlsx"), "products.xlsx").await, "Products");
    assert_eq!(rows.len() - 1, some.len());
    let ids: Vec<String> = json.iter().take(3).map(|p| p["id"].to_string()).collect();
    let by_ids = json_all(&app, &s, &format!("/api/products?ids={}", ids.join(","))).await;
    let rows = sheet_rows(&download(&app, &s, &format!("/api/products?ids={}&format=xlsx", ids.join(",")), "products.xlsx").await, "Products");
    assert_eq!(rows[1..].iter().map(|r| text(&r[0])).collect::<Vec<_>>(), by_ids.iter().map(|p| p["code"].as_str().unwrap().to_string()).collect::<Vec<_>>());
    // The screen's sorts (the API has none): the file against the list query itself.
    for sort in 1..=6 {
        let filter = product_db::ProductFilter { sort: Some(sort), ..Default::default() };
        let want: Vec<String> = app.state.db.run(move |c| Ok(product_db::list(c, 4, &filter, 0, 10_000)?.rows)).await.unwrap().into_iter().map(|p| p.code).collect();
        let rows = sheet_rows(&download(&app, &s, &format!("/products?sort={sort}&format=xlsx"), "products.xlsx").await, "Products");
        assert_eq!(rows[1..].iter().map(|r| text(&r[0])).collect::<Vec<_>>(), want, "sort {sort}");
    }
}

#[tokio::test]
async fn api_customers_xlsx_equals_the_json_list() {
    let app = TestApp::new().with_export_chunk(CHUNK).await;
    make_ties(&app).await;
    let s = app.session_in("sales@demo.test", 4).await;
    let first = json_all(&app, &s, "/api/customers").await[0]["code"].as_str().unwrap().to_string();
    let some = app.state.db.run(|c| Ok(db::customers::list(c, 4, &Default::default(), 0, 3)?.rows)).await.unwrap();
    let ids = some.iter().map(|c| c.id.to_string()).collect::<Vec<_>>().join(",");
    for query in ["/api/customers".to_string(), format!("/api/customers?name={first}"), format!("/api/customers?ids={ids}")] {
        let json = json_all(&app, &s, &query).await;
        assert!(!json.is_empty(), "{query}");
        let rows = sheet_rows(&download(&app, &s, &with(&query, "format=xlsx"), "csr.xlsx").await, "Customers");
        let got: Vec<(String, String)> = rows[1..].iter().map(|r| (text(&r[0]), text(&r[1]))).collect();
        let want: Vec<(String, String)> = json.iter().map(|c| (c["name"].as_str().unwrap().to_string(), c["code"].as_str().unwrap().to_string())).collect();
        assert_eq!(got, want, "customers{query}");
    }
    let all = json_all(&app, &s, "/api/customers").await;
    assert!(all.len() > 5 * CHUNK);
    assert!(all.iter().filter(|c| c["name"] == "Same Name Tyres").count() > 2, "ties on the name cross chunks");
}

#[tokio::test]
async fn an_unknown_format_is_refused_by_name() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").in_org(4).await;
    for path in ["/api/orders?format=csv", "/api/products?format=pdf", "/api/customers?format=XLSX", "/api/products?ids=1&format=json"] {
        let res = app.get(path, Some(&s)).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
        let body = res.json();
        assert!(body["errors"]["format"].as_str().unwrap().contains("format=xlsx"), "{path}: {body}");
    }
    let plain = app.get("/api/customers?format=", Some(&s)).await;
    assert_eq!(plain.status, StatusCode::OK, "an empty format is dropped like any empty filter");
    assert!(plain.json()["data"].is_array());
}

#[tokio::test]
async fn another_companys_rows_never_appear() {
    let app = TestApp::new().with_export_chunk(CHUNK).await;
    app.state
        .db
        .write(|c| {
            diesel::update(orders::table.filter(orders::org_id.eq(9))).set(orders::reference.eq("OTHER-CO-REF")).execute(c)?;
            diesel::update(customers::table.filter(customers::org_id.eq(9))).set(customers::code.eq("OTHER-CO-CSR")).execute(c)?;
            diesel::update(products::table.filter(products::org_id.eq(9))).set(products::helper_code.eq("OTHER-CO-PRD")).execute(c)?;
            Ok(())
        })
        .await
        .unwrap();
    let mine = app.session_in("sales@demo.test", 4).await;
    let theirs = app.session_in("sales@demo.test", 9).await;
    for (path, file, sheet) in [("/api/orders?format=xlsx", "orders.xlsx", "Orders"), ("/api/customers?format=xlsx", "csr.xlsx", "Customers"), ("/api/products?format=xlsx", "products.xlsx", "Products")] {
        let cells = |bytes: Vec<u8>| sheet_rows(&bytes, sheet).into_iter().flatten().map(|d| text(&d)).collect::<Vec<_>>();
        let own = cells(download(&app, &mine, path, file).await);
        assert!(!own.iter().any(|c| c.starts_with("OTHER-CO")), "{path} shows another company's rows");
        let other = cells(download(&app, &theirs, path, file).await);
        assert!(other.iter().any(|c| c.starts_with("OTHER-CO")), "{path}: the marker is in company 9's own export");
    }
}

#[tokio::test]
async fn the_temporary_file_goes_with_the_download_even_when_abandoned() {
    let (app, s) = TestApp::new().with_export_chunk(CHUNK).with_user("sales@demo.test").in_org(4).await;
    let whole = app.get("/api/orders?format=xlsx", Some(&s)).await;
    assert_eq!(whole.status, StatusCode::OK);
    let len: usize = whole.headers["content-length"].to_str().unwrap().parse().unwrap();
    assert_eq!(len, whole.bytes.len(), "the length is announced");
    assert!(export_files(&app).is_empty(), "{:?}", export_files(&app));

    // A client that reads the headers and goes away.
    let req = Request::get("/invoices?format=xlsx").header("cookie", &s.cookie).body(Body::empty()).unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(export_files(&app).len(), 1, "the file is there while it is being sent");
    drop(res);
    assert!(export_files(&app).is_empty(), "{:?}", export_files(&app));
}

#[tokio::test]
async fn a_failed_write_answers_a_clear_500_and_no_file() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").in_org(4).await;
    // A plain file where the temporary folder should be: nothing can be written there.
    std::fs::write(app.state.config.data_dir.join("tmp"), b"in the way").unwrap();
    let res = app.get("/api/orders?format=xlsx", Some(&s)).await;
    assert_eq!(res.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(res.json()["message"].as_str().unwrap().contains("could not be written on the server"), "{}", res.body);
    let page = app.get("/customers?format=xlsx", Some(&s)).await;
    assert_eq!(page.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(page.body.contains("could not be written on the server"), "the screens say so too");
    assert!(page.headers.get("content-disposition").is_none(), "no partial download");
}

#[tokio::test]
async fn a_spreadsheet_is_sent_as_is_even_to_a_client_that_accepts_gzip() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = app.request(axum::http::Method::GET, "/api/orders?type=1&format=xlsx", None, None, &[("cookie", &s.cookie), ("accept-encoding", "gzip, br")]).await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.headers.get("content-encoding").is_none(), "a zip file is not compressed again");
    assert_eq!(res.headers["content-length"].to_str().unwrap(), res.bytes.len().to_string());
    assert!(sheet_rows(&res.bytes, "Orders").len() > 1);
    // Pages are still compressed.
    let page = app.request(axum::http::Method::GET, "/invoices", None, None, &[("cookie", &s.cookie), ("accept-encoding", "gzip")]).await;
    assert_eq!(page.headers.get("content-encoding").and_then(|v| v.to_str().ok()), Some("gzip"));
}

#[tokio::test]
async fn an_ids_list_is_bounded_to_a_sheets_worth() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let many = (1..=1_001).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    for path in [format!("/api/products?ids={many}"), format!("/api/products?ids={many}&format=xlsx")] {
        let res = app.get(&path, Some(&s)).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
        assert_eq!(res.json()["errors"]["ids"], "Ask for at most 1000 ids at a time.");
    }
    let ok = app.get("/api/products?ids=1,2,3", Some(&s)).await;
    assert_eq!(ok.status, StatusCode::OK);
}

/// The sheets of company 4 of every type, as the API's JSON list counts them.
async fn sheets_of_every_type(app: &TestApp, s: &Session) -> i64 {
    app.get("/api/orders?per_page=1", Some(s)).await.json()["meta"]["total"].as_i64().expect("a total")
}

#[tokio::test]
async fn an_export_of_more_sheets_than_a_request_waits_for_is_prepared_in_the_download_center() {
    let (app, s) = TestApp::new().with_export_chunk(CHUNK).with_export_direct_max(5).with_user("approver@demo.test").in_org(4).await;
    let every = sheets_of_every_type(&app, &s).await;
    assert!(every > 5, "the demo company has more sheets than the limit: {every}");

    let res = app.get("/api/orders?format=xlsx", Some(&s)).await;
    assert_eq!(res.status, StatusCode::ACCEPTED, "{}", res.body);
    let answer = res.json();
    assert!(answer["message"].as_str().unwrap().contains("prepared in the Download Center"), "{answer}");
    assert_eq!((answer["data"]["type"].as_str(), answer["data"]["title"].as_str()), (Some("sheetsExport"), Some("Sheets export")));
    let id = answer["data"]["id"].as_i64().unwrap();
    // Asked again while it waits: the same job, not a second one.
    let again = app.get("/api/orders?format=xlsx", Some(&s)).await;
    assert_eq!((again.status, again.json()["data"]["id"].as_i64()), (StatusCode::ACCEPTED, Some(id)));

    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let list = app.get("/api/reports", Some(&s)).await.json();
    let job = list["data"].as_array().unwrap().iter().find(|j| j["id"] == id).cloned().expect("the export is listed");
    assert_eq!(job["state"], "done", "{job}");
    let name = job["name"].as_str().unwrap();
    let file = download(&app, &s, &format!("/api/download/{name}"), "orders-all.xlsx").await;
    let rows = sheet_rows(&file, "Orders");
    assert_eq!(rows.len() as i64 - 1, every, "the file has every sheet, as the list counts them");
    let numbers: Vec<String> = rows[1..].iter().map(|r| text(&r[0])).collect();
    let listed: Vec<String> = json_all(&app, &s, "/api/orders").await.iter().map(|o| o["no"].as_str().unwrap_or_default().to_string()).collect();
    assert_eq!(numbers, listed, "in the list's order");
    assert!(export_files(&app).is_empty(), "no temporary file is left: {:?}", export_files(&app));
}

#[tokio::test]
async fn up_to_the_limit_the_export_is_the_download_itself() {
    let (app, s) = TestApp::new().with_export_chunk(CHUNK).with_user("approver@demo.test").in_org(4).await;
    let every = sheets_of_every_type(&app, &s).await;
    let app = TestApp::new().with_export_chunk(CHUNK).with_export_direct_max(every).start().await;
    let s = app.session_in("approver@demo.test", 4).await;
    let rows = sheet_rows(&download(&app, &s, "/api/orders?format=xlsx", "orders.xlsx").await, "Orders");
    assert_eq!(rows.len() as i64 - 1, every);
    let jobs = app.get("/api/reports", Some(&s)).await.json();
    assert!(jobs["data"].as_array().unwrap().iter().all(|j| j["type"] != "sheetsExport"), "no job: {jobs}");
}

#[tokio::test]
async fn the_screens_export_past_the_limit_opens_the_download_center_saying_why() {
    let (app, s) = TestApp::new().with_export_direct_max(1).with_user("approver@demo.test").in_org(4).await;
    let res = app.get("/invoices?format=xlsx", Some(&s)).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert!(res.location().starts_with("/reports_download"), "{}", res.location());
    let page = app.get(res.location(), Some(&s)).await;
    assert!(page.body.contains("More than 1 sheets match, too many to wait for"), "the notice says why: {}", page.body);
    assert!(page.body.contains("Sheets export") && page.body.contains("All dates"), "the job is listed");
    // A filter that matches no more than the limit downloads at once.
    let first: String = app.state.db.run(|c| Ok(orders::table.filter(orders::org_id.eq(4)).filter(orders::order_type.eq(1)).order(orders::id).select(orders::no).first(c)?)).await.unwrap();
    download(&app, &s, &format!("/invoices?no={first}&format=xlsx"), "orders.xlsx").await;
}

#[tokio::test]
async fn an_export_job_showing_purchase_amounts_is_hidden_from_those_who_may_not_see_cost() {
    let (app, approver) = TestApp::new().with_export_direct_max(1).with_user("approver@demo.test").in_org(4).await;
    let res = app.get("/api/orders?format=xlsx", Some(&approver)).await;
    assert_eq!(res.status, StatusCode::ACCEPTED, "{}", res.body);
    while services::jobs::files::run_once(&app.state.core).await.unwrap().is_some() {}
    let mine = app.get("/api/reports", Some(&approver)).await.json();
    let name = mine["data"].as_array().unwrap().iter().find(|j| j["type"] == "sheetsExport").and_then(|j| j["name"].as_str()).expect("done").to_string();
    let sales = app.session_in("sales@demo.test", 4).await;
    let theirs = app.get("/api/reports", Some(&sales)).await.json();
    assert!(theirs["data"].as_array().unwrap().iter().all(|j| j["type"] != "sheetsExport"), "not listed: {theirs}");
    assert_eq!(app.get(&format!("/api/download/{name}"), Some(&sales)).await.status, StatusCode::NOT_FOUND);
}
