//! Spreadsheets: export (rust_xlsxwriter) and import (calamine; xls checked first by `xls`).

pub mod dispatch;
pub mod export;
pub mod import;
pub mod xls;
