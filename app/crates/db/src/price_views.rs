//! What the price screens read about products and customers beyond the price tables: a
//! product's head (the OCOP dialog, the price history) and which customers of a list belong
//! to the company. Every id is looked up inside the caller's company.

use std::collections::HashSet;

use diesel::prelude::*;

use super::DbConn;
use super::schema::{customers, products};
use crate::error::AppResult;

/// A product's code, name and list prices.
#[derive(Queryable, Selectable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = products)]
pub struct ProductHead {
    pub id: i64,
    pub code: String,
    pub name: String,
    #[serde(rename = "classAPrice")]
    pub class_a_price: i64,
    #[serde(rename = "standardPrice")]
    pub standard_price: i64,
    #[serde(skip)]
    pub special_price: i64,
}

/// The head of product `id` of company `org`; another company's id is not found (404).
pub fn product_head(conn: &mut DbConn, org: i64, id: i64) -> AppResult<ProductHead> {
    Ok(products::table.filter(products::org_id.eq(org)).find(id).select(ProductHead::as_select()).first(conn)?)
}

/// The ids among `ids` that name customers of company `org`, chunked.
pub fn known_customers(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<HashSet<i64>> {
    let mut known = HashSet::with_capacity(ids.len());
    for chunk in ids.chunks(super::CHUNK) {
        known.extend(customers::table.filter(customers::org_id.eq(org)).filter(customers::id.eq_any(chunk)).select(customers::id).load::<i64>(conn)?);
    }
    Ok(known)
}
