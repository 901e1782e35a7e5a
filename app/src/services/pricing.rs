//! Prices a customer pays: tiers B–E derived from class A with the company's uplifts
//! (stored overrides win), the customer's OCOP price, and the unit price by price strategy
//! (DESIGN §5). One place for the quoting lookup, the line editor and prefilled sheets.

use std::collections::HashMap;

use diesel::prelude::*;

use crate::db::DbConn;
use crate::db::schema::{customers, ocop_prices, organisations, products};
use crate::domain::enums::PriceStrategy;
use crate::domain::money::Cents;
use crate::domain::price_tiers::{ProductPrices, TierOverrides, TierUplifts, price_for_strategy, tier_prices};
use crate::error::AppResult;

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

/// Quotes for `product_ids`, for `customer` when given.
pub fn quotes(conn: &mut DbConn, org: i64, product_ids: &[i64], customer: Option<i64>) -> AppResult<HashMap<i64, Quote>> {
    if product_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let up = uplifts(conn, org)?;
    type Row = (i64, i64, i64, i64, bool, Option<i64>, Option<i64>, Option<i64>, Option<i64>);
    let rows: Vec<Row> = products::table
        .filter(products::org_id.eq(org))
        .filter(products::id.eq_any(product_ids))
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
        .load(conn)?;
    let (strategy, ocops) = match customer {
        Some(c) => {
            let strategy: Option<i32> = customers::table.filter(customers::org_id.eq(org)).find(c).select(customers::price_strategy).first(conn).optional()?;
            let ocops: HashMap<i64, i64> = ocop_prices::table
                .filter(ocop_prices::customer_id.eq(c))
                .filter(ocop_prices::product_id.eq_any(product_ids))
                .select((ocop_prices::product_id, ocop_prices::price))
                .load::<(i64, i64)>(conn)?
                .into_iter()
                .collect();
            (strategy.and_then(PriceStrategy::from_i32), ocops)
        }
        None => (None, HashMap::new()),
    };
    Ok(rows
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
        .collect())
}
