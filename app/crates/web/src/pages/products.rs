//! The product list (spec §2.4): Item Key search that understands tyre sizes, filters,
//! paging, and the xlsx export of exactly the current search.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::list::{Cell, Column, Filter, FilterKind, Filters, ListView, NewButton, Results, current, options_with_all};
use super::masters::respond;
use crate::auth::Auth;
use db::masters::{self as master_db, Brand};
use db::products::{self, Product, ProductFilter};
use domain::enums::{ProductCategory, ProductSort, XeroState};
use domain::money::Cents;
use domain::tyre_size::COMMON_SIZES;
use db::error::AppResult;
use crate::state::AppState;
use crate::http::download;
use services::exports::{self, brand_name, category_label};

const PATH: &str = "/products";

/// Xero filter options; words, because '0' would be dropped as empty.
pub fn xero_options() -> Vec<(String, String)> {
    options_with_all([("unsent", XeroState::Unsent.label()), ("sent", XeroState::Sent.label()), ("fail", XeroState::Fail.label())])
}

/// Sync state as label and tag class: Sent green, Fail red, other amber (spec §2.6).
pub fn xero_badge(code: i32) -> (&'static str, &'static str) {
    match XeroState::from_i32(code) {
        Some(XeroState::Sent) => ("SENT", "tag-green"),
        Some(XeroState::Fail) => ("Fail", "tag-red"),
        Some(XeroState::Sending) => ("Sending…", "tag-amber"),
        Some(XeroState::Recalling) => ("Recalling…", "tag-amber"),
        _ => ("Unsent", "tag-amber"),
    }
}

/// Sync state as a coloured tag cell of a list.
pub fn xero_tag(code: i32) -> Cell {
    let (label, class) = xero_badge(code);
    Cell::Tag { label: label.into(), class }
}

/// Locations: tag4 split on '/', sorted (spec §2.4 product rows).
pub fn locations(tag4: &str) -> Vec<String> {
    let mut v: Vec<String> = tag4.split('/').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect();
    v.sort();
    v
}

fn category_options() -> Vec<(String, String)> {
    let mut out = vec![];
    for root in ProductCategory::roots() {
        out.push((root.as_i32().to_string(), root.label().to_string()));
        for child in root.children() {
            out.push((child.as_i32().to_string(), format!("— {}", child.label())));
        }
    }
    options_with_all(out)
}

fn filters(pairs: &[(String, String)], brands: &[Brand], tags: &(Vec<String>, Vec<String>)) -> Vec<Filter> {
    let text = |label, name, placeholder, suggestions: Vec<String>| Filter {
        label,
        name,
        kind: FilterKind::Text { value: current(pairs, name), placeholder, suggestions },
    };
    let select = |label, name, options| Filter { label, name, kind: FilterKind::Select { options, selected: current(pairs, name) } };
    let date = |label, name| Filter { label, name, kind: FilterKind::Date { value: current(pairs, name) } };
    vec![
        text("Item Key", "key", "code, helper code, name or size e.g. 205/55R16", COMMON_SIZES.iter().map(|s| s.to_string()).collect()),
        select("Brand", "brand", options_with_all(brands.iter().map(|b| (b.id, b.name.clone())))),
        select("Category", "category", category_options()),
        select("Tag L2", "tag2", options_with_all(tags.0.iter().map(|t| (t.clone(), t.clone())))),
        select("Tag L3", "tag3", options_with_all(tags.1.iter().map(|t| (t.clone(), t.clone())))),
        text("Location", "location", "e.g. A12", vec![]),
        select("Date Type", "date_type", vec![("created".into(), "Create Date".into()), ("modified".into(), "Modify Date".into())]),
        date("From", "from"),
        date("To", "to"),
        select("Sort Type", "sort", ProductSort::ALL.iter().map(|s| (s.as_i32().to_string(), s.label().to_string())).collect()),
        select("Xero Sent", "xero", xero_options()),
    ]
}

/// `GET /products` (and `?format=xlsx`).
pub async fn list(State(state): State<AppState>, auth: Auth, headers: HeaderMap, f: Filters<ProductFilter>) -> AppResult<Response> {
    let (org, zone) = (auth.org_id, auth.zone);
    let f = Filters { value: f.value.in_zone(zone), ..f };
    if f.export {
        return download::xlsx("products.xlsx", exports::products(&state, org, f.value).await?).await;
    }
    let st = state.clone();
    respond(&state, &auth, &headers, "Products", PATH, &[], async move {
        let state = st;
        let req = f.paging.resolve(20);
        let filter = f.value.clone();
        let (page, stock, brands, tags) = state
            .db
            .run(move |c| {
                let page = products::list(c, org, &filter, req.offset(), req.per_page)?;
                let ids: Vec<i64> = page.rows.iter().map(|p| p.id).collect();
                Ok((page, products::stock_totals(c, org, &ids)?, master_db::all_brands(c, org)?, products::tag_values(c, org)?))
            })
            .await?;
        let columns = vec![
            Column::text("Item Code"),
            Column::text("Item Name"),
            Column::text("Brand"),
            Column::text("Category"),
            Column::text("Location"),
            Column::num("Stock"),
            Column::text("Unit"),
            Column::num("Standard"),
            Column::num("Class A"),
            Column::text("Xero"),
            Column::text("Modified"),
            Column::text("Action"),
        ];
        let rows = page
            .rows
            .iter()
            .map(|p: &Product| {
                vec![
                    Cell::Text(p.code.clone()),
                    Cell::Text(p.name.clone()),
                    Cell::Text(brand_name(&brands, p.brand_id)),
                    Cell::Text(category_label(&p.tag1)),
                    Cell::Tags(locations(&p.tag4)),
                    Cell::Num(stock.get(&p.id).copied().unwrap_or(0).to_string()),
                    Cell::Text(p.unit.clone()),
                    Cell::Num(Cents(p.standard_price).grouped()),
                    Cell::Num(Cents(p.class_a_price).grouped()),
                    xero_tag(p.xero_sent),
                    Cell::stamp(p.updated_at, zone),
                    Cell::Link { label: "Edit".into(), href: format!("/baseinfo/products/{}", p.id), new_tab: true },
                ]
            })
            .collect();
        let view = ListView {
            heading: "Products",
            path: PATH,
            new_buttons: vec![NewButton { label: "+ New Product", href: "/baseinfo/products" }],
            filters: Some(filters(&f.pairs, &brands, &tags)),
            results: Results::exported(PATH, &f.pairs, req, page.total, columns, rows),
        };
        Ok(view)
    })
    .await
}

