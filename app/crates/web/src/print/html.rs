//! The print page and the document fragment as askama templates; they lay out a
//! [`Document`] and decide nothing themselves.

use askama::Template;
use askama_web::WebTemplate;

use documents::Document;

/// The A4 print page of one or several documents (`/order_print/…`).
#[derive(Template, WebTemplate)]
#[template(path = "print/page.html")]
pub struct PrintPage {
    pub title: String,
    pub css: String,
    pub js: String,
    pub csrf: String,
    pub org_id: i64,
    /// The sheet ids the page marks printed, comma-separated.
    pub ids: String,
    pub variant: &'static str,
    pub mark_url: &'static str,
    pub documents: Vec<Document>,
}

/// One document's pages, without the page around them (snapshots, batch pages).
#[derive(Template)]
#[template(path = "print/document.html")]
pub struct DocumentHtml<'a> {
    pub doc: &'a Document,
}

#[cfg(test)]
mod tests {
    use super::*;
    use documents::document::fixtures::{company, line, sheet};
    use documents::document::{DocKind, Variant, build};

    fn render(dept: i32, kind: DocKind, variant: Variant) -> String {
        let mut s = sheet(kind);
        if dept == 10 {
            s.self_note = "Please call before delivery.".into();
        }
        let doc = build(&company(dept), &s, variant).unwrap();
        DocumentHtml { doc: &doc }.render().expect("renders")
    }

    /// HTML snapshots of every department the rules tell apart, with and without prices,
    /// for invoices and credit notes (app/crates/web/src/print/snapshots/).
    #[test]
    fn documents_by_department_variant_and_kind() {
        for dept in [4, 7, 8, 10, 12] {
            for (kind, k) in [(DocKind::Invoice, "invoice"), (DocKind::CreditNote, "credit")] {
                for (variant, v) in [(Variant::Standard, "standard"), (Variant::NoPrice, "noprice")] {
                    insta::assert_snapshot!(format!("dept{dept}_{k}_{v}"), render(dept, kind, variant));
                }
            }
        }
    }

    #[test]
    fn the_template_places_what_the_model_says() {
        let html = render(7, DocKind::Invoice, Variant::Standard);
        for text in ["<h1>TAX INVOICE</h1>", "ABN 53 004 085 616", "ABN 51824753556", "<th>Reference</th><td>PO 7781</td>", "<th class=\"loc\">Loc.</th>", "<th>Subtotal</th><td>$1,100.45</td>", "<th>TOTAL GST 10%</th><td>$110.05</td>", "<th>TOTAL AUD</th><td>$1,210.50</td>", "PAYMENT ADVICE", "Page 1 of 1", "<span>Picked by</span>", "<span>Customer Sign</span>"] {
            assert!(html.contains(text), "missing {text}");
        }
        let np = render(8, DocKind::CreditNote, Variant::NoPrice);
        assert!(np.contains("<h1>Delivery Doc(Credit)</h1>"));
        for absent in ["<th class=\"money\">", "TOTAL", "CREDIT ADVICE", "<th class=\"loc\">"] {
            assert!(!np.contains(absent), "{absent} must not print without prices in department 8");
        }
        let cn = render(4, DocKind::CreditNote, Variant::Standard);
        assert!(cn.contains("<th>TOTAL CREDIT</th>") && cn.contains("Please do not pay on this advice."));
        assert!(!cn.contains("BSB"), "no bank details on credit notes");
    }

    #[test]
    fn every_page_repeats_the_table_header_and_the_closing_block_comes_once() {
        let mut s = sheet(DocKind::Invoice);
        s.lines = (1..=60).map(|i| line(&format!("P{i:03}"), "Tyre", 1, 10_000, "A01")).collect();
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        let html = DocumentHtml { doc: &doc }.render().unwrap();
        assert_eq!(html.matches("<section class=\"page\"").count(), 3);
        assert_eq!(html.matches("<th class=\"desc\">Description</th>").count(), 3);
        assert_eq!(html.matches("(continued)</header>").count(), 2);
        assert_eq!(html.matches("<div class=\"closing\">").count(), 1);
        assert_eq!(html.matches("PAYMENT ADVICE").count(), 1);
        for n in 1..=3 {
            assert!(html.contains(&format!("Page {n} of 3")));
        }
        let last_page = html.rsplit("<section class=\"page\"").next().unwrap();
        assert!(last_page.contains("P060 Tyre") && last_page.contains("TOTAL AUD"));
    }

    #[test]
    fn long_descriptions_print_every_word_and_wrap_in_their_column() {
        let long = "BF2055516ADVT 205/55R16 91V BFGOODRICH ADVANTAGE T/A SPORT LT ALL TERRAIN RAISED WHITE LETTERS";
        let mut s = sheet(DocKind::Invoice);
        s.lines = vec![line("BF2055516ADVT", long, 1, 10_000, "A01")];
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        let html = DocumentHtml { doc: &doc }.render().unwrap();
        assert!(html.contains(&format!("<td class=\"desc\">{long}</td>")), "the whole description, the code once");
        // The stylesheet wraps cells, anywhere in a word that is wider than its column, and
        // cuts no line with an ellipsis.
        let css = include_str!("../../../../../static/css/print.css");
        let cells = css.lines().find(|l| l.starts_with(".lines th,.lines td{")).expect("the cell rule");
        assert!(cells.contains("overflow-wrap:anywhere"), "{cells}");
        for rule in css.lines().filter(|l| l.starts_with(".lines")) {
            assert!(!rule.contains("ellipsis") && !rule.contains("overflow:hidden") && !rule.contains("line-clamp"), "{rule}");
        }
        assert!(!css.contains("line-clamp"), "notes and comments print whole too");
    }

    #[test]
    fn user_text_is_escaped() {
        let mut s = sheet(DocKind::Invoice);
        s.customer_name = "<script>alert(1)</script>".into();
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        let html = DocumentHtml { doc: &doc }.render().unwrap();
        assert!(!html.contains("<script>") && html.contains("&#60;script&#62;"));
    }
}
