//! Master data reads: suppliers, warehouses, brands, employees, area and payment types.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::DbConn;
use super::schema::{area_types, brands, memberships, payment_types, suppliers, users, warehouses};
use crate::error::AppResult;

#[derive(Queryable, Selectable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = suppliers)]
pub struct Supplier {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub primary_person_first: String,
    pub primary_person_last: String,
    pub guid: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub version: i32,
    /// Where purchase orders are e-mailed (issue 33).
    pub email: String,
    /// The currency it bills in (issue 35).
    pub currency: String,
    /// Days from ordering to arrival (issue 35), when known.
    pub lead_time_days: Option<i32>,
}

#[derive(Queryable, Selectable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = warehouses)]
pub struct Warehouse {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub address: String,
    pub is_calc_for_csr_order: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub version: i32,
}

#[derive(Queryable, Selectable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = brands)]
pub struct Brand {
    pub id: i64,
    pub name: String,
    pub presented_to_csr: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub version: i32,
}

/// A staff member of the organisation (a membership with its user).
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = users)]
pub struct Employee {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub phone: String,
    #[diesel(select_expression = memberships::role)]
    pub role: i32,
    pub status: i32,
    pub able_login: bool,
    /// Active in this company (the membership).
    #[diesel(select_expression = memberships::active)]
    pub is_active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    #[diesel(select_expression = memberships::mod_prc)]
    pub mod_prc: bool,
    #[diesel(select_expression = memberships::is_acct)]
    pub is_acct: bool,
    #[diesel(select_expression = memberships::crt_csr)]
    pub crt_csr: bool,
    /// May use the purchase suggestions (issue 35).
    #[diesel(select_expression = memberships::is_buyer)]
    pub is_buyer: bool,
}

/// A code/name pair of an organisation's enumeration table.
#[derive(Queryable, Clone, Debug, serde::Serialize)]
pub struct CodeName {
    #[serde(rename = "id")]
    pub code: i32,
    pub name: String,
}

/// One page of rows and the total count.
pub struct Paged<T> {
    pub rows: Vec<T>,
    pub total: i64,
}

pub fn suppliers_page(conn: &mut DbConn, org: i64, offset: i64, limit: i64) -> AppResult<Paged<Supplier>> {
    let total = suppliers::table.filter(suppliers::org_id.eq(org)).count().get_result(conn)?;
    let rows = suppliers::table
        .filter(suppliers::org_id.eq(org))
        .order((suppliers::name.asc(), suppliers::id.asc()))
        .offset(offset)
        .limit(limit)
        .select(Supplier::as_select())
        .load(conn)?;
    Ok(Paged { rows, total })
}

/// A supplier as the remote suggestion lists it (spec §7: id and name).
#[derive(Queryable, Clone, Debug, serde::Serialize)]
pub struct SupplierRef {
    pub id: i64,
    pub name: String,
}

/// Suppliers whose code or name contains every word of `name`, by name.
pub fn suppliers_by_name(conn: &mut DbConn, org: i64, name: &str, offset: i64, limit: i64) -> AppResult<Paged<SupplierRef>> {
    let backend = conn.backend();
    let filtered = || -> suppliers::BoxedQuery<'static, super::multi_connection_impl::MultiBackend> {
        let mut q = suppliers::table.filter(suppliers::org_id.eq(org)).into_boxed();
        for w in name.split_whitespace() {
            q = q.filter(super::search::contains(backend, super::search::Searchable::Suppliers, &w.to_lowercase()));
        }
        q
    };
    let total = filtered().count().get_result(conn)?;
    let rows = filtered()
        .order((suppliers::name.asc(), suppliers::id.asc()))
        .offset(offset)
        .limit(limit)
        .select((suppliers::id, suppliers::name))
        .load(conn)?;
    Ok(Paged { rows, total })
}

pub fn warehouses_page(conn: &mut DbConn, org: i64, offset: i64, limit: i64) -> AppResult<Paged<Warehouse>> {
    let total = warehouses::table.filter(warehouses::org_id.eq(org)).count().get_result(conn)?;
    let rows = warehouses::table
        .filter(warehouses::org_id.eq(org))
        .order(warehouses::id.asc())
        .offset(offset)
        .limit(limit)
        .select(Warehouse::as_select())
        .load(conn)?;
    Ok(Paged { rows, total })
}

pub fn all_warehouses(conn: &mut DbConn, org: i64) -> AppResult<Vec<Warehouse>> {
    Ok(warehouses::table.filter(warehouses::org_id.eq(org)).order(warehouses::id.asc()).select(Warehouse::as_select()).load(conn)?)
}

pub fn brands_page(conn: &mut DbConn, org: i64, offset: i64, limit: i64) -> AppResult<Paged<Brand>> {
    let total = brands::table.filter(brands::org_id.eq(org)).count().get_result(conn)?;
    let rows = brands::table
        .filter(brands::org_id.eq(org))
        .order((brands::name.asc(), brands::id.asc()))
        .offset(offset)
        .limit(limit)
        .select(Brand::as_select())
        .load(conn)?;
    Ok(Paged { rows, total })
}

pub fn all_brands(conn: &mut DbConn, org: i64) -> AppResult<Vec<Brand>> {
    Ok(brands::table.filter(brands::org_id.eq(org)).order(brands::name.asc()).select(Brand::as_select()).load(conn)?)
}

pub fn employees_page(conn: &mut DbConn, org: i64, offset: i64, limit: i64) -> AppResult<Paged<Employee>> {
    let total = memberships::table.filter(memberships::org_id.eq(org)).count().get_result(conn)?;
    let rows = memberships::table
        .inner_join(users::table)
        .filter(memberships::org_id.eq(org))
        .order((users::name.asc(), users::id.asc()))
        .offset(offset)
        .limit(limit)
        .select(Employee::as_select())
        .load(conn)?;
    Ok(Paged { rows, total })
}

pub fn all_employees(conn: &mut DbConn, org: i64) -> AppResult<Vec<Employee>> {
    Ok(memberships::table
        .inner_join(users::table)
        .filter(memberships::org_id.eq(org))
        .order((users::name.asc(), users::id.asc()))
        .select(Employee::as_select())
        .load(conn)?)
}

pub fn area_types(conn: &mut DbConn, org: i64) -> AppResult<Vec<CodeName>> {
    Ok(area_types::table
        .filter(area_types::org_id.eq(org))
        .order(area_types::code.asc())
        .select((area_types::code, area_types::name))
        .load(conn)?)
}

pub fn payment_types(conn: &mut DbConn, org: i64) -> AppResult<Vec<CodeName>> {
    Ok(payment_types::table
        .filter(payment_types::org_id.eq(org))
        .order(payment_types::code.asc())
        .select((payment_types::code, payment_types::name))
        .load(conn)?)
}

use super::schema::{customers, ocop_prices, organisations, products, stock_moves, stocks};

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = warehouses, treat_none_as_default_value = false)]
pub struct NewWarehouse {
    pub id: i64,
    pub org_id: i64,
    pub code: String,
    pub name: String,
    pub address: String,
    pub is_calc_for_csr_order: bool,
    pub is_branch: bool,
    pub is_third_party: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = brands, treat_none_as_default_value = false)]
pub struct NewBrand {
    pub id: i64,
    pub org_id: i64,
    pub name: String,
    pub presented_to_csr: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = area_types, treat_none_as_default_value = false)]
pub struct NewCodeName<'a> {
    pub org_id: i64,
    pub code: i32,
    pub name: &'a str,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = payment_types, treat_none_as_default_value = false)]
pub struct NewPaymentType<'a> {
    pub org_id: i64,
    pub code: i32,
    pub name: &'a str,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = suppliers, treat_none_as_default_value = false)]
pub struct NewSupplier {
    pub id: i64,
    pub org_id: i64,
    pub code: String,
    pub name: String,
    pub primary_person_first: String,
    pub primary_person_last: String,
    pub guid: String,
    pub search_text: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub email: String,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = customers, treat_none_as_default_value = false)]
pub struct NewCustomer {
    pub id: i64,
    pub org_id: i64,
    pub name: String,
    pub code: String,
    pub login_shop: bool,
    pub email: String,
    pub origin_code: String,
    pub attention: String,
    pub primary_person_first: String,
    pub primary_person_last: String,
    pub phone: String,
    pub mobile: String,
    pub note: String,
    pub website: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub postal: String,
    pub credit_limit: i64,
    pub xero_balance: i64,
    pub price_strategy: i32,
    pub payment_type: i32,
    pub area_type: i32,
    pub business_type: i32,
    pub default_ship_type: i32,
    pub bd_id: Option<i64>,
    pub cs_id: Option<i64>,
    pub xero_sent: i32,
    pub search_text: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = products, treat_none_as_default_value = false)]
pub struct NewProduct {
    pub id: i64,
    pub org_id: i64,
    pub code: String,
    pub origin_code: String,
    pub helper_code: String,
    pub name: String,
    pub unit: String,
    pub category: i32,
    pub brand_id: Option<i64>,
    pub manufacturer: String,
    pub auto_parts_type: Option<i32>,
    pub tag1: String,
    pub tag2: String,
    pub tag3: String,
    pub tag4: String,
    pub show_for_shop: bool,
    pub material: i32,
    pub tyre_model: String,
    pub specification: String,
    pub diameter: String,
    pub patterns: String,
    pub width: String,
    pub load_rate: String,
    pub speed_rate: String,
    pub rim_diameter: String,
    pub rim_width: String,
    pub wheel_offset: String,
    pub center_bore: String,
    pub bolt_pattern: String,
    pub cost_price: i64,
    pub standard_price: i64,
    pub special_price: i64,
    pub class_a_price: i64,
    pub ref_pur: i64,
    pub is_special: bool,
    pub is_clearance: bool,
    pub stock_3rd_party: i64,
    pub size_key: String,
    pub search_text: String,
    pub xero_sent: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = stocks, treat_none_as_default_value = false)]
pub struct NewStock {
    pub org_id: i64,
    pub warehouse_id: i64,
    pub product_id: i64,
    pub on_hand: i64,
    pub in_transit: i64,
    pub eta: Option<chrono::NaiveDate>,
    pub avg_cost: i64,
    pub updated_at: NaiveDateTime,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = stock_moves, treat_none_as_default_value = false)]
pub struct NewStockMove {
    pub org_id: i64,
    pub warehouse_id: i64,
    pub product_id: i64,
    pub order_id: Option<i64>,
    pub qty_delta: i64,
    pub in_transit_delta: i64,
    pub unit_cost: i64,
    pub reason: String,
    pub user_id: Option<i64>,
    pub created_at: NaiveDateTime,
    /// The DOT lot moved (issue 36); `None` for a product not tracked by DOT.
    pub dot: Option<i32>,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = ocop_prices, treat_none_as_default_value = false)]
pub struct NewOcopPrice {
    pub org_id: i64,
    pub customer_id: i64,
    pub product_id: i64,
    pub price: i64,
    pub updated_by: Option<i64>,
    pub updated_at: NaiveDateTime,
}

crate::batch_insert_fn!(insert_warehouses, warehouses::table, NewWarehouse);
crate::batch_insert_fn!(insert_brands, brands::table, NewBrand);
crate::batch_insert_fn!(insert_area_types, area_types::table, NewCodeName<'_>);
crate::batch_insert_fn!(insert_payment_types, payment_types::table, NewPaymentType<'_>);
crate::batch_insert_fn!(insert_suppliers, suppliers::table, NewSupplier);
crate::batch_insert_fn!(insert_customers, customers::table, NewCustomer);
crate::batch_insert_fn!(insert_products, products::table, NewProduct);
crate::batch_insert_fn!(insert_stocks, stocks::table, NewStock);
crate::batch_insert_fn!(insert_stock_moves, stock_moves::table, NewStockMove);
crate::batch_insert_fn!(insert_ocop_prices, ocop_prices::table, NewOcopPrice);

/// True when no organisation exists yet (demo data goes only into an empty database).
pub fn is_empty(conn: &mut DbConn) -> AppResult<bool> {
    let n: i64 = organisations::table.count().get_result(conn)?;
    Ok(n == 0)
}
