//! The purchase order for the supplier: supplier, deliver-to, lines and total; only for
//! staff who may see purchase prices; another company's PO is not found.

use axum::http::StatusCode;
use diesel::prelude::*;

use db::schema::{order_lines, orders, products, suppliers, warehouses};
use domain::enums::{OrderStatus, OrderType};
use domain::money::Cents;

use super::inline_pdf;
use crate::support::TestApp;

struct Po {
    id: i64,
    no: String,
    supplier: String,
    warehouse: String,
    codes: Vec<String>,
    total: i64,
}

async fn a_po(app: &TestApp) -> Po {
    app.state
        .db
        .run(|c| {
            let (id, no, supplier_id, warehouse_id, total): (i64, String, Option<i64>, Option<i64>, i64) = orders::table
                .filter(orders::org_id.eq(4))
                .filter(orders::order_type.eq(OrderType::PurchaseOrder.as_i32()))
                .filter(orders::status.ne(OrderStatus::Voided.as_i32()))
                .filter(orders::supplier_id.is_not_null())
                .filter(orders::warehouse_id.is_not_null())
                .order(orders::id)
                .select((orders::id, orders::no, orders::supplier_id, orders::warehouse_id, orders::total_amount))
                .first(c)?;
            let supplier = suppliers::table.find(supplier_id.unwrap()).select(suppliers::name).first(c)?;
            let warehouse = warehouses::table.find(warehouse_id.unwrap()).select(warehouses::name).first(c)?;
            let codes = order_lines::table
                .inner_join(products::table)
                .filter(order_lines::order_id.eq(id))
                .order(order_lines::seq)
                .select(products::code)
                .load::<String>(c)?;
            Ok(Po { id, no, supplier, warehouse, codes, total })
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn the_po_shows_supplier_deliver_to_lines_and_total() {
    let (app, s) = TestApp::new().with_user("approver@demo.test").await;
    let po = a_po(&app).await;
    assert!(!po.codes.is_empty(), "the demo PO has lines");
    let detail = app.get(&format!("/order_detail/purchase_orders/{}", po.id), Some(&s)).await;
    assert!(detail.body.contains(&format!("href=\"/purchase_order_print/{}\"", po.id)), "the detail page links the PDF");
    let text = inline_pdf(&app.get(&format!("/purchase_order_print/{}", po.id), Some(&s)).await);
    for want in ["PURCHASE ORDER", po.no.as_str(), po.supplier.as_str(), po.warehouse.as_str(), "SUPPLIER", "DELIVER TO", &format!("TOTAL AUD ${}", Cents(po.total).grouped())] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    for (i, code) in po.codes.iter().enumerate() {
        assert!(text.contains(&format!("{} {code}", i + 1)), "line {} {code} in\n{text}", i + 1);
    }
}

#[tokio::test]
async fn only_cost_sight_gets_the_po_and_only_in_its_company() {
    let (app, sales) = TestApp::new().with_user("sales@demo.test").await;
    let po = a_po(&app).await;
    let refused = app.get(&format!("/purchase_order_print/{}", po.id), Some(&sales)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.body.contains(web::pages::documents::PO_REFUSED), "{}", refused.body);
    let detail = app.get(&format!("/order_detail/purchase_orders/{}", po.id), Some(&sales)).await;
    assert!(!detail.body.contains("/purchase_order_print/"), "no PDF button without cost sight");
    let other = app.session_in("approver@demo.test", 9).await;
    assert_eq!(app.get(&format!("/purchase_order_print/{}", po.id), Some(&other)).await.status, StatusCode::NOT_FOUND);
    let approver = app.session("approver@demo.test").await;
    let invoice: i64 = app.state.db.run(|c| Ok(orders::table.filter(orders::org_id.eq(4)).filter(orders::order_type.eq(OrderType::Invoice.as_i32())).select(orders::id).first(c)?)).await.unwrap();
    assert_eq!(app.get(&format!("/purchase_order_print/{invoice}"), Some(&approver)).await.status, StatusCode::NOT_FOUND, "an invoice is no PO");
}
