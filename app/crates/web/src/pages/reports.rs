//! The three report request screens of spec §2.9 (Sales, Purchase and Inventory Reports):
//! one server page each, holding the `report-form` island with everything it needs as
//! props, so the form never fetches its choices. The island posts `POST /api/reports`; the
//! server validates the request again (`domain::reports::parse`), so nothing here is trusted.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;

use super::island::Island;
use super::shell::Shell;
use super::stream;
use crate::auth::Auth;
use db::masters as master_db;
use domain::dates::today;
use domain::enums::{AreaType, OrderType, PaymentType, ProductCategory, Tag};
use domain::permissions::may_see_cost;
use domain::reports::Kind;
use db::error::AppResult;
use crate::state::AppState;

/// The island every report screen mounts.
const ISLAND: &str = "report-form";

/// One of the three request screens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Sales,
    Purchase,
    Inventory,
}

impl Screen {
    pub const fn path(self) -> &'static str {
        match self {
            Screen::Sales => "/sales_reports",
            Screen::Purchase => "/purchase_reports",
            Screen::Inventory => "/inventory_reports",
        }
    }

    pub const fn title(self) -> &'static str {
        match self {
            Screen::Sales => "Sales Reports",
            Screen::Purchase => "Purchase Reports",
            Screen::Inventory => "Inventory Reports",
        }
    }

    /// The tabs, in the order of spec §2.9.
    pub const fn kinds(self) -> &'static [Kind] {
        match self {
            Screen::Sales => &[Kind::InvoiceDetails, Kind::SaleSummary, Kind::SlowMoving],
            Screen::Purchase => &[Kind::PurchaseDetails, Kind::PurchaseSummary],
            Screen::Inventory => &[Kind::TransferDetails, Kind::AdjustmentDetails, Kind::InventorySummary, Kind::InventoryDetails, Kind::TyreAge],
        }
    }

    /// The sheet tags offered: those the screen's sheets can carry (the tag filter of the
    /// inventory tabs is not offered, so it has none).
    fn tags(self) -> Vec<Tag> {
        match self {
            Screen::Sales => Tag::options_for(OrderType::Invoice),
            Screen::Purchase => Tag::options_for(OrderType::Bill),
            Screen::Inventory => vec![],
        }
    }
}

/// A tab of the form: the report `type` it requests and whether it can show cost.
#[derive(Serialize, Debug, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TabProps {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub title: &'static str,
    /// Only these kinds have cost columns (`Kind::can_show_cost`).
    pub can_show_cost: bool,
}

/// A record chosen by id (warehouse, brand).
#[derive(Serialize, Debug, ts_rs::TS)]
pub struct IdOption {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
}

/// A value of a coded enumeration (tag, area type, payment type, category).
#[derive(Serialize, Debug, ts_rs::TS)]
pub struct CodeOption {
    pub code: i32,
    pub label: String,
}

/// Everything the `report-form` island starts from (its JSON `props`). The CSRF token is
/// not repeated here: the island's API client sends the page's `<meta name="csrf-token">`,
/// as every island does.
#[derive(Serialize, Debug, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ReportFormProps {
    pub tabs: Vec<TabProps>,
    pub warehouses: Vec<IdOption>,
    pub brands: Vec<IdOption>,
    /// Each category with its full path ("Wheels/Alloy"); a parent matches its children.
    pub categories: Vec<CodeOption>,
    pub tags: Vec<CodeOption>,
    pub areas: Vec<CodeOption>,
    pub payments: Vec<CodeOption>,
    /// The company's today (in its zone), `yyyy-MM-dd`: the default range ends here.
    pub today: String,
    /// Whether "Include Cost" is offered at all (`may_see_cost`).
    pub may_see_cost: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "reports/form_page.html")]
pub struct ReportFormPage {
    pub shell: Shell,
    pub heading: &'static str,
    pub tab_titles: Vec<&'static str>,
    /// The report form, rendered on the server.
    pub form: Island,
}

/// `GET /sales_reports`.
pub async fn sales(State(state): State<AppState>, auth: Auth, headers: HeaderMap) -> AppResult<Response> {
    page(&state, &auth, &headers, Screen::Sales).await
}

/// `GET /purchase_reports`.
pub async fn purchase(State(state): State<AppState>, auth: Auth, headers: HeaderMap) -> AppResult<Response> {
    page(&state, &auth, &headers, Screen::Purchase).await
}

/// `GET /inventory_reports`.
pub async fn inventory(State(state): State<AppState>, auth: Auth, headers: HeaderMap) -> AppResult<Response> {
    page(&state, &auth, &headers, Screen::Inventory).await
}

/// The screen, streamed (web/stream.rs): the choices are read and the form rendered after
/// the head has gone.
async fn page(state: &AppState, auth: &Auth, headers: &HeaderMap, screen: Screen) -> AppResult<Response> {
    let (st, au) = (state.clone(), auth.clone());
    stream::respond(state, auth, headers, screen.title(), screen.path(), &[ISLAND], move |shell| async move {
        let (state, auth) = (st, au);
        let org = auth.org_id;
        let (warehouses, brands) = state
            .db
            .run(move |c| {
                let warehouses = master_db::all_warehouses(c, org)?.into_iter().map(|w| IdOption { id: w.id, name: w.name }).collect();
                let brands = master_db::all_brands(c, org)?.into_iter().map(|b| IdOption { id: b.id, name: b.name }).collect();
                Ok((warehouses, brands))
            })
            .await?;
        let props = form_props(screen, warehouses, brands, today(auth.zone), may_see_cost(auth.role, auth.mod_prc));
        Ok(ReportFormPage {
            shell,
            heading: screen.title(),
            tab_titles: screen.kinds().iter().map(|k| k.title()).collect(),
            form: Island::new(&state, ISLAND, &props).await,
        })
    })
    .await
}

/// The island's props for `screen`, from the company's warehouses and brands.
fn form_props(screen: Screen, warehouses: Vec<IdOption>, brands: Vec<IdOption>, today: chrono::NaiveDate, may_see_cost: bool) -> ReportFormProps {
    let code = |code: i32, label: &str| CodeOption { code, label: label.to_string() };
    ReportFormProps {
        tabs: screen.kinds().iter().map(|k| TabProps { kind: k.code(), title: k.title(), can_show_cost: k.can_show_cost() }).collect(),
        warehouses,
        brands,
        categories: ProductCategory::ALL.iter().map(|c| CodeOption { code: c.as_i32(), label: c.path() }).collect(),
        tags: screen.tags().into_iter().map(|t| code(t.as_i32(), t.label())).collect(),
        areas: AreaType::ALL.iter().map(|a| code(a.as_i32(), a.label())).collect(),
        payments: PaymentType::ALL.iter().map(|p| code(p.as_i32(), p.label())).collect(),
        today: today.format("%Y-%m-%d").to_string(),
        may_see_cost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_screen_offers_the_kinds_of_spec_2_9_in_order() {
        let codes = |s: Screen| s.kinds().iter().map(|k| k.code()).collect::<Vec<_>>();
        assert_eq!(codes(Screen::Sales), ["invoiceDetails", "saleSummary", "slowMoving"]);
        assert_eq!(codes(Screen::Purchase), ["purchaseDetails", "purchaseSummary"]);
        assert_eq!(codes(Screen::Inventory), ["transferDetails", "adjustmentDetails", "inventorySummary", "inventoryDetails", "tyreAge"]);
        let all: Vec<Kind> = [Screen::Sales, Screen::Purchase, Screen::Inventory].iter().flat_map(|s| s.kinds().iter().copied()).collect();
        assert_eq!(all, Kind::ALL, "every kind is requested from exactly one tab");
    }

    #[test]
    fn props_carry_categories_by_path_tags_of_the_screen_and_the_cost_permission() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
        let p = form_props(Screen::Sales, vec![IdOption { id: 3, name: "Main".into() }], vec![], today, false);
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["today"], "2026-11-20");
        assert_eq!(json["maySeeCost"], false);
        assert_eq!(json["warehouses"][0]["name"], "Main");
        assert_eq!(json["tabs"][2]["type"], "slowMoving");
        assert_eq!(json["tabs"][0]["canShowCost"], true);
        assert!(json["categories"].as_array().unwrap().iter().any(|c| c["code"] == 51 && c["label"] == "Wheels/Alloy"));
        let tags: Vec<&str> = p.tags.iter().map(|t| t.label.as_str()).collect();
        assert!(!tags.contains(&"Outsourcing"), "not a sales tag: {tags:?}");
        let purchase = form_props(Screen::Purchase, vec![], vec![], today, true);
        assert!(!purchase.tabs.iter().any(|t| t.can_show_cost), "purchase reports never show cost");
        assert!(!purchase.tags.iter().any(|t| t.label == "Giftware"));
    }
}
