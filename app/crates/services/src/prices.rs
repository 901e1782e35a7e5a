//! The standard price dialog (spec §5, §7 `POST products/{id}/price`): permission, the
//! Special / Monthly Special rules, and a history row of every change; and the OCOP prices
//! of one product or one customer (`ocops/{id}`, `ocops?customerId=`).

use diesel::prelude::*;

use db::masters::Paged;
use db::ocops::{self, CustomerPrice, ProductPrice};
use db::price_views::{self, ProductHead};
use db::schema::{price_changes, products};
use db::{DbConn, now};
use domain::money::Cents;
use domain::price_tiers::{PRICE_NOT_NEGATIVE, PriceDialog, check_price_permission, validate_price_dialog};
use db::error::{AppError, AppResult};

/// The prices as submitted (cents; tier overrides `None` = derived from class A).
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct PriceInput {
    #[serde(rename = "standardPrice")]
    pub standard: i64,
    #[serde(rename = "specialPrice", default)]
    pub special: i64,
    #[serde(rename = "classAPrice")]
    pub class_a: i64,
    #[serde(rename = "classBPrice", default)]
    pub class_b: Option<i64>,
    #[serde(rename = "classCPrice", default)]
    pub class_c: Option<i64>,
    #[serde(rename = "classDPrice", default)]
    pub class_d: Option<i64>,
    #[serde(rename = "classEPrice", default)]
    pub class_e: Option<i64>,
    /// Absent keeps the stored one (the dialog of a viewer who does not see it sends none).
    #[serde(default)]
    pub ref_pur: Option<i64>,
    #[serde(default)]
    pub is_special: bool,
    #[serde(default)]
    pub is_clearance: bool,
    /// The dialog's 'Show to customer', which is the product's Show for Shop; absent keeps it.
    #[serde(default)]
    pub is_customer_show: Option<bool>,
}

/// Saves new prices for a product of the organisation and records who changed them.
pub fn set_prices(conn: &mut DbConn, org: i64, user_id: i64, mod_prc: bool, product_id: i64, p: &PriceInput) -> AppResult<()> {
    check_price_permission(mod_prc).map_err(AppError::forbidden)?;
    let (ref_pur, shown) = match (p.ref_pur, p.is_customer_show) {
        (Some(r), Some(s)) => (r, s),
        (r, s) => {
            let stored = db::products::product(conn, org, product_id)?;
            (r.unwrap_or(stored.ref_pur.for_books().0), s.unwrap_or(stored.show_for_shop))
        }
    };
    let dialog = PriceDialog {
        standard: Cents(p.standard),
        special: Cents(p.special),
        class_a: Cents(p.class_a),
        class_b: Cents(p.class_b.unwrap_or(0)),
        ref_pur: Cents(ref_pur),
        is_special: p.is_special,
    };
    validate_price_dialog(&dialog).map_err(|m| AppError::field("specialPrice", m))?;
    if [p.class_c, p.class_d, p.class_e].iter().flatten().any(|v| *v < 0) {
        return Err(AppError::field("classCPrice", PRICE_NOT_NEGATIVE));
    }
    let t = now();
    let changed = diesel::update(products::table.filter(products::org_id.eq(org)).filter(products::id.eq(product_id)))
        .set((
            products::standard_price.eq(p.standard),
            products::special_price.eq(p.special),
            products::class_a_price.eq(p.class_a),
            products::class_b_price.eq(p.class_b),
            products::class_c_price.eq(p.class_c),
            products::class_d_price.eq(p.class_d),
            products::class_e_price.eq(p.class_e),
            products::ref_pur.eq(ref_pur),
            products::is_special.eq(p.is_special),
            products::is_clearance.eq(p.is_clearance),
            products::show_for_shop.eq(shown),
            products::version.eq(products::version + 1),
            products::updated_at.eq(t),
        ))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::NotFound);
    }
    diesel::insert_into(price_changes::table)
        .values((
            price_changes::org_id.eq(org),
            price_changes::product_id.eq(product_id),
            price_changes::user_id.eq(Some(user_id)),
            price_changes::standard_price.eq(p.standard),
            price_changes::special_price.eq(p.special),
            price_changes::class_a_price.eq(p.class_a),
            price_changes::class_b_price.eq(p.class_b),
            price_changes::class_c_price.eq(p.class_c),
            price_changes::class_d_price.eq(p.class_d),
            price_changes::class_e_price.eq(p.class_e),
            price_changes::ref_pur.eq(ref_pur),
            price_changes::is_special.eq(p.is_special),
            price_changes::is_clearance.eq(p.is_clearance),
            price_changes::is_customer_show.eq(shown),
            price_changes::created_at.eq(t),
        ))
        .execute(conn)?;
    Ok(())
}

/// A recorded price change: when, who, and the prices set.
#[derive(Queryable, Clone, Debug, serde::Serialize)]
pub struct PriceChange {
    #[serde(rename = "date")]
    pub created_at: chrono::NaiveDateTime,
    pub operator: Option<String>,
    #[serde(rename = "standardPrice")]
    pub standard: i64,
    #[serde(rename = "specialPrice")]
    pub special: i64,
    #[serde(rename = "classAPrice")]
    pub class_a: i64,
    pub is_special: bool,
}

/// The price changes of a product of company `org`, newest first (404 for another
/// company's product).
pub fn changes(conn: &mut DbConn, org: i64, product_id: i64) -> AppResult<Vec<PriceChange>> {
    use db::schema::users;
    db::products::product(conn, org, product_id)?;
    Ok(price_changes::table
        .left_join(users::table)
        .filter(price_changes::org_id.eq(org))
        .filter(price_changes::product_id.eq(product_id))
        .order((price_changes::created_at.desc(), price_changes::id.desc()))
        .select((price_changes::created_at, users::name.nullable(), price_changes::standard_price, price_changes::special_price, price_changes::class_a_price, price_changes::is_special))
        .load(conn)?)
}

/// A product with every customer's OCOP price for it (`GET ocops/{productId}`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct OcopOfProduct {
    pub product: ProductHead,
    pub csrs: Vec<CustomerPrice>,
}

/// The OCOP prices of product `id` of company `org` (404 for another company's product).
pub fn ocop_of_product(conn: &mut DbConn, org: i64, id: i64) -> AppResult<OcopOfProduct> {
    Ok(OcopOfProduct { product: price_views::product_head(conn, org, id)?, csrs: ocops::for_product(conn, org, id)? })
}

/// A page of customer `customer`'s OCOP prices (404 for another company's customer).
pub fn ocops_of_customer(conn: &mut DbConn, org: i64, customer: i64, offset: i64, limit: i64) -> AppResult<Paged<ProductPrice>> {
    db::customers::customer(conn, org, customer)?;
    ocops::for_customer(conn, org, customer, offset, limit)
}

/// Replaces product `id`'s OCOP list with `prices` (customer id, cents): every price at
/// least 0, the product and every customer of company `org`, or nothing changes.
pub fn replace_ocops(conn: &mut DbConn, org: i64, user: i64, id: i64, prices: &[(i64, i64)]) -> AppResult<()> {
    if prices.iter().any(|p| p.1 < 0) {
        return Err(AppError::field("prices", PRICE_NOT_NEGATIVE));
    }
    db::products::product(conn, org, id)?;
    let ids: Vec<i64> = prices.iter().map(|p| p.0).collect();
    if price_views::known_customers(conn, org, &ids)?.len() != ids.len() {
        return Err(AppError::field("prices", "A customer in the list does not exist in this company."));
    }
    ocops::replace_for_product(conn, org, id, prices, user)
}
