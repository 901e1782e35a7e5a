use documents::document::fixtures::{company, line, sheet};
use documents::{DocKind, Document, Variant, build};

use super::*;

fn doc(dept: i32, kind: DocKind, variant: Variant) -> Document {
    build(&company(dept), &sheet(kind), variant).unwrap()
}

/// Page count of the sheets' PDF.
fn pages(docs: &[Document]) -> usize {
    #[derive(Serialize)]
    struct Data<'a> {
        documents: &'a [Document],
        geometry: Geometry,
        logo: Option<String>,
    }
    let data = serde_json::to_vec(&Data { documents: docs, geometry: Geometry::A4, logo: Logo::Default.path() }).unwrap();
    world::compile_counted(SHEET, data, &Logo::Default).unwrap().1
}

#[test]
fn every_department_kind_and_variant_typesets() {
    for dept in [4, 7, 8, 10, 12] {
        for kind in [DocKind::Invoice, DocKind::CreditNote] {
            for variant in [Variant::Standard, Variant::NoPrice] {
                let pdf = sheets(&[doc(dept, kind, variant)], &Logo::Default).unwrap();
                assert!(pdf.starts_with(b"%PDF-"), "dept {dept} {kind:?} {variant:?}");
            }
        }
    }
}

/// The PDF has exactly the pages the model split, so 'Page N of M' is true in it: rows are
/// laid out no taller than the model measured them, long descriptions included.
#[test]
fn the_pdf_keeps_the_models_page_splits() {
    for n in [1, 25, 26, 60, 140] {
        let mut s = sheet(DocKind::Invoice);
        s.lines = (1..=n)
            .map(|i| {
                let mut l = line(&format!("P{i:03}"), "Tyre", 1, 10_000, "A01");
                if i % 3 == 0 {
                    l.description = "Bridgestone Potenza Sport 245/40R18 97Y XL run-flat, fitted and balanced, old tyre disposed of, wheel alignment checked and adjusted to the manufacturer's specification".into();
                }
                l
            })
            .collect();
        for dept in [4, 7] {
            for variant in [Variant::Standard, Variant::NoPrice] {
                let d = build(&company(dept), &s, variant).unwrap();
                assert_eq!(pages(std::slice::from_ref(&d)), d.pages.len(), "{n} lines, department {dept}, {variant:?}");
            }
        }
    }
}

#[test]
fn a_batch_is_one_pdf_with_every_documents_pages() {
    let a = doc(4, DocKind::Invoice, Variant::Standard);
    let b = doc(4, DocKind::CreditNote, Variant::Standard);
    assert_eq!(pages(&[a.clone(), b.clone()]), a.pages.len() + b.pages.len());
}

#[test]
fn an_uploaded_logo_is_placed_and_one_that_does_not_decode_is_left_out() {
    // One transparent pixel, and the same with its data damaged.
    let png: Vec<u8> = vec![137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21, 196, 137, 0, 0, 0, 11, 73, 68, 65, 84, 120, 156, 99, 96, 0, 2, 0, 0, 5, 0, 1, 122, 94, 171, 63, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130];
    let mut damaged = png.clone();
    damaged[45] ^= 0xff;
    let d = doc(4, DocKind::Invoice, Variant::Standard);
    // A logo typst cannot decode never stops an invoice: it prints without it.
    for logo in [Logo::Image { mime: "image/png".into(), bytes: png }, Logo::Image { mime: "image/png".into(), bytes: damaged }, Logo::None, Logo::Default] {
        assert!(sheets(std::slice::from_ref(&d), &logo).unwrap().starts_with(b"%PDF-"), "{logo:?}");
    }
}

/// Writes sample PDFs to `$TYREDESK_PDF_SAMPLES` for a person to look at.
#[test]
fn samples() {
    let Ok(dir) = std::env::var("TYREDESK_PDF_SAMPLES") else { return };
    for dept in [4, 7] {
        for (kind, k) in [(DocKind::Invoice, "invoice"), (DocKind::CreditNote, "credit")] {
            for variant in [Variant::Standard, Variant::NoPrice] {
                let pdf = sheets(&[doc(dept, kind, variant)], &Logo::Default).unwrap();
                std::fs::write(format!("{dir}/dept{dept}_{k}_{}.pdf", variant.as_str()), pdf).unwrap();
            }
        }
    }
}

mod issue_33 {
    //! Quotation, statement and purchase order: typst paginates them.

    use chrono::NaiveDate;
    use documents::document::fixtures::company;
    use documents::purchase_order::{self, PoLine, PurchaseOrder};
    use documents::quotation::{self, Quotation, QuotationLine};
    use documents::statement::{self, LedgerSheet, SheetKind, StatementCustomer};
    use domain::enums::TaxType;
    use domain::money::Cents;
    use domain::statement::Month;

    use super::super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    pub fn quotation_of(n: usize) -> Quotation {
        Quotation {
            no: "Q-000001".into(),
            date: d(2026, 11, 20),
            valid_until: quotation::valid_until(d(2026, 11, 20), 7),
            customer_name: "Harbour Auto Repairs".into(),
            customer_code: "C100".into(),
            address: "4 Wharf St, Pyrmont NSW 2009".into(),
            phone: "02 9660 1234".into(),
            email: "accounts@harbourauto.example".into(),
            staff: "Sam".into(),
            lines: (1..=n).map(|i| QuotationLine { code: format!("P{i:03}"), description: format!("Tyre number {i}"), qty: 1, price: Cents(100_00), amount: Cents(100_00) }).collect(),
        }
    }

    fn count(template: Template, data: serde_json::Value) -> usize {
        world::compile_counted(template, serde_json::to_vec(&data).unwrap(), &Logo::Default).unwrap().1
    }

    fn with(mut v: serde_json::Value) -> serde_json::Value {
        v["geometry"] = serde_json::to_value(Geometry::A4).unwrap();
        v["logo"] = Logo::Default.path().into();
        v
    }

    #[test]
    fn a_long_quotation_runs_onto_more_pages() {
        for (n, pages) in [(3, 1), (60, 2)] {
            let doc = quotation::build(&company(4), &quotation_of(n)).unwrap();
            assert_eq!(count(QUOTATION, with(serde_json::json!({ "quotation": doc }))), pages, "{n} lines");
            assert!(super::super::quotation(&doc, &Logo::None).unwrap().starts_with(b"%PDF-"));
        }
    }

    pub fn ledger() -> Vec<LedgerSheet> {
        (1..=40)
            .map(|i| LedgerSheet {
                kind: if i % 5 == 0 { SheetKind::CreditNote } else { SheetKind::Invoice },
                no: format!("INV-{i:06}"),
                date: d(2026, 10, 1 + (i % 28)),
                due: Some(d(2026, 11, 1)),
                reference: String::new(),
                amount: Cents(i64::from(i) * 10_00),
                paid: None,
            })
            .collect()
    }

    #[test]
    fn statements_each_start_on_a_new_page() {
        let month = Month::of(d(2026, 10, 1));
        let one = statement::build(&company(4), &StatementCustomer { name: "A".into(), ..Default::default() }, &ledger(), month);
        let short = statement::build(&company(4), &StatementCustomer { name: "B".into(), ..Default::default() }, &ledger()[..2], month);
        let long = count(STATEMENT, with(serde_json::json!({ "statements": [one.clone()] })));
        assert!(long >= 1);
        assert_eq!(count(STATEMENT, with(serde_json::json!({ "statements": [one, short.clone(), short] }))), long + 2);
    }

    #[test]
    fn a_purchase_order_typesets() {
        let po = PurchaseOrder {
            no: "PO-000001".into(),
            date: d(2026, 11, 2),
            expected: None,
            reference: String::new(),
            comments: String::new(),
            supplier_name: "Pacific Tyre Imports".into(),
            supplier_code: String::new(),
            supplier_contact: String::new(),
            deliver_to: None,
            tax_type: TaxType::TaxInclusive,
            staff: String::new(),
            lines: vec![PoLine { code: "X".into(), name: "Tyre".into(), description: "Tyre".into(), qty: 2, price: Cents(50_00), amount: Cents(100_00) }],
            currency: "USD".into(),
            rate: Some(domain::currency::Rate(652_000)),
        };
        let doc = purchase_order::build(&company(4), &po).unwrap();
        assert!(super::super::purchase_order(&doc, &Logo::Default).unwrap().starts_with(b"%PDF-"));
    }

    /// Writes the samples to `$TYREDESK_PDF_SAMPLES`.
    #[test]
    fn samples() {
        let Ok(dir) = std::env::var("TYREDESK_PDF_SAMPLES") else { return };
        let q = quotation::build(&company(4), &quotation_of(60)).unwrap();
        std::fs::write(format!("{dir}/quotation.pdf"), super::super::quotation(&q, &Logo::Default).unwrap()).unwrap();
        let month = Month::of(d(2026, 10, 1));
        let s = statement::build(&company(4), &StatementCustomer { name: "A".into(), ..Default::default() }, &ledger(), month);
        let s2 = statement::build(&company(4), &StatementCustomer { name: "B".into(), ..Default::default() }, &ledger()[..3], month);
        std::fs::write(format!("{dir}/statements.pdf"), statements(&[s, s2], &Logo::Default).unwrap()).unwrap();
    }
}
