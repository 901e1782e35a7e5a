//! Sheet use cases: save, approve (guard, stock, cost), unapprove, void, close, print mark,
//! date/address/driver edits. Each runs inside the caller's transaction (`Db::write`) and
//! writes its history row there too.

use chrono::NaiveDate;
use diesel::prelude::*;

use db::masters::NewStockMove;
use db::orders::{self as order_db, NewLine, NewOrder, Order};
use db::refs::{self, BusinessStaff, Customer, Driver, Ref, ServiceStaff, Sheet, Supplier, Unchecked, Warehouse};
use db::schema::{customers, order_lines, orders, products, warehouses};
use db::{DbConn, now, products as product_db, stock};
use domain::due_date::{due_date, due_date_for_new_sheet, payment_term};
use domain::enums::{DrafterType, OrderStatus, OrderType, PaymentType, ProductKind, ShipType, TaxType, XeroState, format_number};
use domain::guard::{self, GuardInput, GuardLine, GuardOutcome};
use domain::Actor;
use domain::limits;
use domain::money::Cents;
use domain::permissions::Cost;
use domain::sheet::{self, LineDraft, SheetDraft, ValidLine};
use domain::status::{Action, SheetState, allowed};
use domain::stock::{self as stock_rules, StockLine, StockSheet, StockTransition, moving_average_cost};
use db::error::{AppError, AppResult};

/// Header fields of a sheet as entered; the references are resolved in the actor's company
/// before anything is written.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub tag_id: i32,
    pub customer_id: Option<Unchecked<Customer>>,
    pub supplier_id: Option<Unchecked<Supplier>>,
    pub date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
    pub address: String,
    pub phone: String,
    pub reference: String,
    pub comments: String,
    pub csr_self_note: String,
    pub csr_service_id: Option<Unchecked<ServiceStaff>>,
    pub csr_bd_id: Option<Unchecked<BusinessStaff>>,
    pub warehouse_id: Option<Unchecked<Warehouse>>,
    pub in_warehouse_id: Option<Unchecked<Warehouse>>,
    pub related_order_id: Option<Unchecked<Sheet>>,
    pub tax_type: i32,
    pub ship_type: Option<i32>,
}

/// The header's references, each proved to be of the actor's company.
#[derive(Clone, Copy, Debug, Default)]
struct Refs {
    customer: Option<Ref<Customer>>,
    supplier: Option<Ref<Supplier>>,
    service_staff: Option<Ref<ServiceStaff>>,
    business_staff: Option<Ref<BusinessStaff>>,
    warehouse: Option<Ref<Warehouse>>,
    in_warehouse: Option<Ref<Warehouse>>,
    related_order: Option<Ref<Sheet>>,
}

/// Looks every reference up in company `org`; an id that names nothing there is a field
/// message, exactly as for an id that does not exist anywhere.
fn resolve_refs(conn: &mut DbConn, org: i64, h: &Header, errors: &mut sheet::FieldErrors) -> AppResult<Refs> {
    fn one<K: refs::Kind>(conn: &mut DbConn, org: i64, id: Option<Unchecked<K>>, field: &str, errors: &mut sheet::FieldErrors) -> AppResult<Option<Ref<K>>> {
        let Some(id) = id else { return Ok(None) };
        let found = id.lookup(conn, org)?;
        if found.is_none() {
            errors.insert(field.into(), K::NOT_FOUND.into());
        }
        Ok(found)
    }
    Ok(Refs {
        customer: one(conn, org, h.customer_id, "customer_id", errors)?,
        supplier: one(conn, org, h.supplier_id, "supplier_id", errors)?,
        service_staff: one(conn, org, h.csr_service_id, "csr_service_id", errors)?,
        business_staff: one(conn, org, h.csr_bd_id, "csr_bd_id", errors)?,
        warehouse: one(conn, org, h.warehouse_id, "warehouse_id", errors)?,
        in_warehouse: one(conn, org, h.in_warehouse_id, "in_warehouse_id", errors)?,
        related_order: one(conn, org, h.related_order_id, "related_order_id", errors)?,
    })
}

fn id_of<K>(r: Option<Ref<K>>) -> Option<i64> {
    r.map(Ref::id)
}

/// The message shown when a sheet changed since it was opened.
pub const STALE: &str = "This sheet was changed by someone else since you opened it. Reload to see the latest version.";

fn invalid(errors: sheet::FieldErrors) -> AppError {
    let message = errors.values().next().cloned().unwrap_or_else(|| "Please check the form.".into());
    AppError::Validation { message, errors }
}

fn state_of(o: &Order) -> AppResult<SheetState> {
    Ok(SheetState {
        order_type: OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?,
        status: OrderStatus::from_i32(o.status).ok_or(AppError::NotFound)?,
        closed: o.closed,
        xero: XeroState::from_i32(o.xero_sent).unwrap_or_default(),
    })
}

/// Refuses an action the status machine does not offer (spec §4).
pub fn ensure(o: &Order, action: Action) -> AppResult<SheetState> {
    let s = state_of(o)?;
    if allowed(action, &s) {
        Ok(s)
    } else {
        Err(AppError::Conflict { message: format!("{} is not possible for sheet {} in its current state.", action.label(), o.no), code: Some("not_allowed"), reasons: vec![] })
    }
}

struct CustomerInfo {
    payment_type: i32,
    area_type: i32,
    price_type: i32,
    credit_limit: i64,
    balance: i64,
    address: String,
    phone: String,
}

/// The due date of customer `customer`'s payment terms counted from `from` (spec §9,
/// DESIGN §5); 404 for another company's customer.
pub fn customer_due_date(conn: &mut DbConn, org: i64, customer: i64, from: NaiveDate) -> AppResult<NaiveDate> {
    let c = db::order_views::sheet_customer(conn, org, customer)?.ok_or(AppError::NotFound)?;
    limits::check_date(from).map_err(|m| AppError::field("date", m))?;
    Ok(due_date(payment_term(c.payment_type), from, org))
}

fn customer_info(conn: &mut DbConn, org: i64, customer: Ref<Customer>) -> AppResult<CustomerInfo> {
    let (payment_type, area_type, price_type, credit_limit, balance, address, city, state, postal, phone): (i32, i32, i32, i64, i64, String, String, String, String, String) = customers::table
        .filter(customers::org_id.eq(org))
        .find(customer.id())
        .select((
            customers::payment_type,
            customers::area_type,
            customers::price_strategy,
            customers::credit_limit,
            customers::xero_balance,
            customers::address,
            customers::city,
            customers::state,
            customers::postal,
            customers::phone,
        ))
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::field("customer_id", "This customer does not exist in this company."))?;
    let address = domain::masters::one_line_address(&address, &city, &state, &postal);
    Ok(CustomerInfo { payment_type, area_type, price_type, credit_limit, balance, address, phone })
}

/// A line's product as a save needs it: id, name, unit and moving-average cost.
type LineProduct = (i64, String, String, Cost);

/// Name, unit and cost of each line's product, which must be of the company; an
/// adjustment's lines are valued at that cost (`sheet::value_at_cost`).
fn check_products(conn: &mut DbConn, org: i64, t: OrderType, lines: &mut [ValidLine]) -> AppResult<Vec<LineProduct>> {
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let mut found: Vec<LineProduct> = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(db::CHUNK) {
        let rows: Vec<(i64, String, String, i64)> = products::table
            .filter(products::org_id.eq(org))
            .filter(products::id.eq_any(chunk))
            .select((products::id, products::name, products::unit, products::cost_price))
            .load(conn)?;
        found.extend(rows.into_iter().map(|(id, name, unit, cost)| (id, name, unit, Cost::new(cost))));
    }
    if let Some(missing) = ids.iter().position(|id| !found.iter().any(|f| f.0 == *id)) {
        return Err(AppError::field(&format!("lines.{missing}.product"), "This product does not exist in this company."));
    }
    if t == OrderType::Adjustment {
        let cost_of = |id: i64| found.iter().find(|f| f.0 == id).map_or(Cents::ZERO, |f| f.3.for_books());
        sheet::value_at_cost(lines, cost_of).map_err(|m| AppError::field("lines", m))?;
    }
    Ok(found)
}

/// Everything a save checks before it writes: the header's ranges, its references in the
/// actor's company, the kind's required fields and the lines.
fn validate(conn: &mut DbConn, org: i64, t: OrderType, h: &Header, lines: &[LineDraft]) -> AppResult<(Refs, Vec<ValidLine>)> {
    let header = sheet::HeaderDraft {
        tag_id: h.tag_id,
        tax_type: h.tax_type,
        ship_type: h.ship_type,
        date: h.date,
        due_date: h.due_date,
        delivery_date: h.delivery_date,
        address: &h.address,
        phone: &h.phone,
        reference: &h.reference,
        comments: &h.comments,
        csr_self_note: &h.csr_self_note,
    };
    let mut ref_errors = sheet::FieldErrors::new();
    let r = resolve_refs(conn, org, h, &mut ref_errors)?;
    let d = SheetDraft {
        order_type: Some(t),
        customer_id: id_of(r.customer),
        supplier_id: id_of(r.supplier),
        warehouse_id: id_of(r.warehouse),
        in_warehouse_id: id_of(r.in_warehouse),
        tax_type: h.tax_type,
        lines: lines.to_vec(),
    };
    let mut errors = sheet::check_header(t, &header);
    let valid = match sheet::validate(&d) {
        Ok(v) => Some(v),
        Err(e) => {
            errors.extend(e);
            None
        }
    };
    if h.date.is_none() {
        errors.insert("date".into(), domain::validate::REQUIRED.into());
    }
    // Last, so a reference that was sent but is not the company's says so rather than
    // 'Please enter'.
    errors.extend(ref_errors);
    match valid {
        Some(v) if errors.is_empty() => Ok((r, v)),
        _ => Err(invalid(errors)),
    }
}

fn write_lines(conn: &mut DbConn, org: i64, order_id: i64, lines: &[ValidLine], names: &[LineProduct]) -> AppResult<()> {
    diesel::delete(order_lines::table.filter(order_lines::order_id.eq(order_id))).execute(conn)?;
    let rows: Vec<NewLine> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (name, unit) = names.iter().find(|n| n.0 == l.product_id).map(|n| (n.1.clone(), n.2.clone())).unwrap_or_default();
            NewLine {
                id: 0,
                org_id: org,
                order_id,
                seq: i as i32 + 1,
                product_id: Some(l.product_id),
                description: if l.description.is_empty() { name } else { l.description.clone() },
                unit,
                quantity: l.quantity,
                in_warehouse_qty: l.in_warehouse_qty,
                in_system_qty: l.in_system_qty,
                price: l.price.0,
                amount: l.amount.0,
                tax_type: l.tax_type,
                cost_price: 0,
            }
        })
        .collect();
    order_db::add_lines(conn, &rows)?;
    Ok(())
}

/// Who drafts a sheet: a staff member, or a customer ordering in the shop (drafterType 3).
#[derive(Clone, Copy, Debug)]
pub struct Drafter<'a> {
    pub org_id: i64,
    /// The staff member; `None` for a customer.
    pub user_id: Option<i64>,
    /// The name the sheet's history shows.
    pub name: &'a str,
    pub kind: DrafterType,
}

impl<'a> From<&'a Actor> for Drafter<'a> {
    /// A staff member as the drafter of a new sheet (`Actor::drafter_type`).
    fn from(actor: &'a Actor) -> Self {
        Drafter { org_id: actor.org_id, user_id: Some(actor.user_id), name: &actor.name, kind: actor.drafter_type() }
    }
}

/// Creates a draft sheet with its number (DESIGN §4); returns its id.
pub fn create(conn: &mut DbConn, actor: &Actor, t: OrderType, h: &Header, lines: &[LineDraft]) -> AppResult<i64> {
    create_by(conn, &Drafter::from(actor), t, h, lines)
}

/// Creates a draft sheet for `drafter` (staff or a shop customer); returns its id. Without a
/// due date, a staff invoice or credit note takes its customer's terms (`due_date_for_new_sheet`).
pub fn create_by(conn: &mut DbConn, drafter: &Drafter<'_>, t: OrderType, h: &Header, lines: &[LineDraft]) -> AppResult<i64> {
    let actor = drafter;
    let (r, mut valid) = validate(conn, actor.org_id, t, h, lines)?;
    let names = check_products(conn, actor.org_id, t, &mut valid)?;
    let totals = sheet::totals(&valid, t, h.tax_type).map_err(invalid)?;
    let cust = match r.customer {
        Some(c) => Some(customer_info(conn, actor.org_id, c)?),
        None => None,
    };
    let order_date = h.date.unwrap_or_default();
    let due = due_date_for_new_sheet(t, actor.kind, h.due_date, cust.as_ref().map(|c| payment_term(c.payment_type)), order_date, actor.org_id);
    let seq = order_db::next_seq(conn, actor.org_id, t.as_i32())?;
    let t_now = now();
    let drafter_type = actor.kind;
    let ship_type = h.ship_type.unwrap_or(ShipType::default_for(t, None).as_i32());
    let new = NewOrder {
        id: 0,
        org_id: actor.org_id,
        no: format_number(t.number_prefix(), seq),
        order_type: t.as_i32(),
        uuid: db::token::random_token()[..32].to_string(),
        tag_id: h.tag_id,
        customer_id: id_of(r.customer),
        supplier_id: id_of(r.supplier),
        order_date,
        due_date: due,
        delivery_date: h.delivery_date,
        address: if h.address.trim().is_empty() { cust.as_ref().map(|c| c.address.clone()).unwrap_or_default() } else { h.address.trim().to_string() },
        phone: if h.phone.trim().is_empty() { cust.as_ref().map(|c| c.phone.clone()).unwrap_or_default() } else { h.phone.trim().to_string() },
        csr_service_id: id_of(r.service_staff),
        csr_bd_id: id_of(r.business_staff),
        driver_id: None,
        delivery_status: 0,
        actual_pay_type: 0,
        csr_credit_limit: cust.as_ref().map(|c| c.credit_limit).unwrap_or(0),
        csr_xero_balance: cust.as_ref().map(|c| c.balance).unwrap_or(0),
        reference: h.reference.trim().to_string(),
        comments: h.comments.trim().to_string(),
        warehouse_id: id_of(r.warehouse),
        in_warehouse_id: id_of(r.in_warehouse),
        related_order_id: id_of(r.related_order),
        tax_type: if t.has_tax() { h.tax_type } else { TaxType::default_for(t).as_i32() },
        ship_type,
        payment_type: cust.as_ref().map(|c| c.payment_type),
        area_type: cust.as_ref().map(|c| c.area_type),
        price_type: cust.as_ref().map(|c| c.price_type),
        status: OrderStatus::Draft.as_i32(),
        closed: false,
        xero_sent: XeroState::Unsent.as_i32(),
        printed: false,
        drafter_type: drafter_type.as_i32(),
        drafter_id: actor.user_id,
        last_approver_id: None,
        last_approved_at: None,
        total_qty: totals.qty,
        total_amount: totals.amount.0,
        total_gst: totals.gst.0,
        created_at: t_now,
        updated_at: t_now,
    };
    let o = &new;
    // Every column but the id, which the database assigns.
    let id: i64 = diesel::insert_into(orders::table)
        .values(
    (
        (
            orders::org_id.eq(o.org_id),
            orders::no.eq(&o.no),
            orders::order_type.eq(o.order_type),
            orders::uuid.eq(&o.uuid),
            orders::tag_id.eq(o.tag_id),
            orders::customer_id.eq(o.customer_id),
            orders::supplier_id.eq(o.supplier_id),
            orders::order_date.eq(o.order_date),
            orders::due_date.eq(o.due_date),
            orders::delivery_date.eq(o.delivery_date),
            orders::address.eq(&o.address),
            orders::phone.eq(&o.phone),
            orders::csr_service_id.eq(o.csr_service_id),
            orders::csr_bd_id.eq(o.csr_bd_id),
            orders::csr_credit_limit.eq(o.csr_credit_limit),
            orders::csr_xero_balance.eq(o.csr_xero_balance),
        ),
        (
            orders::reference.eq(&o.reference),
            orders::comments.eq(&o.comments),
            orders::warehouse_id.eq(o.warehouse_id),
            orders::in_warehouse_id.eq(o.in_warehouse_id),
            orders::related_order_id.eq(o.related_order_id),
            orders::tax_type.eq(o.tax_type),
            orders::ship_type.eq(o.ship_type),
            orders::payment_type.eq(o.payment_type),
            orders::area_type.eq(o.area_type),
            orders::price_type.eq(o.price_type),
            orders::status.eq(o.status),
            orders::drafter_type.eq(o.drafter_type),
            orders::drafter_id.eq(o.drafter_id),
            orders::total_qty.eq(o.total_qty),
            orders::total_amount.eq(o.total_amount),
            orders::total_gst.eq(o.total_gst),
        ),
        (orders::created_at.eq(o.created_at), orders::updated_at.eq(o.updated_at)),
    ),
        )
        .returning(orders::id)
        .get_result(conn)?;
    diesel::update(orders::table.find(id)).set(orders::csr_self_note.eq(h.csr_self_note.trim())).execute(conn)?;
    write_lines(conn, actor.org_id, id, &valid, &names)?;
    order_db::add_event(conn, actor.org_id, id, actor.user_id, actor.name, "Created")?;
    Ok(id)
}

/// Replaces the content of a draft (spec §4: content is editable only while Draft).
pub fn update(conn: &mut DbConn, actor: &Actor, id: i64, version: i32, h: &Header, lines: &[LineDraft]) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::EditContent)?;
    let t = OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?;
    let (r, mut valid) = validate(conn, actor.org_id, t, h, lines)?;
    let names = check_products(conn, actor.org_id, t, &mut valid)?;
    let totals = sheet::totals(&valid, t, h.tax_type).map_err(invalid)?;
    let cust = match r.customer {
        Some(c) => Some(customer_info(conn, actor.org_id, c)?),
        None => None,
    };
    let changed = diesel::update(orders::table.filter(orders::id.eq(id)).filter(orders::org_id.eq(actor.org_id)).filter(orders::version.eq(version)).filter(orders::status.eq(OrderStatus::Draft.as_i32())))
        .set((
            (
                orders::tag_id.eq(h.tag_id),
                orders::customer_id.eq(id_of(r.customer)),
                orders::supplier_id.eq(id_of(r.supplier)),
                orders::order_date.eq(h.date.unwrap_or(o.order_date)),
                orders::due_date.eq(h.due_date),
                orders::delivery_date.eq(h.delivery_date),
                orders::address.eq(h.address.trim()),
                orders::phone.eq(h.phone.trim()),
                orders::reference.eq(h.reference.trim()),
                orders::comments.eq(h.comments.trim()),
                orders::csr_self_note.eq(h.csr_self_note.trim()),
                orders::csr_service_id.eq(id_of(r.service_staff)),
                orders::csr_bd_id.eq(id_of(r.business_staff)),
            ),
            (
                orders::warehouse_id.eq(id_of(r.warehouse)),
                orders::in_warehouse_id.eq(id_of(r.in_warehouse)),
                orders::related_order_id.eq(id_of(r.related_order)),
                orders::tax_type.eq(if t.has_tax() { h.tax_type } else { 1 }),
                orders::ship_type.eq(h.ship_type.unwrap_or(o.ship_type)),
                orders::payment_type.eq(cust.as_ref().map(|c| c.payment_type)),
                orders::area_type.eq(cust.as_ref().map(|c| c.area_type)),
                orders::price_type.eq(cust.as_ref().map(|c| c.price_type)),
                orders::csr_credit_limit.eq(cust.as_ref().map(|c| c.credit_limit).unwrap_or(0)),
                orders::csr_xero_balance.eq(cust.as_ref().map(|c| c.balance).unwrap_or(0)),
                orders::total_qty.eq(totals.qty),
                orders::total_amount.eq(totals.amount.0),
                orders::total_gst.eq(totals.gst.0),
                orders::version.eq(orders::version + 1),
                orders::updated_at.eq(now()),
            ),
        ))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: STALE.into(), code: Some("stale"), reasons: vec![] });
    }
    write_lines(conn, actor.org_id, id, &valid, &names)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Content edited")
}

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
    lines
        .iter()
        .filter_map(|l| l.product_id.map(|p| StockLine { product_id: p, qty: l.quantity, in_warehouse_qty: l.in_warehouse_qty, in_system_qty: l.in_system_qty }))
        .collect()
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
    let warnings = guard(conn, actor, &chosen_sheet, t, &lines, &effects, input.confirmed)?;
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
    move_stock(conn, actor, &chosen_sheet, &lines, &effects, StockTransition::Approve)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Approved")?;
    Ok(Approved { warnings })
}

/// The approval guard (invoices, spec §4) and the warnings any approval confirms first: lines
/// at $0.00 and the stock the sheet would take below zero, physical products only. Answers
/// the warnings that were confirmed.
fn guard(conn: &mut DbConn, actor: &Actor, o: &Order, t: OrderType, lines: &[order_db::Line], effects: &[stock_rules::StockEffect], confirmed: bool) -> AppResult<Vec<String>> {
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
    let shortfalls = if short.is_empty() {
        vec![]
    } else {
        let names: Vec<(i64, String)> = warehouses::table.filter(warehouses::org_id.eq(o.org_id)).select((warehouses::id, warehouses::name)).load(conn)?;
        short
            .into_iter()
            .map(|(w, p, left)| guard::Shortfall {
                code: fact(p).map(|f| f.2.clone()).unwrap_or_default(),
                warehouse: names.iter().find(|n| n.0 == w).map(|n| n.1.clone()).unwrap_or_default(),
                left,
            })
            .collect()
    };
    let warnings = guard::warnings(t, &guard_lines, &shortfalls);
    let (limit, balance, payment) = match o.customer_id {
        Some(c) if t == OrderType::Invoice => customers::table.filter(customers::org_id.eq(o.org_id)).find(c).select((customers::credit_limit, customers::xero_balance, customers::payment_type)).first::<(i64, i64, i32)>(conn)?,
        _ => (0, 0, 0),
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
    };
    match guard::approval_guard(&input) {
        GuardOutcome::Proceed => Ok(warnings),
        GuardOutcome::Refused(message) => Err(AppError::Conflict { message, code: Some("approval_refused"), reasons: guard::guard_reasons(&guard_lines, Cents(limit), Cents(balance), input.is_cbd) }),
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
fn move_stock(conn: &mut DbConn, actor: &Actor, o: &Order, lines: &[order_db::Line], effects: &[stock_rules::StockEffect], transition: StockTransition) -> AppResult<()> {
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
    let t_now = now();
    let moves: Vec<NewStockMove> = effects
        .iter()
        .map(|e| NewStockMove {
            org_id: o.org_id,
            warehouse_id: e.warehouse_id,
            product_id: e.product_id,
            order_id: Some(o.id),
            qty_delta: e.on_hand_delta,
            in_transit_delta: e.in_transit_delta,
            unit_cost: products.get(&e.product_id).map_or(0, |p| p.1),
            reason: format!("{} {}", if approving { "Approved" } else { "Unapproved" }, o.no),
            user_id: Some(actor.user_id),
            created_at: t_now,
        })
        .collect();
    stock::record(conn, &moves)?;
    if approving {
        // Sales lines keep the cost at approval so margins stay stable (DESIGN §5).
        order_db::keep_line_costs(conn, o.org_id, o.id)?;
    }
    Ok(())
}

/// Returns an approved sheet to Draft and reverses its stock moves exactly.
pub fn unapprove(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::UnApprove)?;
    let changed = diesel::update(orders::table.filter(orders::id.eq(id)).filter(orders::status.eq(OrderStatus::Approved.as_i32())).filter(orders::closed.eq(false)))
        .set((orders::status.eq(OrderStatus::Draft.as_i32()), orders::version.eq(orders::version + 1), orders::updated_at.eq(now())))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: format!("Sheet {} changed meanwhile; reload it.", o.no), code: Some("stale"), reasons: vec![] });
    }
    let lines = order_db::lines_of(conn, id)?;
    let effects = effects_of(conn, &o, &lines, StockTransition::UnApprove)?;
    move_stock(conn, actor, &o, &lines, &effects, StockTransition::UnApprove)?;
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
            });
        }
    }
    stock::record(conn, &moves)
}

/// Marks a sheet printed: `Action::ManualMark` without printing, `Action::Print` after the
/// browser printed it; `how` is the history row.
pub fn mark_printed(conn: &mut DbConn, actor: &Actor, id: i64, action: Action, how: &str) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, action)?;
    diesel::update(orders::table.find(id)).set((orders::printed.eq(true), orders::printed_at.eq(Some(now())), orders::updated_at.eq(now()))).execute(conn)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, how)
}

/// The dates of the Edit Date dialog (spec §2.6).
#[derive(Clone, Debug, Default)]
pub struct Dates {
    pub date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
}

/// Edits the dates the Edit Date dialog offers for the sheet's type (`sheet::has_due_date`,
/// `sheet::delivery_date_editable`).
pub fn set_dates(conn: &mut DbConn, actor: &Actor, id: i64, d: &Dates) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    let state = ensure(&o, Action::EditDate)?;
    let t = state.order_type;
    let date = d.date.ok_or_else(|| AppError::field("date", domain::validate::REQUIRED))?;
    for (field, value) in [("date", Some(date)), ("due_date", d.due_date), ("delivery_date", d.delivery_date)] {
        if let Some(Err(m)) = value.map(limits::check_date) {
            return Err(AppError::field(field, m));
        }
    }
    let due = if sheet::has_due_date(t) { d.due_date } else { o.due_date };
    let delivery = if sheet::delivery_date_editable(t) { d.delivery_date } else { o.delivery_date };
    diesel::update(orders::table.find(id))
        .set((orders::order_date.eq(date), orders::due_date.eq(due), orders::delivery_date.eq(delivery), orders::updated_at.eq(now())))
        .execute(conn)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Dates edited")
}

/// Edits the contact infos (types 1 and 2, not voided).
pub fn set_address(conn: &mut DbConn, actor: &Actor, id: i64, address: &str, phone: &str) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::EditAddress)?;
    let bad = limits::check_texts([("address", address, limits::Text::Lines(limits::ADDRESS_MAX)), ("phone", phone, limits::Text::Line(limits::PHONE_MAX))]);
    if !bad.is_empty() {
        return Err(invalid(bad.into_iter().collect()));
    }
    diesel::update(orders::table.find(id)).set((orders::address.eq(address.trim()), orders::phone.eq(phone.trim()), orders::updated_at.eq(now()))).execute(conn)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Address edited")
}

/// Assigns or changes the driver (types 1 and 2, approved; role-6 staff only).
pub fn assign_driver(conn: &mut DbConn, actor: &Actor, id: i64, driver: Option<Unchecked<Driver>>) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::EditDriver)?;
    let driver = refs::resolve_opt(conn, actor.org_id, driver, "driver_id")?;
    diesel::update(orders::table.find(id)).set((orders::driver_id.eq(id_of(driver)), orders::updated_at.eq(now()))).execute(conn)?;
    let action = match driver {
        Some(d) => {
            let name: String = db::schema::users::table.find(d.id()).select(db::schema::users::name).first(conn)?;
            format!("Driver assigned: {name}")
        }
        None => "Driver removed".to_string(),
    };
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, &action)
}
