//! Settings › Printers: role 4 only, every change audited, the URL checked with a message a
//! person can act on, the 'Test' button, and another company's printer not found.

use axum::http::StatusCode;

use super::{add_printer, closed_port_url, cups};
use crate::support::TestApp;

/// The message under a printer form's field (`key`: `new` or `p<id>`).
fn field_error(html: &str, key: &str, name: &str) -> String {
    let marker = format!("id=\"{key}-e-{name}\">");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no error slot for {key}-{name}")) + marker.len();
    html[start..].split('<').next().unwrap_or_default().to_string()
}

async fn audit(app: &TestApp, org: i64) -> Vec<(String, String, String)> {
    app.state
        .db
        .run(move |c| db::reference_data::recent_audit(c, org, 100))
        .await
        .unwrap()
        .into_iter()
        .filter(|a| a.entity == "printer")
        .map(|a| (a.entity, a.action, a.detail))
        .collect()
}

#[tokio::test]
async fn an_approver_adds_edits_and_removes_printers_each_change_audited() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let page = app.get("/settings", Some(&s)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("id=\"printers\"") && page.body.contains("No printers yet."), "the section is on the settings page");

    for (url, message) in [
        ("", "Enter the printer's IPP address"),
        ("printer.local/front", "Start the address with ipp://, ipps://, http:// or https://."),
        ("ftp://10.0.0.5/front", "'ftp://' is not a printer address"),
        ("ipp:///printers/front", "host name or IP address"),
        ("ipp://joe:secret@10.0.0.5/printers/front", "Leave the user name and password out of the address."),
    ] {
        let r = app.post_form("/settings/printers", &s, &[("name", "Front counter"), ("url", url), ("warehouse_id", ""), ("active", "1")]).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{url}: {}", r.body);
        let shown = field_error(&r.body, "new", "url");
        assert!(shown.contains(message) || shown.contains(&message.replace('\'', "&#39;")), "{url}: {shown}");
        assert!(r.body.contains("id=\"new-name\" name=\"name\" value=\"Front counter\""), "what was typed stays");
    }
    let long = format!("ipp://10.0.0.5/printers/{}", "x".repeat(300));
    let r = app.post_form("/settings/printers", &s, &[("name", "Front counter"), ("url", &long), ("active", "1")]).await;
    assert!(field_error(&r.body, "new", "url").contains("too long"), "{}", r.body);
    let r = app.post_form("/settings/printers", &s, &[("name", ""), ("url", "ipp://10.0.0.5/printers/a"), ("active", "1")]).await;
    assert!(field_error(&r.body, "new", "name").contains("Enter a name"));
    assert!(audit(&app, 4).await.is_empty(), "a refused form saves and audits nothing");

    let warehouse: i64 = app
        .state
        .db
        .run(|c| {
            use db::schema::warehouses;
            use diesel::prelude::*;
            Ok(warehouses::table.filter(warehouses::org_id.eq(4)).select(warehouses::id).order(warehouses::id).first(c)?)
        })
        .await
        .unwrap();
    let id = add_printer(&app, &s, 4, "Front counter", "ipp://10.0.0.5:631/printers/front", Some(warehouse)).await;
    let page = app.get("/settings?notice=1", Some(&s)).await;
    assert!(page.body.contains("The printer Front counter is added."), "the notice says so");
    assert!(page.body.contains(&format!("id=\"printer-{id}\"")) && page.body.contains("<code>ipp://10.0.0.5:631/printers/front</code>"));
    let dup = app.post_form("/settings/printers", &s, &[("name", "Front counter"), ("url", "ipp://10.0.0.6/printers/x"), ("active", "1")]).await;
    assert_eq!(field_error(&dup.body, "new", "name"), "Another printer already has this name.");

    let bad_edit = app.post_form(&format!("/settings/printers/{id}"), &s, &[("name", "Front counter"), ("url", "ftp://10.0.0.5/front"), ("active", "1")]).await;
    assert_eq!(bad_edit.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(field_error(&bad_edit.body, &format!("p{id}"), "url").contains("printer address"), "the edit form shows its own message");
    let edit = app.post_form(&format!("/settings/printers/{id}"), &s, &[("name", "Front desk"), ("url", "ipps://10.0.0.5/printers/front"), ("warehouse_id", ""), ("active", "1")]).await;
    assert_eq!(edit.status, StatusCode::SEE_OTHER, "{}", edit.body);
    let page = app.get("/settings", Some(&s)).await;
    assert!(page.body.contains("<code>ipps://10.0.0.5/printers/front</code>") && page.body.contains("<td>Any</td>"));

    let removed = app.post_form(&format!("/settings/printers/{id}/delete"), &s, &[]).await;
    assert_eq!(removed.status, StatusCode::SEE_OTHER);
    assert!(app.get("/settings", Some(&s)).await.body.contains("No printers yet."));

    let rows = audit(&app, 4).await;
    assert!(rows.iter().any(|(_, a, d)| a == "create" && d.contains("name=Front counter") && d.contains("url=ipp://10.0.0.5:631/printers/front")), "{rows:?}");
    assert!(rows.iter().any(|(_, a, d)| a == "update" && d.contains("→") && d.contains("name=Front desk") && d.contains("warehouse=any")), "{rows:?}");
    assert!(rows.iter().any(|(_, a, d)| a == "delete" && d.contains("name=Front desk")), "{rows:?}");
}

#[tokio::test]
async fn only_an_approver_sees_or_changes_printers() {
    let (app, owner) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let id = add_printer(&app, &owner, 4, "Back office", "ipp://10.0.0.9/printers/back", None).await;
    for email in ["business@demo.test", "sales@demo.test", "service@demo.test"] {
        let s = app.session_in(email, 4).await;
        let r = app.post_form("/settings/printers", &s, &[("name", "Sneaky"), ("url", "ipp://10.0.0.1/printers/x"), ("active", "1")]).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{email}");
        assert_eq!(app.post_form(&format!("/settings/printers/{id}"), &s, &[("name", "X"), ("url", "ipp://10.0.0.1/p")]).await.status, StatusCode::FORBIDDEN);
        assert_eq!(app.post_form(&format!("/settings/printers/{id}/delete"), &s, &[]).await.status, StatusCode::FORBIDDEN);
        assert_eq!(app.post_form(&format!("/settings/printers/{id}/test"), &s, &[]).await.status, StatusCode::FORBIDDEN);
    }
    // Another company's approver does not find it.
    let nine = app.session_in("approver@demo.test", 9).await;
    assert_eq!(app.post_form(&format!("/settings/printers/{id}"), &nine, &[("name", "Hijack"), ("url", "ipp://10.0.0.1/p"), ("active", "1")]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form(&format!("/settings/printers/{id}/delete"), &nine, &[]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post_form(&format!("/settings/printers/{id}/test"), &nine, &[]).await.status, StatusCode::NOT_FOUND);
    assert!(!app.get("/settings", Some(&nine)).await.body.contains("Back office"));
    assert!(app.get("/settings", Some(&owner)).await.body.contains("Back office"), "unchanged");
}

#[tokio::test]
async fn test_asks_the_printer_and_says_what_it_answered_or_why_not() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").in_org(4).await;
    let dead = add_printer(&app, &s, 4, "Unplugged", &closed_port_url(), None).await;
    let r = app.post_form(&format!("/settings/printers/{dead}/test"), &s, &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let page = app.follow(&r, &s).await;
    assert!(page.body.contains("The printer could not be asked: Unplugged: the printer could not be reached"), "{}", page.body);

    let Some((url, _)) = cups("test_asks_the_printer") else { return };
    let live = add_printer(&app, &s, 4, "CUPS PDF", &url, None).await;
    let r = app.post_form(&format!("/settings/printers/{live}/test"), &s, &[]).await;
    let page = app.follow(&r, &s).await;
    // Idle, or processing another test's job.
    assert!(page.body.contains("The printer answered:") && (page.body.contains("— idle") || page.body.contains("— processing")), "{}", page.body);
}
