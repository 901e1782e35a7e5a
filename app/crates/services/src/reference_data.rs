//! Suppliers, warehouses and brands: create and update (role 4), each in one transaction with
//! the domain rules, the company-unique code or name, the version check and an audit row.
//! The `save_*` functions run inside a caller's transaction so Import Basic applies many rows
//! in one; the async wrappers are what the forms call.

use db::masters::{Brand, Supplier, Warehouse};
use db::reference_data::{self as store, AuditEntry};
use db::{self, DbConn};
use domain::enums::Role;
use domain::masters::require_version;
use domain::Actor;
use domain::permissions;
use domain::reference_data::{self as rules, BrandInput, SupplierInput, WarehouseInput, changes};
use domain::validate::FieldError;
use db::error::{AppError, AppResult};
use crate::masters::{invalid, version_conflict};
use crate::Core;

/// Refuses everyone `permissions::may_administer` does not name (403 with its one message).
pub fn only_approver(role: Role) -> AppResult<()> {
    permissions::check_administer(role).map_err(AppError::forbidden)
}

/// The audit row of `actor`'s change to `entity` (`id`, when it names one record).
pub fn audit_change(c: &mut DbConn, actor: &Actor, entity: &str, id: Option<i64>, action: &str, detail: String) -> AppResult<()> {
    store::audit(c, AuditEntry { org_id: actor.org_id, user_id: actor.user_id, entity, entity_id: id, action, detail }, db::now())
}

fn field(field: &'static str, message: &'static str) -> AppError {
    invalid(vec![FieldError { field, message }])
}

/// Creates (`id` None) or updates a supplier; returns its id.
pub fn save_supplier(c: &mut DbConn, admin: &Actor, id: Option<i64>, input: &SupplierInput) -> AppResult<i64> {
    let org = admin.org_id;
    let now = db::now();
    match id {
        None => {
            let f = rules::validate_supplier(input, None).map_err(invalid)?;
            if store::supplier_with_code(c, org, &f.code)?.is_some() {
                return Err(field("code", rules::SUPPLIER_CODE_TAKEN));
            }
            let id = store::insert_supplier(c, org, &f, now)?;
            audit_change(c, admin, "supplier", Some(id), "create", format!("{} {}", f.code, f.name))?;
            Ok(id)
        }
        Some(id) => {
            let version = require_version(input.version).map_err(|e| invalid(vec![e]))?;
            let stored = store::supplier(c, org, id)?;
            let f = rules::validate_supplier(input, Some(&stored.code)).map_err(invalid)?;
            if !store::update_supplier(c, org, id, version, &f, now)? {
                return Err(version_conflict());
            }
            let detail = changes(&[
                ("Name", stored.name, f.name.clone()),
                ("First name", stored.primary_person_first, f.primary_person_first.clone()),
                ("Last name", stored.primary_person_last, f.primary_person_last.clone()),
                ("E-mail", stored.email, f.email.clone()),
            ]);
            audit_change(c, admin, "supplier", Some(id), "update", detail)?;
            Ok(id)
        }
    }
}

/// Creates or updates a warehouse; returns its id.
pub fn save_warehouse(c: &mut DbConn, admin: &Actor, id: Option<i64>, input: &WarehouseInput) -> AppResult<i64> {
    let org = admin.org_id;
    let now = db::now();
    match id {
        None => {
            let f = rules::validate_warehouse(input, None).map_err(invalid)?;
            let mut errors = Vec::new();
            if store::warehouse_with_code(c, org, &f.code)?.is_some() {
                errors.push(FieldError { field: "code", message: rules::WAREHOUSE_CODE_TAKEN });
            }
            if store::warehouse_name_taken(c, org, &f.name, None)? {
                errors.push(FieldError { field: "name", message: rules::WAREHOUSE_NAME_TAKEN });
            }
            if !errors.is_empty() {
                return Err(invalid(errors));
            }
            let id = store::insert_warehouse(c, org, &f, now)?;
            audit_change(c, admin, "warehouse", Some(id), "create", format!("{} {}", f.code, f.name))?;
            Ok(id)
        }
        Some(id) => {
            let version = require_version(input.version).map_err(|e| invalid(vec![e]))?;
            let stored = store::warehouse(c, org, id)?;
            let f = rules::validate_warehouse(input, Some(&stored.code)).map_err(invalid)?;
            if store::warehouse_name_taken(c, org, &f.name, Some(id))? {
                return Err(field("name", rules::WAREHOUSE_NAME_TAKEN));
            }
            if !store::update_warehouse(c, org, id, version, &f, now)? {
                return Err(version_conflict());
            }
            let detail = changes(&[
                ("Name", stored.name, f.name.clone()),
                ("Address", stored.address, f.address.clone()),
                ("Counts for CSR orders", yes_no(stored.is_calc_for_csr_order), yes_no(f.is_calc_for_csr_order)),
            ]);
            audit_change(c, admin, "warehouse", Some(id), "update", detail)?;
            Ok(id)
        }
    }
}

/// Creates or updates a brand; returns its id.
pub fn save_brand(c: &mut DbConn, admin: &Actor, id: Option<i64>, input: &BrandInput) -> AppResult<i64> {
    let org = admin.org_id;
    let now = db::now();
    let f = rules::validate_brand(input).map_err(invalid)?;
    if store::brand_names(c, org)?.iter().any(|(other, name)| Some(*other) != id && rules::same_brand(name, &f.name)) {
        return Err(field("name", rules::BRAND_NAME_TAKEN));
    }
    match id {
        None => {
            let id = store::insert_brand(c, org, &f, now)?;
            audit_change(c, admin, "brand", Some(id), "create", f.name.clone())?;
            Ok(id)
        }
        Some(id) => {
            let version = require_version(input.version).map_err(|e| invalid(vec![e]))?;
            let stored = store::brand(c, org, id)?;
            if !store::update_brand(c, org, id, version, &f, now)? {
                return Err(version_conflict());
            }
            let detail = changes(&[("Name", stored.name, f.name.clone()), ("Presented to CSR", yes_no(stored.presented_to_csr), yes_no(f.presented_to_csr))]);
            audit_change(c, admin, "brand", Some(id), "update", detail)?;
            Ok(id)
        }
    }
}

fn yes_no(b: bool) -> String {
    if b { "Yes" } else { "No" }.to_string()
}

/// `save_supplier` in its own transaction, answering the saved supplier.
pub async fn supplier(core: &Core, actor: &Actor, id: Option<i64>, input: SupplierInput) -> AppResult<Supplier> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    core.db.write(move |c| save_supplier(c, &admin, id, &input).and_then(|id| store::supplier(c, admin.org_id, id))).await
}

pub async fn warehouse(core: &Core, actor: &Actor, id: Option<i64>, input: WarehouseInput) -> AppResult<Warehouse> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    core.db.write(move |c| save_warehouse(c, &admin, id, &input).and_then(|id| store::warehouse(c, admin.org_id, id))).await
}

pub async fn brand(core: &Core, actor: &Actor, id: Option<i64>, input: BrandInput) -> AppResult<Brand> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    core.db.write(move |c| save_brand(c, &admin, id, &input).and_then(|id| store::brand(c, admin.org_id, id))).await
}
