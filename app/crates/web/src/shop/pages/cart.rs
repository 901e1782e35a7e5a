//! The cart: adding (in place with htmx), changing and removing lines.

use super::*;

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

pub(super) fn line_views(v: &CartView) -> Vec<CartLineView> {
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
