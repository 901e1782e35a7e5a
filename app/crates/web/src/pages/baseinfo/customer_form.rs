//! The customer (CSR) form (spec §2.8): Basic, Contact, Address, Classification; on edit
//! the Xero tag and balance. Attention and credit limit are inputs for approvers only.

use super::form::{Badge, CHOOSE, Field, FormView, Group, NONE, SideAction, code_options, selected};
use db::customers::Customer;
use db::masters::Employee;
use domain::enums::{AreaType, BusinessType, DefaultShipType, PaymentType, PriceStrategy, Role};
use domain::lenient::Amount;
use domain::masters::{CustomerInput, DEFAULT_COUNTRY, fits_business_staff, fits_service_staff, listed_on_picker};
use domain::money::Cents;
use crate::pages::products::xero_badge;

/// Australian states and territories, offered while typing the state.
const STATES: [&str; 8] = ["NSW", "VIC", "QLD", "SA", "WA", "TAS", "NT", "ACT"];

/// What the form shows besides the typed values.
pub struct CustomerContext<'a> {
    /// The company's staff, for the business and service staff pickers.
    pub staff: &'a [Employee],
    /// The stored customer when editing.
    pub existing: Option<&'a Customer>,
    /// Whether the user may change attention and credit limit (role 4).
    pub may_edit_terms: bool,
    /// Whether the user may send a shop invite (`domain::shop::may_invite`).
    pub may_invite: bool,
}

/// The values of a new customer form.
pub fn new_input() -> CustomerInput {
    CustomerInput {
        country: DEFAULT_COUNTRY.to_string(),
        business_type: Some(BusinessType::Retailer.as_i32()),
        default_ship_type: Some(DefaultShipType::Delivery.as_i32()),
        ..CustomerInput::default()
    }
}

/// The form's values from a stored customer, as the edit page first shows them.
pub use services::masters::customer_input as input_from;

/// Staff of a fitting role that the picker lists (`listed_on_picker`).
fn staff_options(staff: &[Employee], fits: fn(Role) -> bool, chosen: Option<i64>) -> Vec<(String, String)> {
    std::iter::once((String::new(), NONE.to_string()))
        .chain(
            staff
                .iter()
                .filter(|e| listed_on_picker(e.is_active, e.id, chosen) && Role::from_i32(e.role).is_some_and(fits))
                .map(|e| (e.id.to_string(), e.name.clone())),
        )
        .collect()
}

fn amount_text(a: Option<&Amount>) -> String {
    match a {
        None => String::new(),
        Some(Amount::Typed(s)) => s.clone(),
        Some(Amount::Cents(c)) => Cents(*c).plain(),
    }
}

/// The form for `input`; on edit name and ABN are read-only.
pub fn view(input: &CustomerInput, ctx: &CustomerContext<'_>) -> FormView {
    let editing = ctx.existing.is_some();
    let (attention, credit_limit) = if ctx.may_edit_terms {
        (
            Field::textarea("attention", "Attention / Remark", input.attention.as_deref().unwrap_or("")),
            Field::text("creditLimit", "Credit Limit (AUD)", &amount_text(input.credit_limit.as_ref())),
        )
    } else {
        // Shown for reference only: not submitted, so nothing but an approver changes them.
        let (a, l) = ctx.existing.map_or((String::new(), 0), |c| (c.attention.clone(), c.credit_limit));
        (Field::display("attention", "Attention / Remark", a).span("full"), Field::display("creditLimit", "Credit Limit (AUD)", Cents(l).grouped()))
    };
    let mut classification = vec![
        Field::select("priceType", "Price Strategy", code_options::<PriceStrategy>(Some(CHOOSE)), selected(input.price_strategy)).required(),
        Field::select("payment_type", "Payment Type", code_options::<PaymentType>(Some(CHOOSE)), selected(input.payment_type)).required(),
        Field::select("area_type", "Area Type", code_options::<AreaType>(Some(CHOOSE)), selected(input.area_type)).required(),
        Field::select("default_ship_type", "Default Ship Type", code_options::<DefaultShipType>(None), selected(input.default_ship_type)),
        Field::select("bd_id", "Business Staff", staff_options(ctx.staff, fits_business_staff, input.bd_id), selected(input.bd_id)),
        Field::select("cs_id", "Service Staff", staff_options(ctx.staff, fits_service_staff, input.cs_id), selected(input.cs_id)),
        Field::text("account", "Account", &input.account),
        credit_limit,
    ];
    if let Some(c) = ctx.existing {
        classification.push(Field::display("xeroBalance", "Xero Balance (AUD)", Cents(c.xero_balance).grouped()));
    }
    classification.extend([Field::checkbox("is_supplier", "Also a supplier", input.is_supplier), Field::checkbox("branch_flag", "Branch", input.branch_flag), Field::checkbox("accepts_old_tyres", "Accepts old tyres", input.accepts_old_tyres), attention]);
    let groups = vec![
        Group {
            title: "Basic",
            fields: vec![
                Field::text("name", "Customer Name", input.name.as_deref().unwrap_or("")).required().locked(editing).span("wide"),
                if editing {
                    Field::text("code", "ABN Number", input.code.as_deref().unwrap_or("")).required().locked(true)
                } else {
                    Field::text("code", "ABN Number", input.code.as_deref().unwrap_or("")).required().max_chars(domain::xero::CONTACT_NUMBER_MAX, domain::masters::CODE_LONGER_THAN_XERO_CONTACT)
                },
                Field::text("origin_code", "Origin Code", &input.origin_code),
                Field::select("business_type", "Business Type", code_options::<BusinessType>(None), selected(input.business_type)),
                Field::typed("email", "Email (shop login)", &input.email, "email"),
                Field::typed("website", "Website", &input.website, "url"),
                Field::checkbox("loginShop", "May log in to the shop", input.login_shop),
                Field::textarea("note", "Note", &input.note),
            ],
        },
        Group {
            title: "Contact",
            fields: vec![
                // Either name satisfies the rule: checked on submit, neither alone on blur.
                Field::text("primary_person_first", "Contact First Name", &input.primary_person_first).required().or_else("primary_person_last"),
                Field::text("primary_person_last", "Contact Last Name", &input.primary_person_last),
                Field::typed("phone", "Phone", &input.phone, "tel"),
                Field::typed("mobile", "Mobile", &input.mobile, "tel"),
                Field::text("skype", "Skype", &input.skype),
                Field::typed("birthday", "Birthday", &input.birthday, "date"),
            ],
        },
        Group {
            title: "Address",
            fields: vec![
                Field::text("address", "Address", &input.address).required().span("wide"),
                Field::text("city", "City / Suburb", &input.city).required(),
                Field::text("state", "State", &input.state).required().suggest(STATES.iter().map(|s| s.to_string()).collect()),
                Field::text("postal", "Postcode", &input.postal).required(),
                Field::text("country", "Country", &input.country),
            ],
        },
        Group { title: "Classification", fields: classification },
    ];
    FormView {
        heading: if editing { "Edit Customer" } else { "New Customer" },
        action: ctx.existing.map_or_else(|| "/baseinfo/customers".to_string(), |c| format!("/baseinfo/customers/{}", c.id)),
        list_path: "/customers",
        version: if editing { input.version } else { None },
        xero: ctx.existing.map(|c| {
            let (label, class) = xero_badge(c.xero_sent);
            Badge { label, class }
        }),
        alert: None,
        conflict: false,
        groups,
        notice: None,
        links: ctx.existing.map(|c| vec![("Statement", format!("/customers/{}/statement", c.id)), ("Quotations", format!("/quotations?customer={}", c.id))]).unwrap_or_default(),
        // A stored customer with shop access gets the invite (no e-mail server is assumed:
        // staff pass the one-time password on, docs/decisions/shop.md).
        actions: ctx
            .existing
            .filter(|c| c.login_shop && ctx.may_invite)
            .map(|c| SideAction {
                label: "Send shop invite",
                action: format!("/baseinfo/customers/{}/shop-invite", c.id),
                confirm: "Make a one-time shop password for this customer? A password they have now stops working and their shop sessions end.",
            })
            .into_iter()
            .collect(),
    }
}
