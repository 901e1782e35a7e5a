//! The supplier, warehouse and brand forms (spec §3 fields): one `Record` description per
//! kind, shared handlers in `baseinfo.rs` do the rest.

use std::future::Future;

use super::form::{Field, FormView, Group};
use crate::auth::Auth;
use db::masters::{Brand, Supplier, Warehouse};
use db::{DbConn, reference_data as store};
use domain::limits::{ADDRESS_MAX, NAME_MAX, SHORT_MAX, too_long};
use domain::reference_data::{BrandInput, SupplierInput, WarehouseInput};
use db::error::AppResult;
use services::reference_data as service;
use crate::state::AppState;

/// One kind of reference record as its form sees it.
pub trait Record: Sized + Send + 'static {
    type Input: serde::de::DeserializeOwned + Clone + Default + Send + 'static;
    /// The `/baseinfo/{route}` segment and the list it returns to.
    const ROUTE: &'static str;
    const LIST: &'static str;
    const NEW_TITLE: &'static str;
    const EDIT_TITLE: &'static str;

    /// The values a new record's form starts with.
    fn fresh() -> Self::Input {
        Self::Input::default()
    }
    fn id(&self) -> i64;
    fn load(c: &mut DbConn, org: i64, id: i64) -> AppResult<Self>;
    fn input_from(&self) -> Self::Input;
    /// The form; times shown in the company's `zone`.
    fn view(input: &Self::Input, existing: Option<&Self>, zone: domain::dates::Tz) -> FormView;
    fn save(state: &AppState, auth: &Auth, id: Option<i64>, input: Self::Input) -> impl Future<Output = AppResult<Self>> + Send;
}

fn form(heading: &'static str, route: &str, list_path: &'static str, id: Option<i64>, version: Option<i32>, groups: Vec<Group>) -> FormView {
    FormView {
        heading,
        action: id.map_or_else(|| format!("/baseinfo/{route}"), |id| format!("/baseinfo/{route}/{id}")),
        list_path,
        version: id.and(version),
        xero: None,
        alert: None,
        conflict: false,
        groups,
        notice: None,
        links: vec![],
        actions: vec![],
    }
}

/// Created and updated dates of a stored record, the company's days (`zone`), read-only.
fn dates(created: chrono::NaiveDateTime, updated: chrono::NaiveDateTime, zone: domain::dates::Tz) -> Group {
    let at = |t| domain::dates::date(domain::dates::local_date(t, zone));
    Group { title: "Record", fields: vec![Field::display("created_at", "Created", at(created)), Field::display("updated_at", "Updated", at(updated))] }
}

fn code(value: &str, locked: bool) -> Field {
    Field::text("code", "Code", value).required().locked(locked).max_chars(SHORT_MAX, too_long(SHORT_MAX))
}

fn name(label: &'static str, value: &str) -> Field {
    Field::text("name", label, value).required().max_chars(NAME_MAX, too_long(NAME_MAX)).span("wide")
}

impl Record for Supplier {
    type Input = SupplierInput;
    const ROUTE: &'static str = "suppliers";
    const LIST: &'static str = "/suppliers";
    const NEW_TITLE: &'static str = "New Supplier";
    const EDIT_TITLE: &'static str = "Edit Supplier";

    fn id(&self) -> i64 {
        self.id
    }

    fn load(c: &mut DbConn, org: i64, id: i64) -> AppResult<Self> {
        store::supplier(c, org, id)
    }

    fn input_from(&self) -> SupplierInput {
        SupplierInput {
            code: self.code.clone(),
            name: self.name.clone(),
            primary_person_first: self.primary_person_first.clone(),
            primary_person_last: self.primary_person_last.clone(),
            email: self.email.clone(),
            currency: self.currency.clone(),
            lead_time_days: self.lead_time_days.map(|d| d.to_string()).unwrap_or_default(),
            version: Some(self.version),
        }
    }

    fn view(input: &SupplierInput, existing: Option<&Self>, zone: domain::dates::Tz) -> FormView {
        let mut groups = vec![Group {
            title: "Basic",
            fields: vec![
                // A new supplier's code is its contact number in Xero: at most 50 characters.
                if existing.is_some() { code(&input.code, true) } else { code(&input.code, false).max_chars(domain::xero::CONTACT_NUMBER_MAX, domain::masters::CODE_LONGER_THAN_XERO_CONTACT) },
                name("Name", &input.name),
                Field::text("primary_person_first", "Primary Person First Name", &input.primary_person_first).max_chars(NAME_MAX, too_long(NAME_MAX)),
                Field::text("primary_person_last", "Primary Person Last Name", &input.primary_person_last).max_chars(NAME_MAX, too_long(NAME_MAX)),
                Field::typed("email", "E-mail (purchase orders)", &input.email, "email").max_chars(NAME_MAX, too_long(NAME_MAX)),
                Field::select(
                    "currency",
                    "Currency (its bills and purchase orders)",
                    domain::currency::CURRENCIES.iter().map(|(code, name)| (code.to_string(), format!("{code} – {name}"))).collect(),
                    if input.currency.trim().is_empty() { domain::currency::AUD.to_string() } else { input.currency.trim().to_uppercase() },
                ),
                Field::typed("lead_time_days", "Lead time (days from order to arrival)", &input.lead_time_days, "number"),
            ],
        }];
        if let Some(s) = existing {
            let mut record = dates(s.created_at, s.updated_at, zone);
            record.fields.push(Field::display("guid", "Accounting GUID", if s.guid.is_empty() { "—".to_string() } else { s.guid.clone() }));
            groups.push(record);
        }
        let heading = if existing.is_some() { Self::EDIT_TITLE } else { Self::NEW_TITLE };
        form(heading, Self::ROUTE, Self::LIST, existing.map(|s| s.id), input.version, groups)
    }

    async fn save(state: &AppState, auth: &Auth, id: Option<i64>, input: SupplierInput) -> AppResult<Self> {
        service::supplier(state, &domain::Actor::from(auth), id, input).await
    }
}

impl Record for Warehouse {
    type Input = WarehouseInput;
    const ROUTE: &'static str = "warehouses";
    const LIST: &'static str = "/warehouses";
    const NEW_TITLE: &'static str = "New Warehouse";
    const EDIT_TITLE: &'static str = "Edit Warehouse";

    /// New warehouses count for the shop, as the column's default.
    fn fresh() -> WarehouseInput {
        WarehouseInput { is_calc_for_csr_order: true, ..WarehouseInput::default() }
    }

    fn id(&self) -> i64 {
        self.id
    }

    fn load(c: &mut DbConn, org: i64, id: i64) -> AppResult<Self> {
        store::warehouse(c, org, id)
    }

    fn input_from(&self) -> WarehouseInput {
        WarehouseInput {
            code: self.code.clone(),
            name: self.name.clone(),
            address: self.address.clone(),
            is_calc_for_csr_order: self.is_calc_for_csr_order,
            version: Some(self.version),
        }
    }

    fn view(input: &WarehouseInput, existing: Option<&Self>, zone: domain::dates::Tz) -> FormView {
        let mut groups = vec![Group {
            title: "Basic",
            fields: vec![
                code(&input.code, existing.is_some()),
                name("Name", &input.name),
                Field::text("address", "Address", &input.address).max_chars(ADDRESS_MAX, too_long(ADDRESS_MAX)).span("full"),
                Field::checkbox("is_calc_for_csr_order", "Counts for customer self-orders (stock shown in the shop)", input.is_calc_for_csr_order).span("full"),
            ],
        }];
        if let Some(w) = existing {
            groups.push(dates(w.created_at, w.updated_at, zone));
        }
        let heading = if existing.is_some() { Self::EDIT_TITLE } else { Self::NEW_TITLE };
        form(heading, Self::ROUTE, Self::LIST, existing.map(|w| w.id), input.version, groups)
    }

    async fn save(state: &AppState, auth: &Auth, id: Option<i64>, input: WarehouseInput) -> AppResult<Self> {
        service::warehouse(state, &domain::Actor::from(auth), id, input).await
    }
}

impl Record for Brand {
    type Input = BrandInput;
    const ROUTE: &'static str = "brands";
    const LIST: &'static str = "/brands";
    const NEW_TITLE: &'static str = "New Brand";
    const EDIT_TITLE: &'static str = "Edit Brand";

    /// New brands are shown to customers, as the column's default.
    fn fresh() -> BrandInput {
        BrandInput { presented_to_csr: true, ..BrandInput::default() }
    }

    fn id(&self) -> i64 {
        self.id
    }

    fn load(c: &mut DbConn, org: i64, id: i64) -> AppResult<Self> {
        store::brand(c, org, id)
    }

    fn input_from(&self) -> BrandInput {
        BrandInput { name: self.name.clone(), presented_to_csr: self.presented_to_csr, version: Some(self.version) }
    }

    fn view(input: &BrandInput, existing: Option<&Self>, zone: domain::dates::Tz) -> FormView {
        let mut groups = vec![Group {
            title: "Basic",
            fields: vec![name("Brand Name", &input.name), Field::checkbox("presented_to_csr", "Presented to customers (shown in the shop)", input.presented_to_csr).span("full")],
        }];
        if let Some(b) = existing {
            groups.push(dates(b.created_at, b.updated_at, zone));
        }
        let heading = if existing.is_some() { Self::EDIT_TITLE } else { Self::NEW_TITLE };
        form(heading, Self::ROUTE, Self::LIST, existing.map(|b| b.id), input.version, groups)
    }

    async fn save(state: &AppState, auth: &Auth, id: Option<i64>, input: BrandInput) -> AppResult<Self> {
        service::brand(state, &domain::Actor::from(auth), id, input).await
    }
}
