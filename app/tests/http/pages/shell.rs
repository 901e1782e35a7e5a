use axum::http::StatusCode;

use crate::support::TestApp;

#[tokio::test]
async fn header_and_menu_follow_the_spec() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let page = app.get("/warehouses", Some(&s)).await;
    for group in ["Express", "Sales", "Purchase", "Warehouse", "Reports", "Base Infos"] {
        assert!(page.body.contains(&format!("<h3>{group}</h3>")), "menu group {group}");
    }
    for item in ["Quoting", "OCOP Prices", "Invoices", "Credit Notes", "Purchase Orders", "Bills", "Bill Credit Notes", "Transfers", "Adjustments",
        "Sales Reports", "Purchase Reports", "Inventory Reports", "Reports Download", "Products", "Customers", "Suppliers", "Warehouses", "Brands", "Employees"] {
        assert!(page.body.contains(&format!(">{item}</a>")), "menu item {item}");
    }
    for (label, href) in [("Sales Invoice", "/order_add/invoices"), ("Sales Credit Note", "/order_add/credit_notes"), ("Purchase Order", "/order_add/purchase_orders"),
        ("Bills", "/order_add/bills"), ("Bill Credit Note", "/order_add/bill_credit_notes"), ("Transfer", "/order_add/transfers"),
        ("Adjustment", "/order_add/adjustments"), ("Product", "/baseinfo/products"), ("Customer", "/baseinfo/customers")] {
        assert!(page.body.contains(&format!(r#"<a href="{href}" target="_blank" rel="noopener">{label}</a>"#)), "Express New {label}");
    }
    assert!(page.body.contains(r#"href="/invoices?type=csr" target="_blank""#));
    assert!(page.body.contains("Hi, Sam Sales"));
    assert!(page.body.contains("Change Password"));
    assert!(page.body.contains(">Logout</button>"));
    assert!(page.body.contains("Southern Cross Tyres Pty Ltd"), "company switcher lists the company");
}

#[tokio::test]
async fn self_order_badge_counts_customer_drafts() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let cnt = app.get("/api/csr-self-order", Some(&s)).await.json()["cnt"].as_i64().unwrap();
    assert!(cnt > 0, "demo data has customer self-orders");
    let page = app.get("/brands", Some(&s)).await;
    assert!(page.body.contains(&format!(r#"data-poll-url="/api/csr-self-order">{cnt}</span>"#)), "badge shows {cnt}");
}

#[tokio::test]
async fn island_bundles_and_static_files_are_served() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let page = app.get("/brands", Some(&s)).await;
    assert!(page.body.contains(r#"<app-island name="change-password" load="interaction" src="/static/islands/assets/change-password-"#));
    let loader = page.body.split(r#"<script type="module" async src=""#).nth(1).and_then(|r| r.split('"').next()).expect("loader script tag");
    let js = app.get(loader, None).await;
    assert_eq!(js.status, StatusCode::OK);
    assert!(js.headers["content-type"].to_str().unwrap().contains("javascript"));
    assert!(js.headers["cache-control"].to_str().unwrap().contains("immutable"));
    let css_href = page.body.split(r#"<link rel="stylesheet" href=""#).nth(1).and_then(|r| r.split('"').next()).unwrap();
    assert!(css_href.starts_with("/static/css/app.css?v="), "versioned css url {css_href}");
    let css = app.get(css_href, None).await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css.headers["content-type"].to_str().unwrap().starts_with("text/css"));
    assert_eq!(app.get("/static/nope.js", None).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_reports_screen_opens_inside_the_shell() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    for (path, title) in [
        ("/sales_reports", "Sales Reports"),
        ("/purchase_reports", "Purchase Reports"),
        ("/inventory_reports", "Inventory Reports"),
        ("/reports_download", "Reports Download Center"),
    ] {
        let res = app.get(path, Some(&s)).await;
        assert_eq!(res.status, StatusCode::OK, "{path}");
        assert!(res.body.contains(&format!("<title>{title} - TyreDesk</title>")), "{path}");
        assert!(!res.body.contains("not available in this version"), "{path}");
    }
}
