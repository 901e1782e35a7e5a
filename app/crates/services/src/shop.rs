//! The customer shop's use cases (issue 14): browse and search at the customer's own
//! prices, the server-side cart, check-out into a self-order draft (drafterType 3, no due
//! date), 'My orders', 'Order again', and the staff's shop invite. The rules live in
//! `domain::shop`; prices come from `services::pricing`, the one place for them.

use std::collections::HashMap;

use chrono_tz::Tz;

use db::DbConn;
use db::masters::Paged;
use db::products::{self, ProductFilter};
use db::refs::Unchecked;
use db::shop::{self as shop_db, CartLine, MyLine, MyOrder, ShopPrincipal, ShopProduct};
use domain::enums::{DrafterType, OrderType, ProductCategory, TaxType};
use domain::money::Cents;
use domain::sheet::LineDraft;
use domain::shop::{self as rules, Availability, Checkout, CustomerStatus};
use db::error::{AppError, AppResult};
use crate::orders::{self as order_service, Drafter, Header};
use crate::pricing;

/// Products per page of the catalogue (a phone screen scrolls; a slow link loads little).
pub const PAGE_SIZE: i64 = 20;

/// The company's time zone of a signed-in customer.
pub fn zone(who: &ShopPrincipal) -> Tz {
    domain::dates::zone_of(&who.time_zone)
}

/// A product as the customer sees it: their price (GST inclusive), and stock in words.
#[derive(Clone, Debug)]
pub struct Item {
    pub product: ShopProduct,
    pub brand: String,
    pub price: Cents,
    pub availability: Availability,
    /// 'DOT 2024–2025': a tyre's years of manufacture in stock, when the company shows them
    /// (issue 36); never a quantity.
    pub dot_years: Option<String>,
}

impl Item {
    /// Whether the customer may order it: only at a price set for them (`rules::orderable`).
    pub fn orderable(&self) -> bool {
        rules::orderable(self.price)
    }
}

/// The catalogue's filters.
#[derive(serde::Deserialize, Debug, Clone)]
pub struct Browse {
    pub key: Option<String>,
    pub brand: Option<i64>,
    pub category: Option<i32>,
    /// 1..=PAGE_MAX (`ShopQuery::page`).
    pub page: i64,
}

/// The whole catalogue's first page. (A derived default made page 0, an offset before the
/// first row, which SQLite read as the first page and PostgreSQL refused: the benchmark's
/// shop search failed on PostgreSQL with 'Internal error', issue 38.)
impl Default for Browse {
    fn default() -> Self {
        Self { key: None, brand: None, category: None, page: 1 }
    }
}

/// Brands presented to customers, by name.
pub fn brands(conn: &mut DbConn, org: i64) -> AppResult<Vec<(i64, String)>> {
    shop_db::presented_brands(conn, org)
}

/// The top-level product categories.
pub fn categories() -> Vec<(i32, &'static str)> {
    ProductCategory::ALL.iter().filter(|c| c.parent().is_none()).map(|c| (c.as_i32(), c.label())).collect()
}

/// Prices, brand names and availability of the shown products among `ids`, in `ids` order.
fn items(conn: &mut DbConn, who: &ShopPrincipal, ids: &[i64]) -> AppResult<Vec<Item>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let mut shown = shop_db::shown_products(conn, who.org_id, ids)?;
    let shown_ids: Vec<i64> = ids.iter().copied().filter(|id| shown.contains_key(id)).collect();
    let quotes = pricing::quotes(conn, who.org_id, &shown_ids, Some(who.customer_id))?;
    let stock = shop_db::customer_stock(conn, who.org_id, &shown_ids)?;
    // The lots of the page's products, read once (only tracked products have any), summed
    // over the company's warehouses per code.
    let mut lots: HashMap<i64, std::collections::BTreeMap<i32, i64>> = HashMap::new();
    if who.shows_dot {
        for l in db::lots::of_products(conn, who.org_id, &shown_ids)? {
            *lots.entry(l.product_id).or_default().entry(l.dot).or_default() += l.on_hand;
        }
    }
    Ok(shown_ids
        .iter()
        .filter_map(|id| {
            let product = shown.remove(id)?;
            let price = quotes.get(id)?.unit_price;
            let (on_hand, in_transit, eta) = stock.get(id).copied().unwrap_or((0, 0, None));
            let dot_years = lots.remove(id).and_then(domain::dot::shop_years);
            Some(Item { brand: product.brand.clone(), price, availability: Availability::of(on_hand, in_transit, eta), product, dot_years })
        })
        .collect())
}

/// One page of the catalogue: the staff lookup's search (tyre sizes as 2055516 or
/// 205/55R16, words, load/speed index) over the products shown to customers.
pub fn search(conn: &mut DbConn, who: &ShopPrincipal, b: &Browse) -> AppResult<Paged<Item>> {
    let key = b.key.as_deref().map(str::trim).filter(|k| !k.is_empty()).map(|k| k.chars().take(domain::limits::SHORT_MAX).collect());
    let f = ProductFilter { key, brand: b.brand, category: b.category, shop_only: true, ..Default::default() };
    let found = products::list(conn, who.org_id, &f, (b.page - 1) * PAGE_SIZE, PAGE_SIZE)?;
    let ids: Vec<i64> = found.rows.iter().map(|p| p.id).collect();
    Ok(Paged { rows: items(conn, who, &ids)?, total: found.total })
}

/// One shown product, or not found.
pub fn item(conn: &mut DbConn, who: &ShopPrincipal, id: i64) -> AppResult<Item> {
    items(conn, who, &[id])?.pop().ok_or(AppError::NotFound)
}

/// A cart line as shown: the product now, its price now and when added.
#[derive(Clone, Debug)]
pub struct CartItem {
    pub item: Item,
    pub qty: i64,
    pub price_seen: Cents,
    pub amount: Cents,
}

impl CartItem {
    pub fn price_changed(&self) -> bool {
        self.price_seen != self.item.price
    }
}

/// The cart with today's prices.
#[derive(Clone, Debug, Default)]
pub struct CartView {
    pub lines: Vec<CartItem>,
    /// Products in the cart the shop no longer shows.
    pub gone: Vec<i64>,
    pub qty: i64,
    pub total: Cents,
    /// Fingerprint of products, quantities and prices: the check-out places the order only
    /// when what the customer confirmed is still what it would place.
    pub fingerprint: String,
}

fn fingerprint(lines: &[(i64, i64, Cents)]) -> String {
    let text: String = lines.iter().map(|(p, q, c)| format!("{p}:{q}:{};", c.0)).collect();
    db::token::digest(&text)[..24].to_string()
}

fn view_of(conn: &mut DbConn, who: &ShopPrincipal, cart: &[CartLine]) -> AppResult<CartView> {
    let ids: Vec<i64> = cart.iter().map(|l| l.product_id).collect();
    let mut found: HashMap<i64, Item> = items(conn, who, &ids)?.into_iter().map(|i| (i.product.id, i)).collect();
    let mut view = CartView::default();
    let mut total = Cents::ZERO;
    for l in cart {
        let Some(item) = found.remove(&l.product_id).filter(Item::orderable) else {
            view.gone.push(l.product_id);
            continue;
        };
        let amount = domain::money::line_amount(l.qty, item.price).ok_or_else(|| AppError::bad_request(domain::limits::TOTAL_TOO_LARGE))?;
        total = total.checked_add(amount).ok_or_else(|| AppError::bad_request(domain::limits::TOTAL_TOO_LARGE))?;
        view.qty += l.qty;
        view.lines.push(CartItem { item, qty: l.qty, price_seen: Cents(l.price_seen), amount });
    }
    view.total = total;
    view.fingerprint = fingerprint(&view.lines.iter().map(|l| (l.item.product.id, l.qty, l.item.price)).collect::<Vec<_>>());
    Ok(view)
}

/// The customer's cart.
pub fn cart(conn: &mut DbConn, who: &ShopPrincipal) -> AppResult<CartView> {
    let lines = shop_db::cart(conn, who.org_id, who.customer_id)?;
    view_of(conn, who, &lines)
}

/// The number of items in the cart (the header badge).
pub fn cart_count(conn: &mut DbConn, who: &ShopPrincipal) -> AppResult<i64> {
    Ok(shop_db::cart(conn, who.org_id, who.customer_id)?.iter().map(|l| l.qty).sum())
}

/// What [`add_lines`] left out: products the shop does not show, and shown ones without a
/// price for the customer.
#[derive(Clone, Copy, Debug, Default)]
struct Skipped {
    hidden: usize,
    unpriced: usize,
}

/// Adds quantities of orderable products to the cart, summing with what is there (one price
/// lookup for all of them); products the shop does not show or cannot price are skipped.
/// Answers the cart's item count and what was skipped.
fn add_lines(conn: &mut DbConn, who: &ShopPrincipal, wanted: &[(i64, i64)]) -> AppResult<(i64, Skipped)> {
    let ids: Vec<i64> = wanted.iter().map(|w| w.0).collect();
    let shown: HashMap<i64, Cents> = items(conn, who, &ids)?.into_iter().map(|i| (i.product.id, i.price)).collect();
    let mut cart = shop_db::cart(conn, who.org_id, who.customer_id)?;
    let mut touched: Vec<usize> = Vec::new();
    let mut skipped = Skipped::default();
    for &(product, qty) in wanted {
        let price = match shown.get(&product) {
            None => {
                skipped.hidden += 1;
                continue;
            }
            Some(p) if !rules::orderable(*p) => {
                skipped.unpriced += 1;
                continue;
            }
            Some(p) => p,
        };
        let at = match cart.iter().position(|l| l.product_id == product) {
            Some(at) => at,
            None if cart.len() >= rules::MAX_CART_LINES => return Err(AppError::field("qty", rules::CART_FULL)),
            None => {
                cart.push(CartLine { product_id: product, qty: 0, price_seen: price.0 });
                cart.len() - 1
            }
        };
        let line = &mut cart[at];
        line.qty = rules::add_quantity(line.qty, qty).map_err(|m| AppError::field("qty", m))?;
        line.price_seen = price.0;
        if !touched.contains(&at) {
            touched.push(at);
        }
    }
    let changed: Vec<CartLine> = touched.iter().map(|&at| cart[at]).collect();
    shop_db::put_cart_lines(conn, who.org_id, who.customer_id, &changed)?;
    Ok((cart.iter().map(|l| l.qty).sum(), skipped))
}

/// Adds `qty` of a shown product (summing with what is there); answers the cart's item
/// count. A product the shop does not show is not found; one without a price for the
/// customer is refused with [`rules::NOT_PRICED`].
pub fn add(conn: &mut DbConn, who: &ShopPrincipal, product: i64, qty: i64) -> AppResult<i64> {
    match add_lines(conn, who, &[(product, qty)])? {
        (_, Skipped { hidden: 1.., .. }) => Err(AppError::NotFound),
        (_, Skipped { unpriced: 1.., .. }) => Err(AppError::field("qty", rules::NOT_PRICED)),
        (count, _) => Ok(count),
    }
}

/// Sets the quantity of a line already in the cart (the price seen stays what it was).
pub fn set_qty(conn: &mut DbConn, who: &ShopPrincipal, product: i64, qty: i64) -> AppResult<()> {
    let qty = rules::in_range(qty).map_err(|m| AppError::field("qty", m))?;
    let cart = shop_db::cart(conn, who.org_id, who.customer_id)?;
    let line = cart.iter().find(|l| l.product_id == product).ok_or(AppError::NotFound)?;
    shop_db::put_cart_lines(conn, who.org_id, who.customer_id, &[CartLine { qty, ..*line }])
}

pub fn remove(conn: &mut DbConn, who: &ShopPrincipal, product: i64) -> AppResult<()> {
    shop_db::remove_cart_lines(conn, who.org_id, who.customer_id, &[product])
}

/// A placed order: the sheet's id and number.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Placed {
    pub id: i64,
    pub no: String,
}

fn self_order(conn: &mut DbConn, who: &ShopPrincipal, c: &Checkout, lines: &[(i64, i64, Cents)]) -> AppResult<Placed> {
    let header = Header {
        tag_id: 1,
        customer_id: Some(Unchecked::new(who.customer_id)),
        date: Some(domain::dates::today(zone(who))),
        due_date: None,
        delivery_date: None,
        reference: c.reference.clone(),
        csr_self_note: c.note.clone(),
        warehouse_id: shop_db::order_warehouse(conn, who.org_id)?.map(Unchecked::new),
        tax_type: TaxType::default().as_i32(),
        ship_type: Some(c.shipping.ship_type().as_i32()),
        ..Default::default()
    };
    let drafts: Vec<LineDraft> = lines
        .iter()
        .map(|(p, q, price)| LineDraft { product_id: Some(*p), qty: q.to_string(), price: price.plain(), tax_type: TaxType::default().as_i32(), ..Default::default() })
        .collect();
    let name = format!("{} (shop)", who.name);
    let drafter = Drafter { org_id: who.org_id, user_id: None, name: &name, kind: DrafterType::Customer };
    let id = order_service::create_by(conn, &drafter, OrderType::Invoice, &header, &drafts)?;
    let no = db::orders::get(conn, who.org_id, id)?.no;
    Ok(Placed { id, no })
}

/// How long a check-out sent again is answered with the order it placed.
pub const CHECKOUT_REPLAY: chrono::Duration = chrono::Duration::minutes(30);

/// Places the cart as a self-order, if it is still what the customer confirmed
/// (`confirmed` is the fingerprint of the check-out page they saw). Empties the cart.
/// Idempotent: the cart is consumed exactly once, and the same confirmation sent again (a
/// double submit, a reload, a retry) is answered with the order it placed.
pub fn place_cart(conn: &mut DbConn, who: &ShopPrincipal, c: &Checkout, confirmed: &str) -> AppResult<Placed> {
    // One check-out of a customer at a time: a second waits here, then finds the cart empty.
    shop_db::lock_customer(conn, who.org_id, who.customer_id)?;
    // Products the shop no longer shows are left out, as the cart page says; the confirmed
    // fingerprint covers only the lines that are ordered.
    let view = cart(conn, who)?;
    if view.lines.is_empty() {
        let since = db::now() - CHECKOUT_REPLAY;
        if let Some((id, no)) = shop_db::checkout_placed(conn, who.org_id, who.customer_id, confirmed, since)? {
            return Ok(Placed { id, no });
        }
        return Err(AppError::bad_request(rules::CART_EMPTY));
    }
    if !db::token::same(confirmed, &view.fingerprint) {
        return Err(AppError::Conflict { message: rules::PRICES_CHANGED.into(), code: Some("prices_changed"), reasons: vec![] });
    }
    let lines: Vec<(i64, i64, Cents)> = view.lines.iter().map(|l| (l.item.product.id, l.qty, l.item.price)).collect();
    let placed = self_order(conn, who, c, &lines)?;
    shop_db::clear_cart(conn, who.org_id, who.customer_id)?;
    shop_db::record_checkout(conn, who.org_id, who.customer_id, confirmed, placed.id)?;
    Ok(placed)
}

/// A line the API checks or orders: product, quantity and, optionally, the unit price the
/// client showed (the order is refused when it no longer holds).
#[derive(Clone, Copy, Debug)]
pub struct WantedLine {
    pub product_id: i64,
    pub quantity: i64,
    pub expected_price: Option<Cents>,
}

/// A line priced now.
#[derive(Clone, Debug)]
pub struct CheckedLine {
    pub item: Item,
    pub quantity: i64,
    pub amount: Cents,
    pub expected_price: Option<Cents>,
}

impl CheckedLine {
    pub fn price_changed(&self) -> bool {
        self.expected_price.is_some_and(|p| p != self.item.price)
    }
}

/// Prices `lines` now; field errors name the line (`lines.N.productId` / `lines.N.quantity`).
pub fn check(conn: &mut DbConn, who: &ShopPrincipal, lines: &[WantedLine]) -> AppResult<Vec<CheckedLine>> {
    if lines.is_empty() {
        return Err(AppError::field("lines", rules::CART_EMPTY));
    }
    if lines.len() > rules::MAX_CART_LINES {
        return Err(AppError::field("lines", rules::CART_FULL));
    }
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let found: HashMap<i64, Item> = items(conn, who, &ids)?.into_iter().map(|i| (i.product.id, i)).collect();
    let mut errors = std::collections::BTreeMap::new();
    let mut out = Vec::with_capacity(lines.len());
    for (n, l) in lines.iter().enumerate() {
        if !(1..=rules::MAX_QTY).contains(&l.quantity) {
            errors.insert(format!("lines.{n}.quantity"), rules::QTY_RANGE.to_string());
        }
        match found.get(&l.product_id) {
            None => {
                errors.insert(format!("lines.{n}.productId"), "This product is not available in the shop.".to_string());
            }
            Some(item) if !item.orderable() => {
                errors.insert(format!("lines.{n}.productId"), rules::NOT_PRICED.to_string());
            }
            Some(item) if errors.is_empty() => {
                let amount = domain::money::line_amount(l.quantity, item.price).ok_or_else(|| AppError::bad_request(domain::limits::TOTAL_TOO_LARGE))?;
                out.push(CheckedLine { item: item.clone(), quantity: l.quantity, amount, expected_price: l.expected_price });
            }
            Some(_) => {}
        }
    }
    if let Some(message) = errors.values().next().cloned() {
        return Err(AppError::Validation { message, errors });
    }
    Ok(out)
}

/// Places `lines` (the JSON API's order) at today's prices; refused with the new prices
/// when a price the client expected has changed.
pub fn place_lines(conn: &mut DbConn, who: &ShopPrincipal, c: &Checkout, lines: &[WantedLine]) -> AppResult<Placed> {
    let checked = check(conn, who, lines)?;
    let expected: Vec<(i64, i64, i64)> = checked.iter().filter_map(|l| Some((l.item.product.id, l.expected_price?.0, l.item.price.0))).collect();
    let changed: Vec<String> = rules::changed_prices(&expected)
        .into_iter()
        .filter_map(|(product, _, now)| checked.iter().find(|l| l.item.product.id == product).map(|l| format!("{}: now {}", l.item.product.code, Cents(now).grouped())))
        .collect();
    if !changed.is_empty() {
        return Err(AppError::Conflict { message: rules::PRICES_CHANGED.into(), code: Some("prices_changed"), reasons: changed });
    }
    let mut merged: Vec<(i64, i64, Cents)> = Vec::with_capacity(checked.len());
    for l in &checked {
        match merged.iter_mut().find(|m| m.0 == l.item.product.id) {
            Some(m) => m.1 = rules::add_quantity(m.1, l.quantity).map_err(|msg| AppError::field("lines", msg))?,
            None => merged.push((l.item.product.id, l.quantity, l.item.price)),
        }
    }
    self_order(conn, who, c, &merged)
}

/// 'My orders', one page (1..=PAGE_MAX, newest first) with the customer-facing status.
pub fn my_orders(conn: &mut DbConn, who: &ShopPrincipal, page: i64) -> AppResult<Vec<(MyOrder, CustomerStatus)>> {
    let rows = shop_db::my_orders(conn, who.org_id, who.customer_id, (page - 1) * PAGE_SIZE, PAGE_SIZE)?;
    Ok(rows.into_iter().map(|o| (CustomerStatus::of(o.status, o.delivery_status), o)).map(|(s, o)| (o, s)).collect())
}

/// One of the customer's orders with its lines; anything else is not found.
pub fn my_order(conn: &mut DbConn, who: &ShopPrincipal, id: i64) -> AppResult<(MyOrder, CustomerStatus, Vec<MyLine>)> {
    let o = shop_db::my_order(conn, who.org_id, who.customer_id, id)?.ok_or(AppError::NotFound)?;
    let lines = shop_db::my_lines(conn, who.org_id, o.id)?;
    let status = CustomerStatus::of(o.status, o.delivery_status);
    Ok((o, status, lines))
}

/// Puts a past order's lines in the cart (summing with what is there); returns how many
/// products are no longer sold in the shop and were left out.
pub fn order_again(conn: &mut DbConn, who: &ShopPrincipal, id: i64) -> AppResult<usize> {
    let o = shop_db::my_order(conn, who.org_id, who.customer_id, id)?.ok_or(AppError::NotFound)?;
    let lines = shop_db::my_lines(conn, who.org_id, o.id)?;
    let no_product = lines.iter().filter(|l| l.product_id.is_none()).count();
    let wanted: Vec<(i64, i64)> = lines.iter().filter_map(|l| Some((l.product_id?, l.qty))).collect();
    let (_, skipped) = add_lines(conn, who, &wanted)?;
    Ok(skipped.hidden + skipped.unpriced + no_product)
}

/// The A4 tax invoice of one of the customer's orders, once approved.
pub fn invoice(conn: &mut DbConn, who: &ShopPrincipal, id: i64) -> AppResult<Vec<documents::document::Document>> {
    let o = shop_db::my_order(conn, who.org_id, who.customer_id, id)?.ok_or(AppError::NotFound)?;
    if !CustomerStatus::of(o.status, o.delivery_status).has_invoice() {
        return Err(AppError::NotFound);
    }
    crate::print::documents(conn, who.org_id, &[o.id], documents::Variant::Standard)
}

/// Staff's 'Send invite' (role 4 or crtCSR): a one-time shop password for a customer with
/// shop access and a sign-in e-mail; their other shop sessions end. Returns the password
/// to show staff once.
pub fn invite(conn: &mut DbConn, actor: &domain::Actor, customer: i64) -> AppResult<String> {
    if !rules::may_invite(actor.role, actor.crt_csr) {
        return Err(AppError::forbidden(rules::INVITE_REFUSED));
    }
    let org = actor.org_id;
    let c = shop_db::customer(conn, org, customer)?.ok_or(AppError::NotFound)?;
    if !c.login_shop {
        return Err(AppError::bad_request("Turn Shop access on and save the customer first."));
    }
    if domain::validate::sign_in_email(&c.email).is_err() {
        return Err(AppError::bad_request("The customer needs a valid e-mail address to sign in to the shop."));
    }
    let password = db::token::one_time_password();
    let hash = crate::password::hash(&password)?;
    shop_db::set_password(conn, org, customer, &hash, true)?;
    shop_db::end_access(conn, org, customer, None)?;
    Ok(password)
}
