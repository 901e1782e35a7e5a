//! Printing over HTTP (spec §2.7, DESIGN §5): the A4 print page of invoices and credit notes,
//! refusals, marking printed with history, the list's Print column and the detail's tag,
//! batch printing from the invoice list, and delivery tracking.

use axum::http::{Method, StatusCode};
use diesel::prelude::*;
use serde_json::json;
use db::schema::{customers, products, warehouses};

use crate::support::{Session, TestApp, TestResponse, pdf_text};

struct Fixture {
    customer: i64,
    customer_name: String,
    product: i64,
    product_code: String,
    product_name: String,
    class_a: i64,
    warehouse: i64,
    branch: i64,
}

async fn fixture(app: &TestApp) -> Fixture {
    app.state
        .db
        .run(|c| {
            let (customer, customer_name) = customers::table
                .filter(customers::org_id.eq(4))
                .filter(customers::payment_type.ne(10))
                .filter(customers::credit_limit.eq(0))
                .select((customers::id, customers::name))
                .order(customers::id.asc())
                .first::<(i64, String)>(c)?;
            let (product, product_code, product_name, class_a) = products::table
                .filter(products::org_id.eq(4))
                .filter(products::category.eq(1))
                .filter(products::class_a_price.gt(5_000))
                .select((products::id, products::code, products::name, products::class_a_price))
                .order(products::id.asc())
                .first::<(i64, String, String, i64)>(c)?;
            let own = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_third_party.eq(false));
            let warehouse = own.filter(warehouses::is_branch.eq(false)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            let branch = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::is_branch.eq(true)).select(warehouses::id).first(c)?;
            Ok(Fixture { customer, customer_name, product, product_code, product_name, class_a, warehouse, branch })
        })
        .await
        .unwrap()
}

/// Creates a sheet of `kind` (1 invoice, 2 credit note) with `lines` lines over the JSON API.
async fn create(app: &TestApp, s: &Session, f: &Fixture, kind: i32, lines: usize) -> (i64, String) {
    let lines: Vec<_> = (0..lines).map(|i| json!({"seq": i + 1, "productId": f.product, "quantity": 1 + i % 3, "price": f.class_a})).collect();
    let body = json!({"type": kind, "customerId": f.customer, "warehouseId": f.warehouse, "date": "2026-11-20", "dueDate": "2026-11-30", "reference": "PO-PRINT-1", "comments": "Call on arrival", "lines": lines});
    let res = app.post_json("/api/orders", s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let no = app.get(&format!("/api/orders/{id}"), Some(s)).await.json()["data"]["no"].as_str().unwrap().to_string();
    (id, no)
}

async fn approve(app: &TestApp, s: &Session, id: i64, warehouse: i64) {
    // Confirmed: many lines of one product may take its stock below zero (issue 29 asks first).
    let res = app.post_json(&format!("/api/orders/{id}/approve"), s, json!({"warehouseId": warehouse, "confirmed": true})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

async fn approved(app: &TestApp, s: &Session, f: &Fixture, kind: i32, lines: usize) -> (i64, String) {
    let (id, no) = create(app, s, f, kind, lines).await;
    approve(app, s, id, f.warehouse).await;
    (id, no)
}

async fn history(app: &TestApp, s: &Session, id: i64) -> Vec<String> {
    let h = app.get(&format!("/api/orders/{id}/history"), Some(s)).await.json();
    h["data"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_string()).collect()
}

async fn mark(app: &TestApp, s: &Session, ids: &[i64], variant: &str) -> TestResponse {
    app.post_json("/api/orders/print", s, json!({"ids": ids, "variant": variant})).await
}

/// The Print cell of a sheet's row in the invoice list.
async fn list_print_cell(app: &TestApp, s: &Session, route: &str, no: &str) -> String {
    let page = app.get(&format!("/{route}?no={no}"), Some(s)).await;
    let row_start = page.body.find(&format!("<td>{no}</td>")).unwrap_or_else(|| panic!("{no} in the list"));
    let row = &page.body[row_start..];
    let row = &row[..row.find("</tr>").unwrap()];
    if row.contains(">PRINT</span>") {
        "PRINT".into()
    } else if row.contains(">UnPrint</span>") {
        "UnPrint".into()
    } else {
        panic!("no print tag in {row}")
    }
}

#[tokio::test]
async fn an_approved_invoice_prints_as_an_a4_tax_invoice() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (id, no) = approved(&app, &s, &f, 1, 3).await;

    let page = app.get(&format!("/order_print/{id}?variant=standard"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(page.headers["cache-control"], "no-store");
    let b = &page.body;
    for text in [
        "<h1>TAX INVOICE</h1>",
        "Southern Cross Tyres Pty Ltd",
        "ABN 53 004 085 616",
        "112 Princes Highway",
        &format!("<th>Invoice No.</th><td>{no}</td>"),
        "<th>Date</th><td>20 Nov 2026</td>",
        &f.customer_name.replace('&', "&#38;"),
        &f.product_code,
        "<th class=\"loc\">Loc.</th>",
        "<th class=\"money\">Price</th><th class=\"money\">GST</th><th class=\"money\">Amount</th>",
        "<th>TOTAL GST 10%</th>",
        "<th>TOTAL AUD</th>",
        "<b>Due Date:</b> 30 Nov 2026",
        "<b>BSB:</b> 062-000",
        "PAYMENT ADVICE",
        "<span>Picked by</span>",
        "<span>Checked by</span>",
        "<span>Customer Sign</span>",
        "within 48 hours",
        "Call on arrival",
        "Page 1 of 1",
        "/static/css/print.css",
        "/static/js/print.js",
        &format!("data-ids=\"{id}\""),
        "data-variant=\"standard\"",
    ] {
        assert!(b.contains(text), "the invoice shows {text}");
    }
    // Department 4 shows no reference and prices include GST (no Subtotal line).
    assert!(!b.contains("PO-PRINT-1") && !b.contains("<th>Subtotal</th>"));
    assert!(!b.contains("class=\"sidebar\""), "a print page, not the app shell");
    // 3 lines of quantities 1, 2, 3 at class A.
    let total = f.class_a * 6;
    assert!(b.contains(&format!("<tr class=\"grand\"><th>TOTAL AUD</th><td>${}</td>", grouped(total))), "total {}", grouped(total));

    let np = app.get(&format!("/order_print/{id}?variant=noprice"), Some(&s)).await;
    assert_eq!(np.status, StatusCode::OK);
    assert!(np.body.contains("<h1>Delivery Doc</h1>") && np.body.contains("<th>Total Quantity</th><td>6</td>"));
    for absent in ["TOTAL AUD", "PAYMENT ADVICE", "<th class=\"money\">", "BSB"] {
        assert!(!np.body.contains(absent), "no {absent} without prices");
    }
    assert!(history(&app, &s, id).await.iter().all(|a| !a.starts_with("Printed")), "opening the page marks nothing");
}

fn grouped(cents: i64) -> String {
    let dollars = (cents / 100).to_string();
    let mut out = String::new();
    for (i, ch) in dollars.chars().enumerate() {
        if i > 0 && (dollars.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    format!("{out}.{:02}", cents % 100)
}

/// The Description cells of a print page, in order.
fn description_cells(body: &str) -> Vec<&str> {
    body.split("<td class=\"desc\">").skip(1).map(|c| &c[..c.find("</td>").unwrap()]).collect()
}

#[tokio::test]
async fn descriptions_print_whole_and_the_item_once() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    // 200 characters of brand and model words: far more than one line of the column.
    let long = "BFGOODRICH ALL-TERRAIN T/A KO2 LT265/70R17 121/118S LRE RWL, fitted and balanced, old tyres kept for the customer, \
                wheel alignment booked for Tuesday, nitrogen fill and valve caps replaced";
    assert!(long.len() > 180);
    let body = json!({"type": 1, "customerId": f.customer, "warehouseId": f.warehouse, "date": "2026-11-20", "dueDate": "2026-11-30", "lines": [
        {"seq": 1, "productId": f.product, "quantity": 1, "price": f.class_a, "description": long},
        {"seq": 2, "productId": f.product, "quantity": 2, "price": f.class_a},
        {"seq": 3, "productId": f.product, "quantity": 1, "price": f.class_a, "description": format!("{} {}", f.product_code, f.product_name)},
    ]});
    let res = app.post_json("/api/orders", &s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    approve(&app, &s, id, f.warehouse).await;

    for variant in ["standard", "noprice"] {
        let page = app.get(&format!("/order_print/{id}?variant={variant}"), Some(&s)).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        let cells = description_cells(&page.body);
        assert_eq!(cells.len(), 3, "{variant}");
        let name = f.product_name.replace('&', "&#38;");
        let item = format!("{} {name}", f.product_code);
        // A description of its own follows the item, every word of it.
        assert_eq!(cells[0], format!("{item} · {long}"), "{variant}: printed whole");
        assert!(!cells[0].contains('…'), "{variant}: never cut");
        // The line that only carries the product's name, or its code and name, prints the item once.
        for cell in &cells[1..] {
            assert_eq!(*cell, item, "{variant}");
            assert_eq!(cell.matches(&name).count(), 1, "{variant}: the name once");
        }
    }
}

#[tokio::test]
async fn credit_notes_print_as_credit_notes_and_drafts_for_fetch() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (draft, _) = create(&app, &s, &f, 2, 2).await;
    let page = app.get(&format!("/order_print/{draft}"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK, "a draft credit note prints (spec §4)");
    for text in ["<h1>CREDIT NOTE</h1>", "Draft for Fetch", "<th>Credit Note No.</th>", "<th>TOTAL CREDIT</th>", "CREDIT ADVICE", "Please do not pay on this advice. Deduct the amount of this Credit Note from your next payment to us.", "Driver Pick-up · Driver: not assigned"] {
        assert!(page.body.contains(text), "the draft credit note shows {text}");
    }
    assert!(!page.body.contains("BSB") && !page.body.contains("PAYMENT ADVICE"));
    approve(&app, &s, draft, f.warehouse).await;
    let after = app.get(&format!("/order_print/{draft}?variant=noprice"), Some(&s)).await;
    assert!(after.body.contains("<h1>Delivery Doc(Credit)</h1>") && !after.body.contains("Draft for Fetch"));
}

#[tokio::test]
async fn sheets_that_may_not_print_are_refused_whole() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (draft, draft_no) = create(&app, &s, &f, 1, 1).await;
    let refused = app.get(&format!("/order_print/{draft}?variant=standard"), Some(&s)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.body.contains(&format!("{draft_no} cannot be printed: only approved invoices and credit notes, and draft credit notes, are printed.")), "{}", refused.body);
    assert!(!refused.body.contains("<section class=\"page\""), "never a half page");
    assert_eq!(mark(&app, &s, &[draft], "standard").await.status, StatusCode::CONFLICT);
    assert!(history(&app, &s, draft).await.iter().all(|a| !a.starts_with("Printed")));

    let (voided, voided_no) = create(&app, &s, &f, 2, 1).await;
    assert_eq!(app.post_json(&format!("/api/orders/{voided}/void"), &s, json!({})).await.status, StatusCode::OK);
    let v = app.get(&format!("/order_print/{voided}"), Some(&s)).await;
    assert_eq!(v.status, StatusCode::CONFLICT);
    assert!(v.body.contains(&format!("{voided_no} cannot be printed")));

    let (ok, _) = approved(&app, &s, &f, 1, 1).await;
    let batch = app.get(&format!("/order_print/batch?ids={ok},{draft}&variant=standard"), Some(&s)).await;
    assert_eq!(batch.status, StatusCode::CONFLICT, "one refused sheet refuses the batch");
    assert!(batch.body.contains(&draft_no) && !batch.body.contains("<section class=\"page\""));
    assert_eq!(mark(&app, &s, &[ok, draft], "standard").await.status, StatusCode::CONFLICT);
    assert!(history(&app, &s, ok).await.iter().all(|a| !a.starts_with("Printed")), "all or nothing");

    let other = app.session("multi@demo.test").await;
    app.post_form("/switch-org", &other, &[("org_id", "9")]).await;
    assert_eq!(app.get(&format!("/order_print/{ok}"), Some(&other)).await.status, StatusCode::NOT_FOUND, "another company's sheet");
    assert_eq!(mark(&app, &other, &[ok], "standard").await.status, StatusCode::NOT_FOUND);

    assert_eq!(app.get(&format!("/order_print/{ok}?variant=cheap"), Some(&s)).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.get("/order_print/batch?variant=standard", Some(&s)).await.status, StatusCode::BAD_REQUEST);
    let signed_out = app.get(&format!("/order_print/{ok}"), None).await;
    assert_eq!(signed_out.status, StatusCode::SEE_OTHER);
    assert!(signed_out.location().starts_with("/login"));
}

#[tokio::test]
async fn printing_marks_the_sheet_with_history_the_list_column_and_the_tag() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (id, no) = approved(&app, &s, &f, 1, 2).await;
    assert_eq!(list_print_cell(&app, &s, "invoices", &no).await, "UnPrint");
    let detail = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(detail.body.contains(&format!("id=\"print-tag\" class=\"tag tag-grey\" data-order-id=\"{id}\" data-printed-label=\"PRINT\">UnPrint</span>")));
    for item in [format!("href=\"/order_print/{id}?variant=standard\" target=\"_blank\""), format!("href=\"/order_print/{id}?variant=noprice\" target=\"_blank\""), "Manual Mark</button>".to_string()] {
        assert!(detail.body.contains(&item), "the Print dropdown offers {item}");
    }

    let res = mark(&app, &s, &[id], "standard").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.json()["message"], "Print successful");
    assert_eq!(history(&app, &s, id).await.last().unwrap(), "Printed (Standard)");
    assert_eq!(list_print_cell(&app, &s, "invoices", &no).await, "PRINT");
    let detail = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(detail.body.contains("data-printed-label=\"PRINT\">PRINT</span>"));
    assert_eq!(app.get(&format!("/invoices?print=printed&no={no}"), Some(&s)).await.body.matches(&format!("<td>{no}</td>")).count(), 1);

    // Manual Mark on a credit note marks without printing, also with a history row.
    let (cn, cn_no) = approved(&app, &s, &f, 2, 1).await;
    let manual = app
        .request(Method::POST, &format!("/order_action/{cn}/mark"), Some(format!("_csrf={}", s.csrf).into()), Some("application/x-www-form-urlencoded"), &[("cookie", &s.cookie), ("hx-request", "true")])
        .await;
    assert_eq!(manual.status, StatusCode::NO_CONTENT);
    assert_eq!(history(&app, &s, cn).await.last().unwrap(), "Printed (Manual Mark)");
    assert_eq!(list_print_cell(&app, &s, "credit_notes", &cn_no).await, "PRINT");
}

#[tokio::test]
async fn the_invoice_list_prints_several_sheets_as_one_document() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (a, a_no) = approved(&app, &s, &f, 1, 1).await;
    let (b, b_no) = approved(&app, &s, &f, 2, 2).await;
    let (c, c_no) = approved(&app, &s, &f, 1, 40).await;
    let (draft, draft_no) = create(&app, &s, &f, 1, 1).await;

    let list = app.get("/invoices?type=1", Some(&s)).await;
    assert!(list.body.contains("<form class=\"selection\" method=\"get\" action=\"/order_print/batch\" target=\"_blank\" data-selection>"));
    assert!(list.body.contains("Print selected</summary>"));
    assert!(list.body.contains("name=\"variant\" value=\"standard\">Standard</button>") && list.body.contains("name=\"variant\" value=\"noprice\">Without Price</button>"));
    assert!(list.body.contains(&format!("name=\"ids\" value=\"{a}\" aria-label=\"Select {a_no}\"")));
    assert!(list.body.contains(&format!("<td>{draft_no}</td>")), "the draft is listed");
    assert!(!list.body.contains(&format!("name=\"ids\" value=\"{draft}\"")), "but cannot be chosen");
    let bills = app.get("/bills", Some(&s)).await;
    assert!(!bills.body.contains("data-selection"), "only the invoice and credit note lists select rows");

    // The list's form sends repeated ids; comma lists work too.
    let page = app.get(&format!("/order_print/batch?ids={a}&ids={b},{c}&variant=standard"), Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let docs: Vec<&str> = page.body.split("<section class=\"page\" data-doc=\"").skip(1).map(|p| p.split('"').next().unwrap()).collect();
    // One page each for the short sheets; the 40-line invoice flows over several (as many as
    // its wrapped descriptions need), numbered on their own.
    let c_pages = docs.len() - 2;
    assert!(c_pages >= 2, "{docs:?}");
    let expected: Vec<&str> = [a_no.as_str(), b_no.as_str()].into_iter().chain(std::iter::repeat_n(c_no.as_str(), c_pages)).collect();
    assert_eq!(docs, expected, "each sheet starts on its own page, in order");
    assert!(page.body.contains("<h1>TAX INVOICE</h1>") && page.body.contains("<h1>CREDIT NOTE</h1>"));
    assert_eq!(page.body.matches("Page 1 of 1").count(), 2);
    for n in 1..=c_pages {
        assert!(page.body.contains(&format!("Page {n} of {c_pages}")));
    }
    assert!(page.body.contains(&format!("data-ids=\"{a},{b},{c}\"")));

    let res = mark(&app, &s, &[a, b, c], "standard").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    for (id, no, route) in [(a, &a_no, "invoices"), (b, &b_no, "credit_notes"), (c, &c_no, "invoices")] {
        assert_eq!(history(&app, &s, id).await.last().unwrap(), "Printed (Standard, batch of 3)");
        assert_eq!(list_print_cell(&app, &s, route, no).await, "PRINT");
    }
    assert_eq!(list_print_cell(&app, &s, "invoices", &draft_no).await, "UnPrint");
}

#[tokio::test]
async fn the_branch_warehouse_prints_its_address_and_department_9_shows_locations() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (id, _) = create(&app, &s, &f, 1, 1).await;
    approve(&app, &s, id, f.branch).await;
    let (name, address): (String, String) = {
        let b = f.branch;
        app.state.db.run(move |c| Ok(warehouses::table.find(b).select((warehouses::name, warehouses::address)).first(c)?)).await.unwrap()
    };
    let page = app.get(&format!("/order_print/{id}"), Some(&s)).await;
    assert!(page.body.contains(&format!("<div>Branch: {name}</div>")) && page.body.contains(&format!("<div>{address}</div>")));
    assert!(!page.body.contains("112 Princes Highway"), "the branch address replaces the company's");

    // Company 9 (department 9) prints its own details, with the location column.
    let multi = app.session("multi@demo.test").await;
    app.post_form("/switch-org", &multi, &[("org_id", "9")]).await;
    let list = app.get("/api/orders?type=1&status=2&per_page=20", Some(&multi)).await.json();
    let other = list["data"][0]["id"].as_i64().expect("an approved invoice in company 9");
    let page9 = app.get(&format!("/order_print/{other}"), Some(&multi)).await;
    assert_eq!(page9.status, StatusCode::OK);
    assert!(page9.body.contains("Harbour Wheel &#38; Battery Co") && page9.body.contains("ABN 71 123 456 789"));
    assert!(page9.body.contains("<th class=\"loc\">Loc.</th>"));
}

#[tokio::test]
async fn delivery_status_comment_and_pay_type_are_edited_shown_and_filtered() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (draft, _) = create(&app, &s, &f, 1, 1).await;
    let refused = app.post_json(&format!("/api/orders/{draft}/delivery"), &s, json!({"deliveryStatus": 3, "actualPayType": 1})).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "delivery is tracked once approved");

    let (id, no) = approved(&app, &s, &f, 1, 1).await;
    let detail = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(detail.body.contains("id=\"dlg-delivery\"") && detail.body.contains("<option value=\"3\">Delivered</option>"));
    let res = app
        .request(
            Method::POST,
            &format!("/order_action/{id}/delivery"),
            Some(serde_urlencoded::to_string([("_csrf", s.csrf.as_str()), ("delivery_status", "3"), ("delivery_comment", "Left with reception"), ("actual_pay_type", "1")]).unwrap().into()),
            Some("application/x-www-form-urlencoded"),
            &[("cookie", &s.cookie), ("hx-request", "true")],
        )
        .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT, "{}", res.body);
    assert_eq!(history(&app, &s, id).await.last().unwrap(), "Delivery: Delivered · Actual Pay Type: Cash · Driver Comment: Left with reception");
    let detail = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(detail.body.contains("<label>Delivery</label><div class=\"value\">Delivered · not assigned</div>"));
    assert!(detail.body.contains("<label>Driver Comment</label><div class=\"value\">Left with reception</div>"));
    assert!(detail.body.contains("<label>Actual Pay Type</label><div class=\"value\">Cash</div>"));

    let row = app.get(&format!("/invoices?delivery_status=3&no={no}"), Some(&s)).await;
    assert!(row.body.contains(r#"<span class="tag tag-green" title="Delivered · not assigned · Cash · Left with reception">Delivered</span>"#), "the list row's delivery tag carries it all in its tooltip");
    let preparing = app.get(&format!("/invoices?delivery_status=deliver+preparing&no={no}"), Some(&s)).await;
    assert!(!preparing.body.contains(&format!("<td>{no}</td>")), "the filter leaves it out");

    // The JSON route; a credit note picked up reads 'Picked up'.
    let (cn, _) = approved(&app, &s, &f, 2, 1).await;
    let ok = app.post_json(&format!("/api/orders/{cn}/delivery"), &s, json!({"deliveryStatus": 3, "deliveryComment": "", "actualPayType": 0})).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert_eq!(history(&app, &s, cn).await.last().unwrap(), "Delivery: Picked up · Actual Pay Type: Unpaid");
    let bad = app.post_json(&format!("/api/orders/{cn}/delivery"), &s, json!({"deliveryStatus": 7, "actualPayType": 0})).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.json()["errors"]["delivery_status"], "Choose a delivery status.");
}

#[tokio::test]
async fn a_credit_note_cloned_from_an_invoice_names_it_on_the_detail_and_the_print() {
    use db::schema::orders;
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (inv, inv_no) = approved(&app, &s, &f, 1, 2).await;

    // The clone starts the credit note linked to the invoice ('Credit for' on the form).
    let form = app.get(&format!("/order_add/credit_notes/clone?from={inv}"), Some(&s)).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(form.body.contains("<label for=\"f-related\">Credit for</label>"), "the form says what it credits");
    assert!(form.body.contains(&format!("<option value=\"{inv}\" selected>{inv_no}</option>")), "linked to {inv_no}");
    // A plain new credit note has no link to offer.
    assert!(!app.get("/order_add/credit_notes", Some(&s)).await.body.contains("Credit for"));

    // Saved as the form sends it (the JSON API takes the same field).
    let body = |customer: i64, related: i64| json!({"type": 2, "customerId": customer, "warehouseId": f.warehouse, "date": "2026-11-21", "reference": "RMA 17", "relatedOrderId": related, "lines": [{"seq": 1, "productId": f.product, "quantity": 1, "price": f.class_a}]});
    let res = app.post_json("/api/orders", &s, body(f.customer, inv)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let cn = res.json()["data"]["id"].as_i64().unwrap();

    let detail = app.get(&format!("/order_detail/credit_notes/{cn}"), Some(&s)).await;
    assert!(detail.body.contains(&format!("Credit for <a href=\"/order_detail/invoices/{inv}\">{inv_no}</a>")), "the detail links to the invoice it credits");
    let print = app.get(&format!("/order_print/{cn}"), Some(&s)).await;
    assert_eq!(print.status, StatusCode::OK, "{}", print.body);
    assert!(print.body.contains(&format!("<tr><th>Credit for</th><td>{inv_no}</td></tr>")), "the A4 print names the invoice");
    // The invoice itself names nothing.
    assert!(!app.get(&format!("/order_detail/invoices/{inv}"), Some(&s)).await.body.contains("Credit for"));
    // Editing keeps the link.
    let edit = app.get(&format!("/order_edit/credit_notes/{cn}"), Some(&s)).await;
    assert!(edit.body.contains(&format!("<option value=\"{inv}\" selected>{inv_no}</option>")), "the edit form keeps the link");

    // Only an invoice of the same customer, of the company: anything else is refused and nothing is saved.
    let (other_customer, other_invoice, other_company_invoice, credit_note) = app
        .state
        .db
        .run(move |c| {
            let other_customer: i64 = customers::table.filter(customers::org_id.eq(4)).filter(customers::id.ne(f.customer)).filter(customers::payment_type.ne(10)).select(customers::id).order(customers::id.asc()).first(c)?;
            let other_invoice: i64 = orders::table.filter(orders::org_id.eq(4)).filter(orders::order_type.eq(1)).filter(orders::customer_id.ne(f.customer)).select(orders::id).first(c)?;
            let other_company_invoice: i64 = orders::table.filter(orders::org_id.ne(4)).filter(orders::order_type.eq(1)).select(orders::id).first(c)?;
            let credit_note: i64 = orders::table.filter(orders::org_id.eq(4)).filter(orders::order_type.eq(2)).filter(orders::customer_id.eq(f.customer)).filter(orders::id.ne(cn)).select(orders::id).first(c).optional()?.unwrap_or(cn);
            Ok((other_customer, other_invoice, other_company_invoice, credit_note))
        })
        .await
        .unwrap();
    let count = || async { app.state.db.run(|c| Ok(orders::table.filter(orders::order_type.eq(2)).count().get_result::<i64>(c)?)).await.unwrap() };
    let before = count().await;
    for (customer, related, why) in [(f.customer, other_invoice, "another customer's invoice"), (other_customer, inv, "the invoice of another customer"), (f.customer, credit_note, "a credit note")] {
        let refused = app.post_json("/api/orders", &s, body(customer, related)).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{why}: {}", refused.body);
        assert_eq!(refused.json()["errors"]["related_order_id"], "A credit note can only credit an invoice of its own customer.", "{why}");
    }
    let elsewhere = app.post_json("/api/orders", &s, body(f.customer, other_company_invoice)).await;
    assert_eq!(elsewhere.status, StatusCode::UNPROCESSABLE_ENTITY, "another company's invoice: {}", elsewhere.body);
    assert!(elsewhere.json()["errors"]["related_order_id"].is_string());
    assert_eq!(count().await, before, "nothing saved");
}

/// Words of the print page's documents (`<main>` … the sections), for comparing with a PDF.
fn page_words(html: &str) -> Vec<String> {
    let from = html.find("<section class=\"page\"").expect("a document section");
    let to = html.rfind("</section>").unwrap() + "</section>".len();
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[from..to].chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text.replace("&amp;", "&").replace("&#38;", "&").replace("&#39;", "'").replace("&quot;", "\"").replace("&#34;", "\"");
    let mut words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    words.sort();
    words
}

fn pdf_words(pdf: &[u8]) -> Vec<String> {
    let mut words: Vec<String> = pdf_text(pdf).split_whitespace().map(str::to_lowercase).collect();
    words.sort();
    words
}

#[tokio::test]
async fn a_sheet_and_a_batch_come_as_pdf_saying_what_the_print_page_says() {
    let app = TestApp::new().await;
    let f = fixture(&app).await;
    let s = app.session("sales@demo.test").await;
    let (inv, inv_no) = approved(&app, &s, &f, 1, 3).await;
    let (long, long_no) = approved(&app, &s, &f, 1, 45).await;

    for (id, no, variant, title) in [(inv, &inv_no, "standard", "TAX INVOICE"), (inv, &inv_no, "noprice", "Delivery Doc"), (long, &long_no, "standard", "TAX INVOICE")] {
        let res = app.get(&format!("/order_print/{id}?variant={variant}&format=pdf"), Some(&s)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        assert_eq!(res.headers["content-type"], "application/pdf");
        let disposition = res.headers["content-disposition"].to_str().unwrap();
        assert!(disposition.starts_with("inline;") && disposition.contains(no.as_str()), "{disposition}");
        assert_eq!(res.headers["cache-control"], "no-store");
        assert!(res.bytes.starts_with(b"%PDF-"));
        let text = pdf_text(&res.bytes);
        assert!(text.contains(title) && text.contains(no.as_str()) && text.contains(&f.customer_name), "{text}");
        // The print page of the same sheet says the same words.
        let page = app.get(&format!("/order_print/{id}?variant={variant}"), Some(&s)).await;
        assert_eq!(page_words(&page.body), pdf_words(&res.bytes), "{no} {variant}: the print page and the PDF differ");
    }
    // The detail page's Print menu offers both PDFs beside the print page.
    let detail = app.get(&format!("/order_detail/invoices/{inv}"), Some(&s)).await;
    assert!(detail.body.contains(&format!("/order_print/{inv}?variant=standard&amp;format=pdf")) && detail.body.contains("PDF (Without Price)"), "{}", detail.body);
    // Viewing the PDF marks nothing printed.
    assert!(history(&app, &s, inv).await.iter().all(|a| !a.starts_with("Printed")));

    // A batch: one PDF, each sheet's documents in the order asked, pages numbered per sheet.
    let batch = app.get(&format!("/order_print/batch?ids={long},{inv}&variant=standard&format=pdf"), Some(&s)).await;
    assert_eq!(batch.status, StatusCode::OK, "{}", batch.body);
    let text = pdf_text(&batch.bytes);
    let (at_long, at_inv) = (text.find(long_no.as_str()).unwrap(), text.find(inv_no.as_str()).unwrap());
    assert!(at_long < at_inv, "in the order asked");
    assert!(text.contains("Page 3 of 3") && text.contains("Page 1 of 1"), "{text}");
    let page = app.get(&format!("/order_print/batch?ids={long},{inv}&variant=standard"), Some(&s)).await;
    assert_eq!(page_words(&page.body), pdf_words(&batch.bytes));

    // Refusals are the print page's: a draft, another company's sheet, a wrong format.
    let (draft, draft_no) = create(&app, &s, &f, 1, 1).await;
    let refused = app.get(&format!("/order_print/{draft}?format=pdf"), Some(&s)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.body.contains(&format!("{draft_no} cannot be printed")) && !refused.bytes.starts_with(b"%PDF"));
    let other = app.session("multi@demo.test").await;
    app.post_form("/switch-org", &other, &[("org_id", "9")]).await;
    assert_eq!(app.get(&format!("/order_print/{inv}?format=pdf"), Some(&other)).await.status, StatusCode::NOT_FOUND);
    let wrong = app.get(&format!("/order_print/{inv}?format=docx"), Some(&s)).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert!(wrong.body.contains("format=pdf"));
}
