//! Landed costs (issue 35, docs/decisions/purchasing.md "Landed costs"): a cost bill's
//! freight, duty, insurance or brokerage allocated over stock bills; approving raises the
//! moving-average cost by the part still in stock and records it, unapproving reverses
//! exactly what was recorded. Every function runs in the caller's transaction.

use std::collections::BTreeMap;

use diesel::prelude::*;

use db::error::{AppError, AppResult};
use db::orders as order_db;
use db::refs::{Sheet, Unchecked};
use db::schema::{cost_changes, landed_cost_lines, landed_cost_targets, landed_costs, orders, products, users};
use db::{DbConn, now, stock};
use domain::Actor;
use domain::enums::{OrderStatus, OrderType, ProductKind, TaxType};
use domain::landed::{self as rules, Kind, LandedError, Method, Status};
use domain::money::{Cents, gst_of_inclusive};
use domain::permissions::Cost;

/// Refusal to anyone but an approver.
pub const APPROVER_ONLY: &str = "Only an approver (role 4) may allocate, approve or unapprove landed costs.";

/// A new draft allocation as entered; the bills are resolved in the actor's company.
#[derive(Clone, Debug)]
pub struct NewAllocation {
    pub source_id: Unchecked<Sheet>,
    pub source_line_id: Option<i64>,
    pub kind: i32,
    pub method: i32,
    /// `None`: what is left of the cost bill (or line) ex GST.
    pub amount: Option<Cents>,
    pub targets: Vec<Unchecked<Sheet>>,
}

/// An allocation as listed and shown.
#[derive(Clone, Debug)]
pub struct Allocation {
    pub id: i64,
    pub no: String,
    pub source_id: i64,
    pub source_no: String,
    pub source_line_id: Option<i64>,
    pub kind: Kind,
    pub method: Method,
    pub amount: Cents,
    pub status: Status,
    pub created_at: chrono::NaiveDateTime,
    pub approved_at: Option<chrono::NaiveDateTime>,
    pub targets: Vec<(i64, String)>,
    pub version: i32,
}

/// One result line of an approved allocation. Old and new cost are [`Cost`]: shown only
/// through the viewer's `Sight`.
#[derive(Clone, Debug)]
pub struct ResultLine {
    pub order_id: i64,
    pub order_no: String,
    pub product_id: i64,
    pub product_code: String,
    pub qty_received: i64,
    pub qty_in_stock: i64,
    pub share: Cents,
    pub to_stock: Cents,
    pub to_cogs: Cents,
    pub old_cost: Cost,
    pub new_cost: Cost,
}

/// One step of a product's cost history.
#[derive(Clone, Debug)]
pub struct CostStep {
    pub at: chrono::NaiveDateTime,
    pub reason: String,
    pub order: Option<(i64, i32)>,
    pub landed_cost_id: Option<i64>,
    pub user: Option<String>,
    pub old_cost: Cost,
    pub new_cost: Cost,
}

fn refuse(msg: impl Into<String>) -> AppError {
    AppError::bad_request(msg)
}

fn landed_err(e: LandedError) -> AppError {
    refuse(e.to_string())
}

fn is_approved(status: i32) -> bool {
    status == OrderStatus::Approved.as_i32() || status == OrderStatus::Closed.as_i32()
}

/// A bill's state in words for a refusal.
fn bill_state_refusal(o: &order_db::Order, role: &str) -> Option<String> {
    if o.status == OrderStatus::Voided.as_i32() {
        Some(format!("The {role} {} is voided; choose an approved bill.", o.no))
    } else if !is_approved(o.status) {
        Some(format!("The {role} {} is a draft; approve it first.", o.no))
    } else {
        None
    }
}

/// The cost bill's (or line's) amount ex GST, in AUD cents: GST is claimable, so it is never
/// part of a cost. A bill credit note's is negative (a credit).
fn source_amount(conn: &mut DbConn, o: &order_db::Order, line_id: Option<i64>) -> AppResult<Cents> {
    let gross = match line_id {
        None => o.total_amount.checked_sub(o.total_gst).ok_or_else(|| refuse(LandedError::TooLarge.to_string()))?,
        Some(l) => {
            let line = order_db::lines_of(conn, o.id)?.into_iter().find(|x| x.id == l).ok_or_else(|| AppError::field("source_line_id", "This line is not on the cost bill."))?;
            let tax = TaxType::from_i32(o.tax_type).unwrap_or_default();
            line.amount.checked_sub(gst_of_inclusive(Cents(line.amount), tax).0).ok_or_else(|| refuse(LandedError::TooLarge.to_string()))?
        }
    };
    let signed = if o.order_type == OrderType::BillCreditNote.as_i32() { gross.checked_neg().ok_or_else(|| refuse(LandedError::TooLarge.to_string()))? } else { gross };
    Ok(Cents(signed))
}

/// Creates a draft allocation after the checks of [`validate`].
pub fn create(conn: &mut DbConn, actor: &Actor, input: &NewAllocation) -> AppResult<i64> {
    let v = validate(conn, actor, input, None)?;
    let id: i64 = diesel::insert_into(landed_costs::table)
        .values((
            landed_costs::org_id.eq(actor.org_id),
            landed_costs::source_id.eq(v.source_id),
            landed_costs::source_line_id.eq(input.source_line_id),
            landed_costs::kind.eq(v.kind.as_i32()),
            landed_costs::method.eq(v.method.as_i32()),
            landed_costs::amount.eq(v.amount.0),
            landed_costs::status.eq(Status::Draft.as_i32()),
            landed_costs::created_by.eq(Some(actor.user_id)),
            landed_costs::created_at.eq(now()),
            landed_costs::version.eq(1),
        ))
        .returning(landed_costs::id)
        .get_result(conn)?;
    write_targets(conn, id, &v.targets)?;
    Ok(id)
}

/// Edits draft `id` (at `version`, else a conflict) with the same checks as [`create`]; the
/// draft's own amount does not count against what is left of its cost bill.
pub fn update(conn: &mut DbConn, actor: &Actor, id: i64, version: i32, input: &NewAllocation) -> AppResult<()> {
    let (_, _, _, status, _) = load(conn, actor.org_id, id)?;
    if status != Status::Draft.as_i32() {
        return Err(refuse(format!("{} is approved; unapprove it before editing.", rules::number(id))));
    }
    let v = validate(conn, actor, input, Some(id))?;
    let changed = diesel::update(landed_costs::table.filter(landed_costs::org_id.eq(actor.org_id)).filter(landed_costs::id.eq(id)).filter(landed_costs::status.eq(Status::Draft.as_i32())).filter(landed_costs::version.eq(version)))
        .set((
            landed_costs::source_id.eq(v.source_id),
            landed_costs::source_line_id.eq(input.source_line_id),
            landed_costs::kind.eq(v.kind.as_i32()),
            landed_costs::method.eq(v.method.as_i32()),
            landed_costs::amount.eq(v.amount.0),
            landed_costs::version.eq(version + 1),
        ))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: format!("{} changed meanwhile; reload it.", rules::number(id)), code: Some("stale"), reasons: vec![] });
    }
    diesel::delete(landed_cost_targets::table.filter(landed_cost_targets::landed_cost_id.eq(id))).execute(conn)?;
    write_targets(conn, id, &v.targets)
}

fn write_targets(conn: &mut DbConn, id: i64, targets: &[i64]) -> AppResult<()> {
    for o in targets {
        diesel::insert_into(landed_cost_targets::table).values((landed_cost_targets::landed_cost_id.eq(id), landed_cost_targets::order_id.eq(*o))).execute(conn)?;
    }
    Ok(())
}

/// A draft's fields after every check.
struct Valid {
    source_id: i64,
    kind: Kind,
    method: Method,
    amount: Cents,
    targets: Vec<i64>,
}

/// The checks of a draft: an approver; the cost bill and each target of this company and
/// approved (not draft, not voided); the targets bills with stock lines and not the cost bill;
/// the amount within what is left of the cost bill (less the other allocations of it); and a
/// trial of the allocation, so a cost that would go negative is refused now, not only at approval.
fn validate(conn: &mut DbConn, actor: &Actor, input: &NewAllocation, editing: Option<i64>) -> AppResult<Valid> {
    if !actor.role.is_approver() {
        return Err(AppError::forbidden(APPROVER_ONLY));
    }
    let kind = Kind::from_i32(input.kind).ok_or_else(|| AppError::field("kind", domain::validate::NOT_LISTED))?;
    let method = Method::from_i32(input.method).ok_or_else(|| AppError::field("method", domain::validate::NOT_LISTED))?;
    let source_ref = input.source_id.resolve(conn, actor.org_id, "source_id")?;
    let source = order_db::get(conn, actor.org_id, source_ref.id())?;
    if source.order_type != OrderType::Bill.as_i32() && source.order_type != OrderType::BillCreditNote.as_i32() {
        return Err(AppError::field("source_id", format!("{} is not a bill; a landed cost comes from a bill of freight, duty, insurance or brokerage.", source.no)));
    }
    if let Some(m) = bill_state_refusal(&source, "cost bill") {
        return Err(AppError::field("source_id", m));
    }
    if input.targets.is_empty() {
        return Err(AppError::field("targets", "Choose at least one stock bill to allocate to."));
    }
    let mut target_ids = Vec::new();
    for t in &input.targets {
        let r = t.resolve(conn, actor.org_id, "targets")?;
        let o = order_db::get(conn, actor.org_id, r.id())?;
        if o.id == source.id {
            return Err(AppError::field("targets", format!("{} is the cost bill itself; choose the stock bills it belongs to.", o.no)));
        }
        if o.order_type != OrderType::Bill.as_i32() {
            return Err(AppError::field("targets", format!("{} is not a bill.", o.no)));
        }
        if let Some(m) = bill_state_refusal(&o, "bill") {
            return Err(AppError::field("targets", m));
        }
        if stock_lines(conn, actor.org_id, &o)?.is_empty() {
            return Err(AppError::field("targets", format!("{} has no stock lines.", o.no)));
        }
        if !target_ids.contains(&o.id) {
            target_ids.push(o.id);
        }
    }
    let base = source_amount(conn, &source, input.source_line_id)?;
    let taken: i64 = landed_costs::table
        .filter(landed_costs::org_id.eq(actor.org_id))
        .filter(landed_costs::source_id.eq(source.id))
        .filter(landed_costs::id.ne(editing.unwrap_or(0)))
        .select(landed_costs::amount)
        .load::<i64>(conn)?
        .into_iter()
        .try_fold(0i64, i64::checked_add)
        .ok_or_else(|| landed_err(LandedError::TooLarge))?;
    let left = base.0.checked_sub(taken).ok_or_else(|| landed_err(LandedError::TooLarge))?;
    if left == 0 || left.signum() != base.0.signum() {
        return Err(AppError::field("source_id", format!("{} is already fully allocated.", source.no)));
    }
    let amount = input.amount.unwrap_or(Cents(left));
    if amount.0 == 0 || amount.0.signum() != left.signum() || amount.0.unsigned_abs() > left.unsigned_abs() {
        return Err(AppError::field("amount", format!("The amount must be within what is left of {} ex GST: {}.", source.no, Cents(left))));
    }
    // A trial run: refuses now what approval would refuse (no basis, a negative cost).
    compute(conn, actor.org_id, &target_ids, method, amount)?;
    Ok(Valid { source_id: source.id, kind, method, amount, targets: target_ids })
}

/// A target bill's stock lines: physical products received (quantity above zero), in line
/// order, with the line's AUD amount ex GST.
fn stock_lines(conn: &mut DbConn, org: i64, o: &order_db::Order) -> AppResult<Vec<(order_db::Line, Cents)>> {
    let lines = order_db::lines_of(conn, o.id)?;
    let ids: Vec<i64> = lines.iter().filter_map(|l| l.product_id).collect();
    let physical: Vec<i64> = products::table
        .filter(products::org_id.eq(org))
        .filter(products::id.eq_any(&ids))
        .filter(products::category.ne(ProductKind::Virtual.as_i32()))
        .select(products::id)
        .load(conn)?;
    let tax = TaxType::from_i32(o.tax_type).unwrap_or_default();
    Ok(lines
        .into_iter()
        .filter(|l| l.quantity > 0 && l.product_id.is_some_and(|p| physical.contains(&p)))
        .map(|l| {
            let ex = Cents(l.amount.saturating_sub(gst_of_inclusive(Cents(l.amount), tax).0));
            (l, ex)
        })
        .collect())
}

/// A result line before it is written.
struct Computed {
    order_id: i64,
    order_line_id: i64,
    product_id: i64,
    received: i64,
    split: rules::Split,
    share: Cents,
    old_cost: i64,
    new_cost: i64,
}

/// Works the allocation out on the stock as it is now: shares by value or quantity, the
/// to-stock / COGS split per product (its on hand handed to its lines in order) and each
/// product's raised cost.
fn compute(conn: &mut DbConn, org: i64, target_ids: &[i64], method: Method, amount: Cents) -> AppResult<Vec<Computed>> {
    let mut lines = Vec::new();
    for id in target_ids {
        let o = order_db::get(conn, org, *id)?;
        for (l, ex) in stock_lines(conn, org, &o)? {
            lines.push((o.id, l, ex));
        }
    }
    let weights: Vec<i64> = lines.iter().map(|(_, l, ex)| if method == Method::Value { ex.0 } else { l.quantity }).collect();
    let shares = rules::allocate(amount, &weights).map_err(landed_err)?;
    let mut by_product: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for (i, (_, l, _)) in lines.iter().enumerate() {
        by_product.entry(l.product_id.unwrap_or_default()).or_default().push(i);
    }
    let mut out: Vec<Option<Computed>> = (0..lines.len()).map(|_| None).collect();
    for (p, idx) in by_product {
        let on_hand = stock::on_hand_total(conn, org, p)?;
        let (old, code): (i64, String) = products::table.filter(products::org_id.eq(org)).find(p).select((products::cost_price, products::code)).first(conn)?;
        let received: Vec<i64> = idx.iter().map(|i| lines[*i].1.quantity).collect();
        let held = rules::in_stock_of(&received, on_hand);
        let mut to_stock_total = Cents::ZERO;
        let mut splits = Vec::new();
        for (k, i) in idx.iter().enumerate() {
            let s = rules::split(shares[*i], received[k], held[k]).map_err(landed_err)?;
            to_stock_total = to_stock_total.checked_add(s.to_stock).ok_or_else(|| landed_err(LandedError::TooLarge))?;
            splits.push(s);
        }
        let new = rules::raised_cost(Cents(old), to_stock_total, on_hand).map_err(|e| match e {
            LandedError::NegativeCost => refuse(format!("This allocation would make the cost of {code} negative.")),
            e => landed_err(e),
        })?;
        for (k, i) in idx.iter().enumerate() {
            let (order_id, l, _) = &lines[*i];
            out[*i] = Some(Computed { order_id: *order_id, order_line_id: l.id, product_id: p, received: received[k], split: splits[k], share: shares[*i], old_cost: old, new_cost: new.0 });
        }
    }
    Ok(out.into_iter().flatten().collect())
}

fn load(conn: &mut DbConn, org: i64, id: i64) -> AppResult<(i64, i32, i64, i32, i32)> {
    landed_costs::table
        .filter(landed_costs::org_id.eq(org))
        .find(id)
        .select((landed_costs::source_id, landed_costs::method, landed_costs::amount, landed_costs::status, landed_costs::version))
        .first(conn)
        .optional()?
        .ok_or(AppError::NotFound)
}

fn targets_of(conn: &mut DbConn, id: i64) -> AppResult<Vec<i64>> {
    Ok(landed_cost_targets::table.filter(landed_cost_targets::landed_cost_id.eq(id)).order(landed_cost_targets::order_id.asc()).select(landed_cost_targets::order_id).load(conn)?)
}

fn set_status(conn: &mut DbConn, org: i64, id: i64, from: Status, to: Status, version: i32, actor: &Actor) -> AppResult<()> {
    let approved = to == Status::Approved;
    let changed = diesel::update(landed_costs::table.filter(landed_costs::org_id.eq(org)).filter(landed_costs::id.eq(id)).filter(landed_costs::status.eq(from.as_i32())).filter(landed_costs::version.eq(version)))
        .set((
            landed_costs::status.eq(to.as_i32()),
            landed_costs::approved_by.eq(approved.then_some(actor.user_id)),
            landed_costs::approved_at.eq(approved.then(now)),
            landed_costs::version.eq(version + 1),
        ))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: format!("{} changed meanwhile; reload it.", rules::number(id)), code: Some("stale"), reasons: vec![] });
    }
    Ok(())
}

/// One step of a product's cost history as written: what moved it and from what to what.
pub struct CostChange<'a> {
    pub product_id: i64,
    pub old: i64,
    pub new: i64,
    pub reason: &'a str,
    pub order_id: Option<i64>,
    pub landed_cost_id: Option<i64>,
}

/// Writes one step of a product's cost history.
pub fn record_cost_change(conn: &mut DbConn, actor: &Actor, c: &CostChange<'_>) -> AppResult<()> {
    diesel::insert_into(cost_changes::table)
        .values((
            cost_changes::org_id.eq(actor.org_id),
            cost_changes::product_id.eq(c.product_id),
            cost_changes::old_cost.eq(c.old),
            cost_changes::new_cost.eq(c.new),
            cost_changes::reason.eq(c.reason),
            cost_changes::order_id.eq(c.order_id),
            cost_changes::landed_cost_id.eq(c.landed_cost_id),
            cost_changes::user_id.eq(Some(actor.user_id)),
            cost_changes::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

fn events(conn: &mut DbConn, actor: &Actor, source_id: i64, targets: &[i64], text: &str) -> AppResult<()> {
    order_db::add_event(conn, actor.org_id, source_id, Some(actor.user_id), &actor.name, text)?;
    for t in targets {
        order_db::add_event(conn, actor.org_id, *t, Some(actor.user_id), &actor.name, text)?;
    }
    Ok(())
}

/// Approves a draft allocation: works it out on today's stock, raises each product's cost by
/// its to-stock part, keeps the result lines and writes the cost history and the bills'
/// history — all in the caller's transaction.
pub fn approve(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<()> {
    if !actor.role.is_approver() {
        return Err(AppError::forbidden(APPROVER_ONLY));
    }
    let (source_id, method, amount, status, version) = load(conn, actor.org_id, id)?;
    if status != Status::Draft.as_i32() {
        return Err(refuse(format!("{} is already approved.", rules::number(id))));
    }
    let source = order_db::get(conn, actor.org_id, source_id)?;
    if let Some(m) = bill_state_refusal(&source, "cost bill") {
        return Err(refuse(m));
    }
    let targets = targets_of(conn, id)?;
    for t in &targets {
        let o = order_db::get(conn, actor.org_id, *t)?;
        if let Some(m) = bill_state_refusal(&o, "bill") {
            return Err(refuse(m));
        }
    }
    let method = Method::from_i32(method).ok_or(AppError::NotFound)?;
    let computed = compute(conn, actor.org_id, &targets, method, Cents(amount))?;
    set_status(conn, actor.org_id, id, Status::Draft, Status::Approved, version, actor)?;
    let no = rules::number(id);
    let reason = format!("Landed cost {no} allocated");
    let mut done: Vec<i64> = Vec::new();
    for c in &computed {
        diesel::insert_into(landed_cost_lines::table)
            .values((
                landed_cost_lines::landed_cost_id.eq(id),
                landed_cost_lines::order_id.eq(c.order_id),
                landed_cost_lines::order_line_id.eq(c.order_line_id),
                landed_cost_lines::product_id.eq(c.product_id),
                landed_cost_lines::qty_received.eq(c.received),
                landed_cost_lines::qty_in_stock.eq(c.split.in_stock),
                landed_cost_lines::share.eq(c.share.0),
                landed_cost_lines::to_stock.eq(c.split.to_stock.0),
                landed_cost_lines::to_cogs.eq(c.split.to_cogs.0),
                landed_cost_lines::old_cost.eq(c.old_cost),
                landed_cost_lines::new_cost.eq(c.new_cost),
            ))
            .execute(conn)?;
        if !done.contains(&c.product_id) {
            done.push(c.product_id);
            if c.new_cost != c.old_cost {
                diesel::update(products::table.filter(products::org_id.eq(actor.org_id)).find(c.product_id)).set(products::cost_price.eq(c.new_cost)).execute(conn)?;
            }
            record_cost_change(conn, actor, &CostChange { product_id: c.product_id, old: c.old_cost, new: c.new_cost, reason: &reason, order_id: Some(source_id), landed_cost_id: Some(id) })?;
        }
    }
    events(conn, actor, source_id, &targets, &reason)
}

/// Unapproves an allocation: each product's cost goes back by the recorded per-unit delta
/// (exactly the old cost when nothing else moved it since), the result lines are removed
/// (the cost history keeps both steps) and the allocation is a draft again.
pub fn unapprove(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<()> {
    if !actor.role.is_approver() {
        return Err(AppError::forbidden(APPROVER_ONLY));
    }
    let (source_id, _, _, status, version) = load(conn, actor.org_id, id)?;
    if status != Status::Approved.as_i32() {
        return Err(refuse(format!("{} is not approved.", rules::number(id))));
    }
    let lines: Vec<(i64, i64, i64)> = landed_cost_lines::table
        .filter(landed_cost_lines::landed_cost_id.eq(id))
        .order(landed_cost_lines::id.asc())
        .select((landed_cost_lines::product_id, landed_cost_lines::old_cost, landed_cost_lines::new_cost))
        .load(conn)?;
    set_status(conn, actor.org_id, id, Status::Approved, Status::Draft, version, actor)?;
    let no = rules::number(id);
    let reason = format!("Landed cost {no} reversed");
    let mut done: Vec<i64> = Vec::new();
    for (p, old, new) in lines {
        if done.contains(&p) {
            continue;
        }
        done.push(p);
        let (current, code): (i64, String) = products::table.filter(products::org_id.eq(actor.org_id)).find(p).select((products::cost_price, products::code)).first(conn)?;
        let back = rules::reverted_cost(Cents(current), Cents(old), Cents(new)).map_err(|e| match e {
            LandedError::NegativeCost => refuse(format!("Unapproving {no} would make the cost of {code} negative.")),
            e => landed_err(e),
        })?;
        diesel::update(products::table.filter(products::org_id.eq(actor.org_id)).find(p)).set(products::cost_price.eq(back.0)).execute(conn)?;
        record_cost_change(conn, actor, &CostChange { product_id: p, old: current, new: back.0, reason: &reason, order_id: Some(source_id), landed_cost_id: Some(id) })?;
    }
    diesel::delete(landed_cost_lines::table.filter(landed_cost_lines::landed_cost_id.eq(id))).execute(conn)?;
    let targets = targets_of(conn, id)?;
    events(conn, actor, source_id, &targets, &reason)
}

/// Refuses to unapprove bill `order_id` while an approved allocation comes from it or goes
/// to it, naming the allocation (called by the sheet's unapprove).
pub fn refuse_unapprove_if_allocated(conn: &mut DbConn, org: i64, order_id: i64, no: &str) -> AppResult<()> {
    let as_target = landed_cost_targets::table.filter(landed_cost_targets::order_id.eq(order_id)).select(landed_cost_targets::landed_cost_id);
    let found: Option<i64> = landed_costs::table
        .filter(landed_costs::org_id.eq(org))
        .filter(landed_costs::status.eq(Status::Approved.as_i32()))
        .filter(landed_costs::source_id.eq(order_id).or(landed_costs::id.eq_any(as_target)))
        .select(landed_costs::id)
        .order(landed_costs::id.asc())
        .first(conn)
        .optional()?;
    match found {
        Some(lc) => Err(AppError::Conflict { message: format!("{no} cannot be unapproved while landed cost {} is approved; unapprove {} first.", rules::number(lc), rules::number(lc)), code: Some("landed_cost"), reasons: vec![] }),
        None => Ok(()),
    }
}

fn allocations(conn: &mut DbConn, org: i64, ids: Option<Vec<i64>>, limit: i64) -> AppResult<Vec<Allocation>> {
    type Row = (i64, i64, Option<i64>, i32, i32, i64, i32, chrono::NaiveDateTime, Option<chrono::NaiveDateTime>, i32);
    let mut q = landed_costs::table
        .filter(landed_costs::org_id.eq(org))
        .select((
            landed_costs::id,
            landed_costs::source_id,
            landed_costs::source_line_id,
            landed_costs::kind,
            landed_costs::method,
            landed_costs::amount,
            landed_costs::status,
            landed_costs::created_at,
            landed_costs::approved_at,
            landed_costs::version,
        ))
        .order(landed_costs::id.desc())
        .limit(limit)
        .into_boxed();
    if let Some(ids) = ids {
        q = q.filter(landed_costs::id.eq_any(ids));
    }
    let rows: Vec<Row> = q.load(conn)?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, source_id, source_line_id, kind, method, amount, status, created_at, approved_at, version) in rows {
        let source_no: String = orders::table.find(source_id).select(orders::no).first(conn)?;
        let targets: Vec<(i64, String)> = landed_cost_targets::table
            .inner_join(orders::table.on(orders::id.eq(landed_cost_targets::order_id)))
            .filter(landed_cost_targets::landed_cost_id.eq(id))
            .order(orders::id.asc())
            .select((orders::id, orders::no))
            .load(conn)?;
        out.push(Allocation {
            id,
            no: rules::number(id),
            source_id,
            source_no,
            source_line_id,
            kind: Kind::from_i32(kind).unwrap_or(Kind::Other),
            method: Method::from_i32(method).unwrap_or(Method::Value),
            amount: Cents(amount),
            status: Status::from_i32(status).unwrap_or(Status::Draft),
            created_at,
            approved_at,
            targets,
            version,
        });
    }
    Ok(out)
}

/// The company's allocations, newest first (at most 200).
pub fn list(conn: &mut DbConn, org: i64) -> AppResult<Vec<Allocation>> {
    allocations(conn, org, None, 200)
}

/// One allocation of the company and its result lines (empty while a draft).
pub fn get(conn: &mut DbConn, org: i64, id: i64) -> AppResult<(Allocation, Vec<ResultLine>)> {
    let a = allocations(conn, org, Some(vec![id]), 1)?.into_iter().next().ok_or(AppError::NotFound)?;
    type Row = (i64, String, i64, String, i64, i64, i64, i64, i64, i64, i64);
    let rows: Vec<Row> = landed_cost_lines::table
        .inner_join(orders::table.on(orders::id.eq(landed_cost_lines::order_id)))
        .inner_join(products::table.on(products::id.eq(landed_cost_lines::product_id)))
        .filter(landed_cost_lines::landed_cost_id.eq(id))
        .order(landed_cost_lines::id.asc())
        .select((
            orders::id,
            orders::no,
            products::id,
            products::code,
            landed_cost_lines::qty_received,
            landed_cost_lines::qty_in_stock,
            landed_cost_lines::share,
            landed_cost_lines::to_stock,
            landed_cost_lines::to_cogs,
            landed_cost_lines::old_cost,
            landed_cost_lines::new_cost,
        ))
        .load(conn)?;
    let lines = rows
        .into_iter()
        .map(|(order_id, order_no, product_id, product_code, qty_received, qty_in_stock, share, to_stock, to_cogs, old, new)| ResultLine {
            order_id,
            order_no,
            product_id,
            product_code,
            qty_received,
            qty_in_stock,
            share: Cents(share),
            to_stock: Cents(to_stock),
            to_cogs: Cents(to_cogs),
            old_cost: Cost::new(old),
            new_cost: Cost::new(new),
        })
        .collect();
    Ok((a, lines))
}

/// The allocations from or to bill `order_id`, newest first.
pub fn of_bill(conn: &mut DbConn, org: i64, order_id: i64) -> AppResult<Vec<Allocation>> {
    let as_target: Vec<i64> = landed_cost_targets::table.filter(landed_cost_targets::order_id.eq(order_id)).select(landed_cost_targets::landed_cost_id).load(conn)?;
    let mut ids: Vec<i64> = landed_costs::table.filter(landed_costs::org_id.eq(org)).filter(landed_costs::source_id.eq(order_id)).select(landed_costs::id).load(conn)?;
    ids.extend(as_target);
    if ids.is_empty() {
        return Ok(vec![]);
    }
    allocations(conn, org, Some(ids), 200)
}

/// The company's approved stock bills of the last `days` days (newest first): the targets a
/// form offers.
pub fn recent_stock_bills(conn: &mut DbConn, org: i64, since: chrono::NaiveDate) -> AppResult<Vec<(i64, String, chrono::NaiveDate)>> {
    Ok(orders::table
        .filter(orders::org_id.eq(org))
        .filter(orders::order_type.eq(OrderType::Bill.as_i32()))
        .filter(orders::status.eq_any([OrderStatus::Approved.as_i32(), OrderStatus::Closed.as_i32()]))
        .filter(orders::order_date.ge(since))
        .order(orders::id.desc())
        .limit(300)
        .select((orders::id, orders::no, orders::order_date))
        .load(conn)?)
}

/// A product's cost history, newest first (at most 500 steps); `None` when the product is
/// not of this company.
pub fn cost_history(conn: &mut DbConn, org: i64, product_id: i64) -> AppResult<(String, Vec<CostStep>)> {
    let code: String = products::table.filter(products::org_id.eq(org)).find(product_id).select(products::code).first(conn).optional()?.ok_or(AppError::NotFound)?;
    type Row = (chrono::NaiveDateTime, String, Option<i64>, Option<i64>, Option<String>, i64, i64);
    let rows: Vec<Row> = cost_changes::table
        .left_join(users::table.on(users::id.nullable().eq(cost_changes::user_id)))
        .filter(cost_changes::org_id.eq(org))
        .filter(cost_changes::product_id.eq(product_id))
        .order((cost_changes::created_at.desc(), cost_changes::id.desc()))
        .limit(500)
        .select((cost_changes::created_at, cost_changes::reason, cost_changes::order_id, cost_changes::landed_cost_id, users::name.nullable(), cost_changes::old_cost, cost_changes::new_cost))
        .load(conn)?;
    let mut steps = Vec::with_capacity(rows.len());
    for (at, reason, order_id, landed_cost_id, user, old, new) in rows {
        let order = match order_id {
            Some(o) => orders::table.find(o).select((orders::id, orders::order_type)).first(conn).optional()?,
            None => None,
        };
        steps.push(CostStep { at, reason, order, landed_cost_id, user, old_cost: Cost::new(old), new_cost: Cost::new(new) });
    }
    Ok((code, steps))
}

/// A draft's result lines as approving it now would write them (nothing is written); a
/// draft that could not be approved now answers the refusal.
pub fn preview(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Vec<ResultLine>> {
    let (_, method, amount, _, _) = load(conn, org, id)?;
    let targets = targets_of(conn, id)?;
    let method = Method::from_i32(method).ok_or(AppError::NotFound)?;
    let computed = compute(conn, org, &targets, method, Cents(amount))?;
    let mut out = Vec::with_capacity(computed.len());
    for c in computed {
        let order_no: String = orders::table.find(c.order_id).select(orders::no).first(conn)?;
        let product_code: String = products::table.find(c.product_id).select(products::code).first(conn)?;
        out.push(ResultLine {
            order_id: c.order_id,
            order_no,
            product_id: c.product_id,
            product_code,
            qty_received: c.received,
            qty_in_stock: c.split.in_stock,
            share: c.share,
            to_stock: c.split.to_stock,
            to_cogs: c.split.to_cogs,
            old_cost: Cost::new(c.old_cost),
            new_cost: Cost::new(c.new_cost),
        });
    }
    Ok(out)
}
