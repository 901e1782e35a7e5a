//! HTTP-level tests: the real router, in-process, on SQLite or PostgreSQL.
//!
//! One folder per area of the application, one file per screen or route family:
//! `TestApp::new()` (see `support`) builds an app over its own copy of the demo data.

mod support;

mod admin;
mod api;
mod dispatch;
mod documents;
mod email;
mod master_data;
mod operations;
mod pages;
mod printing;
mod purchasing;
mod reports;
mod sheets;
mod shop;
mod sign_in;
mod trust;
mod tyres;
mod xero;
