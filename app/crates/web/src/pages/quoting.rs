//! Quoting (spec §2.4): the price lookup with its filters, stock dropdowns, every price
//! tier for the chosen customer, the 'CHK' history, add-to-cart and the cart island.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::list::{EMPTY_BEFORE_SEARCH, EMPTY_NO_DATA, Filter, FilterKind, Filters, ListView, Pager, PagerItem, Results, current, options_with_all, wants_fragment};
use super::island::Island;
use super::shell::Shell;
use super::stream;
use crate::auth::Auth;
use db::orders as order_db;
use domain::enums::StockAvailability;
use domain::money::Cents;
use domain::permissions::Sight;
use domain::tyre_size::COMMON_SIZES;
use db::error::AppResult;
use services::quoting::{self, PriceHistory, QuoteFilter, QuoteRow, QuotingScreen};
use crate::state::AppState;
use domain::dates::date as show_date;
use crate::pages::products::locations;

const PATH: &str = "/quotings";

/// A row as the table shows it.
pub struct RowView {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub locations: Vec<String>,
    pub stock: i64,
    pub per_warehouse: Vec<(String, i64, i64, String)>,
    pub in_transit: i64,
    pub latest_eta: String,
    pub third_party: i64,
    pub a: String,
    pub b: String,
    pub special: String,
    pub standard: String,
    pub c: String,
    pub d: String,
    pub e: String,
    pub tempe: String,
    pub cost: String,
}

/// Props of the quoting cart island.
#[derive(serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct QuotingCartProps {
    /// The browser storage key of the cart (`carts`; the self-order cart is `carts_csr`).
    pub storage_key: &'static str,
    /// The new-invoice page check-out opens.
    pub checkout_path: &'static str,
}

/// Props of the standard price dialog: may the user change prices, and the tier uplifts.
#[derive(serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct PriceDialogProps {
    pub can_modify: bool,
    pub uplifts: TierUplifts,
}

/// The B–E tiers' uplifts over A/COD, in basis points.
#[derive(serde::Serialize, ts_rs::TS)]
pub struct TierUplifts {
    pub b: u32,
    pub c: u32,
    pub d: u32,
    pub e: u32,
}

#[derive(Template, WebTemplate)]
#[template(path = "quoting/page.html")]
pub struct QuotingPage {
    pub shell: Shell,
    pub view: ListView,
    pub rows: Vec<RowView>,
    pub show_cost: bool,
    /// The monthly-special column shows only when a row has a special price.
    pub show_special: bool,
    pub oob: bool,
    /// The cart badge and Check out: rendered on the server, code loaded on first use.
    pub cart: Island,
    /// The standard price dialog (nothing shows until a row's Price opens it).
    pub prices: Island,
    pub csr: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "quoting/results.html")]
pub struct QuotingResults {
    pub view: ListView,
    pub rows: Vec<RowView>,
    pub show_cost: bool,
    pub show_special: bool,
    pub oob: bool,
    pub csr: String,
}

fn any_special(rows: &[RowView]) -> bool {
    rows.iter().any(|r| !r.special.is_empty())
}

fn price(c: Option<i64>) -> String {
    c.map(|v| Cents(v).grouped()).unwrap_or_default()
}

fn to_view(r: QuoteRow, warehouses: &[(i64, String)], sight: Sight) -> RowView {
    let p = &r.product;
    let q = r.quote.as_ref();
    let tier = |label: &str| q.and_then(|q| q.prices.iter().find(|x| x.label == label)).map(|x| x.price);
    let wh_name = |id: i64| warehouses.iter().find(|w| w.0 == id).map(|w| w.1.clone()).unwrap_or_default();
    let in_transit = r.per_warehouse.iter().map(|w| w.in_transit).sum();
    let latest_eta = r.per_warehouse.iter().filter(|w| w.in_transit > 0).filter_map(|w| w.eta).max().map(show_date).unwrap_or_default();
    RowView {
        id: p.id,
        code: p.code.clone(),
        name: p.name.clone(),
        locations: locations(&p.tag4),
        stock: r.stock,
        per_warehouse: r.per_warehouse.iter().map(|w| (wh_name(w.warehouse_id), w.on_hand, w.in_transit, w.eta.map(show_date).unwrap_or_default())).collect(),
        in_transit,
        latest_eta,
        third_party: p.stock_3rd_party,
        a: price(tier("A/COD")),
        b: price(tier("B")),
        special: if p.is_special { price(Some(p.special_price)) } else { String::new() },
        standard: price(Some(p.standard_price)),
        c: price(tier("C")),
        d: price(tier("D")),
        e: price(tier("E")),
        tempe: price(sight.cost(p.ref_pur).map(|c| c.0)),
        cost: price(sight.cost(p.cost_price).map(|c| c.0)),
    }
}

/// What the results show, and the tier uplifts the price dialog needs.
struct Lookup {
    view: ListView,
    rows: Vec<RowView>,
    show_cost: bool,
    csr: String,
    uplifts: TierUplifts,
}

/// Runs the search of `f` (nothing before a manual search) and builds the results.
async fn lookup(state: &AppState, auth: &Auth, f: &Filters<QuoteFilter>) -> AppResult<Lookup> {
    let org = auth.org_id;
    let sight = auth.sight();
    let show_cost = sight.sees_cost();
    let searched = f.value.is_search();
    let req = f.paging.resolve(20);
    let filter = f.value.clone();
    let QuotingScreen { page, warehouses, brands, uplifts } = state.db.run(move |c| quoting::screen(c, org, &filter, req.offset(), req.per_page)).await?;
    let pairs = &f.pairs;
    let select = |label, name, options| Filter { label, name, kind: FilterKind::Select { options, selected: current(pairs, name) } };
    let filters = vec![
        Filter {
            label: "To CSR",
            name: "csr_label",
            kind: FilterKind::Picker { url: "/api/customers?per_page=20&name=", target: "csr", label: current(pairs, "csr_label"), id: current(pairs, "csr"), balance: true },
        },
        Filter { label: "Location", name: "location", kind: FilterKind::Text { value: current(pairs, "location"), placeholder: "e.g. A12", suggestions: vec![] } },
        select("Warehouse", "warehouse", options_with_all(warehouses.iter().cloned())),
        Filter {
            label: "Item Key",
            name: "key",
            kind: FilterKind::Text { value: current(pairs, "key"), placeholder: "name, helper code or size e.g. 2055516", suggestions: COMMON_SIZES.iter().map(|s| s.to_string()).collect() },
        },
        select("Brands", "brand", options_with_all(brands.iter().cloned())),
        select("Stock Avl", "stock", options_with_all(StockAvailability::ALL.iter().map(|s| (s.as_i32(), s.label())))),
    ];
    let (rows, total) = match page {
        Some(p) => (p.rows.into_iter().map(|r| to_view(r, &warehouses, sight)).collect(), p.total),
        None => (vec![], 0),
    };
    let view = ListView {
        heading: "Quoting",
        path: PATH,
        new_buttons: vec![],
        filters: Some(filters),
        results: Results {
            columns: vec![],
            rows: vec![],
            pager: searched.then(|| Pager::new(PATH, f.pairs.clone(), req, total)),
            empty_text: if searched { EMPTY_NO_DATA } else { EMPTY_BEFORE_SEARCH },
            export_url: None,
            selection: None,
        },
    };
    let uplifts = TierUplifts { b: uplifts.b, c: uplifts.c, d: uplifts.d, e: uplifts.e };
    Ok(Lookup { view, rows, show_cost, csr: current(&f.pairs, "csr"), uplifts })
}

/// `GET /quotings`: waits for a manual search ('Enter Some Key Words to Search'). The page
/// is streamed (web/stream.rs); an htmx search gets the results alone.
pub async fn page(State(state): State<AppState>, auth: Auth, headers: HeaderMap, f: Filters<QuoteFilter>) -> AppResult<Response> {
    if wants_fragment(&headers) {
        let Lookup { view, rows, show_cost, csr, .. } = lookup(&state, &auth, &f).await?;
        return Ok(QuotingResults { view, show_special: any_special(&rows), rows, show_cost, oob: true, csr }.into_response());
    }
    let (st, au) = (state.clone(), auth.clone());
    // Neither island is needed to read the page: both load their code when idle or on use.
    stream::respond(&state, &auth, &headers, "Quoting", PATH, &[], move |shell| async move {
        let (state, auth) = (st, au);
        let Lookup { view, rows, show_cost, csr, uplifts } = lookup(&state, &auth, &f).await?;
        let cart = Island::new(&state, "quoting-cart", &QuotingCartProps { storage_key: "carts", checkout_path: "/order_add/invoices" })
            .await
            .when_idle()
            .wake("cart-add customer-changed");
        let prices = Island::new(&state, "price-dialog", &PriceDialogProps { can_modify: auth.mod_prc, uplifts }).await.when_idle().wake("open-price-dialog");
        Ok(QuotingPage { shell, view, show_special: any_special(&rows), rows, show_cost, oob: false, cart, prices, csr })
    })
    .await
}

#[derive(Template, WebTemplate)]
#[template(path = "quoting/history.html")]
pub struct HistoryDialog {
    pub code: String,
    pub name: String,
    pub prices: Vec<(&'static str, String)>,
    pub rows: Vec<order_db::PriceHistoryRow>,
    pub customer: bool,
}

impl HistoryDialog {
    fn money(c: &i64) -> String {
        Cents(*c).grouped()
    }
}

#[derive(Deserialize)]
pub struct HistoryQuery {
    csr: Option<String>,
}

/// `GET /quotings/history/{product}?csr=`: the 'CHK' price-history dialog (htmx fragment).
pub async fn history(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, Query(q): Query<HistoryQuery>) -> AppResult<HistoryDialog> {
    let org = auth.org_id;
    let customer: Option<i64> = q.csr.as_deref().and_then(|s| s.trim().parse().ok());
    let PriceHistory { product, quote, rows } = state.db.run(move |c| quoting::price_history(c, org, id, customer)).await?;
    let prices = quote.map(|qt| qt.prices.into_iter().map(|p| (p.label, Cents(p.price).grouped())).collect()).unwrap_or_default();
    Ok(HistoryDialog { code: product.code, name: product.name, prices, rows, customer: customer.is_some() })
}

/// One open purchase order of a product as the stock dropdown lists it (issue 35).
pub struct ComingRow {
    pub no: String,
    pub href: String,
    pub warehouse: String,
    pub qty: i64,
    pub eta: String,
    pub shipment: String,
}

/// One lot of a tyre tracked by DOT as the stock dropdown lists it (issue 36).
pub struct LotRow {
    pub warehouse: String,
    /// 'WWYY', or 'unknown'.
    pub dot: String,
    /// '1y 5m'; empty for an unknown code.
    pub age: String,
    pub qty: i64,
}

/// What is coming of a product: its open purchase orders with what they still bring; and,
/// for a tyre tracked by DOT, its stock by DOT date.
#[derive(Template, WebTemplate)]
#[template(path = "quoting/coming.html")]
pub struct ComingFragment {
    pub rows: Vec<ComingRow>,
    pub lots: Vec<LotRow>,
}

/// `GET /quotings/coming/{id}`: the stock dropdown's 'Coming' rows, loaded when it opens:
/// each open purchase order of the product with what it still brings (ordered less what its
/// bills received), its warehouse, ETA and shipment, soonest first; and a tyre's stock by DOT
/// date per warehouse, oldest first, with its age (issue 36: one statement, which finds lots
/// only for a product tracked by DOT; the price lookup itself reads none). Quantities only.
pub async fn coming(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<ComingFragment> {
    let org = auth.org_id;
    let today = domain::dates::today(auth.zone);
    let (rows, lots) = state
        .db
        .run(move |c| {
            let names: std::collections::HashMap<i64, String> = db::masters::all_warehouses(c, org)?.into_iter().map(|w| (w.id, w.name)).collect();
            let mut rows = Vec::new();
            for po in order_db::coming_of(c, org, id)? {
                let received: Vec<(i64, i64)> = order_db::received_of(c, org, po.id)?.into_iter().filter(|(p, _)| *p == id).collect();
                let ordered: Vec<(i64, i64)> = po.ordered.iter().map(|q| (id, *q)).collect();
                let qty: i64 = domain::stock::outstanding(&ordered, &received).iter().sum();
                if qty > 0 {
                    rows.push(ComingRow {
                        href: format!("/order_detail/purchase_orders/{}", po.id),
                        no: po.no,
                        warehouse: po.warehouse_id.and_then(|w| names.get(&w).cloned()).unwrap_or_default(),
                        qty,
                        eta: po.eta.map(show_date).unwrap_or_default(),
                        shipment: po.shipment_ref,
                    });
                }
            }
            let lots = db::lots::of_products(c, org, &[id])?
                .into_iter()
                .filter(|l| l.on_hand > 0)
                .map(|l| LotRow {
                    warehouse: names.get(&l.warehouse_id).cloned().unwrap_or_default(),
                    dot: domain::dot::label(l.dot),
                    age: domain::dot::Dot::from_stored(l.dot).map(|d| d.age_label(today)).unwrap_or_default(),
                    qty: l.on_hand,
                })
                .collect();
            Ok((rows, lots))
        })
        .await?;
    Ok(ComingFragment { rows, lots })
}
