//! The quotation (issue 33): a customer's prices for the quoting cart's products, numbered
//! and kept, valid for the company's number of days. Laid out by `templates/pdf/quotation.typ`,
//! which lets typst paginate (there is no HTML print page to agree with).

use chrono::{Days, NaiveDate};

use super::document::{Company, CustomerBlock, MoneyTotals, Row, Supplier, company_block, day, dollars};
use super::rules;
use domain::enums::TaxType;
use domain::money::{Cents, Totals, TotalsOverflow, gst_of_inclusive};

/// How long a quotation is valid when the company has not said (Settings).
pub const DEFAULT_VALID_DAYS: i32 = 7;

/// The day a quotation dated `date` stops being valid: `days` later (the last valid day).
pub fn valid_until(date: NaiveDate, days: i32) -> NaiveDate {
    date.checked_add_days(Days::new(u64::try_from(days.max(0)).unwrap_or(0))).unwrap_or(date)
}

/// Whether a quotation valid until `until` has expired on `today`.
pub fn expired(until: NaiveDate, today: NaiveDate) -> bool {
    today > until
}

/// A kept quotation line: the customer's tax-inclusive unit price when it was quoted.
#[derive(Debug, Clone, Default)]
pub struct QuotationLine {
    pub code: String,
    pub description: String,
    pub qty: i64,
    pub price: Cents,
    pub amount: Cents,
}

/// A kept quotation with its customer.
#[derive(Debug, Clone)]
pub struct Quotation {
    pub no: String,
    pub date: NaiveDate,
    pub valid_until: NaiveDate,
    pub customer_name: String,
    pub customer_code: String,
    pub address: String,
    pub phone: String,
    pub email: String,
    pub staff: String,
    pub lines: Vec<QuotationLine>,
}

/// The quotation as printed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct QuotationDoc {
    pub title: &'static str,
    pub no: String,
    pub date: String,
    pub valid_until: String,
    pub supplier: Supplier,
    pub customer: CustomerBlock,
    pub customer_email: String,
    pub staff: String,
    /// Prices and amounts are printed without GST (departments 7 and 8).
    pub ex_gst: bool,
    pub rows: Vec<Row>,
    pub totals: MoneyTotals,
    /// "Prices are valid until … and include GST." (or exclude it).
    pub validity: String,
}

/// Quotation lines are priced including GST, as sales sheets are by default.
const TAX: TaxType = TaxType::GstOnIncome;

/// The printed quotation of `q` for `company` (GST rule of spec §2.7 by department).
pub fn build(company: &Company, q: &Quotation) -> Result<QuotationDoc, TotalsOverflow> {
    let dept = company.department_id;
    let ex_gst = rules::prices_exclude_gst(dept);
    let rows = q
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let gst = gst_of_inclusive(l.amount, TAX);
            let (price, amount) = if ex_gst { (rules::printed_price(dept, l.price), Cents(l.amount.0 - gst.0)) } else { (l.price, l.amount) };
            Row {
                no: i + 1,
                description: rules::printed_description(&l.code, "", &l.description),
                dots: String::new(),
                location: String::new(),
                qty: l.qty,
                price: price.grouped(),
                gst: gst.grouped(),
                amount: amount.grouped(),
            }
        })
        .collect();
    let totals = Totals::from_lines(q.lines.iter().map(|l| (l.qty, l.amount)), TAX).ok_or_else(|| TotalsOverflow(q.no.clone()))?;
    let until = day(q.valid_until);
    Ok(QuotationDoc {
        title: "QUOTATION",
        no: q.no.clone(),
        date: day(q.date),
        validity: format!("Prices are valid until {until} and {} GST.", if ex_gst { "exclude" } else { "include" }),
        valid_until: until,
        supplier: company_block(company),
        customer: CustomerBlock { name: q.customer_name.clone(), abn: rules::customer_abn(&q.customer_code), address: q.address.trim().to_string(), phone: q.phone.clone() },
        customer_email: q.email.trim().to_string(),
        staff: q.staff.clone(),
        ex_gst,
        rows,
        totals: MoneyTotals { subtotal: Some(dollars(totals.subtotal)), gst: dollars(totals.gst), total_label: "TOTAL AUD", total: dollars(totals.amount) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::fixtures::company;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    pub(crate) fn quotation() -> Quotation {
        Quotation {
            no: "Q-000012".into(),
            date: d(2026, 11, 20),
            valid_until: valid_until(d(2026, 11, 20), 7),
            customer_name: "Harbour Auto Repairs".into(),
            customer_code: "51824753556".into(),
            address: "4 Wharf St, Pyrmont NSW 2009".into(),
            phone: "02 9660 1234".into(),
            email: "accounts@harbourauto.example".into(),
            staff: "Sam".into(),
            lines: vec![
                QuotationLine { code: "MIC2055516".into(), description: "Michelin Primacy 4 205/55R16".into(), qty: 4, price: Cents(189_00), amount: Cents(756_00) },
                QuotationLine { code: "VAL".into(), description: "Valve".into(), qty: 3, price: Cents(3_33), amount: Cents(9_99) },
            ],
        }
    }

    #[test]
    fn valid_until_adds_the_days_and_expires_the_day_after() {
        assert_eq!(valid_until(d(2026, 11, 20), 7), d(2026, 11, 27));
        assert_eq!(valid_until(d(2026, 12, 30), 3), d(2027, 1, 2));
        assert_eq!(valid_until(d(2026, 11, 20), 365), d(2027, 11, 20));
        assert!(!expired(d(2026, 11, 27), d(2026, 11, 27)), "valid on its last day");
        assert!(expired(d(2026, 11, 27), d(2026, 11, 28)));
    }

    #[test]
    fn numbers_totals_and_the_validity_sentence() {
        let doc = build(&company(4), &quotation()).unwrap();
        assert_eq!((doc.title, doc.no.as_str(), doc.date.as_str(), doc.valid_until.as_str()), ("QUOTATION", "Q-000012", "20 Nov 2026", "27 Nov 2026"));
        assert_eq!(doc.rows.len(), 2);
        assert_eq!((doc.rows[0].no, doc.rows[0].qty, doc.rows[0].price.as_str(), doc.rows[0].amount.as_str()), (1, 4, "189.00", "756.00"));
        assert_eq!(doc.rows[0].gst, "68.73");
        assert_eq!(doc.rows[0].description, "MIC2055516 Michelin Primacy 4 205/55R16");
        // GST is 1/11 of the total, taken once: 765.99 / 11 = 69.635… → 69.64.
        assert_eq!(doc.totals, MoneyTotals { subtotal: Some("$696.35".into()), gst: "$69.64".into(), total_label: "TOTAL AUD", total: "$765.99".into() });
        assert_eq!(doc.validity, "Prices are valid until 27 Nov 2026 and include GST.");
        assert_eq!(doc.customer.abn.as_deref(), Some("51824753556"));
        assert_eq!(doc.supplier.name, "Southern Cross Tyres Pty Ltd");
        assert!(!doc.ex_gst);
    }

    #[test]
    fn departments_7_and_8_print_prices_without_gst() {
        for dept in [7, 8] {
            let doc = build(&company(dept), &quotation()).unwrap();
            assert!(doc.ex_gst);
            assert_eq!((doc.rows[0].price.as_str(), doc.rows[0].amount.as_str()), ("171.82", "687.27"), "dept {dept}");
            assert_eq!(doc.totals.total, "$765.99", "the total still includes GST");
            assert_eq!(doc.validity, "Prices are valid until 27 Nov 2026 and exclude GST.");
        }
    }
}
