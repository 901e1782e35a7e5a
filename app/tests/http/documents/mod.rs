//! Quotations, customer statements and the purchase order for the supplier as PDF (issue
//! 33): each PDF's text, read back with `pdftotext`, says what a user checks on paper.

mod purchase_order;
mod quotation;
mod statement;

pub use crate::support::pdf_text;

/// Asserts the response is an inline PDF and answers its text.
pub fn inline_pdf(res: &crate::support::TestResponse) -> String {
    assert_eq!(res.status, axum::http::StatusCode::OK, "{}", res.body.chars().take(400).collect::<String>());
    assert_eq!(res.headers.get("content-type").unwrap(), "application/pdf");
    assert!(res.headers.get("content-disposition").unwrap().to_str().unwrap().starts_with("inline;"));
    pdf_text(&res.bytes)
}
