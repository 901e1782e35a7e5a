//! Landed costs (issue 35, docs/decisions/purchasing.md "Landed costs"): the list
//! (`/landed_costs`), the form (`/landed_costs/new?source_id=B`), an allocation's page with
//! Approve / Unapprove, the "Landed costs" section of a bill's page and a product's cost
//! history. Every page here shows cost figures, so each is refused to a viewer whose
//! `Sight` does not see cost; every figure of `Cost` still goes out through `Sight::cost`.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::NoticeFlag;
use super::errors::refusal;
use super::shell::Shell;
use crate::auth::Auth;
use crate::state::AppState;
use db::error::{AppError, AppResult};
use db::orders::Order;
use db::refs::Unchecked;
use domain::Actor;
use domain::enums::{OrderStatus, OrderType};
use domain::landed::{Kind, Method, Status};
use domain::money::Cents;
use domain::permissions::{Cost, Sight};
use services::landed::{self as svc, Allocation, ResultLine};

const PATH: &str = "/landed_costs";
/// The refusal of these pages to staff who may not see cost.
pub const NO_COST_SIGHT: &str = "Landed costs and cost history show product costs: only staff who may see cost can open them.";

fn require_sight(auth: &Auth) -> AppResult<Sight> {
    let sight = auth.sight();
    if sight.sees_cost() { Ok(sight) } else { Err(AppError::forbidden(NO_COST_SIGHT)) }
}

fn money(c: Cents) -> String {
    format!("${}", c.grouped())
}

fn cost_text(sight: Sight, c: Cost) -> String {
    sight.cost(c).map_or_else(|| "—".to_string(), money)
}

fn bill_href(id: i64) -> String {
    format!("/order_detail/{}/{id}", OrderType::Bill.route_name())
}

// ---------------------------------------------------------------------------------------
// The bill page's section

/// An allocation as the bill page and the list show it.
pub struct Row {
    pub no: String,
    pub href: String,
    pub kind: &'static str,
    pub method: &'static str,
    pub amount: String,
    pub status: &'static str,
    pub source_no: String,
    pub source_href: String,
    pub targets: Vec<(String, String)>,
    pub created: String,
}

fn row(a: &Allocation, zone: chrono_tz::Tz) -> Row {
    Row {
        no: a.no.clone(),
        href: format!("/landed_costs/{}", a.id),
        kind: a.kind.label(),
        method: a.method.label(),
        amount: money(a.amount),
        status: a.status.label(),
        source_no: a.source_no.clone(),
        source_href: bill_href(a.source_id),
        targets: a.targets.iter().map(|(id, no)| (no.clone(), bill_href(*id))).collect(),
        created: domain::dates::date_time(a.created_at, zone),
    }
}

/// The "Landed costs" section of a bill's page (templates/landed/section.html).
#[derive(Default)]
pub struct Section {
    pub shown: bool,
    pub rows: Vec<Row>,
    /// "Allocate landed cost": an approved bill and an approver.
    pub allocate_href: Option<String>,
}

/// The section for sheet `o` of type `t`: bills only, and only for viewers who see cost.
pub async fn section(state: &AppState, auth: &Auth, t: OrderType, o: &Order) -> AppResult<Section> {
    if !matches!(t, OrderType::Bill | OrderType::BillCreditNote) || !auth.sight().sees_cost() {
        return Ok(Section::default());
    }
    let (org, id) = (auth.org_id, o.id);
    let all = state.db.run(move |c| svc::of_bill(c, org, id)).await?;
    let approved = o.status == OrderStatus::Approved.as_i32() || o.status == OrderStatus::Closed.as_i32();
    Ok(Section {
        shown: true,
        rows: all.iter().map(|a| row(a, auth.zone)).collect(),
        allocate_href: (approved && auth.role.is_approver()).then(|| format!("/landed_costs/new?source_id={id}")),
    })
}

// ---------------------------------------------------------------------------------------
// The list

#[derive(Template, WebTemplate)]
#[template(path = "landed/list.html")]
pub struct ListPage {
    pub shell: Shell,
    pub rows: Vec<Row>,
    pub alert: Option<(&'static str, String)>,
}

/// `GET /landed_costs`: the company's allocations, newest first.
pub async fn list(State(state): State<AppState>, auth: Auth, Query(n): Query<NoticeFlag>) -> AppResult<Response> {
    require_sight(&auth)?;
    let alert = n.take(&state, &auth).await?.map(|(level, text)| (if level == "error" { "error" } else { "success" }, text));
    let org = auth.org_id;
    let all = state.db.run(move |c| svc::list(c, org)).await?;
    let shell = Shell::new(&state, &auth, "Landed costs", PATH, &[]).await?;
    Ok(ListPage { shell, rows: all.iter().map(|a| row(a, auth.zone)).collect(), alert }.into_response())
}

// ---------------------------------------------------------------------------------------
// The form

#[derive(Deserialize, Default)]
pub struct NewQuery {
    #[serde(default)]
    pub source_id: Option<String>,
}

pub struct TargetChoice {
    pub id: i64,
    pub no: String,
    pub date: String,
    pub checked: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "landed/form.html")]
pub struct FormPage {
    pub shell: Shell,
    /// Where the form posts: `/landed_costs`, or `/landed_costs/{id}/edit` for a draft.
    pub action: String,
    pub heading: String,
    pub version: Option<i32>,
    pub source_id: i64,
    pub source_no: String,
    pub source_href: String,
    pub kinds: Vec<(i32, &'static str)>,
    pub methods: Vec<(i32, &'static str)>,
    pub kind: i32,
    pub method: i32,
    pub amount: String,
    pub targets: Vec<TargetChoice>,
    pub alert: Option<String>,
}

struct Entered {
    kind: i32,
    method: i32,
    amount: String,
    targets: Vec<i64>,
}

async fn form_page(state: &AppState, auth: &Auth, source_id: i64, entered: Entered, editing: Option<(i64, i32)>, alert: Option<String>) -> AppResult<FormPage> {
    let org = auth.org_id;
    let since = domain::dates::today(auth.zone) - chrono::Duration::days(90);
    let (source, bills) = state.db.run(move |c| Ok((db::orders::get(c, org, source_id)?, svc::recent_stock_bills(c, org, since)?))).await?;
    if !matches!(OrderType::from_i32(source.order_type), Some(OrderType::Bill | OrderType::BillCreditNote)) {
        return Err(AppError::NotFound);
    }
    let heading = match editing {
        Some((id, _)) => format!("Edit {} of {}", domain::landed::number(id), source.no),
        None => format!("Allocate landed cost of {}", source.no),
    };
    let shell = Shell::new(state, auth, &heading, PATH, &[]).await?;
    Ok(FormPage {
        shell,
        action: editing.map_or_else(|| "/landed_costs".to_string(), |(id, _)| format!("/landed_costs/{id}/edit")),
        heading,
        version: editing.map(|(_, v)| v),
        source_id,
        source_no: source.no.clone(),
        source_href: format!("/order_detail/{}/{source_id}", OrderType::from_i32(source.order_type).map_or("bills", OrderType::route_name)),
        kinds: Kind::ALL.iter().map(|k| (k.as_i32(), k.label())).collect(),
        methods: Method::ALL.iter().map(|m| (m.as_i32(), m.label())).collect(),
        kind: entered.kind,
        method: entered.method,
        amount: entered.amount,
        targets: bills
            .into_iter()
            .filter(|(id, _, _)| *id != source_id)
            .map(|(id, no, date)| TargetChoice { id, no, date: date.format("%d/%m/%Y").to_string(), checked: entered.targets.contains(&id) })
            .collect(),
        alert,
    })
}

/// `GET /landed_costs/new?source_id=B`: the form for cost bill B.
pub async fn new_page(State(state): State<AppState>, auth: Auth, Query(q): Query<NewQuery>) -> AppResult<Response> {
    require_sight(&auth)?;
    if !auth.role.is_approver() {
        return Err(AppError::forbidden(svc::APPROVER_ONLY));
    }
    let source_id = q.source_id.as_deref().and_then(|s| s.trim().parse::<i64>().ok()).ok_or_else(|| AppError::field("source_id", "Choose the cost bill."))?;
    let entered = Entered { kind: Kind::Freight.as_i32(), method: Method::Value.as_i32(), amount: String::new(), targets: vec![] };
    Ok(form_page(&state, &auth, source_id, entered, None, None).await?.into_response())
}

/// `GET /landed_costs/{id}/edit`: a draft's form.
pub async fn edit_page(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    require_sight(&auth)?;
    if !auth.role.is_approver() {
        return Err(AppError::forbidden(svc::APPROVER_ONLY));
    }
    let org = auth.org_id;
    let (a, _) = state.db.run(move |c| svc::get(c, org, id)).await?;
    if a.status != Status::Draft {
        return Err(AppError::bad_request(format!("{} is approved; unapprove it before editing.", a.no)));
    }
    let entered = Entered { kind: a.kind.as_i32(), method: a.method.as_i32(), amount: a.amount.plain(), targets: a.targets.iter().map(|(t, _)| *t).collect() };
    Ok(form_page(&state, &auth, a.source_id, entered, Some((id, a.version)), None).await?.into_response())
}

/// `POST /landed_costs/{id}/edit`: saves the draft's changes.
pub async fn update(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, body: axum::body::Bytes) -> AppResult<Response> {
    save(state, auth, Some(id), body).await
}

/// `POST /landed_costs`: saves a draft allocation and opens it.
pub async fn create(State(state): State<AppState>, auth: Auth, body: axum::body::Bytes) -> AppResult<Response> {
    save(state, auth, None, body).await
}

async fn save(state: AppState, auth: Auth, editing: Option<i64>, body: axum::body::Bytes) -> AppResult<Response> {
    require_sight(&auth)?;
    let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))?;
    let one = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string()).unwrap_or_default();
    let source_id = one("source_id").parse::<i64>().map_err(|_| AppError::field("source_id", "Choose the cost bill."))?;
    let targets: Vec<i64> = fields.iter().filter(|(k, v)| k == "target" && !v.trim().is_empty()).filter_map(|(_, v)| v.trim().parse().ok()).collect();
    let version: i32 = one("version").parse().unwrap_or(0);
    let entered = Entered { kind: one("kind").parse().unwrap_or(0), method: one("method").parse().unwrap_or(0), amount: one("amount"), targets: targets.clone() };
    let amount = if entered.amount.is_empty() {
        Ok(None)
    } else {
        Cents::parse(&entered.amount).map(Some).map_err(|e| AppError::field("amount", e.to_string()))
    };
    let actor = Actor::from(&auth);
    let r = match amount {
        Ok(amount) => {
            let input = svc::NewAllocation {
                source_id: Unchecked::new(source_id),
                source_line_id: None,
                kind: entered.kind,
                method: entered.method,
                amount,
                targets: targets.into_iter().map(Unchecked::new).collect(),
            };
            match editing {
                None => state.db.write(move |c| svc::create(c, &actor, &input)).await,
                Some(id) => state.db.write(move |c| svc::update(c, &actor, id, version, &input).map(|()| id)).await,
            }
        }
        Err(e) => Err(e),
    };
    match r {
        Ok(id) => super::redirect_with_notice(&state, &auth, &format!("/landed_costs/{id}"), "success", format!("Landed cost {} saved as a draft.", domain::landed::number(id))).await,
        Err(e) => {
            let Some(m) = refusal(&e, None) else { return Err(e) };
            // Another company's cost bill: the form cannot be shown for it.
            let page = match form_page(&state, &auth, source_id, entered, editing.map(|id| (id, version)), Some(m.clone())).await {
                Ok(p) => p.into_response(),
                Err(AppError::NotFound) => return Err(AppError::bad_request(m)),
                Err(e) => return Err(e),
            };
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
    }
}

// ---------------------------------------------------------------------------------------
// One allocation

pub struct LineRow {
    pub bill: String,
    pub bill_href: String,
    pub product: String,
    pub qty_received: i64,
    pub qty_in_stock: i64,
    pub share: String,
    pub to_stock: String,
    pub to_cogs: String,
    pub old_cost: String,
    pub new_cost: String,
}

fn line_row(l: &ResultLine, sight: Sight) -> LineRow {
    LineRow {
        bill: l.order_no.clone(),
        bill_href: bill_href(l.order_id),
        product: l.product_code.clone(),
        qty_received: l.qty_received,
        qty_in_stock: l.qty_in_stock,
        share: money(l.share),
        to_stock: money(l.to_stock),
        to_cogs: money(l.to_cogs),
        old_cost: cost_text(sight, l.old_cost),
        new_cost: cost_text(sight, l.new_cost),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "landed/show.html")]
pub struct ShowPage {
    pub shell: Shell,
    pub id: i64,
    pub a: Row,
    pub draft: bool,
    /// Approve / Unapprove offered (an approver).
    pub may_act: bool,
    pub lines: Vec<LineRow>,
    /// A draft that could not be approved as things stand: why.
    pub preview_error: Option<String>,
    pub total_to_stock: String,
    pub total_to_cogs: String,
    pub alert: Option<(&'static str, String)>,
}

async fn show_page(state: &AppState, auth: &Auth, id: i64, alert: Option<(&'static str, String)>) -> AppResult<ShowPage> {
    let sight = require_sight(auth)?;
    let org = auth.org_id;
    let (a, stored) = state.db.run(move |c| svc::get(c, org, id)).await?;
    let draft = a.status == Status::Draft;
    let (lines, preview_error) = if draft {
        match state.db.run(move |c| svc::preview(c, org, id)).await {
            Ok(l) => (l, None),
            Err(e) => match refusal(&e, None) {
                Some(m) => (vec![], Some(m)),
                None => return Err(e),
            },
        }
    } else {
        (stored, None)
    };
    let sum = |f: fn(&ResultLine) -> Cents| lines.iter().try_fold(Cents::ZERO, |s, l| s.checked_add(f(l))).map_or_else(|| "—".to_string(), money);
    let shell = Shell::new(state, auth, &a.no, PATH, &[]).await?;
    Ok(ShowPage {
        shell,
        id,
        total_to_stock: sum(|l| l.to_stock),
        total_to_cogs: sum(|l| l.to_cogs),
        a: row(&a, auth.zone),
        draft,
        may_act: auth.role.is_approver(),
        lines: lines.iter().map(|l| line_row(l, sight)).collect(),
        preview_error,
        alert,
    })
}

/// `GET /landed_costs/{id}`.
pub async fn show(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, Query(n): Query<NoticeFlag>) -> AppResult<Response> {
    require_sight(&auth)?;
    let alert = n.take(&state, &auth).await?.map(|(level, text)| (if level == "error" { "error" } else { "success" }, text));
    Ok(show_page(&state, &auth, id, alert).await?.into_response())
}

async fn act(state: AppState, auth: Auth, id: i64, approve: bool) -> AppResult<Response> {
    require_sight(&auth)?;
    let actor = Actor::from(&auth);
    let r = state.db.write(move |c| if approve { svc::approve(c, &actor, id) } else { svc::unapprove(c, &actor, id) }).await;
    let no = domain::landed::number(id);
    match r {
        Ok(()) => {
            let text = if approve { format!("{no} approved: the costs are raised.") } else { format!("{no} unapproved: the costs are restored.") };
            super::redirect_with_notice(&state, &auth, &format!("/landed_costs/{id}"), "success", text).await
        }
        Err(AppError::NotFound) => Err(AppError::NotFound),
        Err(e) => {
            let Some(m) = refusal(&e, None) else { return Err(e) };
            Ok((StatusCode::UNPROCESSABLE_ENTITY, show_page(&state, &auth, id, Some(("error", m))).await?).into_response())
        }
    }
}

/// `POST /landed_costs/{id}/approve`.
pub async fn approve(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    act(state, auth, id, true).await
}

/// `POST /landed_costs/{id}/unapprove`.
pub async fn unapprove(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    act(state, auth, id, false).await
}

// ---------------------------------------------------------------------------------------
// A product's cost history

pub struct StepRow {
    pub at: String,
    pub reason: String,
    pub href: Option<String>,
    pub user: String,
    pub old_cost: String,
    pub new_cost: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "landed/cost_history.html")]
pub struct HistoryPage {
    pub shell: Shell,
    pub product_id: i64,
    pub code: String,
    pub steps: Vec<StepRow>,
}

/// `GET /products/{id}/cost_history`: cost-sighted staff only.
pub async fn cost_history(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    let sight = require_sight(&auth)?;
    let org = auth.org_id;
    let (code, steps) = state.db.run(move |c| svc::cost_history(c, org, id)).await?;
    let shell = Shell::new(&state, &auth, &format!("Cost history of {code}"), "/products", &[]).await?;
    let steps = steps
        .into_iter()
        .map(|s| StepRow {
            at: domain::dates::date_time(s.at, auth.zone),
            href: match (s.landed_cost_id, s.order) {
                (Some(lc), _) => Some(format!("/landed_costs/{lc}")),
                (None, Some((oid, t))) => OrderType::from_i32(t).map(|t| format!("/order_detail/{}/{oid}", t.route_name())),
                _ => None,
            },
            reason: s.reason,
            user: s.user.unwrap_or_default(),
            old_cost: cost_text(sight, s.old_cost),
            new_cost: cost_text(sight, s.new_cost),
        })
        .collect();
    Ok(HistoryPage { shell, product_id: id, code, steps }.into_response())
}
