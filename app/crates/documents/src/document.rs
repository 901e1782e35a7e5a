//! The printed document as data: built from a sheet and the company's print info by
//! [`build`], laid out by `templates/print/document.html`, which only places what is here.

use chrono::NaiveDate;

use super::pages::{self, A4, HeaderText};
use super::rules::{self, WarehouseRole};
use domain::enums::{ShipType, TaxType};
use domain::money::{Cents, Totals, TotalsOverflow, gst_of_inclusive};

/// Which document is printed (DESIGN §5: `variant=standard|noprice`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// With prices: TAX INVOICE or CREDIT NOTE.
    Standard,
    /// Without prices: Delivery Doc or Delivery Doc(Credit).
    NoPrice,
}

impl Variant {
    /// Reads the `variant` query value; absent means Standard.
    pub fn parse(value: Option<&str>) -> Option<Self> {
        match value.map(str::trim) {
            None | Some("") | Some("standard") => Some(Self::Standard),
            Some("noprice") => Some(Self::NoPrice),
            Some(_) => None,
        }
    }

    /// The query value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::NoPrice => "noprice",
        }
    }

    /// The Print menu's wording (spec §2.6).
    pub const fn label(self) -> &'static str {
        match self {
            Self::Standard => "Standard",
            Self::NoPrice => "Without Price",
        }
    }
}

/// Invoice or credit note: the only sheets that print (spec §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    Invoice,
    CreditNote,
}

/// The company's print info (spec §2.7, organisations table), also the answer of
/// `GET /api/printInfo` under the spec's names (`anb` is its spelling of ABN).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Company {
    pub name: String,
    #[serde(rename = "anb")]
    pub abn: String,
    #[serde(rename = "addressLine1")]
    pub address_line1: String,
    #[serde(rename = "addressLine2")]
    pub address_line2: String,
    pub phone: String,
    pub email: String,
    #[serde(rename = "bankAccountName")]
    pub bank_account_name: String,
    pub bsb: String,
    #[serde(rename = "bankAccount")]
    pub bank_account: String,
    pub department_id: i32,
    pub logo: String,
    pub website: String,
}

/// The warehouse a sheet ships from.
#[derive(Debug, Clone, Default)]
pub struct SheetWarehouse {
    pub name: String,
    pub address: String,
    pub role: WarehouseRole,
}

/// A line as stored, with its product's code, name and location.
#[derive(Debug, Clone, Default)]
pub struct SheetLine {
    pub code: String,
    /// The product's name.
    pub name: String,
    /// The line's own description (the product name unless someone changed it).
    pub description: String,
    pub qty: i64,
    /// Tax-inclusive unit price as entered.
    pub price: Cents,
    /// Quantity times price.
    pub amount: Cents,
    /// The product's location (tag4).
    pub location: String,
    /// The DOT codes the line took or put back, 'DOT 2323 ×2, 2525 ×1' (issue 36), printed
    /// under the description; '' when the company does not print them or the line has none.
    pub dots: String,
}

/// Everything about a sheet that its document shows.
#[derive(Debug, Clone)]
pub struct Sheet {
    pub kind: DocKind,
    pub draft: bool,
    pub no: String,
    pub date: NaiveDate,
    pub due_date: Option<NaiveDate>,
    /// Dispatch date (invoices) or pickup date (credit notes).
    pub delivery_date: Option<NaiveDate>,
    pub reference: String,
    /// The number of the invoice a credit note credits (issue 32).
    pub credit_for: Option<String>,
    pub comments: String,
    /// The customer's own note on the sheet (CSR Self Note).
    pub self_note: String,
    pub customer_name: String,
    pub customer_code: String,
    pub address: String,
    pub phone: String,
    pub payment_type: String,
    pub area_type: String,
    pub ship_type: ShipType,
    pub driver: Option<String>,
    /// Service staff, or whoever drafted the sheet.
    pub staff: String,
    pub tax_type: TaxType,
    pub warehouse: Option<SheetWarehouse>,
    pub lines: Vec<SheetLine>,
}

/// The supplier block.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Supplier {
    pub name: String,
    pub abn: String,
    /// The branch warehouse's name when its address is printed instead of the company's.
    pub branch: Option<String>,
    pub address: Vec<String>,
    pub phone: String,
    pub email: String,
    pub website: String,
    pub logo: String,
}

/// The customer block.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CustomerBlock {
    pub name: String,
    pub abn: Option<String>,
    pub address: String,
    pub phone: String,
}

/// Which optional columns the line table has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Columns {
    pub location: bool,
    pub prices: bool,
    /// Prices and amounts are GST-exclusive (departments 7 and 8).
    pub ex_gst: bool,
}

/// One printed line; money cells are empty without prices.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    pub no: usize,
    /// The item and, where it says more, the line's description ([`rules::printed_description`]).
    pub description: String,
    /// The line's DOT codes, under the description ('' for none).
    pub dots: String,
    pub location: String,
    pub qty: i64,
    pub price: String,
    pub gst: String,
    pub amount: String,
}

/// One A4 page.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Page {
    pub number: usize,
    pub of: usize,
    pub rows: Vec<Row>,
}

impl Page {
    pub fn is_first(&self) -> bool {
        self.number == 1
    }
    pub fn is_last(&self) -> bool {
        self.number == self.of
    }
}

/// Subtotal, GST and total of a document with prices.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MoneyTotals {
    /// Only for GST-exclusive departments.
    pub subtotal: Option<String>,
    pub gst: String,
    /// 'TOTAL AUD' or 'TOTAL CREDIT'.
    pub total_label: &'static str,
    pub total: String,
}

/// Bank details printed on invoices.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Bank {
    pub account_name: String,
    pub bsb: String,
    pub account: String,
}

/// PAYMENT ADVICE or CREDIT ADVICE, the slip at the foot of a document with prices.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Advice {
    pub title: &'static str,
    pub sentence: &'static str,
    pub facts: Vec<(&'static str, String)>,
}

/// Everything after the last line, printed once on the last page.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Closing {
    pub comment: String,
    pub total_qty: i64,
    pub money: Option<MoneyTotals>,
    pub due_date: Option<String>,
    pub bank: Option<Bank>,
    pub staff: String,
    pub customer: String,
    pub advice: Option<Advice>,
    pub return_policy: &'static str,
}

/// A printable document: the header, the pages of lines and the closing block.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Document {
    pub title: &'static str,
    pub number_label: &'static str,
    pub no: String,
    pub date: String,
    pub supplier: Supplier,
    pub draft_note: Option<&'static str>,
    pub customer: CustomerBlock,
    /// Labelled facts beside the customer: the invoice a credit note credits, payment type,
    /// area type, shipping, dates, reference (departments 7, 8, 12), where to collect from.
    pub facts: Vec<(&'static str, String)>,
    pub notes: String,
    pub notice: Option<&'static str>,
    pub columns: Columns,
    pub pages: Vec<Page>,
    pub closing: Closing,
}

/// The company block of a document that no branch warehouse sends: the company's own
/// name, ABN, address, phone, e-mail and website (quotations, statements, purchase orders).
pub fn company_block(company: &Company) -> Supplier {
    Supplier {
        name: company.name.clone(),
        abn: company.abn.clone(),
        branch: None,
        address: [&company.address_line1, &company.address_line2].into_iter().filter(|l| !l.trim().is_empty()).cloned().collect(),
        phone: company.phone.clone(),
        email: company.email.clone(),
        website: company.website.clone(),
        logo: company.logo.clone(),
    }
}

pub(crate) fn day(d: NaiveDate) -> String {
    domain::dates::date(d)
}

pub(crate) fn dollars(c: Cents) -> String {
    format!("${}", c.grouped())
}

/// The document of `sheet` for `company` in `variant` (spec §2.7).
pub fn build(company: &Company, sheet: &Sheet, variant: Variant) -> Result<Document, TotalsOverflow> {
    let dept = company.department_id;
    let with_prices = variant == Variant::Standard;
    let invoice = sheet.kind == DocKind::Invoice;
    let role = sheet.warehouse.as_ref().map(|w| w.role.clone()).unwrap_or_default();
    let columns = Columns { location: rules::shows_location(dept, &role), prices: with_prices, ex_gst: with_prices && rules::prices_exclude_gst(dept) };

    let title = match (sheet.kind, variant) {
        (DocKind::Invoice, Variant::Standard) => "TAX INVOICE",
        (DocKind::CreditNote, Variant::Standard) => "CREDIT NOTE",
        (DocKind::Invoice, Variant::NoPrice) => "Delivery Doc",
        (DocKind::CreditNote, Variant::NoPrice) => "Delivery Doc(Credit)",
    };

    let branch = sheet.warehouse.as_ref().filter(|w| w.role.is_branch);
    let supplier = Supplier {
        name: company.name.clone(),
        abn: company.abn.clone(),
        branch: branch.map(|w| w.name.clone()),
        address: match branch {
            Some(w) => vec![w.address.clone()],
            None => [&company.address_line1, &company.address_line2].into_iter().filter(|l| !l.trim().is_empty()).cloned().collect(),
        },
        phone: company.phone.clone(),
        email: company.email.clone(),
        website: company.website.clone(),
        logo: company.logo.clone(),
    };

    let mut facts: Vec<(&'static str, String)> = Vec::new();
    if let Some(no) = sheet.credit_for.as_ref().filter(|_| sheet.kind == DocKind::CreditNote) {
        facts.push(("Credit for", no.clone()));
    }
    facts.extend([("Payment Type", sheet.payment_type.clone()), ("Area Type", sheet.area_type.clone())]);
    let driver = sheet.driver.clone().unwrap_or_else(|| domain::enums::DRIVER_NOT_ASSIGNED.to_string());
    facts.push(("Shipping", format!("{} · Driver: {driver}", sheet.ship_type.label())));
    if let Some(d) = sheet.delivery_date {
        facts.push((if invoice { "Dispatch Date" } else { "Pickup Date" }, day(d)));
    }
    if rules::shows_reference(dept) && !sheet.reference.trim().is_empty() {
        facts.push(("Reference", sheet.reference.trim().to_string()));
    }
    if let Some(w) = sheet.warehouse.as_ref().filter(|w| rules::is_third_party_dispatch(dept, &w.role)) {
        facts.push(("Collect From", format!("{}, {}", w.name, w.address)));
    }

    // Line money: GST per line from the sheet's tax type; GST-exclusive departments print
    // price and amount without it (the amount less its GST, which equals amount / 1.1).
    let rows: Vec<Row> = sheet
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            // GST is a part of the amount, so taking it off never leaves i64.
            let gst = gst_of_inclusive(l.amount, sheet.tax_type);
            let (price, amount) = if columns.ex_gst { (rules::printed_price(dept, l.price), Cents(l.amount.0 - gst.0)) } else { (l.price, l.amount) };
            Row {
                no: i + 1,
                description: rules::printed_description(&l.code, &l.name, &l.description),
                dots: l.dots.clone(),
                location: if columns.location { rules::printed_location(&l.location) } else { String::new() },
                qty: l.qty,
                price: if with_prices { price.grouped() } else { String::new() },
                gst: if with_prices { gst.grouped() } else { String::new() },
                amount: if with_prices { amount.grouped() } else { String::new() },
            }
        })
        .collect();

    let totals = Totals::from_lines(sheet.lines.iter().map(|l| (l.qty, l.amount)), sheet.tax_type).ok_or_else(|| TotalsOverflow(sheet.no.clone()))?;
    let money = with_prices.then(|| MoneyTotals {
        subtotal: columns.ex_gst.then(|| dollars(totals.subtotal)),
        gst: dollars(totals.gst),
        total_label: if invoice { "TOTAL AUD" } else { "TOTAL CREDIT" },
        total: dollars(totals.amount),
    });
    let due_date = (invoice && with_prices).then(|| sheet.due_date.map(day).unwrap_or_default());
    let bank = (invoice && with_prices).then(|| Bank { account_name: company.bank_account_name.clone(), bsb: company.bsb.clone(), account: company.bank_account.clone() });
    let advice = with_prices.then(|| {
        if invoice {
            Advice {
                title: "PAYMENT ADVICE",
                sentence: rules::PAYMENT_ADVICE,
                facts: vec![
                    ("To", company.name.clone()),
                    ("Customer", sheet.customer_name.clone()),
                    ("Invoice No.", sheet.no.clone()),
                    ("Amount Due", dollars(totals.amount)),
                    ("Due Date", sheet.due_date.map(day).unwrap_or_default()),
                ],
            }
        } else {
            Advice {
                title: "CREDIT ADVICE",
                sentence: rules::CREDIT_ADVICE,
                facts: vec![
                    ("From", company.name.clone()),
                    ("Customer", sheet.customer_name.clone()),
                    ("Credit Note No.", sheet.no.clone()),
                    ("Credit Amount", dollars(totals.amount)),
                ],
            }
        }
    });

    let closing = Closing {
        comment: sheet.comments.trim().to_string(),
        total_qty: totals.qty,
        money,
        due_date,
        bank,
        staff: sheet.staff.clone(),
        customer: sheet.customer_name.clone(),
        advice,
        return_policy: rules::RETURN_POLICY,
    };
    let customer = CustomerBlock { name: sheet.customer_name.clone(), abn: rules::customer_abn(&sheet.customer_code), address: sheet.address.trim().to_string(), phone: sheet.phone.clone() };
    let notes = sheet.self_note.trim().to_string();
    let notice = rules::department_notice(dept);

    // Rows wrap to as many lines as their text needs, so pages are filled by height.
    let header = pages::header_height(&HeaderText { supplier: &supplier, draft: sheet.draft, customer: &customer, facts: &facts, notes: &notes, notice });
    let heights: Vec<f32> = rows.iter().map(|r| pages::line_row_height(&r.description, &r.dots, &r.location, columns)).collect();
    let ranges = pages::split(&heights, A4.first_page_room(header), A4.next_page_room(), pages::closing_height(&closing));
    let of = ranges.len();
    let pages = ranges.into_iter().enumerate().map(|(i, r)| Page { number: i + 1, of, rows: rows[r].to_vec() }).collect();

    Ok(Document {
        title,
        number_label: if invoice { "Invoice No." } else { "Credit Note No." },
        no: sheet.no.clone(),
        date: day(sheet.date),
        supplier,
        draft_note: sheet.draft.then_some(rules::DRAFT_FOR_FETCH),
        customer,
        facts,
        notes,
        notice,
        columns,
        pages,
        closing,
    })
}

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures {
    //! Sheets and companies for the document tests and HTML snapshots; dates are fixed.

    use super::*;

    pub fn company(department_id: i32) -> Company {
        Company {
            name: "Southern Cross Tyres Pty Ltd".into(),
            abn: "53 004 085 616".into(),
            address_line1: "112 Princes Highway".into(),
            address_line2: "Tempe NSW 2044".into(),
            phone: "(02) 9558 4100".into(),
            email: "accounts@sctyres.example".into(),
            bank_account_name: "Southern Cross Tyres Pty Ltd".into(),
            bsb: "062-000".into(),
            bank_account: "1234 5678".into(),
            department_id,
            logo: "/static/img/logo.svg".into(),
            website: "www.sctyres.example".into(),
        }
    }

    /// A line whose description is its product's name, as lines are entered.
    pub fn line(code: &str, name: &str, qty: i64, price: i64, location: &str) -> SheetLine {
        SheetLine { code: code.into(), name: name.into(), description: name.into(), qty, price: Cents(price), amount: Cents(price * qty), location: location.into(), dots: String::new() }
    }

    pub fn sheet(kind: DocKind) -> Sheet {
        let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
        Sheet {
            kind,
            draft: false,
            no: if kind == DocKind::Invoice { "INV-000123".into() } else { "CN-000045".into() },
            date: d(11, 20),
            due_date: Some(d(11, 30)),
            delivery_date: Some(d(11, 21)),
            reference: "PO 7781".into(),
            credit_for: None,
            comments: "Leave at the workshop door if closed.".into(),
            self_note: String::new(),
            customer_name: "Parramatta Tyre & Auto".into(),
            customer_code: "51824753556".into(),
            address: "45 Church St, Parramatta NSW 2150".into(),
            phone: "0412 345 678".into(),
            payment_type: "Weekly".into(),
            area_type: "West".into(),
            ship_type: if kind == DocKind::Invoice { ShipType::Delivery } else { ShipType::DriverPickUp },
            driver: Some("Dan Driver".into()),
            staff: "Sam Sales".into(),
            tax_type: TaxType::GstOnIncome,
            warehouse: Some(SheetWarehouse { name: "Tempe (Main)".into(), address: "118 Princes Hwy, Tempe NSW 2044".into(), role: WarehouseRole::default() }),
            lines: vec![
                line("2055516MIC", "205/55R16 91V Michelin Primacy 4", 4, 21_900, "A01/B03"),
                line("BAT-N70ZZ", "N70ZZ Century Battery", 1, 32_450, "call"),
                SheetLine { description: "Fit with new tyres".into(), ..line("VALVE-TR413", "TR413 Snap-in Valve", 4, 250, "") },
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{company, line, sheet};
    use super::*;

    fn fact<'a>(doc: &'a Document, label: &str) -> Option<&'a str> {
        doc.facts.iter().find(|(l, _)| *l == label).map(|(_, v)| v.as_str())
    }

    #[test]
    fn variants_parse_from_the_query() {
        assert_eq!(Variant::parse(None), Some(Variant::Standard));
        assert_eq!(Variant::parse(Some("standard")), Some(Variant::Standard));
        assert_eq!(Variant::parse(Some("noprice")), Some(Variant::NoPrice));
        assert_eq!(Variant::parse(Some("cheap")), None);
        assert_eq!(Variant::NoPrice.label(), "Without Price");
    }

    #[test]
    fn titles_by_kind_and_variant() {
        let c = company(4);
        assert_eq!(build(&c, &sheet(DocKind::Invoice), Variant::Standard).unwrap().title, "TAX INVOICE");
        assert_eq!(build(&c, &sheet(DocKind::CreditNote), Variant::Standard).unwrap().title, "CREDIT NOTE");
        assert_eq!(build(&c, &sheet(DocKind::Invoice), Variant::NoPrice).unwrap().title, "Delivery Doc");
        assert_eq!(build(&c, &sheet(DocKind::CreditNote), Variant::NoPrice).unwrap().title, "Delivery Doc(Credit)");
    }

    #[test]
    fn an_invoice_with_prices_has_totals_due_date_bank_and_payment_advice() {
        let doc = build(&company(4), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
        assert_eq!(doc.number_label, "Invoice No.");
        assert_eq!(doc.date, "20 Nov 2026");
        let c = &doc.closing;
        assert_eq!(c.total_qty, 9);
        // 4 × 219.00 + 324.50 + 4 × 2.50 = 1,210.50; GST 1/11 = 110.05.
        let money = c.money.as_ref().unwrap();
        assert_eq!(money.total, "$1,210.50");
        assert_eq!(money.gst, "$110.05");
        assert_eq!(money.total_label, "TOTAL AUD");
        assert_eq!(money.subtotal, None, "department 4 prices include GST");
        assert_eq!(c.due_date.as_deref(), Some("30 Nov 2026"));
        assert_eq!(c.bank.as_ref().unwrap().bsb, "062-000");
        let advice = c.advice.as_ref().unwrap();
        assert_eq!(advice.title, "PAYMENT ADVICE");
        assert!(advice.facts.contains(&("Amount Due", "$1,210.50".into())));
        assert_eq!(c.return_policy, rules::RETURN_POLICY);
        assert_eq!(doc.draft_note, None);
    }

    #[test]
    fn a_credit_note_totals_as_credit_with_credit_advice_and_no_bank() {
        let doc = build(&company(4), &sheet(DocKind::CreditNote), Variant::Standard).unwrap();
        assert_eq!(doc.number_label, "Credit Note No.");
        let c = &doc.closing;
        assert_eq!(c.money.as_ref().unwrap().total_label, "TOTAL CREDIT");
        assert_eq!(c.due_date, None);
        assert_eq!(c.bank, None);
        let advice = c.advice.as_ref().unwrap();
        assert_eq!(advice.title, "CREDIT ADVICE");
        assert_eq!(advice.sentence, "Please do not pay on this advice. Deduct the amount of this Credit Note from your next payment to us.");
        assert_eq!(fact(&doc, "Pickup Date"), Some("21 Nov 2026"));
        assert_eq!(fact(&doc, "Shipping"), Some("Driver Pick-up · Driver: Dan Driver"));
    }

    #[test]
    fn without_price_no_money_is_printed_anywhere() {
        for kind in [DocKind::Invoice, DocKind::CreditNote] {
            let doc = build(&company(7), &sheet(kind), Variant::NoPrice).unwrap();
            assert!(!doc.columns.prices && !doc.columns.ex_gst);
            for r in doc.pages.iter().flat_map(|p| &p.rows) {
                assert!(r.price.is_empty() && r.gst.is_empty() && r.amount.is_empty(), "{r:?}");
            }
            let c = &doc.closing;
            assert!(c.money.is_none() && c.bank.is_none() && c.advice.is_none() && c.due_date.is_none());
            assert_eq!(c.total_qty, 9, "the quantity still totals");
            assert_eq!(c.return_policy, rules::RETURN_POLICY);
        }
    }

    #[test]
    fn departments_7_and_8_print_gst_exclusive_prices_and_a_subtotal() {
        for dept in [7, 8] {
            let doc = build(&company(dept), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
            assert!(doc.columns.ex_gst);
            let r = &doc.pages[0].rows[0];
            // 219.00 / 1.1 = 199.09; amount 876.00 less GST 79.64 = 796.36.
            assert_eq!((r.price.as_str(), r.gst.as_str(), r.amount.as_str()), ("199.09", "79.64", "796.36"));
            let money = doc.closing.money.as_ref().unwrap();
            assert_eq!(money.subtotal.as_deref(), Some("$1,100.45"));
            assert_eq!(money.gst, "$110.05");
            assert_eq!(money.total, "$1,210.50", "the total still includes GST");
        }
        let incl = build(&company(12), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
        let r = &incl.pages[0].rows[0];
        assert_eq!((r.price.as_str(), r.gst.as_str(), r.amount.as_str()), ("219.00", "79.64", "876.00"));
    }

    #[test]
    fn no_tax_sheets_print_zero_gst() {
        let mut s = sheet(DocKind::Invoice);
        s.tax_type = TaxType::NoTax;
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        assert_eq!(doc.pages[0].rows[0].gst, "0.00");
        assert_eq!(doc.closing.money.as_ref().unwrap().gst, "$0.00");
    }

    #[test]
    fn the_location_column_follows_the_department_and_call_is_blank() {
        let doc = build(&company(4), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
        assert!(doc.columns.location);
        let locs: Vec<&str> = doc.pages[0].rows.iter().map(|r| r.location.as_str()).collect();
        assert_eq!(locs, ["A01/B03", "", ""]);
        let no_loc = build(&company(8), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
        assert!(!no_loc.columns.location);
        assert!(no_loc.pages[0].rows.iter().all(|r| r.location.is_empty()));
    }

    #[test]
    fn descriptions_print_the_item_once_and_the_line_description_when_it_differs() {
        let doc = build(&company(4), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
        let d: Vec<&str> = doc.pages[0].rows.iter().map(|r| r.description.as_str()).collect();
        assert_eq!(d, ["2055516MIC 205/55R16 91V Michelin Primacy 4", "BAT-N70ZZ N70ZZ Century Battery", "VALVE-TR413 TR413 Snap-in Valve · Fit with new tyres"]);
        let mut s = sheet(DocKind::Invoice);
        s.lines = vec![line("X1", "X1 wheel nut", 1, 100, "")];
        assert_eq!(build(&company(4), &s, Variant::Standard).unwrap().pages[0].rows[0].description, "X1 wheel nut");
    }

    #[test]
    fn long_descriptions_print_whole_and_fill_pages_by_height() {
        let long = "205/55R16 91V BFGOODRICH ADVANTAGE T/A SPORT LT ALL TERRAIN RAISED WHITE LETTERS";
        let mut s = sheet(DocKind::Invoice);
        s.lines = (1..=60).map(|i| line(&format!("BF{i:03}ADVT"), long, 1, 10_000, "A01")).collect();
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        let rows: Vec<&Row> = doc.pages.iter().flat_map(|p| &p.rows).collect();
        assert_eq!(rows.len(), 60);
        assert!(rows.iter().all(|r| r.description.ends_with("RAISED WHITE LETTERS") && !r.description.contains('…')), "never cut");
        // Two-line rows: fewer per page than one-line rows.
        let mut short = sheet(DocKind::Invoice);
        short.lines = (1..=60).map(|i| line(&format!("P{i:03}"), "Tyre", 1, 10_000, "A01")).collect();
        let short_doc = build(&company(4), &short, Variant::Standard).unwrap();
        assert!(doc.pages[0].rows.len() < short_doc.pages[0].rows.len());
        assert!(doc.pages.len() > short_doc.pages.len());
    }

    #[test]
    fn notes_make_the_first_page_hold_fewer_lines() {
        let mut s = sheet(DocKind::Invoice);
        s.lines = (1..=80).map(|i| line(&format!("P{i:03}"), "Tyre", 1, 10_000, "")).collect();
        let plain = build(&company(4), &s, Variant::Standard).unwrap();
        s.self_note = "Deliver to the rear gate; call Joe on arrival. ".repeat(12);
        let noted = build(&company(4), &s, Variant::Standard).unwrap();
        assert!(noted.pages[0].rows.len() < plain.pages[0].rows.len());
        assert_eq!(noted.notes, s.self_note.trim(), "printed whole");
    }

    #[test]
    fn the_customer_abn_prints_only_under_the_rule() {
        let mut s = sheet(DocKind::Invoice);
        assert_eq!(build(&company(4), &s, Variant::Standard).unwrap().customer.abn.as_deref(), Some("51824753556"));
        s.customer_code = "CPAR01".into();
        assert_eq!(build(&company(4), &s, Variant::Standard).unwrap().customer.abn, None);
        s.customer_code = "C1234567890".into();
        assert_eq!(build(&company(4), &s, Variant::Standard).unwrap().customer.abn, None);
    }

    #[test]
    fn a_credit_note_names_the_invoice_it_credits_first() {
        let cn = Sheet { credit_for: Some("INV-000123".into()), ..sheet(DocKind::CreditNote) };
        let doc = build(&company(4), &cn, Variant::Standard).unwrap();
        assert_eq!(doc.facts.first().map(|(l, v)| (*l, v.as_str())), Some(("Credit for", "INV-000123")));
        assert_eq!(fact(&build(&company(4), &sheet(DocKind::CreditNote), Variant::Standard).unwrap(), "Credit for"), None);
    }

    #[test]
    fn the_reference_shows_for_departments_7_8_and_12_only() {
        for dept in [4, 7, 8, 9, 10, 12] {
            let doc = build(&company(dept), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
            assert_eq!(fact(&doc, "Reference"), matches!(dept, 7 | 8 | 12).then_some("PO 7781"), "department {dept}");
        }
    }

    #[test]
    fn department_10_prints_its_notice() {
        assert_eq!(build(&company(10), &sheet(DocKind::Invoice), Variant::NoPrice).unwrap().notice, Some(rules::DEPARTMENT_10_NOTICE));
        assert_eq!(build(&company(4), &sheet(DocKind::Invoice), Variant::Standard).unwrap().notice, None);
    }

    #[test]
    fn the_branch_warehouse_prints_its_own_address() {
        let mut s = sheet(DocKind::Invoice);
        s.warehouse = Some(SheetWarehouse { name: "Smithfield".into(), address: "34 Long St, Smithfield NSW 2164".into(), role: WarehouseRole { is_branch: true, is_third_party: false } });
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        assert_eq!(doc.supplier.address, vec!["34 Long St, Smithfield NSW 2164".to_string()]);
        assert_eq!(doc.supplier.branch.as_deref(), Some("Smithfield"));
        assert_eq!(doc.supplier.abn, "53 004 085 616", "still the company's ABN");
        let main = build(&company(4), &sheet(DocKind::Invoice), Variant::Standard).unwrap();
        assert_eq!(main.supplier.address, vec!["112 Princes Highway".to_string(), "Tempe NSW 2044".to_string()]);
        assert_eq!(main.supplier.branch, None);
    }

    #[test]
    fn department_4_from_the_third_party_store_says_where_to_collect() {
        let mut s = sheet(DocKind::Invoice);
        s.warehouse = Some(SheetWarehouse { name: "Sydney 3PL".into(), address: "9 Dock Rd, Botany NSW 2019".into(), role: WarehouseRole { is_branch: false, is_third_party: true } });
        let doc = build(&company(4), &s, Variant::NoPrice).unwrap();
        assert_eq!(fact(&doc, "Collect From"), Some("Sydney 3PL, 9 Dock Rd, Botany NSW 2019"));
        assert!(!doc.columns.location);
        let other = build(&company(9), &s, Variant::NoPrice).unwrap();
        assert_eq!(fact(&other, "Collect From"), None);
        assert!(other.columns.location);
    }

    #[test]
    fn drafts_print_draft_for_fetch() {
        let mut s = sheet(DocKind::CreditNote);
        s.draft = true;
        assert_eq!(build(&company(4), &s, Variant::Standard).unwrap().draft_note, Some("Draft for Fetch"));
    }

    #[test]
    fn shipping_without_a_driver_says_not_assigned() {
        let mut s = sheet(DocKind::Invoice);
        s.driver = None;
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        assert_eq!(fact(&doc, "Shipping"), Some("Delivery · Driver: not assigned"));
        assert_eq!(fact(&doc, "Dispatch Date"), Some("21 Nov 2026"));
    }

    #[test]
    fn long_sheets_flow_over_numbered_pages_with_totals_once() {
        let mut s = sheet(DocKind::Invoice);
        s.lines = (1..=60).map(|i| line(&format!("P{i:03}"), "Tyre", 1, 10_000, "")).collect();
        let doc = build(&company(4), &s, Variant::Standard).unwrap();
        assert_eq!(doc.pages.len(), 3);
        assert!(doc.pages.iter().all(|p| p.of == 3));
        assert_eq!(doc.pages.iter().map(|p| p.rows.len()).sum::<usize>(), 60);
        assert_eq!(doc.pages[2].rows.last().unwrap().no, 60, "rows keep their numbers across pages");
        assert!(doc.pages[0].is_first() && !doc.pages[0].is_last() && doc.pages[2].is_last());
        assert_eq!(doc.closing.total_qty, 60);
        assert_eq!(doc.closing.money.as_ref().unwrap().total, "$6,000.00");
    }
}
