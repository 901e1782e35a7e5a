//! The master-data lists without a filter card: suppliers, warehouses, brands, employees.

use std::future::Future;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::list::{Cell, Column, EMPTY_NO_DATA, FilterKind, ListView, NewButton, Pager, PagerItem, Paging, Results, wants_fragment};
use super::shell::Shell;
use super::stream;
use crate::auth::Auth;
use db::masters::{self, Paged};
use domain::enums::Role;
use domain::permissions::may_administer;
use db::error::AppResult;
use crate::state::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "lists/list.html")]
pub struct ListPage {
    pub shell: Shell,
    pub view: ListView,
    /// Out-of-band updates are only for htmx fragments.
    pub oob: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "partials/results.html")]
pub struct ResultsFragment {
    pub view: ListView,
    /// Also refresh the search card's Export link to the new search.
    pub oob: bool,
}

/// Answers with the results only for an htmx search or page change, or with the whole page,
/// streamed: the head and the shell go out before `view` reads the list (web/stream.rs).
pub async fn respond<V>(state: &AppState, auth: &Auth, headers: &HeaderMap, title: &str, path: &str, islands: &[&str], view: V) -> AppResult<Response>
where
    V: Future<Output = AppResult<ListView>> + Send + 'static,
{
    if wants_fragment(headers) {
        return Ok(ResultsFragment { view: view.await?, oob: true }.into_response());
    }
    stream::respond(state, auth, headers, title, path, islands, move |shell| async move { Ok(ListPage { shell, view: view.await?, oob: false }) }).await
}

pub fn yes_no(b: bool) -> Cell {
    if b {
        Cell::Tag { label: "Yes".into(), class: "tag-green" }
    } else {
        Cell::Tag { label: "No".into(), class: "tag-grey" }
    }
}

/// The Edit cell of a row, for those who may edit (approvers).
fn edit_cell(editable: bool, route: &str, id: i64) -> Vec<Cell> {
    if editable { vec![Cell::Link { label: "Edit".into(), href: format!("/baseinfo/{route}/{id}"), new_tab: false }] } else { vec![] }
}

/// A list of one kind of reference record. Approvers get '+ New' in the header and an Edit
/// link on each row (the spec shows neither; docs/decisions/companies-and-references.md, "Suppliers, warehouses and brands").
#[allow(clippy::too_many_arguments)]
fn simple_list<T>(
    auth: &Auth,
    heading: &'static str,
    path: &'static str,
    new: NewButton,
    mut columns: Vec<Column>,
    page: Paged<T>,
    pager: Pager,
    row: impl Fn(&T) -> (i64, Vec<Cell>),
) -> ListView {
    let editable = may_administer(auth.role);
    let route = new.href.trim_start_matches("/baseinfo/");
    if editable {
        columns.push(Column::text("Action"));
    }
    let rows = page
        .rows
        .iter()
        .map(|r| {
            let (id, mut cells) = row(r);
            cells.extend(edit_cell(editable, route, id));
            cells
        })
        .collect();
    ListView {
        heading,
        path,
        new_buttons: if editable { vec![new] } else { vec![] },
        filters: None,
        results: Results { columns, rows, pager: Some(pager), empty_text: EMPTY_NO_DATA, export_url: None, selection: None },
    }
}

/// `GET /suppliers`.
pub async fn suppliers(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Query(paging): Query<Paging>) -> AppResult<Response> {
    let (st, au) = (state.clone(), auth.clone());
    respond(&state, &auth, &headers, "Suppliers", "/suppliers", &[], async move {
        let (state, auth) = (st, au);
        let req = paging.resolve(20);
        let org = auth.org_id;
        let page = state.db.run(move |c| masters::suppliers_page(c, org, req.offset(), req.per_page)).await?;
        let pager = Pager::new("/suppliers", vec![], req, page.total);
        let columns = vec![Column::text("Code"), Column::text("Name"), Column::text("Primary Person"), Column::text("Created"), Column::text("Updated")];
        let new = NewButton { label: "+ New Supplier", href: "/baseinfo/suppliers" };
        let view = simple_list(&auth, "Suppliers", "/suppliers", new, columns, page, pager, |s| {
            (s.id, vec![
                Cell::Text(s.code.clone()),
                Cell::Text(s.name.clone()),
                Cell::Text(format!("{} {}", s.primary_person_first, s.primary_person_last).trim().to_string()),
                Cell::stamp(s.created_at, auth.zone),
                Cell::stamp(s.updated_at, auth.zone),
            ])
        });
        Ok(view)
    })
    .await
}

/// `GET /warehouses`.
pub async fn warehouses(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Query(paging): Query<Paging>) -> AppResult<Response> {
    let (st, au) = (state.clone(), auth.clone());
    respond(&state, &auth, &headers, "Warehouses", "/warehouses", &[], async move {
        let (state, auth) = (st, au);
        let req = paging.resolve(20);
        let org = auth.org_id;
        let page = state.db.run(move |c| masters::warehouses_page(c, org, req.offset(), req.per_page)).await?;
        let pager = Pager::new("/warehouses", vec![], req, page.total);
        let columns = vec![
            Column::text("Code"),
            Column::text("Name"),
            Column::text("Address"),
            Column::text("Counts for CSR Orders"),
            Column::text("Created"),
            Column::text("Updated"),
        ];
        let new = NewButton { label: "+ New Warehouse", href: "/baseinfo/warehouses" };
        let view = simple_list(&auth, "Warehouses", "/warehouses", new, columns, page, pager, |w| {
            (w.id, vec![
                Cell::Text(w.code.clone()),
                Cell::Text(w.name.clone()),
                Cell::Text(w.address.clone()),
                yes_no(w.is_calc_for_csr_order),
                Cell::stamp(w.created_at, auth.zone),
                Cell::stamp(w.updated_at, auth.zone),
            ])
        });
        Ok(view)
    })
    .await
}

/// `GET /brands`.
pub async fn brands(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Query(paging): Query<Paging>) -> AppResult<Response> {
    let (st, au) = (state.clone(), auth.clone());
    respond(&state, &auth, &headers, "Brands", "/brands", &[], async move {
        let (state, auth) = (st, au);
        let req = paging.resolve(20);
        let org = auth.org_id;
        let page = state.db.run(move |c| masters::brands_page(c, org, req.offset(), req.per_page)).await?;
        let pager = Pager::new("/brands", vec![], req, page.total);
        let columns = vec![Column::text("Name"), Column::text("Presented to CSR"), Column::text("Created"), Column::text("Updated")];
        let new = NewButton { label: "+ New Brand", href: "/baseinfo/brands" };
        let view = simple_list(&auth, "Brands", "/brands", new, columns, page, pager, |b| {
            (b.id, vec![
                Cell::Text(b.name.clone()),
                yes_no(b.presented_to_csr),
                Cell::stamp(b.created_at, auth.zone),
                Cell::stamp(b.updated_at, auth.zone),
            ])
        });
        Ok(view)
    })
    .await
}

/// `GET /employees`.
pub async fn employees(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Query(paging): Query<Paging>) -> AppResult<Response> {
    let (st, au) = (state.clone(), auth.clone());
    respond(&state, &auth, &headers, "Employees", "/employees", &[], async move {
        let (state, auth) = (st, au);
        let req = paging.resolve(20);
        let org = auth.org_id;
        let page = state.db.run(move |c| masters::employees_page(c, org, req.offset(), req.per_page)).await?;
        let pager = Pager::new("/employees", vec![], req, page.total);
        let columns = vec![
            Column::text("Name"),
            Column::text("Email"),
            Column::text("Phone"),
            Column::text("Role"),
            Column::text("Permissions"),
            Column::text("Status"),
            Column::text("Can Sign In"),
            Column::text("Created"),
        ];
        let new = NewButton { label: "+ New Staff Member", href: "/baseinfo/employees" };
        let view = simple_list(&auth, "Employees", "/employees", new, columns, page, pager, |e| {
            (e.id, vec![
                Cell::Text(e.name.clone()),
                Cell::Text(e.email.clone()),
                Cell::Text(e.phone.clone()),
                Cell::Text(Role::from_i32(e.role).map(Role::label).unwrap_or("Unknown").to_string()),
                Cell::Tags([("modPrc", e.mod_prc), ("isAcct", e.is_acct), ("crtCSR", e.crt_csr), ("isBuyer", e.is_buyer)].iter().filter(|(_, on)| *on).map(|(n, _)| (*n).to_string()).collect()),
                if e.is_active {
                    Cell::Tag { label: "Active".into(), class: "tag-green" }
                } else {
                    Cell::Tag { label: "Inactive".into(), class: "tag-grey" }
                },
                yes_no(e.able_login),
                Cell::stamp(e.created_at, auth.zone),
            ])
        });
        Ok(view)
    })
    .await
}
