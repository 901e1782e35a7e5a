//! Suppliers, warehouses and brands (spec §3): what each must contain and what locks once it
//! exists (who may change them: `permissions::may_administer`). The HTML forms, the JSON
//! API and Import Basic arrive here through the same input structs and get the same field
//! messages.

use serde::{Deserialize, Serialize};

use super::lenient;
use super::limits::{ADDRESS_MAX, NAME_MAX, SHORT_MAX, Text};
use super::masters::LOCKED;
use super::validate::{FieldError, REQUIRED};

/// Supplier and warehouse codes are unique within a company.
pub const SUPPLIER_CODE_TAKEN: &str = "This code is already used by another supplier.";
pub const WAREHOUSE_CODE_TAKEN: &str = "This code is already used by another warehouse.";
pub const WAREHOUSE_NAME_TAKEN: &str = "This name is already used by another warehouse.";
/// Brand names are unique within a company, whatever their case.
pub const BRAND_NAME_TAKEN: &str = "This brand already exists.";

/// Gathers field messages in form order.
#[derive(Default)]
struct Check(Vec<FieldError>);

impl Check {
    fn text(&mut self, field: &'static str, value: &str, rule: Text) -> String {
        let v = value.trim();
        if let Err(m) = super::limits::check_text(v, rule) {
            self.0.push(FieldError { field, message: m });
        }
        v.to_string()
    }

    fn required(&mut self, field: &'static str, value: &str, rule: Text) -> String {
        let v = self.text(field, value, rule);
        if v.is_empty() {
            self.0.push(FieldError { field, message: REQUIRED });
        }
        v
    }

    /// A code that locks once the record exists: required on create; on update (`stored`)
    /// absent or unchanged passes and the stored code is kept.
    fn code(&mut self, field: &'static str, sent: &str, stored: Option<&str>) -> String {
        let Some(stored) = stored else { return self.required(field, sent, Text::Line(SHORT_MAX)) };
        if !sent.trim().is_empty() && sent.trim() != stored {
            self.0.push(FieldError { field, message: LOCKED });
        }
        stored.to_string()
    }

    fn done<T>(self, value: T) -> Result<T, Vec<FieldError>> {
        if self.0.is_empty() { Ok(value) } else { Err(self.0) }
    }
}

// ---------------------------------------------------------------------------------------
// Suppliers
// ---------------------------------------------------------------------------------------

/// A supplier as submitted (spec §3: code, name, primary person).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct SupplierInput {
    #[serde(deserialize_with = "lenient::string")]
    pub code: String,
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub primary_person_first: String,
    #[serde(deserialize_with = "lenient::string")]
    pub primary_person_last: String,
    /// Where purchase orders are e-mailed (issue 33); optional.
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    /// The currency it bills in (issue 35): ISO code, AUD when empty.
    #[serde(deserialize_with = "lenient::string")]
    pub currency: String,
    /// Days from ordering to arrival (issue 35); optional.
    #[serde(deserialize_with = "lenient::string")]
    pub lead_time_days: String,
    #[serde(deserialize_with = "lenient::int")]
    pub version: Option<i32>,
}

/// The checked, trimmed supplier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupplierFields {
    pub code: String,
    pub name: String,
    pub primary_person_first: String,
    pub primary_person_last: String,
    pub email: String,
    pub currency: String,
    pub lead_time_days: Option<i32>,
}

/// The longest lead time a supplier may have: a year.
pub const LEAD_TIME_MAX_DAYS: i32 = 365;

impl SupplierFields {
    /// The lower-case text the supplier search reads.
    pub fn search_text(&self) -> String {
        format!("{} {}", self.code, self.name).to_lowercase()
    }
}

/// The message for a lead time out of range.
pub const LEAD_TIME_RANGE: &str = "Enter the lead time as whole days from 0 to 365";

/// Checks a supplier; on update `stored_code` is the code it has, which may not change.
pub fn validate_supplier(input: &SupplierInput, stored_code: Option<&str>) -> Result<SupplierFields, Vec<FieldError>> {
    let mut c = Check::default();
    let code = c.code("code", &input.code, stored_code);
    // Only a new code is held to Xero's limit: one saved before it stays, and is fitted to
    // the limit when sent (`xero::contact_number`).
    if stored_code.is_none() && code.chars().count() > super::xero::CONTACT_NUMBER_MAX {
        c.0.push(FieldError { field: "code", message: super::masters::CODE_LONGER_THAN_XERO_CONTACT });
    }
    let name = c.required("name", &input.name, Text::Line(NAME_MAX));
    let primary_person_first = c.text("primary_person_first", &input.primary_person_first, Text::Line(NAME_MAX));
    let primary_person_last = c.text("primary_person_last", &input.primary_person_last, Text::Line(NAME_MAX));
    let email = c.text("email", &input.email, Text::Line(NAME_MAX));
    if !email.is_empty() && !super::validate::is_email(&email) {
        c.0.push(FieldError { field: "email", message: super::masters::INVALID_EMAIL });
    }
    let currency = if input.currency.trim().is_empty() { super::currency::AUD } else { super::currency::currency(&input.currency).unwrap_or_else(|m| {
        c.0.push(FieldError { field: "currency", message: m });
        super::currency::AUD
    }) };
    let lead = input.lead_time_days.trim();
    let lead_time_days = if lead.is_empty() {
        None
    } else {
        match lead.parse::<i32>() {
            Ok(d) if (0..=LEAD_TIME_MAX_DAYS).contains(&d) => Some(d),
            _ => {
                c.0.push(FieldError { field: "lead_time_days", message: LEAD_TIME_RANGE });
                None
            }
        }
    };
    c.done(SupplierFields { code, name, primary_person_first, primary_person_last, email, currency: currency.to_string(), lead_time_days })
}

// ---------------------------------------------------------------------------------------
// Warehouses
// ---------------------------------------------------------------------------------------

/// A warehouse as submitted (spec §3: code, name, address, is_calc_for_csr_order).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct WarehouseInput {
    #[serde(deserialize_with = "lenient::string")]
    pub code: String,
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub address: String,
    /// Whether its stock counts for customers' self-orders.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_calc_for_csr_order: bool,
    #[serde(deserialize_with = "lenient::int")]
    pub version: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarehouseFields {
    pub code: String,
    pub name: String,
    pub address: String,
    pub is_calc_for_csr_order: bool,
}

/// Checks a warehouse; its code locks once it exists (stock and sheets refer to it).
pub fn validate_warehouse(input: &WarehouseInput, stored_code: Option<&str>) -> Result<WarehouseFields, Vec<FieldError>> {
    let mut c = Check::default();
    let code = c.code("code", &input.code, stored_code);
    let name = c.required("name", &input.name, Text::Line(NAME_MAX));
    let address = c.text("address", &input.address, Text::Line(ADDRESS_MAX));
    c.done(WarehouseFields { code, name, address, is_calc_for_csr_order: input.is_calc_for_csr_order })
}

// ---------------------------------------------------------------------------------------
// Brands
// ---------------------------------------------------------------------------------------

/// A brand as submitted (spec §3: name, presented_to_csr).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct BrandInput {
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Whether customers see the brand in the shop.
    #[serde(deserialize_with = "lenient::flag")]
    pub presented_to_csr: bool,
    #[serde(deserialize_with = "lenient::int")]
    pub version: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrandFields {
    pub name: String,
    pub presented_to_csr: bool,
}

/// Checks a brand. Its name may change (products refer to it by id).
pub fn validate_brand(input: &BrandInput) -> Result<BrandFields, Vec<FieldError>> {
    let mut c = Check::default();
    let name = c.required("name", &input.name, Text::Line(NAME_MAX));
    c.done(BrandFields { name, presented_to_csr: input.presented_to_csr })
}

/// Whether two brand names are the same brand ("Bridgestone" and "BRIDGESTONE ").
pub fn same_brand(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// The audit detail of an edit: each changed field as `label: old → new`.
pub fn changes(pairs: &[(&str, String, String)]) -> String {
    pairs.iter().filter(|(_, old, new)| old != new).map(|(label, old, new)| format!("{label}: {old} → {new}")).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(errors: &[FieldError]) -> Vec<(&'static str, &'static str)> {
        errors.iter().map(|e| (e.field, e.message)).collect()
    }

    #[test]
    fn a_new_supplier_needs_code_and_name() {
        let e = validate_supplier(&SupplierInput::default(), None).unwrap_err();
        assert_eq!(fields(&e), vec![("code", REQUIRED), ("name", REQUIRED)]);
        let ok = validate_supplier(&SupplierInput { code: " S-9 ".into(), name: "Hankook AU".into(), ..Default::default() }, None).unwrap();
        assert_eq!(ok.code, "S-9");
        assert_eq!(ok.search_text(), "s-9 hankook au");
    }

    #[test]
    fn a_new_supplier_code_fits_xeros_contact_number_and_an_existing_longer_one_still_edits() {
        // Issue 31, finding 2: a 60-character supplier code was saved, then never reached Xero.
        let input = |c: &str| SupplierInput { code: c.into(), name: "Hankook AU".into(), ..Default::default() };
        assert!(validate_supplier(&input(&"S".repeat(50)), None).is_ok());
        let e = validate_supplier(&input(&"S".repeat(51)), None).unwrap_err();
        assert_eq!(fields(&e), vec![("code", super::super::masters::CODE_LONGER_THAN_XERO_CONTACT)]);
        let long = "S".repeat(60);
        assert_eq!(validate_supplier(&input(&long), Some(&long)).unwrap().code, long);
    }

    #[test]
    fn a_supplier_code_locks_once_it_exists() {
        let input = SupplierInput { code: "S-10".into(), name: "X".into(), ..Default::default() };
        assert_eq!(fields(&validate_supplier(&input, Some("S-9")).unwrap_err()), vec![("code", LOCKED)]);
        let same = SupplierInput { code: "".into(), name: "X".into(), ..Default::default() };
        assert_eq!(validate_supplier(&same, Some("S-9")).unwrap().code, "S-9");
    }

    #[test]
    fn texts_have_limits() {
        let usd = validate_supplier(&SupplierInput { code: "S".into(), name: "X".into(), currency: " usd".into(), lead_time_days: "42".into(), ..Default::default() }, None).unwrap();
        assert_eq!((usd.currency.as_str(), usd.lead_time_days), ("USD", Some(42)), "a currency from the list and a lead time in days");
        let aud = validate_supplier(&SupplierInput { code: "S".into(), name: "X".into(), ..Default::default() }, None).unwrap();
        assert_eq!((aud.currency.as_str(), aud.lead_time_days), ("AUD", None), "AUD and no lead time unless given");
        let bad = validate_supplier(&SupplierInput { code: "S".into(), name: "X".into(), currency: "XYZ".into(), lead_time_days: "366".into(), ..Default::default() }, None).unwrap_err();
        assert_eq!(bad.iter().map(|e| (e.field, e.message)).collect::<Vec<_>>(), vec![("currency", crate::currency::NOT_A_CURRENCY), ("lead_time_days", LEAD_TIME_RANGE)]);
        let bad_email = validate_supplier(&SupplierInput { code: "S".into(), name: "X".into(), email: "orders at hankook".into(), ..Default::default() }, None).unwrap_err();
        assert_eq!(bad_email[0].field, "email");
        let good = validate_supplier(&SupplierInput { code: "S".into(), name: "X".into(), email: " orders@hankook.test ".into(), ..Default::default() }, None).unwrap();
        assert_eq!(good.email, "orders@hankook.test", "an e-mail is optional, checked and trimmed");
        let input = SupplierInput { code: "S".into(), name: "n".repeat(NAME_MAX + 1), ..Default::default() };
        assert_eq!(fields(&validate_supplier(&input, None).unwrap_err()), vec![("name", "At most 120 characters.")]);
        let input = WarehouseInput { code: "W\u{0}".into(), name: "Main".into(), ..Default::default() };
        assert_eq!(fields(&validate_warehouse(&input, None).unwrap_err()), vec![("code", super::super::limits::CONTROL_CHARACTERS)]);
    }

    #[test]
    fn warehouses_keep_their_code_and_carry_the_shop_flag() {
        let input = WarehouseInput { code: "MEL".into(), name: "Melbourne".into(), address: "1 Rd".into(), is_calc_for_csr_order: true, version: None };
        let w = validate_warehouse(&input, None).unwrap();
        assert!(w.is_calc_for_csr_order);
        assert_eq!(fields(&validate_warehouse(&input, Some("SYD")).unwrap_err()), vec![("code", LOCKED)]);
    }

    #[test]
    fn brand_names_compare_without_case() {
        assert!(same_brand("Bridgestone", " BRIDGESTONE"));
        assert!(!same_brand("Bridgestone", "Bridgestones"));
        assert_eq!(fields(&validate_brand(&BrandInput::default()).unwrap_err()), vec![("name", REQUIRED)]);
    }

    #[test]
    fn audit_details_list_only_what_changed() {
        let d = changes(&[("Name", "A".into(), "B".into()), ("Code", "C".into(), "C".into())]);
        assert_eq!(d, "Name: A → B");
    }

    #[test]
    fn forms_and_json_read_alike() {
        let form: WarehouseInput = serde_urlencoded::from_str("code=W&name=N&is_calc_for_csr_order=1&version=3").unwrap();
        let json: WarehouseInput = serde_json::from_str(r#"{"code":"W","name":"N","is_calc_for_csr_order":true,"version":3}"#).unwrap();
        assert_eq!((form.is_calc_for_csr_order, form.version), (json.is_calc_for_csr_order, json.version));
        let unticked: BrandInput = serde_urlencoded::from_str("name=B").unwrap();
        assert!(!unticked.presented_to_csr);
    }
}
