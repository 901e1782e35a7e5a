//! Master-data use cases (spec §2.8, §5, §6): create and update products and customers.
//! Each is one transaction: the domain rules, the checks that need the database (brand,
//! staff and item code belong to the company), the write, and the optimistic version check.

use diesel::result::{DatabaseErrorKind, Error as DieselError};

use db::customers::Staff;
use db::refs::{Brand, BusinessStaff, Ref, ServiceStaff, Unchecked};
use db::customers::{self as customer_db, Customer, CustomerChanges};
use db::products::{self as product_db, Product, ProductChanges};
use db::{self, DbConn};
use domain::Actor;
use domain::masters::{self as rules, CreditTerms, CustomerFields, CustomerInput, LockedProduct, ProductInput, Refusal, StoredCustomer};
use domain::lenient::Amount;
use domain::money::Cents;
use domain::validate::FieldError;
use db::error::{AppError, AppResult};
use crate::Core;

/// Field messages as the one validation error both front ends render (422).
pub fn invalid(errors: Vec<FieldError>) -> AppError {
    let message = rules::summary(&errors).to_string();
    let mut map = std::collections::BTreeMap::new();
    for e in errors {
        map.entry(e.field.to_string()).or_insert_with(|| e.message.to_string());
    }
    AppError::Validation { message, errors: map }
}

/// The answer when the record changed since the form was opened (409).
pub fn version_conflict() -> AppError {
    AppError::Conflict { message: rules::VERSION_CONFLICT.into(), code: Some(VERSION_CONFLICT_CODE), reasons: vec![] }
}

/// `code` of a version conflict, so the HTML form can tell it from other conflicts.
pub const VERSION_CONFLICT_CODE: &str = "version_conflict";

fn refused(r: Refusal) -> AppError {
    match r {
        Refusal::Forbidden(message) => AppError::forbidden(message),
        Refusal::Fields(errors) => invalid(errors),
    }
}

/// The product's brand in the company, or a field message.
fn brand(c: &mut DbConn, org: i64, brand_id: i64, errors: &mut Vec<FieldError>) -> AppResult<Option<Ref<Brand>>> {
    let found = Unchecked::<Brand>::new(brand_id).lookup(c, org)?;
    if found.is_none() {
        errors.push(FieldError { field: "brand", message: rules::UNKNOWN_BRAND });
    }
    Ok(found)
}

fn fail_if_any(errors: Vec<FieldError>) -> AppResult<()> {
    if errors.is_empty() { Ok(()) } else { Err(invalid(errors)) }
}

/// Creates a product; the item code must be new in the company.
pub async fn create_product(core: &Core, actor: &Actor, input: ProductInput) -> AppResult<Product> {
    let org = actor.org_id;
    core.db.write(move |c| create_product_in(c, org, &input).and_then(|id| product_db::product(c, org, id))).await
}

/// [`create_product`] inside the caller's transaction (Import Basic); answers the new id.
pub fn create_product_in(c: &mut DbConn, org: i64, input: &ProductInput) -> AppResult<i64> {
    let (identity, fields) = rules::validate_new_product(input).map_err(invalid)?;
    let mut errors = Vec::new();
    if product_db::code_taken(c, org, &identity.code)? {
        errors.push(FieldError { field: "code", message: rules::CODE_TAKEN });
    }
    let brand = brand(c, org, fields.brand_id, &mut errors)?;
    let (Some(brand), true) = (brand, errors.is_empty()) else { return Err(invalid(errors)) };
    let now = db::now();
    let keys = rules::product_search_keys(&identity.code, &fields.helper_code, &identity.name, &fields.origin_code);
    let id = product_db::insert(c, org, &identity, &ProductChanges::new(&fields, brand, keys, now), now).map_err(|e| match e {
        // A concurrent create took the code between the check and the insert.
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => invalid(vec![FieldError { field: "code", message: rules::CODE_TAKEN }]),
        other => other.into(),
    })?;
    purchasing(c, org, id, input)?;
    if input.dot_tracked.unwrap_or_else(|| domain::dot::tracked_by_default(identity.kind, fields.category)) {
        db::lots::set_flag(c, org, id, true)?;
    }
    Ok(id)
}

/// The preferred supplier and supplier code the form or the API sent (issue 35), written
/// when sent: the supplier resolved in the company (else a field message), the code ranged.
/// Inside the caller's transaction, so a refusal undoes the product's save too.
fn purchasing(c: &mut DbConn, org: i64, id: i64, input: &ProductInput) -> AppResult<()> {
    let mut errors = Vec::new();
    let supplier = match input.preferred_supplier.as_deref().map(str::trim) {
        None => None,
        Some("") => Some(None),
        Some(s) => match s.parse::<i64>().ok().map(|n| Unchecked::<db::refs::Supplier>::new(n).lookup(c, org)).transpose()?.flatten() {
            Some(r) => Some(Some(r.id())),
            None => {
                errors.push(FieldError { field: "preferredSupplierId", message: "This supplier does not exist in this company." });
                None
            }
        },
    };
    let code = input.supplier_code.as_deref().map(str::trim);
    if let Some(Err(m)) = code.map(|s| domain::limits::check_text(s, domain::limits::Text::Line(domain::limits::SHORT_MAX))) {
        errors.push(FieldError { field: "supplierCode", message: m });
    }
    if !errors.is_empty() {
        return Err(invalid(errors));
    }
    db::reorder::set_product_purchasing(c, org, id, supplier, code)
}

/// Updates a product that still has the version the edit started from; code, name and
/// physical/virtual stay as stored; prices are not touched.
pub async fn update_product(core: &Core, actor: &Actor, id: i64, input: ProductInput) -> AppResult<Product> {
    let (actor, org) = (actor.clone(), actor.org_id);
    core.db
        .write(move |c| {
            let was = product_db::product(c, org, id)?.dot_tracked;
            // A switch of tracking locks the product's stock rows before its own row, as an
            // approval does (approval.rs `lot_moves`), so the two never wait in a circle.
            if input.dot_tracked.is_some_and(|on| on != was) {
                db::lots::lock_product(c, org, id)?;
            }
            update_product_in(c, org, id, &input)?;
            if let Some(on) = input.dot_tracked.filter(|on| *on != was) {
                track_by_dot(c, &actor, id, on)?;
            }
            product_db::product(c, org, id)
        })
        .await
}

/// Starts or stops tracking a stored product by DOT, in the caller's transaction: its stock
/// becomes lots of unknown code, or its lots are forgotten; the audit notes it.
fn track_by_dot(c: &mut DbConn, actor: &Actor, id: i64, on: bool) -> AppResult<()> {
    db::lots::set_flag(c, actor.org_id, id, on)?;
    db::lots::set_tracked(c, actor.org_id, id, on)?;
    let yes = |b: bool| if b { "yes".to_string() } else { "no".to_string() };
    // The audit row written straight through `db` (as `reference_data::audit_change` does),
    // since reference_data builds on this module and not the other way round.
    let detail = domain::reference_data::changes(&[("Tracked by DOT", yes(!on), yes(on))]);
    let entry = db::reference_data::AuditEntry { org_id: actor.org_id, user_id: actor.user_id, entity: "product", entity_id: Some(id), action: "update", detail };
    db::reference_data::audit(c, entry, db::now())
}

/// [`update_product`] inside the caller's transaction.
pub fn update_product_in(c: &mut DbConn, org: i64, id: i64, input: &ProductInput) -> AppResult<()> {
    let version = rules::require_version(input.version).map_err(|e| invalid(vec![e]))?;
    let stored = product_db::product(c, org, id)?;
    let locked = LockedProduct { code: &stored.code, name: &stored.name, kind: stored.category };
    let fields = rules::validate_product_update(input, locked).map_err(invalid)?;
    let mut errors = Vec::new();
    let brand = brand(c, org, fields.brand_id, &mut errors)?;
    let (Some(brand), true) = (brand, errors.is_empty()) else { return Err(invalid(errors)) };
    let keys = rules::product_search_keys(&stored.code, &fields.helper_code, &stored.name, &fields.origin_code);
    if !product_db::update_versioned(c, org, id, version, &ProductChanges::new(&fields, brand, keys, db::now()))? {
        return Err(version_conflict());
    }
    purchasing(c, org, id, input)
}

/// Business and service staff must be staff of the company in a fitting role.
fn staff(c: &mut DbConn, org: i64, f: &CustomerFields) -> AppResult<Staff> {
    let business = f.bd_id.map(|id| Unchecked::<BusinessStaff>::new(id).lookup(c, org)).transpose()?;
    let service = f.cs_id.map(|id| Unchecked::<ServiceStaff>::new(id).lookup(c, org)).transpose()?;
    let mut errors = Vec::new();
    if business.is_some_and(|b| b.is_none()) {
        errors.push(FieldError { field: "bd_id", message: rules::UNKNOWN_STAFF });
    }
    if service.is_some_and(|s| s.is_none()) {
        errors.push(FieldError { field: "cs_id", message: rules::UNKNOWN_STAFF });
    }
    fail_if_any(errors)?;
    Ok(Staff { business: business.flatten(), service: service.flatten() })
}

/// Creates a customer (crtCSR rule in company 4; credit terms for approvers only).
pub async fn create_customer(core: &Core, actor: &Actor, input: CustomerInput) -> AppResult<Customer> {
    let (actor, org) = (actor.clone(), actor.org_id);
    core.db.write(move |c| create_customer_in(c, &actor, &input).and_then(|id| customer_db::customer(c, org, id))).await
}

/// [`create_customer`] inside the caller's transaction (Import Basic); answers the new id.
pub fn create_customer_in(c: &mut DbConn, actor: &Actor, input: &CustomerInput) -> AppResult<i64> {
    let (identity, valid) = rules::validate_new_customer(input, actor).map_err(refused)?;
    let org = actor.org_id;
    let staff = staff(c, org, &valid.fields)?;
    let now = db::now();
    let f = &valid.fields;
    let search = rules::customer_search_text(&identity.name, &identity.code, &f.phone, &f.email);
    let terms = valid.credit_terms.clone().unwrap_or_default();
    customer_db::insert(c, org, &identity, &CustomerChanges::new(f, staff, search, now), &terms, now)
}

/// Updates a customer that still has the version the edit started from; name and ABN stay
/// as stored; attention and credit limit change only for approvers.
pub async fn update_customer(core: &Core, actor: &Actor, id: i64, input: CustomerInput) -> AppResult<Customer> {
    let (actor, org) = (actor.clone(), actor.org_id);
    core.db.write(move |c| update_customer_in(c, &actor, id, &input).and_then(|()| customer_db::customer(c, org, id))).await
}

/// [`update_customer`] inside the caller's transaction.
pub fn update_customer_in(c: &mut DbConn, actor: &Actor, id: i64, input: &CustomerInput) -> AppResult<()> {
    let version = rules::require_version(input.version).map_err(|e| invalid(vec![e]))?;
    let org = actor.org_id;
    let stored = customer_db::customer(c, org, id)?;
    let terms = CreditTerms { attention: stored.attention.clone(), credit_limit: Cents(stored.credit_limit) };
    let valid = rules::validate_customer_update(input, actor.role, &StoredCustomer { name: &stored.name, code: &stored.code, terms }).map_err(refused)?;
    let staff = staff(c, org, &valid.fields)?;
    let f = &valid.fields;
    let search = rules::customer_search_text(&stored.name, &stored.code, &f.phone, &f.email);
    let changes = CustomerChanges::new(f, staff, search, db::now());
    if !customer_db::update_versioned(c, org, id, version, &changes, valid.credit_terms.as_ref())? {
        return Err(version_conflict());
    }
    if !f.login_shop {
        // Shop access off: the customer's shop sessions and tokens end with this save.
        db::shop::end_access(c, org, id, None)?;
    }
    Ok(())
}

/// The form's values from a stored product, as the edit page first shows them and imports start from.
pub fn product_input(p: &Product) -> ProductInput {
    ProductInput {
        code: Some(p.code.clone()),
        name: Some(p.name.clone()),
        kind: Some(p.category),
        origin_code: p.origin_code.clone(),
        helper_code: p.helper_code.clone(),
        unit: p.unit.clone(),
        comments: p.comments.clone(),
        category: p.tag1.clone(),
        brand_id: p.brand_id,
        preferred_supplier: Some(p.preferred_supplier_id.map(|s| s.to_string()).unwrap_or_default()),
        supplier_code: Some(p.supplier_code.clone()),
        manufacturer: p.manufacturer.clone(),
        auto_parts_type: p.auto_parts_type,
        tag2: p.tag2.clone(),
        tag3: p.tag3.clone(),
        tag4: p.tag4.clone(),
        show_for_shop: Some(p.show_for_shop),
        dot_tracked: Some(p.dot_tracked),
        material: Some(p.material),
        tyre_model: p.tyre_model.clone(),
        specification: p.specification.clone(),
        diameter: p.diameter.clone(),
        patterns: p.patterns.clone(),
        width: p.width.clone(),
        load_rate: p.load_rate.clone(),
        speed_rate: p.speed_rate.clone(),
        suggested: p.suggested.clone(),
        rim_diameter: p.rim_diameter.clone(),
        rim_width: p.rim_width.clone(),
        wheel_offset: p.wheel_offset.clone(),
        center_bore: p.center_bore.clone(),
        bolt_pattern: p.bolt_pattern.clone(),
        version: Some(p.version),
    }
}

/// The form's values from a stored customer, as the edit page first shows them and imports start from.
pub fn customer_input(c: &Customer) -> CustomerInput {
    CustomerInput {
        name: Some(c.name.clone()),
        code: Some(c.code.clone()),
        login_shop: c.login_shop,
        email: c.email.clone(),
        origin_code: c.origin_code.clone(),
        attention: Some(c.attention.clone()),
        primary_person_first: c.primary_person_first.clone(),
        primary_person_last: c.primary_person_last.clone(),
        phone: c.phone.clone(),
        mobile: c.mobile.clone(),
        skype: c.skype.clone(),
        birthday: c.birthday.map(|d| d.format("%Y-%m-%d").to_string()).unwrap_or_default(),
        note: c.note.clone(),
        website: c.website.clone(),
        address: c.address.clone(),
        city: c.city.clone(),
        state: c.state.clone(),
        postal: c.postal.clone(),
        country: c.country.clone(),
        account: c.account.clone(),
        credit_limit: Some(Amount::Cents(c.credit_limit)),
        is_supplier: c.is_supplier,
        branch_flag: c.branch_flag,
        accepts_old_tyres: c.accepts_old_tyres,
        price_strategy: Some(c.price_strategy),
        payment_type: Some(c.payment_type),
        area_type: Some(c.area_type),
        business_type: Some(c.business_type),
        default_ship_type: Some(c.default_ship_type),
        bd_id: c.bd_id,
        cs_id: c.cs_id,
        version: Some(c.version),
    }
}
