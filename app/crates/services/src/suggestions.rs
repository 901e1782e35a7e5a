//! Purchase suggestions (issue 35, docs/decisions/purchasing.md "Purchase suggestions"): the
//! rows of one warehouse (sales velocity from one grouped query, stock, on order, levels),
//! the buyer's levels, and the ticked rows made into draft purchase orders, one per preferred
//! supplier, all in the caller's transaction.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::NaiveDate;

use db::DbConn;
use db::error::{AppError, AppResult};
use db::refs::{Product, Unchecked, Warehouse};
use db::reorder as store;
use domain::Actor;
use domain::enums::{OrderType, Role, TaxType};
use domain::money::Cents;
use domain::reorder::{self as rules, Levels};
use domain::sheet::LineDraft;

use crate::orders::{self as order_service, Header};

/// Who may use the screen: approvers (role 4) and buyers (the membership's buyer flag).
pub fn may_buy(role: Role, is_buyer: bool) -> bool {
    role == Role::Approver || is_buyer
}

/// The refusal to everyone else.
pub const BUYERS_ONLY: &str = "Only an approver (role 4) or a buyer may use the purchase suggestions.";

/// [`may_buy`] as a check.
pub fn check_buyer(role: Role, is_buyer: bool) -> AppResult<()> {
    if may_buy(role, is_buyer) { Ok(()) } else { Err(AppError::forbidden(BUYERS_ONLY)) }
}

/// What the screen asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ask {
    pub warehouse_id: i64,
    /// Only products whose preferred supplier is this one.
    pub supplier_id: Option<i64>,
    pub weeks: u32,
    /// Only rows with something to order.
    pub only_below: bool,
    pub today: NaiveDate,
}

/// One product's row.
#[derive(Clone, Debug)]
pub struct Row {
    pub product_id: i64,
    pub code: String,
    pub name: String,
    pub supplier_code: String,
    pub supplier_id: Option<i64>,
    pub on_hand: i64,
    pub in_transit: i64,
    pub eta: Option<NaiveDate>,
    pub on_order: i64,
    /// Units sold (net of credit notes) in the window.
    pub sold: i64,
    pub velocity: String,
    pub levels: Levels,
    pub suggested: Option<i64>,
}

/// The rows of a warehouse, in product code order (the caller groups them by supplier):
/// every product with sales, stock, a draft order or entered levels there; with
/// `only_below`, only those with a quantity to order. Four statements whatever the number of
/// products (sales grouped, on order grouped, stock, levels) plus the products and suppliers.
/// How long a company's suggestions stay as worked out (issue 35): the screen reads every
/// product's sales over weeks, on hand and levels (about 90 ms at L), so a buyer paging,
/// filtering back and forth or several buyers at once share one working-out for a minute.
/// The buyer's own changes (levels, purchase orders made here) and 'Refresh' work it out
/// again at once.
pub const FRESH_FOR: std::time::Duration = std::time::Duration::from_secs(60);

/// The suggestions worked out lately, per company and question (docs/decisions/purchasing.md
/// "Purchase suggestions").
#[derive(Clone, Default)]
pub struct Cache(std::sync::Arc<std::sync::Mutex<HashMap<(i64, Ask), (std::time::Instant, chrono::NaiveDateTime, std::sync::Arc<Vec<Row>>)>>>);

/// The most questions kept; beyond it the cache starts again (a handful of buyers ask a few).
const CACHE_MAX: usize = 256;

impl Cache {
    fn get(&self, org: i64, ask: &Ask) -> Option<(chrono::NaiveDateTime, std::sync::Arc<Vec<Row>>)> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&(org, ask.clone())).filter(|(at, _, _)| at.elapsed() < FRESH_FOR).map(|(_, when, rows)| (*when, rows.clone()))
    }

    fn put(&self, org: i64, ask: Ask, when: chrono::NaiveDateTime, rows: std::sync::Arc<Vec<Row>>) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= CACHE_MAX {
            map.clear();
        }
        map.insert((org, ask), (std::time::Instant::now(), when, rows));
    }

    /// Forgets company `org`'s suggestions: its levels or purchase orders changed here.
    pub fn forget(&self, org: i64) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).retain(|(o, _), _| *o != org);
    }
}

/// The rows of `ask` for company `org` and when they were worked out (UTC): from the cache
/// when fresh and `refresh` is false, else worked out now ([`rows`]) and kept.
pub async fn rows_cached(core: &crate::Core, org: i64, ask: &Ask, refresh: bool) -> AppResult<(chrono::NaiveDateTime, std::sync::Arc<Vec<Row>>)> {
    if !refresh && let Some(hit) = core.suggestions.get(org, ask) {
        return Ok(hit);
    }
    let a = ask.clone();
    let rows = std::sync::Arc::new(core.db.run(move |c| rows(c, org, &a)).await?);
    let when = db::now();
    core.suggestions.put(org, ask.clone(), when, rows.clone());
    Ok((when, rows))
}

pub fn rows(conn: &mut DbConn, org: i64, ask: &Ask) -> AppResult<Vec<Row>> {
    let since = ask.today - chrono::Duration::days(i64::from(ask.weeks) * 7);
    let sold = store::sold_since(conn, org, ask.warehouse_id, since)?;
    let on_order = store::on_order(conn, org, ask.warehouse_id)?;
    let stock = store::stock_in(conn, org, ask.warehouse_id)?;
    let levels = store::levels_in(conn, org, ask.warehouse_id)?;
    let lead: HashMap<i64, Option<i32>> = store::suppliers_of(conn, org)?.into_iter().map(|(id, _, l)| (id, l)).collect();
    // First the figures per product from the narrow (id, supplier) read; the names only for
    // the rows that are shown.
    let mut figures: HashMap<i64, Row> = HashMap::new();
    for (id, supplier) in store::product_suppliers(conn, org, ask.supplier_id)? {
        let (invoiced, credited) = sold.get(&id).copied().unwrap_or((0, 0));
        let (on_hand, in_transit, eta) = stock.get(&id).copied().unwrap_or((0, 0, None));
        let ordered = on_order.get(&id).copied().unwrap_or(0);
        let entered = levels.get(&id).copied();
        let known = invoiced != 0 || credited != 0 || on_hand != 0 || in_transit != 0 || ordered != 0 || entered.is_some();
        if !known {
            continue;
        }
        let units = rules::net_units(invoiced, credited);
        let lead_days = supplier.and_then(|s| lead.get(&s).copied().flatten()).map(i64::from);
        let proposal = rules::proposed(units, ask.weeks, lead_days).ok_or_else(|| AppError::bad_request("The sales figures are too large to propose levels."))?;
        let applied = rules::effective(entered, proposal);
        let position = rules::position(on_hand, in_transit, ordered).ok_or_else(|| AppError::bad_request("The stock figures are too large."))?;
        let suggested = rules::suggestion(position, applied);
        if ask.only_below && suggested.is_none() {
            continue;
        }
        figures.insert(
            id,
            Row {
                product_id: id,
                code: String::new(),
                name: String::new(),
                supplier_code: String::new(),
                supplier_id: supplier,
                on_hand,
                in_transit,
                eta,
                on_order: ordered,
                sold: units,
                velocity: rules::velocity_text(units, ask.weeks),
                levels: applied,
                suggested,
            },
        );
    }
    let ids: Vec<i64> = figures.keys().copied().collect();
    let mut out = Vec::with_capacity(ids.len());
    for p in store::products_by_id(conn, org, &ids)? {
        if let Some(mut r) = figures.remove(&p.id) {
            r.code = p.code;
            r.name = p.name;
            r.supplier_code = p.supplier_code;
            out.push(r);
        }
    }
    Ok(out)
}

/// Sets or clears (both blank) a product's levels in a warehouse of the caller's company.
pub fn set_levels(conn: &mut DbConn, actor: &Actor, product: Unchecked<Product>, warehouse: Unchecked<Warehouse>, reorder_point: &str, order_up_to: &str) -> AppResult<()> {
    let product = product.resolve(conn, actor.org_id, "product_id")?;
    let warehouse = warehouse.resolve(conn, actor.org_id, "warehouse_id")?;
    let levels = rules::check_levels(reorder_point, order_up_to).map_err(|errors| AppError::Validation { message: "Check the levels.".into(), errors })?;
    store::set_levels(conn, actor.org_id, warehouse.id(), product.id(), levels, actor.user_id)
}

/// A created purchase order: id, number, supplier name, lines.
#[derive(Clone, Debug)]
pub struct Created {
    pub id: i64,
    pub no: String,
    pub supplier: String,
    pub lines: usize,
}

/// Makes the ticked `(product, quantity)` rows into draft purchase orders of `warehouse`
/// dated `today`, one per preferred supplier (in supplier name order); the line price is the
/// last price paid to that supplier for the product, else 0. Run inside one transaction: any
/// refusal (a product of another company or without a preferred supplier, a quantity out of
/// range, a sheet the save refuses) writes nothing.
pub fn create_orders(conn: &mut DbConn, actor: &Actor, warehouse: Unchecked<Warehouse>, picks: &[(Unchecked<Product>, String)], today: NaiveDate) -> AppResult<Vec<Created>> {
    let warehouse = warehouse.resolve(conn, actor.org_id, "warehouse_id")?;
    if picks.is_empty() {
        return Err(AppError::bad_request("Tick the products to order first."));
    }
    let products: HashMap<i64, store::ProductLine> = store::products_of(conn, actor.org_id, None)?.into_iter().map(|p| (p.id, p)).collect();
    let suppliers: HashMap<i64, String> = store::suppliers_of(conn, actor.org_id)?.into_iter().map(|(id, n, _)| (id, n)).collect();
    let mut per_supplier: BTreeMap<(String, i64), Vec<(i64, i64)>> = BTreeMap::new();
    let mut seen = HashSet::new();
    for (product, qty) in picks {
        let product = product.resolve(conn, actor.org_id, "product_id")?;
        let p = products.get(&product.id()).ok_or_else(|| AppError::field("product_id", "This product does not exist in this company."))?;
        let qty = rules::check_order_qty(qty).map_err(|m| AppError::bad_request(format!("{}: {m}", p.code)))?;
        if !seen.insert(p.id) {
            return Err(AppError::bad_request(format!("{} is ticked twice.", p.code)));
        }
        let supplier = p
            .preferred_supplier_id
            .and_then(|s| suppliers.get(&s).map(|n| (n.clone(), s)))
            .ok_or_else(|| AppError::bad_request(format!("{} has no preferred supplier: choose one in the product form before ordering it here.", p.code)))?;
        per_supplier.entry(supplier).or_default().push((p.id, qty));
    }
    let mut created = Vec::new();
    for ((name, supplier), lines) in per_supplier {
        let ids: Vec<i64> = lines.iter().map(|(p, _)| *p).collect();
        // The last price paid, in the supplier's currency (the save converts a foreign one).
        let prices = store::last_prices(conn, actor.org_id, supplier, &ids)?;
        let drafts: Vec<LineDraft> = lines
            .iter()
            .map(|(p, q)| LineDraft {
                product_id: Some(*p),
                qty: q.to_string(),
                price: Cents(prices.get(p).copied().unwrap_or(0)).plain(),
                tax_type: TaxType::default().as_i32(),
                ..Default::default()
            })
            .collect();
        let header = Header {
            tag_id: 1,
            supplier_id: Some(Unchecked::new(supplier)),
            warehouse_id: Some(Unchecked::new(warehouse.id())),
            date: Some(today),
            tax_type: TaxType::default().as_i32(),
            ..Default::default()
        };
        let id = order_service::create(conn, actor, OrderType::PurchaseOrder, &header, &drafts)?;
        let no = db::orders::get(conn, actor.org_id, id)?.no;
        created.push(Created { id, no, supplier: name, lines: drafts.len() });
    }
    Ok(created)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approvers_and_buyers_only() {
        assert!(may_buy(Role::Approver, false));
        assert!(may_buy(Role::Sales, true));
        assert!(!may_buy(Role::Sales, false));
    }
}
