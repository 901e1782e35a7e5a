//! The customer's orders, one order, ordering it again, and its tax invoice.

use super::*;

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
        date: domain::dates::date(o.order_date),
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
            delivery_date: o.delivery_date.map(domain::dates::date).unwrap_or_default(),
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
