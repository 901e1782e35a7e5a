//! Quotations (issue 33): the quoting cart saved for a customer at the customer's own prices
//! (tier or OCOP, as the cart prices them), numbered Q-000001 per company, valid for the
//! company's number of days; listed per customer, printed as PDF, converted to an invoice
//! through the cart's addFromCart path while still valid.

use std::collections::HashMap;

use chrono::NaiveDate;
use diesel::prelude::*;

use crate::Core;
use crate::pricing;
use crate::print::{PdfFile, logo, typeset};
use db::DbConn;
use db::accounts;
use db::error::{AppError, AppResult};
use db::schema::{customers, products, quotation_lines, quotations, users};
use documents::quotation::{self as doc, Quotation, QuotationDoc, QuotationLine};
use domain::Actor;
use domain::enums::TaxType;
use domain::money::{Cents, Totals, line_amount};

/// The `order_sequences` row that numbers a company's quotations (sheet types are 1–7).
pub const SEQUENCE: i32 = 100;

/// The prefix of quotation numbers: `Q-000001`.
pub const PREFIX: &str = "Q";

/// The most lines one quotation holds (the cart holds no more).
pub const MAX_LINES: usize = 500;

pub const NO_CUSTOMER: &str = "Choose the customer (To CSR) before saving a quotation.";
pub const EMPTY_CART: &str = "The quoting cart is empty: add products before saving a quotation.";

/// A saved quotation as listed.
#[derive(Debug, Clone, Queryable)]
pub struct Listed {
    pub id: i64,
    pub no: String,
    pub date: NaiveDate,
    pub valid_until: NaiveDate,
    pub total: i64,
}

/// Reads cart items `productId:qty,…`: each product once (quantities summed), 1–999 each.
pub fn parse_items(items: &str) -> AppResult<Vec<(i64, i64)>> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for pair in items.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || AppError::bad_request(format!("'{pair}' is not a cart line (product id:quantity)."));
        let (p, n) = pair.split_once(':').ok_or_else(bad)?;
        let (p, n): (i64, i64) = (p.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if p <= 0 || !(1..=999).contains(&n) {
            return Err(bad());
        }
        match out.iter_mut().find(|(id, _)| *id == p) {
            Some(line) => line.1 = (line.1 + n).min(999),
            None => out.push((p, n)),
        }
    }
    if out.is_empty() {
        return Err(AppError::bad_request(EMPTY_CART));
    }
    if out.len() > MAX_LINES {
        return Err(AppError::bad_request(format!("A quotation holds at most {MAX_LINES} lines.")));
    }
    Ok(out)
}

#[derive(Insertable)]
#[diesel(table_name = quotations)]
struct NewQuotation {
    org_id: i64,
    no: String,
    customer_id: i64,
    quote_date: NaiveDate,
    valid_until: NaiveDate,
    total_qty: i64,
    total_amount: i64,
    total_gst: i64,
    created_by: Option<i64>,
    created_at: chrono::NaiveDateTime,
}

#[derive(Insertable)]
#[diesel(table_name = quotation_lines)]
struct NewLine {
    org_id: i64,
    quotation_id: i64,
    seq: i32,
    product_id: Option<i64>,
    code: String,
    description: String,
    quantity: i64,
    price: i64,
    amount: i64,
}

/// Saves the cart `items` as a quotation for `customer` of the actor's company, priced for
/// the customer now; answers its id and number. One transaction: all or nothing.
pub async fn save(core: &Core, actor: &Actor, customer: Option<i64>, items: &str) -> AppResult<(i64, String)> {
    let customer = customer.ok_or_else(|| AppError::bad_request(NO_CUSTOMER))?;
    let wanted = parse_items(items)?;
    let actor = actor.clone();
    core.db
        .write(move |c| {
            let org = actor.org_id;
            customers::table.filter(customers::org_id.eq(org)).find(customer).select(customers::id).first::<i64>(c).optional()?.ok_or_else(|| AppError::bad_request(NO_CUSTOMER))?;
            let ids: Vec<i64> = wanted.iter().map(|w| w.0).collect();
            let priced = pricing::quotes_for_customer(c, org, &ids, Some(customer))?;
            let names: HashMap<i64, (String, String)> = products::table
                .filter(products::org_id.eq(org))
                .filter(products::id.eq_any(&ids))
                .select((products::id, products::code, products::name))
                .load::<(i64, String, String)>(c)?
                .into_iter()
                .map(|(id, code, name)| (id, (code, name)))
                .collect();
            let mut lines = Vec::with_capacity(wanted.len());
            for (p, qty) in &wanted {
                let (Some((code, name)), Some(q)) = (names.get(p), priced.quotes.get(p)) else {
                    return Err(AppError::bad_request(format!("Product {p} is not one of the company's products; remove it from the cart.")));
                };
                let amount = line_amount(*qty, q.unit_price).ok_or_else(|| AppError::bad_request("A line's amount is too large."))?;
                lines.push((*p, code.clone(), name.clone(), *qty, q.unit_price, amount));
            }
            let totals = Totals::from_lines(lines.iter().map(|l| (l.3, l.5)), TaxType::GstOnIncome).ok_or_else(|| AppError::bad_request("The quotation's total is too large."))?;
            let o = accounts::organisation(c, org)?;
            let date = domain::dates::today(domain::dates::zone_of(&o.time_zone));
            let seq = db::orders::next_seq(c, org, SEQUENCE)?;
            let no = domain::enums::format_number(PREFIX, seq);
            let id: i64 = diesel::insert_into(quotations::table)
                .values(NewQuotation {
                    org_id: org,
                    no: no.clone(),
                    customer_id: customer,
                    quote_date: date,
                    valid_until: doc::valid_until(date, o.quotation_valid_days),
                    total_qty: totals.qty,
                    total_amount: totals.amount.0,
                    total_gst: totals.gst.0,
                    created_by: Some(actor.user_id),
                    created_at: db::now(),
                })
                .returning(quotations::id)
                .get_result(c)?;
            let rows: Vec<NewLine> = lines
                .into_iter()
                .enumerate()
                .map(|(i, (p, code, name, qty, price, amount))| NewLine {
                    org_id: org,
                    quotation_id: id,
                    seq: i32::try_from(i).unwrap_or(i32::MAX),
                    product_id: Some(p),
                    code,
                    description: name,
                    quantity: qty,
                    price: price.0,
                    amount: amount.0,
                })
                .collect();
            // One row per statement: a batch insert has no form common to both databases.
            for row in &rows {
                diesel::insert_into(quotation_lines::table).values(row).execute(c)?;
            }
            Ok((id, no))
        })
        .await
}

/// The quotations of customer `customer` of company `org`, newest first (404 for another
/// company's customer).
pub fn of_customer(conn: &mut DbConn, org: i64, customer: i64) -> AppResult<(String, Vec<Listed>)> {
    let name: String = customers::table.filter(customers::org_id.eq(org)).find(customer).select(customers::name).first(conn).optional()?.ok_or(AppError::NotFound)?;
    let rows = quotations::table
        .filter(quotations::org_id.eq(org))
        .filter(quotations::customer_id.eq(customer))
        .order((quotations::quote_date.desc(), quotations::id.desc()))
        .select((quotations::id, quotations::no, quotations::quote_date, quotations::valid_until, quotations::total_amount))
        .load::<Listed>(conn)?;
    Ok((name, rows))
}

/// A quotation's number, customer, date, valid-until and author.
pub(crate) type Head = (String, i64, NaiveDate, NaiveDate, Option<i64>);

/// The customer of quotation `id` of company `org` (404 for another company's).
pub fn customer_of(conn: &mut DbConn, org: i64, id: i64) -> AppResult<i64> {
    Ok(head(conn, org, id)?.1)
}

/// Quotation `id` of company `org` (404 for another company's).
pub(crate) fn head(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Head> {
    quotations::table
        .filter(quotations::org_id.eq(org))
        .find(id)
        .select((quotations::no, quotations::customer_id, quotations::quote_date, quotations::valid_until, quotations::created_by))
        .first(conn)
        .optional()?
        .ok_or(AppError::NotFound)
}

fn lines(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Vec<(Option<i64>, String, String, i64, i64, i64)>> {
    Ok(quotation_lines::table
        .filter(quotation_lines::org_id.eq(org))
        .filter(quotation_lines::quotation_id.eq(id))
        .order(quotation_lines::seq)
        .select((quotation_lines::product_id, quotation_lines::code, quotation_lines::description, quotation_lines::quantity, quotation_lines::price, quotation_lines::amount))
        .load(conn)?)
}

/// The printed quotation `id` of company `org` (404 for another company's).
pub fn document(conn: &mut DbConn, org: i64, id: i64) -> AppResult<QuotationDoc> {
    let (no, customer, date, valid_until, by) = head(conn, org, id)?;
    let (customer_name, customer_code, address, phone, email): (String, String, String, String, String) = customers::table
        .filter(customers::org_id.eq(org))
        .find(customer)
        .select((customers::name, customers::code, customers::address, customers::phone, customers::email))
        .first(conn)?;
    let staff = match by {
        Some(u) => users::table.find(u).select(users::name).first::<String>(conn).optional()?.unwrap_or_default(),
        None => String::new(),
    };
    let q = Quotation {
        no,
        date,
        valid_until,
        customer_name,
        customer_code,
        address,
        phone,
        email,
        staff,
        lines: lines(conn, org, id)?
            .into_iter()
            .map(|(_, code, description, qty, price, amount)| QuotationLine { code, description, qty, price: Cents(price), amount: Cents(amount) })
            .collect(),
    };
    let company = crate::print::company(conn, org)?;
    doc::build(&company, &q).map_err(|e| AppError::Internal(anyhow::Error::new(e)))
}

/// Quotation `quotation_id` of company `org` as a PDF (`Q-000001.pdf`), for the page and
/// for the e-mail of a quotation.
pub async fn quotation_pdf(core: &Core, org: i64, quotation_id: i64) -> AppResult<PdfFile> {
    let (d, logo) = core.db.run(move |c| Ok((document(c, org, quotation_id)?, logo(c, org)?))).await?;
    let name = format!("{}.pdf", d.no);
    let bytes = typeset(move || pdf::quotation(&d, &logo)).await?;
    Ok(PdfFile { name, bytes })
}

/// A valid quotation's lines for an invoice: the cart items `productId:qty,…`, the customer
/// and the quoted unit price of each product. An expired quotation is refused.
pub struct ForInvoice {
    pub items: String,
    pub customer: i64,
    pub prices: HashMap<i64, Cents>,
}

/// What converting quotation `id` of company `org` to an invoice starts from, on `today`
/// of the company (404 for another company's; 409 with the reason once expired).
pub fn for_invoice(conn: &mut DbConn, org: i64, id: i64) -> AppResult<ForInvoice> {
    let (no, customer, _, valid_until, _) = head(conn, org, id)?;
    let o = accounts::organisation(conn, org)?;
    let today = domain::dates::today(domain::dates::zone_of(&o.time_zone));
    if doc::expired(valid_until, today) {
        return Err(AppError::Conflict {
            message: format!("Quotation {no} expired on {}: its prices no longer hold. Save a new quotation from the quoting page.", domain::dates::date(valid_until)),
            code: Some("quotation_expired"),
            reasons: vec![],
        });
    }
    let lines = lines(conn, org, id)?;
    let items = lines.iter().filter_map(|l| l.0.map(|p| format!("{p}:{}", l.3))).collect::<Vec<_>>().join(",");
    let prices = lines.iter().filter_map(|l| l.0.map(|p| (p, Cents(l.4)))).collect();
    Ok(ForInvoice { items, customer, prices })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cart_items_are_read_summed_and_checked() {
        assert_eq!(parse_items("3:2, 4:1,3:5").unwrap(), vec![(3, 7), (4, 1)]);
        assert_eq!(parse_items("3:998,3:5").unwrap(), vec![(3, 999)]);
        assert!(matches!(parse_items(""), Err(AppError::BadRequest(m)) if m == EMPTY_CART));
        for bad in ["x", "3", "3:0", "3:1000", "-1:2", "3:2:1"] {
            assert!(matches!(parse_items(bad), Err(AppError::BadRequest(m)) if m.contains("is not a cart line")), "{bad}");
        }
    }
}
