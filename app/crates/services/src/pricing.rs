//! Prices a customer pays: tiers B–E derived from class A with the company's uplifts
//! (stored overrides win), the customer's OCOP price, and the unit price by price strategy
//! (DESIGN §5). One place for the quoting lookup, the line editor and prefilled sheets.

use std::collections::HashMap;

use diesel::prelude::*;

use db::DbConn;
use db::schema::{customers, ocop_prices, organisations, products};
use domain::enums::PriceStrategy;
use domain::money::Cents;
use domain::price_tiers::{ProductPrices, TierOverrides, TierUplifts, price_for_strategy, tier_prices};
use db::error::AppResult;

/// A labelled price of the prices dropdown.
#[derive(Clone, Debug, serde::Serialize, PartialEq, Eq)]
pub struct LabelledPrice {
    pub label: &'static str,
    pub price: i64,
}

/// Everything the price pickers show for one product and (optionally) one customer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quote {
    pub prices: Vec<LabelledPrice>,
    /// The price the customer pays by default (class A without a customer).
    pub unit_price: Cents,
    pub ocop: Option<Cents>,
}

/// The company's tier uplifts.
pub fn uplifts(conn: &mut DbConn, org: i64) -> AppResult<TierUplifts> {
    let (b, c, d, e): (i32, i32, i32, i32) =
        organisations::table.find(org).select((organisations::tier_b_bp, organisations::tier_c_bp, organisations::tier_d_bp, organisations::tier_e_bp)).first(conn)?;
    let bp = |v: i32| u32::try_from(v).unwrap_or(0);
    Ok(TierUplifts { b: bp(b), c: bp(c), d: bp(d), e: bp(e) })
}

/// Quotes for `product_ids` of company `org`, for `customer` when given.
pub fn quotes(conn: &mut DbConn, org: i64, product_ids: &[i64], customer: Option<i64>) -> AppResult<HashMap<i64, Quote>> {
    if product_ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(quotes_for_customer(conn, org, product_ids, customer)?.quotes)
}

/// [`quotes`] with the name of the customer they are for.
pub struct CustomerQuotes {
    /// The customer's name; `None` without a customer or for another company's id (whose
    /// prices are then class A).
    pub customer_name: Option<String>,
    pub quotes: HashMap<i64, Quote>,
}

/// Quotes for `product_ids` of company `org` and the customer's name, in a fixed number of
/// statements per [`db::CHUNK`] products; the customer is read even without products.
pub fn quotes_for_customer(conn: &mut DbConn, org: i64, product_ids: &[i64], customer: Option<i64>) -> AppResult<CustomerQuotes> {
    let found: Option<(i64, String, i32)> = match customer {
        Some(c) => customers::table.filter(customers::org_id.eq(org)).find(c).select((customers::id, customers::name, customers::price_strategy)).first(conn).optional()?,
        None => None,
    };
    let customer_name = found.as_ref().map(|f| f.1.clone());
    if product_ids.is_empty() {
        return Ok(CustomerQuotes { customer_name, quotes: HashMap::new() });
    }
    let up = uplifts(conn, org)?;
    let strategy = found.as_ref().and_then(|f| PriceStrategy::from_i32(f.2));
    let mut rows: Vec<PriceRow> = Vec::with_capacity(product_ids.len());
    let mut ocops: HashMap<i64, i64> = HashMap::new();
    for chunk in product_ids.chunks(db::CHUNK) {
        rows.extend(
            products::table
                .filter(products::org_id.eq(org))
                .filter(products::id.eq_any(chunk))
                .select((
                    products::id,
                    products::class_a_price,
                    products::standard_price,
                    products::special_price,
                    products::is_special,
                    products::class_b_price,
                    products::class_c_price,
                    products::class_d_price,
                    products::class_e_price,
                ))
                .load::<PriceRow>(conn)?,
        );
        if let Some((c, _, _)) = found {
            ocops.extend(
                ocop_prices::table.filter(ocop_prices::org_id.eq(org)).filter(ocop_prices::customer_id.eq(c)).filter(ocop_prices::product_id.eq_any(chunk)).select((ocop_prices::product_id, ocop_prices::price)).load::<(i64, i64)>(conn)?,
            );
        }
    }
    let quotes = rows
        .into_iter()
        .map(|(id, a, standard, special, is_special, b, c, d, e)| {
            let tiers = tier_prices(Cents(a), up, TierOverrides { b: b.map(Cents), c: c.map(Cents), d: d.map(Cents), e: e.map(Cents) });
            let prices_ = ProductPrices { tiers, standard: Cents(standard) };
            let ocop = ocops.get(&id).copied().map(Cents);
            let unit_price = strategy.map(|s| price_for_strategy(s, &prices_, ocop)).unwrap_or(tiers.a);
            let mut list = vec![
                LabelledPrice { label: "A/COD", price: tiers.a.0 },
                LabelledPrice { label: "B", price: tiers.b.0 },
                LabelledPrice { label: "C", price: tiers.c.0 },
                LabelledPrice { label: "D", price: tiers.d.0 },
                LabelledPrice { label: "E", price: tiers.e.0 },
                LabelledPrice { label: "Standard", price: standard },
            ];
            if is_special && special > 0 {
                list.push(LabelledPrice { label: "M.Special", price: special });
            }
            if let Some(o) = ocop {
                list.push(LabelledPrice { label: "OCOP", price: o.0 });
            }
            (id, Quote { prices: list, unit_price, ocop })
        })
        .collect();
    Ok(CustomerQuotes { customer_name, quotes })
}

/// A product's prices as [`quotes`] reads them: id, class A, standard, special, is special,
/// and the stored overrides of tiers B–E.
type PriceRow = (i64, i64, i64, i64, bool, Option<i64>, Option<i64>, Option<i64>, Option<i64>);
