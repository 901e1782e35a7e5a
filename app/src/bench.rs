//! `tyredesk bench`: generates a data set deterministically, serves it on loopback, runs the
//! scenarios of DESIGN §10 over real HTTP and prints p50/p95 beside the raw database time of
//! the same queries.

use std::time::{Duration, Instant};

use diesel::prelude::*;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::config::{Config, DatabaseUrl};
use crate::db::accounts;
use crate::db::orders::{self as order_db, OrderFilter};
use crate::db::products::{self, ProductFilter};
use crate::db::schema::{customers, orders, products as products_t, warehouses};
use crate::seed::{self, Scale};
use crate::services::quoting::{self, QuoteFilter};
use crate::state::AppState;

/// A keep-alive HTTP/1.1 client over one loopback connection (no TLS, no redirects).
struct Client {
    stream: BufReader<TcpStream>,
    host: String,
    cookie: String,
    csrf: String,
}

impl Client {
    async fn send(&mut self, method: &str, path: &str, json: Option<&str>) -> anyhow::Result<(u16, Vec<u8>)> {
        let body = json.unwrap_or("");
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\nAccept: */*\r\n", self.host, self.cookie);
        if json.is_some() {
            req.push_str(&format!("Content-Type: application/json\r\nX-CSRF-Token: {}\r\nContent-Length: {}\r\n", self.csrf, body.len()));
        }
        req.push_str("\r\n");
        req.push_str(body);
        self.stream.get_mut().write_all(req.as_bytes()).await?;
        let mut status_line = String::new();
        self.stream.read_line(&mut status_line).await?;
        let status: u16 = status_line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let (mut length, mut chunked) = (0usize, false);
        loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).await?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            } else if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
                chunked = true;
            }
        }
        let mut out = Vec::new();
        if chunked {
            loop {
                let mut size = String::new();
                self.stream.read_line(&mut size).await?;
                let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
                let mut chunk = vec![0u8; n + 2];
                self.stream.read_exact(&mut chunk).await?;
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&chunk[..n]);
            }
        } else {
            out.resize(length, 0);
            self.stream.read_exact(&mut out).await?;
        }
        Ok((status, out))
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

struct Row {
    name: &'static str,
    budget_ms: f64,
    http: Vec<Duration>,
    sql: Vec<Duration>,
}

/// Runs the benchmark; prints a table and returns whether every p95 met its budget.
pub async fn run(config: Config, scale: Scale, requests: usize) -> anyhow::Result<bool> {
    let cleanup = match &config.database {
        DatabaseUrl::Sqlite(path) => {
            let _ = std::fs::remove_file(path);
            Some(config.data_dir.clone())
        }
        DatabaseUrl::Postgres(_) => None,
    };
    let db = crate::server::open(&config).map_err(anyhow::Error::msg)?;
    let today = crate::domain::dates::today(crate::domain::dates::DEFAULT_ZONE);
    let started = Instant::now();
    {
        let mut conn = db.get()?;
        seed::seed(&mut conn, scale, today).map_err(|e| anyhow::anyhow!("seeding failed: {e}"))?;
    }
    println!("Seeded {scale:?} in {:.1} s on {}", started.elapsed().as_secs_f64(), config.database.redacted());
    let state = AppState::new(config, db.clone())?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let app = crate::router(state.clone());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    type Fixture = (i64, String, i64, Vec<(i64, i64)>, i64, Vec<i64>);
    let (user, email, customer, lines, warehouse, detail_ids): Fixture = db
        .run(|c| {
            let user = accounts::user_by_email(c, "approver@demo.test")?.map(|u| (u.id, u.email)).unwrap_or((0, String::new()));
            let customer: i64 = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.ne(10)).filter(customers::credit_limit.eq(0)).select(customers::id).first(c)?;
            let lines: Vec<(i64, i64)> = products_t::table.filter(products_t::org_id.eq(4)).filter(products_t::category.eq(1)).select((products_t::id, products_t::class_a_price)).limit(20).load(c)?;
            let warehouse: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).select(warehouses::id).first(c)?;
            let ids: Vec<i64> = orders::table.filter(orders::org_id.eq(4)).filter(orders::order_type.eq(1)).order(orders::id.desc()).limit(200).select(orders::id).load(c)?;
            Ok((user.0, user.1, customer, lines, warehouse, ids))
        })
        .await?;
    let (token, _) = db.run(move |c| accounts::create_session(c, user, 4)).await?;
    let mut client = Client {
        stream: BufReader::new(TcpStream::connect(addr).await?),
        host: addr.to_string(),
        cookie: format!("{}={token}", crate::auth::SESSION_COOKIE),
        csrf: crate::auth::csrf::token_for(&token),
    };
    println!("Signed in as {email}; {requests} requests per scenario over http://{addr}\n");
    let mut rows = Vec::new();

    let mut row = Row { name: "price lookup (2055516)", budget_ms: 15.0, http: vec![], sql: vec![] };
    for i in 0..requests + 3 {
        let t = Instant::now();
        let (status, _) = client.send("GET", "/api/quotings?key=2055516&per_page=20", None).await?;
        anyhow::ensure!(status == 200, "price lookup answered {status}");
        if i >= 3 {
            row.http.push(t.elapsed());
        }
        let t = Instant::now();
        db.run(|c| quoting::lookup(c, 4, &QuoteFilter { key: Some("2055516".into()), ..Default::default() }, 0, 20).map(|_| ())).await?;
        row.sql.push(t.elapsed());
    }
    rows.push(row);

    let mut row = Row { name: "invoice list, 150 rows, filtered", budget_ms: 30.0, http: vec![], sql: vec![] };
    for i in 0..requests + 3 {
        let t = Instant::now();
        let (status, _) = client.send("GET", "/invoices?status=2&per_page=150", None).await?;
        anyhow::ensure!(status == 200, "invoice list answered {status}");
        if i >= 3 {
            row.http.push(t.elapsed());
        }
        let t = Instant::now();
        db.run(|c| {
            let f = OrderFilter { order_type: Some("1".into()), status: Some(2), ..Default::default() };
            order_db::list(c, 4, &[1, 2], &f, 0, 150).map(|_| ())
        })
        .await?;
        row.sql.push(t.elapsed());
    }
    rows.push(row);

    let mut row = Row { name: "order detail", budget_ms: 10.0, http: vec![], sql: vec![] };
    for i in 0..requests + 3 {
        let id = detail_ids[i % detail_ids.len().max(1)];
        let t = Instant::now();
        let (status, _) = client.send("GET", &format!("/order_detail/invoices/{id}"), None).await?;
        anyhow::ensure!(status == 200, "order detail answered {status}");
        if i >= 3 {
            row.http.push(t.elapsed());
        }
        let t = Instant::now();
        db.run(move |c| {
            order_db::get(c, 4, id)?;
            order_db::lines_of(c, id)?;
            order_db::events_of(c, id).map(|_| ())
        })
        .await?;
        row.sql.push(t.elapsed());
    }
    rows.push(row);

    let mut row = Row { name: "save + approve a 20-line invoice", budget_ms: 25.0, http: vec![], sql: vec![] };
    let body_lines: Vec<serde_json::Value> =
        lines.iter().enumerate().map(|(i, (p, price))| serde_json::json!({"seq": i + 1, "productId": p, "quantity": 1, "price": price})).collect();
    let body = serde_json::json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "lines": body_lines}).to_string();
    for _ in 0..requests {
        let t = Instant::now();
        let (status, created) = client.send("POST", "/api/orders", Some(&body)).await?;
        anyhow::ensure!(status == 200, "saving answered {status}: {}", String::from_utf8_lossy(&created));
        let id = serde_json::from_slice::<serde_json::Value>(&created)?["data"]["id"].as_i64().unwrap_or(0);
        let (status, answer) = client.send("POST", &format!("/api/orders/{id}/approve"), Some(&format!("{{\"warehouseId\":{warehouse},\"confirmed\":true}}"))).await?;
        anyhow::ensure!(status == 200, "approving answered {status}: {}", String::from_utf8_lossy(&answer));
        row.http.push(t.elapsed());
    }
    rows.push(row);

    let mut row = Row { name: "product list, Item Key r16", budget_ms: 30.0, http: vec![], sql: vec![] };
    for i in 0..requests + 3 {
        let t = Instant::now();
        let (status, _) = client.send("GET", "/products?key=r16", None).await?;
        anyhow::ensure!(status == 200, "product list answered {status}");
        if i >= 3 {
            row.http.push(t.elapsed());
        }
        let t = Instant::now();
        db.run(|c| products::list(c, 4, &ProductFilter { key: Some("r16".into()), ..Default::default() }, 0, 20).map(|_| ())).await?;
        row.sql.push(t.elapsed());
    }
    rows.push(row);

    println!("{:<36} {:>10} {:>10} {:>10} {:>10} {:>8}", "scenario", "p50 ms", "p95 ms", "sql p50", "budget", "result");
    let mut all_ok = true;
    for mut r in rows {
        r.http.sort();
        r.sql.sort();
        let p95 = percentile(&r.http, 0.95);
        let ok = p95.as_secs_f64() * 1000.0 <= r.budget_ms;
        all_ok &= ok;
        let sql = if r.sql.is_empty() { "-".to_string() } else { ms(percentile(&r.sql, 0.5)) };
        println!("{:<36} {:>10} {:>10} {:>10} {:>10} {:>8}", r.name, ms(percentile(&r.http, 0.5)), ms(p95), sql, format!("{:.0}", r.budget_ms), if ok { "ok" } else { "OVER" });
    }
    if let Some(dir) = cleanup {
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }
    Ok(all_ok)
}
