//! Printing without a dialog (issue 33): Settings › Printers, and 'Print' / 'Print
//! selected' sending sheets to an IPP printer as jobs of the one queue. The printer is a
//! real CUPS with a cups-pdf queue, started by `.ci/run` (`.ci/cups.sh`), whose PDFs the
//! tests read back with `pdftotext`; without it those tests say "skipped" (or fail when
//! `CI_REQUIRE_SERVICES=1`).

mod jobs;
mod settings;

use std::path::PathBuf;
use std::time::Duration;

use axum::http::StatusCode;
use diesel::prelude::*;

use crate::support::{Session, TestApp};

/// The CUPS queue of the tests and the folder its PDFs land in, or `None` (skipped).
pub fn cups(test: &str) -> Option<(String, PathBuf)> {
    match (std::env::var("TYREDESK_TEST_IPP_URL"), std::env::var("TYREDESK_TEST_IPP_OUT")) {
        (Ok(url), Ok(out)) if !url.is_empty() && !out.is_empty() => Some((url, PathBuf::from(out))),
        _ if std::env::var("CI_REQUIRE_SERVICES").as_deref() == Ok("1") => {
            panic!("{test}: TYREDESK_TEST_IPP_URL and TYREDESK_TEST_IPP_OUT are not set (start CUPS with .ci/cups.sh) and CI_REQUIRE_SERVICES=1")
        }
        _ => {
            eprintln!("skipped: {test} needs CUPS (TYREDESK_TEST_IPP_URL, TYREDESK_TEST_IPP_OUT; start it with `eval \"$(.ci/cups.sh start)\"`)");
            None
        }
    }
}

/// An address where nothing listens: a loopback port just bound and let go.
pub fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("ipp://127.0.0.1:{port}/printers/Nowhere")
}

/// Retries in milliseconds, not seconds (the harness's back-off).
pub fn fast_retries() {
    services::printing::worker::set_backoff(Duration::from_millis(5));
}

/// Adds a printer through Settings › Printers as `s` (role 4); answers its id.
pub async fn add_printer(app: &TestApp, s: &Session, org: i64, name: &str, url: &str, warehouse: Option<i64>) -> i64 {
    let w = warehouse.map(|w| w.to_string()).unwrap_or_default();
    let res = app.post_form("/settings/printers", s, &[("name", name), ("url", url), ("warehouse_id", &w), ("active", "1")]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let name = name.to_string();
    app.state
        .db
        .run(move |c| Ok(db::schema::printers::table.filter(db::schema::printers::org_id.eq(org)).filter(db::schema::printers::name.eq(name)).select(db::schema::printers::id).first::<i64>(c)?))
        .await
        .unwrap()
}

/// Runs the print worker until no print job waits.
pub async fn drain(app: &TestApp) {
    services::printing::worker::drain(&app.state.core, 50).await.expect("print worker");
}

/// A print job's row: state, printer job-id, attempts, last error.
pub async fn print_row(app: &TestApp, id: i64) -> (String, Option<i32>, i32, String) {
    use db::schema::print_jobs as p;
    app.state.db.run(move |c| Ok(p::table.find(id).select((p::state, p::printer_job_id, p::attempts, p::last_error)).first(c)?)).await.unwrap()
}

fn pages(path: &std::path::Path) -> Option<u32> {
    let run = std::process::Command::new("pdfinfo").arg(path).output().expect("pdfinfo (poppler-utils)");
    let info = String::from_utf8_lossy(&run.stdout).into_owned();
    info.lines().find_map(|l| l.strip_prefix("Pages:")).and_then(|n| n.trim().parse().ok())
}

/// Waits (at most 30 s) for cups-pdf to write the PDF of CUPS job `job`, checks it has as
/// many pages as the document CUPS received for the job (its spool file), and answers the
/// text of that document (cups-pdf's own PDF went through PostScript, whose CID fonts
/// pdftotext cannot read back).
pub async fn printed_text(out: &std::path::Path, job: i32) -> String {
    let spool = PathBuf::from(std::env::var("TYREDESK_TEST_IPP_SPOOL").expect("TYREDESK_TEST_IPP_SPOOL (set by .ci/cups.sh)"));
    let document = spool.join(format!("d{job:05}-001"));
    let suffix = format!("-job_{job}.pdf");
    for _ in 0..300 {
        let found = std::fs::read_dir(out).unwrap().filter_map(Result::ok).map(|e| e.path()).find(|p| p.to_string_lossy().ends_with(&suffix));
        // cups-pdf writes the file in place: wait until it reads whole.
        if let Some(printed) = found.filter(|p| pages(p).is_some()) {
            assert_eq!(pages(&printed), pages(&document), "cups-pdf printed every page of {}", document.display());
            return crate::support::pdf_text(&std::fs::read(&document).unwrap());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no PDF of CUPS job {job} in {}", out.display());
}
