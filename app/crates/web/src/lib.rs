//! TyreDesk's HTTP face (docs/architecture.md): the staff pages (`pages`), the JSON API
//! (`api`), the customer shop (`shop`), sign-in, sessions and CSRF (`auth`), what they share
//! (`http`), the print page (`print`), island server rendering (`ssr`), static files
//! (`assets`), and the router with its limits (`server`). Handlers stay thin: they read the
//! request, call a service with the caller's company, and render.

pub mod admission;
pub mod api;
pub mod assets;
pub mod auth;
pub mod config;
pub mod files;
pub mod http;
pub mod pages;
pub mod print;
pub mod runtimes;
pub mod server;
pub mod shop;
pub mod ssr;
pub mod state;

pub use server::router;
