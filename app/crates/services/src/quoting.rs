//! The price lookup (spec §2.4 Quoting, §7 quotings): products matching the Item Key,
//! brand and location, with stock per warehouse, in transit and ETA, the third-party
//! Sydney stock, and every price tier for the chosen customer; and a product's price
//! history (the 'CHK' dialog, `products/{id}/history`).

use std::collections::HashMap;

use chrono::NaiveDate;

use db::DbConn;
use db::masters::{self, Paged};
use db::orders::{self as order_db, PriceHistoryRow};
use db::price_views::{self, ProductHead};
use db::products::{self, Product, ProductFilter};
use db::stock;
use domain::enums::StockAvailability;
use domain::price_tiers::TierUplifts;
use db::error::AppResult;
use crate::pricing::{self, Quote};

/// The lookup's filters (spec §3 Product search filter).
#[derive(serde::Deserialize, Debug, Clone, Default)]
pub struct QuoteFilter {
    pub key: Option<String>,
    /// Location keyword (tag4).
    pub location: Option<String>,
    pub warehouse: Option<i64>,
    pub brand: Option<i64>,
    /// Stock availability code (spec §3 enumerations).
    pub stock: Option<i32>,
    /// The customer the prices are for.
    pub csr: Option<i64>,
    pub csr_label: Option<String>,
}

impl domain::validate::ListedValues for QuoteFilter {
    fn unlisted(&self) -> std::collections::BTreeMap<String, String> {
        let mut e = std::collections::BTreeMap::new();
        domain::validate::listed_code(&mut e, "stock", self.stock, StockAvailability::from_i32);
        e
    }
}

impl QuoteFilter {
    /// True when the user asked for something (the lookup waits for a manual search).
    pub fn is_search(&self) -> bool {
        self.key.is_some() || self.location.is_some() || self.brand.is_some() || self.stock.is_some() || self.warehouse.is_some()
    }
}

/// Stock of one product in one warehouse.
#[derive(Clone, Debug, serde::Serialize)]
pub struct WarehouseStock {
    pub warehouse_id: i64,
    pub on_hand: i64,
    pub in_transit: i64,
    pub eta: Option<NaiveDate>,
}

/// One row of the lookup.
pub struct QuoteRow {
    pub product: Product,
    /// On hand in the chosen warehouse, or in all own warehouses.
    pub stock: i64,
    pub per_warehouse: Vec<WarehouseStock>,
    pub quote: Option<Quote>,
}

/// One page of the lookup.
pub fn lookup(conn: &mut DbConn, org: i64, f: &QuoteFilter, offset: i64, limit: i64) -> AppResult<Paged<QuoteRow>> {
    let pf = ProductFilter { key: f.key.clone(), brand: f.brand, location: f.location.clone(), ..Default::default() };
    let stock_of = |c: &mut DbConn, ids: &[i64]| -> AppResult<HashMap<i64, i64>> {
        match f.warehouse {
            Some(w) => Ok(stock::of_products(c, org, ids)?.into_iter().filter(|r| r.1 == w).map(|r| (r.0, r.2)).collect()),
            None => products::stock_totals(c, org, ids),
        }
    };
    let (rows, total, stocks) = match f.stock.and_then(StockAvailability::from_i32) {
        // Stock availability is computed, so the candidates are filtered before paging.
        Some(avail) => {
            let all = products::all_matching(conn, org, &pf)?;
            let ids: Vec<i64> = all.iter().map(|p| p.id).collect();
            let stocks = stock_of(conn, &ids)?;
            let kept: Vec<Product> = all.into_iter().filter(|p| avail.matches(stocks.get(&p.id).copied().unwrap_or(0))).collect();
            let total = kept.len() as i64;
            let page: Vec<Product> = kept.into_iter().skip(offset.max(0) as usize).take(limit.max(0) as usize).collect();
            (page, total, stocks)
        }
        None => {
            let page = products::list(conn, org, &pf, offset, limit)?;
            let ids: Vec<i64> = page.rows.iter().map(|p| p.id).collect();
            let stocks = stock_of(conn, &ids)?;
            (page.rows, page.total, stocks)
        }
    };
    let ids: Vec<i64> = rows.iter().map(|p| p.id).collect();
    let mut quotes = pricing::quotes(conn, org, &ids, f.csr)?;
    let mut per_wh: HashMap<i64, Vec<WarehouseStock>> = HashMap::new();
    for (product, warehouse_id, on_hand, in_transit, eta) in stock::of_products(conn, org, &ids)? {
        per_wh.entry(product).or_default().push(WarehouseStock { warehouse_id, on_hand, in_transit, eta });
    }
    let rows = rows
        .into_iter()
        .map(|p| QuoteRow { stock: stocks.get(&p.id).copied().unwrap_or(0), per_warehouse: per_wh.remove(&p.id).unwrap_or_default(), quote: quotes.remove(&p.id), product: p })
        .collect();
    Ok(Paged { rows, total })
}

/// Everything the quoting page shows.
pub struct QuotingScreen {
    /// The lookup's page; `None` until the user searches (the page waits for a search).
    pub page: Option<Paged<QuoteRow>>,
    /// Warehouses and brands of the filters: id and name.
    pub warehouses: Vec<(i64, String)>,
    pub brands: Vec<(i64, String)>,
    /// The company's tier uplifts, for the standard price dialog.
    pub uplifts: TierUplifts,
}

/// The quoting page of company `org`: the lookup's page when `f` asks for a search, with
/// the filters' choices and the tier uplifts.
pub fn screen(conn: &mut DbConn, org: i64, f: &QuoteFilter, offset: i64, limit: i64) -> AppResult<QuotingScreen> {
    let page = if f.is_search() { Some(lookup(conn, org, f, offset, limit)?) } else { None };
    let warehouses = masters::all_warehouses(conn, org)?.into_iter().map(|w| (w.id, w.name)).collect();
    let brands = masters::all_brands(conn, org)?.into_iter().map(|b| (b.id, b.name)).collect();
    Ok(QuotingScreen { page, warehouses, brands, uplifts: pricing::uplifts(conn, org)? })
}

/// How many past sales lines the price history shows.
const HISTORY_LINES: i64 = 30;

/// A product's prices for a customer and its latest approved sales lines.
pub struct PriceHistory {
    pub product: ProductHead,
    /// Every price tier for the customer (for no one in particular without a customer).
    pub quote: Option<Quote>,
    pub rows: Vec<PriceHistoryRow>,
}

/// The price history of product `id` of company `org`, for `customer` when given (404 for
/// another company's product).
pub fn price_history(conn: &mut DbConn, org: i64, id: i64, customer: Option<i64>) -> AppResult<PriceHistory> {
    let product = price_views::product_head(conn, org, id)?;
    let quote = pricing::quotes(conn, org, &[id], customer)?.remove(&id);
    Ok(PriceHistory { product, quote, rows: order_db::price_history(conn, org, id, customer, HISTORY_LINES)? })
}
