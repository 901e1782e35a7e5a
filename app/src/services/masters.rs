//! Master-data use cases (spec §2.8, §5, §6): create and update products and customers.
//! Each is one transaction: the domain rules, the checks that need the database (brand,
//! staff and item code belong to the company), the write, and the optimistic version check.

use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::auth::Auth;
use crate::db::customers::{self as customer_db, Customer, CustomerChanges};
use crate::db::masters as master_db;
use crate::db::products::{self as product_db, Product, ProductChanges};
use crate::db::{self, DbConn};
use crate::domain::enums::Role;
use crate::domain::masters::{self as rules, Actor, CreditTerms, CustomerFields, CustomerInput, LockedProduct, ProductInput, Refusal, StoredCustomer};
use crate::domain::money::Cents;
use crate::domain::validate::FieldError;
use crate::error::{AppError, AppResult};
use crate::state::AppState;

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

fn actor(auth: &Auth) -> Actor {
    Actor { org_id: auth.org_id, role: auth.role, crt_csr: auth.crt_csr }
}

fn check_brand(c: &mut DbConn, org: i64, brand_id: i64, errors: &mut Vec<FieldError>) -> AppResult<()> {
    if !master_db::brand_exists(c, org, brand_id)? {
        errors.push(FieldError { field: "brand", message: rules::UNKNOWN_BRAND });
    }
    Ok(())
}

fn fail_if_any(errors: Vec<FieldError>) -> AppResult<()> {
    if errors.is_empty() { Ok(()) } else { Err(invalid(errors)) }
}

/// Creates a product; the item code must be new in the company.
pub async fn create_product(state: &AppState, auth: &Auth, input: ProductInput) -> AppResult<Product> {
    let (identity, fields) = rules::validate_new_product(&input).map_err(invalid)?;
    let org = auth.org_id;
    state
        .db
        .write(move |c| {
            let mut errors = Vec::new();
            if product_db::code_taken(c, org, &identity.code)? {
                errors.push(FieldError { field: "code", message: rules::CODE_TAKEN });
            }
            check_brand(c, org, fields.brand_id, &mut errors)?;
            fail_if_any(errors)?;
            let now = db::now();
            let keys = rules::product_search_keys(&identity.code, &fields.helper_code, &identity.name, &fields.origin_code);
            let id = product_db::insert(c, org, &identity, &ProductChanges::new(&fields, keys, now), now).map_err(|e| match e {
                // A concurrent create took the code between the check and the insert.
                DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => invalid(vec![FieldError { field: "code", message: rules::CODE_TAKEN }]),
                other => other.into(),
            })?;
            product_db::product(c, org, id)
        })
        .await
}

/// Updates a product that still has the version the edit started from; code, name and
/// physical/virtual stay as stored; prices are not touched.
pub async fn update_product(state: &AppState, auth: &Auth, id: i64, input: ProductInput) -> AppResult<Product> {
    let version = rules::require_version(input.version).map_err(|e| invalid(vec![e]))?;
    let org = auth.org_id;
    state
        .db
        .write(move |c| {
            let stored = product_db::product(c, org, id)?;
            let locked = LockedProduct { code: &stored.code, name: &stored.name, kind: stored.category };
            let fields = rules::validate_product_update(&input, locked).map_err(invalid)?;
            let mut errors = Vec::new();
            check_brand(c, org, fields.brand_id, &mut errors)?;
            fail_if_any(errors)?;
            let keys = rules::product_search_keys(&stored.code, &fields.helper_code, &stored.name, &fields.origin_code);
            if !product_db::update_versioned(c, org, id, version, &ProductChanges::new(&fields, keys, db::now()))? {
                return Err(version_conflict());
            }
            product_db::product(c, org, id)
        })
        .await
}

/// Business and service staff must be staff of the company in a fitting role.
fn check_staff(c: &mut DbConn, org: i64, f: &CustomerFields) -> AppResult<()> {
    let mut errors = Vec::new();
    for (field, id, fits) in [("bd_id", f.bd_id, rules::fits_business_staff as fn(Role) -> bool), ("cs_id", f.cs_id, rules::fits_service_staff)] {
        let Some(id) = id else { continue };
        let role = master_db::staff_role(c, org, id)?.and_then(Role::from_i32);
        if !role.is_some_and(fits) {
            errors.push(FieldError { field, message: rules::UNKNOWN_STAFF });
        }
    }
    fail_if_any(errors)
}

/// Creates a customer (crtCSR rule in company 4; credit terms for approvers only).
pub async fn create_customer(state: &AppState, auth: &Auth, input: CustomerInput) -> AppResult<Customer> {
    let (identity, valid) = rules::validate_new_customer(&input, actor(auth)).map_err(refused)?;
    let org = auth.org_id;
    state
        .db
        .write(move |c| {
            check_staff(c, org, &valid.fields)?;
            let now = db::now();
            let f = &valid.fields;
            let search = rules::customer_search_text(&identity.name, &identity.code, &f.phone, &f.email);
            let terms = valid.credit_terms.clone().unwrap_or_default();
            let id = customer_db::insert(c, org, &identity, &CustomerChanges::new(f, search, now), &terms, now)?;
            customer_db::customer(c, org, id)
        })
        .await
}

/// Updates a customer that still has the version the edit started from; name and ABN stay
/// as stored; attention and credit limit change only for approvers.
pub async fn update_customer(state: &AppState, auth: &Auth, id: i64, input: CustomerInput) -> AppResult<Customer> {
    let version = rules::require_version(input.version).map_err(|e| invalid(vec![e]))?;
    let (org, role) = (auth.org_id, auth.role);
    state
        .db
        .write(move |c| {
            let stored = customer_db::customer(c, org, id)?;
            let terms = CreditTerms { attention: stored.attention.clone(), credit_limit: Cents(stored.credit_limit) };
            let valid = rules::validate_customer_update(&input, role, &StoredCustomer { name: &stored.name, code: &stored.code, terms }).map_err(refused)?;
            check_staff(c, org, &valid.fields)?;
            let f = &valid.fields;
            let search = rules::customer_search_text(&stored.name, &stored.code, &f.phone, &f.email);
            let changes = CustomerChanges::new(f, search, db::now());
            if !customer_db::update_versioned(c, org, id, version, &changes, valid.credit_terms.as_ref())? {
                return Err(version_conflict());
            }
            customer_db::customer(c, org, id)
        })
        .await
}
