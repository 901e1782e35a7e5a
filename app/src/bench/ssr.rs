//! Island server rendering (issue 16), measured on the engine itself: the quoting cart and a
//! 200-line order editor rendered from their props, as a page asks for them, and the
//! engines' heap and the process's memory over 10,000 renders.

use std::time::{Duration, Instant};

use super::memory::rss_mb;
use super::report::{Budget, LatencyRow, MemoryRow, Timings};
use web::ssr::Ssr;

/// Renders asked for each latency row.
const RENDERS: usize = 300;
/// Renders of the memory row.
const MANY: usize = 10_000;
/// p95 budgets of DESIGN §10 / issue 16.
const CART_P95_MS: f64 = 2.0;
const EDITOR_P95_MS: f64 = 15.0;
/// Growth allowed over 10,000 renders (the engines' heap and the process), in MB.
const GROWTH_MB: f64 = 8.0;

/// The cart's props, as the quoting page sends them.
const CART_PROPS: &str = r#"{"storageKey":"carts","checkoutPath":"/order_add/invoices"}"#;

/// Props of an order editor holding `lines` lines, shaped as `EditorProps`.
pub fn editor_props(lines: usize) -> String {
    let lines: Vec<serde_json::Value> = (0..lines)
        .map(|i| {
            serde_json::json!({
                "key": format!("l{i}"), "productId": 1000 + i, "code": format!("T{i:05}"),
                "name": format!("TYRE 205/55R16 91V DEMO {i}"), "unit": "EA", "stock": 12,
                "qty": "4", "price": "189.00", "description": format!("TYRE 205/55R16 91V DEMO {i}"),
                "taxType": 3, "inWarehouseQty": "", "inSystemQty": "", "classA": 15000, "costPrice": 12000
            })
        })
        .collect();
    serde_json::json!({
        "kind": "sales", "orderType": 1, "taxType": 3, "customerId": 7, "warehouseId": 4,
        "editable": true, "fieldName": "lines_json", "lines": lines, "errors": {}
    })
    .to_string()
}

fn timed(ssr: &Ssr, island: &str, props: &str, renders: usize) -> Timings {
    let mut t = Timings { http: Vec::with_capacity(renders), errors: 0, wall: Duration::ZERO, sql: vec![] };
    for _ in 0..renders {
        let started = Instant::now();
        match ssr.render_blocking(island, props) {
            Ok(_) => t.http.push(started.elapsed()),
            Err(e) => {
                t.errors += 1;
                tracing::warn!("{island}: {e}");
            }
        }
    }
    t.wall = t.http.iter().sum();
    t
}

/// The cart and the 200-line editor, one render at a time on this thread.
pub fn latency(ssr: &Ssr) -> Vec<LatencyRow> {
    // The first render of an engine evaluates the bundle; it is not what a page pays.
    let _ = ssr.render_blocking("quoting-cart", CART_PROPS);
    let cart = LatencyRow::new("SSR quoting cart", 1, timed(ssr, "quoting-cart", CART_PROPS, RENDERS), Budget::P95Ms(CART_P95_MS));
    let props = editor_props(200);
    let editor = LatencyRow::new("SSR order editor, 200 lines", 1, timed(ssr, "line-editor", &props, RENDERS / 3), Budget::P95Ms(EDITOR_P95_MS));
    let props = editor_props(20);
    let small = LatencyRow::new("SSR order editor, 20 lines", 1, timed(ssr, "line-editor", &props, RENDERS), Budget::None);
    vec![cart, small, editor]
}

/// 10,000 renders (cart and a 20-line editor in turn): the engines' heap before and after,
/// and the process's resident memory.
pub fn memory(ssr: &Ssr) -> (MemoryRow, MemoryRow) {
    let editor = editor_props(20);
    let _ = ssr.render_blocking("quoting-cart", CART_PROPS);
    let heap_before = ssr.memory_in_use() as f64 / 1e6;
    let rss_before = rss_mb();
    let started = Instant::now();
    let mut failed = 0;
    for i in 0..MANY {
        let (island, props) = if i % 2 == 0 { ("quoting-cart", CART_PROPS) } else { ("line-editor", editor.as_str()) };
        failed += usize::from(ssr.render_blocking(island, props).is_err());
    }
    let time = started.elapsed();
    let status = if failed == 0 { 200 } else { 500 };
    let heap = MemoryRow::new("SSR 10,000 renders: engine heap", status, 0, time, heap_before, ssr.memory_in_use() as f64 / 1e6, Budget::Memory { seconds: 600.0, growth_mb: GROWTH_MB });
    let rss = MemoryRow::new("SSR 10,000 renders: process RSS", status, 0, time, rss_before, rss_mb(), Budget::Memory { seconds: 600.0, growth_mb: GROWTH_MB });
    (heap, rss)
}
