use axum::http::StatusCode;

use crate::support::TestApp;

#[tokio::test]
async fn start_up_lists_have_data_and_meta() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    // A start-up list whole: its rows in order and the paging meta every list carries.
    let areas = app.get("/api/area-types", Some(&s)).await.json();
    insta::assert_json_snapshot!("area_types", areas);
    let pays = app.get("/api/payment-types", Some(&s)).await.json();
    assert_eq!(pays["meta"]["total"], 17);
    assert!(pays["data"].as_array().unwrap().iter().any(|p| p["name"] == "CBD"));
    let brands = app.get("/api/brands?page=2&per_page=20", Some(&s)).await.json();
    assert_eq!(brands["meta"]["current_page"], 2);
    assert_eq!(brands["meta"]["per_page"], 20);
    let drivers = app.get("/api/employees?role=6", Some(&s)).await.json();
    let rows = drivers["data"].as_array().unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|e| e["role"] == 6 && e["roleDesc"] == "Driver"));
}

#[tokio::test]
async fn account_lists_usable_companies_with_flags() {
    let (app, s) = TestApp::new().with_user("multi@demo.test").await;
    // Both companies, in order, each with this user's role and permission flags there.
    let acct = app.get("/api/account", Some(&s)).await.json();
    insta::assert_json_snapshot!("account_of_a_user_in_two_companies", acct);
}

#[tokio::test]
async fn print_info_comes_from_the_company() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = app.get("/api/printInfo", Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK);
    // Every field the print layouts read, filled from company 4's settings.
    insta::assert_json_snapshot!("print_info_of_company_4", res.json());
}

#[tokio::test]
async fn malformed_json_is_a_400_with_a_message() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = app
        .request(
            axum::http::Method::POST,
            "/api/password",
            Some("{not json".into()),
            Some("application/json"),
            &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf)],
        )
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    // A message that says what was wrong and where, and no `errors` (no field is to blame).
    insta::assert_json_snapshot!("malformed_json_answer", res.json());
}
