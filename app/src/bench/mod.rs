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
        self.send_body(method, path, json.map(|j| ("application/json", j.as_bytes()))).await
    }

    async fn send_body(&mut self, method: &str, path: &str, body: Option<(&str, &[u8])>) -> anyhow::Result<(u16, Vec<u8>)> {
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\nAccept: */*\r\n", self.host, self.cookie);
        if let Some((content_type, bytes)) = body {
            req.push_str(&format!("Content-Type: {content_type}\r\nX-CSRF-Token: {}\r\nContent-Length: {}\r\n", self.csrf, bytes.len()));
        }
        req.push_str("\r\n");
        let mut raw = req.into_bytes();
        if let Some((_, bytes)) = body {
            raw.extend_from_slice(bytes);
        }
        self.stream.get_mut().write_all(&raw).await?;
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

    let uploads = upload_scenarios(&db, addr, &client, &body).await?;
    let during = uploads.rows.iter().map(|r| (r.http.len(), r.http.iter().max().copied().unwrap_or_default())).next().unwrap_or_default();
    rows.extend(uploads.rows);

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
    println!("\n{:<36} {:>8} {:>8} {:>10} {:>14} {:>12}", "upload (issue 9)", "file MB", "status", "time ms", "RSS before MB", "peak RSS MB");
    for u in &uploads.memory {
        println!("{:<36} {:>8.2} {:>8} {:>10} {:>14.1} {:>12.1}", u.name, u.file_mb, u.status, ms(u.time), u.rss_before_mb, u.peak_mb);
    }
    println!("{} sheets saved during the import; the slowest took {} ms", during.0, ms(during.1));
    if let Some(dir) = cleanup {
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }
    Ok(all_ok)
}

/// Memory of the benchmark process (server and client share it) while one upload ran.
struct UploadMemory {
    name: &'static str,
    file_mb: f64,
    status: u16,
    time: Duration,
    rss_before_mb: f64,
    peak_mb: f64,
}

struct UploadScenarios {
    rows: Vec<Row>,
    memory: Vec<UploadMemory>,
}

/// A field of `/proc/self/status` in MB (Linux only; 0 elsewhere).
fn proc_status_mb(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(field)).and_then(|l| l.split_whitespace().nth(1)).and_then(|kb| kb.parse::<f64>().ok()))
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Resets the peak RSS (VmHWM) so the next reading is the peak of one scenario.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn multipart(file: &[u8]) -> Vec<u8> {
    let mut body = b"--B0UND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n--B0UND--\r\n");
    body
}

const MULTIPART: &str = "multipart/form-data; boundary=B0UND";

/// A ~1.2 MB xlsx whose sheet inflates to 1.2 GB, as in the issue: one cell holding 1.2 GB
/// of text, which an XML reader keeps whole in memory.
fn zip_bomb() -> anyhow::Result<Vec<u8>> {
    use std::io::{Cursor, Write};
    use zip::write::SimpleFileOptions;
    let mut wb = rust_xlsxwriter::Workbook::new();
    wb.add_worksheet().write_string(0, 0, "Item Code")?;
    let base = wb.save_to_buffer()?;
    let mut src = zip::ZipArchive::new(Cursor::new(base))?;
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..src.len() {
        let f = src.by_index_raw(i)?;
        if f.name()? != "xl/worksheets/sheet1.xml" {
            out.raw_copy_file(f)?;
        }
    }
    out.start_file("xl/worksheets/sheet1.xml", SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated).large_file(true))?;
    out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>")?;
    out.write_all(b"<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>")?;
    let text = vec![b'A'; 1 << 20];
    for _ in 0..1_200 {
        out.write_all(&text)?;
    }
    out.write_all(b"</t></is></c></row></sheetData></worksheet>")?;
    Ok(out.finish()?.into_inner())
}

/// An OCOP file of `rows` rows over the company's products and customers.
fn ocop_file(products: &[String], customers: &[String], rows: usize) -> anyhow::Result<Vec<u8>> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    for (c, h) in ["Item Code", "Customer Code", "Price"].iter().enumerate() {
        ws.write_string(0, c as u16, *h)?;
    }
    let p = products.len().max(1);
    for i in 0..rows {
        let r = i as u32 + 1;
        ws.write_string(r, 0, products.get(i % p).map_or("", String::as_str))?;
        ws.write_string(r, 1, customers.get((i / p) % customers.len().max(1)).map_or("", String::as_str))?;
        ws.write_number(r, 2, 100.0 + (i % 50) as f64)?;
    }
    Ok(wb.save_to_buffer()?)
}

async fn connect(addr: std::net::SocketAddr, like: &Client) -> anyhow::Result<Client> {
    Ok(Client { stream: BufReader::new(TcpStream::connect(addr).await?), host: like.host.clone(), cookie: like.cookie.clone(), csrf: like.csrf.clone() })
}

/// Issue 9: peak memory of a zip bomb and of a 100,000-row OCOP import, and single-sheet
/// saves from another client while that import runs.
async fn upload_scenarios(db: &crate::db::Db, addr: std::net::SocketAddr, like: &Client, save_body: &str) -> anyhow::Result<UploadScenarios> {
    let mut memory = Vec::new();
    let mut client = connect(addr, like).await?;

    let bomb = tokio::task::spawn_blocking(zip_bomb).await??;
    let body = multipart(&bomb);
    let file_mb = bomb.len() as f64 / (1024.0 * 1024.0);
    drop(bomb);
    let rss_before_mb = proc_status_mb("VmRSS:");
    reset_peak();
    let t = Instant::now();
    let (status, _) = client.send_body("POST", "/api/ag/lines", Some((MULTIPART, &body))).await?;
    memory.push(UploadMemory { name: "zip bomb, 1.2 GB inflated", file_mb, status, time: t.elapsed(), rss_before_mb, peak_mb: proc_status_mb("VmHWM:") });
    drop(body);

    let (products, customers): (Vec<String>, Vec<String>) = db
        .run(|c| {
            let p = products_t::table.filter(products_t::org_id.eq(4)).order(products_t::id.asc()).limit(2_000).select(products_t::code).load(c)?;
            let cu = customers::table.filter(customers::org_id.eq(4)).order(customers::id.asc()).limit(50).select(customers::code).load(c)?;
            Ok((p, cu))
        })
        .await?;
    let file = tokio::task::spawn_blocking(move || ocop_file(&products, &customers, 100_000)).await??;
    let body = multipart(&file);
    let file_mb = file.len() as f64 / (1024.0 * 1024.0);
    drop(file);

    // The import runs on its own connection; this client saves sheets until it answers.
    let mut importer = connect(addr, like).await?;
    let rss_before_mb = proc_status_mb("VmRSS:");
    reset_peak();
    let t = Instant::now();
    let import = tokio::spawn(async move {
        let res = importer.send_body("POST", "/api/ag/ocops", Some((MULTIPART, &body))).await;
        (res, Instant::now())
    });
    let mut saves = Row { name: "save a sheet during 100k OCOP import", budget_ms: 25.0, http: vec![], sql: vec![] };
    while !import.is_finished() {
        let s = Instant::now();
        let (status, answer) = client.send("POST", "/api/orders", Some(save_body)).await?;
        anyhow::ensure!(status == 200, "saving during the import answered {status}: {}", String::from_utf8_lossy(&answer));
        saves.http.push(s.elapsed());
    }
    let (res, done) = import.await?;
    let (status, answer) = res?;
    anyhow::ensure!(status == 200, "the 100,000-row OCOP import answered {status}: {}", String::from_utf8_lossy(&answer));
    memory.push(UploadMemory { name: "OCOP import, 100,000 rows", file_mb, status, time: done - t, rss_before_mb, peak_mb: proc_status_mb("VmHWM:") });
    Ok(UploadScenarios { rows: vec![saves], memory })
}
