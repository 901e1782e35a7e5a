//! Where a company's sheets post in its own Xero (issue 31, finding 5;
//! docs/decisions/xero.md "Accounts and tax rates"): four accounts of its chart and four of
//! its tax rates, read from Xero rather than assumed. Connecting proposes a mapping from
//! what Xero answered (the AU default chart's 200 / 300 / 630 / 310 and OUTPUT / INPUT /
//! EXEMPTOUTPUT / EXEMPTEXPENSES when they are there); the approver may change it in
//! Settings; every test of the connection checks it against the chart and rates read again;
//! nothing is sent while it is incomplete.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::enums::TaxType;

/// An account of the company's chart, as `GET /Accounts` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    pub code: String,
    pub name: String,
    /// Xero's `Type` (REVENUE, DIRECTCOSTS, INVENTORY …).
    #[serde(rename = "type")]
    pub kind: String,
}

/// A tax rate, as `GET /TaxRates` answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    #[serde(rename = "type")]
    pub tax_type: String,
    pub name: String,
    /// Percent (`EffectiveRate`).
    pub rate: f64,
    pub revenue: bool,
    pub expenses: bool,
}

/// The chart's active accounts that have a code (only those can be named on a line).
pub fn accounts_of(answer: &Value) -> Vec<Account> {
    let mut out: Vec<Account> = answer["Accounts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["Status"].as_str().is_none_or(|s| s == "ACTIVE"))
        .filter_map(|a| {
            let code = a["Code"].as_str().map(str::trim).filter(|c| !c.is_empty() && c.len() <= 10)?;
            Some(Account { code: code.into(), name: a["Name"].as_str().unwrap_or_default().chars().take(150).collect(), kind: a["Type"].as_str().unwrap_or_default().chars().take(20).collect() })
        })
        .collect();
    out.sort_by(|a, b| a.code.cmp(&b.code));
    out.dedup_by(|a, b| a.code == b.code);
    out
}

/// The active tax rates.
pub fn rates_of(answer: &Value) -> Vec<Rate> {
    let mut out: Vec<Rate> = answer["TaxRates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["Status"].as_str().is_none_or(|s| s == "ACTIVE"))
        .filter_map(|r| {
            let t = r["TaxType"].as_str().filter(|t| !t.is_empty() && t.len() <= 40 && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))?;
            let rate = r["EffectiveRate"].as_f64().or_else(|| r["EffectiveRate"].as_str().and_then(|s| s.parse().ok())).unwrap_or(0.0);
            Some(Rate {
                tax_type: t.into(),
                name: r["Name"].as_str().unwrap_or_default().chars().take(150).collect(),
                rate,
                // Absent means Xero did not say: not a reason to refuse.
                revenue: r["CanApplyToRevenue"].as_bool().unwrap_or(true),
                expenses: r["CanApplyToExpenses"].as_bool().unwrap_or(true),
            })
        })
        .collect();
    out.sort_by(|a, b| a.tax_type.cmp(&b.tax_type));
    out.dedup_by(|a, b| a.tax_type == b.tax_type);
    out
}

/// The company's mapping: account codes and tax types.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Mapping {
    /// Revenue of sales and credit note lines.
    pub sales: String,
    /// Purchase lines without a tracked item.
    pub purchases: String,
    /// The inventory asset of tracked items (purchase lines post here through the item).
    pub inventory: String,
    /// Cost of goods sold of tracked items.
    pub cogs: String,
    /// GST on sales (10%).
    pub tax_sales: String,
    /// GST on purchases (10%).
    pub tax_purchases: String,
    /// GST-free sales (a No Tax sheet).
    pub tax_free_sales: String,
    /// GST-free purchases.
    pub tax_free_purchases: String,
}

/// One setting of the mapping: its field, label, and what Xero must hold for it.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    pub field: &'static str,
    pub label: &'static str,
    /// The AU default chart's code or tax type, proposed first.
    pub default: &'static str,
    need: Need,
}

#[derive(Debug, Clone, Copy)]
enum Need {
    Account(&'static [&'static str]),
    Tax { gst: bool, revenue: bool },
}

/// The eight settings in the order the screen shows them.
pub const SLOTS: [Slot; 8] = [
    Slot { field: "sales", label: "Sales account", default: "200", need: Need::Account(&["REVENUE", "SALES", "OTHERINCOME"]) },
    Slot { field: "purchases", label: "Purchases account", default: "300", need: Need::Account(&["DIRECTCOSTS", "EXPENSE", "OVERHEADS"]) },
    Slot { field: "inventory", label: "Inventory account", default: "630", need: Need::Account(&["INVENTORY"]) },
    Slot { field: "cogs", label: "Cost of goods sold account", default: "310", need: Need::Account(&["DIRECTCOSTS", "EXPENSE", "OVERHEADS"]) },
    Slot { field: "taxSales", label: "GST on sales", default: "OUTPUT", need: Need::Tax { gst: true, revenue: true } },
    Slot { field: "taxPurchases", label: "GST on purchases", default: "INPUT", need: Need::Tax { gst: true, revenue: false } },
    Slot { field: "taxFreeSales", label: "GST-free sales", default: "EXEMPTOUTPUT", need: Need::Tax { gst: false, revenue: true } },
    Slot { field: "taxFreePurchases", label: "GST-free purchases", default: "EXEMPTEXPENSES", need: Need::Tax { gst: false, revenue: false } },
];

/// The GST rate our sheets charge, in percent.
const GST_PERCENT: f64 = 10.0;

impl Slot {
    /// Whether the account type fits this setting (account settings only).
    pub fn takes_account(&self, a: &Account) -> bool {
        matches!(self.need, Need::Account(types) if types.contains(&a.kind.as_str()))
    }

    /// Whether the rate fits this setting (tax settings only): 10% for GST, 0% for GST
    /// free, and applicable to revenue or expenses as the side needs.
    pub fn takes_rate(&self, r: &Rate) -> bool {
        match self.need {
            Need::Tax { gst, revenue } => {
                let pct = if gst { GST_PERCENT } else { 0.0 };
                (r.rate - pct).abs() < 0.001 && if revenue { r.revenue } else { r.expenses }
            }
            Need::Account(_) => false,
        }
    }

    pub fn is_account(&self) -> bool {
        matches!(self.need, Need::Account(_))
    }

    fn why_not(&self, value: &str, accounts: &[Account], rates: &[Rate]) -> Option<String> {
        if value.is_empty() {
            return Some(format!("{}: choose one.", self.label));
        }
        match self.need {
            Need::Account(types) => match accounts.iter().find(|a| a.code == value) {
                None => Some(format!("{}: Xero's chart has no active account {value}.", self.label)),
                Some(a) if !self.takes_account(a) => Some(format!("{}: account {value} is of type {}; choose one of type {}.", self.label, a.kind, types.join(", "))),
                Some(_) => None,
            },
            Need::Tax { gst, revenue } => match rates.iter().find(|r| r.tax_type == value) {
                None => Some(format!("{}: Xero has no active tax rate {value}.", self.label)),
                Some(r) if !self.takes_rate(r) => Some(format!(
                    "{}: {} ({value}) is {}%, {}; choose a {}% rate that applies to {}.",
                    self.label,
                    r.name,
                    r.rate,
                    if if revenue { r.revenue } else { r.expenses } { "which applies" } else { "which does not apply" },
                    if gst { GST_PERCENT } else { 0.0 },
                    if revenue { "revenue" } else { "expenses" }
                )),
                Some(_) => None,
            },
        }
    }
}

impl Mapping {
    pub fn get(&self, field: &str) -> &str {
        match field {
            "sales" => &self.sales,
            "purchases" => &self.purchases,
            "inventory" => &self.inventory,
            "cogs" => &self.cogs,
            "taxSales" => &self.tax_sales,
            "taxPurchases" => &self.tax_purchases,
            "taxFreeSales" => &self.tax_free_sales,
            _ => &self.tax_free_purchases,
        }
    }

    fn set(&mut self, field: &str, value: String) {
        let slot = match field {
            "sales" => &mut self.sales,
            "purchases" => &mut self.purchases,
            "inventory" => &mut self.inventory,
            "cogs" => &mut self.cogs,
            "taxSales" => &mut self.tax_sales,
            "taxPurchases" => &mut self.tax_purchases,
            "taxFreeSales" => &mut self.tax_free_sales,
            _ => &mut self.tax_free_purchases,
        };
        *slot = value;
    }

    /// This mapping with every empty setting filled from what Xero holds: the AU default
    /// when it fits, else the first account or rate that does (settings already chosen are
    /// kept, even when they no longer fit: [`Mapping::problems`] says so).
    pub fn completed(&self, accounts: &[Account], rates: &[Rate]) -> Mapping {
        let mut m = self.clone();
        for slot in &SLOTS {
            if !m.get(slot.field).is_empty() {
                continue;
            }
            let pick = if slot.is_account() {
                let fits: Vec<&Account> = accounts.iter().filter(|a| slot.takes_account(a)).collect();
                fits.iter().find(|a| a.code == slot.default).or(fits.first()).map(|a| a.code.clone())
            } else {
                let fits: Vec<&Rate> = rates.iter().filter(|r| slot.takes_rate(r)).collect();
                fits.iter().find(|r| r.tax_type == slot.default).or(fits.first()).map(|r| r.tax_type.clone())
            };
            m.set(slot.field, pick.unwrap_or_default());
        }
        m
    }

    /// What keeps this mapping from being used with this chart and these rates, one
    /// sentence per setting; empty when every setting names an active account or rate that
    /// fits it.
    pub fn problems(&self, accounts: &[Account], rates: &[Rate]) -> Vec<String> {
        SLOTS.iter().filter_map(|s| s.why_not(self.get(s.field), accounts, rates)).collect()
    }

    /// Every setting chosen (what the worker checks before a send; the chart was checked
    /// when the mapping was saved or tested).
    pub fn is_complete(&self) -> bool {
        SLOTS.iter().all(|s| !self.get(s.field).is_empty())
    }

    /// The mapping as entered: each value trimmed, at most 40 characters, or a message.
    pub fn from_input(input: &Value) -> Result<Mapping, String> {
        let mut m = Mapping::default();
        for slot in &SLOTS {
            let v = input.get(slot.field).and_then(Value::as_str).unwrap_or("").trim();
            if v.chars().count() > 40 || v.chars().any(char::is_control) {
                return Err(format!("{}: at most 40 characters.", slot.label));
            }
            m.set(slot.field, v.to_string());
        }
        Ok(m)
    }

    /// The account a line of a sale (`sales`) or a purchase posts to: a purchase line with
    /// a tracked item on the inventory account, through the item.
    pub fn line_account(&self, sales: bool, tracked_item: bool) -> &str {
        match (sales, tracked_item) {
            (true, _) => &self.sales,
            (false, true) => &self.inventory,
            (false, false) => &self.purchases,
        }
    }

    /// The tax type of the lines of a sale (`sales`) or a purchase.
    pub fn tax_type(&self, sales: bool, tax: TaxType) -> &str {
        match (sales, tax.charges_gst()) {
            (true, true) => &self.tax_sales,
            (true, false) => &self.tax_free_sales,
            (false, true) => &self.tax_purchases,
            (false, false) => &self.tax_free_purchases,
        }
    }

    /// The mapping of the AU default chart (tests, and the stand-in's chart).
    pub fn au_default() -> Mapping {
        let mut m = Mapping::default();
        for s in &SLOTS {
            m.set(s.field, s.default.to_string());
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn au_chart() -> (Vec<Account>, Vec<Rate>) {
        let accounts = accounts_of(&json!({"Accounts": [
            {"Code": "200", "Name": "Sales", "Type": "REVENUE", "Status": "ACTIVE"},
            {"Code": "300", "Name": "Purchases", "Type": "DIRECTCOSTS", "Status": "ACTIVE"},
            {"Code": "310", "Name": "Cost of Goods Sold", "Type": "DIRECTCOSTS", "Status": "ACTIVE"},
            {"Code": "630", "Name": "Inventory", "Type": "INVENTORY", "Status": "ACTIVE"},
            {"Code": "090", "Name": "Bank", "Type": "BANK", "Status": "ACTIVE"},
            {"Code": "201", "Name": "Old sales", "Type": "REVENUE", "Status": "ARCHIVED"},
            {"Name": "No code", "Type": "REVENUE", "Status": "ACTIVE"}
        ]}));
        let rates = rates_of(&json!({"TaxRates": [
            {"Name": "GST on Income", "TaxType": "OUTPUT", "Status": "ACTIVE", "EffectiveRate": 10.0, "CanApplyToRevenue": true, "CanApplyToExpenses": false},
            {"Name": "GST on Expenses", "TaxType": "INPUT", "Status": "ACTIVE", "EffectiveRate": 10.0, "CanApplyToRevenue": false, "CanApplyToExpenses": true},
            {"Name": "GST Free Income", "TaxType": "EXEMPTOUTPUT", "Status": "ACTIVE", "EffectiveRate": 0.0, "CanApplyToRevenue": true, "CanApplyToExpenses": false},
            {"Name": "GST Free Expenses", "TaxType": "EXEMPTEXPENSES", "Status": "ACTIVE", "EffectiveRate": 0.0, "CanApplyToRevenue": false, "CanApplyToExpenses": true},
            {"Name": "Old", "TaxType": "TAX001", "Status": "DELETED", "EffectiveRate": 10.0}
        ]}));
        (accounts, rates)
    }

    #[test]
    fn only_active_accounts_with_a_code_and_active_rates_are_read() {
        let (accounts, rates) = au_chart();
        assert_eq!(accounts.iter().map(|a| a.code.as_str()).collect::<Vec<_>>(), ["090", "200", "300", "310", "630"]);
        assert_eq!(rates.len(), 4);
    }

    #[test]
    fn the_au_default_chart_is_proposed_and_has_no_problem() {
        let (accounts, rates) = au_chart();
        let m = Mapping::default().completed(&accounts, &rates);
        assert_eq!(m, Mapping::au_default());
        assert!(m.problems(&accounts, &rates).is_empty());
        assert!(m.is_complete());
    }

    #[test]
    fn a_chart_that_differs_is_proposed_from_what_fits_and_its_gaps_are_named() {
        // Issue 31, finding 5: a company whose chart is not the AU default.
        let accounts = accounts_of(&json!({"Accounts": [
            {"Code": "4000", "Name": "Tyre sales", "Type": "SALES", "Status": "ACTIVE"},
            {"Code": "5000", "Name": "Cost of sales", "Type": "DIRECTCOSTS", "Status": "ACTIVE"},
            {"Code": "1400", "Name": "Stock on hand", "Type": "CURRENT", "Status": "ACTIVE"}
        ]}));
        let (_, rates) = au_chart();
        let m = Mapping::default().completed(&accounts, &rates);
        assert_eq!((m.sales.as_str(), m.purchases.as_str(), m.inventory.as_str(), m.cogs.as_str()), ("4000", "5000", "", "5000"));
        assert!(!m.is_complete());
        assert_eq!(m.problems(&accounts, &rates), ["Inventory account: choose one."]);
        let chosen = Mapping { inventory: "1400".into(), ..m.clone() };
        assert_eq!(chosen.problems(&accounts, &rates), ["Inventory account: account 1400 is of type CURRENT; choose one of type INVENTORY."]);
        let gone = Mapping { sales: "200".into(), ..m };
        assert!(gone.problems(&accounts, &rates)[0].contains("no active account 200"));
    }

    #[test]
    fn a_tax_rate_must_be_active_of_our_gst_and_apply_to_its_side() {
        let (accounts, rates) = au_chart();
        let wrong_side = Mapping { tax_sales: "INPUT".into(), ..Mapping::au_default() };
        assert_eq!(wrong_side.problems(&accounts, &rates), ["GST on sales: GST on Expenses (INPUT) is 10%, which does not apply; choose a 10% rate that applies to revenue."]);
        let free_as_gst = Mapping { tax_purchases: "EXEMPTEXPENSES".into(), ..Mapping::au_default() };
        assert!(free_as_gst.problems(&accounts, &rates)[0].starts_with("GST on purchases: GST Free Expenses (EXEMPTEXPENSES) is 0%"));
        let deleted = Mapping { tax_sales: "TAX001".into(), ..Mapping::au_default() };
        assert_eq!(deleted.problems(&accounts, &rates), ["GST on sales: Xero has no active tax rate TAX001."]);
    }

    #[test]
    fn chosen_settings_are_kept_when_completing() {
        let (accounts, rates) = au_chart();
        let m = Mapping { sales: "9999".into(), ..Default::default() }.completed(&accounts, &rates);
        assert_eq!(m.sales, "9999");
        assert_eq!(m.purchases, "300");
    }

    #[test]
    fn lines_and_tax_follow_the_mapping() {
        let m = Mapping { sales: "4000".into(), inventory: "1410".into(), purchases: "5000".into(), tax_sales: "GSTONINCOME".into(), ..Mapping::au_default() };
        assert_eq!(m.line_account(true, true), "4000", "a sale, tracked item or not");
        assert_eq!(m.line_account(false, true), "1410", "a purchase through its tracked item");
        assert_eq!(m.line_account(false, false), "5000");
        assert_eq!(m.tax_type(true, TaxType::GstOnIncome), "GSTONINCOME");
        assert_eq!(m.tax_type(false, TaxType::NoTax), "EXEMPTEXPENSES");
    }

    #[test]
    fn entered_settings_are_trimmed_and_bounded() {
        let m = Mapping::from_input(&json!({"sales": " 200 ", "taxSales": "OUTPUT"})).unwrap();
        assert_eq!((m.sales.as_str(), m.tax_sales.as_str(), m.cogs.as_str()), ("200", "OUTPUT", ""));
        assert!(Mapping::from_input(&json!({"cogs": "x".repeat(41)})).unwrap_err().starts_with("Cost of goods sold account"));
    }
}
