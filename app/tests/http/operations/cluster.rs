//! Issue 37, the three-process cluster: HAProxy (Debian's) in front of three `tyredesk
//! serve` processes on one PostgreSQL and one S3-compatible store (moto), each process with a
//! data directory of its own. One person signs in, lists, approves a sheet, asks for a
//! report and downloads it through the balancer while one process is killed with SIGKILL and
//! another restarted. Runs on PostgreSQL with `TEST_S3_ENDPOINT` and `haproxy` on the path
//! (skipped with a notice otherwise, unless `CI_REQUIRE_SERVICES=1`).

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use diesel::prelude::*;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::json;
use db::DatabaseUrl;

use super::object_storage::{Bucket, endpoint};
use super::scale_out::{Http, cookie, send};
use crate::support::{ServerProcess as Server, TestApp, extract_input};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn haproxy() -> Option<std::path::PathBuf> {
    let found = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].iter().map(std::path::PathBuf::from).find(|p| p.exists());
    if found.is_none() {
        if std::env::var("CI_REQUIRE_SERVICES").as_deref() == Ok("1") {
            panic!("haproxy is not installed (Debian package haproxy; .ci/run installs it) and CI_REQUIRE_SERVICES=1");
        }
        println!("skipped: haproxy is not installed (Debian package haproxy)");
    }
    found
}

/// The balancer as an operator would run it (docs/operations.md): health checks on
/// `/healthz`, a request whose connection failed is sent to another process, and a GET or
/// HEAD that a process closed without answering too (never a write it may have committed).
fn config(lb: u16, ports: &[u16]) -> String {
    let servers: String = ports.iter().enumerate().map(|(i, p)| format!("  server s{i} 127.0.0.1:{p} check\n")).collect();
    format!(
        "global\n  maxconn 256\ndefaults\n  mode http\n  timeout connect 2s\n  timeout client 60s\n  timeout server 60s\n  retries 3\n  option redispatch 1\n  retry-on conn-failure empty-response\n  http-reuse never\n\
         frontend web\n  bind 127.0.0.1:{lb}\n  default_backend tyredesk\n\
         backend tyredesk\n  balance roundrobin\n  http-request disable-l7-retry if !METH_GET\n  option httpchk GET /healthz\n  http-check expect status 200\n  default-server inter 300ms fall 2 rise 2\n{servers}"
    )
}

struct Balancer(std::process::Child);

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(url: &str, dir: &std::path::Path, port: u16, bucket: &Bucket) -> Server {
    let bind = format!("127.0.0.1:{port}");
    let mut env = bucket.env();
    env.push(("TYREDESK_BIND", bind));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Server::start(url, dir, &env)
}

#[tokio::test]
async fn three_processes_behind_haproxy_survive_a_kill_and_a_restart() {
    let Some(s3) = endpoint("three_processes_behind_haproxy_survive_a_kill_and_a_restart") else { return };
    let Some(haproxy) = haproxy() else { return };
    let app = TestApp::new().await;
    let DatabaseUrl::Postgres(url) = app.state.config.database.clone() else {
        return; // SQLite serves from one process.
    };
    let bucket = Bucket::create(&s3).await;
    let dirs: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let mut servers: Vec<Option<Server>> = (0..3).map(|i| Some(start(&url, dirs[i].path(), ports[i], &bucket))).collect();
    let lb_port = free_port();
    let cfg_dir = tempfile::tempdir().unwrap();
    let cfg = cfg_dir.path().join("haproxy.cfg");
    std::fs::write(&cfg, config(lb_port, &ports)).unwrap();
    let check = std::process::Command::new(&haproxy).arg("-c").arg("-f").arg(&cfg).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let _lb = Balancer(std::process::Command::new(&haproxy).arg("-db").arg("-f").arg(&cfg).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap());
    let base = format!("http://127.0.0.1:{lb_port}");
    let http: Http = Client::builder(TokioExecutor::new()).pool_max_idle_per_host(0).build_http();
    let started = Instant::now();
    while !send_ok(&http, &format!("{base}/healthz")).await {
        assert!(started.elapsed() < Duration::from_secs(30), "the balancer did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Sign in through the balancer with the real form.
    let page = send(&http, Method::GET, &format!("{base}/login"), &[], None).await;
    let pre = cookie(&page, "td_pre").expect("pre-session cookie");
    let form = serde_urlencoded::to_string([("_csrf", extract_input(&page.body, "_csrf").as_str()), ("email", "approver@demo.test"), ("password", "tyredesk")]).unwrap();
    let signed = send(&http, Method::POST, &format!("{base}/login"), &[("cookie", &format!("td_pre={pre}"))], Some(("application/x-www-form-urlencoded", form))).await;
    assert_eq!(signed.status, StatusCode::SEE_OTHER, "{}", signed.body);
    let session = cookie(&signed, "td_session").expect("session cookie");
    let csrf = web::auth::csrf::token_for(&session);
    let cookie_header = format!("td_session={session}");
    let auth: [(&str, &str); 2] = [("cookie", &cookie_header), ("x-csrf-token", &csrf)];
    let lb = |path: String| get(&http, &base, auth, path);

    // Save and approve an invoice, ask for a report.
    let warehouse = serde_json::from_str::<serde_json::Value>(&lb("/api/warehouses".into()).await.body).unwrap()["data"][0]["id"].as_i64().unwrap();
    let customers: serde_json::Value = serde_json::from_str(&lb("/api/customers?per_page=20".into()).await.body).unwrap();
    let customer = customers["data"].as_array().unwrap().iter().find(|c| c["creditLimit"].as_i64() == Some(0)).expect("a customer without a credit limit")["id"].as_i64().unwrap();
    let product = serde_json::from_str::<serde_json::Value>(&lb("/api/products?per_page=1&key=r16".into()).await.body).unwrap()["data"][0]["id"].clone();
    let invoice = json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "lines": [{"seq": 1, "productId": product, "quantity": 1, "price": 10_000}]});
    let saved = send(&http, Method::POST, &format!("{base}/api/orders"), &auth, Some(("application/json", invoice.to_string()))).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let id = serde_json::from_str::<serde_json::Value>(&saved.body).unwrap()["data"]["id"].as_i64().unwrap();
    let today = domain::dates::today(domain::dates::DEFAULT_ZONE);
    let body = json!({"type": "invoiceDetails", "dateRange": [(today - chrono::Duration::days(90)).to_string(), today.to_string()]});
    let asked = send(&http, Method::POST, &format!("{base}/api/reports"), &auth, Some(("application/json", body.to_string()))).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.body);
    let job = serde_json::from_str::<serde_json::Value>(&asked.body).unwrap()["data"]["id"].as_i64().unwrap();

    // Kill the first process outright: what it would have answered goes to the others.
    drop(servers[0].take());
    for _ in 0..12 {
        lb("/api/orders?per_page=20".into()).await;
    }
    let approve = json!({"warehouseId": warehouse, "confirmed": true});
    let approved = send(&http, Method::POST, &format!("{base}/api/orders/{id}/approve"), &auth, Some(("application/json", approve.to_string()))).await;
    assert_eq!(approved.status, StatusCode::OK, "{}", approved.body);

    // Restart the second while requests keep coming.
    drop(servers[1].take());
    for _ in 0..6 {
        lb("/api/orders?per_page=20".into()).await;
    }
    servers[1] = Some(start(&url, dirs[1].path(), ports[1], &bucket));
    let name = loop {
        let list: serde_json::Value = serde_json::from_str(&lb("/api/reports".into()).await.body).unwrap();
        let j = list["data"].as_array().unwrap().iter().find(|j| j["id"] == job).cloned().expect("the report is listed");
        if j["state"] == "done" {
            break j["name"].as_str().unwrap().to_string();
        }
        assert_ne!(j["state"], "failed", "{j}");
        assert!(started.elapsed() < Duration::from_secs(150), "the report is still waiting: {j}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    // The restarted process takes its share again; every download has the stored bytes.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stored = bucket.object(&format!("reports/4/{name}")).await.expect("the report is in the bucket");
    for _ in 0..6 {
        let file = lb(format!("/api/download/{name}")).await;
        assert_eq!(file.headers["content-length"], stored.len().to_string().as_str(), "the whole file, as stored");
    }
    for (i, s) in servers.iter().enumerate() {
        if let Some(s) = s {
            let direct = send(&http, Method::GET, &format!("{}/api/download/{name}", s.base), &auth, None).await;
            assert_eq!(direct.status, StatusCode::OK, "process {i} serves the file too");
        }
    }
    assert!(lb(format!("/api/orders/{id}")).await.body.contains("\"status\":2"), "approved once, and it stays approved");

    // The jobs table: the report ran once, nothing lost.
    let rows = app
        .state
        .db
        .run(move |c| {
            use db::schema::jobs;
            Ok(jobs::table.filter(jobs::queue.eq("report")).select((jobs::id, jobs::state, jobs::attempts)).load::<(i64, i32, i32)>(c)?)
        })
        .await
        .unwrap();
    assert_eq!(rows, vec![(job, 2, 1)], "one report, done, run once");
}

/// A GET through the balancer that must answer 200: the balancer retried it if its
/// connection failed.
async fn get(http: &Http, base: &str, auth: [(&str, &str); 2], path: String) -> super::scale_out::Answer {
    let res = send(http, Method::GET, &format!("{base}{path}"), &auth, None).await;
    assert_eq!(res.status, StatusCode::OK, "GET {path} through the balancer: {}", res.body);
    res
}

async fn send_ok(http: &Http, url: &str) -> bool {
    let req = axum::http::Request::get(url).body(Default::default()).unwrap();
    http.request(req).await.is_ok_and(|r| r.status() == StatusCode::OK)
}
