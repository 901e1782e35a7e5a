//! The JSON API of spec §7 under `/api`, plus `POST /oauth/token`. Handlers are thin:
//! parse, call the database or a service, serialise.

pub mod base;
pub mod imports;
pub mod masters;
pub mod orders;
pub mod prices;
pub mod reports;
pub mod token;
pub mod xero;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post, put};

use domain::uploads::MAX_UPLOAD_BODY_BYTES;
use crate::state::AppState;

/// The line import (spreadsheet upload).
pub const LINE_IMPORT: &str = "/api/ag/lines";
/// The OCOP price import (spreadsheet upload).
pub const OCOP_IMPORT: &str = "/api/ag/ocops";
/// Import Draft Inv (spreadsheet upload).
pub const DRAFT_IMPORT: &str = "/api/ag/orders-import";
/// Import Basic (spreadsheet upload).
pub const BASIC_IMPORT: &str = "/api/ag/import";

/// Routes of the JSON API.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/oauth/token", post(token::issue))
        .route("/api/account", get(base::account))
        .route("/api/brands", get(base::brands))
        .route("/api/warehouses", get(base::warehouses))
        .route("/api/employees", get(base::employees))
        .route("/api/area-types", get(base::area_types))
        .route("/api/payment-types", get(base::payment_types))
        .route("/api/printInfo", get(base::print_info))
        .route("/api/csr-self-order", get(base::self_order_count))
        .route("/api/password", post(base::change_password))
        .route("/api/customers", get(masters::customers).post(masters::create_customer))
        .route("/api/customers/{id}", get(masters::customer).put(masters::update_customer))
        .route("/api/products", get(masters::products).post(masters::create_product))
        .route("/api/products/{id}", get(masters::product).put(masters::update_product))
        .route("/api/suppliers", get(masters::suppliers))
        .route("/api/balance/{id}", get(masters::balance))
        .route("/api/products/{id}/history", get(orders::product_history))
        .route("/api/products/{id}/lots", get(masters::product_lots))
        .route("/api/orders", get(orders::list).post(orders::create))
        .route("/api/orders/{id}", get(orders::get).put(orders::update))
        .route("/api/orders/{id}/approve", post(orders::approve))
        .route("/api/orders/{id}/unApprove", post(orders::unapprove))
        .route("/api/orders/{id}/void", post(orders::void))
        .route("/api/orders/{id}/close", post(orders::close))
        .route("/api/orders/print", post(orders::printed))
        .route("/api/orders/{id}/print", post(orders::print))
        .route("/api/orders/{id}/delivery", post(orders::delivery_status))
        .route("/api/orders/{id}/date", post(orders::date))
        .route("/api/orders/{id}/address", post(orders::address))
        .route("/api/orders/{id}/history", get(orders::history))
        .route("/api/order-next", get(orders::next))
        .route("/api/delivery", post(orders::delivery))
        .route("/api/xero", post(xero::batch))
        .route("/api/xero/connection", get(xero::get).put(xero::put).delete(xero::delete))
        .route("/api/xero/connection/test", post(xero::test))
        .route("/api/xero/mapping", put(xero::mapping))
        .route("/api/xero/authorize", post(xero::authorize))
        .route("/api/xero/organisation", put(xero::organisation))
        .route("/api/xero/payments", post(xero::payments))
        .route("/api/xero/{id}/{what}", post(orders::xero))
        .route("/api/due-date", get(orders::due))
        .route(LINE_IMPORT, post(orders::import_lines).layer(DefaultBodyLimit::max(MAX_UPLOAD_BODY_BYTES)))
        .route("/api/quotings", get(prices::quotings))
        .route("/api/ocops", get(prices::by_customer))
        .route("/api/ocops/{id}", get(prices::of_product).put(prices::put))
        .route(OCOP_IMPORT, post(prices::import).layer(DefaultBodyLimit::max(MAX_UPLOAD_BODY_BYTES)))
        .route(DRAFT_IMPORT, post(imports::draft_invoices).layer(DefaultBodyLimit::max(MAX_UPLOAD_BODY_BYTES)))
        .route(BASIC_IMPORT, post(imports::basic).layer(DefaultBodyLimit::max(MAX_UPLOAD_BODY_BYTES)))
        .route("/api/products/{id}/price", post(prices::set_price))
        .route("/api/products/{id}/price-changes", get(prices::price_changes))
        .route("/api/reports", get(reports::list).post(reports::create))
        .route("/api/reports/{id}/cancel", post(reports::cancel))
        .route("/api/download/{name}", get(reports::download))
}

