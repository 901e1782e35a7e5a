//! Check-out: the delivery or pick-up details, then the order placed as a self-order draft.

use super::*;

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
