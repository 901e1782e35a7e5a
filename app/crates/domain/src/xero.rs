//! The accounting link's rules that need no I/O (issue 12, DESIGN §8, docs/decisions/xero.md):
//! which Xero document a sheet becomes and how its lines, tax and amounts are
//! written; the company's rate budget (GCRA under Xero's 60 calls a minute); the retry
//! back-off; what a recall asks of each document status; and Xero's refusals as text.

use chrono::{Duration, NaiveDate, NaiveDateTime};
use serde_json::{Value, json};

use super::enums::{OrderType, TaxType};
use super::money::{Cents, gst_of_inclusive};

/// The Xero document a sheet of types 1, 2, 4 and 5 becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// Invoice (1) → ACCREC.
    Invoice,
    /// Credit note (2) → ACCRECCREDIT.
    CreditNote,
    /// Bill (4) → ACCPAY.
    Bill,
    /// Bill credit note (5) → ACCPAYCREDIT.
    BillCredit,
}

impl DocKind {
    /// The document a sheet type becomes, or `None` for types that stay with us (3, 6, 7).
    pub const fn of(t: OrderType) -> Option<Self> {
        match t {
            OrderType::Invoice => Some(Self::Invoice),
            OrderType::CreditNote => Some(Self::CreditNote),
            OrderType::Bill => Some(Self::Bill),
            OrderType::BillCreditNote => Some(Self::BillCredit),
            _ => None,
        }
    }

    /// Xero's `Type`.
    pub const fn xero_type(self) -> &'static str {
        match self {
            Self::Invoice => "ACCREC",
            Self::CreditNote => "ACCRECCREDIT",
            Self::Bill => "ACCPAY",
            Self::BillCredit => "ACCPAYCREDIT",
        }
    }

    /// Sales (to a customer) rather than purchases (from a supplier).
    pub const fn is_sales(self) -> bool {
        matches!(self, Self::Invoice | Self::CreditNote)
    }

    /// A credit note of either side (`/CreditNotes`).
    pub const fn is_credit(self) -> bool {
        matches!(self, Self::CreditNote | Self::BillCredit)
    }

    /// The endpoint and the wrapping key of the JSON: `Invoices` or `CreditNotes`.
    pub const fn collection(self) -> &'static str {
        if self.is_credit() { "CreditNotes" } else { "Invoices" }
    }

    /// The field that carries our sheet number.
    pub const fn number_field(self) -> &'static str {
        if self.is_credit() { "CreditNoteNumber" } else { "InvoiceNumber" }
    }

    /// The field that carries Xero's id of the document.
    pub const fn id_field(self) -> &'static str {
        if self.is_credit() { "CreditNoteID" } else { "InvoiceID" }
    }

    /// The `where` filter that finds the document sent under `number`.
    pub fn lookup_filter(self, number: &str) -> String {
        format!("{}=={} AND Type==\"{}\"", self.number_field(), quoted(number), self.xero_type())
    }
}

/// A string inside a Xero `where` filter: in double quotes, a quote inside doubled is not
/// supported by Xero, so quotes and backslashes are left out (our codes and numbers have none).
pub fn quoted(s: &str) -> String {
    let clean: String = s.chars().filter(|c| *c != '"' && *c != '\\').collect();
    format!("\"{clean}\"")
}

/// Account codes of the AU default chart (xero-facts.md): sales, purchases without an item,
/// cost of goods sold, and inventory (postable only through a tracked item).
pub const ACCOUNT_SALES: &str = "200";
pub const ACCOUNT_PURCHASES: &str = "300";
pub const ACCOUNT_COGS: &str = "310";
pub const ACCOUNT_INVENTORY: &str = "630";

/// Xero's limits on an item's `Code` and `Name`, and on a contact's `ContactNumber`.
pub const ITEM_CODE_MAX: usize = 30;
pub const ITEM_NAME_MAX: usize = 50;
pub const CONTACT_NUMBER_MAX: usize = 50;

/// The tax types we use and the Xero tax type each becomes: GST on sales is OUTPUT, on
/// purchases INPUT; No Tax is GST free (EXEMPTOUTPUT / EXEMPTEXPENSES).
pub const fn xero_tax_type(kind: DocKind, tax: TaxType) -> &'static str {
    match (kind.is_sales(), tax.charges_gst()) {
        (true, true) => "OUTPUT",
        (true, false) => "EXEMPTOUTPUT",
        (false, true) => "INPUT",
        (false, false) => "EXEMPTEXPENSES",
    }
}

/// `LineAmountTypes`: our prices include GST; a No Tax sheet has none.
pub const fn line_amount_types(tax: TaxType) -> &'static str {
    if tax.charges_gst() { "Inclusive" } else { "NoTax" }
}

/// Checks that the company's Xero offers the tax type a sheet needs (the active rates read
/// by Test connection, comma-separated).
pub fn check_tax_rate(active: &str, needed: &str) -> Result<(), String> {
    if active.split(',').any(|t| t.trim() == needed) {
        Ok(())
    } else {
        Err(format!(
            "Xero has no active tax rate {needed}; add it in Xero (Accounting › Advanced › Tax rates), then Test connection in Settings and send again."
        ))
    }
}

/// An item as Xero should hold it for a product.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDraft {
    pub code: String,
    pub name: String,
    pub description: String,
    /// Physical products are tracked inventory (asset 630, COGS 310); virtual ones are not.
    pub tracked: bool,
}

impl ItemDraft {
    /// The item of a product; a code longer than Xero allows is refused (never cut, since
    /// the code is how the item is found again), a long name is cut to 50 characters.
    pub fn new(code: &str, name: &str, tracked: bool) -> Result<Self, String> {
        let code = code.trim();
        if code.is_empty() || code.chars().count() > ITEM_CODE_MAX {
            return Err(format!("Product code {code} is longer than the {ITEM_CODE_MAX} characters Xero allows for an item code; shorten it, then send again."));
        }
        Ok(Self { code: code.into(), name: cut(name.trim(), ITEM_NAME_MAX), description: name.trim().into(), tracked })
    }

    /// The body of `POST /Items`.
    pub fn to_json(&self) -> Value {
        let mut item = json!({
            "Code": self.code,
            "Name": self.name,
            "Description": self.description,
            "PurchaseDescription": self.description,
            "SalesDetails": { "AccountCode": ACCOUNT_SALES },
        });
        if self.tracked {
            item["InventoryAssetAccountCode"] = json!(ACCOUNT_INVENTORY);
            item["PurchaseDetails"] = json!({ "COGSAccountCode": ACCOUNT_COGS });
        } else {
            item["PurchaseDetails"] = json!({ "AccountCode": ACCOUNT_PURCHASES });
        }
        item
    }
}

fn cut(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// A contact as Xero should hold it for a customer or supplier.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ContactDraft {
    pub number: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub address: Vec<String>,
    pub city: String,
    pub region: String,
    pub postal: String,
    pub country: String,
    pub is_supplier: bool,
}

impl ContactDraft {
    /// The body of `POST /Contacts` (with the contact's id when it exists).
    pub fn to_json(&self, contact_id: Option<&str>) -> Result<Value, String> {
        if self.number.chars().count() > CONTACT_NUMBER_MAX {
            return Err(format!("Code {} is longer than the {CONTACT_NUMBER_MAX} characters Xero allows for a contact number.", self.number));
        }
        let mut c = json!({
            "ContactNumber": self.number,
            "Name": cut(self.name.trim(), 255),
            "EmailAddress": self.email,
        });
        if !self.phone.is_empty() {
            c["Phones"] = json!([{ "PhoneType": "DEFAULT", "PhoneNumber": self.phone }]);
        }
        if self.address.iter().any(|l| !l.is_empty()) || !self.city.is_empty() {
            let mut a = json!({ "AddressType": "POBOX", "City": self.city, "Region": self.region, "PostalCode": self.postal, "Country": self.country });
            for (i, l) in self.address.iter().take(4).enumerate() {
                a[format!("AddressLine{}", i + 1)] = json!(l);
            }
            c["Addresses"] = json!([a]);
        }
        if let Some(id) = contact_id {
            c["ContactID"] = json!(id);
        }
        Ok(c)
    }
}

/// A line of a sheet as the document needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct DocLine {
    pub description: String,
    pub quantity: i64,
    pub price: Cents,
    pub amount: Cents,
    /// The Xero item's code when the line names a product.
    pub item_code: Option<String>,
    /// The item is tracked inventory.
    pub tracked: bool,
}

/// A sheet as the document needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct DocDraft {
    pub kind: DocKind,
    /// The number the document carries in Xero ([`document_number`]).
    pub number: String,
    pub date: NaiveDate,
    pub due_date: Option<NaiveDate>,
    pub reference: String,
    pub contact_id: String,
    pub tax: TaxType,
    pub lines: Vec<DocLine>,
}

/// The number a sheet's document carries: our number, and after each recall a new suffix
/// (`/2`, `/3` …) because Xero keeps a voided invoice's number.
pub fn document_number(no: &str, recalls: i64) -> String {
    if recalls <= 0 { no.to_string() } else { format!("{no}/{}", recalls + 1) }
}

/// Amount in dollars as Xero reads it (two decimals, exact for any amount below 2^53 cents).
fn dollars(c: Cents) -> Value {
    let s = format!("{}{}.{:02}", if c.0 < 0 { "-" } else { "" }, (c.0 / 100).unsigned_abs(), (c.0 % 100).unsigned_abs());
    serde_json::from_str(&s).unwrap_or(Value::Null)
}

/// Dollars from Xero's JSON as cents, rounded to the cent; `None` beyond what money holds.
pub fn cents_of(dollars: f64) -> Option<Cents> {
    let c = (dollars * 100.0).round();
    (c.is_finite() && c.abs() < 9.0e15).then_some(Cents(c as i64))
}

/// Splits the sheet's GST (taken once from the total, spec §9) over its lines, so Xero's
/// total tax is ours to the cent: each line's share rounded, the rounding left over given
/// to the largest line.
pub fn line_taxes(lines: &[DocLine], tax: TaxType) -> Option<Vec<Cents>> {
    let total = lines.iter().try_fold(Cents::ZERO, |s, l| s.checked_add(l.amount))?;
    let want = gst_of_inclusive(total, tax);
    let mut taxes: Vec<Cents> = lines.iter().map(|l| gst_of_inclusive(l.amount, tax)).collect();
    let got = taxes.iter().try_fold(Cents::ZERO, |s, t| s.checked_add(*t))?;
    let diff = want.checked_sub(got)?;
    if diff != Cents::ZERO {
        let largest = lines.iter().enumerate().max_by_key(|(_, l)| l.amount.0.unsigned_abs()).map(|(i, _)| i)?;
        taxes[largest] = taxes[largest].checked_add(diff)?;
    }
    Some(taxes)
}

impl DocDraft {
    /// The body of `PUT /Invoices` or `PUT /CreditNotes`: one AUTHORISED document, amounts
    /// as on our sheet (GST inclusive), account 200 on sales lines, 630 through the tracked
    /// item on purchase lines (300 for a purchase line without one).
    pub fn to_json(&self) -> Result<Value, String> {
        let tax_type = xero_tax_type(self.kind, self.tax);
        let taxes = line_taxes(&self.lines, self.tax).ok_or_else(|| format!("The lines of {} add up beyond the largest amount.", self.number))?;
        let lines: Vec<Value> = self
            .lines
            .iter()
            .zip(taxes)
            .map(|(l, t)| {
                let account = match (self.kind.is_sales(), l.tracked && l.item_code.is_some()) {
                    (true, _) => ACCOUNT_SALES,
                    (false, true) => ACCOUNT_INVENTORY,
                    (false, false) => ACCOUNT_PURCHASES,
                };
                let mut line = json!({
                    "Description": if l.description.trim().is_empty() { l.item_code.clone().unwrap_or_else(|| "-".into()) } else { l.description.clone() },
                    "Quantity": l.quantity,
                    "UnitAmount": dollars(l.price),
                    "LineAmount": dollars(l.amount),
                    "AccountCode": account,
                    "TaxType": tax_type,
                    "TaxAmount": dollars(t),
                });
                if let Some(code) = &l.item_code {
                    line["ItemCode"] = json!(code);
                }
                line
            })
            .collect();
        let mut doc = json!({
            "Type": self.kind.xero_type(),
            "Contact": { "ContactID": self.contact_id },
            "Date": self.date.format("%Y-%m-%d").to_string(),
            "LineAmountTypes": line_amount_types(self.tax),
            "Status": "AUTHORISED",
            "CurrencyCode": "AUD",
            "LineItems": lines,
        });
        doc[self.kind.number_field()] = json!(self.number);
        if let Some(d) = self.due_date.or(Some(self.date)) {
            doc["DueDate"] = json!(d.format("%Y-%m-%d").to_string());
        }
        if !self.reference.trim().is_empty() {
            doc["Reference"] = json!(cut(self.reference.trim(), 255));
        }
        Ok(doc)
    }
}

/// What a recall asks Xero to do with a document in `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecallStep {
    /// Set this status (DELETED for DRAFT/SUBMITTED, VOIDED for AUTHORISED).
    Set(&'static str),
    /// Already VOIDED or DELETED in Xero: nothing to do but mark the sheet unsent.
    Gone,
    /// Xero cannot undo it (PAID): the sheet stays Sent with this reason.
    Refuse,
}

/// The recall of a document in Xero status `status` (xero-facts.md, Recall).
pub fn recall_step(status: &str) -> RecallStep {
    match status {
        "DRAFT" | "SUBMITTED" => RecallStep::Set("DELETED"),
        "AUTHORISED" => RecallStep::Set("VOIDED"),
        "VOIDED" | "DELETED" => RecallStep::Gone,
        _ => RecallStep::Refuse,
    }
}

/// A found document counts as ours to keep when it is not VOIDED or DELETED.
pub fn is_live(status: &str) -> bool {
    !matches!(status, "VOIDED" | "DELETED")
}

/// The messages of a Xero refusal (a `ValidationException`'s element messages, else its
/// `Message`, else `Detail` or `error`), joined for the sheet.
pub fn refusal_text(body: &Value) -> String {
    let mut msgs: Vec<String> = Vec::new();
    for el in body.get("Elements").and_then(Value::as_array).into_iter().flatten() {
        for e in el.get("ValidationErrors").and_then(Value::as_array).into_iter().flatten() {
            if let Some(m) = e.get("Message").and_then(Value::as_str)
                && !msgs.iter().any(|x| x == m)
            {
                msgs.push(m.to_string());
            }
        }
    }
    if msgs.is_empty() {
        for key in ["Message", "Detail", "error_description", "error", "Title"] {
            if let Some(m) = body.get(key).and_then(Value::as_str).filter(|m| !m.is_empty()) {
                msgs.push(m.to_string());
                break;
            }
        }
    }
    let text = msgs.join(" ");
    cut(&text, 2000)
}

/// The company's call budget: Xero allows 60 calls a minute; we emit one per
/// [`Budget::PERIOD_MS`] with a burst of [`Budget::BURST`], which keeps any 60-second
/// window under 60 calls (GCRA: at most (60 s + tolerance) / period + 1 = 59), and stop
/// for the day at [`Budget::DAY_MAX`] of Xero's 5,000.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The theoretical arrival time of the next call (GCRA).
    pub tat: Option<NaiveDateTime>,
    /// Calls made on `day` (UTC).
    pub day_count: i32,
    pub day: Option<NaiveDate>,
    /// Xero answered 429 and asked us to wait until then.
    pub blocked_until: Option<NaiveDateTime>,
}

impl Budget {
    pub const PERIOD_MS: i64 = 1091;
    pub const BURST: i64 = 3;
    pub const DAY_MAX: i32 = 4900;

    /// Takes one call at `now`: `Ok` with the budget after it, or `Err` with the earliest
    /// time a call may be made.
    pub fn take(self, now: NaiveDateTime) -> Result<Self, NaiveDateTime> {
        if let Some(b) = self.blocked_until.filter(|b| *b > now) {
            return Err(b);
        }
        let today = now.date();
        let count = if self.day == Some(today) { self.day_count } else { 0 };
        if count >= Self::DAY_MAX {
            return Err(today.succ_opt().unwrap_or(today).and_hms_opt(0, 0, 1).unwrap_or(now));
        }
        let period = Duration::milliseconds(Self::PERIOD_MS);
        let tat = self.tat.filter(|t| *t > now).unwrap_or(now);
        let earliest = tat - period * Self::BURST as i32;
        if earliest > now {
            return Err(earliest);
        }
        Ok(Self { tat: Some(tat + period), day_count: count + 1, day: Some(today), blocked_until: None })
    }
}

/// Waits of a transient failure (5xx, timeout, dropped connection): 30 s doubling to 30 min.
pub fn backoff(attempt: i32) -> Duration {
    let n = attempt.clamp(1, 7) - 1;
    Duration::seconds((30i64 << n).min(1800))
}

/// Runs a job may have before a transient failure becomes Fail on the sheet (about 3 h of
/// retrying with [`backoff`]).
pub const MAX_ATTEMPTS: i32 = 10;

/// The wait a 429's `Retry-After` asks for: whole seconds, 1 s to a day; missing or
/// unreadable means a minute.
pub fn retry_after(header: Option<&str>) -> Duration {
    let secs = header.and_then(|h| h.trim().parse::<i64>().ok()).unwrap_or(60);
    Duration::seconds(secs.clamp(1, 86_400))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn line(code: Option<&str>, tracked: bool, qty: i64, price: i64) -> DocLine {
        DocLine { description: "Tyre".into(), quantity: qty, price: Cents(price), amount: Cents(qty * price), item_code: code.map(Into::into), tracked }
    }

    fn draft(kind: DocKind, tax: TaxType, lines: Vec<DocLine>) -> DocDraft {
        DocDraft { kind, number: "INV-7".into(), date: d("2026-11-20"), due_date: Some(d("2026-12-20")), reference: "PO 9".into(), contact_id: "c-1".into(), tax, lines }
    }

    #[test]
    fn the_four_sheet_types_become_the_four_xero_documents_and_the_rest_none() {
        assert_eq!(DocKind::of(OrderType::Invoice).map(DocKind::xero_type), Some("ACCREC"));
        assert_eq!(DocKind::of(OrderType::CreditNote).map(DocKind::xero_type), Some("ACCRECCREDIT"));
        assert_eq!(DocKind::of(OrderType::Bill).map(DocKind::xero_type), Some("ACCPAY"));
        assert_eq!(DocKind::of(OrderType::BillCreditNote).map(DocKind::xero_type), Some("ACCPAYCREDIT"));
        for t in [OrderType::PurchaseOrder, OrderType::Transfer, OrderType::Adjustment] {
            assert_eq!(DocKind::of(t), None);
        }
        assert_eq!(DocKind::CreditNote.collection(), "CreditNotes");
        assert_eq!(DocKind::Bill.number_field(), "InvoiceNumber");
        assert_eq!(DocKind::BillCredit.lookup_filter("BC\"1"), "CreditNoteNumber==\"BC1\" AND Type==\"ACCPAYCREDIT\"");
    }

    #[test]
    fn an_invoice_is_authorised_inclusive_on_account_200_with_our_number_dates_and_reference() {
        let doc = draft(DocKind::Invoice, TaxType::GstOnIncome, vec![line(Some("T1"), true, 2, 11000)]).to_json().unwrap();
        assert_eq!(doc["Type"], "ACCREC");
        assert_eq!(doc["InvoiceNumber"], "INV-7");
        assert_eq!(doc["Status"], "AUTHORISED");
        assert_eq!(doc["LineAmountTypes"], "Inclusive");
        assert_eq!(doc["Date"], "2026-11-20");
        assert_eq!(doc["DueDate"], "2026-12-20");
        assert_eq!(doc["Reference"], "PO 9");
        assert_eq!(doc["Contact"]["ContactID"], "c-1");
        let l = &doc["LineItems"][0];
        assert_eq!((l["AccountCode"].as_str(), l["TaxType"].as_str(), l["ItemCode"].as_str()), (Some("200"), Some("OUTPUT"), Some("T1")));
        assert_eq!((l["Quantity"].as_i64(), l["UnitAmount"].as_f64(), l["LineAmount"].as_f64(), l["TaxAmount"].as_f64()), (Some(2), Some(110.0), Some(220.0), Some(20.0)));
    }

    #[test]
    fn purchase_lines_post_to_inventory_through_tracked_items_and_to_purchases_otherwise() {
        let doc = draft(DocKind::Bill, TaxType::TaxInclusive, vec![line(Some("T1"), true, 1, 5500), line(Some("FIT"), false, 1, 1100), line(None, false, 1, 100)]).to_json().unwrap();
        assert_eq!(doc["Type"], "ACCPAY");
        let codes: Vec<_> = doc["LineItems"].as_array().unwrap().iter().map(|l| (l["AccountCode"].as_str().unwrap().to_string(), l["TaxType"].as_str().unwrap().to_string())).collect();
        assert_eq!(codes, [("630".into(), "INPUT".into()), ("300".into(), "INPUT".into()), ("300".into(), "INPUT".into())]);
        assert!(doc["LineItems"][2].get("ItemCode").is_none());
    }

    #[test]
    fn no_tax_sheets_are_gst_free_with_no_tax_amount() {
        let sale = draft(DocKind::CreditNote, TaxType::NoTax, vec![line(None, false, 3, 999)]).to_json().unwrap();
        assert_eq!(sale["Type"], "ACCRECCREDIT");
        assert_eq!(sale["CreditNoteNumber"], "INV-7");
        assert_eq!(sale["LineAmountTypes"], "NoTax");
        assert_eq!(sale["LineItems"][0]["TaxType"], "EXEMPTOUTPUT");
        assert_eq!(sale["LineItems"][0]["TaxAmount"].as_f64(), Some(0.0));
        let buy = draft(DocKind::BillCredit, TaxType::NoTax, vec![line(None, false, 1, 100)]).to_json().unwrap();
        assert_eq!(buy["LineItems"][0]["TaxType"], "EXEMPTEXPENSES");
    }

    #[test]
    fn line_taxes_add_up_to_the_sheets_gst_taken_from_the_total() {
        // Three lines of $1.00: 9.09¢ each rounds to 9¢ (27¢), the total's GST is 30000/11 → 27¢.
        // Seven lines of $0.05: each 0¢, the total 35¢ has 3¢.
        let lines: Vec<DocLine> = (0..7).map(|_| line(None, false, 1, 5)).collect();
        let taxes = line_taxes(&lines, TaxType::GstOnIncome).unwrap();
        assert_eq!(taxes.iter().map(|c| c.0).sum::<i64>(), 3);
        assert_eq!(line_taxes(&lines, TaxType::NoTax).unwrap().iter().map(|c| c.0).sum::<i64>(), 0);
    }

    #[test]
    fn xero_dollars_become_cents() {
        assert_eq!(cents_of(1234.56), Some(Cents(123456)));
        assert_eq!(cents_of(-0.1), Some(Cents(-10)));
        assert_eq!(cents_of(f64::NAN), None);
        assert_eq!(cents_of(1e20), None);
    }

    #[test]
    fn amounts_are_written_with_exactly_two_decimals() {
        assert_eq!(dollars(Cents(123456)).to_string(), "1234.56");
        assert_eq!(dollars(Cents(-5)).to_string(), "-0.05");
        assert_eq!(dollars(Cents(7)).to_string(), "0.07");
    }

    #[test]
    fn an_item_code_over_30_is_refused_a_long_name_is_cut_and_physical_products_are_tracked() {
        assert!(ItemDraft::new(&"X".repeat(31), "n", true).unwrap_err().contains("30 characters"));
        let it = ItemDraft::new("T1", &"N".repeat(80), true).unwrap();
        assert_eq!(it.name.chars().count(), 50);
        let j = it.to_json();
        assert_eq!((j["InventoryAssetAccountCode"].as_str(), j["PurchaseDetails"]["COGSAccountCode"].as_str()), (Some("630"), Some("310")));
        let v = ItemDraft::new("FIT", "Fitting", false).unwrap().to_json();
        assert!(v.get("InventoryAssetAccountCode").is_none());
        assert_eq!(v["PurchaseDetails"]["AccountCode"], "300");
    }

    #[test]
    fn a_contact_carries_our_code_as_its_number_and_its_id_when_updating() {
        let c = ContactDraft { number: "C001".into(), name: "Acme".into(), phone: "02 1".into(), address: vec!["1 St".into()], ..Default::default() };
        let j = c.to_json(Some("id-1")).unwrap();
        assert_eq!((j["ContactNumber"].as_str(), j["ContactID"].as_str()), (Some("C001"), Some("id-1")));
        assert_eq!(j["Addresses"][0]["AddressLine1"], "1 St");
        assert!(ContactDraft { number: "9".repeat(51), ..Default::default() }.to_json(None).is_err());
    }

    #[test]
    fn a_resent_document_after_recalls_gets_a_new_suffix() {
        assert_eq!(document_number("INV1", 0), "INV1");
        assert_eq!(document_number("INV1", 1), "INV1/2");
        assert_eq!(document_number("INV1", 2), "INV1/3");
    }

    #[test]
    fn recall_deletes_drafts_voids_authorised_and_refuses_paid() {
        assert_eq!(recall_step("DRAFT"), RecallStep::Set("DELETED"));
        assert_eq!(recall_step("SUBMITTED"), RecallStep::Set("DELETED"));
        assert_eq!(recall_step("AUTHORISED"), RecallStep::Set("VOIDED"));
        assert_eq!(recall_step("VOIDED"), RecallStep::Gone);
        assert_eq!(recall_step("PAID"), RecallStep::Refuse);
        assert!(!is_live("VOIDED") && !is_live("DELETED") && is_live("AUTHORISED"));
    }

    #[test]
    fn refusals_keep_every_validation_message_once() {
        let body = json!({"Type": "ValidationException", "Message": "A validation exception occurred",
            "Elements": [{"ValidationErrors": [{"Message": "Invoice # must be unique."}, {"Message": "Invoice # must be unique."}]},
                         {"ValidationErrors": [{"Message": "Account code '999' is not a valid code for this document."}]}]});
        assert_eq!(refusal_text(&body), "Invoice # must be unique. Account code '999' is not a valid code for this document.");
        assert_eq!(refusal_text(&json!({"error": "invalid_client"})), "invalid_client");
    }

    #[test]
    fn missing_tax_rates_are_named() {
        assert!(check_tax_rate("OUTPUT,INPUT", "INPUT").is_ok());
        assert!(check_tax_rate("OUTPUT", "EXEMPTOUTPUT").unwrap_err().contains("EXEMPTOUTPUT"));
    }

    #[test]
    fn the_budget_never_allows_60_calls_in_any_minute_and_waits_for_a_429() {
        let t0 = d("2026-11-24").and_hms_opt(10, 0, 0).unwrap();
        let mut b = Budget { tat: None, day_count: 0, day: None, blocked_until: None };
        let mut now = t0;
        let mut calls = Vec::new();
        while calls.len() < 300 {
            match b.take(now) {
                Ok(next) => {
                    b = next;
                    calls.push(now);
                }
                Err(at) => {
                    assert!(at > now);
                    now = at;
                }
            }
        }
        for (i, t) in calls.iter().enumerate() {
            let in_window = calls[i..].iter().take_while(|u| **u < *t + Duration::seconds(60)).count();
            assert!(in_window <= 59, "{in_window} calls in the minute from {t}");
        }
        // 300 calls need about 300 × 1.091 s, not much more.
        assert!(now - t0 < Duration::seconds(330));
        let blocked = Budget { blocked_until: Some(t0 + Duration::seconds(30)), ..b };
        assert_eq!(blocked.take(t0), Err(t0 + Duration::seconds(30)));
    }

    #[test]
    fn the_budget_stops_for_the_day_below_xeros_5000() {
        let t = d("2026-11-24").and_hms_opt(23, 0, 0).unwrap();
        let b = Budget { tat: None, day_count: Budget::DAY_MAX, day: Some(t.date()), blocked_until: None };
        assert_eq!(b.take(t), Err(d("2026-11-25").and_hms_opt(0, 0, 1).unwrap()));
        // A new day starts the count again.
        assert_eq!(b.take(t + Duration::hours(2)).unwrap().day_count, 1);
    }

    #[test]
    fn backoff_doubles_to_half_an_hour_and_retry_after_is_bounded() {
        assert_eq!(backoff(1), Duration::seconds(30));
        assert_eq!(backoff(2), Duration::seconds(60));
        assert_eq!(backoff(10), Duration::seconds(1800));
        assert_eq!(retry_after(Some("7")), Duration::seconds(7));
        assert_eq!(retry_after(Some("0")), Duration::seconds(1));
        assert_eq!(retry_after(None), Duration::seconds(60));
        assert_eq!(retry_after(Some("999999")), Duration::seconds(86_400));
    }
}
