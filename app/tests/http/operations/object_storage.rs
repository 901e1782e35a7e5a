//! Issue 37, files in object storage: real `tyredesk serve` processes keep report files,
//! queued import uploads and backups in a real S3-compatible server (moto in server mode,
//! started by `.ci/run` and named by `TEST_S3_ENDPOINT`), each process with a data directory
//! of its own. Skipped with a notice when `TEST_S3_ENDPOINT` is unset, unless
//! `CI_REQUIRE_SERVICES=1`.

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use diesel::prelude::*;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::json;
use db::DatabaseUrl;
use db::schema::suppliers;

use super::scale_out::{Http, send, wait_until_up};
use crate::support::{ServerProcess as Server, Session, TestApp};

/// The S3-compatible server's address, or `None` (skipped) when the tests have none.
pub(crate) fn endpoint(test: &str) -> Option<String> {
    match std::env::var("TEST_S3_ENDPOINT").ok().filter(|e| !e.is_empty()) {
        Some(e) => Some(e.trim_end_matches('/').to_string()),
        None if std::env::var("CI_REQUIRE_SERVICES").as_deref() == Ok("1") => {
            panic!("{test}: TEST_S3_ENDPOINT is not set (an S3-compatible server, e.g. moto_server; .ci/run starts one) and CI_REQUIRE_SERVICES=1")
        }
        None => {
            println!("{test}: skipped, TEST_S3_ENDPOINT is not set (an S3-compatible server; .ci/run starts moto_server)");
            None
        }
    }
}

/// A bucket of this test's own on the server, and the settings a process uses to reach it.
pub(crate) struct Bucket {
    endpoint: String,
    name: String,
    /// A client of our own onto the bucket, to read what the servers stored.
    s3: object_store::aws::AmazonS3,
}

impl Bucket {
    pub(crate) async fn create(endpoint: &str) -> Self {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        let name = format!("td-{}-{n}-{nanos}", std::process::id());
        let http: Http = Client::builder(TokioExecutor::new()).build_http();
        let made = send(&http, Method::PUT, &format!("{endpoint}/{name}"), &[], None).await;
        assert_eq!(made.status, StatusCode::OK, "creating bucket {name}: {}", made.body);
        let s3 = object_store::aws::AmazonS3Builder::new()
            .with_endpoint(endpoint)
            .with_allow_http(true)
            .with_region("us-east-1")
            .with_access_key_id("test")
            .with_secret_access_key("test")
            .with_bucket_name(&name)
            .build()
            .unwrap();
        Self { endpoint: endpoint.to_string(), name, s3 }
    }

    /// The environment of a process using this bucket under the prefix `tyredesk`.
    pub(crate) fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("TYREDESK_STORAGE_URL", format!("s3://{}/tyredesk", self.name)),
            ("AWS_ENDPOINT", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
        ]
    }

    /// The object's bytes read straight from the S3 server, or `None` when it has none.
    pub(crate) async fn object(&self, key: &str) -> Option<Vec<u8>> {
        use object_store::ObjectStore;
        match self.s3.get(&object_store::path::Path::parse(format!("tyredesk/{key}")).unwrap()).await {
            Ok(got) => Some(got.bytes().await.unwrap().to_vec()),
            Err(object_store::Error::NotFound { .. }) => None,
            Err(e) => panic!("reading {key}: {e}"),
        }
    }

    /// The keys under `prefix` (below `tyredesk/`), from the server's own listing.
    async fn keys(&self, prefix: &str) -> Vec<String> {
        use futures::TryStreamExt;
        use object_store::ObjectStore;
        let listed: Vec<_> = self.s3.list(Some(&object_store::path::Path::parse(format!("tyredesk/{prefix}")).unwrap())).try_collect().await.unwrap();
        listed.into_iter().map(|m| m.location.to_string().trim_start_matches("tyredesk/").to_string()).collect()
    }
}

fn start(url: &str, data: &std::path::Path, bucket: &Bucket) -> Server {
    let env = bucket.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Server::start(url, data, &env)
}

fn database(app: &TestApp) -> String {
    match &app.state.config.database {
        DatabaseUrl::Postgres(url) => url.clone(),
        DatabaseUrl::Sqlite(path) => path.to_string_lossy().into_owned(),
    }
}

fn headers(s: &Session) -> [(&str, &str); 2] {
    [("cookie", &s.cookie), ("x-csrf-token", &s.csrf)]
}

/// Posts `file` as the one part of a multipart form, `(field, file name, content type)`, with
/// the session and its form secret; answers the status and the body.
async fn upload(http: &Http, url: &str, s: &Session, (field, name, kind): (&str, &str, &str), file: &[u8]) -> (StatusCode, String) {
    let mut body = format!("--B0UND\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\nContent-Type: {kind}\r\n\r\n").into_bytes();
    body.extend(file);
    body.extend(b"\r\n--B0UND--\r\n");
    let req = axum::http::Request::post(url)
        .header("cookie", &s.cookie)
        .header("x-csrf-token", &s.csrf)
        .header("content-type", "multipart/form-data; boundary=B0UND")
        .body(http_body_util::Full::new(axum::body::Bytes::from(body)))
        .unwrap();
    let res = http.request(req).await.unwrap();
    let status = res.status();
    (status, String::from_utf8_lossy(&http_body_util::BodyExt::collect(res.into_body()).await.unwrap().to_bytes()).into_owned())
}

/// Asks `server` for a year's invoice details and waits until the job is done; answers the
/// file's name.
async fn report(http: &Http, server: &Server, s: &Session) -> String {
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    let body = json!({"type": "invoiceDetails", "dateRange": [(today - chrono::Duration::days(365)).to_string(), today.to_string()]});
    let asked = send(http, Method::POST, &format!("{}/api/reports", server.base), &headers(s), Some(("application/json", body.to_string()))).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.body);
    let id = serde_json::from_str::<serde_json::Value>(&asked.body).unwrap()["data"]["id"].as_i64().unwrap();
    let job = wait_for_job(http, server, s, id).await;
    assert_eq!(job["state"], "done", "{job}");
    job["name"].as_str().unwrap().to_string()
}

async fn wait_for_job(http: &Http, server: &Server, s: &Session, id: i64) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let list = send(http, Method::GET, &format!("{}/api/reports", server.base), &headers(s), None).await;
        let list: serde_json::Value = serde_json::from_str(&list.body).unwrap();
        let job = list["data"].as_array().unwrap().iter().find(|j| j["id"] == id).cloned().expect("the job is listed");
        if job["state"] == "done" || job["state"] == "failed" {
            return job;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "job {id} still waiting: {job}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn reports_and_import_uploads_live_in_the_s3_store() {
    let Some(endpoint) = endpoint("reports_and_import_uploads_live_in_the_s3_store") else { return };
    let bucket = Bucket::create(&endpoint).await;
    let app = TestApp::new().await;
    let data = tempfile::tempdir().unwrap();
    let server = start(&database(&app), data.path(), &bucket);
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    wait_until_up(&http, &server).await;
    let s = app.session("approver@demo.test").await;

    // A report: written by the job into the bucket, downloaded with its headers, the same bytes.
    let name = report(&http, &server, &s).await;
    let stored = bucket.object(&format!("reports/4/{name}")).await.expect("the report is in the bucket, in company 4's folder");
    let url = format!("{}/api/download/{name}", server.base);
    let res = http.request(axum::http::Request::get(&url).header("cookie", &s.cookie).body(Default::default()).unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let head = res.headers().clone();
    let body = http_body_util::BodyExt::collect(res.into_body()).await.unwrap().to_bytes().to_vec();
    assert!(body == stored, "the download ({} bytes) is the stored object ({} bytes)", body.len(), stored.len());
    assert!(body.starts_with(b"PK"), "an xlsx (zip)");
    assert_eq!(head["content-length"], body.len().to_string().as_str());
    assert_eq!(head["content-type"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    assert!(head["content-disposition"].to_str().unwrap().starts_with("attachment; filename=\"invoiceDetails-"), "{:?}", head["content-disposition"]);
    assert!(!data.path().join("reports").exists(), "nothing written to the process's data directory");

    // Another company's person asks for the same name: not found, though the object exists.
    let other = app.session_in("multi@demo.test", 9).await;
    let theirs = send(&http, Method::GET, &url, &headers(&other), None).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);

    // A large import: the upload waits in the bucket, the job reads it back and removes it.
    let (status, text) = upload(&http, &format!("{}/api/ag/import", server.base), &s, ("file", "suppliers.xlsx", "application/octet-stream"), &suppliers_book(2_100)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{text}");
    let job = serde_json::from_str::<serde_json::Value>(&text).unwrap()["jobId"].as_i64().unwrap();
    let done = wait_for_job(&http, &server, &s, job).await;
    assert_eq!(done["state"], "done", "{done}");
    assert!(done["dateRange"].as_str().unwrap().contains("2100 created"), "{done}");
    let n: i64 = app.state.db.run(|c| Ok(suppliers::table.filter(suppliers::org_id.eq(4)).filter(suppliers::code.like("S3-%")).count().get_result(c)?)).await.unwrap();
    assert_eq!(n, 2_100, "every row of the stored upload was imported");
    assert!(bucket.keys("imports").await.is_empty(), "the upload is removed once it has served");
    assert!(!data.path().join("imports").exists(), "the upload never touched the data directory");
}

/// A one-sheet workbook `Suppliers` of `n` new suppliers (more than an import answers inline).
fn suppliers_book(n: u32) -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name("Suppliers").unwrap();
    ws.write_string(0, 0, "Code").unwrap();
    ws.write_string(0, 1, "Name").unwrap();
    for i in 0..n {
        ws.write_string(i + 1, 0, format!("S3-{i:05}")).unwrap();
        ws.write_string(i + 1, 1, format!("Stored Supplier {i}")).unwrap();
    }
    wb.save_to_buffer().unwrap()
}

#[tokio::test]
async fn a_second_process_serves_the_first_ones_report_and_logo() {
    let Some(endpoint) = endpoint("a_second_process_serves_the_first_ones_report_and_logo") else { return };
    let app = TestApp::new().await;
    let DatabaseUrl::Postgres(url) = app.state.config.database.clone() else {
        return; // SQLite serves from one process.
    };
    let bucket = Bucket::create(&endpoint).await;
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (a, b) = (start(&url, dir_a.path(), &bucket), start(&url, dir_b.path(), &bucket));
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    wait_until_up(&http, &a).await;
    wait_until_up(&http, &b).await;
    let s = app.session("approver@demo.test").await;

    // Whichever worker wrote it, both processes answer the same bytes.
    let name = report(&http, &a, &s).await;
    let mut bodies = Vec::new();
    for server in [&a, &b] {
        let res = http.request(axum::http::Request::get(format!("{}/api/download/{name}", server.base)).header("cookie", &s.cookie).body(Default::default()).unwrap()).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "through {}", server.base);
        bodies.push(http_body_util::BodyExt::collect(res.into_body()).await.unwrap().to_bytes().to_vec());
    }
    assert!(bodies[0] == bodies[1], "both processes answer the same bytes");
    assert!(Some(&bodies[0]) == bucket.object(&format!("reports/4/{name}")).await.as_ref(), "the bytes stored in the bucket");
    for dir in [&dir_a, &dir_b] {
        assert!(!dir.path().join("reports").exists(), "no report in a process's own folder");
    }

    // A logo uploaded through A is on the invoice printed by B.
    let png: Vec<u8> = [&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a][..], &[7u8; 64][..]].concat();
    let (status, _) = upload(&http, &format!("{}/settings/logo", a.base), &s, ("logo", "logo.png", "image/png"), &png).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // An approved invoice (only those print).
    let invoice: i64 = app
        .state
        .db
        .run(|c| {
            use db::schema::orders;
            Ok(orders::table.filter(orders::org_id.eq(4)).filter(orders::order_type.eq(1)).filter(orders::status.eq(2)).order(orders::id).select(orders::id).first(c)?)
        })
        .await
        .unwrap();
    let printed = send(&http, Method::GET, &format!("{}/order_print/{invoice}", b.base), &headers(&s), None).await;
    assert_eq!(printed.status, StatusCode::OK, "{}", printed.body);
    let src = printed.body.split("src=\"/settings/logo?v=").nth(1).expect("the printed invoice shows the uploaded logo").split('"').next().unwrap().to_string();
    let res = http.request(axum::http::Request::get(format!("{}/settings/logo?v={src}", b.base)).header("cookie", &s.cookie).body(Default::default()).unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(http_body_util::BodyExt::collect(res.into_body()).await.unwrap().to_bytes().to_vec() == png, "the uploaded logo's bytes");
}

#[tokio::test]
async fn a_backup_with_the_s3_store_keeps_its_reports_and_lands_in_the_bucket() {
    let Some(endpoint) = endpoint("a_backup_with_the_s3_store_keeps_its_reports_and_lands_in_the_bucket") else { return };
    let app = TestApp::new().await;
    let DatabaseUrl::Sqlite(_) = app.state.config.database else {
        return; // PostgreSQL is backed up with pg_dump (operations/backup.rs).
    };
    let bucket = Bucket::create(&endpoint).await;
    let data = tempfile::tempdir().unwrap();
    let url = database(&app);
    let server = start(&url, data.path(), &bucket);
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    wait_until_up(&http, &server).await;
    let s = app.session("approver@demo.test").await;
    let name = report(&http, &server, &s).await;
    drop(server);

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tyredesk"))
        .arg("backup")
        .env("DATABASE_URL", &url)
        .env("TYREDESK_DATA_DIR", data.path())
        .envs(bucket.env())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains(&format!("Backup stored: s3://{}/tyredesk/backups/tyredesk-", bucket.name)) && said.contains("1 report files"), "{said}");
    let keys = bucket.keys("backups").await;
    assert_eq!(keys.len(), 1, "{keys:?}");
    let archive = bucket.object(&keys[0]).await.unwrap();
    let unpacked = tempfile::tempdir().unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(&archive[..])).unpack(unpacked.path()).unwrap();
    let report = std::fs::read(unpacked.path().join("reports/4").join(&name)).expect("the report from the bucket is in the archive");
    assert!(Some(&report) == bucket.object(&format!("reports/4/{name}")).await.as_ref(), "the archive holds the stored report's bytes");
    assert!(unpacked.path().join("tyredesk.sqlite3").exists());
    let left: Vec<_> = std::fs::read_dir(data.path().join("tmp")).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "nothing left behind in tmp/: {left:?}");
}

#[tokio::test]
async fn a_store_that_cannot_be_reached_stops_the_start_with_a_clear_message() {
    let Some(endpoint) = endpoint("a_store_that_cannot_be_reached_stops_the_start_with_a_clear_message") else { return };
    let app = TestApp::new().await;
    let data = tempfile::tempdir().unwrap();
    let bucket = Bucket::create(&endpoint).await;
    let mut env = bucket.env();
    env[0].1 = format!("s3://{}-missing/tyredesk", bucket.name);
    let run = |env: &[(&str, String)]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tyredesk"))
            .args(["serve", "--no-demo"])
            .env("DATABASE_URL", database(&app))
            .env("TYREDESK_DATA_DIR", data.path())
            .env("TYREDESK_BIND", "127.0.0.1:0")
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .output()
            .unwrap()
    };
    let out = run(&env);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&format!("cannot write to the file store s3://{}-missing/tyredesk", bucket.name)) && err.contains("TYREDESK_STORAGE_URL"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("TyreDesk is running"), "it never listened");

    env[0].1 = "ftp://files".into();
    let out = run(&env);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("TYREDESK_STORAGE_URL 'ftp://files' is not s3://bucket"), "{err}");
}
