//! Streamed pages keep their answers: a page addressed by an id still answers 404 for a
//! missing or foreign id (it looks the id up before its first byte), a clone refused by its
//! source still answers 400, and htmx requests get their fragment, or the page, whole.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use diesel::prelude::*;
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;
use db::schema::{customers, products, warehouses};

use crate::support::{Session, TestApp};

/// A draft invoice of company 4, made by `s`.
async fn draft_invoice(app: &TestApp, s: &Session) -> i64 {
    let (customer, warehouse, (product, price)) = app
        .state
        .db
        .run(|c| {
            let customer: i64 = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.ne(10)).select(customers::id).order(customers::id.asc()).first(c)?;
            let warehouse: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            let product: (i64, i64) = products::table.filter(products::org_id.eq(4)).select((products::id, products::class_a_price)).order(products::id.asc()).first(c)?;
            Ok((customer, warehouse, product))
        })
        .await
        .unwrap();
    let body = json!({"type": 1, "customerId": customer, "warehouseId": warehouse, "lines": [{"seq": 1, "productId": product, "quantity": 2, "price": price}]});
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.json()["data"]["id"].as_i64().unwrap()
}

/// The body frames of a GET with `headers` besides the session cookie.
async fn frames(app: &TestApp, path: &str, s: &Session, headers: &[(&str, &str)]) -> (StatusCode, Vec<String>) {
    let mut req = Request::builder().uri(path).header(header::COOKIE, &s.cookie);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = app.router.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let status = res.status();
    let mut body = res.into_body();
    let mut parts = vec![];
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.unwrap().into_data() {
            parts.push(String::from_utf8_lossy(&data).into_owned());
        }
    }
    (status, parts)
}

#[tokio::test]
async fn a_sheet_page_of_another_company_or_a_missing_sheet_is_not_found_before_anything_is_sent() {
    let (app, s4) = TestApp::new().with_user("sales@demo.test").await;
    let id = draft_invoice(&app, &s4).await;
    let s9 = app.session_in("multi@demo.test", 9).await;
    let missing = id + 1_000_000;
    let pages = |id: i64| [format!("/order_edit/invoices/{id}"), format!("/order_detail/invoices/{id}"), format!("/order_add/invoices/clone?from={id}")];
    for path in pages(id) {
        assert_eq!(app.get(&path, Some(&s4)).await.status, StatusCode::OK, "{path}: the company's own sheet");
        let (status, parts) = frames(&app, &path, &s9, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: another company's sheet");
        let body = parts.concat();
        assert!(body.contains("Not found") && !body.contains("<nav class=\"sidebar\""), "{path}: the error page, no streamed shell:\n{body}");
    }
    for path in pages(missing) {
        assert_eq!(app.get(&path, Some(&s4)).await.status, StatusCode::NOT_FOUND, "{path}: a missing sheet");
    }
    let refused = app.get(&format!("/order_add/invoices/cloneBillToInv?from={id}"), Some(&s4)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "Bill -> Invoice clones bills only");
    assert_eq!(app.get("/order_add/invoices/clone", Some(&s4)).await.status, StatusCode::BAD_REQUEST, "a clone names its source");
    assert_eq!(app.get("/order_add/invoices/nonsense", Some(&s4)).await.status, StatusCode::NOT_FOUND, "an unknown operation");
}

#[tokio::test]
async fn htmx_requests_to_streamed_pages_get_their_fragment_or_the_page_whole() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    for path in ["/quotings?key=r1", "/ocops?key=r1"] {
        let res = app.get_fragment(path, &s).await;
        assert_eq!(res.status, StatusCode::OK, "{path}");
        assert!(res.body.contains("<table") && !res.body.contains("<!doctype html>") && !res.body.contains("<nav class=\"sidebar\""), "{path}: the results alone:\n{}", res.body);
    }
    let id = draft_invoice(&app, &s).await;
    for path in [format!("/order_edit/invoices/{id}"), format!("/order_detail/invoices/{id}"), "/sales_reports".into()] {
        let (status, streamed) = frames(&app, &path, &s, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(streamed.len(), 2, "{path}: a plain request gets the head, then the rest");
        let (status, whole) = frames(&app, &path, &s, &[("hx-request", "true")]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(whole.len(), 1, "{path}: an htmx request gets the page in one part");
        assert!(whole[0].starts_with("<!doctype html>") && whole[0].trim_end().ends_with("</html>"), "{path}");
        assert_eq!(streamed.concat(), whole[0], "{path}: the streamed page is the page, cut in two");
    }
}

/// A shop page titled with a product or an order looks it up for the customer before its
/// first byte: another customer's, another company's, a hidden or a missing one is the 404
/// error page, with no streamed header. The check-out with nothing to order goes back to
/// the cart, also before anything is sent.
#[tokio::test]
async fn a_shop_page_of_a_record_not_the_customers_is_not_found_before_anything_is_sent() {
    use db::schema::orders;

    let app = TestApp::new().await;
    let a = crate::shop::signed_in(&app, crate::shop::SHOP, "tyredesk").await;
    let b = crate::shop::signed_in(&app, crate::shop::SHOP_OCOP, "tyredesk").await;
    let ((shown, _), (hidden, _)) = crate::shop::shown_and_hidden(&app).await;
    let (foreign_product, foreign_order): (i64, i64) = app
        .state
        .db
        .run(|c| {
            let p = products::table.filter(products::org_id.eq(9)).select(products::id).first(c)?;
            let o = orders::table.filter(orders::org_id.eq(9)).filter(orders::order_type.eq(1)).select(orders::id).first(c)?;
            Ok((p, o))
        })
        .await
        .unwrap();
    let (status, _) = frames(&app, "/shop/checkout", &a, &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "an empty cart has nothing to check out");
    crate::shop::add_to_cart(&app, &a, shown, "1").await;
    let order = crate::shop::check_out(&app, &a, "").await;
    let not_found = [
        (format!("/shop/products/{hidden}"), &a),
        (format!("/shop/products/{foreign_product}"), &a),
        (format!("/shop/products/{}", shown + 1_000_000), &a),
        (format!("/shop/orders/{order}"), &b),
        (format!("/shop/orders/{foreign_order}"), &a),
        (format!("/shop/orders/{}", order + 1_000_000), &a),
    ];
    for (path, s) in not_found {
        let (status, parts) = frames(&app, &path, s, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        let body = parts.concat();
        assert!(!body.contains("<header class=\"top\">"), "{path}: the error page, no streamed header:\n{body}");
    }
    assert_eq!(frames(&app, &format!("/shop/products/{shown}"), &a, &[]).await.0, StatusCode::OK, "the customer's own product page");
    assert_eq!(frames(&app, &format!("/shop/orders/{order}"), &a, &[]).await.0, StatusCode::OK, "the customer's own order");
    // Staff take the only product in the cart out of the shop: nothing is left to check out.
    crate::shop::add_to_cart(&app, &a, shown, "1").await;
    app.state.db.run(move |c| Ok(diesel::update(products::table.find(shown)).set(products::show_for_shop.eq(false)).execute(c)?)).await.unwrap();
    let res = app.get("/shop/checkout", Some(&a)).await;
    assert_eq!((res.status, res.location()), (StatusCode::SEE_OTHER, "/shop/cart"), "a cart of products no longer shown goes back to the cart");
}

/// An htmx request to a streamed shop page gets it in one part, the same page a plain
/// request gets in two.
#[tokio::test]
async fn htmx_requests_to_streamed_shop_pages_get_them_whole() {
    let app = TestApp::new().await;
    let s = crate::shop::signed_in(&app, crate::shop::SHOP, "tyredesk").await;
    let ((product, code), _) = crate::shop::shown_and_hidden(&app).await;
    crate::shop::add_to_cart(&app, &s, product, "1").await;
    let order = crate::shop::check_out(&app, &s, "").await;
    crate::shop::add_to_cart(&app, &s, product, "1").await;
    let paths = [format!("/shop?key={code}"), format!("/shop/products/{product}"), "/shop/cart".into(), "/shop/checkout".into(), "/shop/orders".into(), format!("/shop/orders/{order}"), "/shop/password".into()];
    for path in paths {
        let (status, streamed) = frames(&app, &path, &s, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(streamed.len(), 2, "{path}: a plain request gets the head, then the rest");
        assert!(streamed[0].ends_with("<main>"), "{path}: the first part ends where the content starts");
        let (status, whole) = frames(&app, &path, &s, &[("hx-request", "true")]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(whole.len(), 1, "{path}: an htmx request gets the page in one part");
        assert_eq!(streamed.concat(), whole[0], "{path}: the streamed page is the page, cut in two");
    }
}
