//! The print page: a [`documents::Document`] laid out as HTML, which the browser prints.

pub mod html;
