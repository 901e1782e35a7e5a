//! Import Draft Inv: each row a line of a draft invoice; rows with the same customer,
//! reference and date make one sheet (docs/decisions/imports.md, "Import Draft Inv and Import Basic"). Every row
//! is checked on a read connection first; only a file without a bad row is written.

use std::collections::{HashMap, HashSet};

use chrono::NaiveDate;

use db::refs::Unchecked;
use db::{self, DbConn};
use domain::due_date::due_date;
use domain::enums::{OrderType, PaymentType};
use domain::imports::{SheetKey, group, parse_date, row_message};
use domain::limits::{COMMENT_MAX, DESCRIPTION_MAX, LINES_MAX, SHORT_MAX, Text, check_text};
use domain::money::Cents;
use domain::sheet::LineDraft;
use domain::validate::{REQUIRED, parse_line_price, parse_line_qty};
use db::error::AppResult;
use crate::orders::Header;
use xlsx::import::Table;

/// The columns read, each with the header names it may have; the first name is the
/// template's.
pub const COLUMNS: &[&[&str]] = &[
    &["Customer Code", "Customer", "CSR Code", "CSR", "ABN"],
    &["Reference", "Ref", "Customer PO"],
    &["Date", "Sheet Date"],
    &["Item Code", "Code"],
    &["Qty", "Quantity"],
    &["Price", "Unit Price"],
    &["Description", "Desc"],
    &["Warehouse"],
    &["Comments", "Comment"],
];
const CUSTOMER: usize = 0;
const REFERENCE: usize = 1;
const DATE: usize = 2;
const ITEM: usize = 3;
const QTY: usize = 4;
const PRICE: usize = 5;
const DESCRIPTION: usize = 6;
const WAREHOUSE: usize = 7;
const COMMENTS: usize = 8;
/// The name rows are called by in messages.
const SHEET: &str = "Draft Inv";

/// One draft invoice to create: its first row (for messages), header and lines.
pub struct Planned {
    pub first_row: usize,
    pub header: Header,
    pub lines: Vec<LineDraft>,
}

/// A checked row.
struct Row {
    row: usize,
    warehouse: Option<i64>,
    comments: String,
    line: (i64, i64, Option<Cents>, String),
}

fn name(k: usize) -> &'static str {
    COLUMNS[k][0]
}

/// Checks every row of the file within the company and plans the sheets; any bad row
/// refuses the whole file with row messages.
pub fn plan(c: &mut DbConn, org: i64, today: NaiveDate, table: &Table) -> AppResult<Vec<Planned>> {
    let mut errors = Vec::new();
    for k in [CUSTOMER, ITEM, QTY] {
        if !table.has(k) {
            errors.push(format!("The first row must name the columns; '{}' is missing.", name(k)));
        }
    }
    if !errors.is_empty() {
        return Err(xlsx::import::row_errors(errors));
    }
    let distinct = |k: usize| table.rows.iter().map(|(_, r)| r[k].clone()).filter(|v| !v.is_empty()).collect::<HashSet<_>>().into_iter().collect::<Vec<_>>();
    let customers = db::customers::ids_by_code_or_name(c, org, &distinct(CUSTOMER))?;
    let products = db::products::by_codes(c, org, &distinct(ITEM))?;
    let warehouses: Vec<(i64, String, String)> = db::masters::all_warehouses(c, org)?.into_iter().map(|w| (w.id, w.code.to_lowercase(), w.name.to_lowercase())).collect();

    let mut rows = Vec::with_capacity(table.rows.len());
    for (row_no, cells) in &table.rows {
        let err = |errors: &mut Vec<String>, k: usize, m: &str| errors.push(row_message(SHEET, *row_no, name(k), m));
        let before = errors.len();
        let customer = match cells[CUSTOMER].as_str() {
            "" => {
                err(&mut errors, CUSTOMER, REQUIRED);
                None
            }
            key => {
                let found = customers.get(key).copied();
                if found.is_none() {
                    err(&mut errors, CUSTOMER, &format!("unknown customer '{key}'."));
                }
                found
            }
        };
        let product = match cells[ITEM].as_str() {
            "" => {
                err(&mut errors, ITEM, REQUIRED);
                None
            }
            code => {
                let found = products.get(code).map(|p| p.id);
                if found.is_none() {
                    err(&mut errors, ITEM, &format!("unknown item code '{code}'."));
                }
                found
            }
        };
        let qty = parse_line_qty(&cells[QTY]).map_err(|m| err(&mut errors, QTY, m)).ok();
        let price = match cells[PRICE].as_str() {
            "" => None,
            p => parse_line_price(p).map_err(|e| err(&mut errors, PRICE, &e.to_string())).ok(),
        };
        let date = match cells[DATE].as_str() {
            "" => Some(today),
            d => parse_date(d).map_err(|m| err(&mut errors, DATE, m)).ok(),
        };
        for (k, rule) in [(REFERENCE, Text::Line(SHORT_MAX)), (DESCRIPTION, Text::Line(DESCRIPTION_MAX)), (COMMENTS, Text::Lines(COMMENT_MAX))] {
            if let Err(m) = check_text(&cells[k], rule) {
                err(&mut errors, k, m);
            }
        }
        let warehouse = match cells[WAREHOUSE].to_lowercase() {
            w if w.is_empty() => None,
            w => {
                let found = warehouses.iter().find(|(_, code, name)| *code == w || *name == w).map(|(id, _, _)| *id);
                if found.is_none() {
                    err(&mut errors, WAREHOUSE, &format!("unknown warehouse '{}'.", cells[WAREHOUSE]));
                }
                found
            }
        };
        if errors.len() > before {
            continue;
        }
        let (Some(customer), Some(product), Some(qty), Some(date)) = (customer, product, qty, date) else { continue };
        let key = SheetKey::new(customer, &cells[REFERENCE], date);
        rows.push((key, Row { row: *row_no, warehouse, comments: cells[COMMENTS].clone(), line: (product, qty, price, cells[DESCRIPTION].clone()) }));
    }
    let sheets = group(rows);
    // Lines without a price take the customer's own price (price type or OCOP), as the
    // invoice form would.
    let mut wanted: HashMap<i64, HashSet<i64>> = HashMap::new();
    for (key, rs) in &sheets {
        for r in rs.iter().filter(|r| r.line.2.is_none()) {
            wanted.entry(key.customer).or_default().insert(r.line.0);
        }
    }
    let mut prices: HashMap<(i64, i64), Cents> = HashMap::new();
    for (customer, ids) in wanted {
        let ids: Vec<i64> = ids.into_iter().collect();
        for (product, quote) in crate::pricing::quotes(c, org, &ids, Some(customer))? {
            prices.insert((customer, product), quote.unit_price);
        }
    }
    // Each sheet's due date follows its customer's payment terms, as on the invoice form.
    let mut terms: HashMap<i64, &'static str> = HashMap::new();
    for (key, _) in &sheets {
        if let std::collections::hash_map::Entry::Vacant(e) = terms.entry(key.customer) {
            let payment = db::customers::customer(c, org, key.customer)?.payment_type;
            e.insert(PaymentType::from_i32(payment).map(PaymentType::label).unwrap_or(""));
        }
    }
    let mut planned = Vec::with_capacity(sheets.len());
    for (key, rs) in sheets {
        let first = &rs[0];
        if rs.len() > LINES_MAX {
            errors.push(row_message(SHEET, first.row, "", &format!("the sheet starting here has {} lines; a sheet holds at most {LINES_MAX}. Give part of them another reference.", rs.len())));
            continue;
        }
        if let Some(other) = rs.iter().find(|r| r.warehouse.is_some() && r.warehouse != first.warehouse) {
            errors.push(row_message(SHEET, other.row, name(WAREHOUSE), &format!("differs from row {} of the same sheet.", first.row)));
            continue;
        }
        let lines = rs
            .iter()
            .map(|r| {
                let (product, qty, price, description) = &r.line;
                let price = price.or_else(|| prices.get(&(key.customer, *product)).copied()).unwrap_or_default();
                LineDraft { product_id: Some(*product), qty: qty.to_string(), price: price.plain(), description: description.clone(), tax_type: 3, in_warehouse_qty: String::new(), in_system_qty: String::new(), dot: String::new(), code: String::new() }
            })
            .collect();
        let header = Header {
            tag_id: 1,
            customer_id: Some(Unchecked::new(key.customer)),
            supplier_id: None,
            date: Some(key.date),
            due_date: Some(due_date(terms.get(&key.customer).copied().unwrap_or(""), key.date, org)),
            delivery_date: None,
            address: String::new(),
            phone: String::new(),
            reference: key.reference.clone(),
            comments: first.comments.clone(),
            csr_self_note: String::new(),
            csr_service_id: None,
            csr_bd_id: None,
            warehouse_id: first.warehouse.map(Unchecked::new),
            in_warehouse_id: None,
            related_order_id: None,
            tax_type: 3,
            ship_type: None,
            exchange_rate: None,
            shipment_ref: String::new(),
        };
        planned.push(Planned { first_row: first.row, header, lines });
    }
    if !errors.is_empty() {
        return Err(xlsx::import::row_errors(errors));
    }
    Ok(planned)
}

/// The sheet type every planned sheet is created as.
pub const TYPE: OrderType = OrderType::Invoice;
