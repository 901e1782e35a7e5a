//! Quotations, customer statements and the purchase order for the supplier as PDF (issue
//! 33): each PDF's text, read back with `pdftotext`, says what a user checks on paper.

mod purchase_order;
mod quotation;
mod statement;

/// The text of a PDF (`pdftotext -layout`), with runs of spaces made one so that a table
/// row reads as `1 P001 Tyre 2 100.00 …`.
pub fn pdf_text(bytes: &[u8]) -> String {
    assert!(bytes.starts_with(b"%PDF-"), "a PDF: {}", String::from_utf8_lossy(&bytes[..bytes.len().min(200)]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.pdf");
    std::fs::write(&path, bytes).unwrap();
    let out = std::process::Command::new("pdftotext")
        .args(["-layout", "-enc", "UTF-8"])
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed: .ci/run installs it");
    assert!(out.status.success(), "pdftotext failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n")
}

/// Asserts the response is an inline PDF and answers its text.
pub fn inline_pdf(res: &crate::support::TestResponse) -> String {
    assert_eq!(res.status, axum::http::StatusCode::OK, "{}", res.body.chars().take(400).collect::<String>());
    assert_eq!(res.headers.get("content-type").unwrap(), "application/pdf");
    assert!(res.headers.get("content-disposition").unwrap().to_str().unwrap().starts_with("inline;"));
    pdf_text(&res.bytes)
}
