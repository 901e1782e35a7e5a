//! The sheet form sent before the line editor's code arrived (issue 37): the server-rendered
//! rows are plain fields named `lines.<i>.<field>`, the form posts them, and the save takes
//! them as it takes the island's lines: a product named by its typed code (inside the
//! company), the same messages, the typed values handed back when refused.

use axum::http::StatusCode;
use diesel::prelude::*;
use serde_json::json;
use db::schema::{customers, orders, products, warehouses};

use crate::support::{Session, TestApp};

struct Fixture {
    customer: String,
    warehouse: String,
    product: i64,
    code: String,
    /// A product code of another company that names nothing in this one.
    foreign_code: String,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            let customer: i64 = customers::table.filter(customers::org_id.eq(4)).filter(customers::payment_type.ne(10)).filter(customers::credit_limit.eq(0)).select(customers::id).order(customers::id.asc()).first(c)?;
            let warehouse: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            let (product, code): (i64, String) = products::table.filter(products::org_id.eq(4)).filter(products::category.eq(1)).select((products::id, products::code)).order(products::id.asc()).first(c)?;
            let own: Vec<String> = products::table.filter(products::org_id.eq(4)).select(products::code).load(c)?;
            let others: Vec<String> = products::table.filter(products::org_id.ne(4)).select(products::code).load(c)?;
            let foreign_code = others.into_iter().find(|code| !own.iter().any(|o| o.eq_ignore_ascii_case(code))).expect("a product code only another company has");
            Ok(Fixture { customer: customer.to_string(), warehouse: warehouse.to_string(), product, code, foreign_code })
        })
        .await
        .unwrap()
}

/// The form's fields as a browser without the island's code sends them: the header, then
/// the plain rows' fields (no `lines_json`).
async fn post_plain(app: &TestApp, s: &Session, f: &Fixture, lines: &[&[(&str, &str)]]) -> crate::support::TestResponse {
    let mut fields: Vec<(String, String)> = [("date", "2026-11-20"), ("tax_type", "3"), ("tag_id", "1"), ("reference", "TYPED-EARLY")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    fields.push(("customer_id".into(), f.customer.clone()));
    fields.push(("warehouse_id".into(), f.warehouse.clone()));
    for (i, line) in lines.iter().enumerate() {
        for (field, value) in line.iter() {
            fields.push((format!("lines.{i}.{field}"), value.to_string()));
        }
    }
    let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.post_form("/order_add/invoices", s, &pairs).await
}

/// The value of the plain row's field `name` in the editor's server-rendered rows.
fn field(html: &str, name: &str) -> String {
    let at = html.find(&format!(r#"name="{name}""#)).unwrap_or_else(|| panic!("no field {name}"));
    let tag_end = at + html[at..].find('>').unwrap();
    let tag = &html[html[..at].rfind('<').unwrap()..tag_end];
    let value = tag.split(r#" value=""#).nth(1).unwrap_or_else(|| panic!("{name} has no value: {tag}"));
    value.split('"').next().unwrap().replace("&amp;", "&")
}

fn created_id(res: &crate::support::TestResponse) -> i64 {
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    res.location().split('/').next_back().unwrap().split('?').next().unwrap().parse().unwrap()
}

#[tokio::test]
async fn the_new_sheet_form_names_its_first_rows_fields_and_leaves_the_json_unnamed() {
    let app = TestApp::new().await;
    let s = app.session("sales@demo.test").await;
    let page = app.get("/order_add/invoices", Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    for name in ["lines.0.code", "lines.0.qty", "lines.0.price", "lines.0.description", "lines.0.taxType"] {
        assert!(page.body.contains(&format!(r#"name="{name}""#)), "{name} is a field of the form");
    }
    assert!(!page.body.contains(r#"name="lines_json""#), "the island names its JSON only once live");
}

#[tokio::test]
async fn a_form_sent_before_the_editor_ran_saves_the_same_sheet_as_the_island() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    // The code as typed, in another letter case, and a second line left blank.
    let typed = f.code.to_lowercase();
    let plain = created_id(&post_plain(&app, &s, &f, &[&[("code", &typed), ("name", ""), ("qty", "3"), ("price", "36.67"), ("description", "Front pair"), ("taxType", "3")], &[("code", ""), ("qty", ""), ("price", "")]]).await);
    let island = json!([{"key": "new_1", "productId": f.product, "qty": "3", "price": "36.67", "description": "Front pair", "taxType": 3, "inWarehouseQty": "", "inSystemQty": ""}]).to_string();
    let res = app
        .post_form("/order_add/invoices", &s, &[("date", "2026-11-20"), ("tax_type", "3"), ("tag_id", "1"), ("reference", "TYPED-EARLY"), ("customer_id", &f.customer), ("warehouse_id", &f.warehouse), ("lines_json", &island)])
        .await;
    let live = created_id(&res);
    let lines = |id: i64| {
        let app = &app;
        let s = &s;
        async move {
            let json = app.get(&format!("/api/orders/{id}"), Some(s)).await.json();
            let d = &json["data"];
            (d["amount"].clone(), d["lines"].as_array().unwrap().iter().map(|l| (l["productId"].clone(), l["quantity"].clone(), l["price"].clone(), l["desc"].clone())).collect::<Vec<_>>())
        }
    };
    let (plain_amount, plain_lines) = lines(plain).await;
    assert_eq!(plain_lines.len(), 1, "the blank line is not a line");
    assert_eq!(plain_lines[0].0, json!(f.product), "the typed code named the product");
    assert_eq!(plain_lines[0].1, json!(3));
    assert_eq!(plain_lines[0].2, json!(3667));
    assert_eq!((plain_amount, plain_lines), lines(live).await, "the same sheet as the island's");
}

#[tokio::test]
async fn a_refused_plain_form_comes_back_with_what_was_typed_and_the_messages() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let res = post_plain(&app, &s, &f, &[&[("code", &f.code), ("qty", "1.5"), ("price", "10")], &[("code", "NO-SUCH-TYRE"), ("qty", "2"), ("price", "12.50")], &[("code", &f.foreign_code), ("qty", "1"), ("price", "9")]]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let body = &res.body;
    assert!(body.contains(r#"value="TYPED-EARLY""#), "the header as typed");
    // The editor's props carry the lines as typed and the messages of their fields.
    assert_eq!(field(body, "lines.0.qty"), "1.5", "the quantity typed");
    assert_eq!(field(body, "lines.1.code"), "NO-SUCH-TYRE");
    assert_eq!(field(body, "lines.1.price"), "12.50");
    assert!(body.contains("Quantity must be a whole number"), "the quantity's message");
    assert!(body.contains("No product has the code &#39;NO-SUCH-TYRE&#39;") || body.contains("No product has the code &#x27;NO-SUCH-TYRE&#x27;"), "the unknown code's message");
    // Another company's code names nothing here: refused on its line, never a 500.
    assert!(body.contains(&format!("No product has the code &#x27;{}&#x27;", f.foreign_code)) || body.contains(&format!("No product has the code &#39;{}&#39;", f.foreign_code)), "another company's product is not found");
    // The line whose code named a product shows it picked (its name), not 'choose a product'.
    let name: String = app.state.db.run({ let p = f.product; move |c| Ok(products::table.find(p).select(products::name).first(c)?) }).await.unwrap();
    assert_eq!(field(body, "lines.0.name"), name);
    let saved: i64 = app.state.db.run(|c| Ok(orders::table.filter(orders::org_id.eq(4)).filter(orders::reference.eq("TYPED-EARLY")).count().get_result(c)?)).await.unwrap();
    assert_eq!(saved, 0, "nothing was saved");
}

#[tokio::test]
async fn a_plain_line_left_without_price_or_quantity_takes_what_a_pick_would_give() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let quoted = app.get(&format!("/api/products?ids={}&customerId={}", f.product, f.customer), Some(&s)).await.json();
    let unit_price = quoted["data"][0]["unitPrice"].as_i64().expect("the customer's price");
    let id = created_id(&post_plain(&app, &s, &f, &[&[("code", &f.code), ("qty", ""), ("price", "")]]).await);
    let sheet = app.get(&format!("/api/orders/{id}"), Some(&s)).await.json();
    let line = &sheet["data"]["lines"][0];
    assert_eq!((line["productId"].as_i64(), line["quantity"].as_i64(), line["price"].as_i64()), (Some(f.product), Some(1), Some(unit_price)), "{sheet}");
}
