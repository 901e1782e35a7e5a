//! The spreadsheet exports of the lists (customers, products, sheets): one definition of
//! each file's columns and rows for the screen's export and the API's `format=xlsx`.

use db::customers::{self, CustomerFilter};
use db::error::AppResult;
use db::masters::{self as master_db, Brand};
use db::order_views::{self, Names};
use db::orders::{self as order_db, OrderFilter};
use db::products::{self, Product, ProductFilter};
use domain::enums::{AreaType, DrafterType, OrderStatus, OrderType, PaymentType, PriceStrategy, ProductCategory, XeroState, closure_label, code_label, delivery_text, print_label};
use domain::permissions::Sight;

use xlsx::export::{self, Col, Kind, Sheet, Val, Written};

use crate::Core;

/// The brand's name, or nothing for a product without one.
pub fn brand_name(brands: &[Brand], id: Option<i64>) -> String {
    id.and_then(|id| brands.iter().find(|b| b.id == id)).map(|b| b.name.clone()).unwrap_or_default()
}

/// The category as its path ('Tyre/Passenger'), or the stored text when it names none.
pub fn category_label(tag1: &str) -> String {
    ProductCategory::from_path(tag1).map(|c| c.path()).unwrap_or_else(|| tag1.to_string())
}

const CUSTOMER_COLUMNS: [Col; 17] = [
    Col::new("Name", 34.0, Kind::Text),
    Col::new("ABN Code", 16.0, Kind::Text),
    Col::new("Contact", 20.0, Kind::Text),
    Col::new("Phone", 14.0, Kind::Text),
    Col::new("Mobile", 14.0, Kind::Text),
    Col::new("Email", 28.0, Kind::Text),
    Col::new("Address", 30.0, Kind::Text),
    Col::new("City", 16.0, Kind::Text),
    Col::new("State", 6.0, Kind::Text),
    Col::new("Postcode", 9.0, Kind::Text),
    Col::new("Area", 12.0, Kind::Text),
    Col::new("Payment Type", 16.0, Kind::Text),
    Col::new("Price Strategy", 14.0, Kind::Text),
    Col::new("Credit Limit", 13.0, Kind::Money),
    Col::new("Balance", 13.0, Kind::Money),
    Col::new("Xero", 8.0, Kind::Text),
    Col::new("Created", 12.0, Kind::Date),
];

/// The customers of a search (`csr.xlsx`: the screen's export and the API's).
pub async fn customers(core: &Core, org: i64, filter: CustomerFilter) -> AppResult<Written> {
    let chunk = core.export_chunk;
    let zone = filter.zone();
    export::write(&core.db, &core.data_dir, Sheet { name: "Customers", cols: &CUSTOMER_COLUMNS }, move |c, out| {
        customers::for_each_chunk(c, org, &filter, chunk, |rows| {
            out.append(rows.into_iter().map(|c| {
                vec![
                    Val::Text(c.name.clone()),
                    Val::Text(c.code.clone()),
                    Val::Text(c.contact_name()),
                    Val::Text(c.phone.clone()),
                    Val::Text(c.mobile.clone()),
                    Val::Text(c.email.clone()),
                    Val::Text(c.address.clone()),
                    Val::Text(c.city.clone()),
                    Val::Text(c.state.clone()),
                    Val::Text(c.postal.clone()),
                    Val::Text(code_label(c.area_type, AreaType::from_i32, AreaType::label)),
                    Val::Text(code_label(c.payment_type, PaymentType::from_i32, PaymentType::label)),
                    Val::Text(code_label(c.price_strategy, PriceStrategy::from_i32, PriceStrategy::label)),
                    Val::Cents(c.credit_limit),
                    Val::Cents(c.xero_balance),
                    Val::Text(XeroState::from_i32(c.xero_sent).unwrap_or_default().label().to_string()),
                    Val::Date(Some(domain::dates::local_date(c.created_at, zone))),
                ]
            }))
        })
    })
    .await
}

const PRODUCT_COLUMNS: [Col; 16] = [
    Col::new("Item Code", 22.0, Kind::Text),
    Col::new("Helper Code", 12.0, Kind::Text),
    Col::new("Item Name", 44.0, Kind::Text),
    Col::new("Brand", 14.0, Kind::Text),
    Col::new("Category", 18.0, Kind::Text),
    Col::new("Tag L2", 10.0, Kind::Text),
    Col::new("Tag L3", 10.0, Kind::Text),
    Col::new("Location", 12.0, Kind::Text),
    Col::new("Unit", 6.0, Kind::Text),
    Col::new("Stock", 8.0, Kind::Int),
    Col::new("Standard", 11.0, Kind::Money),
    Col::new("Class A", 11.0, Kind::Money),
    Col::new("Special", 11.0, Kind::Money),
    Col::new("Xero", 8.0, Kind::Text),
    Col::new("Created", 12.0, Kind::Date),
    Col::new("Modified", 12.0, Kind::Date),
];

/// The products of a search (`products.xlsx`: the screen's export and the API's).
pub async fn products(core: &Core, org: i64, filter: ProductFilter) -> AppResult<Written> {
    let (chunk, zone) = (core.export_chunk, filter.zone());
    export::write(&core.db, &core.data_dir, Sheet { name: "Products", cols: &PRODUCT_COLUMNS }, move |c, out| {
        let brands = master_db::all_brands(c, org)?;
        products::for_each_chunk(c, org, &filter, chunk, |c, rows| {
            let ids: Vec<i64> = rows.iter().map(|p| p.id).collect();
            let stock = products::stock_totals(c, org, &ids)?;
            out.append(rows.into_iter().map(|p| product_row(p, &brands, &stock, zone)))
        })
    })
    .await
}

/// The products given by id (API `ids=`), in the order the JSON list has them.
pub async fn products_by_id(core: &Core, org: i64, zone: domain::dates::Tz, ids: Vec<i64>) -> AppResult<Written> {
    export::write(&core.db, &core.data_dir, Sheet { name: "Products", cols: &PRODUCT_COLUMNS }, move |c, out| {
        let brands = master_db::all_brands(c, org)?;
        let rows = products::by_ids(c, org, &ids)?;
        let stock = products::stock_totals(c, org, &ids)?;
        out.append(rows.into_iter().map(|p| product_row(p, &brands, &stock, zone)))
    })
    .await
}

fn product_row(p: Product, brands: &[Brand], stock: &std::collections::HashMap<i64, i64>, zone: domain::dates::Tz) -> Vec<Val> {
    let local = |t: chrono::NaiveDateTime| Some(domain::dates::local_date(t, zone));
    let (brand, category) = (brand_name(brands, p.brand_id), category_label(&p.tag1));
    vec![
        Val::Text(p.code),
        Val::Text(p.helper_code),
        Val::Text(p.name),
        Val::Text(brand),
        Val::Text(category),
        Val::Text(p.tag2),
        Val::Text(p.tag3),
        Val::Text(p.tag4),
        Val::Text(p.unit),
        Val::Int(stock.get(&p.id).copied().unwrap_or(0)),
        Val::Cents(p.standard_price),
        Val::Cents(p.class_a_price),
        Val::Cents(p.special_price),
        Val::Text(XeroState::from_i32(p.xero_sent).unwrap_or_default().label().to_string()),
        Val::Date(local(p.created_at)),
        Val::Date(local(p.updated_at)),
    ]
}

const ORDER_COLUMNS: [Col; 17] = [
    Col::new("No.", 14.0, Kind::Text),
    Col::new("Type", 16.0, Kind::Text),
    Col::new("Customer / Supplier", 32.0, Kind::Text),
    Col::new("Reference", 14.0, Kind::Text),
    Col::new("Date", 12.0, Kind::Date),
    Col::new("Due Date", 12.0, Kind::Date),
    Col::new("Dispatch / ETA", 12.0, Kind::Date),
    Col::new("Warehouse", 16.0, Kind::Text),
    Col::new("Qty", 8.0, Kind::Int),
    Col::new("Amount", 12.0, Kind::Money),
    Col::new("GST", 11.0, Kind::Money),
    Col::new("Status", 10.0, Kind::Text),
    Col::new("Print", 8.0, Kind::Text),
    Col::new("Xero", 8.0, Kind::Text),
    Col::new("Delivery", 24.0, Kind::Text),
    Col::new("Drafter", 16.0, Kind::Text),
    Col::new("Closure", 9.0, Kind::Text),
];

/// The transfers' file: the sheet list's columns with the Warehouse a transfer leaves (OUT)
/// and, beside it, the one it enters (IN), as the transfer list shows them.
const TRANSFER_COLUMNS: [Col; 18] = {
    let mut cols = [Col::new("", 0.0, Kind::Text); 18];
    let mut i = 0;
    while i < 17 {
        cols[if i > WAREHOUSE_AT { i + 1 } else { i }] = ORDER_COLUMNS[i];
        i += 1;
    }
    cols[WAREHOUSE_AT] = Col::new("OUT Warehouse", 16.0, Kind::Text);
    cols[WAREHOUSE_AT + 1] = Col::new("IN Warehouse", 16.0, Kind::Text);
    cols
};

/// Where the Warehouse column is in [`ORDER_COLUMNS`].
const WAREHOUSE_AT: usize = 7;

/// The sheets of a list (`orders.xlsx`: the screen's export and `GET /api/orders?format=xlsx`).
/// An adjustment's amount is left empty for a viewer without cost sight.
pub async fn orders(core: &Core, org: i64, sight: Sight, types: Vec<i32>, filter: OrderFilter) -> AppResult<Written> {
    let names = Names::from(core.db.run(move |c| order_views::list_names(c, org)).await?);
    let chunk = core.export_chunk;
    let transfers = types == [OrderType::Transfer.as_i32()];
    let cols: &'static [Col] = if transfers { &TRANSFER_COLUMNS } else { &ORDER_COLUMNS };
    export::write(&core.db, &core.data_dir, Sheet { name: "Orders", cols }, move |c, out| {
        order_db::for_each_chunk(c, org, &types, &filter, chunk, |rows| {
            out.append(rows.into_iter().map(|r| {
                let o = &r.order;
                let mut row = vec![
                    Val::Text(o.no.clone()),
                    Val::Text(OrderType::from_i32(o.order_type).map(OrderType::label).unwrap_or("").into()),
                    Val::Text(r.customer.clone().or(r.supplier.clone()).unwrap_or_default()),
                    Val::Text(o.reference.clone()),
                    Val::Date(Some(o.order_date)),
                    Val::Date(o.due_date),
                    Val::Date(o.delivery_date),
                    Val::Text(names.warehouse(o.warehouse_id)),
                    Val::Int(o.total_qty),
                    order_db::amount_for(o.order_type, o.total_amount, sight).map_or(Val::Text(String::new()), Val::Cents),
                    Val::Cents(o.total_gst),
                    Val::Text(OrderStatus::from_i32(o.status).map(OrderStatus::label).unwrap_or("").into()),
                    Val::Text(print_label(o.printed).into()),
                    Val::Text(XeroState::from_i32(o.xero_sent).unwrap_or_default().label().into()),
                    Val::Text(delivery_text(o.ship_type, o.delivery_status, &names.staff(o.driver_id))),
                    Val::Text(DrafterType::label_for_code(o.drafter_type).into()),
                    Val::Text(closure_label(o.closed).into()),
                ];
                if transfers {
                    row.insert(WAREHOUSE_AT + 1, Val::Text(names.warehouse(o.in_warehouse_id)));
                }
                row
            }))
        })
    })
    .await
}

// ---------------------------------------------------------------------------------------
// Too many sheets to wait for: a job of the Download Center (issue 37)
// ---------------------------------------------------------------------------------------

/// A sheet export as its request gets it.
pub enum SheetsExport {
    /// Written while the request waited.
    File(Written),
    /// Too many sheets to wait for: the Download Center's job preparing it (this request's,
    /// or the same export already queued by the same person).
    Queued(db::reports::Job),
}

/// What a sheet export job writes: the list's types and filter, and whether the person who
/// asked sees cost (the file is theirs and is hidden from those who do not).
#[derive(serde::Serialize, serde::Deserialize)]
struct ExportJob {
    types: Vec<i32>,
    filter: OrderFilter,
    cost: bool,
}

/// The sheets of a list as `orders.xlsx`: written at once when at most
/// [`domain::exports::DIRECT_MAX`] match (counted no further), else queued in the Download
/// Center, so no export runs into the read timeout.
pub async fn orders_or_job(core: &Core, who: crate::reports::Asker, sight: Sight, types: Vec<i32>, filter: OrderFilter) -> AppResult<SheetsExport> {
    let org = who.org_id;
    let (t, f) = (types.clone(), filter.clone());
    let most = core.export_direct_max;
    let matching = core.db.run(move |c| order_db::count_up_to(c, org, &t, &f, most.saturating_add(1))).await?;
    if matching <= most {
        return Ok(SheetsExport::File(orders(core, org, sight, types, filter).await?));
    }
    let range = domain::exports::range_label(filter.from, filter.to);
    let params = serde_json::to_string(&ExportJob { types, filter, cost: sight.sees_cost() }).map_err(|e| db::error::AppError::Internal(e.into()))?;
    let key = format!("{}:{params}", domain::exports::JOB_KIND);
    let (job, queued) = core
        .db
        .write(move |c| {
            let new = db::reports::NewJob { org_id: org, user_id: who.user_id, kind: domain::exports::JOB_KIND, params: &params, date_range: &range, dedupe_key: &key };
            db::reports::enqueue(c, &new, db::now())
        })
        .await?;
    if queued {
        core.reports.wake.notify_one();
    }
    Ok(SheetsExport::Queued(job))
}

/// Runs a claimed sheet export job: the file written as the list's export is, then stored
/// with the company's report files (the data directory or the object store); answers the
/// file's name.
pub async fn run_job(core: &Core, job: &db::reports::Job) -> AppResult<String> {
    let p: ExportJob = serde_json::from_str(&job.params).map_err(|e| db::error::AppError::Internal(anyhow::anyhow!("export job {} has unreadable parameters: {e}", job.id)))?;
    let org = job.org_id;
    let written = orders(core, org, Sight::recorded(p.cost), p.types, p.filter).await?;
    let name = format!("{}-{}-{}.xlsx", domain::exports::JOB_KIND, job.date_range, job.id);
    // Moved (data directory) or streamed up (object store) from the written file, which
    // goes when `written` is dropped either way.
    core.store.put_file(&crate::reports::files::key(org, &name), written.path()).await?;
    Ok(name)
}
