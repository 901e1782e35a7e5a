//! Start-up data of the client (spec §7): accounts, brands, warehouses, employees, area and
//! payment types, print info, the self-order count, and change password.

use axum::Json;
use axum::extract::{Query, State};
use serde::{Deserialize, Serialize};

use crate::http::json::{ApiJson, DataAnswer, ListAnswer, Meta};
use crate::auth::Auth;
use db::{accounts, masters, orders};
use domain::{enums::Role, validate};
use db::error::{AppError, AppResult};
use documents::Company;
use services::print as print_service;
use crate::state::AppState;
use crate::http::query::Paging;

/// One company of the signed-in user (spec §3 Account record).
#[derive(Serialize)]
pub struct AccountRow {
    #[serde(rename = "eId")]
    e_id: i64,
    #[serde(rename = "orgId")]
    org_id: i64,
    #[serde(rename = "companyName")]
    company_name: String,
    name: String,
    phone: String,
    role: i32,
    #[serde(rename = "modPrc")]
    mod_prc: bool,
    #[serde(rename = "isAcct")]
    is_acct: bool,
    #[serde(rename = "crtCSR")]
    crt_csr: bool,
    current: bool,
}

/// `GET /api/account`: the companies the user may work in.
pub async fn account(State(state): State<AppState>, auth: Auth) -> AppResult<Json<ListAnswer<AccountRow>>> {
    let user_id = auth.user_id;
    let (user, ms) = state.db.run(move |c| Ok((accounts::user_by_id(c, user_id)?, accounts::memberships_of(c, user_id)?))).await?;
    let rows = accounts::usable(&ms)
        .into_iter()
        .map(|m| AccountRow {
            e_id: user.id,
            org_id: m.org_id,
            company_name: m.org_name.clone(),
            name: user.name.clone(),
            phone: user.phone.clone(),
            role: m.role,
            mod_prc: m.mod_prc,
            is_acct: m.is_acct,
            crt_csr: m.crt_csr,
            current: m.org_id == auth.org_id,
        })
        .collect();
    Ok(Json(ListAnswer::all(rows)))
}

/// `GET /api/brands`: all brands, or a page when `page` or `per_page` is given.
pub async fn brands(State(state): State<AppState>, auth: Auth, Query(paging): Query<Paging>) -> AppResult<Json<ListAnswer<masters::Brand>>> {
    let org = auth.org_id;
    if paging.page.is_none() && paging.per_page.is_none() {
        let all = state.db.run(move |c| masters::all_brands(c, org)).await?;
        return Ok(Json(ListAnswer::all(all)));
    }
    let req = paging.resolve(20);
    let page = state.db.run(move |c| masters::brands_page(c, org, req.offset(), req.per_page)).await?;
    Ok(Json(ListAnswer { data: page.rows, meta: Meta::page(page.total, &req) }))
}

/// `GET /api/warehouses`.
pub async fn warehouses(State(state): State<AppState>, auth: Auth) -> AppResult<Json<ListAnswer<masters::Warehouse>>> {
    let org = auth.org_id;
    Ok(Json(ListAnswer::all(state.db.run(move |c| masters::all_warehouses(c, org)).await?)))
}

/// An employee as the client's staff pickers read it (spec §3 Employee).
#[derive(Serialize)]
pub struct EmployeeRow {
    id: i64,
    email: String,
    name: String,
    role: i32,
    #[serde(rename = "roleDesc")]
    role_desc: &'static str,
    status: i32,
    able_login: bool,
    is_active: bool,
    label: String,
    value: i64,
    created_at: chrono::NaiveDateTime,
    updated_at: chrono::NaiveDateTime,
}

#[derive(Deserialize)]
pub struct EmployeeQuery {
    role: Option<i32>,
}

/// `GET /api/employees`, optionally only one role (`?role=6` lists drivers).
pub async fn employees(State(state): State<AppState>, auth: Auth, Query(q): Query<EmployeeQuery>) -> AppResult<Json<ListAnswer<EmployeeRow>>> {
    let org = auth.org_id;
    let all = state.db.run(move |c| masters::all_employees(c, org)).await?;
    let rows = all
        .into_iter()
        .filter(|e| q.role.is_none_or(|r| r == e.role))
        .map(|e| EmployeeRow {
            role_desc: Role::from_i32(e.role).map(Role::label).unwrap_or("Unknown"),
            label: e.name.clone(),
            value: e.id,
            id: e.id,
            email: e.email,
            name: e.name,
            role: e.role,
            status: e.status,
            able_login: e.able_login,
            is_active: e.is_active,
            created_at: e.created_at,
            updated_at: e.updated_at,
        })
        .collect();
    Ok(Json(ListAnswer::all(rows)))
}

/// `GET /api/area-types`.
pub async fn area_types(State(state): State<AppState>, auth: Auth) -> AppResult<Json<ListAnswer<masters::CodeName>>> {
    let org = auth.org_id;
    Ok(Json(ListAnswer::all(state.db.run(move |c| masters::area_types(c, org)).await?)))
}

/// `GET /api/payment-types`.
pub async fn payment_types(State(state): State<AppState>, auth: Auth) -> AppResult<Json<ListAnswer<masters::CodeName>>> {
    let org = auth.org_id;
    Ok(Json(ListAnswer::all(state.db.run(move |c| masters::payment_types(c, org)).await?)))
}

/// `GET /api/printInfo`: the company as its documents print it (spec §2.7).
pub async fn print_info(State(state): State<AppState>, auth: Auth) -> AppResult<Json<DataAnswer<Company>>> {
    let org = auth.org_id;
    Ok(Json(DataAnswer { data: state.db.run(move |c| print_service::company(c, org)).await? }))
}

#[derive(Serialize)]
pub struct CountAnswer {
    cnt: i64,
}

/// `GET /api/csr-self-order`: drafts placed by customers, for the header badge.
pub async fn self_order_count(State(state): State<AppState>, auth: Auth) -> AppResult<Json<CountAnswer>> {
    let org = auth.org_id;
    Ok(Json(CountAnswer { cnt: state.db.run(move |c| orders::self_order_count(c, org)).await? }))
}

#[derive(Deserialize)]
pub struct PasswordBody {
    #[serde(default)]
    password: String,
}

#[derive(Serialize)]
pub struct MessageAnswer {
    message: &'static str,
}

/// `POST /api/password`: changes the signed-in user's password; other sessions end.
pub async fn change_password(State(state): State<AppState>, auth: Auth, ApiJson(body): ApiJson<PasswordBody>) -> AppResult<Json<MessageAnswer>> {
    validate::new_password(&body.password).map_err(|m| AppError::field("password", m))?;
    crate::auth::change_own_password(&state, &auth, &body.password).await?;
    Ok(Json(MessageAnswer { message: "Password has been changed successfully" }))
}
