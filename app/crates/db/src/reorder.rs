//! Purchase suggestions (issue 35, docs/decisions/purchasing.md): what one warehouse sold per
//! product in a window (ONE grouped query over the approved invoices and credit notes), its
//! stock, what draft purchase orders already have on order, the entered reorder levels, and
//! the last price paid to a supplier. Every read is company-scoped and per warehouse, never
//! per product.

use std::collections::HashMap;

use chrono::NaiveDate;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::BigInt;

use super::schema::{order_lines, orders, products, reorder_levels, stocks, suppliers};
use super::{DbConn, now};
use crate::error::AppResult;
use domain::enums::{OrderStatus, OrderType};

const APPROVED: [i32; 2] = [OrderStatus::Approved.as_i32(), OrderStatus::Closed.as_i32()];

/// The velocity statement: units invoiced and units credited (types 1 and 2) per product, of the
/// approved sheets of `warehouse` dated from `since`. It walks `orders_type_status_date`
/// (org_id, order_type, status, order_date, id) for the two types and two statuses, then each
/// sheet's lines by `order_lines_order`.
macro_rules! sold_query {
    ($org:expr, $warehouse:expr, $since:expr) => {
        orders::table
            .inner_join(order_lines::table)
            .filter(orders::org_id.eq($org))
            .filter(orders::order_type.eq_any([OrderType::Invoice.as_i32(), OrderType::CreditNote.as_i32()]))
            .filter(orders::status.eq_any(APPROVED))
            .filter(orders::order_date.ge($since))
            .filter(orders::warehouse_id.eq($warehouse))
            .filter(order_lines::product_id.is_not_null())
            .group_by(order_lines::product_id)
            .select((
                order_lines::product_id,
                sql::<BigInt>("CAST(COALESCE(SUM(CASE WHEN orders.order_type = 1 THEN order_lines.quantity ELSE 0 END), 0) AS BIGINT)"),
                sql::<BigInt>("CAST(COALESCE(SUM(CASE WHEN orders.order_type = 2 THEN order_lines.quantity ELSE 0 END), 0) AS BIGINT)"),
            ))
    };
}

/// The plan of the velocity statement (tests pin that it reads an index of orders).
pub fn sold_plan(conn: &mut DbConn, org: i64, warehouse: i64, since: NaiveDate) -> AppResult<Vec<String>> {
    super::planner::plan(conn, sold_query!(org, warehouse, since))
}

/// Units invoiced and credited per product in `warehouse` since `since`: product → (invoiced, credited).
pub fn sold_since(conn: &mut DbConn, org: i64, warehouse: i64, since: NaiveDate) -> AppResult<HashMap<i64, (i64, i64)>> {
    let rows: Vec<(Option<i64>, i64, i64)> = sold_query!(org, warehouse, since).load(conn)?;
    Ok(rows.into_iter().filter_map(|(p, inv, cn)| p.map(|p| (p, (inv, cn)))).collect())
}

/// Units on draft purchase orders of `warehouse`, per product: ordered but not yet approved
/// (an approved purchase order's units are in `stocks.in_transit` already).
pub fn on_order(conn: &mut DbConn, org: i64, warehouse: i64) -> AppResult<HashMap<i64, i64>> {
    let rows: Vec<(Option<i64>, i64)> = orders::table
        .inner_join(order_lines::table)
        .filter(orders::org_id.eq(org))
        .filter(orders::order_type.eq(OrderType::PurchaseOrder.as_i32()))
        .filter(orders::status.eq(OrderStatus::Draft.as_i32()))
        .filter(orders::warehouse_id.eq(warehouse))
        .filter(order_lines::product_id.is_not_null())
        .group_by(order_lines::product_id)
        .select((order_lines::product_id, sql::<BigInt>("CAST(COALESCE(SUM(order_lines.quantity), 0) AS BIGINT)")))
        .load(conn)?;
    Ok(rows.into_iter().filter_map(|(p, q)| p.map(|p| (p, q))).collect())
}

/// A stock row of one warehouse: on hand, in transit, ETA.
pub type StockOf = (i64, i64, Option<NaiveDate>);

/// The stock rows of `warehouse`, per product.
pub fn stock_in(conn: &mut DbConn, org: i64, warehouse: i64) -> AppResult<HashMap<i64, StockOf>> {
    let rows: Vec<(i64, i64, i64, Option<NaiveDate>)> = stocks::table
        .filter(stocks::org_id.eq(org))
        .filter(stocks::warehouse_id.eq(warehouse))
        .select((stocks::product_id, stocks::on_hand, stocks::in_transit, stocks::eta))
        .load(conn)?;
    Ok(rows.into_iter().map(|(p, a, b, c)| (p, (a, b, c))).collect())
}

/// The entered levels of `warehouse`: product → (reorder point, order-up-to).
pub fn levels_in(conn: &mut DbConn, org: i64, warehouse: i64) -> AppResult<HashMap<i64, (i64, i64)>> {
    let rows: Vec<(i64, i64, i64)> = reorder_levels::table
        .filter(reorder_levels::org_id.eq(org))
        .filter(reorder_levels::warehouse_id.eq(warehouse))
        .select((reorder_levels::product_id, reorder_levels::reorder_point, reorder_levels::order_up_to))
        .load(conn)?;
    Ok(rows.into_iter().map(|(p, a, b)| (p, (a, b))).collect())
}

/// Sets (`Some`) or clears (`None`: back to the proposal) a product's levels in a warehouse.
/// The caller has resolved both ids in company `org`.
pub fn set_levels(conn: &mut DbConn, org: i64, warehouse: i64, product: i64, levels: Option<(i64, i64)>, user: i64) -> AppResult<()> {
    let key = reorder_levels::table.filter(reorder_levels::org_id.eq(org)).filter(reorder_levels::warehouse_id.eq(warehouse)).filter(reorder_levels::product_id.eq(product));
    match levels {
        None => {
            diesel::delete(key).execute(conn)?;
        }
        Some((rp, out)) => {
            let t = now();
            let changed = diesel::update(key)
                .set((
                    reorder_levels::reorder_point.eq(rp),
                    reorder_levels::order_up_to.eq(out),
                    reorder_levels::updated_by.eq(Some(user)),
                    reorder_levels::updated_at.eq(t),
                ))
                .execute(conn)?;
            if changed == 0 {
                diesel::insert_into(reorder_levels::table)
                    .values((
                        reorder_levels::org_id.eq(org),
                        reorder_levels::product_id.eq(product),
                        reorder_levels::warehouse_id.eq(warehouse),
                        reorder_levels::reorder_point.eq(rp),
                        reorder_levels::order_up_to.eq(out),
                        reorder_levels::updated_by.eq(Some(user)),
                        reorder_levels::updated_at.eq(t),
                    ))
                    .execute(conn)?;
            }
        }
    }
    Ok(())
}

/// A product as the suggestions list shows it.
#[derive(Queryable, Clone, Debug)]
pub struct ProductLine {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub supplier_code: String,
    pub preferred_supplier_id: Option<i64>,
}

/// The company's products, optionally only those whose preferred supplier is `supplier`.
pub fn products_of(conn: &mut DbConn, org: i64, supplier: Option<i64>) -> AppResult<Vec<ProductLine>> {
    let mut q = products::table
        .filter(products::org_id.eq(org))
        .select((products::id, products::code, products::name, products::supplier_code, products::preferred_supplier_id))
        .order(products::code.asc())
        .into_boxed();
    if let Some(s) = supplier {
        q = q.filter(products::preferred_supplier_id.eq(s));
    }
    Ok(q.load(conn)?)
}

/// The company's products as (id, preferred supplier), optionally only those whose preferred
/// supplier is `supplier`: the narrow read the suggestions filter on before naming the rows.
pub fn product_suppliers(conn: &mut DbConn, org: i64, supplier: Option<i64>) -> AppResult<Vec<(i64, Option<i64>)>> {
    let mut q = products::table.filter(products::org_id.eq(org)).select((products::id, products::preferred_supplier_id)).into_boxed();
    if let Some(s) = supplier {
        q = q.filter(products::preferred_supplier_id.eq(s));
    }
    Ok(q.load(conn)?)
}

/// Some products of the company by id (chunked), in code order.
pub fn products_by_id(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<Vec<ProductLine>> {
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(super::CHUNK) {
        out.extend(
            products::table
                .filter(products::org_id.eq(org))
                .filter(products::id.eq_any(chunk))
                .select((products::id, products::code, products::name, products::supplier_code, products::preferred_supplier_id))
                .load::<ProductLine>(conn)?,
        );
    }
    out.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(out)
}

/// The company's suppliers: id → (name, lead time in days).
pub fn suppliers_of(conn: &mut DbConn, org: i64) -> AppResult<Vec<(i64, String, Option<i32>)>> {
    Ok(suppliers::table
        .filter(suppliers::org_id.eq(org))
        .order(suppliers::name.asc())
        .select((suppliers::id, suppliers::name, suppliers::lead_time_days))
        .load(conn)?)
}

/// The last unit price paid to `supplier` for each of `products`: the line price of its most
/// recent approved bill or purchase order (by date, then id), in cents of the currency the supplier
/// bills in now (a foreign sheet's own price).
pub fn last_prices(conn: &mut DbConn, org: i64, supplier: i64, product_ids: &[i64]) -> AppResult<HashMap<i64, i64>> {
    use crate::schema::suppliers;
    // In the supplier's currency (issue 35): a foreign sheet's own prices, and only sheets in
    // the currency the supplier bills in now.
    let currency: String = suppliers::table.filter(suppliers::org_id.eq(org)).find(supplier).select(suppliers::currency).first(conn)?;
    let mut out = HashMap::new();
    for chunk in product_ids.chunks(super::CHUNK) {
        let rows: Vec<(Option<i64>, i64, i64)> = orders::table
            .inner_join(order_lines::table)
            .filter(orders::org_id.eq(org))
            .filter(orders::supplier_id.eq(supplier))
            .filter(orders::currency.eq(&currency))
            .filter(orders::order_type.eq_any([OrderType::PurchaseOrder.as_i32(), OrderType::Bill.as_i32()]))
            .filter(orders::status.eq_any(APPROVED))
            .filter(order_lines::product_id.eq_any(chunk))
            .order((orders::order_date.desc(), orders::id.desc()))
            .select((order_lines::product_id, order_lines::price, order_lines::fx_price))
            .load(conn)?;
        let foreign = currency != domain::currency::AUD;
        for (p, price, fx_price) in rows {
            if let Some(p) = p {
                out.entry(p).or_insert(if foreign { fx_price } else { price });
            }
        }
    }
    Ok(out)
}

/// A created purchase order as listed: id, number, supplier name, number of lines, units.
pub type PurchaseOrderLine = (i64, String, Option<String>, i64, i64);

/// Purchase orders of company `org` among `ids` (others are left out): id, number, supplier
/// name, number of lines, units ordered; in id order.
pub fn purchase_orders(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<Vec<PurchaseOrderLine>> {
    let heads: Vec<(i64, String, Option<String>)> = orders::table
        .left_join(suppliers::table)
        .filter(orders::org_id.eq(org))
        .filter(orders::order_type.eq(OrderType::PurchaseOrder.as_i32()))
        .filter(orders::id.eq_any(ids))
        .order(orders::id.asc())
        .select((orders::id, orders::no, suppliers::name.nullable()))
        .load(conn)?;
    let found: Vec<i64> = heads.iter().map(|h| h.0).collect();
    let lines: Vec<(i64, i64, i64)> = order_lines::table
        .filter(order_lines::order_id.eq_any(&found))
        .group_by(order_lines::order_id)
        .select((order_lines::order_id, sql::<BigInt>("CAST(COUNT(*) AS BIGINT)"), sql::<BigInt>("CAST(COALESCE(SUM(order_lines.quantity), 0) AS BIGINT)")))
        .load(conn)?;
    Ok(heads
        .into_iter()
        .map(|(id, no, s)| {
            let (n, q) = lines.iter().find(|l| l.0 == id).map(|l| (l.1, l.2)).unwrap_or((0, 0));
            (id, no, s, n, q)
        })
        .collect())
}

/// Demo and bench data (`tyredesk seed`, `tyredesk bench`): lead times on two suppliers in
/// three, a preferred supplier and supplier code on every product but one in `suppliers.len() + 1`
/// (one UPDATE per supplier, whatever the number of products), and entered levels on every
/// 50th of `product_ids` in `warehouse`.
pub fn seed(conn: &mut DbConn, org: i64, supplier_ids: &[i64], warehouse: i64, product_ids: &[i64]) -> AppResult<()> {
    use diesel::sql_types::{Bool, Text};
    let n = supplier_ids.len();
    for (k, s) in supplier_ids.iter().enumerate() {
        let lead = (k % 3 != 0).then(|| 14 + 7 * (k % 5) as i32);
        diesel::update(suppliers::table.filter(suppliers::org_id.eq(org)).filter(suppliers::id.eq(s))).set(suppliers::lead_time_days.eq(lead)).execute(conn)?;
        diesel::update(products::table.filter(products::org_id.eq(org)).filter(sql::<Bool>(&format!("products.id % {} = {k}", n + 1))))
            .set((products::preferred_supplier_id.eq(Some(*s)), products::supplier_code.eq(sql::<Text>("'S-' || products.code"))))
            .execute(conn)?;
    }
    let t = now();
    let rows: Vec<_> = product_ids
        .iter()
        .step_by(50)
        .map(|p| {
            (
                reorder_levels::org_id.eq(org),
                reorder_levels::product_id.eq(*p),
                reorder_levels::warehouse_id.eq(warehouse),
                reorder_levels::reorder_point.eq(4i64),
                reorder_levels::order_up_to.eq(12i64),
                reorder_levels::updated_by.eq(None::<i64>),
                reorder_levels::updated_at.eq(t),
            )
        })
        .collect();
    for chunk in rows.chunks(super::CHUNK) {
        let values = chunk.to_vec();
        crate::per_backend!(&mut *conn, |c| diesel::insert_into(reorder_levels::table).values(values.clone()).execute(c))?;
    }
    Ok(())
}

/// Writes a product's preferred supplier (`Some(None)` clears it) and supplier code when given;
/// the caller has resolved the supplier in company `org`.
pub fn set_product_purchasing(conn: &mut DbConn, org: i64, product: i64, supplier: Option<Option<i64>>, code: Option<&str>) -> AppResult<()> {
    let target = products::table.filter(products::org_id.eq(org)).filter(products::id.eq(product));
    if let Some(s) = supplier {
        diesel::update(target).set(products::preferred_supplier_id.eq(s)).execute(conn)?;
    }
    if let Some(code) = code {
        diesel::update(target).set(products::supplier_code.eq(code)).execute(conn)?;
    }
    Ok(())
}
