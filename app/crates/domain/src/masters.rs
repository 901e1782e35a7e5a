//! Master-data rules (spec §2.8, §5, §6): what a product or customer must contain, which
//! fields lock once the record exists, who may change credit terms or create customers,
//! and the search keys stored beside each record. Plain input in, checked values or field
//! messages out; the HTML forms and the JSON API both arrive here through the same structs.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::actor::Actor;
use super::limits::{self, ADDRESS_MAX, COMMENT_MAX, NAME_MAX, PHONE_MAX, SHORT_MAX, Text};
use super::enums::{AreaType, AutoPartsType, BusinessType, DefaultShipType, Material, PaymentType, PriceStrategy, ProductCategory, ProductKind, Role};
use super::lenient::{self, Amount};
use super::money::Cents;
use super::tyre_size;
use super::validate::{FieldError, REQUIRED, check_product_name, is_email};

/// A select answered with a code that is not one of its options.
pub const UNKNOWN_CHOICE: &str = "Please choose one of the listed options";
/// A field that locks once the record exists was sent with a different value.
pub const LOCKED: &str = "This field cannot be changed once the record exists.";
/// Creating a customer in the company that needs the crtCSR flag, without it (spec §5).
pub const NO_CREATE_CUSTOMER: &str = "Sorry, no permission to create customers. Return to list page.";
/// A non-approver tried to change attention or credit limit (spec §5, §6).
pub const CREDIT_TERMS_APPROVER_ONLY: &str = "Only an approver (role 4) may change the attention or the credit limit.";
/// Someone saved the record after this form was opened.
pub const VERSION_CONFLICT: &str = "This record was changed by someone else since you opened it. Reload to see the latest version.";
/// An update arrived without the version it was based on.
pub const VERSION_MISSING: &str = "The record version is missing; reload the record and save again.";
pub const INVALID_EMAIL: &str = "Please enter a valid email address";
pub const INVALID_DATE: &str = "Please enter a date as yyyy-mm-dd";
/// A new product's code longer than Xero holds an item code (issue 31): every product must
/// be able to reach the accounting link.
pub const CODE_LONGER_THAN_XERO_ITEM: &str = "At most 30 characters: Xero holds no longer item code.";
/// A new customer's or supplier's code longer than Xero holds a contact number.
pub const CODE_LONGER_THAN_XERO_CONTACT: &str = "At most 50 characters: Xero holds no longer contact number.";
/// Item codes are unique within a company.
pub const CODE_TAKEN: &str = "This item code is already used by another product.";
pub const UNKNOWN_BRAND: &str = "Please choose a brand of this company";
pub const UNKNOWN_STAFF: &str = "Please choose a staff member of this company";
/// Summary when only required fields are missing.
pub const CHECK_FIELDS: &str = "Please enter the required fields.";
/// The company whose staff need the crtCSR flag to create customers (spec §5 names org id 4).
pub const CRT_CSR_ORG: i64 = 4;
/// Country of a customer address left blank.
pub const DEFAULT_COUNTRY: &str = "Australia";

/// Field messages gathered in form order.
#[derive(Default)]
struct Errors(Vec<FieldError>);

impl Errors {
    fn push(&mut self, field: &'static str, message: &'static str) {
        self.0.push(FieldError { field, message });
    }

    /// Notes each text that is too long or holds control characters (domain::limits).
    fn texts(&mut self, fields: &[(&'static str, &str, Text)]) {
        for (field, value, rule) in fields {
            // Surrounding whitespace is trimmed on save, so only what is kept is judged.
            if let Err(message) = limits::check_text(value.trim(), *rule) {
                self.push(field, message);
            }
        }
    }

    /// The trimmed value, noting 'Please enter' when it is empty.
    fn required(&mut self, field: &'static str, value: &str) -> String {
        let v = value.trim();
        if v.is_empty() {
            self.push(field, REQUIRED);
        }
        v.to_string()
    }

    /// The chosen value of a required select.
    fn choice<T>(&mut self, field: &'static str, code: Option<i32>, from: fn(i32) -> Option<T>) -> Option<T> {
        match code {
            None => {
                self.push(field, REQUIRED);
                None
            }
            Some(c) => self.known(field, c, from),
        }
    }

    /// The value of an optional select, or its default when unanswered.
    fn choice_or<T>(&mut self, field: &'static str, code: Option<i32>, from: fn(i32) -> Option<T>, default: T) -> Option<T> {
        match code {
            None => Some(default),
            Some(c) => self.known(field, c, from),
        }
    }

    fn known<T>(&mut self, field: &'static str, code: i32, from: fn(i32) -> Option<T>) -> Option<T> {
        let v = from(code);
        if v.is_none() {
            self.push(field, UNKNOWN_CHOICE);
        }
        v
    }

    /// A locked text field: absent or unchanged (ignoring spaces around it) passes.
    fn unchanged(&mut self, field: &'static str, sent: Option<&str>, stored: &str) {
        if sent.is_some_and(|s| s.trim() != stored.trim()) {
            self.push(field, LOCKED);
        }
    }
}

/// The summary shown above a form (and as the API `message`): the first message that is
/// more than 'Please enter', e.g. the product-name rule, otherwise [`CHECK_FIELDS`].
pub fn summary(errors: &[FieldError]) -> &'static str {
    errors.iter().map(|e| e.message).find(|m| *m != REQUIRED).unwrap_or(CHECK_FIELDS)
}

/// The version an update is based on; updates without one are refused.
pub fn require_version(version: Option<i32>) -> Result<i32, FieldError> {
    version.ok_or(FieldError { field: "version", message: VERSION_MISSING })
}

// ---------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------

/// A product as submitted; names follow the API's `Product` fields. Prices are not part of
/// it: they change through the price dialog only.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct ProductInput {
    /// Item code; locks once the product exists (`None`: not sent).
    #[serde(deserialize_with = "lenient::text")]
    pub code: Option<String>,
    /// Item name; locks once the product exists.
    #[serde(deserialize_with = "lenient::text")]
    pub name: Option<String>,
    /// Physical (1) or virtual (4), the API's `category`; locks once the product exists.
    #[serde(rename = "category", deserialize_with = "lenient::int")]
    pub kind: Option<i32>,
    #[serde(rename = "originCode", deserialize_with = "lenient::string")]
    pub origin_code: String,
    #[serde(rename = "helperCode", deserialize_with = "lenient::string")]
    pub helper_code: String,
    #[serde(deserialize_with = "lenient::string")]
    pub unit: String,
    #[serde(deserialize_with = "lenient::string")]
    pub comments: String,
    /// The category path stored in tag1, e.g. "Wheels/Alloy".
    #[serde(rename = "tag1", deserialize_with = "lenient::string")]
    pub category: String,
    #[serde(rename = "brand", deserialize_with = "lenient::int")]
    pub brand_id: Option<i64>,
    /// The preferred supplier's id, '' for none (issue 35); `None`: not sent, kept as stored.
    #[serde(rename = "preferredSupplierId", deserialize_with = "lenient::text")]
    pub preferred_supplier: Option<String>,
    /// The preferred supplier's code for the product; `None`: not sent, kept as stored.
    #[serde(rename = "supplierCode", deserialize_with = "lenient::text")]
    pub supplier_code: Option<String>,
    #[serde(deserialize_with = "lenient::string")]
    pub manufacturer: String,
    #[serde(deserialize_with = "lenient::int")]
    pub auto_parts_type: Option<i32>,
    #[serde(deserialize_with = "lenient::string")]
    pub tag2: String,
    #[serde(deserialize_with = "lenient::string")]
    pub tag3: String,
    /// Locations, '/'-separated.
    #[serde(deserialize_with = "lenient::string")]
    pub tag4: String,
    #[serde(deserialize_with = "lenient::flag_opt")]
    pub show_for_shop: Option<bool>,
    /// Stock held by DOT code (issue 36); `None`: not sent — a new product takes
    /// [`crate::dot::tracked_by_default`], a stored one keeps its flag.
    #[serde(rename = "dotTracked", alias = "dot_tracked", deserialize_with = "lenient::flag_opt")]
    pub dot_tracked: Option<bool>,
    #[serde(deserialize_with = "lenient::int")]
    pub material: Option<i32>,
    #[serde(rename = "tyreModel", deserialize_with = "lenient::string")]
    pub tyre_model: String,
    #[serde(deserialize_with = "lenient::string")]
    pub specification: String,
    #[serde(deserialize_with = "lenient::string")]
    pub diameter: String,
    #[serde(deserialize_with = "lenient::string")]
    pub patterns: String,
    #[serde(deserialize_with = "lenient::string")]
    pub width: String,
    #[serde(deserialize_with = "lenient::string")]
    pub load_rate: String,
    #[serde(deserialize_with = "lenient::string")]
    pub speed_rate: String,
    #[serde(deserialize_with = "lenient::string")]
    pub suggested: String,
    #[serde(deserialize_with = "lenient::string")]
    pub rim_diameter: String,
    #[serde(deserialize_with = "lenient::string")]
    pub rim_width: String,
    #[serde(rename = "offset", deserialize_with = "lenient::string")]
    pub wheel_offset: String,
    #[serde(deserialize_with = "lenient::string")]
    pub center_bore: String,
    #[serde(deserialize_with = "lenient::string")]
    pub bolt_pattern: String,
    /// The version the edit started from (updates only).
    #[serde(deserialize_with = "lenient::int")]
    pub version: Option<i32>,
}

/// What identifies a product and locks once it exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductIdentity {
    pub code: String,
    pub name: String,
    pub kind: ProductKind,
}

/// The stored values of the locked fields, to compare an update against.
#[derive(Debug, Clone, Copy)]
pub struct LockedProduct<'a> {
    pub code: &'a str,
    pub name: &'a str,
    /// The stored `category` code (1 physical, 4 virtual).
    pub kind: i32,
}

/// Tyre and wheel specification, kept as typed (spec §3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductSpecs {
    pub tyre_model: String,
    pub specification: String,
    pub diameter: String,
    pub patterns: String,
    pub width: String,
    pub load_rate: String,
    pub speed_rate: String,
    pub suggested: String,
    pub rim_diameter: String,
    pub rim_width: String,
    pub wheel_offset: String,
    pub center_bore: String,
    pub bolt_pattern: String,
}

/// The checked, trimmed fields written on create and on update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductFields {
    pub origin_code: String,
    pub helper_code: String,
    pub unit: String,
    pub comments: String,
    pub category: ProductCategory,
    pub brand_id: i64,
    pub manufacturer: String,
    pub auto_parts_type: Option<AutoPartsType>,
    pub tag2: String,
    pub tag3: String,
    pub tag4: String,
    pub show_for_shop: bool,
    pub material: Material,
    pub specs: ProductSpecs,
}

fn product_fields(input: &ProductInput, e: &mut Errors) -> Option<ProductFields> {
    let short = Text::Line(SHORT_MAX);
    e.texts(&[
        ("code", input.code.as_deref().unwrap_or(""), short),
        ("originCode", &input.origin_code, short),
        ("helperCode", &input.helper_code, short),
        ("unit", &input.unit, short),
        ("comments", &input.comments, Text::Lines(COMMENT_MAX)),
        ("tag1", &input.category, short),
        ("manufacturer", &input.manufacturer, Text::Line(NAME_MAX)),
        ("tag2", &input.tag2, short),
        ("tag3", &input.tag3, short),
        ("tag4", &input.tag4, short),
        ("tyre_model", &input.tyre_model, short),
        ("specification", &input.specification, short),
        ("diameter", &input.diameter, short),
        ("patterns", &input.patterns, short),
        ("width", &input.width, short),
        ("load_rate", &input.load_rate, short),
        ("speed_rate", &input.speed_rate, short),
        ("suggested", &input.suggested, short),
        ("rim_diameter", &input.rim_diameter, short),
        ("rim_width", &input.rim_width, short),
        ("wheel_offset", &input.wheel_offset, short),
        ("center_bore", &input.center_bore, short),
        ("bolt_pattern", &input.bolt_pattern, short),
    ]);
    let helper_code = e.required("helperCode", &input.helper_code);
    let unit = e.required("unit", &input.unit);
    let category = if input.category.trim().is_empty() {
        e.push("tag1", REQUIRED);
        None
    } else {
        let c = ProductCategory::from_path(&input.category);
        if c.is_none() {
            e.push("tag1", UNKNOWN_CHOICE);
        }
        c
    };
    let auto_parts_type = match input.auto_parts_type {
        None => Some(None),
        Some(code) => e.known("auto_parts_type", code, AutoPartsType::from_i32).map(Some),
    };
    let brand_id = input.brand_id.filter(|id| *id > 0);
    if brand_id.is_none() {
        e.push("brand", REQUIRED);
    }
    let material = e.choice("material", input.material, Material::from_i32);
    let t = |s: &str| s.trim().to_string();
    Some(ProductFields {
        origin_code: t(&input.origin_code),
        helper_code,
        unit,
        comments: t(&input.comments),
        category: category?,
        brand_id: brand_id?,
        manufacturer: t(&input.manufacturer),
        auto_parts_type: auto_parts_type?,
        tag2: t(&input.tag2),
        tag3: t(&input.tag3),
        tag4: t(&input.tag4),
        // Spec §5: show for shop defaults to 0.
        show_for_shop: input.show_for_shop.unwrap_or(false),
        material: material?,
        specs: ProductSpecs {
            tyre_model: t(&input.tyre_model),
            specification: t(&input.specification),
            diameter: t(&input.diameter),
            patterns: t(&input.patterns),
            width: t(&input.width),
            load_rate: t(&input.load_rate),
            speed_rate: t(&input.speed_rate),
            suggested: t(&input.suggested),
            rim_diameter: t(&input.rim_diameter),
            rim_width: t(&input.rim_width),
            wheel_offset: t(&input.wheel_offset),
            center_bore: t(&input.center_bore),
            bolt_pattern: t(&input.bolt_pattern),
        },
    })
}

/// Checks a new product: item code, helper code, unit, item name (at most 50 characters),
/// category, physical/virtual (default physical), brand, show for shop (default no) and
/// material are required (spec §5).
pub fn validate_new_product(input: &ProductInput) -> Result<(ProductIdentity, ProductFields), Vec<FieldError>> {
    let mut e = Errors::default();
    let code = e.required("code", input.code.as_deref().unwrap_or(""));
    if code.chars().count() > super::xero::ITEM_CODE_MAX {
        e.push("code", CODE_LONGER_THAN_XERO_ITEM);
    }
    let name = match check_product_name(input.name.as_deref().unwrap_or("")) {
        Ok(n) => n.to_string(),
        Err(message) => {
            e.push("name", message);
            String::new()
        }
    };
    let kind = e.choice_or("category", input.kind, ProductKind::from_i32, ProductKind::default());
    let fields = product_fields(input, &mut e);
    match (kind, fields) {
        (Some(kind), Some(fields)) if e.0.is_empty() => Ok((ProductIdentity { code, name, kind }, fields)),
        _ => Err(e.0),
    }
}

/// Checks an edit: item code, item name and physical/virtual are locked (absent or
/// unchanged passes, a different value is refused); the rest follows the new-product rules.
pub fn validate_product_update(input: &ProductInput, stored: LockedProduct<'_>) -> Result<ProductFields, Vec<FieldError>> {
    let mut e = Errors::default();
    e.unchanged("code", input.code.as_deref(), stored.code);
    e.unchanged("name", input.name.as_deref(), stored.name);
    if input.kind.is_some_and(|k| k != stored.kind) {
        e.push("category", LOCKED);
    }
    match product_fields(input, &mut e) {
        Some(fields) if e.0.is_empty() => Ok(fields),
        _ => Err(e.0),
    }
}

/// The search columns stored with a product.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductSearchKeys {
    /// Lower-cased code, helper code, name and origin code, for the Item Key words.
    pub search_text: String,
    /// The tyre size in the name as its helper code (`2055516`), or empty.
    pub size_key: String,
}

/// The search keys of a product; creating, updating and seeding all store these.
pub fn product_search_keys(code: &str, helper_code: &str, name: &str, origin_code: &str) -> ProductSearchKeys {
    ProductSearchKeys {
        search_text: [code, helper_code, name, origin_code].join(" ").to_lowercase(),
        size_key: tyre_size::parse_query(name).map(|(s, _)| s.helper_code()).unwrap_or_default(),
    }
}

// ---------------------------------------------------------------------------------------
// Customers
// ---------------------------------------------------------------------------------------

/// A customer as submitted; names follow the API's `Customer` fields.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct CustomerInput {
    /// Customer (company) name; locks once the customer exists.
    #[serde(deserialize_with = "lenient::text")]
    pub name: Option<String>,
    /// ABN number; locks once the customer exists.
    #[serde(deserialize_with = "lenient::text")]
    pub code: Option<String>,
    #[serde(rename = "loginShop", deserialize_with = "lenient::flag")]
    pub login_shop: bool,
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    #[serde(deserialize_with = "lenient::string")]
    pub origin_code: String,
    /// Attention / remark; approvers only (`None`: not sent, keep).
    #[serde(deserialize_with = "lenient::text")]
    pub attention: Option<String>,
    #[serde(deserialize_with = "lenient::string")]
    pub primary_person_first: String,
    #[serde(deserialize_with = "lenient::string")]
    pub primary_person_last: String,
    #[serde(deserialize_with = "lenient::string")]
    pub phone: String,
    #[serde(deserialize_with = "lenient::string")]
    pub mobile: String,
    #[serde(deserialize_with = "lenient::string")]
    pub skype: String,
    /// `yyyy-MM-dd` or empty.
    #[serde(deserialize_with = "lenient::string")]
    pub birthday: String,
    #[serde(deserialize_with = "lenient::string")]
    pub note: String,
    #[serde(deserialize_with = "lenient::string")]
    pub website: String,
    #[serde(deserialize_with = "lenient::string")]
    pub address: String,
    #[serde(deserialize_with = "lenient::string")]
    pub city: String,
    #[serde(deserialize_with = "lenient::string")]
    pub state: String,
    #[serde(deserialize_with = "lenient::string")]
    pub postal: String,
    #[serde(deserialize_with = "lenient::string")]
    pub country: String,
    #[serde(deserialize_with = "lenient::string")]
    pub account: String,
    /// Approvers only: typed dollars from the form, cents from JSON.
    #[serde(rename = "creditLimit", deserialize_with = "lenient::amount")]
    pub credit_limit: Option<Amount>,
    #[serde(deserialize_with = "lenient::flag")]
    pub is_supplier: bool,
    #[serde(deserialize_with = "lenient::flag")]
    pub branch_flag: bool,
    /// The customer accepts tyres older than the company's old-tyre rule (issue 36).
    #[serde(alias = "acceptsOldTyres", deserialize_with = "lenient::flag")]
    pub accepts_old_tyres: bool,
    #[serde(rename = "priceType", deserialize_with = "lenient::int")]
    pub price_strategy: Option<i32>,
    #[serde(deserialize_with = "lenient::int")]
    pub payment_type: Option<i32>,
    #[serde(deserialize_with = "lenient::int")]
    pub area_type: Option<i32>,
    #[serde(deserialize_with = "lenient::int")]
    pub business_type: Option<i32>,
    #[serde(deserialize_with = "lenient::int")]
    pub default_ship_type: Option<i32>,
    /// Business staff (role 1).
    #[serde(deserialize_with = "lenient::int")]
    pub bd_id: Option<i64>,
    /// Service staff (roles 2–4).
    #[serde(deserialize_with = "lenient::int")]
    pub cs_id: Option<i64>,
    #[serde(deserialize_with = "lenient::int")]
    pub version: Option<i32>,
}

/// Name and ABN: they identify the customer and lock once it exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerIdentity {
    pub name: String,
    pub code: String,
}

/// Attention and credit limit, which only approvers change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CreditTerms {
    pub attention: String,
    pub credit_limit: Cents,
}

/// The stored values an update is compared against.
#[derive(Debug, Clone)]
pub struct StoredCustomer<'a> {
    pub name: &'a str,
    pub code: &'a str,
    pub terms: CreditTerms,
}

/// The checked, trimmed fields written on create and on update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerFields {
    pub login_shop: bool,
    pub email: String,
    pub origin_code: String,
    pub primary_person_first: String,
    pub primary_person_last: String,
    pub phone: String,
    pub mobile: String,
    pub skype: String,
    pub birthday: Option<NaiveDate>,
    pub note: String,
    pub website: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub postal: String,
    pub country: String,
    pub account: String,
    pub is_supplier: bool,
    pub branch_flag: bool,
    pub accepts_old_tyres: bool,
    pub price_strategy: PriceStrategy,
    pub payment_type: PaymentType,
    pub area_type: AreaType,
    pub business_type: BusinessType,
    pub default_ship_type: DefaultShipType,
    pub bd_id: Option<i64>,
    pub cs_id: Option<i64>,
}

/// A checked customer: its fields, and new credit terms when an approver sent them
/// (`None` keeps what is stored, or the defaults on create).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidCustomer {
    pub fields: CustomerFields,
    pub credit_terms: Option<CreditTerms>,
}

/// Why a customer save is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The caller may not do this at all (HTTP 403).
    Forbidden(&'static str),
    /// Field messages (HTTP 422).
    Fields(Vec<FieldError>),
}

/// Whether the caller may create customers: in company [`CRT_CSR_ORG`] only with the
/// crtCSR flag; other companies do not apply the flag (spec §5 names org id 4 only).
pub const fn may_create_customer(org_id: i64, crt_csr: bool) -> bool {
    org_id != CRT_CSR_ORG || crt_csr
}

/// Whether the role may change a customer's attention and credit limit (role 4 only).
pub const fn may_edit_credit_terms(role: Role) -> bool {
    role.is_approver()
}

/// A customer's address on one line, as sheets and the shop show it: the street, then
/// suburb, state and postcode; empty parts are left out.
pub fn one_line_address(street: &str, city: &str, state: &str, postal: &str) -> String {
    let place = [city, state, postal].iter().map(|p| p.trim()).filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" ");
    [street.trim(), place.as_str()].into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(", ")
}

/// Whether staff with `role` may be a customer's business staff (bd_id): business staff, role 1.
pub const fn fits_business_staff(role: Role) -> bool {
    matches!(role, Role::Business)
}

/// Whether staff with `role` may be a customer's service staff (cs_id): the service/sales
/// picker's roles 2–4 (spec §6).
pub const fn fits_service_staff(role: Role) -> bool {
    role.is_staff_picker()
}

/// Whether a staff picker lists employee `id`: every active one, and the one already
/// `chosen` on the record even if deactivated since (so saving it again keeps them).
pub fn listed_on_picker(active: bool, id: i64, chosen: Option<i64>) -> bool {
    active || chosen == Some(id)
}

fn credit_limit(amount: &Amount) -> Result<Cents, &'static str> {
    match amount {
        Amount::Typed(s) if s.trim().is_empty() => Ok(Cents::ZERO),
        Amount::Typed(s) => Cents::parse_non_negative(s).map_err(|e| e.message()),
        Amount::Cents(c) if *c < 0 => Err(super::money::MoneyError::Negative.message()),
        Amount::Cents(c) if *c > Cents::MAX_INPUT.0 => Err(super::money::MoneyError::TooLarge.message()),
        Amount::Cents(c) => Ok(Cents(*c)),
    }
}

/// Attention and credit limit: approvers may change them; anyone else may only send them
/// back unchanged, and a change is refused outright rather than silently dropped.
fn credit_terms(input: &CustomerInput, role: Role, stored: &CreditTerms, e: &mut Errors) -> Result<Option<CreditTerms>, Refusal> {
    let attention = input.attention.as_deref().map(str::trim);
    let limit = input.credit_limit.as_ref().map(credit_limit);
    if !may_edit_credit_terms(role) {
        let changed = attention.is_some_and(|a| a != stored.attention.trim()) || limit.is_some_and(|l| l != Ok(stored.credit_limit));
        return if changed { Err(Refusal::Forbidden(CREDIT_TERMS_APPROVER_ONLY)) } else { Ok(None) };
    }
    if attention.is_none() && limit.is_none() {
        return Ok(None);
    }
    let credit_limit = match limit {
        None => stored.credit_limit,
        Some(Ok(c)) => c,
        Some(Err(message)) => {
            e.push("creditLimit", message);
            stored.credit_limit
        }
    };
    Ok(Some(CreditTerms { attention: attention.map_or_else(|| stored.attention.clone(), str::to_string), credit_limit }))
}

fn customer_fields(input: &CustomerInput, e: &mut Errors) -> Option<CustomerFields> {
    let (short, name) = (Text::Line(SHORT_MAX), Text::Line(NAME_MAX));
    e.texts(&[
        ("name", input.name.as_deref().unwrap_or(""), name),
        ("code", input.code.as_deref().unwrap_or(""), short),
        ("email", &input.email, short),
        ("origin_code", &input.origin_code, short),
        ("attention", input.attention.as_deref().unwrap_or(""), Text::Lines(COMMENT_MAX)),
        ("primary_person_first", &input.primary_person_first, name),
        ("primary_person_last", &input.primary_person_last, name),
        ("phone", &input.phone, Text::Line(PHONE_MAX)),
        ("mobile", &input.mobile, Text::Line(PHONE_MAX)),
        ("skype", &input.skype, short),
        ("birthday", &input.birthday, short),
        ("note", &input.note, Text::Lines(COMMENT_MAX)),
        ("website", &input.website, Text::Line(ADDRESS_MAX)),
        ("address", &input.address, Text::Line(ADDRESS_MAX)),
        ("city", &input.city, name),
        ("state", &input.state, short),
        ("postal", &input.postal, short),
        ("country", &input.country, name),
        ("account", &input.account, short),
    ]);
    let t = |s: &str| s.trim().to_string();
    let email = t(&input.email);
    if email.is_empty() {
        // The email is the shop login id, so a customer who logs in to the shop needs one.
        if input.login_shop {
            e.push("email", REQUIRED);
        }
    } else if !is_email(&email) {
        e.push("email", INVALID_EMAIL);
    }
    let (first, last) = (t(&input.primary_person_first), t(&input.primary_person_last));
    if first.is_empty() && last.is_empty() {
        e.push("primary_person_first", REQUIRED);
    }
    let birthday = match input.birthday.trim() {
        "" => None,
        s => {
            let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
            if d.is_none() {
                e.push("birthday", INVALID_DATE);
            }
            d
        }
    };
    let address = e.required("address", &input.address);
    let city = e.required("city", &input.city);
    let state = e.required("state", &input.state);
    let postal = e.required("postal", &input.postal);
    let country = match input.country.trim() {
        "" => DEFAULT_COUNTRY.to_string(),
        c => c.to_string(),
    };
    let price_strategy = e.choice("priceType", input.price_strategy, PriceStrategy::from_i32);
    let payment_type = e.choice("payment_type", input.payment_type, PaymentType::from_i32);
    let area_type = e.choice("area_type", input.area_type, AreaType::from_i32);
    let business_type = e.choice_or("business_type", input.business_type, BusinessType::from_i32, BusinessType::Retailer);
    let default_ship_type = e.choice_or("default_ship_type", input.default_ship_type, DefaultShipType::from_i32, DefaultShipType::Delivery);
    Some(CustomerFields {
        login_shop: input.login_shop,
        email,
        origin_code: t(&input.origin_code),
        primary_person_first: first,
        primary_person_last: last,
        phone: t(&input.phone),
        mobile: t(&input.mobile),
        skype: t(&input.skype),
        birthday,
        note: t(&input.note),
        website: t(&input.website),
        address,
        city,
        state,
        postal,
        country,
        account: t(&input.account),
        is_supplier: input.is_supplier,
        branch_flag: input.branch_flag,
        accepts_old_tyres: input.accepts_old_tyres,
        price_strategy: price_strategy?,
        payment_type: payment_type?,
        area_type: area_type?,
        business_type: business_type?,
        default_ship_type: default_ship_type?,
        bd_id: input.bd_id.filter(|id| *id > 0),
        cs_id: input.cs_id.filter(|id| *id > 0),
    })
}

/// Checks a new customer (spec §5): the crtCSR rule first, then credit terms (approvers
/// only), then the required customer name, ABN, contact name (first or last), full address
/// (address, city, state, postcode), price strategy, payment type and area type.
pub fn validate_new_customer(input: &CustomerInput, actor: &Actor) -> Result<(CustomerIdentity, ValidCustomer), Refusal> {
    if !may_create_customer(actor.org_id, actor.crt_csr) {
        return Err(Refusal::Forbidden(NO_CREATE_CUSTOMER));
    }
    let mut e = Errors::default();
    let credit_terms = credit_terms(input, actor.role, &CreditTerms::default(), &mut e)?;
    let name = e.required("name", input.name.as_deref().unwrap_or(""));
    let code = e.required("code", input.code.as_deref().unwrap_or(""));
    if code.chars().count() > super::xero::CONTACT_NUMBER_MAX {
        e.push("code", CODE_LONGER_THAN_XERO_CONTACT);
    }
    match customer_fields(input, &mut e) {
        Some(fields) if e.0.is_empty() => Ok((CustomerIdentity { name, code }, ValidCustomer { fields, credit_terms })),
        _ => Err(Refusal::Fields(e.0)),
    }
}

/// Checks an edit: name and ABN are locked, credit terms follow the approver rule, the
/// rest follows the new-customer rules.
pub fn validate_customer_update(input: &CustomerInput, role: Role, stored: &StoredCustomer<'_>) -> Result<ValidCustomer, Refusal> {
    let mut e = Errors::default();
    let credit_terms = credit_terms(input, role, &stored.terms, &mut e)?;
    e.unchanged("name", input.name.as_deref(), stored.name);
    e.unchanged("code", input.code.as_deref(), stored.code);
    match customer_fields(input, &mut e) {
        Some(fields) if e.0.is_empty() => Ok(ValidCustomer { fields, credit_terms }),
        _ => Err(Refusal::Fields(e.0)),
    }
}

/// The lower-cased search column of a customer (name, ABN, phone, email).
pub fn customer_search_text(name: &str, code: &str, phone: &str, email: &str) -> String {
    [name, code, phone, email].join(" ").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::PRODUCT_NAME_TOO_LONG;

    fn fields_of(errors: &[FieldError]) -> Vec<(&'static str, &'static str)> {
        errors.iter().map(|e| (e.field, e.message)).collect()
    }

    fn product() -> ProductInput {
        ProductInput {
            code: Some(" MIC-2055516-P4 ".into()),
            name: Some("205/55R16 91V MICHELIN PRIMACY 4".into()),
            helper_code: "2055516".into(),
            unit: "EA".into(),
            category: "pcr tyres".into(),
            brand_id: Some(7),
            material: Some(1),
            ..Default::default()
        }
    }

    #[test]
    fn a_complete_new_product_is_trimmed_and_takes_the_defaults() {
        let (id, f) = validate_new_product(&product()).unwrap();
        assert_eq!(id, ProductIdentity { code: "MIC-2055516-P4".into(), name: "205/55R16 91V MICHELIN PRIMACY 4".into(), kind: ProductKind::Physical });
        assert_eq!(f.category, ProductCategory::PcrTyres, "category path matched case-insensitively");
        assert!(!f.show_for_shop, "show for shop defaults to no");
        assert_eq!((f.brand_id, f.material, f.auto_parts_type), (7, Material::NotApplicable, None));
    }

    #[test]
    fn every_required_product_field_says_please_enter() {
        let errors = validate_new_product(&ProductInput::default()).unwrap_err();
        assert_eq!(
            fields_of(&errors),
            vec![("code", REQUIRED), ("name", REQUIRED), ("helperCode", REQUIRED), ("unit", REQUIRED), ("tag1", REQUIRED), ("brand", REQUIRED), ("material", REQUIRED)]
        );
        assert_eq!(summary(&errors), CHECK_FIELDS);
        let blanks = ProductInput { code: Some("  ".into()), name: Some(" ".into()), helper_code: " ".into(), unit: "\t".into(), category: " ".into(), brand_id: Some(0), ..product() };
        let errors = validate_new_product(&blanks).unwrap_err();
        assert_eq!(errors.len(), 6, "{errors:?}");
        assert!(errors.iter().all(|e| e.message == REQUIRED));
    }

    #[test]
    fn product_name_is_at_most_fifty_characters() {
        let name = |n: Option<String>| validate_new_product(&ProductInput { name: n, ..product() });
        assert!(name(Some("x".repeat(50))).is_ok());
        assert!(name(Some(format!("  {}  ", "x".repeat(50)))).is_ok(), "spaces around do not count");
        assert!(name(Some("é".repeat(50))).is_ok(), "characters, not bytes");
        let errors = name(Some("x".repeat(51))).unwrap_err();
        assert_eq!(fields_of(&errors), vec![("name", PRODUCT_NAME_TOO_LONG)]);
        assert_eq!(summary(&errors), PRODUCT_NAME_TOO_LONG, "the 50-character rule is the summary");
        let mut both = ProductInput { name: Some("y".repeat(60)), ..ProductInput::default() };
        both.code = None;
        assert_eq!(summary(&validate_new_product(&both).unwrap_err()), PRODUCT_NAME_TOO_LONG);
    }

    #[test]
    fn a_new_product_code_fits_xeros_item_code_and_an_existing_longer_one_still_edits() {
        // Issue 31, finding 2: a 34-character code was saved, then could reach Xero never.
        let code = |c: &str| validate_new_product(&ProductInput { code: Some(c.into()), ..product() });
        assert!(code(&"X".repeat(30)).is_ok());
        assert!(code(&"é".repeat(30)).is_ok(), "characters, not bytes");
        assert_eq!(fields_of(&code(&"X".repeat(31)).unwrap_err()), vec![("code", CODE_LONGER_THAN_XERO_ITEM)]);
        let long = "LT265/70R17-121/118S-BFG-KO2-RWL-X";
        let stored = LockedProduct { code: long, name: "205/55R16 91V MICHELIN PRIMACY 4", kind: 1 };
        assert!(validate_product_update(&ProductInput { code: Some(long.into()), ..product() }, stored).is_ok(), "a record saved before the limit stays editable");
    }

    #[test]
    fn every_kind_category_material_and_part_type_is_accepted() {
        for kind in ProductKind::ALL {
            let (id, _) = validate_new_product(&ProductInput { kind: Some(kind.as_i32()), ..product() }).unwrap();
            assert_eq!(id.kind, *kind);
        }
        for cat in ProductCategory::ALL {
            let (_, f) = validate_new_product(&ProductInput { category: cat.path(), ..product() }).unwrap();
            assert_eq!(f.category, *cat);
        }
        for m in Material::ALL {
            assert_eq!(validate_new_product(&ProductInput { material: Some(m.as_i32()), ..product() }).unwrap().1.material, *m);
        }
        for a in AutoPartsType::ALL {
            assert_eq!(validate_new_product(&ProductInput { auto_parts_type: Some(a.as_i32()), ..product() }).unwrap().1.auto_parts_type, Some(*a));
        }
        assert!(validate_new_product(&ProductInput { show_for_shop: Some(true), ..product() }).unwrap().1.show_for_shop);
    }

    #[test]
    fn unknown_codes_are_refused_not_defaulted() {
        let cases: [(ProductInput, &str); 4] = [
            (ProductInput { kind: Some(2), ..product() }, "category"),
            (ProductInput { category: "Bicycles".into(), ..product() }, "tag1"),
            (ProductInput { material: Some(9), ..product() }, "material"),
            (ProductInput { auto_parts_type: Some(99), ..product() }, "auto_parts_type"),
        ];
        for (input, field) in cases {
            assert_eq!(fields_of(&validate_new_product(&input).unwrap_err()), vec![(field, UNKNOWN_CHOICE)]);
        }
    }

    #[test]
    fn editing_a_product_locks_code_name_and_kind() {
        let long_name = "A".repeat(60);
        let stored = LockedProduct { code: "MIC-2055516-P4", name: &long_name, kind: 1 };
        let unchanged = ProductInput { code: Some(" MIC-2055516-P4".into()), name: Some(long_name.clone()), kind: Some(1), ..product() };
        assert!(validate_product_update(&unchanged, stored).is_ok(), "a stored long name is not re-checked");
        let absent = ProductInput { code: None, name: None, kind: None, ..product() };
        assert!(validate_product_update(&absent, stored).is_ok(), "locked fields may be left out");
        let changed = ProductInput { code: Some("NEW".into()), name: Some("Other".into()), kind: Some(4), ..product() };
        assert_eq!(fields_of(&validate_product_update(&changed, stored).unwrap_err()), vec![("code", LOCKED), ("name", LOCKED), ("category", LOCKED)]);
        let missing = ProductInput { unit: String::new(), ..absent };
        assert_eq!(fields_of(&validate_product_update(&missing, stored).unwrap_err()), vec![("unit", REQUIRED)]);
    }

    #[test]
    fn product_search_keys_hold_the_words_and_the_tyre_size() {
        let k = product_search_keys("MIC-1", "2055516", "205/55R16 91V Michelin Primacy 4", "ORIG-9");
        assert_eq!(k.search_text, "mic-1 2055516 205/55r16 91v michelin primacy 4 orig-9");
        assert_eq!(k.size_key, "2055516");
        assert_eq!(product_search_keys("B1", "", "AGM Battery 70Ah", "").size_key, "");
        assert_eq!(product_search_keys("T", "", "265/70R16 112T Bridgestone", "").size_key, "2657016");
    }

    fn customer() -> CustomerInput {
        CustomerInput {
            name: Some(" Kingsgrove Tyre Centre ".into()),
            code: Some("51 824 753 556".into()),
            primary_person_first: "Jo".into(),
            address: "1 Main Rd".into(),
            city: "Kingsgrove".into(),
            state: "NSW".into(),
            postal: "2208".into(),
            price_strategy: Some(1),
            payment_type: Some(7),
            area_type: Some(2),
            ..Default::default()
        }
    }

    const SALES: &Actor = &actor(4, Role::Sales, true);
    const APPROVER: &Actor = &actor(4, Role::Approver, true);

    const fn actor(org_id: i64, role: Role, crt_csr: bool) -> Actor {
        Actor { org_id, user_id: 1, name: String::new(), role, is_acct: false, crt_csr }
    }

    #[test]
    fn a_complete_new_customer_takes_the_defaults() {
        let (id, c) = validate_new_customer(&customer(), SALES).unwrap();
        assert_eq!(id, CustomerIdentity { name: "Kingsgrove Tyre Centre".into(), code: "51 824 753 556".into() });
        assert_eq!(c.credit_terms, None, "nothing sent, nothing written");
        let f = c.fields;
        assert_eq!((f.country.as_str(), f.business_type, f.default_ship_type), (DEFAULT_COUNTRY, BusinessType::Retailer, DefaultShipType::Delivery));
        assert_eq!((f.price_strategy, f.payment_type, f.area_type), (PriceStrategy::ClassA, PaymentType::Cod, AreaType::South));
        assert_eq!(f.birthday, None);
    }

    #[test]
    fn a_new_customer_code_fits_xeros_contact_number() {
        assert!(validate_new_customer(&CustomerInput { code: Some("C".repeat(50)), ..customer() }, SALES).is_ok());
        let Err(Refusal::Fields(errors)) = validate_new_customer(&CustomerInput { code: Some("C".repeat(51)), ..customer() }, SALES) else { panic!("expected field errors") };
        assert_eq!(fields_of(&errors), vec![("code", CODE_LONGER_THAN_XERO_CONTACT)]);
    }

    #[test]
    fn every_required_customer_field_says_please_enter() {
        let Err(Refusal::Fields(errors)) = validate_new_customer(&CustomerInput::default(), SALES) else { panic!("expected field errors") };
        assert_eq!(
            fields_of(&errors),
            vec![
                ("name", REQUIRED),
                ("code", REQUIRED),
                ("primary_person_first", REQUIRED),
                ("address", REQUIRED),
                ("city", REQUIRED),
                ("state", REQUIRED),
                ("postal", REQUIRED),
                ("priceType", REQUIRED),
                ("payment_type", REQUIRED),
                ("area_type", REQUIRED),
            ]
        );
    }

    #[test]
    fn contact_name_is_first_or_last() {
        let last_only = CustomerInput { primary_person_first: " ".into(), primary_person_last: "Nguyen".into(), ..customer() };
        assert!(validate_new_customer(&last_only, SALES).is_ok());
        let neither = CustomerInput { primary_person_first: String::new(), ..customer() };
        assert_eq!(validate_new_customer(&neither, SALES), Err(Refusal::Fields(vec![FieldError { field: "primary_person_first", message: REQUIRED }])));
    }

    #[test]
    fn email_birthday_and_shop_login() {
        let bad = CustomerInput { email: "not-an-email".into(), birthday: "31/12/1990".into(), ..customer() };
        let Err(Refusal::Fields(errors)) = validate_new_customer(&bad, SALES) else { panic!() };
        assert_eq!(fields_of(&errors), vec![("email", INVALID_EMAIL), ("birthday", INVALID_DATE)]);
        assert_eq!(summary(&errors), INVALID_EMAIL);
        let shop = CustomerInput { login_shop: true, ..customer() };
        let Err(Refusal::Fields(errors)) = validate_new_customer(&shop, SALES) else { panic!() };
        assert_eq!(fields_of(&errors), vec![("email", REQUIRED)]);
        let good = CustomerInput { login_shop: true, email: " buyer@kingsgrove.example ".into(), birthday: "1990-12-31".into(), ..customer() };
        let (_, c) = validate_new_customer(&good, SALES).unwrap();
        assert_eq!(c.fields.email, "buyer@kingsgrove.example");
        assert_eq!(c.fields.birthday, NaiveDate::from_ymd_opt(1990, 12, 31));
    }

    #[test]
    fn every_listed_customer_choice_is_accepted_and_unknown_codes_refused() {
        for p in PriceStrategy::ALL {
            assert_eq!(validate_new_customer(&CustomerInput { price_strategy: Some(p.as_i32()), ..customer() }, SALES).unwrap().1.fields.price_strategy, *p);
        }
        for p in PaymentType::ALL {
            assert_eq!(validate_new_customer(&CustomerInput { payment_type: Some(p.as_i32()), ..customer() }, SALES).unwrap().1.fields.payment_type, *p);
        }
        for a in AreaType::ALL {
            assert_eq!(validate_new_customer(&CustomerInput { area_type: Some(a.as_i32()), ..customer() }, SALES).unwrap().1.fields.area_type, *a);
        }
        for b in BusinessType::ALL {
            assert_eq!(validate_new_customer(&CustomerInput { business_type: Some(b.as_i32()), ..customer() }, SALES).unwrap().1.fields.business_type, *b);
        }
        for s in DefaultShipType::ALL {
            assert_eq!(validate_new_customer(&CustomerInput { default_ship_type: Some(s.as_i32()), ..customer() }, SALES).unwrap().1.fields.default_ship_type, *s);
        }
        let bad = CustomerInput { price_strategy: Some(0), payment_type: Some(18), area_type: Some(7), business_type: Some(8), default_ship_type: Some(3), ..customer() };
        let Err(Refusal::Fields(errors)) = validate_new_customer(&bad, SALES) else { panic!() };
        assert_eq!(errors.len(), 5);
        assert!(errors.iter().all(|e| e.message == UNKNOWN_CHOICE));
    }

    #[test]
    fn crt_csr_is_needed_in_company_4_only() {
        assert!(may_create_customer(4, true));
        assert!(!may_create_customer(4, false));
        assert!(may_create_customer(9, false));
        assert!(may_create_customer(1, false));
        for role in Role::ALL {
            let actor = actor(4, *role, false);
            assert_eq!(validate_new_customer(&customer(), &actor), Err(Refusal::Forbidden(NO_CREATE_CUSTOMER)), "{role:?}");
        }
        assert!(validate_new_customer(&customer(), &actor(9, Role::Sales, false)).is_ok());
    }

    #[test]
    fn only_role_4_edits_credit_terms() {
        for role in Role::ALL {
            assert_eq!(may_edit_credit_terms(*role), *role == Role::Approver, "{role:?}");
        }
        let with_terms = CustomerInput { attention: Some("Call before delivery".into()), credit_limit: Some(Amount::Typed("1,500.00".into())), ..customer() };
        let (_, c) = validate_new_customer(&with_terms, APPROVER).unwrap();
        assert_eq!(c.credit_terms, Some(CreditTerms { attention: "Call before delivery".into(), credit_limit: Cents(150_000) }));
        for role in [Role::Business, Role::Sales, Role::Service] {
            let actor = actor(9, role, true);
            assert_eq!(validate_new_customer(&with_terms, &actor), Err(Refusal::Forbidden(CREDIT_TERMS_APPROVER_ONLY)), "{role:?}");
            let defaults = CustomerInput { attention: Some(" ".into()), credit_limit: Some(Amount::Typed("0".into())), ..customer() };
            assert_eq!(validate_new_customer(&defaults, &actor).unwrap().1.credit_terms, None, "sending the defaults back is fine");
        }
    }

    fn stored() -> StoredCustomer<'static> {
        StoredCustomer { name: "Kingsgrove Tyre Centre", code: "51 824 753 556", terms: CreditTerms { attention: "Cash only".into(), credit_limit: Cents(250_000) } }
    }

    #[test]
    fn editing_a_customer_locks_name_and_abn() {
        assert!(validate_customer_update(&customer(), Role::Sales, &stored()).is_ok(), "unchanged (spaces aside)");
        assert!(validate_customer_update(&CustomerInput { name: None, code: None, ..customer() }, Role::Sales, &stored()).is_ok());
        let changed = CustomerInput { name: Some("Other Pty Ltd".into()), code: Some("11 111 111 111".into()), ..customer() };
        assert_eq!(
            validate_customer_update(&changed, Role::Approver, &stored()),
            Err(Refusal::Fields(vec![FieldError { field: "name", message: LOCKED }, FieldError { field: "code", message: LOCKED }]))
        );
    }

    #[test]
    fn credit_terms_on_edit() {
        let same = CustomerInput { attention: Some("Cash only ".into()), credit_limit: Some(Amount::Typed("2500".into())), ..customer() };
        assert_eq!(validate_customer_update(&same, Role::Sales, &stored()).unwrap().credit_terms, None, "unchanged values pass and are not written");
        let raised = CustomerInput { credit_limit: Some(Amount::Cents(300_000)), ..customer() };
        assert_eq!(validate_customer_update(&raised, Role::Service, &stored()), Err(Refusal::Forbidden(CREDIT_TERMS_APPROVER_ONLY)));
        let garbage = CustomerInput { credit_limit: Some(Amount::Typed("lots".into())), ..customer() };
        assert_eq!(validate_customer_update(&garbage, Role::Sales, &stored()), Err(Refusal::Forbidden(CREDIT_TERMS_APPROVER_ONLY)));
        let new_attention = CustomerInput { attention: Some("Account customer".into()), ..customer() };
        assert_eq!(
            validate_customer_update(&new_attention, Role::Approver, &stored()).unwrap().credit_terms,
            Some(CreditTerms { attention: "Account customer".into(), credit_limit: Cents(250_000) }),
            "an approver's partial change keeps the other value"
        );
        assert_eq!(validate_customer_update(&raised, Role::Approver, &stored()).unwrap().credit_terms.unwrap().credit_limit, Cents(300_000));
        assert_eq!(validate_customer_update(&customer(), Role::Approver, &stored()).unwrap().credit_terms, None);
        for (amount, message) in [
            (Amount::Typed("lots".into()), "Please enter a valid amount, e.g. 1234.56"),
            (Amount::Typed("-5".into()), "The amount cannot be negative"),
            (Amount::Typed("1.234".into()), "Use at most 2 decimal places"),
            (Amount::Cents(-1), "The amount cannot be negative"),
            (Amount::Cents(i64::MAX), "The amount is too large"),
        ] {
            let input = CustomerInput { credit_limit: Some(amount), ..customer() };
            assert_eq!(validate_customer_update(&input, Role::Approver, &stored()), Err(Refusal::Fields(vec![FieldError { field: "creditLimit", message }])));
        }
        let cleared = CustomerInput { credit_limit: Some(Amount::Typed(" ".into())), ..customer() };
        assert_eq!(validate_customer_update(&cleared, Role::Approver, &stored()).unwrap().credit_terms.unwrap().credit_limit, Cents::ZERO);
    }

    #[test]
    fn pickers_list_active_staff_and_an_inactive_one_only_while_chosen() {
        assert!(listed_on_picker(true, 7, None));
        assert!(listed_on_picker(true, 7, Some(8)));
        assert!(listed_on_picker(false, 7, Some(7)));
        assert!(!listed_on_picker(false, 7, Some(8)));
        assert!(!listed_on_picker(false, 7, None));
    }

    #[test]
    fn staff_pickers_follow_the_roles() {
        let business: Vec<Role> = Role::ALL.iter().copied().filter(|r| fits_business_staff(*r)).collect();
        assert_eq!(business, vec![Role::Business]);
        let service: Vec<Role> = Role::ALL.iter().copied().filter(|r| fits_service_staff(*r)).collect();
        assert_eq!(service, vec![Role::Sales, Role::Service, Role::Approver]);
    }

    #[test]
    fn customer_search_text_is_lower_case() {
        assert_eq!(customer_search_text("Kingsgrove Tyre", "51 824", "02 9000", "A@B.example"), "kingsgrove tyre 51 824 02 9000 a@b.example");
    }

    #[test]
    fn versions_are_required_for_updates() {
        assert_eq!(require_version(Some(3)), Ok(3));
        assert_eq!(require_version(None), Err(FieldError { field: "version", message: VERSION_MISSING }));
    }

    #[test]
    fn inputs_read_forms_and_json_alike() {
        let form: CustomerInput = serde_urlencoded::from_str("name=A&priceType=2&creditLimit=10.50&loginShop=on&bd_id=").unwrap();
        let json: CustomerInput = serde_json::from_value(serde_json::json!({"name": "A", "priceType": 2, "creditLimit": 1050, "loginShop": true, "bd_id": null})).unwrap();
        assert_eq!((form.price_strategy, form.login_shop, form.bd_id), (json.price_strategy, json.login_shop, json.bd_id));
        assert_eq!(credit_limit(form.credit_limit.as_ref().unwrap()), credit_limit(json.credit_limit.as_ref().unwrap()));
        let p: ProductInput = serde_json::from_value(serde_json::json!({"code": "X", "category": 4, "brand": 3, "tag1": "Autoparts", "offset": "+35", "show_for_shop": 1})).unwrap();
        assert_eq!((p.kind, p.brand_id, p.category.as_str(), p.wheel_offset.as_str(), p.show_for_shop), (Some(4), Some(3), "Autoparts", "+35", Some(true)));
        assert_eq!(p.name, None, "absent stays absent");
    }
    #[test]
    fn a_customer_address_reads_on_one_line() {
        assert_eq!(one_line_address("98 Great Western Hwy", "Frenchs Forest", "NSW", "2086"), "98 Great Western Hwy, Frenchs Forest NSW 2086");
        assert_eq!(one_line_address("", "Frenchs Forest", "", "2086"), "Frenchs Forest 2086");
        assert_eq!(one_line_address(" 1 Main St ", "", "", ""), "1 Main St");
        assert_eq!(one_line_address("", "", "", ""), "");
    }
}
