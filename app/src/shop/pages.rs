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
        }
    }
}

/// Only a path of the shop is a place to return to.
fn back_to(raw: &str) -> String {
    if super::is_shop_path(raw) && !raw.contains("//") && !raw.contains('\\') { raw.to_string() } else { "/shop".to_string() }
}

// ---------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------

#[derive(Template, WebTemplate)]
#[template(path = "shop/login.html")]
pub struct LoginPage {
    pub css: String,
    pub csrf: String,
    pub email: String,
    pub alert: Option<String>,
    /// Companies to choose from when the e-mail and password open more than one shop.
    pub companies: Vec<(i64, String)>,
}

fn login_view(state: &AppState, secret: &str, email: String, alert: Option<String>, companies: Vec<(i64, String)>) -> LoginPage {
    LoginPage { css: state.assets.url("css/shop.css"), csrf: csrf::token_for(secret), email, alert, companies }
}

/// `GET /shop/login`.
pub async fn login_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    SHOP_COOKIES.form_page(&headers, state.secure_cookies, |secret| login_view(&state, secret, String::new(), None, vec![]).into_response())
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    org: String,
}

/// `POST /shop/login`.
pub async fn login(State(state): State<AppState>, ClientIp(ip): ClientIp, headers: HeaderMap, Form(form): Form<LoginForm>) -> Response {
    let Some(secret) = SHOP_COOKIES.secret(&headers) else {
        // No cookie, so the CSRF guard had nothing to check (as at the staff sign-in): a fresh form.
        return SHOP_COOKIES.form_page(&headers, state.secure_cookies, |secret| {
            (StatusCode::FORBIDDEN, login_view(&state, secret, form.email, Some(csrf::SIGN_IN_FORM_EXPIRED.into()), vec![])).into_response()
        });
    };
    if let Some(m) = validate::sign_in_email(&form.email).err().or_else(|| validate::sign_in_password(&form.password).err()) {
        return (StatusCode::UNPROCESSABLE_ENTITY, login_view(&state, &secret, form.email, Some(m.into()), vec![])).into_response();
    }
    let opened = match sign_in::customer(&state, &form.email, &form.password, ip).await {
        Ok(o) => o,
        Err(e) => return (e.status(), login_view(&state, &secret, form.email, Some(e.to_string()), vec![])).into_response(),
    };
    let chosen = match opened.as_slice() {
        [one] => one.clone(),
        many => match form.org.trim().parse::<i64>().ok().and_then(|o| many.iter().find(|a| a.org_id == o)) {
            Some(a) => a.clone(),
            None => {
                let companies = many.iter().map(|a| (a.org_id, a.org_name.clone())).collect();
                let alert = Some("This e-mail opens the shops of several companies. Choose one and sign in again.".to_string());
                return (StatusCode::OK, login_view(&state, &secret, form.email, alert, companies)).into_response();
            }
        },
    };
    let (org, customer) = (chosen.org_id, chosen.customer_id);
    match state.db.write(move |c| shop_db::create_session(c, org, customer)).await {
        Ok(token) => {
            let mut res = Redirect::to(if chosen.must_change { "/shop/password" } else { "/shop" }).into_response();
            SHOP_COOKIES.signed_in(&mut res, state.secure_cookies, &token);
            res
        }
        Err(e) => e.into_response(),
    }
}

/// `POST /shop/logout`.
pub async fn logout(State(state): State<AppState>, s: Shopper) -> AppResult<Response> {
    if let Some(id) = s.session {
        state.db.write(move |c| shop_db::delete_session(c, &id)).await?;
    }
    let mut res = Redirect::to("/shop/login").into_response();
    SHOP_COOKIES.signed_out(&mut res, state.secure_cookies);
    Ok(res)
}

#[derive(Template, WebTemplate)]
#[template(path = "shop/password.html")]
pub struct PasswordPage {
    pub shell: Shell,
    pub forced: bool,
    pub errors: BTreeMap<String, String>,
}

impl PasswordPage {
    fn error(&self, field: &str) -> &str {
        self.errors.get(field).map(String::as_str).unwrap_or("")
    }
}

const PASSWORD_TITLE: &str = "Password";

/// `GET /shop/password`.
pub async fn password_page(State(state): State<AppState>, s: Shopper, headers: HeaderMap) -> AppResult<Response> {
    let forced = s.who.must_change;
    let shell = Shell::new(&state, &s, PASSWORD_TITLE).await?;
    shell::respond(&state, &headers, shell, move |shell| async move { Ok(PasswordPage { forced, shell, errors: BTreeMap::new() }) }).await
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
}

/// `POST /shop/password`: the customer's own password; their other sessions and tokens end.
pub async fn change_password(State(state): State<AppState>, s: Shopper, Form(f): Form<PasswordForm>) -> AppResult<Response> {
    if let Err(m) = validate::new_password_confirmed(&f.password, &f.confirm) {
        let errors = BTreeMap::from([("password".to_string(), m.to_string())]);
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, PasswordPage { forced: s.who.must_change, shell: Shell::new(&state, &s, PASSWORD_TITLE).await?, errors }).into_response());
    }
    let hash = password::hash(&f.password)?;
    let (org, customer, keep) = (s.who.org_id, s.who.customer_id, s.session.clone());
    state
        .db
        .write(move |c| {
            shop_db::set_password(c, org, customer, &hash, false)?;
            shop_db::end_access(c, org, customer, keep.as_deref())
        })
        .await?;
    Ok(Redirect::to("/shop?m=password").into_response())
}

// ---------------------------------------------------------------------------------------
// Catalogue
// ---------------------------------------------------------------------------------------

#[derive(Template, WebTemplate)]
#[template(path = "shop/catalogue.html")]
pub struct CataloguePage {
    pub shell: Shell,
    pub brands: Vec<(i64, String)>,
    pub categories: Vec<(i32, &'static str)>,
    pub brand: Option<i64>,
    pub category: Option<i32>,
    pub items: Vec<ItemView>,
    pub total: i64,
    pub page: i64,
    pub prev: Option<String>,
    pub next: Option<String>,
    pub notice: Option<&'static str>,
    pub here: String,
}

fn notice(m: Option<&str>) -> Option<&'static str> {
    match m? {
        "added" => Some("Added to your cart."),
        "password" => Some("Your password has been changed."),
        "qty" => Some(rules::QTY_RANGE),
        "full" => Some(rules::CART_FULL),
        "unpriced" => Some(rules::NOT_PRICED),
        "again" => Some("The order's products are in your cart."),
        _ => None,
    }
}

fn page_link(b: &Browse, page: i64) -> String {
    let mut pairs: Vec<(&str, String)> = Vec::new();
    if let Some(k) = b.key.as_deref().filter(|k| !k.trim().is_empty()) {
        pairs.push(("key", k.to_string()));
    }
    if let Some(v) = b.brand {
        pairs.push(("brand", v.to_string()));
    }
    if let Some(v) = b.category {
        pairs.push(("category", v.to_string()));
    }
    pairs.push(("page", page.to_string()));
    format!("/shop?{}", serde_urlencoded::to_string(&pairs).unwrap_or_default())
}

/// `GET /shop`: search and browse.
pub async fn catalogue(State(state): State<AppState>, s: Shopper, headers: HeaderMap, Query(q): Query<ShopQuery>) -> AppResult<Response> {
    let b = q.browse()?;
    let mut shell = Shell::new(&state, &s, "Products").await?;
    shell.key = b.key.clone().unwrap_or_default();
    let notice = notice(Some(q.m.as_str()));
    let (st, who) = (state.clone(), s.who.clone());
    shell::respond(&state, &headers, shell, move |shell| async move {
        let query = b.clone();
        let (found, brands) = st.db.run(move |c| Ok((svc::search(c, &who, &query)?, svc::brands(c, who.org_id)?))).await?;
        let page = b.page;
        Ok(CataloguePage {
            shell,
            brands,
            categories: svc::categories(),
            brand: b.brand,
            category: b.category,
            items: found.rows.iter().map(ItemView::from).collect(),
            total: found.total,
            page,
            prev: (page > 1).then(|| page_link(&b, page - 1)),
            next: (page * svc::PAGE_SIZE < found.total).then(|| page_link(&b, page + 1)),
            notice,
            here: page_link(&b, page),
        })
    })
    .await
}

#[derive(Template, WebTemplate)]
#[template(path = "shop/product.html")]
pub struct ProductPage {
    pub shell: Shell,
    pub item: ItemView,
    pub notice: Option<&'static str>,
    pub here: String,
}

/// `GET /shop/products/{id}`: titled with the product's code, read first (a product the
/// shop does not show in the customer's company is not found).
pub async fn product(State(state): State<AppState>, s: Shopper, headers: HeaderMap, Path(id): Path<i64>, Query(q): Query<ShopQuery>) -> AppResult<Response> {
    let org = s.who.org_id;
    let code = state.db.run(move |c| shop_db::shown_code(c, org, id)).await?.ok_or(AppError::NotFound)?;
    let shell = Shell::new(&state, &s, code).await?;
    let notice = notice(Some(q.m.as_str()));
    let (st, who) = (state.clone(), s.who.clone());
    shell::respond(&state, &headers, shell, move |shell| async move {
        let item = st.db.run(move |c| svc::item(c, &who, id)).await?;
        Ok(ProductPage { shell, item: ItemView::from(&item), notice, here: format!("/shop/products/{id}") })
    })
    .await
}

// ---------------------------------------------------------------------------------------
// Cart
// ---------------------------------------------------------------------------------------

#[derive(Deserialize)]
pub struct CartForm {
    #[serde(default)]
    product_id: String,
    #[serde(default)]
    qty: String,
    #[serde(default)]
    back: String,
}

fn product_id(f: &CartForm) -> AppResult<i64> {
    f.product_id.trim().parse().map_err(|_| AppError::NotFound)
}

fn with_m(path: &str, m: &str) -> String {
    let base = path.split('?').next().unwrap_or("/shop");
    let query: Vec<(String, String)> = serde_urlencoded::from_str(path.split_once('?').map_or("", |(_, q)| q)).unwrap_or_default();
    let mut pairs: Vec<(String, String)> = query.into_iter().filter(|(k, _)| k != "m").collect();
    pairs.push(("m".into(), m.into()));
    format!("{base}?{}", serde_urlencoded::to_string(&pairs).unwrap_or_default())
}

/// The cart badge and a status line, swapped in place by htmx.
#[derive(Template, WebTemplate)]
#[template(path = "shop/badge.html")]
pub struct Badge {
    pub count: i64,
    pub message: String,
}

/// `POST /shop/cart/add`: adds a quantity (summing); htmx gets the badge, a form a redirect.
pub async fn add(State(state): State<AppState>, s: Shopper, headers: HeaderMap, Form(f): Form<CartForm>) -> AppResult<Response> {
    let id = product_id(&f)?;
    let back = back_to(&f.back);
    let htmx = headers.contains_key("hx-request");
    let who = s.who.clone();
    let outcome = match rules::quantity(&f.qty) {
        Ok(qty) => state.db.write(move |c| svc::add(c, &who, id, qty).map(|count| (count, format!("Added {qty} to your cart.")))).await,
        Err(m) => Err(AppError::field("qty", m)),
    };
    match outcome {
        Ok((count, message)) if htmx => Ok(Badge { count, message }.into_response()),
        Ok(_) => Ok(Redirect::to(&with_m(&back, "added")).into_response()),
        Err(AppError::Validation { message, .. }) if htmx => {
            let who = s.who.clone();
            let count = state.db.run(move |c| svc::cart_count(c, &who)).await?;
            Ok(Badge { count, message }.into_response())
        }
        Err(AppError::Validation { message, .. }) => {
            let m = match message.as_str() {
                rules::CART_FULL => "full",
                rules::NOT_PRICED => "unpriced",
                _ => "qty",
            };
            Ok(Redirect::to(&with_m(&back, m)).into_response())
        }
        Err(e) => Err(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "shop/cart.html")]
pub struct CartPage {
    pub shell: Shell,
    pub lines: Vec<CartLineView>,
    pub total: String,
    pub qty: i64,
    pub gone: usize,
    pub notice: Option<&'static str>,
}

pub struct CartLineView {
    pub item: ItemView,
    pub qty: i64,
    pub amount: String,
    /// The price when added, when it has changed since.
    pub was: Option<String>,
}

fn line_views(v: &CartView) -> Vec<CartLineView> {
    v.lines
        .iter()
        .map(|l| CartLineView { item: ItemView::from(&l.item), qty: l.qty, amount: money(l.amount), was: l.price_changed().then(|| money(l.price_seen)) })
        .collect()
}

/// `GET /shop/cart`.
pub async fn cart(State(state): State<AppState>, s: Shopper, headers: HeaderMap, Query(q): Query<ShopQuery>) -> AppResult<Response> {
    let notice = match q.m.as_str() {
        "updated" => Some("Your cart has been updated."),
        "removed" => Some("Removed from your cart."),
        other => notice(Some(other)),
    };
    let shell = Shell::new(&state, &s, "Cart").await?;
    let (st, who) = (state.clone(), s.who.clone());
    shell::respond(&state, &headers, shell, move |shell| async move {
        let v = st.db.run(move |c| svc::cart(c, &who)).await?;
        Ok(CartPage { shell, lines: line_views(&v), total: money(v.total), qty: v.qty, gone: v.gone.len(), notice })
    })
    .await
}

/// `POST /shop/cart/update`: a line's new quantity (1–999).
pub async fn update(State(state): State<AppState>, s: Shopper, Form(f): Form<CartForm>) -> AppResult<Response> {
    let id = product_id(&f)?;
    let Ok(qty) = rules::quantity(&f.qty) else { return Ok(Redirect::to("/shop/cart?m=qty").into_response()) };
    let who = s.who.clone();
    state.db.write(move |c| svc::set_qty(c, &who, id, qty)).await?;
    Ok(Redirect::to("/shop/cart?m=updated").into_response())
}

/// `POST /shop/cart/remove`.
pub async fn remove(State(state): State<AppState>, s: Shopper, Form(f): Form<CartForm>) -> AppResult<Response> {
    let id = product_id(&f)?;
    let who = s.who.clone();
    state.db.write(move |c| svc::remove(c, &who, id)).await?;
    Ok(Redirect::to("/shop/cart?m=removed").into_response())
}

// ---------------------------------------------------------------------------------------
// Check-out
// ---------------------------------------------------------------------------------------

#[derive(Template, WebTemplate)]
#[template(path = "shop/checkout.html")]
pub struct CheckoutPage {
    pub shell: Shell,
    pub lines: Vec<CartLineView>,
    pub total: String,
    pub gst: String,
    pub fingerprint: String,
    pub reference: String,
    pub note: String,
    pub shipping: &'static str,
    pub address: String,
    pub alert: Option<String>,
    pub errors: BTreeMap<String, String>,
}

impl CheckoutPage {
    fn error(&self, field: &str) -> &str {
        self.errors.get(field).map(String::as_str).unwrap_or("")
    }

    fn changed(&self) -> bool {
        self.lines.iter().any(|l| l.was.is_some())
    }
}

struct Entered {
    reference: String,
    note: String,
    shipping: Option<Shipping>,
}

const CHECKOUT_TITLE: &str = "Check out";

async fn checkout_page(state: &AppState, who: ShopPrincipal, shell: Shell, entered: Entered, alert: Option<String>, errors: BTreeMap<String, String>) -> AppResult<CheckoutPage> {
    let (v, customer) = state.db.run(move |c| Ok((svc::cart(c, &who)?, shop_db::customer(c, who.org_id, who.customer_id)?.ok_or(AppError::Unauthorized)?))).await?;
    let address = domain::masters::one_line_address(&customer.address, &customer.city, &customer.state, &customer.postal);
    let gst = domain::money::gst_of_inclusive(v.total, domain::enums::TaxType::default());
    Ok(CheckoutPage {
        shell,
        lines: line_views(&v),
        total: money(v.total),
        gst: money(gst),
        fingerprint: v.fingerprint.clone(),
        reference: entered.reference,
        note: entered.note,
        shipping: entered.shipping.unwrap_or(Shipping::default_for(customer.default_ship_type)).value(),
        address,
        alert,
        errors,
    })
}

/// The check-out page re-rendered after a POST, whole with its status.
async fn checkout_again(state: &AppState, s: &Shopper, entered: Entered, alert: Option<String>, errors: BTreeMap<String, String>) -> AppResult<CheckoutPage> {
    let shell = Shell::new(state, s, CHECKOUT_TITLE).await?;
    checkout_page(state, s.who.clone(), shell, entered, alert, errors).await
}

/// `GET /shop/checkout`; a cart with nothing the shop still shows goes back to the cart
/// (asked before the first byte).
pub async fn checkout(State(state): State<AppState>, s: Shopper, headers: HeaderMap) -> AppResult<Response> {
    let (org, customer) = (s.who.org_id, s.who.customer_id);
    if !state.db.run(move |c| shop_db::cart_has_shown(c, org, customer)).await? {
        return Ok(Redirect::to("/shop/cart").into_response());
    }
    let shell = Shell::new(&state, &s, CHECKOUT_TITLE).await?;
    let (st, who) = (state.clone(), s.who.clone());
    shell::respond(&state, &headers, shell, move |shell| async move {
        checkout_page(&st, who, shell, Entered { reference: String::new(), note: String::new(), shipping: None }, None, BTreeMap::new()).await
    })
    .await
}

#[derive(Deserialize)]
pub struct PlaceForm {
    #[serde(default)]
    reference: String,
    #[serde(default)]
    note: String,
    #[serde(default)]
    shipping: String,
    #[serde(default)]
    confirmed: String,
}

/// `POST /shop/checkout`: places the order, or shows the check-out again with what to fix
/// (or with the new prices to confirm).
pub async fn place(State(state): State<AppState>, s: Shopper, Form(f): Form<PlaceForm>) -> AppResult<Response> {
    let entered = || Entered { reference: f.reference.clone(), note: f.note.clone(), shipping: Shipping::parse(&f.shipping).ok() };
    let c = match rules::checkout(&f.reference, &f.note, &f.shipping) {
        Ok(c) => c,
        Err(list) => {
            let errors: BTreeMap<String, String> = list.into_iter().map(|(k, m)| (k.to_string(), m.to_string())).collect();
            let page = checkout_again(&state, &s, entered(), None, errors).await?;
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
        }
    };
    let who = s.who.clone();
    let confirmed = f.confirmed.clone();
    match state.db.write(move |conn| svc::place_cart(conn, &who, &c, &confirmed)).await {
        Ok(placed) => Ok(Redirect::to(&format!("/shop/orders/{}?placed=1", placed.id)).into_response()),
        Err(AppError::Conflict { message, .. }) => {
            let page = checkout_again(&state, &s, entered(), Some(message), BTreeMap::new()).await?;
            Ok((StatusCode::CONFLICT, page).into_response())
        }
        Err(AppError::BadRequest(m)) if m == rules::CART_EMPTY => Ok(Redirect::to("/shop/cart").into_response()),
        Err(AppError::Validation { message, errors }) => {
            let page = checkout_again(&state, &s, entered(), Some(message), errors).await?;
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e),
    }
}

// ---------------------------------------------------------------------------------------
// My orders
// ---------------------------------------------------------------------------------------

pub struct OrderView {
    pub id: i64,
    pub no: String,
    pub date: String,
    pub reference: String,
    pub status: &'static str,
    pub status_class: &'static str,
    pub qty: i64,
    pub total: String,
}

fn status_class(s: CustomerStatus) -> &'static str {
    match s {
        CustomerStatus::Received => "received",
        CustomerStatus::Confirmed => "confirmed",
        CustomerStatus::OnTheWay => "way",
        CustomerStatus::Delivered => "delivered",
        CustomerStatus::Cancelled => "cancelled",
    }
}

fn order_view(o: &shop_db::MyOrder, s: CustomerStatus) -> OrderView {
    OrderView {
        id: o.id,
        no: o.no.clone(),
        date: o.order_date.format("%-d %b %Y").to_string(),
        reference: o.reference.clone(),
        status: s.label(),
        status_class: status_class(s),
        qty: o.total_qty,
        total: money(Cents(o.total_amount)),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "shop/orders.html")]
pub struct OrdersPage {
    pub shell: Shell,
    pub orders: Vec<OrderView>,
    pub prev: Option<String>,
    pub next: Option<String>,
}

/// `GET /shop/orders`.
pub async fn orders(State(state): State<AppState>, s: Shopper, headers: HeaderMap, Query(q): Query<ShopQuery>) -> AppResult<Response> {
    let page = q.page()?;
    let shell = Shell::new(&state, &s, "My orders").await?;
    let (st, who) = (state.clone(), s.who.clone());
    shell::respond(&state, &headers, shell, move |shell| async move {
        let rows = st.db.run(move |c| svc::my_orders(c, &who, page)).await?;
        let next = (rows.len() as i64 == svc::PAGE_SIZE).then(|| format!("/shop/orders?page={}", page + 1));
        Ok(OrdersPage {
            shell,
            orders: rows.iter().map(|(o, status)| order_view(o, *status)).collect(),
            prev: (page > 1).then(|| format!("/shop/orders?page={}", page - 1)),
            next,
        })
    })
    .await
}

pub struct LineView {
    pub code: String,
    pub description: String,
    pub qty: i64,
    pub price: String,
    pub amount: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "shop/order.html")]
pub struct OrderPage {
    pub shell: Shell,
    pub order: OrderView,
    pub lines: Vec<LineView>,
    pub gst: String,
    pub shipping: &'static str,
    pub address: String,
    pub note: String,
    pub delivery_date: String,
    pub has_invoice: bool,
    pub placed: bool,
}

#[derive(Deserialize, Default)]
pub struct OrderQuery {
    #[serde(default)]
    placed: Option<String>,
}

/// `GET /shop/orders/{id}`: read-only, titled with the order's number, read first (anything
/// but the customer's own order is not found).
pub async fn order(State(state): State<AppState>, s: Shopper, headers: HeaderMap, Path(id): Path<i64>, Query(q): Query<OrderQuery>) -> AppResult<Response> {
    let (org, customer) = (s.who.org_id, s.who.customer_id);
    let no = state.db.run(move |c| shop_db::my_order_no(c, org, customer, id)).await?.ok_or(AppError::NotFound)?;
    let shell = Shell::new(&state, &s, no).await?;
    let placed = q.placed.is_some();
    let (st, who) = (state.clone(), s.who.clone());
    shell::respond(&state, &headers, shell, move |shell| async move {
        let (o, status, lines) = st.db.run(move |c| svc::my_order(c, &who, id)).await?;
        Ok(OrderPage {
            shell,
            order: order_view(&o, status),
            lines: lines
                .iter()
                .map(|l| LineView { code: l.code.clone().unwrap_or_default(), description: l.description.clone(), qty: l.qty, price: money(Cents(l.price)), amount: money(Cents(l.amount)) })
                .collect(),
            gst: money(Cents(o.total_gst)),
            shipping: if o.ship_type == domain::enums::ShipType::PickUp.as_i32() { "Pick-up" } else { "Delivery" },
            address: o.address.clone(),
            note: o.csr_self_note.clone(),
            delivery_date: o.delivery_date.map(|d| d.format("%-d %b %Y").to_string()).unwrap_or_default(),
            has_invoice: status.has_invoice(),
            placed,
        })
    })
    .await
}

/// `POST /shop/orders/{id}/again`: the order's lines into the cart.
pub async fn again(State(state): State<AppState>, s: Shopper, Path(id): Path<i64>) -> AppResult<Response> {
    let who = s.who.clone();
    match state.db.write(move |c| svc::order_again(c, &who, id)).await {
        Ok(_) => Ok(Redirect::to("/shop/cart?m=again").into_response()),
        Err(AppError::Validation { .. }) => Ok(Redirect::to("/shop/cart?m=qty").into_response()),
        Err(e) => Err(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "shop/invoice.html")]
pub struct InvoicePage {
    pub title: String,
    pub css: String,
    pub documents: Vec<documents::document::Document>,
}

/// `GET /shop/orders/{id}/invoice`: the A4 tax invoice, once the order is approved. It
/// never marks the sheet printed (that is the staff's print run).
pub async fn invoice(State(state): State<AppState>, s: Shopper, Path(id): Path<i64>) -> AppResult<Response> {
    let who = s.who.clone();
    let documents = state.db.run(move |c| svc::invoice(c, &who, id)).await?;
    let title = documents.first().map(|d| format!("{} {}", d.title, d.no)).unwrap_or_default();
    let mut res = InvoicePage { title, css: state.assets.url("css/print.css"), documents }.into_response();
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}
