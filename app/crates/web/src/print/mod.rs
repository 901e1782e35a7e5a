//! The print page: a [`documents::Document`] laid out as HTML, which the browser prints. The
//! same document is also typeset as PDF by the `pdf` crate; the two say the same words
//! (`agreement` tests).

pub mod html;

#[cfg(test)]
mod agreement;
