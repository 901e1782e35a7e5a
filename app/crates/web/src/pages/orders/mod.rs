//! Sheets (spec §2.4–2.6): the seven lists, new/edit, detail and actions.

pub mod detail;
pub mod form;
pub mod list;
pub mod print;

use domain::enums::OrderType;

/// What a sheet list route shows.
pub struct SheetRoute {
    pub route: &'static str,
    pub title: &'static str,
    /// Types the list contains; the first is the default type value (spec §9).
    pub types: &'static [OrderType],
    pub page_size: i64,
    pub new_buttons: &'static [(&'static str, &'static str)],
}

/// The seven sheet lists (spec §2.1, §2.4, §9).
pub const SHEET_ROUTES: &[SheetRoute] = &[
    SheetRoute {
        route: "invoices",
        title: "Invoices",
        types: &[OrderType::Invoice, OrderType::CreditNote],
        page_size: 150,
        new_buttons: &[("+ New Invoice", "/order_add/invoices"), ("+ New Credit Note", "/order_add/credit_notes")],
    },
    SheetRoute { route: "credit_notes", title: "Credit Notes", types: &[OrderType::CreditNote], page_size: 100, new_buttons: &[("+ New Credit Note", "/order_add/credit_notes")] },
    SheetRoute { route: "purchase_orders", title: "Purchase Orders", types: &[OrderType::PurchaseOrder], page_size: 20, new_buttons: &[("+ New Purchase Order", "/order_add/purchase_orders")] },
    SheetRoute {
        route: "bills",
        title: "Bills",
        types: &[OrderType::Bill, OrderType::BillCreditNote],
        page_size: 20,
        new_buttons: &[("+ New Bill", "/order_add/bills"), ("+ New Bill Credit Note", "/order_add/bill_credit_notes")],
    },
    SheetRoute {
        route: "bill_credit_notes",
        title: "Bill Credit Notes",
        types: &[OrderType::BillCreditNote],
        page_size: 20,
        new_buttons: &[("+ New Bill Credit Note", "/order_add/bill_credit_notes")],
    },
    SheetRoute { route: "transfers", title: "Transfers", types: &[OrderType::Transfer], page_size: 20, new_buttons: &[("+ New Transfer", "/order_add/transfers")] },
    SheetRoute { route: "adjustments", title: "Adjustments", types: &[OrderType::Adjustment], page_size: 20, new_buttons: &[("+ New Adjustment", "/order_add/adjustments")] },
];

/// The list route of a name.
pub fn sheet_route(name: &str) -> Option<&'static SheetRoute> {
    SHEET_ROUTES.iter().find(|r| r.route == name)
}

/// The route name sheets of a type live under (detail and edit URLs).
pub fn route_of(t: OrderType) -> &'static str {
    t.route_name()
}

/// Where a sheet page addressed as `/{page}/{route}/{id}` belongs (issue 29): an unknown
/// route name is not found (never a page under a name that does not exist); a known one
/// other than the sheet's own type redirects to the sheet's own address, keeping `query`.
pub fn canonical(page: &str, route: &str, t: OrderType, id: i64, query: Option<&str>) -> db::error::AppResult<Option<axum::response::Redirect>> {
    if OrderType::from_route_name(route).is_none() {
        return Err(db::error::AppError::NotFound);
    }
    if route == t.route_name() {
        return Ok(None);
    }
    let q = query.map(|q| format!("?{q}")).unwrap_or_default();
    Ok(Some(axum::response::Redirect::permanent(&format!("/{page}/{}/{id}{q}", t.route_name()))))
}
