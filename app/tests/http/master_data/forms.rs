//! Base-info add and edit (spec §2.8, §5, §6, §7): the product and customer forms, their
//! JSON twins, locks, credit terms, crtCSR, version conflicts, suppliers and balance.

use axum::http::StatusCode;
use serde_json::json;

use crate::support::{self, Session, TestApp, TestResponse, extract_input};

const PLEASE_ENTER: &str = "Please enter";
const NAME_TOO_LONG: &str = "The product name should not exceed 50 characters.";
const LOCKED: &str = "This field cannot be changed once the record exists.";
const CONFLICT: &str = "This record was changed by someone else since you opened it. Reload to see the latest version.";
const NO_CREATE: &str = "Sorry, no permission to create customers. Return to list page.";
const APPROVER_ONLY: &str = "Only an approver (role 4) may change the attention or the credit limit.";

type Pairs = Vec<(&'static str, String)>;

fn set(pairs: &mut Pairs, key: &'static str, value: &str) {
    match pairs.iter_mut().find(|(k, _)| *k == key) {
        Some(p) => p.1 = value.to_string(),
        None => pairs.push((key, value.to_string())),
    }
}

fn without(pairs: &Pairs, keys: &[&str]) -> Pairs {
    pairs.iter().filter(|(k, _)| !keys.contains(k)).cloned().collect()
}

async fn post(app: &TestApp, path: &str, s: &Session, pairs: &Pairs) -> TestResponse {
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    app.post_form(path, s, &refs).await
}

/// The value attribute of the `<input>` named `name`.
fn input_value(html: &str, name: &str) -> Option<String> {
    let start = html.find(&format!(" name=\"{name}\""))?;
    let tag = &html[start..start + html[start..].find('>')?];
    Some(tag.split(" value=\"").nth(1)?.split('"').next()?.to_string())
}

fn input_tag(html: &str, name: &str) -> String {
    let start = html.find(&format!(" name=\"{name}\"")).unwrap_or_else(|| panic!("no field {name}"));
    html[start..start + html[start..].find('>').unwrap()].to_string()
}

/// The message under a field.
fn field_error(html: &str, name: &str) -> String {
    let marker = format!("id=\"e-{name}\">");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no error slot for {name}")) + marker.len();
    html[start..].split('<').next().unwrap_or_default().to_string()
}

/// The selected option's value of the select named `name`.
fn selected(html: &str, name: &str) -> String {
    let start = html.find(&format!("<select id=\"f-{name}\"")).unwrap_or_else(|| panic!("no select {name}"));
    let block = &html[start..start + html[start..].find("</select>").unwrap()];
    block.split("<option value=\"").skip(1).find(|o| o.contains("\" selected>")).and_then(|o| o.split('"').next()).unwrap_or_default().to_string()
}

/// The read-only value shown for a field that is not an input.
fn shown(html: &str, name: &str) -> Option<String> {
    let marker = format!("data-field=\"{name}\">");
    let start = html.find(&marker)? + marker.len();
    Some(html[start..].split('<').next()?.to_string())
}

fn id_from(location: &str, route: &str) -> i64 {
    let prefix = format!("/baseinfo/{route}/");
    assert!(location.starts_with(&prefix) && location.ends_with("?saved=1"), "redirect to the edit page: {location}");
    location[prefix.len()..location.len() - "?saved=1".len()].parse().unwrap()
}

async fn brand(app: &TestApp, s: &Session, name: &str) -> i64 {
    let brands = app.get("/api/brands", Some(s)).await.json();
    brands["data"].as_array().unwrap().iter().find(|b| b["name"] == name).unwrap_or_else(|| panic!("brand {name}"))["id"].as_i64().unwrap()
}

fn product_pairs(code: &str, name: &str, brand: i64) -> Pairs {
    vec![
        ("code", code.into()),
        ("helperCode", "2055516".into()),
        ("name", name.into()),
        ("originCode", "ORIG-77".into()),
        ("unit", "EA".into()),
        ("category", "1".into()),
        ("show_for_shop", "1".into()),
        ("comments", "".into()),
        ("tag1", "PCR tyres".into()),
        ("material", "1".into()),
        ("auto_parts_type", "".into()),
        ("brand", brand.to_string()),
        ("manufacturer", "Test Factory".into()),
        ("tag2", "".into()),
        ("tag3", "".into()),
        ("tag4", "B2/A1".into()),
        ("tyreModel", "Tourer".into()),
        ("width", "205".into()),
        ("load_rate", "91".into()),
        ("speed_rate", "V".into()),
        ("offset", "".into()),
    ]
}

async fn create_product(app: &TestApp, s: &Session, code: &str, name: &str) -> i64 {
    let b = brand(app, s, "Michelin").await;
    let res = post(app, "/baseinfo/products", s, &product_pairs(code, name, b)).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    id_from(res.location(), "products")
}

async fn api_product(app: &TestApp, s: &Session, id: i64) -> serde_json::Value {
    let res = app.get(&format!("/api/products/{id}"), Some(s)).await;
    assert_eq!(res.status, StatusCode::OK);
    res.json()["data"].clone()
}

fn customer_pairs(name: &str, abn: &str) -> Pairs {
    vec![
        ("name", name.into()),
        ("code", abn.into()),
        ("origin_code", "".into()),
        ("business_type", "2".into()),
        ("email", "orders@brighton-tyres.example".into()),
        ("website", "".into()),
        ("note", "Prefers mornings".into()),
        ("primary_person_first", "Priya".into()),
        ("primary_person_last", "Shah".into()),
        ("phone", "02 9555 0101".into()),
        ("mobile", "".into()),
        ("skype", "".into()),
        ("birthday", "".into()),
        ("address", "14 Bay St".into()),
        ("city", "Brighton-Le-Sands".into()),
        ("state", "NSW".into()),
        ("postal", "2216".into()),
        ("country", "Australia".into()),
        ("priceType", "2".into()),
        ("payment_type", "14".into()),
        ("area_type", "2".into()),
        ("default_ship_type", "1".into()),
        ("bd_id", "".into()),
        ("cs_id", "".into()),
        ("account", "".into()),
    ]
}

async fn create_customer(app: &TestApp, s: &Session, pairs: &Pairs) -> i64 {
    let res = post(app, "/baseinfo/customers", s, pairs).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    id_from(res.location(), "customers")
}

async fn api_customer(app: &TestApp, s: &Session, id: i64) -> serde_json::Value {
    let res = app.get(&format!("/api/customers/{id}"), Some(s)).await;
    assert_eq!(res.status, StatusCode::OK);
    res.json()["data"].clone()
}

async fn in_org(app: &TestApp, email: &str, org: i64) -> Session {
    let s = app.session(email).await;
    let res = app.post_form("/switch-org", &s, &[("org_id", &org.to_string())]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER);
    s
}

#[tokio::test]
async fn new_product_form_has_the_groups_and_the_defaults() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = app.get("/baseinfo/products", Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.body.contains("<title>New Product - TyreDesk</title>"));
    for legend in ["Basic", "Category", "Brands &#38; Tags", "Specs"] {
        assert!(res.body.contains(&format!("<legend>{legend}</legend>")), "{legend}");
    }
    assert_eq!(selected(&res.body, "category"), "1", "physical by default");
    assert_eq!(selected(&res.body, "show_for_shop"), "0", "not shown for shop by default");
    assert_eq!(selected(&res.body, "material"), "", "material must be chosen");
    assert!(input_tag(&res.body, "code").contains("data-required=\"Please enter\""));
    assert!(input_tag(&res.body, "name").contains("data-max=\"50\""));
    assert!(!res.body.contains("title=\"Xero sync state\""), "no Xero tag before the product exists");
    assert!(input_tag(&res.body, "code").contains("data-max=\"30\""), "a new code fits Xero's item code");
    assert!(res.body.contains("<option value=\"Wheels/Alloy\">Wheels/Alloy</option>"), "category tree");
}

#[tokio::test]
async fn creating_a_product_opens_it_in_edit_mode_and_makes_it_findable() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let name = "205/55R16 91V TESTBRAND HTTP TOURER";
    let id = create_product(&app, &s, "HTTP-2055516-T", name).await;
    let page = app.get(&format!("/baseinfo/products/{id}?saved=1"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"<template id="flash" data-level="success" data-ms="5000">Operation successful</template>"#));
    assert!(page.body.contains(r#"<span class="tag tag-amber" title="Xero sync state">Xero Unsent</span>"#));
    assert!(input_tag(&page.body, "code").contains("readonly"));
    assert!(input_tag(&page.body, "name").contains("readonly"));
    assert_eq!(shown(&page.body, "category").as_deref(), Some("Physical"), "kind shown, not editable");
    assert_eq!(extract_input(&page.body, "version"), "1");
    assert_eq!(input_value(&page.body, "tyreModel").as_deref(), Some("Tourer"));
    // Without the flag the toast does not repeat.
    assert!(!app.get(&format!("/baseinfo/products/{id}"), Some(&s)).await.body.contains("Operation successful"));

    let p = api_product(&app, &s, id).await;
    assert_eq!((p["code"].as_str(), p["name"].as_str(), p["tag1"].as_str()), (Some("HTTP-2055516-T"), Some(name), Some("PCR tyres")));
    assert_eq!((p["category"].as_i64(), p["show_for_shop"].as_bool(), p["material"].as_i64()), (Some(1), Some(true), Some(1)));
    assert_eq!((p["standardPrice"].as_i64(), p["xeroSent"].as_i64(), p["version"].as_i64()), (Some(0), Some(0), Some(1)));
    // The Item Key search finds it by size and by word (size_key and search_text were stored).
    let found = app.get("/api/products?name=205%2F55R16%20testbrand", Some(&s)).await.json();
    assert_eq!(found["meta"]["total"], 1);
    assert_eq!(found["data"][0]["id"], id);
    let list = app.get("/products?key=2055516+http+tourer", Some(&s)).await;
    assert!(list.body.contains(name));
}

#[tokio::test]
async fn missing_product_fields_say_please_enter_and_keep_what_was_typed() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let pairs: Pairs = vec![("name", "Half-typed <b>product</b>".into()), ("tyreModel", "Kept Model".into()), ("category", "4".into()), ("show_for_shop", "0".into())];
    let res = post(&app, "/baseinfo/products", &s, &pairs).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["code", "helperCode", "unit", "tag1", "brand", "material"] {
        assert_eq!(field_error(&res.body, field), PLEASE_ENTER, "{field}");
    }
    assert_eq!(field_error(&res.body, "name"), "");
    assert!(res.body.contains("Please enter the required fields."));
    assert_eq!(input_value(&res.body, "name").as_deref(), Some("Half-typed &#60;b&#62;product&#60;/b&#62;"), "typed text kept, escaped");
    assert_eq!(input_value(&res.body, "tyreModel").as_deref(), Some("Kept Model"));
    assert_eq!(selected(&res.body, "category"), "4", "virtual kept");
    assert!(res.body.contains(r#"class="field has-error""#));
    let none = app.get("/api/products?name=Half-typed", Some(&s)).await.json();
    assert_eq!(none["meta"]["total"], 0, "nothing saved");
}

#[tokio::test]
async fn product_names_over_50_characters_abort_the_save() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let b = brand(&app, &s, "Michelin").await;
    let long = format!("205/55R16 91V {}", "X".repeat(37));
    assert_eq!(long.chars().count(), 51);
    let res = post(&app, "/baseinfo/products", &s, &product_pairs("LONG-1", &long, b)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&res.body, "name"), NAME_TOO_LONG);
    assert!(res.body.contains(&format!(r#"role="alert" id="form-alert">{NAME_TOO_LONG}"#)));
    assert_eq!(input_value(&res.body, "name").as_deref(), Some(long.as_str()));
    assert_eq!(app.get("/api/products?code=LONG-1", Some(&s)).await.json()["meta"]["total"], 0);
    // Exactly 50 is fine.
    create_product(&app, &s, "LONG-2", &long[..50]).await;
}

#[tokio::test]
async fn item_codes_are_unique_per_company() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    create_product(&app, &s, "DUP-1", "First").await;
    let b = brand(&app, &s, "Michelin").await;
    let res = post(&app, "/baseinfo/products", &s, &product_pairs("DUP-1", "Second", b)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&res.body, "code"), "This item code is already used by another product.");
}

#[tokio::test]
async fn editing_a_product_refuses_changes_to_locked_fields() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let b = brand(&app, &s, "Michelin").await;
    let id = create_product(&app, &s, "LOCK-1", "195/65R15 91H LOCK TEST").await;
    let path = format!("/baseinfo/products/{id}");
    let mut pairs = product_pairs("LOCK-2", "Renamed", b);
    set(&mut pairs, "category", "4");
    set(&mut pairs, "version", "1");
    let res = post(&app, &path, &s, &pairs).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["code", "name"] {
        assert_eq!(field_error(&res.body, field), LOCKED, "{field}");
    }
    assert!(res.body.contains(LOCKED), "physical/virtual has no input; its message joins the alert");
    let p = api_product(&app, &s, id).await;
    assert_eq!((p["code"].as_str(), p["name"].as_str(), p["category"].as_i64(), p["version"].as_i64()), (Some("LOCK-1"), Some("195/65R15 91H LOCK TEST"), Some(1), Some(1)));

    // What a browser sends: the read-only values unchanged, other fields edited.
    let mut pairs = without(&product_pairs("LOCK-1", "195/65R15 91H LOCK TEST", b), &["category"]);
    set(&mut pairs, "unit", "SET");
    set(&mut pairs, "tag4", "C9");
    set(&mut pairs, "version", "1");
    set(&mut pairs, "standardPrice", "999.00");
    let res = post(&app, &path, &s, &pairs).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let p = api_product(&app, &s, id).await;
    assert_eq!((p["unit"].as_str(), p["tag4"].as_str(), p["version"].as_i64()), (Some("SET"), Some("C9"), Some(2)));
    assert_eq!(p["standardPrice"], 0, "prices are not edited here");
    // Search keys follow the stored name.
    assert_eq!(app.get("/api/products?name=195%2F65R15%20lock", Some(&s)).await.json()["meta"]["total"], 1);
}

#[tokio::test]
async fn product_edit_shows_prices_read_only_and_the_xero_tag() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let sent = app.get("/api/products?per_page=50", Some(&s)).await.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["xeroSent"] == 1 && p["standardPrice"].as_i64().unwrap() > 0)
        .cloned()
        .expect("a sent product with a price");
    let id = sent["id"].as_i64().unwrap();
    let page = app.get(&format!("/baseinfo/products/{id}"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"<span class="tag tag-green" title="Xero sync state">Xero SENT</span>"#));
    assert!(page.body.contains("<legend>Prices (read-only)</legend>"));
    let standard = sent["standardPrice"].as_i64().unwrap();
    let expected = format!("{}.{:02}", standard / 100, standard % 100);
    assert_eq!(shown(&page.body, "standardPrice").map(|v| v.replace(',', "")), Some(expected));
    assert!(input_value(&page.body, "standardPrice").is_none(), "no price input");
    let fail = app.state.db.write(move |c| {
        use diesel::connection::SimpleConnection;
        c.batch_execute(&format!("UPDATE products SET xero_sent = 2 WHERE id = {id}"))?;
        Ok(())
    });
    fail.await.unwrap();
    let page = app.get(&format!("/baseinfo/products/{id}"), Some(&s)).await;
    assert!(page.body.contains(r#"<span class="tag tag-red" title="Xero sync state">Xero Fail</span>"#));
}

#[tokio::test]
async fn a_second_editor_gets_a_conflict_and_keeps_what_they_typed() {
    let (app, a) = TestApp::new().with_user("sales@demo.test").await;
    let b = app.session("service@demo.test").await;
    let brand_id = brand(&app, &a, "Michelin").await;
    let id = create_product(&app, &a, "RACE-1", "Race Product").await;
    let path = format!("/baseinfo/products/{id}");
    // Both open the edit page at version 1.
    let version_a = extract_input(&app.get(&path, Some(&a)).await.body, "version");
    let version_b = extract_input(&app.get(&path, Some(&b)).await.body, "version");
    assert_eq!((version_a.as_str(), version_b.as_str()), ("1", "1"));
    let mut mine = product_pairs("RACE-1", "Race Product", brand_id);
    set(&mut mine, "version", &version_a);
    set(&mut mine, "comments", "from A");
    assert_eq!(post(&app, &path, &a, &mine).await.status, StatusCode::SEE_OTHER);
    let mut theirs = product_pairs("RACE-1", "Race Product", brand_id);
    set(&mut theirs, "version", &version_b);
    set(&mut theirs, "comments", "from B");
    let res = post(&app, &path, &b, &theirs).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(res.body.contains(CONFLICT));
    assert!(res.body.contains(&format!(r#"<a class="btn small" href="{path}">Reload</a>"#)));
    assert!(res.body.contains(">from B</textarea>"), "typed value kept");
    assert_eq!(extract_input(&res.body, "version"), "1", "still the version B started from");
    let p = api_product(&app, &a, id).await;
    assert_eq!((p["comments"].as_str(), p["version"].as_i64()), (Some("from A"), Some(2)));
    // After reloading, B can save.
    set(&mut theirs, "version", &extract_input(&app.get(&path, Some(&b)).await.body, "version"));
    assert_eq!(post(&app, &path, &b, &theirs).await.status, StatusCode::SEE_OTHER);
    assert_eq!(api_product(&app, &a, id).await["comments"], "from B");
}

#[tokio::test]
async fn creating_a_customer_opens_it_in_edit_mode() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let form = app.get("/baseinfo/customers", Some(&s)).await;
    assert_eq!(form.status, StatusCode::OK);
    for legend in ["Basic", "Contact", "Address", "Classification"] {
        assert!(form.body.contains(&format!("<legend>{legend}</legend>")), "{legend}");
    }
    let id = create_customer(&app, &s, &customer_pairs("Brighton Tyre Co", "51 824 753 556")).await;
    let page = app.get(&format!("/baseinfo/customers/{id}?saved=1"), Some(&s)).await;
    assert!(page.body.contains("Operation successful"));
    assert!(page.body.contains(r#"<span class="tag tag-amber" title="Xero sync state">Xero Unsent</span>"#));
    assert!(input_tag(&page.body, "name").contains("readonly") && input_tag(&page.body, "code").contains("readonly"));
    assert_eq!(shown(&page.body, "xeroBalance").as_deref(), Some("0.00"));
    assert_eq!(selected(&page.body, "payment_type"), "14");
    let c = api_customer(&app, &s, id).await;
    assert_eq!((c["name"].as_str(), c["code"].as_str(), c["priceType"].as_i64(), c["area_type"].as_i64()), (Some("Brighton Tyre Co"), Some("51 824 753 556"), Some(2), Some(2)));
    assert_eq!((c["creditLimit"].as_i64(), c["attention"].as_str(), c["version"].as_i64()), (Some(0), Some(""), Some(1)));
    let found = app.get("/customers?key=brighton+tyre", Some(&s)).await;
    assert!(found.body.contains("Brighton Tyre Co"), "search text stored");
}

#[tokio::test]
async fn missing_customer_fields_say_please_enter_and_keep_what_was_typed() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let pairs = without(&customer_pairs("Half Done Pty Ltd", ""), &["primary_person_first", "primary_person_last", "address", "city", "priceType"]);
    let res = post(&app, "/baseinfo/customers", &s, &pairs).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["code", "primary_person_first", "address", "city", "priceType"] {
        assert_eq!(field_error(&res.body, field), PLEASE_ENTER, "{field}");
    }
    for field in ["name", "state", "postal", "payment_type", "area_type"] {
        assert_eq!(field_error(&res.body, field), "", "{field}");
    }
    assert_eq!(input_value(&res.body, "name").as_deref(), Some("Half Done Pty Ltd"));
    assert_eq!(selected(&res.body, "payment_type"), "14");
    assert!(res.body.contains(">Prefers mornings</textarea>"));
    let mut bad_email = customer_pairs("Email Pty Ltd", "123");
    set(&mut bad_email, "email", "nope");
    let res = post(&app, "/baseinfo/customers", &s, &bad_email).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&res.body, "email"), "Please enter a valid email address");
}

#[tokio::test]
async fn editing_a_customer_refuses_changes_to_name_and_abn() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let id = create_customer(&app, &s, &customer_pairs("Locked Name Pty Ltd", "11 222 333 444")).await;
    let path = format!("/baseinfo/customers/{id}");
    let mut pairs = customer_pairs("Other Name", "99 999 999 999");
    set(&mut pairs, "version", "1");
    let res = post(&app, &path, &s, &pairs).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!((field_error(&res.body, "name"), field_error(&res.body, "code")), (LOCKED.to_string(), LOCKED.to_string()));
    let mut pairs = customer_pairs("Locked Name Pty Ltd", "11 222 333 444");
    set(&mut pairs, "version", "1");
    set(&mut pairs, "city", "Rockdale");
    assert_eq!(post(&app, &path, &s, &pairs).await.status, StatusCode::SEE_OTHER);
    let c = api_customer(&app, &s, id).await;
    assert_eq!((c["name"].as_str(), c["city"].as_str(), c["version"].as_i64()), (Some("Locked Name Pty Ltd"), Some("Rockdale"), Some(2)));
}

#[tokio::test]
async fn only_role_4_sets_attention_and_credit_limit() {
    let (app, sales) = TestApp::new().with_user("sales@demo.test").await;
    let manager = app.session("manager@demo.test").await;
    let id = create_customer(&app, &sales, &customer_pairs("Terms Pty Ltd", "22 333 444 555")).await;
    let path = format!("/baseinfo/customers/{id}");

    // Sales staff see the values but get no inputs for them.
    let page = app.get(&path, Some(&sales)).await;
    assert_eq!(shown(&page.body, "creditLimit").as_deref(), Some("0.00"));
    assert!(input_value(&page.body, "creditLimit").is_none() && !page.body.contains(r#"name="attention""#));
    // The approver role gets inputs and can set them.
    let page = app.get(&path, Some(&manager)).await;
    assert_eq!(input_value(&page.body, "creditLimit").as_deref(), Some("0.00"));
    assert!(page.body.contains(r#"<textarea id="f-attention" name="attention""#));
    let mut pairs = customer_pairs("Terms Pty Ltd", "22 333 444 555");
    set(&mut pairs, "version", "1");
    set(&mut pairs, "creditLimit", "1,234.50");
    set(&mut pairs, "attention", "Call before delivery");
    assert_eq!(post(&app, &path, &manager, &pairs).await.status, StatusCode::SEE_OTHER);
    let c = api_customer(&app, &sales, id).await;
    assert_eq!((c["creditLimit"].as_i64(), c["attention"].as_str()), (Some(123_450), Some("Call before delivery")));

    // Sales staff saving without those fields keep them; changing them is refused with 403.
    let mut pairs = customer_pairs("Terms Pty Ltd", "22 333 444 555");
    set(&mut pairs, "version", "2");
    set(&mut pairs, "phone", "02 9000 0000");
    assert_eq!(post(&app, &path, &sales, &pairs).await.status, StatusCode::SEE_OTHER);
    let c = api_customer(&app, &sales, id).await;
    assert_eq!((c["creditLimit"].as_i64(), c["attention"].as_str(), c["phone"].as_str()), (Some(123_450), Some("Call before delivery"), Some("02 9000 0000")));
    set(&mut pairs, "version", "3");
    set(&mut pairs, "creditLimit", "99999");
    let res = post(&app, &path, &sales, &pairs).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert!(res.body.contains(APPROVER_ONLY));
    let res = app.put_json(&format!("/api/customers/{id}"), &sales, json!({"version": 3, "attention": "changed", "name": "Terms Pty Ltd"})).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert_eq!(res.json()["message"], APPROVER_ONLY);
    let c = api_customer(&app, &sales, id).await;
    assert_eq!((c["creditLimit"].as_i64(), c["attention"].as_str(), c["version"].as_i64()), (Some(123_450), Some("Call before delivery"), Some(3)));
    // Creating with credit terms is refused for sales staff too.
    let mut pairs = customer_pairs("New Terms Pty Ltd", "33 444 555 666");
    set(&mut pairs, "creditLimit", "500");
    assert_eq!(post(&app, "/baseinfo/customers", &sales, &pairs).await.status, StatusCode::FORBIDDEN);
    // An approver's invalid amount is a field message.
    let mut pairs = customer_pairs("Terms Pty Ltd", "22 333 444 555");
    set(&mut pairs, "version", "3");
    set(&mut pairs, "creditLimit", "lots");
    let res = post(&app, &path, &manager, &pairs).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(field_error(&res.body, "creditLimit"), "Please enter a valid amount, e.g. 1234.56");
    assert_eq!(input_value(&res.body, "creditLimit").as_deref(), Some("lots"));
}

#[tokio::test]
async fn company_4_needs_crt_csr_to_create_customers() {
    let app = TestApp::new().await;
    for email in ["service@demo.test", "multi@demo.test"] {
        let s = app.session(email).await;
        let res = app.get("/baseinfo/customers", Some(&s)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{email}");
        assert!(res.body.contains(&format!(r#"<template id="flash" data-level="error" data-ms="3500">{NO_CREATE}</template>"#)));
        assert!(res.body.contains(r#"<div id="redirect" data-url="/customers" data-ms="1000" hidden></div>"#));
        assert!(!res.body.contains(r#"name="code""#), "no form");
        let res = post(&app, "/baseinfo/customers", &s, &customer_pairs("Sneaky Pty Ltd", "1")).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        assert!(res.body.contains(NO_CREATE));
        let res = app.post_json("/api/customers", &s, json!({"name": "Sneaky Pty Ltd"})).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        assert_eq!(res.json()["message"], NO_CREATE);
    }
    let sales = app.session("sales@demo.test").await;
    assert!(app.get("/api/customers?name=sneaky", Some(&sales)).await.json()["meta"]["total"] == 0);
    // Company 9 does not apply the flag: service staff there may create customers.
    let s9 = in_org(&app, "service@demo.test", 9).await;
    assert_eq!(app.get("/baseinfo/customers", Some(&s9)).await.status, StatusCode::OK);
    create_customer(&app, &s9, &customer_pairs("Org Nine Tyres", "44 555 666 777")).await;
}

#[tokio::test]
async fn json_api_creates_and_updates_products() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let b = brand(&app, &s, "Michelin").await;
    let body = json!({
        "code": "API-1", "helperCode": "2256517", "name": "225/65R17 102H API SUV", "unit": "EA",
        "tag1": "PCR tyres", "brand": b, "material": 1, "show_for_shop": true, "tyreModel": "SUV", "offset": ""
    });
    let res = app.post_json("/api/products", &s, body.clone()).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let p = res.json()["data"].clone();
    // The whole product as the API answers it: what was sent, the category taken from tag1,
    // every field not sent at its default, version 1.
    insta::assert_json_snapshot!("product_created_through_the_api", p, {
        ".id" => support::row_id(),
        ".brand" => support::equal_to(json!(b), "Michelin"),
        ".created_at" => support::timestamp(),
        ".updated_at" => support::timestamp(),
    });
    let id = p["id"].as_i64().unwrap();
    assert_eq!(app.get("/api/products?name=225%2F65R17%20api-1", Some(&s)).await.json()["meta"]["total"], 1);

    let mut update = body.clone();
    update["unit"] = json!("SET");
    update["version"] = json!(1);
    let res = app.put_json(&format!("/api/products/{id}"), &s, update.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!((res.json()["data"]["unit"].as_str(), res.json()["data"]["version"].as_i64()), (Some("SET"), Some(2)));
    let stale = app.put_json(&format!("/api/products/{id}"), &s, update.clone()).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert_eq!(stale.json()["message"], CONFLICT);
    update.as_object_mut().unwrap().remove("version");
    let res = app.put_json(&format!("/api/products/{id}"), &s, update).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.json()["errors"]["version"].as_str().unwrap().contains("version"));

    let res = app.post_json("/api/products", &s, json!({"name": "x".repeat(51), "brand": b})).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    let j = res.json();
    // The first field's message on top, then every field at fault (the brand sent is fine).
    assert_eq!(j["message"], NAME_TOO_LONG);
    insta::assert_json_snapshot!("product_with_a_long_name_and_no_fields_refused", j);
    let res = app.post_json("/api/products", &s, json!({"code": "API-1", "helperCode": "x", "name": "Dup", "unit": "EA", "tag1": "Autoparts", "brand": b, "material": 1})).await;
    assert_eq!(res.json()["errors"]["code"], "This item code is already used by another product.");
    let res = app.post_json("/api/products", &s, json!({"code": "API-2", "material": "steel"})).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "a number field with words is malformed");
}

#[tokio::test]
async fn json_api_refuses_another_companys_brand_staff_and_records() {
    let app = TestApp::new().await;
    let s9 = in_org(&app, "approver@demo.test", 9).await;
    let brand9 = app.get("/api/brands", Some(&s9)).await.json()["data"][0]["id"].as_i64().unwrap();
    let product9 = app.get("/api/products?per_page=1", Some(&s9)).await.json()["data"][0].clone();
    let s = app.session("sales@demo.test").await;
    let res = app.post_json("/api/products", &s, json!({"code": "X9", "helperCode": "x", "name": "X", "unit": "EA", "tag1": "Autoparts", "brand": brand9, "material": 1})).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(res.json()["errors"]["brand"], "Please choose a brand of this company");
    let res = app.put_json(&format!("/api/products/{}", product9["id"]), &s, json!({"version": product9["version"]})).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    let res = post(&app, &format!("/baseinfo/products/{}", product9["id"]), &s, &vec![("version", "1".to_string())]).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    // Staff pickers take staff of this company in the right role only.
    let employees = app.get("/api/employees", Some(&s)).await.json();
    let driver = employees["data"].as_array().unwrap().iter().find(|e| e["role"] == 6).unwrap()["id"].as_i64().unwrap();
    let mut body = json!({"name": "Staff Check", "code": "1", "primary_person_first": "A", "address": "1 St", "city": "C", "state": "NSW", "postal": "2000", "priceType": 1, "payment_type": 7, "area_type": 1});
    body["cs_id"] = json!(driver);
    let res = app.post_json("/api/customers", &s, body).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(res.json()["errors"]["cs_id"], "Please choose a staff member of this company");
}

#[tokio::test]
async fn json_api_creates_and_updates_customers() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let body = json!({
        "name": "Api Tyres", "code": "55 666 777 888", "primary_person_last": "Lee", "address": "2 Api Rd",
        "city": "Mascot", "state": "NSW", "postal": "2020", "priceType": 6, "payment_type": 10, "area_type": 3,
        "creditLimit": 500_000, "attention": "CBD only", "loginShop": true, "email": "buy@api-tyres.example", "birthday": null
    });
    let res = app.post_json("/api/customers", &s, body.clone()).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let c = res.json()["data"].clone();
    // The whole customer: the approver's credit terms kept, the country defaulted, the rest
    // of the fields not sent empty, version 1.
    insta::assert_json_snapshot!("customer_created_through_the_api", c, {
        ".id" => support::row_id(),
        ".created_at" => support::timestamp(),
        ".updated_at" => support::timestamp(),
    });
    let id = c["id"].as_i64().unwrap();
    let mut update = body.clone();
    update["version"] = json!(1);
    update["creditLimit"] = json!(750_000);
    let res = app.put_json(&format!("/api/customers/{id}"), &s, update.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["data"]["creditLimit"], 750_000);
    assert_eq!(app.put_json(&format!("/api/customers/{id}"), &s, update).await.status, StatusCode::CONFLICT);
    let res = app.post_json("/api/customers", &s, json!({"name": "Nothing Else"})).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    // `{message, errors}`: one message on top and "Please enter" under each required field,
    // no other field.
    insta::assert_json_snapshot!("customer_without_required_fields_refused", res.json());
}

#[tokio::test]
async fn suppliers_are_searched_by_name() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let all = app.get("/api/suppliers", Some(&s)).await.json();
    let total = all["meta"]["total"].as_i64().unwrap();
    assert!(total > 1);
    let first = all["data"][0].clone();
    let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["id", "name"], "data is id and name only");
    let word = first["name"].as_str().unwrap().split_whitespace().last().unwrap().to_lowercase();
    let found = app.get(&format!("/api/suppliers?name={word}"), Some(&s)).await.json();
    let n = found["meta"]["total"].as_i64().unwrap();
    assert!(n >= 1 && n <= total);
    assert!(found["data"].as_array().unwrap().iter().all(|x| x["name"].as_str().unwrap().to_lowercase().contains(&word)));
    assert_eq!(app.get("/api/suppliers?name=zzz-no-such", Some(&s)).await.json()["meta"]["total"], 0);
}

#[tokio::test]
async fn balance_shows_credit_limit_and_xero_balance_of_own_customers_only() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let customers = app.get("/api/customers?per_page=50", Some(&s)).await.json();
    let c = customers["data"].as_array().unwrap().iter().find(|c| c["xeroBalance"] != 0 && c["creditLimit"] != 0).cloned().expect("a customer with limit and balance");
    let res = app.get(&format!("/api/balance/{}", c["id"]), Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.json(), json!({"data": {"creditLimit": c["creditLimit"], "xeroBalance": c["xeroBalance"], "overdue": c["overdue"]}}), "the overdue amount read back from Xero beside the balance");
    let s9 = in_org(&app, "approver@demo.test", 9).await;
    let foreign = app.get("/api/customers?per_page=1", Some(&s9)).await.json()["data"][0]["id"].clone();
    let res = app.get(&format!("/api/balance/{foreign}"), Some(&s)).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(res.json()["message"], "Not found");
}

#[tokio::test]
async fn other_base_info_routes_are_not_found() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let res = app.get("/baseinfo/orders", Some(&s)).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "only master data has base-info forms");
    // Suppliers, warehouses, brands and staff have forms now (issue 13), for approvers only.
    assert_eq!(app.get("/baseinfo/suppliers", Some(&s)).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/baseinfo/products/not-a-number", Some(&s)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/baseinfo/customers/99999999", Some(&s)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/baseinfo/products", None).await.status, StatusCode::SEE_OTHER, "signed out goes to sign-in");
}
