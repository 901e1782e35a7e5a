//! Scenarios judged by time and peak memory: the invoice exports, and the uploads of issue 9
//! (a zip bomb, a 100,000-row OCOP import with sheets saved beside it).

use std::time::{Duration, Instant};

use bytes::Bytes;
use diesel::prelude::*;

use super::client::Client;
use super::report::{Budget, MemoryRow, Timings};
use db::Db;
use db::schema::{customers, products};

/// A field of `/proc/self/status` in MB (Linux only; 0 elsewhere).
fn proc_status_mb(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(field)).and_then(|l| l.split_whitespace().nth(1)).and_then(|kb| kb.parse::<f64>().ok()))
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Resets the peak RSS (VmHWM) to the current RSS, so the next reading is one scenario's peak.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// RSS now, after resetting the peak.
fn start_watch() -> f64 {
    reset_peak();
    proc_status_mb("VmRSS:")
}

/// Resident memory now, in MB.
pub fn rss_mb() -> f64 {
    proc_status_mb("VmRSS:")
}

fn peak() -> f64 {
    proc_status_mb("VmHWM:")
}

/// Downloads `path` (the body is counted, not kept) and reports its time and peak memory.
pub async fn download(name: &str, client: &Client, path: &str, budget: Budget) -> anyhow::Result<MemoryRow> {
    let before = start_watch();
    let t = Instant::now();
    let (status, bytes) = client.get_counting(path).await?;
    let took = t.elapsed();
    if !status.is_success() {
        eprintln!("{name}: answered {status}");
    }
    Ok(MemoryRow::new(name, status.as_u16(), bytes, took, before, peak(), budget))
}

fn multipart(file: &[u8]) -> Bytes {
    let mut body = b"--B0UND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n--B0UND--\r\n");
    Bytes::from(body)
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

/// The sheets a scenario saved while it ran: their timings, and their ids for
/// [`remove_saved_sheets`].
#[derive(Default)]
pub struct Saves {
    pub timings: Timings,
    pub ids: Vec<i64>,
}

/// One sheet saved by `saver`, timed into `saves` (the first failure is printed).
async fn save_once(saver: &Client, save_body: &str, saves: &mut Saves) -> anyhow::Result<()> {
    let s = Instant::now();
    let answer = saver.post_json("/api/orders", save_body).await?;
    if answer.status.is_success() {
        saves.timings.http.push(s.elapsed());
        if let Some(id) = serde_json::from_slice::<serde_json::Value>(&answer.body)?["data"]["id"].as_i64() {
            saves.ids.push(id);
        }
    } else {
        if saves.timings.errors == 0 {
            eprintln!("saving meanwhile answered {}: {}", answer.status, answer.snippet());
        }
        saves.timings.errors += 1;
    }
    Ok(())
}

/// Removes the draft sheets a scenario saved, with their lines and history: left in, the
/// 20,000 drafts an import scenario saves, all dated today, sit at the head of the date
/// order every list walks, and each run would measure a database the runs before had
/// changed (the PostgreSQL 'trailers' list fell from 372 to 142 requests/s that way,
/// issue 38). Only drafts of the bench's company are removed. Answers how many went.
pub async fn remove_saved_sheets(db: &Db, ids: Vec<i64>) -> anyhow::Result<usize> {
    use db::schema::{order_events, order_lines, orders};
    let draft = domain::enums::OrderStatus::Draft.as_i32();
    let mut removed = 0;
    for chunk in ids.chunks(1_000) {
        let chunk = chunk.to_vec();
        removed += db
            .write(move |c| {
                Ok(db::per_backend!(c, |c| {
                    let drafts: Vec<i64> = orders::table.filter(orders::org_id.eq(4)).filter(orders::status.eq(draft)).filter(orders::id.eq_any(&chunk)).select(orders::id).load(c)?;
                    diesel::delete(order_events::table.filter(order_events::order_id.eq_any(&drafts))).execute(c)?;
                    diesel::delete(order_lines::table.filter(order_lines::order_id.eq_any(&drafts))).execute(c)?;
                    diesel::delete(orders::table.filter(orders::id.eq_any(&drafts))).execute(c)
                })?)
            })
            .await?;
    }
    Ok(removed)
}

/// The report-queue job `id` as `GET /api/reports` lists it, and whether it has ended.
pub(super) async fn job_state(client: &Client, id: i64) -> anyhow::Result<(serde_json::Value, bool)> {
    let list = client.get("/api/reports").await?;
    let list: serde_json::Value = serde_json::from_slice(&list.body)?;
    let job = list["data"].as_array().and_then(|a| a.iter().find(|j| j["id"] == id).cloned()).unwrap_or_default();
    let ended = job["state"] != "queued" && job["state"] != "running";
    Ok((job, ended))
}

/// Issue 9: the zip bomb upload, which must be refused (422); time and peak memory reported.
pub async fn zip_bomb_upload(name: &str, client: &Client) -> anyhow::Result<MemoryRow> {
    let bomb = tokio::task::spawn_blocking(zip_bomb).await??;
    let body = multipart(&bomb);
    let size = bomb.len() as u64;
    drop(bomb);
    let before = start_watch();
    let t = Instant::now();
    let answer = client.post("/api/ag/lines", MULTIPART, body).await?;
    Ok(MemoryRow::new(name, answer.status.as_u16(), size, t.elapsed(), before, peak(), Budget::Status(422)))
}

/// Issue 9: a 100,000-row OCOP import on one connection while `saver` saves sheets on
/// another until the import answers; returns the import's row and the saves' timings.
pub async fn ocop_import(name: &str, db: &Db, importer: Client, saver: &Client, save_body: &str) -> anyhow::Result<(MemoryRow, Saves)> {
    let (products, customers): (Vec<String>, Vec<String>) = db
        .run(|c| {
            let p = products::table.filter(products::org_id.eq(4)).order(products::id.asc()).limit(2_000).select(products::code).load(c)?;
            let cu = customers::table.filter(customers::org_id.eq(4)).order(customers::id.asc()).limit(50).select(customers::code).load(c)?;
            Ok((p, cu))
        })
        .await?;
    let file = tokio::task::spawn_blocking(move || ocop_file(&products, &customers, 100_000)).await??;
    let body = multipart(&file);
    let size = file.len() as u64;
    drop(file);

    let before = start_watch();
    let t = Instant::now();
    let import = tokio::spawn(async move {
        let res = importer.post("/api/ag/ocops", MULTIPART, body).await;
        (res, Instant::now())
    });
    let mut saves = Saves::default();
    let started = Instant::now();
    while !import.is_finished() {
        save_once(saver, save_body, &mut saves).await?;
    }
    saves.timings.wall = started.elapsed();
    let (res, done) = import.await?;
    let answer = res?;
    if !answer.status.is_success() {
        eprintln!("the 100,000-row OCOP import answered {}: {}", answer.status, answer.snippet());
    }
    let took: Duration = done - t;
    Ok((MemoryRow::new(name, answer.status.as_u16(), size, took, before, peak(), Budget::Status(200)), saves))
}

/// Asks for a report, waits until the worker has written it, and downloads it: the time
/// from the request to Done, the process's peak memory meanwhile, and the latency of
/// `list_path` requested over and over while the report runs (issue 11: the web requests
/// keep their budgets during a report).
pub async fn report(name: &str, client: &Client, lister: &Client, body: &str, list_path: &str, budget: Budget) -> anyhow::Result<(MemoryRow, Timings)> {
    let before = start_watch();
    let t = Instant::now();
    let asked = client.post_json("/api/reports", body).await?;
    if !asked.status.is_success() {
        anyhow::bail!("{name}: asking answered {}: {}", asked.status, asked.snippet());
    }
    let id = serde_json::from_slice::<serde_json::Value>(&asked.body)?["data"]["id"].as_i64().unwrap_or(0);
    let mut during = Timings::default();
    let started = Instant::now();
    let job = loop {
        let s = Instant::now();
        let answer = lister.get(list_path).await?;
        if answer.status.is_success() {
            during.http.push(s.elapsed());
        } else {
            during.errors += 1;
        }
        let (job, ended) = job_state(client, id).await?;
        if ended {
            break job;
        }
        if t.elapsed() > Duration::from_secs(600) {
            anyhow::bail!("{name}: still {} after 10 minutes", job["state"]);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let took = t.elapsed();
    during.wall = started.elapsed();
    let peak = peak();
    let Some(file) = job["name"].as_str() else {
        eprintln!("{name}: the report ended {}: {}", job["state"], job["error"]);
        return Ok((MemoryRow::new(name, 500, 0, took, before, peak, budget), during));
    };
    let (status, bytes) = client.get_counting(&format!("/api/download/{file}")).await?;
    Ok((MemoryRow::new(name, status.as_u16(), bytes, took, before, peak, budget), during))
}

/// An Import Basic file of `rows` new products (the required columns), naming `brand`.
fn basic_products_file(brand: &str, rows: usize) -> anyhow::Result<Vec<u8>> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name("Products")?;
    for (c, h) in ["Item Code", "Item Name", "Helper Code", "Unit", "Category", "Brand", "Material", "Show for Shop"].iter().enumerate() {
        ws.write_string(0, c as u16, *h)?;
    }
    for i in 0..rows {
        let r = i as u32 + 1;
        ws.write_string(r, 0, format!("BENCH-{i:06}"))?;
        ws.write_string(r, 1, format!("Bench tyre {i}"))?;
        ws.write_string(r, 2, format!("B{i}"))?;
        ws.write_string(r, 3, "EA")?;
        ws.write_string(r, 4, "PCR tyres")?;
        ws.write_string(r, 5, brand)?;
        ws.write_string(r, 6, "N/A")?;
        ws.write_string(r, 7, "No")?;
    }
    Ok(wb.save_to_buffer()?)
}

/// Removes the products the Import Basic scenario added (`BENCH-…` codes), as a user would
/// undo a trial import, and refreshes the planner's statistics: left in, six times scale
/// S's products would slow every search measured after it. Answers how many went.
pub async fn remove_imported_products(db: &Db) -> anyhow::Result<usize> {
    use db::schema::products;
    let removed = db
        .write(|c| Ok(db::per_backend!(c, |c| diesel::delete(products::table.filter(products::org_id.eq(4)).filter(products::code.like("BENCH-%"))).execute(c))?))
        .await?;
    db.write(db::optimize).await?;
    Ok(removed)
}

/// Uploads an Import Basic file of 100,000 rows (the header and 99,999 new products, the
/// upload limit) (a job of the report queue) and
/// saves sheets with `saver` until the job is done: the time from upload to Done, peak
/// memory, and the saves' latency meanwhile (issue 13: a large import never blocks other
/// users' saves).
pub async fn basic_import(name: &str, db: &Db, importer: &Client, saver: &Client, save_body: &str) -> anyhow::Result<(MemoryRow, Saves)> {
    let brand: String = db.run(|c| Ok(db::schema::brands::table.filter(db::schema::brands::org_id.eq(4)).order(db::schema::brands::id.asc()).select(db::schema::brands::name).first(c)?)).await?;
    let file = tokio::task::spawn_blocking(move || basic_products_file(&brand, domain::uploads::MAX_ROWS - 1)).await??;
    let size = file.len() as u64;
    let body = multipart(&file);
    drop(file);
    let before = start_watch();
    let t = Instant::now();
    let asked = importer.post("/api/ag/import", MULTIPART, body).await?;
    if asked.status.as_u16() != 202 {
        anyhow::bail!("{name}: the upload answered {}: {}", asked.status, asked.snippet());
    }
    let id = serde_json::from_slice::<serde_json::Value>(&asked.body)?["jobId"].as_i64().unwrap_or(0);
    let mut saves = Saves::default();
    let started = Instant::now();
    let job = loop {
        save_once(saver, save_body, &mut saves).await?;
        let (job, ended) = job_state(importer, id).await?;
        if ended {
            break job;
        }
        if t.elapsed() > Duration::from_secs(900) {
            anyhow::bail!("{name}: still {} after 15 minutes", job["state"]);
        }
    };
    saves.timings.wall = started.elapsed();
    let took = t.elapsed();
    let status = if job["state"] == "done" { 200 } else { 500 };
    if status != 200 {
        eprintln!("{name}: the job ended {}: {}", job["state"], job["error"]);
    }
    Ok((MemoryRow::new(name, status, size, took, before, peak(), Budget::Status(200)), saves))
}
