//! Exactly once across a kill -9: the server dies while the relay holds its answer to DATA;
//! the relay had not accepted the message (aiosmtpd drops a message whose client went away
//! before the reply), and a new server on the same database sends it once, with the same
//! Message-ID.

use axum::http::StatusCode;
use diesel::prelude::*;
use db::schema::emails;

use super::{Relay, app, approved_invoice, configure, history, wait_for};
use crate::support::ServerProcess;

fn server(app: &crate::support::TestApp) -> ServerProcess {
    let url = match &app.state.config.database {
        db::DatabaseUrl::Sqlite(p) => p.to_string_lossy().into_owned(),
        db::DatabaseUrl::Postgres(u) => u.clone(),
    };
    ServerProcess::start(&url, &app.state.config.data_dir, &[("TYREDESK_EMAIL_STALE_SECS", "2"), ("TYREDESK_EMAIL_BACKOFF_SECS", "0")])
}

#[tokio::test]
async fn a_server_killed_while_the_relay_holds_data_sends_exactly_once_after_restart() {
    let Some(relay) = Relay::start(&["--hold", "120"]) else { return };
    let (app, s) = app().await;
    configure(&app, &s, relay.port, &[]).await;
    let (id, no) = approved_invoice(&app).await;
    // Queued by this (in-process) app, which runs no worker: the spawned server sends it.
    assert_eq!(app.post_form(&format!("/order_email/{id}/invoice"), &s, &[("to", "buyer@demo.test")]).await.status, StatusCode::SEE_OTHER);

    let first = server(&app);
    wait_for("the relay to hold the first DATA", async || relay.events().contains("DATA 1: holding")).await;
    let rows = history(&app).await;
    assert_eq!(rows[0].1, "sending", "recorded before the relay was spoken to: {rows:?}");
    let message_id = rows[0].4.clone();
    assert!(message_id.starts_with("<tyredesk.4."), "{message_id}");
    drop(first); // SIGKILL, while the relay keeps its answer back
    wait_for("the relay to see the client gone", async || relay.events().contains("client gone")).await;
    assert!(relay.messages().is_empty(), "a message whose client died before the relay's 250 is not accepted");
    assert_eq!(history(&app).await[0].1, "sending");

    let _second = server(&app);
    wait_for("the restarted server to send it", async || {
        let db = app.state.db.clone();
        db.run(|c| Ok(emails::table.select(emails::state).first::<String>(c)?)).await.unwrap() == "sent"
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await; // a second send would land meanwhile
    let mails = relay.messages();
    assert_eq!(mails.len(), 1, "exactly once: {}", relay.events());
    let m = mail_parser::MessageParser::default().parse(&mails[0]).unwrap();
    assert_eq!(m.message_id().map(|m| format!("<{m}>")), Some(message_id), "the resend reuses the Message-ID");
    assert!(m.subject().unwrap_or_default().contains(&no));
    let rows = history(&app).await;
    assert_eq!((rows[0].1.as_str(), rows[0].2), ("sent", 2), "two attempts, one message: {rows:?}");
}
