//! The customer shop, and the helpers other areas use to shop: sign in as a customer, find
//! a product the shop shows and one it hides, add to the cart and check out.

use axum::body::Body;
use axum::http::{Method, StatusCode};
use db::schema::{brands, customers, products};
use diesel::prelude::*;

use crate::support::{Session, TestApp, TestResponse, extract_input};

mod storefront;

pub(crate) const SHOP: &str = "shop@demo.test";
pub(crate) const SHOP_OCOP: &str = "shop-ocop@demo.test";

/// Signs a customer in through the shop's real form; answers the session.
pub(crate) async fn shop_login(app: &TestApp, email: &str, password: &str) -> Result<Session, TestResponse> {
    let page = app.request(Method::GET, "/shop/login", None, None, &[]).await;
    assert_eq!(page.status, StatusCode::OK);
    let pre = page.cookie("td_shop_pre").expect("the shop's pre-session cookie");
    let csrf = extract_input(&page.body, "_csrf");
    let body = serde_urlencoded::to_string([("_csrf", csrf.as_str()), ("email", email), ("password", password)]).unwrap();
    let cookie = format!("td_shop_pre={pre}");
    let res = app.request(Method::POST, "/shop/login", Some(Body::from(body)), Some("application/x-www-form-urlencoded"), &[("cookie", &cookie)]).await;
    match res.cookie("td_shop") {
        Some(token) if !token.is_empty() => Ok(Session { csrf: web::auth::csrf::token_for(&token), cookie: format!("td_shop={token}") }),
        _ => Err(res),
    }
}

pub(crate) async fn signed_in(app: &TestApp, email: &str, password: &str) -> Session {
    match shop_login(app, email, password).await {
        Ok(s) => s,
        Err(res) => panic!("{email} could not sign in: {} {}", res.status, res.body),
    }
}

pub(crate) async fn badge(app: &TestApp, staff: &Session) -> i64 {
    app.get("/api/csr-self-order", Some(staff)).await.json()["cnt"].as_i64().unwrap()
}

pub(crate) async fn customer_id(app: &TestApp, email: &'static str) -> i64 {
    app.state.db.run(move |c| Ok(customers::table.filter(customers::email.eq(email)).select(customers::id).first::<i64>(c)?)).await.unwrap()
}

/// A product of company 4 the shop shows (shown, brand presented) and one it hides.
pub(crate) async fn shown_and_hidden(app: &TestApp) -> ((i64, String), (i64, String)) {
    app.state
        .db
        .run(|c| {
            let shown = products::table
                .inner_join(brands::table)
                .filter(products::org_id.eq(4))
                .filter(products::show_for_shop.eq(true))
                .filter(brands::presented_to_csr.eq(true))
                .order(products::id.asc())
                .select((products::id, products::code))
                .first::<(i64, String)>(c)?;
            let hidden = products::table
                .filter(products::org_id.eq(4))
                .filter(products::show_for_shop.eq(false))
                .order(products::id.asc())
                .select((products::id, products::code))
                .first::<(i64, String)>(c)?;
            Ok((shown, hidden))
        })
        .await
        .unwrap()
}

pub(crate) async fn unit_price(app: &TestApp, customer: i64, product: i64) -> i64 {
    app.state.db.run(move |c| Ok(services::pricing::quotes(c, 4, &[product], Some(customer))?[&product].unit_price.0)).await.unwrap()
}

pub(crate) fn money(cents: i64) -> String {
    format!("${}", domain::money::Cents(cents).grouped())
}

pub(crate) async fn add_to_cart(app: &TestApp, s: &Session, product: i64, qty: &str) -> TestResponse {
    app.post_form("/shop/cart/add", s, &[("product_id", &product.to_string()), ("qty", qty), ("back", "/shop")]).await
}

/// Checks out the cart as it stands; answers the placed sheet's id.
pub(crate) async fn check_out(app: &TestApp, s: &Session, reference: &str) -> i64 {
    let page = app.get("/shop/checkout", Some(s)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let confirmed = extract_input(&page.body, "confirmed");
    let placed = app.post_form("/shop/checkout", s, &[("confirmed", &confirmed), ("reference", reference), ("shipping", "delivery"), ("note", "Back door please")]).await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.body);
    let loc = placed.location().to_string();
    assert!(loc.starts_with("/shop/orders/") && loc.ends_with("?placed=1"), "{loc}");
    loc.trim_start_matches("/shop/orders/").trim_end_matches("?placed=1").parse().unwrap()
}

/// Asks `/oauth/token` for a bearer token with the demo password.
pub(crate) async fn token(app: &TestApp, email: &str) -> TestResponse {
    let body = serde_json::json!({"grant_type": "password", "username": email, "password": "tyredesk", "client_id": "tyredesk-web", "client_secret": "demo-secret"});
    app.request(Method::POST, "/oauth/token", Some(Body::from(body.to_string())), Some("application/json"), &[]).await
}
