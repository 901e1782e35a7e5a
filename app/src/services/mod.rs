//! Use cases that combine the database and the domain rules, each in one transaction. The
//! HTML handlers and the JSON API call the same functions, so a rule is enforced once.

pub mod admin;
pub mod delivery;
pub mod exports;
pub mod imports;
pub mod line_import;
pub mod masters;
pub mod ocop_import;
pub mod orders;
pub mod prices;
pub mod pricing;
pub mod print;
pub mod quoting;
pub mod reference_data;
pub mod shop;
pub mod sign_in;
pub mod xero;
