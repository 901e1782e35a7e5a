//! The purchase order as its supplier sees it (issue 33), as a PDF. Only staff who may see
//! purchase prices ([`domain::permissions::Sight::sees_cost`]) get it: the web checks the
//! sight before calling; this reads inside the company (another company's PO is not found).

use std::collections::HashMap;

use diesel::prelude::*;

use crate::Core;
use crate::print::{PdfFile, logo, typeset};
use db::DbConn;
use db::error::{AppError, AppResult};
use db::masters as master_db;
use db::orders as order_db;
use db::schema::{products, suppliers, warehouses};
use documents::purchase_order::{self as doc, PoLine, PurchaseOrder, PurchaseOrderDoc};
use domain::enums::{OrderStatus, OrderType, TaxType};
use domain::money::Cents;

/// The printed PO `id` of company `org`: 404 for another company's sheet or a sheet that is
/// no purchase order, 409 for a voided one.
pub fn document(conn: &mut DbConn, org: i64, id: i64) -> AppResult<PurchaseOrderDoc> {
    let o = order_db::get(conn, org, id)?;
    if o.order_type != OrderType::PurchaseOrder.as_i32() {
        return Err(AppError::NotFound);
    }
    if o.status == OrderStatus::Voided.as_i32() {
        return Err(AppError::Conflict { message: format!("{} is voided: a voided purchase order is not sent to the supplier.", o.no), code: Some("voided"), reasons: vec![] });
    }
    let (supplier_name, supplier_code, first, last) = match o.supplier_id {
        Some(s) => suppliers::table
            .filter(suppliers::org_id.eq(org))
            .find(s)
            .select((suppliers::name, suppliers::code, suppliers::primary_person_first, suppliers::primary_person_last))
            .first::<(String, String, String, String)>(conn)
            .optional()?
            .unwrap_or_default(),
        None => Default::default(),
    };
    let deliver_to = match o.warehouse_id {
        Some(w) => warehouses::table.filter(warehouses::org_id.eq(org)).find(w).select((warehouses::name, warehouses::address)).first::<(String, String)>(conn).optional()?,
        None => None,
    };
    let lines = order_db::lines_of(conn, o.id)?;
    let foreign = o.currency != domain::currency::AUD;
    let ids: Vec<i64> = lines.iter().filter_map(|l| l.product_id).collect();
    let info: HashMap<i64, (String, String)> = products::table
        .filter(products::org_id.eq(org))
        .filter(products::id.eq_any(&ids))
        .select((products::id, products::code, products::name))
        .load::<(i64, String, String)>(conn)?
        .into_iter()
        .map(|(id, code, name)| (id, (code, name)))
        .collect();
    let staff = match o.drafter_id {
        Some(e) => master_db::all_employees(conn, org)?.into_iter().find(|x| x.id == e).map(|x| x.name).unwrap_or_default(),
        None => String::new(),
    };
    let po = PurchaseOrder {
        no: o.no.clone(),
        date: o.order_date,
        expected: o.delivery_date,
        reference: o.reference.clone(),
        comments: o.comments.clone(),
        supplier_name,
        supplier_code,
        supplier_contact: format!("{} {}", first.trim(), last.trim()).trim().to_string(),
        deliver_to,
        tax_type: TaxType::from_i32(o.tax_type).unwrap_or_default(),
        staff,
        lines: lines
            .iter()
            .map(|l| {
                let (code, name) = l.product_id.and_then(|p| info.get(&p).cloned()).unwrap_or_default();
                // A foreign supplier is sent its own prices (issue 35).
                let (price, amount) = if foreign { (l.fx_price, l.fx_amount) } else { (l.price, l.amount) };
                PoLine { code, name, description: l.description.clone(), qty: l.quantity, price: Cents(price), amount: Cents(amount) }
            })
            .collect(),
        currency: o.currency.clone(),
        rate: foreign.then_some(domain::currency::Rate(o.exchange_rate)),
    };
    let company = crate::print::company(conn, org)?;
    doc::build(&company, &po).map_err(|e| AppError::Internal(anyhow::Error::new(e)))
}

/// Purchase order `po_id` of company `org` as a PDF (`PO-000001.pdf`), for the page and the
/// e-mail to the supplier. The caller has checked that the requester may see purchase prices.
pub async fn purchase_order_pdf(core: &Core, org: i64, po_id: i64) -> AppResult<PdfFile> {
    let (d, logo) = core.db.run(move |c| Ok((document(c, org, po_id)?, logo(c, org)?))).await?;
    let name = format!("{}.pdf", d.no);
    let bytes = typeset(move || pdf::purchase_order(&d, &logo)).await?;
    Ok(PdfFile { name, bytes })
}
