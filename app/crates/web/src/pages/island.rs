//! Islands as pages send them (DESIGN §6): `<app-island name src props>` holding the
//! island's own first render from the server (`ssr` attribute, hydrated by the browser), or
//! the page's plain fallback when that render could not be had (app/crates/web/src/ssr logs why).
//!
//! In a template:
//!
//! ```text
//! {{ editor.start()|safe }}{% if !editor.rendered() %}…fallback…{% endif %}</app-island>
//! ```

use serde::Serialize;

use crate::state::AppState;

/// One island of a page.
pub struct Island {
    name: &'static str,
    src: String,
    props: String,
    /// The loader's `load` attribute: `interaction` or `idle` (None: at once).
    load: Option<&'static str>,
    /// Document events that also load a lazy island (the loader's `wake`).
    wake: &'static str,
    html: Option<String>,
}

impl Island {
    /// Island `name` with `props`, rendered on the server.
    pub async fn new<P: Serialize + ?Sized>(state: &AppState, name: &'static str, props: &P) -> Self {
        let props = serde_json::to_string(props).unwrap_or_else(|_| "{}".to_owned());
        let html = state.ssr.render(name, &props).await;
        Self { name, src: state.assets.island(name).unwrap_or_default().to_owned(), props, load: None, wake: "", html }
    }

    /// Loads its code on the first interaction (`load="interaction"`): the server's HTML
    /// shows until then, and the page does not preload the island's code.
    pub fn lazy(mut self) -> Self {
        self.load = Some("interaction");
        self
    }

    /// Loads its code on the first interaction, or once the page has loaded and the
    /// browser is idle (`load="idle"`), whichever comes first.
    pub fn when_idle(mut self) -> Self {
        self.load = Some("idle");
        self
    }

    /// Also loads on the first of these document events (space-separated), which the
    /// page sends with `TyreDesk.ask` so they are repeated until the island takes them.
    pub fn wake(mut self, events: &'static str) -> Self {
        self.wake = events;
        self
    }

    /// Whether the server's render is inside (no fallback needed).
    pub fn rendered(&self) -> bool {
        self.html.is_some()
    }

    /// The start tag and, when rendered, the island's HTML; the template closes the tag.
    pub fn start(&self) -> String {
        let mut out = format!(r#"<app-island name="{}""#, self.name);
        if let Some(load) = self.load {
            out.push_str(&format!(r#" load="{load}""#));
        }
        if !self.wake.is_empty() {
            out.push_str(&format!(r#" wake="{}""#, attr(self.wake)));
        }
        out.push_str(&format!(r#" src="{}" props="{}""#, attr(&self.src), attr(&self.props)));
        match &self.html {
            Some(html) => {
                out.push_str(" ssr>");
                out.push_str(html);
            }
            None => out.push('>'),
        }
        out
    }
}

/// `text` for a double-quoted attribute value, escaped by askama as its templates escape.
fn attr(text: &str) -> String {
    match askama::filters::escape(text, askama::filters::Html) {
        Ok(escaped) => escaped.to_string(),
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn island(html: Option<&str>) -> Island {
        Island { name: "quoting-cart", src: "/static/islands/a.js".into(), props: r#"{"k":"<'&\">"}"#.into(), load: None, wake: "", html: html.map(str::to_owned) }
    }

    #[test]
    fn a_rendered_island_is_marked_for_hydration_and_carries_its_html() {
        let i = island(Some("<button>Cart</button>"));
        assert!(i.rendered());
        assert_eq!(
            i.start(),
            r#"<app-island name="quoting-cart" src="/static/islands/a.js" props="{&#34;k&#34;:&#34;&#60;&#39;&#38;\&#34;&#62;&#34;}" ssr><button>Cart</button>"#
        );
    }

    #[test]
    fn an_island_without_a_render_leaves_room_for_the_fallback_and_may_be_lazy() {
        let i = island(None).lazy();
        assert!(!i.rendered());
        assert!(i.start().starts_with(r#"<app-island name="quoting-cart" load="interaction" src="#), "{}", i.start());
        assert!(!i.start().contains(" ssr"));
        let i = island(Some("")).when_idle().wake("cart-add customer-changed");
        assert!(i.start().starts_with(r#"<app-island name="quoting-cart" load="idle" wake="cart-add customer-changed" src="#), "{}", i.start());
        assert!(i.start().ends_with(" ssr>"), "{}", i.start());
    }
}
