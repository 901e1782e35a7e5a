use axum::http::StatusCode;

use crate::support::TestApp;

#[tokio::test]
async fn start_up_lists_have_data_and_meta() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let areas = app.get("/api/area-types", Some(&s)).await.json();
    let names: Vec<&str> = areas["data"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["North", "South", "East", "West", "Surrounding", "Regional"]);
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
    let acct = app.get("/api/account", Some(&s)).await.json();
    let data = acct["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    assert_eq!(data[0]["orgId"], 4);
    assert_eq!(data[0]["role"], 2);
    assert_eq!(data[1]["orgId"], 9);
    assert_eq!(data[1]["role"], 4);
    assert_eq!(data[1]["isAcct"], true);
    assert!(data[0]["companyName"].as_str().unwrap().contains("Southern Cross"));
}

#[tokio::test]
async fn print_info_comes_from_the_company() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = app.get("/api/printInfo", Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK);
    let info = res.json();
    for key in ["name", "anb", "addressLine1", "addressLine2", "phone", "email", "bankAccountName", "bsb", "bankAccount", "department_id", "logo", "website"] {
        assert!(!info["data"][key].is_null(), "printInfo.{key}");
    }
    assert_eq!(info["data"]["department_id"], 4);
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
    assert!(res.json()["message"].as_str().unwrap().len() > 5);
}
