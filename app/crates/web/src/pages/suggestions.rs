//! Purchase suggestions (issue 35, docs/decisions/purchasing.md "Purchase suggestions"):
//! `GET /purchase_suggestions` (what to buy for a warehouse, grouped by preferred supplier),
//! `POST /purchase_suggestions/levels` (a buyer's reorder point and order-up-to level),
//! `POST /purchase_suggestions/create` (the ticked rows become draft purchase orders, one per
//! supplier, in one transaction) and `GET /purchase_suggestions/created` (what was created).
//! Approvers and buyers only. The screen shows quantities only: no cost, no price.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::NoticeFlag;
use super::posted::Posted;
use super::shell::Shell;
use crate::auth::Auth;
use crate::state::AppState;
use db::error::{AppError, AppResult};
use db::refs::Unchecked;
use domain::Actor;
use domain::reorder as rules;
use services::suggestions::{self as svc, Ask};

const TITLE: &str = "Purchase Suggestions";
const PATH: &str = "/purchase_suggestions";

/// The screen's address: warehouse, supplier, weeks, only below the reorder point.
#[derive(Deserialize, Default, Debug, Clone)]
pub struct SuggestQuery {
    #[serde(default)]
    pub warehouse_id: Option<String>,
    #[serde(default)]
    pub supplier_id: Option<String>,
    #[serde(default)]
    pub weeks: Option<String>,
    /// `1` when ticked; the filter form also sends `shown=1`, so an unticked box reads as off
    /// (a first visit, without `shown`, has it on).
    #[serde(default)]
    pub only_below: Option<String>,
    #[serde(default)]
    pub shown: Option<String>,
    /// `1`: work the figures out now rather than take the last minute's.
    #[serde(default)]
    pub refresh: Option<String>,
    /// The page of rows (150 a page), from 1.
    #[serde(default)]
    pub page: Option<String>,
    #[serde(flatten)]
    pub notice: NoticeFlag,
}

/// A sheet or supplier id that is not one of the company's.
const UNKNOWN_RECORD: &str = "That record does not exist in this company.";

fn bad(message: impl Into<String>) -> AppError {
    AppError::BadRequest(message.into())
}

/// The message of a refused write, as the page shows it (`errors::refusal`).
fn refusal(e: &AppError) -> Option<String> {
    super::errors::refusal(e, Some(UNKNOWN_RECORD))
}

fn check(auth: &Auth) -> AppResult<()> {
    svc::check_buyer(auth.role, auth.is_buyer)
}

fn parse_id(s: &str, field: &'static str, what: &str) -> AppResult<i64> {
    s.trim().parse::<i64>().map_err(|_| AppError::field(field, format!("Choose {what}.")))
}

/// The filters as read: warehouse (of the company, else refused; default the company's
/// default warehouse, else its first), supplier (of the company), weeks, only below.
struct Filters {
    warehouse_id: i64,
    warehouses: Vec<(i64, String)>,
    supplier_id: Option<i64>,
    suppliers: Vec<(i64, String)>,
    weeks: u32,
    only_below: bool,
}

async fn filters(state: &AppState, auth: &Auth, q: &SuggestQuery) -> AppResult<Filters> {
    let org = auth.org_id;
    let (default, all, sups) = state
        .db
        .run(move |c| Ok((db::accounts::default_warehouse(c, org)?, db::masters::all_warehouses(c, org)?, db::reorder::suppliers_of(c, org)?)))
        .await?;
    let warehouses: Vec<(i64, String)> = all.into_iter().map(|w| (w.id, w.name)).collect();
    let suppliers: Vec<(i64, String)> = sups.into_iter().map(|(id, n, _)| (id, n)).collect();
    let blank = |o: &Option<String>| o.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    let warehouse_id = match blank(&q.warehouse_id) {
        Some(s) => {
            let id = parse_id(&s, "warehouse_id", "a warehouse")?;
            if !warehouses.iter().any(|(w, _)| *w == id) {
                return Err(bad("That warehouse is not one of this company's."));
            }
            id
        }
        None => default.or_else(|| warehouses.first().map(|(w, _)| *w)).ok_or_else(|| bad("This company has no warehouse yet: add one under Base Infos › Warehouses."))?,
    };
    let supplier_id = match blank(&q.supplier_id) {
        Some(s) => {
            let id = parse_id(&s, "supplier_id", "a supplier")?;
            if !suppliers.iter().any(|(x, _)| *x == id) {
                return Err(bad("That supplier is not one of this company's."));
            }
            Some(id)
        }
        None => None,
    };
    let weeks = rules::parse_weeks(q.weeks.as_deref()).map_err(|m| AppError::field("weeks", m))?;
    let only_below = if q.shown.is_some() { q.only_below.as_deref().is_some_and(|v| !v.trim().is_empty()) } else { true };
    Ok(Filters { warehouse_id, warehouses, supplier_id, suppliers, weeks, only_below })
}

/// A row as the screen shows it.
pub struct RowView {
    pub product_id: i64,
    pub code: String,
    pub supplier_code: String,
    pub name: String,
    pub on_hand: i64,
    pub in_transit: i64,
    pub eta: String,
    pub on_order: i64,
    pub velocity: String,
    pub reorder_point: i64,
    pub order_up_to: i64,
    pub entered: bool,
    /// The quantity offered in the input ('' when nothing is suggested).
    pub suggested: String,
    pub below: bool,
}

/// Rows under one preferred supplier.
pub struct Group {
    pub heading: String,
    pub rows: Vec<RowView>,
}

/// Everything the screen shows.
pub struct View {
    pub warehouse_id: i64,
    pub warehouse: String,
    pub warehouses: Vec<(i64, String)>,
    pub supplier_id: String,
    pub suppliers: Vec<(i64, String)>,
    pub weeks: u32,
    pub only_below: bool,
    pub groups: Vec<Group>,
    pub count: usize,
    /// This page (from 1), the number of pages, and the addresses of the pages before and
    /// after (empty at the ends).
    pub page: usize,
    pub pages: usize,
    pub prev: String,
    pub next: String,
    /// When the figures were worked out, in the company's zone ('14:02:11').
    pub as_of: String,
    /// The screen's own address (the levels form returns to it).
    pub back: String,
    pub alert: Option<(&'static str, String)>,
}

impl View {
    pub fn sel(&self, current: &str, value: &i64) -> bool {
        current == value.to_string()
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "purchasing/suggestions.html")]
pub struct SuggestPage {
    pub shell: Shell,
    pub v: View,
    pub js: String,
}

const NO_SUPPLIER: &str = "No preferred supplier";

/// Rows a page of the screen shows.
const PER_PAGE: usize = 150;

async fn view(state: &AppState, auth: &Auth, q: &SuggestQuery, alert: Option<(&'static str, String)>) -> AppResult<View> {
    let f = filters(state, auth, q).await?;
    let ask = Ask { warehouse_id: f.warehouse_id, supplier_id: f.supplier_id, weeks: f.weeks, only_below: f.only_below, today: domain::dates::today(auth.zone) };
    let org = auth.org_id;
    let refresh = q.refresh.as_deref() == Some("1");
    let (when, rows) = svc::rows_cached(state, org, &ask, refresh).await?;
    let as_of = domain::dates::local(when, auth.zone).format("%H:%M:%S").to_string();
    let rows: Vec<svc::Row> = rows.as_ref().clone();
    let names: std::collections::HashMap<i64, String> = f.suppliers.iter().cloned().collect();
    // Grouped by supplier name, the products without one last; within a group by code; 150 rows
    // a page, so a company with thousands to order still gets a page that renders at once.
    let count = rows.len();
    let key_of = |r: &svc::Row| match r.supplier_id.and_then(|s| names.get(&s).map(|n| (s, n.clone()))) {
        Some((s, n)) => (false, n, s),
        None => (true, NO_SUPPLIER.to_string(), 0),
    };
    let mut keyed: Vec<((bool, String, i64), svc::Row)> = rows.into_iter().map(|r| (key_of(&r), r)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let pages = count.div_ceil(PER_PAGE).max(1);
    let page = q.page.as_deref().and_then(|p| p.trim().parse::<usize>().ok()).unwrap_or(1).clamp(1, pages);
    let mut by: std::collections::BTreeMap<(bool, String, i64), Vec<RowView>> = std::collections::BTreeMap::new();
    for (key, r) in keyed.into_iter().skip((page - 1) * PER_PAGE).take(PER_PAGE) {
        by.entry(key).or_default().push(RowView {
            product_id: r.product_id,
            code: r.code,
            supplier_code: r.supplier_code,
            name: r.name,
            on_hand: r.on_hand,
            in_transit: r.in_transit,
            eta: if r.in_transit > 0 { r.eta.map(|d| d.format("%d/%m/%Y").to_string()).unwrap_or_default() } else { String::new() },
            on_order: r.on_order,
            velocity: r.velocity,
            reorder_point: r.levels.reorder_point,
            order_up_to: r.levels.order_up_to,
            entered: r.levels.entered,
            suggested: r.suggested.map(|s| s.to_string()).unwrap_or_default(),
            below: r.suggested.is_some(),
        });
    }
    let groups = by.into_iter().map(|((_, heading, _), rows)| Group { heading, rows }).collect();
    let mut pairs: Vec<(&str, String)> = vec![("warehouse_id", f.warehouse_id.to_string()), ("weeks", f.weeks.to_string()), ("shown", "1".into())];
    if let Some(s) = f.supplier_id {
        pairs.push(("supplier_id", s.to_string()));
    }
    if f.only_below {
        pairs.push(("only_below", "1".into()));
    }
    Ok(View {
        warehouse_id: f.warehouse_id,
        warehouse: f.warehouses.iter().find(|(w, _)| *w == f.warehouse_id).map(|(_, n)| n.clone()).unwrap_or_default(),
        warehouses: f.warehouses,
        supplier_id: f.supplier_id.map(|s| s.to_string()).unwrap_or_default(),
        suppliers: f.suppliers,
        weeks: f.weeks,
        only_below: f.only_below,
        groups,
        count,
        page,
        pages,
        prev: if page > 1 { format!("{PATH}?{}&page={}", serde_urlencoded::to_string(&pairs).unwrap_or_default(), page - 1) } else { String::new() },
        next: if page < pages { format!("{PATH}?{}&page={}", serde_urlencoded::to_string(&pairs).unwrap_or_default(), page + 1) } else { String::new() },
        as_of,
        back: format!("{PATH}?{}{}", serde_urlencoded::to_string(&pairs).unwrap_or_default(), if page > 1 { format!("&page={page}") } else { String::new() }),
        alert,
    })
}

async fn page(state: &AppState, auth: &Auth, q: &SuggestQuery, alert: Option<(&'static str, String)>) -> AppResult<SuggestPage> {
    let v = view(state, auth, q, alert).await?;
    let shell = Shell::new(state, auth, TITLE, PATH, &[]).await?;
    Ok(SuggestPage { shell, v, js: state.assets.url("js/suggestions.js") })
}

/// `GET /purchase_suggestions`.
pub async fn screen(State(state): State<AppState>, auth: Auth, Query(q): Query<SuggestQuery>) -> AppResult<Response> {
    check(&auth)?;
    let notice = q.notice.take(&state, &auth).await?;
    let alert = notice.map(|(level, text)| (if level == "error" { "error" } else { "success" }, text));
    match page(&state, &auth, &q, alert).await {
        Ok(p) => Ok(p.into_response()),
        Err(e) if refusal(&e).is_some() => {
            let alert = refusal(&e).map(|m| ("error", m));
            let p = page(&state, &auth, &SuggestQuery::default(), alert).await?;
            Ok((StatusCode::UNPROCESSABLE_ENTITY, p).into_response())
        }
        Err(e) => Err(e),
    }
}

/// The screen again after a refused post (422), with the message, at the address it came from.
async fn refused(state: &AppState, auth: &Auth, back: Option<&str>, e: AppError) -> AppResult<Response> {
    let Some(message) = refusal(&e) else { return Err(e) };
    let q: SuggestQuery = back.and_then(|b| b.split_once('?')).and_then(|(_, qs)| serde_urlencoded::from_str(qs).ok()).unwrap_or_default();
    let p = match page(state, auth, &q, Some(("error", message.clone()))).await {
        Ok(p) => p,
        Err(_) => page(state, auth, &SuggestQuery::default(), Some(("error", message))).await?,
    };
    Ok((StatusCode::UNPROCESSABLE_ENTITY, p).into_response())
}

/// Where a post returns: its `back` when it is this screen's address, else the screen.
fn back_of(p: &Posted) -> String {
    p.one("back").filter(|b| b.starts_with(&format!("{PATH}?")) || *b == PATH).unwrap_or(PATH).to_string()
}

/// `POST /purchase_suggestions/levels`: `product_id`, `warehouse_id`, `reorder_point`,
/// `order_up_to` (both blank: back to the proposed levels), `back`.
pub async fn levels(State(state): State<AppState>, auth: Auth, body: axum::body::Bytes) -> AppResult<Response> {
    check(&auth)?;
    let p = Posted::read(&body)?;
    let back = back_of(&p);
    let r = async {
        let product = parse_id(p.one("product_id").unwrap_or_default(), "product_id", "a product")?;
        let warehouse = parse_id(p.one("warehouse_id").unwrap_or_default(), "warehouse_id", "a warehouse")?;
        let (rp, out) = (p.one("reorder_point").unwrap_or_default().to_string(), p.one("order_up_to").unwrap_or_default().to_string());
        let actor = Actor::from(&auth);
        let cleared = rp.trim().is_empty() && out.trim().is_empty();
        state.db.write(move |c| svc::set_levels(c, &actor, Unchecked::new(product), Unchecked::new(warehouse), &rp, &out)).await?;
        state.suggestions.forget(auth.org_id);
        Ok::<_, AppError>(if cleared { "Levels cleared: the proposed levels apply.".to_string() } else { "Levels saved.".to_string() })
    }
    .await;
    match r {
        Ok(text) => super::redirect_with_notice(&state, &auth, &back, "success", text).await,
        Err(e) => refused(&state, &auth, Some(&back), e).await,
    }
}

/// `POST /purchase_suggestions/create`: `warehouse_id`, `pick` (repeated product ids) and
/// `qty_<product id>` for each; 303 to the list of the created purchase orders.
pub async fn create(State(state): State<AppState>, auth: Auth, body: axum::body::Bytes) -> AppResult<Response> {
    check(&auth)?;
    let p = Posted::read(&body)?;
    let back = back_of(&p);
    let r = async {
        let warehouse = parse_id(p.one("warehouse_id").unwrap_or_default(), "warehouse_id", "a warehouse")?;
        let mut picks = Vec::new();
        for id in p.all("pick") {
            let id = parse_id(id, "pick", "a product")?;
            let qty = p.one(&format!("qty_{id}")).unwrap_or_default().to_string();
            picks.push((id, qty));
        }
        let actor = Actor::from(&auth);
        let today = domain::dates::today(auth.zone);
        state
            .db
            .write(move |c| {
                let picks: Vec<_> = picks.iter().map(|(id, q)| (Unchecked::new(*id), q.clone())).collect();
                svc::create_orders(c, &actor, Unchecked::new(warehouse), &picks, today)
            })
            .await
    }
    .await;
    if r.is_ok() {
        state.suggestions.forget(auth.org_id);
    }
    match r {
        Ok(created) => {
            let ids: Vec<String> = created.iter().map(|c| c.id.to_string()).collect();
            Ok(Redirect::to(&format!("{PATH}/created?ids={}", ids.join(","))).into_response())
        }
        Err(e) => refused(&state, &auth, Some(&back), e).await,
    }
}

/// A created purchase order as the list shows it.
pub struct CreatedView {
    pub href: String,
    pub no: String,
    pub supplier: String,
    pub lines: i64,
    pub qty: i64,
}

#[derive(Template, WebTemplate)]
#[template(path = "purchasing/created.html")]
pub struct CreatedPage {
    pub shell: Shell,
    pub orders: Vec<CreatedView>,
}

#[derive(Deserialize, Default)]
pub struct CreatedQuery {
    #[serde(default)]
    pub ids: String,
}

/// `GET /purchase_suggestions/created?ids=…`: the purchase orders just created (only this
/// company's purchase orders are listed, whatever ids are asked for).
pub async fn created(State(state): State<AppState>, auth: Auth, Query(q): Query<CreatedQuery>) -> AppResult<Response> {
    check(&auth)?;
    let ids: Vec<i64> = q.ids.split(',').filter_map(|s| s.trim().parse().ok()).take(domain::limits::LINES_MAX).collect();
    let org = auth.org_id;
    let rows = state.db.run(move |c| db::reorder::purchase_orders(c, org, &ids)).await?;
    let orders = rows
        .into_iter()
        .map(|r| CreatedView { href: format!("/order_detail/purchase_orders/{}", r.0), no: r.1, supplier: r.2.unwrap_or_default(), lines: r.3, qty: r.4 })
        .collect();
    let shell = Shell::new(&state, &auth, TITLE, PATH, &[]).await?;
    Ok(CreatedPage { shell, orders }.into_response())
}
