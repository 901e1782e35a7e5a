//! Customers (CSR): reads, the list filters of spec §2.4 and the export query.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::refs::{BusinessStaff, Ref, ServiceStaff};
use super::DbConn;
use super::masters::Paged;
use super::search::{self, Searchable};
use super::Backend;
use domain::limits::count_limit;
use super::schema::customers;
use crate::error::AppResult;

/// A customer (CSR) as stored.
#[derive(Queryable, Selectable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = customers)]
pub struct Customer {
    pub id: i64,
    pub name: String,
    pub code: String,
    #[serde(rename = "loginShop")]
    pub login_shop: bool,
    pub email: String,
    pub origin_code: String,
    pub attention: String,
    pub primary_person_first: String,
    pub primary_person_last: String,
    pub phone: String,
    pub mobile: String,
    pub skype: String,
    pub birthday: Option<chrono::NaiveDate>,
    pub note: String,
    pub website: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub postal: String,
    pub country: String,
    pub account: String,
    #[serde(rename = "creditLimit")]
    pub credit_limit: i64,
    #[serde(rename = "xeroBalance")]
    pub xero_balance: i64,
    pub is_supplier: bool,
    pub branch_flag: bool,
    #[serde(rename = "acceptsOldTyres")]
    pub accepts_old_tyres: bool,
    #[serde(rename = "priceType")]
    pub price_strategy: i32,
    pub payment_type: i32,
    pub area_type: i32,
    pub csr_level: i32,
    pub business_type: i32,
    pub default_ship_type: i32,
    pub bd_id: Option<i64>,
    pub cs_id: Option<i64>,
    #[serde(rename = "xeroSent")]
    pub xero_sent: i32,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A customer of the organisation; another company's id is not found.
pub fn customer(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Customer> {
    Ok(customers::table.filter(customers::org_id.eq(org)).find(id).select(Customer::as_select()).first(conn)?)
}

use chrono::NaiveDate;

use domain::dates::{DEFAULT_ZONE, Tz, days_utc};

/// Filters of the customer list (spec §2.4), already cleaned of dropped values.
#[derive(serde::Deserialize, Debug, Clone, Default)]
pub struct CustomerFilter {
    pub key: Option<String>,
    /// `created` or `modified`.
    pub date_type: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    /// `unsent`, `sent` or `fail`.
    pub xero: Option<String>,
    pub price_type: Option<i32>,
    pub business_type: Option<i32>,
    pub payment_type: Option<i32>,
    pub area_type: Option<i32>,
    /// Comma-separated ids (API `ids=`).
    pub ids: Option<String>,
    /// The company's zone: the days `from` and `to` run midnight to midnight there. Set by
    /// the caller ([`Self::in_zone`]), never from a query string.
    #[serde(skip)]
    pub zone: Option<Tz>,
}

impl CustomerFilter {
    /// The filter in the company's `zone`.
    pub fn in_zone(self, zone: Tz) -> Self {
        Self { zone: Some(zone), ..self }
    }

    /// The zone the dates are read in (Sydney when the caller gave none).
    pub fn zone(&self) -> Tz {
        self.zone.unwrap_or(DEFAULT_ZONE)
    }
}

impl domain::validate::ListedValues for CustomerFilter {
    fn unlisted(&self) -> std::collections::BTreeMap<String, String> {
        use domain::enums::{AreaType, BusinessType, PaymentType, PriceStrategy};
        use domain::validate::{listed_code, listed_word};
        let mut e = std::collections::BTreeMap::new();
        listed_word(&mut e, "date_type", self.date_type.as_deref(), &["created", "modified"]);
        // Checked by the reader the list query uses, so the two cannot differ.
        domain::validate::listed_if(&mut e, "xero", self.xero.as_deref(), |v| crate::products::xero_state(Some(v)).is_some());
        listed_code(&mut e, "price_type", self.price_type, PriceStrategy::from_i32);
        listed_code(&mut e, "business_type", self.business_type, BusinessType::from_i32);
        listed_code(&mut e, "payment_type", self.payment_type, PaymentType::from_i32);
        listed_code(&mut e, "area_type", self.area_type, AreaType::from_i32);
        e
    }
}

type BoxedCustomers<'a> = customers::BoxedQuery<'a, crate::multi_connection_impl::MultiBackend>;

fn filtered(backend: Backend, org: i64, f: &CustomerFilter) -> BoxedCustomers<'static> {
    let mut q = customers::table.filter(customers::org_id.eq(org)).into_boxed();
    if let Some(key) = f.key.as_deref() {
        for w in key.split_whitespace() {
            q = q.filter(search::contains(backend, Searchable::Customers, &w.to_lowercase()));
        }
    }
    let modified = f.date_type.as_deref() == Some("modified");
    let (from, to) = days_utc(f.from, f.to, f.zone());
    if let Some(t) = from {
        q = if modified { q.filter(customers::updated_at.ge(t)) } else { q.filter(customers::created_at.ge(t)) };
    }
    if let Some(t) = to {
        q = if modified { q.filter(customers::updated_at.lt(t)) } else { q.filter(customers::created_at.lt(t)) };
    }
    if let Some(x) = super::products::xero_state(f.xero.as_deref()) {
        q = q.filter(customers::xero_sent.eq(x.as_i32()));
    }
    if let Some(v) = f.price_type {
        q = q.filter(customers::price_strategy.eq(v));
    }
    if let Some(v) = f.business_type {
        q = q.filter(customers::business_type.eq(v));
    }
    if let Some(v) = f.payment_type {
        q = q.filter(customers::payment_type.eq(v));
    }
    if let Some(v) = f.area_type {
        q = q.filter(customers::area_type.eq(v));
    }
    if let Some(ids) = f.ids.as_deref() {
        let ids: Vec<i64> = ids.split(',').filter_map(|s| s.trim().parse().ok()).collect();
        q = q.filter(customers::id.eq_any(ids));
    }
    q
}

/// One page of the customer list, by name.
pub fn list(conn: &mut DbConn, org: i64, f: &CustomerFilter, offset: i64, limit: i64) -> AppResult<Paged<Customer>> {
    let total = super::CountOf(filtered(conn.backend(), org, f).select(customers::id).limit(count_limit(offset))).get_result(conn)?;
    let rows = filtered(conn.backend(), org, f).order((customers::name.asc(), customers::id.asc())).offset(offset).limit(limit).select(Customer::as_select()).load(conn)?;
    Ok(Paged { rows, total })
}

use domain::masters::{CreditTerms, CustomerFields, CustomerIdentity};

/// Columns set once when a customer is created; they lock afterwards.
#[derive(Insertable)]
#[diesel(table_name = customers)]
struct CustomerKey<'a> {
    org_id: i64,
    name: &'a str,
    code: &'a str,
    created_at: NaiveDateTime,
}

/// Columns written on create and on every update (not name, ABN or credit terms).
#[derive(Insertable, AsChangeset, Debug, Clone)]
#[diesel(table_name = customers, treat_none_as_null = true)]
pub struct CustomerChanges {
    login_shop: bool,
    email: String,
    origin_code: String,
    primary_person_first: String,
    primary_person_last: String,
    phone: String,
    mobile: String,
    skype: String,
    birthday: Option<NaiveDate>,
    note: String,
    website: String,
    address: String,
    city: String,
    state: String,
    postal: String,
    country: String,
    account: String,
    is_supplier: bool,
    branch_flag: bool,
    accepts_old_tyres: bool,
    price_strategy: i32,
    payment_type: i32,
    area_type: i32,
    business_type: i32,
    default_ship_type: i32,
    bd_id: Option<i64>,
    cs_id: Option<i64>,
    search_text: String,
    updated_at: NaiveDateTime,
}

/// A customer's business and service staff, resolved in the company.
#[derive(Clone, Copy, Debug, Default)]
pub struct Staff {
    pub business: Option<Ref<BusinessStaff>>,
    pub service: Option<Ref<ServiceStaff>>,
}

impl Customer {
    /// The primary person's name, as lists and exports show it.
    pub fn contact_name(&self) -> String {
        format!("{} {}", self.primary_person_first, self.primary_person_last).trim().to_string()
    }
}

impl CustomerChanges {
    /// The row values of checked fields with the search text.
    pub fn new(f: &CustomerFields, staff: Staff, search_text: String, now: NaiveDateTime) -> Self {
        Self {
            login_shop: f.login_shop,
            email: f.email.clone(),
            origin_code: f.origin_code.clone(),
            primary_person_first: f.primary_person_first.clone(),
            primary_person_last: f.primary_person_last.clone(),
            phone: f.phone.clone(),
            mobile: f.mobile.clone(),
            skype: f.skype.clone(),
            birthday: f.birthday,
            note: f.note.clone(),
            website: f.website.clone(),
            address: f.address.clone(),
            city: f.city.clone(),
            state: f.state.clone(),
            postal: f.postal.clone(),
            country: f.country.clone(),
            account: f.account.clone(),
            is_supplier: f.is_supplier,
            branch_flag: f.branch_flag,
            accepts_old_tyres: f.accepts_old_tyres,
            price_strategy: f.price_strategy.as_i32(),
            payment_type: f.payment_type.as_i32(),
            area_type: f.area_type.as_i32(),
            business_type: f.business_type.as_i32(),
            default_ship_type: f.default_ship_type.as_i32(),
            bd_id: staff.business.map(Ref::id),
            cs_id: staff.service.map(Ref::id),
            search_text,
            updated_at: now,
        }
    }
}

/// Attention and credit limit, written only for approvers.
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = customers)]
struct TermsRow<'a> {
    attention: &'a str,
    credit_limit: i64,
}

/// Inserts a customer with its credit terms; returns its id.
pub fn insert(conn: &mut DbConn, org: i64, id: &CustomerIdentity, changes: &CustomerChanges, terms: &CreditTerms, now: NaiveDateTime) -> AppResult<i64> {
    let key = CustomerKey { org_id: org, name: &id.name, code: &id.code, created_at: now };
    let terms = TermsRow { attention: &terms.attention, credit_limit: terms.credit_limit.0 };
    Ok(diesel::insert_into(customers::table).values((&key, changes, &terms)).returning(customers::id).get_result(conn)?)
}

/// Updates a customer only if it still has `version`, raising the version and writing the
/// credit terms when given; false when the row changed meanwhile.
pub fn update_versioned(conn: &mut DbConn, org: i64, id: i64, version: i32, changes: &CustomerChanges, terms: Option<&CreditTerms>) -> AppResult<bool> {
    let target = customers::table.filter(customers::id.eq(id)).filter(customers::org_id.eq(org));
    let n = diesel::update(target.filter(customers::version.eq(version)))
        .set((changes, customers::version.eq(customers::version + 1)))
        .execute(conn)?;
    if n != 1 {
        return Ok(false);
    }
    if let Some(t) = terms {
        diesel::update(target).set(&TermsRow { attention: &t.attention, credit_limit: t.credit_limit.0 }).execute(conn)?;
    }
    Ok(true)
}

/// The company's customers named by one of `keys`, matched on the code (the ABN field) or,
/// failing that, the exact name; the lowest id wins where several match. Chunked.
pub fn ids_by_code_or_name(conn: &mut DbConn, org: i64, keys: &[String]) -> AppResult<std::collections::HashMap<String, i64>> {
    let mut by_code = std::collections::HashMap::new();
    let mut by_name = std::collections::HashMap::new();
    for chunk in keys.chunks(super::CHUNK) {
        let rows: Vec<(i64, String, String)> = customers::table
            .filter(customers::org_id.eq(org))
            .filter(customers::code.eq_any(chunk).or(customers::name.eq_any(chunk)))
            .order(customers::id.asc())
            .select((customers::id, customers::code, customers::name))
            .load(conn)?;
        for (id, code, name) in rows {
            by_code.entry(code).or_insert(id);
            by_name.entry(name).or_insert(id);
        }
    }
    Ok(keys.iter().filter_map(|k| by_code.get(k).or_else(|| by_name.get(k)).map(|id| (k.clone(), *id))).collect())
}

/// The company's customers whose code is one of `codes`, as (id, code); chunked.
pub fn ids_with_codes(conn: &mut DbConn, org: i64, codes: &[String]) -> AppResult<Vec<(i64, String)>> {
    let mut out = Vec::new();
    for chunk in codes.chunks(super::CHUNK) {
        out.extend(customers::table.filter(customers::org_id.eq(org)).filter(customers::code.eq_any(chunk)).order(customers::id.asc()).select((customers::id, customers::code)).load::<(i64, String)>(conn)?);
    }
    Ok(out)
}

/// Visits every customer matching the list filter, by name as the list shows them, `chunk`
/// customers at a time (exports). Keyset paging on name and id.
pub fn for_each_chunk(conn: &mut DbConn, org: i64, f: &CustomerFilter, chunk: usize, mut visit: impl FnMut(Vec<Customer>) -> AppResult<()>) -> AppResult<()> {
    let page = |c: &mut DbConn, after: Option<&Customer>, limit: i64| -> AppResult<Vec<Customer>> {
        let mut q = filtered(c.backend(), org, f).order((customers::name.asc(), customers::id.asc()));
        if let Some(last) = after {
            q = q.filter(super::after_key::<_, diesel::sql_types::Text, _>("customers.name", "customers.id", false, last.name.clone(), last.id));
        }
        Ok(q.limit(limit).select(Customer::as_select()).load(c)?)
    };
    super::keyset_chunks(conn, chunk, page, &mut |_, rows| visit(rows))
}
