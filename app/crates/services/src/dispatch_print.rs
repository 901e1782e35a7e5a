//! Dispatch on paper (issue 34, docs/decisions/dispatch.md): the morning's picking list of
//! the chosen sheets of one warehouse (one row per product in walking order, or one slip per
//! sheet for pick-ups at the counter) and a driver's run sheet with the QR code of the run's
//! link. Every id is resolved inside the actor's company; a sheet of another company or
//! warehouse, or not approved, is refused with a message.

use std::collections::HashMap;

use chrono::NaiveDate;
use db::dispatch as store;
use db::error::{AppError, AppResult};
use db::orders as order_db;
use db::refs::{Unchecked, Warehouse};
use db::schema::{customers, warehouses};
use db::DbConn;
use diesel::prelude::*;
use domain::enums::ShipType;
use domain::money::Cents;
use domain::picking::{self, PickItem, PickRow};
use domain::Actor;
use serde::Serialize;

use crate::dispatch::{chosen, to_collect};
use crate::print::{PdfFile, logo, typeset};
use crate::Core;

/// A row of the picking list as printed.
#[derive(Debug, Clone, Serialize)]
pub struct PrintedRow {
    pub location: String,
    pub code: String,
    pub description: String,
    /// The DOT codes to pick, 'DOT 2323 ×2' (issue 36); '' for a product not tracked by DOT.
    pub dots: String,
    pub total: String,
    /// 'INV-000001 × 2, INV-000002 × 1'.
    pub sheets: String,
}

impl PrintedRow {
    fn of(r: &PickRow) -> Self {
        let unit = if r.unit.trim().is_empty() { String::new() } else { format!(" {}", r.unit.trim()) };
        Self {
            location: r.printed_location(),
            code: r.code.clone(),
            description: r.description.clone(),
            dots: r.dots(),
            total: format!("{}{unit}", r.total),
            sheets: r.sheets.iter().map(|(no, q)| format!("{no} × {q}")).collect::<Vec<_>>().join(", "),
        }
    }
}

/// A sheet on the picking list.
#[derive(Debug, Clone, Serialize)]
pub struct PickSheet {
    pub no: String,
    pub customer: String,
}

/// One sheet's slip for the counter.
#[derive(Debug, Clone, Serialize)]
pub struct Slip {
    pub no: String,
    pub customer: String,
    pub phone: String,
    pub date: String,
    pub ship: String,
    pub comment: String,
    pub rows: Vec<PrintedRow>,
    pub total_qty: String,
}

/// The picking list as the template reads it.
#[derive(Debug, Clone, Serialize)]
pub struct PickingDoc {
    pub company: String,
    pub warehouse: String,
    /// The day printed (dd/mm/yyyy), in the company's zone.
    pub date: String,
    pub per_sheet: bool,
    pub sheets: Vec<PickSheet>,
    pub rows: Vec<PrintedRow>,
    pub total_qty: String,
    pub slips: Vec<Slip>,
}

const TOO_MANY: &str = "The quantities are too large to add up.";

fn customer_names(c: &mut DbConn, org: i64, sheets: &[order_db::Order]) -> AppResult<HashMap<i64, (String, String)>> {
    let ids: Vec<i64> = sheets.iter().filter_map(|o| o.customer_id).collect();
    Ok(customers::table
        .filter(customers::org_id.eq(org))
        .filter(customers::id.eq_any(&ids))
        .select((customers::id, customers::name, customers::code))
        .load::<(i64, String, String)>(c)?
        .into_iter()
        .map(|(id, name, code)| (id, (name, code)))
        .collect())
}

/// Builds the picking list (or, with `per_sheet`, the slips) of the chosen sheets.
pub fn picking_doc(c: &mut DbConn, org: i64, warehouse: i64, ids: &[i64], per_sheet: bool) -> AppResult<PickingDoc> {
    let wh = Unchecked::<Warehouse>::new(warehouse).resolve(c, org, "warehouse_id")?.id();
    let sheets = chosen(c, org, wh, ids, domain::status::Action::EditDelivery)?;
    let warehouse_name: String = warehouses::table.filter(warehouses::org_id.eq(org)).find(wh).select(warehouses::name).first(c)?;
    let organisation = db::accounts::organisation(c, org)?;
    let zone = domain::dates::zone_of(&organisation.time_zone);
    let order_ids: Vec<i64> = sheets.iter().map(|o| o.id).collect();
    let lines = store::pick_lines(c, org, &order_ids)?;
    // What each approved line took from each lot (issue 36): the codes to pick.
    let mut taken: HashMap<i64, Vec<(i32, i64)>> = HashMap::new();
    if lines.iter().any(|l| l.dot_tracked == Some(true)) {
        for r in db::lots::of_orders(c, org, &order_ids)? {
            taken.entry(r.line_id).or_default().push((r.dot, r.qty));
        }
    }
    let names = customer_names(c, org, &sheets)?;
    let customer_of = |o: &order_db::Order| o.customer_id.and_then(|id| names.get(&id)).map(|(n, _)| n.clone()).unwrap_or_default();
    let items_of = |sheet: Option<i64>| -> Vec<PickItem> {
        // The lines in the order the sheets were chosen, then line order.
        sheets
            .iter()
            .filter(|o| sheet.is_none_or(|s| s == o.id))
            .flat_map(|o| lines.iter().filter(move |l| l.order_id == o.id))
            .map(|l| PickItem {
                sheet: l.no.clone(),
                product_id: l.product_id,
                code: l.code.clone().unwrap_or_default(),
                description: l.description.clone(),
                unit: l.unit.clone(),
                quantity: l.quantity,
                tag4: l.tag4.clone().unwrap_or_default(),
                tracked: l.dot_tracked == Some(true),
                lots: taken.get(&l.line_id).cloned().unwrap_or_default(),
            })
            .collect()
    };
    let overflow = || AppError::BadRequest(TOO_MANY.into());
    let mut doc = PickingDoc {
        company: organisation.name.clone(),
        warehouse: warehouse_name,
        date: domain::dates::today(zone).format("%d/%m/%Y").to_string(),
        per_sheet,
        sheets: sheets.iter().map(|o| PickSheet { no: o.no.clone(), customer: customer_of(o) }).collect(),
        rows: Vec::new(),
        total_qty: String::new(),
        slips: Vec::new(),
    };
    if per_sheet {
        for o in &sheets {
            let rows = picking::picking_list(&items_of(Some(o.id))).ok_or_else(overflow)?;
            let total = picking::total_quantity(&rows).ok_or_else(overflow)?;
            let day: NaiveDate = o.delivery_date.unwrap_or(o.order_date);
            doc.slips.push(Slip {
                no: o.no.clone(),
                customer: customer_of(o),
                phone: o.phone.clone(),
                date: day.format("%d/%m/%Y").to_string(),
                ship: ShipType::from_i32(o.ship_type).map_or("", ShipType::label).to_string(),
                comment: o.delivery_comment.clone(),
                rows: rows.iter().map(PrintedRow::of).collect(),
                total_qty: total.to_string(),
            });
        }
    } else {
        let rows = picking::picking_list(&items_of(None)).ok_or_else(overflow)?;
        doc.total_qty = picking::total_quantity(&rows).ok_or_else(overflow)?.to_string();
        doc.rows = rows.iter().map(PrintedRow::of).collect();
    }
    Ok(doc)
}

/// The picking list (or slips) of the chosen sheets of `warehouse`, as a PDF.
pub async fn picking_pdf(core: &Core, actor: &Actor, warehouse: i64, ids: Vec<i64>, per_sheet: bool) -> AppResult<PdfFile> {
    let org = actor.org_id;
    let (doc, logo) = core.db.run(move |c| Ok((picking_doc(c, org, warehouse, &ids, per_sheet)?, logo(c, org)?))).await?;
    let name = if per_sheet { format!("Pick-up slips {}.pdf", doc.date.replace('/', "-")) } else { format!("Picking list {}.pdf", doc.date.replace('/', "-")) };
    let bytes = typeset(move || pdf::render(pdf::PICKING_LIST, &doc, &logo)).await?;
    Ok(PdfFile { name, bytes })
}

/// A stop on the run sheet as printed.
#[derive(Debug, Clone, Serialize)]
pub struct RunStop {
    pub n: usize,
    /// 'Name (CODE)'.
    pub customer: String,
    pub address: String,
    pub phone: String,
    pub sheets: String,
    pub qty: i64,
    pub comment: String,
    /// The amount to collect, '' for none.
    pub collect: String,
    /// How ('Cash', 'EFT', …), '' for none.
    pub pay: String,
}

/// The run sheet as the template reads it.
#[derive(Debug, Clone, Serialize)]
pub struct RunSheetDoc {
    pub company: String,
    pub run: String,
    pub driver: String,
    pub date: String,
    pub warehouse: String,
    /// The run's link, printed beside its QR code (none once the run is closed).
    pub link: Option<String>,
    /// Where the template opens the QR code.
    pub qr: Option<String>,
    pub stops: Vec<RunStop>,
    pub total_qty: i64,
    pub total_collect: String,
}

const QR_FILE: &str = "qr.png";

/// The QR code of `text` as a black-on-white PNG (8 pixels a module, with its quiet zone
/// of 4 modules), for typst to draw without smoothing.
pub fn qr_png(text: &str) -> AppResult<Vec<u8>> {
    const SCALE: usize = 8;
    const QUIET: usize = 4;
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M).map_err(|e| AppError::Internal(anyhow::anyhow!("the run link does not fit a QR code: {e}")))?;
    let modules = code.width();
    let colors = code.to_colors();
    let side = (modules + 2 * QUIET) * SCALE;
    let mut pixels = vec![255u8; side * side];
    for (i, color) in colors.iter().enumerate() {
        if *color == qrcode::Color::Dark {
            let (mx, my) = (i % modules + QUIET, i / modules + QUIET);
            for y in my * SCALE..(my + 1) * SCALE {
                pixels[y * side + mx * SCALE..y * side + (mx + 1) * SCALE].fill(0);
            }
        }
    }
    let mut out = Vec::new();
    let side32 = u32::try_from(side).map_err(|_| AppError::Internal(anyhow::anyhow!("the QR code is too large")))?;
    let mut encoder = png::Encoder::new(&mut out, side32, side32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let write = |e: png::EncodingError| AppError::Internal(anyhow::anyhow!("the QR code could not be written: {e}"));
    let mut writer = encoder.write_header().map_err(write)?;
    writer.write_image_data(&pixels).map_err(write)?;
    writer.finish().map_err(write)?;
    Ok(out)
}

/// The run sheet of a run of the actor's company (another company's is not found).
/// `link_of` makes the full link from the path `/r/{token}` (the web knows the address);
/// the run's live link is kept, or a new one issued when it has none or it expired.
pub async fn run_sheet_pdf(core: &Core, actor: &Actor, run: i64, link_of: impl FnOnce(&str) -> String) -> AppResult<PdfFile> {
    let view = crate::dispatch::run(core, actor, run).await?;
    // A closed run has no link any more: its sheet prints as the day's record, without one.
    let link = if view.run.closed_at.is_some() { None } else { Some(link_of(&format!("/r/{}", crate::dispatch::live_link(core, actor, run).await?))) };
    let org = actor.org_id;
    let wh = view.run.warehouse_id;
    let (company, warehouse, logo) = core
        .db
        .run(move |c| {
            let name = db::accounts::organisation(c, org)?.name;
            let warehouse: String = warehouses::table.filter(warehouses::org_id.eq(org)).find(wh).select(warehouses::name).first(c)?;
            Ok((name, warehouse, logo(c, org)?))
        })
        .await?;
    let total = view.total_to_collect().ok_or_else(|| AppError::BadRequest("The amounts to collect are too large to add up.".into()))?;
    let total_qty = view.stops.iter().try_fold(0i64, |s, x| s.checked_add(x.total_qty)).ok_or_else(|| AppError::BadRequest(TOO_MANY.into()))?;
    let doc = RunSheetDoc {
        company,
        run: view.run.name.clone(),
        driver: view.driver.clone(),
        date: view.run.run_date.format("%d/%m/%Y").to_string(),
        warehouse,
        link: link.clone(),
        qr: link.as_ref().map(|_| format!("/{QR_FILE}")),
        stops: view
            .stops
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let due = to_collect(s);
                let customer = match (s.customer.as_deref(), s.customer_code.as_deref()) {
                    (Some(n), Some(code)) if !code.is_empty() => format!("{n} ({code})"),
                    (Some(n), _) => n.to_string(),
                    (None, _) => String::new(),
                };
                RunStop {
                    n: i + 1,
                    customer,
                    address: s.address.clone(),
                    phone: s.phone.clone(),
                    sheets: s.no.clone(),
                    qty: s.total_qty,
                    comment: s.delivery_comment.clone(),
                    collect: due.map(|(_, c)| money(c)).unwrap_or_default(),
                    pay: due.map(|(how, _)| how.label().to_string()).unwrap_or_default(),
                }
            })
            .collect(),
        total_qty,
        total_collect: money(total),
    };
    let images = match &link {
        Some(l) => vec![(QR_FILE, qr_png(l)?)],
        None => Vec::new(),
    };
    let name = format!("Run sheet {} {}.pdf", doc.run, view.run.run_date.format("%Y-%m-%d"));
    let bytes = typeset(move || pdf::render_with_images(pdf::RUN_SHEET, &doc, &logo, &images)).await?;
    Ok(PdfFile { name, bytes })
}

fn money(c: Cents) -> String {
    format!("${c}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_qr_code_is_a_png_picture() {
        let png = qr_png("https://tyredesk.example/r/ABCDEFGHJKMNPQRSTUVW").unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!(info.width, info.height);
        assert_eq!(info.width % 8, 0, "whole modules");
    }
}
