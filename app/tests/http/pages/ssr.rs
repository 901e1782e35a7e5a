//! Islands rendered on the server (issue 16): pages carry the island's own first render,
//! marked for hydration, and fall back to the plain placeholder when rendering fails.

use web::ssr::{Limits, Ssr};

use crate::support::TestApp;

/// A bundle whose every render throws, as a broken island would.
const THROWING: &str = "var TyreDeskSsr = { render: function () { throw new Error('broken island'); } };";

#[tokio::test]
async fn the_new_invoice_page_carries_the_line_editor_rendered_for_hydration() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let r = app.get("/order_add/invoices", Some(&s)).await;
    assert_eq!(r.status, 200);
    let island = &r.body[r.body.find(r#"<app-island name="line-editor""#).expect("line editor")..];
    let start = &island[..island.find('>').unwrap()];
    assert!(start.ends_with(" ssr"), "{start}");
    assert!(island.contains(r#"aria-label="Qty line 1""#), "the first line's inputs are in the page");
    assert!(!r.body.contains("Loading the line editor"));
}

#[tokio::test]
async fn quoting_sends_its_islands_rendered_and_loads_their_code_only_when_idle() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let r = app.get("/quotings", Some(&s)).await;
    assert_eq!(r.status, 200);
    for (name, wake) in [("quoting-cart", "cart-add customer-changed"), ("price-dialog", "open-price-dialog")] {
        let at = r.body.find(&format!(r#"<app-island name="{name}""#)).unwrap_or_else(|| panic!("{name}"));
        let start = &r.body[at..at + r.body[at..].find('>').unwrap()];
        assert!(start.contains(r#"load="idle""#) && start.contains(&format!(r#"wake="{wake}""#)) && start.ends_with(" ssr"), "{start}");
    }
    let badge = &r.body[r.body.find(r#"data-testid="cart-badge""#).expect("the cart badge is rendered")..];
    assert!(badge[badge.find('>').unwrap()..].starts_with(">0<"), "the badge shows 0: {}", &badge[..80]);
    // Their code is not preloaded: the islands' runtime is not part of the first load.
    let preloads: Vec<&str> = r.body.lines().filter(|l| l.contains("modulepreload")).collect();
    assert!(!preloads.iter().any(|l| l.contains("quoting-cart") || l.contains("price-dialog")), "{preloads:?}");
}

#[tokio::test]
async fn an_island_whose_render_throws_is_sent_with_its_fallback_and_the_page_still_works() {
    let (app, s) = TestApp::new().with_ssr(Ssr::with_bundle(Some(THROWING.into()), Limits::default())).with_user("approver@demo.test").await;
    let r = app.get("/order_add/invoices", Some(&s)).await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Loading the line editor"), "the fallback is sent");
    assert!(!r.body.contains(" ssr>"), "nothing is marked for hydration");
    assert!(r.body.contains(r#"<button class="btn link" type="button">Change Password</button>"#), "the header's fallback too");
    // Other pages too answer with their fallbacks.
    let q = app.get("/quotings", Some(&s)).await;
    assert_eq!(q.status, 200);
    assert!(q.body.contains(r#"<button class="btn" type="button" disabled>Cart</button>"#), "the cart's fallback");
}
