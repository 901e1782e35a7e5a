//! Payments read back from Xero for sent sales invoices (issue 31): the payments job reads
//! the invoices changed since the last read, pages over more than 100, and the lists, the
//! detail page, the customer picker and the invoice form show Paid / Part paid / Overdue N
//! days and the customer's overdue amount; the optional overdue rule of the approval guard.

use std::time::Duration;

use chrono::NaiveDate;
use diesel::prelude::*;
use serde_json::json;
use db::schema::{customers, orders, organisations};

use super::link::{ORG, Rig, rig};

fn today() -> NaiveDate {
    domain::dates::today(domain::dates::DEFAULT_ZONE)
}

impl Rig {
    /// Gives the next approved, unsent invoice `customer` and `due`, sends it; its id, number and total.
    async fn sent_invoice(&self, customer: i64, due: NaiveDate) -> (i64, String, i64) {
        let (id, no) = self.sheet(1).await;
        self.sql(move |c| diesel::update(orders::table.find(id)).set((orders::customer_id.eq(Some(customer)), orders::due_date.eq(Some(due)))).execute(c)).await;
        self.send(id).await;
        self.drain().await;
        assert_eq!(self.xero_state(id).await.0, 1, "sent");
        let total: i64 = self.sql(move |c| orders::table.find(id).select(orders::total_amount).first(c)).await;
        (id, no, total)
    }

    async fn read_payments(&self) {
        let res = self.app.post_json("/api/xero/payments", &self.s, json!({})).await;
        assert_eq!(res.status, 200, "{}", res.body);
        assert_eq!(res.json()["queued"], true, "{}", res.body);
        self.drain().await;
    }

    async fn payment(&self, id: i64) -> (Option<i64>, Option<i64>, Option<NaiveDate>, bool) {
        let (due, paid, on, at): (Option<i64>, Option<i64>, Option<NaiveDate>, Option<chrono::NaiveDateTime>) =
            self.sql(move |c| orders::table.find(id).select((orders::xero_amount_due, orders::xero_amount_paid, orders::xero_paid_on, orders::xero_payments_at)).first(c)).await;
        (due, paid, on, at.is_some())
    }

    /// The `GET /Invoices` calls the link made: query and `If-Modified-Since`.
    fn invoice_reads(&self) -> Vec<(String, Option<String>)> {
        self.fake.requests().into_iter().filter(|l| l.method == "GET" && l.path.ends_with("/Invoices")).map(|l| (l.query, l.if_modified_since)).collect()
    }

    async fn a_customer(&self) -> (i64, String) {
        self.sql(|c| customers::table.filter(customers::org_id.eq(ORG)).order(customers::id.asc()).select((customers::id, customers::name)).first(c)).await
    }
}

fn money(c: i64) -> String {
    domain::money::Cents(c).grouped()
}

#[tokio::test]
async fn paid_part_paid_and_overdue_invoices_are_read_back_shown_and_a_second_read_asks_only_for_changes() {
    let r = rig().await;
    r.connect().await;
    let (cid, name) = r.a_customer().await;
    let later = today() + chrono::Duration::days(10);
    let (paid_id, paid_no, paid_total) = r.sent_invoice(cid, later).await;
    let (part_id, part_no, part_total) = r.sent_invoice(cid, later).await;
    let (late_id, late_no, late_total) = r.sent_invoice(cid, today() - chrono::Duration::days(5)).await;
    assert!(part_total > 1_000, "part payment below the total");
    r.fake.add_payment(&paid_no, paid_total as f64 / 100.0);
    r.fake.add_payment(&part_no, 10.0);

    let paid_on = r.clock.now().date();
    r.read_payments().await;
    assert_eq!(r.payment(paid_id).await, (Some(0), Some(paid_total), Some(paid_on), true));
    assert_eq!(r.payment(part_id).await, (Some(part_total - 1_000), Some(1_000), None, true));
    assert_eq!(r.payment(late_id).await, (Some(late_total), Some(0), None, true));
    let reads = r.invoice_reads();
    assert_eq!(reads.len(), 1, "one page");
    assert!(reads[0].0.contains("where=Type%3D%3D%22ACCREC%22") && reads[0].0.contains("page=1"), "{:?}", reads[0]);
    assert_eq!(reads[0].1, None, "the first read asks for every invoice");

    // The invoice list shows the payment state beside the Xero Sent state.
    for (no, shown) in [(&paid_no, "Paid".to_string()), (&part_no, "Part paid".to_string()), (&late_no, "Overdue 5 days".to_string())] {
        let list = r.app.get(&format!("/invoices?no={no}"), Some(&r.s)).await;
        assert_eq!(list.status, 200);
        assert!(list.body.contains(&format!("data-payment>{shown}<")), "{no}: {shown} in the list");
    }
    // The detail page, with the amounts and the paid date.
    let page = r.app.get(&format!("/order_detail/invoices/{paid_id}"), Some(&r.s)).await;
    assert!(page.body.contains(&format!("Paid · paid {} on {}", money(paid_total), domain::dates::date(paid_on))), "the detail page shows the payment");
    let page = r.app.get(&format!("/order_detail/invoices/{part_id}"), Some(&r.s)).await;
    assert!(page.body.contains(&format!("Part paid · paid 10.00 · due {}", money(part_total - 1_000))));
    let page = r.app.get(&format!("/order_detail/invoices/{late_id}"), Some(&r.s)).await;
    assert!(page.body.contains(&format!("Overdue 5 days · due {}", money(late_total))));
    // The JSON answers carry the amounts.
    let sheet = r.app.get(&format!("/api/orders/{part_id}"), Some(&r.s)).await;
    assert!(sheet.body.contains(&format!("\"xeroAmountDue\":{}", part_total - 1_000)) && sheet.body.contains("\"xeroAmountPaid\":1000"), "{}", &sheet.body[..sheet.body.len().min(400)]);

    // The customer's overdue amount: the quoting picker, the customer's answer and the invoice form.
    let picker = r.app.get(&format!("/api/customers?per_page=20&name={}", name.replace(' ', "%20")), Some(&r.s)).await;
    let hit = picker.json()["data"].as_array().unwrap().iter().find(|c| c["id"] == cid).cloned().expect("the customer is offered");
    assert_eq!(hit["overdue"], late_total, "only the invoice past due counts");
    assert_eq!(r.app.get(&format!("/api/customers/{cid}"), Some(&r.s)).await.json()["data"]["overdue"], late_total);
    assert_eq!(r.app.get(&format!("/api/balance/{cid}"), Some(&r.s)).await.json()["data"]["overdue"], late_total);
    let draft: i64 = r.sql(|c| orders::table.filter(orders::org_id.eq(ORG)).filter(orders::order_type.eq(1)).filter(orders::status.eq(1)).order(orders::id.asc()).select(orders::id).first(c)).await;
    r.sql(move |c| diesel::update(orders::table.find(draft)).set(orders::customer_id.eq(Some(cid))).execute(c)).await;
    let form = r.app.get(&format!("/order_edit/invoices/{draft}"), Some(&r.s)).await;
    assert!(form.body.contains(&format!("Overdue $<span data-overdue>{}</span>", money(late_total))), "the invoice form shows the overdue amount beside the balance");

    // A second read asks only for what changed since Xero's latest UpdatedDateUTC read.
    r.clock.advance(chrono::Duration::hours(1));
    r.fake.add_payment(&late_no, 1.0);
    let paid_read_at: Option<chrono::NaiveDateTime> = r.sql(move |c| orders::table.find(paid_id).select(orders::xero_payments_at).first(c)).await;
    r.read_payments().await;
    let reads = r.invoice_reads();
    assert_eq!(reads.len(), 2);
    let since = reads[1].1.clone().expect("If-Modified-Since on the second read");
    assert!(since.ends_with('Z') && since.starts_with(&paid_on.to_string()), "{since}");
    assert_eq!(r.payment(late_id).await.1, Some(100), "the change was read");
    let again: Option<chrono::NaiveDateTime> = r.sql(move |c| orders::table.find(paid_id).select(orders::xero_payments_at).first(c)).await;
    assert_eq!(again, paid_read_at, "an invoice unchanged since is not read again");
    r.assert_as_xero_describes();
}

#[tokio::test]
async fn a_read_pages_over_more_than_100_invoices() {
    let r = rig().await;
    r.connect().await;
    // 120 invoices made in Xero itself, before the one TyreDesk sends (which lands on page 2).
    let client = xero::client::Client::new(Duration::from_secs(5));
    let ep = xero::client::Endpoint { org_id: ORG, client_id: "cid".into(), secret: "csecret".into(), identity_url: r.identity_url.clone(), api_url: r.api_url.clone(), tenant_id: r.fake.tenant_id(), bearer: None };
    let contact = client.call(&ep, reqwest::Method::PUT, "/Contacts", &[], Some(&json!({"Contacts": [{"Name": "Counter sales"}]})), None).await.unwrap();
    let contact_id = contact["Contacts"][0]["ContactID"].as_str().unwrap().to_string();
    let many: Vec<_> = (1..=120)
        .map(|n| json!({"Type": "ACCREC", "InvoiceNumber": format!("EXT-{n}"), "Status": "AUTHORISED", "Date": "2026-11-20", "Contact": {"ContactID": contact_id},
                        "LineItems": [{"Description": "x", "Quantity": 1, "UnitAmount": 10, "AccountCode": "200", "TaxType": "OUTPUT"}]}))
        .collect();
    client.call(&ep, reqwest::Method::PUT, "/Invoices", &[], Some(&json!({"Invoices": many})), None).await.unwrap();
    let (cid, _) = r.a_customer().await;
    let (id, no, total) = r.sent_invoice(cid, today()).await;
    r.fake.add_payment(&no, total as f64 / 100.0);
    r.read_payments().await;
    let pages: Vec<String> = r.invoice_reads().into_iter().map(|(q, _)| q).filter(|q| q.contains("page=")).collect();
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert!(pages[0].contains("page=1") && pages[1].contains("page=2"), "{pages:?}");
    assert_eq!(r.payment(id).await.0, Some(0), "the invoice on page 2 was read");
    r.assert_as_xero_describes();
}

#[tokio::test]
async fn the_overdue_rule_refuses_approval_with_its_reason_when_on_and_says_nothing_when_off() {
    let r = rig().await;
    let (cid, _) = r.a_customer().await;
    // A sent invoice of the customer 40 days past due with something still due.
    let (sent, _) = r.sheet(1).await;
    let due = today() - chrono::Duration::days(40);
    r.sql(move |c| {
        diesel::update(orders::table.find(sent))
            .set((orders::customer_id.eq(Some(cid)), orders::due_date.eq(Some(due)), orders::xero_sent.eq(1), orders::xero_id.eq("b1e2c3d4-0000-4000-8000-000000000001"), orders::xero_amount_due.eq(Some(5_000i64)), orders::xero_amount_paid.eq(Some(0i64))))
            .execute(c)
    })
    .await;
    let draft: i64 = r
        .sql(|c| orders::table.filter(orders::org_id.eq(ORG)).filter(orders::order_type.eq(1)).filter(orders::status.eq(1)).filter(orders::warehouse_id.is_not_null()).order(orders::id.asc()).select(orders::id).first(c))
        .await;
    r.sql(move |c| diesel::update(orders::table.find(draft)).set(orders::customer_id.eq(Some(cid))).execute(c)).await;
    let sales = r.app.session("sales@demo.test").await;
    const REASON: &str = "Customer has invoices overdue more than 30 days";

    r.sql(|c| diesel::update(organisations::table.find(ORG)).set(organisations::overdue_guard_days.eq(Some(30))).execute(c)).await;
    let refused = r.app.post_json(&format!("/api/orders/{draft}/approve"), &sales, json!({})).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.body.contains(REASON) && refused.body.contains("Contact manager"), "{}", refused.body);
    let asked = r.app.post_json(&format!("/api/orders/{draft}/approve"), &r.s, json!({})).await;
    assert_eq!(asked.status, 409, "{}", asked.body);
    assert!(asked.body.contains(REASON), "an approver confirms it: {}", asked.body);
    assert_eq!(r.sql(move |c| orders::table.find(draft).select(orders::status).first::<i32>(c)).await, 1, "still a draft");

    // Off (the default): the reason is never given (the sheet may then be approved).
    r.sql(|c| diesel::update(organisations::table.find(ORG)).set(organisations::overdue_guard_days.eq(None::<i32>)).execute(c)).await;
    let off = r.app.post_json(&format!("/api/orders/{draft}/approve"), &sales, json!({})).await;
    assert!(!off.body.contains("overdue more than"), "{}", off.body);
    // The setting is on the company form.
    assert!(r.app.get("/settings", Some(&r.s)).await.body.contains("Overdue rule (days)"));
}

#[tokio::test]
async fn approvers_and_accountants_ask_for_payments_one_read_per_company_is_queued_and_the_hourly_upkeep_queues_it() {
    let r = rig().await;
    let none = r.app.post_json("/api/xero/payments", &r.s, json!({})).await;
    assert_eq!(none.status, 409, "not connected: {}", none.body);
    r.connect().await;
    for who in ["sales@demo.test", "service@demo.test", "business@demo.test"] {
        let s = r.app.session(who).await;
        let res = r.app.post_json("/api/xero/payments", &s, json!({})).await;
        assert_eq!(res.status, 403, "{who}: {}", res.body);
    }
    let manager = r.app.session("manager@demo.test").await;
    let first = r.app.post_json("/api/xero/payments", &manager, json!({})).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.json()["queued"], true, "{}", first.body);
    let second = r.app.post_json("/api/xero/payments", &r.s, json!({})).await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.json()["queued"], false, "one read per company at a time: {}", second.body);
    let now = r.clock.now();
    assert_eq!(r.app.state.db.write(move |c| services::xero::refresh_all_payments(c, now)).await.unwrap(), 0, "already queued");
    r.drain().await;
    assert!(r.invoice_reads().is_empty(), "nothing sent yet: no call");
    assert_eq!(r.app.state.db.write(move |c| services::xero::refresh_all_payments(c, now)).await.unwrap(), 1, "the hourly upkeep queues one per connected company");
    r.assert_as_xero_describes();
}
