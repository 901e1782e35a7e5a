//! Import Basic: one worksheet per kind (Brands, Warehouses, Suppliers, Customers, Products),
//! each row creating the record its code names or updating it, through the same rules as
//! the forms (a locked field cannot change through the file either). Every row of every
//! worksheet is checked on a read connection first; only a file without a bad row is
//! written, in chunks (see `ImportPlan::apply`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use db::customers::{self as customer_db};
use db::masters::Brand;
use db::products::{self as product_db};
use db::{self, DbConn, reference_data as ref_db};
use domain::enums::{AreaType, BusinessType, DefaultShipType, Material, PaymentType, PriceStrategy, ProductKind};
use domain::imports::{parse_choice, parse_yes_no, row_message};
use domain::Actor;
use domain::masters::{self as rules, CreditTerms, CustomerInput, DEFAULT_COUNTRY, LockedProduct, ProductInput, Refusal, StoredCustomer};
use domain::money::Cents;
use domain::reference_data::{self as ref_rules, BrandInput, SupplierInput, WarehouseInput};
use domain::validate::{FieldError, REQUIRED};
use db::error::{AppError, AppResult};
use crate::masters::{self as masters, customer_input, product_input};
use crate::reference_data::{save_brand, save_supplier, save_warehouse};
use xlsx::import::Table;

/// How a cell becomes the input's value.
#[derive(Clone, Copy)]
enum Conv {
    Text,
    YesNo,
    Choice(fn(&str) -> Option<i32>),
    /// A brand by name, resolved when the row is written (the file may create it).
    Brand,
}

/// One column: the header names it may have (the first is the template's), the input field
/// it sets, and how.
struct Col {
    names: &'static [&'static str],
    field: &'static str,
    conv: Conv,
}

const fn col(names: &'static [&'static str], field: &'static str, conv: Conv) -> Col {
    Col { names, field, conv }
}

/// The kinds in the order they are written: brands before the products that name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Brands,
    Warehouses,
    Suppliers,
    Customers,
    Products,
}

impl Kind {
    pub const ALL: [Kind; 5] = [Kind::Brands, Kind::Warehouses, Kind::Suppliers, Kind::Customers, Kind::Products];

    pub const fn sheet(self) -> &'static str {
        match self {
            Kind::Brands => "Brands",
            Kind::Warehouses => "Warehouses",
            Kind::Suppliers => "Suppliers",
            Kind::Customers => "Customers",
            Kind::Products => "Products",
        }
    }

    /// The worksheet names the kind is found under (case does not matter).
    const fn sheet_names(self) -> &'static [&'static str] {
        match self {
            Kind::Brands => &["Brands", "Brand"],
            Kind::Warehouses => &["Warehouses", "Warehouse"],
            Kind::Suppliers => &["Suppliers", "Supplier"],
            Kind::Customers => &["Customers", "Customer", "CSR"],
            Kind::Products => &["Products", "Product"],
        }
    }

    fn columns(self) -> &'static [Col] {
        match self {
            Kind::Brands => BRANDS,
            Kind::Warehouses => WAREHOUSES,
            Kind::Suppliers => SUPPLIERS,
            Kind::Customers => CUSTOMERS,
            Kind::Products => PRODUCTS,
        }
    }
}

const BRANDS: &[Col] = &[col(&["Name", "Brand"], "name", Conv::Text), col(&["Presented to CSR", "Shown to Customers"], "presented_to_csr", Conv::YesNo)];
const WAREHOUSES: &[Col] = &[
    col(&["Code"], "code", Conv::Text),
    col(&["Name"], "name", Conv::Text),
    col(&["Address"], "address", Conv::Text),
    col(&["Counts for CSR Orders", "Counts for Customer Orders"], "is_calc_for_csr_order", Conv::YesNo),
];
const SUPPLIERS: &[Col] = &[
    col(&["Code"], "code", Conv::Text),
    col(&["Name"], "name", Conv::Text),
    col(&["Primary Person First Name", "First Name"], "primary_person_first", Conv::Text),
    col(&["Primary Person Last Name", "Last Name"], "primary_person_last", Conv::Text),
];
const CUSTOMERS: &[Col] = &[
    col(&["Customer Code", "Code", "ABN"], "code", Conv::Text),
    col(&["Name", "Customer Name"], "name", Conv::Text),
    // The contact's name is required (first or last), as on the customer form.
    col(&["Contact First Name", "Primary Person First Name", "First Name"], "primary_person_first", Conv::Text),
    col(&["Contact Last Name", "Primary Person Last Name", "Last Name"], "primary_person_last", Conv::Text),
    col(&["Email"], "email", Conv::Text),
    col(&["Phone"], "phone", Conv::Text),
    col(&["Mobile"], "mobile", Conv::Text),
    col(&["Address"], "address", Conv::Text),
    col(&["City"], "city", Conv::Text),
    col(&["State"], "state", Conv::Text),
    col(&["Postal", "Postcode"], "postal", Conv::Text),
    col(&["Country"], "country", Conv::Text),
    col(&["Price Type"], "priceType", Conv::Choice(parse_choice::<PriceStrategy>)),
    col(&["Payment Type"], "payment_type", Conv::Choice(parse_choice::<PaymentType>)),
    col(&["Area Type"], "area_type", Conv::Choice(parse_choice::<AreaType>)),
    col(&["Business Type"], "business_type", Conv::Choice(parse_choice::<BusinessType>)),
    col(&["Attention"], "attention", Conv::Text),
    col(&["Credit Limit"], "creditLimit", Conv::Text),
    col(&["Note"], "note", Conv::Text),
];
const PRODUCTS: &[Col] = &[
    col(&["Item Code", "Code"], "code", Conv::Text),
    col(&["Item Name", "Name"], "name", Conv::Text),
    col(&["Helper Code"], "helperCode", Conv::Text),
    col(&["Unit"], "unit", Conv::Text),
    col(&["Physical/Virtual", "Kind"], "category", Conv::Choice(parse_choice::<ProductKind>)),
    col(&["Category"], "tag1", Conv::Text),
    col(&["Brand"], "brand", Conv::Brand),
    col(&["Material"], "material", Conv::Choice(parse_choice::<Material>)),
    col(&["Show for Shop"], "show_for_shop", Conv::YesNo),
    col(&["Origin Code"], "originCode", Conv::Text),
    col(&["Manufacturer"], "manufacturer", Conv::Text),
    col(&["Tag L2"], "tag2", Conv::Text),
    col(&["Tag L3"], "tag3", Conv::Text),
    col(&["Location"], "tag4", Conv::Text),
    col(&["Comments"], "comments", Conv::Text),
    col(&["Tyre Model"], "tyreModel", Conv::Text),
    col(&["Specification"], "specification", Conv::Text),
    col(&["Width"], "width", Conv::Text),
    col(&["Pattern"], "patterns", Conv::Text),
    col(&["Diameter"], "diameter", Conv::Text),
    col(&["Load Rate"], "load_rate", Conv::Text),
    col(&["Speed Rate"], "speed_rate", Conv::Text),
];

/// Every worksheet's names and columns, for the reader.
pub fn wanted() -> Vec<(&'static [&'static str], Vec<&'static [&'static str]>)> {
    Kind::ALL.iter().map(|k| (k.sheet_names(), k.columns().iter().map(|c| c.names).collect())).collect()
}

/// The template: each worksheet's headers.
pub fn template_headers() -> Vec<(&'static str, Vec<&'static str>)> {
    Kind::ALL.iter().map(|k| (k.sheet(), k.columns().iter().map(|c| c.names[0]).collect())).collect()
}

/// One checked row, ready to write: the record it updates (with the version the check saw)
/// and the input.
struct Planned {
    row: usize,
    id: Option<i64>,
    input: Value,
    /// The brand named on a product row, resolved when it is written.
    brand: Option<String>,
}

/// A whole checked file.
pub struct ImportPlan {
    sheets: Vec<(Kind, Vec<Planned>)>,
}

/// What an import did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub created: usize,
    pub updated: usize,
}

impl ImportPlan {
    pub fn rows(&self) -> usize {
        self.sheets.iter().map(|(_, r)| r.len()).sum()
    }
}

/// Fields the rules report under another name than the input's.
const REPORTED_AS: &[(&str, &str)] = &[("tyre_model", "tyreModel")];

/// The field's column name in messages: the template's header. A field the template has no
/// column for (one the file cannot set, such as a stored value) is named in words, never by
/// its internal name.
fn label(kind: Kind, field: &str) -> String {
    let field = REPORTED_AS.iter().find(|(reported, _)| *reported == field).map_or(field, |(_, input)| *input);
    kind.columns().iter().find(|c| c.field == field).map_or_else(|| in_words(field), |c| c.names[0].to_string())
}

/// 'origin_code' or 'originCode' as 'Origin Code'.
fn in_words(field: &str) -> String {
    let mut out = String::new();
    let mut new_word = true;
    for ch in field.chars() {
        if ch == '_' {
            new_word = true;
            continue;
        }
        if ch.is_ascii_uppercase() && !out.is_empty() {
            new_word = true;
        }
        if new_word && !out.is_empty() {
            out.push(' ');
        }
        if new_word {
            out.extend(ch.to_uppercase());
        } else {
            out.push(ch);
        }
        new_word = false;
    }
    out
}

fn field_messages(kind: Kind, row: usize, errors: &[FieldError], out: &mut Vec<String>) {
    for e in errors {
        out.push(row_message(kind.sheet(), row, &label(kind, e.field), e.message));
    }
}

fn error_messages(kind: Kind, row: usize, e: &AppError, out: &mut Vec<String>) {
    match e {
        AppError::Validation { message, errors } if !errors.is_empty() => {
            for (field, m) in errors {
                out.push(row_message(kind.sheet(), row, &label(kind, field), m));
            }
            let _ = message;
        }
        other => out.push(row_message(kind.sheet(), row, "", &other.to_string())),
    }
}

/// What is stored now, by key, for one kind.
struct Existing {
    /// key (code, or brand name in lower case) → ids (several customers may share an ABN).
    ids: HashMap<String, Vec<i64>>,
}

fn existing(c: &mut DbConn, org: i64, kind: Kind, keys: &[String]) -> AppResult<Existing> {
    let mut ids: HashMap<String, Vec<i64>> = HashMap::new();
    match kind {
        Kind::Brands => {
            for (id, name) in ref_db::brand_names(c, org)? {
                ids.entry(name.trim().to_lowercase()).or_default().push(id);
            }
        }
        Kind::Warehouses => {
            for k in keys {
                if let Some(id) = ref_db::warehouse_with_code(c, org, k)? {
                    ids.entry(k.clone()).or_default().push(id);
                }
            }
        }
        Kind::Suppliers => {
            for k in keys {
                if let Some(id) = ref_db::supplier_with_code(c, org, k)? {
                    ids.entry(k.clone()).or_default().push(id);
                }
            }
        }
        Kind::Customers => {
            for (id, code) in customer_db::ids_with_codes(c, org, keys)? {
                ids.entry(code).or_default().push(id);
            }
        }
        Kind::Products => {
            for (code, p) in product_db::by_codes(c, org, keys)? {
                ids.entry(code).or_default().push(p.id);
            }
        }
    }
    Ok(Existing { ids })
}

/// The input a row starts from: the stored record's values, or a new record's defaults.
fn start(c: &mut DbConn, org: i64, kind: Kind, id: Option<i64>) -> AppResult<Value> {
    let v = match (kind, id) {
        (Kind::Brands, Some(id)) => {
            let b = ref_db::brand(c, org, id)?;
            serde_json::to_value(BrandInput { name: b.name, presented_to_csr: b.presented_to_csr, version: Some(b.version) })
        }
        (Kind::Brands, None) => serde_json::to_value(BrandInput { presented_to_csr: true, ..BrandInput::default() }),
        (Kind::Warehouses, Some(id)) => {
            let w = ref_db::warehouse(c, org, id)?;
            serde_json::to_value(WarehouseInput { code: w.code, name: w.name, address: w.address, is_calc_for_csr_order: w.is_calc_for_csr_order, version: Some(w.version) })
        }
        (Kind::Warehouses, None) => serde_json::to_value(WarehouseInput { is_calc_for_csr_order: true, ..WarehouseInput::default() }),
        (Kind::Suppliers, Some(id)) => {
            let s = ref_db::supplier(c, org, id)?;
            serde_json::to_value(SupplierInput { code: s.code, name: s.name, primary_person_first: s.primary_person_first, primary_person_last: s.primary_person_last, email: s.email, currency: s.currency, lead_time_days: s.lead_time_days.map(|d| d.to_string()).unwrap_or_default(), version: Some(s.version) })
        }
        (Kind::Suppliers, None) => serde_json::to_value(SupplierInput::default()),
        (Kind::Customers, Some(id)) => serde_json::to_value(customer_input(&customer_db::customer(c, org, id)?)),
        (Kind::Customers, None) => serde_json::to_value(CustomerInput {
            country: DEFAULT_COUNTRY.to_string(),
            business_type: Some(BusinessType::Retailer.as_i32()),
            default_ship_type: Some(DefaultShipType::Delivery.as_i32()),
            ..CustomerInput::default()
        }),
        (Kind::Products, Some(id)) => serde_json::to_value(product_input(&product_db::product(c, org, id)?)),
        (Kind::Products, None) => serde_json::to_value(ProductInput { kind: Some(ProductKind::default().as_i32()), show_for_shop: Some(false), ..ProductInput::default() }),
    };
    v.map_err(|e| AppError::Internal(e.into()))
}

/// Puts a row's non-empty cells into the input; an empty cell keeps what is stored.
fn apply_cells(kind: Kind, row: usize, cells: &[String], input: &mut Map<String, Value>, brand: &mut Option<String>, errors: &mut Vec<String>) {
    for (col, cell) in kind.columns().iter().zip(cells) {
        if cell.is_empty() {
            continue;
        }
        let value = match col.conv {
            Conv::Text => Value::String(cell.clone()),
            Conv::YesNo => match parse_yes_no(cell) {
                Ok(b) => Value::Bool(b),
                Err(m) => {
                    errors.push(row_message(kind.sheet(), row, col.names[0], m));
                    continue;
                }
            },
            Conv::Choice(parse) => match parse(cell) {
                Some(code) => Value::from(code),
                None => {
                    errors.push(row_message(kind.sheet(), row, col.names[0], &format!("'{cell}' is not one of the listed options.")));
                    continue;
                }
            },
            Conv::Brand => {
                *brand = Some(cell.clone());
                continue;
            }
        };
        input.insert(col.field.to_string(), value);
    }
}

fn input<T: serde::de::DeserializeOwned>(v: &Value) -> AppResult<T> {
    serde_json::from_value(v.clone()).map_err(|e| AppError::bad_request(e.to_string()))
}

/// Checks one planned row against the rules the form applies (the database checks that
/// need earlier rows of the file — codes and brand names — are made on the file's own keys).
fn check(c: &mut DbConn, org: i64, actor: &Actor, kind: Kind, p: &Planned) -> AppResult<Result<(), Vec<FieldError>>> {
    let refused = |r: Refusal| match r {
        Refusal::Fields(f) => f,
        Refusal::Forbidden(m) => vec![FieldError { field: "", message: m }],
    };
    Ok(match kind {
        Kind::Brands => ref_rules::validate_brand(&input(&p.input)?).map(|_| ()),
        Kind::Warehouses => {
            let stored = p.id.map(|id| ref_db::warehouse(c, org, id)).transpose()?;
            let w: WarehouseInput = input(&p.input)?;
            match ref_rules::validate_warehouse(&w, stored.as_ref().map(|s| s.code.as_str())) {
                Ok(f) if ref_db::warehouse_name_taken(c, org, &f.name, p.id)? => Err(vec![FieldError { field: "name", message: ref_rules::WAREHOUSE_NAME_TAKEN }]),
                other => other.map(|_| ()),
            }
        }
        Kind::Suppliers => {
            let stored = p.id.map(|id| ref_db::supplier(c, org, id)).transpose()?;
            ref_rules::validate_supplier(&input(&p.input)?, stored.as_ref().map(|s| s.code.as_str())).map(|_| ())
        }
        Kind::Customers => {
            let ci: CustomerInput = input(&p.input)?;
            match p.id {
                None => rules::validate_new_customer(&ci, actor).map(|_| ()).map_err(refused),
                Some(id) => {
                    let s = customer_db::customer(c, org, id)?;
                    let terms = CreditTerms { attention: s.attention.clone(), credit_limit: Cents(s.credit_limit) };
                    rules::validate_customer_update(&ci, actor.role, &StoredCustomer { name: &s.name, code: &s.code, terms }).map(|_| ()).map_err(refused)
                }
            }
        }
        Kind::Products => {
            let mut pi: ProductInput = input(&p.input)?;
            // The brand is resolved on writing; here it only has to be named.
            if p.brand.is_some() {
                pi.brand_id = Some(i64::MAX);
            }
            match p.id {
                None => rules::validate_new_product(&pi).map(|_| ()),
                Some(id) => {
                    let s = product_db::product(c, org, id)?;
                    rules::validate_product_update(&pi, LockedProduct { code: &s.code, name: &s.name, kind: s.category }).map(|_| ())
                }
            }
        }
    })
}

/// The key cell of a row: the code, or a brand's name.
fn key_of(kind: Kind, cells: &[String]) -> String {
    match kind {
        Kind::Brands => cells[0].trim().to_lowercase(),
        _ => cells[0].trim().to_string(),
    }
}

/// Reads and checks every worksheet; any bad row refuses the file with row messages naming
/// the worksheet.
pub fn plan(c: &mut DbConn, org: i64, actor: &Actor, tables: Vec<Option<Table>>) -> AppResult<ImportPlan> {
    if tables.iter().all(Option::is_none) {
        return Err(AppError::field("file", "The file has none of the worksheets Brands, Warehouses, Suppliers, Customers, Products."));
    }
    let mut errors = Vec::new();
    let mut sheets = Vec::new();
    // Brands the file itself creates, for the products that name them.
    let mut file_brands: Vec<String> = Vec::new();
    for (kind, table) in Kind::ALL.into_iter().zip(tables) {
        let Some(table) = table else { continue };
        if !table.has(0) {
            errors.push(format!("{}: the first row must name the columns; '{}' is missing.", kind.sheet(), kind.columns()[0].names[0]));
            continue;
        }
        let keys: Vec<String> = table.rows.iter().map(|(_, r)| key_of(kind, r)).filter(|k| !k.is_empty()).collect();
        let stored = existing(c, org, kind, &keys)?;
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut planned = Vec::with_capacity(table.rows.len());
        for (row, cells) in &table.rows {
            let key = key_of(kind, cells);
            if key.is_empty() {
                errors.push(row_message(kind.sheet(), *row, kind.columns()[0].names[0], REQUIRED));
                continue;
            }
            if let Some(first) = seen.insert(key.clone(), *row) {
                errors.push(row_message(kind.sheet(), *row, kind.columns()[0].names[0], &format!("'{}' is also on row {first}; give each record one row.", cells[0])));
                continue;
            }
            let id = match stored.ids.get(&key).map(Vec::as_slice) {
                None | Some([]) => None,
                Some([id]) => Some(*id),
                Some(more) => {
                    errors.push(row_message(kind.sheet(), *row, kind.columns()[0].names[0], &format!("{} customers have the code '{key}'; change them in the customer form.", more.len())));
                    continue;
                }
            };
            let mut value = start(c, org, kind, id)?;
            let mut brand = None;
            let before = errors.len();
            if let Value::Object(map) = &mut value {
                apply_cells(kind, *row, cells, map, &mut brand, &mut errors);
            }
            if errors.len() > before {
                continue;
            }
            if let Some(b) = &brand {
                let known = file_brands.iter().any(|f| ref_rules::same_brand(f, b)) || ref_db::brand_names(c, org)?.iter().any(|(_, n)| ref_rules::same_brand(n, b));
                if !known {
                    errors.push(row_message(kind.sheet(), *row, "Brand", &format!("unknown brand '{b}'; add it on the Brands worksheet or in Brands.")));
                    continue;
                }
            }
            let p = Planned { row: *row, id, input: value, brand };
            match check(c, org, actor, kind, &p)? {
                Ok(()) => {
                    if kind == Kind::Brands {
                        file_brands.push(cells[0].clone());
                    }
                    planned.push(p);
                }
                Err(fields) => field_messages(kind, *row, &fields, &mut errors),
            }
        }
        sheets.push((kind, planned));
    }
    if !errors.is_empty() {
        return Err(xlsx::import::row_errors(errors));
    }
    let plan = ImportPlan { sheets };
    if plan.rows() == 0 {
        return Err(AppError::field("file", domain::imports::NO_ROWS));
    }
    Ok(plan)
}

/// Writes one planned row inside the caller's transaction; answers whether it created.
fn write_row(c: &mut DbConn, actor: &Actor, kind: Kind, p: &Planned, brands: &[Brand]) -> AppResult<bool> {
    let org = actor.org_id;
    match kind {
        Kind::Brands => save_brand(c, actor, p.id, &input(&p.input)?).map(|_| p.id.is_none()),
        Kind::Warehouses => save_warehouse(c, actor, p.id, &input(&p.input)?).map(|_| p.id.is_none()),
        Kind::Suppliers => save_supplier(c, actor, p.id, &input(&p.input)?).map(|_| p.id.is_none()),
        Kind::Customers => {
            let ci: CustomerInput = input(&p.input)?;
            match p.id {
                None => masters::create_customer_in(c, actor, &ci).map(|_| true),
                Some(id) => masters::update_customer_in(c, actor, id, &ci).map(|()| false),
            }
        }
        Kind::Products => {
            let mut pi: ProductInput = input(&p.input)?;
            if let Some(name) = &p.brand {
                pi.brand_id = brands.iter().find(|b| ref_rules::same_brand(&b.name, name)).map(|b| b.id);
            }
            match p.id {
                None => masters::create_product_in(c, org, &pi).map(|_| true),
                Some(id) => masters::update_product_in(c, org, id, &pi).map(|()| false),
            }
        }
    }
}

impl ImportPlan {
    /// Writes the checked rows, kind by kind, `chunk` rows per transaction, so other users'
    /// saves wait for one chunk at most. A row that fails now (someone changed the record
    /// since the check) stops the import with a message saying which rows were saved;
    /// writing the same file again finishes it, as every row creates or updates by code.
    pub async fn apply(self, db: &db::Db, actor: &Actor, chunk: usize, progress: impl Fn(usize, usize)) -> AppResult<Counts> {
        let total = self.rows();
        let mut done = 0;
        let mut counts = Counts::default();
        for (kind, rows) in self.sheets {
            let rows = std::sync::Arc::new(rows);
            let mut start = 0;
            while start < rows.len() {
                let end = (start + chunk).min(rows.len());
                let (batch, who) = (rows.clone(), actor.clone());
                let org = actor.org_id;
                let outcome = db
                    .write(move |c| {
                        let brands = if kind == Kind::Products { db::masters::all_brands(c, org)? } else { Vec::new() };
                        let mut created = 0;
                        for p in &batch[start..end] {
                            match write_row(c, &who, kind, p, &brands) {
                                Ok(true) => created += 1,
                                Ok(false) => {}
                                // The chunk rolls back: what was saved is the chunks before it.
                                Err(e) => {
                                    let mut m = Vec::new();
                                    error_messages(kind, p.row, &e, &mut m);
                                    let message = m.join(" ");
                                    return Err(AppError::Validation { errors: [(format!("{}:{}", kind.sheet(), p.row), message.clone())].into_iter().collect(), message });
                                }
                            }
                        }
                        Ok(created)
                    })
                    .await;
                match outcome {
                    Ok(created) => {
                        counts.created += created;
                        counts.updated += end - start - created;
                    }
                    Err(AppError::Validation { message, errors }) => {
                        let message = format!(
                            "{message} The import stopped there: {done} rows before it were saved ({} created, {} updated). Import the file again to finish it.",
                            counts.created, counts.updated
                        );
                        return Err(AppError::Validation { message, errors });
                    }
                    Err(e) => return Err(e),
                }
                done += end - start;
                progress(done, total);
                start = end;
            }
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::enums::Role;

    /// Issue 32: a new customer could not be imported, as the template had no contact-name
    /// column and the message named the internal field.
    #[test]
    fn every_field_a_new_record_requires_is_a_template_column() {
        let actor = Actor { org_id: 4, user_id: 1, name: "Sam".into(), role: Role::Approver, is_acct: false, crt_csr: true };
        let fields = |errors: Vec<FieldError>| errors.into_iter().map(|e| e.field).collect::<Vec<_>>();
        let required = [
            (Kind::Brands, fields(ref_rules::validate_brand(&BrandInput::default()).unwrap_err())),
            (Kind::Warehouses, fields(ref_rules::validate_warehouse(&WarehouseInput::default(), None).unwrap_err())),
            (Kind::Suppliers, fields(ref_rules::validate_supplier(&SupplierInput::default(), None).unwrap_err())),
            (Kind::Customers, match rules::validate_new_customer(&CustomerInput::default(), &actor) {
                Err(Refusal::Fields(f)) => fields(f),
                other => panic!("{other:?}"),
            }),
            (Kind::Products, fields(rules::validate_new_product(&ProductInput::default()).unwrap_err())),
        ];
        let template = template_headers();
        for (kind, fields) in required {
            let (_, headers) = template.iter().find(|(sheet, _)| *sheet == kind.sheet()).unwrap();
            assert!(!fields.is_empty());
            for field in fields {
                let column = label(kind, field);
                assert!(headers.contains(&column.as_str()), "{}: '{field}' is required but the template has no column for it (named '{column}')", kind.sheet());
            }
        }
    }

    #[test]
    fn a_field_without_a_column_is_named_in_words() {
        assert_eq!(label(Kind::Customers, "primary_person_first"), "Contact First Name");
        assert_eq!(label(Kind::Products, "tyre_model"), "Tyre Model");
        assert_eq!(label(Kind::Products, "rim_diameter"), "Rim Diameter");
        assert_eq!(label(Kind::Customers, "origin_code"), "Origin Code");
        assert_eq!(label(Kind::Products, "auto_parts_type"), "Auto Parts Type");
        assert_eq!(in_words("helperCode"), "Helper Code");
    }
}
