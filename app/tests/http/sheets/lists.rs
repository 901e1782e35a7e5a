//! The seven sheet lists: routes, default types and page sizes, filters, delivery wording, export.

use axum::http::StatusCode;

use crate::support::{TestApp, body_rows};

fn total(body: &str) -> i64 {
    body.split("<span class=\"total\">Total ").nth(1).and_then(|r| r.split('<').next()).unwrap().parse().unwrap()
}

#[tokio::test]
async fn every_sheet_list_opens_with_its_new_buttons() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    for (path, title, buttons) in [
        ("/invoices", "Invoices", vec!["+ New Invoice", "+ New Credit Note"]),
        ("/credit_notes", "Credit Notes", vec!["+ New Credit Note"]),
        ("/purchase_orders", "Purchase Orders", vec!["+ New Purchase Order"]),
        ("/bills", "Bills", vec!["+ New Bill", "+ New Bill Credit Note"]),
        ("/bill_credit_notes", "Bill Credit Notes", vec!["+ New Bill Credit Note"]),
        ("/transfers", "Transfers", vec!["+ New Transfer"]),
        ("/adjustments", "Adjustments", vec!["+ New Adjustment"]),
    ] {
        let res = app.get(path, Some(&s)).await;
        assert_eq!(res.status, StatusCode::OK, "{path}");
        assert!(res.body.contains(&format!("<title>{title} - TyreDesk</title>")));
        for b in buttons {
            assert!(res.body.contains(&format!(r#"target="_blank" rel="noopener">{b}</a>"#)), "{path} {b}");
        }
        assert!(total(&res.body) > 0, "{path} has demo sheets");
        assert!(res.body.contains(">View</a>"), "{path} rows open the detail");
    }
    assert_eq!(app.get("/no_such_list", Some(&s)).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn default_types_and_page_sizes_follow_the_spec() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let inv = app.get("/invoices", Some(&s)).await;
    assert!(inv.body.contains(r#"<option value="1" selected>Invoice</option>"#), "invoice list defaults to type 1");
    assert!(inv.body.contains(r#"<option value="150" selected>150/page</option>"#));
    assert!(!inv.body.contains(">CN</span>"), "credit notes are not listed under type 1");
    let cn = app.get("/invoices?type=2", Some(&s)).await;
    assert!(!cn.body.contains(">INV</span>"));
    let cns = app.get("/credit_notes", Some(&s)).await;
    assert!(cns.body.contains(r#"<option value="100" selected>100/page</option>"#));
    let bills = app.get("/bills", Some(&s)).await;
    assert!(bills.body.contains(r#"<option value="4" selected>Bill</option>"#));
    let status = app.get("/purchase_orders", Some(&s)).await;
    assert!(!status.body.contains(r#"<option value="4">Closed</option>"#), "Closed is hidden in the status filter");
}

#[tokio::test]
async fn sales_filters_narrow_and_delivery_reads_by_ship_type() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let all = total(&app.get("/invoices", Some(&s)).await.body);
    let drafts = total(&app.get("/invoices?status=1", Some(&s)).await.body);
    let approved = total(&app.get("/invoices?status=2", Some(&s)).await.body);
    assert!(drafts > 0 && approved > 0 && drafts + approved <= all);
    let printed = total(&app.get("/invoices?print=printed", Some(&s)).await.body);
    let unprinted = total(&app.get("/invoices?print=unprinted", Some(&s)).await.body);
    assert_eq!(printed + unprinted, all);
    let self_orders = app.get("/invoices?type=csr", Some(&s)).await;
    assert!(self_orders.body.contains("<h1>Customer Self-Orders</h1>"));
    let badge = app.get("/api/csr-self-order", Some(&s)).await.json()["cnt"].as_i64().unwrap();
    assert_eq!(total(&self_orders.body), badge, "the self-order view lists what the badge counts");
    let preparing = app.get("/invoices?delivery_status=deliver+preparing", Some(&s)).await;
    assert!(total(&preparing.body) > 0);
    assert!(preparing.body.contains("Preparing · "));
    let page = app.get("/invoices?status=1&per_page=150", Some(&s)).await;
    assert!(page.body.contains("· not assigned"), "drafts have no driver");
    let future = app.get("/invoices?from=2099-01-01", Some(&s)).await;
    assert_eq!(total(&future.body), 0);
    assert!(future.body.contains("No Data"));
    let name = app.get("/api/customers", Some(&s)).await.json()["data"][0]["name"].as_str().unwrap().to_string();
    let word = name.split_whitespace().next().unwrap().to_string();
    let by_csr = total(&app.get(&format!("/invoices?csr={}", serde_urlencoded::to_string([("x", &word)]).unwrap().trim_start_matches("x=")), Some(&s)).await.body);
    assert!(by_csr > 0 && by_csr < all, "To CSR narrows ({by_csr} of {all})");
    let supplier = app.get("/bills?supplier=zzzz-none", Some(&s)).await;
    assert_eq!(total(&supplier.body), 0);
    let by_no = app.get("/invoices?no=INV-000001", Some(&s)).await;
    assert_eq!(total(&by_no.body), 1);
    for sort in 0..=6 {
        assert_eq!(app.get(&format!("/invoices?sort={sort}&per_page=20"), Some(&s)).await.status, StatusCode::OK);
    }
    let asc = app.get("/invoices?sort=2&per_page=20", Some(&s)).await;
    assert!(asc.body.find("INV-000001").unwrap() < asc.body.find("INV-000002").unwrap_or(usize::MAX));
    assert_eq!(body_rows(&app.get("/invoices?per_page=20", Some(&s)).await.body), 20);
}

#[tokio::test]
async fn product_inside_and_warehouse_filters_work_on_transfers() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let all = total(&app.get("/transfers", Some(&s)).await.body);
    let wh = app.get("/api/warehouses", Some(&s)).await.json()["data"][0]["id"].as_i64().unwrap();
    let out = total(&app.get(&format!("/transfers?warehouse={wh}"), Some(&s)).await.body);
    assert!(out < all);
    let tyres = total(&app.get("/transfers?product=r16", Some(&s)).await.body);
    assert!(tyres > 0 && tyres <= all);
    assert_eq!(total(&app.get("/transfers?product=zzzz-nothing", Some(&s)).await.body), 0);
}

#[tokio::test]
async fn orders_export_has_the_filtered_rows() {
    use calamine::{Reader, Xlsx};
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let n = total(&app.get("/invoices?status=1", Some(&s)).await.body);
    let req = axum::http::Request::get("/invoices?status=1&format=xlsx").header("cookie", &s.cookie).body(axum::body::Body::empty()).unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    assert!(res.headers()["content-disposition"].to_str().unwrap().contains("orders.xlsx"));
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
    let range = book.worksheet_range("Orders").unwrap();
    assert_eq!(range.rows().count() as i64 - 1, n);
}

#[tokio::test]
async fn the_credit_note_list_filters_by_type() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let cns = app.get("/credit_notes", Some(&s)).await;
    assert!(cns.body.contains(r#"<option value="2" selected>Credit Note</option>"#), "the credit-note list defaults to type 2");
    assert!(cns.body.contains(r#"<option value="1">Invoice</option>"#), "and offers invoices as the invoice list does");
    assert!(cns.body.contains(">CN</span>") && !cns.body.contains(">INV</span>"), "credit notes only");
    let invoices = app.get("/credit_notes?type=1", Some(&s)).await;
    assert!(invoices.body.contains(r#"<option value="1" selected>Invoice</option>"#));
    assert!(invoices.body.contains(">INV</span>") && !invoices.body.contains(">CN</span>"), "invoices only");
    assert_eq!(total(&invoices.body), total(&app.get("/invoices", Some(&s)).await.body), "the invoice list's rows");
    let credit = total(&app.get("/credit_notes?type=2", Some(&s)).await.body);
    assert_eq!(credit, total(&cns.body));
    assert_eq!(credit, total(&app.get("/invoices?type=2", Some(&s)).await.body));
    assert_eq!(total(&app.get("/credit_notes?type=4", Some(&s)).await.body), credit, "a type the list does not offer reads as its default");
}

/// The first `<tbody>` row of a list page.
fn first_row(body: &str) -> &str {
    let start = body.find("<tbody>").expect("a results table") + "<tbody>".len();
    let row = &body[start..];
    &row[..row.find("</tr>").expect("a row")]
}

#[tokio::test]
async fn list_rows_are_one_line_cells_that_open_their_detail() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let page = app.get("/invoices?status=2&per_page=20", Some(&s)).await;
    let row = first_row(&page.body);
    // The row opens its detail (click and Enter): it names the View link's target.
    let href = row.split(r#"data-href=""#).nth(1).and_then(|r| r.split('"').next()).expect("the row names its detail");
    assert!(href.starts_with("/order_detail/invoices/"), "{href}");
    assert!(row.contains(r#"tabindex="0""#), "rows take focus for Enter");
    assert!(row.contains(&format!(r#"<a class="btn small" href="{href}""#)), "the same place as View");
    // Dates are short (23/11/26) with the long form in the tooltip.
    let date = row.split(r#"<td class="date" title=""#).nth(1).expect("a date cell");
    let (long, short) = date.split_once("\">").unwrap();
    let short = short.split('<').next().unwrap();
    let parsed = chrono::NaiveDate::parse_from_str(short, "%d/%m/%y").unwrap_or_else(|_| panic!("short date {short}"));
    assert_eq!(parsed.format("%d %b %Y").to_string(), long);
    // Delivery is a compact tag; the driver is in its tooltip.
    assert!(row.contains(r#"<span class="tag tag-"#) && (row.contains(r#"title="Delivered · "#) || row.contains(r#"title="Picked up · "#)), "{row}");
    // Long text is cut on one line with the whole text on hover; the customer's name is not
    // cut: it takes the room left and wraps if need be (issue 32).
    assert!(row.contains(r#"<td class="clip narrow" title=""#), "{row}");
    assert!(row.contains(r#"<td class="name">"#), "{row}");
    // Five filters in the first row, the rest folded and counted.
    assert!(page.body.contains(r#"<details class="more-filters"><summary>More filters <span class="muted">(13, 1 in use)</span>"#), "status=2 is a folded filter in use");
}

/// Issue 29: a filter value no list offers is refused, never ignored (`?type=99` used to list
/// every sheet), and a sheet page under a route name that does not exist is not found.
#[tokio::test]
async fn unknown_filter_values_are_422_and_unknown_route_names_404() {
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    for (path, field) in [
        ("/api/orders?type=99", "type"),
        ("/api/orders?status=9", "status"),
        ("/api/orders?xero=maybe", "xero"),
        ("/api/orders?sort=77", "sort"),
        ("/api/orders?tag=4242", "tag"),
        ("/invoices?print=sometimes", "print"),
        ("/invoices?csr_status=lost", "csr_status"),
        ("/products?category=999", "category"),
        ("/customers?payment_type=999", "payment_type"),
        ("/quotings?key=a&stock=77", "stock"),
        ("/ocops?with_ocop=no", "with_ocop"),
    ] {
        let res = app.get(path, Some(&s)).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {}", &res.body[..res.body.len().min(300)]);
        if path.starts_with("/api/") {
            assert_eq!(res.json()["errors"][field], "Choose one of the listed values.", "{path}");
        } else {
            assert!(res.body.contains(&format!("Choose one of the listed values for {field}.")), "{path}");
        }
    }
    // Listed values, and the list's 'All' (dropped), still list.
    for path in ["/api/orders?type=1&status=2&xero=sent", "/invoices?type=csr", "/invoices?tag=0&status=All", "/bills?type=1"] {
        assert_eq!(app.get(path, Some(&s)).await.status, StatusCode::OK, "{path}");
    }
    let invoice = app.get("/api/orders?type=1&per_page=1", Some(&s)).await.json()["data"][0]["id"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/order_detail/zzz/{invoice}"), Some(&s)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/order_edit/zzz/{invoice}"), Some(&s)).await.status, StatusCode::NOT_FOUND);
    let moved = app.get(&format!("/order_detail/bills/{invoice}?ok=1"), Some(&s)).await;
    assert_eq!(moved.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(moved.location(), format!("/order_detail/invoices/{invoice}?ok=1"));
    assert_eq!(app.get(&format!("/order_detail/invoices/{invoice}"), Some(&s)).await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_transfers_export_has_the_out_and_in_warehouses() {
    use calamine::{Data, Reader, Xlsx};
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let (app, s) = TestApp::new().with_user("sales@demo.test").await;
    let req = axum::http::Request::get("/transfers?format=xlsx").header("cookie", &s.cookie).body(axum::body::Body::empty()).unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
    let range = book.worksheet_range("Orders").unwrap();
    let mut rows = range.rows();
    let head: Vec<String> = rows.next().unwrap().iter().map(|c| c.to_string()).collect();
    let out = head.iter().position(|h| h == "OUT Warehouse").unwrap_or_else(|| panic!("an OUT Warehouse column: {head:?}"));
    assert_eq!(head.get(out + 1).map(String::as_str), Some("IN Warehouse"), "IN Warehouse beside OUT: {head:?}");
    let first = rows.next().expect("the demo has transfers");
    let (from, to) = (first[out].to_string(), first[out + 1].to_string());
    assert!(!from.is_empty() && !to.is_empty() && from != to, "a transfer moves between two warehouses: {from} -> {to}");
    assert!(matches!(first[out + 1], Data::String(_)));
    // The other lists keep their single Warehouse column.
    let req = axum::http::Request::get("/bills?format=xlsx").header("cookie", &s.cookie).body(axum::body::Body::empty()).unwrap();
    let bytes = app.router.clone().oneshot(req).await.unwrap().into_body().collect().await.unwrap().to_bytes().to_vec();
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
    let head: Vec<String> = book.worksheet_range("Orders").unwrap().rows().next().unwrap().iter().map(|c| c.to_string()).collect();
    assert!(head.iter().any(|h| h == "Warehouse") && !head.iter().any(|h| h == "IN Warehouse"), "{head:?}");
}
