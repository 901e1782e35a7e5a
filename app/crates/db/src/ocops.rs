//! OCOP prices: one customer's own price for one product.

use diesel::prelude::*;

use super::masters::Paged;
use super::schema::{customers, ocop_prices, products};
use super::{DbConn, now};
use crate::error::AppResult;

/// A customer's OCOP price for a product.
#[derive(Queryable, Clone, Debug, serde::Serialize)]
pub struct CustomerPrice {
    pub id: i64,
    pub name: String,
    pub code: String,
    pub price: i64,
}

/// A product's OCOP price for one customer.
#[derive(Queryable, Clone, Debug, serde::Serialize)]
pub struct ProductPrice {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub price: i64,
    #[serde(rename = "classAPrice")]
    pub class_a: i64,
}

/// Every customer with an OCOP price for the product, by name.
pub fn for_product(conn: &mut DbConn, org: i64, product: i64) -> AppResult<Vec<CustomerPrice>> {
    Ok(ocop_prices::table
        .inner_join(customers::table)
        .filter(ocop_prices::org_id.eq(org))
        .filter(ocop_prices::product_id.eq(product))
        .order(customers::name.asc())
        .select((customers::id, customers::name, customers::code, ocop_prices::price))
        .load(conn)?)
}

/// One customer's OCOP prices, by item code.
pub fn for_customer(conn: &mut DbConn, org: i64, customer: i64, offset: i64, limit: i64) -> AppResult<Paged<ProductPrice>> {
    let base = || ocop_prices::table.inner_join(products::table).filter(ocop_prices::org_id.eq(org)).filter(ocop_prices::customer_id.eq(customer));
    let total = base().count().get_result(conn)?;
    let rows = base()
        .order(products::code.asc())
        .offset(offset)
        .limit(limit)
        .select((products::id, products::code, products::name, ocop_prices::price, products::class_a_price))
        .load(conn)?;
    Ok(Paged { rows, total })
}

/// Replaces the product's OCOP list with `prices` (customer id, cents).
pub fn replace_for_product(conn: &mut DbConn, org: i64, product: i64, prices: &[(i64, i64)], user: i64) -> AppResult<()> {
    diesel::delete(ocop_prices::table.filter(ocop_prices::org_id.eq(org)).filter(ocop_prices::product_id.eq(product))).execute(conn)?;
    for (customer, price) in prices {
        upsert(conn, org, *customer, product, *price, user)?;
    }
    Ok(())
}

/// Sets one OCOP price, replacing an earlier one.
pub fn upsert(conn: &mut DbConn, org: i64, customer: i64, product: i64, price: i64, user: i64) -> AppResult<()> {
    let t = now();
    crate::per_backend!(&mut *conn, |c| {
        diesel::insert_into(ocop_prices::table)
            .values((
                ocop_prices::org_id.eq(org),
                ocop_prices::customer_id.eq(customer),
                ocop_prices::product_id.eq(product),
                ocop_prices::price.eq(price),
                ocop_prices::updated_by.eq(Some(user)),
                ocop_prices::updated_at.eq(t),
            ))
            .on_conflict((ocop_prices::customer_id, ocop_prices::product_id))
            .do_update()
            .set((ocop_prices::price.eq(price), ocop_prices::updated_by.eq(Some(user)), ocop_prices::updated_at.eq(t)))
            .execute(c)
    })?;
    Ok(())
}

/// Rows of an OCOP upsert, chunked so one statement stays under the bind-parameter limits
/// (6 columns × 1,000 rows).
const UPSERT_CHUNK: usize = 1_000;

/// Sets many OCOP prices (customer, product, cents) with multi-row upserts; each
/// (customer, product) pair must appear once, as PostgreSQL refuses to update a row twice in
/// one statement.
pub fn upsert_many(conn: &mut DbConn, org: i64, user: i64, prices: &[(i64, i64, i64)]) -> AppResult<()> {
    use diesel::upsert::excluded;
    let t = now();
    for chunk in prices.chunks(UPSERT_CHUNK) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|(customer, product, price)| {
                (
                    ocop_prices::org_id.eq(org),
                    ocop_prices::customer_id.eq(*customer),
                    ocop_prices::product_id.eq(*product),
                    ocop_prices::price.eq(*price),
                    ocop_prices::updated_by.eq(Some(user)),
                    ocop_prices::updated_at.eq(t),
                )
            })
            .collect();
        crate::per_backend!(&mut *conn, |c| {
            diesel::insert_into(ocop_prices::table)
                .values(&rows)
                .on_conflict((ocop_prices::customer_id, ocop_prices::product_id))
                .do_update()
                .set((ocop_prices::price.eq(excluded(ocop_prices::price)), ocop_prices::updated_by.eq(Some(user)), ocop_prices::updated_at.eq(t)))
                .execute(c)
        })?;
    }
    Ok(())
}

/// Product ids that have at least one OCOP price (for the list's 'with OCOP' filter).
pub fn products_with_prices(conn: &mut DbConn, org: i64, customer: Option<i64>) -> AppResult<Vec<i64>> {
    let mut q = ocop_prices::table.filter(ocop_prices::org_id.eq(org)).select(ocop_prices::product_id).distinct().into_boxed();
    if let Some(c) = customer {
        q = q.filter(ocop_prices::customer_id.eq(c));
    }
    Ok(q.load(conn)?)
}
