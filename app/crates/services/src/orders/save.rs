//! Saving a sheet: what a save checks (ranges, references in the company, the kind's
//! required fields, products), then the draft written with its number and lines.

use super::*;
use db::exchange_rates;
use db::schema::suppliers;
use domain::currency::{self, Rate};

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

/// A purchase sheet's currency and the rate its lines convert at (issue 35); AUD at one to
/// one on every other sheet and on an AUD supplier's.
#[derive(Clone, Debug)]
struct SheetCurrency {
    code: String,
    rate: Rate,
    /// The lines as entered, in `code`, when it is not AUD.
    fx_lines: Option<Vec<ValidLine>>,
}

/// The longest shipment reference (a container or vessel and voyage).
const SHIPMENT_REF_MAX: usize = 60;

/// The currency of a purchase sheet: its supplier's. Its rate is the one entered, checked
/// against the company's rate of the sheet's date, or else that rate; with neither, a field
/// message.
fn sheet_currency(conn: &mut DbConn, org: i64, t: OrderType, supplier: Option<Ref<Supplier>>, h: &Header, errors: &mut sheet::FieldErrors) -> AppResult<SheetCurrency> {
    let aud = SheetCurrency { code: currency::AUD.to_string(), rate: Rate::ONE, fx_lines: None };
    let Some(supplier) = supplier.filter(|_| t.is_purchase()) else { return Ok(aud) };
    let code: String = suppliers::table.filter(suppliers::org_id.eq(org)).find(supplier.id()).select(suppliers::currency).first(conn)?;
    if code == currency::AUD {
        return Ok(aud);
    }
    let company = match h.date {
        Some(d) => exchange_rates::rate_on(conn, org, &code, d)?.map(|(_, r)| Rate(r)),
        None => None,
    };
    let rate = match (h.exchange_rate, company) {
        (Some(entered), Some(company)) => {
            if let Err(m) = currency::check_override(&code, entered, company) {
                errors.insert("exchange_rate".into(), m);
            }
            entered
        }
        (Some(entered), None) => entered,
        (None, Some(company)) => company,
        (None, None) => {
            let day = h.date.map(|d| d.format("%d/%m/%Y").to_string()).unwrap_or_else(|| "the sheet's date".into());
            errors.insert("exchange_rate".into(), format!("There is no {code} rate on or before {day}: enter the rate here, or in Settings › Exchange rates."));
            Rate::ONE
        }
    };
    Ok(SheetCurrency { code, rate, fx_lines: None })
}

/// Everything a save checks before it writes: the header's ranges, its references in the
/// actor's company, the kind's required fields and the lines; a foreign purchase sheet's
/// lines come back in AUD with the entered ones kept beside them.
fn validate(conn: &mut DbConn, org: i64, t: OrderType, h: &Header, lines: &[LineDraft]) -> AppResult<(Refs, Vec<ValidLine>, SheetCurrency)> {
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
    let lines = &coded_products(conn, org, t, id_of(r.customer), lines, &mut ref_errors)?;
    let d = SheetDraft {
        order_type: Some(t),
        customer_id: id_of(r.customer),
        supplier_id: id_of(r.supplier),
        warehouse_id: id_of(r.warehouse),
        in_warehouse_id: id_of(r.in_warehouse),
        tax_type: h.tax_type,
        lines: lines.to_vec(),
        today: if lines.iter().any(|l| !l.dot.trim().is_empty()) { company_today(conn, org)? } else { NaiveDate::MAX },
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
    // A credit note links only to an invoice of its own customer (issue 32); the link was
    // found inside the company already.
    if t == OrderType::CreditNote
        && let Some(linked) = r.related_order
    {
        let (linked_type, linked_customer): (i32, Option<i64>) = orders::table.filter(orders::org_id.eq(org)).find(linked.id()).select((orders::order_type, orders::customer_id)).first(conn)?;
        if let Err(message) = domain::clone::credit_for(id_of(r.customer), OrderType::from_i32(linked_type), linked_customer) {
            errors.insert("related_order_id".into(), message.into());
        }
    }
    if let Some(v) = &valid {
        untracked_dots(conn, org, lines, v, &mut errors)?;
    }
    let mut money = sheet_currency(conn, org, t, r.supplier, h, &mut errors)?;
    if h.shipment_ref.trim().chars().count() > SHIPMENT_REF_MAX {
        errors.insert("shipment_ref".into(), format!("Use at most {SHIPMENT_REF_MAX} characters"));
    }
    // Last, so a reference that was sent but is not the company's says so rather than
    // 'Please enter'.
    errors.extend(ref_errors);
    match valid {
        Some(v) if errors.is_empty() => {
            if money.code == currency::AUD {
                return Ok((r, v, money));
            }
            let aud = currency::lines_in_aud(&v, money.rate).map_err(|m| AppError::field("lines", m))?;
            money.fx_lines = Some(v);
            Ok((r, aud, money))
        }
        _ => Err(invalid(errors)),
    }
}

/// Message on a line whose typed code names none of the company's products.
pub fn no_product_with_code(code: &str) -> String {
    format!("No product has the code '{code}'. Choose a product from the list.")
}

/// The lines with the product their typed code names (a form sent before the line editor
/// ran, issue 37): looked up inside the company, letter case aside; a code naming none is
/// refused on its line (`lines.<i>.product`), never dropped. As the editor does on a pick,
/// such a line left without a quantity takes 1 (not a count) and a sales line without a
/// price the customer's.
fn coded_products(conn: &mut DbConn, org: i64, t: OrderType, customer: Option<i64>, lines: &[LineDraft], errors: &mut sheet::FieldErrors) -> AppResult<Vec<LineDraft>> {
    let typed = |l: &LineDraft| l.product_id.is_none() && !l.code.trim().is_empty();
    let codes: Vec<String> = lines.iter().filter(|l| typed(l)).map(|l| l.code.trim().to_string()).collect();
    if codes.is_empty() {
        return Ok(lines.to_vec());
    }
    let ids = product_db::ids_by_typed_codes(conn, org, &codes)?;
    let sales = matches!(t, OrderType::Invoice | OrderType::CreditNote);
    let unpriced: Vec<i64> = if sales { lines.iter().filter(|l| typed(l) && l.price.trim().is_empty()).filter_map(|l| ids.get(l.code.trim()).copied()).collect() } else { Vec::new() };
    let quotes = crate::pricing::quotes(conn, org, &unpriced, customer)?;
    let mut out = lines.to_vec();
    for (i, l) in out.iter_mut().enumerate().filter(|(_, l)| typed(l)) {
        let code = l.code.trim();
        let Some(&id) = ids.get(code) else {
            errors.insert(format!("lines.{i}.product"), no_product_with_code(code));
            continue;
        };
        l.product_id = Some(id);
        if t != OrderType::Adjustment && l.qty.trim().is_empty() {
            l.qty = "1".into();
        }
        if let Some(q) = quotes.get(&id).filter(|_| l.price.trim().is_empty()) {
            l.price = q.unit_price.plain();
        }
    }
    Ok(out)
}

/// The company's today (a DOT code may not be after it).
fn company_today(conn: &mut DbConn, org: i64) -> AppResult<NaiveDate> {
    let zone: String = db::schema::organisations::table.find(org).select(db::schema::organisations::time_zone).first(conn)?;
    Ok(domain::dates::today(domain::dates::zone_of(&zone)))
}

/// A DOT code on a product not tracked by DOT is refused on its line (issue 36): its stock
/// has no lots to keep it in.
fn untracked_dots(conn: &mut DbConn, org: i64, drafts: &[LineDraft], lines: &[ValidLine], errors: &mut sheet::FieldErrors) -> AppResult<()> {
    let ids: Vec<i64> = lines.iter().filter(|l| l.dot.is_some()).map(|l| l.product_id).collect();
    if ids.is_empty() {
        return Ok(());
    }
    let tracked = db::lots::tracked(conn, org, &ids)?;
    // A valid sheet's lines are its drafts with a product, in order: the form's index is found again.
    let typed = drafts.iter().enumerate().filter(|(_, d)| d.product_id.is_some()).map(|(i, _)| i);
    for (i, l) in typed.zip(lines) {
        if l.dot.is_some() && !tracked.contains(&l.product_id) {
            errors.insert(format!("lines.{i}.dot"), NOT_TRACKED.into());
        }
    }
    Ok(())
}

/// A DOT code on a product whose stock is not kept by DOT.
pub const NOT_TRACKED: &str = "This product is not tracked by DOT: leave the DOT code empty.";

/// The sheet's totals in its own currency (0s on an AUD sheet).
fn fx_totals(money: &SheetCurrency, t: OrderType, tax_type: i32) -> AppResult<(i64, i64)> {
    match &money.fx_lines {
        Some(lines) => {
            let totals = sheet::totals(lines, t, tax_type).map_err(invalid)?;
            Ok((totals.amount.0, totals.gst.0))
        }
        None => Ok((0, 0)),
    }
}

/// The shipment reference a sheet keeps: a purchase order's, trimmed; none elsewhere.
fn shipment_ref(t: OrderType, h: &Header) -> String {
    if t == OrderType::PurchaseOrder { h.shipment_ref.trim().to_string() } else { String::new() }
}

fn write_lines(conn: &mut DbConn, org: i64, order_id: i64, lines: &[ValidLine], names: &[LineProduct], money: &SheetCurrency) -> AppResult<()> {
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
                fx_price: money.fx_lines.as_ref().and_then(|f| f.get(i)).map_or(0, |f| f.price.0),
                fx_amount: money.fx_lines.as_ref().and_then(|f| f.get(i)).map_or(0, |f| f.amount.0),
                dot: l.dot,
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
    let (r, mut valid, money) = validate(conn, actor.org_id, t, h, lines)?;
    let names = check_products(conn, actor.org_id, t, &mut valid)?;
    let totals = sheet::totals(&valid, t, h.tax_type).map_err(invalid)?;
    let (fx_amount, fx_gst) = fx_totals(&money, t, h.tax_type)?;
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
        (
            orders::csr_self_note.eq(h.csr_self_note.trim()),
            orders::currency.eq(&money.code),
            orders::exchange_rate.eq(money.rate.0),
            orders::fx_total_amount.eq(fx_amount),
            orders::fx_total_gst.eq(fx_gst),
            orders::shipment_ref.eq(shipment_ref(t, h)),
        ),
    ),
        )
        .returning(orders::id)
        .get_result(conn)?;
    write_lines(conn, actor.org_id, id, &valid, &names, &money)?;
    order_db::add_event(conn, actor.org_id, id, actor.user_id, actor.name, "Created")?;
    Ok(id)
}

/// Replaces the content of a draft (spec §4: content is editable only while Draft).
pub fn update(conn: &mut DbConn, actor: &Actor, id: i64, version: i32, h: &Header, lines: &[LineDraft]) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::EditContent)?;
    let t = OrderType::from_i32(o.order_type).ok_or(AppError::NotFound)?;
    let (r, mut valid, money) = validate(conn, actor.org_id, t, h, lines)?;
    let names = check_products(conn, actor.org_id, t, &mut valid)?;
    let totals = sheet::totals(&valid, t, h.tax_type).map_err(invalid)?;
    let (fx_amount, fx_gst) = fx_totals(&money, t, h.tax_type)?;
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
            (
                orders::currency.eq(&money.code),
                orders::exchange_rate.eq(money.rate.0),
                orders::fx_total_amount.eq(fx_amount),
                orders::fx_total_gst.eq(fx_gst),
                orders::shipment_ref.eq(shipment_ref(t, h)),
            ),
        ))
        .execute(conn)?;
    if changed == 0 {
        return Err(AppError::Conflict { message: STALE.into(), code: Some("stale"), reasons: vec![] });
    }
    write_lines(conn, actor.org_id, id, &valid, &names, &money)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Content edited")
}
