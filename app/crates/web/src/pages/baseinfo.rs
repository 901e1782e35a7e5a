//! Base-info add and edit for products and customers (spec §2.8): `/baseinfo/{route}` adds,
//! `/baseinfo/{route}/{id}` edits. Handlers parse the form, call the same services as the
//! JSON API, and either redirect to the saved record or show the form again with messages.

mod customer_form;
mod form;
mod product_form;
mod reference_forms;
mod staff_form;

pub use self::reference_forms::Record;
pub use self::staff_form::{create_staff, edit_staff, new_staff, reset_password, update_staff};

use std::collections::BTreeMap;
use std::future::Future;

use askama::Template;
use askama_web::WebTemplate;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use self::form::{FormView, Kind};
use super::shell::{Flash, Shell};
use super::stream;
use crate::auth::Auth;
use db::{accounts, customers as customer_db, masters as master_db, products as product_db};
use domain::masters::{CustomerInput, NO_CREATE_CUSTOMER, ProductInput, may_create_customer, may_edit_credit_terms};
use domain::price_tiers::TierUplifts;
use domain::validate::REQUIRED;
use db::error::{AppError, AppResult};
use services::masters::{self as service, VERSION_CONFLICT_CODE};
use crate::state::AppState;

/// The toast after a save (spec §2.8).
pub const SAVED: &str = "Operation successful";
/// Validation and access messages last 3.5 s (spec §8).
const SHORT_MS: u32 = 3_500;

#[derive(Template, WebTemplate)]
#[template(path = "baseinfo/form.html")]
pub struct FormPage {
    pub shell: Shell,
    pub form: FormView,
}

impl FormPage {
    /// The blur message of required fields, from the same constant the server uses.
    pub fn required_message(&self) -> &'static str {
        REQUIRED
    }
}

/// Shown instead of the add form when the user may not create the record.
#[derive(Template, WebTemplate)]
#[template(path = "baseinfo/denied.html")]
pub struct DeniedPage {
    pub shell: Shell,
    pub message: &'static str,
    pub back: &'static str,
    /// The page returns to `back` after this many milliseconds (spec §5: 1 s).
    pub redirect_ms: u32,
}

/// `?saved=1` marks the redirect after a save, so the edit page shows the toast once.
#[derive(Deserialize)]
pub struct SavedFlag {
    saved: Option<String>,
    /// `notice=1`: a post kept a notice for this page (post/redirect/get).
    #[serde(flatten)]
    notice: crate::pages::NoticeFlag,
}

impl SavedFlag {
    fn flash(&self) -> Option<Flash> {
        self.saved.as_deref().filter(|v| *v == "1").map(|_| Flash { text: SAVED.to_string(), level: "success", ms: 5_000 })
    }
}

/// A form failure shown on the form itself.
struct FormError {
    status: StatusCode,
    message: String,
    errors: BTreeMap<String, String>,
    conflict: bool,
}

/// Validation errors (422) and version conflicts (409) go back to the form with what was
/// typed; anything else (403, 404, 500) is rendered as usual.
fn form_error(e: AppError) -> Result<FormError, AppError> {
    match e {
        AppError::Validation { message, errors } => Ok(FormError { status: StatusCode::UNPROCESSABLE_ENTITY, message, errors, conflict: false }),
        AppError::Conflict { message, code: Some(VERSION_CONFLICT_CODE), .. } => {
            Ok(FormError { status: StatusCode::CONFLICT, message, errors: BTreeMap::new(), conflict: true })
        }
        other => Err(other),
    }
}

fn parse<T: DeserializeOwned>(body: &Bytes) -> AppResult<T> {
    serde_urlencoded::from_bytes(body).map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))
}

/// Ids in the URL that are not numbers name no record.
fn record_id(raw: &str) -> AppResult<i64> {
    raw.parse().map_err(|_| AppError::NotFound)
}

fn saved_redirect(route: &str, id: i64) -> Response {
    Redirect::to(&format!("/baseinfo/{route}/{id}?saved=1")).into_response()
}

/// Answers a form page to a GET, streamed (web/stream.rs): the head and the shell go out
/// before `form` reads the form's choices. A page of a record looks the record up first, so a
/// missing or foreign id is still a 404.
async fn respond<V>(state: &AppState, auth: &Auth, headers: &HeaderMap, title: &str, active: &str, flash: Option<Flash>, form: V) -> AppResult<Response>
where
    V: Future<Output = AppResult<FormView>> + Send + 'static,
{
    stream::respond(state, auth, headers, title, active, &[], move |mut shell| async move {
        shell.flash = flash;
        Ok(FormPage { shell, form: form.await? })
    })
    .await
}

/// The form whole, after a post: refused (`error`, with its status) or with a notice.
async fn render(state: &AppState, auth: &Auth, title: &str, active: &str, form: FormView, error: Option<FormError>) -> AppResult<Response> {
    let shell = Shell::new(state, auth, title, active, &[]).await?;
    let (form, status) = match error {
        None => (form, StatusCode::OK),
        Some(e) => {
            let mut f = form.with_errors(&e.message, &e.errors);
            f.conflict = e.conflict;
            (f, e.status)
        }
    };
    Ok((status, FormPage { shell, form }).into_response())
}

// ---------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------

/// The product form over `input`; `id` names the product edited.
async fn product_view(state: &AppState, auth: &Auth, input: &ProductInput, id: Option<i64>) -> AppResult<FormView> {
    let org = auth.org_id;
    let (brands, existing, org_row, suppliers) = state
        .db
        .run(move |c| {
            let existing = id.map(|id| product_db::product(c, org, id)).transpose()?;
            let suppliers: Vec<(i64, String)> = db::reorder::suppliers_of(c, org)?.into_iter().map(|(id, n, _)| (id, n)).collect();
            Ok((master_db::all_brands(c, org)?, existing, accounts::organisation(c, org)?, suppliers))
        })
        .await?;
    let uplifts = uplifts_of(&org_row);
    let ctx = product_form::ProductContext { brands: &brands, existing: existing.as_ref(), uplifts, sight: auth.sight(), suppliers: &suppliers };
    Ok(product_form::view(input, &ctx))
}

fn product_title(id: Option<i64>) -> &'static str {
    if id.is_some() { "Edit Product" } else { "New Product" }
}

/// The product form refused by a post.
async fn product_page(state: &AppState, auth: &Auth, input: &ProductInput, id: Option<i64>, error: FormError) -> AppResult<Response> {
    render(state, auth, product_title(id), "/products", product_view(state, auth, input, id).await?, Some(error)).await
}

fn uplifts_of(o: &accounts::Organisation) -> TierUplifts {
    let bp = |v: i32| u32::try_from(v).unwrap_or(0);
    TierUplifts { b: bp(o.tier_b_bp), c: bp(o.tier_c_bp), d: bp(o.tier_d_bp), e: bp(o.tier_e_bp) }
}

/// `GET /baseinfo/products`: the new-product form.
pub async fn new_product(State(state): State<AppState>, auth: Auth, headers: HeaderMap) -> AppResult<Response> {
    let (st, au) = (state.clone(), auth.clone());
    respond(&state, &auth, &headers, product_title(None), "/products", None, async move { product_view(&st, &au, &product_form::new_input(), None).await }).await
}

/// `POST /baseinfo/products`: creates, then opens the product in edit mode.
pub async fn create_product(State(state): State<AppState>, auth: Auth, body: Bytes) -> AppResult<Response> {
    let input: ProductInput = parse(&body)?;
    match service::create_product(&state, &domain::Actor::from(&auth), input.clone()).await {
        Ok(p) => Ok(saved_redirect("products", p.id)),
        Err(e) => product_page(&state, &auth, &input, None, form_error(e)?).await,
    }
}

/// `GET /baseinfo/products/{id}`: the edit form (404 for another company's product, read
/// before the page answers).
pub async fn edit_product(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<String>, Query(q): Query<SavedFlag>) -> AppResult<Response> {
    let (id, org) = (record_id(&id)?, auth.org_id);
    let stored = state.db.run(move |c| product_db::product(c, org, id)).await?;
    let (st, au) = (state.clone(), auth.clone());
    let form = async move { product_view(&st, &au, &product_form::input_from(&stored), Some(id)).await };
    respond(&state, &auth, &headers, product_title(Some(id)), "/products", q.flash(), form).await
}

/// `POST /baseinfo/products/{id}`: saves the edit if nobody saved in between.
pub async fn update_product(State(state): State<AppState>, auth: Auth, Path(id): Path<String>, body: Bytes) -> AppResult<Response> {
    let id = record_id(&id)?;
    let input: ProductInput = parse(&body)?;
    match service::update_product(&state, &domain::Actor::from(&auth), id, input.clone()).await {
        Ok(p) => Ok(saved_redirect("products", p.id)),
        Err(e) => product_page(&state, &auth, &input, Some(id), form_error(e)?).await,
    }
}

// ---------------------------------------------------------------------------------------
// Customers
// ---------------------------------------------------------------------------------------

/// The customer form over `input`; `id` names the customer edited.
async fn customer_view(state: &AppState, auth: &Auth, input: &CustomerInput, id: Option<i64>) -> AppResult<FormView> {
    let org = auth.org_id;
    let (staff, existing) = state
        .db
        .run(move |c| {
            let existing = id.map(|id| customer_db::customer(c, org, id)).transpose()?;
            Ok((master_db::all_employees(c, org)?, existing))
        })
        .await?;
    let ctx = customer_form::CustomerContext {
        staff: &staff,
        existing: existing.as_ref(),
        may_edit_terms: may_edit_credit_terms(auth.role),
        may_invite: domain::shop::may_invite(auth.role, auth.crt_csr),
    };
    Ok(customer_form::view(input, &ctx))
}

fn customer_title(id: Option<i64>) -> &'static str {
    if id.is_some() { "Edit Customer" } else { "New Customer" }
}

/// The customer form refused by a post (`error`, over what was typed).
async fn customer_page(state: &AppState, auth: &Auth, input: &CustomerInput, id: Option<i64>, error: FormError) -> AppResult<Response> {
    let view = customer_view(state, auth, input, id).await?;
    render(state, auth, customer_title(id), "/customers", view, Some(error)).await
}

/// `POST /baseinfo/customers/{id}/shop-invite`: a one-time shop password, shown this once
/// on the customer's page (role 4 or crtCSR).
pub async fn shop_invite(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> AppResult<Response> {
    let (id, org, actor) = (record_id(&id)?, auth.org_id, domain::Actor::from(&auth));
    let otp = state.db.write(move |c| services::shop::invite(c, &actor, id)).await?;
    let stored = state.db.run(move |c| customer_db::customer(c, org, id)).await?;
    let notice = format!(
        "One-time shop password for {}: {otp} — give it to the customer now with the shop's address (/shop); it is shown only this once and must be changed at the first sign-in.",
        stored.email.trim()
    );
    crate::pages::redirect_with_notice(&state, &auth, &format!("/baseinfo/customers/{id}"), "success", notice).await
}

/// `GET /baseinfo/customers`: the new-customer form, or in company 4 without crtCSR the
/// refusal that returns to the list (spec §5).
pub async fn new_customer(State(state): State<AppState>, auth: Auth, headers: HeaderMap) -> AppResult<Response> {
    if !may_create_customer(auth.org_id, auth.crt_csr) {
        let mut shell = Shell::new(&state, &auth, "New Customer", "/customers", &[]).await?;
        shell.flash = Some(Flash { text: NO_CREATE_CUSTOMER.to_string(), level: "error", ms: SHORT_MS });
        let page = DeniedPage { shell, message: NO_CREATE_CUSTOMER, back: "/customers", redirect_ms: 1_000 };
        return Ok((StatusCode::FORBIDDEN, page).into_response());
    }
    let (st, au) = (state.clone(), auth.clone());
    respond(&state, &auth, &headers, customer_title(None), "/customers", None, async move { customer_view(&st, &au, &customer_form::new_input(), None).await }).await
}

/// `POST /baseinfo/customers`: creates, then opens the customer in edit mode.
pub async fn create_customer(State(state): State<AppState>, auth: Auth, body: Bytes) -> AppResult<Response> {
    let input: CustomerInput = parse(&body)?;
    match service::create_customer(&state, &domain::Actor::from(&auth), input.clone()).await {
        Ok(c) => Ok(saved_redirect("customers", c.id)),
        Err(e) => customer_page(&state, &auth, &input, None, form_error(e)?).await,
    }
}

/// `GET /baseinfo/customers/{id}`: the edit form (404 for another company's customer, read
/// before the page answers).
pub async fn edit_customer(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<String>, Query(q): Query<SavedFlag>) -> AppResult<Response> {
    let (id, org) = (record_id(&id)?, auth.org_id);
    let stored = state.db.run(move |c| customer_db::customer(c, org, id)).await?;
    let notice = q.notice.take(&state, &auth).await?.map(|(_, text)| text);
    let (st, au) = (state.clone(), auth.clone());
    let form = async move {
        let mut view = customer_view(&st, &au, &customer_form::input_from(&stored), Some(id)).await?;
        view.notice = notice;
        Ok(view)
    };
    respond(&state, &auth, &headers, customer_title(Some(id)), "/customers", q.flash(), form).await
}

/// `POST /baseinfo/customers/{id}`: saves the edit if nobody saved in between.
pub async fn update_customer(State(state): State<AppState>, auth: Auth, Path(id): Path<String>, body: Bytes) -> AppResult<Response> {
    let id = record_id(&id)?;
    let input: CustomerInput = parse(&body)?;
    match service::update_customer(&state, &domain::Actor::from(&auth), id, input.clone()).await {
        Ok(c) => Ok(saved_redirect("customers", c.id)),
        Err(e) => customer_page(&state, &auth, &input, Some(id), form_error(e)?).await,
    }
}

// ---------------------------------------------------------------------------------------
// Suppliers, warehouses, brands (role 4)
// ---------------------------------------------------------------------------------------

fn administer(auth: &Auth) -> AppResult<()> {
    services::reference_data::only_approver(auth.role)
}

/// The form of a record refused by a post.
async fn record_page<R: Record>(state: &AppState, auth: &Auth, input: &R::Input, existing: Option<&R>, error: FormError) -> AppResult<Response> {
    let title = if existing.is_some() { R::EDIT_TITLE } else { R::NEW_TITLE };
    render(state, auth, title, R::LIST, R::view(input, existing, auth.zone), Some(error)).await
}

/// `GET /baseinfo/{suppliers|warehouses|brands}`: the empty form.
pub async fn new_record<R: Record>(State(state): State<AppState>, auth: Auth, headers: HeaderMap) -> AppResult<Response> {
    administer(&auth)?;
    let form = R::view(&R::fresh(), None, auth.zone);
    respond(&state, &auth, &headers, R::NEW_TITLE, R::LIST, None, async move { Ok(form) }).await
}

/// `POST /baseinfo/{kind}`: creates, then opens the record in edit mode.
pub async fn create_record<R: Record>(State(state): State<AppState>, auth: Auth, body: Bytes) -> AppResult<Response> {
    administer(&auth)?;
    let input: R::Input = parse(&body)?;
    match R::save(&state, &auth, None, input.clone()).await {
        Ok(r) => Ok(saved_redirect(R::ROUTE, r.id())),
        Err(e) => record_page::<R>(&state, &auth, &input, None, form_error(e)?).await,
    }
}

/// `GET /baseinfo/{kind}/{id}`: the edit form (404 for another company's record, read before
/// the page answers; the form needs nothing more).
pub async fn edit_record<R: Record>(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<String>, Query(q): Query<SavedFlag>) -> AppResult<Response> {
    administer(&auth)?;
    let (id, org) = (record_id(&id)?, auth.org_id);
    let stored = state.db.run(move |c| R::load(c, org, id)).await?;
    let form = R::view(&stored.input_from(), Some(&stored), auth.zone);
    respond(&state, &auth, &headers, R::EDIT_TITLE, R::LIST, q.flash(), async move { Ok(form) }).await
}

/// `POST /baseinfo/{kind}/{id}`: saves the edit if nobody saved in between.
pub async fn update_record<R: Record>(State(state): State<AppState>, auth: Auth, Path(id): Path<String>, body: Bytes) -> AppResult<Response> {
    administer(&auth)?;
    let (id, org) = (record_id(&id)?, auth.org_id);
    let input: R::Input = parse(&body)?;
    match R::save(&state, &auth, Some(id), input.clone()).await {
        Ok(r) => Ok(saved_redirect(R::ROUTE, r.id())),
        Err(e) => {
            let error = form_error(e)?;
            let stored = state.db.run(move |c| R::load(c, org, id)).await?;
            record_page::<R>(&state, &auth, &input, Some(&stored), error).await
        }
    }
}
