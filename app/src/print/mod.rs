//! A4 documents (spec §2.7, DESIGN §5): the layout rules, text measuring and page splitting,
//! the document model built from a sheet, and its HTML. The browser prints the HTML;
//! nothing here touches the database.

pub mod document;
pub mod html;
pub mod measure;
pub mod pages;
pub mod rules;

pub use document::{Company, DocKind, Document, Sheet, SheetLine, SheetWarehouse, Variant, build};
