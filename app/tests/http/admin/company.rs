//! Running the company (issue 13): supplier, warehouse and brand forms; organisation
//! settings with their audit rows; staff — add, one-time password, forced change,
//! deactivation, the last-approver rule; role checks.

use axum::http::StatusCode;

use crate::support::{Session, TestApp, extract_input};

const OK_TOAST: &str = "Operation successful";
const LOCKED: &str = "This field cannot be changed once the record exists.";
const CONFLICT: &str = "This record was changed by someone else since you opened it. Reload to see the latest version.";
const APPROVER_ONLY: &str = "Only an approver (role 4) may change suppliers, warehouses, brands, staff and settings.";

async fn user_id(app: &TestApp, email: &'static str) -> i64 {
    app.state.db.run(move |c| db::accounts::user_by_email(c, email)).await.unwrap().unwrap().id
}

/// The message under a field.
fn field_error(html: &str, name: &str) -> String {
    let marker = format!("id=\"e-{name}\">");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no error slot for {name}")) + marker.len();
    html[start..].split('<').next().unwrap_or_default().to_string()
}

fn id_from(location: &str) -> i64 {
    location.rsplit('/').next().unwrap().split('?').next().unwrap().parse().unwrap_or_else(|_| panic!("no id in {location}"))
}

async fn audit_rows(app: &TestApp, org: i64) -> Vec<(String, String, String)> {
    app.state
        .db
        .run(move |c| db::reference_data::recent_audit(c, org, 100))
        .await
        .unwrap()
        .into_iter()
        .map(|a| (a.entity, a.action, a.detail))
        .collect()
}

#[tokio::test]
async fn an_approver_adds_and_edits_a_supplier_and_raises_a_po_for_it() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let list = app.get("/suppliers", Some(&s)).await;
    assert!(list.body.contains("+ New Supplier") && list.body.contains("href=\"/baseinfo/suppliers/"), "approvers get New and Edit");
    let form = app.get("/baseinfo/suppliers", Some(&s)).await;
    assert_eq!(form.status, StatusCode::OK);

    let missing = app.post_form("/baseinfo/suppliers", &s, &[("code", ""), ("name", "")]).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&missing.body, "code"), "Please enter");

    let created = app.post_form("/baseinfo/suppliers", &s, &[("code", "SUP-NEW"), ("name", "Nexen Tyres AU"), ("primary_person_first", "Jo")]).await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let id = id_from(created.location());
    let page = app.get(created.location(), Some(&s)).await;
    assert!(page.body.contains(OK_TOAST) && page.body.contains("Nexen Tyres AU"));

    let dup = app.post_form("/baseinfo/suppliers", &s, &[("code", "SUP-NEW"), ("name", "Other")]).await;
    assert_eq!(dup.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&dup.body, "code"), "This code is already used by another supplier.");

    // The supplier search of the purchase form finds it, and a PO can be raised for it.
    let found = app.get("/api/suppliers?name=nexen", Some(&s)).await;
    assert!(found.body.contains("Nexen Tyres AU"), "{}", found.body);
    let (product, warehouse) = app
        .state
        .db
        .run(|c| {
            use diesel::prelude::*;
            use db::schema::{products, warehouses};
            let p: i64 = products::table.filter(products::org_id.eq(4)).filter(products::category.eq(1)).select(products::id).order(products::id).first(c)?;
            let w: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).select(warehouses::id).order(warehouses::id).first(c)?;
            Ok((p, w))
        })
        .await
        .unwrap();
    let lines = serde_json::json!([{"seq": 1, "productId": product, "quantity": 2, "price": 5_000}]);
    let po = app.post_json("/api/orders", &s, serde_json::json!({"type": 3, "supplierId": id, "warehouseId": warehouse, "lines": lines})).await;
    assert_eq!(po.status, StatusCode::OK, "{}", po.body);

    let version = extract_input(&page.body, "version");
    let locked = app.post_form(&format!("/baseinfo/suppliers/{id}"), &s, &[("code", "SUP-OTHER"), ("name", "Nexen"), ("version", &version)]).await;
    assert_eq!(field_error(&locked.body, "code"), LOCKED);
    // The supplier's e-mail (where its POs are e-mailed) is optional and checked.
    let bad = app.post_form(&format!("/baseinfo/suppliers/{id}"), &s, &[("code", "SUP-NEW"), ("name", "Nexen"), ("email", "orders at nexen"), ("version", &version)]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!field_error(&bad.body, "email").is_empty(), "{}", bad.body);
    let saved = app.post_form(&format!("/baseinfo/suppliers/{id}"), &s, &[("code", "SUP-NEW"), ("name", "Nexen Tyre Australia"), ("primary_person_first", "Jo"), ("email", "orders@nexen.test"), ("version", &version)]).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    assert!(app.get(&format!("/baseinfo/suppliers/{id}"), Some(&s)).await.body.contains("value=\"orders@nexen.test\""));
    let stale = app.post_form(&format!("/baseinfo/suppliers/{id}"), &s, &[("name", "Lost update"), ("version", &version)]).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert!(stale.body.contains(CONFLICT));

    let audit = audit_rows(&app, 4).await;
    assert!(audit.iter().any(|(e, a, d)| e == "supplier" && a == "update" && d.starts_with("Name: Nexen Tyres AU → Nexen Tyre Australia") && d.contains("E-mail:  → orders@nexen.test")), "{audit:?}");
    assert!(audit.iter().any(|(e, a, _)| e == "supplier" && a == "create"));
}

#[tokio::test]
async fn warehouses_and_brands_have_forms_with_their_shop_flags() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let w = app.post_form("/baseinfo/warehouses", &s, &[("code", "MEL"), ("name", "Melbourne"), ("address", "1 Dock Rd")]).await;
    assert_eq!(w.status, StatusCode::SEE_OTHER, "{}", w.body);
    let page = app.get(w.location(), Some(&s)).await;
    assert!(!page.body.contains("name=\"is_calc_for_csr_order\" type=\"checkbox\" value=\"1\" checked"), "unticked on the form means not counted");
    let version = extract_input(&page.body, "version");
    let wid = id_from(w.location());
    let ticked = app.post_form(&format!("/baseinfo/warehouses/{wid}"), &s, &[("name", "Melbourne"), ("is_calc_for_csr_order", "1"), ("version", &version)]).await;
    assert_eq!(ticked.status, StatusCode::SEE_OTHER);
    let list = app.get("/warehouses", Some(&s)).await;
    assert!(list.body.contains("Melbourne"));

    let same_name = app.post_form("/baseinfo/warehouses", &s, &[("code", "MEL2"), ("name", "Melbourne")]).await;
    assert_eq!(field_error(&same_name.body, "name"), "This name is already used by another warehouse.");

    let b = app.post_form("/baseinfo/brands", &s, &[("name", "Zetum")]).await;
    assert_eq!(b.status, StatusCode::SEE_OTHER, "{}", b.body);
    let again = app.post_form("/baseinfo/brands", &s, &[("name", " ZETUM ")]).await;
    assert_eq!(field_error(&again.body, "name"), "This brand already exists.");
    let bid = id_from(b.location());
    let page = app.get(b.location(), Some(&s)).await;
    let version = extract_input(&page.body, "version");
    let shown = app.post_form(&format!("/baseinfo/brands/{bid}"), &s, &[("name", "Zetum"), ("presented_to_csr", "1"), ("version", &version)]).await;
    assert_eq!(shown.status, StatusCode::SEE_OTHER);
    let audit = audit_rows(&app, 4).await;
    assert!(audit.iter().any(|(e, _, d)| e == "brand" && d == "Presented to CSR: No → Yes"), "{audit:?}");
}

#[tokio::test]
async fn another_companys_records_are_not_found() {
    let (app, s4) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let s9 = app.session_in("approver@demo.test", 9).await;
    let created = app.post_form("/baseinfo/brands", &s9, &[("name", "Only In Nine")]).await;
    let id = id_from(created.location());
    assert_eq!(app.get(&format!("/baseinfo/brands/{id}"), Some(&s4)).await.status, StatusCode::NOT_FOUND);
    let write = app.post_form(&format!("/baseinfo/brands/{id}"), &s4, &[("name", "Hijack"), ("version", "1")]).await;
    assert_eq!(write.status, StatusCode::NOT_FOUND);
    let staff9 = user_id(&app, "multi@demo.test").await;
    // multi@ is staff of both; business@ too. A user who is staff of 9 only is not found from 4.
    let only9 = app.post_form("/baseinfo/employees", &s9, &[("name", "Nine Only"), ("email", "nine@demo.test"), ("role", "2"), ("orgs", "9")]).await;
    assert_eq!(only9.status, StatusCode::SEE_OTHER, "{}", only9.body);
    let nine = user_id(&app, "nine@demo.test").await;
    assert_eq!(app.get(&format!("/baseinfo/employees/{nine}"), Some(&s4)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form(&format!("/baseinfo/employees/{nine}/password"), &s4, &[]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/baseinfo/employees/{staff9}"), Some(&s4)).await.status, StatusCode::OK);
}

#[tokio::test]
async fn roles_one_to_three_are_refused_everywhere_here() {
    let app = TestApp::new().await;
    for email in ["business@demo.test", "sales@demo.test", "service@demo.test"] {
        let s = app.session_in(email, 4).await;
        for path in ["/baseinfo/suppliers", "/baseinfo/warehouses", "/baseinfo/brands", "/baseinfo/employees", "/settings", "/baseinfo/suppliers/1"] {
            let r = app.get(path, Some(&s)).await;
            assert_eq!(r.status, StatusCode::FORBIDDEN, "{email} GET {path}");
        }
        let r = app.post_form("/baseinfo/brands", &s, &[("name", "Sneaky")]).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{email}");
        assert!(r.body.contains(APPROVER_ONLY), "{}", r.body);
        let r = app.post_form("/settings", &s, &[("name", "X")]).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{email}");
        assert!(r.body.contains(APPROVER_ONLY), "{}", r.body);
        let r = app.post_form("/baseinfo/employees", &s, &[("name", "X"), ("email", "x@demo.test"), ("role", "4")]).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{email}");
        let list = app.get("/suppliers", Some(&s)).await;
        assert!(!list.body.contains("+ New Supplier"), "{email} sees no New button");
    }
}

fn settings_form(html: &str) -> Vec<(String, String)> {
    ["name", "abn", "addressLine1", "addressLine2", "phone", "email", "website", "bankAccountName", "bsb", "bankAccount", "department_id", "tier_b", "tier_c", "tier_d", "tier_e", "time_zone", "version"]
        .iter()
        .map(|n| (n.to_string(), extract_input(html, n)))
        .collect()
}

async fn post_pairs(app: &TestApp, path: &str, s: &Session, pairs: &[(String, String)]) -> crate::support::TestResponse {
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.post_form(path, s, &refs).await
}

fn set(pairs: &mut [(String, String)], key: &str, value: &str) {
    pairs.iter_mut().find(|(k, _)| k == key).unwrap().1 = value.to_string();
}

#[tokio::test]
async fn settings_change_print_details_tiers_and_zone_with_an_audit_row() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let page = app.get("/settings", Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    let mut form = settings_form(&page.body);
    assert_eq!(extract_input(&page.body, "tier_b"), "5");

    set(&mut form, "bsb", "12");
    set(&mut form, "tier_c", "200");
    let bad = post_pairs(&app, "/settings", &s, &form).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&bad.body, "bsb"), "A BSB has 6 digits, e.g. 062-000.");
    assert!(field_error(&bad.body, "tier_c").starts_with("Enter a percentage"));
    assert!(bad.body.contains("value=\"200\""), "what was typed stays");

    let mut form = settings_form(&page.body);
    set(&mut form, "name", "Southern Cross Tyres (NSW) Pty Ltd");
    set(&mut form, "tier_b", "7.5");
    set(&mut form, "department_id", "7");
    set(&mut form, "time_zone", "Australia/Perth");
    let ok = post_pairs(&app, "/settings", &s, &form).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    let again = app.get("/settings?saved=1", Some(&s)).await;
    assert!(again.body.contains(OK_TOAST));
    assert_eq!(extract_input(&again.body, "tier_b"), "7.5");

    // The same stale form again is a conflict, not a silent overwrite.
    let stale = post_pairs(&app, "/settings", &s, &form).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);

    // The print details reach the documents; the uplift reaches the derived prices.
    let org = app.state.db.run(|c| db::accounts::organisation(c, 4)).await.unwrap();
    assert_eq!((org.name.as_str(), org.tier_b_bp, org.department_id, org.time_zone.as_str()), ("Southern Cross Tyres (NSW) Pty Ltd", 750, 7, "Australia/Perth"));
    let info = app.get("/api/printInfo", Some(&s)).await;
    if info.status == StatusCode::OK {
        assert!(info.body.contains("Southern Cross Tyres (NSW) Pty Ltd"), "{}", info.body);
    }
    let audit = audit_rows(&app, 4).await;
    let (_, _, detail) = audit.iter().find(|(e, _, _)| e == "settings").expect("an audit row");
    assert!(detail.contains("Class B uplift: 5% → 7.5%") && detail.contains("Time zone: Australia/Sydney → Australia/Perth"), "{detail}");
    assert!(again.body.contains("Class B uplift: 5% → 7.5%"), "the page lists the change");
}

#[tokio::test]
async fn a_logo_upload_is_checked_and_served_to_the_documents() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let png: Vec<u8> = [&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a][..], &[0u8; 64][..]].concat();
    let svg = app.post_multipart("/settings/logo", &s, &[], "logo", "logo.png", b"<svg onload=alert(1)></svg>").await;
    assert_eq!(svg.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", svg.body);
    assert!(svg.body.contains("The logo must be a PNG, JPEG, GIF or WebP image."));
    let no_token = Session { csrf: "not-the-token".into(), ..s.clone() };
    let refused = app.post_multipart("/settings/logo", &no_token, &[], "logo", "logo.png", &png).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "multipart uploads need the token too");
    // The token in the address no longer counts: it would stay in the history.
    let in_address = app.request(axum::http::Method::POST, &format!("/settings/logo?_csrf={}", s.csrf), Some(b"--B0UND--\r\n".to_vec().into()), Some("multipart/form-data; boundary=B0UND"), &[("cookie", &s.cookie)]).await;
    assert_eq!(in_address.status, StatusCode::FORBIDDEN);
    let ok = app.post_multipart("/settings/logo", &s, &[], "logo", "logo.png", &png).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    let served = app.get("/settings/logo", Some(&s)).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.bytes, png);
    assert_eq!(served.headers["content-type"], "image/png");
    let page = app.get("/settings", Some(&s)).await;
    assert!(page.body.contains("src=\"/settings/logo?v="));
}

#[tokio::test]
async fn staff_are_added_with_a_one_time_password_that_must_be_changed() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let form = app.get("/baseinfo/employees", Some(&s)).await;
    assert!(form.body.contains("name=\"orgs\" type=\"checkbox\" value=\"4\" checked"), "the current company is ticked");
    let bad = app.post_form("/baseinfo/employees", &s, &[("name", "Neo"), ("email", "neo"), ("role", "9"), ("orgs", "4")]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&bad.body, "email"), "Please enter a valid email address");
    let dup = app.post_form("/baseinfo/employees", &s, &[("name", "Sam"), ("email", "sales@demo.test"), ("role", "2"), ("orgs", "4")]).await;
    assert_eq!(field_error(&dup.body, "email"), "This e-mail is already a staff member of this company.");

    let posted = app.post_form("/baseinfo/employees", &s, &[("name", "Nina New"), ("email", "Nina@Demo.test"), ("role", "2"), ("modPrc", "1"), ("orgs", "4"), ("orgs", "9")]).await;
    // Post/redirect/get: the page after the post shows the password once; a reload does not.
    let added = app.follow(&posted, &s).await;
    let otp = added.body.split("One-time password for nina@demo.test: ").nth(1).expect("the password is shown").split(' ').next().unwrap().to_string();
    let reloaded = app.get(posted.location(), Some(&s)).await;
    assert_eq!(reloaded.status, StatusCode::OK);
    assert!(!reloaded.body.contains(&otp), "shown only once");
    assert_eq!(otp.len(), 14);
    let list = app.get("/employees", Some(&s)).await;
    assert!(list.body.contains("Nina New"));
    let nina = user_id(&app, "nina@demo.test").await;
    let ms = app.state.db.run(move |c| db::accounts::memberships_of(c, nina)).await.unwrap();
    assert_eq!(ms.iter().map(|m| (m.org_id, m.role, m.mod_prc)).collect::<Vec<_>>(), vec![(4, 2, true), (9, 2, true)]);

    // Signing in with it leads to the change page, and nothing else opens until changed.
    let login = app.login("nina@demo.test", &otp).await;
    assert_eq!(login.location(), "/password/change");
    let cookie = format!("td_session={}", login.cookie("td_session").unwrap());
    let blocked = app.request(axum::http::Method::GET, "/invoices", None, None, &[("cookie", &cookie)]).await;
    assert_eq!(blocked.location(), "/password/change");
    let api = app.request(axum::http::Method::GET, "/api/brands", None, None, &[("cookie", &cookie)]).await;
    assert_eq!(api.status, StatusCode::FORBIDDEN);
    let token = app
        .request(
            axum::http::Method::POST,
            "/oauth/token",
            Some(format!("grant_type=password&username=nina@demo.test&password={otp}&client_id=tyredesk-web&client_secret=demo-secret").into()),
            Some("application/x-www-form-urlencoded"),
            &[],
        )
        .await;
    assert_ne!(token.status, StatusCode::OK, "a one-time password opens no API token");
    let page = app.request(axum::http::Method::GET, "/password/change", None, None, &[("cookie", &cookie)]).await;
    assert!(page.body.contains("you signed in with a one-time password"));
    let csrf = extract_input(&page.body, "_csrf");
    let mismatch = app
        .request(axum::http::Method::POST, "/password/change", Some(format!("_csrf={csrf}&password=new-secret-1&confirm=other").into()), Some("application/x-www-form-urlencoded"), &[("cookie", &cookie)])
        .await;
    assert!(mismatch.body.contains("Confirm Password is not the same"));
    let changed = app
        .request(axum::http::Method::POST, "/password/change", Some(format!("_csrf={csrf}&password=new-secret-1&confirm=new-secret-1").into()), Some("application/x-www-form-urlencoded"), &[("cookie", &cookie)])
        .await;
    assert_eq!(changed.location(), "/quotings");
    let open = app.request(axum::http::Method::GET, "/invoices", None, None, &[("cookie", &cookie)]).await;
    assert_eq!(open.status, StatusCode::OK);
    assert_eq!(app.login("nina@demo.test", &otp).await.status, StatusCode::FORBIDDEN, "the one-time password is gone");
    assert_eq!(app.login("nina@demo.test", "new-secret-1").await.location(), "/quotings");
}

#[tokio::test]
async fn deactivation_and_one_time_passwords_end_sessions_at_once() {
    let (app, owner) = TestApp::new().with_user("approver@demo.test").await;
    let sales = app.session_in("sales@demo.test", 4).await;
    assert_eq!(app.get("/invoices", Some(&sales)).await.status, StatusCode::OK);
    let id = user_id(&app, "sales@demo.test").await;
    let page = app.get(&format!("/baseinfo/employees/{id}"), Some(&owner)).await;
    assert_eq!(page.status, StatusCode::OK);
    let off = app.post_form(&format!("/baseinfo/employees/{id}"), &owner, &[("name", "Sam Sales"), ("role", "2"), ("active", "0")]).await;
    assert_eq!(off.status, StatusCode::SEE_OTHER, "{}", off.body);
    let after = app.get("/invoices", Some(&sales)).await;
    assert_eq!(after.status, StatusCode::SEE_OTHER, "the session ended");
    assert!(after.location().starts_with("/login"));
    let list = app.get("/employees", Some(&owner)).await;
    assert!(list.body.contains("Inactive"));
    // Back on; then a one-time password signs them out again.
    let on = app.post_form(&format!("/baseinfo/employees/{id}"), &owner, &[("name", "Sam Sales"), ("role", "2"), ("active", "1")]).await;
    assert_eq!(on.status, StatusCode::SEE_OTHER);
    let again = app.session_in("sales@demo.test", 4).await;
    let reset = app.post_form(&format!("/baseinfo/employees/{id}/password"), &owner, &[]).await;
    assert!(app.follow(&reset, &owner).await.body.contains("One-time password: "));
    assert_eq!(app.get("/invoices", Some(&again)).await.status, StatusCode::SEE_OTHER);
    assert_eq!(app.login("sales@demo.test", "tyredesk").await.status, StatusCode::FORBIDDEN, "the old password stops working");
    assert!(audit_rows(&app, 4).await.iter().any(|(e, a, _)| e == "staff" && a == "one-time password"));
}

#[tokio::test]
async fn the_last_approver_of_a_company_stays() {
    let (app, owner) = TestApp::new().with_user("approver@demo.test").await;
    let manager = user_id(&app, "manager@demo.test").await;
    let me = user_id(&app, "approver@demo.test").await;
    let demote = app.post_form(&format!("/baseinfo/employees/{manager}"), &owner, &[("name", "Morgan Manager"), ("role", "2"), ("active", "1")]).await;
    assert_eq!(demote.status, StatusCode::SEE_OTHER, "two approvers: one may go");
    let last = app.post_form(&format!("/baseinfo/employees/{me}"), &owner, &[("name", "Alex Approver"), ("role", "4"), ("active", "0")]).await;
    assert_eq!(last.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(last.body.contains("The company needs at least one active approver"));
    let last = app.post_form(&format!("/baseinfo/employees/{me}"), &owner, &[("name", "Alex Approver"), ("role", "3"), ("active", "1")]).await;
    assert_eq!(last.status, StatusCode::UNPROCESSABLE_ENTITY);
    let ms = app.state.db.run(move |c| db::accounts::memberships_of(c, me)).await.unwrap();
    assert!(ms.iter().any(|m| m.org_id == 4 && m.role == 4), "nothing changed");
}

#[tokio::test]
async fn forgot_password_explains_without_an_error_box() {
    let app = TestApp::new().await;
    let page = app.get("/password/reset", None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("id=\"login-notice\"") && page.body.contains("one-time password"));
    assert!(page.body.contains("class=\"alert alert-info\" role=\"status\""), "a neutral notice");
    assert!(!page.body.contains("alert-error"));
}

#[tokio::test]
async fn the_staff_list_shows_permissions_and_pickers_offer_only_active_staff() {
    let (app, owner) = TestApp::new().with_user("approver@demo.test").await;
    let list = app.get("/employees?per_page=100", Some(&owner)).await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(list.body.contains("Permissions"));
    let row = list.body.split("<tr>").skip(1).find(|r| r.contains("Alex Approver")).expect("the approver's row");
    for flag in ["modPrc", "isAcct", "crtCSR"] {
        assert!(row.contains(flag), "{flag} shown on the approver's row");
    }
    let sienna = format!("<option value=\"{}\">Sienna Service</option>", user_id(&app, "service@demo.test").await);
    assert!(app.get("/order_add/invoices", Some(&owner)).await.body.contains(&sienna), "offered while active");
    assert!(app.get("/baseinfo/customers", Some(&owner)).await.body.contains(&sienna), "offered while active");
    let id = user_id(&app, "service@demo.test").await;
    let off = app.post_form(&format!("/baseinfo/employees/{id}"), &owner, &[("name", "Sienna Service"), ("role", "3"), ("active", "0")]).await;
    assert_eq!(off.status, StatusCode::SEE_OTHER, "{}", off.body);
    assert!(!app.get("/order_add/invoices", Some(&owner)).await.body.contains(&sienna), "a deactivated member is not offered on a new sheet");
    assert!(!app.get("/baseinfo/customers", Some(&owner)).await.body.contains(&sienna), "nor on a new customer");
}

#[tokio::test]
async fn the_default_warehouse_is_the_company_s_and_new_sheets_start_in_it_with_the_customer_s_staff() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let own = app.state.db.run(|c| db::masters::all_warehouses(c, 4)).await.unwrap();
    let other = app.state.db.run(|c| db::masters::all_warehouses(c, 9)).await.unwrap();
    let selected = |html: &str, id: i64| html.contains(&format!("<option value=\"{id}\" selected>"));
    // The demo company starts new sheets in its first warehouse.
    let blank = app.get("/order_add/invoices", Some(&s)).await;
    assert!(selected(&blank.body, own[0].id), "the seeded default is chosen");
    assert!(blank.body.contains("placeholder=\"customer name or ABN\" required autofocus>"), "To CSR has the focus on load");

    // Another company's warehouse is refused, and nothing changes.
    let page = app.get("/settings", Some(&s)).await;
    let mut form = settings_form(&page.body);
    form.push(("default_warehouse_id".into(), other[0].id.to_string()));
    let bad = post_pairs(&app, "/settings", &s, &form).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&bad.body, "default_warehouse_id"), "Choose one of the company&#39;s warehouses, or none.");
    assert_eq!(app.state.db.run(|c| db::accounts::organisation(c, 4)).await.unwrap().default_warehouse_id, Some(own[0].id));

    // Another of its own: new sheets of every kind start there, with an audit row.
    set(&mut form, "default_warehouse_id", &own[1].id.to_string());
    let ok = post_pairs(&app, "/settings", &s, &form).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    for path in ["/order_add/invoices", "/order_add/purchase_orders", "/order_add/transfers"] {
        assert!(selected(&app.get(path, Some(&s)).await.body, own[1].id), "{path} starts in the default warehouse");
    }
    let (_, _, detail) = audit_rows(&app, 4).await.into_iter().find(|(e, _, _)| e == "settings").expect("an audit row");
    assert!(detail.contains(&format!("Default warehouse: {} → {}", own[0].name, own[1].name)), "{detail}");

    // A cart's customer brings their service and business staff.
    let customer = app
        .state
        .db
        .run(|c| Ok(db::customers::list(c, 4, &Default::default(), 0, 200)?.rows.into_iter().find(|c| c.cs_id.is_some() && c.bd_id.is_some())))
        .await
        .unwrap()
        .expect("a customer with staff");
    let product = app.state.db.run(|c| db::products::list(c, 4, &Default::default(), 0, 1)).await.unwrap().rows[0].id;
    let cart = app.get(&format!("/order_add/invoices/addFromCart?items={product}:2&csr={}", customer.id), Some(&s)).await;
    assert_eq!(cart.status, StatusCode::OK);
    let chosen = |name: &str| {
        let select = cart.body.split(&format!("name=\"{name}\"")).nth(1).expect(name).split("</select>").next().unwrap().to_string();
        select.split("<option value=\"").filter(|o| o.contains("\" selected>")).map(|o| o.split('"').next().unwrap().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(chosen("csr_service_id"), vec![customer.cs_id.unwrap().to_string()]);
    assert_eq!(chosen("csr_bd_id"), vec![customer.bd_id.unwrap().to_string()]);
    assert!(!cart.body.contains("required autofocus>"), "a sheet with its customer gives the focus to no header field");
}
