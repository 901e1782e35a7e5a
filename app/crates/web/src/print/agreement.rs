//! The print page and the PDF never say different things (issue 33): for every department
//! the rules of spec §2.7 tell apart, both kinds, both variants, a branch and a third-party
//! warehouse, a draft, and a document of several pages, the words of the print page's HTML
//! and the words `pdftotext` (poppler, a real PDF reader) reads from the PDF are the same
//! multiset. Then each department's rules are asserted on the PDF's own text.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use askama::Template;
use documents::document::fixtures::{company, line, sheet};
use documents::rules::WarehouseRole;
use documents::{DocKind, Document, Sheet, SheetWarehouse, Variant, build};

use super::html::DocumentHtml;

/// The text poppler's `pdftotext` reads from a PDF.
pub fn pdf_text(pdf: &[u8]) -> String {
    let mut child = Command::new("pdftotext")
        .args(["-enc", "UTF-8", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pdftotext (Debian's poppler-utils, installed by .ci/run) reads the PDFs back");
    child.stdin.take().unwrap().write_all(pdf).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "pdftotext failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The visible text of an HTML fragment: tags dropped, entities decoded.
fn html_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let mut decoded = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find('&') {
        decoded.push_str(&rest[..at]);
        let after = &rest[at..];
        let end = after.find(';').filter(|e| *e <= 8).expect("an entity ends within 8 characters");
        let entity = &after[1..end];
        let c = match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "nbsp" => ' ',
            e if e.starts_with("#x") => char::from_u32(u32::from_str_radix(&e[2..], 16).unwrap()).unwrap(),
            e if e.starts_with('#') => char::from_u32(e[1..].parse().unwrap()).unwrap(),
            e => panic!("entity &{e};"),
        };
        decoded.push(c);
        rest = &after[end + 1..];
    }
    decoded.push_str(rest);
    decoded
}

/// Words and how often each occurs; case is the stylesheet's (`text-transform`) and
/// typography's business, not the words'.
fn words(text: &str) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    counts
}

fn pdf_of(doc: &Document) -> Vec<u8> {
    pdf::sheets(std::slice::from_ref(doc), &pdf::Logo::Default).expect("typesets")
}

fn assert_same_words(doc: &Document, what: &str) {
    let html = DocumentHtml { doc }.render().unwrap();
    let (from_html, from_pdf) = (words(&html_text(&html)), words(&pdf_text(&pdf_of(doc))));
    if from_html != from_pdf {
        let only_html: Vec<_> = from_html.iter().filter(|(w, n)| from_pdf.get(*w) != Some(n)).collect();
        let only_pdf: Vec<_> = from_pdf.iter().filter(|(w, n)| from_html.get(*w) != Some(n)).collect();
        panic!("{what}: the print page and the PDF say different things\n  print page: {only_html:?}\n  PDF:        {only_pdf:?}");
    }
}

fn variants() -> [(DocKind, Variant); 4] {
    [(DocKind::Invoice, Variant::Standard), (DocKind::Invoice, Variant::NoPrice), (DocKind::CreditNote, Variant::Standard), (DocKind::CreditNote, Variant::NoPrice)]
}

fn warehouse(is_branch: bool, is_third_party: bool) -> Option<SheetWarehouse> {
    Some(SheetWarehouse { name: "Wetherill Park Branch".into(), address: "7 Victoria St, Wetherill Park NSW 2164".into(), role: WarehouseRole { is_branch, is_third_party } })
}

fn doc_for(dept: i32, kind: DocKind, variant: Variant, adjust: impl Fn(&mut Sheet)) -> Document {
    let mut s = sheet(kind);
    if dept == 10 {
        s.self_note = "Please ring before delivery.".into();
    }
    adjust(&mut s);
    build(&company(dept), &s, variant).unwrap()
}

#[test]
fn the_print_page_and_the_pdf_say_the_same_words_in_every_department() {
    for dept in [4, 7, 8, 9, 10, 12] {
        for (kind, variant) in variants() {
            let doc = doc_for(dept, kind, variant, |_| {});
            assert_same_words(&doc, &format!("department {dept}, {} ", doc.title));
        }
    }
}

#[test]
fn they_agree_for_branch_and_third_party_warehouses_drafts_and_credits() {
    for (dept, wh) in [(4, warehouse(true, false)), (4, warehouse(false, true)), (7, warehouse(true, false))] {
        for (kind, variant) in variants() {
            let doc = doc_for(dept, kind, variant, |s| s.warehouse = wh.clone());
            assert_same_words(&doc, &format!("department {dept}, {:?}, {}", wh.as_ref().map(|w| &w.role), doc.title));
        }
    }
    let draft = doc_for(4, DocKind::CreditNote, Variant::Standard, |s| {
        s.draft = true;
        s.credit_for = Some("INV-000120".into());
    });
    assert_same_words(&draft, "a draft credit note");
}

#[test]
fn they_agree_page_for_page_on_a_long_document() {
    let long = "Bridgestone Potenza Sport 245/40R18 97Y XL run-flat, fitted and balanced, old tyre disposed of, wheel alignment checked";
    for variant in [Variant::Standard, Variant::NoPrice] {
        let doc = doc_for(7, DocKind::Invoice, variant, |s| {
            s.lines = (1..=70).map(|i| if i % 4 == 0 { line(&format!("P{i:03}"), long, 2, 18_990, "B02") } else { line(&format!("P{i:03}"), "Tyre", 1, 10_000, "A01") }).collect();
            s.comments = "Deliver to the rear entrance. ".repeat(12);
        });
        assert!(doc.pages.len() >= 3, "a long document");
        assert_same_words(&doc, &format!("70 lines, {}", variant.label()));
        let text = pdf_text(&pdf_of(&doc));
        // pdftotext separates pages with a form feed.
        assert_eq!(text.matches('\u{c}').count(), doc.pages.len(), "one PDF page per page of the model");
        for n in 1..=doc.pages.len() {
            assert!(text.contains(&format!("Page {n} of {}", doc.pages.len())));
        }
        assert!(text.contains(long.split(' ').next_back().unwrap()), "every word of a long description prints");
    }
}

/// Spec §2.7 on the PDF's own text, department by department.
#[test]
fn each_departments_rules_hold_in_the_pdf() {
    let text = |dept: i32, kind: DocKind, variant: Variant| pdf_text(&pdf_of(&doc_for(dept, kind, variant, |_| {})));
    for dept in [4, 7, 8, 9, 10, 12] {
        let inv = text(dept, DocKind::Invoice, Variant::Standard);
        let docket = text(dept, DocKind::Invoice, Variant::NoPrice);
        let credit = text(dept, DocKind::CreditNote, Variant::Standard);
        let credit_docket = text(dept, DocKind::CreditNote, Variant::NoPrice);
        let has = |t: &str, s: &str| t.contains(s);
        // Titles, advice slips, bank details and totals.
        assert!(has(&inv, "TAX INVOICE") && has(&inv, "PAYMENT ADVICE") && has(&inv, "BSB:") && has(&inv, "TOTAL AUD"), "department {dept} invoice");
        assert!(has(&credit, "CREDIT NOTE") && has(&credit, "CREDIT ADVICE") && has(&credit, "TOTAL CREDIT") && !has(&credit, "BSB:"), "department {dept} credit note");
        assert!(has(&docket, "Delivery Doc") && has(&credit_docket, "Delivery Doc(Credit)"), "department {dept} dockets");
        for t in [&docket, &credit_docket] {
            assert!(!has(t, "TOTAL") && !has(t, "ADVICE") && !has(t, "$"), "department {dept}: no prices without prices");
        }
        // GST-exclusive prices: departments 7 and 8 print a Subtotal and the line price less GST
        // ($219.00 a tyre prints 199.09); the others print prices as entered.
        let ex_gst = matches!(dept, 7 | 8);
        assert_eq!(has(&inv, "Subtotal"), ex_gst, "department {dept} Subtotal");
        assert_eq!(has(&inv, "199.09"), ex_gst, "department {dept} GST-exclusive price");
        assert_eq!(has(&inv, "219.00"), !ex_gst, "department {dept} price as entered");
        // The location column: departments 4, 7 and 9 up; 'call' prints blank.
        let loc = matches!(dept, 4 | 7 | 9 | 10 | 12);
        assert_eq!(has(&inv, "Loc.") && has(&inv, "A01/B03"), loc, "department {dept} Loc.");
        assert!(!inv.split_whitespace().any(|w| w == "call"), "'call' prints blank (department {dept})");
        // The reference: departments 7, 8 and 12.
        assert_eq!(has(&inv, "PO 7781"), matches!(dept, 7 | 8 | 12), "department {dept} reference");
        // Department 10's notice and the customer's own note.
        assert_eq!(has(&inv, "Please check all goods on receipt"), dept == 10, "department {dept} notice");
        assert_eq!(has(&inv, "Please ring before delivery."), dept == 10, "notes");
        // Everywhere: the customer's ABN (an 11-digit code), the return policy, the staff.
        for t in [&inv, &docket, &credit, &credit_docket] {
            assert!(has(t, "ABN 51824753556") && has(t, "Return policy") && has(t, "Sam Sales") && has(t, "Page 1 of 1"), "department {dept}");
        }
    }
    // A branch prints its own address; department 4's third-party store is where to collect
    // from, with no locations.
    let branch = pdf_text(&pdf_of(&doc_for(4, DocKind::Invoice, Variant::Standard, |s| s.warehouse = warehouse(true, false))));
    assert!(branch.contains("Branch: Wetherill Park Branch") && branch.contains("7 Victoria St") && !branch.contains("112 Princes Highway"));
    let third = pdf_text(&pdf_of(&doc_for(4, DocKind::Invoice, Variant::Standard, |s| s.warehouse = warehouse(false, true))));
    assert!(third.contains("Collect From") && !third.contains("Loc.") && third.contains("112 Princes Highway"));
    // A credit note names the invoice it credits; a draft says so.
    let draft = pdf_text(&pdf_of(&doc_for(4, DocKind::CreditNote, Variant::Standard, |s| {
        s.draft = true;
        s.credit_for = Some("INV-000120".into());
    })));
    assert!(draft.contains("Draft for Fetch") && draft.contains("Credit for") && draft.contains("INV-000120"));
}

#[test]
fn user_text_is_data_not_markup_in_the_pdf() {
    let doc = doc_for(4, DocKind::Invoice, Variant::Standard, |s| {
        s.customer_name = "#set page(width: 1cm) *bold* $x$ ] ) \\ <tag> @ref".into();
        s.comments = "= Heading? #panic(\"no\")".into();
    });
    let text = pdf_text(&pdf_of(&doc));
    assert!(text.contains("#set page(width: 1cm) *bold* $x$ ] ) \\ <tag> @ref") && text.contains("#panic(\"no\")"), "{text}");
    assert_same_words(&doc, "markup-like user text");
}
