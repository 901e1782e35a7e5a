//! The purchase order as the supplier sees it (issue 33): what is ordered, at what unit
//! cost, delivered where. Laid out by `templates/pdf/purchase_order.typ`. Unit costs are
//! printed as the sheet stores them: tax-inclusive under a tax type that charges GST, with
//! no GST under No Tax.

use chrono::NaiveDate;

use super::document::{Company, Supplier, company_block, day, dollars};
use super::rules;
use domain::enums::TaxType;
use domain::money::{Cents, Totals, TotalsOverflow, gst_of_inclusive};

/// A PO line as stored, with its product's code and name.
#[derive(Debug, Clone, Default)]
pub struct PoLine {
    pub code: String,
    pub name: String,
    pub description: String,
    pub qty: i64,
    pub price: Cents,
    pub amount: Cents,
}

/// A purchase order with its supplier and the warehouse it is delivered to.
#[derive(Debug, Clone)]
pub struct PurchaseOrder {
    pub no: String,
    pub date: NaiveDate,
    /// The expected (delivery) date, if any.
    pub expected: Option<NaiveDate>,
    pub reference: String,
    pub comments: String,
    pub supplier_name: String,
    pub supplier_code: String,
    pub supplier_contact: String,
    /// The receiving warehouse's name and address; `None`: the company's address.
    pub deliver_to: Option<(String, String)>,
    pub tax_type: TaxType,
    pub staff: String,
    /// The lines, in `currency`: a foreign supplier's own prices (issue 35).
    pub lines: Vec<PoLine>,
    /// The currency the supplier is paid in (ISO code).
    pub currency: String,
    /// Units of `currency` per 1 AUD, when it is not AUD.
    pub rate: Option<domain::currency::Rate>,
}

/// One printed PO line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PoRow {
    pub no: usize,
    pub code: String,
    pub description: String,
    pub qty: i64,
    pub price: String,
    pub gst: String,
    pub amount: String,
}

/// The PO as printed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PurchaseOrderDoc {
    pub title: &'static str,
    pub no: String,
    pub facts: Vec<(&'static str, String)>,
    /// The company ordering (the document's sender).
    pub buyer: Supplier,
    /// The supplier's block: name, then account code and contact where known.
    pub supplier: Vec<String>,
    pub deliver_to: Vec<String>,
    /// 'Unit Cost (incl. GST)' or 'Unit Cost'.
    pub price_heading: &'static str,
    pub rows: Vec<PoRow>,
    pub total_qty: i64,
    pub subtotal: String,
    pub gst: String,
    pub total: String,
    /// 'TOTAL AUD', 'TOTAL USD'.
    pub total_label: String,
    pub comments: String,
}

/// The printed PO of `po` for `company`.
pub fn build(company: &Company, po: &PurchaseOrder) -> Result<PurchaseOrderDoc, TotalsOverflow> {
    let rows = po
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let text = rules::printed_description("", &l.name, &l.description);
            PoRow {
                no: i + 1,
                code: l.code.trim().to_string(),
                description: text,
                qty: l.qty,
                price: l.price.grouped(),
                gst: gst_of_inclusive(l.amount, po.tax_type).grouped(),
                amount: l.amount.grouped(),
            }
        })
        .collect();
    let totals = Totals::from_lines(po.lines.iter().map(|l| (l.qty, l.amount)), po.tax_type).ok_or_else(|| TotalsOverflow(po.no.clone()))?;
    let mut facts = vec![("Date", day(po.date))];
    if let Some(e) = po.expected {
        facts.push(("Expected", day(e)));
    }
    if !po.reference.trim().is_empty() {
        facts.push(("Reference", po.reference.trim().to_string()));
    }
    if !po.staff.trim().is_empty() {
        facts.push(("Ordered by", po.staff.trim().to_string()));
    }
    if let Some(rate) = po.rate {
        facts.push(("Currency", po.currency.clone()));
        facts.push(("Exchange rate", domain::currency::rate_text(&po.currency, rate)));
    }
    let mut supplier = vec![po.supplier_name.clone()];
    if !po.supplier_code.trim().is_empty() {
        supplier.push(format!("Account {}", po.supplier_code.trim()));
    }
    if !po.supplier_contact.trim().is_empty() {
        supplier.push(format!("Attn: {}", po.supplier_contact.trim()));
    }
    let buyer = company_block(company);
    let deliver_to = match &po.deliver_to {
        Some((name, address)) => [name, address].into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        None => std::iter::once(buyer.name.clone()).chain(buyer.address.iter().cloned()).collect(),
    };
    Ok(PurchaseOrderDoc {
        title: "PURCHASE ORDER",
        no: po.no.clone(),
        facts,
        buyer,
        supplier,
        deliver_to,
        price_heading: if po.tax_type.charges_gst() { "Unit Cost (incl. GST)" } else { "Unit Cost" },
        rows,
        total_qty: totals.qty,
        subtotal: dollars(totals.subtotal),
        gst: dollars(totals.gst),
        total: if po.rate.is_some() { totals.amount.grouped() } else { dollars(totals.amount) },
        total_label: format!("TOTAL {}", po.currency),
        comments: po.comments.trim().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::fixtures::company;

    fn po(tax_type: TaxType) -> PurchaseOrder {
        PurchaseOrder {
            no: "PO-000007".into(),
            date: NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
            expected: NaiveDate::from_ymd_opt(2026, 11, 16),
            reference: "SUP-88".into(),
            comments: "Deliver before noon".into(),
            supplier_name: "Pacific Tyre Imports".into(),
            supplier_code: "PTI".into(),
            supplier_contact: "Jo Lee".into(),
            deliver_to: Some(("Tempe DC".into(), "12 Smith St, Tempe NSW 2044".into())),
            tax_type,
            staff: "Alex".into(),
            lines: vec![
                PoLine { code: "BRI2454018".into(), name: "Bridgestone 245/40R18".into(), description: "Bridgestone 245/40R18".into(), qty: 10, price: Cents(150_00), amount: Cents(1_500_00) },
                PoLine { code: "VAL".into(), name: "Valve".into(), description: "Valve, chrome".into(), qty: 20, price: Cents(1_10), amount: Cents(22_00) },
            ],
            currency: "AUD".into(),
            rate: None,
        }
    }

    #[test]
    fn a_foreign_purchase_order_is_in_the_suppliers_currency_with_the_rate() {
        let mut usd = po(TaxType::NoTax);
        usd.currency = "USD".into();
        usd.rate = Some(domain::currency::Rate(652_000));
        let doc = build(&company(4), &usd).unwrap();
        assert!(doc.facts.contains(&("Currency", "USD".into())) && doc.facts.contains(&("Exchange rate", "1 AUD = 0.6520 USD".into())));
        assert_eq!((doc.total_label.as_str(), doc.total.as_str()), ("TOTAL USD", "1,522.00"), "no $ sign on a foreign total");
        assert_eq!(build(&company(4), &po(TaxType::NoTax)).unwrap().total_label, "TOTAL AUD");
    }

    #[test]
    fn lines_totals_and_blocks() {
        let doc = build(&company(4), &po(TaxType::TaxInclusive)).unwrap();
        assert_eq!((doc.title, doc.no.as_str()), ("PURCHASE ORDER", "PO-000007"));
        assert_eq!(doc.facts, vec![("Date", "02 Nov 2026".into()), ("Expected", "16 Nov 2026".into()), ("Reference", "SUP-88".into()), ("Ordered by", "Alex".into())]);
        assert_eq!(doc.supplier, vec!["Pacific Tyre Imports", "Account PTI", "Attn: Jo Lee"]);
        assert_eq!(doc.deliver_to, vec!["Tempe DC", "12 Smith St, Tempe NSW 2044"]);
        assert_eq!((doc.rows[0].code.as_str(), doc.rows[0].description.as_str(), doc.rows[0].price.as_str(), doc.rows[0].amount.as_str()), ("BRI2454018", "Bridgestone 245/40R18", "150.00", "1,500.00"));
        assert_eq!(doc.rows[1].description, "Valve · Valve, chrome");
        assert_eq!((doc.total_qty, doc.total.as_str(), doc.gst.as_str(), doc.subtotal.as_str()), (30, "$1,522.00", "$138.36", "$1,383.64"));
        assert_eq!(doc.price_heading, "Unit Cost (incl. GST)");
        assert_eq!(doc.buyer.name, "Southern Cross Tyres Pty Ltd");
    }

    #[test]
    fn no_tax_prints_no_gst_and_no_warehouse_delivers_to_the_company() {
        let mut p = po(TaxType::NoTax);
        p.deliver_to = None;
        p.expected = None;
        let doc = build(&company(4), &p).unwrap();
        assert_eq!((doc.gst.as_str(), doc.subtotal.as_str(), doc.price_heading), ("$0.00", "$1,522.00", "Unit Cost"));
        assert_eq!(doc.deliver_to, vec!["Southern Cross Tyres Pty Ltd", "112 Princes Highway", "Tempe NSW 2044"]);
        assert!(!doc.facts.iter().any(|f| f.0 == "Expected"));
    }
}
