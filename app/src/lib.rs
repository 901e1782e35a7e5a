//! TyreDesk: the back office of a tyre, wheel, battery and auto-parts wholesaler.

pub mod api;
pub mod assets;
pub mod auth;
pub mod bench;
pub mod config;
pub mod http;
pub mod ops;
pub mod print;
pub mod seed;
pub mod server;
pub mod shop;
pub mod ssr;
pub mod state;
pub mod web;

pub use server::router;
