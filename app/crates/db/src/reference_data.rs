//! Writes of suppliers, warehouses and brands, each scoped by company and guarded by the
//! version the edit started from; and the audit log every administrative change writes.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::DbConn;
use super::masters::{Brand, Supplier, Warehouse};
use super::schema::{audit_log, brands, suppliers, users, warehouses};
use domain::reference_data::{BrandFields, SupplierFields, WarehouseFields};
use crate::error::{AppError, AppResult};

pub fn supplier(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Supplier> {
    suppliers::table.filter(suppliers::org_id.eq(org)).find(id).select(Supplier::as_select()).first(conn).optional()?.ok_or(AppError::NotFound)
}

pub fn warehouse(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Warehouse> {
    warehouses::table.filter(warehouses::org_id.eq(org)).find(id).select(Warehouse::as_select()).first(conn).optional()?.ok_or(AppError::NotFound)
}

pub fn brand(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Brand> {
    brands::table.filter(brands::org_id.eq(org)).find(id).select(Brand::as_select()).first(conn).optional()?.ok_or(AppError::NotFound)
}

/// The id of the company's supplier with this code.
pub fn supplier_with_code(conn: &mut DbConn, org: i64, code: &str) -> AppResult<Option<i64>> {
    Ok(suppliers::table.filter(suppliers::org_id.eq(org)).filter(suppliers::code.eq(code)).select(suppliers::id).first(conn).optional()?)
}

pub fn warehouse_with_code(conn: &mut DbConn, org: i64, code: &str) -> AppResult<Option<i64>> {
    Ok(warehouses::table.filter(warehouses::org_id.eq(org)).filter(warehouses::code.eq(code)).select(warehouses::id).first(conn).optional()?)
}

/// Whether another warehouse of the company has this name.
pub fn warehouse_name_taken(conn: &mut DbConn, org: i64, name: &str, except: Option<i64>) -> AppResult<bool> {
    let mut q = warehouses::table.filter(warehouses::org_id.eq(org)).filter(warehouses::name.eq(name)).into_boxed();
    if let Some(id) = except {
        q = q.filter(warehouses::id.ne(id));
    }
    Ok(q.count().get_result::<i64>(conn)? > 0)
}

/// Every brand of the company as (id, name), to compare names without case.
pub fn brand_names(conn: &mut DbConn, org: i64) -> AppResult<Vec<(i64, String)>> {
    Ok(brands::table.filter(brands::org_id.eq(org)).select((brands::id, brands::name)).load(conn)?)
}

pub fn insert_supplier(conn: &mut DbConn, org: i64, f: &SupplierFields, now: NaiveDateTime) -> AppResult<i64> {
    Ok(diesel::insert_into(suppliers::table)
        .values((
            suppliers::org_id.eq(org),
            suppliers::code.eq(&f.code),
            suppliers::name.eq(&f.name),
            suppliers::primary_person_first.eq(&f.primary_person_first),
            suppliers::primary_person_last.eq(&f.primary_person_last),
            suppliers::email.eq(&f.email),
            suppliers::currency.eq(&f.currency),
            suppliers::lead_time_days.eq(f.lead_time_days),
            suppliers::search_text.eq(f.search_text()),
            suppliers::created_at.eq(now),
            suppliers::updated_at.eq(now),
        ))
        .returning(suppliers::id)
        .get_result(conn)?)
}

/// Saves the supplier if it still has `version`; false when someone saved in between.
pub fn update_supplier(conn: &mut DbConn, org: i64, id: i64, version: i32, f: &SupplierFields, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(suppliers::table.filter(suppliers::org_id.eq(org)).filter(suppliers::id.eq(id)).filter(suppliers::version.eq(version)))
        .set((
            suppliers::name.eq(&f.name),
            suppliers::primary_person_first.eq(&f.primary_person_first),
            suppliers::primary_person_last.eq(&f.primary_person_last),
            suppliers::email.eq(&f.email),
            suppliers::currency.eq(&f.currency),
            suppliers::lead_time_days.eq(f.lead_time_days),
            suppliers::search_text.eq(f.search_text()),
            suppliers::updated_at.eq(now),
            suppliers::version.eq(suppliers::version + 1),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

pub fn insert_warehouse(conn: &mut DbConn, org: i64, f: &WarehouseFields, now: NaiveDateTime) -> AppResult<i64> {
    Ok(diesel::insert_into(warehouses::table)
        .values((
            warehouses::org_id.eq(org),
            warehouses::code.eq(&f.code),
            warehouses::name.eq(&f.name),
            warehouses::address.eq(&f.address),
            warehouses::is_calc_for_csr_order.eq(f.is_calc_for_csr_order),
            warehouses::is_branch.eq(false),
            warehouses::is_third_party.eq(false),
            warehouses::created_at.eq(now),
            warehouses::updated_at.eq(now),
        ))
        .returning(warehouses::id)
        .get_result(conn)?)
}

pub fn update_warehouse(conn: &mut DbConn, org: i64, id: i64, version: i32, f: &WarehouseFields, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(warehouses::table.filter(warehouses::org_id.eq(org)).filter(warehouses::id.eq(id)).filter(warehouses::version.eq(version)))
        .set((
            warehouses::name.eq(&f.name),
            warehouses::address.eq(&f.address),
            warehouses::is_calc_for_csr_order.eq(f.is_calc_for_csr_order),
            warehouses::updated_at.eq(now),
            warehouses::version.eq(warehouses::version + 1),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

pub fn insert_brand(conn: &mut DbConn, org: i64, f: &BrandFields, now: NaiveDateTime) -> AppResult<i64> {
    Ok(diesel::insert_into(brands::table)
        .values((brands::org_id.eq(org), brands::name.eq(&f.name), brands::presented_to_csr.eq(f.presented_to_csr), brands::created_at.eq(now), brands::updated_at.eq(now)))
        .returning(brands::id)
        .get_result(conn)?)
}

pub fn update_brand(conn: &mut DbConn, org: i64, id: i64, version: i32, f: &BrandFields, now: NaiveDateTime) -> AppResult<bool> {
    let n = diesel::update(brands::table.filter(brands::org_id.eq(org)).filter(brands::id.eq(id)).filter(brands::version.eq(version)))
        .set((brands::name.eq(&f.name), brands::presented_to_csr.eq(f.presented_to_csr), brands::updated_at.eq(now), brands::version.eq(brands::version + 1)))
        .execute(conn)?;
    Ok(n == 1)
}

// ---------------------------------------------------------------------------------------
// Audit log
// ---------------------------------------------------------------------------------------

/// One administrative change: who, when, what.
pub struct AuditEntry<'a> {
    pub org_id: i64,
    pub user_id: i64,
    pub entity: &'a str,
    pub entity_id: Option<i64>,
    pub action: &'a str,
    pub detail: String,
}

/// Writes an audit row, in the caller's transaction so it exists exactly when the change does.
pub fn audit(conn: &mut DbConn, e: AuditEntry<'_>, at: NaiveDateTime) -> AppResult<()> {
    diesel::insert_into(audit_log::table)
        .values((
            audit_log::org_id.eq(e.org_id),
            audit_log::user_id.eq(e.user_id),
            audit_log::at.eq(at),
            audit_log::entity.eq(e.entity),
            audit_log::entity_id.eq(e.entity_id),
            audit_log::action.eq(e.action),
            audit_log::detail.eq(&e.detail),
        ))
        .execute(conn)?;
    Ok(())
}

/// An audit row as the settings page lists it.
#[derive(Queryable, Clone, Debug)]
pub struct AuditRow {
    pub at: NaiveDateTime,
    pub user_name: String,
    pub entity: String,
    pub entity_id: Option<i64>,
    pub action: String,
    pub detail: String,
}

/// The company's latest audit rows, newest first.
pub fn recent_audit(conn: &mut DbConn, org: i64, limit: i64) -> AppResult<Vec<AuditRow>> {
    Ok(audit_log::table
        .inner_join(users::table)
        .filter(audit_log::org_id.eq(org))
        .order(audit_log::id.desc())
        .limit(limit)
        .select((audit_log::at, users::name, audit_log::entity, audit_log::entity_id, audit_log::action, audit_log::detail))
        .load(conn)?)
}
