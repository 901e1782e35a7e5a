//! The fake organisation's records (contacts, items, invoices, credit notes), its chart of
//! accounts and tax rates, and Xero's rules for creating and changing them.

use chrono::{NaiveDate, NaiveDateTime};
use serde_json::{Value, json};

use super::{Answer, State};

/// What differs between invoices and credit notes.
#[derive(Clone, Copy)]
pub(super) struct DocKind {
    pub(super) coll: &'static str,
    pub(super) id: &'static str,
    pub(super) number: &'static str,
    types: [&'static str; 2],
    /// The type whose numbers must be unique.
    unique: &'static str,
    unique_message: &'static str,
}

pub(super) const INVOICES: DocKind = DocKind { coll: "Invoices", id: "InvoiceID", number: "InvoiceNumber", types: ["ACCREC", "ACCPAY"], unique: "ACCREC", unique_message: "Invoice # must be unique." };
pub(super) const CREDIT_NOTES: DocKind =
    DocKind { coll: "CreditNotes", id: "CreditNoteID", number: "CreditNoteNumber", types: ["ACCRECCREDIT", "ACCPAYCREDIT"], unique: "ACCRECCREDIT", unique_message: "Credit Note # must be unique." };

/// The chart of accounts (code, name, type).
pub(super) const ACCOUNTS: &[(&str, &str, &str)] = &[
    ("200", "Sales", "REVENUE"),
    ("300", "Purchases", "DIRECTCOSTS"),
    ("310", "Cost of Goods Sold", "DIRECTCOSTS"),
    ("610", "Accounts Receivable", "CURRENT"),
    ("630", "Inventory", "INVENTORY"),
    ("800", "Accounts Payable", "CURRLIAB"),
    ("820", "GST", "CURRLIAB"),
];

/// Tax rates (name, type, rate).
pub(super) const TAX_RATES: &[(&str, &str, f64)] = &[
    ("GST on Income", "OUTPUT", 10.0),
    ("GST on Expenses", "INPUT", 10.0),
    ("GST Free Income", "EXEMPTOUTPUT", 0.0),
    ("GST Free Expenses", "EXEMPTEXPENSES", 0.0),
    ("BAS Excluded", "BASEXCLUDED", 0.0),
];

impl State {
    /// The chart: the AU default unless a test replaced it.
    pub(super) fn chart(&self) -> Vec<(String, String, String)> {
        match &self.accounts {
            Some(a) => a.clone(),
            None => ACCOUNTS.iter().map(|(c, n, t)| (c.to_string(), n.to_string(), t.to_string())).collect(),
        }
    }

    fn account_type(&self, code: &str) -> Option<String> {
        self.chart().into_iter().find(|a| a.0 == code).map(|a| a.2)
    }
}

fn tax_rate(tax_type: &str) -> Option<f64> {
    TAX_RATES.iter().find(|t| t.1 == tax_type).map(|t| t.2)
}

pub(super) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub(super) fn ok(coll: &str, items: Vec<Value>, now: NaiveDateTime) -> Answer {
    Answer::new(200, json!({"Id": random_id(), "Status": "OK", "ProviderName": "TyreDesk fake", "DateTimeUTC": ms_date(now), coll: items}))
}

fn invalid(elements: Vec<(Value, Vec<String>)>) -> Answer {
    let els: Vec<Value> = elements
        .into_iter()
        .map(|(mut el, msgs)| {
            el["ValidationErrors"] = Value::Array(msgs.into_iter().map(|m| json!({"Message": m})).collect());
            el
        })
        .collect();
    Answer::new(400, json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": "A validation exception occurred", "Elements": els}))
}

/// An element checked for a create or update: the record to keep (at its index when it
/// exists), or the element with the messages it was refused with.
type Outcome = Result<(Option<usize>, Value), (Value, Vec<String>)>;

/// The id Xero answers for an element it did not save.
const NIL_ID: &str = "00000000-0000-0000-0000-000000000000";

pub(super) fn ms_date(t: NaiveDateTime) -> String {
    format!("/Date({}+0000)/", t.and_utc().timestamp_millis())
}

fn parse_day(v: &Value) -> Option<NaiveDate> {
    let s = v.as_str()?;
    NaiveDate::parse_from_str(s.get(..10)?, "%Y-%m-%d").ok()
}

pub(super) fn random_id() -> String {
    let b: [u8; 16] = rand::random();
    let h = hex::encode(b);
    format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
}

fn elements(body: &Value, coll: &str) -> Vec<Value> {
    body.get(coll).and_then(Value::as_array).cloned().unwrap_or_else(|| if body.is_object() && body.get(coll).is_none() { vec![body.clone()] } else { vec![] })
}

impl State {
    pub(super) fn docs(&self, k: DocKind) -> &Vec<Value> {
        if k.coll == "Invoices" { &self.invoices } else { &self.credit_notes }
    }

    pub(super) fn balances(&self, contact: &str, today: NaiveDate) -> Value {
        let mut sums = [[0.0f64; 2]; 2];
        let mut add = |side: usize, amount: f64, due: Option<NaiveDate>| {
            sums[side][0] += amount;
            if due.is_some_and(|d| d < today) {
                sums[side][1] += amount;
            }
        };
        for d in self.invoices.iter().chain(self.credit_notes.iter()).filter(|d| d["Contact"]["ContactID"] == contact && d["Status"] == "AUTHORISED") {
            let due = parse_day(&d["DueDateString"]);
            match d["Type"].as_str().unwrap_or("") {
                "ACCREC" => add(0, d["AmountDue"].as_f64().unwrap_or(0.0), due),
                "ACCRECCREDIT" => add(0, -d["RemainingCredit"].as_f64().unwrap_or(0.0), due),
                "ACCPAY" => add(1, d["AmountDue"].as_f64().unwrap_or(0.0), due),
                "ACCPAYCREDIT" => add(1, -d["RemainingCredit"].as_f64().unwrap_or(0.0), due),
                _ => {}
            }
        }
        json!({"AccountsReceivable": {"Outstanding": round2(sums[0][0]), "Overdue": round2(sums[0][1])},
               "AccountsPayable": {"Outstanding": round2(sums[1][0]), "Overdue": round2(sums[1][1])}})
    }

    /// The collection of records a create or update names.
    fn records_mut(&mut self, coll: &str) -> &mut Vec<Value> {
        match coll {
            "Contacts" => &mut self.contacts,
            "Items" => &mut self.items,
            "Invoices" => &mut self.invoices,
            _ => &mut self.credit_notes,
        }
    }

    /// Answers a create or update whose elements were checked in order: each the record to
    /// keep (at its index when it exists) or the element refused with its messages. By
    /// default (`summarize`) one refused element refuses them all with a 400
    /// `ValidationException`. With `summarizeErrors=false` Xero keeps every valid element
    /// and answers 200 with each element's own status: a refused one carries
    /// `StatusAttributeString: "ERROR"`, its `ValidationErrors` and the nil id.
    fn finish(&mut self, coll: &str, id_field: &str, outcomes: Vec<Outcome>, summarize: bool, now: NaiveDateTime) -> Answer {
        if outcomes.is_empty() {
            return invalid(vec![(json!({}), vec![format!("No {coll} were sent.")])]);
        }
        if summarize && outcomes.iter().any(Result::is_err) {
            return invalid(outcomes.into_iter().filter_map(Result::err).collect());
        }
        let mut out = Vec::new();
        for o in outcomes {
            match o {
                Ok((at, mut record)) => {
                    if at.is_none() {
                        for (code, delta) in self.stock_moves(&record) {
                            if let Some(s) = self.stock.as_mut() {
                                *s.entry(code).or_default() += delta;
                            }
                        }
                    }
                    match at {
                        Some(i) => self.records_mut(coll)[i] = record.clone(),
                        None => self.records_mut(coll).push(record.clone()),
                    }
                    if !summarize {
                        record["StatusAttributeString"] = json!("OK");
                    }
                    out.push(record);
                }
                Err((mut el, msgs)) => {
                    el[id_field] = json!(NIL_ID);
                    el["StatusAttributeString"] = json!("ERROR");
                    el[if coll == "Contacts" { "HasValidationErrors" } else { "HasErrors" }] = json!(true);
                    el["ValidationErrors"] = Value::Array(msgs.into_iter().map(|m| json!({"Message": m})).collect());
                    out.push(el);
                }
            }
        }
        ok(coll, out, now)
    }

    /// Every element of a create or update refused with `message` inside a 200 answer.
    pub(super) fn refuse_all(&mut self, coll: &str, body: &Value, message: &str, now: NaiveDateTime) -> Answer {
        let id_field = match coll {
            "Contacts" => "ContactID",
            "Items" => "ItemID",
            "Invoices" => "InvoiceID",
            _ => "CreditNoteID",
        };
        let outcomes = elements(body, coll).into_iter().map(|el| Err((el, vec![message.to_string()]))).collect();
        self.finish(coll, id_field, outcomes, false, now)
    }

    pub(super) fn save_contacts(&mut self, body: &Value, path_id: Option<&str>, upsert: bool, summarize: bool, now: NaiveDateTime) -> Answer {
        let els = elements(body, "Contacts");
        let mut outcomes: Vec<Outcome> = Vec::new();
        for el in &els {
            let id = path_id.map(str::to_string).or_else(|| el["ContactID"].as_str().map(str::to_string)).filter(|_| upsert);
            let existing = id.as_ref().and_then(|id| self.contacts.iter().position(|c| c["ContactID"] == id.as_str()));
            let mut msgs = Vec::new();
            if id.is_some() && existing.is_none() {
                msgs.push("The contact could not be found.".to_string());
            }
            let name = el["Name"].as_str().map(str::trim).unwrap_or("");
            if existing.is_none() && name.is_empty() {
                msgs.push("The contact name must be entered.".into());
            }
            if !name.is_empty() {
                let pending = outcomes.iter().filter_map(|o| o.as_ref().ok()).map(|(_, c)| c);
                let clash = self.contacts.iter().enumerate().filter(|(i, _)| Some(*i) != existing).map(|(_, c)| c).chain(pending).any(|c| c["Name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)));
                if clash {
                    msgs.push(format!("The contact name {name} is already assigned to another contact. The contact name must be unique across all active contacts."));
                }
            }
            if el["ContactNumber"].as_str().is_some_and(|n| n.chars().count() > 50) {
                msgs.push("The ContactNumber must be 50 characters or less.".into());
            }
            if !msgs.is_empty() {
                outcomes.push(Err((el.clone(), msgs)));
                continue;
            }
            let mut c = match existing {
                Some(i) => self.contacts[i].clone(),
                None => json!({"ContactID": random_id(), "ContactStatus": "ACTIVE"}),
            };
            for (k, v) in el.as_object().into_iter().flatten().filter(|(k, _)| *k != "ContactID") {
                c[k] = v.clone();
            }
            c["UpdatedDateUTC"] = json!(ms_date(now));
            outcomes.push(Ok((existing, c)));
        }
        self.finish("Contacts", "ContactID", outcomes, summarize, now)
    }

    pub(super) fn save_items(&mut self, body: &Value, upsert: bool, summarize: bool, now: NaiveDateTime) -> Answer {
        let els = elements(body, "Items");
        let mut outcomes: Vec<Outcome> = Vec::new();
        for el in &els {
            let mut msgs = Vec::new();
            let code = el["Code"].as_str().unwrap_or("").trim().to_string();
            if code.is_empty() {
                msgs.push("The Code must be entered.".to_string());
            } else if code.chars().count() > 30 {
                msgs.push("The Code must be 30 characters or less.".into());
            }
            if el["Name"].as_str().is_some_and(|n| n.chars().count() > 50) {
                msgs.push("The Name must be 50 characters or less.".into());
            }
            if let Some(asset) = el["InventoryAssetAccountCode"].as_str() {
                if self.account_type(asset).as_deref() != Some("INVENTORY") {
                    msgs.push(format!("Account code '{asset}' is not an inventory asset account."));
                }
                if el["PurchaseDetails"]["COGSAccountCode"].as_str().is_none() {
                    msgs.push("A tracked item needs a cost of goods sold account (PurchaseDetails.COGSAccountCode).".into());
                }
            }
            let existing = self.items.iter().position(|i| (el["ItemID"].is_string() && i["ItemID"] == el["ItemID"]) || i["Code"] == code.as_str());
            if existing.is_some() && !upsert {
                msgs.push(format!("Item code '{code}' already exists."));
            }
            if !msgs.is_empty() {
                outcomes.push(Err((el.clone(), msgs)));
                continue;
            }
            let mut item = match existing {
                Some(i) => self.items[i].clone(),
                None => json!({"ItemID": random_id()}),
            };
            for (k, v) in el.as_object().into_iter().flatten().filter(|(k, _)| *k != "ItemID") {
                item[k] = v.clone();
            }
            item["IsTrackedAsInventory"] = json!(item["InventoryAssetAccountCode"].is_string());
            item["UpdatedDateUTC"] = json!(ms_date(now));
            outcomes.push(Ok((existing, item)));
        }
        self.finish("Items", "ItemID", outcomes, summarize, now)
    }

    pub(super) fn save_docs(&mut self, k: DocKind, body: &Value, path_id: Option<&str>, upsert: bool, summarize: bool, now: NaiveDateTime) -> Answer {
        let els = elements(body, k.coll);
        let mut outcomes: Vec<Outcome> = Vec::new();
        for el in &els {
            let id = path_id.map(str::to_string).or_else(|| el[k.id].as_str().map(str::to_string)).filter(|_| upsert);
            let result = match id {
                Some(id) => match self.docs(k).iter().position(|d| d[k.id] == id.as_str()) {
                    Some(i) => self.check_change(k, i, el).map(|v| (Some(i), v)),
                    None => Err(vec![format!("{} {id} could not be found.", k.coll)]),
                },
                None => {
                    let pending: Vec<(Option<usize>, Value)> = outcomes.iter().filter_map(|o| o.as_ref().ok()).cloned().collect();
                    self.build_doc(k, el, &pending, now).map(|v| (None, v))
                }
            };
            outcomes.push(result.map_err(|msgs| (el.clone(), msgs)));
        }
        self.finish(k.coll, k.id, outcomes, summarize, now)
    }

    /// How an authorised document moves tracked items' stock (code, quantity), when the fake
    /// keeps stock.
    fn stock_moves(&self, doc: &Value) -> Vec<(String, f64)> {
        if self.stock.is_none() || doc["Status"] != "AUTHORISED" {
            return Vec::new();
        }
        let sign = match doc["Type"].as_str().unwrap_or("") {
            "ACCPAY" | "ACCRECCREDIT" => 1.0,
            "ACCREC" | "ACCPAYCREDIT" => -1.0,
            _ => return Vec::new(),
        };
        doc["LineItems"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| {
                let code = l["ItemCode"].as_str()?;
                let tracked = self.items.iter().any(|i| i["Code"] == code && i["IsTrackedAsInventory"] == true);
                tracked.then(|| (code.to_string(), sign * l["Quantity"].as_f64().unwrap_or(0.0)))
            })
            .collect()
    }

    /// A status change of an existing document (the only update the link makes).
    fn check_change(&self, k: DocKind, i: usize, el: &Value) -> Result<Value, Vec<String>> {
        let mut doc = self.docs(k)[i].clone();
        let Some(to) = el["Status"].as_str() else { return Ok(doc) };
        let from = doc["Status"].as_str().unwrap_or("DRAFT").to_string();
        if to == from {
            return Ok(doc);
        }
        let allowed = matches!((from.as_str(), to), ("DRAFT" | "SUBMITTED", "DELETED" | "SUBMITTED" | "AUTHORISED") | ("AUTHORISED", "VOIDED"));
        if !allowed {
            return Err(vec![format!("{} not of valid status for modification", if k.coll == "Invoices" { "Invoice" } else { "Credit note" })]);
        }
        let number = doc[k.number].as_str().unwrap_or("").to_string();
        if matches!(to, "DELETED" | "VOIDED") && self.payments.get(&number).is_some_and(|p| *p > 0.0) {
            return Err(vec!["This document cannot be edited as it has a payment or credit note allocated to it.".into()]);
        }
        doc["Status"] = json!(to);
        Ok(doc)
    }

    fn build_doc(&self, k: DocKind, el: &Value, pending: &[(Option<usize>, Value)], now: NaiveDateTime) -> Result<Value, Vec<String>> {
        let mut msgs = Vec::new();
        let ty = el["Type"].as_str().unwrap_or("");
        if !k.types.contains(&ty) {
            msgs.push(format!("The Type field is mandatory and must be {} or {}.", k.types[0], k.types[1]));
        }
        let contact = el["Contact"]["ContactID"].as_str().unwrap_or("");
        if !self.contacts.iter().any(|c| c["ContactID"] == contact) {
            msgs.push("The contact could not be found.".into());
        }
        let date = parse_day(&el["Date"]);
        match date {
            None => msgs.push("A valid Date must be entered (yyyy-MM-dd).".into()),
            Some(d) if self.lock_date.is_some_and(|l| d <= l) => {
                let l = self.lock_date.unwrap_or(d);
                msgs.push(format!("The document date cannot be before the period lock date of {}.", l.format("%-d %b %Y")));
            }
            Some(_) => {}
        }
        // A document in a currency the organisation has not added (its plan has no
        // multi-currency, or nobody added it) is refused [verify: Xero's wording].
        let code = el["CurrencyCode"].as_str().unwrap_or("AUD");
        if code != "AUD" && !self.currencies.iter().any(|c| c == code) {
            msgs.push(format!("Organisation is not subscribed to currency {code}"));
        }
        if code != "AUD" && el["CurrencyRate"].as_f64().is_some_and(|r| r <= 0.0) {
            msgs.push("The currency rate must be greater than zero.".into());
        }
        let due = if el["DueDate"].is_null() { None } else { parse_day(&el["DueDate"]) };
        let status = el["Status"].as_str().unwrap_or("DRAFT");
        if !matches!(status, "DRAFT" | "SUBMITTED" | "AUTHORISED") {
            msgs.push(format!("Status {status} is not valid for a new document."));
        }
        let number = el[k.number].as_str().unwrap_or("");
        if ty == k.unique && !number.is_empty() {
            let taken = self.docs(k).iter().chain(pending.iter().map(|p| &p.1)).any(|d| d["Type"] == ty && d[k.number] == number);
            if taken {
                msgs.push(k.unique_message.into());
            }
        }
        let lat = el["LineAmountTypes"].as_str().unwrap_or("Exclusive");
        if !matches!(lat, "Exclusive" | "Inclusive" | "NoTax") {
            msgs.push(format!("LineAmountTypes {lat} is not valid."));
        }
        let mut lines = Vec::new();
        let (mut sum_lines, mut sum_tax) = (0.0, 0.0);
        for l in el["LineItems"].as_array().into_iter().flatten() {
            let mut line = l.clone();
            let account = l["AccountCode"].as_str().unwrap_or("");
            match self.account_type(account).as_deref() {
                None => msgs.push(format!("Account code '{account}' is not a valid code for this document.")),
                Some("INVENTORY") => {
                    let tracked = l["ItemCode"].as_str().and_then(|c| self.items.iter().find(|i| i["Code"] == c)).is_some_and(|i| i["IsTrackedAsInventory"] == true);
                    if !tracked {
                        msgs.push("You cannot save this transaction using an inventory account type.".into());
                    }
                }
                Some(_) => {}
            }
            if let Some(code) = l["ItemCode"].as_str()
                && !self.items.iter().any(|i| i["Code"] == code)
            {
                msgs.push(format!("Item code '{code}' is not valid."));
            }
            let tax_type = l["TaxType"].as_str().unwrap_or(if ty.starts_with("ACCREC") { "OUTPUT" } else { "INPUT" });
            let rate = match tax_rate(tax_type) {
                Some(r) => r,
                None => {
                    msgs.push(format!("The TaxType code '{tax_type}' does not exist or cannot be used for this type of transaction."));
                    0.0
                }
            };
            let qty = l["Quantity"].as_f64().unwrap_or(1.0);
            let unit = l["UnitAmount"].as_f64().unwrap_or(0.0);
            let amount = l["LineAmount"].as_f64().unwrap_or_else(|| round2(qty * unit));
            let tax = match (lat, l["TaxAmount"].as_f64()) {
                ("NoTax", _) => 0.0,
                (_, Some(t)) => t,
                ("Inclusive", None) => round2(amount * rate / (100.0 + rate)),
                (_, None) => round2(amount * rate / 100.0),
            };
            line["LineItemID"] = json!(random_id());
            line["TaxType"] = json!(tax_type);
            line["LineAmount"] = json!(round2(amount));
            line["TaxAmount"] = json!(round2(tax));
            sum_lines += amount;
            sum_tax += tax;
            lines.push(line);
        }
        let mut taken: std::collections::HashMap<String, f64> = std::collections::HashMap::new();
        for (code, delta) in self.stock_moves(&json!({"Type": ty, "Status": status, "LineItems": lines})) {
            *taken.entry(code).or_default() += delta;
        }
        for (code, delta) in taken {
            let held = self.stock.as_ref().and_then(|s| s.get(&code)).copied().unwrap_or(0.0);
            if held + delta < 0.0 {
                msgs.push(format!("The quantity on hand for the tracked inventory item {code} cannot go below zero ({held} on hand)."));
            }
        }
        if !msgs.is_empty() {
            return Err(msgs);
        }
        let (sub, total) = if lat == "Inclusive" { (sum_lines - sum_tax, sum_lines) } else { (sum_lines, sum_lines + sum_tax) };
        let mut doc = el.clone();
        doc[k.id] = json!(random_id());
        doc["Status"] = json!(status);
        doc["LineAmountTypes"] = json!(lat);
        doc["CurrencyCode"] = json!(el["CurrencyCode"].as_str().unwrap_or("AUD"));
        doc["LineItems"] = Value::Array(lines);
        if let Some(d) = date {
            doc["Date"] = json!(ms_date(d.and_hms_opt(0, 0, 0).unwrap_or(now)));
            doc["DateString"] = json!(format!("{d}T00:00:00"));
        }
        if let Some(d) = due {
            doc["DueDate"] = json!(ms_date(d.and_hms_opt(0, 0, 0).unwrap_or(now)));
            doc["DueDateString"] = json!(format!("{d}T00:00:00"));
        }
        doc["SubTotal"] = json!(round2(sub));
        doc["TotalTax"] = json!(round2(sum_tax));
        doc["Total"] = json!(round2(total));
        if k.coll == "Invoices" {
            doc["AmountDue"] = json!(round2(total));
            doc["AmountPaid"] = json!(0.0);
        } else {
            doc["RemainingCredit"] = json!(round2(total));
        }
        doc["UpdatedDateUTC"] = json!(ms_date(now));
        doc["HasErrors"] = json!(false);
        Ok(doc)
    }
}
