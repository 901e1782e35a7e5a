//! Settings › E-mail: role 4 only, audited, checked field by field, the password sealed and
//! never shown back; the test e-mail goes through the queue and shows its outcome.

use diesel::prelude::*;
use db::schema::email_settings;

use super::{ORG, Relay, app, configure, drain};

#[tokio::test]
async fn email_settings_are_an_approvers_audited_and_never_show_the_password() {
    let (app, s) = app().await;
    let sales = app.session_in("sales@demo.test", ORG).await;
    let form = [("host", "smtp.demo-tyres.test"), ("port", "587"), ("security", "starttls"), ("username", "mailer"), ("password", "Sup3r-Secret-Pw"), ("from_address", "accounts@demo-tyres.test")];
    assert_eq!(app.post_form("/settings/email", &sales, &form).await.status, 403, "role 4 only");
    assert_eq!(app.post_form("/settings/email/test", &sales, &[("to", "x@demo.test")]).await.status, 403);

    let page = app.get("/settings", Some(&s)).await;
    assert!(page.body.contains(r#"id="email""#) && page.body.contains("Not set up yet"), "the section is on the settings page");
    assert!(page.body.contains("Tax invoice {number} from {company}"), "the default templates are shown");

    let saved = app.post_form("/settings/email", &s, &form).await;
    assert_eq!(saved.status, 303, "{}", saved.body);
    let page = app.follow(&saved, &s).await;
    assert!(page.body.contains("The e-mail settings are saved."));
    assert!(page.body.contains("E-mail is set up; a password is stored."));
    assert!(!page.body.contains("Sup3r-Secret-Pw"), "the password is never shown back");
    assert!(page.body.contains("set up e-mail") && page.body.contains("server smtp.demo-tyres.test:587 (starttls)"), "audited: {}", page.body);
    let sealed = app.state.db.run(|c| Ok(email_settings::table.find(ORG).select(email_settings::password_sealed).first::<String>(c)?)).await.unwrap();
    assert!(!sealed.contains("Sup3r-Secret-Pw"), "sealed at rest");
    assert_eq!(app.state.xero.key.open(ORG, &sealed).as_deref(), Some("Sup3r-Secret-Pw"));

    // A blank password keeps the stored one; an own subject is kept.
    let mut again: Vec<(&str, &str)> = form.iter().copied().filter(|(k, _)| *k != "password").collect();
    again.push(("subject_invoice", "Invoice {number}"));
    assert_eq!(app.post_form("/settings/email", &s, &again).await.status, 303);
    let after = app.state.db.run(|c| Ok(email_settings::table.find(ORG).select(email_settings::password_sealed).first::<String>(c)?)).await.unwrap();
    assert_eq!(after, sealed, "the stored password is kept");
    let page = app.get("/settings", Some(&s)).await;
    assert!(page.body.contains("update e-mail") && page.body.contains("password kept") && page.body.contains("own templates: invoice"));
    assert!(page.body.contains(r#"value="Invoice {number}""#));

    // Every field says what is wrong, and nothing is changed.
    let bad = [("host", "smtp demo"), ("port", "70000"), ("security", "ssl"), ("from_address", "accounts"), ("reply_to", "x@"), ("subject_invoice", &"x".repeat(201))];
    let refused = app.post_form("/settings/email", &s, &bad.iter().map(|(k, v)| (*k, v.as_ref())).collect::<Vec<(&str, &str)>>()).await;
    assert_eq!(refused.status, 422);
    for m in ["Enter a port from 1 to 65535", "Enter a host name", "Choose None, STARTTLS or TLS.", "Enter an e-mail address such as", "The subject is one line of at most 200 characters."] {
        assert!(refused.body.contains(m), "{m}");
    }
    assert!(refused.body.contains(r#"value="smtp demo""#), "what was typed comes back");
    let port = app.state.db.run(|c| Ok(email_settings::table.find(ORG).select(email_settings::port).first::<i32>(c)?)).await.unwrap();
    assert_eq!(port, 587, "a refused form changes nothing");
}

#[tokio::test]
async fn the_test_email_goes_through_the_queue_and_arrives() {
    let Some(relay) = Relay::start(&[]) else { return };
    let (app, s) = app().await;
    let before = app.post_form("/settings/email/test", &s, &[("to", "")]).await;
    assert_eq!(before.status, 409, "not set up yet");
    assert!(before.body.contains("E-mail is not set up yet"));
    configure(&app, &s, relay.port, &[]).await;
    let bad = app.post_form("/settings/email/test", &s, &[("to", "nobody")]).await;
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("&#39;nobody&#39; is not an e-mail address") || bad.body.contains("'nobody' is not an e-mail address"), "{}", bad.body);

    let queued = app.post_form("/settings/email/test", &s, &[("to", "")]).await;
    assert_eq!(queued.status, 303, "{}", queued.body);
    let page = app.follow(&queued, &s).await;
    assert!(page.body.contains("Test e-mail queued for approver@demo.test"), "to the signed-in user by default");
    assert!(page.body.contains(">Queued</span>"));
    assert_eq!(drain(&app).await, 1);
    let mails = relay.messages();
    assert_eq!(mails.len(), 1);
    let m = mail_parser::MessageParser::default().parse(&mails[0]).unwrap();
    assert_eq!(m.to().and_then(|a| a.first()).and_then(|a| a.address()), Some("approver@demo.test"));
    assert!(m.subject().unwrap_or_default().starts_with("Test e-mail from "), "{:?}", m.subject());
    assert_eq!(m.reply_to().and_then(|a| a.first()).and_then(|a| a.address()), Some("office@demo-tyres.test"));
    let page = app.get("/settings", Some(&s)).await;
    assert!(page.body.contains(">Sent</span>"), "the outcome shows in the section");
}
