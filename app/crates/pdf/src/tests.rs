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
