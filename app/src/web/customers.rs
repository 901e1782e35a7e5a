//! The customer (CSR) list (spec §2.4) with its filters and the `csr.xlsx` export.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::list::{Cell, Column, Filter, FilterKind, Filters, ListView, NewButton, Results, current, options_with_all};
use super::masters::respond;
use super::products::{xero_options, xero_tag};
use crate::auth::Auth;
use db::customers::{self, Customer, CustomerFilter};
use domain::enums::{AreaType, BusinessType, PaymentType, PriceStrategy, XeroState};
use domain::money::Cents;
use db::error::AppResult;
use crate::state::AppState;
use crate::xlsx::export::{self, Col, Kind, Sheet, Val};

const PATH: &str = "/customers";

fn label<T: Copy>(code: i32, from: fn(i32) -> Option<T>, label: fn(T) -> &'static str) -> String {
    from(code).map(label).unwrap_or_default().to_string()
}

fn filters(pairs: &[(String, String)]) -> Vec<Filter> {
    let select = |label, name, options| Filter { label, name, kind: FilterKind::Select { options, selected: current(pairs, name) } };
    let date = |label, name| Filter { label, name, kind: FilterKind::Date { value: current(pairs, name) } };
    vec![
        Filter { label: "Customer Key", name: "key", kind: FilterKind::Text { value: current(pairs, "key"), placeholder: "name, ABN, phone or e-mail", suggestions: vec![] } },
        select("Date Type", "date_type", vec![("created".into(), "Create Date".into()), ("modified".into(), "Modify Date".into())]),
        date("From", "from"),
        date("To", "to"),
        select("Xero Sent", "xero", xero_options()),
        select("Price Type", "price_type", options_with_all(PriceStrategy::ALL.iter().map(|p| (p.as_i32(), p.label())))),
        select("Business Type", "business_type", options_with_all(BusinessType::ALL.iter().map(|p| (p.as_i32(), p.label())))),
        select("Payment Type", "payment_type", options_with_all(PaymentType::ALL.iter().map(|p| (p.as_i32(), p.label())))),
        select("Area Type", "area_type", options_with_all(AreaType::ALL.iter().map(|p| (p.as_i32(), p.label())))),
    ]
}

fn contact(c: &Customer) -> String {
    format!("{} {}", c.primary_person_first, c.primary_person_last).trim().to_string()
}

/// `GET /customers` (and `?format=xlsx`).
pub async fn list(State(state): State<AppState>, auth: Auth, headers: HeaderMap, f: Filters<CustomerFilter>) -> AppResult<Response> {
    let org = auth.org_id;
    if f.export {
        return export(&state, org, f.value).await;
    }
    let st = state.clone();
    respond(&state, &auth, &headers, "Customers", PATH, &[], async move {
        let state = st;
        let req = f.paging.resolve(20);
        let filter = f.value.clone();
        let page = state.db.run(move |c| customers::list(c, org, &filter, req.offset(), req.per_page)).await?;
        let columns = vec![
            Column::text("Name"),
            Column::text("ABN Code"),
            Column::text("Contact"),
            Column::text("Phone"),
            Column::text("Area"),
            Column::text("Payment Type"),
            Column::text("Price Strategy"),
            Column::num("Credit Limit"),
            Column::num("Balance"),
            Column::text("Xero"),
            Column::text("Action"),
        ];
        let rows = page
            .rows
            .iter()
            .map(|c| {
                vec![
                    Cell::Text(c.name.clone()),
                    Cell::Text(c.code.clone()),
                    Cell::Text(contact(c)),
                    Cell::Text(c.phone.clone()),
                    Cell::Text(label(c.area_type, AreaType::from_i32, AreaType::label)),
                    Cell::Text(label(c.payment_type, PaymentType::from_i32, PaymentType::label)),
                    Cell::Text(label(c.price_strategy, PriceStrategy::from_i32, PriceStrategy::label)),
                    Cell::Num(Cents(c.credit_limit).grouped()),
                    Cell::Num(Cents(c.xero_balance).grouped()),
                    xero_tag(c.xero_sent),
                    Cell::Link { label: "Edit".into(), href: format!("/baseinfo/customers/{}", c.id), new_tab: true },
                ]
            })
            .collect();
        let view = ListView {
            heading: "Customers",
            path: PATH,
            new_buttons: vec![NewButton { label: "+ New Customer", href: "/baseinfo/customers" }],
            filters: Some(filters(&f.pairs)),
            results: Results::exported(PATH, &f.pairs, req, page.total, columns, rows),
        };
        Ok(view)
    })
    .await
}

const EXPORT_COLUMNS: [Col; 17] = [
    Col::new("Name", 34.0, Kind::Text),
    Col::new("ABN Code", 16.0, Kind::Text),
    Col::new("Contact", 20.0, Kind::Text),
    Col::new("Phone", 14.0, Kind::Text),
    Col::new("Mobile", 14.0, Kind::Text),
    Col::new("Email", 28.0, Kind::Text),
    Col::new("Address", 30.0, Kind::Text),
    Col::new("City", 16.0, Kind::Text),
    Col::new("State", 6.0, Kind::Text),
    Col::new("Postcode", 9.0, Kind::Text),
    Col::new("Area", 12.0, Kind::Text),
    Col::new("Payment Type", 16.0, Kind::Text),
    Col::new("Price Strategy", 14.0, Kind::Text),
    Col::new("Credit Limit", 13.0, Kind::Money),
    Col::new("Balance", 13.0, Kind::Money),
    Col::new("Xero", 8.0, Kind::Text),
    Col::new("Created", 12.0, Kind::Date),
];

/// The customers of a search as `csr.xlsx` (the screen's export and the API's).
pub async fn export(state: &AppState, org: i64, filter: CustomerFilter) -> AppResult<Response> {
    let chunk = state.config.export_chunk;
    export::stream(state, "csr.xlsx", Sheet { name: "Customers", cols: &EXPORT_COLUMNS }, move |c, out| {
        customers::for_each_chunk(c, org, &filter, chunk, |rows| {
            out.append(rows.into_iter().map(|c| {
                use chrono::TimeZone;
                vec![
                    Val::Text(c.name.clone()),
                    Val::Text(c.code.clone()),
                    Val::Text(contact(&c)),
                    Val::Text(c.phone.clone()),
                    Val::Text(c.mobile.clone()),
                    Val::Text(c.email.clone()),
                    Val::Text(c.address.clone()),
                    Val::Text(c.city.clone()),
                    Val::Text(c.state.clone()),
                    Val::Text(c.postal.clone()),
                    Val::Text(label(c.area_type, AreaType::from_i32, AreaType::label)),
                    Val::Text(label(c.payment_type, PaymentType::from_i32, PaymentType::label)),
                    Val::Text(label(c.price_strategy, PriceStrategy::from_i32, PriceStrategy::label)),
                    Val::Cents(c.credit_limit),
                    Val::Cents(c.xero_balance),
                    Val::Text(XeroState::from_i32(c.xero_sent).unwrap_or_default().label().to_string()),
                    Val::Date(Some(domain::dates::DEFAULT_ZONE.from_utc_datetime(&c.created_at).date_naive())),
                ]
            }))
        })
    })
    .await
}
