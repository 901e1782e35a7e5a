//! What the sheet screens read: the lists, the detail page, the new/edit form and the JSON
//! sheet, each from one function in a fixed number of statements however many lines the
//! sheet has. Every id that comes from outside is looked up inside the caller's company; a
//! reference to another company's row shows nothing, as a missing one does.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::DbConn;
use super::masters::{self, Employee, Paged, Warehouse};
use super::orders::{self as order_db, Event, Line, Order, OrderFilter, OrderRow, events_of};
use super::schema::{customers, order_lines, orders, products, stocks, suppliers};
use domain::enums::{OrderStatus, OrderType};
use domain::permissions::Cost;
use crate::error::AppResult;

/// A sheet's customer as the sheet screens show it.
#[derive(Queryable, Selectable, Clone, Debug, Default)]
#[diesel(table_name = customers)]
pub struct SheetCustomer {
    pub id: i64,
    pub name: String,
    pub code: String,
    pub note: String,
    pub attention: String,
    pub payment_type: i32,
    pub area_type: i32,
    pub credit_limit: i64,
    /// The balance last read from Xero, and when.
    pub xero_balance: i64,
    pub xero_balance_at: Option<NaiveDateTime>,
    /// The customer's service and business staff, which a new sheet starts with.
    pub cs_id: Option<i64>,
    pub bd_id: Option<i64>,
}

/// A sheet of the company with its counterparties.
#[derive(Clone, Debug)]
pub struct Sheet {
    pub order: Order,
    pub customer: Option<SheetCustomer>,
    pub supplier: Option<String>,
}

impl Sheet {
    /// The names the form shows beside the counterparty pickers (empty when none).
    pub fn party_labels(&self) -> (String, String) {
        (self.customer.as_ref().map(|c| c.name.clone()).unwrap_or_default(), self.supplier.clone().unwrap_or_default())
    }
}

/// One sheet of company `org` with its customer and supplier, in one statement; another
/// company's id is not found (404).
pub fn sheet(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Sheet> {
    let (order, customer, supplier) = orders::table
        .left_join(customers::table.on(customers::id.nullable().eq(orders::customer_id).and(customers::org_id.eq(org))))
        .left_join(suppliers::table.on(suppliers::id.nullable().eq(orders::supplier_id).and(suppliers::org_id.eq(org))))
        .filter(orders::org_id.eq(org))
        .filter(orders::id.eq(id))
        .select((Order::as_select(), Option::<SheetCustomer>::as_select(), suppliers::name.nullable()))
        .first::<(Order, Option<SheetCustomer>, Option<String>)>(conn)?;
    Ok(Sheet { order, customer, supplier })
}

/// What a sheet page's head needs (its title names the sheet).
#[derive(Queryable, Clone, Debug)]
pub struct SheetHead {
    pub order_type: i32,
    pub no: String,
}

/// The type and number of sheet `id` of company `org`, in one statement; another company's
/// id is not found (404). Sheet pages read it before they send their first byte.
pub fn head_of(conn: &mut DbConn, org: i64, id: i64) -> AppResult<SheetHead> {
    Ok(orders::table.filter(orders::org_id.eq(org)).find(id).select((orders::order_type, orders::no)).first(conn)?)
}

/// A customer of company `org` as the sheet screens show it; `None` for another company's id.
pub fn sheet_customer(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Option<SheetCustomer>> {
    Ok(customers::table.filter(customers::org_id.eq(org)).find(id).select(SheetCustomer::as_select()).first(conn).optional()?)
}

/// A sheet with its lines in `seq` order (the edit form, clones and the JSON sheet).
pub struct SheetWithLines {
    pub sheet: Sheet,
    pub lines: Vec<Line>,
}

/// [`sheet`] and its lines: two statements.
pub fn sheet_with_lines(conn: &mut DbConn, org: i64, id: i64) -> AppResult<SheetWithLines> {
    let sheet = sheet(conn, org, id)?;
    let lines = order_db::lines_of(conn, sheet.order.id)?;
    Ok(SheetWithLines { sheet, lines })
}

/// A line as the detail page shows it: the stored line, its product's code and name, and the
/// stock left of the product where an approved sheet took it.
pub struct DetailLine {
    pub line: Line,
    /// Code and name of the product (of the company only).
    pub product: Option<(String, String)>,
    /// On hand now in the sheet's warehouse; only for approved sheets and physical products
    /// (a virtual one holds no stock), absent when the warehouse holds no row of the product.
    pub stock_now: Option<i64>,
    /// A tyre's DOT codes (issue 36): what the approval took or put per code (a transfer: what
    /// left the OUT warehouse), else the code the line names.
    pub lots: Vec<(i32, i64)>,
}

/// A detail line as read: the line, its product's code and name, its kind, its stock now.
type DetailRow = (Line, Option<(String, String)>, Option<i32>, Option<i64>);

/// Everything the sheet detail page shows.
pub struct SheetDetail {
    pub sheet: Sheet,
    pub lines: Vec<DetailLine>,
    pub events: Vec<Event>,
    pub staff: Vec<Employee>,
    pub warehouses: Vec<Warehouse>,
    /// The invoice a credit note credits: id and number ([`order_db::credited_invoice`]).
    pub credit_for: Option<(i64, String)>,
}

/// The detail page of sheet `id` of company `org` in five statements: the sheet with its
/// counterparties, the lines with their products and stock, the history, the staff and the
/// warehouses, a sixth for the invoice a credit note credits, and on an approved sheet a
/// seventh for its DOT codes (404 for another company's sheet).
pub fn detail(conn: &mut DbConn, org: i64, id: i64) -> AppResult<SheetDetail> {
    let sheet = sheet(conn, org, id)?;
    let o = &sheet.order;
    // An approved sheet warns of negative stock it left; others read no stock. `= NULL` is
    // never true, so without a warehouse the stock join finds no row.
    let stock_warehouse = o.warehouse_id.filter(|_| o.status == OrderStatus::Approved.as_i32());
    let rows: Vec<DetailRow> = order_lines::table
        .left_join(products::table.on(products::id.nullable().eq(order_lines::product_id).and(products::org_id.eq(org))))
        .left_join(
            stocks::table.on(stocks::product_id.nullable().eq(order_lines::product_id).and(stocks::org_id.eq(org)).and(stocks::warehouse_id.nullable().eq(stock_warehouse))),
        )
        .filter(order_lines::order_id.eq(o.id))
        .order((order_lines::seq.asc(), order_lines::id.asc()))
        .select((Line::as_select(), (products::code, products::name).nullable(), products::category.nullable(), stocks::on_hand.nullable()))
        .load(conn)?;
    let virtual_kind = domain::enums::ProductKind::Virtual.as_i32();
    // What the approval moved per DOT code: one more statement, for an approved or closed sheet only.
    let moved = if o.status == OrderStatus::Approved.as_i32() || o.status == OrderStatus::Closed.as_i32() { crate::lots::of_orders(conn, org, &[o.id])? } else { vec![] };
    let transfer = o.order_type == domain::enums::OrderType::Transfer.as_i32();
    let lines = rows
        .into_iter()
        .map(|(line, product, kind, stock)| {
            let mut lots: Vec<(i32, i64)> = moved.iter().filter(|m| m.line_id == line.id && !(transfer && m.qty > 0)).map(|m| (m.dot, m.qty)).collect();
            if lots.is_empty() && let Some(d) = line.dot {
                lots.push((d, line.quantity));
            }
            DetailLine { line, product, stock_now: stock.filter(|_| kind != Some(virtual_kind)), lots }
        })
        .collect();
    let events = events_of(conn, o.id)?;
    let credit_for = order_db::credited_invoice(conn, o)?;
    Ok(SheetDetail { lines, events, staff: masters::all_employees(conn, org)?, warehouses: masters::all_warehouses(conn, org)?, credit_for, sheet })
}

/// The history of sheet `id` of company `org`, oldest first (404 for another company's
/// sheet).
pub fn history(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Vec<Event>> {
    order_db::get(conn, org, id)?;
    events_of(conn, id)
}

/// The type of sheet `id` of company `org` (404 for another company's sheet) and its
/// neighbour across all types: the next id when `forward`, else the previous, with its type.
pub fn neighbour(conn: &mut DbConn, org: i64, id: i64, forward: bool) -> AppResult<(i32, Option<(i64, i32)>)> {
    let current = order_db::get(conn, org, id)?.order_type;
    Ok((current, order_db::neighbour(conn, org, id, forward)?))
}

/// A product as the line editor shows it, with its stock in the form's warehouse.
#[derive(Clone, Debug)]
pub struct LineProduct {
    pub code: String,
    pub name: String,
    pub unit: String,
    pub class_a_price: i64,
    pub cost_price: Cost,
    /// On hand in the warehouse asked for (0 without a stock row); `None` without a warehouse
    /// and for a virtual product, which holds no stock.
    pub stock: Option<i64>,
    /// Stock held by DOT code (issue 36).
    pub dot_tracked: bool,
    /// A tracked product's lots in the warehouse asked for, oldest first: (stored code, on hand).
    pub lots: Vec<(i32, i64)>,
}

/// What the sheet form shows beside the header it was given.
pub struct FormChoices {
    /// The products of the lines, by id (only the company's).
    pub products: HashMap<i64, LineProduct>,
    pub staff: Vec<Employee>,
    pub warehouses: Vec<Warehouse>,
    /// The sheets the form's `related_order_id` may name, id and number: open purchase
    /// orders for a bill (Related PO), the linked invoice for a credit note (Credit for).
    pub related_choices: Vec<(i64, String)>,
    /// The chosen customer (of the company only).
    pub customer: Option<SheetCustomer>,
    /// The warehouse the sheet starts in when it named none and asked for the default.
    pub default_warehouse: Option<i64>,
}

/// What the form asks for, as typed (unchecked ids).
pub struct FormWants {
    pub order_type: OrderType,
    pub customer: Option<i64>,
    pub warehouse: Option<i64>,
    /// The sheet the form links to (`related_order_id`).
    pub related: Option<i64>,
    pub product_ids: Vec<i64>,
    /// A new sheet without a warehouse starts in the company's default one (issue 32).
    pub default_warehouse: bool,
}

/// Bills link to at most this many open purchase orders, newest first.
const OPEN_PURCHASE_ORDERS: i64 = 200;

/// The sheet form's choices and line products for company `org`: staff, warehouses, the
/// customer, open purchase orders for a bill, the linked invoice for a credit note, and the lines' products with their stock (one
/// statement per [`super::CHUNK`] products).
pub fn form_choices(conn: &mut DbConn, org: i64, wants: &FormWants) -> AppResult<FormChoices> {
    let default_warehouse = if wants.default_warehouse && wants.warehouse.is_none() { super::accounts::default_warehouse(conn, org)? } else { None };
    let products = line_products(conn, org, wants.warehouse.or(default_warehouse), &wants.product_ids)?;
    let staff = masters::all_employees(conn, org)?;
    let warehouses = masters::all_warehouses(conn, org)?;
    let related_choices = if wants.order_type == OrderType::Bill {
        orders::table
            .filter(orders::org_id.eq(org))
            .filter(orders::order_type.eq(OrderType::PurchaseOrder.as_i32()))
            .filter(orders::status.eq(OrderStatus::Approved.as_i32()))
            .filter(orders::closed.eq(false))
            .order(orders::id.desc())
            .limit(OPEN_PURCHASE_ORDERS)
            .select((orders::id, orders::no))
            .load(conn)?
    } else if let (OrderType::CreditNote, Some(id)) = (wants.order_type, wants.related) {
        orders::table
            .filter(orders::org_id.eq(org))
            .filter(orders::order_type.eq(OrderType::Invoice.as_i32()))
            .find(id)
            .select((orders::id, orders::no))
            .load(conn)?
    } else {
        vec![]
    };
    let customer = match wants.customer {
        Some(id) => sheet_customer(conn, org, id)?,
        None => None,
    };
    Ok(FormChoices { products, staff, warehouses, related_choices, customer, default_warehouse })
}

/// A line product as read: id, code, name, unit, class A, cost, kind, and on hand where the
/// warehouse has a row of it.
type LineProductRow = (i64, String, String, String, i64, i64, i32, Option<i64>, bool);

/// Products of company `org` by id with their on hand in `warehouse`, chunked.
fn line_products(conn: &mut DbConn, org: i64, warehouse: Option<i64>, ids: &[i64]) -> AppResult<HashMap<i64, LineProduct>> {
    let mut found = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(super::CHUNK) {
        // `= NULL` is never true: without a warehouse the stock join finds no row.
        let rows: Vec<LineProductRow> = products::table
            .left_join(stocks::table.on(stocks::product_id.eq(products::id).and(stocks::org_id.eq(org)).and(stocks::warehouse_id.nullable().eq(warehouse))))
            .filter(products::org_id.eq(org))
            .filter(products::id.eq_any(chunk))
            .select((products::id, products::code, products::name, products::unit, products::class_a_price, products::cost_price, products::category, stocks::on_hand.nullable(), products::dot_tracked))
            .load(conn)?;
        let virtual_kind = domain::enums::ProductKind::Virtual.as_i32();
        found.extend(rows.into_iter().map(|(id, code, name, unit, class_a_price, cost_price, kind, on_hand, dot_tracked)| {
            let stock = warehouse.filter(|_| kind != virtual_kind).map(|_| on_hand.unwrap_or(0));
            (id, LineProduct { code, name, unit, class_a_price, cost_price: Cost::new(cost_price), stock, dot_tracked, lots: Vec::new() })
        }));
    }
    // The lots in the warehouse of the products on screen: one statement per chunk, as many
    // for a sheet of 30 lines as of 1 (only a product tracked by DOT has lots).
    if let Some(w) = warehouse {
        for lot in super::lots::of_products(conn, org, ids)?.into_iter().filter(|l| l.warehouse_id == w) {
            if let Some(p) = found.get_mut(&lot.product_id).filter(|p| p.dot_tracked) {
                p.lots.push((lot.dot, lot.on_hand));
            }
        }
    }
    Ok(found)
}

/// The staff and warehouses of a company, by which the sheet lists and their export name
/// drivers, drafters and warehouses.
pub struct ListNames {
    pub staff: Vec<Employee>,
    pub warehouses: Vec<Warehouse>,
}

/// The staff and warehouses of company `org`.
pub fn list_names(conn: &mut DbConn, org: i64) -> AppResult<ListNames> {
    Ok(ListNames { staff: masters::all_employees(conn, org)?, warehouses: masters::all_warehouses(conn, org)? })
}

/// A page of a sheet list with the names its rows and filters show.
pub struct ListPage {
    pub names: ListNames,
    pub page: Paged<OrderRow>,
}

/// One page of the sheet list of `types` in company `org` (see [`order_db::list`]) and the
/// names it shows.
pub fn list_page(conn: &mut DbConn, over: &crate::OverCap, org: i64, types: &[i32], f: &OrderFilter, offset: i64, limit: i64) -> AppResult<ListPage> {
    Ok(ListPage { names: list_names(conn, org)?, page: order_db::list(conn, over, org, types, f, offset, limit)? })
}

/// Lookups for names shown in rows.
pub struct Names {
    pub staff: std::collections::HashMap<i64, String>,
    pub warehouses: std::collections::HashMap<i64, String>,
    pub warehouse_options: Vec<(i64, String)>,
}

impl Names {
    pub fn staff(&self, id: Option<i64>) -> String {
        id.and_then(|i| self.staff.get(&i)).cloned().unwrap_or_default()
    }
    pub fn warehouse(&self, id: Option<i64>) -> String {
        id.and_then(|i| self.warehouses.get(&i)).cloned().unwrap_or_default()
    }
}

impl From<ListNames> for Names {
    fn from(n: ListNames) -> Self {
        Names {
            staff: n.staff.into_iter().map(|e| (e.id, e.name)).collect(),
            warehouses: n.warehouses.iter().map(|w| (w.id, w.name.clone())).collect(),
            warehouse_options: n.warehouses.into_iter().map(|w| (w.id, w.name)).collect(),
        }
    }
}
