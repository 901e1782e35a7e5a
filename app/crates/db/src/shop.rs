//! The customer shop's storage: shop accounts (customers with shop access), their sessions
//! and tokens, the server-side cart (carts_csr), the stock a customer is told about and the
//! customer's own sheets. Every query names the customer's company and, where it reads a
//! customer's things, the customer.

use std::collections::HashMap;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::schema::{brands, customers, order_lines, orders, organisations, products, shop_cart_lines, shop_checkouts, shop_sessions, shop_tokens, stocks, warehouses};
use super::{DbConn, now};
use domain::enums::{DrafterType, OrderType};
use crate::error::{AppError, AppResult};

/// A shop session ends after this long without a request.
pub const SESSION_IDLE: Duration = Duration::hours(12);
/// A customer's API token lives this long.
pub const TOKEN_LIFETIME: Duration = Duration::hours(12);

/// A customer who may sign in to their company's shop.
#[derive(Queryable, Clone, Debug)]
pub struct ShopAccount {
    pub customer_id: i64,
    pub org_id: i64,
    pub org_name: String,
    pub name: String,
    pub password_hash: String,
    pub must_change: bool,
}

/// Customers with shop access whose sign-in e-mail is `email` (any case), in every company.
pub fn accounts_by_email(conn: &mut DbConn, email: &str) -> AppResult<Vec<ShopAccount>> {
    let email = email.trim().to_lowercase();
    Ok(customers::table
        .inner_join(organisations::table)
        .filter(customers::login_shop.eq(true))
        .filter(customers::shop_password_hash.ne(""))
        .filter(lower(customers::email).eq(&email))
        .select((customers::id, customers::org_id, organisations::name, customers::name, customers::shop_password_hash, customers::shop_must_change))
        .load(conn)?)
}

diesel::define_sql_function! {
    /// SQL `lower()`: customers' e-mails are stored as typed.
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

/// The signed-in customer behind a session or token.
#[derive(Queryable, Clone, Debug)]
pub struct ShopPrincipal {
    pub customer_id: i64,
    pub org_id: i64,
    pub org_name: String,
    pub name: String,
    pub must_change: bool,
    /// The company's time zone name: the order date is its today.
    pub time_zone: String,
    /// The company shows tyres' years of manufacture in stock (issue 36).
    pub shows_dot: bool,
}

#[allow(clippy::type_complexity)]
fn principal_columns() -> (customers::id, customers::org_id, organisations::name, customers::name, customers::shop_must_change, organisations::time_zone, organisations::shop_shows_dot) {
    (customers::id, customers::org_id, organisations::name, customers::name, customers::shop_must_change, organisations::time_zone, organisations::shop_shows_dot)
}

/// Starts a session; returns the cookie token (only its digest is stored).
pub fn create_session(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<String> {
    let token = crate::token::random_token();
    let t = now();
    diesel::insert_into(shop_sessions::table)
        .values((
            shop_sessions::id.eq(crate::token::digest(&token)),
            shop_sessions::org_id.eq(org),
            shop_sessions::customer_id.eq(customer),
            shop_sessions::created_at.eq(t),
            shop_sessions::last_seen_at.eq(t),
            shop_sessions::expires_at.eq(t + SESSION_IDLE),
        ))
        .execute(conn)?;
    Ok(token)
}

/// The live session for a cookie token: its id, last request, and the customer, who must
/// still have shop access.
pub fn session(conn: &mut DbConn, token: &str) -> AppResult<Option<(String, NaiveDateTime, ShopPrincipal)>> {
    Ok(shop_sessions::table
        .inner_join(customers::table.inner_join(organisations::table))
        .filter(shop_sessions::id.eq(crate::token::digest(token)))
        .filter(shop_sessions::expires_at.gt(now()))
        .filter(customers::login_shop.eq(true))
        .filter(shop_sessions::org_id.eq(customers::org_id))
        .select((shop_sessions::id, shop_sessions::last_seen_at, principal_columns()))
        .first(conn)
        .optional()?)
}

/// Slides the idle expiry forward.
pub fn touch_session(conn: &mut DbConn, id: &str) -> AppResult<()> {
    let t = now();
    diesel::update(shop_sessions::table.find(id)).set((shop_sessions::last_seen_at.eq(t), shop_sessions::expires_at.eq(t + SESSION_IDLE))).execute(conn)?;
    Ok(())
}

pub fn delete_session(conn: &mut DbConn, id: &str) -> AppResult<()> {
    diesel::delete(shop_sessions::table.find(id)).execute(conn)?;
    Ok(())
}

/// Ends every session and token of a customer except the session `keep`.
pub fn end_access(conn: &mut DbConn, org: i64, customer: i64, keep: Option<&str>) -> AppResult<()> {
    let q = shop_sessions::table.filter(shop_sessions::org_id.eq(org)).filter(shop_sessions::customer_id.eq(customer));
    match keep {
        Some(k) => diesel::delete(q.filter(shop_sessions::id.ne(k))).execute(conn)?,
        None => diesel::delete(q).execute(conn)?,
    };
    diesel::delete(shop_tokens::table.filter(shop_tokens::org_id.eq(org)).filter(shop_tokens::customer_id.eq(customer))).execute(conn)?;
    Ok(())
}

/// Issues an API token for a customer; returns it (only its digest is stored).
pub fn create_token(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<String> {
    let token = crate::token::random_token();
    let t = now();
    diesel::insert_into(shop_tokens::table)
        .values((
            shop_tokens::id.eq(crate::token::digest(&token)),
            shop_tokens::org_id.eq(org),
            shop_tokens::customer_id.eq(customer),
            shop_tokens::created_at.eq(t),
            shop_tokens::expires_at.eq(t + TOKEN_LIFETIME),
        ))
        .execute(conn)?;
    Ok(token)
}

/// The customer behind a live API token.
pub fn token(conn: &mut DbConn, token: &str) -> AppResult<Option<ShopPrincipal>> {
    Ok(shop_tokens::table
        .inner_join(customers::table.inner_join(organisations::table))
        .filter(shop_tokens::id.eq(crate::token::digest(token)))
        .filter(shop_tokens::expires_at.gt(now()))
        .filter(customers::login_shop.eq(true))
        .filter(shop_tokens::org_id.eq(customers::org_id))
        .select(principal_columns())
        .first(conn)
        .optional()?)
}

/// Sets a customer's shop password (a one-time one from staff, or their own).
pub fn set_password(conn: &mut DbConn, org: i64, customer: i64, hash: &str, must_change: bool) -> AppResult<bool> {
    let n = diesel::update(customers::table.filter(customers::org_id.eq(org)).find(customer))
        .set((customers::shop_password_hash.eq(hash), customers::shop_must_change.eq(must_change)))
        .execute(conn)?;
    Ok(n == 1)
}

/// What the shop knows of its customer for pricing and check-out.
#[derive(Queryable, Clone, Debug)]
pub struct ShopCustomer {
    pub email: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub postal: String,
    pub default_ship_type: i32,
    pub login_shop: bool,
}

pub fn customer(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Option<ShopCustomer>> {
    Ok(customers::table
        .filter(customers::org_id.eq(org))
        .find(id)
        .select((customers::email, customers::address, customers::city, customers::state, customers::postal, customers::default_ship_type, customers::login_shop))
        .first(conn)
        .optional()?)
}

/// A product as the shop may show it (never its cost).
#[derive(Queryable, Clone, Debug)]
pub struct ShopProduct {
    pub id: i64,
    pub code: String,
    pub name: String,
    /// The brand's name (a shown product always has a presented brand).
    pub brand: String,
    pub specification: String,
    pub load_rate: String,
    pub speed_rate: String,
}

/// Brands presented to customers in company `org`, by name.
pub fn presented_brands(conn: &mut DbConn, org: i64) -> AppResult<Vec<(i64, String)>> {
    Ok(brands::table
        .filter(brands::org_id.eq(org))
        .filter(brands::presented_to_csr.eq(true))
        .order(brands::name.asc())
        .select((brands::id, brands::name))
        .load(conn)?)
}

type BoxedShown = diesel::dsl::IntoBoxed<'static, diesel::dsl::InnerJoin<products::table, brands::table>, super::multi_connection_impl::MultiBackend>;

/// The products the shop shows in company `org`: shown to customers, of a brand presented to
/// customers.
fn shown(org: i64) -> BoxedShown {
    products::table.inner_join(brands::table).filter(products::org_id.eq(org)).filter(products::show_for_shop.eq(true)).filter(brands::presented_to_csr.eq(true)).into_boxed()
}

/// The products of `ids` that the shop shows in company `org`.
pub fn shown_products(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<HashMap<i64, ShopProduct>> {
    let rows: Vec<ShopProduct> = shown(org)
        .filter(products::id.eq_any(ids))
        .select((products::id, products::code, products::name, brands::name, products::specification, products::load_rate, products::speed_rate))
        .load(conn)?;
    Ok(rows.into_iter().map(|p| (p.id, p)).collect())
}

/// The code of product `id` if the shop shows it in company `org`: the product page's title,
/// read before its first byte (a product not shown is not found).
pub fn shown_code(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Option<String>> {
    Ok(shown(org).filter(products::id.eq(id)).select(products::code).first(conn).optional()?)
}

/// A product's stock for customers: on hand, in transit, earliest ETA.
pub type CustomerStock = (i64, i64, Option<NaiveDate>);

/// Stock of `ids` in the warehouses counted for customer orders (never third-party stock).
pub fn customer_stock(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<HashMap<i64, CustomerStock>> {
    let rows: Vec<(i64, i64, i64, Option<NaiveDate>)> = stocks::table
        .inner_join(warehouses::table)
        .filter(stocks::org_id.eq(org))
        .filter(warehouses::org_id.eq(org))
        .filter(stocks::product_id.eq_any(ids))
        .filter(warehouses::is_calc_for_csr_order.eq(true))
        .filter(warehouses::is_third_party.eq(false))
        .select((stocks::product_id, stocks::on_hand, stocks::in_transit, stocks::eta))
        .load(conn)?;
    let mut out: HashMap<i64, (i64, i64, Option<NaiveDate>)> = HashMap::new();
    for (p, on_hand, in_transit, eta) in rows {
        let e = out.entry(p).or_insert((0, 0, None));
        // A warehouse below zero holds nothing to sell; the sums are checked, never clamped.
        let overflow = || AppError::Internal(anyhow::anyhow!("the stock of product {p} adds up beyond the largest quantity"));
        e.0 = e.0.checked_add(on_hand.max(0)).ok_or_else(overflow)?;
        e.1 = e.1.checked_add(in_transit.max(0)).ok_or_else(overflow)?;
        if in_transit > 0 {
            e.2 = match (e.2, eta) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    Ok(out)
}

/// The first warehouse counted for customer orders: where a self-order ships from until
/// staff choose otherwise.
pub fn order_warehouse(conn: &mut DbConn, org: i64) -> AppResult<Option<i64>> {
    Ok(warehouses::table
        .filter(warehouses::org_id.eq(org))
        .filter(warehouses::is_calc_for_csr_order.eq(true))
        .filter(warehouses::is_third_party.eq(false))
        .order(warehouses::id.asc())
        .select(warehouses::id)
        .first(conn)
        .optional()?)
}

/// A cart line: product, quantity, the price the customer saw when adding it.
#[derive(Queryable, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CartLine {
    pub product_id: i64,
    pub qty: i64,
    pub price_seen: i64,
}

pub fn cart(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<Vec<CartLine>> {
    Ok(shop_cart_lines::table
        .filter(shop_cart_lines::org_id.eq(org))
        .filter(shop_cart_lines::customer_id.eq(customer))
        .order((shop_cart_lines::added_at.asc(), shop_cart_lines::product_id.asc()))
        .select((shop_cart_lines::product_id, shop_cart_lines::qty, shop_cart_lines::price_seen))
        .load(conn)?)
}

/// Sets the lines' quantities and prices seen, adding those that are new, in one statement
/// (each product once; a cart holds at most 100 lines).
pub fn put_cart_lines(conn: &mut DbConn, org: i64, customer: i64, lines: &[CartLine]) -> AppResult<()> {
    use diesel::upsert::excluded;
    if lines.is_empty() {
        return Ok(());
    }
    let t = now();
    let rows: Vec<_> = lines
        .iter()
        .map(|l| {
            (
                shop_cart_lines::customer_id.eq(customer),
                shop_cart_lines::product_id.eq(l.product_id),
                shop_cart_lines::org_id.eq(org),
                shop_cart_lines::qty.eq(l.qty),
                shop_cart_lines::price_seen.eq(l.price_seen),
                shop_cart_lines::added_at.eq(t),
            )
        })
        .collect();
    crate::per_backend!(&mut *conn, |c| {
        diesel::insert_into(shop_cart_lines::table)
            .values(&rows)
            .on_conflict((shop_cart_lines::customer_id, shop_cart_lines::product_id))
            .do_update()
            .set((shop_cart_lines::qty.eq(excluded(shop_cart_lines::qty)), shop_cart_lines::price_seen.eq(excluded(shop_cart_lines::price_seen))))
            .execute(c)
    })?;
    Ok(())
}

pub fn remove_cart_lines(conn: &mut DbConn, org: i64, customer: i64, products: &[i64]) -> AppResult<()> {
    diesel::delete(
        shop_cart_lines::table
            .filter(shop_cart_lines::org_id.eq(org))
            .filter(shop_cart_lines::customer_id.eq(customer))
            .filter(shop_cart_lines::product_id.eq_any(products)),
    )
    .execute(conn)?;
    Ok(())
}

/// Whether the customer's cart holds a product the shop still shows: the check-out page asks
/// before its first byte, and sends a cart with nothing to order back to the cart.
pub fn cart_has_shown(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<bool> {
    let in_cart = shop_cart_lines::table.filter(shop_cart_lines::org_id.eq(org)).filter(shop_cart_lines::customer_id.eq(customer)).select(shop_cart_lines::product_id);
    let found: Option<i64> = shown(org).filter(products::id.eq_any(in_cart)).select(products::id).first(conn).optional()?;
    Ok(found.is_some())
}

/// Holds the customer's row until the transaction ends, so two check-outs of one cart run
/// one after the other (PostgreSQL; on SQLite every write already queues). The second then
/// finds the cart the first consumed.
pub fn lock_customer(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<()> {
    if let DbConn::Pg(pg) = conn {
        use diesel::sql_types::BigInt;
        diesel::sql_query("SELECT id FROM customers WHERE org_id = $1 AND id = $2 FOR UPDATE").bind::<BigInt, _>(org).bind::<BigInt, _>(customer).execute(pg)?;
    }
    Ok(())
}

/// Keeps the order a confirmed check-out placed (the same confirmation placed again later,
/// after the cart was filled the same way, replaces it).
pub fn record_checkout(conn: &mut DbConn, org: i64, customer: i64, confirmed: &str, order_id: i64) -> AppResult<()> {
    use diesel::upsert::excluded;
    let row = (
        shop_checkouts::org_id.eq(org),
        shop_checkouts::customer_id.eq(customer),
        shop_checkouts::confirmed.eq(confirmed),
        shop_checkouts::order_id.eq(order_id),
        shop_checkouts::created_at.eq(now()),
    );
    crate::per_backend!(&mut *conn, |c| {
        diesel::insert_into(shop_checkouts::table)
            .values(row.clone())
            .on_conflict((shop_checkouts::org_id, shop_checkouts::customer_id, shop_checkouts::confirmed))
            .do_update()
            .set((shop_checkouts::order_id.eq(excluded(shop_checkouts::order_id)), shop_checkouts::created_at.eq(excluded(shop_checkouts::created_at))))
            .execute(c)
    })?;
    Ok(())
}

/// The order a confirmed check-out placed since `since`, if any.
pub fn checkout_placed(conn: &mut DbConn, org: i64, customer: i64, confirmed: &str, since: chrono::NaiveDateTime) -> AppResult<Option<(i64, String)>> {
    Ok(shop_checkouts::table
        .inner_join(orders::table.on(orders::id.eq(shop_checkouts::order_id).and(orders::org_id.eq(org))))
        .filter(shop_checkouts::org_id.eq(org))
        .filter(shop_checkouts::customer_id.eq(customer))
        .filter(shop_checkouts::confirmed.eq(confirmed))
        .filter(shop_checkouts::created_at.ge(since))
        .select((orders::id, orders::no))
        .first(conn)
        .optional()?)
}

pub fn clear_cart(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<()> {
    diesel::delete(shop_cart_lines::table.filter(shop_cart_lines::org_id.eq(org)).filter(shop_cart_lines::customer_id.eq(customer))).execute(conn)?;
    Ok(())
}

/// One of the customer's sheets as 'My orders' lists it.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = orders)]
pub struct MyOrder {
    pub id: i64,
    pub no: String,
    pub order_date: NaiveDate,
    pub reference: String,
    pub status: i32,
    pub delivery_status: i32,
    pub ship_type: i32,
    pub total_qty: i64,
    pub total_amount: i64,
    /// The GST the sheet carries (its lines' tax types), as the tax invoice prints it.
    pub total_gst: i64,
    pub delivery_date: Option<NaiveDate>,
    pub csr_self_note: String,
    pub address: String,
}

type BoxedOrders = orders::BoxedQuery<'static, super::multi_connection_impl::MultiBackend>;

/// The customer's invoices: those they placed, and those staff raised for them once
/// approved (a staff draft is not the customer's business until it is).
fn mine(org: i64, customer: i64) -> BoxedOrders {
    use domain::enums::OrderStatus;
    orders::table
        .filter(orders::org_id.eq(org))
        .filter(orders::customer_id.eq(customer))
        .filter(orders::order_type.eq(OrderType::Invoice.as_i32()))
        .filter(orders::drafter_type.eq(DrafterType::Customer.as_i32()).or(orders::status.ne(OrderStatus::Draft.as_i32())))
        .into_boxed()
}

/// One page of the customer's invoices, newest first.
pub fn my_orders(conn: &mut DbConn, org: i64, customer: i64, offset: i64, limit: i64) -> AppResult<Vec<MyOrder>> {
    Ok(mine(org, customer).order((orders::order_date.desc(), orders::id.desc())).offset(offset).limit(limit).select(MyOrder::as_select()).load(conn)?)
}

/// How many sheets 'My orders' lists for the customer.
pub fn my_order_count(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<i64> {
    Ok(mine(org, customer).count().get_result(conn)?)
}

/// One of the customer's sheets, or `None` for anything else (another customer's, another
/// company's, a staff draft).
pub fn my_order(conn: &mut DbConn, org: i64, customer: i64, id: i64) -> AppResult<Option<MyOrder>> {
    Ok(mine(org, customer).filter(orders::id.eq(id)).select(MyOrder::as_select()).first(conn).optional()?)
}

/// The number of one of the customer's sheets: the order page's title, read before its first
/// byte (anything else is not found, as in [`my_order`]).
pub fn my_order_no(conn: &mut DbConn, org: i64, customer: i64, id: i64) -> AppResult<Option<String>> {
    Ok(mine(org, customer).filter(orders::id.eq(id)).select(orders::no).first(conn).optional()?)
}

/// A line of one of the customer's sheets.
#[derive(Queryable, Clone, Debug)]
pub struct MyLine {
    pub product_id: Option<i64>,
    pub code: Option<String>,
    pub description: String,
    pub qty: i64,
    pub price: i64,
    pub amount: i64,
}

pub fn my_lines(conn: &mut DbConn, org: i64, order: i64) -> AppResult<Vec<MyLine>> {
    Ok(order_lines::table
        .left_join(products::table)
        .filter(order_lines::org_id.eq(org))
        .filter(order_lines::order_id.eq(order))
        .order(order_lines::seq.asc())
        .select((order_lines::product_id, products::code.nullable(), order_lines::description, order_lines::quantity, order_lines::price, order_lines::amount))
        .load(conn)?)
}
