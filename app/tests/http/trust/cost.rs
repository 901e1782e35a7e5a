//! Issue 29: cost stays with those allowed to see it. One product gets a cost and a reference
//! purchase price nobody could mistake, an adjustment valued at that cost and an approved
//! invoice that keeps it on its line; then every GET route of the staff app, the JSON API
//! and the shop (and the POSTs that answer lines) is asked by a sales user (role 2, no
//! modPrc), and no answer — HTML, JSON, xlsx, island props — may hold any of those figures.
//! The same figures do show to an approver, so the search is known to find them.

use std::io::Read;

use axum::body::Body;
use axum::http::{Method, StatusCode};
use diesel::prelude::*;
use serde_json::json;
use db::schema::{customers, orders, products, stocks, warehouses};

use crate::support::{Session, TestApp, TestResponse};

/// The cost (cents): $9,876.54.
const COST: i64 = 987_654;
/// The reference purchase price (cents): $8,765.43.
const REF_PUR: i64 = 876_543;
/// The adjustment counts three more than the system held: 3 × cost = $29,629.62.
const ADJUSTED: i64 = 3 * COST;

/// Every spelling of the three figures an answer could carry.
fn forbidden() -> Vec<String> {
    let mut out = Vec::new();
    for cents in [COST, REF_PUR, ADJUSTED] {
        let (d, c) = (cents / 100, cents % 100);
        let grouped = {
            let s = d.to_string();
            let mut g = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i) % 3 == 0 {
                    g.push(',');
                }
                g.push(ch);
            }
            g
        };
        out.extend([cents.to_string(), format!("{d}.{c:02}"), format!("{grouped}.{c:02}")]);
    }
    out
}

/// The text of an answer: the body, or every part of an xlsx (zip) file.
fn texts(res: &TestResponse) -> String {
    if !res.bytes.starts_with(b"PK") {
        return res.body.clone();
    }
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(res.bytes.clone())).expect("an xlsx file");
    let mut all = String::new();
    for i in 0..zip.len() {
        let mut part = zip.by_index(i).unwrap();
        let mut s = String::new();
        let _ = part.read_to_string(&mut s);
        all.push_str(&s);
    }
    all
}

fn leaks(res: &TestResponse) -> Vec<String> {
    let text = texts(res);
    forbidden().into_iter().filter(|f| text.contains(f.as_str())).collect()
}

struct Fixture {
    product: i64,
    customer: i64,
    adjustment: i64,
    invoice: i64,
    supplier: i64,
    warehouse: i64,
    brand: i64,
    employee: i64,
}

async fn fixture(app: &TestApp, approver: &Session) -> Fixture {
    let (product, warehouse, on_hand, customer, supplier, brand, employee) = app
        .state
        .db
        .write(|c| {
            let (p, w, n): (i64, i64, i64) = stocks::table
                .inner_join(products::table)
                .inner_join(warehouses::table)
                .filter(stocks::org_id.eq(4))
                .filter(products::category.eq(1))
                .filter(stocks::on_hand.gt(5))
                .order(stocks::id.asc())
                .select((products::id, warehouses::id, stocks::on_hand))
                .first(c)?;
            diesel::update(products::table.find(p)).set((products::cost_price.eq(COST), products::ref_pur.eq(REF_PUR))).execute(c)?;
            let cu: i64 = customers::table.filter(customers::org_id.eq(4)).order(customers::id).select(customers::id).first(c)?;
            let su: i64 = db::schema::suppliers::table.filter(db::schema::suppliers::org_id.eq(4)).order(db::schema::suppliers::id).select(db::schema::suppliers::id).first(c)?;
            let b: i64 = products::table.find(p).select(products::brand_id).first::<Option<i64>>(c)?.expect("a brand");
            let e: i64 = db::schema::memberships::table.filter(db::schema::memberships::org_id.eq(4)).order(db::schema::memberships::user_id).select(db::schema::memberships::user_id).first(c)?;
            Ok((p, w, n, cu, su, b, e))
        })
        .await
        .unwrap();
    let adj = app
        .post_json("/api/orders", approver, json!({"type": 7, "warehouseId": warehouse, "date": "2026-11-20", "lines": [{"seq": 1, "productId": product, "inWarehouseQty": on_hand + 3, "inSystemQty": on_hand}]}))
        .await;
    assert_eq!(adj.status, StatusCode::OK, "{}", adj.body);
    let adjustment = adj.json()["data"]["id"].as_i64().or_else(|| adj.json()["id"].as_i64()).expect("adjustment id");
    let inv = app
        .post_json("/api/orders", approver, json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "date": "2026-11-20", "lines": [{"seq": 1, "productId": product, "quantity": 1, "price": 2_000_000}]}))
        .await;
    assert_eq!(inv.status, StatusCode::OK, "{}", inv.body);
    let invoice = inv.json()["data"]["id"].as_i64().or_else(|| inv.json()["id"].as_i64()).expect("invoice id");
    let ok = app.post_json(&format!("/api/orders/{invoice}/approve"), approver, json!({"confirmed": true})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    Fixture { product, customer, adjustment, invoice, supplier, warehouse, brand, employee }
}

/// The GET routes of the staff app and the JSON API, each as the paths the sweep asks.
fn staff_paths(f: &Fixture) -> Vec<(&'static str, Vec<String>)> {
    let (p, c, a, i) = (f.product, f.customer, f.adjustment, f.invoice);
    let lists = ["invoices", "credit_notes", "purchase_orders", "bills", "bill_credit_notes", "transfers", "adjustments"];
    vec![
        ("/", vec!["/".into()]),
        ("/login", vec!["/login".into()]),
        ("/password/reset", vec!["/password/reset".into()]),
        ("/password/change", vec!["/password/change".into()]),
        ("/suppliers", vec!["/suppliers".into()]),
        ("/warehouses", vec!["/warehouses".into()]),
        ("/brands", vec!["/brands".into()]),
        ("/employees", vec!["/employees".into()]),
        ("/{list}", lists.iter().flat_map(|l| [format!("/{l}"), format!("/{l}?format=xlsx"), format!("/{l}?order_type=7")]).collect()),
        ("/order_detail/{route}/{id}", vec![format!("/order_detail/adjustments/{a}"), format!("/order_detail/invoices/{i}")]),
        ("/order_add/{route}", vec!["/order_add/adjustments".into(), "/order_add/purchase_orders".into(), "/order_add/bills".into()]),
        ("/order_add/{route}/{operation}", vec![format!("/order_add/bills/clone?from={i}"), format!("/order_add/invoices/clone?from={i}")]),
        ("/order_edit/{route}/{id}", vec![format!("/order_edit/adjustments/{a}"), format!("/order_edit/invoices/{i}")]),
        ("/order_nav/{id}", vec![format!("/order_nav/{a}?dir=next"), format!("/order_nav/{a}?dir=prev")]),
        ("/quotings", vec![format!("/quotings?key={}", "a"), "/quotings".into()]),
        ("/quotings/history/{id}", vec![format!("/quotings/history/{p}"), format!("/quotings/history/{p}?csr={c}")]),
        ("/ocops", vec!["/ocops?key=a".into()]),
        ("/sales_reports", vec!["/sales_reports".into()]),
        ("/purchase_reports", vec!["/purchase_reports".into()]),
        ("/inventory_reports", vec!["/inventory_reports".into()]),
        ("/order_print/batch", vec![format!("/order_print/batch?ids={i}")]),
        // Issue 33: a quotation never carries cost; the PO's PDF is refused without cost sight.
        ("/quotations", vec![format!("/quotations?customer={c}")]),
        ("/quotations/{id}/pdf", vec!["/quotations/1/pdf".into()]),
        ("/quotations/{id}/invoice", vec!["/quotations/1/invoice".into()]),
        ("/customers/{id}/statement", vec![format!("/customers/{c}/statement?month=2026-10")]),
        ("/purchase_order_print/{id}", vec![format!("/purchase_order_print/{i}")]),
        ("/order_print/{id}", vec![format!("/order_print/{i}?variant=standard"), format!("/order_print/{a}?variant=standard")]),
        // Issue 34: the picking list prints quantities and locations; the run sheet the
        // amounts to collect, never a cost.
        ("/dispatch/picking", vec![format!("/dispatch/picking?warehouse_id={}&order_id={i}", f.warehouse), format!("/dispatch/picking?warehouse_id={}&order_id={i}&per_sheet=1", f.warehouse)]),
        ("/dispatch/runs/{id}/run_sheet", vec!["/dispatch/runs/1/run_sheet".into()]),
        // A print job's status names the printer and the outcome, never a price (issue 33).
        ("/print_jobs/{id}", vec!["/print_jobs/1".into()]),
        // Dispatch (issue 34): board
        ("/dispatch", vec!["/dispatch".into(), format!("/dispatch?warehouse_id={}&part=table", f.warehouse)]),
        ("/dispatch/runs/{id}", vec!["/dispatch/runs/1".into()]),
        ("/dispatch/reconciliation", vec!["/dispatch/reconciliation".into(), "/dispatch/reconciliation?format=xlsx".into()]),
        // Purchasing (issue 35): landed costs — every page shows cost, so each is refused without cost sight.
        ("/landed_costs", vec!["/landed_costs".into()]),
        ("/landed_costs/new", vec![format!("/landed_costs/new?source_id={a}")]),
        ("/landed_costs/{id}", vec!["/landed_costs/1".into()]),
        ("/landed_costs/{id}/edit", vec!["/landed_costs/1/edit".into()]),
        ("/products/{id}/cost_history", vec![format!("/products/{p}/cost_history")]),
        // Purchasing (issue 35): purchase suggestions show quantities only, never a cost or a price.
        ("/purchase_suggestions", vec!["/purchase_suggestions".into(), format!("/purchase_suggestions?warehouse_id={}&shown=1", f.warehouse)]),
        ("/purchase_suggestions/created", vec![format!("/purchase_suggestions/created?ids={i}")]),
        ("/reports_download", vec!["/reports_download".into()]),
        ("/reports_download/jobs", vec!["/reports_download/jobs".into()]),
        ("/reports_download/template/{kind}", vec!["/reports_download/template/draft-inv".into(), "/reports_download/template/basic".into()]),
        ("/settings", vec!["/settings".into()]),
        ("/settings/logo", vec!["/settings/logo".into()]),
        // Purchasing (issue 35): what is coming is quantities and dates only.
        ("/quotings/coming/{id}", vec![format!("/quotings/coming/{p}")]),
        // Purchasing (issue 35): rates are no cost.
        ("/settings/exchange_rates", vec!["/settings/exchange_rates".into()]),
        ("/settings/xero/callback", vec!["/settings/xero/callback?error=access_denied&state=x".into()]),
        ("/products", vec!["/products".into(), "/products?format=xlsx".into()]),
        ("/customers", vec!["/customers".into(), "/customers?format=xlsx".into()]),
        ("/baseinfo/products", vec!["/baseinfo/products".into()]),
        ("/baseinfo/products/{id}", vec![format!("/baseinfo/products/{p}")]),
        ("/baseinfo/customers", vec!["/baseinfo/customers".into()]),
        ("/baseinfo/customers/{id}", vec![format!("/baseinfo/customers/{c}")]),
        ("/baseinfo/suppliers", vec!["/baseinfo/suppliers".into()]),
        ("/baseinfo/suppliers/{id}", vec![format!("/baseinfo/suppliers/{}", f.supplier)]),
        ("/baseinfo/warehouses", vec!["/baseinfo/warehouses".into()]),
        ("/baseinfo/warehouses/{id}", vec![format!("/baseinfo/warehouses/{}", f.warehouse)]),
        ("/baseinfo/brands", vec!["/baseinfo/brands".into()]),
        ("/baseinfo/brands/{id}", vec![format!("/baseinfo/brands/{}", f.brand)]),
        ("/baseinfo/employees", vec!["/baseinfo/employees".into()]),
        ("/baseinfo/employees/{id}", vec![format!("/baseinfo/employees/{}", f.employee)]),
        ("/api/account", vec!["/api/account".into()]),
        ("/api/brands", vec!["/api/brands".into()]),
        ("/api/warehouses", vec!["/api/warehouses".into()]),
        ("/api/employees", vec!["/api/employees".into()]),
        ("/api/area-types", vec!["/api/area-types".into()]),
        ("/api/payment-types", vec!["/api/payment-types".into()]),
        ("/api/printInfo", vec!["/api/printInfo".into()]),
        ("/api/csr-self-order", vec!["/api/csr-self-order".into()]),
        ("/api/customers", vec!["/api/customers".into(), "/api/customers?format=xlsx".into()]),
        ("/api/customers/{id}", vec![format!("/api/customers/{c}")]),
        ("/api/products", vec![format!("/api/products?ids={p}"), format!("/api/products?ids={p}&format=xlsx"), "/api/products?name=a".into(), format!("/api/products?ids={p}&customerId={c}&warehouseId={}", f.warehouse)]),
        ("/api/products/{id}", vec![format!("/api/products/{p}")]),
        ("/api/suppliers", vec!["/api/suppliers".into()]),
        ("/api/balance/{id}", vec![format!("/api/balance/{c}")]),
        ("/api/products/{id}/lots", vec![format!("/api/products/{p}/lots"), format!("/api/products/{p}/lots?warehouseId=1")]),
        ("/api/products/{id}/history", vec![format!("/api/products/{p}/history"), format!("/api/products/{p}/history?cId={c}")]),
        ("/api/orders", vec!["/api/orders?per_page=150".into(), "/api/orders?type=7".into(), "/api/orders?type=7&format=xlsx".into()]),
        ("/api/orders/{id}", vec![format!("/api/orders/{a}"), format!("/api/orders/{i}")]),
        ("/api/orders/{id}/history", vec![format!("/api/orders/{a}/history")]),
        ("/api/order-next", vec![format!("/api/order-next?id={a}")]),
        ("/api/xero/connection", vec!["/api/xero/connection".into()]),
        ("/api/due-date", vec![format!("/api/due-date?customerId={c}")]),
        ("/api/quotings", vec!["/api/quotings?key=a".into(), format!("/api/quotings?key=a&csr={c}")]),
        ("/api/ocops", vec![format!("/api/ocops?customerId={c}")]),
        ("/api/ocops/{id}", vec![format!("/api/ocops/{p}")]),
        ("/api/products/{id}/price-changes", vec![format!("/api/products/{p}/price-changes")]),
        ("/api/reports", vec!["/api/reports".into()]),
        // Report files are downloaded below, one of every kind.
        ("/api/download/{name}", vec![]),
        ("/static/{*path}", vec![]),
        // Dispatch (issue 34), driver: a run's link and a stop's proof need a run; the
        // driver's pages show sale amounts to collect, never a cost (tests/http/dispatch/driver.rs).
        ("/r/{token}", vec![]),
        ("/r/{token}/stops/{stop_id}", vec![]),
        ("/dispatch/proofs/{stop_id}", vec![]),
        ("/favicon.ico", vec![]),
        ("/healthz", vec!["/healthz".into()]),
    ]
}

/// The shop's GET routes: a customer never sees cost either.
fn shop_paths(f: &Fixture, shop_order: i64) -> Vec<(&'static str, Vec<String>)> {
    let p = f.product;
    vec![
        ("/shop", vec!["/shop".into(), "/shop?key=a".into()]),
        ("/shop/login", vec![]),
        ("/shop/password", vec!["/shop/password".into()]),
        ("/shop/products/{id}", vec![format!("/shop/products/{p}")]),
        ("/shop/cart", vec!["/shop/cart".into()]),
        ("/shop/checkout", vec!["/shop/checkout".into()]),
        ("/shop/orders", vec!["/shop/orders".into()]),
        ("/shop/orders/{id}", vec![format!("/shop/orders/{shop_order}")]),
        ("/shop/orders/{id}/invoice", vec![format!("/shop/orders/{shop_order}/invoice")]),
        ("/api/shop/products", vec!["/api/shop/products".into(), "/api/shop/products?key=a".into()]),
        ("/api/shop/products/{id}", vec![format!("/api/shop/products/{p}")]),
        ("/api/shop/orders", vec!["/api/shop/orders".into()]),
        ("/api/shop/orders/{id}", vec![format!("/api/shop/orders/{shop_order}")]),
    ]
}

/// The GET routes the routers declare (`.route("…", get(…)`), from their sources.
fn declared_get_routes() -> Vec<String> {
    let sources = [
        include_str!("../../../crates/web/src/pages/mod.rs"),
        include_str!("../../../crates/web/src/api/mod.rs"),
        include_str!("../../../crates/web/src/shop/mod.rs"),
        include_str!("../../../crates/web/src/server.rs"),
    ];
    let mut out = Vec::new();
    for src in sources {
        for line in src.lines() {
            let Some(at) = line.find(".route(\"") else { continue };
            let rest = &line[at + 8..];
            let Some(end) = rest.find('"') else { continue };
            if rest[end..].contains("get(") {
                out.push(rest[..end].to_string());
            }
        }
    }
    // The sheet lists are added outside the chain of `.route` calls.
    out.push("/{list}".into());
    out
}

#[tokio::test]
async fn no_route_answers_cost_or_reference_purchase_price_to_staff_who_may_not_see_it() {
    let (app, approver) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app, &approver).await;
    let sales = app.session("sales@demo.test").await;

    // Every declared GET route is in the sweep: a new route must say what it answers.
    let staff = staff_paths(&f);
    let shop_placeholder = shop_paths(&f, 0);
    let covered: Vec<&str> = staff.iter().chain(shop_placeholder.iter()).map(|(r, _)| *r).collect();
    for route in declared_get_routes() {
        assert!(covered.contains(&route.as_str()), "the cost sweep does not cover GET {route}");
    }

    // The figures are there to find: the approver sees them.
    for path in [format!("/api/products/{}", f.product), format!("/order_detail/adjustments/{}", f.adjustment), format!("/baseinfo/products/{}", f.product), format!("/api/orders/{}", f.invoice)] {
        let res = app.get(&path, Some(&approver)).await;
        assert!(!leaks(&res).is_empty(), "the approver sees cost at {path}: {}", &res.body[..res.body.len().min(400)]);
    }

    let mut asked = 0;
    for (route, paths) in &staff {
        for path in paths {
            let res = app.get(path, Some(&sales)).await;
            assert!(res.status != StatusCode::INTERNAL_SERVER_ERROR, "{path}: {}", res.body);
            assert_eq!(leaks(&res), Vec::<String>::new(), "{route}: {path} answers cost to sales@");
            asked += 1;
        }
    }

    // POSTs that answer lines or a re-rendered form.
    let line_file = crate::trust::uploads::sheet(&["Item Code", "In-Warehouse Qty"], &[vec![product_code(&app, f.product).await, "9".into()]]);
    let fields = [("orderType", "7".to_string()), ("warehouseId", f.warehouse.to_string())];
    let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let imported = crate::trust::uploads::upload(&app, &sales, "/api/ag/lines", &pairs, &line_file).await;
    assert_eq!(imported.status, StatusCode::OK, "{}", imported.body);
    assert_eq!(leaks(&imported), Vec::<String>::new(), "the line import answers cost");
    assert!(imported.json()["data"][0].get("price").is_none() && imported.json()["data"][0].get("costPrice").is_none(), "{}", imported.body);
    let lines = json!([{"productId": f.product, "inWarehouseQty": "9", "inSystemQty": "1"}]).to_string();
    let refused = app.post_form("/order_add/adjustments", &sales, &[("date", "not a date"), ("warehouse_id", &f.warehouse.to_string()), ("lines_json", &lines)]).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", &refused.body[..refused.body.len().min(300)]);
    assert_eq!(leaks(&refused), Vec::<String>::new(), "the refused form re-rendered with cost");

    // Reports of every kind, cost asked for: the files hold none.
    for kind in ["invoiceDetails", "saleSummary", "slowMoving", "purchaseDetails", "purchaseSummary", "transferDetails", "adjustmentDetails", "inventorySummary", "inventoryDetails", "tyreAge"] {
        let bytes = app.report_file(&sales, json!({"type": kind, "dateRange": ["2026-01-01", "2026-11-30"], "includeCost": "Yes"})).await;
        let res = TestResponse { status: StatusCode::OK, headers: Default::default(), body: String::new(), bytes };
        assert_eq!(leaks(&res), Vec::<String>::new(), "report {kind} shows cost to sales@");
        asked += 1;
    }

    // The shop, as a customer.
    let customer = crate::shop::signed_in(&app, crate::shop::SHOP, "tyredesk").await;
    let placed = app
        .request(Method::POST, "/api/shop/orders", Some(Body::from(json!({"lines": [{"productId": shown_product(&app).await, "quantity": 1}]}).to_string())), Some("application/json"), &[("cookie", &customer.cookie), ("x-csrf-token", &customer.csrf)])
        .await;
    let shop_order = placed.json()["data"]["id"].as_i64().or_else(|| placed.json()["id"].as_i64()).unwrap_or(0);
    for (route, paths) in shop_paths(&f, shop_order) {
        for path in paths {
            let res = app.get(&path, Some(&customer)).await;
            assert!(res.status != StatusCode::INTERNAL_SERVER_ERROR, "{path}: {}", res.body);
            assert_eq!(leaks(&res), Vec::<String>::new(), "{route}: {path} answers cost to a customer");
            asked += 1;
        }
    }
    assert!(asked > 100, "{asked} answers swept");
}

#[tokio::test]
async fn an_adjustment_is_saved_at_its_products_cost_and_shown_without_money_to_those_who_may_not_see_it() {
    let (app, approver) = TestApp::new().with_user("approver@demo.test").await;
    let f = fixture(&app, &approver).await;
    // Saved as the form sends it: counted and system quantities, no price.
    let sheet = app.get(&format!("/api/orders/{}", f.adjustment), Some(&approver)).await.json();
    let line = &sheet["data"]["lines"][0];
    assert_eq!((line["price"].as_i64(), line["line_amount"].as_i64()), (Some(COST), Some(ADJUSTED)), "{sheet}");
    assert_eq!(sheet["data"]["amount"].as_i64(), Some(ADJUSTED));
    // A price sent for an adjustment does not value the stock-take either.
    let sent = app
        .post_json("/api/orders", &approver, json!({"type": 7, "warehouseId": f.warehouse, "date": "2026-11-20", "lines": [{"seq": 1, "productId": f.product, "inWarehouseQty": 5, "inSystemQty": 4, "price": 1}]}))
        .await;
    let id = sent.json()["data"]["id"].as_i64().or_else(|| sent.json()["id"].as_i64()).unwrap();
    assert_eq!(app.get(&format!("/api/orders/{id}"), Some(&approver)).await.json()["data"]["lines"][0]["price"].as_i64(), Some(COST));

    let sales = app.session("sales@demo.test").await;
    let as_sales = app.get(&format!("/api/orders/{}", f.adjustment), Some(&sales)).await.json();
    let line = &as_sales["data"]["lines"][0];
    assert!(line.get("price").is_none() && line.get("line_amount").is_none() && line.get("costPrice").is_none(), "{as_sales}");
    assert!(as_sales["data"].get("amount").is_none(), "{as_sales}");
    assert!(line["inWarehouseQty"].as_i64().is_some(), "the counts show");
    let page = app.get(&format!("/order_detail/adjustments/{}", f.adjustment), Some(&sales)).await;
    assert!(page.body.contains("In-Warehouse") && !page.body.contains(">Cost<") && !page.body.contains("Total Amount"), "quantities only");
    let list = app.get("/adjustments", Some(&sales)).await;
    assert!(!list.body.contains(">Amount<"), "no Amount column in the adjustments list");
    // Sales staff may still count stock: the server values the sheet.
    let counted = app
        .post_json("/api/orders", &sales, json!({"type": 7, "warehouseId": f.warehouse, "date": "2026-11-20", "lines": [{"seq": 1, "productId": f.product, "inWarehouseQty": 2, "inSystemQty": 1}]}))
        .await;
    assert_eq!(counted.status, StatusCode::OK, "{}", counted.body);
    let id = counted.json()["data"]["id"].as_i64().or_else(|| counted.json()["id"].as_i64()).unwrap();
    let amount: i64 = app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::total_amount).first(c)?)).await.unwrap();
    assert_eq!(amount, COST);
}

async fn product_code(app: &TestApp, id: i64) -> String {
    app.state.db.run(move |c| Ok(products::table.find(id).select(products::code).first::<String>(c)?)).await.unwrap()
}

async fn shown_product(app: &TestApp) -> i64 {
    crate::shop::shown_and_hidden(app).await.0.0
}
