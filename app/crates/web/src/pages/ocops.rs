//! OCOP Price list (spec §2.4): products with every price tier, 'Edit Prices' opening the
//! OCOP dialog island, and 'Import Data' (one xlsx). Waits for filters before searching.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::list::{Cell, Column, Filter, FilterKind, Filters, ListView, Pager, PagerItem, Results, current, options_with_all, wants_fragment};
use super::island::Island;
use super::shell::Shell;
use super::stream;
use crate::auth::Auth;
use db::masters as master_db;
use db::ocops;
use db::products::{self, ProductFilter};
use domain::money::Cents;
use db::error::AppResult;
use services::pricing;
use crate::state::AppState;

const PATH: &str = "/ocops";
/// Empty-table text of the OCOP list before a search (spec §2.4).
pub const EMPTY_OCOP: &str = "Enter or Select Filters to Search";

/// Filters of the OCOP list.
#[derive(serde::Deserialize, Debug, Clone, Default)]
pub struct OcopFilter {
    pub key: Option<String>,
    pub brand: Option<i64>,
    /// Only products with an OCOP price (for `csr` when given).
    pub with_ocop: Option<String>,
    pub csr: Option<i64>,
    pub csr_label: Option<String>,
}

impl domain::validate::ListedValues for OcopFilter {
    fn unlisted(&self) -> std::collections::BTreeMap<String, String> {
        let mut e = std::collections::BTreeMap::new();
        domain::validate::listed_word(&mut e, "with_ocop", self.with_ocop.as_deref(), &["yes"]);
        e
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "ocops/page.html")]
pub struct OcopPage {
    pub shell: Shell,
    pub view: ListView,
    pub oob: bool,
    /// The OCOP dialog (nothing shows until a row's OCOP opens it).
    pub editor: Island,
}

#[derive(Template, WebTemplate)]
#[template(path = "partials/results.html")]
pub struct OcopResults {
    pub view: ListView,
    pub oob: bool,
}

fn money(c: i64) -> Cell {
    Cell::Num(Cents(c).grouped())
}

/// The list of the search `f` (nothing before one).
async fn list(state: &AppState, auth: &Auth, f: &Filters<OcopFilter>) -> AppResult<ListView> {
    let org = auth.org_id;
    let sight = auth.sight();
    let v = f.value.clone();
    let searched = v.key.is_some() || v.brand.is_some() || v.with_ocop.is_some() || v.csr.is_some();
    let req = f.paging.resolve(20);
    let (rows, total, brands) = state
        .db
        .run(move |c| {
            let brands: Vec<(i64, String)> = master_db::all_brands(c, org)?.into_iter().map(|b| (b.id, b.name)).collect();
            if !searched {
                return Ok((vec![], 0, brands));
            }
            let pf = ProductFilter { key: v.key.clone(), brand: v.brand, ..Default::default() };
            let mut all = products::all_matching(c, org, &pf)?;
            if v.with_ocop.is_some() || v.csr.is_some() {
                let with: std::collections::HashSet<i64> = ocops::products_with_prices(c, org, v.csr)?.into_iter().collect();
                all.retain(|p| with.contains(&p.id));
            }
            let total = all.len() as i64;
            let page: Vec<_> = all.into_iter().skip(req.offset() as usize).take(req.per_page as usize).collect();
            let ids: Vec<i64> = page.iter().map(|p| p.id).collect();
            let stock = products::stock_totals(c, org, &ids)?;
            let quotes = pricing::quotes(c, org, &ids, None)?;
            let rows: Vec<Vec<Cell>> = page
                .iter()
                .map(|p| {
                    let tier = |label: &str| quotes.get(&p.id).and_then(|q| q.prices.iter().find(|x| x.label == label)).map(|x| x.price).unwrap_or(0);
                    let mut row = vec![
                        Cell::Text(p.code.clone()),
                        Cell::Name(p.name.clone()),
                        Cell::Num(stock.get(&p.id).copied().unwrap_or(0).to_string()),
                        Cell::Num(p.stock_3rd_party.to_string()),
                        money(tier("A/COD")),
                        money(tier("B")),
                        if p.is_special { money(p.special_price) } else { Cell::Text(String::new()) },
                        money(p.standard_price),
                    ];
                    if let (Some(cost), Some(ref_pur)) = (sight.cost(p.cost_price), sight.cost(p.ref_pur)) {
                        row.push(money(cost.0));
                        row.push(money(ref_pur.0));
                    }
                    row.extend([money(tier("C")), money(tier("D")), money(tier("E")), Cell::Button { label: "Edit Prices", action: "open-ocop", id: p.id }]);
                    row
                })
                .collect();
            Ok((rows, total, brands))
        })
        .await?;
    let mut columns = vec![Column::text("Item Code"), Column::text("Item Name"), Column::num("Stock"), Column::num("Sydney Stock"), Column::num("A/COD"), Column::num("B"), Column::num("M.Special"), Column::num("Standard")];
    if sight.sees_cost() {
        columns.extend([Column::num("COST"), Column::num("Tempe")]);
    }
    columns.extend([Column::num("C"), Column::num("D"), Column::num("E"), Column::text("Action")]);
    let pairs = &f.pairs;
    let filters = vec![
        Filter { label: "Item Key", name: "key", kind: FilterKind::Text { value: current(pairs, "key"), placeholder: "code, size or name", suggestions: vec![] } },
        Filter { label: "Brand", name: "brand", kind: FilterKind::Select { options: options_with_all(brands), selected: current(pairs, "brand") } },
        Filter { label: "CSR", name: "csr_label", kind: FilterKind::Picker { url: "/api/customers?per_page=20&name=", target: "csr", label: current(pairs, "csr_label"), id: current(pairs, "csr"), balance: false } },
        Filter { label: "OCOP", name: "with_ocop", kind: FilterKind::Select { options: options_with_all([("yes", "With OCOP prices")]), selected: current(pairs, "with_ocop") } },
    ];
    Ok(ListView {
        heading: "OCOP Price",
        path: PATH,
        new_buttons: vec![],
        filters: Some(filters),
        results: Results { columns, rows, pager: searched.then(|| Pager::new(PATH, f.pairs.clone(), req, total)), empty_text: if searched { "No Data" } else { EMPTY_OCOP }, export_url: None, selection: None },
    })
}

/// `GET /ocops`: the page, streamed (web/stream.rs); an htmx search gets the results alone.
pub async fn page(State(state): State<AppState>, auth: Auth, headers: HeaderMap, f: Filters<OcopFilter>) -> AppResult<Response> {
    if wants_fragment(&headers) {
        return Ok(OcopResults { view: list(&state, &auth, &f).await?, oob: true }.into_response());
    }
    let (st, au) = (state.clone(), auth.clone());
    stream::respond(&state, &auth, &headers, "OCOP Price", PATH, &[], move |shell| async move {
        let (state, auth) = (st, au);
        let view = list(&state, &auth, &f).await?;
        let editor = Island::new(&state, "ocop-editor", &serde_json::Map::new()).await.when_idle().wake("open-ocop");
        Ok(OcopPage { shell, view, oob: false, editor })
    })
    .await
}
