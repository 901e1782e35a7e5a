//! The customer (CSR) list (spec §2.4) with its filters and the `csr.xlsx` export.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::list::{Cell, Column, Filter, FilterKind, Filters, ListView, NewButton, Results, current, options_with_all};
use super::masters::respond;
use super::products::{xero_options, xero_tag};
use crate::auth::Auth;
use db::customers::{self, CustomerFilter};
use domain::enums::{AreaType, BusinessType, PaymentType, PriceStrategy, code_label};
use domain::money::Cents;
use db::error::AppResult;
use crate::state::AppState;
use crate::http::download;
use services::exports;

const PATH: &str = "/customers";

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

/// `GET /customers` (and `?format=xlsx`).
pub async fn list(State(state): State<AppState>, auth: Auth, headers: HeaderMap, f: Filters<CustomerFilter>) -> AppResult<Response> {
    let org = auth.org_id;
    let f = Filters { value: f.value.in_zone(auth.zone), ..f };
    if f.export {
        return download::xlsx("csr.xlsx", exports::customers(&state, org, f.value).await?).await;
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
                    Cell::Text(c.contact_name()),
                    Cell::Text(c.phone.clone()),
                    Cell::Text(code_label(c.area_type, AreaType::from_i32, AreaType::label)),
                    Cell::Text(code_label(c.payment_type, PaymentType::from_i32, PaymentType::label)),
                    Cell::Text(code_label(c.price_strategy, PriceStrategy::from_i32, PriceStrategy::label)),
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

