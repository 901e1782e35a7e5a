//! References that arrive from outside (forms, JSON, queries, uploads) and name a row.
//!
//! A handler wraps a raw id in [`Unchecked`]; its number cannot be read back. The only way to
//! use it is [`Unchecked::resolve`], which looks the row up inside the caller's company and
//! gives a [`Ref`]. So a service cannot write another company's id by forgetting a check:
//! the unscoped path does not compile. An id of another company answers exactly as an id that
//! does not exist: 422 with the field named.

use std::fmt;
use std::marker::PhantomData;

use diesel::dsl::exists;
use diesel::prelude::*;

use super::DbConn;
use super::schema::{brands, customers, memberships, orders, products, suppliers, warehouses};
use domain::enums::Role;
use domain::masters;
use crate::error::{AppError, AppResult};

/// A kind of row an outside id may name, with its company-scoped existence check.
pub trait Kind {
    /// The message beside the field when the id names nothing in the company.
    const NOT_FOUND: &'static str;
    /// Whether `id` names a row of this kind in company `org`.
    fn exists(conn: &mut DbConn, org: i64, id: i64) -> QueryResult<bool>;
}

/// An id as received; opaque until resolved in a company.
pub struct Unchecked<K> {
    id: i64,
    kind: PhantomData<K>,
}

/// An id proved to name a row of kind `K` in the caller's company.
pub struct Ref<K> {
    id: i64,
    kind: PhantomData<K>,
}

impl<K> Unchecked<K> {
    /// Wraps an id from outside.
    pub const fn new(id: i64) -> Self {
        Self { id, kind: PhantomData }
    }
}

impl<K: Kind> Unchecked<K> {
    /// Looks the id up in company `org`: `None` when it names nothing there.
    pub fn lookup(self, conn: &mut DbConn, org: i64) -> QueryResult<Option<Ref<K>>> {
        Ok(K::exists(conn, org, self.id)?.then(|| Ref::stored(self.id)))
    }

    /// Looks the id up in company `org`; 'not found' names `field`.
    pub fn resolve(self, conn: &mut DbConn, org: i64, field: &str) -> AppResult<Ref<K>> {
        self.lookup(conn, org)?.ok_or_else(|| AppError::field(field, K::NOT_FOUND))
    }
}

/// Resolves an optional reference.
pub fn resolve_opt<K: Kind>(conn: &mut DbConn, org: i64, id: Option<Unchecked<K>>, field: &str) -> AppResult<Option<Ref<K>>> {
    id.map(|u| u.resolve(conn, org, field)).transpose()
}

impl<K> Ref<K> {
    /// The id, for queries and writes.
    pub const fn id(self) -> i64 {
        self.id
    }
}

impl<K> Ref<K> {
    /// Only this module's lookups make a `Ref`.
    const fn stored(id: i64) -> Self {
        Self { id, kind: PhantomData }
    }
}

// Manual impls: derives would require `K: Clone` etc. of the marker types.
impl<K> Clone for Unchecked<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for Unchecked<K> {}
impl<K> fmt::Debug for Unchecked<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Unchecked(..)")
    }
}
impl<K> Clone for Ref<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for Ref<K> {}
impl<K> PartialEq for Ref<K> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl<K> Eq for Ref<K> {}
impl<K> fmt::Debug for Ref<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ref({})", self.id)
    }
}

macro_rules! table_kind {
    ($(#[$doc:meta])* $name:ident, $table:ident, $message:expr) => {
        $(#[$doc])*
        pub enum $name {}
        impl Kind for $name {
            const NOT_FOUND: &'static str = $message;
            fn exists(conn: &mut DbConn, org: i64, id: i64) -> QueryResult<bool> {
                diesel::select(exists($table::table.filter($table::org_id.eq(org)).filter($table::id.eq(id)))).get_result(conn)
            }
        }
    };
}

table_kind!(
    /// A warehouse.
    Warehouse, warehouses, "This warehouse does not exist in this company."
);
table_kind!(
    /// A customer.
    Customer, customers, "This customer does not exist in this company."
);
table_kind!(
    /// A supplier.
    Supplier, suppliers, "This supplier does not exist in this company."
);
table_kind!(
    /// A brand.
    Brand, brands, masters::UNKNOWN_BRAND
);
table_kind!(
    /// A product (purchase suggestions' levels and orders, issue 35).
    Product, products, "This product does not exist in this company."
);
table_kind!(
    /// A sheet (the related purchase order of a bill, say).
    Sheet, orders, "This sheet does not exist in this company."
);

fn has_role(conn: &mut DbConn, org: i64, user: i64, fits: fn(Role) -> bool) -> QueryResult<bool> {
    let role: Option<i32> = memberships::table.filter(memberships::org_id.eq(org)).filter(memberships::user_id.eq(user)).select(memberships::role).first(conn).optional()?;
    Ok(role.and_then(Role::from_i32).is_some_and(fits))
}

/// Business staff of the company (role 1), as a sheet's or customer's BD.
pub enum BusinessStaff {}
impl Kind for BusinessStaff {
    const NOT_FOUND: &'static str = masters::UNKNOWN_STAFF;
    fn exists(conn: &mut DbConn, org: i64, id: i64) -> QueryResult<bool> {
        has_role(conn, org, id, masters::fits_business_staff)
    }
}

/// Service staff of the company (roles 2–4), as a sheet's or customer's service staff.
pub enum ServiceStaff {}
impl Kind for ServiceStaff {
    const NOT_FOUND: &'static str = masters::UNKNOWN_STAFF;
    fn exists(conn: &mut DbConn, org: i64, id: i64) -> QueryResult<bool> {
        has_role(conn, org, id, masters::fits_service_staff)
    }
}

/// A driver of the company (role 6).
pub enum Driver {}
impl Kind for Driver {
    const NOT_FOUND: &'static str = "Choose a driver (staff with role 6).";
    fn exists(conn: &mut DbConn, org: i64, id: i64) -> QueryResult<bool> {
        has_role(conn, org, id, |r| r == Role::Driver)
    }
}
