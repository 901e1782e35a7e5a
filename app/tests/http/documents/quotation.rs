//! Quotations: saved from the quoting cart, numbered, listed per customer, printed, and
//! converted to an invoice while valid.

use axum::http::StatusCode;
use diesel::prelude::*;

use db::schema::{customers, organisations, products, quotation_lines, quotations};
use domain::money::Cents;

use super::{inline_pdf, pdf_text};
use crate::support::TestApp;

async fn customer_and_products(app: &TestApp, n: i64) -> (i64, String, Vec<(i64, String)>) {
    app.state
        .db
        .run(move |c| {
            let (id, name) = customers::table.filter(customers::org_id.eq(4)).order(customers::id).select((customers::id, customers::name)).first::<(i64, String)>(c)?;
            let ps = products::table.filter(products::org_id.eq(4)).order(products::id).limit(n).select((products::id, products::code)).load::<(i64, String)>(c)?;
            Ok((id, name, ps))
        })
        .await
        .unwrap()
}

fn today() -> chrono::NaiveDate {
    domain::dates::today(domain::dates::zone_of("Australia/Sydney"))
}

#[tokio::test]
async fn a_saved_quotation_is_numbered_listed_and_printed_at_the_customers_prices() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (customer, name, ps) = customer_and_products(&app, 2).await;
    let items = format!("{}:2,{}:3", ps[0].0, ps[1].0);
    let saved = app.post_form("/quotations", &s, &[("items", &items), ("customer", &customer.to_string())]).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    assert!(saved.location().starts_with(&format!("/quotations?customer={customer}")), "{}", saved.location());
    let list = app.follow(&saved, &s).await;
    assert!(list.body.contains("Quotation Q-000001 saved."), "{}", list.body);
    assert!(list.body.contains(">Q-000001<"));

    // The prices are the customer's, as the cart prices them (tier or OCOP).
    let ids = vec![ps[0].0, ps[1].0];
    let quotes = app.state.db.run(move |c| services::pricing::quotes_for_customer(c, 4, &ids, Some(customer))).await.unwrap().quotes;
    let (p0, p1) = (quotes[&ps[0].0].unit_price, quotes[&ps[1].0].unit_price);
    let total = Cents(p0.0 * 2 + p1.0 * 3);
    let id: i64 = app.state.db.run(|c| Ok(quotations::table.filter(quotations::org_id.eq(4)).select(quotations::id).first(c)?)).await.unwrap();
    assert!(list.body.contains(&total.grouped()), "the list shows the total");

    let text = inline_pdf(&app.get(&format!("/quotations/{id}/pdf"), Some(&s)).await);
    let until = domain::dates::date(today() + chrono::Duration::days(7));
    for want in ["QUOTATION", "Q-000001", name.as_str(), &format!("Valid Until {until}"), &format!("Prices are valid until {until} and include GST."), &format!("TOTAL AUD ${}", total.grouped())] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    assert!(text.contains(&format!("1 {} ", ps[0].1)) && text.contains(&format!(" 2 {} ", p0.grouped())), "line 1 with its qty and price:\n{text}");
    assert!(text.contains(&format!("2 {} ", ps[1].1)) && text.contains(&format!(" 3 {} ", p1.grouped())), "line 2:\n{text}");
    assert!(text.contains("Page 1 of 1"));
    assert!(!text.to_lowercase().contains("cost"), "no cost on a quotation");

    // The next one is Q-000002.
    let again = app.post_form("/quotations", &s, &[("items", &items), ("customer", &customer.to_string())]).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    assert!(app.follow(&again, &s).await.body.contains("Quotation Q-000002 saved."));
}

#[tokio::test]
async fn saving_needs_a_customer_and_a_cart() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (customer, _, ps) = customer_and_products(&app, 1).await;
    let page = app.get("/quotings", Some(&s)).await;
    assert!(page.body.contains("Save quotation") && page.body.contains("action=\"/quotations\""));
    let none = app.post_form("/quotations", &s, &[("items", &format!("{}:1", ps[0].0)), ("customer", "")]).await;
    assert_eq!(none.status, StatusCode::BAD_REQUEST);
    assert!(none.body.contains(services::quotations::NO_CUSTOMER), "{}", none.body);
    let empty = app.post_form("/quotations", &s, &[("items", ""), ("customer", &customer.to_string())]).await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    assert!(empty.body.contains(services::quotations::EMPTY_CART));
    let other = app.session_in("approver@demo.test", 9).await;
    let foreign = app.post_form("/quotations", &other, &[("items", &format!("{}:1", ps[0].0)), ("customer", &customer.to_string())]).await;
    assert_eq!(foreign.status, StatusCode::BAD_REQUEST, "another company's customer is no customer here");
    let n: i64 = app.state.db.run(|c| Ok(quotations::table.count().get_result(c)?)).await.unwrap();
    assert_eq!(n, 0, "nothing was saved");
}

#[tokio::test]
async fn convert_to_invoice_keeps_the_quoted_prices_and_refuses_an_expired_quotation() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let (customer, name, ps) = customer_and_products(&app, 1).await;
    let saved = app.post_form("/quotations", &s, &[("items", &format!("{}:4", ps[0].0)), ("customer", &customer.to_string())]).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    let id: i64 = app.state.db.run(|c| Ok(quotations::table.select(quotations::id).first(c)?)).await.unwrap();
    // A quoted price the product's prices no longer give: the invoice keeps the quoted one.
    app.state.db.write(move |c| Ok(diesel::update(quotation_lines::table.filter(quotation_lines::quotation_id.eq(id))).set(quotation_lines::price.eq(123_45)).execute(c)?)).await.unwrap();
    let go = app.get(&format!("/quotations/{id}/invoice"), Some(&s)).await;
    assert_eq!(go.status, StatusCode::SEE_OTHER, "{}", go.body);
    assert!(go.location().starts_with(&format!("/order_add/invoices/addFromCart?items={}:4&csr={customer}&quotation={id}", ps[0].0)), "{}", go.location());
    let form = app.follow(&go, &s).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("123.45"), "the quoted price is on the new invoice");
    assert!(form.body.contains(&name) || form.body.contains(&name.replace('&', "&amp;")), "the customer is chosen");

    let yesterday = today() - chrono::Duration::days(1);
    app.state.db.write(move |c| Ok(diesel::update(quotations::table.find(id)).set(quotations::valid_until.eq(yesterday)).execute(c)?)).await.unwrap();
    let expired = app.get(&format!("/quotations/{id}/invoice"), Some(&s)).await;
    assert_eq!(expired.status, StatusCode::CONFLICT);
    assert!(expired.body.contains(&format!("Quotation Q-000001 expired on {}", domain::dates::date(yesterday))), "{}", expired.body);
    let by_address = app.get(&format!("/order_add/invoices/addFromCart?items={}:4&csr={customer}&quotation={id}", ps[0].0), Some(&s)).await;
    assert_eq!(by_address.status, StatusCode::CONFLICT, "typing the address does not get round it");
    let list = app.get(&format!("/quotations?customer={customer}"), Some(&s)).await;
    assert!(list.body.contains("Expired") && !list.body.contains("Convert to invoice"));
}

#[tokio::test]
async fn another_companys_quotation_and_customer_are_not_found() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let (customer, _, ps) = customer_and_products(&app, 1).await;
    assert_eq!(app.post_form("/quotations", &s, &[("items", &format!("{}:1", ps[0].0)), ("customer", &customer.to_string())]).await.status, StatusCode::SEE_OTHER);
    let id: i64 = app.state.db.run(|c| Ok(quotations::table.select(quotations::id).first(c)?)).await.unwrap();
    let other = app.session_in("approver@demo.test", 9).await;
    for path in [format!("/quotations/{id}/pdf"), format!("/quotations/{id}/invoice"), format!("/quotations?customer={customer}")] {
        assert_eq!(app.get(&path, Some(&other)).await.status, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn the_validity_comes_from_the_setting_and_a_long_quotation_runs_to_a_second_page() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    app.state.db.write(|c| Ok(diesel::update(organisations::table.find(4)).set(organisations::quotation_valid_days.eq(30)).execute(c)?)).await.unwrap();
    let (customer, _, ps) = customer_and_products(&app, 60).await;
    assert_eq!(ps.len(), 60, "the demo data has 60 products");
    let items = ps.iter().map(|p| format!("{}:1", p.0)).collect::<Vec<_>>().join(",");
    assert_eq!(app.post_form("/quotations", &s, &[("items", &items), ("customer", &customer.to_string())]).await.status, StatusCode::SEE_OTHER);
    let id: i64 = app.state.db.run(|c| Ok(quotations::table.select(quotations::id).first(c)?)).await.unwrap();
    let text = pdf_text(&app.get(&format!("/quotations/{id}/pdf"), Some(&s)).await.bytes);
    assert!(text.contains(&format!("Valid Until {}", domain::dates::date(today() + chrono::Duration::days(30)))), "{text}");
    assert!(text.contains("Page 1 of 2") && text.contains("Page 2 of 2") && !text.contains("Page 3"), "{text}");
    let pages: Vec<&str> = text.split("Page 1 of 2").collect();
    assert_eq!(pages.len(), 2);
    for (i, page) in pages.iter().enumerate() {
        assert!(page.contains("# Description Qty. Price GST Amount"), "the header row on page {}:\n{page}", i + 1);
    }
    assert!(pages[1].contains(&format!("60 {}", ps[59].1)), "the 60th line is on page 2");
}

#[tokio::test]
async fn the_validity_setting_is_checked_saved_and_audited() {
    use crate::support::extract_input;
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let page = app.get("/settings", Some(&s)).await;
    assert_eq!(extract_input(&page.body, "quotation_valid_days"), "7");
    let names = ["name", "abn", "addressLine1", "addressLine2", "phone", "email", "website", "bankAccountName", "bsb", "bankAccount", "department_id", "tier_b", "tier_c", "tier_d", "tier_e", "time_zone", "version"];
    let form = |days: &str| -> Vec<(String, String)> {
        let mut f: Vec<(String, String)> = names.iter().map(|n| (n.to_string(), extract_input(&page.body, n))).collect();
        f.push(("quotation_valid_days".into(), days.into()));
        f
    };
    let post = |f: Vec<(String, String)>| {
        let app = &app;
        let s = &s;
        async move {
            let refs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            app.post_form("/settings", s, &refs).await
        }
    };
    let bad = post(form("366")).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains(domain::admin::QUOTATION_DAYS_RANGE), "{}", bad.body);
    let ok = post(form("14")).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    let days: i32 = app.state.db.run(|c| Ok(organisations::table.find(4).select(organisations::quotation_valid_days).first(c)?)).await.unwrap();
    assert_eq!(days, 14);
    let again = app.get("/settings", Some(&s)).await;
    assert!(again.body.contains("Quotation valid for (days): 7 → 14"), "the change is audited and listed");
    let sales = app.session("sales@demo.test").await;
    let refs = [("quotation_valid_days", "30")];
    assert_eq!(app.post_form("/settings", &sales, &refs).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn departments_7_and_8_quote_prices_without_gst() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    app.state.db.write(|c| Ok(diesel::update(organisations::table.find(4)).set(organisations::department_id.eq(7)).execute(c)?)).await.unwrap();
    let (customer, _, ps) = customer_and_products(&app, 1).await;
    assert_eq!(app.post_form("/quotations", &s, &[("items", &format!("{}:2", ps[0].0)), ("customer", &customer.to_string())]).await.status, StatusCode::SEE_OTHER);
    let (id, total): (i64, i64) = app.state.db.run(|c| Ok(quotations::table.select((quotations::id, quotations::total_amount)).first(c)?)).await.unwrap();
    let text = inline_pdf(&app.get(&format!("/quotations/{id}/pdf"), Some(&s)).await);
    let total = Cents(total);
    let ex = Cents(total.0 - domain::money::gst_of_inclusive(total, domain::enums::TaxType::GstOnIncome).0);
    for want in ["Price ex GST", "Amount ex GST", "and exclude GST.", &format!("Subtotal (ex GST) ${}", ex.grouped()), &format!("TOTAL AUD ${}", total.grouped())] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    assert!(text.contains(&format!(" {}\n", ex.grouped())) || text.contains(&format!(" {} ", ex.grouped())), "the line amount without GST:\n{text}");
}
