//! The accounting link's rules that need no I/O (issue 12, DESIGN §8, docs/decisions/xero.md):
//! which Xero document a sheet becomes and how its lines, tax and amounts are
//! written; the company's rate budget (GCRA under Xero's 60 calls a minute); the retry
//! back-off; what a recall asks of each document status; and Xero's refusals as text.

use chrono::{Duration, NaiveDate, NaiveDateTime};
use serde_json::{Value, json};

use super::enums::{OrderType, TaxType};
use super::money::{Cents, gst_of_inclusive};
use super::xero_mapping::Mapping;

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

    /// Takes tracked items out of Xero's stock: a sale, or a return to the supplier.
    pub const fn takes_stock(self) -> bool {
        matches!(self, Self::Invoice | Self::BillCredit)
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

    /// The `where` filter that finds the document sent under `number`; a purchase's number
    /// is the supplier's and not unique in Xero, so it is looked for with its contact.
    pub fn lookup_filter(self, number: &str, contact_id: &str) -> String {
        let mut f = format!("{}=={} AND Type==\"{}\"", self.number_field(), quoted(number), self.xero_type());
        if !self.is_sales() && !contact_id.is_empty() {
            f.push_str(&format!(" AND Contact.ContactID==guid({})", quoted(contact_id)));
        }
        f
    }

    /// The number the document carries in Xero. A sale carries ours ([`document_number`]).
    /// Xero keeps a purchase's `Reference` nowhere (it is ACCREC / ACCRECCREDIT only): what
    /// Xero shows as a bill's reference is its `InvoiceNumber` (`CreditNoteNumber` for a
    /// bill credit note), so a purchase carries the supplier's reference there, and ours
    /// when the sheet has none (docs/decisions/xero.md "Mapping").
    pub fn number_sent(self, no: &str, recalls: i64, reference: &str) -> String {
        let reference = reference.trim();
        if self.is_sales() || reference.is_empty() { document_number(no, recalls) } else { cut(reference, 255) }
    }
}

/// A string inside a Xero `where` filter: in double quotes, a quote inside doubled is not
/// supported by Xero, so quotes and backslashes are left out (our codes and numbers have none).
pub fn quoted(s: &str) -> String {
    let clean: String = s.chars().filter(|c| *c != '"' && *c != '\\').collect();
    format!("\"{clean}\"")
}

/// Xero's limits on an item's `Code` and `Name`, and on a contact's `ContactNumber`. New
/// products, customers and suppliers are held to them (`masters`, `reference_data`).
pub const ITEM_CODE_MAX: usize = 30;
pub const ITEM_NAME_MAX: usize = 50;
pub const CONTACT_NUMBER_MAX: usize = 50;

/// The code a product's item carries in Xero: the product's code when it fits Xero's 30
/// characters. A longer code (a product saved before the limit, whose code can no longer
/// change) is sent as its first 21 characters, `~` and 8 hex digits of its SHA-256: the same
/// every time, so the item is found again, and distinct from every code that fits.
pub fn item_code(code: &str) -> String {
    fit_code(code.trim(), ITEM_CODE_MAX)
}

/// The `ContactNumber` of a customer or supplier: its code, or a longer one fitted to
/// Xero's 50 characters as [`item_code`] does.
pub fn contact_number(code: &str) -> String {
    fit_code(code.trim(), CONTACT_NUMBER_MAX)
}

fn fit_code(code: &str, max: usize) -> String {
    use sha2::{Digest, Sha256};
    if code.chars().count() <= max {
        return code.to_string();
    }
    let digest = hex::encode(&Sha256::digest(code.as_bytes())[..4]);
    format!("{}~{digest}", cut(code, max - 9))
}

/// `LineAmountTypes`: our prices include GST; a No Tax sheet has none.
pub const fn line_amount_types(tax: TaxType) -> &'static str {
    if tax.charges_gst() { "Inclusive" } else { "NoTax" }
}

/// An item as Xero should hold it for a product.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDraft {
    pub code: String,
    pub name: String,
    pub description: String,
    /// Physical products are tracked inventory (the mapping's inventory and COGS
    /// accounts); virtual ones are not.
    pub tracked: bool,
}

impl ItemDraft {
    /// The item of a product: its code fitted to Xero's limit ([`item_code`]), a long name
    /// cut to 50 characters.
    pub fn new(code: &str, name: &str, tracked: bool) -> Self {
        Self { code: item_code(code), name: cut(name.trim(), ITEM_NAME_MAX), description: name.trim().into(), tracked }
    }

    /// The body of `POST /Items`, on the company's accounts.
    pub fn to_json(&self, m: &Mapping) -> Value {
        let mut item = json!({
            "Code": self.code,
            "Name": self.name,
            "Description": self.description,
            "PurchaseDescription": self.description,
            "SalesDetails": { "AccountCode": m.sales },
        });
        if self.tracked {
            item["InventoryAssetAccountCode"] = json!(m.inventory);
            item["PurchaseDetails"] = json!({ "COGSAccountCode": m.cogs });
        } else {
            item["PurchaseDetails"] = json!({ "AccountCode": m.purchases });
        }
        item
    }
}

fn cut(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// The longest `Reference` a sales document carries (Xero keeps 255 characters).
pub const REFERENCE_MAX: usize = 255;

/// The `Reference` of a sales document: the sheet's reference; for a credit note that
/// credits an invoice, 'Credit for INV-…' first and the sheet's reference after ' - ', which
/// is what gets cut when the two pass Xero's limit (issue 32, docs/decisions/xero.md).
pub fn sales_reference(reference: &str, credit_for: Option<&str>) -> String {
    let reference = reference.trim();
    match credit_for.map(str::trim).filter(|no| !no.is_empty()) {
        None => cut(reference, REFERENCE_MAX),
        Some(no) if reference.is_empty() => cut(&format!("Credit for {no}"), REFERENCE_MAX),
        Some(no) => cut(&format!("Credit for {no} - {reference}"), REFERENCE_MAX),
    }
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
    /// The contact's `ContactNumber`: our code fitted to Xero's limit ([`contact_number`]).
    pub fn number_sent(&self) -> String {
        contact_number(&self.number)
    }

    /// The body of `POST /Contacts`. A new contact carries our code as its `ContactNumber`;
    /// an update (with the contact's id) carries no number and no empty field, so that a
    /// contact shared by a customer and a supplier of the same business (linked by name)
    /// keeps the number and details the other record gave it.
    pub fn to_json(&self, contact_id: Option<&str>) -> Value {
        let mut c = json!({ "Name": cut(self.name.trim(), 255) });
        if contact_id.is_none() {
            c["ContactNumber"] = json!(self.number_sent());
        }
        if !self.email.trim().is_empty() {
            c["EmailAddress"] = json!(self.email.trim());
        }
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
        c
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
    /// The lines: in `currency` when the sheet is foreign (the supplier's prices), else AUD.
    pub lines: Vec<DocLine>,
    /// A foreign purchase sheet's currency and rate (issue 35); `None` is AUD.
    pub currency: Option<(String, crate::currency::Rate)>,
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
    /// as on our sheet (GST inclusive), on the company's accounts: sales lines on the sales
    /// account, purchase lines on the inventory account through their tracked item, or on
    /// the purchases account without one.
    pub fn to_json(&self, m: &Mapping) -> Result<Value, String> {
        let tax_type = m.tax_type(self.kind.is_sales(), self.tax);
        let taxes = line_taxes(&self.lines, self.tax).ok_or_else(|| format!("The lines of {} add up beyond the largest amount.", self.number))?;
        let lines: Vec<Value> = self
            .lines
            .iter()
            .zip(taxes)
            .map(|(l, t)| {
                let account = m.line_account(self.kind.is_sales(), l.tracked && l.item_code.is_some());
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
            "CurrencyCode": crate::currency::AUD,
            "LineItems": lines,
        });
        // A foreign bill goes in the supplier's currency at the sheet's rate, which Xero
        // writes the same way: units of the currency per 1 of the base currency.
        if let Some((code, rate)) = &self.currency {
            doc["CurrencyCode"] = json!(code);
            doc["CurrencyRate"] = json!(rate.as_decimal());
        }
        doc[self.kind.number_field()] = json!(self.number);
        if let Some(d) = self.due_date.or(Some(self.date)) {
            doc["DueDate"] = json!(d.format("%Y-%m-%d").to_string());
        }
        // `Reference` is ACCREC / ACCRECCREDIT only; a purchase's is its number ([`DocKind::number_sent`]).
        if self.kind.is_sales() && !self.reference.trim().is_empty() {
            doc["Reference"] = json!(cut(self.reference.trim(), REFERENCE_MAX));
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

/// Xero's refusal of one element of a create or update answered 200 (sent with
/// `summarizeErrors=false`, so that one refused element never hides the others): an element
/// whose `StatusAttributeString` is `ERROR`, or that carries `HasErrors`,
/// `HasValidationErrors` or any `ValidationErrors`, was not saved. Its messages, or `None`
/// when Xero saved it.
pub fn element_refusal(el: &Value) -> Option<String> {
    let mut msgs: Vec<&str> = Vec::new();
    for m in el.get("ValidationErrors").and_then(Value::as_array).into_iter().flatten().filter_map(|e| e.get("Message").and_then(Value::as_str)) {
        if !msgs.contains(&m) {
            msgs.push(m);
        }
    }
    let flagged = el.get("StatusAttributeString").and_then(Value::as_str).is_some_and(|s| s.eq_ignore_ascii_case("ERROR"))
        || ["HasErrors", "HasValidationErrors"].iter().any(|k| el.get(*k).and_then(Value::as_bool) == Some(true));
    if !flagged && msgs.is_empty() {
        return None;
    }
    Some(if msgs.is_empty() { "Xero refused it without giving a reason.".into() } else { cut(&msgs.join(" "), 2000) })
}

/// The company's call budget: Xero allows 60 calls a minute; we emit one per
/// [`Budget::PERIOD_MS`] with a burst of [`Budget::BURST`], which keeps any 60-second
/// window under 60 calls (GCRA: at most (60 s + tolerance) / period + 1 = 59), and stop
/// for the day at [`Budget::DAY_MAX`] of Xero's 5,000.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

    /// Counts `n` calls made at `now` outside the budget (a person's Test connection, which
    /// waits for no slot): the calls after them wait as if these had taken slots.
    pub fn charge(self, now: NaiveDateTime, n: i32) -> Self {
        let today = now.date();
        let count = if self.day == Some(today) { self.day_count } else { 0 };
        let tat = self.tat.filter(|t| *t > now).unwrap_or(now);
        Self { tat: Some(tat + Duration::milliseconds(Self::PERIOD_MS) * n.max(0)), day_count: count.saturating_add(n.max(0)), day: Some(today), blocked_until: self.blocked_until }
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
        DocDraft { kind, number: "INV-7".into(), date: d("2026-11-20"), due_date: Some(d("2026-12-20")), reference: "PO 9".into(), contact_id: "c-1".into(), tax, lines, currency: None }
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
        assert_eq!([DocKind::Invoice, DocKind::CreditNote, DocKind::Bill, DocKind::BillCredit].map(DocKind::takes_stock), [true, false, false, true]);
        assert_eq!(DocKind::Bill.number_field(), "InvoiceNumber");
        assert_eq!(DocKind::Invoice.lookup_filter("IN\"1", "c-1"), "InvoiceNumber==\"IN1\" AND Type==\"ACCREC\"");
        assert_eq!(DocKind::BillCredit.lookup_filter("BC1", "c-1"), "CreditNoteNumber==\"BC1\" AND Type==\"ACCPAYCREDIT\" AND Contact.ContactID==guid(\"c-1\")");
    }

    #[test]
    fn an_invoice_is_authorised_inclusive_on_account_200_with_our_number_dates_and_reference() {
        let doc = draft(DocKind::Invoice, TaxType::GstOnIncome, vec![line(Some("T1"), true, 2, 11000)]).to_json(&Mapping::au_default()).unwrap();
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
    fn a_foreign_bill_goes_in_the_suppliers_currency_at_the_sheets_rate() {
        // 400 tyres at US$45.00, 1 AUD = 0.652 USD, no GST on the supplier's invoice.
        let mut bill = draft(DocKind::Bill, TaxType::NoTax, vec![line(Some("T1"), true, 400, 4500)]);
        bill.currency = Some(("USD".into(), crate::currency::Rate(652_000)));
        let doc = bill.to_json(&Mapping::au_default()).unwrap();
        assert_eq!((doc["CurrencyCode"].as_str(), doc["CurrencyRate"].as_f64()), (Some("USD"), Some(0.652)));
        let l = &doc["LineItems"][0];
        assert_eq!((l["UnitAmount"].as_f64(), l["LineAmount"].as_f64()), (Some(45.0), Some(18000.0)), "the supplier's prices, not the AUD ones");
        // An AUD sheet says AUD and no rate.
        let aud = draft(DocKind::Bill, TaxType::NoTax, vec![line(Some("T1"), true, 1, 100)]).to_json(&Mapping::au_default()).unwrap();
        assert_eq!((aud["CurrencyCode"].as_str(), aud.get("CurrencyRate")), (Some("AUD"), None));
    }

    #[test]
    fn purchase_lines_post_to_inventory_through_tracked_items_and_to_purchases_otherwise() {
        let doc = draft(DocKind::Bill, TaxType::TaxInclusive, vec![line(Some("T1"), true, 1, 5500), line(Some("FIT"), false, 1, 1100), line(None, false, 1, 100)]).to_json(&Mapping::au_default()).unwrap();
        assert_eq!(doc["Type"], "ACCPAY");
        let codes: Vec<_> = doc["LineItems"].as_array().unwrap().iter().map(|l| (l["AccountCode"].as_str().unwrap().to_string(), l["TaxType"].as_str().unwrap().to_string())).collect();
        assert_eq!(codes, [("630".into(), "INPUT".into()), ("300".into(), "INPUT".into()), ("300".into(), "INPUT".into())]);
        assert!(doc["LineItems"][2].get("ItemCode").is_none());
    }

    #[test]
    fn a_purchase_carries_the_suppliers_reference_as_its_number_where_xero_keeps_it() {
        // Xero documents `Reference` as ACCREC / ACCRECCREDIT only (issue 31, finding 4).
        assert_eq!(DocKind::Bill.number_sent("B000012", 0, " INV-5521 "), "INV-5521");
        assert_eq!(DocKind::BillCredit.number_sent("BC00003", 1, ""), "BC00003/2");
        assert_eq!(DocKind::Invoice.number_sent("IN00009", 0, "PO 9"), "IN00009");
        let mut bill = draft(DocKind::Bill, TaxType::TaxInclusive, vec![line(Some("T1"), true, 1, 5500)]);
        bill.number = DocKind::Bill.number_sent("B000012", 0, &bill.reference);
        let doc = bill.to_json(&Mapping::au_default()).unwrap();
        assert_eq!(doc["InvoiceNumber"], "PO 9");
        assert!(doc.get("Reference").is_none(), "{doc}");
        let sale = draft(DocKind::CreditNote, TaxType::TaxInclusive, vec![line(None, false, 1, 100)]).to_json(&Mapping::au_default()).unwrap();
        assert_eq!(sale["Reference"], "PO 9");
    }

    #[test]
    fn a_credit_note_names_the_invoice_it_credits_before_its_reference_within_xeros_limit() {
        assert_eq!(sales_reference(" PO 9 ", None), "PO 9");
        assert_eq!(sales_reference("", Some("INV-000012")), "Credit for INV-000012");
        assert_eq!(sales_reference("RMA 17", Some("INV-000012")), "Credit for INV-000012 - RMA 17");
        let long = sales_reference(&"R".repeat(300), Some("INV-000012"));
        assert_eq!(long.chars().count(), REFERENCE_MAX);
        assert!(long.starts_with("Credit for INV-000012 - RRR"), "the sheet's reference is what is cut");
        assert_eq!(sales_reference(&"é".repeat(300), None).chars().count(), REFERENCE_MAX, "characters, not bytes");
    }

    #[test]
    fn no_tax_sheets_are_gst_free_with_no_tax_amount() {
        let sale = draft(DocKind::CreditNote, TaxType::NoTax, vec![line(None, false, 3, 999)]).to_json(&Mapping::au_default()).unwrap();
        assert_eq!(sale["Type"], "ACCRECCREDIT");
        assert_eq!(sale["CreditNoteNumber"], "INV-7");
        assert_eq!(sale["LineAmountTypes"], "NoTax");
        assert_eq!(sale["LineItems"][0]["TaxType"], "EXEMPTOUTPUT");
        assert_eq!(sale["LineItems"][0]["TaxAmount"].as_f64(), Some(0.0));
        let buy = draft(DocKind::BillCredit, TaxType::NoTax, vec![line(None, false, 1, 100)]).to_json(&Mapping::au_default()).unwrap();
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
    fn a_long_code_is_fitted_to_xeros_limit_the_same_way_every_time_and_physical_products_are_tracked() {
        // Issue 31, finding 2: a product saved with a 34-character code before the limit.
        let long = "LT265/70R17-121/118S-BFG-KO2-RWL-X";
        let sent = ItemDraft::new(long, "n", true).code;
        assert_eq!(sent.chars().count(), ITEM_CODE_MAX);
        assert!(sent.starts_with("LT265/70R17-121/118S-~"), "{sent}");
        assert_eq!(sent, item_code(long), "stable, so the item is found again");
        assert_ne!(item_code(long), item_code("LT265/70R17-121/118S-BFG-KO2-RWL-Y"));
        assert_eq!(item_code(" T1 "), "T1");
        assert_eq!(item_code(&"X".repeat(30)), "X".repeat(30));
        assert_eq!(contact_number(&"S".repeat(60)).chars().count(), CONTACT_NUMBER_MAX);
        assert_eq!(contact_number("C001"), "C001");
        let it = ItemDraft::new("T1", &"N".repeat(80), true);
        assert_eq!(it.name.chars().count(), 50);
        let j = it.to_json(&Mapping::au_default());
        assert_eq!((j["InventoryAssetAccountCode"].as_str(), j["PurchaseDetails"]["COGSAccountCode"].as_str()), (Some("630"), Some("310")));
        let v = ItemDraft::new("FIT", "Fitting", false).to_json(&Mapping::au_default());
        assert!(v.get("InventoryAssetAccountCode").is_none());
        assert_eq!(v["PurchaseDetails"]["AccountCode"], "300");
    }

    #[test]
    fn a_new_contact_carries_our_code_as_its_number_and_an_update_only_what_the_record_has() {
        let c = ContactDraft { number: "C001".into(), name: "Acme".into(), phone: "02 1".into(), address: vec!["1 St".into()], ..Default::default() };
        let j = c.to_json(None);
        assert_eq!((j["ContactNumber"].as_str(), j["Name"].as_str()), (Some("C001"), Some("Acme")));
        assert_eq!(j["Addresses"][0]["AddressLine1"], "1 St");
        assert!(j.get("EmailAddress").is_none(), "an empty e-mail is not sent");
        let update = c.to_json(Some("id-1"));
        assert_eq!(update["ContactID"], "id-1");
        assert!(update.get("ContactNumber").is_none(), "an update keeps the number the contact has: {update}");
        assert_eq!(ContactDraft { number: "9".repeat(51), ..Default::default() }.to_json(None)["ContactNumber"].as_str().map(|n| n.chars().count()), Some(50));
    }

    #[test]
    fn an_element_xero_refused_inside_a_200_answer_is_a_refusal_with_its_messages() {
        // Issue 31, finding 1: Xero's own 200 example of a refused element.
        let refused = json!({"InvoiceID": "00000000-0000-0000-0000-000000000000", "HasErrors": true, "StatusAttributeString": "ERROR",
            "ValidationErrors": [{"Message": "Email address must be valid."}, {"Message": "Email address must be valid."}, {"Message": "Account code '999' is not a valid code."}]});
        assert_eq!(element_refusal(&refused).as_deref(), Some("Email address must be valid. Account code '999' is not a valid code."));
        assert!(element_refusal(&json!({"StatusAttributeString": "ERROR"})).unwrap().contains("without giving a reason"));
        assert!(element_refusal(&json!({"ContactID": "x", "HasValidationErrors": true})).is_some());
        assert_eq!(element_refusal(&json!({"InvoiceID": "a", "StatusAttributeString": "OK", "HasErrors": false})), None);
        assert_eq!(element_refusal(&json!({"InvoiceID": "a"})), None);
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
    fn calls_made_outside_the_budget_are_charged_so_the_next_minute_stays_under_60() {
        // A Test connection makes three calls without waiting; a batch right after must
        // still make at most 60 in any minute with them (issue 31: the chart is read too).
        let t0 = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap().and_hms_opt(1, 0, 0).unwrap();
        let mut b = Budget::default().charge(t0, 3);
        assert_eq!(b.day_count, 3);
        let mut calls = vec![t0, t0, t0];
        let mut now = t0;
        while calls.len() < 200 {
            match b.take(now) {
                Ok(next) => {
                    b = next;
                    calls.push(now);
                }
                Err(at) => now = at,
            }
        }
        for (i, t) in calls.iter().enumerate() {
            let in_minute = calls[i..].iter().take_while(|u| **u - *t < Duration::seconds(60)).count();
            assert!(in_minute <= 60, "{in_minute} calls in the minute from call {i}");
        }
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
