//! The sheet lists: their filters, one page of a list with the counterparties' names, the plan
//! of that page, and the keyset walk of a whole list that exports read.

use chrono::NaiveDate;
use diesel::prelude::*;
use domain::enums::{DrafterType, OrderSort, OrderSortKey, OrderStatus, OrderType, SortDirection};
use domain::limits::count_limit;

use super::Order;
use crate::error::AppResult;
use crate::masters::Paged;
use crate::multi_connection_impl::MultiBackend;
use crate::schema::{customers, order_lines, orders, products, suppliers};
use crate::search::{self, Searchable};
use crate::{Backend, DbConn, OverCap};

/// Filters of the sheet lists (spec §2.4, §3 Order list filter), cleaned of dropped values.
#[derive(serde::Deserialize, serde::Serialize, Debug, Clone, Default)]
pub struct OrderFilter {
    /// A type code, or `csr` for the customer self-order view (spec §2.1).
    #[serde(rename = "type")]
    pub order_type: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub due_from: Option<NaiveDate>,
    pub due_to: Option<NaiveDate>,
    /// ETA / dispatch date range (purchase orders).
    pub eta_from: Option<NaiveDate>,
    pub eta_to: Option<NaiveDate>,
    pub tag: Option<i32>,
    pub no: Option<String>,
    pub csr: Option<String>,
    pub supplier: Option<String>,
    pub reference: Option<String>,
    pub drafter_type: Option<i32>,
    /// Sheets with a line whose product matches (code, helper code or name).
    pub product: Option<String>,
    pub warehouse: Option<i64>,
    pub in_warehouse: Option<i64>,
    pub sort: Option<i32>,
    pub delivery_status: Option<i32>,
    pub status: Option<i32>,
    /// `printed` or `unprinted`.
    pub print: Option<String>,
    /// `unsent`, `sent` or `fail`.
    pub xero: Option<String>,
    /// `closed` or `unclosed`.
    pub closure: Option<String>,
    /// Customer self-orders: `awaiting` (undated drafts), `taken` (dated drafts) or `done`
    /// (`handled` is read as `done`).
    pub csr_status: Option<String>,
}

impl domain::validate::ListedValues for OrderFilter {
    fn unlisted(&self) -> std::collections::BTreeMap<String, String> {
        use domain::enums::{DeliveryStatus, Tag};
        use domain::validate::{listed_code, listed_word};
        let mut e = std::collections::BTreeMap::new();
        if let Some(t) = self.order_type.as_deref().filter(|t| *t != "csr") {
            listed_code(&mut e, "type", Some(t.parse().unwrap_or(-1)), OrderType::from_i32);
        }
        listed_code(&mut e, "tag", self.tag, Tag::from_i32);
        listed_code(&mut e, "drafter_type", self.drafter_type, DrafterType::from_i32);
        listed_code(&mut e, "delivery_status", self.delivery_status, DeliveryStatus::from_i32);
        listed_code(&mut e, "status", self.status, OrderStatus::from_i32);
        listed_code(&mut e, "sort", self.sort, OrderSort::from_i32);
        listed_word(&mut e, "print", self.print.as_deref(), &["printed", "unprinted"]);
        // Checked by the reader the list query uses, so the two cannot differ.
        domain::validate::listed_if(&mut e, "xero", self.xero.as_deref(), |v| crate::products::xero_state(Some(v)).is_some());
        listed_word(&mut e, "closure", self.closure.as_deref(), &["closed", "unclosed"]);
        listed_word(&mut e, "csr_status", self.csr_status.as_deref(), &["awaiting", "taken", "done", "handled"]);
        e
    }
}

/// A list row: the sheet (whole, or the columns an export writes) with its counterparty's name.
pub struct OrderRow<O = Order> {
    pub order: O,
    pub customer: Option<String>,
    pub supplier: Option<String>,
}

type BoxedOrders = orders::BoxedQuery<'static, MultiBackend>;

/// A counterparty or product filter matches its whole text as one phrase.
fn phrase(s: &str) -> String {
    s.trim().to_lowercase()
}

/// What the text filters of a list match, looked up before the list query so that the list
/// is planned from real numbers instead of a planner's guess about a text match.
pub struct TextMatches {
    backend: Backend,
    /// Sheets found by number or reference, when few (see `search::few`).
    no: Option<Vec<i64>>,
    reference: Option<Vec<i64>>,
    /// The company's customers / suppliers matching 'To CSR' / supplier, when not too many.
    customers: Option<Vec<i64>>,
    suppliers: Option<Vec<i64>>,
}

/// At most this many sheets found by number or reference drive a list by their ids.
const FEW_SHEETS: i64 = 1_000;
/// Counterparties matching a filter are listed by id up to this many.
const LISTED_COUNTERPARTIES: i64 = 1_000;
/// A page of sheets of up to this many counterparties is read through the counterparty
/// index and sorted (at L about 120 invoices each); for more, walking the list's date index
/// and keeping theirs finds a page sooner. Counts always use the counterparty index.
const FEW_COUNTERPARTIES: usize = 40;

/// What a query wants from the filters: a count enumerates matches by the most selective
/// index; a page wants them in list order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Count,
    Page,
}

fn text_matches(conn: &mut DbConn, org: i64, f: &OrderFilter) -> AppResult<TextMatches> {
    let backend = conn.backend();
    let mut few = |what, text: Option<&str>| text.map_or(Ok(None), |t| search::few(conn, what, t.trim(), FEW_SHEETS));
    let (no, reference) = (few(Searchable::SheetNumbers, f.no.as_deref())?, few(Searchable::SheetReferences, f.reference.as_deref())?);
    let customers = match f.csr.as_deref() {
        Some(c) => {
            let q = customers::table.filter(customers::org_id.eq(org)).filter(search::contains(backend, Searchable::Customers, &phrase(c)));
            listed(q.select(customers::id).limit(LISTED_COUNTERPARTIES + 1).load(conn)?)
        }
        None => None,
    };
    let suppliers = match f.supplier.as_deref() {
        Some(s) => {
            let q = suppliers::table.filter(suppliers::org_id.eq(org)).filter(search::contains(backend, Searchable::Suppliers, &phrase(s)));
            listed(q.select(suppliers::id).limit(LISTED_COUNTERPARTIES + 1).load(conn)?)
        }
        None => None,
    };
    Ok(TextMatches { backend, no, reference, customers, suppliers })
}

fn listed(ids: Vec<i64>) -> Option<Vec<i64>> {
    (ids.len() as i64 <= LISTED_COUNTERPARTIES).then_some(ids)
}

/// A counterparty column (`orders.customer_id`, `orders.supplier_id`) as a filter should use
/// it: as is for a count or a page of few counterparties (their index drives the query), or
/// with unary plus, which no index can serve on either backend, so that a page of many
/// counterparties is driven by the list's ordered index instead.
fn counterparty_column(column: &str, listed: Option<&Vec<i64>>, purpose: Use) -> diesel::expression::SqlLiteral<diesel::sql_types::Nullable<diesel::sql_types::BigInt>> {
    let by_index = purpose == Use::Count || listed.is_some_and(|ids| ids.len() <= FEW_COUNTERPARTIES);
    diesel::dsl::sql(&format!("{}{column}", if by_index { "" } else { "+" }))
}

fn filtered(m: &TextMatches, org: i64, types: &[i32], f: &OrderFilter, purpose: Use) -> BoxedOrders {
    let backend = m.backend;
    // Orders only: counterparties filter through subqueries, so counting never joins.
    let mut q = orders::table.filter(orders::org_id.eq(org)).into_boxed();
    match f.order_type.as_deref().and_then(|t| t.parse::<i32>().ok()).filter(|t| types.contains(t)) {
        Some(t) => q = q.filter(orders::order_type.eq(t)),
        // Every type (the API's list): no filter, so the backends walk `orders_date` in
        // list order instead of merging one range per type and sorting the company.
        None if OrderType::ALL.iter().all(|t| types.contains(&t.as_i32())) => {}
        None => q = q.filter(orders::order_type.eq_any(types.to_vec())),
    }
    if let Some(d) = f.from {
        q = q.filter(orders::order_date.ge(d));
    }
    if let Some(d) = f.to {
        q = q.filter(orders::order_date.le(d));
    }
    if let Some(d) = f.due_from {
        q = q.filter(orders::due_date.ge(d));
    }
    if let Some(d) = f.due_to {
        q = q.filter(orders::due_date.le(d));
    }
    if let Some(d) = f.eta_from {
        q = q.filter(orders::delivery_date.ge(d));
    }
    if let Some(d) = f.eta_to {
        q = q.filter(orders::delivery_date.le(d));
    }
    if let Some(t) = f.tag {
        q = q.filter(orders::tag_id.eq(t));
    }
    if let Some(no) = f.no.as_deref() {
        q = match &m.no {
            Some(ids) => q.filter(orders::id.eq_any(ids.clone())),
            None => q.filter(search::contains(backend, Searchable::SheetNumbers, no.trim())),
        };
    }
    if let Some(c) = f.csr.as_deref() {
        let column = counterparty_column("orders.customer_id", m.customers.as_ref(), purpose);
        q = match &m.customers {
            Some(ids) => q.filter(column.eq_any(ids.clone())),
            None => {
                let matching = customers::table.filter(customers::org_id.eq(org)).select(customers::id).filter(search::contains(backend, Searchable::Customers, &phrase(c)));
                q.filter(column.eq_any(matching.nullable()))
            }
        };
    }
    if let Some(s) = f.supplier.as_deref() {
        let column = counterparty_column("orders.supplier_id", m.suppliers.as_ref(), purpose);
        q = match &m.suppliers {
            Some(ids) => q.filter(column.eq_any(ids.clone())),
            None => {
                let matching = suppliers::table.filter(suppliers::org_id.eq(org)).select(suppliers::id).filter(search::contains(backend, Searchable::Suppliers, &phrase(s)));
                q.filter(column.eq_any(matching.nullable()))
            }
        };
    }
    if let Some(r) = f.reference.as_deref() {
        q = match &m.reference {
            Some(ids) => q.filter(orders::id.eq_any(ids.clone())),
            None => q.filter(search::contains(backend, Searchable::SheetReferences, r.trim())),
        };
    }
    if let Some(d) = f.drafter_type {
        q = q.filter(orders::drafter_type.eq(d));
    }
    if let Some(p) = f.product.as_deref() {
        let inside = order_lines::table
            .inner_join(products::table)
            .filter(order_lines::org_id.eq(org))
            .filter(search::contains(backend, Searchable::Products, &phrase(p)))
            .select(order_lines::order_id);
        q = q.filter(orders::id.eq_any(inside));
    }
    if let Some(w) = f.warehouse {
        q = q.filter(orders::warehouse_id.eq(w));
    }
    if let Some(w) = f.in_warehouse {
        q = q.filter(orders::in_warehouse_id.eq(w));
    }
    if let Some(d) = f.delivery_status {
        q = q.filter(orders::delivery_status.eq(d));
    }
    if let Some(s) = f.status {
        q = q.filter(orders::status.eq(s));
    }
    match f.print.as_deref() {
        Some("printed") => q = q.filter(orders::printed.eq(true)),
        Some("unprinted") => q = q.filter(orders::printed.eq(false)),
        _ => {}
    }
    if let Some(x) = crate::products::xero_state(f.xero.as_deref()) {
        q = q.filter(orders::xero_sent.eq(x.as_i32()));
    }
    match f.closure.as_deref() {
        Some("closed") => q = q.filter(orders::closed.eq(true)),
        Some("unclosed") => q = q.filter(orders::closed.eq(false)),
        _ => {}
    }
    match f.csr_status.as_deref() {
        // Awaiting staff: a customer's draft nobody has taken up (staff take it up by setting
        // its due date, spec §4); taken: dated but still a draft; done: approved or voided.
        Some("awaiting") => q = q.filter(orders::drafter_type.eq(3)).filter(orders::status.eq(1)).filter(orders::due_date.is_null()),
        Some("taken") => q = q.filter(orders::drafter_type.eq(3)).filter(orders::status.eq(1)).filter(orders::due_date.is_not_null()),
        Some("done" | "handled") => q = q.filter(orders::drafter_type.eq(3)).filter(orders::status.ne(1)),
        _ => {}
    }
    q
}

fn sorted(q: BoxedOrders, sort: Option<i32>) -> BoxedOrders {
    match sort.and_then(OrderSort::from_i32).and_then(OrderSort::order) {
        Some((OrderSortKey::Number, SortDirection::Desc)) => q.order((orders::no.desc(), orders::id.desc())),
        Some((OrderSortKey::Number, SortDirection::Asc)) => q.order((orders::no.asc(), orders::id.asc())),
        Some((OrderSortKey::Amount, SortDirection::Desc)) => q.order((orders::total_amount.desc(), orders::id.desc())),
        Some((OrderSortKey::Amount, SortDirection::Asc)) => q.order((orders::total_amount.asc(), orders::id.asc())),
        Some((OrderSortKey::DueDate, SortDirection::Desc)) => q.order((orders::due_date.desc(), orders::id.desc())),
        Some((OrderSortKey::DueDate, SortDirection::Asc)) => q.order((orders::due_date.asc(), orders::id.asc())),
        None => q.order((orders::order_date.desc(), orders::id.desc())),
    }
}

/// The columns of a sheet that the list export writes (and its keyset walk sorts by): a
/// third of the row, and none of the timestamps, which cost more to read than the rest.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = orders)]
pub struct ExportedOrder {
    pub id: i64,
    pub no: String,
    pub order_type: i32,
    pub customer_id: Option<i64>,
    pub supplier_id: Option<i64>,
    pub reference: String,
    pub order_date: NaiveDate,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
    pub warehouse_id: Option<i64>,
    /// A transfer's IN warehouse (the transfers' export, issue 32).
    pub in_warehouse_id: Option<i64>,
    pub driver_id: Option<i64>,
    pub delivery_status: i32,
    pub ship_type: i32,
    pub status: i32,
    pub closed: bool,
    pub xero_sent: i32,
    pub printed: bool,
    pub drafter_type: i32,
    pub total_qty: i64,
    pub total_amount: i64,
    pub total_gst: i64,
}

impl Counterparties for ExportedOrder {
    fn customer_id(&self) -> Option<i64> {
        self.customer_id
    }
    fn supplier_id(&self) -> Option<i64> {
        self.supplier_id
    }
}

/// A sheet that names its counterparties by id.
pub trait Counterparties {
    fn customer_id(&self) -> Option<i64>;
    fn supplier_id(&self) -> Option<i64>;
}

impl Counterparties for Order {
    fn customer_id(&self) -> Option<i64> {
        self.customer_id
    }
    fn supplier_id(&self) -> Option<i64> {
        self.supplier_id
    }
}

/// Adds the counterparties' names to sheets (two keyed lookups for the whole page), only
/// from company `org`: a reference to another company's row shows no name.
fn with_names<O: Counterparties>(conn: &mut DbConn, org: i64, orders_: Vec<O>) -> AppResult<Vec<OrderRow<O>>> {
    let cids: Vec<i64> = orders_.iter().filter_map(|o| o.customer_id()).collect();
    let sids: Vec<i64> = orders_.iter().filter_map(|o| o.supplier_id()).collect();
    let mut cnames = std::collections::HashMap::new();
    for chunk in cids.chunks(crate::CHUNK) {
        cnames.extend(customers::table.filter(customers::org_id.eq(org)).filter(customers::id.eq_any(chunk)).select((customers::id, customers::name)).load::<(i64, String)>(conn)?);
    }
    let mut snames = std::collections::HashMap::new();
    for chunk in sids.chunks(crate::CHUNK) {
        snames.extend(suppliers::table.filter(suppliers::org_id.eq(org)).filter(suppliers::id.eq_any(chunk)).select((suppliers::id, suppliers::name)).load::<(i64, String)>(conn)?);
    }
    Ok(orders_
        .into_iter()
        .map(|order| OrderRow {
            customer: order.customer_id().and_then(|c| cnames.get(&c).cloned()),
            supplier: order.supplier_id().and_then(|s| snames.get(&s).cloned()),
            order,
        })
        .collect())
}

/// One page of a sheet list limited to `types`.
/// A filter `over` remembers as matching more than the page counts is not counted again.
pub fn list(conn: &mut DbConn, over: &OverCap, org: i64, types: &[i32], f: &OrderFilter, offset: i64, limit: i64) -> AppResult<Paged<OrderRow>> {
    let m = text_matches(conn, org, f)?;
    let cap = count_limit(offset);
    let key = format!("{org}|{types:?}|{f:?}");
    let total = if over.known(&key, cap) {
        cap
    } else {
        let n = crate::CountOf(filtered(&m, org, types, f, Use::Count).select(orders::id).limit(cap)).get_result(conn)?;
        over.counted(key, n);
        n
    };
    let page: Vec<Order> = sorted(filtered(&m, org, types, f, Use::Page), f.sort).offset(offset).limit(limit).select(Order::as_select()).load(conn)?;
    Ok(Paged { rows: with_names(conn, org, page)?, total })
}

/// How many sheets match the filter, counting no further than `cap` (whether an export is
/// written while its request waits).
pub fn count_up_to(conn: &mut DbConn, org: i64, types: &[i32], f: &OrderFilter, cap: i64) -> AppResult<i64> {
    let m = text_matches(conn, org, f)?;
    Ok(crate::CountOf(filtered(&m, org, types, f, Use::Count).select(orders::id).limit(cap)).get_result(conn)?)
}

/// How the backend runs the page query of [`list`] (tests pin the index that drives it).
pub fn list_plan(conn: &mut DbConn, org: i64, types: &[i32], f: &OrderFilter) -> AppResult<Vec<String>> {
    let m = text_matches(conn, org, f)?;
    let q = sorted(filtered(&m, org, types, f, Use::Page), f.sort).limit(150).select(Order::as_select());
    crate::plan(conn, q)
}

/// Visits every sheet matching the list filter, in list order, `chunk` sheets at a time with
/// their counterparties' names (exports). Keyset paging on the sort key and id; a due-date
/// sort walks the sheets without a due date as their own run, where the backend sorts them.
pub fn for_each_chunk(
    conn: &mut DbConn,
    org: i64,
    types: &[i32],
    f: &OrderFilter,
    chunk: usize,
    mut visit: impl FnMut(Vec<OrderRow<ExportedOrder>>) -> AppResult<()>,
) -> AppResult<()> {
    let order = f.sort.and_then(OrderSort::from_i32).and_then(OrderSort::order);
    let desc = order.is_none_or(|(_, dir)| dir == SortDirection::Desc);
    let runs: &[Run] = match order {
        Some((OrderSortKey::DueDate, _)) if crate::nulls_first(conn.backend(), desc) => &[Run::NoDueDate, Run::DueDate],
        Some((OrderSortKey::DueDate, _)) => &[Run::DueDate, Run::NoDueDate],
        _ => &[Run::All],
    };
    let m = text_matches(conn, org, f)?;
    let mut named = |c: &mut DbConn, rows: Vec<ExportedOrder>| visit(with_names(c, org, rows)?);
    for run in runs {
        let page = |c: &mut DbConn, after: Option<&ExportedOrder>, limit: i64| -> AppResult<Vec<ExportedOrder>> {
            let mut q = sorted(filtered(&m, org, types, f, Use::Page), f.sort);
            q = match run {
                Run::All => q,
                Run::DueDate => q.filter(orders::due_date.is_not_null()),
                Run::NoDueDate => q.filter(orders::due_date.is_null()),
            };
            if let Some(last) = after {
                q = q.filter(after_order(order, *run, desc, last));
            }
            Ok(q.limit(limit).select(ExportedOrder::as_select()).load(c)?)
        };
        crate::keyset_chunks(conn, chunk, page, &mut named)?;
    }
    Ok(())
}

/// One stretch of an export's keyset walk.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Run {
    All,
    /// Sheets with a due date (due-date sorts).
    DueDate,
    /// Sheets without one, ordered by id alone.
    NoDueDate,
}

/// The sheets after `last` in the order of [`sorted`].
fn after_order(order: Option<(OrderSortKey, SortDirection)>, run: Run, desc: bool, last: &ExportedOrder) -> crate::Predicate<orders::table> {
    use diesel::sql_types::{BigInt, Date, Nullable, Text};
    let id = last.id;
    match (order, run) {
        (_, Run::NoDueDate) if desc => Box::new(orders::id.lt(id)),
        (_, Run::NoDueDate) => Box::new(orders::id.gt(id)),
        (Some((OrderSortKey::Number, _)), _) => crate::after_key::<_, Text, _>("orders.no", "orders.id", desc, last.no.clone(), id),
        (Some((OrderSortKey::Amount, _)), _) => crate::after_key::<_, BigInt, _>("orders.total_amount", "orders.id", desc, last.total_amount, id),
        // This run holds only dated sheets, so the bound key is never NULL.
        (Some((OrderSortKey::DueDate, _)), _) => crate::after_key::<_, Nullable<Date>, _>("orders.due_date", "orders.id", desc, last.due_date, id),
        (None, _) => crate::after_key::<_, Date, _>("orders.order_date", "orders.id", desc, last.order_date, id),
    }
}
