//! Products and customers lists: every filter, sort and export.

use std::io::Cursor;

use axum::http::StatusCode;
use calamine::{Data, Reader, Xlsx};

use crate::support::{Session, TestApp, body_rows};

async fn total(app: &TestApp, s: &Session, path: &str) -> i64 {
    let res = app.get(path, Some(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.body);
    let t = res.body.split("<span class=\"total\">Total ").nth(1).and_then(|r| r.split('<').next()).unwrap_or_else(|| panic!("no total in {path}"));
    t.parse().unwrap()
}

fn cells(html: &str, col: usize) -> Vec<String> {
    let start = html.find("<tbody>").unwrap();
    let end = html[start..].find("</tbody>").unwrap() + start;
    html[start..end]
        .split("<tr")
        .skip(1)
        .map(|row| row.split("<td").nth(col + 1).and_then(|c| c.split_once('>')).map(|(_, v)| v.split("</td>").next().unwrap_or("").to_string()).unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn item_key_finds_tyres_in_every_size_spelling() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let base = total(&app, &s, "/products?key=2055516&per_page=150").await;
    assert!(base > 0, "demo catalogue has 205/55R16 tyres");
    for spelling in ["205%2F55R16", "205%2F55+R16", "205%2F55ZR16", "205+55+16", "205%2F55r16"] {
        assert_eq!(total(&app, &s, &format!("/products?key={spelling}&per_page=150")).await, base, "{spelling}");
    }
    let page = app.get("/products?key=205%2F55R16&per_page=150", Some(&s)).await;
    for name in cells(&page.body, 1) {
        assert!(name.starts_with("205/55R16") || name.starts_with("205/55ZR16"), "{name}");
    }
    let narrowed = total(&app, &s, "/products?key=205%2F55R16+91V&per_page=150").await;
    assert!(narrowed > 0 && narrowed <= base, "91V narrows ({narrowed} of {base})");
    let page = app.get("/products?key=205%2F55R16+91V&per_page=150", Some(&s)).await;
    assert!(cells(&page.body, 1).iter().all(|n| n.contains("91V")));
    assert_eq!(total(&app, &s, "/products?key=no-such-thing-xyz").await, 0);
}

#[tokio::test]
async fn item_key_matches_code_helper_code_and_name() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let first = app.get("/api/products?per_page=1", Some(&s)).await.json()["data"][0].clone();
    let code = first["code"].as_str().unwrap();
    assert!(total(&app, &s, &format!("/products?key={}", urlencode(code))).await >= 1);
    let name = first["name"].as_str().unwrap();
    assert!(total(&app, &s, &format!("/products?key={}", urlencode(name))).await >= 1);
}

fn urlencode(s: &str) -> String {
    serde_urlencoded::to_string([("k", s)]).unwrap().trim_start_matches("k=").to_string()
}

#[tokio::test]
async fn product_filters_each_narrow_the_list() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let all = total(&app, &s, "/products").await;
    let wheels = total(&app, &s, "/products?category=5").await;
    let alloy = total(&app, &s, "/products?category=51").await;
    assert!(wheels > 0 && alloy > 0 && alloy < wheels && wheels < all, "{alloy} < {wheels} < {all}");
    let page = app.get("/products?category=51&per_page=150", Some(&s)).await;
    assert!(cells(&page.body, 3).iter().all(|c| c == "Wheels/Alloy"));
    let brands = app.get("/api/brands", Some(&s)).await.json();
    let michelin = brands["data"].as_array().unwrap().iter().find(|b| b["name"] == "Michelin").expect("Michelin brand")["id"].as_i64().unwrap();
    let page = app.get(&format!("/products?brand={michelin}&per_page=150"), Some(&s)).await;
    let brand_cells = cells(&page.body, 2);
    assert!(!brand_cells.is_empty() && brand_cells.iter().all(|b| b == "Michelin"));
    // 'All' and '0' are dropped: same as no filter.
    assert_eq!(total(&app, &s, "/products?brand=0&category=All&tag2=").await, all);
    let first_tag2 = app.get("/api/products?per_page=50", Some(&s)).await.json()["data"].as_array().unwrap().iter().map(|p| p["tag2"].as_str().unwrap().to_string()).find(|t| !t.is_empty()).unwrap();
    let t2 = total(&app, &s, &format!("/products?tag2={}", urlencode(&first_tag2))).await;
    assert!(t2 > 0 && t2 < all);
    assert_eq!(total(&app, &s, "/products?date_type=created&from=2099-01-01").await, 0);
    assert_eq!(total(&app, &s, "/products?date_type=modified&to=2000-01-01").await, 0);
    assert_eq!(total(&app, &s, "/products?date_type=created&from=2000-01-01&to=2099-12-31").await, all);
    let sent = total(&app, &s, "/products?xero=sent").await;
    let unsent = total(&app, &s, "/products?xero=unsent").await;
    assert!(sent > 0 && unsent > 0 && sent + unsent <= all);
    let bad = app.get("/products?from=not-a-date", Some(&s)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn product_sort_types_order_by_code_and_dates() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let desc = cells(&app.get("/products?sort=1", Some(&s)).await.body, 0);
    let asc = cells(&app.get("/products?sort=2", Some(&s)).await.body, 0);
    let mut sorted = asc.clone();
    sorted.sort();
    assert_eq!(asc, sorted);
    assert!(desc[0] > asc[0]);
    for sort in 3..=6 {
        assert_eq!(body_rows(&app.get(&format!("/products?sort={sort}"), Some(&s)).await.body), 20, "sort {sort}");
    }
}

#[tokio::test]
async fn product_rows_link_to_edit_in_a_new_tab_and_show_locations() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let page = app.get("/products", Some(&s)).await;
    assert!(page.body.contains(r#"<a class="btn primary" href="/baseinfo/products" target="_blank" rel="noopener">+ New Product</a>"#));
    assert!(page.body.contains(r#"href="/baseinfo/products/"#) && page.body.contains(">Edit</a>"));
    assert!(page.body.contains(r#"<span class="tag tag-grey">"#), "location tags");
    assert!(page.body.contains(r#"<datalist id="dl-key"><option value="#), "tyre size suggestions");
    assert_eq!(page.body.matches(r#"<datalist id="dl-key">"#).count(), 1);
}

#[tokio::test]
async fn customer_filters_each_narrow_the_list() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let all = total(&app, &s, "/customers").await;
    for (param, max) in [("payment_type=10", all), ("area_type=1", all), ("price_type=6", all), ("business_type=2", all)] {
        let n = total(&app, &s, &format!("/customers?{param}")).await;
        assert!(n > 0 && n < max, "{param}: {n} of {all}");
    }
    let page = app.get("/customers?payment_type=10&per_page=150", Some(&s)).await;
    assert!(cells(&page.body, 5).iter().all(|c| c == "CBD"));
    let first = app.get("/api/customers?per_page=1", Some(&s)).await.json()["data"][0].clone();
    let word = first["name"].as_str().unwrap().split_whitespace().next().unwrap().to_string();
    let n = total(&app, &s, &format!("/customers?key={}", urlencode(&word))).await;
    assert!(n >= 1 && n < all);
    assert_eq!(total(&app, &s, "/customers?date_type=created&from=2099-01-01").await, 0);
    let page = app.get("/customers", Some(&s)).await;
    assert!(page.body.contains("+ New Customer"));
    assert!(page.body.contains(r#"href="/baseinfo/customers/"#));
}

fn read_xlsx(bytes: &[u8], sheet: &str) -> Vec<Vec<Data>> {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).unwrap();
    book.worksheet_range(sheet).unwrap().rows().map(|r| r.to_vec()).collect()
}

async fn download(app: &TestApp, s: &Session, path: &str) -> (String, StatusCode) {
    let res = app.request(axum::http::Method::GET, path, None, None, &[("cookie", &s.cookie)]).await;
    assert_eq!(res.status, StatusCode::OK);
    (res.headers["content-disposition"].to_str().unwrap().to_string(), res.status)
}

#[tokio::test]
async fn exports_follow_the_current_filters() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let wheels = total(&app, &s, "/products?category=5").await;
    let page = app.get("/products?category=5", Some(&s)).await;
    assert!(page.body.contains(r#"id="export-link" class="btn" href="/products?category=5&#38;format=xlsx""#), "export link carries the filters");
    let (disp, _) = download(&app, &s, "/products?category=5&format=xlsx").await;
    assert!(disp.contains("products.xlsx"));
    let raw = raw_body(&app, &s, "/products?category=5&format=xlsx").await;
    let rows = read_xlsx(&raw, "Products");
    assert_eq!(rows[0][0], Data::String("Item Code".into()));
    assert_eq!(rows.len() as i64 - 1, wheels, "one row per matching product");
    assert!(rows[1..].iter().all(|r| r[4].to_string().starts_with("Wheels")));
    assert!(matches!(rows[1][10], Data::Float(_)), "standard price is a number");
    assert!(matches!(rows[1][14], Data::DateTime(_)), "created is a date");

    let cbd = total(&app, &s, "/customers?payment_type=10").await;
    let raw = raw_body(&app, &s, "/customers?payment_type=10&format=xlsx").await;
    let rows = read_xlsx(&raw, "Customers");
    assert_eq!(rows.len() as i64 - 1, cbd);
    assert!(rows[1..].iter().all(|r| r[11] == Data::String("CBD".into())));
    let (disp, _) = download(&app, &s, "/customers?format=xlsx").await;
    assert!(disp.contains("csr.xlsx"));
}

async fn raw_body(app: &TestApp, s: &Session, path: &str) -> Vec<u8> {
    use axum::body::Body;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let req = axum::http::Request::get(path).header("cookie", &s.cookie).body(Body::empty()).unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    res.into_body().collect().await.unwrap().to_bytes().to_vec()
}

#[tokio::test]
async fn api_product_and_customer_searches() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let tyres = app.get("/api/products?name=205%2F55R16", Some(&s)).await.json();
    assert!(tyres["meta"]["total"].as_i64().unwrap() > 0);
    let ids: Vec<String> = tyres["data"].as_array().unwrap().iter().take(2).map(|p| p["id"].to_string()).collect();
    let by_ids = app.get(&format!("/api/products?ids={}", ids.join(",")), Some(&s)).await.json();
    assert_eq!(by_ids["data"].as_array().unwrap().len(), 2);
    let cust = app.get("/api/customers", Some(&s)).await.json();
    let cids: Vec<String> = cust["data"].as_array().unwrap().iter().take(3).map(|c| c["id"].to_string()).collect();
    let by_ids = app.get(&format!("/api/customers?ids={}", cids.join(",")), Some(&s)).await.json();
    assert_eq!(by_ids["meta"]["total"], 3);
}
