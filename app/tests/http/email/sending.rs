//! The sheet's 'Email …' buttons against the relay: the PDF attached once, a temporary
//! failure retried, a refusal shown on the sheet, the automatic e-mail on approval, and
//! another company's sheet refused.

use axum::http::StatusCode;
use diesel::prelude::*;
use db::schema::{customers, emails, orders};
use mail_parser::{MessageParser, MimeHeaders};

use super::{ORG, Relay, app, approved_invoice, configure, draft_invoice, drain, history, pdf_text};

/// The one attachment of a message: (file name, content type, bytes).
fn attachment(m: &mail_parser::Message<'_>) -> (String, String, Vec<u8>) {
    assert_eq!(m.attachment_count(), 1, "one attachment");
    let a = m.attachment(0).unwrap();
    let ct = a.content_type().map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default())).unwrap_or_default();
    (a.attachment_name().unwrap_or_default().to_string(), ct, a.contents().to_vec())
}

#[tokio::test]
async fn each_email_of_a_sheet_is_addressed_to_its_customer_unless_typed_otherwise() {
    let (app, _) = app().await;
    let (id, _) = approved_invoice(&app).await;
    let sales = app.session_in("sales@demo.test", ORG).await;
    app.state
        .db
        .run(move |c| {
            let customer = orders::table.find(id).select(orders::customer_id).first::<Option<i64>>(c)?.unwrap();
            diesel::update(customers::table.find(customer)).set(customers::email.eq("accounts@buyer.test")).execute(c)?;
            Ok(())
        })
        .await
        .unwrap();
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&sales)).await;
    for doc in ["invoice", "delivery_docket"] {
        assert!(page.body.contains(&format!("id=\"em-to-{doc}\" name=\"to\" value=\"accounts@buyer.test\"")), "{doc} goes to the customer's address: {}", page.body);
    }
}

#[tokio::test]
async fn an_invoice_and_its_delivery_docket_arrive_once_with_their_pdfs() {
    let Some(relay) = Relay::start(&[]) else { return };
    let (app, s) = app().await;
    configure(&app, &s, relay.port, &[]).await;
    let (id, no) = approved_invoice(&app).await;
    let sales = app.session_in("sales@demo.test", ORG).await;
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&sales)).await;
    assert!(page.body.contains(">Email invoice</button>") && page.body.contains(">Email delivery docket</button>"), "anyone who may print may e-mail");

    let bad = app.post_form(&format!("/order_email/{id}/invoice"), &sales, &[("to", "buyer@demo.test, not-an-address")]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("not-an-address"), "{}", bad.body);
    let res = app.post_form(&format!("/order_email/{id}/invoice"), &sales, &[("to", "buyer@demo.test, boss@demo.test")]).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let page = app.follow(&res, &sales).await;
    assert!(page.body.contains("Queued for e-mail to buyer@demo.test, boss@demo.test."), "the page says so");
    assert!(page.body.contains(r#"id="email-history""#) && page.body.contains(">Queued</span>"));
    // The dialog posts with htmx: the answer sends the browser back to the sheet.
    let body = serde_urlencoded::to_string([("_csrf", sales.csrf.as_str()), ("to", "yard@demo.test")]).unwrap();
    let docket = app
        .request(axum::http::Method::POST, &format!("/order_email/{id}/delivery_docket"), Some(body.into()), Some("application/x-www-form-urlencoded"), &[("cookie", &sales.cookie), ("hx-request", "true")])
        .await;
    assert_eq!(docket.status, StatusCode::NO_CONTENT, "{}", docket.body);
    let back = docket.headers.get("hx-redirect").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    assert!(back.starts_with(&format!("/order_detail/invoices/{id}?emailed=")), "{back}");
    assert!(app.get(&back, Some(&sales)).await.body.contains("Queued for e-mail to yard@demo.test."));

    assert_eq!(drain(&app).await, 2);
    assert_eq!(drain(&app).await, 0, "nothing is sent twice");
    let mails = relay.messages();
    assert_eq!(mails.len(), 2, "{}", relay.events());
    let parser = MessageParser::default();
    let invoice = parser.parse(&mails[0]).unwrap();
    let to: Vec<&str> = invoice.to().unwrap().iter().filter_map(|a| a.address()).collect();
    assert_eq!(to, ["buyer@demo.test", "boss@demo.test"]);
    let company = invoice.from().unwrap().first().unwrap().name().unwrap_or_default().to_string();
    assert_eq!(invoice.subject(), Some(format!("Tax invoice {no} from {company}").as_str()));
    assert!(invoice.body_text(0).unwrap_or_default().contains(&format!("Please find attached tax invoice {no}.")));
    let (name, ct, pdf) = attachment(&invoice);
    assert_eq!((name.as_str(), ct.as_str()), (format!("{no}.pdf").as_str(), "application/pdf"));
    let text = pdf_text(&pdf);
    assert!(text.contains("TAX INVOICE") && text.contains(&no), "{text}");
    let rows = history(&app).await;
    assert_eq!(invoice.message_id().map(|m| format!("<{m}>")), Some(rows[0].4.clone()), "sent with the row's Message-ID");
    assert!(rows.iter().all(|r| r.1 == "sent" && r.2 == 1), "{rows:?}");

    let docket = parser.parse(&mails[1]).unwrap();
    assert_eq!(docket.to().unwrap().first().unwrap().address(), Some("yard@demo.test"));
    assert_eq!(docket.subject(), Some(format!("Delivery docket {no} from {company}").as_str()));
    let (name, ct, pdf) = attachment(&docket);
    assert_eq!(ct, "application/pdf");
    assert!(name.starts_with(&no), "{name}");
    let text = pdf_text(&pdf);
    assert!(text.contains("Delivery Doc") && text.contains(&no), "{text}");

    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&sales)).await;
    assert_eq!(page.body.matches(">Sent</span>").count(), 2, "the sheet's history shows both");
}

#[tokio::test]
async fn a_temporary_refusal_is_retried_and_the_email_arrives_exactly_once() {
    let Some(relay) = Relay::start(&["--fail-451", "2"]) else { return };
    let (app, s) = app().await;
    configure(&app, &s, relay.port, &[]).await;
    let (id, _) = approved_invoice(&app).await;
    assert_eq!(app.post_form(&format!("/order_email/{id}/invoice"), &s, &[("to", "buyer@demo.test")]).await.status, StatusCode::SEE_OTHER);

    // With the real schedule the first retry waits a minute.
    app.state.email.set_config(services::email::Config::default());
    assert_eq!(drain(&app).await, 1);
    let rows = history(&app).await;
    assert_eq!((rows[0].1.as_str(), rows[0].2), ("queued", 1), "{rows:?}");
    assert!(rows[0].3.contains("451"), "the last error is kept: {}", rows[0].3);
    assert_eq!(drain(&app).await, 0, "not before its back-off");
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(page.body.contains(">Queued</span>") && page.body.contains("451"), "waiting for the retry, with why");

    // A shortened schedule (tests, TYREDESK_EMAIL_BACKOFF_SECS) retries at once.
    app.state.email.set_config(services::email::Config { backoff: vec![0], ..Default::default() });
    let due = app.state.db.write(move |c| Ok(diesel::update(db::schema::jobs::table.filter(db::schema::jobs::queue.eq("email"))).set(db::schema::jobs::not_before.eq(db::now())).execute(c)?)).await.unwrap();
    assert_eq!(due, 1);
    assert_eq!(drain(&app).await, 2, "the second attempt is refused again, the third is taken");
    assert_eq!(relay.messages().len(), 1, "exactly once: {}", relay.events());
    assert_eq!(relay.events().matches(": 451").count(), 2);
    let rows = history(&app).await;
    assert_eq!((rows[0].1.as_str(), rows[0].2, rows[0].3.as_str()), ("sent", 3, ""), "{rows:?}");
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(page.body.contains(">Sent</span> after 3 attempts"), "the history shows the attempts");
}

#[tokio::test]
async fn a_permanent_refusal_fails_at_once_and_shows_on_the_sheet() {
    let Some(relay) = Relay::start(&["--fail-554", "1"]) else { return };
    let (app, s) = app().await;
    configure(&app, &s, relay.port, &[]).await;
    let (id, _) = approved_invoice(&app).await;
    assert_eq!(app.post_form(&format!("/order_email/{id}/invoice"), &s, &[("to", "buyer@demo.test")]).await.status, StatusCode::SEE_OTHER);
    assert_eq!(drain(&app).await, 1);
    assert_eq!(drain(&app).await, 0, "no retry");
    assert!(relay.messages().is_empty());
    assert_eq!(relay.events().lines().count(), 1, "one DATA only: {}", relay.events());
    let rows = history(&app).await;
    assert_eq!((rows[0].1.as_str(), rows[0].2), ("failed", 1));
    assert!(rows[0].3.contains("refused") && rows[0].3.contains("554"), "{}", rows[0].3);
    let page = app.get(&format!("/order_detail/invoices/{id}"), Some(&s)).await;
    assert!(page.body.contains(">Failed</span>") && page.body.contains("554"), "visible on the sheet");

}

/// The purchase order, a quotation and a customer's statement go out with their own PDFs.
#[tokio::test]
async fn a_purchase_order_a_quotation_and_a_statement_arrive_with_their_pdfs() {
    let Some(relay) = Relay::start(&[]) else { return };
    let (app, s) = app().await;
    configure(&app, &s, relay.port, &[]).await;

    // The PO: only staff who see purchase prices may send it.
    let (po, po_no): (i64, String) = app.state.db.run(|c| Ok(orders::table.filter(orders::org_id.eq(ORG)).filter(orders::order_type.eq(3)).filter(orders::status.ne(4)).select((orders::id, orders::no)).first(c)?)).await.unwrap();
    let page = app.get(&format!("/order_detail/purchase_orders/{po}"), Some(&s)).await;
    assert!(page.body.contains(">Email PO to supplier</button>"), "{}", page.status);
    // The recipient defaults to the supplier's e-mail, kept on the supplier (Settings of the
    // supplier form: optional, checked).
    let supplier_email: String = app
        .state
        .db
        .run(move |c| Ok(db::schema::suppliers::table.inner_join(orders::table.on(orders::supplier_id.eq(db::schema::suppliers::id.nullable()))).filter(orders::id.eq(po)).select(db::schema::suppliers::email).first(c)?))
        .await
        .unwrap();
    assert!(supplier_email.contains('@') && page.body.contains(&format!("value=\"{supplier_email}\"")), "the supplier's e-mail is the default recipient");
    let sales = app.session_in("sales@demo.test", ORG).await;
    assert!(!app.get(&format!("/order_detail/purchase_orders/{po}"), Some(&sales)).await.body.contains("Email PO to supplier"), "only who sees purchase prices");
    assert_eq!(app.post_form(&format!("/order_email/{po}/purchase_order"), &sales, &[("to", "supplier@demo.test")]).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.post_form(&format!("/order_email/{po}/purchase_order"), &s, &[("to", "supplier@demo.test")]).await.status, StatusCode::SEE_OTHER);

    // A quotation saved from the cart, e-mailed from the customer's quotations.
    let (customer, product): (i64, i64) = app
        .state
        .db
        .run(|c| {
            let customer = db::schema::customers::table.filter(db::schema::customers::org_id.eq(ORG)).order(db::schema::customers::id.asc()).select(db::schema::customers::id).first(c)?;
            let product = db::schema::products::table.filter(db::schema::products::org_id.eq(ORG)).filter(db::schema::products::class_a_price.gt(0)).order(db::schema::products::id.asc()).select(db::schema::products::id).first(c)?;
            Ok((customer, product))
        })
        .await
        .unwrap();
    let saved = app.post_form("/quotations", &s, &[("items", &format!("{product}:2")), ("customer", &customer.to_string())]).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let list = app.get(&format!("/quotations?customer={customer}"), Some(&s)).await;
    let at = list.body.find("action=\"/quotations/").expect("an Email quotation form") + "action=\"/quotations/".len();
    let quote_id: i64 = list.body[at..].split('/').next().unwrap().parse().unwrap();
    assert!(list.body.contains(">Email quotation</button>") && list.body.contains(">Email statement</button>"));
    assert_eq!(app.post_form(&format!("/quotations/{quote_id}/email"), &s, &[("to", "buyer@customer.test")]).await.status, StatusCode::SEE_OTHER);
    // Quotations and statements are not sheets: the sheet route does not take them.
    assert_eq!(app.post_form(&format!("/order_email/{quote_id}/quotation"), &s, &[("to", "buyer@customer.test")]).await.status, StatusCode::NOT_FOUND);

    // The customer's statement of October 2026; a bad month queues nothing.
    let bad = app.post_form(&format!("/customers/{customer}/statement/email"), &s, &[("to", "buyer@customer.test"), ("month", "2026-13")]).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.body);
    assert_eq!(app.post_form(&format!("/customers/{customer}/statement/email"), &s, &[("to", "buyer@customer.test"), ("month", "2026-10")]).await.status, StatusCode::SEE_OTHER);
    // Another company's customer and quotation are not found.
    let other = app.session_in("multi@demo.test", 9).await;
    assert_eq!(app.post_form(&format!("/quotations/{quote_id}/email"), &other, &[("to", "x@y.test")]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form(&format!("/customers/{customer}/statement/email"), &other, &[("to", "x@y.test"), ("month", "2026-10")]).await.status, StatusCode::NOT_FOUND);

    assert_eq!(drain(&app).await, 3);
    let rows = history(&app).await;
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.1 == "sent"), "{rows:?}");
    let messages = relay.messages();
    assert_eq!(messages.len(), 3, "each once");
    let texts: Vec<String> = messages
        .iter()
        .map(|raw| {
            let m = MessageParser::default().parse(raw).unwrap();
            let (name, ct, pdf) = attachment(&m);
            assert!(name.ends_with(".pdf") && ct == "application/pdf", "{name} {ct}");
            pdf_text(&pdf)
        })
        .collect();
    let po_text = texts.iter().find(|t| t.contains("PURCHASE ORDER")).expect("the PO's PDF");
    assert!(po_text.contains(&po_no));
    assert!(texts.iter().any(|t| t.contains("QUOTATION")), "the quotation's PDF");
    let statement = texts.iter().find(|t| t.contains("STATEMENT")).expect("the statement's PDF");
    assert!(statement.contains("October 2026") || statement.contains("Oct 2026"), "{statement}");
}

#[tokio::test]
async fn an_approved_invoice_is_emailed_by_itself_when_the_company_asks() {
    let Some(relay) = Relay::start(&[]) else { return };
    let (app, s) = app().await;
    configure(&app, &s, relay.port, &[("invoice_on_approval", "1")]).await;
    let (id, no) = draft_invoice(&app, &s, "buyer@demo.test").await;
    let ok = app.post_form(&format!("/order_action/{id}/approve"), &s, &[("confirmed", "1")]).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    assert_eq!(drain(&app).await, 1);
    let mails = relay.messages();
    assert_eq!(mails.len(), 1);
    let m = MessageParser::default().parse(&mails[0]).unwrap();
    assert_eq!(m.to().unwrap().first().unwrap().address(), Some("buyer@demo.test"));
    assert!(m.subject().unwrap_or_default().starts_with(&format!("Tax invoice {no} ")));
    assert!(pdf_text(&attachment(&m).2).contains(&no));

    // A customer without an address: the approval goes through, the history says why.
    let (id2, _) = draft_invoice(&app, &s, "").await;
    let ok = app.post_form(&format!("/order_action/{id2}/approve"), &s, &[("confirmed", "1")]).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    let status = app.state.db.run(move |c| Ok(orders::table.find(id2).select(orders::status).first::<i32>(c)?)).await.unwrap();
    assert_eq!(status, 2, "approved");
    assert_eq!(drain(&app).await, 0);
    let page = app.get(&format!("/order_detail/invoices/{id2}"), Some(&s)).await;
    assert!(page.body.contains(">Failed</span>") && page.body.contains("has no e-mail address"), "{}", page.body);
    assert_eq!(relay.messages().len(), 1);
}

#[tokio::test]
async fn another_companys_sheet_cannot_be_emailed() {
    let (app, s) = app().await;
    let other: i64 = app.state.db.run(|c| Ok(orders::table.filter(orders::org_id.ne(ORG)).filter(orders::order_type.eq(1)).filter(orders::status.eq(2)).select(orders::id).first(c)?)).await.unwrap();
    // Set up (no relay is needed: nothing may be queued).
    let form = [("host", "127.0.0.1"), ("port", "2525"), ("security", "none"), ("from_address", "accounts@demo-tyres.test")];
    assert_eq!(app.post_form("/settings/email", &s, &form).await.status, 303);
    let res = app.post_form(&format!("/order_email/{other}/invoice"), &s, &[("to", "buyer@demo.test")]).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form("/order_email/999999999/invoice", &s, &[("to", "buyer@demo.test")]).await.status, StatusCode::NOT_FOUND);
    let (id, _) = approved_invoice(&app).await;
    assert_eq!(app.post_form(&format!("/order_email/{id}/no_such_document"), &s, &[("to", "buyer@demo.test")]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form(&format!("/order_email/{id}/credit_note"), &s, &[("to", "buyer@demo.test")]).await.status, StatusCode::NOT_FOUND, "an invoice is not a credit note");
    let n: i64 = app.state.db.run(|c| Ok(emails::table.count().get_result(c)?)).await.unwrap();
    assert_eq!(n, 0, "nothing queued");
}
