//! Excel 97–2003 uploads (issue 32): a real .xls (saved by LibreOffice, see
//! `fixtures/README.md`) imports the same lines as the same xlsx; an .xls whose records claim
//! more than the limits is refused before calamine parses it; a file that only has the name
//! is refused in the app's words.

use std::io::{Cursor, Read, Write};

use axum::http::{Method, StatusCode};
use diesel::prelude::*;
use db::schema::products;

use crate::support::{Session, TestApp, TestResponse};
use crate::trust::uploads::upload;

/// Item Code, Qty, Price, Description: XLS-TYRE-1 4 123.45 'front pair'; XLS-TYRE-2 =1+1
/// (no price) 'Rücklicht – spare'; XLS-TYRE-1 1 99.
const LINES_XLS: &[u8] = include_bytes!("../fixtures/lines.xls");

const LINES: &str = "/api/ag/lines";

fn refused(res: &TestResponse, says: &str) {
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let message = res.json()["errors"]["file"].as_str().unwrap_or_default().to_string();
    assert!(message.contains(says), "message {message:?} should say {says:?}");
}

/// Gives the fixture's item codes to two of company 4's products.
async fn fixture_products(app: &TestApp) {
    app.state
        .db
        .run(|c| {
            let ids: Vec<i64> = products::table.filter(products::org_id.eq(4)).filter(products::category.eq(1)).order(products::id).select(products::id).limit(2).load(c)?;
            for (id, code) in ids.iter().zip(["XLS-TYRE-1", "XLS-TYRE-2"]) {
                diesel::update(products::table.filter(products::id.eq(*id))).set(products::code.eq(code)).execute(c)?;
            }
            Ok(())
        })
        .await
        .unwrap();
}

/// The workbook stream of an xls.
fn workbook(xls: &[u8]) -> Vec<u8> {
    let mut file = cfb::CompoundFile::open(Cursor::new(xls)).unwrap();
    let mut stream = Vec::new();
    file.open_stream("/Workbook").unwrap().read_to_end(&mut stream).unwrap();
    stream
}

/// An xls holding `stream` as its workbook.
fn xls_of(stream: &[u8]) -> Vec<u8> {
    let mut file = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
    file.create_stream("/Workbook").unwrap().write_all(stream).unwrap();
    file.flush().unwrap();
    file.into_inner().into_inner()
}

/// The offset of the data of the first record of type `typ`: in the workbook's globals, or
/// in its first worksheet.
fn record(stream: &[u8], typ: u16, in_sheet: bool) -> usize {
    let u16_at = |at: usize| u16::from_le_bytes([stream[at], stream[at + 1]]);
    let mut pos = 0;
    let mut sheet = None;
    while pos + 4 <= stream.len() {
        let (t, len) = (u16_at(pos), u16_at(pos + 2) as usize);
        if t == 0x0085 && sheet.is_none() {
            sheet = Some(u32::from_le_bytes(stream[pos + 4..pos + 8].try_into().unwrap()) as usize);
        }
        if t == typ && (!in_sheet || sheet.is_some_and(|s| pos >= s)) {
            return pos + 4;
        }
        pos += 4 + len;
    }
    panic!("no record {typ:#06x}");
}

/// An upload named `lines.xls`.
async fn upload_xls(app: &TestApp, s: &Session, file: &[u8]) -> TestResponse {
    let mut body = b"--B0UND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"lines.xls\"\r\nContent-Type: application/vnd.ms-excel\r\n\r\n".to_vec();
    body.extend(file);
    body.extend(b"\r\n--B0UND--\r\n");
    app.request(Method::POST, LINES, Some(body.into()), Some("multipart/form-data; boundary=B0UND"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)]).await
}

async fn lines(app: &TestApp, s: &Session, file: &[u8]) -> serde_json::Value {
    let res = upload(app, s, LINES, &[("orderType", "1")], file).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.json()["data"].clone()
}

#[tokio::test]
async fn an_xls_saved_by_libreoffice_imports_the_same_lines_as_the_same_xlsx() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    fixture_products(&app).await;
    let from_xls = lines(&app, &s, LINES_XLS).await;
    let rows = [["XLS-TYRE-1", "4", "123.45", "front pair"], ["XLS-TYRE-2", "2", "", "Rücklicht – spare"], ["XLS-TYRE-1", "1", "99", ""]];
    let xlsx = crate::trust::uploads::sheet(&["Item Code", "Qty", "Price", "Description"], &rows.map(|r| r.map(String::from).to_vec()));
    let from_xlsx = lines(&app, &s, &xlsx).await;
    assert_eq!(from_xls.as_array().map(Vec::len), Some(3), "{from_xls}");
    assert_eq!(from_xls, from_xlsx, "the same lines, prices and amounts");
    assert_eq!(from_xls[0]["price"], 12_345);
    assert_eq!(from_xls[1]["qty"], from_xlsx[1]["qty"], "the formula's value");
}

#[tokio::test]
async fn an_xls_claiming_more_than_the_limits_is_refused_before_it_is_parsed() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let stream = workbook(LINES_XLS);

    // DIMENSIONS claiming 4 billion rows × 256 columns: calamine would reserve terabytes for
    // it (and abort the process) when it opens the file.
    let mut claim = stream.clone();
    let at = record(&claim, 0x0200, true);
    claim[at + 4..at + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    claim[at + 10..at + 12].copy_from_slice(&256u16.to_le_bytes());
    let res = upload_xls(&app, &s, &xls_of(&claim)).await;
    refused(&res, "The file's worksheets span more than 1000000 cells.");

    // A cell past the column limit, as an xlsx's would be.
    let mut wide = stream.clone();
    let at = record(&wide, 0x00FD, true);
    wide[at + 2..at + 4].copy_from_slice(&300u16.to_le_bytes());
    let res = upload_xls(&app, &s, &xls_of(&wide)).await;
    refused(&res, "The sheet uses more than 50 columns");

    // A worksheet said to start past the end of the stream (calamine would panic).
    let mut lost = stream.clone();
    let pos = record(&lost, 0x0085, false);
    let past = lost.len() as u32 + 10;
    lost[pos..pos + 4].copy_from_slice(&past.to_le_bytes());
    let res = upload_xls(&app, &s, &xls_of(&lost)).await;
    refused(&res, "not a readable Excel 97–2003 workbook (.xls)");

    // Over the upload limit, whatever it is.
    let mut big = stream.clone();
    big.resize(6 * 1024 * 1024, 0);
    let res = upload_xls(&app, &s, &xls_of(&big)).await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", res.body);
}

#[tokio::test]
async fn a_file_named_xls_that_is_not_one_is_refused_clearly() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = upload_xls(&app, &s, b"Item Code,Qty\nA1,2\n").await;
    refused(&res, "The file is not an Excel spreadsheet. Upload an Excel Workbook (.xlsx) or Excel 97–2003 Workbook (.xls).");
    // An OLE compound file without a workbook (a Word document, say).
    let mut file = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
    file.create_stream("/WordDocument").unwrap().write_all(&[0u8; 600]).unwrap();
    file.flush().unwrap();
    let res = upload_xls(&app, &s, &file.into_inner().into_inner()).await;
    refused(&res, "The file is not a readable Excel 97–2003 workbook (.xls).");
}

/// Issue 32: the pickers offer exactly what the uploads accept, xlsx and xls.
#[tokio::test]
async fn the_file_pickers_offer_xlsx_and_xls() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let accept = "accept=\".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel\"";
    let center = app.get("/reports_download", Some(&s)).await;
    assert_eq!(center.body.matches(accept).count(), 2, "Import Draft Inv and Import Basic");
    assert!(!center.body.contains("accept=\".xlsx\"") && !center.body.contains("accept=\".xlsx,application"));
    let ocops = app.get("/ocops", Some(&s)).await;
    assert_eq!(ocops.body.matches(accept).count(), 1, "the OCOP import");
}
