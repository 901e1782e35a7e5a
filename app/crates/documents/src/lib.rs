//! A4 documents (spec §2.7, DESIGN §5): the layout rules, text measuring and page splitting,
//! and the document model built from a sheet. The server lays a [`Document`] out as HTML
//! (its print page); nothing here touches the database or the web.

pub mod document;
pub mod measure;
pub mod pages;
pub mod purchase_order;
pub mod quotation;
pub mod rules;
pub mod statement;

pub use document::{Company, DocKind, Document, Sheet, SheetLine, SheetWarehouse, Variant, build};
