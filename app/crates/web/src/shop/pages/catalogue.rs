//! The catalogue and a product's page.

use super::*;

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

pub(super) fn notice(m: Option<&str>) -> Option<&'static str> {
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
