//! Approving a sheet and the other status changes: the approval guard and its warnings,
//! the stock moves and costs of DESIGN §5, unapprove, void and close.

use super::*;
use domain::dot::LotMove;

/// What the approver chose in the approve view (types 1 and 2, spec §4).
#[derive(Clone, Debug, Default)]
pub struct ApproveInput {
    pub warehouse_id: Option<Unchecked<Warehouse>>,
    pub ship_type: Option<i32>,
    pub driver_id: Option<Unchecked<Driver>>,
    /// Role 4 answered 'Approve now?'.
    pub confirmed: bool,
}

/// Result of a successful approval: the warnings that were confirmed ($0.00 lines, negative stock).
#[derive(Clone, Debug, Default)]
pub struct Approved {
    pub warnings: Vec<String>,
}

fn lines_for_stock(lines: &[order_db::Line]) -> Vec<StockLine> {
    stocked(lines).map(|l| StockLine { product_id: l.product_id.unwrap_or_default(), qty: l.quantity, in_warehouse_qty: l.in_warehouse_qty, in_system_qty: l.in_system_qty }).collect()
}

/// The lines that move stock (those with a product), in order: a stock effect's `line`
/// indexes them.
fn stocked(lines: &[order_db::Line]) -> impl Iterator<Item = &order_db::Line> {
    lines.iter().filter(|l| l.product_id.is_some())
}

/// [`approve`] in its own transaction, then — once it committed — the tax invoice's e-mail
/// when the company asked for it (issue 33, `email::on_approval`, which never fails the
/// approval). The pages and the API approve through it.
pub async fn approve_then_email(core: &crate::Core, actor: &Actor, id: i64, input: ApproveInput) -> AppResult<Approved> {
    let a = actor.clone();
    let approved = core.db.write(move |c| approve(c, &a, id, &input)).await?;
    crate::email::on_approval(core, actor, id).await;
    Ok(approved)
}

/// Approves a draft: the approval guard for invoices, then the status change, the stock
/// moves of DESIGN §5 and the history row — all in the caller's transaction.
pub fn approve(conn: &mut DbConn, actor: &Actor, id: i64, input: &ApproveInput) -> AppResult<Approved> {
    let o = order_db::get(conn, actor.org_id, id)?;
    let state = ensure(&o, Action::Approve)?;
    let t = state.order_type;
    let lines = order_db::lines_of(conn, id)?;
    if lines.iter().all(|l| l.product_id.is_none()) {
        return Err(AppError::bad_request(sheet::NO_LINES));
    }
    let chosen = match t {
        OrderType::Invoice | OrderType::CreditNote => refs::resolve_opt(conn, actor.org_id, input.warehouse_id, "warehouse_id")?.map(Ref::id),
        _ => None,
    };
    let warehouse_id = chosen.or(o.warehouse_id).ok_or_else(|| AppError::field("warehouse_id", "Choose the warehouse the stock leaves from."))?;
    if input.ship_type.is_some_and(|s| ShipType::from_i32(s).is_none()) {
        return Err(AppError::field("ship_type", domain::validate::NOT_LISTED));
    }
    let driver = refs::resolve_opt(conn, actor.org_id, input.driver_id, "driver_id")?;
    let chosen_sheet = Order { warehouse_id: Some(warehouse_id), ..o.clone() };
    // The stock effects, worked out once: the guard's warnings read them, then they are applied.
    let effects = effects_of(conn, &chosen_sheet, &lines, StockTransition::Approve)?;
    let lots = lot_moves(conn, &chosen_sheet, &lines, &effects, StockTransition::Approve)?;
    let warnings = guard(conn, actor, &chosen_sheet, t, &lines, &effects, &lots, input.confirmed)?;
    // Only one approval wins: the status moves from Draft under the row lock.
    let changed = diesel::update(orders::table.filter(orders::id.eq(id)).filter(orders::status.eq(OrderStatus::Draft.as_i32())))
        .set((
            orders::status.eq(OrderStatus::Approved.as_i32()),
            orders::warehouse_id.eq(Some(warehouse_id)),
            orders::ship_type.eq(input.ship_type.unwrap_or(o.ship_type)),
            orders::driver_id.eq(id_of(driver).or(o.driver_id)),
            orders::last_approver_id.eq(Some(actor.user_id)),
            orders::last_approved_at.eq(Some(now())),
            orders::version.eq(orders::version + 1),
            orders::updated_at.eq(now()),
        ))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: format!("Sheet {} was already approved by someone else.", o.no), code: Some("stale"), reasons: vec![] });
    }
    move_stock(conn, actor, &chosen_sheet, &lines, &effects, &lots, StockTransition::Approve)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Approved")?;
    Ok(Approved { warnings })
}

/// The approval guard (invoices, spec §4) and the warnings any approval confirms first: lines
/// at $0.00 and the stock the sheet would take below zero, physical products only. Answers
/// the warnings that were confirmed.
#[allow(clippy::too_many_arguments)]
fn guard(conn: &mut DbConn, actor: &Actor, o: &Order, t: OrderType, lines: &[order_db::Line], effects: &[stock_rules::StockEffect], lots: &[LotMove], confirmed: bool) -> AppResult<Vec<String>> {
    let ids: Vec<i64> = lines.iter().filter_map(|l| l.product_id).collect();
    let facts: Vec<(i64, i64, String, i32)> = products::table
        .filter(products::org_id.eq(o.org_id))
        .filter(products::id.eq_any(&ids))
        .select((products::id, products::class_a_price, products::code, products::category))
        .load(conn)?;
    let fact = |p: i64| facts.iter().find(|f| f.0 == p);
    let guard_lines: Vec<GuardLine> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| Some(GuardLine { line_no: i + 1, price: Cents(l.price), class_a: Cents(fact(l.product_id?)?.1) }))
        .collect();
    let on_hand = stock::on_hand_of(conn, o.org_id, &ids)?;
    let physical = |p: i64| fact(p).is_some_and(|f| f.3 != ProductKind::Virtual.as_i32());
    let short = stock_rules::shortfalls(effects, |w, p| on_hand.get(&(w, p)).copied().unwrap_or(0), physical).map_err(|e| AppError::bad_request(e.to_string()))?;
    // A line pinned to a DOT code takes from that lot alone (issue 36): its shortfall is
    // named by code even when the warehouse holds enough of other codes.
    let pinned_short = pinned_shortfalls(conn, o.org_id, lines, effects, lots)?;
    let shortfalls = if short.is_empty() && pinned_short.is_empty() {
        vec![]
    } else {
        let names: Vec<(i64, String)> = warehouses::table.filter(warehouses::org_id.eq(o.org_id)).select((warehouses::id, warehouses::name)).load(conn)?;
        let warehouse = |w: i64| names.iter().find(|n| n.0 == w).map(|n| n.1.clone()).unwrap_or_default();
        let code = |p: i64| fact(p).map(|f| f.2.clone()).unwrap_or_default();
        short
            .into_iter()
            .map(|(w, p, left)| guard::Shortfall { code: code(p), warehouse: warehouse(w), left })
            .chain(pinned_short.into_iter().map(|(w, p, dot, left)| guard::Shortfall { code: format!("{} DOT {}", code(p), domain::dot::label(dot)), warehouse: warehouse(w), left }))
            .collect()
    };
    let warnings = guard::warnings(t, &guard_lines, &shortfalls);
    let (limit, balance, payment, accepts_old) = match o.customer_id {
        Some(c) if t == OrderType::Invoice => customers::table
            .filter(customers::org_id.eq(o.org_id))
            .find(c)
            .select((customers::credit_limit, customers::xero_balance, customers::payment_type, customers::accepts_old_tyres))
            .first::<(i64, i64, i32, bool)>(conn)?,
        _ => (0, 0, 0, true),
    };
    // The company's overdue rule (issue 31): the customer's longest-overdue sent invoice.
    // And its old-tyre rule (issue 36): the codes the invoice takes, against the customer's consent.
    let (overdue_guard_days, days_overdue, old_tyres) = match o.customer_id {
        Some(c) if t == OrderType::Invoice => {
            let company = db::accounts::organisation(conn, o.org_id)?;
            let today = domain::dates::today(domain::dates::zone_of(&company.time_zone));
            let days_overdue = match company.overdue_guard_days {
                Some(_) => domain::payments::days_overdue(&db::orders::owed_by(conn, o.org_id, c)?, today),
                None => 0,
            };
            let taken: Vec<(String, domain::dot::Dot)> = lots
                .iter()
                .filter(|m| m.qty < 0)
                .filter_map(|m| Some((fact(effects[m.effect].product_id).map(|f| f.2.clone()).unwrap_or_default(), domain::dot::Dot::from_stored(m.dot)?)))
                .collect();
            (company.overdue_guard_days, days_overdue, guard::old_tyre_reason(company.old_tyre_years, accepts_old, &taken, today))
        }
        _ => (None, 0, None),
    };
    let input = GuardInput {
        order_type: t,
        lines: &guard_lines,
        credit_limit: Cents(limit),
        balance: Cents(balance),
        is_cbd: PaymentType::from_i32(payment).is_some_and(PaymentType::is_cbd),
        role: actor.role,
        is_acct: actor.is_acct,
        confirmed,
        warnings: &warnings,
        overdue_guard_days,
        days_overdue,
        old_tyres: old_tyres.as_deref(),
    };
    match guard::approval_guard(&input) {
        GuardOutcome::Proceed => Ok(warnings),
        GuardOutcome::Refused(message) => Err(AppError::Conflict { message, code: Some("approval_refused"), reasons: guard::invoice_reasons(&input) }),
        GuardOutcome::NeedsConfirmation { reasons, message } => Err(AppError::Conflict { message, code: Some("confirm_approve"), reasons }),
    }
}

/// The stock effects of `transition` on sheet `o` with `lines` (DESIGN §5).
fn effects_of(conn: &mut DbConn, o: &Order, lines: &[order_db::Line], transition: StockTransition) -> AppResult<Vec<stock_rules::StockEffect>> {
    let t = OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?;
    let warehouse_id = o.warehouse_id.ok_or_else(|| AppError::field("warehouse_id", domain::validate::REQUIRED))?;
    let related_po_warehouse_id = match o.related_order_id {
        Some(po) => orders::table.filter(orders::org_id.eq(o.org_id)).find(po).select(orders::warehouse_id).first::<Option<i64>>(conn).optional()?.flatten(),
        None => None,
    };
    let stock_lines = lines_for_stock(lines);
    let sheet = StockSheet { order_type: t, warehouse_id, in_warehouse_id: o.in_warehouse_id, related_po_warehouse_id, lines: &stock_lines };
    stock_rules::stock_effects(&sheet, transition).map_err(|e| AppError::bad_request(e.to_string()))
}

/// Applies `effects` (of [`effects_of`] for `transition`): the stock rows, the ledger, a
/// bill's moving average cost and, on approval, the sales lines' costs.
#[allow(clippy::too_many_arguments)]
fn move_stock(conn: &mut DbConn, actor: &Actor, o: &Order, lines: &[order_db::Line], effects: &[stock_rules::StockEffect], lots: &[LotMove], transition: StockTransition) -> AppResult<()> {
    let t = OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?;
    let approving = transition == StockTransition::Approve;
    // Bills move the average cost before their stock arrives (DESIGN §5: cost on bill approval).
    if approving && t == OrderType::Bill {
        // In product order, like the stock rows, so two bills lock products in one order.
        let mut by_product: Vec<&order_db::Line> = lines.iter().collect();
        by_product.sort_by_key(|l| l.product_id);
        for l in by_product {
            let Some(p) = l.product_id else { continue };
            let old_qty = stock::on_hand_total(conn, o.org_id, p)?;
            let old_cost: i64 = products::table.find(p).select(products::cost_price).first(conn)?;
            let cost = moving_average_cost(old_qty, Cents(old_cost), l.quantity, Cents(l.price));
            diesel::update(products::table.find(p)).set(products::cost_price.eq(cost.0)).execute(conn)?;
            // The product's cost history (issue 35): each step the bill moved the cost.
            if cost.0 != old_cost {
                let reason = format!("Bill {} approved", o.no);
                crate::landed::record_cost_change(conn, actor, &crate::landed::CostChange { product_id: p, old: old_cost, new: cost.0, reason: &reason, order_id: Some(o.id), landed_cost_id: None })?;
            }
        }
    }
    // One read of the costs (after a bill moved them), one upsert of the stock rows, one
    // insert of the ledger: a 20-line sheet is a handful of round trips, not a hundred.
    let product_ids: Vec<i64> = {
        let mut ids: Vec<i64> = effects.iter().map(|e| e.product_id).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let products = product_db::codes_and_costs(conn, o.org_id, &product_ids)?;
    let eta = if t == OrderType::PurchaseOrder { o.delivery_date } else { None };
    let deltas: Vec<stock::Delta> =
        effects.iter().map(|e| stock::Delta { warehouse_id: e.warehouse_id, product_id: e.product_id, on_hand: e.on_hand_delta, in_transit: e.in_transit_delta, eta }).collect();
    stock::apply_all(conn, o.org_id, &deltas)?;
    // The lots of tyres tracked by DOT (issue 36), in the same order as the stock rows.
    let lot_deltas: Vec<db::lots::LotDelta> = lots
        .iter()
        .map(|m| db::lots::LotDelta { warehouse_id: effects[m.effect].warehouse_id, product_id: effects[m.effect].product_id, dot: m.dot, qty: m.qty })
        .collect();
    db::lots::apply_all(conn, o.org_id, &lot_deltas)?;
    let t_now = now();
    let reason = format!("{} {}", if approving { "Approved" } else { "Unapproved" }, o.no);
    // The ledger: one row per effect, or per lot of an effect on a tracked tyre (the
    // in-transit change on the first of them), so the lots' history adds up like the stock's.
    let mut moves: Vec<NewStockMove> = Vec::with_capacity(effects.len() + lots.len());
    for (i, e) in effects.iter().enumerate() {
        let row = |qty_delta: i64, in_transit_delta: i64, dot: Option<i32>| NewStockMove {
            org_id: o.org_id,
            warehouse_id: e.warehouse_id,
            product_id: e.product_id,
            order_id: Some(o.id),
            qty_delta,
            in_transit_delta,
            unit_cost: products.get(&e.product_id).map_or(0, |p| p.1),
            reason: reason.clone(),
            user_id: Some(actor.user_id),
            created_at: t_now,
            dot,
        };
        let mut of_effect = lots.iter().filter(|m| m.effect == i).peekable();
        if of_effect.peek().is_none() {
            moves.push(row(e.on_hand_delta, e.in_transit_delta, None));
        }
        for (k, m) in of_effect.enumerate() {
            moves.push(row(m.qty, if k == 0 { e.in_transit_delta } else { 0 }, Some(m.dot)));
        }
    }
    stock::record(conn, &moves)?;
    // What each line took from or put into its lots, for unapprove, credit notes and the documents.
    if approving {
        let line_ids: Vec<i64> = stocked(lines).map(|l| l.id).collect();
        let rows: Vec<db::lots::LineLot> = lots
            .iter()
            .map(|m| {
                let e = &effects[m.effect];
                db::lots::LineLot { org_id: o.org_id, order_id: o.id, line_id: line_ids[e.line], warehouse_id: e.warehouse_id, product_id: e.product_id, dot: m.dot, qty: m.qty }
            })
            .collect();
        db::lots::record_lines(conn, &rows)?;
    } else {
        db::lots::forget_order(conn, o.org_id, o.id)?;
    }
    if approving {
        // Sales lines keep the cost at approval so margins stay stable (DESIGN §5).
        order_db::keep_line_costs(conn, o.org_id, o.id)?;
    }
    Ok(())
}

/// The lot changes of `transition` on a sheet with `effects` (issue 36): for tyres tracked by
/// DOT, approval takes the oldest first or the code a line names, a transfer moves the codes
/// it took, a credit note returns to the codes its invoice sold; unapprove undoes exactly
/// what the approval recorded. Two statements at most for a sheet without tyres.
fn lot_moves(conn: &mut DbConn, o: &Order, lines: &[order_db::Line], effects: &[stock_rules::StockEffect], transition: StockTransition) -> AppResult<Vec<LotMove>> {
    let mut ids: Vec<i64> = effects.iter().map(|e| e.product_id).collect();
    ids.sort_unstable();
    ids.dedup();
    // The sheet's stock rows are locked before anything about lots is read, in the order the
    // upsert takes them: a product whose tracking is switched meanwhile (which locks its stock
    // rows first too) is seen either before or after the switch, never half-way, and two sales
    // of a tyre read its lots one after the other. Every approval takes these locks before a
    // bill's cost update or its own status, so none waits on another in a circle.
    let mut warehouses: Vec<i64> = effects.iter().map(|e| e.warehouse_id).collect();
    warehouses.sort_unstable();
    warehouses.dedup();
    db::lots::lock_stock(conn, o.org_id, &warehouses, &ids)?;
    let tracked = db::lots::tracked(conn, o.org_id, &ids)?;
    if tracked.is_empty() {
        return Ok(vec![]);
    }
    let stocked: Vec<&order_db::Line> = stocked(lines).collect();
    if transition == StockTransition::UnApprove {
        let recorded = db::lots::of_orders(conn, o.org_id, &[o.id])?;
        let mut moves = Vec::new();
        for (i, e) in effects.iter().enumerate() {
            if e.on_hand_delta == 0 || !tracked.contains(&e.product_id) {
                continue;
            }
            let line_id = stocked[e.line].id;
            let mine: Vec<(i32, i64)> = recorded.iter().filter(|r| r.line_id == line_id && r.warehouse_id == e.warehouse_id && r.product_id == e.product_id).map(|r| (r.dot, r.qty)).collect();
            moves.extend(domain::dot::reverse(&mine, e.on_hand_delta).into_iter().map(|(dot, qty)| LotMove { effect: i, dot, qty }));
        }
        return Ok(moves);
    }
    let t = OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?;
    let lot_lines: Vec<domain::dot::LotLine> = stocked
        .iter()
        .map(|l| domain::dot::LotLine { tracked: l.product_id.is_some_and(|p| tracked.contains(&p)), dot: l.dot, counts_lot: t == OrderType::Adjustment })
        .collect();
    let held: Vec<i64> = tracked.iter().copied().collect();
    let mut book = db::lots::book(conn, o.org_id, &held)?;
    // A credit note of an invoice returns to the codes the invoice sold, less earlier returns.
    let (sold, returned) = match o.related_order_id {
        Some(invoice) if t == OrderType::CreditNote => {
            let others: Vec<i64> = orders::table
                .filter(orders::org_id.eq(o.org_id))
                .filter(orders::related_order_id.eq(invoice))
                .filter(orders::order_type.eq(OrderType::CreditNote.as_i32()))
                .filter(orders::id.ne(o.id))
                .select(orders::id)
                .load(conn)?;
            let mut of = others.clone();
            of.push(invoice);
            let rows = db::lots::of_orders(conn, o.org_id, &of)?;
            let (sold, returned): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| r.order_id == invoice);
            (sold, returned)
        }
        _ => (vec![], vec![]),
    };
    let credit = o.related_order_id.is_some() && t == OrderType::CreditNote;
    let of_product = |rows: &[db::lots::LineLot], p: i64, sign: i64| -> Vec<(i32, i64)> { rows.iter().filter(|r| r.product_id == p && r.qty * sign > 0).map(|r| (r.dot, r.qty * sign)).collect() };
    domain::dot::plan_approval(effects, &lot_lines, &mut book, |line| {
        let p = stocked.get(line)?.product_id?;
        credit.then(|| (of_product(&sold, p, -1), of_product(&returned, p, 1)))
    })
    .map_err(|e| AppError::bad_request(e.to_string()))
}

/// Where lines pinned to a DOT code would take their lot below zero: (warehouse, product,
/// code, left), from the lots as they are now and the sheet's planned lot changes.
fn pinned_shortfalls(conn: &mut DbConn, org: i64, lines: &[order_db::Line], effects: &[stock_rules::StockEffect], lots: &[LotMove]) -> AppResult<Vec<(i64, i64, i32, i64)>> {
    let stocked: Vec<&order_db::Line> = stocked(lines).collect();
    let pinned: Vec<&LotMove> = lots.iter().filter(|m| m.qty < 0 && stocked[effects[m.effect].line].dot == Some(m.dot)).collect();
    if pinned.is_empty() {
        return Ok(vec![]);
    }
    let mut ids: Vec<i64> = pinned.iter().map(|m| effects[m.effect].product_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let now_held = db::lots::book(conn, org, &ids)?;
    let mut change: std::collections::BTreeMap<(i64, i64, i32), i64> = std::collections::BTreeMap::new();
    for m in lots {
        let e = &effects[m.effect];
        *change.entry((e.warehouse_id, e.product_id, m.dot)).or_default() += m.qty;
    }
    let mut short = Vec::new();
    for m in pinned {
        let e = &effects[m.effect];
        let key = (e.warehouse_id, e.product_id, m.dot);
        let held = now_held.get(&(e.warehouse_id, e.product_id)).and_then(|l| l.iter().find(|l| l.dot == m.dot)).map_or(0, |l| l.on_hand);
        let left = held + change.get(&key).copied().unwrap_or(0);
        if left < 0 && !short.iter().any(|s: &(i64, i64, i32, i64)| (s.0, s.1, s.2) == key) {
            short.push((key.0, key.1, key.2, left));
        }
    }
    Ok(short)
}

/// Returns an approved sheet to Draft and reverses its stock moves exactly.
pub fn unapprove(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::UnApprove)?;
    // A bill whose landed cost is approved stays approved until the allocation is unapproved (issue 35).
    crate::landed::refuse_unapprove_if_allocated(conn, actor.org_id, id, &o.no)?;
    let changed = diesel::update(orders::table.filter(orders::id.eq(id)).filter(orders::status.eq(OrderStatus::Approved.as_i32())).filter(orders::closed.eq(false)))
        .set((orders::status.eq(OrderStatus::Draft.as_i32()), orders::version.eq(orders::version + 1), orders::updated_at.eq(now())))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: format!("Sheet {} changed meanwhile; reload it.", o.no), code: Some("stale"), reasons: vec![] });
    }
    let lines = order_db::lines_of(conn, id)?;
    let effects = effects_of(conn, &o, &lines, StockTransition::UnApprove)?;
    let lots = lot_moves(conn, &o, &lines, &effects, StockTransition::UnApprove)?;
    move_stock(conn, actor, &o, &lines, &effects, &lots, StockTransition::UnApprove)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "UnApproved")
}

/// A status change with no stock effect: the action it takes, the status it moves from and
/// to, the closed flag it leaves, and the event it logs.
struct Transition {
    action: Action,
    from: OrderStatus,
    to: OrderStatus,
    closed: bool,
    event: &'static str,
}

const VOID: Transition = Transition { action: Action::Void, from: OrderStatus::Draft, to: OrderStatus::Voided, closed: false, event: "Voided" };
const CLOSE: Transition = Transition { action: Action::Close, from: OrderStatus::Approved, to: OrderStatus::Closed, closed: true, event: "Closed" };

fn simple_transition(conn: &mut DbConn, actor: &Actor, id: i64, t: &Transition) -> AppResult<Order> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, t.action)?;
    let changed = diesel::update(orders::table.filter(orders::id.eq(id)).filter(orders::status.eq(t.from.as_i32())))
        .set((orders::status.eq(t.to.as_i32()), orders::closed.eq(t.closed), orders::version.eq(orders::version + 1), orders::updated_at.eq(now())))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: format!("Sheet {} changed meanwhile; reload it.", o.no), code: Some("stale"), reasons: vec![] });
    }
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, t.event)?;
    Ok(o)
}

/// Voids a draft, irreversibly (no stock effect).
pub fn void(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<()> {
    simple_transition(conn, actor, id, &VOID).map(|_| ())
}

/// Closes an approved sheet; a purchase order's remaining in-transit stock is cleared.
pub fn close(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<()> {
    let o = simple_transition(conn, actor, id, &CLOSE)?;
    if o.order_type == OrderType::PurchaseOrder.as_i32() {
        clear_po_transit(conn, actor, &o)?;
    }
    Ok(())
}

/// Removes what a closed purchase order still has in transit: its quantities less what
/// approved bills against it received.
fn clear_po_transit(conn: &mut DbConn, actor: &Actor, po: &Order) -> AppResult<()> {
    let Some(wh) = po.warehouse_id else { return Ok(()) };
    let po_lines = order_db::lines_of(conn, po.id)?;
    let bill_ids: Vec<i64> = orders::table
        .filter(orders::related_order_id.eq(po.id))
        .filter(orders::order_type.eq(OrderType::Bill.as_i32()))
        .filter(orders::status.eq_any([OrderStatus::Approved.as_i32(), OrderStatus::Closed.as_i32()]))
        .select(orders::id)
        .load(conn)?;
    let received: Vec<(Option<i64>, i64)> = order_lines::table.filter(order_lines::order_id.eq_any(&bill_ids)).select((order_lines::product_id, order_lines::quantity)).load(conn)?;
    let mut moves = Vec::new();
    for l in &po_lines {
        let Some(p) = l.product_id else { continue };
        let got: i64 = received.iter().filter(|(rp, _)| *rp == Some(p)).map(|(_, q)| q).sum();
        let ordered: i64 = po_lines.iter().filter(|x| x.product_id == Some(p)).map(|x| x.quantity).sum();
        let first = po_lines.iter().position(|x| x.product_id == Some(p)) == po_lines.iter().position(|x| x.id == l.id);
        let remaining = (ordered - got).max(0);
        if first && remaining > 0 {
            stock::apply(conn, po.org_id, wh, p, 0, -remaining, None)?;
            moves.push(NewStockMove {
                org_id: po.org_id,
                warehouse_id: wh,
                product_id: p,
                order_id: Some(po.id),
                qty_delta: 0,
                in_transit_delta: -remaining,
                unit_cost: 0,
                reason: format!("Closed {}", po.no),
                user_id: Some(actor.user_id),
                created_at: now(),
                dot: None,
            });
        }
    }
    stock::record(conn, &moves)
}
