//! HTTP-level tests: the real router, in-process, on SQLite or PostgreSQL.

mod support;

mod api_base;
mod auth;
mod concurrency;
mod cost;
mod admin;
mod baseinfo;
mod exports;
mod hardening;
mod imports;
mod isolation;
mod lists;
mod ops;
mod master_lists;
mod print;
mod query_count;
mod quoting;
mod report_queue;
mod reports_inventory;
mod reports_purchase;
mod reports_sales;
mod reports_screens;
mod scale_out;
mod schema;
mod search;
mod seed;
mod sheet_lists;
mod sheets;
mod shell;
mod shop;
mod ssr;
mod streaming;
mod trust;
mod uploads;
mod xero;
