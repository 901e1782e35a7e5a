//! The frame around every signed-in page: header, menu, greeting, company switcher.

use crate::assets::IslandScripts;
use crate::auth::{Auth, OrgChoice};
use db::error::AppResult;
use crate::state::AppState;
use crate::pages::island::Island;

/// Props of the Change Password island.
#[derive(serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordProps<'a> {
    pub user_name: &'a str,
}

/// Product suffix of every page title.
pub const TITLE_SUFFIX: &str = " - TyreDesk";

/// A menu entry: label, path, and the key pages use to mark it active.
pub struct MenuItem {
    pub label: &'static str,
    pub href: &'static str,
}

/// A titled group of menu entries (spec §2.3).
pub struct MenuGroup {
    pub title: &'static str,
    pub items: &'static [MenuItem],
}

macro_rules! items {
    ($(($label:expr, $href:expr)),* $(,)?) => { &[$(MenuItem { label: $label, href: $href }),*] };
}

/// The left menu, in the order of spec §2.3.
pub const MENU: &[MenuGroup] = &[
    MenuGroup { title: "Express", items: items![("Quoting", "/quotings"), ("OCOP Prices", "/ocops")] },
    MenuGroup { title: "Sales", items: items![("Invoices", "/invoices"), ("Credit Notes", "/credit_notes")] },
    MenuGroup {
        title: "Purchase",
        items: items![("Purchase Orders", "/purchase_orders"), ("Bills", "/bills"), ("Bill Credit Notes", "/bill_credit_notes"), ("Landed Costs", "/landed_costs"), ("Purchase Suggestions", "/purchase_suggestions")],
    },
    MenuGroup { title: "Warehouse", items: items![("Transfers", "/transfers"), ("Adjustments", "/adjustments"), ("Dispatch", "/dispatch")] },
    MenuGroup {
        title: "Reports",
        items: items![
            ("Sales Reports", "/sales_reports"),
            ("Purchase Reports", "/purchase_reports"),
            ("Inventory Reports", "/inventory_reports"),
            ("Reports Download", "/reports_download"),
        ],
    },
    MenuGroup {
        title: "Base Infos",
        items: items![
            ("Products", "/products"),
            ("Customers", "/customers"),
            ("Suppliers", "/suppliers"),
            ("Warehouses", "/warehouses"),
            ("Brands", "/brands"),
            ("Employees", "/employees"),
        ],
    },
];

/// The 'Express New' dropdown; each opens in a new tab.
pub const EXPRESS_NEW: &[MenuItem] = items![
    ("Sales Invoice", "/order_add/invoices"),
    ("Sales Credit Note", "/order_add/credit_notes"),
    ("Purchase Order", "/order_add/purchase_orders"),
    ("Bills", "/order_add/bills"),
    ("Bill Credit Note", "/order_add/bill_credit_notes"),
    ("Transfer", "/order_add/transfers"),
    ("Adjustment", "/order_add/adjustments"),
    ("Product", "/baseinfo/products"),
    ("Customer", "/baseinfo/customers"),
];

/// A message shown once when the page loads.
#[derive(Clone, Debug)]
pub struct Flash {
    pub text: String,
    pub level: &'static str,
    pub ms: u32,
}

/// What the layout template needs besides the page body.
pub struct Shell {
    pub title: String,
    pub active: String,
    pub user_name: String,
    pub org_id: i64,
    pub org_name: String,
    pub orgs: Vec<OrgChoice>,
    pub csrf: String,
    pub self_orders: i64,
    pub css: String,
    pub js: String,
    pub htmx: String,
    /// The sheet form's helper script (pickers, date shortcuts, cart check-out).
    pub sheet_js: String,
    /// Remote customer/supplier pickers.
    pub picker_js: String,
    /// The quoting page's row actions (add to cart, CHK, prices).
    pub quoting_js: String,
    pub logo: String,
    pub scripts: IslandScripts,
    /// The header's Change Password dialog: rendered on the server, its code loaded on
    /// first interaction.
    pub change_password: Island,
    pub flash: Option<Flash>,
    /// Role 4: the header links to Settings.
    pub is_owner: bool,
}

impl Shell {
    /// Builds the shell for `auth`; `active` is the menu path to highlight.
    pub async fn new(state: &AppState, auth: &Auth, title: &str, active: &str, islands: &[&str]) -> AppResult<Self> {
        let org_id = auth.org_id;
        let self_orders = state.db.run(move |c| db::orders::self_order_count(c, org_id)).await?;
        let change_password = Island::new(state, "change-password", &ChangePasswordProps { user_name: &auth.user_name }).await.lazy();
        Ok(Self {
            title: format!("{title}{TITLE_SUFFIX}"),
            active: active.to_string(),
            user_name: auth.user_name.clone(),
            org_id,
            org_name: auth.org_name.clone(),
            orgs: auth.orgs.clone(),
            csrf: auth.session.as_ref().map(|s| s.csrf.clone()).unwrap_or_default(),
            self_orders,
            css: state.assets.url("css/app.css"),
            js: state.assets.url("js/app.js"),
            htmx: state.assets.url("vendor/htmx.min.js"),
            sheet_js: state.assets.url("js/sheet.js"),
            picker_js: state.assets.url("js/picker.js"),
            quoting_js: state.assets.url("js/quoting.js"),
            logo: state.assets.url("img/logo.svg"),
            scripts: state.assets.scripts_for(islands),
            change_password,
            flash: None,
            is_owner: domain::permissions::may_administer(auth.role),
        })
    }

    pub fn menu(&self) -> &'static [MenuGroup] {
        MENU
    }

    pub fn express_new(&self) -> &'static [MenuItem] {
        EXPRESS_NEW
    }

    pub fn is_active(&self, href: &str) -> bool {
        self.active == href
    }
}
