//! Rendering a sheet form: its choices read for the kind, the line editor island, and the
//! page streamed or answered whole.

use super::*;

/// The island every sheet form holds.
pub(super) const EDITOR: &str = "line-editor";

/// What a form page shows besides its choices.
pub(super) struct Render {
    pub(super) t: OrderType,
    pub(super) heading: String,
    pub(super) action: String,
    pub(super) cancel: String,
    pub(super) f: SheetForm,
    pub(super) lines: Vec<IslandLine>,
    pub(super) errors: BTreeMap<String, String>,
    pub(super) editable: bool,
    pub(super) cart_operation: Option<&'static str>,
    /// A new sheet as it starts (not one shown again after a refused save): an empty
    /// warehouse takes the company's default, empty staff the customer's (issue 32).
    pub(super) starting: bool,
}

impl Render {
    /// The form of a new sheet of type `t`.
    pub(super) fn new_sheet(t: OrderType, f: SheetForm, lines: Vec<IslandLine>, errors: BTreeMap<String, String>, cart_operation: Option<&'static str>) -> Self {
        let action = format!("/order_add/{}", t.route_name());
        Self { t, heading: format!("New {}", t.label()), action, cancel: list_path(t), f, lines, errors, editable: true, cart_operation, starting: true }
    }

    /// The form of sheet `id` (number `no`) of type `t`.
    pub(super) fn edit(t: OrderType, no: &str, id: i64, f: SheetForm, lines: Vec<IslandLine>, errors: BTreeMap<String, String>, editable: bool) -> Self {
        let (action, cancel) = (format!("/order_edit/{}/{id}", t.route_name()), format!("/order_detail/{}/{id}", t.route_name()));
        Self { t, heading: edit_heading(t, no), action, cancel, f, lines, errors, editable, cart_operation: None, starting: false }
    }
}

pub(super) fn edit_heading(t: OrderType, no: &str) -> String {
    format!("Edit {} {no}", t.label())
}

/// The list of sheets of type `t`: the menu entry of its forms, where New returns.
pub(super) fn list_path(t: OrderType) -> String {
    format!("/{}", t.route_name())
}

/// The page of `r` around `shell`: reads the choices (warehouses, staff, the lines' products,
/// the customer) and renders the line editor.
pub(super) async fn form_page(state: &AppState, auth: &Auth, mut shell: Shell, mut r: Render) -> AppResult<FormPage> {
    let org = auth.org_id;
    let t = r.t;
    // Read only to redisplay the form; every id is looked up inside the company.
    let customer: Option<i64> = r.f.customer_id.trim().parse().ok();
    let mut warehouse: Option<i64> = r.f.warehouse_id.trim().parse().ok();
    let related: Option<i64> = r.f.related_order_id.trim().parse().ok();
    // A refused form sent before the editor ran shows the products its typed codes name.
    let typed: Vec<String> = r.lines.iter().filter(|l| l.product_id.is_none() && !l.code.trim().is_empty()).map(|l| l.code.trim().to_string()).collect();
    if !typed.is_empty() {
        let ids = state.db.run(move |c| db::products::ids_by_typed_codes(c, org, &typed)).await?;
        for l in r.lines.iter_mut().filter(|l| l.product_id.is_none()) {
            l.product_id = ids.get(l.code.trim()).copied();
        }
    }
    let wants = FormWants { order_type: t, customer, warehouse, related, product_ids: r.lines.iter().filter_map(|l| l.product_id).collect(), default_warehouse: r.starting };
    let FormChoices { products, staff, warehouses, related_choices: open_pos, customer: cust_info, default_warehouse } = state.db.run(move |c| order_views::form_choices(c, org, &wants)).await?;
    if let Some(w) = default_warehouse {
        warehouse = Some(w);
        r.f.warehouse_id = w.to_string();
    }
    // A new sheet's customer brings their service and business staff (a cart's customer).
    if let Some(c) = cust_info.as_ref().filter(|_| r.starting) {
        let fill = |field: &mut String, id: Option<i64>| {
            if field.trim().is_empty() {
                *field = id.map(|i| i.to_string()).unwrap_or_default();
            }
        };
        fill(&mut r.f.csr_service_id, c.cs_id);
        fill(&mut r.f.csr_bd_id, c.bd_id);
    }
    let mut lines = r.lines;
    let sight = auth.sight();
    fill_products(&mut lines, &products, t, sight, today(auth.zone));
    let props = EditorProps {
        kind: kind_of(t),
        order_type: t.as_i32(),
        tax_type: r.f.tax_type.trim().parse().unwrap_or(TaxType::default().as_i32()),
        customer_id: customer,
        warehouse_id: warehouse,
        editable: r.editable,
        sees_cost: sight.sees_cost(),
        field_name: "lines_json",
        lines: &lines,
        errors: &r.errors,
    };
    let editor = Island::new(state, EDITOR, &props).await;
    let today_ = today(auth.zone);
    // The customer's overdue amount as Xero's payments last said (issue 31), beside the balance.
    let overdue = match customer {
        Some(cid) => state.db.run(move |c| db::orders::overdue_by_customers(c, org, &[cid], today_)).await?.get(&cid).map(|a| a.grouped()).unwrap_or_default(),
        None => String::new(),
    };
    if !r.errors.is_empty() {
        let text = r.errors.values().next().cloned().unwrap_or_default();
        shell.flash = Some(crate::pages::shell::Flash { text, level: "error", ms: 3500 });
    }
    let (credit_limit, balance, remark) = match cust_info {
        Some(c) => (Cents(c.credit_limit).grouped(), Cents(c.xero_balance).grouped(), [c.note, c.attention].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" · ")),
        None => (String::new(), String::new(), String::new()),
    };
    // The staff the form names now: an id exactly as its option's value.
    let chosen = |field: &str| field.parse::<i64>().ok().filter(|id| id.to_string() == field);
    let (service, business) = (chosen(&r.f.csr_service_id), chosen(&r.f.csr_bd_id));
    let service_staff = staff.iter().filter(|e| listed_on_picker(e.is_active, e.id, service) && Role::from_i32(e.role).is_some_and(Role::is_staff_picker)).map(|e| (e.id, e.name.clone())).collect();
    let business_staff = staff.iter().filter(|e| listed_on_picker(e.is_active, e.id, business) && e.role == Role::Business.as_i32()).map(|e| (e.id, e.name.clone())).collect();
    Ok(FormPage {
        editor,
        shell,
        t,
        heading: r.heading,
        action: r.action,
        cancel: r.cancel,
        f: r.f,
        errors: r.errors,
        warehouses: warehouses.into_iter().map(|w| (w.id, w.name)).collect(),
        service_staff,
        business_staff,
        tags: Tag::options_for(t).into_iter().map(|g| (g.as_i32(), g.label())).collect(),
        ship_types: ShipType::ALL.iter().map(|s| (s.as_i32(), s.label())).collect(),
        tax_types: TaxType::ALL.iter().map(|s| (s.as_i32(), s.label())).collect(),
        open_pos,
        shortcuts: DateShortcut::ALL.iter().map(|k| (k.label(), date_shortcut(*k, today_).to_string())).collect(),
        cart_operation: r.cart_operation,
        credit_limit,
        balance,
        overdue,
        remark,
        starting: r.starting,
    })
}

/// The form again after a refused save, whole, with `status` (422, 409).
pub(super) async fn render(state: &AppState, auth: &Auth, r: Render, status: StatusCode) -> AppResult<Response> {
    let shell = Shell::new(state, auth, &r.heading, &list_path(r.t), &[EDITOR]).await?;
    let mut res = form_page(state, auth, shell, r).await?.into_response();
    *res.status_mut() = status;
    Ok(res)
}

/// Answers a form page (titled `heading`) to a GET, streamed (web/stream.rs): the head and
/// the shell go out before `render` reads what the form starts from and the choices are read.
pub(super) async fn respond<R>(state: &AppState, auth: &Auth, headers: &HeaderMap, t: OrderType, heading: &str, render: R) -> AppResult<Response>
where
    R: Future<Output = AppResult<Render>> + Send + 'static,
{
    let (st, au) = (state.clone(), auth.clone());
    stream::respond(state, auth, headers, heading, &list_path(t), &[EDITOR], move |shell| async move { form_page(&st, &au, shell, render.await?).await }).await
}
