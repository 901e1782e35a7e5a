//! Line import for the line editor (`/api/ag/lines`): reads Item Code, Qty, Price,
//! Description (and In-Warehouse Qty for adjustments), prices each line for the customer
//! and answers the lines; nothing is written. Any bad row refuses the whole file.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::pricing;
use db::refs::{self, Customer, Kind, Ref, Unchecked, Warehouse};
use db::{self, Db, DbConn};
use domain::enums::OrderType;
use domain::money::Cents;
use domain::limits;
use domain::permissions::Sight;
use domain::validate::{parse_line_price, parse_line_qty};
use db::error::{AppError, AppResult};
use xlsx::import::{Table, read_sheet, row_errors};

const CODE: usize = 0;
const QTY: usize = 1;
const PRICE: usize = 2;
const DESC: usize = 3;
const COUNTED: usize = 4;
const COLUMNS: &[&[&str]] = &[
    &["Item Code", "Code", "ItemCode"],
    &["Qty", "Qty.", "Quantity"],
    &["Price", "Unit Price"],
    &["Description", "Desc"],
    &["In-Warehouse Qty", "In Warehouse Qty", "Counted"],
];

/// A line read from an imported spreadsheet (the line editor's `ImportedLine`).
#[derive(Serialize)]
pub struct ImportedLine {
    #[serde(rename = "productId")]
    product_id: i64,
    code: String,
    name: String,
    unit: String,
    stock: i64,
    quantity: i64,
    #[serde(rename = "inWarehouseQty")]
    in_warehouse_qty: i64,
    #[serde(rename = "inSystemQty")]
    in_system_qty: i64,
    /// Absent on an adjustment for a viewer without cost sight (valued at cost).
    #[serde(skip_serializing_if = "Option::is_none")]
    price: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    amount: Option<i64>,
    description: String,
    #[serde(rename = "classAPrice")]
    class_a_price: i64,
    #[serde(rename = "costPrice", skip_serializing_if = "Option::is_none")]
    cost_price: Option<i64>,
}

/// The sheet the lines are for, as sent beside the file (unchecked text).
pub struct Target<'a> {
    pub order_type: Option<&'a str>,
    pub warehouse: Option<&'a str>,
    pub customer: Option<&'a str>,
}

/// The target once checked: a known order type and ids of the caller's company only.
struct Checked {
    order_type: OrderType,
    adjustment: bool,
    /// What the caller may see of cost.
    sight: Sight,
    warehouse: Option<Ref<Warehouse>>,
    customer: Option<Ref<Customer>>,
}

/// An id field as sent; text that is not a number names nothing, like an unknown id.
fn id_field<K: Kind>(field: &str, value: Option<&str>) -> AppResult<Option<Unchecked<K>>> {
    value.map(|v| v.trim().parse::<i64>().map(Unchecked::new).map_err(|_| AppError::field(field, K::NOT_FOUND))).transpose()
}

/// Reads the uploaded file into priced lines for the company.
pub async fn import(db: &Db, org: i64, sight: Sight, target: Target<'_>, file: Vec<u8>) -> AppResult<Vec<ImportedLine>> {
    let order_type = match target.order_type {
        None => OrderType::Invoice,
        Some(v) => v.parse().ok().and_then(OrderType::from_i32).ok_or_else(|| AppError::field("orderType", "The sheet type must be 1 to 7."))?,
    };
    let warehouse = id_field::<Warehouse>("warehouseId", target.warehouse)?;
    let customer = id_field::<Customer>("customerId", target.customer)?;
    // Ids from outside are resolved in the caller's company before the file is read:
    // another company's id is refused as unknown, never used.
    let (warehouse, customer) = db
        .run(move |c| Ok((refs::resolve_opt(c, org, warehouse, "warehouseId")?, refs::resolve_opt(c, org, customer, "customerId")?)))
        .await?;
    let table = read_sheet(file, COLUMNS).await?;
    if !table.has(CODE) {
        return Err(AppError::field("file", "The first row must name the columns; 'Item Code' is missing."));
    }
    limits::check_imported_lines(table.rows.len()).map_err(|m| AppError::field("file", m))?;
    let checked = Checked { order_type, adjustment: order_type == OrderType::Adjustment, warehouse, customer, sight };
    db.run(move |c| resolve(c, org, &checked, &table)).await
}

/// Resolves the rows with a fixed number of chunked queries (codes, prices, stock), never a
/// query per row.
fn resolve(conn: &mut DbConn, org: i64, target: &Checked, table: &Table) -> AppResult<Vec<ImportedLine>> {
    let codes: Vec<String> = table.rows.iter().map(|(_, r)| r[CODE].clone()).collect::<HashSet<_>>().into_iter().collect();
    let products = db::products::by_codes(conn, org, &codes)?;
    let ids: Vec<i64> = products.values().map(|p| p.id).collect();
    let quotes = pricing::quotes(conn, org, &ids, target.customer.map(Ref::id))?;
    let stock = match target.warehouse {
        Some(w) => db::stock::on_hand_in(conn, org, w.id(), &ids)?,
        None => db::products::stock_totals(conn, org, &ids)?,
    };
    let mut errors = Vec::new();
    let mut out = Vec::with_capacity(table.rows.len());
    for (row_no, cells) in &table.rows {
        match line(target, &products, &quotes, &stock, cells) {
            Ok(l) => out.push(l),
            Err(m) => errors.push(format!("Row {row_no}: {m}")),
        }
    }
    if !errors.is_empty() {
        return Err(row_errors(errors));
    }
    if out.is_empty() {
        return Err(AppError::field("file", "The spreadsheet has no lines."));
    }
    Ok(out)
}

fn line(
    target: &Checked,
    products: &HashMap<String, db::products::CodedProduct>,
    quotes: &HashMap<i64, pricing::Quote>,
    stock: &HashMap<i64, i64>,
    cells: &[String],
) -> Result<ImportedLine, String> {
    let code = &cells[CODE];
    let p = products.get(code).ok_or_else(|| if code.is_empty() { "the item code is empty.".to_string() } else { format!("unknown item code '{code}'.") })?;
    let on_hand = stock.get(&p.id).copied().unwrap_or(0);
    let (quantity, counted) = if target.adjustment {
        let counted = parse_line_qty(&cells[COUNTED])?;
        (counted.checked_sub(on_hand).ok_or("the quantity is too large.")?, counted)
    } else {
        (parse_line_qty(&cells[QTY])?, 0)
    };
    // An adjustment is valued at the product's cost (a price in the file is checked but the
    // saved sheet takes the cost, services::orders).
    let typed = if cells[PRICE].is_empty() { None } else { Some(parse_line_price(&cells[PRICE]).map_err(|e| e.to_string())?) };
    let price = match typed {
        _ if target.adjustment => p.cost_price.for_books(),
        Some(typed) => typed,
        None => quotes.get(&p.id).map(|q| q.unit_price).unwrap_or(Cents(p.class_a_price)),
    };
    let amount = domain::money::line_amount(quantity, price).ok_or("quantity × price is too large.")?;
    let money = target.sight.line_money(target.order_type, price, amount);
    Ok(ImportedLine {
        product_id: p.id,
        code: p.code.clone(),
        name: p.name.clone(),
        unit: p.unit.clone(),
        stock: on_hand,
        quantity,
        in_warehouse_qty: counted,
        in_system_qty: if target.adjustment { on_hand } else { 0 },
        price: money.map(|m| m.0.0),
        amount: money.map(|m| m.1.0),
        description: cells[DESC].clone(),
        class_a_price: p.class_a_price,
        cost_price: target.sight.cost(p.cost_price).map(|c| c.0),
    })
}
