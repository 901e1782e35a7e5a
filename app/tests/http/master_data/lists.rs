use axum::http::StatusCode;

use crate::support::{TestApp, body_rows, normalise_html};

#[tokio::test]
async fn base_info_lists_render_without_filter_card_or_new_button() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    for (path, heading, column) in [
        ("/suppliers", "Suppliers", "Primary Person"),
        ("/warehouses", "Warehouses", "Address"),
        ("/brands", "Brands", "Presented to CSR"),
        ("/employees", "Employees", "Role"),
    ] {
        let res = app.get(path, Some(&s)).await;
        assert_eq!(res.status, StatusCode::OK, "{path}");
        assert!(res.body.contains(&format!("<title>{heading} - TyreDesk</title>")), "{path} title");
        assert!(res.body.contains(&format!("<h1>{heading}</h1>")));
        assert!(res.body.contains(&format!(">{column}</th>")), "{path} column {column}");
        assert!(!res.body.contains("search-card"), "{path} has no filter card");
        assert!(!res.body.contains("+ New"), "{path} has no + New");
        assert!(res.body.contains("class=\"pagination\""));
        assert!(body_rows(&res.body) > 0, "{path} shows rows");
        assert!(res.body.contains(&format!(r#"href="{path}" class="active""#)), "{path} menu entry active");
    }
}

#[tokio::test]
async fn paging_moves_through_rows_and_keeps_the_size() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let all = app.get("/api/brands", Some(&s)).await.json();
    let total = all["meta"]["total"].as_i64().unwrap();
    assert!(total > 20, "demo data has more brands than one page ({total})");
    let first = app.get("/brands", Some(&s)).await;
    assert!(first.body.contains(&format!("Total {total}")));
    assert_eq!(body_rows(&first.body), 20);
    assert!(first.body.contains(r#"href="/brands?page=2&#38;per_page=20""#), "next page link");
    let second = app.get("/brands?page=2&per_page=20", Some(&s)).await;
    assert_eq!(body_rows(&second.body) as i64, total - 20);
    let first_name = all["data"][0]["name"].as_str().unwrap();
    let twentyfirst = all["data"][20]["name"].as_str().unwrap();
    assert!(first.body.contains(first_name) && !second.body.contains(&format!("<td>{first_name}</td>")));
    assert!(second.body.contains(twentyfirst));
    let fifty = app.get("/brands?per_page=50", Some(&s)).await;
    assert_eq!(body_rows(&fifty.body) as i64, total.min(50));
    let odd = app.get("/brands?per_page=33", Some(&s)).await;
    assert_eq!(body_rows(&odd.body), 20, "sizes outside 20/50/100/150 fall back to the default");
    let beyond = app.get("/brands?page=99", Some(&s)).await;
    assert!(beyond.body.contains("No Data"));
}

#[tokio::test]
async fn htmx_gets_only_the_results_fragment() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = app.get_fragment("/brands?page=2&per_page=20", &s).await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.body.starts_with("<div class=\"table-scroll\"><table class=\"data-table\">"), "{}", &res.body[..80.min(res.body.len())]);
    // Only the table and its pager: page 2's eleven brands in name order, no page around them.
    insta::assert_snapshot!("brands_page_2_fragment", normalise_html(&res.body));
}

#[tokio::test]
async fn employees_show_role_names_and_every_staff_member() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let res = app.get("/employees?per_page=100", Some(&s)).await;
    for text in ["Alex Approver", "approver@demo.test", "Approver", "Driver", "Business staff"] {
        assert!(res.body.contains(text), "missing {text}");
    }
}
