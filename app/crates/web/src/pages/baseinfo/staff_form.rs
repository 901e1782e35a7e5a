//! Staff (role 4): add at `/baseinfo/employees`, edit at `/baseinfo/employees/{user id}`,
//! one-time password at `/baseinfo/employees/{id}/password`.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;

use super::form::{CHOOSE, Field, FormView, Group, SideAction, code_options};
use super::{FormError, SavedFlag, form_error, record_id, render, respond, saved_redirect};
use crate::auth::Auth;
use db::accounts::{self, StaffMember};
use domain::admin::StaffInput;
use domain::enums::Role;
use domain::limits::{NAME_MAX, PHONE_MAX, SHORT_MAX, too_long};
use db::error::{AppError, AppResult};
use services::admin as service;
use services::reference_data::only_approver;
use crate::state::AppState;

const LIST: &str = "/employees";

fn parse(body: &Bytes) -> AppResult<StaffInput> {
    // serde_html_form reads the repeated `orgs` checkboxes into a list.
    serde_html_form::from_bytes(body).map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))
}

fn person(input: &StaffInput, editing: bool) -> Group {
    Group {
        title: "Staff member",
        fields: vec![
            Field::text("name", "Name", &input.name).required().max_chars(NAME_MAX, too_long(NAME_MAX)),
            Field::typed("email", "E-mail (sign-in)", &input.email, "email").required().locked(editing).max_chars(SHORT_MAX, too_long(SHORT_MAX)),
            Field::typed("phone", "Phone", &input.phone, "tel").max_chars(PHONE_MAX, too_long(PHONE_MAX)),
            Field::select("role", "Role", code_options::<Role>(Some(CHOOSE)), input.role.map(|r| r.to_string()).unwrap_or_default()).required(),
        ],
    }
}

fn permissions(input: &StaffInput) -> Group {
    Group {
        title: "Permissions",
        fields: vec![
            Field::checkbox("modPrc", "May change prices (modPrc)", input.mod_prc),
            Field::checkbox("isAcct", "Accountant permit (isAcct)", input.is_acct),
            Field::checkbox("crtCSR", "May create customers (crtCSR)", input.crt_csr),
            Field::checkbox("isBuyer", "Buyer: may use the purchase suggestions", input.is_buyer),
        ],
    }
}

fn new_view(input: &StaffInput, companies: &[(i64, String)], current: i64) -> FormView {
    let asked = |id: i64| if input.orgs.is_empty() { id == current } else { input.orgs.contains(&id) };
    let choices = companies.iter().map(|(id, name)| (id.to_string(), name.clone(), asked(*id))).collect();
    FormView {
        heading: "New Staff Member",
        action: "/baseinfo/employees".into(),
        list_path: LIST,
        version: None,
        xero: None,
        alert: None,
        conflict: false,
        groups: vec![person(input, false), permissions(input), Group { title: "Companies", fields: vec![Field::choices("orgs", "Works for", choices).required()] }],
        notice: None,
        links: vec![],
        actions: vec![],
    }
}

fn input_from(m: &StaffMember) -> StaffInput {
    StaffInput {
        name: m.name.clone(),
        email: m.email.clone(),
        phone: m.phone.clone(),
        role: Some(m.role),
        mod_prc: m.mod_prc,
        is_acct: m.is_acct,
        crt_csr: m.crt_csr,
        is_buyer: m.is_buyer,
        active: Some(m.active),
        orgs: vec![],
    }
}

fn edit_view(input: &StaffInput, m: &StaffMember, zone: domain::dates::Tz) -> FormView {
    let status = vec![("1".to_string(), "Active".to_string()), ("0".to_string(), "Inactive (signed out at once)".to_string())];
    let active = if input.active.unwrap_or(m.active) { "1" } else { "0" };
    let password = if m.must_change_password { "One-time password: to be changed at the next sign-in" } else { "Set by the staff member" };
    FormView {
        heading: "Edit Staff Member",
        action: format!("/baseinfo/employees/{}", m.user_id),
        list_path: LIST,
        version: None,
        xero: None,
        alert: None,
        conflict: false,
        groups: vec![
            person(input, true),
            permissions(input),
            Group {
                title: "Status",
                fields: vec![
                    Field::select("active", "Status in this company", status, active.to_string()).required(),
                    Field::display("password", "Password", password),
                    Field::display("created_at", "Created", domain::dates::date(domain::dates::local_date(m.created_at, zone))),
                ],
            },
        ],
        notice: None,
        links: vec![],
        actions: vec![SideAction {
            label: "Set one-time password",
            action: format!("/baseinfo/employees/{}/password", m.user_id),
            confirm: "Set a one-time password? The current password stops working and the person is signed out everywhere.",
        }],
    }
}

const NEW_TITLE: &str = "New Staff Member";
const EDIT_TITLE: &str = "Edit Staff Member";

/// The add form over `input`, offering the companies the approver runs.
async fn new_form(state: &AppState, auth: &Auth, input: &StaffInput) -> AppResult<FormView> {
    let user = auth.user_id;
    let companies = state.db.run(move |c| accounts::approver_orgs(c, user)).await?;
    Ok(new_view(input, &companies, auth.org_id))
}

/// The add form refused by a post.
async fn new_page(state: &AppState, auth: &Auth, input: &StaffInput, error: FormError) -> AppResult<Response> {
    render(state, auth, NEW_TITLE, LIST, new_form(state, auth, input).await?, Some(error)).await
}

/// The edit form refused by a post (`error`, over what was typed).
async fn edit_page(state: &AppState, auth: &Auth, id: i64, input: &StaffInput, error: FormError) -> AppResult<Response> {
    let org = auth.org_id;
    let member = state.db.run(move |c| accounts::staff_member(c, org, id)).await?;
    render(state, auth, EDIT_TITLE, LIST, edit_view(input, &member, auth.zone), Some(error)).await
}

/// `GET /baseinfo/employees`: the add form, streamed.
pub async fn new_staff(State(state): State<AppState>, auth: Auth, headers: HeaderMap) -> AppResult<Response> {
    only_approver(auth.role)?;
    let (st, au) = (state.clone(), auth.clone());
    let input = StaffInput { role: Some(Role::Sales.as_i32()), ..StaffInput::default() };
    respond(&state, &auth, &headers, NEW_TITLE, LIST, None, async move { new_form(&st, &au, &input).await }).await
}

/// `POST /baseinfo/employees`: adds, then shows the edit page with the one-time password
/// (shown this once; it is stored only as a hash).
pub async fn create_staff(State(state): State<AppState>, auth: Auth, body: Bytes) -> AppResult<Response> {
    let input = parse(&body)?;
    match service::add_staff(&state, &domain::Actor::from(&auth), input.clone()).await {
        Ok(added) => {
            let notice = match added.one_time_password {
                Some(p) => format!(
                    "Operation successful. One-time password for {}: {p} — give it to them now; it is shown only this once and must be changed at the first sign-in.",
                    input.email.trim().to_lowercase()
                ),
                None => format!("Operation successful. {} already signs in to TyreDesk and keeps their password.", input.email.trim().to_lowercase()),
            };
            crate::pages::redirect_with_notice(&state, &auth, &format!("/baseinfo/employees/{}", added.user_id), "success", notice).await
        }
        Err(e) => new_page(&state, &auth, &input, form_error(e)?).await,
    }
}

/// `GET /baseinfo/employees/{id}`: the edit form (404 for someone outside the company, read
/// before the page answers; the form needs nothing more).
pub async fn edit_staff(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<String>, Query(q): Query<SavedFlag>) -> AppResult<Response> {
    only_approver(auth.role)?;
    let (id, org) = (record_id(&id)?, auth.org_id);
    let member = state.db.run(move |c| accounts::staff_member(c, org, id)).await?;
    let mut form = edit_view(&input_from(&member), &member, auth.zone);
    form.notice = q.notice.take(&state, &auth).await?.map(|(_, text)| text);
    respond(&state, &auth, &headers, EDIT_TITLE, LIST, q.flash(), async move { Ok(form) }).await
}

/// `POST /baseinfo/employees/{id}`: saves role, flags and status.
pub async fn update_staff(State(state): State<AppState>, auth: Auth, Path(id): Path<String>, body: Bytes) -> AppResult<Response> {
    let id = record_id(&id)?;
    let input = parse(&body)?;
    match service::update_staff(&state, &domain::Actor::from(&auth), id, input.clone()).await {
        Ok(()) => Ok(saved_redirect("employees", id)),
        Err(e) => edit_page(&state, &auth, id, &input, form_error(e)?).await,
    }
}

/// `POST /baseinfo/employees/{id}/password`: sets a one-time password and shows it once.
pub async fn reset_password(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> AppResult<Response> {
    let id = record_id(&id)?;
    let otp = service::reset_password(&state, &domain::Actor::from(&auth), id).await?;
    let notice = format!("One-time password: {otp} — give it to the staff member now; it is shown only this once and must be changed at the next sign-in. Their sessions have ended.");
    crate::pages::redirect_with_notice(&state, &auth, &format!("/baseinfo/employees/{id}"), "success", notice).await
}
