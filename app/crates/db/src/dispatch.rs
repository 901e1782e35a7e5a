//! Dispatch (issue 34, docs/decisions/dispatch.md): the board's sheets of a day and
//! warehouse, drivers' runs and their stops, what a driver recorded at a stop and its proof.
//! Every read takes the company; a run link's token is the only way in without it, and it
//! reaches one run.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::DbConn;
use super::schema::{customers, dispatch_runs, order_lines, orders, products, run_proofs, run_stops, users};
use crate::error::{AppError, AppResult};
use domain::dispatch::Outcome;
use domain::enums::{DeliveryStatus, OrderStatus, OrderType};

/// The sheet types a board ships: invoices and credit notes.
pub const SHIPPED_TYPES: [i32; 2] = [OrderType::Invoice.as_i32(), OrderType::CreditNote.as_i32()];
/// The statuses of a sheet that ships: approved, or closed after approval.
pub const SHIPPED_STATUSES: [i32; 2] = [OrderStatus::Approved.as_i32(), OrderStatus::Closed.as_i32()];
/// The delivery statuses still under way, carried over from earlier days.
pub const UNDER_WAY: [i32; 3] = [DeliveryStatus::Preparing.as_i32(), DeliveryStatus::Ready.as_i32(), DeliveryStatus::Delivering.as_i32()];

/// A sheet on the board, with the stop it has on a run of the day or an open run.
#[derive(Queryable, Clone, Debug)]
pub struct BoardRow {
    pub order_id: i64,
    pub no: String,
    pub order_type: i32,
    pub order_date: NaiveDate,
    pub delivery_date: Option<NaiveDate>,
    pub customer_id: Option<i64>,
    pub customer: Option<String>,
    pub area_type: Option<i32>,
    pub ship_type: i32,
    pub delivery_status: i32,
    pub driver_id: Option<i64>,
    pub driver: Option<String>,
    pub payment_type: Option<i32>,
    pub actual_pay_type: i32,
    pub total_qty: i64,
    pub total_amount: i64,
    pub delivery_comment: String,
    pub stop_id: Option<i64>,
    pub run_id: Option<i64>,
    pub run_name: Option<String>,
    pub position: Option<i32>,
    pub outcome: Option<i32>,
    pub run_closed_at: Option<NaiveDateTime>,
}

impl BoardRow {
    /// The day it ships: its delivery (dispatch or pick-up) date, or its own date without one.
    pub fn day(&self) -> NaiveDate {
        self.delivery_date.unwrap_or(self.order_date)
    }
}

/// The board's statement (one, for [`board`] and [`board_plan`]).
macro_rules! board_query {
    ($org:expr, $warehouse:expr, $day:expr) => {{
        let (org, warehouse, day): (i64, i64, NaiveDate) = ($org, $warehouse, $day);
        let from = day.checked_sub_days(chrono::Days::new(domain::dispatch::CARRY_OVER_DAYS)).unwrap_or(day);
        let runs_in_view = dispatch_runs::table
            .filter(dispatch_runs::org_id.eq(org))
            .filter(dispatch_runs::run_date.eq(day).or(dispatch_runs::closed_at.is_null()))
            .select(dispatch_runs::id);
        // Two plain ranges of `orders_dispatch`; which of the earlier days' sheets are still under
        // way is sorted out below, in Rust: put in the statement, that OR is spread over the
        // ranges by the planner of SQLite 3.53, which then reads every undated sheet of the warehouse.
        let dated = orders::delivery_date.between(from, day);
        let undated = orders::delivery_date.is_null().and(orders::order_date.between(from, day));
        orders::table
            .left_join(customers::table.on(customers::id.nullable().eq(orders::customer_id)))
            .left_join(users::table.on(users::id.nullable().eq(orders::driver_id)))
            .left_join(run_stops::table.on(run_stops::order_id.eq(orders::id).and(run_stops::run_id.eq_any(runs_in_view))))
            .left_join(dispatch_runs::table.on(dispatch_runs::id.eq(run_stops::run_id)))
            .filter(orders::org_id.eq(org))
            .filter(orders::warehouse_id.eq(warehouse))
            .filter(orders::order_type.eq_any(SHIPPED_TYPES))
            .filter(orders::status.eq_any(SHIPPED_STATUSES))
            .filter(dated.or(undated))
            .order((orders::area_type.asc(), users::name.nullable().asc(), run_stops::position.nullable().asc(), orders::id.asc(), dispatch_runs::closed_at.nullable().asc()))
            .select((
                orders::id,
                orders::no,
                orders::order_type,
                orders::order_date,
                orders::delivery_date,
                orders::customer_id,
                customers::name.nullable(),
                orders::area_type,
                orders::ship_type,
                orders::delivery_status,
                orders::driver_id,
                users::name.nullable(),
                orders::payment_type,
                orders::actual_pay_type,
                orders::total_qty,
                orders::total_amount,
                orders::delivery_comment,
                run_stops::id.nullable(),
                run_stops::run_id.nullable(),
                dispatch_runs::name.nullable(),
                run_stops::position.nullable(),
                run_stops::outcome.nullable(),
                dispatch_runs::closed_at.nullable(),
            ))
    }};
}

/// The board of `warehouse` on `day`: its approved invoices and credit notes that ship that
/// day, and those of the [`domain::dispatch::CARRY_OVER_DAYS`] before still under way. One
/// statement (`orders_dispatch`); a sheet on two runs of the day (a stop not done, then put
/// on a later run) is listed once, with its open run.
pub fn board(conn: &mut DbConn, org: i64, warehouse: i64, day: NaiveDate) -> AppResult<Vec<BoardRow>> {
    let mut rows: Vec<BoardRow> = board_query!(org, warehouse, day).load(conn)?;
    // An open run sorts before a closed one (NULL closed_at first on SQLite, last on
    // PostgreSQL), so keep the open one whichever came first.
    let mut seen = std::collections::HashMap::<i64, usize>::new();
    let mut out: Vec<BoardRow> = Vec::with_capacity(rows.len());
    for row in rows.drain(..) {
        if row.day() != day && !UNDER_WAY.contains(&row.delivery_status) {
            continue;
        }
        match seen.get(&row.order_id) {
            Some(&i) => {
                if out[i].run_closed_at.is_some() && row.run_id.is_some() && row.run_closed_at.is_none() {
                    out[i] = row;
                }
            }
            None => {
                seen.insert(row.order_id, out.len());
                out.push(row);
            }
        }
    }
    Ok(out)
}

/// How the backend runs the board's statement (a test pins its two ranges of `orders_dispatch`).
pub fn board_plan(conn: &mut DbConn, org: i64, warehouse: i64, day: NaiveDate) -> AppResult<Vec<String>> {
    super::planner::plan(conn, board_query!(org, warehouse, day))
}

/// A driver's run.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = dispatch_runs)]
pub struct Run {
    pub id: i64,
    pub org_id: i64,
    pub run_date: NaiveDate,
    pub warehouse_id: i64,
    pub driver_id: i64,
    pub name: String,
    pub link_token: String,
    pub link_expires_at: Option<NaiveDateTime>,
    pub closed_at: Option<NaiveDateTime>,
    pub closed_by: Option<i64>,
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

impl Run {
    /// Whether the run's link works at `now`: issued, not revoked, not expired.
    pub fn link_live(&self, now: NaiveDateTime) -> bool {
        !self.link_token.is_empty() && self.link_expires_at.is_some_and(|t| now < t)
    }
}

/// A run with its driver's name and how far it got.
#[derive(Clone, Debug)]
pub struct RunSummary {
    pub run: Run,
    pub driver: String,
    pub stops: i64,
    pub done: i64,
    pub not_done: i64,
}

/// One run of the company; another company's is not found.
pub fn run(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Run> {
    Ok(dispatch_runs::table.filter(dispatch_runs::org_id.eq(org)).find(id).select(Run::as_select()).first(conn)?)
}

/// The run a link's token opens, whatever its state (the caller checks expiry and closing).
pub fn run_by_token(conn: &mut DbConn, token: &str) -> AppResult<Option<Run>> {
    if token.is_empty() {
        return Ok(None);
    }
    Ok(dispatch_runs::table.filter(dispatch_runs::link_token.eq(token)).select(Run::as_select()).first(conn).optional()?)
}

/// The runs of a day and warehouse, by driver and name, with their counts.
pub fn runs_of_day(conn: &mut DbConn, org: i64, warehouse: i64, day: NaiveDate) -> AppResult<Vec<RunSummary>> {
    let runs: Vec<(Run, String)> = dispatch_runs::table
        .inner_join(users::table.on(users::id.eq(dispatch_runs::driver_id)))
        .filter(dispatch_runs::org_id.eq(org))
        .filter(dispatch_runs::warehouse_id.eq(warehouse))
        .filter(dispatch_runs::run_date.eq(day))
        .order((users::name.asc(), dispatch_runs::name.asc(), dispatch_runs::id.asc()))
        .select((Run::as_select(), users::name))
        .load(conn)?;
    let ids: Vec<i64> = runs.iter().map(|(r, _)| r.id).collect();
    let outcomes: Vec<(i64, i32)> = run_stops::table.filter(run_stops::run_id.eq_any(&ids)).select((run_stops::run_id, run_stops::outcome)).load(conn)?;
    Ok(runs
        .into_iter()
        .map(|(run, driver)| {
            let mine = outcomes.iter().filter(|(r, _)| *r == run.id);
            let (mut stops, mut done, mut not_done) = (0, 0, 0);
            for (_, o) in mine {
                stops += 1;
                match Outcome::from_i32(*o) {
                    Some(Outcome::Done) => done += 1,
                    Some(Outcome::NotDone) => not_done += 1,
                    _ => {}
                }
            }
            RunSummary { run, driver, stops, done, not_done }
        })
        .collect())
}

/// The open run of `driver` named `name` on a day in a warehouse, if there is one.
pub fn find_run(conn: &mut DbConn, org: i64, warehouse: i64, day: NaiveDate, driver: i64, name: &str) -> AppResult<Option<Run>> {
    Ok(dispatch_runs::table
        .filter(dispatch_runs::org_id.eq(org))
        .filter(dispatch_runs::warehouse_id.eq(warehouse))
        .filter(dispatch_runs::run_date.eq(day))
        .filter(dispatch_runs::driver_id.eq(driver))
        .filter(dispatch_runs::name.eq(name))
        .select(Run::as_select())
        .first(conn)
        .optional()?)
}

#[derive(Insertable)]
#[diesel(table_name = dispatch_runs)]
struct NewRun<'a> {
    org_id: i64,
    run_date: NaiveDate,
    warehouse_id: i64,
    driver_id: i64,
    name: &'a str,
    created_by: Option<i64>,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
}

/// Creates a run; answers its id.
pub fn insert_run(conn: &mut DbConn, org: i64, warehouse: i64, day: NaiveDate, driver: i64, name: &str, by: i64) -> AppResult<i64> {
    let now = crate::now();
    diesel::insert_into(dispatch_runs::table)
        .values(NewRun { org_id: org, run_date: day, warehouse_id: warehouse, driver_id: driver, name, created_by: Some(by), created_at: now, updated_at: now })
        .execute(conn)?;
    Ok(dispatch_runs::table
        .filter(dispatch_runs::org_id.eq(org))
        .filter(dispatch_runs::warehouse_id.eq(warehouse))
        .filter(dispatch_runs::run_date.eq(day))
        .filter(dispatch_runs::driver_id.eq(driver))
        .filter(dispatch_runs::name.eq(name))
        .select(dispatch_runs::id)
        .first(conn)?)
}

/// Sets (or with `""` revokes) a run's link.
pub fn set_link(conn: &mut DbConn, org: i64, run: i64, token: &str, expires: Option<NaiveDateTime>) -> AppResult<()> {
    let n = diesel::update(dispatch_runs::table.filter(dispatch_runs::org_id.eq(org)).find(run))
        .set((dispatch_runs::link_token.eq(token), dispatch_runs::link_expires_at.eq(expires), dispatch_runs::updated_at.eq(crate::now())))
        .execute(conn)?;
    if n == 0 { Err(AppError::NotFound) } else { Ok(()) }
}

/// Closes a run: its link stops working and it takes no more stops.
pub fn close_run(conn: &mut DbConn, org: i64, run: i64, by: i64) -> AppResult<()> {
    let now = crate::now();
    diesel::update(dispatch_runs::table.filter(dispatch_runs::org_id.eq(org)).find(run))
        .set((dispatch_runs::closed_at.eq(Some(now)), dispatch_runs::closed_by.eq(Some(by)), dispatch_runs::link_token.eq(""), dispatch_runs::updated_at.eq(now)))
        .execute(conn)?;
    Ok(())
}

/// A stop of a run with what its sheet says.
#[derive(Queryable, Clone, Debug)]
pub struct StopRow {
    pub stop_id: i64,
    pub run_id: i64,
    pub position: i32,
    pub outcome: i32,
    pub reason: String,
    pub received_by: String,
    pub collected: i64,
    pub collected_pay_type: i32,
    pub update_key: String,
    pub recorded_at: Option<NaiveDateTime>,
    pub order_id: i64,
    pub no: String,
    pub order_type: i32,
    pub customer: Option<String>,
    pub customer_code: Option<String>,
    pub address: String,
    pub phone: String,
    pub area_type: Option<i32>,
    pub ship_type: i32,
    pub delivery_status: i32,
    pub payment_type: Option<i32>,
    pub actual_pay_type: i32,
    pub total_qty: i64,
    pub total_amount: i64,
    pub delivery_comment: String,
    pub has_proof: bool,
}

/// The stops of a run of the company, in the office's order.
pub fn stops(conn: &mut DbConn, org: i64, run: i64) -> AppResult<Vec<StopRow>> {
    stops_where(conn, org, Some(run), None)
}

/// One stop of a run (as the driver's page posts it); not found outside the run.
pub fn stop(conn: &mut DbConn, org: i64, run: i64, stop: i64) -> AppResult<StopRow> {
    stops_where(conn, org, Some(run), Some(stop))?.into_iter().next().ok_or(AppError::NotFound)
}

/// The stops a sheet has had, newest run first (its detail page's proof of delivery).
pub fn stops_of_order(conn: &mut DbConn, org: i64, order: i64) -> AppResult<Vec<(Run, StopRow)>> {
    let ids: Vec<i64> = run_stops::table.filter(run_stops::org_id.eq(org)).filter(run_stops::order_id.eq(order)).select(run_stops::id).load(conn)?;
    let mut out = Vec::new();
    for id in ids {
        let row = stops_where(conn, org, None, Some(id))?.into_iter().next().ok_or(AppError::NotFound)?;
        out.push((run(conn, org, row.run_id)?, row));
    }
    out.sort_by(|a, b| b.0.run_date.cmp(&a.0.run_date).then(b.0.id.cmp(&a.0.id)));
    Ok(out)
}

fn stops_where(conn: &mut DbConn, org: i64, run: Option<i64>, stop: Option<i64>) -> AppResult<Vec<StopRow>> {
    let mut q = run_stops::table
        .inner_join(orders::table.on(orders::id.eq(run_stops::order_id)))
        .left_join(customers::table.on(customers::id.nullable().eq(orders::customer_id)))
        .left_join(run_proofs::table.on(run_proofs::stop_id.eq(run_stops::id)))
        .filter(run_stops::org_id.eq(org))
        .filter(orders::org_id.eq(org))
        .into_boxed();
    if let Some(run) = run {
        q = q.filter(run_stops::run_id.eq(run));
    }
    if let Some(stop) = stop {
        q = q.filter(run_stops::id.eq(stop));
    }
    Ok(q
        .order((run_stops::position.asc(), run_stops::id.asc()))
        .select((
            run_stops::id,
            run_stops::run_id,
            run_stops::position,
            run_stops::outcome,
            run_stops::reason,
            run_stops::received_by,
            run_stops::collected,
            run_stops::collected_pay_type,
            run_stops::update_key,
            run_stops::recorded_at,
            orders::id,
            orders::no,
            orders::order_type,
            customers::name.nullable(),
            customers::code.nullable(),
            orders::address,
            orders::phone,
            orders::area_type,
            orders::ship_type,
            orders::delivery_status,
            orders::payment_type,
            orders::actual_pay_type,
            orders::total_qty,
            orders::total_amount,
            orders::delivery_comment,
            run_proofs::stop_id.nullable().is_not_null(),
        ))
        .load(conn)?)
}

/// The open stop a sheet has on an open run, if any: (stop id, run id, outcome).
pub fn open_stop_of(conn: &mut DbConn, org: i64, order: i64) -> AppResult<Option<(i64, i64, i32)>> {
    Ok(run_stops::table
        .inner_join(dispatch_runs::table)
        .filter(run_stops::org_id.eq(org))
        .filter(run_stops::order_id.eq(order))
        .filter(dispatch_runs::closed_at.is_null())
        .select((run_stops::id, run_stops::run_id, run_stops::outcome))
        .first(conn)
        .optional()?)
}

/// The next free position at the end of a run.
pub fn next_position(conn: &mut DbConn, run: i64) -> AppResult<i32> {
    let max: Option<i32> = run_stops::table.filter(run_stops::run_id.eq(run)).select(diesel::dsl::max(run_stops::position)).first(conn)?;
    Ok(max.map_or(1, |m| m.saturating_add(1)))
}

#[derive(Insertable)]
#[diesel(table_name = run_stops)]
struct NewStop {
    org_id: i64,
    run_id: i64,
    order_id: i64,
    position: i32,
}

/// Puts a sheet on a run at `position`.
pub fn insert_stop(conn: &mut DbConn, org: i64, run: i64, order: i64, position: i32) -> AppResult<()> {
    diesel::insert_into(run_stops::table).values(NewStop { org_id: org, run_id: run, order_id: order, position }).execute(conn)?;
    Ok(())
}

/// Takes a stop nobody has recorded off its run.
pub fn delete_stop(conn: &mut DbConn, org: i64, stop: i64) -> AppResult<()> {
    diesel::delete(run_stops::table.filter(run_stops::org_id.eq(org)).find(stop)).execute(conn)?;
    Ok(())
}

/// Sets a stop's position.
pub fn set_position(conn: &mut DbConn, org: i64, stop: i64, position: i32) -> AppResult<()> {
    diesel::update(run_stops::table.filter(run_stops::org_id.eq(org)).find(stop)).set(run_stops::position.eq(position)).execute(conn)?;
    Ok(())
}

/// What a driver recorded at a stop.
#[derive(Clone, Debug)]
pub struct StopRecord<'a> {
    pub outcome: i32,
    pub reason: &'a str,
    pub received_by: &'a str,
    pub collected: i64,
    pub collected_pay_type: i32,
    pub update_key: &'a str,
}

/// Writes what the driver recorded, unless the stop already holds this post's key: answers
/// whether it wrote. The key is part of the condition, so of two copies of one post racing
/// (PostgreSQL, read committed) the second finds the first's key once it commits, and writes nothing.
pub fn record_stop(conn: &mut DbConn, org: i64, stop: i64, r: &StopRecord<'_>) -> AppResult<bool> {
    let written = diesel::update(run_stops::table.filter(run_stops::org_id.eq(org)).filter(run_stops::update_key.ne(r.update_key)).find(stop))
        .set((
            run_stops::outcome.eq(r.outcome),
            run_stops::reason.eq(r.reason),
            run_stops::received_by.eq(r.received_by),
            run_stops::collected.eq(r.collected),
            run_stops::collected_pay_type.eq(r.collected_pay_type),
            run_stops::update_key.eq(r.update_key),
            run_stops::recorded_at.eq(Some(crate::now())),
        ))
        .execute(conn)?;
    Ok(written == 1)
}

/// Keeps (or replaces) a stop's signature or photo.
pub fn put_proof(conn: &mut DbConn, org: i64, stop: i64, kind: &str, mime: &str, bytes: &[u8]) -> AppResult<()> {
    diesel::delete(run_proofs::table.filter(run_proofs::org_id.eq(org)).find(stop)).execute(conn)?;
    diesel::insert_into(run_proofs::table)
        .values((
            run_proofs::stop_id.eq(stop),
            run_proofs::org_id.eq(org),
            run_proofs::kind.eq(kind),
            run_proofs::mime.eq(mime),
            run_proofs::bytes.eq(bytes),
            run_proofs::created_at.eq(crate::now()),
        ))
        .execute(conn)?;
    Ok(())
}

/// A stop's proof: (kind, mime, bytes); another company's is not found.
pub fn proof(conn: &mut DbConn, org: i64, stop: i64) -> AppResult<(String, String, Vec<u8>)> {
    Ok(run_proofs::table.filter(run_proofs::org_id.eq(org)).find(stop).select((run_proofs::kind, run_proofs::mime, run_proofs::bytes)).first(conn)?)
}

/// A line to pick: which sheet, which product, how many, and where it sits.
#[derive(Queryable, Clone, Debug)]
pub struct PickLine {
    pub order_id: i64,
    pub line_id: i64,
    pub no: String,
    pub product_id: Option<i64>,
    pub code: Option<String>,
    pub description: String,
    pub unit: String,
    pub quantity: i64,
    /// The product's locations (tag4), '' without a product.
    pub tag4: Option<String>,
    /// Whether the product is tracked by DOT (issue 36).
    pub dot_tracked: Option<bool>,
}

/// The lines of the company's sheets `orders`, in sheet and line order.
pub fn pick_lines(conn: &mut DbConn, org: i64, order_ids: &[i64]) -> AppResult<Vec<PickLine>> {
    Ok(order_lines::table
        .inner_join(orders::table.on(orders::id.eq(order_lines::order_id)))
        .left_join(products::table.on(products::id.nullable().eq(order_lines::product_id)))
        .filter(orders::org_id.eq(org))
        .filter(order_lines::org_id.eq(org))
        .filter(order_lines::order_id.eq_any(order_ids))
        .order((order_lines::order_id.asc(), order_lines::seq.asc()))
        .select((orders::id, order_lines::id, orders::no, order_lines::product_id, products::code.nullable(), order_lines::description, order_lines::unit, order_lines::quantity, products::tag4.nullable(), products::dot_tracked.nullable()))
        .load(conn)?)
}

/// The stops of the runs of a day and warehouse, with their driver (the reconciliation).
pub fn stops_of_day(conn: &mut DbConn, org: i64, warehouse: i64, day: NaiveDate) -> AppResult<Vec<(RunSummary, Vec<StopRow>)>> {
    let runs = runs_of_day(conn, org, warehouse, day)?;
    let mut out = Vec::with_capacity(runs.len());
    for r in runs {
        let stops = stops(conn, org, r.run.id)?;
        out.push((r, stops));
    }
    Ok(out)
}
