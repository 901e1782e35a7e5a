//! E-mail (issue 33): Settings › E-mail, the sheet's 'Email …' buttons, the `email` queue's
//! worker against a real SMTP relay (Python's aiosmtpd, `support/smtp_server.py`, one per
//! test on its own loopback port and mailbox folder), retries, refusals and a kill -9
//! mid-send.

mod crash;
mod sending;
mod settings;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use diesel::prelude::*;
use db::schema::{customers, emails, orders, products, warehouses};

use crate::support::{Session, TestApp};

pub(super) const ORG: i64 = 4;

/// A running test relay: its port and mailbox folder; killed when dropped.
pub(super) struct Relay {
    child: Child,
    pub port: u16,
    pub dir: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Relay {
    /// Starts a relay with the script's options (`--fail-451 2`, `--hold 60`, …), or `None`
    /// when no Python with aiosmtpd was named (`TYREDESK_TEST_SMTP`, set by `.ci/run`):
    /// then the test is skipped, unless `CI_REQUIRE_SERVICES=1` asks for every service.
    pub fn start(args: &[&str]) -> Option<Relay> {
        let Some(python) = std::env::var("TYREDESK_TEST_SMTP").ok().filter(|p| !p.is_empty()) else {
            if std::env::var("CI_REQUIRE_SERVICES").is_ok_and(|v| v == "1") {
                panic!("TYREDESK_TEST_SMTP is not set: the e-mail tests need a python3 with aiosmtpd (.ci/run installs it and sets it)");
            }
            println!("skipped: TYREDESK_TEST_SMTP is not set (a python3 with aiosmtpd; .ci/run sets it)");
            return None;
        };
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("mailbox");
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/http/support/smtp_server.py");
        let mut child = Command::new(&python)
            .arg(&script)
            .arg("--dir")
            .arg(&dir)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {python} {}: {e}", script.display()));
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().strip_prefix("listening on ").and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("the test relay did not start: {line:?}"));
        Some(Relay { child, port, dir, _tmp: tmp })
    }

    /// The messages stored so far, in the order received.
    pub fn messages(&self) -> Vec<Vec<u8>> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.dir).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "eml")).collect()).unwrap_or_default();
        names.sort();
        names.iter().map(|p| std::fs::read(p).unwrap()).collect()
    }

    /// What the relay did with each DATA command, one line each.
    pub fn events(&self) -> String {
        std::fs::read_to_string(self.dir.join("events.log")).unwrap_or_default()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An app whose retries wait no time, and an approver of company 4.
pub(super) async fn app() -> (TestApp, Session) {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(ORG).await;
    app.state.email.set_config(services::email::Config { backoff: vec![0], ..Default::default() });
    (app, s)
}

/// Settings › E-mail aimed at the relay (plain SMTP on loopback), with `extra` fields.
pub(super) async fn configure(app: &TestApp, s: &Session, port: u16, extra: &[(&str, &str)]) {
    let port = port.to_string();
    let mut form = vec![("host", "127.0.0.1"), ("port", port.as_str()), ("security", "none"), ("from_address", "accounts@demo-tyres.test"), ("reply_to", "office@demo-tyres.test")];
    form.extend_from_slice(extra);
    let res = app.post_form("/settings/email", s, &form).await;
    assert_eq!(res.status, 303, "{}", res.body);
}

/// Runs the e-mail worker until nothing is due.
pub(super) async fn drain(app: &TestApp) -> usize {
    services::email::worker::drain(&app.state.core).await.expect("e-mail worker")
}

/// The e-mails of company 4: (id, state, attempts, last error, message id), oldest first.
pub(super) async fn history(app: &TestApp) -> Vec<(i64, String, i32, String, String)> {
    app.state
        .db
        .run(|c| Ok(emails::table.filter(emails::org_id.eq(ORG)).order(emails::id.asc()).select((emails::id, emails::state, emails::attempts, emails::last_error, emails::message_id)).load(c)?))
        .await
        .unwrap()
}

/// An approved invoice of company 4 with lines: (id, number).
pub(super) async fn approved_invoice(app: &TestApp) -> (i64, String) {
    app.state
        .db
        .run(|c| {
            Ok(orders::table
                .filter(orders::org_id.eq(ORG))
                .filter(orders::order_type.eq(1))
                .filter(orders::status.eq(2))
                .filter(orders::total_qty.gt(0))
                .order(orders::id.asc())
                .select((orders::id, orders::no))
                .first(c)?)
        })
        .await
        .unwrap()
}

/// A draft invoice of company 4 for a customer whose e-mail is `email`, made through the
/// form: (id, number).
pub(super) async fn draft_invoice(app: &TestApp, s: &Session, email: &'static str) -> (i64, String) {
    let (customer, product, price, warehouse) = app
        .state
        .db
        .run(move |c| {
            let customer: i64 = customers::table.filter(customers::org_id.eq(ORG)).filter(customers::payment_type.ne(10)).filter(customers::credit_limit.eq(0)).select(customers::id).order(customers::id.asc()).first(c)?;
            diesel::update(customers::table.find(customer)).set(customers::email.eq(email)).execute(c)?;
            let (product, price): (i64, i64) = products::table.filter(products::org_id.eq(ORG)).filter(products::category.eq(1)).filter(products::class_a_price.gt(5_000)).select((products::id, products::class_a_price)).order(products::id.asc()).first(c)?;
            let warehouse: i64 = warehouses::table.filter(warehouses::org_id.eq(ORG)).filter(warehouses::is_third_party.eq(false)).select(warehouses::id).order(warehouses::id.asc()).first(c)?;
            Ok((customer, product, price, warehouse))
        })
        .await
        .unwrap();
    let lines = serde_json::json!([{"key": "new_0", "productId": product, "qty": "1", "price": format!("{:.2}", price as f64 / 100.0), "description": "", "taxType": 3, "inWarehouseQty": "", "inSystemQty": ""}]).to_string();
    let (c, w) = (customer.to_string(), warehouse.to_string());
    let res = app.post_form("/order_add/invoices", s, &[("date", "2026-11-20"), ("tax_type", "3"), ("tag_id", "1"), ("customer_id", &c), ("warehouse_id", &w), ("lines_json", &lines)]).await;
    assert_eq!(res.status, 303, "{}", res.body);
    let id: i64 = res.location().split('/').next_back().unwrap().split('?').next().unwrap().parse().unwrap();
    let no = app.state.db.run(move |c| Ok(orders::table.find(id).select(orders::no).first::<String>(c)?)).await.unwrap();
    (id, no)
}

pub(super) use crate::support::pdf_text;

/// Waits up to a minute for `done`.
pub(super) async fn wait_for(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let started = std::time::Instant::now();
    while !done().await {
        assert!(started.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
