//! Issue 9: every reference stays inside its company and every input is bounded. Each test
//! here failed on the build before it (e56adb9).

use axum::http::StatusCode;
use diesel::dsl::count_star;
use diesel::prelude::*;
use serde_json::{Value, json};
use db::schema::{brands, customers, memberships, ocop_prices, order_events, order_lines, orders, products, stock_moves, stocks, suppliers, warehouses};

use crate::support::{Session, TestApp, TestResponse};

/// Ids of one company's rows, as an outside caller could send them.
#[derive(Clone, Copy, Debug)]
struct Ids {
    warehouse: i64,
    warehouse2: i64,
    customer: i64,
    supplier: i64,
    product: i64,
    brand: i64,
    service_staff: i64,
    business_staff: i64,
    driver: i64,
    purchase_order: i64,
}

/// A staff member of `org` in `role` who is not a member of any other company.
fn staff_only_in(c: &mut db::DbConn, org: i64, role: i32) -> QueryResult<i64> {
    let elsewhere: Vec<i64> = memberships::table.filter(memberships::org_id.ne(org)).select(memberships::user_id).load(c)?;
    memberships::table
        .filter(memberships::org_id.eq(org))
        .filter(memberships::role.eq(role))
        .filter(memberships::user_id.ne_all(elsewhere))
        .select(memberships::user_id)
        .order(memberships::user_id.asc())
        .first(c)
}

async fn ids(app: &TestApp, org: i64) -> Ids {
    app.state
        .db
        .run(move |c| {
            let whs: Vec<i64> = warehouses::table.filter(warehouses::org_id.eq(org)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).load(c)?;
            Ok(Ids {
                warehouse: whs[0],
                warehouse2: whs[1],
                customer: customers::table.filter(customers::org_id.eq(org)).filter(customers::payment_type.ne(10)).select(customers::id).order(customers::id.asc()).first(c)?,
                supplier: suppliers::table.filter(suppliers::org_id.eq(org)).select(suppliers::id).order(suppliers::id.asc()).first(c)?,
                product: products::table.filter(products::org_id.eq(org)).filter(products::category.eq(1)).select(products::id).order(products::id.asc()).first(c)?,
                brand: brands::table.filter(brands::org_id.eq(org)).select(brands::id).order(brands::id.asc()).first(c)?,
                service_staff: staff_only_in(c, org, 3).or_else(|_| memberships::table.filter(memberships::org_id.eq(org)).filter(memberships::role.eq(3)).select(memberships::user_id).first(c))?,
                business_staff: staff_only_in(c, org, 1).or_else(|_| memberships::table.filter(memberships::org_id.eq(org)).filter(memberships::role.eq(1)).select(memberships::user_id).first(c))?,
                driver: staff_only_in(c, org, 6).or_else(|_| memberships::table.filter(memberships::org_id.eq(org)).filter(memberships::role.eq(6)).select(memberships::user_id).first(c))?,
                purchase_order: orders::table.filter(orders::org_id.eq(org)).filter(orders::order_type.eq(3)).select(orders::id).order(orders::id.asc()).first(c)?,
            })
        })
        .await
        .unwrap()
}

/// Org-9 ids that name nobody in org 4 (staff who belong to org 9 only).
async fn foreign(app: &TestApp) -> Ids {
    let f = ids(app, 9).await;
    let staff = [f.service_staff, f.business_staff, f.driver];
    let shared: i64 = app.state.db.run(move |c| Ok(memberships::table.filter(memberships::org_id.eq(4)).filter(memberships::user_id.eq_any(staff)).count().get_result(c)?)).await.unwrap();
    assert_eq!(shared, 0, "the foreign staff must not also work for org 4");
    f
}

/// Row counts of everything a write could touch, in both companies.
async fn footprint(app: &TestApp) -> Vec<i64> {
    app.state
        .db
        .run(|c| {
            Ok(vec![
                orders::table.select(count_star()).first(c)?,
                order_lines::table.select(count_star()).first(c)?,
                order_events::table.select(count_star()).first(c)?,
                stock_moves::table.select(count_star()).first(c)?,
                stocks::table.select(count_star()).first(c)?,
                ocop_prices::table.select(count_star()).first(c)?,
                customers::table.select(count_star()).first(c)?,
                products::table.select(count_star()).first(c)?,
                orders::table.filter(orders::status.eq(2)).select(count_star()).first(c)?,
                orders::table.filter(orders::driver_id.is_not_null()).select(count_star()).first(c)?,
            ])
        })
        .await
        .unwrap()
}

/// Sets `path` (dotted, e.g. `lines.0.productId`) in a JSON body.
fn with(mut body: Value, path: &str, value: i64) -> Value {
    let mut at = &mut body;
    let parts: Vec<&str> = path.split('.').collect();
    for p in &parts[..parts.len() - 1] {
        at = match p.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*p],
        };
    }
    at[parts[parts.len() - 1]] = json!(value);
    body
}

fn assert_not_found(res: &TestResponse, field: &str, what: &str) {
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}: {}", res.body);
    let j = res.json();
    assert!(j["errors"][field].as_str().is_some_and(|m| m.contains("does not exist in this company") || m.contains("of this company") || m.starts_with("Choose a driver")), "{what}: {j}");
}

fn line(product: i64) -> Value {
    json!([{"seq": 1, "productId": product, "quantity": 2, "price": 12_000}])
}

fn lines_json(product: i64) -> String {
    json!([{"key": "a", "productId": product, "qty": "2", "price": "120", "description": "", "taxType": 3, "inWarehouseQty": "", "inSystemQty": ""}]).to_string()
}

/// Form fields with `field` set to `value`.
fn with_field(mut pairs: Vec<(&'static str, String)>, field: &str, value: String) -> Vec<(&'static str, String)> {
    if let Some(pair) = pairs.iter_mut().find(|(k, _)| *k == field) {
        pair.1 = value;
    }
    pairs
}

async fn form(app: &TestApp, s: &Session, path: &str, pairs: &[(&str, String)]) -> TestResponse {
    let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    app.post_form(path, s, &borrowed).await
}

/// The sweep: every id-bearing field of every write route, API and form, with an org-9 id
/// while signed in to org 4. Each answers 'not found' for that field and nothing anywhere
/// changes; the answers never carry the other company's names.
#[tokio::test]
async fn another_companys_ids_are_not_found_on_every_write_route_and_nothing_is_written() {
    let app = TestApp::new().await;
    let own = ids(&app, 4).await;
    let far = foreign(&app).await;
    let s = app.session("approver@demo.test").await;
    let foreign_names: Vec<String> = app
        .state
        .db
        .run(move |c| {
            let mut n: Vec<String> = vec![
                warehouses::table.find(far.warehouse).select(warehouses::name).first(c)?,
                customers::table.find(far.customer).select(customers::name).first(c)?,
                suppliers::table.find(far.supplier).select(suppliers::name).first(c)?,
            ];
            // Names that org 4 also uses would prove nothing.
            n.retain(|name| {
                let in4: i64 = warehouses::table.filter(warehouses::org_id.eq(4)).filter(warehouses::name.eq(name)).count().get_result(c).unwrap_or(0)
                    + customers::table.filter(customers::org_id.eq(4)).filter(customers::name.eq(name)).count().get_result(c).unwrap_or(0)
                    + suppliers::table.filter(suppliers::org_id.eq(4)).filter(suppliers::name.eq(name)).count().get_result(c).unwrap_or(0);
                in4 == 0
            });
            Ok(n)
        })
        .await
        .unwrap();

    // Valid bodies first: each is accepted with org-4 ids, so a refusal below is the id's doing.
    let invoice = json!({"type": 1, "customerId": own.customer, "warehouseId": own.warehouse, "csrServiceId": own.service_staff, "csrBDId": own.business_staff, "lines": line(own.product)});
    let bill = json!({"type": 4, "supplierId": own.supplier, "warehouseId": own.warehouse, "relatedOrderId": own.purchase_order, "lines": line(own.product)});
    let transfer = json!({"type": 6, "warehouseId": own.warehouse, "inWarehouseId": own.warehouse2, "lines": line(own.product)});
    let mut drafts = vec![];
    for body in [&invoice, &bill, &transfer] {
        let res = app.post_json("/api/orders", &s, body.clone()).await;
        assert_eq!(res.status, StatusCode::OK, "{body}: {}", res.body);
        drafts.push(res.json()["data"]["id"].as_i64().unwrap());
    }
    let (draft_invoice, draft_bill) = (drafts[0], drafts[1]);
    let approved = app.post_json("/api/orders", &s, invoice.clone()).await.json()["data"]["id"].as_i64().unwrap();
    let res = app.post_json(&format!("/api/orders/{approved}/approve"), &s, json!({"warehouseId": own.warehouse, "driverId": own.driver, "confirmed": true})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let before = footprint(&app).await;

    let mut answers: Vec<(String, TestResponse)> = vec![];
    // JSON: create and update.
    let json_cases: [(&Value, &str, i64, &str); 11] = [
        (&invoice, "customerId", far.customer, "customer_id"),
        (&invoice, "warehouseId", far.warehouse, "warehouse_id"),
        (&invoice, "csrServiceId", far.service_staff, "csr_service_id"),
        (&invoice, "csrBDId", far.business_staff, "csr_bd_id"),
        (&invoice, "lines.0.productId", far.product, "lines.0.product"),
        (&bill, "supplierId", far.supplier, "supplier_id"),
        (&bill, "warehouseId", far.warehouse, "warehouse_id"),
        (&bill, "relatedOrderId", far.purchase_order, "related_order_id"),
        (&transfer, "inWarehouseId", far.warehouse, "in_warehouse_id"),
        (&transfer, "warehouseId", far.warehouse, "warehouse_id"),
        (&bill, "lines.0.productId", far.product, "lines.0.product"),
    ];
    for (base, path, value, field) in json_cases {
        let res = app.post_json("/api/orders", &s, with(base.clone(), path, value)).await;
        assert_not_found(&res, field, &format!("POST /api/orders {path}"));
        answers.push((format!("POST /api/orders {path}"), res));
        let target = if base["type"] == 4 { draft_bill } else if base["type"] == 1 { draft_invoice } else { drafts[2] };
        let res = app.put_json(&format!("/api/orders/{target}"), &s, with(base.clone(), path, value)).await;
        assert_not_found(&res, field, &format!("PUT /api/orders {path}"));
        answers.push((format!("PUT /api/orders {path}"), res));
    }
    // JSON: approve, driver.
    for (body, field) in [(json!({"warehouseId": far.warehouse, "confirmed": true}), "warehouse_id"), (json!({"driverId": far.driver, "confirmed": true}), "driver_id")] {
        let res = app.post_json(&format!("/api/orders/{draft_invoice}/approve"), &s, body).await;
        assert_not_found(&res, field, "approve");
        answers.push(("approve".into(), res));
    }
    let res = app.post_json("/api/delivery", &s, json!({"type": 1, "data": {"order_id": approved, "info": far.driver}})).await;
    assert_not_found(&res, "driver_id", "POST /api/delivery");
    // OCOP prices: another company's customer in the list, another company's product.
    let res = app.put_json(&format!("/api/ocops/{}", own.product), &s, json!({"prices": [{"id": far.customer, "price": 100}]})).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let res = app.put_json(&format!("/api/ocops/{}", far.product), &s, json!({"prices": [{"id": own.customer, "price": 100}]})).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.body);
    // Master data: a product of another company's brand, a customer with its staff.
    let res = app.post_json("/api/products", &s, json!({"code": "TRUST-1", "name": "Trust test", "helperCode": "T1", "unit": "EA", "tag1": "PCR tyres", "brand": far.brand, "material": 1})).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.json()["errors"]["brand"].is_string(), "{}", res.body);
    for field in ["cs_id", "bd_id"] {
        let staff = if field == "cs_id" { far.service_staff } else { far.business_staff };
        let body = json!({"name": "Trust Pty", "code": "TRUST", "email": "t@trust.example", "primary_person_first": "T", "address": "1 A St", "city": "Sydney", "state": "NSW", "postal": "2000", "priceType": 2, "payment_type": 14, "area_type": 2, field: staff});
        let res = app.post_json("/api/customers", &s, body).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}: {}", res.body);
        assert!(res.json()["errors"][field].is_string(), "{field}: {}", res.body);
    }
    // Master-data updates: the same references on PUT leave the record as it was.
    let product = app.get(&format!("/api/products/{}", own.product), Some(&s)).await.json()["data"].clone();
    let mut body = product.clone();
    body["brand"] = json!(far.brand);
    let res = app.put_json(&format!("/api/products/{}", own.product), &s, body).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "PUT product brand: {}", res.body);
    assert!(res.json()["errors"]["brand"].is_string(), "{}", res.body);
    let customer = app.get(&format!("/api/customers/{}", own.customer), Some(&s)).await.json()["data"].clone();
    for field in ["cs_id", "bd_id"] {
        let mut body = customer.clone();
        body[field] = json!(if field == "cs_id" { far.service_staff } else { far.business_staff });
        let res = app.put_json(&format!("/api/customers/{}", own.customer), &s, body).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "PUT customer {field}: {}", res.body);
        assert!(res.json()["errors"][field].is_string(), "{field}: {}", res.body);
    }
    assert_eq!(app.get(&format!("/api/products/{}", own.product), Some(&s)).await.json()["data"], product, "the product is unchanged");
    assert_eq!(app.get(&format!("/api/customers/{}", own.customer), Some(&s)).await.json()["data"], customer, "the customer is unchanged");
    // Printing marks: another company's sheet is simply not found.
    let res = app.post_json("/api/orders/print", &s, json!({"ids": [far.purchase_order]})).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.body);

    // HTML forms: new and edit pages, and the detail page's actions.
    let base_invoice = |field: &str, value: i64| {
        let base = vec![
            ("date", "2026-11-20".to_string()),
            ("tax_type", "3".into()),
            ("tag_id", "1".into()),
            ("customer_id", own.customer.to_string()),
            ("warehouse_id", own.warehouse.to_string()),
            ("csr_service_id", own.service_staff.to_string()),
            ("csr_bd_id", own.business_staff.to_string()),
            ("lines_json", lines_json(own.product)),
        ];
        if field == "product" { with_field(base, "lines_json", lines_json(value)) } else { with_field(base, field, value.to_string()) }
    };
    for (field, value, message) in [
        ("customer_id", far.customer, "This customer does not exist in this company."),
        ("warehouse_id", far.warehouse, "This warehouse does not exist in this company."),
        ("csr_service_id", far.service_staff, "Please choose a staff member of this company"),
        ("csr_bd_id", far.business_staff, "Please choose a staff member of this company"),
        ("product", far.product, "This product does not exist in this company."),
    ] {
        for path in ["/order_add/invoices".to_string(), format!("/order_edit/invoices/{draft_invoice}")] {
            let res = form(&app, &s, &path, &base_invoice(field, value)).await;
            assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{path} {field}: {}", &res.body[..res.body.len().min(400)]);
            assert!(res.body.contains(message), "{path} {field}: the field says why");
            answers.push((format!("{path} {field}"), res));
        }
    }
    let bill_form = |field: &str, value: i64| {
        let base = vec![
            ("date", "2026-11-20".to_string()),
            ("tax_type", "3".into()),
            ("tag_id", "1".into()),
            ("supplier_id", own.supplier.to_string()),
            ("warehouse_id", own.warehouse.to_string()),
            ("related_order_id", own.purchase_order.to_string()),
            ("lines_json", lines_json(own.product)),
        ];
        with_field(base, field, value.to_string())
    };
    for (field, value) in [("supplier_id", far.supplier), ("related_order_id", far.purchase_order)] {
        let res = form(&app, &s, "/order_add/bills", &bill_form(field, value)).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "bills {field}");
        answers.push((format!("bills {field}"), res));
    }
    let transfer_form = vec![
        ("date", "2026-11-20".to_string()),
        ("tag_id", "1".into()),
        ("warehouse_id", own.warehouse.to_string()),
        ("in_warehouse_id", far.warehouse.to_string()),
        ("lines_json", lines_json(own.product)),
    ];
    let res = form(&app, &s, "/order_add/transfers", &transfer_form).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "transfer in_warehouse_id");
    answers.push(("transfer in_warehouse_id".into(), res));
    for (action, id, field, value) in [("approve", draft_invoice, "warehouse_id", far.warehouse), ("approve", draft_invoice, "driver_id", far.driver), ("driver", approved, "driver_id", far.driver)] {
        let mut pairs = vec![("confirmed", "1".to_string()), (field, value.to_string())];
        if action == "approve" && field == "driver_id" {
            pairs.push(("warehouse_id", own.warehouse.to_string()));
        }
        let res = form(&app, &s, &format!("/order_action/{id}/{action}"), &pairs).await;
        assert!(res.status.is_client_error(), "{action} {field}: {}", res.status);
        answers.push((format!("{action} {field}"), res));
    }

    // Master-data forms: a product of another company's brand, a customer with its staff.
    let product_form = |brand: i64| -> Vec<(&'static str, String)> {
        vec![("code", "TRUST-2".into()), ("helperCode", "T2".into()), ("name", "Trust form".into()), ("unit", "EA".into()), ("category", "1".into()), ("tag1", "PCR tyres".into()), ("material", "1".into()), ("brand", brand.to_string())]
    };
    let res = form(&app, &s, "/baseinfo/products", &product_form(far.brand)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "product form brand");
    assert!(res.body.contains("Please choose a brand of this company"), "product form brand: the field says why");
    answers.push(("product form brand".into(), res));
    for (field, staff) in [("cs_id", far.service_staff), ("bd_id", far.business_staff)] {
        let pairs: Vec<(&'static str, String)> = vec![
            ("name", "Trust Form Pty".into()),
            ("code", "TRUSTF".into()),
            ("email", "f@trust.example".into()),
            ("primary_person_first", "F".into()),
            ("address", "1 A St".into()),
            ("city", "Sydney".into()),
            ("state", "NSW".into()),
            ("postal", "2000".into()),
            ("priceType", "2".into()),
            ("payment_type", "14".into()),
            ("area_type", "2".into()),
            (field, staff.to_string()),
        ];
        let res = form(&app, &s, "/baseinfo/customers", &pairs).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "customer form {field}");
        assert!(res.body.contains("Please choose a staff member of this company"), "customer form {field}: the field says why");
        answers.push((format!("customer form {field}"), res));
    }

    assert_eq!(footprint(&app).await, before, "nothing was written by any refused request");
    for (what, res) in &answers {
        for name in &foreign_names {
            assert!(!res.body.contains(name.as_str()), "{what} shows '{name}' of the other company");
        }
    }
}

/// A sheet that already names another company's supplier (written before this fix) shows
/// no trace of it in lists, the detail page, the JSON API or the export.
#[tokio::test]
async fn another_companys_names_are_never_shown_through_a_stored_reference() {
    let app = TestApp::new().await;
    let far = foreign(&app).await;
    let s = app.session("approver@demo.test").await;
    const SECRET: &str = "Org Nine Secret Supplies";
    let bill = app
        .state
        .db
        .write(move |c| {
            diesel::update(suppliers::table.find(far.supplier)).set(suppliers::name.eq(SECRET)).execute(c)?;
            let bill: i64 = orders::table.filter(orders::org_id.eq(4)).filter(orders::order_type.eq(4)).select(orders::id).order(orders::id.asc()).first(c)?;
            diesel::update(orders::table.find(bill)).set(orders::supplier_id.eq(Some(far.supplier))).execute(c)?;
            Ok(bill)
        })
        .await
        .unwrap();
    for path in ["/api/orders?per_page=100&type=4".to_string(), "/bills?per_page=150".into(), format!("/order_detail/bills/{bill}"), format!("/api/orders/{bill}")] {
        let res = app.get(&path, Some(&s)).await;
        assert_eq!(res.status, StatusCode::OK, "{path}");
        assert!(!res.body.contains(SECRET), "{path} shows the other company's supplier");
    }
    let res = app.get("/bills?format=xlsx", Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK);
    let cells = xlsx_cells(res.bytes.clone());
    assert!(cells.len() > 1, "the export has rows");
    assert!(!cells.iter().any(|c| c.contains(SECRET)), "the export shows the other company's supplier");
}

fn xlsx_cells(bytes: Vec<u8>) -> Vec<String> {
    use calamine::{Reader, Xlsx};
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).expect("an xlsx file");
    let name = book.sheet_names()[0].clone();
    let range = book.worksheet_range(&name).expect("a sheet");
    range.rows().flat_map(|r| r.iter().map(|c| c.to_string())).collect()
}

/// Values beyond every range are refused with a message on the field and nothing stored.
#[tokio::test]
async fn out_of_range_values_are_refused_and_nothing_is_stored() {
    let app = TestApp::new().await;
    let own = ids(&app, 4).await;
    let s = app.session("approver@demo.test").await;
    let before = footprint(&app).await;
    let base = json!({"type": 1, "customerId": own.customer, "warehouseId": own.warehouse, "lines": line(own.product)});
    let set = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    let huge_qty = {
        let mut b = base.clone();
        b["lines"][0]["quantity"] = json!(i64::MAX);
        b
    };
    let huge_price = {
        let mut b = base.clone();
        b["lines"][0]["price"] = json!(i64::MAX);
        b
    };
    let cases: Vec<(&str, Value, &str)> = vec![
        ("quantity i64::MAX", huge_qty, "lines.0.qty"),
        ("price i64::MAX", huge_price, "lines.0.price"),
        ("taxType 99", set("taxType", json!(99)), "tax_type"),
        ("shipType 99", set("shipType", json!(99)), "ship_type"),
        ("tagId 99999", set("tagId", json!(99_999)), "tag_id"),
        ("tagId -5", set("tagId", json!(-5)), "tag_id"),
        ("date 0000-01-01", set("date", json!("0000-01-01")), "date"),
        ("dueDate 2100-01-01", set("dueDate", json!("2100-01-01")), "due_date"),
        ("comment of a million characters", set("comments", json!("x".repeat(1_000_000))), "comments"),
        ("NUL in the address", set("address", json!("1 Main St\u{0}")), "address"),
    ];
    for (what, body, field) in cases {
        let res = app.post_json("/api/orders", &s, body).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}: {}", &res.body[..res.body.len().min(300)]);
        assert!(res.json()["errors"][field].is_string(), "{what}: {}", &res.body[..res.body.len().min(300)]);
    }
    // A date chrono reads as year 1 is refused too, whichever layer refuses it.
    let res = app.post_json("/api/orders", &s, set("dueDate", json!("1-1-1"))).await;
    assert!(res.status.is_client_error(), "dueDate 1-1-1: {}", res.status);
    // The HTML form holds the same ranges.
    let pairs = [("date", "2026-11-20".to_string()), ("tax_type", "99".into()), ("tag_id", "1".into()), ("customer_id", own.customer.to_string()), ("lines_json", lines_json(own.product).replace("\"2\"", "\"9223372036854775807\""))];
    let res = form(&app, &s, "/order_add/invoices", &pairs).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains("Quantity must be at most 1,000,000."), "the line says why");
    // Master data: a million-character name, a NUL in a name.
    let customer = |name: String| json!({"name": name, "code": "RANGE", "email": "r@range.example", "primary_person_first": "R", "address": "1 A St", "city": "Sydney", "state": "NSW", "postal": "2000", "priceType": 2, "payment_type": 14, "area_type": 2});
    for (what, name, message) in [("long", "n".repeat(1_000_000), "At most 120 characters."), ("NUL", "Nul\u{0} Pty".to_string(), "Remove the control characters (such as NUL) from this text.")] {
        let res = app.post_json("/api/customers", &s, customer(name)).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}");
        assert_eq!(res.json()["errors"]["name"], message, "{what}");
    }
    assert_eq!(footprint(&app).await, before, "nothing was stored");
}

/// The largest accepted quantity approves into whole-number stock; sums stay exact.
#[tokio::test]
async fn the_largest_quantity_moves_stock_exactly() {
    let app = TestApp::new().await;
    let own = ids(&app, 4).await;
    let s = app.session("approver@demo.test").await;
    let (wh, p) = (own.warehouse, own.product);
    let on_hand = move |app: &TestApp| {
        let db = app.state.db.clone();
        async move { db.run(move |c| Ok(stocks::table.filter(stocks::warehouse_id.eq(wh)).filter(stocks::product_id.eq(p)).select(stocks::on_hand).first::<i64>(c).optional()?.unwrap_or(0))).await.unwrap() }
    };
    let start = on_hand(&app).await;
    let body = json!({"type": 1, "customerId": own.customer, "warehouseId": wh, "lines": [{"seq": 1, "productId": p, "quantity": 1_000_000, "price": 99_999_999_999i64}]});
    let res = app.post_json("/api/orders", &s, body).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = res.json()["data"]["id"].as_i64().unwrap();
    let total = app.get(&format!("/api/orders/{id}"), Some(&s)).await.json()["data"]["amount"].as_i64();
    assert_eq!(total, Some(99_999_999_999_000_000), "the total is exact, not clamped");
    let res = app.post_json(&format!("/api/orders/{id}/approve"), &s, json!({"confirmed": true})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(on_hand(&app).await, start - 1_000_000);
}

/// One oversized legacy value does not break a company's export: the cell is cut with a marker.
#[tokio::test]
async fn exports_cut_an_oversized_cell_instead_of_failing() {
    let app = TestApp::new().await;
    let own = ids(&app, 4).await;
    let s = app.session("approver@demo.test").await;
    app.state.db.write(move |c| Ok(diesel::update(customers::table.find(own.customer)).set(customers::name.eq("L".repeat(40_000))).execute(c)?)).await.unwrap();
    let res = app.get("/customers?format=xlsx", Some(&s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", &res.body[..res.body.len().min(200)]);
    let cells = xlsx_cells(res.bytes.clone());
    let cut = cells.iter().find(|c| c.starts_with("LLLL")).expect("the long name is there");
    assert!(cut.ends_with("… [truncated]"));
    assert_eq!(cut.chars().count(), 32_767);
}

/// A request body beyond the server-wide limit says so in the app's words, not the upload's.
#[tokio::test]
async fn an_oversized_request_is_refused_in_plain_words() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let body = vec![b' '; 21 * 1024 * 1024];
    let len = body.len().to_string();
    let res = app
        .request(axum::http::Method::POST, "/api/orders", Some(body.into()), Some("application/json"), &[("cookie", &s.cookie), ("x-csrf-token", &s.csrf), ("content-length", &len)])
        .await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(res.json()["message"], "The request is larger than 20 MB.");
}
