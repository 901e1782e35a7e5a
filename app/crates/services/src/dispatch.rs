//! Dispatch (issue 34, docs/decisions/dispatch.md): the board of a day and warehouse,
//! drivers' runs and their stops, bulk delivery updates, the run link a driver opens without
//! signing in, what the driver records there, and the end of the day.
//!
//! Every office call takes an [`Actor`] and resolves every id inside its company; the
//! driver's calls take the link's token, which reaches one run of one company and nothing
//! else. Each write is one transaction with a history row per sheet it changes.

use chrono::{NaiveDate, NaiveDateTime};
use db::dispatch::{self as store, BoardRow, Run, RunSummary, StopRecord, StopRow};
use db::error::{AppError, AppResult};
use db::orders as order_db;
use db::refs::{Driver, Unchecked, Warehouse};
use db::schema::{orders, users};
use db::{DbConn, now};
use diesel::prelude::*;
use domain::Actor;
use domain::dispatch::{self as rules, Outcome, ProofKind, ReconLine, ReconStop, StopInput};
use domain::enums::{ActualPayType, DeliveryStatus, OrderType, ShipType};
use domain::money::Cents;
use domain::status::Action;

use crate::Core;
use crate::orders::ensure;

/// The message when a sheet chosen on the board is not one of this company's.
pub const UNKNOWN_SHEET: &str = "A sheet you chose does not exist in this company.";
/// The message when nothing was chosen.
pub const NOTHING_CHOSEN: &str = "Choose one or more sheets first.";

/// The board of a day and warehouse: its sheets and its runs.
pub struct Board {
    pub rows: Vec<BoardRow>,
    pub runs: Vec<RunSummary>,
}

/// The board of `warehouse` (of the actor's company) on `day`.
pub async fn board(core: &Core, actor: &Actor, warehouse: i64, day: NaiveDate) -> AppResult<Board> {
    let org = actor.org_id;
    core.db
        .run(move |c| {
            Unchecked::<Warehouse>::new(warehouse).resolve(c, org, "warehouse_id")?;
            Ok(Board { rows: store::board(c, org, warehouse, day)?, runs: store::runs_of_day(c, org, warehouse, day)? })
        })
        .await
}

/// The sheets chosen on the board (for a bulk change or the picking list), checked: of the
/// company, of the board's warehouse, an approved (or closed) invoice or credit note that
/// allows `action`; at most [`rules::MAX_BULK`], each once, in the order chosen.
pub(crate) fn chosen(c: &mut DbConn, org: i64, warehouse: i64, ids: &[i64], action: Action) -> AppResult<Vec<order_db::Order>> {
    if ids.is_empty() {
        return Err(AppError::BadRequest(NOTHING_CHOSEN.into()));
    }
    if ids.len() > rules::MAX_BULK {
        return Err(AppError::BadRequest(format!("Choose at most {} sheets at a time.", rules::MAX_BULK)));
    }
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let o = match order_db::get(c, org, id) {
            Ok(o) => o,
            Err(AppError::NotFound) => return Err(AppError::BadRequest(UNKNOWN_SHEET.into())),
            Err(e) => return Err(e),
        };
        if o.warehouse_id != Some(warehouse) {
            return Err(AppError::BadRequest(format!("{} ships from another warehouse: it is not on this board.", o.no)));
        }
        if !store::SHIPPED_TYPES.contains(&o.order_type) || !store::SHIPPED_STATUSES.contains(&o.status) {
            return Err(AppError::BadRequest(format!("{} is not an approved invoice or credit note: only approved sheets ship.", o.no)));
        }
        ensure(&o, action)?;
        if !out.iter().any(|p: &order_db::Order| p.id == o.id) {
            out.push(o);
        }
    }
    Ok(out)
}

fn ship_of(o: &order_db::Order) -> ShipType {
    ShipType::from_i32(o.ship_type).unwrap_or(ShipType::Delivery)
}

/// Sets the delivery status of the chosen sheets, each with a history row in the wording of
/// its ship type; all or nothing. Answers how many changed.
pub async fn set_status(core: &Core, actor: &Actor, warehouse: i64, ids: Vec<i64>, status: Option<i32>) -> AppResult<usize> {
    let status = status.and_then(DeliveryStatus::from_i32).ok_or_else(|| AppError::field("delivery_status", "Choose a delivery status."))?;
    let actor = actor.clone();
    core.db
        .write(move |c| {
            let sheets = chosen(c, actor.org_id, warehouse, &ids, Action::EditDelivery)?;
            for o in &sheets {
                diesel::update(orders::table.find(o.id)).set((orders::delivery_status.eq(status.as_i32()), orders::updated_at.eq(now()))).execute(c)?;
                let text = format!("Delivery: {} (dispatch board)", status.wording(ship_of(o)));
                order_db::add_event(c, actor.org_id, o.id, Some(actor.user_id), &actor.name, &text)?;
            }
            Ok(sheets.len())
        })
        .await
}

/// What the board's Assign form sends.
#[derive(Clone, Debug)]
pub struct Assign {
    pub day: NaiveDate,
    pub warehouse: i64,
    pub orders: Vec<i64>,
    pub driver: Option<i64>,
    pub run_name: String,
}

/// Puts the chosen sheets on a driver's run of the day (created when new), after its stops
/// in the default order (area, then customer), and makes the run's driver theirs. A sheet
/// moves off another open run if nobody recorded it there yet; one already recorded, a
/// counter pick-up or a carrier's sheet is refused with its message. Answers the run's id.
pub async fn assign(core: &Core, actor: &Actor, a: Assign) -> AppResult<i64> {
    let name = rules::check_run_name(&a.run_name).map_err(|m| AppError::field("run_name", m))?;
    let driver = a.driver.ok_or_else(|| AppError::field("driver_id", "Choose a driver."))?;
    let actor = actor.clone();
    core.db
        .write(move |c| {
            let org = actor.org_id;
            let driver = Unchecked::<Driver>::new(driver).resolve(c, org, "driver_id")?.id();
            let mut sheets = chosen(c, org, a.warehouse, &a.orders, Action::EditDriver)?;
            for o in &sheets {
                if !rules::goes_on_run(ship_of(o)) {
                    return Err(AppError::BadRequest(rules::not_on_run(&o.no, ship_of(o))));
                }
            }
            let run = match store::find_run(c, org, a.warehouse, a.day, driver, &name)? {
                Some(r) if r.closed_at.is_some() => {
                    return Err(AppError::BadRequest(format!("The run '{name}' of this day is closed: name a new run.")));
                }
                Some(r) => r.id,
                None => store::insert_run(c, org, a.warehouse, a.day, driver, &name, actor.user_id)?,
            };
            let driver_name: String = users::table.find(driver).select(users::name).first(c)?;
            let customers = customer_names(c, org, &sheets)?;
            sheets.sort_by_key(|o| rules::stop_order_key(o.area_type, customers.get(&o.id).map_or("", String::as_str), &o.no));
            let mut position = store::next_position(c, run)?;
            for o in &sheets {
                if let Some((stop, on_run, outcome)) = store::open_stop_of(c, org, o.id)? {
                    if on_run == run {
                        continue;
                    }
                    if outcome != Outcome::Open.as_i32() {
                        return Err(AppError::BadRequest(format!("{} was already recorded on another run: close that run's day first.", o.no)));
                    }
                    store::delete_stop(c, org, stop)?;
                }
                store::insert_stop(c, org, run, o.id, position)?;
                position = position.checked_add(1).ok_or_else(|| AppError::BadRequest("This run has too many stops.".into()))?;
                diesel::update(orders::table.find(o.id)).set((orders::driver_id.eq(Some(driver)), orders::updated_at.eq(now()))).execute(c)?;
                order_db::add_event(c, org, o.id, Some(actor.user_id), &actor.name, &format!("Driver assigned: {driver_name} · Run: {name}"))?;
            }
            Ok(run)
        })
        .await
}

fn customer_names(c: &mut DbConn, org: i64, sheets: &[order_db::Order]) -> AppResult<std::collections::HashMap<i64, String>> {
    use db::schema::customers;
    let ids: Vec<i64> = sheets.iter().filter_map(|o| o.customer_id).collect();
    let names: Vec<(i64, String)> = customers::table.filter(customers::org_id.eq(org)).filter(customers::id.eq_any(&ids)).select((customers::id, customers::name)).load(c)?;
    let names: std::collections::HashMap<i64, String> = names.into_iter().collect();
    Ok(sheets.iter().filter_map(|o| Some((o.id, names.get(&o.customer_id?)?.clone()))).collect())
}

/// A run of the company with its stops (the office's run page and the run sheet).
pub struct RunView {
    pub run: Run,
    pub driver: String,
    pub stops: Vec<StopRow>,
}

impl RunView {
    /// What the driver collects on the run, per stop and in all: `None` if the sum leaves
    /// the range of money.
    pub fn total_to_collect(&self) -> Option<Cents> {
        self.stops.iter().filter_map(to_collect).try_fold(Cents::ZERO, |sum, (_, due)| sum.checked_add(due))
    }
}

/// What a stop's driver collects, and how.
pub fn to_collect(s: &StopRow) -> Option<(ActualPayType, Cents)> {
    rules::to_collect(OrderType::from_i32(s.order_type)?, s.payment_type, s.actual_pay_type, Cents(s.total_amount))
}

/// What the driver was to collect at a stop when the run left: the driver's record sets the
/// sheet's actual pay type (Cash, Partial Paid…), after which [`to_collect`] sees it paid, so
/// a stop where money was recorded counts as the sheet was, unpaid (the reconciliation).
pub fn due_at_stop(s: &StopRow) -> Option<(ActualPayType, Cents)> {
    let unpaid_then = if s.recorded_at.is_some() && s.collected > 0 { ActualPayType::Unpaid.as_i32() } else { s.actual_pay_type };
    rules::to_collect(OrderType::from_i32(s.order_type)?, s.payment_type, unpaid_then, Cents(s.total_amount))
}

/// A run of the actor's company; another company's is not found.
pub async fn run(core: &Core, actor: &Actor, id: i64) -> AppResult<RunView> {
    let org = actor.org_id;
    core.db.run(move |c| run_view(c, org, id)).await
}

fn run_view(c: &mut DbConn, org: i64, id: i64) -> AppResult<RunView> {
    let run = store::run(c, org, id)?;
    let driver: String = users::table.find(run.driver_id).select(users::name).first(c)?;
    let stops = store::stops(c, org, id)?;
    Ok(RunView { run, driver, stops })
}

/// Moves a stop one place up (`up`) or down its open run.
pub async fn move_stop(core: &Core, actor: &Actor, run: i64, stop: i64, up: bool) -> AppResult<()> {
    let org = actor.org_id;
    core.db
        .write(move |c| {
            let r = store::run(c, org, run)?;
            if r.closed_at.is_some() {
                return Err(AppError::BadRequest(CLOSED.into()));
            }
            let stops = store::stops(c, org, run)?;
            let i = stops.iter().position(|s| s.stop_id == stop).ok_or(AppError::NotFound)?;
            let j = if up { i.checked_sub(1) } else { Some(i + 1).filter(|j| *j < stops.len()) };
            let Some(j) = j else { return Ok(()) };
            // Positions are renumbered 1..n, so a swap never collides with an equal position.
            let mut order: Vec<i64> = stops.iter().map(|s| s.stop_id).collect();
            order.swap(i, j);
            for (n, id) in order.iter().enumerate() {
                store::set_position(c, org, *id, i32::try_from(n + 1).unwrap_or(i32::MAX))?;
            }
            Ok(())
        })
        .await
}

/// Takes a stop nobody recorded yet off an open run (its sheet keeps its driver).
pub async fn remove_stop(core: &Core, actor: &Actor, run: i64, stop: i64) -> AppResult<()> {
    let actor = actor.clone();
    core.db
        .write(move |c| {
            let org = actor.org_id;
            let r = store::run(c, org, run)?;
            if r.closed_at.is_some() {
                return Err(AppError::BadRequest(CLOSED.into()));
            }
            let s = store::stop(c, org, run, stop)?;
            if s.outcome != Outcome::Open.as_i32() {
                return Err(AppError::BadRequest(format!("{} was already recorded by the driver: it stays on the run.", s.no)));
            }
            store::delete_stop(c, org, stop)?;
            order_db::add_event(c, org, s.order_id, Some(actor.user_id), &actor.name, &format!("Taken off run: {}", r.name))
        })
        .await
}

const CLOSED: &str = "This run is closed.";

/// Makes a new link for a run (the old one stops working); answers its token.
pub async fn issue_link(core: &Core, actor: &Actor, run: i64) -> AppResult<String> {
    let org = actor.org_id;
    core.db
        .write(move |c| {
            let r = store::run(c, org, run)?;
            if r.closed_at.is_some() {
                return Err(AppError::BadRequest(CLOSED.into()));
            }
            let zone = domain::dates::zone_of(&db::accounts::organisation(c, org)?.time_zone);
            let token = new_token();
            store::set_link(c, org, run, &token, Some(rules::link_expires(r.run_date, zone, now())))?;
            Ok(token)
        })
        .await
}

/// The run's token, issuing one if it has none or it expired (the run sheet prints it).
pub async fn live_link(core: &Core, actor: &Actor, run: i64) -> AppResult<String> {
    let org = actor.org_id;
    let r = core.db.run(move |c| store::run(c, org, run)).await?;
    if r.closed_at.is_none() && r.link_live(now()) {
        return Ok(r.link_token);
    }
    issue_link(core, actor, run).await
}

/// Stops a run's link working.
pub async fn revoke_link(core: &Core, actor: &Actor, run: i64) -> AppResult<()> {
    let org = actor.org_id;
    core.db.write(move |c| store::set_link(c, org, run, "", None)).await
}

fn new_token() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..rules::TOKEN_LEN).map(|_| rules::TOKEN_ALPHABET[rng.random_range(0..rules::TOKEN_ALPHABET.len())] as char).collect()
}

/// The run a link opens, with its stops: not found for a malformed, unknown, revoked or
/// expired token, or a closed run.
pub async fn driver_run(core: &Core, token: String) -> AppResult<RunView> {
    core.db.run(move |c| driver_run_in(c, &token)).await
}

fn driver_run_in(c: &mut DbConn, token: &str) -> AppResult<RunView> {
    if !rules::token_shape_ok(token) {
        return Err(AppError::NotFound);
    }
    let run = store::run_by_token(c, token)?.ok_or(AppError::NotFound)?;
    if run.closed_at.is_some() || !run.link_live(now()) {
        return Err(AppError::NotFound);
    }
    run_view(c, run.org_id, run.id)
}

/// A proof as it arrived from the phone.
pub struct Proof {
    pub kind: ProofKind,
    pub bytes: Vec<u8>,
}

/// Whether a driver's post was written or was a repeat of one already written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    Written,
    /// The same post (same key) arrived again, over a weak connection: nothing was written twice.
    Repeat,
}

/// Records what the driver did at a stop of the link's run: the stop, the sheet's delivery
/// status and actual pay type, a history row, and the proof. `key` is the phone's id for
/// this post; the same key again answers [`Recorded::Repeat`] and writes nothing.
pub async fn driver_record(core: &Core, token: String, stop: i64, key: String, input: StopInput, proof: Option<Proof>) -> AppResult<Recorded> {
    let key = key.trim().to_string();
    if key.is_empty() || key.len() > 64 || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(AppError::BadRequest("The page is out of date: open the run's link again.".into()));
    }
    let proof = match proof {
        Some(p) if p.bytes.len() > rules::MAX_PROOF_BYTES => {
            return Err(AppError::field("proof", "The picture is too large: take it again at a lower resolution."));
        }
        Some(p) => Some((p.kind, rules::proof_mime(&p.bytes).ok_or_else(|| AppError::field("proof", "The signature or photo must be a PNG or JPEG picture."))?, p.bytes)),
        None => None,
    };
    let report = rules::check_stop(&StopInput { has_proof: proof.is_some(), ..input }).map_err(|errors| AppError::Validation {
        message: "Check the highlighted fields.".into(),
        errors: errors.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
    })?;
    core.db
        .write(move |c| {
            let view = driver_run_in(c, &token)?;
            let org = view.run.org_id;
            let s = view.stops.iter().find(|s| s.stop_id == stop).ok_or(AppError::NotFound)?;
            if s.update_key == key {
                return Ok(Recorded::Repeat);
            }
            let o = order_db::get(c, org, s.order_id)?;
            ensure(&o, Action::EditDelivery).map_err(|_| AppError::Conflict {
                message: format!("{} was changed in the office: call the office before you record it.", o.no),
                code: Some("sheet_changed"),
                reasons: vec![],
            })?;
            let ship = ship_of(&o);
            let written = store::record_stop(
                c,
                org,
                stop,
                &StopRecord {
                    outcome: report.outcome.as_i32(),
                    reason: &report.reason,
                    received_by: &report.received_by,
                    collected: report.collected.0,
                    collected_pay_type: report.pay_type.as_i32(),
                    update_key: &key,
                },
            )?;
            if !written {
                return Ok(Recorded::Repeat);
            }
            if let Some((kind, mime, bytes)) = &proof {
                store::put_proof(c, org, stop, kind.as_str(), mime, bytes)?;
            }
            let status = report.delivery_status().map_or(o.delivery_status, DeliveryStatus::as_i32);
            let pay = report.sheet_pay_type(to_collect(s).map(|(_, due)| due)).map_or(o.actual_pay_type, ActualPayType::as_i32);
            diesel::update(orders::table.find(o.id))
                .set((orders::delivery_status.eq(status), orders::actual_pay_type.eq(pay), orders::updated_at.eq(now())))
                .execute(c)?;
            let mut text = format!("{} (run {})", report.outcome.wording(ship), view.run.name);
            match report.outcome {
                Outcome::Done => text.push_str(&format!(" · Received by: {}", report.received_by)),
                _ => text.push_str(&format!(" · Reason: {}", report.reason)),
            }
            if report.collected > Cents::ZERO {
                text.push_str(&format!(" · Collected: ${} {}", report.collected, report.pay_type.label()));
            }
            if s.recorded_at.is_some() {
                text.push_str(" · corrected");
            }
            order_db::add_event(c, org, o.id, Some(view.run.driver_id), &format!("{} (driver)", view.driver), &text)?;
            Ok(Recorded::Written)
        })
        .await
}

/// A stop's signature or photo, for the office: (mime, bytes).
pub async fn proof(core: &Core, actor: &Actor, stop: i64) -> AppResult<(String, Vec<u8>)> {
    let org = actor.org_id;
    let (_, mime, bytes) = core.db.run(move |c| store::proof(c, org, stop)).await?;
    Ok((mime, bytes))
}

/// The proof of delivery a sheet has: its stops on runs, newest first.
pub async fn stops_of_sheet(core: &Core, actor: &Actor, order: i64) -> AppResult<Vec<(Run, StopRow)>> {
    let org = actor.org_id;
    core.db.run(move |c| store::stops_of_order(c, org, order)).await
}

/// The end of a day in a warehouse: money per driver and pay type, and what was not done.
pub struct Reconciliation {
    pub day: NaiveDate,
    pub warehouse: i64,
    pub lines: Vec<ReconLine>,
    pub runs: Vec<RunView>,
    /// Stops not done or still open: (driver, stop).
    pub undelivered: Vec<(String, StopRow)>,
    /// Whether every run of the day is closed.
    pub closed: bool,
}

/// The reconciliation of a day and warehouse.
pub async fn reconciliation(core: &Core, actor: &Actor, warehouse: i64, day: NaiveDate) -> AppResult<Reconciliation> {
    let org = actor.org_id;
    core.db
        .run(move |c| {
            Unchecked::<Warehouse>::new(warehouse).resolve(c, org, "warehouse_id")?;
            let day_runs = store::stops_of_day(c, org, warehouse, day)?;
            let mut recon = Vec::new();
            let mut undelivered = Vec::new();
            let mut runs = Vec::new();
            let closed = day_runs.iter().all(|(r, _)| r.run.closed_at.is_some());
            for (summary, stops) in day_runs {
                for s in &stops {
                    let outcome = Outcome::from_i32(s.outcome).unwrap_or(Outcome::Open);
                    recon.push(ReconStop {
                        driver: summary.driver.clone(),
                        outcome,
                        to_collect: due_at_stop(s),
                        collected: Cents(s.collected),
                        collected_pay_type: ActualPayType::from_i32(s.collected_pay_type).unwrap_or(ActualPayType::Unpaid),
                    });
                    if outcome != Outcome::Done {
                        undelivered.push((summary.driver.clone(), s.clone()));
                    }
                }
                runs.push(RunView { run: summary.run, driver: summary.driver, stops });
            }
            let lines = rules::reconcile(&recon).ok_or_else(|| AppError::BadRequest("The day's amounts are too large to add up.".into()))?;
            Ok(Reconciliation { day, warehouse, lines, runs, undelivered, closed })
        })
        .await
}

/// Closes the day's open runs of a warehouse: their links stop working, and every sheet not
/// delivered goes back to Preparing with a history row. Answers how many went back.
pub async fn close_day(core: &Core, actor: &Actor, warehouse: i64, day: NaiveDate) -> AppResult<usize> {
    let actor = actor.clone();
    core.db
        .write(move |c| {
            let org = actor.org_id;
            Unchecked::<Warehouse>::new(warehouse).resolve(c, org, "warehouse_id")?;
            let mut back = 0;
            for (summary, stops) in store::stops_of_day(c, org, warehouse, day)? {
                if summary.run.closed_at.is_some() {
                    continue;
                }
                for s in stops.iter().filter(|s| s.outcome != Outcome::Done.as_i32()) {
                    // A sheet the office finished or cancelled by hand stays as it is.
                    let still_going = [DeliveryStatus::Ready, DeliveryStatus::Delivering].map(DeliveryStatus::as_i32).contains(&s.delivery_status);
                    if !still_going {
                        continue;
                    }
                    diesel::update(orders::table.find(s.order_id))
                        .set((orders::delivery_status.eq(DeliveryStatus::Preparing.as_i32()), orders::updated_at.eq(now())))
                        .execute(c)?;
                    let ship = ShipType::from_i32(s.ship_type).unwrap_or(ShipType::Delivery);
                    let text = format!("{} on run {}: back to Preparing", Outcome::NotDone.wording(ship), summary.run.name);
                    order_db::add_event(c, org, s.order_id, Some(actor.user_id), &actor.name, &text)?;
                    back += 1;
                }
                store::close_run(c, org, summary.run.id, actor.user_id)?;
            }
            Ok(back)
        })
        .await
}

/// When a run's link stops working, for the office's page.
pub fn link_state(run: &Run, at: NaiveDateTime) -> LinkState {
    if run.closed_at.is_some() {
        LinkState::Closed
    } else if run.link_token.is_empty() {
        LinkState::None
    } else if run.link_live(at) {
        LinkState::Live
    } else {
        LinkState::Expired
    }
}

/// Where a run's link stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    None,
    Live,
    Expired,
    Closed,
}
