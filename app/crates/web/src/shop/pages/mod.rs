//! The shop's HTML pages: phone first, pages that work without JavaScript, with htmx
//! adding to the cart in place. Handlers read: extract → service → render; a full page's
//! GET sends its head and header before its own queries run (`shell::respond`).

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::shell::{self, Shell};
use super::{SHOP_COOKIES, ShopQuery, Shopper};
use crate::auth::csrf;
use services::password;
use db::shop::{self as shop_db, ShopPrincipal};
use domain::money::Cents;
use domain::shop::{self as rules, CustomerStatus, Shipping};
use domain::validate;
use db::error::{AppError, AppResult};
use services::shop::{self as svc, Browse, CartView, Item};
use services::sign_in;
use crate::state::AppState;
use crate::http::ClientIp;

/// Money as the shop shows it.
pub fn money(c: Cents) -> String {
    format!("${}", c.grouped())
}

/// A product card.
pub struct ItemView {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub brand: String,
    pub spec: String,
    pub price: String,
    /// Whether it can be added to the cart (it has a price for this customer).
    pub orderable: bool,
    pub availability: String,
    pub avail_class: &'static str,
    /// 'DOT 2025' when the company shows it (issue 36).
    pub dot_years: Option<String>,
}

impl From<&Item> for ItemView {
    fn from(i: &Item) -> Self {
        let p = &i.product;
        let spec = [p.specification.as_str(), &format!("{}{}", p.load_rate, p.speed_rate)].iter().map(|s| s.trim()).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
        Self {
            id: p.id,
            code: p.code.clone(),
            name: p.name.clone(),
            brand: i.brand.clone(),
            spec,
            price: if i.orderable() { money(i.price) } else { rules::PRICE_ON_REQUEST.to_string() },
            orderable: i.orderable(),
            availability: i.availability.label(),
            avail_class: i.availability.class(),
            dot_years: i.dot_years.clone(),
        }
    }
}

/// Only a path of the shop is a place to return to.
fn back_to(raw: &str) -> String {
    if super::is_shop_path(raw) && !raw.contains("//") && !raw.contains('\\') { raw.to_string() } else { "/shop".to_string() }
}

mod account;
mod catalogue;
mod cart;
mod checkout;
mod orders;

pub use account::*;
pub use catalogue::*;
pub use cart::*;
pub use checkout::*;
pub use orders::*;
