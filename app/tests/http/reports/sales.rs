//! The three sales reports through the API, read back with calamine and checked against
//! independent queries of the demo data: the detail's totals reconcile with the approved
//! invoices less credit notes and with its own lines, the summaries net the same figure, a
//! filter narrows the rows, slow-moving lists exactly the products its rule picks, and
//! cost columns appear only for an approver who asks for them.

use std::collections::{BTreeSet, HashMap};
use std::io::Cursor;

use calamine::{Data, Reader, Xlsx};
use chrono::NaiveDate;
use diesel::prelude::*;
use serde_json::{Value, json};
use db::schema::{order_lines, orders, products, stocks};

use crate::support::{Session, TestApp};

const ORG: i64 = 4;
const COUNTED: [i32; 2] = [2, 4];

fn today() -> NaiveDate {
    domain::dates::today(domain::dates::DEFAULT_ZONE)
}

/// A year up to today: the demo's sheets are dated around today.
fn year() -> (NaiveDate, NaiveDate) {
    (today() - chrono::Duration::days(364), today())
}

fn range_json() -> Value {
    let (from, to) = year();
    json!([from.to_string(), to.to_string()])
}

/// One worksheet as read back: its header, its data rows and its total row.
struct Sheet {
    header: Vec<String>,
    rows: Vec<Vec<Data>>,
    total: Vec<Data>,
}

impl Sheet {
    fn read(bytes: &[u8], name: &str) -> Sheet {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an xlsx file");
        let all: Vec<Vec<Data>> = book.worksheet_range(name).unwrap_or_else(|e| panic!("worksheet {name}: {e}")).rows().map(|r| r.to_vec()).collect();
        assert!(matches!(&all[0][0], Data::String(t) if t.starts_with("Invoices") || t.starts_with("Customers") || t.starts_with("Slow")), "a title row names the report");
        let at = all.iter().position(|r| r.len() > 1 && matches!(&r[1], Data::String(_)) && !matches!(&r[0], Data::Empty)).expect("a header row");
        let header: Vec<String> = all[at].iter().map(|d| d.to_string()).filter(|s| !s.is_empty()).collect();
        let total = all.last().expect("a total row").clone();
        assert_eq!(total[0], Data::String("Total".into()), "{name} ends with its total");
        let rows = all[at + 1..all.len() - 1].to_vec();
        Sheet { header, rows, total }
    }

    fn col(&self, header: &str) -> usize {
        self.header.iter().position(|h| h == header).unwrap_or_else(|| panic!("no column {header} in {:?}", self.header))
    }

    fn has(&self, header: &str) -> bool {
        self.header.iter().any(|h| h == header)
    }

    /// The column's cells as cents (money) or units (qty).
    fn numbers(&self, header: &str) -> Vec<i64> {
        let c = self.col(header);
        self.rows.iter().map(|r| number(&r[c])).collect()
    }

    fn total_of(&self, header: &str) -> i64 {
        number(&self.total[self.col(header)])
    }

    /// Checks the total row of a money or qty column is the sum of its rows.
    fn assert_sums(&self, header: &str) {
        assert_eq!(self.numbers(header).iter().sum::<i64>(), self.total_of(header), "the total of {header} is the sum of its rows");
    }

    fn texts(&self, header: &str) -> Vec<String> {
        let c = self.col(header);
        self.rows.iter().map(|r| if r[c] == Data::Empty { String::new() } else { r[c].to_string() }).collect()
    }

    fn dates(&self, header: &str) -> Vec<Option<NaiveDate>> {
        let c = self.col(header);
        self.rows
            .iter()
            .map(|r| match &r[c] {
                Data::DateTime(d) => Some(d.as_datetime().expect("a date").date()),
                Data::Empty => None,
                other => panic!("{header} holds {other:?}"),
            })
            .collect()
    }
}

/// Money in cents, or a whole quantity (the sheet writes dollars).
fn number(d: &Data) -> i64 {
    match d {
        Data::Float(f) => (f * 100.0).round() as i64,
        Data::Int(i) => i * 100,
        Data::Empty => 0,
        other => panic!("not a number: {other:?}"),
    }
}

/// A quantity cell as written (`number` reads it ×100 to share one reader).
fn qty(n: i64) -> i64 {
    n * 100
}

async fn report(app: &TestApp, s: &Session, body: Value) -> Vec<u8> {
    app.report_file(s, body).await
}

/// One counted line of company 4 in the year.
#[derive(Clone, Debug)]
struct CountedLine {
    order_type: i32,
    order_id: i64,
    product_id: Option<i64>,
    brand_id: Option<i64>,
    quantity: i64,
    amount: i64,
    cost_price: i64,
}

impl CountedLine {
    fn sign(&self) -> i64 {
        if self.order_type == 2 { -1 } else { 1 }
    }
}

/// A counted sheet: (type, id, customer, qty, amount, gst, tag).
type Counted = (i32, i64, Option<i64>, i64, i64, i64, i32);

/// The approved or closed invoices and credit notes of the year, read directly.
async fn counted_sheets(app: &TestApp) -> Vec<Counted> {
    let (from, to) = year();
    app.state
        .db
        .run(move |c| {
            Ok(orders::table
                .filter(orders::org_id.eq(ORG))
                .filter(orders::order_type.eq_any([1, 2]))
                .filter(orders::status.eq_any(COUNTED))
                .filter(orders::order_date.between(from, to))
                .select((orders::order_type, orders::id, orders::customer_id, orders::total_qty, orders::total_amount, orders::total_gst, orders::tag_id))
                .load(c)?)
        })
        .await
        .unwrap()
}

async fn counted_lines(app: &TestApp) -> Vec<CountedLine> {
    let (from, to) = year();
    type Row = (i32, i64, Option<i64>, Option<i64>, i64, i64, i64);
    let rows: Vec<Row> = app
        .state
        .db
        .run(move |c| {
            Ok(order_lines::table
                .inner_join(orders::table)
                .left_join(products::table)
                .filter(orders::org_id.eq(ORG))
                .filter(orders::order_type.eq_any([1, 2]))
                .filter(orders::status.eq_any(COUNTED))
                .filter(orders::order_date.between(from, to))
                .select((
                    orders::order_type,
                    orders::id,
                    order_lines::product_id,
                    products::brand_id.nullable(),
                    order_lines::quantity,
                    order_lines::amount,
                    order_lines::cost_price,
                ))
                .load(c)?)
        })
        .await
        .unwrap();
    rows.into_iter()
        .map(|(order_type, order_id, product_id, brand, quantity, amount, cost_price)| CountedLine {
            order_type,
            order_id,
            product_id,
            brand_id: brand,
            quantity,
            amount,
            cost_price,
        })
        .collect()
}

fn detail(extra: Value) -> Value {
    let mut body = json!({"type": "invoiceDetails", "dateRange": range_json()});
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    body
}

const SHEET_HEADERS: [&str; 13] =
    ["Date", "Due Date", "ETA Date", "No.", "Type", "Customer", "Customer Code (ABN)", "Tag", "Warehouse", "Qty", "Subtotal (ex GST)", "GST", "Total (inc GST)"];
const LINE_HEADERS: [&str; 10] = ["Date", "No.", "Type", "Customer", "Product Code", "Product Name", "Description", "Qty", "Unit Price", "Amount (inc GST)"];

#[tokio::test]
async fn the_sales_detail_reconciles_with_the_invoices_less_credit_notes_and_with_its_lines() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let bytes = report(&app, &s, detail(json!({"includeCost": "Yes"}))).await;
    let sheets = Sheet::read(&bytes, "Sheets");
    let lines = Sheet::read(&bytes, "Lines");
    assert_eq!(sheets.header, SHEET_HEADERS);
    let mut with_cost: Vec<&str> = LINE_HEADERS.to_vec();
    with_cost.extend(["Cost", "Margin", "Margin %"]);
    assert_eq!(lines.header, with_cost, "an approver asking for cost gets Cost, Margin, Margin %");

    // The independent figures: approved invoices' totals less approved credit notes'.
    let counted = counted_sheets(&app).await;
    let credits = counted.iter().filter(|r| r.0 == 2).count();
    assert!(credits > 0 && counted.len() > credits, "the demo year has invoices and credit notes");
    let net = |f: fn(&Counted) -> i64| counted.iter().map(|r| if r.0 == 2 { -f(r) } else { f(r) }).sum::<i64>();
    assert_eq!(sheets.rows.len(), counted.len(), "one row per approved or closed sheet");
    assert_eq!(sheets.total_of("Total (inc GST)"), net(|r| r.4), "Sheets total = invoices − credit notes");
    assert_eq!(sheets.total_of("GST"), net(|r| r.5));
    assert_eq!(sheets.total_of("Qty"), qty(net(|r| r.3)));
    for h in ["Qty", "Subtotal (ex GST)", "GST", "Total (inc GST)"] {
        sheets.assert_sums(h);
    }
    let types = sheets.texts("Type");
    assert_eq!(types.iter().filter(|t| *t == "Credit Note").count(), credits);
    let totals = sheets.numbers("Total (inc GST)");
    assert!(types.iter().zip(&totals).all(|(t, v)| (t == "Credit Note") == (*v < 0) || *v == 0), "credit notes are negative");

    // The Lines worksheet: every line of those sheets, adding up to the same figure.
    let all_lines = counted_lines(&app).await;
    assert_eq!(lines.rows.len(), all_lines.len());
    assert_eq!(lines.total_of("Amount (inc GST)"), sheets.total_of("Total (inc GST)"), "the Lines total equals the Sheets total");
    assert_eq!(lines.total_of("Qty"), sheets.total_of("Qty"));
    let cost: i64 = all_lines.iter().map(|l| l.sign() * l.cost_price * l.quantity).sum();
    assert_eq!(lines.total_of("Cost"), cost, "cost is the unit cost kept at approval × quantity");
    for h in ["Qty", "Amount (inc GST)", "Cost", "Margin"] {
        lines.assert_sums(h);
    }

    // Every row names its own sheet's customer, warehouse and product, as the database has them.
    let named: Vec<(String, Option<String>, Option<String>, Option<String>)> = app
        .state
        .db
        .run(|c| {
            use db::schema::{customers, warehouses};
            Ok(orders::table
                .left_join(customers::table.on(customers::id.nullable().eq(orders::customer_id)))
                .left_join(warehouses::table.on(warehouses::id.nullable().eq(orders::warehouse_id)))
                .filter(orders::org_id.eq(ORG))
                .select((orders::no, customers::name.nullable(), customers::code.nullable(), warehouses::name.nullable()))
                .load(c)?)
        })
        .await
        .unwrap();
    let by_no: std::collections::HashMap<&str, (&str, &str, &str)> = named.iter().map(|(no, c, code, w)| (no.as_str(), (c.as_deref().unwrap_or(""), code.as_deref().unwrap_or(""), w.as_deref().unwrap_or("")))).collect();
    let (nos, customers, codes, warehouses) = (sheets.texts("No."), sheets.texts("Customer"), sheets.texts("Customer Code (ABN)"), sheets.texts("Warehouse"));
    for i in 0..nos.len() {
        assert_eq!(Some(&(customers[i].as_str(), codes[i].as_str(), warehouses[i].as_str())), by_no.get(nos[i].as_str()), "Sheets row {} ({})", i + 1, nos[i]);
    }
    let products: std::collections::HashMap<String, String> =
        app.state.db.run(|c| Ok(products::table.filter(products::org_id.eq(ORG)).select((products::code, products::name)).load(c)?)).await.unwrap().into_iter().collect();
    let (line_nos, line_customers, codes, product_names) = (lines.texts("No."), lines.texts("Customer"), lines.texts("Product Code"), lines.texts("Product Name"));
    assert!(codes.iter().all(|c| !c.is_empty()), "every line names its product");
    for i in 0..codes.len() {
        assert_eq!(products.get(&codes[i]), Some(&product_names[i]), "Lines row {}: the product's code and name", i + 1);
        assert_eq!(Some(line_customers[i].as_str()), by_no.get(line_nos[i].as_str()).map(|n| n.0), "Lines row {}: its sheet's customer", i + 1);
    }

    // By customer: both worksheets run by customer name.
    let names = sheets.texts("Customer");
    assert!(names.windows(2).filter(|w| w[0] != w[1]).count() < BTreeSet::from_iter(names.iter()).len(), "each customer's sheets are together");
}

#[tokio::test]
async fn a_product_filter_keeps_only_matching_lines_and_sheets_and_still_reconciles() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let all_lines = counted_lines(&app).await;
    let brand = all_lines.iter().find_map(|l| l.brand_id).expect("a line with a branded product");
    let matching: Vec<&CountedLine> = all_lines.iter().filter(|l| l.brand_id == Some(brand)).collect();
    let sheets_with: BTreeSet<i64> = matching.iter().map(|l| l.order_id).collect();

    let bytes = report(&app, &s, detail(json!({"brands": [brand], "group": "asProducts"}))).await;
    let sheets = Sheet::read(&bytes, "Sheets");
    let lines = Sheet::read(&bytes, "Lines");
    assert!(!lines.has("Cost"), "no cost unless asked for");
    assert_eq!(sheets.rows.len(), sheets_with.len(), "only sheets with a line of the brand");
    assert!(sheets.rows.len() < counted_sheets(&app).await.len(), "the filter narrows the sheets");
    assert_eq!(lines.rows.len(), matching.len(), "only the brand's lines");
    let net: i64 = matching.iter().map(|l| l.sign() * l.amount).sum();
    assert_eq!(sheets.total_of("Total (inc GST)"), net, "a filtered sheet counts its matching lines");
    assert_eq!(lines.total_of("Amount (inc GST)"), net);
    for h in ["Qty", "Subtotal (ex GST)", "GST", "Total (inc GST)"] {
        sheets.assert_sums(h);
    }
    // Grouped by product, the Sheets worksheet runs by date.
    let dates = sheets.dates("Date");
    assert!(dates.windows(2).all(|w| w[0] <= w[1]), "sheets by date");

    // A sheet filter: tag 2 (Adjustment) alone.
    let tagged = counted_sheets(&app).await.into_iter().filter(|r| r.6 == 2).collect::<Vec<_>>();
    let bytes = report(&app, &s, detail(json!({"tags": [2]}))).await;
    let sheets = Sheet::read(&bytes, "Sheets");
    assert_eq!(sheets.rows.len(), tagged.len());
    assert_eq!(sheets.total_of("Total (inc GST)"), tagged.iter().map(|r| if r.0 == 2 { -r.4 } else { r.4 }).sum::<i64>());
    assert!(sheets.texts("Tag").iter().all(|t| t == "Adjustment"));
}

#[tokio::test]
async fn cost_columns_only_for_an_approver_who_asks() {
    let (app, sales) = TestApp::new().with_user("sales@demo.test").in_org(ORG).await;
    for (kind, sheet) in [("invoiceDetails", "Lines"), ("saleSummary", "Summary"), ("slowMoving", "Slow-moving")] {
        let mut body = json!({"type": kind, "includeCost": "Yes"});
        if kind != "slowMoving" {
            body["dateRange"] = range_json();
        }
        let bytes = report(&app, &sales, body).await;
        let read = Sheet::read(&bytes, sheet);
        assert!(!read.has("Cost") && !read.has("Margin") && !read.has("Unit Cost"), "{kind}: a user who may not see cost never gets it");
    }
    let approver = app.session_in("approver@demo.test", ORG).await;
    let bytes = report(&app, &approver, json!({"type": "saleSummary", "dateRange": range_json(), "includeCost": "No"})).await;
    assert!(!Sheet::read(&bytes, "Summary").has("Cost"), "not asked for, not shown");
}

#[tokio::test]
async fn the_sales_summary_nets_credit_notes_by_customer_and_by_product() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let counted = counted_sheets(&app).await;
    let all_lines = counted_lines(&app).await;
    let net: i64 = counted.iter().map(|r| if r.0 == 2 { -r.4 } else { r.4 }).sum();
    let cost: i64 = all_lines.iter().map(|l| l.sign() * l.cost_price * l.quantity).sum();

    let bytes = report(&app, &s, json!({"type": "saleSummary", "dateRange": range_json(), "includeCost": true})).await;
    let by_customer = Sheet::read(&bytes, "Summary");
    assert_eq!(
        by_customer.header,
        ["Customer", "Code", "Area Type", "Payment Type", "Sheets", "Qty", "Sales ex GST", "GST", "Sales inc GST", "Cost", "Margin", "Margin %"]
    );
    let customers: BTreeSet<Option<i64>> = counted.iter().map(|r| r.2).collect();
    assert_eq!(by_customer.rows.len(), customers.len(), "a row per customer");
    assert_eq!(by_customer.total_of("Sheets"), qty(counted.len() as i64));
    assert_eq!(by_customer.total_of("Sales inc GST"), net, "net of credit notes");
    assert_eq!(by_customer.total_of("GST"), counted.iter().map(|r| if r.0 == 2 { -r.5 } else { r.5 }).sum::<i64>(), "the sheets' own GST");
    assert_eq!(by_customer.total_of("Cost"), cost);
    for h in ["Sheets", "Qty", "Sales ex GST", "GST", "Sales inc GST", "Cost", "Margin"] {
        by_customer.assert_sums(h);
    }
    let sales = by_customer.numbers("Sales inc GST");
    assert!(sales.windows(2).all(|w| w[0] >= w[1]), "largest sales first");
    // Each customer's figure, independently.
    let mut per_customer: HashMap<Option<i64>, i64> = HashMap::new();
    for r in &counted {
        *per_customer.entry(r.2).or_default() += if r.0 == 2 { -r.4 } else { r.4 };
    }
    let mut expected: Vec<i64> = per_customer.into_values().collect();
    expected.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(sales, expected);

    let bytes = report(&app, &s, json!({"type": "saleSummary", "group": "asProducts", "dateRange": range_json(), "includeCost": true})).await;
    let by_product = Sheet::read(&bytes, "Summary");
    assert_eq!(by_product.header, ["Code", "Name", "Brand", "Qty", "Sales ex GST", "GST", "Sales inc GST", "Cost", "Margin", "Margin %"]);
    let products: BTreeSet<Option<i64>> = all_lines.iter().map(|l| l.product_id).collect();
    assert_eq!(by_product.rows.len(), products.len(), "a row per product sold");
    assert_eq!(by_product.total_of("Sales inc GST"), net);
    assert_eq!(by_product.total_of("Cost"), cost);
    for h in ["Qty", "Sales ex GST", "GST", "Sales inc GST", "Cost", "Margin"] {
        by_product.assert_sums(h);
    }
    let sales = by_product.numbers("Sales inc GST");
    assert!(sales.windows(2).all(|w| w[0] >= w[1]), "largest sales first");

    // A customer filter narrows to that customer's row.
    let customer = counted.iter().find_map(|r| r.2).expect("a customer");
    let bytes = report(&app, &s, json!({"type": "saleSummary", "dateRange": range_json(), "csrs": [customer]})).await;
    let one = Sheet::read(&bytes, "Summary");
    assert_eq!(one.rows.len(), 1);
    let theirs: i64 = counted.iter().filter(|r| r.2 == Some(customer)).map(|r| if r.0 == 2 { -r.4 } else { r.4 }).sum();
    assert_eq!(one.total_of("Sales inc GST"), theirs);
}

/// The products slow-moving must list, by the rule, computed directly: (code, on hand,
/// sold in the period, last sold).
async fn expected_slow(app: &TestApp, as_of: NaiveDate, days: i64, less_than: i64) -> Vec<(String, i64, i64, Option<NaiveDate>)> {
    let from = as_of - chrono::Duration::days(days - 1);
    app.state
        .db
        .run(move |c| {
            let stock: Vec<(i64, i64)> = stocks::table.filter(stocks::org_id.eq(ORG)).select((stocks::product_id, stocks::on_hand)).load(c)?;
            let sold: Vec<(i64, i32, NaiveDate, i64)> = order_lines::table
                .inner_join(orders::table)
                .filter(orders::org_id.eq(ORG))
                .filter(orders::order_type.eq_any([1, 2]))
                .filter(orders::status.eq_any(COUNTED))
                .filter(orders::order_date.le(as_of))
                .filter(order_lines::product_id.is_not_null())
                .select((order_lines::product_id.assume_not_null(), orders::order_type, orders::order_date, order_lines::quantity))
                .load(c)?;
            let codes: HashMap<i64, String> = products::table.filter(products::org_id.eq(ORG)).select((products::id, products::code)).load::<(i64, String)>(c)?.into_iter().collect();
            let mut on_hand: HashMap<i64, i64> = HashMap::new();
            for (p, n) in stock {
                *on_hand.entry(p).or_default() += n;
            }
            let mut in_period: HashMap<i64, i64> = HashMap::new();
            let mut last: HashMap<i64, NaiveDate> = HashMap::new();
            for (p, t, d, q) in sold {
                if d >= from {
                    *in_period.entry(p).or_default() += if t == 2 { -q } else { q };
                }
                if t == 1 {
                    let e = last.entry(p).or_insert(d);
                    *e = (*e).max(d);
                }
            }
            Ok(on_hand
                .into_iter()
                .filter(|(p, n)| *n > 0 && in_period.get(p).copied().unwrap_or(0) < less_than)
                .map(|(p, n)| (codes[&p].clone(), n, in_period.get(&p).copied().unwrap_or(0), last.get(&p).copied()))
                .collect())
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn slow_moving_lists_stocked_products_that_sold_less_than_the_criterion() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let as_of = today();
    for (days, less_than) in [(30, 1), (90, 5)] {
        let body = json!({"type": "slowMoving", "dueDate": as_of.to_string(), "unSoldDay": days, "lessThan": less_than, "includeCost": "Yes"});
        let sheet = Sheet::read(&report(&app, &s, body).await, "Slow-moving");
        assert_eq!(
            sheet.header,
            ["Code", "Name", "Brand", "Category", "On Hand", "Sold in Period", "Last Sold", "Days Unsold", "Unit Cost", "Stock Value"]
        );
        let expected = expected_slow(&app, as_of, days, less_than).await;
        assert!(!expected.is_empty(), "the demo has slow products for {days} days, < {less_than}");
        let got: BTreeSet<String> = sheet.texts("Code").into_iter().collect();
        let want: BTreeSet<String> = expected.iter().map(|e| e.0.clone()).collect();
        assert_eq!(got, want, "{days} days, < {less_than}: exactly the products the rule picks");
        assert_eq!(sheet.rows.len(), expected.len());
        assert_eq!(sheet.total_of("On Hand"), qty(expected.iter().map(|e| e.1).sum()));
        assert_eq!(sheet.total_of("Sold in Period"), qty(expected.iter().map(|e| e.2).sum()));
        for h in ["On Hand", "Sold in Period", "Stock Value"] {
            sheet.assert_sums(h);
        }
        // Last sold and days unsold as the rule says; never sold first, then longest unsold.
        let last: HashMap<String, Option<NaiveDate>> = expected.iter().map(|e| (e.0.clone(), e.3)).collect();
        let codes = sheet.texts("Code");
        let dates = sheet.dates("Last Sold");
        let days_unsold = sheet.texts("Days Unsold");
        for ((code, d), n) in codes.iter().zip(&dates).zip(&days_unsold) {
            assert_eq!(*d, last[code], "{code}: the last approved invoice on or before the as-of date");
            let want = d.map(|d| (as_of - d).num_days().to_string()).unwrap_or_default();
            assert_eq!(*n, want, "{code}: days from the last sale to the as-of date");
        }
        let key: Vec<(bool, Option<NaiveDate>)> = dates.iter().map(|d| (d.is_some(), *d)).collect();
        assert!(key.windows(2).all(|w| w[0] <= w[1]), "never sold first, then the longest unsold");
    }

    // The product filter narrows the list.
    let brand: i64 = app
        .state
        .db
        .run(|c| Ok(products::table.filter(products::org_id.eq(ORG)).filter(products::brand_id.is_not_null()).select(products::brand_id.assume_not_null()).first(c)?))
        .await
        .unwrap();
    let all = Sheet::read(&report(&app, &s, json!({"type": "slowMoving", "lessThan": 1_000_000})).await, "Slow-moving");
    let narrowed = Sheet::read(&report(&app, &s, json!({"type": "slowMoving", "lessThan": 1_000_000, "brands": [brand]})).await, "Slow-moving");
    assert!(!narrowed.rows.is_empty() && narrowed.rows.len() < all.rows.len(), "a brand narrows the products");
    assert!(!all.has("Unit Cost"), "no cost unless asked for");
}

/// Net sales inc GST of the counted sheets `keep` picks (by sheet id).
fn net_of(counted: &[Counted], keep: impl Fn(i64) -> bool) -> i64 {
    counted.iter().filter(|r| keep(r.1)).map(|r| if r.0 == 2 { -r.4 } else { r.4 }).sum()
}

#[tokio::test]
async fn category_warehouse_and_customer_filters_narrow_as_their_lists_say() {
    use db::schema::customers;
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    let counted = counted_sheets(&app).await;
    let (from, to) = year();
    // Per sheet: warehouse, customer's area type and creation time; per line: product's tag1.
    type Facts = (Vec<(i64, Option<i64>, Option<i32>, Option<chrono::NaiveDateTime>)>, Vec<(i32, i64, i64, Option<String>)>);
    let (sheets, lines): Facts = app
        .state
        .db
        .run(move |c| {
            let sheets = orders::table
                .left_join(customers::table)
                .filter(orders::org_id.eq(ORG))
                .filter(orders::order_type.eq_any([1, 2]))
                .filter(orders::status.eq_any(COUNTED))
                .filter(orders::order_date.between(from, to))
                .select((orders::id, orders::warehouse_id, customers::area_type.nullable(), customers::created_at.nullable()))
                .load(c)?;
            let lines = order_lines::table
                .inner_join(orders::table)
                .left_join(products::table)
                .filter(orders::org_id.eq(ORG))
                .filter(orders::order_type.eq_any([1, 2]))
                .filter(orders::status.eq_any(COUNTED))
                .filter(orders::order_date.between(from, to))
                .select((orders::order_type, orders::id, order_lines::amount, products::tag1.nullable()))
                .load(c)?;
            Ok((sheets, lines))
        })
        .await
        .unwrap();
    let summary = |extra: Value| {
        let mut body = json!({"type": "saleSummary", "dateRange": range_json()});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };

    // A warehouse.
    let wh = sheets.iter().find_map(|r| r.1).expect("a sheet with a warehouse");
    let got = Sheet::read(&report(&app, &s, summary(json!({"warehouses": [wh]}))).await, "Summary");
    let in_wh: BTreeSet<i64> = sheets.iter().filter(|r| r.1 == Some(wh)).map(|r| r.0).collect();
    assert!(in_wh.len() < counted.len());
    assert_eq!(got.total_of("Sheets"), qty(in_wh.len() as i64));
    assert_eq!(got.total_of("Sales inc GST"), net_of(&counted, |id| in_wh.contains(&id)));

    // An area type.
    let area = sheets.iter().find_map(|r| r.2).expect("a customer with an area");
    let got = Sheet::read(&report(&app, &s, summary(json!({"areas": [area]}))).await, "Summary");
    let in_area: BTreeSet<i64> = sheets.iter().filter(|r| r.2 == Some(area)).map(|r| r.0).collect();
    assert_eq!(got.total_of("Sales inc GST"), net_of(&counted, |id| in_area.contains(&id)));

    // Customers created on one Sydney day (both ends inclusive).
    let zone = domain::dates::DEFAULT_ZONE;
    let sydney_day = |t: chrono::NaiveDateTime| {
        use chrono::TimeZone;
        zone.from_utc_datetime(&t).date_naive()
    };
    let day = sheets.iter().find_map(|r| r.3).map(sydney_day).expect("a customer");
    let got = Sheet::read(&report(&app, &s, summary(json!({"csrCreated": [day.to_string(), day.to_string()]}))).await, "Summary");
    let created: BTreeSet<i64> = sheets.iter().filter(|r| r.3.map(sydney_day) == Some(day)).map(|r| r.0).collect();
    assert!(!created.is_empty() && created.len() < counted.len());
    assert_eq!(got.total_of("Sheets"), qty(created.len() as i64));
    assert_eq!(got.total_of("Sales inc GST"), net_of(&counted, |id| created.contains(&id)));

    // A parent category matches its children by the tag1 path; the detail counts those lines.
    let tags: BTreeSet<String> = lines.iter().filter_map(|l| l.3.clone()).collect();
    let (code, path) = domain::enums::ProductCategory::ALL
        .iter()
        .map(|c| (c.as_i32(), c.path()))
        .filter(|(_, p)| tags.iter().any(|t| t == p || t.starts_with(&format!("{p}/"))))
        .min_by_key(|(_, p)| p.contains('/'))
        .expect("a category with sales");
    let matches = |t: &Option<String>| t.as_deref().is_some_and(|t| t == path || t.starts_with(&format!("{path}/")));
    let want: i64 = lines.iter().filter(|l| matches(&l.3)).map(|l| if l.0 == 2 { -l.2 } else { l.2 }).sum();
    let bytes = report(&app, &s, detail(json!({"categories": [code]}))).await;
    let sheets_ws = Sheet::read(&bytes, "Sheets");
    let lines_ws = Sheet::read(&bytes, "Lines");
    assert_eq!(lines_ws.rows.len(), lines.iter().filter(|l| matches(&l.3)).count(), "{path}: its lines and its children's");
    assert_eq!(lines_ws.total_of("Amount (inc GST)"), want);
    assert_eq!(sheets_ws.total_of("Total (inc GST)"), want);
}
