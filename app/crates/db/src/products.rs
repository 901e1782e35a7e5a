//! Products: reads, the Item Key search (tyre sizes included), the list filters of
//! spec §2.4 and stock per product.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::refs::{Brand, Ref};
use super::DbConn;
use super::masters::Paged;
use super::search::like_escape;
use super::search::{self, Searchable};
use super::Backend;
use domain::limits::count_limit;
use domain::permissions::{Cost, Sight};
use super::schema::products;
use crate::error::AppResult;

/// A product as stored (prices in cents). Its cost and reference purchase price are
/// [`Cost`]s: the JSON answer adds them through a viewer's `Sight` (`ProductJson`).
#[derive(Queryable, Selectable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = products)]
pub struct Product {
    pub id: i64,
    pub code: String,
    #[serde(rename = "originCode")]
    pub origin_code: String,
    #[serde(rename = "helperCode")]
    pub helper_code: String,
    pub name: String,
    pub unit: String,
    pub comments: String,
    pub category: i32,
    #[serde(rename = "brand")]
    pub brand_id: Option<i64>,
    pub manufacturer: String,
    pub auto_parts_type: Option<i32>,
    pub tag1: String,
    pub tag2: String,
    pub tag3: String,
    pub tag4: String,
    pub show_for_shop: bool,
    pub material: i32,
    #[serde(rename = "tyreModel")]
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
    #[serde(rename = "offset")]
    pub wheel_offset: String,
    pub center_bore: String,
    pub bolt_pattern: String,
    #[serde(skip)]
    #[diesel(deserialize_as = i64)]
    pub cost_price: Cost,
    #[serde(rename = "standardPrice")]
    pub standard_price: i64,
    #[serde(rename = "specialPrice")]
    pub special_price: i64,
    #[serde(rename = "classAPrice")]
    pub class_a_price: i64,
    #[serde(rename = "classBPrice")]
    pub class_b_price: Option<i64>,
    #[serde(rename = "classCPrice")]
    pub class_c_price: Option<i64>,
    #[serde(rename = "classDPrice")]
    pub class_d_price: Option<i64>,
    #[serde(rename = "classEPrice")]
    pub class_e_price: Option<i64>,
    #[serde(skip)]
    #[diesel(deserialize_as = i64)]
    pub ref_pur: Cost,
    pub is_special: bool,
    pub is_clearance: bool,
    #[serde(rename = "stock_3rdP")]
    pub stock_3rd_party: i64,
    #[serde(rename = "xeroSent")]
    pub xero_sent: i32,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// The supplier it is usually bought from (purchase suggestions, issue 35).
    #[serde(rename = "preferredSupplierId")]
    pub preferred_supplier_id: Option<i64>,
    /// The preferred supplier's code for it.
    #[serde(rename = "supplierCode")]
    pub supplier_code: String,
    /// Stock held per warehouse and DOT code (issue 36).
    #[serde(rename = "dotTracked")]
    pub dot_tracked: bool,
}

/// A product as answered to one viewer: every field of [`Product`], and its cost and
/// reference purchase price only when the viewer's sight allows (absent otherwise).
#[derive(serde::Serialize, Clone, Debug)]
pub struct ProductJson {
    #[serde(flatten)]
    pub product: Product,
    #[serde(rename = "costPrice", skip_serializing_if = "Option::is_none")]
    pub cost_price: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ref_pur: Option<i64>,
    /// The price dialog's name for `show_for_shop` (spec §7's price call): one fact, one column.
    pub is_customer_show: bool,
}

impl ProductJson {
    /// `p` as `sight` may see it.
    pub fn new(product: Product, sight: Sight) -> Self {
        Self { cost_price: sight.cost(product.cost_price).map(|c| c.0), ref_pur: sight.cost(product.ref_pur).map(|c| c.0), is_customer_show: product.show_for_shop, product }
    }
}

/// A product of the organisation; another company's id is not found.
pub fn product(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Product> {
    Ok(products::table.filter(products::org_id.eq(org)).find(id).select(Product::as_select()).first(conn)?)
}

use chrono::NaiveDate;
use diesel::dsl::sql;
use diesel::sql_types::BigInt;

use super::schema::stocks;
use domain::dates::{DEFAULT_ZONE, Tz, days_utc};
use domain::enums::{ProductCategory, ProductSort, ProductSortKey, SortDirection, XeroState};
use domain::tyre_size;

/// What the Item Key box asks for: a tyre size (as its helper code) and/or words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ItemKey {
    pub size_key: Option<String>,
    pub words: Vec<String>,
}

impl ItemKey {
    /// Understands tyre sizes in any common spelling (`2055516`, `205/55R16`, `205 55 16` …);
    /// a load/speed index after the size and any other words narrow the match.
    pub fn parse(raw: &str) -> Self {
        let raw = raw.trim();
        if let Some((size, rest)) = tyre_size::parse_query(raw) {
            let mut words: Vec<String> = rest.split_whitespace().map(str::to_lowercase).collect();
            if let Some(sd) = size.service_description() {
                words.push(sd.to_lowercase());
            }
            return Self { size_key: Some(size.helper_code()), words };
        }
        Self { size_key: None, words: raw.split_whitespace().map(str::to_lowercase).collect() }
    }
}

/// Filters of the product list (spec §2.4), already cleaned of dropped values.
#[derive(serde::Deserialize, Debug, Clone, Default)]
pub struct ProductFilter {
    pub key: Option<String>,
    pub brand: Option<i64>,
    pub category: Option<i32>,
    pub tag2: Option<String>,
    pub tag3: Option<String>,
    pub location: Option<String>,
    /// `created` or `modified`: which date the range applies to.
    pub date_type: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub sort: Option<i32>,
    /// `unsent`, `sent` or `fail`.
    pub xero: Option<String>,
    /// Only what the customer shop shows: products shown to customers, of brands presented
    /// to customers. Set by the shop, never from a query string.
    #[serde(skip)]
    pub shop_only: bool,
    /// The company's zone: the days `from` and `to` run midnight to midnight there. Set by
    /// the caller ([`Self::in_zone`]), never from a query string.
    #[serde(skip)]
    pub zone: Option<Tz>,
}

impl ProductFilter {
    /// The filter in the company's `zone`.
    pub fn in_zone(self, zone: Tz) -> Self {
        Self { zone: Some(zone), ..self }
    }

    /// The zone the dates are read in (Sydney when the caller gave none).
    pub fn zone(&self) -> Tz {
        self.zone.unwrap_or(DEFAULT_ZONE)
    }
}

impl domain::validate::ListedValues for ProductFilter {
    fn unlisted(&self) -> std::collections::BTreeMap<String, String> {
        use domain::validate::{listed_code, listed_word};
        let mut e = std::collections::BTreeMap::new();
        listed_code(&mut e, "category", self.category, ProductCategory::from_i32);
        listed_code(&mut e, "sort", self.sort, ProductSort::from_i32);
        listed_word(&mut e, "date_type", self.date_type.as_deref(), &["created", "modified"]);
        // Checked by the reader the list query uses, so the two cannot differ.
        domain::validate::listed_if(&mut e, "xero", self.xero.as_deref(), |v| crate::products::xero_state(Some(v)).is_some());
        e
    }
}

type BoxedProducts<'a> = products::BoxedQuery<'a, crate::multi_connection_impl::MultiBackend>;

/// The words of an Item Key with what the text index found for each, looked up before the
/// list query: a word matching few products drives the query by their ids; a word matching
/// many only filters a page walked in list order (see `search::few` and `search::filters`).
struct Words {
    backend: Backend,
    /// A tyre size in the key, as its helper code (exact index).
    size_key: Option<String>,
    words: Vec<(String, Option<Vec<i64>>)>,
}

/// A word matching at most this many products (of all companies) drives the list by id.
const FEW_PRODUCTS: i64 = 200;

fn words(conn: &mut DbConn, f: &ProductFilter) -> AppResult<Words> {
    let key = f.key.as_deref().map(ItemKey::parse).unwrap_or_default();
    let mut words = Vec::with_capacity(key.words.len());
    for w in key.words {
        let few = search::few(conn, Searchable::Products, &w, FEW_PRODUCTS)?;
        words.push((w, few));
    }
    Ok(Words { backend: conn.backend(), size_key: key.size_key, words })
}

/// What a query wants from the word filters: a count enumerates the matches; a page wants
/// them in list order; a sort finds every match through the text index and sorts them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Count,
    Page,
    Sort,
}

fn filtered(m: &Words, org: i64, f: &ProductFilter, purpose: Use) -> BoxedProducts<'static> {
    let mut q = if purpose == Use::Sort && m.backend == Backend::Sqlite {
        // Every product index starts with the company, and SQLite, its statistics stale after
        // an import, may walk the company's products in one of them checking each against the
        // matches. Unary plus leaves it only the matches' ids to look up.
        products::table.filter(diesel::dsl::sql::<diesel::sql_types::Bool>("+products.org_id = ").bind::<diesel::sql_types::BigInt, _>(org)).into_boxed()
    } else {
        products::table.filter(products::org_id.eq(org)).into_boxed()
    };
    if let Some(size) = &m.size_key {
        q = q.filter(products::size_key.eq(size.clone()));
    }
    for (w, few) in &m.words {
        q = match (few, purpose) {
            (Some(ids), _) => q.filter(products::id.eq_any(ids.clone())),
            (None, Use::Count | Use::Sort) => q.filter(search::contains(m.backend, Searchable::Products, w)),
            (None, Use::Page) => q.filter(search::filters(m.backend, Searchable::Products, w)),
        };
    }
    if let Some(b) = f.brand {
        q = q.filter(products::brand_id.eq(b));
    }
    if f.shop_only {
        use super::schema::brands;
        let presented = brands::table.filter(brands::org_id.eq(org)).filter(brands::presented_to_csr.eq(true)).select(brands::id.nullable());
        q = q.filter(products::show_for_shop.eq(true)).filter(products::brand_id.eq_any(presented));
    }
    if let Some(cat) = f.category.and_then(ProductCategory::from_i32) {
        let path = cat.path();
        q = q.filter(products::tag1.eq(path.clone()).or(products::tag1.like(format!("{}/%", like_escape(&path))).escape('\\')));
    }
    if let Some(t) = f.tag2.as_deref() {
        q = q.filter(products::tag2.eq(t.to_string()));
    }
    if let Some(t) = f.tag3.as_deref() {
        q = q.filter(products::tag3.eq(t.to_string()));
    }
    if let Some(loc) = f.location.as_deref() {
        q = q.filter(products::tag4.like(format!("%{}%", like_escape(loc.trim()))).escape('\\'));
    }
    let modified = f.date_type.as_deref() == Some("modified");
    let (from, to) = days_utc(f.from, f.to, f.zone());
    if let Some(t) = from {
        q = if modified { q.filter(products::updated_at.ge(t)) } else { q.filter(products::created_at.ge(t)) };
    }
    if let Some(t) = to {
        q = if modified { q.filter(products::updated_at.lt(t)) } else { q.filter(products::created_at.lt(t)) };
    }
    if let Some(x) = xero_state(f.xero.as_deref()) {
        q = q.filter(products::xero_sent.eq(x.as_i32()));
    }
    q
}

/// The accounting-sync filter values (`unsent`, `sent`, `fail`); `0` would be dropped as empty.
pub fn xero_state(v: Option<&str>) -> Option<XeroState> {
    match v? {
        "unsent" => Some(XeroState::Unsent),
        "sent" => Some(XeroState::Sent),
        "fail" => Some(XeroState::Fail),
        _ => None,
    }
}

fn sorted(q: BoxedProducts<'static>, sort: Option<i32>) -> BoxedProducts<'static> {
    match sort.and_then(ProductSort::from_i32).and_then(ProductSort::order) {
        Some((ProductSortKey::Code, SortDirection::Desc)) => q.order((products::code.desc(), products::id.desc())),
        Some((ProductSortKey::Code, SortDirection::Asc)) => q.order((products::code.asc(), products::id.asc())),
        Some((ProductSortKey::Created, SortDirection::Desc)) => q.order((products::created_at.desc(), products::id.desc())),
        Some((ProductSortKey::Created, SortDirection::Asc)) => q.order((products::created_at.asc(), products::id.asc())),
        Some((ProductSortKey::Modified, SortDirection::Desc)) => q.order((products::updated_at.desc(), products::id.desc())),
        Some((ProductSortKey::Modified, SortDirection::Asc)) => q.order((products::updated_at.asc(), products::id.asc())),
        None => q.order((products::code.asc(), products::id.asc())),
    }
}

/// A word search matching at most this many products sorts all its matches for a page (see
/// [`list`]).
const SORTED_MATCHES: i64 = 5_000;

/// One page of the product list.
///
/// A page normally walks the list's order and keeps the matching products, which stops after
/// a page when matches are spread through that order. They often are not: a brand's codes lie
/// together ('michelin': 9,600 products walked for a page of 20 at scale L on PostgreSQL),
/// and an import of 100,000 products whose codes sort first puts them all before the tyres
/// ('r16': 100,504 rows walked on SQLite, issue 38). So a word search that matches few enough
/// products finds them all through the text index, sorts them and reads the page's rows by
/// id: the cost follows the number of matches, not where they sit in the order.
/// One statement finds, counts and sorts them ([`matches_page`]); SQLite first asks the FTS5
/// index whether a word has at most [`SORTED_MATCHES`] matches (of every company), which is
/// cheap, and PostgreSQL tries it for any word search. Measured in SQL at L: r16 after that
/// import 7.8 ms walking → 2.8 ms on SQLite; michelin 13.5 ms (count and walk) → 4.3 ms on
/// PostgreSQL (docs/decisions/queries.md). Words with more matches are counted and keep the
/// walk, which then soon finds a page.
/// `order_sql` must list the same order as [`sorted`]; `tests/http/operations/search.rs`
/// compares every sort's pages with one ordered query.
pub fn list(conn: &mut DbConn, org: i64, f: &ProductFilter, offset: i64, limit: i64) -> AppResult<Paged<Product>> {
    let m = words(conn, f)?;
    if few_matches(conn, &m)? {
        if let Some(page) = sorted_matches(conn, &m, org, f, offset, limit)? {
            return Ok(page);
        }
    }
    let total = count(conn, &m, org, f, offset)?;
    if total <= offset {
        return Ok(Paged { rows: Vec::new(), total });
    }
    let rows = walk(&m, org, f).offset(offset).limit(limit).select(Product::as_select()).load(conn)?;
    Ok(Paged { rows, total })
}

/// How many products match, counting up to the cap past `offset`.
fn count(conn: &mut DbConn, m: &Words, org: i64, f: &ProductFilter, offset: i64) -> AppResult<i64> {
    Ok(super::CountOf(filtered(m, org, f, Use::Count).select(products::id).limit(count_limit(offset))).get_result(conn)?)
}

/// Whether the search's matches may be few enough to sort. SQLite: one of the key's words has
/// at most [`SORTED_MATCHES`] matches in the text index. PostgreSQL's trigram index has no
/// such cheap answer: any word search tries, and the sorted statement says if there were more.
fn few_matches(conn: &mut DbConn, m: &Words) -> AppResult<bool> {
    if m.backend == Backend::Postgres {
        return Ok(!m.words.is_empty());
    }
    for (w, few) in &m.words {
        if few.is_some() || search::few(conn, Searchable::Products, w, SORTED_MATCHES)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The list's order, walked and filtered.
fn walk(m: &Words, org: i64, f: &ProductFilter) -> BoxedProducts<'static> {
    sorted(filtered(m, org, f, Use::Page), f.sort)
}

type MatchesPage = super::SortedPage<diesel::dsl::Select<BoxedProducts<'static>, (products::id, products::code, products::created_at, products::updated_at)>>;

/// The statement that finds every match (at most one more than [`SORTED_MATCHES`]), sorts
/// them and answers a page of their ids, each with the number found, so no count is made.
/// The `LIMIT` inside keeps the matches a query of their own: without it PostgreSQL pulled
/// them up into a walk of the company's products in code order (9,600 rows for a page of
/// 'michelin' at L).
fn matches_page(m: &Words, org: i64, f: &ProductFilter, offset: i64, limit: i64) -> MatchesPage {
    let matching = filtered(m, org, f, Use::Sort).select((products::id, products::code, products::created_at, products::updated_at)).limit(SORTED_MATCHES + 1);
    super::SortedPage { query: matching, order: order_sql(f.sort), offset, limit }
}

/// A page of the matches sorted after they are all found, and their number; `None` when more
/// than [`SORTED_MATCHES`] match, or none lie on the page (then the count says how many do).
fn sorted_matches(conn: &mut DbConn, m: &Words, org: i64, f: &ProductFilter, offset: i64, limit: i64) -> AppResult<Option<Paged<Product>>> {
    let page: Vec<(i64, i64)> = matches_page(m, org, f, offset, limit).load(conn)?;
    let total = match page.first() {
        Some(&(_, total)) if total <= SORTED_MATCHES => total,
        _ => return Ok(None),
    };
    let ids: Vec<i64> = page.into_iter().map(|(id, _)| id).collect();
    let mut rows = products::table.filter(products::org_id.eq(org)).filter(products::id.eq_any(&ids)).select(Product::as_select()).load::<Product>(conn)?;
    rows.sort_by_key(|p| ids.iter().position(|id| *id == p.id));
    Ok(Some(Paged { rows, total }))
}

/// The order of [`sorted`] over the columns of a derived table.
fn order_sql(sort: Option<i32>) -> &'static str {
    match sort.and_then(ProductSort::from_i32).and_then(ProductSort::order) {
        Some((ProductSortKey::Code, SortDirection::Desc)) => "code DESC, id DESC",
        Some((ProductSortKey::Created, SortDirection::Desc)) => "created_at DESC, id DESC",
        Some((ProductSortKey::Created, SortDirection::Asc)) => "created_at, id",
        Some((ProductSortKey::Modified, SortDirection::Desc)) => "updated_at DESC, id DESC",
        Some((ProductSortKey::Modified, SortDirection::Asc)) => "updated_at, id",
        Some((ProductSortKey::Code, SortDirection::Asc)) | None => "code, id",
    }
}

/// How the backend runs the first page of [`list`]: the sorted matches, or the walk (tests pin
/// the index that drives it).
pub fn list_plan(conn: &mut DbConn, org: i64, f: &ProductFilter) -> AppResult<Vec<String>> {
    let m = words(conn, f)?;
    if few_matches(conn, &m)? {
        return super::plan(conn, matches_page(&m, org, f, 0, 20));
    }
    super::plan(conn, walk(&m, org, f).limit(20).select(Product::as_select()))
}

/// Every product matching the filter, in list order (the quoting and OCOP lookups, which
/// filter further in memory; exports read in chunks with [`for_each_chunk`]).
pub fn all_matching(conn: &mut DbConn, org: i64, f: &ProductFilter) -> AppResult<Vec<Product>> {
    let m = words(conn, f)?;
    Ok(walk(&m, org, f).select(Product::as_select()).load(conn)?)
}

/// On-hand stock summed over the organisation's warehouses, for the given products.
pub fn stock_totals(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<std::collections::HashMap<i64, i64>> {
    let mut out = std::collections::HashMap::new();
    // Chunks keep the IN list under the backends' parameter limits on big exports.
    for chunk in ids.chunks(5_000) {
        let rows: Vec<(i64, i64)> = stocks::table
            .filter(stocks::org_id.eq(org))
            .filter(stocks::product_id.eq_any(chunk))
            .group_by(stocks::product_id)
            .select((stocks::product_id, sql::<BigInt>("CAST(COALESCE(SUM(on_hand), 0) AS BIGINT)")))
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}

/// Distinct non-empty values of tag2 and tag3, for the filter selects.
pub fn tag_values(conn: &mut DbConn, org: i64) -> AppResult<(Vec<String>, Vec<String>)> {
    Ok((distinct_values(conn, org, "tag2")?, distinct_values(conn, org, "tag3")?))
}

#[derive(QueryableByName)]
struct Value {
    #[diesel(sql_type = diesel::sql_types::Text)]
    v: String,
}

/// The distinct non-empty values of a tag column of company `org`, in order, found by
/// skipping through its `(org_id, tag)` index from one value to the next: a few probes for a
/// handful of values instead of reading all 20,000 index entries as `DISTINCT` does, on every
/// product list page (1.6 ms → 0.14 ms per column on PostgreSQL at scale L under `EXPLAIN
/// ANALYZE`; the pages' rates are in docs/performance.md with their `tyredesk bench` command).
fn distinct_values(conn: &mut DbConn, org: i64, column: &'static str) -> AppResult<Vec<String>> {
    debug_assert!(matches!(column, "tag2" | "tag3"), "indexed tag columns only");
    let sql = format!(
        "WITH RECURSIVE t(v) AS (SELECT (SELECT MIN({column}) FROM products WHERE org_id = $1 AND {column} > '') \
         UNION ALL SELECT (SELECT MIN({column}) FROM products WHERE org_id = $1 AND {column} > t.v) FROM t WHERE t.v IS NOT NULL) \
         SELECT v FROM t WHERE v IS NOT NULL"
    );
    let rows: Vec<Value> = diesel::sql_query(sql).bind::<BigInt, _>(org).load(conn)?;
    Ok(rows.into_iter().map(|r| r.v).collect())
}

/// The code and average cost of some products of company `org`, by id (for the stock
/// ledger and its warnings); another company's are absent.
pub fn codes_and_costs(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<std::collections::HashMap<i64, (String, i64)>> {
    let mut found = std::collections::HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(super::CHUNK) {
        let rows: Vec<(i64, String, i64)> =
            products::table.filter(products::org_id.eq(org)).filter(products::id.eq_any(chunk)).select((products::id, products::code, products::cost_price)).load(conn)?;
        found.extend(rows.into_iter().map(|(id, code, cost)| (id, (code, cost))));
    }
    Ok(found)
}

/// Products by id list (API `ids=`), in the organisation only.
pub fn by_ids(conn: &mut DbConn, org: i64, ids: &[i64]) -> AppResult<Vec<Product>> {
    Ok(products::table.filter(products::org_id.eq(org)).filter(products::id.eq_any(ids)).order(products::code.asc()).select(Product::as_select()).load(conn)?)
}

use domain::masters::{ProductFields, ProductIdentity, ProductSearchKeys};

/// Columns set once when a product is created; they lock afterwards.
#[derive(Insertable)]
#[diesel(table_name = products)]
struct ProductKey<'a> {
    org_id: i64,
    code: &'a str,
    name: &'a str,
    category: i32,
    created_at: NaiveDateTime,
}

/// Columns written on create and on every update (never prices, code, name or kind).
#[derive(Insertable, AsChangeset, Debug, Clone)]
#[diesel(table_name = products, treat_none_as_null = true)]
pub struct ProductChanges {
    origin_code: String,
    helper_code: String,
    unit: String,
    comments: String,
    brand_id: Option<i64>,
    manufacturer: String,
    auto_parts_type: Option<i32>,
    tag1: String,
    tag2: String,
    tag3: String,
    tag4: String,
    show_for_shop: bool,
    material: i32,
    tyre_model: String,
    specification: String,
    diameter: String,
    patterns: String,
    width: String,
    load_rate: String,
    speed_rate: String,
    suggested: String,
    rim_diameter: String,
    rim_width: String,
    wheel_offset: String,
    center_bore: String,
    bolt_pattern: String,
    size_key: String,
    search_text: String,
    updated_at: NaiveDateTime,
}

impl ProductChanges {
    /// The row values of checked fields and their search keys.
    pub fn new(f: &ProductFields, brand: Ref<Brand>, keys: ProductSearchKeys, now: NaiveDateTime) -> Self {
        let s = &f.specs;
        Self {
            origin_code: f.origin_code.clone(),
            helper_code: f.helper_code.clone(),
            unit: f.unit.clone(),
            comments: f.comments.clone(),
            brand_id: Some(brand.id()),
            manufacturer: f.manufacturer.clone(),
            auto_parts_type: f.auto_parts_type.map(|a| a.as_i32()),
            tag1: f.category.path(),
            tag2: f.tag2.clone(),
            tag3: f.tag3.clone(),
            tag4: f.tag4.clone(),
            show_for_shop: f.show_for_shop,
            material: f.material.as_i32(),
            tyre_model: s.tyre_model.clone(),
            specification: s.specification.clone(),
            diameter: s.diameter.clone(),
            patterns: s.patterns.clone(),
            width: s.width.clone(),
            load_rate: s.load_rate.clone(),
            speed_rate: s.speed_rate.clone(),
            suggested: s.suggested.clone(),
            rim_diameter: s.rim_diameter.clone(),
            rim_width: s.rim_width.clone(),
            wheel_offset: s.wheel_offset.clone(),
            center_bore: s.center_bore.clone(),
            bolt_pattern: s.bolt_pattern.clone(),
            size_key: keys.size_key,
            search_text: keys.search_text,
            updated_at: now,
        }
    }
}

/// Inserts a product; returns its id. The raw diesel error is kept so a unique-code
/// violation can be told apart.
pub fn insert(conn: &mut DbConn, org: i64, id: &ProductIdentity, changes: &ProductChanges, now: NaiveDateTime) -> QueryResult<i64> {
    let key = ProductKey { org_id: org, code: &id.code, name: &id.name, category: id.kind.as_i32(), created_at: now };
    diesel::insert_into(products::table).values((&key, changes)).returning(products::id).get_result(conn)
}

/// Updates a product only if it still has `version`, raising the version; false when the
/// row changed meanwhile (or does not exist in the organisation).
pub fn update_versioned(conn: &mut DbConn, org: i64, id: i64, version: i32, changes: &ProductChanges) -> AppResult<bool> {
    let n = diesel::update(products::table.filter(products::id.eq(id)).filter(products::org_id.eq(org)).filter(products::version.eq(version)))
        .set((changes, products::version.eq(products::version + 1)))
        .execute(conn)?;
    Ok(n == 1)
}

/// Whether the item code is already used in the organisation.
pub fn code_taken(conn: &mut DbConn, org: i64, code: &str) -> AppResult<bool> {
    let n: i64 = products::table.filter(products::org_id.eq(org)).filter(products::code.eq(code)).count().get_result(conn)?;
    Ok(n > 0)
}

/// What a line import needs of a product found by its item code.
#[derive(Queryable, Clone, Debug)]
pub struct CodedProduct {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub unit: String,
    pub class_a_price: i64,
    #[diesel(deserialize_as = i64)]
    pub cost_price: Cost,
}

/// The company's products with one of `codes` (exact match), by code; chunked so any number
/// of codes stays under the bind-parameter limits.
pub fn by_codes(conn: &mut DbConn, org: i64, codes: &[String]) -> AppResult<std::collections::HashMap<String, CodedProduct>> {
    let mut out = std::collections::HashMap::with_capacity(codes.len());
    for chunk in codes.chunks(super::CHUNK) {
        let rows: Vec<CodedProduct> = products::table
            .filter(products::org_id.eq(org))
            .filter(products::code.eq_any(chunk))
            .select((products::id, products::code, products::name, products::unit, products::class_a_price, products::cost_price))
            .load(conn)?;
        out.extend(rows.into_iter().map(|p| (p.code.clone(), p)));
    }
    Ok(out)
}

diesel::define_sql_function! {
    /// SQL `lower()`: a code typed on a sheet line may differ from the stored one in case.
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

/// The ids of the company's products named by codes typed on sheet lines (issue 37), keyed
/// by the code as given: an exact match (indexed) first, then one differing only in letter
/// case, the lowest id when several do. A code naming none is absent.
pub fn ids_by_typed_codes(conn: &mut DbConn, org: i64, codes: &[String]) -> AppResult<std::collections::HashMap<String, i64>> {
    let mut out = std::collections::HashMap::with_capacity(codes.len());
    for chunk in codes.chunks(super::CHUNK) {
        let rows: Vec<(String, i64)> = products::table.filter(products::org_id.eq(org)).filter(products::code.eq_any(chunk)).select((products::code, products::id)).load(conn)?;
        out.extend(rows);
    }
    // The rest, letter case aside: one statement for them all (a form of 1,000 mistyped
    // codes reads the company's products once, not once a code).
    let rest: Vec<&String> = codes.iter().filter(|c| !out.contains_key(*c)).collect();
    let lowered: Vec<String> = rest.iter().map(|c| c.to_lowercase()).collect();
    let mut by_lower: std::collections::HashMap<String, i64> = std::collections::HashMap::new();
    for chunk in lowered.chunks(super::CHUNK) {
        let rows: Vec<(String, i64)> =
            products::table.filter(products::org_id.eq(org)).filter(lower(products::code).eq_any(chunk)).select((products::code, products::id)).order(products::id).load(conn)?;
        for (code, id) in rows {
            by_lower.entry(code.to_lowercase()).or_insert(id);
        }
    }
    for (code, low) in rest.into_iter().zip(&lowered) {
        if let Some(&id) = by_lower.get(low) {
            out.insert(code.clone(), id);
        }
    }
    Ok(out)
}

/// Visits every product matching the list filter, in list order, `chunk` products at a time
/// (exports). Keyset paging on the sort key and id.
pub fn for_each_chunk(conn: &mut DbConn, org: i64, f: &ProductFilter, chunk: usize, mut visit: impl FnMut(&mut DbConn, Vec<Product>) -> AppResult<()>) -> AppResult<()> {
    let order = f.sort.and_then(ProductSort::from_i32).and_then(ProductSort::order);
    let m = words(conn, f)?;
    let page = |c: &mut DbConn, after: Option<&Product>, limit: i64| -> AppResult<Vec<Product>> {
        let mut q = walk(&m, org, f);
        if let Some(last) = after {
            q = q.filter(after_product(order, last));
        }
        Ok(q.limit(limit).select(Product::as_select()).load(c)?)
    };
    super::keyset_chunks(conn, chunk, page, &mut visit)
}

/// The products after `last` in the order of [`sorted`].
fn after_product(order: Option<(ProductSortKey, SortDirection)>, last: &Product) -> super::Predicate<products::table> {
    use diesel::sql_types::{Text, Timestamp};
    let (id, desc) = (last.id, order.is_some_and(|(_, dir)| dir == SortDirection::Desc));
    match order {
        Some((ProductSortKey::Created, _)) => super::after_key::<_, Timestamp, _>("products.created_at", "products.id", desc, last.created_at, id),
        Some((ProductSortKey::Modified, _)) => super::after_key::<_, Timestamp, _>("products.updated_at", "products.id", desc, last.updated_at, id),
        Some((ProductSortKey::Code, _)) | None => super::after_key::<_, Text, _>("products.code", "products.id", desc, last.code.clone(), id),
    }
}

#[cfg(test)]
mod tests {
    use super::ItemKey;

    #[test]
    fn item_key_understands_every_size_spelling() {
        for q in ["2055516", "205/55R16", "205/55 R16", "205/55ZR16", "205 55 16", "205/55r16"] {
            assert_eq!(ItemKey::parse(q).size_key.as_deref(), Some("2055516"), "{q}");
        }
        let k = ItemKey::parse("205/55R16 91V michelin");
        assert_eq!(k.size_key.as_deref(), Some("2055516"));
        assert!(k.words.contains(&"91v".to_string()) && k.words.contains(&"michelin".to_string()), "{k:?}");
        let plain = ItemKey::parse("Primacy 4");
        assert_eq!(plain, ItemKey { size_key: None, words: vec!["primacy".into(), "4".into()] });
    }
}
