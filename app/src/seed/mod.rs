//! Deterministic demo and benchmark data (`tyredesk seed --scale demo|S|M|L`).
//!
//! Every row gets an explicit id so sheets and lines can be written in large batches; the
//! same scale and anchor date always produce the same data.

pub mod catalogue;

use std::time::Instant;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use diesel::Connection;
use diesel::connection::TransactionManager;

use services::password;
use db::accounts::{self, NewMembership, NewUser, Organisation};
use db::masters::{self, NewBrand, NewCodeName, NewCustomer, NewOcopPrice, NewPaymentType, NewProduct, NewStock, NewStockMove, NewSupplier, NewWarehouse};
use db::orders::{self, NewEvent, NewLine, NewOrder, NewSequence};
use db::{DbConn, sync_sequences};
use domain::dates::{DEFAULT_ZONE, day_start_utc};
use domain::enums::{AreaType, OrderType, PaymentType, TaxType};
use domain::masters::{customer_search_text, product_search_keys};
use domain::money;
use db::error::{AppError, AppResult};
use catalogue::Rng;

/// How much data to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scale {
    /// Two small companies to click through.
    Demo,
    /// 10k sheets.
    #[value(name = "S")]
    S,
    /// 100k sheets.
    #[value(name = "M")]
    M,
    /// 20k products, 5k customers, 1M sheets, about 5M lines.
    #[value(name = "L")]
    L,
    /// Ten years of the largest wholesaler DESIGN §1 sizes: 3M sheets, about 15M lines.
    #[value(name = "XL")]
    XL,
}

struct Size {
    products: usize,
    customers: usize,
    sheets: usize,
    years: i64,
}

impl Scale {
    fn main_org(self) -> Size {
        match self {
            Scale::Demo => Size { products: 400, customers: 60, sheets: 320, years: 1 },
            Scale::S => Size { products: 5_000, customers: 1_000, sheets: 10_000, years: 2 },
            Scale::M => Size { products: 20_000, customers: 5_000, sheets: 100_000, years: 4 },
            Scale::L => Size { products: 20_000, customers: 5_000, sheets: 1_000_000, years: 10 },
            Scale::XL => Size { products: 20_000, customers: 5_000, sheets: 3_000_000, years: 10 },
        }
    }
}

/// Password of every demo account (DESIGN §11).
pub const DEMO_PASSWORD: &str = "tyredesk";
/// Demo API client (DESIGN §7).
pub const DEMO_CLIENT_ID: &str = "tyredesk-web";
pub const DEMO_CLIENT_SECRET: &str = "demo-secret";

/// A demo sign-in: e-mail, name, and (org, role, modPrc, isAcct, crtCSR) per company.
pub struct DemoAccount {
    pub email: &'static str,
    pub name: &'static str,
    pub memberships: &'static [(i64, i32, bool, bool, bool)],
}

/// The demo accounts of DESIGN §11, with the permission flags spread over them.
pub const DEMO_ACCOUNTS: &[DemoAccount] = &[
    DemoAccount { email: "business@demo.test", name: "Bella Business", memberships: &[(4, 1, false, false, false), (9, 1, false, false, false)] },
    DemoAccount { email: "sales@demo.test", name: "Sam Sales", memberships: &[(4, 2, false, false, true), (9, 2, false, false, true)] },
    DemoAccount { email: "service@demo.test", name: "Sienna Service", memberships: &[(4, 3, true, false, false), (9, 3, true, false, false)] },
    DemoAccount { email: "approver@demo.test", name: "Alex Approver", memberships: &[(4, 4, true, true, true), (9, 4, true, true, true)] },
    DemoAccount { email: "manager@demo.test", name: "Morgan Manager", memberships: &[(4, 4, true, false, false), (9, 4, true, false, false)] },
    DemoAccount { email: "warehouse@demo.test", name: "Wes Warehouse", memberships: &[(4, 5, false, false, false), (9, 5, false, false, false)] },
    DemoAccount { email: "driver@demo.test", name: "Dan Driver", memberships: &[(4, 6, false, false, false), (9, 6, false, false, false)] },
    DemoAccount { email: "multi@demo.test", name: "Mia Multi", memberships: &[(4, 2, false, false, false), (9, 4, true, true, true)] },
];

/// The sign-in lines printed at start-up.
pub fn demo_signins() -> String {
    let mut s = String::from("Demo sign-ins (password: tyredesk):\n");
    for a in DEMO_ACCOUNTS {
        let roles: Vec<String> = a.memberships.iter().map(|m| format!("org {} role {}", m.0, m.1)).collect();
        s.push_str(&format!("  {:<22} {}\n", a.email, roles.join(", ")));
    }
    s.push_str(&format!("API client: {DEMO_CLIENT_ID} / {DEMO_CLIENT_SECRET}\n"));
    s.push_str("Shop sign-ins at /shop (password: tyredesk):\n");
    for c in DEMO_SHOP_CUSTOMERS {
        s.push_str(&format!("  {:<22} org {} {}\n", c.email, c.org, c.about));
    }
    s
}

/// A demo customer who orders in the shop.
pub struct DemoShopCustomer {
    pub email: &'static str,
    pub org: i64,
    /// Whose prices they see: a price strategy, or an OCOP customer's own prices.
    pub ocop: bool,
    pub about: &'static str,
}

/// The demo's shop customers (issue 14): one on a price tier, one with OCOP prices.
pub const DEMO_SHOP_CUSTOMERS: &[DemoShopCustomer] = &[
    DemoShopCustomer { email: "shop@demo.test", org: 4, ocop: false, about: "(tier prices)" },
    DemoShopCustomer { email: "shop-ocop@demo.test", org: 4, ocop: true, about: "(OCOP prices)" },
];

/// Gives the demo shop customers their sign-in: the first customer of the company that
/// is not on OCOP, and the first with OCOP prices.
fn shop_customers(conn: &mut DbConn, hash: &str) -> AppResult<()> {
    use db::schema::{customers, ocop_prices};
    use diesel::prelude::*;
    for c in DEMO_SHOP_CUSTOMERS {
        let id: Option<i64> = if c.ocop {
            ocop_prices::table.filter(ocop_prices::org_id.eq(c.org)).order(ocop_prices::customer_id.asc()).select(ocop_prices::customer_id).first(conn).optional()?
        } else {
            customers::table.filter(customers::org_id.eq(c.org)).filter(customers::price_strategy.ne(6)).order(customers::id.asc()).select(customers::id).first(conn).optional()?
        };
        if let Some(id) = id {
            diesel::update(customers::table.find(id))
                .set((customers::email.eq(c.email), customers::login_shop.eq(true), customers::shop_password_hash.eq(hash), customers::shop_must_change.eq(false)))
                .execute(conn)?;
        }
    }
    Ok(())
}

/// Sheets per transaction at scales that commit as they go (M, L); S and Demo are written in
/// one transaction.
const SHEETS_PER_COMMIT: usize = 50_000;

/// Why seeding stopped.
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("the database already has data; seed only into an empty database")]
    NotEmpty,
    #[error("{0}; nothing was written")]
    RolledBack(String),
    #[error(
        "{cause}; {sheets} sheets had been committed, so the database holds part of the data set: \
         start again from an empty database (delete the SQLite file, or drop and create the PostgreSQL database)"
    )]
    Partial { cause: String, sheets: usize },
    #[error("the data set was written, but refreshing the planner's statistics failed: {0}; run ANALYZE on the database")]
    Statistics(String),
}

/// An error's whole story (an internal error's own `Display` hides its cause from web users).
fn cause(e: &AppError) -> String {
    match e {
        AppError::Internal(inner) => format!("{inner:#}"),
        other => other.to_string(),
    }
}

/// The tables that grow with the sheets, whose indexes a bulk load builds after the rows.
const SHEET_TABLES: [&str; 3] = ["orders", "order_lines", "order_events"];

/// Seeds an empty database; refuses one that already has data. Up to S everything is one
/// transaction; larger scales commit every [`SHEETS_PER_COMMIT`] sheets and, on SQLite,
/// checkpoint the write-ahead log after each commit so it stays small (docs/decisions/operations.md,
/// "Seeding at scale L"). Ends with `ANALYZE` so the planner knows the new data.
pub fn seed(conn: &mut DbConn, scale: Scale, today: NaiveDate) -> Result<(), SeedError> {
    seed_committing(conn, scale, today, (scale.main_org().sheets > SHEETS_PER_COMMIT).then_some(SHEETS_PER_COMMIT))
}

/// [`seed`], committing every `every` sheets (`None`: one transaction). Committing in
/// batches is the bulk load of M and larger (indexes, and on PostgreSQL foreign keys, made
/// after the rows); tests call it with small batches to prove both ways write the same.
pub fn seed_committing(conn: &mut DbConn, scale: Scale, today: NaiveDate, every: Option<usize>) -> Result<(), SeedError> {
    if !masters::is_empty(conn).map_err(|e| SeedError::RolledBack(cause(&e)))? {
        return Err(SeedError::NotEmpty);
    }
    let started = Instant::now();
    let mut commits = Commits { every, pending: 0, committed: 0 };
    // The data sets that commit as they go skip foreign key checks; Demo and S keep them, so
    // the tests still prove the generator's references right.
    // They also build the sheets' indexes after the load instead of row by row.
    let bulk = every.is_some();
    let mut deferred = None;
    let written = db::bulk_load(conn, bulk)
        .and_then(|()| if bulk { db::defer_indexes(conn, &SHEET_TABLES).map(|d| deferred = Some(d)) } else { Ok(()) })
        .and_then(|()| commits.begin(conn))
        .and_then(|()| write_all(conn, scale, today, &mut commits))
        .and_then(|()| commits.commit(conn));
    if let Err(e) = written {
        // The open transaction (if any) is rolled back; earlier commits stay, and so does the
        // schema: the indexes come back (a partial data set still needs them).
        let _ = <DbConn as Connection>::TransactionManager::rollback_transaction(conn);
        let mut cause = cause(&e);
        if let Some(Err(e)) = deferred.map(|d| d.restore(conn)) {
            cause = format!("{cause}; rebuilding the indexes failed too: {}", self::cause(&e));
        }
        let _ = db::bulk_load(conn, false);
        return Err(if commits.committed == 0 { SeedError::RolledBack(cause) } else { SeedError::Partial { cause, sheets: commits.committed } });
    }
    if let Some(Err(e)) = deferred.map(|d| d.restore(conn)) {
        let _ = db::bulk_load(conn, false);
        let cause = format!("building the indexes after the load failed: {}", cause(&e));
        return Err(SeedError::Partial { cause, sheets: commits.committed });
    }
    let finished = db::bulk_load(conn, false)
        .and_then(|()| db::analyze_all(conn))
        .and_then(|()| db::checkpoint(conn));
    finished.map_err(|e| SeedError::Statistics(cause(&e)))?;
    tracing::info!(?scale, elapsed_ms = started.elapsed().as_millis() as u64, "seeded");
    Ok(())
}

/// The transactions of one seed: one in all, or a new one every `every` sheets.
struct Commits {
    every: Option<usize>,
    /// Sheets written in the open transaction.
    pending: usize,
    /// Sheets committed so far.
    committed: usize,
}

impl Commits {
    fn begin(&mut self, conn: &mut DbConn) -> AppResult<()> {
        Ok(<DbConn as Connection>::TransactionManager::begin_transaction(conn)?)
    }

    fn commit(&mut self, conn: &mut DbConn) -> AppResult<()> {
        <DbConn as Connection>::TransactionManager::commit_transaction(conn)?;
        self.committed += std::mem::take(&mut self.pending);
        Ok(())
    }

    /// Counts written sheets; when a batch is full, commits it, checkpoints and begins the next.
    fn wrote(&mut self, conn: &mut DbConn, sheets: usize) -> AppResult<()> {
        self.pending += sheets;
        match self.every {
            Some(every) if self.pending >= every => {
                self.commit(conn)?;
                db::checkpoint(conn)?;
                self.begin(conn)
            }
            _ => Ok(()),
        }
    }
}

fn write_all(conn: &mut DbConn, scale: Scale, today: NaiveDate, commits: &mut Commits) -> AppResult<()> {
    let now = db::now();
    let hash = password::hash(DEMO_PASSWORD)?;
    insert_orgs(conn, now)?;
    let mut ids = IdGen::default();
    let staff = insert_users(conn, &hash, now)?;
    accounts::insert_client(conn, DEMO_CLIENT_ID, &hash_client_secret()?, "TyreDesk web and shop")?;
    for (org, size) in [(4, scale.main_org()), (9, Scale::Demo.main_org())] {
        seed_org(conn, &mut ids, org, &size, &staff, today, now, commits)?;
    }
    shop_customers(conn, &hash)?;
    sync_sequences(conn, &["warehouses", "brands", "suppliers", "customers", "products", "orders", "order_lines"])
}

fn hash_client_secret() -> AppResult<String> {
    Ok(password::hash(DEMO_CLIENT_SECRET)?)
}

fn insert_orgs(conn: &mut DbConn, now: NaiveDateTime) -> AppResult<()> {
    use db::schema::organisations;
    use diesel::prelude::*;
    let orgs = [
        Organisation {
            id: 4,
            name: "Southern Cross Tyres Pty Ltd".into(),
            abn: "53 004 085 616".into(),
            address_line1: "112 Princes Highway".into(),
            address_line2: "Tempe NSW 2044".into(),
            phone: "(02) 9558 4100".into(),
            email: "accounts@sctyres.example".into(),
            bank_account_name: "Southern Cross Tyres Pty Ltd".into(),
            bsb: "062-000".into(),
            bank_account: "1234 5678".into(),
            department_id: 4,
            logo: "/static/img/logo.svg".into(),
            website: "www.sctyres.example".into(),
            time_zone: "Australia/Sydney".into(),
            tier_b_bp: 500,
            tier_c_bp: 1000,
            tier_d_bp: 1500,
            tier_e_bp: 2000,
            created_at: now,
            updated_at: now,
            version: 1,
            overdue_guard_days: None,
            default_warehouse_id: None,
            quotation_valid_days: 7,
            dot_on_documents: false,
            shop_shows_dot: false,
            old_tyre_years: None,
        },
        Organisation {
            id: 9,
            name: "Harbour Wheel & Battery Co".into(),
            abn: "71 123 456 789".into(),
            address_line1: "8 Foundry Road".into(),
            address_line2: "Seven Hills NSW 2147".into(),
            phone: "(02) 9624 7700".into(),
            email: "office@harbourwheel.example".into(),
            bank_account_name: "Harbour Wheel & Battery Co".into(),
            bsb: "032-001".into(),
            bank_account: "8765 4321".into(),
            department_id: 9,
            logo: "/static/img/logo.svg".into(),
            website: "www.harbourwheel.example".into(),
            time_zone: "Australia/Sydney".into(),
            tier_b_bp: 500,
            tier_c_bp: 1000,
            tier_d_bp: 1500,
            tier_e_bp: 2000,
            created_at: now,
            updated_at: now,
            version: 1,
            overdue_guard_days: None,
            default_warehouse_id: None,
            quotation_valid_days: 7,
            dot_on_documents: false,
            shop_shows_dot: false,
            old_tyre_years: None,
        },
    ];
    diesel::insert_into(organisations::table).values(&orgs[0]).execute(conn)?;
    diesel::insert_into(organisations::table).values(&orgs[1]).execute(conn)?;
    Ok(())
}

/// Staff per organisation: (user id, role).
struct Staff {
    by_org: Vec<(i64, Vec<(i64, i32)>)>,
}

impl Staff {
    fn of(&self, org: i64) -> &[(i64, i32)] {
        self.by_org.iter().find(|(o, _)| *o == org).map(|(_, s)| s.as_slice()).unwrap_or(&[])
    }
    fn with_role(&self, org: i64, pred: impl Fn(i32) -> bool) -> Vec<i64> {
        self.of(org).iter().filter(|(_, r)| pred(*r)).map(|(id, _)| *id).collect()
    }
}

fn insert_users(conn: &mut DbConn, hash: &str, now: NaiveDateTime) -> AppResult<Staff> {
    let mut by_org: Vec<(i64, Vec<(i64, i32)>)> = vec![(4, vec![]), (9, vec![])];
    let mut add = |conn: &mut DbConn, email: &str, name: &str, phone: &str, ms: &[(i64, i32, bool, bool, bool)]| -> AppResult<()> {
        let id = accounts::insert_user(
            conn,
            &NewUser { email, name, phone, password_hash: hash, status: 1, able_login: true, is_active: true, created_at: now, updated_at: now },
        )?;
        for &(org, role, mod_prc, is_acct, crt_csr) in ms {
            accounts::insert_membership(conn, &NewMembership { user_id: id, org_id: org, role, mod_prc, is_acct, crt_csr, last_used_at: None, created_at: now })?;
            if let Some((_, list)) = by_org.iter_mut().find(|(o, _)| *o == org) {
                list.push((id, role));
            }
        }
        Ok(())
    };
    for a in DEMO_ACCOUNTS {
        add(conn, a.email, a.name, "0400 000 000", a.memberships)?;
    }
    // More staff and drivers so pickers and lists look like a real branch.
    let people = catalogue::people(16, 7);
    for (i, p) in people.iter().enumerate() {
        let org = if i % 2 == 0 { 4 } else { 9 };
        let role = match i % 8 {
            0 | 1 => 6,
            2 | 3 => 2,
            4 | 5 => 3,
            _ => 1,
        };
        let email = format!("{}.{}@staff.demo.test", p.first.to_lowercase(), p.last.to_lowercase()).replace(' ', "");
        let name = format!("{} {}", p.first, p.last);
        add(conn, &email, &name, &format!("04{:02} {:03} {:03}", i + 10, 100 + i * 7, 200 + i * 3), &[(org, role, false, false, false)])?;
    }
    Ok(Staff { by_org })
}

#[derive(Default)]
struct IdGen {
    warehouse: i64,
    brand: i64,
    supplier: i64,
    customer: i64,
    product: i64,
    order: i64,
    line: i64,
}

fn next(counter: &mut i64) -> i64 {
    *counter += 1;
    *counter
}

fn search_text(parts: &[&str]) -> String {
    parts.join(" ").to_lowercase()
}

/// The seed of the generator of the opening lots (issue 36).
const LOT_SEED: u64 = 0x0D07_2026;

/// Lots per statement when the opening lots go in (5 values each).
const LOTS_PER_INSERT: usize = 1_000;

/// A tyre's opening stock `on_hand` (> 0) in one warehouse as lots: 1–3 codes of the last six
/// years, mostly of the last two, and now and then a remainder of unknown code (stock from
/// before tracking). The quantities add up to `on_hand` exactly; each code once.
fn opening_lots(rng: &mut Rng, on_hand: i64, today: NaiveDate) -> Vec<(i32, i64)> {
    use chrono::Datelike;
    let unknown = if on_hand >= 3 && rng.chance(20) { rng.range_i64(1, on_hand / 3) } else { 0 };
    let known = on_hand - unknown;
    let codes = rng.range_i64(1, known.min(3));
    let mut dots: Vec<i32> = (0..codes)
        .map(|_| {
            let weeks = if rng.chance(70) { rng.range_i64(1, 104) } else { rng.range_i64(105, 312) };
            let made = (today - Duration::weeks(weeks)).iso_week();
            made.year() * 100 + i32::try_from(made.week()).unwrap_or(1)
        })
        .collect();
    dots.sort_unstable();
    dots.dedup();
    // Cut the known stock in as many parts as there are codes, each at least 1.
    let n = dots.len() as i64;
    let mut left = known;
    let mut out: Vec<(i32, i64)> = Vec::with_capacity(dots.len() + 1);
    for (i, dot) in dots.into_iter().enumerate() {
        let rest = n - 1 - i as i64;
        let qty = if rest == 0 { left } else { rng.range_i64(1, left - rest) };
        out.push((dot, qty));
        left -= qty;
    }
    if unknown > 0 {
        out.push((domain::dot::UNKNOWN, unknown));
    }
    out
}

#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
fn seed_org(conn: &mut DbConn, ids: &mut IdGen, org: i64, size: &Size, staff: &Staff, today: NaiveDate, now: NaiveDateTime, commits: &mut Commits) -> AppResult<()> {
    let mut rng = Rng::new(0x7172_6564 ^ org as u64);
    // Enumeration tables.
    let areas: Vec<NewCodeName> = AreaType::ALL.iter().map(|a| NewCodeName { org_id: org, code: a.as_i32(), name: a.label() }).collect();
    masters::insert_area_types(conn, &areas)?;
    let pays: Vec<NewPaymentType> = PaymentType::ALL.iter().map(|p| NewPaymentType { org_id: org, code: p.as_i32(), name: p.label() }).collect();
    masters::insert_payment_types(conn, &pays)?;

    let warehouses: Vec<NewWarehouse> = catalogue::warehouses()
        .into_iter()
        .enumerate()
        .map(|(i, w)| NewWarehouse {
            id: next(&mut ids.warehouse),
            org_id: org,
            code: w.code,
            name: w.name,
            address: w.address,
            is_calc_for_csr_order: w.is_calc_for_csr_order,
            is_branch: i == 1,
            is_third_party: !w.is_calc_for_csr_order,
            created_at: now,
            updated_at: now,
        })
        .collect();
    masters::insert_warehouses(conn, &warehouses)?;
    let own_wh: Vec<i64> = warehouses.iter().filter(|w| !w.is_third_party).map(|w| w.id).collect();
    // New sheets start in the company's first own warehouse (Settings › Default warehouse).
    accounts::set_default_warehouse(conn, org, own_wh.first().copied())?;

    let brands: Vec<NewBrand> = catalogue::brands()
        .into_iter()
        .map(|b| NewBrand { id: next(&mut ids.brand), org_id: org, name: b.name, presented_to_csr: b.presented_to_csr, created_at: now, updated_at: now })
        .collect();
    masters::insert_brands(conn, &brands)?;
    let brand_id = |name: &str| brands.iter().find(|b| b.name == name).map(|b| b.id);

    let suppliers: Vec<NewSupplier> = catalogue::suppliers(14, org as u64)
        .into_iter()
        .map(|s| NewSupplier {
            id: next(&mut ids.supplier),
            org_id: org,
            search_text: search_text(&[&s.code, &s.name]),
            // Demo addresses on a reserved domain (RFC 2606): a PO e-mail has somewhere to go.
            email: format!("orders@{}.example", s.code.to_lowercase().chars().filter(char::is_ascii_alphanumeric).collect::<String>()),
            code: s.code,
            name: s.name,
            primary_person_first: s.first,
            primary_person_last: s.last,
            guid: String::new(),
            created_at: now,
            updated_at: now,
        })
        .collect();
    masters::insert_suppliers(conn, &suppliers)?;

    let bds = staff.with_role(org, |r| r == 1);
    let css = staff.with_role(org, |r| (2..=4).contains(&r));
    let drivers = staff.with_role(org, |r| r == 6);
    let approvers = staff.with_role(org, |r| r == 4);
    let created_span = (size.years * 365).max(30);
    let customers: Vec<NewCustomer> = catalogue::customers(size.customers, org as u64 * 31)
        .into_iter()
        .map(|c| {
            let created = now - Duration::days(rng.range_i64(0, created_span));
            NewCustomer {
                id: next(&mut ids.customer),
                org_id: org,
                search_text: customer_search_text(&c.name, &c.code, &c.phone, &c.email),
                name: c.name,
                code: c.code,
                login_shop: rng.chance(30),
                email: c.email,
                origin_code: c.origin_code,
                attention: c.attention,
                primary_person_first: c.first,
                primary_person_last: c.last,
                phone: c.phone,
                mobile: c.mobile,
                note: c.note,
                website: c.website,
                address: c.address,
                city: c.city,
                state: c.state,
                postal: c.postal,
                credit_limit: c.credit_limit_cents,
                xero_balance: c.xero_balance_cents,
                price_strategy: c.price_strategy,
                payment_type: c.payment_type,
                area_type: c.area_type,
                business_type: c.business_type,
                default_ship_type: c.default_ship_type,
                bd_id: (!bds.is_empty()).then(|| *rng.pick(&bds)),
                cs_id: (!css.is_empty()).then(|| *rng.pick(&css)),
                xero_sent: if rng.chance(80) { 1 } else { 0 },
                created_at: created,
                // Modified after it was created, but never after the moment of seeding.
                updated_at: (created + Duration::days(rng.range_i64(0, 30))).min(now),
            }
        })
        .collect();
    masters::insert_customers(conn, &customers)?;

    let products: Vec<NewProduct> = catalogue::products(size.products, org as u64 * 17)
        .into_iter()
        .map(|p| {
            let created = now - Duration::days(rng.range_i64(0, created_span));
            let keys = product_search_keys(&p.code, &p.helper_code, &p.name, &p.origin_code);
            NewProduct {
                id: next(&mut ids.product),
                org_id: org,
                search_text: keys.search_text,
                size_key: keys.size_key,
                brand_id: brand_id(&p.brand),
                category: if p.is_virtual { 4 } else { 1 },
                code: p.code,
                origin_code: p.origin_code,
                helper_code: p.helper_code,
                name: p.name,
                unit: p.unit,
                manufacturer: p.manufacturer,
                auto_parts_type: p.auto_parts_type,
                tag1: p.category_path.to_string(),
                tag2: p.tag2,
                tag3: p.tag3,
                tag4: p.tag4,
                // One flag since issue 29: shown where the catalogue's two flags both say so.
                show_for_shop: p.show_for_shop && p.is_customer_show,
                material: p.material,
                tyre_model: p.tyre_model.unwrap_or_default(),
                specification: p.specification.unwrap_or_default(),
                diameter: p.diameter.unwrap_or_default(),
                patterns: p.patterns.unwrap_or_default(),
                width: p.width.unwrap_or_default(),
                load_rate: p.load_rate.unwrap_or_default(),
                speed_rate: p.speed_rate.unwrap_or_default(),
                rim_diameter: p.rim_diameter.unwrap_or_default(),
                rim_width: p.rim_width.unwrap_or_default(),
                wheel_offset: p.offset.unwrap_or_default(),
                center_bore: p.center_bore.unwrap_or_default(),
                bolt_pattern: p.bolt_pattern.unwrap_or_default(),
                cost_price: p.cost_cents,
                standard_price: p.standard_cents,
                special_price: p.special_cents,
                class_a_price: p.class_a_cents,
                ref_pur: p.ref_pur_cents,
                is_special: p.is_special,
                is_clearance: p.is_clearance,
                stock_3rd_party: if rng.chance(40) { rng.range_i64(0, 60) } else { 0 },
                xero_sent: if rng.chance(85) { 1 } else { 0 },
                created_at: created,
                updated_at: (created + Duration::days(rng.range_i64(0, 60))).min(now),
            }
        })
        .collect();
    masters::insert_products(conn, &products)?;
    // Tyres are tracked by DOT (issue 36). No stock is in yet, so this only marks them; their
    // opening stock comes in lots below.
    db::lots::track_tyres(conn, org)?;
    let tyre_paths: Vec<String> = domain::enums::ProductCategory::ALL.iter().filter(|c| c.is_tyre()).map(|c| c.path()).collect();
    // The lots have a generator of their own, so the rest of the demo data is what it was.
    let mut lot_rng = Rng::new(LOT_SEED ^ org.unsigned_abs());

    // Stock: every physical product in every own warehouse, some in transit with an ETA.
    let mut stocks = Vec::new();
    let mut moves = Vec::new();
    let mut lots: Vec<db::lots::LotDelta> = Vec::new();
    for p in products.iter().filter(|p| p.category == 1) {
        let tracked = tyre_paths.contains(&p.tag1);
        for &wh in &own_wh {
            let on_hand = if rng.chance(75) { rng.range_i64(1, 48) } else { 0 };
            let (in_transit, eta) = if rng.chance(12) { (rng.range_i64(4, 40), Some(today + Duration::days(rng.range_i64(3, 45)))) } else { (0, None) };
            stocks.push(NewStock { org_id: org, warehouse_id: wh, product_id: p.id, on_hand, in_transit, eta, avg_cost: p.cost_price, updated_at: now });
            if on_hand == 0 && in_transit == 0 {
                continue;
            }
            let opening = |qty_delta: i64, in_transit_delta: i64, dot: Option<i32>| NewStockMove {
                org_id: org,
                warehouse_id: wh,
                product_id: p.id,
                order_id: None,
                qty_delta,
                in_transit_delta,
                unit_cost: p.cost_price,
                reason: "Opening balance".into(),
                user_id: None,
                created_at: now,
                dot,
            };
            if !tracked || on_hand == 0 {
                moves.push(opening(on_hand, in_transit, None));
                continue;
            }
            // A ledger row per lot, the stock in transit on the first.
            for (i, (dot, qty)) in opening_lots(&mut lot_rng, on_hand, today).into_iter().enumerate() {
                moves.push(opening(qty, if i == 0 { in_transit } else { 0 }, Some(dot)));
                lots.push(db::lots::LotDelta { warehouse_id: wh, product_id: p.id, dot, qty });
            }
        }
    }
    masters::insert_stocks(conn, &stocks)?;
    masters::insert_stock_moves(conn, &moves)?;
    for chunk in lots.chunks(LOTS_PER_INSERT) {
        db::lots::apply_all(conn, org, chunk)?;
    }

    // OCOP prices for customers on the OCOP/VIP strategy.
    let ocop_customers: Vec<&NewCustomer> = customers.iter().filter(|c| c.price_strategy == 6).collect();
    let mut ocops = Vec::new();
    for c in ocop_customers.iter().take(40) {
        let mut picked: Vec<i64> = Vec::new();
        for _ in 0..8 {
            let p = rng.pick(&products);
            if p.category == 1 && !picked.contains(&p.id) {
                picked.push(p.id);
                let price = (p.class_a_price - rng.range_i64(1, 12) * 100).max(p.cost_price + 500);
                ocops.push(NewOcopPrice { org_id: org, customer_id: c.id, product_id: p.id, price, updated_by: approvers.first().copied(), updated_at: now });
            }
        }
    }
    masters::insert_ocop_prices(conn, &ocops)?;

    let ctx = SheetCtx { org, today, now, years: size.years, own_wh: &own_wh, customers: &customers, suppliers: &suppliers, products: &products, staff: &css, drivers: &drivers, approvers: &approvers };
    seed_sheets(conn, ids, &mut rng, &ctx, size.sheets, commits)?;
    // Purchase suggestions (issue 35): preferred suppliers, lead times, some entered levels.
    let supplier_ids: Vec<i64> = suppliers.iter().map(|s| s.id).collect();
    let product_ids: Vec<i64> = products.iter().map(|p| p.id).collect();
    db::reorder::seed(conn, org, &supplier_ids, own_wh[0], &product_ids)
}

struct SheetCtx<'a> {
    org: i64,
    today: NaiveDate,
    now: NaiveDateTime,
    years: i64,
    own_wh: &'a [i64],
    customers: &'a [NewCustomer],
    suppliers: &'a [NewSupplier],
    products: &'a [NewProduct],
    staff: &'a [i64],
    drivers: &'a [i64],
    approvers: &'a [i64],
}

/// Order types in a wholesaler's proportions (per 100 sheets).
const TYPE_MIX: [(OrderType, u64); 7] = [
    (OrderType::Invoice, 62),
    (OrderType::CreditNote, 8),
    (OrderType::PurchaseOrder, 7),
    (OrderType::Bill, 10),
    (OrderType::BillCreditNote, 3),
    (OrderType::Transfer, 6),
    (OrderType::Adjustment, 4),
];

fn pick_type(rng: &mut Rng) -> OrderType {
    let mut roll = rng.below(100);
    for (t, w) in TYPE_MIX {
        if roll < w {
            return t;
        }
        roll -= w;
    }
    OrderType::Invoice
}

fn seed_sheets(conn: &mut DbConn, ids: &mut IdGen, rng: &mut Rng, ctx: &SheetCtx, count: usize, commits: &mut Commits) -> AppResult<()> {
    let mut seqs = [0i64; 8];
    let span_days = (ctx.years * 365).max(60);
    let physical: Vec<&NewProduct> = ctx.products.iter().filter(|p| p.category == 1).collect();
    if physical.is_empty() || ctx.customers.is_empty() || ctx.suppliers.is_empty() || ctx.own_wh.len() < 2 {
        return Ok(());
    }
    let batch = 5_000;
    let mut orders_buf: Vec<NewOrder> = Vec::with_capacity(batch);
    let mut lines_buf: Vec<NewLine> = Vec::with_capacity(batch * 5);
    let mut events_buf: Vec<NewEvent> = Vec::with_capacity(batch * 2);
    // Sheets are generated oldest first so numbers grow with dates.
    for i in 0..count {
        let recent_self_order = i + 6 >= count;
        let t = if recent_self_order { OrderType::Invoice } else { pick_type(rng) };
        let age = ((count - i) as i64 * span_days) / count as i64;
        let date = ctx.today - Duration::days(age);
        // Business hours on the sheet's date in the company's zone, stored in UTC like every
        // timestamp; today's sheets are never stamped later than the moment of seeding.
        let created = (day_start_utc(date, DEFAULT_ZONE) + Duration::minutes((8 + (i % 9) as i64) * 60 + (i % 60) as i64)).min(ctx.now);
        let approved_at = (created + Duration::hours(2)).min(ctx.now);
        let status = if recent_self_order || age < 3 {
            1
        } else {
            match rng.below(100) {
                0..=5 => 1,
                6..=9 => 3,
                10..=17 if t.as_i32() <= 5 => 4,
                _ => 2,
            }
        };
        let idx = t.as_i32() as usize;
        seqs[idx] += 1;
        let id = next(&mut ids.order);
        let customer = matches!(t, OrderType::Invoice | OrderType::CreditNote).then(|| rng.pick(ctx.customers));
        let supplier = matches!(t, OrderType::PurchaseOrder | OrderType::Bill | OrderType::BillCreditNote).then(|| rng.pick(ctx.suppliers));
        let wh = *rng.pick(ctx.own_wh);
        let in_wh = (t == OrderType::Transfer).then(|| *ctx.own_wh.iter().find(|w| **w != wh).unwrap_or(&wh));
        let n_lines = 1 + rng.below(9) as i32;
        let tax_type = if matches!(t, OrderType::Transfer | OrderType::Adjustment) { 1 } else { 3 };
        let (mut qty_total, mut amount_total) = (0i64, 0i64);
        for seq in 1..=n_lines {
            let p = *rng.pick(&physical);
            let qty = 1 + rng.below(8) as i64;
            let price = match t {
                OrderType::Invoice | OrderType::CreditNote => {
                    let base = customer.map(|c| tier_price(p, c.price_strategy)).unwrap_or(p.class_a_price);
                    (base - rng.range_i64(0, 4) * 100).max(0)
                }
                OrderType::Transfer => 0,
                _ => p.cost_price,
            };
            let (in_wh_qty, in_sys_qty) = if t == OrderType::Adjustment {
                let sys = rng.range_i64(0, 30);
                (sys + rng.range_i64(-3, 3), sys)
            } else {
                (0, 0)
            };
            let quantity = if t == OrderType::Adjustment { in_wh_qty - in_sys_qty } else { qty };
            let amount = quantity * price;
            qty_total += quantity;
            amount_total += amount;
            lines_buf.push(NewLine {
                id: next(&mut ids.line),
                org_id: ctx.org,
                order_id: id,
                seq,
                product_id: Some(p.id),
                description: p.name.clone(),
                unit: p.unit.clone(),
                quantity,
                in_warehouse_qty: in_wh_qty,
                in_system_qty: in_sys_qty,
                price,
                amount,
                tax_type,
                cost_price: p.cost_price,
                fx_price: 0,
                fx_amount: 0,
                dot: None,
            });
        }
        let approved = status == 2 || status == 4;
        let xero_capable = matches!(t, OrderType::Invoice | OrderType::CreditNote | OrderType::Bill | OrderType::BillCreditNote);
        let xero_sent = if approved && xero_capable {
            match rng.below(100) {
                0..=59 => 1,
                60..=63 => 2,
                _ => 0,
            }
        } else {
            0
        };
        let is_sale = customer.is_some();
        let drafter_type = if recent_self_order { 3 } else if is_sale { 1 + rng.below(2) as i32 } else { 1 };
        let driver = (is_sale && approved && rng.chance(70)).then(|| ctx.drivers.first().copied()).flatten();
        let delivery_status = if !is_sale || !approved {
            0
        } else if age > 5 {
            3
        } else {
            *rng.pick(&[0, 1, 2, 3])
        };
        let ship_type = if t == OrderType::CreditNote { 4 } else { customer.map(|c| c.default_ship_type).unwrap_or(1) };
        // A self-order awaits staff without a due date; the other sheets that have one are due in 30 days.
        let due = (domain::sheet::has_due_date(t) && drafter_type != 3).then(|| date + Duration::days(30));
        let approver = approved.then(|| ctx.approvers.first().copied()).flatten();
        orders_buf.push(NewOrder {
            id,
            org_id: ctx.org,
            no: domain::enums::format_number(t.number_prefix(), seqs[idx]),
            order_type: t.as_i32(),
            uuid: format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64()),
            tag_id: if rng.chance(90) { 1 } else { 2 },
            customer_id: customer.map(|c| c.id),
            supplier_id: supplier.map(|s| s.id),
            order_date: date,
            due_date: due,
            delivery_date: matches!(t, OrderType::Invoice | OrderType::CreditNote | OrderType::PurchaseOrder).then(|| date + Duration::days(rng.range_i64(0, 5))),
            address: customer.map(|c| format!("{}, {} {} {}", c.address, c.city, c.state, c.postal)).unwrap_or_default(),
            phone: customer.map(|c| c.phone.clone()).unwrap_or_default(),
            csr_service_id: customer.and_then(|c| c.cs_id),
            csr_bd_id: customer.and_then(|c| c.bd_id),
            driver_id: driver,
            delivery_status,
            actual_pay_type: if approved && is_sale { rng.below(8) as i32 } else { 0 },
            csr_credit_limit: customer.map(|c| c.credit_limit).unwrap_or(0),
            csr_xero_balance: customer.map(|c| c.xero_balance).unwrap_or(0),
            reference: if rng.chance(40) { format!("PO{}", 10_000 + rng.below(89_999)) } else { String::new() },
            comments: String::new(),
            warehouse_id: Some(wh),
            in_warehouse_id: in_wh,
            related_order_id: None,
            tax_type,
            ship_type,
            payment_type: customer.map(|c| c.payment_type),
            area_type: customer.map(|c| c.area_type),
            price_type: customer.map(|c| c.price_strategy),
            status,
            closed: status == 4,
            xero_sent,
            printed: approved && is_sale && rng.chance(75),
            drafter_type,
            drafter_id: if drafter_type == 3 { None } else { ctx.staff.first().copied() },
            last_approver_id: approver,
            last_approved_at: approved.then_some(approved_at),
            total_qty: qty_total,
            total_amount: amount_total,
            total_gst: money::gst_of_inclusive(money::Cents(amount_total), TaxType::from_i32(tax_type).unwrap_or_default()).0,
            created_at: created,
            updated_at: created,
        });
        let operator = if drafter_type == 3 { "Customer".to_string() } else { "Staff".to_string() };
        events_buf.push(NewEvent { org_id: ctx.org, order_id: id, user_id: None, operator, action: "Created".into(), created_at: created });
        if approved {
            events_buf.push(NewEvent { org_id: ctx.org, order_id: id, user_id: approver, operator: "Approver".into(), action: "Approved".into(), created_at: approved_at });
        }
        if orders_buf.len() >= batch {
            flush(conn, &mut orders_buf, &mut lines_buf, &mut events_buf, commits)?;
        }
    }
    flush(conn, &mut orders_buf, &mut lines_buf, &mut events_buf, commits)?;
    let seq_rows: Vec<NewSequence> = OrderType::ALL.iter().map(|t| NewSequence { org_id: ctx.org, order_type: t.as_i32(), next_value: seqs[t.as_i32() as usize] + 1 }).collect();
    orders::insert_sequences(conn, &seq_rows)
}

fn flush(conn: &mut DbConn, o: &mut Vec<NewOrder>, l: &mut Vec<NewLine>, e: &mut Vec<NewEvent>, commits: &mut Commits) -> AppResult<()> {
    orders::insert_orders(conn, o)?;
    orders::insert_lines(conn, l)?;
    orders::insert_events(conn, e)?;
    commits.wrote(conn, o.len())?;
    o.clear();
    l.clear();
    e.clear();
    Ok(())
}

/// The unit price a customer on `strategy` pays, by the rule of DESIGN §5 (default uplifts,
/// no overrides or OCOP prices in generated data).
fn tier_price(p: &NewProduct, strategy: i32) -> i64 {
    use domain::enums::PriceStrategy;
    use domain::money::Cents;
    use domain::price_tiers::{ProductPrices, TierOverrides, TierUplifts, price_for_strategy, tier_prices};
    let prices = ProductPrices { tiers: tier_prices(Cents(p.class_a_price), TierUplifts::default(), TierOverrides::default()), standard: Cents(p.standard_price) };
    PriceStrategy::from_i32(strategy).map(|s| price_for_strategy(s, &prices, None)).unwrap_or(prices.tiers.a).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use db::DatabaseUrl;
    use db::schema::{order_events, order_lines, orders};
    use diesel::prelude::*;

    /// Rows and a digest of the sheets, enough to tell two data sets apart.
    fn fingerprint(conn: &mut DbConn) -> (i64, i64, i64, i64, Vec<String>) {
        let n: i64 = orders::table.count().get_result(conn).unwrap();
        let l: i64 = order_lines::table.count().get_result(conn).unwrap();
        let e: i64 = order_events::table.count().get_result(conn).unwrap();
        let amounts: Vec<i64> = orders::table.select(orders::total_amount).load(conn).unwrap();
        let uuids = orders::table.order(orders::id.desc()).limit(5).select(orders::uuid).load(conn).unwrap();
        (n, l, e, amounts.iter().sum(), uuids)
    }

    fn fresh(dir: &std::path::Path, name: &str) -> DbConn {
        let mut conn = db::connect(&DatabaseUrl::Sqlite(dir.join(name))).unwrap();
        db::migrate(&mut conn).unwrap();
        conn
    }

    #[test]
    fn committing_in_batches_writes_the_same_data_as_one_transaction() {
        let dir = tempfile::tempdir().unwrap();
        let today = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
        let mut whole = fresh(dir.path(), "whole.sqlite3");
        seed_committing(&mut whole, Scale::Demo, today, None).unwrap();
        let mut batched = fresh(dir.path(), "batched.sqlite3");
        seed_committing(&mut batched, Scale::Demo, today, Some(100)).unwrap();
        assert_eq!(fingerprint(&mut whole), fingerprint(&mut batched));
        assert!(matches!(seed(&mut batched, Scale::Demo, today), Err(SeedError::NotEmpty)));
        // The batched load built the sheets' indexes after the rows: the schema is the
        // migrations' again, and the text index finds what the row-by-row triggers found.
        assert_eq!(schema(&mut whole), schema(&mut batched));
        for word in ["INV", "PO-", "000", "12"] {
            assert_eq!(number_matches(&mut whole, word), number_matches(&mut batched, word), "{word}");
        }
        assert!(number_matches(&mut batched, "INV") > 0);
        diesel::sql_query("INSERT INTO orders_fts (orders_fts) VALUES ('integrity-check')").execute(&mut batched).unwrap();
    }

    #[test]
    fn opening_lots_add_up_exactly_to_codes_of_the_last_six_years() {
        let today = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
        let mut rng = Rng::new(LOT_SEED);
        let (mut recent, mut all, mut unknown) = (0, 0, 0);
        for on_hand in (1..=48).cycle().take(2_000) {
            let lots = opening_lots(&mut rng, on_hand, today);
            assert_eq!(lots.iter().map(|l| l.1).sum::<i64>(), on_hand, "{lots:?}");
            assert!(lots.iter().all(|l| l.1 > 0), "{lots:?}");
            let known: Vec<i32> = lots.iter().map(|l| l.0).filter(|d| *d != domain::dot::UNKNOWN).collect();
            assert!((1..=3).contains(&known.len()), "{lots:?}");
            assert!(known.windows(2).all(|w| w[0] < w[1]), "each code once, oldest first: {lots:?}");
            for d in known {
                let dot = domain::dot::Dot::from_stored(d).unwrap_or_else(|| panic!("{d} is a code"));
                assert!(dot.made_on() <= today && dot.age_months(today) <= 73, "{d}");
                recent += usize::from(dot.age_months(today) < 24);
                all += 1;
            }
            unknown += usize::from(lots.iter().any(|l| l.0 == domain::dot::UNKNOWN));
        }
        assert!(recent * 10 > all * 6, "mostly of the last two years: {recent} of {all}");
        assert!(unknown > 100 && unknown < 600, "now and then a remainder of unknown code: {unknown}");
    }

    #[test]
    fn a_seeded_tyres_stock_is_the_sum_of_its_lots_and_its_ledger() {
        use db::schema::{products, stock_lots, stock_moves, stocks};
        use std::collections::BTreeMap;
        let dir = tempfile::tempdir().unwrap();
        let mut conn = fresh(dir.path(), "lots.sqlite3");
        seed(&mut conn, Scale::Demo, NaiveDate::from_ymd_opt(2026, 3, 2).unwrap()).unwrap();
        let stock: Vec<(i64, i64, i64)> = stocks::table
            .inner_join(products::table)
            .filter(products::dot_tracked.eq(true))
            .select((stocks::warehouse_id, stocks::product_id, stocks::on_hand))
            .load(&mut conn)
            .unwrap();
        let mut lots: BTreeMap<(i64, i64), i64> = BTreeMap::new();
        for (w, p, q) in stock_lots::table.select((stock_lots::warehouse_id, stock_lots::product_id, stock_lots::on_hand)).load::<(i64, i64, i64)>(&mut conn).unwrap() {
            *lots.entry((w, p)).or_default() += q;
        }
        let known: i64 = stock_lots::table.filter(stock_lots::dot.ne(0)).count().get_result(&mut conn).unwrap();
        assert!(known > 0, "codes are known");
        for (w, p, q) in &stock {
            assert_eq!(lots.get(&(*w, *p)).copied().unwrap_or(0), *q, "warehouse {w}, product {p}");
        }
        assert_eq!(lots.values().sum::<i64>(), stock.iter().map(|s| s.2).sum::<i64>(), "no lot of an untracked product");
        // One opening ledger row per lot, with its code.
        let ledger: Vec<(i64, i64, Option<i32>, i64)> = stock_moves::table
            .filter(stock_moves::dot.is_not_null())
            .select((stock_moves::warehouse_id, stock_moves::product_id, stock_moves::dot, stock_moves::qty_delta))
            .load(&mut conn)
            .unwrap();
        let rows: i64 = stock_lots::table.count().get_result(&mut conn).unwrap();
        assert_eq!(ledger.len() as i64, rows);
        assert_eq!(ledger.iter().map(|l| l.3).sum::<i64>(), lots.values().sum::<i64>());
    }

    fn schema(conn: &mut DbConn) -> Vec<(String, String)> {
        diesel::sql_query("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
            .load::<db::SchemaObject>(conn)
            .unwrap()
            .into_iter()
            .map(|o| (o.name, o.sql))
            .collect()
    }

    fn number_matches(conn: &mut DbConn, word: &str) -> usize {
        db::search::few(conn, db::search::Searchable::SheetNumbers, word, 1_000_000).unwrap().unwrap_or_default().len()
    }
}
