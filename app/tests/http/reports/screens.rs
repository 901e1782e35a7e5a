//! The three report request screens (spec §2.9): each answers inside the shell with the
//! `report-form` island and its props, resolved in the signed-in company; what the island
//! submits is what `POST /api/reports` accepts.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::support::{Session, TestApp};

/// The screens, their titles and the report types of their tabs, in order.
const SCREENS: &[(&str, &str, &[&str])] = &[
    ("/sales_reports", "Sales Reports", &["invoiceDetails", "saleSummary", "slowMoving"]),
    ("/purchase_reports", "Purchase Reports", &["purchaseDetails", "purchaseSummary"]),
    ("/inventory_reports", "Inventory Reports", &["transferDetails", "adjustmentDetails", "inventorySummary", "inventoryDetails", "tyreAge"]),
];

/// Undoes askama's attribute escaping.
fn unescape(s: &str) -> String {
    s.replace("&#34;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&#60;", "<").replace("&gt;", ">").replace("&#62;", ">").replace("&amp;", "&").replace("&#38;", "&")
}

/// The props of the page's `report-form` island, parsed.
fn island_props(html: &str) -> Value {
    let start = html.find(r#"<app-island name="report-form""#).expect("the report-form island");
    let tag = &html[start..start + html[start..].find('>').expect("end of the tag")];
    let raw = tag.split(r#"props=""#).nth(1).and_then(|r| r.split('"').next()).expect("props attribute");
    serde_json::from_str(&unescape(raw)).unwrap_or_else(|e| panic!("props are JSON ({e}): {raw}"))
}

async fn props_of(app: &TestApp, path: &str, s: &Session) -> Value {
    let page = app.get(path, Some(s)).await;
    assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
    island_props(&page.body)
}

fn ids(list: &Value) -> Vec<i64> {
    let mut v: Vec<i64> = list.as_array().expect("a list").iter().map(|w| w["id"].as_i64().expect("an id")).collect();
    v.sort_unstable();
    v
}

#[tokio::test]
async fn each_screen_answers_inside_the_shell_with_the_island_and_its_tabs() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    for (path, title, kinds) in SCREENS {
        let page = app.get(path, Some(&s)).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        let html = &page.body;
        assert!(html.contains(&format!("<title>{title} - TyreDesk</title>")), "{path} title");
        assert!(html.contains(&format!(r#"<a href="{path}" class="active" aria-current="page">"#)), "{path} is the active menu entry");
        assert!(html.contains(r#"<app-island name="report-form" src="/static/islands/assets/report-form-"#), "{path} mounts the built island");
        // The island's own first render is in the page (issue 16), in place of the fallback.
        let island = &html[html.find(r#"<app-island name="report-form""#).unwrap()..];
        assert!(island[..island.find('>').unwrap()].ends_with(" ssr"), "{path} sends the form rendered");
        assert!(!html.contains("Loading the report form…"), "{path} needs no fallback");
        assert!(!html.contains("not available in this version"), "{path} is no longer pending");
        let props = island_props(html);
        let types: Vec<&str> = props["tabs"].as_array().unwrap().iter().map(|t| t["type"].as_str().unwrap()).collect();
        assert_eq!(&types, kinds, "{path} tabs");
        for tab in props["tabs"].as_array().unwrap() {
            let title = tab["title"].as_str().unwrap().replace('&', "&amp;");
            assert!(island.contains(&format!(">{title}<")), "the rendered form names the tab {title}");
        }
        assert_eq!(props["maySeeCost"], true, "an approver may see cost");
        let today = domain::dates::today(domain::dates::DEFAULT_ZONE).to_string();
        assert_eq!(props["today"], today.as_str());
        assert_eq!(props["areas"].as_array().unwrap().len(), 6);
        assert_eq!(props["payments"].as_array().unwrap().len(), 17);
        assert!(props["categories"].as_array().unwrap().iter().any(|c| c["label"] == "Batteries/AGM"));
    }
}

#[tokio::test]
async fn choices_come_from_the_signed_in_company_only() {
    let (app, s4) = TestApp::new().with_user("multi@demo.test").in_org(4).await;
    let s9 = app.session_in("multi@demo.test", 9).await;
    let own = ids(&app.get("/api/warehouses", Some(&s4)).await.json()["data"]);
    let other = ids(&app.get("/api/warehouses", Some(&s9)).await.json()["data"]);
    assert!(!own.is_empty() && !other.is_empty(), "both demo companies have warehouses");
    assert!(own.iter().all(|w| !other.contains(w)));
    for (path, _, _) in SCREENS {
        let props = props_of(&app, path, &s4).await;
        assert_eq!(ids(&props["warehouses"]), own, "{path}: company 4's warehouses, not company 9's");
        let brands = ids(&app.get("/api/brands", Some(&s4)).await.json()["data"]);
        assert_eq!(ids(&props["brands"]), brands, "{path}: company 4's brands");
        assert_eq!(ids(&props_of(&app, path, &s9).await["warehouses"]), other, "{path} in company 9");
    }
}

#[tokio::test]
async fn include_cost_is_not_offered_to_staff_who_may_not_see_cost() {
    let (app, sales) = TestApp::new().with_user("sales@demo.test").in_org(4).await;
    let approver = app.session_in("approver@demo.test", 4).await;
    let p = props_of(&app, "/sales_reports", &sales).await;
    assert_eq!(p["maySeeCost"], false, "sales staff get no Include Cost");
    assert_eq!(props_of(&app, "/sales_reports", &approver).await["maySeeCost"], true);
    let cost_tabs: Vec<&str> = p["tabs"].as_array().unwrap().iter().filter(|t| t["canShowCost"] == true).map(|t| t["type"].as_str().unwrap()).collect();
    assert_eq!(cost_tabs, ["invoiceDetails", "saleSummary", "slowMoving"]);
    let purchase = props_of(&app, "/purchase_reports", &approver).await;
    assert!(purchase["tabs"].as_array().unwrap().iter().all(|t| t["canShowCost"] == false), "purchase reports have no cost columns");
}

#[tokio::test]
async fn the_sales_tags_leave_out_purchase_only_tags_and_inventory_has_none() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").in_org(4).await;
    let labels = |p: &Value| p["tags"].as_array().unwrap().iter().map(|t| t["label"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(labels(&props_of(&app, "/sales_reports", &s).await), ["Normal", "Adjustment", "Special Sale", "Giftware"]);
    assert_eq!(labels(&props_of(&app, "/purchase_reports", &s).await), ["Normal", "Adjustment", "Outsourcing"]);
    assert!(labels(&props_of(&app, "/inventory_reports", &s).await).is_empty());
}

#[tokio::test]
async fn the_payload_the_form_sends_is_queued_and_a_bad_field_is_named() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let props = props_of(&app, "/sales_reports", &s).await;
    let wh = props["warehouses"][0]["id"].clone();
    let today = props["today"].as_str().unwrap().to_string();
    let first = format!("{}-01", &today[..7]);
    // What the island builds for a chosen warehouse and Include Cost Yes (see
    // islands/src/islands/report-form/payload.ts).
    let body = json!({"type": "invoiceDetails", "group": "asCustomers", "dateType": "date", "dateRange": [first, today],
                      "warehouses": [wh], "includeCost": "Yes"});
    let res = app.post_json("/api/reports", &s, body).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    assert_eq!(res.json()["message"], "Preparing for the report, please check it later");
    let slow = json!({"type": "slowMoving", "dueDate": today, "unSoldDay": 30, "lessThan": 2, "includeCost": "No"});
    assert_eq!(app.post_json("/api/reports", &s, slow).await.status, StatusCode::CREATED);
    let bad = app.post_json("/api/reports", &s, json!({"type": "slowMoving", "unSoldDay": 0})).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.json()["errors"]["unSoldDay"].is_string(), "the form shows this next to Unsolde days: {}", bad.body);
}
