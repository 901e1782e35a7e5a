//! Spreadsheet uploads (issue 9): zip bombs and oversize files are refused in the app's words
//! before they are parsed, big files resolve without per-row queries or SQL variable limits,
//! an import that commits never answers a timeout, and ids sent beside a file stay in the
//! caller's company.

use std::io::Read;

use axum::body::Body;
use axum::http::{Method, StatusCode};
use diesel::prelude::*;
use db::schema::{customers, ocop_prices, products};

use crate::support::{Session, TestApp, TestResponse};

const TOO_LARGE: &str = "The file is larger than 5 MB. Split it into smaller files.";

/// A multipart body with text fields and the file last.
fn multipart(fields: &[(&str, &str)], file: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend(format!("--B0UND\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n").into_bytes());
    }
    body.extend(b"--B0UND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n");
    body.extend(file);
    body.extend(b"\r\n--B0UND--\r\n");
    body
}

pub(crate) async fn upload(app: &TestApp, s: &Session, path: &str, fields: &[(&str, &str)], file: &[u8]) -> TestResponse {
    let body = multipart(fields, file);
    app.request(Method::POST, path, Some(body.into()), Some("multipart/form-data; boundary=B0UND"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)]).await
}

/// An xlsx with the given header and rows (strings).
pub(crate) fn sheet(header: &[&str], rows: &[Vec<String>]) -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    for (c, h) in header.iter().enumerate() {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    for (r, cells) in rows.iter().enumerate() {
        for (c, v) in cells.iter().enumerate() {
            ws.write_string(r as u32 + 1, c as u16, v).unwrap();
        }
    }
    wb.save_to_buffer().unwrap()
}

/// One zip entry written by hand, so tests can declare sizes the data does not have.
struct Entry {
    name: String,
    method: u16,
    crc: u32,
    data: Vec<u8>,
    declared: u32,
}

/// The entries of a real xlsx, copied raw (compressed data and CRC as they are).
fn entries_of(xlsx: &[u8]) -> Vec<Entry> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(xlsx)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index_raw(i).unwrap();
            let mut data = Vec::new();
            f.read_to_end(&mut data).unwrap();
            let method = if f.compression() == zip::CompressionMethod::Stored { 0 } else { 8 };
            Entry { name: f.name().unwrap().to_string(), method, crc: f.crc32(), data, declared: f.size() as u32 }
        })
        .collect()
}

/// Writes entries as a zip archive (local headers, data, central directory, end record).
fn write_zip(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let offset = out.len() as u32;
        let header = |sig: u32, central: bool| {
            let mut h = Vec::new();
            h.extend(sig.to_le_bytes());
            if central {
                h.extend(20u16.to_le_bytes());
            }
            h.extend(20u16.to_le_bytes());
            h.extend(0u16.to_le_bytes());
            h.extend(e.method.to_le_bytes());
            h.extend([0u8; 4]);
            h.extend(e.crc.to_le_bytes());
            h.extend((e.data.len() as u32).to_le_bytes());
            h.extend(e.declared.to_le_bytes());
            h.extend((e.name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes());
            if central {
                h.extend([0u8; 6]); // comment length, disk, internal attributes
                h.extend(0u32.to_le_bytes());
                h.extend(offset.to_le_bytes());
            }
            h.extend(e.name.as_bytes());
            h
        };
        out.extend(header(0x0403_4b50, false));
        out.extend(&e.data);
        central.extend(header(0x0201_4b50, true));
    }
    let cd_offset = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A raw deflate stream inflating to at least `bytes` zero bytes (one fixed-Huffman block of
/// 258-byte back-references, ~160:1) and the exact inflated length.
fn zeros_deflated(bytes: usize) -> (Vec<u8>, usize) {
    struct Bits {
        out: Vec<u8>,
        acc: u32,
        n: u32,
    }
    impl Bits {
        fn put(&mut self, value: u32, len: u32) {
            self.acc |= value << self.n;
            self.n += len;
            while self.n >= 8 {
                self.out.push(self.acc as u8);
                self.acc >>= 8;
                self.n -= 8;
            }
        }
        /// Huffman codes are written from their most significant bit.
        fn code(&mut self, code: u32, len: u32) {
            let rev = (0..len).fold(0, |r, i| r | (((code >> i) & 1) << (len - 1 - i)));
            self.put(rev, len);
        }
    }
    let mut b = Bits { out: Vec::with_capacity(bytes / 150), acc: 0, n: 0 };
    b.put(1, 1); // final block
    b.put(1, 2); // fixed Huffman codes
    b.code(0x30, 8); // literal 0
    let repeats = bytes.div_ceil(258);
    for _ in 0..repeats {
        b.code(0b1100_0101, 8); // length 258 (code 285)
        b.code(0, 5); // distance 1
    }
    b.code(0, 7); // end of block
    b.put(0, 7);
    (b.out, 1 + repeats * 258)
}

fn assert_file_refused(res: &TestResponse, status: StatusCode, says: &str) {
    assert_eq!(res.status, status, "{}", res.body);
    let body = res.json();
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "message {message:?} should say {says:?}");
    assert_eq!(body["errors"]["file"].as_str(), Some(message), "the message is on the file field");
}

async fn org4_codes(app: &TestApp, n: i64) -> (Vec<String>, String) {
    app.state
        .db
        .run(move |c| {
            let codes = products::table.filter(products::org_id.eq(4)).order(products::id.asc()).limit(n).select(products::code).load(c)?;
            let customer = customers::table.filter(customers::org_id.eq(4)).order(customers::id.asc()).select(customers::code).first(c)?;
            Ok((codes, customer))
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn a_zip_bomb_is_refused_before_it_is_inflated() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let (codes, customer) = org4_codes(&app, 1).await;
    let base = sheet(&["Item Code", "Customer Code", "Price"], &[vec![codes[0].clone(), customer, "10".into()]]);

    // 1 GB of zeros packed into ~6 MB would be over the file limit; 600 MB in ~3.8 MB is not.
    let (bomb, inflated) = zeros_deflated(600 * 1024 * 1024);
    let mut entries = entries_of(&base);
    entries.push(Entry { name: "xl/media/image1.png".into(), method: 8, crc: 0, data: bomb, declared: inflated as u32 });
    let file = write_zip(&entries);
    assert!(file.len() < 5 * 1024 * 1024);
    let res = upload(&app, &s, "/api/ag/ocops", &[], &file).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "unpacks to far more data than it holds");

    // Many parts of 1 MB each (small enough to be allowed any ratio) add up past 50 MB.
    let (mb, inflated) = zeros_deflated(1024 * 1024 - 300);
    let mut entries = entries_of(&base);
    for i in 0..60 {
        entries.push(Entry { name: format!("xl/media/pad{i}.bin"), method: 8, crc: 0, data: mb.clone(), declared: inflated as u32 });
    }
    let res = upload(&app, &s, "/api/ag/lines", &[], &write_zip(&entries)).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "unpacks to more than 50 MB");

    // 21 MB of shared strings in 300 KB (70:1) would be held as millions of small strings.
    let mut entries = entries_of(&base);
    let strings = entries.iter_mut().find(|e| e.name == "xl/sharedStrings.xml").unwrap();
    (strings.data, strings.declared) = (vec![0; 300 * 1024], 21 * 1024 * 1024);
    let res = upload(&app, &s, "/api/ag/ocops", &[], &write_zip(&entries)).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "more than 20 MB of text");

    // Thousands of empty parts.
    let mut entries = entries_of(&base);
    for i in 0..1_001 {
        entries.push(Entry { name: format!("xl/p{i}.xml"), method: 0, crc: 0, data: vec![], declared: 0 });
    }
    let res = upload(&app, &s, "/api/ag/ocops", &[], &write_zip(&entries)).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "more than 1000 parts");

    let applied: i64 = app.state.db.run(|c| Ok(ocop_prices::table.filter(ocop_prices::price.eq(1000)).count().get_result(c)?)).await.unwrap();
    assert_eq!(applied, 0, "no refused file set a price");
}

#[tokio::test]
async fn a_part_larger_than_it_declares_is_refused() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (codes, _) = org4_codes(&app, 1).await;
    let base = sheet(&["Item Code", "Qty"], &[vec![codes[0].clone(), "1".into()]]);
    // The sheet declares 1 KB (too small for any ratio check) but inflates to 8 MB: reading
    // stops at the declared size.
    let (liar, _) = zeros_deflated(8 * 1024 * 1024);
    let mut entries = entries_of(&base);
    let sheet1 = entries.iter_mut().find(|e| e.name == "xl/worksheets/sheet1.xml").unwrap();
    (sheet1.data, sheet1.declared, sheet1.method) = (liar, 1024, 8);
    let res = upload(&app, &s, "/api/ag/lines", &[], &write_zip(&entries)).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "larger than its declared uncompressed size");
}

#[tokio::test]
async fn rows_and_columns_past_the_limits_are_refused() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (codes, _) = org4_codes(&app, 1).await;
    // A used cell in row 100,002 (data row 100,001) is enough; the sheet is not built.
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.write_string(0, 0, "Item Code").unwrap();
    ws.write_string(0, 1, "Qty").unwrap();
    ws.write_string(1, 0, &codes[0]).unwrap();
    ws.write_string(1, 1, "1").unwrap();
    ws.write_string(100_001, 0, &codes[0]).unwrap();
    let res = upload(&app, &s, "/api/ag/lines", &[], &wb.save_to_buffer().unwrap()).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "more than 100000 rows");
    // The last cell of a sheet would ask for 17 billion cells if the range were built.
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.write_string(0, 0, "Item Code").unwrap();
    ws.write_string(1_048_575, 16_383, "x").unwrap();
    let res = upload(&app, &s, "/api/ag/lines", &[], &wb.save_to_buffer().unwrap()).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "more than 50 columns");

    let mut wide = vec!["Item Code", "Qty"];
    wide.extend(std::iter::repeat_n("Note", 49));
    let res = upload(&app, &s, "/api/ag/lines", &[], &sheet(&wide, &[vec![codes[0].clone(), "1".into()]])).await;
    assert_file_refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "more than 50 columns");
}

#[tokio::test]
async fn every_oversize_upload_gets_the_same_clear_message() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    // Just over the file limit, on both routes (the OCOP import used to answer a parser error).
    let over = vec![b'x'; 5 * 1024 * 1024 + 1];
    for path in ["/api/ag/ocops", "/api/ag/lines"] {
        let res = upload(&app, &s, path, &[], &over).await;
        assert_file_refused(&res, StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE);
    }
    // 19 MB: the route's body limit stops it while it streams in.
    let res = upload(&app, &s, "/api/ag/ocops", &[], &vec![b'x'; 19 * 1024 * 1024]).await;
    assert_file_refused(&res, StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE);
    // Over the server-wide limit with a declared length: answered before any handler runs.
    let body = multipart(&[], &vec![b'x'; 21 * 1024 * 1024]);
    let len = body.len().to_string();
    let res = app
        .request(Method::POST, "/api/ag/lines", Some(body.into()), Some("multipart/form-data; boundary=B0UND"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf), ("content-length", &len)])
        .await;
    assert_file_refused(&res, StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE);
}

#[tokio::test]
async fn a_three_megabyte_ocop_file_is_imported() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let (codes, customer) = org4_codes(&app, 1).await;
    let base = sheet(&["Item Code", "Customer Code", "Price"], &[vec![codes[0].clone(), customer, "12.34".into()]]);
    // An embedded picture that does not compress makes the file 3 MB, over axum's 2 MB default.
    let mut noise = Vec::with_capacity(3 * 1024 * 1024);
    let mut x: u32 = 2_463_534_242;
    while noise.len() < 3 * 1024 * 1024 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise.extend(x.to_le_bytes());
    }
    let mut entries = entries_of(&base);
    let crc = crc32(&noise);
    let len = noise.len() as u32;
    entries.push(Entry { name: "xl/media/image1.png".into(), method: 0, crc, data: noise, declared: len });
    let res = upload(&app, &s, "/api/ag/ocops", &[], &write_zip(&entries)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let set: i64 = app.state.db.run(|c| Ok(ocop_prices::table.filter(ocop_prices::price.eq(1234)).count().get_result(c)?)).await.unwrap();
    assert_eq!(set, 1);
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for b in data {
        crc ^= u32::from(*b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Issue 29: a line import brings at most what one sheet holds (1,000 lines). A 100,000-row
/// file used to answer every line (23 MB) and hang the editor; a 2,000-row one loaded a sheet
/// that could never be saved.
#[tokio::test]
async fn a_line_import_refuses_more_lines_than_a_sheet_holds_and_says_the_limit() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (codes, _) = org4_codes(&app, 50).await;
    for n in [1_001usize, 100_000] {
        let rows: Vec<Vec<String>> = (0..n).map(|i| vec![codes[i % codes.len()].clone(), "2".into()]).collect();
        let res = upload(&app, &s, "/api/ag/lines", &[("orderType", "1")], &sheet(&["Item Code", "Qty"], &rows)).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{n}: {}", &res.body[..res.body.len().min(500)]);
        assert!(res.body.len() < 1_000, "{n}: the refusal is short, not the lines");
        assert_eq!(res.json()["errors"]["file"], format!("The file has {n} lines; a sheet holds at most 1,000 lines. Split the file into sheets of at most 1,000 lines."));
    }
    // Exactly a sheet's worth is priced, every line.
    let rows: Vec<Vec<String>> = (0..1_000).map(|i| vec![codes[i % codes.len()].clone(), "2".into()]).collect();
    let res = upload(&app, &s, "/api/ag/lines", &[("orderType", "1")], &sheet(&["Item Code", "Qty"], &rows)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", &res.body[..res.body.len().min(500)]);
    let lines = res.json()["data"].as_array().unwrap().clone();
    assert_eq!(lines.len(), 1_000);
    assert!(lines.iter().all(|l| l["amount"].as_i64() == l["price"].as_i64().map(|p| p * 2)));
    // 1,000 different codes, unknown: refused with row messages, not a server error.
    let rows: Vec<Vec<String>> = (0..1_000).map(|i| vec![format!("NO-SUCH-{i}"), "1".into()]).collect();
    let res = upload(&app, &s, "/api/ag/lines", &[], &sheet(&["Item Code", "Qty"], &rows)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", &res.body[..res.body.len().min(500)]);
    let message = res.json()["message"].as_str().unwrap().to_string();
    assert!(message.starts_with("Row 2: unknown item code 'NO-SUCH-0'."), "{}", &message[..200]);
    assert!(message.ends_with("…and 950 more rows with errors."), "the answer stays short");
}

#[tokio::test]
async fn a_large_ocop_import_applies_every_row_and_the_last_one_wins() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let (codes, _) = org4_codes(&app, 100).await;
    let custs: Vec<String> = app.state.db.run(|c| Ok(customers::table.filter(customers::org_id.eq(4)).order(customers::id.asc()).limit(30).select(customers::code).load(c)?)).await.unwrap();
    let mut rows = Vec::new();
    for c in &custs {
        for p in &codes {
            rows.push(vec![p.clone(), c.clone(), "7.00".to_string()]);
        }
    }
    // The same pair again, later in the file: its price wins.
    rows.push(vec![codes[0].clone(), custs[0].clone(), "8.00".to_string()]);
    let res = upload(&app, &s, "/api/ag/ocops", &[], &sheet(&["Item Code", "Customer Code", "Price"], &rows)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let (sevens, eights): (i64, i64) = app
        .state
        .db
        .run(|c| {
            let n = |p: i64, c: &mut db::DbConn| ocop_prices::table.filter(ocop_prices::org_id.eq(4)).filter(ocop_prices::price.eq(p)).count().get_result::<i64>(c);
            Ok((n(700, c)?, n(800, c)?))
        })
        .await
        .unwrap();
    let distinct_customers = custs.iter().collect::<std::collections::HashSet<_>>().len() as i64;
    assert_eq!(sevens + eights, distinct_customers * codes.len() as i64);
    assert_eq!(eights, 1);
}

/// With a zero request timeout every request that waits for the database answers 408, yet
/// its write may still commit on the blocking pool; an import must never answer so.
#[tokio::test]
async fn an_import_that_commits_never_answers_a_timeout() {
    let (app, s) = TestApp::new().with_request_timeout(std::time::Duration::ZERO).with_user("approver@demo.test").await;
    // The timer ticks in milliseconds, so a quick read can still beat a zero timeout now and
    // then; a few tries show the timeout is live.
    let mut timed_out = false;
    for _ in 0..50 {
        if app.get("/api/warehouses", Some(&s)).await.status == StatusCode::REQUEST_TIMEOUT {
            timed_out = true;
            break;
        }
    }
    assert!(timed_out, "the timeout is live");
    let (codes, customer) = org4_codes(&app, 20).await;
    let rows: Vec<Vec<String>> = codes.iter().map(|p| vec![p.clone(), customer.clone(), "3.21".into()]).collect();
    let res = upload(&app, &s, "/api/ag/ocops", &[], &sheet(&["Item Code", "Customer Code", "Price"], &rows)).await;
    let set: i64 = app.state.db.run(|c| Ok(ocop_prices::table.filter(ocop_prices::price.eq(321)).count().get_result(c)?)).await.unwrap();
    assert_eq!(set, codes.len() as i64, "the import committed");
    assert_eq!(res.status, StatusCode::OK, "and the answer says so: {}", res.body);
}

#[tokio::test]
async fn ids_beside_a_line_import_stay_in_the_company() {
    let (app, s9) = TestApp::new().with_user("multi@demo.test").await;
    app.post_form("/switch-org", &s9, &[("org_id", "9")]).await;
    let warehouse9 = app.get("/api/warehouses", Some(&s9)).await.json()["data"][0]["id"].as_i64().unwrap();
    let customer9 = app.get("/api/customers?per_page=1", Some(&s9)).await.json()["data"][0]["id"].as_i64().unwrap();
    let warehouse4 = app.get("/api/warehouses", Some(&app.session("sales@demo.test").await)).await.json()["data"][0]["id"].as_i64().unwrap();

    let s = app.session("sales@demo.test").await;
    let (codes, _) = org4_codes(&app, 1).await;
    let file = sheet(&["Item Code", "Qty"], &[vec![codes[0].clone(), "1".into()]]);
    let (w9, c9, w4) = (warehouse9.to_string(), customer9.to_string(), warehouse4.to_string());
    let res = upload(&app, &s, "/api/ag/lines", &[("warehouseId", &w9)], &file).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(res.json()["errors"]["warehouseId"], "This warehouse does not exist in this company.");
    let res = upload(&app, &s, "/api/ag/lines", &[("customerId", &c9)], &file).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(res.json()["errors"]["customerId"], "This customer does not exist in this company.");
    for bad in ["0", "8", "x"] {
        let res = upload(&app, &s, "/api/ag/lines", &[("orderType", bad)], &file).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "orderType {bad}: {}", res.body);
        assert!(res.json()["errors"]["orderType"].is_string());
    }
    // The company's own warehouse and an adjustment type are accepted.
    let res = upload(&app, &s, "/api/ag/lines", &[("orderType", "7"), ("warehouseId", &w4)], &sheet(&["Item Code", "In-Warehouse Qty"], &[vec![codes[0].clone(), "5".into()]])).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["data"][0]["inWarehouseQty"], 5);
}

/// Issue 29: every upload refusal is the app's own message, as JSON on the API and on the
/// page of the Download Center: a body without a boundary (axum answered plain text) and a
/// file under another field name (it said 'other: The value is too long.').
#[tokio::test]
async fn every_upload_refusal_is_in_the_apps_words() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let headers = [("cookie", s.cookie.as_str()), ("x-csrf-token", s.csrf.as_str())];
    for path in ["/api/ag/lines", "/api/ag/ocops", "/api/ag/orders-import", "/api/ag/import"] {
        let no_boundary = app.request(Method::POST, path, Some(Body::from("--x\r\n\r\n")), Some("multipart/form-data"), &headers).await;
        assert_eq!(no_boundary.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {}", no_boundary.body);
        assert_eq!(no_boundary.json()["errors"]["file"], domain::uploads::NOT_AN_UPLOAD, "{path}");
        let not_multipart = app.request(Method::POST, path, Some(Body::from("{}")), Some("application/json"), &headers).await;
        assert_eq!(not_multipart.json()["errors"]["file"], domain::uploads::NOT_AN_UPLOAD, "{path}");

        let boundary = "XyZ";
        let body = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"other\"; filename=\"lines.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n{}\r\n--{boundary}--\r\n", "x".repeat(4_000));
        let wrong_name = app.request(Method::POST, path, Some(Body::from(body)), Some(&format!("multipart/form-data; boundary={boundary}")), &headers).await;
        assert_eq!(wrong_name.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {}", wrong_name.body);
        assert_eq!(wrong_name.json()["errors"]["file"], domain::uploads::FILE_FIELD, "{path}");

        let cut = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.xlsx\"\r\n\r\nPK");
        let broken = app.request(Method::POST, path, Some(Body::from(cut)), Some(&format!("multipart/form-data; boundary={boundary}")), &headers).await;
        assert_eq!(broken.json()["errors"]["file"], domain::uploads::UPLOAD_BROKEN, "{path}: {}", broken.body);
    }
}
