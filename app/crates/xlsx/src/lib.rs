//! Spreadsheets: export (rust_xlsxwriter) and import (calamine).

pub mod export;
pub mod import;
