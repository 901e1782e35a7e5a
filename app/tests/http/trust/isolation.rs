use axum::http::StatusCode;

use crate::support::TestApp;

/// Ids of org-9 rows, read through an org-9 session.
async fn foreign_ids(app: &TestApp) -> (i64, i64) {
    let s9 = app.session("multi@demo.test").await;
    app.post_form("/switch-org", &s9, &[("org_id", "9")]).await;
    let customers = app.get("/api/customers?per_page=1", Some(&s9)).await.json();
    let products = app.get("/api/products?per_page=1", Some(&s9)).await.json();
    (customers["data"][0]["id"].as_i64().unwrap(), products["data"][0]["id"].as_i64().unwrap())
}

#[tokio::test]
async fn another_companys_record_is_not_found_in_html_and_json() {
    let app = TestApp::new().await;
    let (customer9, product9) = foreign_ids(&app).await;
    let s4 = app.session("sales@demo.test").await;
    for path in [format!("/api/customers/{customer9}"), format!("/api/products/{product9}")] {
        let res = app.get(&path, Some(&s4)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(res.json()["message"], "Not found");
    }
    for path in [format!("/baseinfo/customers/{customer9}"), format!("/baseinfo/products/{product9}")] {
        let res = app.get(&path, Some(&s4)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
        assert!(res.body.contains("Not found"));
    }
    // The same ids open for the company that owns them.
    let s9 = app.session("approver@demo.test").await;
    app.post_form("/switch-org", &s9, &[("org_id", "9")]).await;
    assert_eq!(app.get(&format!("/api/customers/{customer9}"), Some(&s9)).await.status, StatusCode::OK);
    assert_eq!(app.get(&format!("/baseinfo/products/{product9}"), Some(&s9)).await.status, StatusCode::OK);
}

#[tokio::test]
async fn lists_only_show_the_current_company() {
    let (app, s) = TestApp::new().with_user("multi@demo.test").await;
    let w4 = app.get("/api/warehouses", Some(&s)).await.json();
    app.post_form("/switch-org", &s, &[("org_id", "9")]).await;
    let w9 = app.get("/api/warehouses", Some(&s)).await.json();
    let ids4: Vec<i64> = w4["data"].as_array().unwrap().iter().map(|w| w["id"].as_i64().unwrap()).collect();
    let ids9: Vec<i64> = w9["data"].as_array().unwrap().iter().map(|w| w["id"].as_i64().unwrap()).collect();
    assert!(!ids4.is_empty() && !ids9.is_empty());
    assert!(ids4.iter().all(|i| !ids9.contains(i)));
}
