//! Printing use cases (spec §2.7, DESIGN §5): the documents of one or several sheets, and
//! marking them printed after the browser printed them.

use std::collections::HashMap;

use diesel::prelude::*;

use super::orders::{ensure, mark_printed};
use domain::Actor;
use db::DbConn;
use db::accounts;
use db::masters as master_db;
use db::orders::{self as order_db, Order};
use db::schema::{customers, products, warehouses};
use domain::enums::{AreaType, OrderStatus, OrderType, PaymentType, ShipType, TaxType};
use domain::money::Cents;
use domain::status::Action;
use db::error::{AppError, AppResult};
use documents::rules::WarehouseRole;
use documents::{Company, DocKind, Document, Sheet, SheetLine, SheetWarehouse, Variant, build};

/// The most sheets one batch prints (a day's run of a busy branch fits; a runaway selection
/// does not build a page of thousands of A4 sheets).
pub const MAX_BATCH: usize = 100;

/// What the print page says once the sheets are marked (spec §2.7).
pub const PRINT_SUCCESSFUL: &str = "Print successful";

/// Why a sheet cannot be printed, said once for a single sheet or a batch.
const NOT_PRINTABLE: &str = "cannot be printed: only approved invoices and credit notes, and draft credit notes, are printed.";

/// Reads the sheet ids of a print request: repeated values and comma-separated lists alike,
/// each id once, in the order given.
pub fn parse_ids<'a>(values: impl IntoIterator<Item = &'a str>) -> AppResult<Vec<i64>> {
    let mut ids = Vec::new();
    for part in values.into_iter().flat_map(|v| v.split(',')) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let id: i64 = part.parse().map_err(|_| AppError::bad_request(format!("'{part}' is not a sheet id.")))?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    check_count(&ids)?;
    Ok(ids)
}

fn check_count(ids: &[i64]) -> AppResult<()> {
    if ids.is_empty() {
        return Err(AppError::bad_request("Select at least one invoice or credit note to print."));
    }
    if ids.len() > MAX_BATCH {
        return Err(AppError::bad_request(format!("Print at most {MAX_BATCH} sheets at once ({} were selected).", ids.len())));
    }
    Ok(())
}

/// Loads the sheets of the organisation (another company's id is not found) and refuses the
/// whole request, naming every sheet, when one of them may not be printed.
pub(crate) fn printable_sheets(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<Vec<Order>> {
    check_count(ids)?;
    let mut sheets = Vec::with_capacity(ids.len());
    for id in ids {
        sheets.push(order_db::get(conn, org, *id)?);
    }
    let refused: Vec<&str> = sheets.iter().filter(|o| ensure(o, Action::Print).is_err()).map(|o| o.no.as_str()).collect();
    if !refused.is_empty() {
        return Err(AppError::Conflict { message: format!("{} {NOT_PRINTABLE}", refused.join(", ")), code: Some("not_printable"), reasons: vec![] });
    }
    Ok(sheets)
}

/// The company's print info, with its logo as a URL.
pub fn company(conn: &mut DbConn, org: i64) -> AppResult<Company> {
    let o = accounts::organisation(conn, org)?;
    Ok(Company {
        name: o.name,
        abn: o.abn,
        address_line1: o.address_line1,
        address_line2: o.address_line2,
        phone: o.phone,
        email: o.email,
        bank_account_name: o.bank_account_name,
        bsb: o.bsb,
        bank_account: o.bank_account,
        department_id: o.department_id,
        logo: domain::admin::logo_url(&o.logo),
        website: o.website,
    })
}

/// The company's logo as the PDF templates receive it.
pub fn logo(conn: &mut DbConn, org: i64) -> AppResult<pdf::Logo> {
    let stored = accounts::organisation(conn, org)?.logo;
    Ok(match crate::admin::decode_logo(&stored) {
        Some((mime, bytes)) => pdf::Logo::Image { mime: mime.to_string(), bytes },
        None if stored.is_empty() || stored == domain::admin::DEFAULT_LOGO => pdf::Logo::Default,
        None => pdf::Logo::None,
    })
}

/// A document as a PDF file: its name (`INV-000123.pdf`, `3 documents (Standard).pdf`)
/// and bytes.
#[derive(Debug, Clone)]
pub struct PdfFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The sheets of `ids` as one A4 PDF (the same documents as the print page, typeset on the
/// blocking pool); refused as a whole, like the print page, when one may not be printed.
pub async fn pdf(core: &crate::Core, org: i64, ids: Vec<i64>, variant: Variant) -> AppResult<PdfFile> {
    let (docs, logo) = core.db.run(move |c| Ok((documents(c, org, &ids, variant)?, logo(c, org)?))).await?;
    let name = match docs.as_slice() {
        [one] if variant == Variant::Standard => format!("{}.pdf", one.no),
        [one] => format!("{} {}.pdf", one.no, variant.label()),
        many => format!("{} documents ({}).pdf", many.len(), variant.label()),
    };
    let bytes = typeset(move || pdf::sheets(&docs, &logo)).await?;
    Ok(PdfFile { name, bytes })
}

/// Runs a typst render on the blocking pool; a failure is ours (a template that does not
/// compile), answered as a 500 with the reason logged.
pub async fn typeset(render: impl FnOnce() -> Result<Vec<u8>, pdf::PdfError> + Send + 'static) -> AppResult<Vec<u8>> {
    tokio::task::spawn_blocking(render)
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("the PDF task failed: {e}")))?
        .map_err(|e| AppError::Internal(anyhow::Error::new(e)))
}

/// The documents of `ids`, in that order; nothing is built unless every sheet may print.
pub fn documents(conn: &mut DbConn, org: i64, ids: &[i64], variant: Variant) -> AppResult<Vec<Document>> {
    let sheets = printable_sheets(conn, org, ids)?;
    let company = company(conn, org)?;
    let dots_shown = accounts::organisation(conn, org)?.dot_on_documents;
    let staff: HashMap<i64, String> = master_db::all_employees(conn, org)?.into_iter().map(|e| (e.id, e.name)).collect();
    let mut docs = Vec::with_capacity(sheets.len());
    for o in sheets {
        let sheet = sheet_of(conn, &o, &staff, dots_shown)?;
        docs.push(build(&company, &sheet, variant).map_err(anyhow::Error::new)?);
    }
    Ok(docs)
}

fn sheet_of(conn: &mut DbConn, o: &Order, staff: &HashMap<i64, String>, dots_shown: bool) -> AppResult<Sheet> {
    let lines = order_db::lines_of(conn, o.id)?;
    let product_ids: Vec<i64> = lines.iter().filter_map(|l| l.product_id).collect();
    let draft = o.status == OrderStatus::Draft.as_i32();
    let mut dots = if dots_shown { line_dots(conn, o, &lines, &product_ids, draft)? } else { HashMap::new() };
    let product_info: HashMap<i64, (String, String, String)> = products::table
        .filter(products::org_id.eq(o.org_id))
        .filter(products::id.eq_any(&product_ids))
        .select((products::id, products::code, products::name, products::tag4))
        .load::<(i64, String, String, String)>(conn)?
        .into_iter()
        .map(|(id, code, name, tag4)| (id, (code, name, tag4)))
        .collect();
    let (customer_name, customer_code) = match o.customer_id {
        Some(c) => customers::table.filter(customers::org_id.eq(o.org_id)).find(c).select((customers::name, customers::code)).first::<(String, String)>(conn).optional()?.unwrap_or_default(),
        None => Default::default(),
    };
    let warehouse = match o.warehouse_id {
        Some(w) => warehouses::table
            .filter(warehouses::org_id.eq(o.org_id))
            .find(w)
            .select((warehouses::name, warehouses::address, warehouses::is_branch, warehouses::is_third_party))
            .first::<(String, String, bool, bool)>(conn)
            .optional()?
            .map(|(name, address, is_branch, is_third_party)| SheetWarehouse { name, address, role: WarehouseRole { is_branch, is_third_party } }),
        None => None,
    };
    let name = |id: Option<i64>| id.and_then(|i| staff.get(&i)).cloned();
    let kind = if o.order_type == OrderType::CreditNote.as_i32() { DocKind::CreditNote } else { DocKind::Invoice };
    Ok(Sheet {
        kind,
        draft,
        no: o.no.clone(),
        date: o.order_date,
        due_date: o.due_date,
        delivery_date: o.delivery_date,
        reference: o.reference.clone(),
        credit_for: order_db::credited_invoice(conn, o)?.map(|(_, no)| no),
        comments: o.comments.clone(),
        self_note: o.csr_self_note.clone(),
        customer_name,
        customer_code,
        address: o.address.clone(),
        phone: o.phone.clone(),
        payment_type: o.payment_type.and_then(PaymentType::from_i32).map(PaymentType::label).unwrap_or("").to_string(),
        area_type: o.area_type.and_then(AreaType::from_i32).map(AreaType::label).unwrap_or("").to_string(),
        ship_type: ShipType::from_i32(o.ship_type).unwrap_or(ShipType::Delivery),
        driver: name(o.driver_id),
        staff: name(o.csr_service_id).or_else(|| name(o.drafter_id)).unwrap_or_default(),
        tax_type: TaxType::from_i32(o.tax_type).unwrap_or_default(),
        warehouse,
        lines: lines
            .iter()
            .map(|l| {
                let (code, name, location) = l.product_id.and_then(|p| product_info.get(&p).cloned()).unwrap_or_default();
                let dots = dots.remove(&l.id).unwrap_or_default();
                SheetLine { code, name, description: l.description.clone(), qty: l.quantity, price: Cents(l.price), amount: Cents(l.amount), location, dots }
            })
            .collect(),
    })
}

/// The DOT codes of each tracked tyre line (issue 36), by line id: what the approval took
/// from or put into each lot (`line_lots`), or on a draft the code the line names.
fn line_dots(conn: &mut DbConn, o: &Order, lines: &[order_db::Line], product_ids: &[i64], draft: bool) -> AppResult<HashMap<i64, String>> {
    let mut moved: HashMap<i64, Vec<(i32, i64)>> = HashMap::new();
    if draft {
        let tracked = db::lots::tracked(conn, o.org_id, product_ids)?;
        for l in lines {
            if let (Some(dot), Some(p)) = (l.dot, l.product_id)
                && tracked.contains(&p)
            {
                moved.entry(l.id).or_default().push((dot, l.quantity));
            }
        }
    } else {
        for r in db::lots::of_orders(conn, o.org_id, &[o.id])? {
            moved.entry(r.line_id).or_default().push((r.dot, r.qty));
        }
    }
    Ok(moved.into_iter().map(|(line, m)| (line, domain::dot::codes_label(&m))).filter(|(_, label)| !label.is_empty()).collect())
}

/// Marks the sheets printed after the browser printed them, each with its history row, all
/// or none (one transaction: the caller's `Db::write`).
pub fn mark_all_printed(conn: &mut DbConn, actor: &Actor, ids: &[i64], variant: Variant) -> AppResult<()> {
    printable_sheets(conn, actor.org_id, ids)?;
    let how = if ids.len() == 1 { format!("Printed ({})", variant.label()) } else { format!("Printed ({}, batch of {})", variant.label(), ids.len()) };
    for id in ids {
        mark_printed(conn, actor, *id, Action::Print, &how)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_repeated_or_comma_separated_once_each() {
        assert_eq!(parse_ids(["3,1", "2", "3", " 7 , "]).unwrap(), vec![3, 1, 2, 7]);
        assert!(matches!(parse_ids(["x"]), Err(AppError::BadRequest(m)) if m.contains("'x'")));
        assert!(matches!(parse_ids([""]), Err(AppError::BadRequest(m)) if m.contains("at least one")));
        let many: Vec<String> = (1..=101).map(|i| i.to_string()).collect();
        assert!(matches!(parse_ids(many.iter().map(String::as_str)), Err(AppError::BadRequest(m)) if m.contains("at most 100")));
    }
}
