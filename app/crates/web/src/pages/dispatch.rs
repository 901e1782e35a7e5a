//! Dispatch (issue 34, docs/decisions/dispatch.md), the office's side: the board of a day
//! and warehouse (`/dispatch`) with its bulk "Set status" and "Assign", a run's page
//! (`/dispatch/runs/{id}`: stop order, the driver's link, what the driver recorded) and the
//! end of the day (`/dispatch/reconciliation`, `POST /dispatch/close_day`). The work is
//! `services::dispatch`; this module reads the forms, filters the board's rows (one query)
//! and renders.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::Deserialize;

use super::NoticeFlag;
use super::posted::Posted;
use super::shell::Shell;
use crate::auth::Auth;
use crate::state::AppState;
use db::dispatch::{BoardRow, StopRow};
use db::error::{AppError, AppResult};
use domain::Actor;
use domain::dispatch::Outcome;
use domain::enums::{ActualPayType, AreaType, DeliveryStatus, OrderType, ShipType};
use domain::money::Cents;
use services::dispatch::{self as svc, LinkState};

const TITLE: &str = "Dispatch";
const PATH: &str = "/dispatch";
/// How often the open board asks for its table again (a driver's record shows within this).
pub const POLL_SECONDS: u32 = 15;

/// The ship-type groups of the board's filter: (value, label, ship type codes).
pub const SHIP_GROUPS: &[(&str, &str, &[i32])] = &[
    ("deliveries", "Deliveries", &[1, 3, 6, 7, 8]),
    ("pickups", "Pick-ups", &[2]),
    ("driver_pickups", "Driver pick-ups", &[4]),
    ("returns", "Returns", &[5]),
];

// ---------------------------------------------------------------------------------------
// Reading the address and forms

/// The board's address: warehouse, day and filters (all optional).
#[derive(Deserialize, Default, Debug, Clone)]
pub struct BoardQuery {
    #[serde(default)]
    pub warehouse_id: Option<String>,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub group: Option<String>,
    #[serde(default)]
    pub area: Option<String>,
    #[serde(default)]
    pub driver: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    /// `table`: only the table (the board's polling).
    #[serde(default)]
    pub part: Option<String>,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(flatten)]
    pub notice: NoticeFlag,
}

fn bad(message: impl Into<String>) -> AppError {
    AppError::BadRequest(message.into())
}

fn parse_day(s: Option<&str>, auth: &Auth) -> AppResult<NaiveDate> {
    match s.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(domain::dates::today(auth.zone)),
        Some(s) => NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .or_else(|_| NaiveDate::parse_from_str(s, "%d/%m/%Y"))
            .map_err(|_| AppError::field("date", format!("'{s}' is not a date: use a day such as 2026-12-03."))),
    }
}

fn parse_id(s: &str, field: &'static str, what: &str) -> AppResult<i64> {
    s.trim().parse::<i64>().map_err(|_| AppError::field(field, format!("Choose {what}.")))
}

/// The warehouse the board shows: the one asked for (of the company, else refused), the
/// company's default, or its first.
async fn warehouse_of(state: &AppState, auth: &Auth, asked: Option<&str>) -> AppResult<(i64, Vec<(i64, String)>)> {
    let org = auth.org_id;
    let (default, all) = state.db.run(move |c| Ok((db::accounts::default_warehouse(c, org)?, db::masters::all_warehouses(c, org)?))).await?;
    let all: Vec<(i64, String)> = all.into_iter().map(|w| (w.id, w.name)).collect();
    let id = match asked.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => {
            let id = parse_id(s, "warehouse_id", "a warehouse")?;
            if !all.iter().any(|(w, _)| *w == id) {
                return Err(bad("That warehouse is not one of this company's."));
            }
            id
        }
        None => match default.or_else(|| all.first().map(|(w, _)| *w)) {
            Some(id) => id,
            None => return Err(bad("This company has no warehouse yet: add one under Base Infos › Warehouses.")),
        },
    };
    Ok((id, all))
}

/// The message of a refused write, as the page shows it (`errors::refusal`).
fn refusal(e: &AppError) -> Option<String> {
    super::errors::refusal(e, Some(svc::UNKNOWN_SHEET))
}

fn board_href(warehouse: i64, day: NaiveDate) -> String {
    format!("/dispatch?warehouse_id={warehouse}&date={day}")
}

// ---------------------------------------------------------------------------------------
// The board

/// A sheet row of the board.
pub struct Row {
    pub id: i64,
    pub no: String,
    pub href: String,
    pub customer: String,
    pub ship: &'static str,
    pub area: &'static str,
    pub driver: String,
    pub run: Option<(i64, String)>,
    pub status: &'static str,
    /// The outcome the driver recorded on the open run, if any ('Delivered', 'Not delivered').
    pub outcome: String,
    pub qty: i64,
    pub amount: String,
    pub collect: String,
    /// An earlier day's sheet still under way.
    pub carried: bool,
}

/// Rows under one heading: an area type and a driver.
pub struct Group {
    pub heading: String,
    pub rows: Vec<Row>,
}

/// A run of the day as the board lists it.
pub struct RunLine {
    pub id: i64,
    pub name: String,
    pub driver: String,
    pub stops: i64,
    pub done: i64,
    pub not_done: i64,
    pub closed: bool,
}

/// Everything the board shows.
pub struct BoardView {
    pub warehouse_id: i64,
    pub warehouse: String,
    pub date: String,
    /// The day as staff read it, dd/mm/yyyy.
    pub date_text: String,
    pub warehouses: Vec<(i64, String)>,
    pub group: String,
    pub area: String,
    pub driver: String,
    pub status: String,
    pub groups: Vec<Group>,
    pub count: usize,
    pub total: usize,
    pub runs: Vec<RunLine>,
    /// Drivers of the company (role 6): (id, name).
    pub drivers: Vec<(i64, String)>,
    /// The run name typed into Assign (kept after a refusal).
    pub run_name: String,
    pub chosen_driver: String,
    pub chosen_status: String,
    /// Ids ticked before a refusal, ticked again.
    pub checked: Vec<i64>,
    /// (level, text): a notice after a write, or a refusal.
    pub alert: Option<(&'static str, String)>,
    /// The address the table polls.
    pub poll_url: String,
    pub poll_seconds: u32,
}

impl BoardView {
    pub fn is_checked(&self, id: &i64) -> bool {
        self.checked.contains(id)
    }
    pub fn ship_groups(&self) -> &'static [(&'static str, &'static str, &'static [i32])] {
        SHIP_GROUPS
    }
    pub fn areas(&self) -> Vec<(i32, &'static str)> {
        AreaType::ALL.iter().map(|a| (a.as_i32(), a.label())).collect()
    }
    pub fn statuses(&self) -> Vec<(i32, &'static str)> {
        DeliveryStatus::ALL.iter().map(|s| (s.as_i32(), s.label())).collect()
    }
    pub fn sel(&self, current: &str, value: impl std::fmt::Display) -> bool {
        current == value.to_string()
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "dispatch/board.html")]
pub struct BoardPage {
    pub shell: Shell,
    pub v: BoardView,
    pub dispatch_js: String,
    pub dispatch_css: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "dispatch/table.html")]
pub struct BoardTable {
    pub v: BoardView,
}

fn money(cents: i64) -> String {
    format!("${}", Cents(cents))
}

/// What the stop's driver collects at a board row: "$1,234.00 Cash", or "" for nothing.
pub fn collect_text(r: &BoardRow) -> String {
    let Some(t) = OrderType::from_i32(r.order_type) else { return String::new() };
    match domain::dispatch::to_collect(t, r.payment_type, r.actual_pay_type, Cents(r.total_amount)) {
        Some((how, due)) => format!("{} {}", money(due.0), how.label()),
        None => String::new(),
    }
}

fn keeps(r: &BoardRow, q: &BoardQuery) -> bool {
    let f = |o: &Option<String>| o.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    let group_ok = f(&q.group).and_then(|g| SHIP_GROUPS.iter().find(|(v, _, _)| *v == g)).is_none_or(|(_, _, codes)| codes.contains(&r.ship_type));
    let area_ok = f(&q.area).is_none_or(|a| r.area_type == if a == "none" { None } else { a.parse::<i32>().ok() });
    let driver_ok = f(&q.driver).is_none_or(|d| r.driver_id == if d == "none" { None } else { d.parse::<i64>().ok() });
    let status_ok = f(&q.status).is_none_or(|s| s.parse::<i32>().ok() == Some(r.delivery_status));
    group_ok && area_ok && driver_ok && status_ok
}

fn row_of(r: &BoardRow, day: NaiveDate) -> Row {
    let ship = ShipType::from_i32(r.ship_type).unwrap_or(ShipType::Delivery);
    let route = OrderType::from_i32(r.order_type).unwrap_or(OrderType::Invoice).route_name();
    let outcome = match (r.outcome.and_then(Outcome::from_i32), r.run_closed_at) {
        (Some(o), None) if o != Outcome::Open => o.wording(ship).to_string(),
        _ => String::new(),
    };
    Row {
        id: r.order_id,
        no: r.no.clone(),
        href: format!("/order_detail/{route}/{}", r.order_id),
        customer: r.customer.clone().unwrap_or_default(),
        ship: ship.label(),
        area: r.area_type.and_then(AreaType::from_i32).map_or("", AreaType::label),
        driver: r.driver.clone().filter(|d| !d.is_empty()).unwrap_or_else(|| domain::enums::DRIVER_NOT_ASSIGNED.to_string()),
        run: r.run_id.zip(r.run_name.clone()),
        status: DeliveryStatus::from_i32(r.delivery_status).map_or("", |s| s.wording(ship)),
        outcome,
        qty: r.total_qty,
        amount: money(r.total_amount),
        collect: collect_text(r),
        carried: r.day() != day,
    }
}

/// The rows grouped by area type, then driver (the query's order), under one heading each.
fn grouped(rows: &[BoardRow], q: &BoardQuery, day: NaiveDate) -> (Vec<Group>, usize) {
    let mut groups: Vec<Group> = Vec::new();
    let mut count = 0;
    for r in rows.iter().filter(|r| keeps(r, q)) {
        let row = row_of(r, day);
        let heading = format!("{} · {}", if row.area.is_empty() { "No area" } else { row.area }, row.driver);
        count += 1;
        match groups.last_mut() {
            Some(g) if g.heading == heading => g.rows.push(row),
            _ => groups.push(Group { heading, rows: vec![row] }),
        }
    }
    (groups, count)
}

fn query_string(warehouse: i64, day: NaiveDate, q: &BoardQuery) -> String {
    let mut pairs: Vec<(&str, String)> = vec![("warehouse_id", warehouse.to_string()), ("date", day.to_string())];
    for (k, v) in [("group", &q.group), ("area", &q.area), ("driver", &q.driver), ("status", &q.status)] {
        if let Some(v) = v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            pairs.push((k, v.to_string()));
        }
    }
    serde_urlencoded::to_string(&pairs).unwrap_or_default()
}

/// What a refused post left on the board: the message and what was typed and ticked.
#[derive(Default)]
struct Kept {
    alert: Option<(&'static str, String)>,
    checked: Vec<i64>,
    run_name: String,
    driver: String,
    status: String,
}

async fn board_view(state: &AppState, auth: &Auth, q: &BoardQuery, kept: Kept) -> AppResult<BoardView> {
    let (warehouse, warehouses) = warehouse_of(state, auth, q.warehouse_id.as_deref()).await?;
    let day = parse_day(q.date.as_deref(), auth)?;
    let actor = Actor::from(auth);
    let board = svc::board(state, &actor, warehouse, day).await?;
    let org = auth.org_id;
    let drivers = state
        .db
        .run(move |c| db::masters::all_employees(c, org))
        .await?
        .into_iter()
        .filter(|e| e.role == domain::enums::Role::Driver.as_i32() && e.is_active)
        .map(|e| (e.id, e.name))
        .collect();
    let (groups, count) = grouped(&board.rows, q, day);
    let s = |o: &Option<String>| o.clone().unwrap_or_default();
    Ok(BoardView {
        warehouse_id: warehouse,
        warehouse: warehouses.iter().find(|(w, _)| *w == warehouse).map(|(_, n)| n.clone()).unwrap_or_default(),
        date: day.to_string(),
        date_text: day.format("%d/%m/%Y").to_string(),
        warehouses,
        group: s(&q.group),
        area: s(&q.area),
        driver: s(&q.driver),
        status: s(&q.status),
        groups,
        count,
        total: board.rows.len(),
        runs: board
            .runs
            .into_iter()
            .map(|r| RunLine { id: r.run.id, closed: r.run.closed_at.is_some(), name: r.run.name, driver: r.driver, stops: r.stops, done: r.done, not_done: r.not_done })
            .collect(),
        drivers,
        run_name: kept.run_name,
        chosen_driver: kept.driver,
        chosen_status: kept.status,
        checked: kept.checked,
        alert: kept.alert,
        poll_url: format!("/dispatch?{}&part=table", query_string(warehouse, day, q)),
        poll_seconds: POLL_SECONDS,
    })
}

async fn board_page(state: &AppState, auth: &Auth, q: &BoardQuery, kept: Kept) -> AppResult<BoardPage> {
    let v = board_view(state, auth, q, kept).await?;
    let shell = Shell::new(state, auth, TITLE, PATH, &[]).await?;
    Ok(BoardPage { shell, v, dispatch_js: state.assets.url("js/dispatch.js"), dispatch_css: state.assets.url("css/dispatch.css") })
}

/// `GET /dispatch`: the board (`part=table`: only its table, for the polling).
pub async fn board(State(state): State<AppState>, auth: Auth, Query(q): Query<BoardQuery>) -> AppResult<Response> {
    let notice = q.notice.take(&state, &auth).await?;
    let kept = Kept { alert: notice.map(|(level, text)| (if level == "error" { "error" } else { "success" }, text)), ..Kept::default() };
    if q.part.as_deref() == Some("table") {
        return Ok(BoardTable { v: board_view(&state, &auth, &q, kept).await? }.into_response());
    }
    match board_page(&state, &auth, &q, kept).await {
        Ok(page) => Ok(page.into_response()),
        // A warehouse or date the board cannot show: say so on the board of the defaults.
        Err(e) if refusal(&e).is_some() && (q.warehouse_id.is_some() || q.date.is_some()) => {
            let alert = Some(("error", refusal(&e).unwrap_or_default()));
            let page = board_page(&state, &auth, &BoardQuery::default(), Kept { alert, ..Kept::default() }).await?;
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e),
    }
}

/// After a bulk post: 303 to the board with the notice, or the board again (422) with the
/// refusal, the boxes still ticked and what was typed.
async fn bulk_answer(state: &AppState, auth: &Auth, p: &Posted, r: AppResult<String>) -> AppResult<Response> {
    let q = BoardQuery { warehouse_id: p.one("warehouse_id").map(str::to_string), date: p.one("date").map(str::to_string), ..BoardQuery::default() };
    match r {
        Ok(text) => {
            let (warehouse, _) = warehouse_of(state, auth, q.warehouse_id.as_deref()).await?;
            let day = parse_day(q.date.as_deref(), auth)?;
            super::redirect_with_notice(state, auth, &board_href(warehouse, day), "success", text).await
        }
        Err(e) => {
            let Some(message) = refusal(&e) else { return Err(e) };
            let kept = Kept {
                alert: Some(("error", message)),
                checked: p.ids("order_id", svc::UNKNOWN_SHEET).unwrap_or_default(),
                run_name: p.one("run_name").unwrap_or_default().to_string(),
                driver: p.one("driver_id").unwrap_or_default().to_string(),
                status: p.one("delivery_status").unwrap_or_default().to_string(),
            };
            let page = match board_page(state, auth, &q, kept).await {
                Ok(page) => page,
                Err(e2) if refusal(&e2).is_some() => {
                    board_page(state, auth, &BoardQuery::default(), Kept { alert: refusal(&e2).map(|m| ("error", m)), ..Kept::default() }).await?
                }
                Err(e2) => return Err(e2),
            };
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
    }
}

fn sheets(n: usize) -> String {
    if n == 1 { "1 sheet".into() } else { format!("{n} sheets") }
}

/// `POST /dispatch/status`: `warehouse_id`, `date`, `order_id` (repeated), `delivery_status`.
pub async fn set_status(State(state): State<AppState>, auth: Auth, body: axum::body::Bytes) -> AppResult<Response> {
    let p = Posted::read(&body)?;
    let r = async {
        let (warehouse, _) = warehouse_of(&state, &auth, p.one("warehouse_id")).await?;
        let ids = p.ids("order_id", svc::UNKNOWN_SHEET)?;
        let status = p.one("delivery_status").map(str::trim).filter(|s| !s.is_empty()).map(|s| s.parse::<i32>().map_err(|_| AppError::field("delivery_status", "Choose a delivery status."))).transpose()?;
        let n = svc::set_status(&state, &Actor::from(&auth), warehouse, ids, status).await?;
        let label = status.and_then(DeliveryStatus::from_i32).map_or("", DeliveryStatus::label);
        Ok(format!("Delivery status set to {label} on {}.", sheets(n)))
    }
    .await;
    bulk_answer(&state, &auth, &p, r).await
}

/// `POST /dispatch/assign`: `warehouse_id`, `date`, `order_id` (repeated), `driver_id`, `run_name`.
pub async fn assign(State(state): State<AppState>, auth: Auth, body: axum::body::Bytes) -> AppResult<Response> {
    let p = Posted::read(&body)?;
    let r = async {
        let (warehouse, _) = warehouse_of(&state, &auth, p.one("warehouse_id")).await?;
        let day = parse_day(p.one("date"), &auth)?;
        let orders = p.ids("order_id", svc::UNKNOWN_SHEET)?;
        let n = orders.len();
        let driver = p.one("driver_id").map(str::trim).filter(|s| !s.is_empty()).map(|s| parse_id(s, "driver_id", "a driver")).transpose()?;
        let run_name = p.one("run_name").unwrap_or_default().to_string();
        let actor = Actor::from(&auth);
        let id = svc::assign(&state, &actor, svc::Assign { day, warehouse, orders, driver, run_name }).await?;
        let run = svc::run(&state, &actor, id).await?;
        Ok(format!("{} assigned to {} on the run {} ({} stops).", sheets(n), run.driver, run.run.name, run.stops.len()))
    }
    .await;
    bulk_answer(&state, &auth, &p, r).await
}

// ---------------------------------------------------------------------------------------
// A run

/// A stop as the run page shows it.
pub struct StopLine {
    pub id: i64,
    pub position: i32,
    pub no: String,
    pub href: String,
    pub customer: String,
    pub address: String,
    pub area: &'static str,
    pub ship: &'static str,
    pub status: &'static str,
    pub qty: i64,
    pub collect: String,
    /// '', 'Delivered', 'Not delivered'…
    pub outcome: String,
    pub done: bool,
    pub reason: String,
    pub received_by: String,
    pub collected: String,
    pub recorded_at: String,
    pub has_proof: bool,
    pub open: bool,
}

fn stop_line(s: &StopRow, zone: chrono_tz::Tz) -> StopLine {
    let ship = ShipType::from_i32(s.ship_type).unwrap_or(ShipType::Delivery);
    let route = OrderType::from_i32(s.order_type).unwrap_or(OrderType::Invoice).route_name();
    let outcome = Outcome::from_i32(s.outcome).unwrap_or(Outcome::Open);
    StopLine {
        id: s.stop_id,
        position: s.position,
        no: s.no.clone(),
        href: format!("/order_detail/{route}/{}", s.order_id),
        customer: s.customer.clone().unwrap_or_default(),
        address: s.address.clone(),
        area: s.area_type.and_then(AreaType::from_i32).map_or("", AreaType::label),
        ship: ship.label(),
        status: DeliveryStatus::from_i32(s.delivery_status).map_or("", |d| d.wording(ship)),
        qty: s.total_qty,
        collect: svc::to_collect(s).map(|(how, due)| format!("{} {}", money(due.0), how.label())).unwrap_or_default(),
        outcome: if outcome == Outcome::Open { String::new() } else { outcome.wording(ship).to_string() },
        done: outcome == Outcome::Done,
        reason: s.reason.clone(),
        received_by: s.received_by.clone(),
        collected: if s.collected > 0 {
            format!("{} {}", money(s.collected), ActualPayType::from_i32(s.collected_pay_type).map_or("", ActualPayType::label))
        } else {
            String::new()
        },
        recorded_at: s.recorded_at.map(|t| domain::dates::date_time(t, zone)).unwrap_or_default(),
        has_proof: s.has_proof,
        open: outcome == Outcome::Open,
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "dispatch/run.html")]
pub struct RunPage {
    pub shell: Shell,
    pub id: i64,
    pub name: String,
    pub driver: String,
    pub date: String,
    pub board_href: String,
    pub closed: bool,
    /// 'none', 'live', 'expired', 'closed'.
    pub link_state: &'static str,
    pub link_text: String,
    pub link_url: String,
    pub stops: Vec<StopLine>,
    pub total_to_collect: String,
    pub alert: Option<(&'static str, String)>,
    pub dispatch_css: String,
}

async fn run_page(state: &AppState, auth: &Auth, headers: &HeaderMap, id: i64, alert: Option<(&'static str, String)>) -> AppResult<RunPage> {
    let view = svc::run(state, &Actor::from(auth), id).await?;
    let zone = auth.zone;
    let (link_state, link_text) = match svc::link_state(&view.run, db::now()) {
        LinkState::None => ("none", "No link: make one for the driver (the run sheet makes one when printed).".to_string()),
        LinkState::Live => ("live", format!("Live until {}", view.run.link_expires_at.map(|t| domain::dates::date_time(t, zone)).unwrap_or_default())),
        LinkState::Expired => ("expired", format!("Expired at {}", view.run.link_expires_at.map(|t| domain::dates::date_time(t, zone)).unwrap_or_default())),
        LinkState::Closed => ("closed", "The run is closed: its link no longer works.".to_string()),
    };
    let link_url = if link_state == "live" { crate::http::public_url(headers, &format!("/r/{}", view.run.link_token)) } else { String::new() };
    let total = view.total_to_collect().map_or_else(|| "—".to_string(), |c| money(c.0));
    let shell = Shell::new(state, auth, &format!("Run {}", view.run.name), PATH, &[]).await?;
    Ok(RunPage {
        shell,
        id: view.run.id,
        name: view.run.name.clone(),
        driver: view.driver.clone(),
        date: view.run.run_date.format("%d/%m/%Y").to_string(),
        board_href: board_href(view.run.warehouse_id, view.run.run_date),
        closed: view.run.closed_at.is_some(),
        link_state,
        link_text,
        link_url,
        stops: view.stops.iter().map(|s| stop_line(s, zone)).collect(),
        total_to_collect: total,
        alert,
        dispatch_css: state.assets.url("css/dispatch.css"),
    })
}

/// `GET /dispatch/runs/{id}`: the run's stops, its link and what the driver recorded.
pub async fn run(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<i64>, Query(n): Query<NoticeFlag>) -> AppResult<Response> {
    let alert = n.take(&state, &auth).await?.map(|(level, text)| (if level == "error" { "error" } else { "success" }, text));
    Ok(run_page(&state, &auth, &headers, id, alert).await?.into_response())
}

async fn run_answer(state: &AppState, auth: &Auth, headers: &HeaderMap, id: i64, r: AppResult<String>) -> AppResult<Response> {
    match r {
        Ok(text) => super::redirect_with_notice(state, auth, &format!("/dispatch/runs/{id}"), "success", text).await,
        Err(AppError::NotFound) => Err(AppError::NotFound),
        Err(e) => {
            let Some(m) = refusal(&e) else { return Err(e) };
            Ok((StatusCode::UNPROCESSABLE_ENTITY, run_page(state, auth, headers, id, Some(("error", m))).await?).into_response())
        }
    }
}

/// `POST /dispatch/runs/{id}/stops/{stop_id}/{up|down|remove}`.
pub async fn stop_action(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path((id, stop, action)): Path<(i64, i64, String)>) -> AppResult<Response> {
    let actor = Actor::from(&auth);
    let r = match action.as_str() {
        "up" | "down" => svc::move_stop(&state, &actor, id, stop, action == "up").await.map(|()| "The stops are in their new order.".to_string()),
        "remove" => svc::remove_stop(&state, &actor, id, stop).await.map(|()| "The stop is taken off the run.".to_string()),
        _ => return Err(AppError::NotFound),
    };
    run_answer(&state, &auth, &headers, id, r).await
}

/// `POST /dispatch/runs/{id}/link`: a new link (the old one stops working).
pub async fn new_link(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<i64>) -> AppResult<Response> {
    let r = svc::issue_link(&state, &Actor::from(&auth), id).await.map(|_| "A new link is made: the old one no longer works.".to_string());
    run_answer(&state, &auth, &headers, id, r).await
}

/// `POST /dispatch/runs/{id}/link/revoke`.
pub async fn revoke_link(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(id): Path<i64>) -> AppResult<Response> {
    let actor = Actor::from(&auth);
    let r = async {
        svc::run(&state, &actor, id).await?;
        svc::revoke_link(&state, &actor, id).await?;
        Ok("The link is revoked: it no longer opens the run.".to_string())
    }
    .await;
    run_answer(&state, &auth, &headers, id, r).await
}

// ---------------------------------------------------------------------------------------
// The end of the day

pub struct ReconRow {
    pub driver: String,
    pub pay_type: &'static str,
    pub expected: String,
    pub collected: String,
    pub difference: String,
    pub short: bool,
}

pub struct UndeliveredRow {
    pub driver: String,
    pub no: String,
    pub href: String,
    pub customer: String,
    pub area: &'static str,
    pub state: &'static str,
    pub reason: String,
}

pub struct RunCountRow {
    pub id: i64,
    pub name: String,
    pub driver: String,
    pub stops: i64,
    pub done: i64,
    pub not_done: i64,
    pub open: i64,
    pub closed: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "dispatch/reconciliation.html")]
pub struct ReconPage {
    pub shell: Shell,
    pub warehouse_id: i64,
    pub warehouse: String,
    pub date: String,
    pub date_text: String,
    pub board_href: String,
    pub xlsx_href: String,
    pub lines: Vec<ReconRow>,
    pub total: ReconRow,
    pub undelivered: Vec<UndeliveredRow>,
    pub runs: Vec<RunCountRow>,
    /// Every run of the day is closed (false without runs).
    pub closed: bool,
    pub alert: Option<(&'static str, String)>,
    pub dispatch_js: String,
    pub dispatch_css: String,
}

fn counts(r: &svc::RunView) -> (i64, i64, i64) {
    let n = |o: Outcome| r.stops.iter().filter(|s| s.outcome == o.as_i32()).count() as i64;
    (r.stops.len() as i64, n(Outcome::Done), n(Outcome::NotDone))
}

/// `GET /dispatch/reconciliation?warehouse_id=W&date=D[&format=xlsx]`.
pub async fn reconciliation(State(state): State<AppState>, auth: Auth, Query(q): Query<BoardQuery>) -> AppResult<Response> {
    let alert = q.notice.take(&state, &auth).await?.map(|(level, text)| (if level == "error" { "error" } else { "success" }, text));
    let (warehouse, warehouses) = warehouse_of(&state, &auth, q.warehouse_id.as_deref()).await?;
    let day = parse_day(q.date.as_deref(), &auth)?;
    let rec = svc::reconciliation(&state, &Actor::from(&auth), warehouse, day).await?;
    let wname = warehouses.iter().find(|(w, _)| *w == warehouse).map(|(_, n)| n.clone()).unwrap_or_default();
    if q.format.as_deref() == Some("xlsx") {
        let book = xlsx::dispatch::Recon {
            title: format!("{wname} · {}", day.format("%d/%m/%Y")),
            lines: &rec.lines,
            undelivered: rec.undelivered.iter().map(|(d, s)| (d.as_str(), s)).collect(),
            runs: rec
                .runs
                .iter()
                .map(|r| {
                    let (stops, done, not_done) = counts(r);
                    xlsx::dispatch::RunCount { run: r.run.name.clone(), driver: r.driver.clone(), stops, done, not_done }
                })
                .collect(),
        };
        let bytes = xlsx::dispatch::reconciliation(&book)?;
        return Ok(crate::http::download::attachment(&format!("reconciliation-{day}.xlsx"), bytes));
    }
    let (mut expected, mut collected) = (Cents::ZERO, Cents::ZERO);
    let lines = rec
        .lines
        .iter()
        .map(|l| {
            expected = expected.checked_add(l.expected).unwrap_or(expected);
            collected = collected.checked_add(l.collected).unwrap_or(collected);
            let diff = l.difference().unwrap_or(Cents::ZERO);
            ReconRow { driver: l.driver.clone(), pay_type: l.pay_type.label(), expected: money(l.expected.0), collected: money(l.collected.0), difference: money(diff.0), short: diff < Cents::ZERO }
        })
        .collect();
    let diff = collected.checked_sub(expected).unwrap_or(Cents::ZERO);
    let total = ReconRow { driver: "Total".into(), pay_type: "", expected: money(expected.0), collected: money(collected.0), difference: money(diff.0), short: diff < Cents::ZERO };
    let undelivered = rec
        .undelivered
        .iter()
        .map(|(driver, s)| {
            let route = OrderType::from_i32(s.order_type).unwrap_or(OrderType::Invoice).route_name();
            UndeliveredRow {
                driver: driver.clone(),
                no: s.no.clone(),
                href: format!("/order_detail/{route}/{}", s.order_id),
                customer: s.customer.clone().unwrap_or_default(),
                area: s.area_type.and_then(AreaType::from_i32).map_or("", AreaType::label),
                state: if s.outcome == Outcome::NotDone.as_i32() { "Not done" } else { "Not recorded" },
                reason: s.reason.clone(),
            }
        })
        .collect();
    let runs = rec
        .runs
        .iter()
        .map(|r| {
            let (stops, done, not_done) = counts(r);
            RunCountRow { id: r.run.id, name: r.run.name.clone(), driver: r.driver.clone(), stops, done, not_done, open: stops - done - not_done, closed: r.run.closed_at.is_some() }
        })
        .collect();
    let shell = Shell::new(&state, &auth, "Reconciliation", PATH, &[]).await?;
    Ok(ReconPage {
        shell,
        warehouse_id: warehouse,
        warehouse: wname,
        date: day.to_string(),
        date_text: day.format("%d/%m/%Y").to_string(),
        board_href: board_href(warehouse, day),
        xlsx_href: format!("/dispatch/reconciliation?warehouse_id={warehouse}&date={day}&format=xlsx"),
        lines,
        total,
        undelivered,
        runs,
        closed: rec.closed && !rec.runs.is_empty(),
        alert,
        dispatch_js: state.assets.url("js/dispatch.js"),
        dispatch_css: state.assets.url("css/dispatch.css"),
    }
    .into_response())
}

/// `POST /dispatch/close_day`: `warehouse_id`, `date`.
pub async fn close_day(State(state): State<AppState>, auth: Auth, body: axum::body::Bytes) -> AppResult<Response> {
    let p = Posted::read(&body)?;
    let (warehouse, _) = warehouse_of(&state, &auth, p.one("warehouse_id")).await?;
    let day = parse_day(p.one("date"), &auth)?;
    let n = svc::close_day(&state, &Actor::from(&auth), warehouse, day).await?;
    let text = format!("The day is closed: {} went back to Preparing.", sheets(n));
    super::redirect_with_notice(&state, &auth, &format!("/dispatch/reconciliation?warehouse_id={warehouse}&date={day}"), "success", text).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, ship_type: i32, area: Option<i32>, driver: Option<(i64, &str)>, payment: Option<i32>) -> BoardRow {
        BoardRow {
            order_id: id,
            no: format!("INV-{id:06}"),
            order_type: 1,
            order_date: NaiveDate::from_ymd_opt(2026, 12, 3).unwrap(),
            delivery_date: None,
            customer_id: Some(1),
            customer: Some("Acme Tyres".into()),
            area_type: area,
            ship_type,
            delivery_status: 1,
            driver_id: driver.map(|d| d.0),
            driver: driver.map(|d| d.1.to_string()),
            payment_type: payment,
            actual_pay_type: 0,
            total_qty: 4,
            total_amount: 123_400,
            delivery_comment: String::new(),
            stop_id: None,
            run_id: None,
            run_name: None,
            position: None,
            outcome: None,
            run_closed_at: None,
        }
    }

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, 3).unwrap()
    }

    #[test]
    fn filters_keep_the_ship_type_group_area_driver_and_status_asked_for() {
        let rows = vec![row(1, 1, Some(1), None, None), row(2, 2, Some(1), None, None), row(3, 4, Some(2), Some((7, "Dan Driver")), None), row(4, 5, None, None, None)];
        let ids = |q: BoardQuery| grouped(&rows, &q, day()).0.into_iter().flat_map(|g| g.rows).map(|r| r.id).collect::<Vec<_>>();
        assert_eq!(ids(BoardQuery::default()), vec![1, 2, 3, 4]);
        assert_eq!(ids(BoardQuery { group: Some("deliveries".into()), ..Default::default() }), vec![1]);
        assert_eq!(ids(BoardQuery { group: Some("pickups".into()), ..Default::default() }), vec![2]);
        assert_eq!(ids(BoardQuery { group: Some("driver_pickups".into()), ..Default::default() }), vec![3]);
        assert_eq!(ids(BoardQuery { group: Some("returns".into()), ..Default::default() }), vec![4]);
        assert_eq!(ids(BoardQuery { area: Some("1".into()), ..Default::default() }), vec![1, 2]);
        assert_eq!(ids(BoardQuery { area: Some("none".into()), ..Default::default() }), vec![4]);
        assert_eq!(ids(BoardQuery { driver: Some("7".into()), ..Default::default() }), vec![3]);
        assert_eq!(ids(BoardQuery { driver: Some("none".into()), ..Default::default() }), vec![1, 2, 4]);
        assert_eq!(ids(BoardQuery { status: Some("3".into()), ..Default::default() }), Vec::<i64>::new());
    }

    #[test]
    fn rows_are_grouped_by_area_and_driver_with_the_ship_types_wording() {
        let rows = vec![row(1, 1, Some(1), None, None), row(2, 4, Some(1), None, None), row(3, 1, Some(1), Some((7, "Dan Driver")), None)];
        let (groups, count) = grouped(&rows, &BoardQuery::default(), day());
        assert_eq!(count, 3);
        assert_eq!(groups.iter().map(|g| g.heading.as_str()).collect::<Vec<_>>(), ["North · not assigned", "North · Dan Driver"]);
        assert_eq!(groups[0].rows[0].status, "Ready");
        assert_eq!(groups[0].rows[1].status, "Confirmed", "a driver pick-up that is Ready reads Confirmed");
    }

    #[test]
    fn a_cod_customers_unpaid_invoice_collects_its_amount_and_an_account_customers_nothing() {
        assert_eq!(collect_text(&row(1, 1, None, None, Some(5))), "$1,234.00 Cash");
        assert_eq!(collect_text(&row(1, 1, None, None, Some(3))), "$1,234.00 EFT");
        assert_eq!(collect_text(&row(1, 1, None, None, Some(14))), "");
        assert_eq!(collect_text(&BoardRow { actual_pay_type: 1, ..row(1, 1, None, None, Some(5)) }), "");
        assert_eq!(collect_text(&BoardRow { order_type: 2, ..row(1, 1, None, None, Some(5)) }), "");
    }
}
