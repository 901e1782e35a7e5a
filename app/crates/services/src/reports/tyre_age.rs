//! Tyre age (issue 36, `tyreAge`): the stock of tyres tracked by DOT — today's lots — by
//! brand, size and warehouse, its quantity (and, when cost is shown, its cost at the
//! product's moving-average cost price) in each age band on the report's date, with a total
//! row. One grouped statement over `stock_lots` joined to products; `domain::tyre_age` folds
//! its lots into rows as they come.

use std::collections::HashMap;

use diesel::sql_types::{BigInt, Integer, Text};

use super::Ctx;
use super::rows::total_row;
use super::sql::{Bind, Sql, overflow};
use db::DbConn;
use db::error::{AppError, AppResult};
use domain::dot::AgeBand;
use domain::tyre_age::{Banded, Rows};
use xlsx::export::{Col, Kind as Cell, Layout, SheetWriter, Val};

/// Rows handed to the writer at once.
const APPEND_MAX: usize = 2_000;

/// The cost column of each band, in the order of [`AgeBand::ALL`].
const COST_HEADERS: [&str; 6] = ["Cost 0–1 years", "Cost 1–2 years", "Cost 2–3 years", "Cost 3–5 years", "Cost 5+ years", "Cost Unknown"];

/// Brand, Size, Warehouse, a quantity per band and their total; with cost, a cost per band
/// and their total.
fn cols(cost: bool) -> Vec<Col> {
    let mut cols = vec![Col::new("Brand", 18.0, Cell::Text), Col::new("Size", 16.0, Cell::Text), Col::new("Warehouse", 18.0, Cell::Text)];
    cols.extend(AgeBand::ALL.iter().map(|b| Col::new(b.label(), 11.0, Cell::Int)));
    cols.push(Col::new("Total Qty", 11.0, Cell::Int));
    if cost {
        cols.extend(COST_HEADERS.iter().map(|h| Col::new(h, 14.0, Cell::Aud)));
        cols.push(Col::new("Total Cost", 15.0, Cell::Aud));
    }
    cols
}

/// A lot group: one code of one brand, size and warehouse.
#[derive(diesel::QueryableByName)]
struct LotGroup {
    #[diesel(sql_type = Text)]
    brand: String,
    #[diesel(sql_type = Text)]
    size: String,
    #[diesel(sql_type = BigInt)]
    warehouse_id: i64,
    #[diesel(sql_type = Text)]
    warehouse: String,
    #[diesel(sql_type = Integer)]
    dot: i32,
    #[diesel(sql_type = BigInt)]
    qty: i64,
    #[diesel(sql_type = BigInt)]
    cost: i64,
}

/// The lots of the company's tracked tyres that hold stock (or less than none), grouped by
/// brand, size, warehouse and code, in that order; the warehouse and product filters apply.
fn load(conn: &mut DbConn, ctx: &Ctx<'_>) -> AppResult<Vec<LotGroup>> {
    let p = ctx.params;
    let cost = if p.include_cost { "CAST(SUM(sl.on_hand * p.cost_price) AS BIGINT)" } else { "CAST(0 AS BIGINT)" };
    let mut q = Sql::new(&format!(
        "SELECT COALESCE(b.name, '') AS brand, p.size_key AS size, sl.warehouse_id AS warehouse_id, w.name AS warehouse, sl.dot AS dot, \
         CAST(SUM(sl.on_hand) AS BIGINT) AS qty, {cost} AS cost \
         FROM stock_lots sl \
         JOIN products p ON p.id = sl.product_id AND p.org_id = sl.org_id \
         JOIN warehouses w ON w.id = sl.warehouse_id AND w.org_id = sl.org_id \
         LEFT JOIN brands b ON b.id = p.brand_id AND b.org_id = p.org_id \
         WHERE sl.org_id = "
    ));
    q.bind(Bind::BigInt(ctx.org_id)).push(" AND sl.on_hand <> 0 AND p.dot_tracked = TRUE");
    q.any_of("sl.warehouse_id", &p.warehouses).brands_and_categories(p).any_of("sl.product_id", &p.products);
    q.push(
        " GROUP BY COALESCE(b.name, ''), p.size_key, w.name, sl.warehouse_id, sl.dot \
         ORDER BY COALESCE(b.name, ''), p.size_key, w.name, sl.warehouse_id, sl.dot",
    );
    q.load(conn)
}

/// A size key as staff read it ('2055516' → '205/55R16'); the key itself when it is no size.
fn size_label(key: &str) -> String {
    domain::tyre_size::parse(key).map_or_else(|| key.to_string(), |s| s.normalized())
}

fn figures(b: &Banded, cost: bool) -> AppResult<Vec<Val>> {
    let mut v: Vec<Val> = b.qty.iter().map(|q| Val::Int(*q)).collect();
    v.push(Val::Int(b.total_qty().map_err(|_| overflow())?));
    if cost {
        v.extend(b.cost.iter().map(|c| Val::Cents(*c)));
        v.push(Val::Cents(b.total_cost().map_err(|_| overflow())?));
    }
    Ok(v)
}

/// Writes the one worksheet: a row per brand, size and warehouse, handed to the writer
/// [`APPEND_MAX`] at a time, and the total row, which adds every band.
pub fn write(conn: &mut DbConn, ctx: &Ctx<'_>, out: &mut SheetWriter) -> AppResult<()> {
    let cost = ctx.params.include_cost;
    ctx.progress.set(0, 2);
    let as_of = ctx.params.as_of.ok_or_else(|| AppError::bad_request("Choose the date the ages are counted on."))?;
    let groups = load(conn, ctx)?;
    ctx.progress.set(1, 2);
    let cols = cols(cost);
    let width = cols.len();
    out.begin(Layout { name: "Tyre age".into(), cols, title: ctx.title(conn, "")? })?;
    let mut sizes: HashMap<String, String> = HashMap::new();
    let mut total = Banded::default();
    let mut buf: Vec<Vec<Val>> = Vec::new();
    let mut emit = |key: (String, String, i64, String), b: Banded, buf: &mut Vec<Vec<Val>>, out: &mut SheetWriter| -> AppResult<()> {
        total.plus(&b).map_err(|_| overflow())?;
        let (brand, size, _, warehouse) = key;
        let size = sizes.entry(size).or_insert_with_key(|k| size_label(k)).clone();
        let mut row = vec![Val::Text(brand), Val::Text(size), Val::Text(warehouse)];
        row.extend(figures(&b, cost)?);
        buf.push(row);
        if buf.len() >= APPEND_MAX {
            out.append(std::mem::take(buf))?;
        }
        Ok(())
    };
    let mut rows = Rows::new(as_of);
    for g in groups {
        if let Some((key, b)) = rows.push((g.brand, g.size, g.warehouse_id, g.warehouse), g.dot, g.qty, g.cost).map_err(|_| overflow())? {
            emit(key, b, &mut buf, out)?;
        }
    }
    if let Some((key, b)) = rows.finish() {
        emit(key, b, &mut buf, out)?;
    }
    if !buf.is_empty() {
        out.append(buf)?;
    }
    let sums = figures(&total, cost)?;
    out.total(total_row(width, 3, sums))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_staff_write_them() {
        assert_eq!(size_label("2055516"), "205/55R16");
        assert_eq!(size_label("2958022.5"), "295/80R22.5");
        assert_eq!(size_label(""), "");
    }

    #[test]
    fn the_columns_follow_the_bands_and_cost_only_when_shown() {
        let plain: Vec<&str> = cols(false).iter().map(|c| c.header).collect();
        assert_eq!(plain, ["Brand", "Size", "Warehouse", "0–1 years", "1–2 years", "2–3 years", "3–5 years", "5+ years", "Unknown", "Total Qty"]);
        assert_eq!(cols(true).len(), plain.len() + 7);
    }
}
