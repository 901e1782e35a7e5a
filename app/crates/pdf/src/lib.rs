//! TyreDesk's documents as A4 PDF (DESIGN §13 "Documents"): a document model of
//! `tyredesk-documents`, serialised to JSON, is laid out by a typst template of
//! `templates/pdf/` and written as PDF by `typst-pdf`, in-process and in milliseconds.
//!
//! The templates only place what the model says, as the print page's askama template does,
//! so the PDF and the print page never say different things (a test compares their text).
//! The fonts are embedded: Liberation Sans, the metric twin of the Arial the print page
//! uses and [`documents::measure`] measures, so the model's page splits hold in the PDF.

mod world;

use serde::Serialize;

pub use world::Logo;

/// Why a document could not be typeset: always a defect of ours (a template that does not
/// compile against its model), never the user's input, which is data, not markup.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("the {template} template did not compile: {message}")]
    Template { template: &'static str, message: String },
    #[error("the document model could not be serialised: {0}")]
    Data(#[from] serde_json::Error),
    #[error("the PDF could not be written: {0}")]
    Write(String),
}

/// A typst template of `templates/pdf/`, compiled into the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Template {
    pub name: &'static str,
    source: &'static str,
}

/// Tax invoice, credit note and delivery docket (one or several [`documents::Document`]s).
pub const SHEET: Template = Template { name: "sheet", source: include_str!("../../../../templates/pdf/sheet.typ") };

/// The quotation ([`documents::quotation::QuotationDoc`]); typst paginates it.
pub const QUOTATION: Template = Template { name: "quotation", source: include_str!("../../../../templates/pdf/quotation.typ") };

/// Customer statements ([`documents::statement::StatementDoc`]), each on new pages.
pub const STATEMENT: Template = Template { name: "statement", source: include_str!("../../../../templates/pdf/statement.typ") };

/// The purchase order for the supplier ([`documents::purchase_order::PurchaseOrderDoc`]).
pub const PURCHASE_ORDER: Template = Template { name: "purchase_order", source: include_str!("../../../../templates/pdf/purchase_order.typ") };

/// The picking list of the chosen sheets of a warehouse, and its per-sheet variant for
/// pick-ups at the counter (issue 34); typst paginates.
pub const PICKING_LIST: Template = Template { name: "picking_list", source: include_str!("../../../../templates/pdf/picking_list.typ") };

/// A driver's run sheet (issue 34): stops in order, the money to collect, the QR code of the
/// run's link (`/qr.png`) and space for signatures; typst paginates.
pub const RUN_SHEET: Template = Template { name: "run_sheet", source: include_str!("../../../../templates/pdf/run_sheet.typ") };

/// The shared parts every template imports as `common.typ`.
const COMMON: &str = include_str!("../../../../templates/pdf/common.typ");

/// Typesets `data` with `template`; `logo` is the company's, shown where the template
/// places it (an uploaded logo that does not decode is left out rather than stopping the
/// document). Runs on the calling thread (CPU only): call it from a blocking task.
pub fn render(template: Template, data: &impl Serialize, logo: &Logo) -> Result<Vec<u8>, PdfError> {
    match render_with(template, data, logo) {
        Err(PdfError::Template { .. }) if matches!(logo, Logo::Image { .. }) => render_with(template, data, &Logo::None),
        done => done,
    }
}

fn render_with(template: Template, data: &impl Serialize, logo: &Logo) -> Result<Vec<u8>, PdfError> {
    render_images(template, data, logo, &[])
}

/// [`render`] with other images the template opens at `/{name}` (the run sheet's QR code as
/// `qr.png`); `data` names them itself.
pub fn render_with_images(template: Template, data: &impl Serialize, logo: &Logo, images: &[(&'static str, Vec<u8>)]) -> Result<Vec<u8>, PdfError> {
    match render_images(template, data, logo, images) {
        Err(PdfError::Template { .. }) if matches!(logo, Logo::Image { .. }) => render_images(template, data, &Logo::None, images),
        done => done,
    }
}

fn render_images(template: Template, data: &impl Serialize, logo: &Logo, images: &[(&'static str, Vec<u8>)]) -> Result<Vec<u8>, PdfError> {
    let mut value = serde_json::to_value(data)?;
    if let serde_json::Value::Object(fields) = &mut value {
        fields.insert("logo".into(), logo.path().map_or(serde_json::Value::Null, |p| p.into()));
        if !fields.contains_key("geometry") {
            fields.insert("geometry".into(), serde_json::to_value(Geometry::A4)?);
        }
    }
    world::compile_with_images(template, serde_json::to_vec(&value)?, logo, images)
}

/// The sheets' documents as one PDF, each starting on a new page.
pub fn sheets(docs: &[documents::Document], logo: &Logo) -> Result<Vec<u8>, PdfError> {
    #[derive(Serialize)]
    struct Data<'a> {
        documents: &'a [documents::Document],
        geometry: Geometry,
    }
    render(SHEET, &Data { documents: docs, geometry: Geometry::A4 }, logo)
}

/// A quotation as a PDF.
pub fn quotation(doc: &documents::quotation::QuotationDoc, logo: &Logo) -> Result<Vec<u8>, PdfError> {
    #[derive(Serialize)]
    struct Data<'a> {
        quotation: &'a documents::quotation::QuotationDoc,
        geometry: Geometry,
    }
    render(QUOTATION, &Data { quotation: doc, geometry: Geometry::A4 }, logo)
}

/// Customer statements as one PDF, each starting on a new page with its own page count.
pub fn statements(docs: &[documents::statement::StatementDoc], logo: &Logo) -> Result<Vec<u8>, PdfError> {
    #[derive(Serialize)]
    struct Data<'a> {
        statements: &'a [documents::statement::StatementDoc],
        geometry: Geometry,
    }
    render(STATEMENT, &Data { statements: docs, geometry: Geometry::A4 }, logo)
}

/// A purchase order, as sent to its supplier, as a PDF.
pub fn purchase_order(doc: &documents::purchase_order::PurchaseOrderDoc, logo: &Logo) -> Result<Vec<u8>, PdfError> {
    #[derive(Serialize)]
    struct Data<'a> {
        order: &'a documents::purchase_order::PurchaseOrderDoc,
        geometry: Geometry,
    }
    render(PURCHASE_ORDER, &Data { order: doc, geometry: Geometry::A4 }, logo)
}

/// The page geometry the document model split its pages with, in millimetres, so that the
/// template lays out what the model measured ([`documents::pages`]).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Geometry {
    pub padding_top: f32,
    pub padding_bottom: f32,
    pub padding_side: f32,
    pub col_no: f32,
    pub col_loc: f32,
    pub col_qty: f32,
    pub col_money: f32,
    pub cell_pad: f32,
    pub title_width: f32,
    pub customer_width: f32,
    pub fact_label_width: f32,
    pub totals_width: f32,
    pub line: f32,
}

impl Geometry {
    pub const A4: Self = {
        use documents::pages::{self as p, A4};
        Self {
            padding_top: A4.padding_top,
            padding_bottom: A4.padding_bottom,
            padding_side: A4.padding_side,
            col_no: p::COL_NO,
            col_loc: p::COL_LOC,
            col_qty: p::COL_QTY,
            col_money: p::COL_MONEY,
            cell_pad: p::CELL_PAD,
            title_width: p::TITLE_WIDTH,
            customer_width: p::CUSTOMER_WIDTH,
            fact_label_width: p::FACT_LABEL_WIDTH,
            totals_width: p::TOTALS_WIDTH,
            line: A4.line,
        }
    };
}

#[cfg(test)]
mod tests;
