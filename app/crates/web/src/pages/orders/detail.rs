//! Sheet detail (spec §2.6): read-only layout, tags, PREV/NEXT, Clone, the action buttons
//! the status machine allows, and the Date / Address / Driver / History dialogs.

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use serde::Deserialize;

use domain::enums::{code_label, delivery_text};
use crate::auth::Auth;
use db::masters::{Employee, Warehouse};
use db::order_views::{self, DetailLine, Sheet, SheetCustomer, SheetDetail};
use db::orders::{self as order_db, Event, Order};
use db::refs::Unchecked;
use domain::enums::{ActualPayType, AreaType, DeliveryStatus, DrafterType, OrderStatus, OrderType, PaymentType, PriceStrategy, Role, ShipType, Tag, TaxType, XeroState, print_label};
use domain::guard::{CONFIRM_QUESTION, CONFIRM_TITLE};
use domain::masters::listed_on_picker;
use domain::money::{Cents, Totals, TotalsOverflow};
use domain::status::{Action, SheetState, allowed, clone_targets};
use domain::permissions::{Sight, may_recall_or_batch_send};
use domain::sheet;
use db::error::{AppError, AppResult};
use services::delivery::{self as delivery_svc, DeliveryUpdate};
use services::orders::{self as svc, ApproveInput, Dates};
use domain::Actor;
use crate::state::AppState;
use domain::dates::{self as dates, Tz};
use crate::pages::shell::{Flash, Shell};
use crate::pages::stream;

/// A read-only header field.
pub struct Field {
    pub label: &'static str,
    pub value: String,
}

/// A line as the detail table shows it.
pub struct LineView {
    pub seq: i32,
    pub code: String,
    pub name: String,
    pub unit: String,
    pub qty: i64,
    pub in_wh: i64,
    pub in_sys: i64,
    pub price: String,
    pub amount: String,
    /// On a foreign purchase sheet: the supplier's unit price and amount in its currency
    /// (`price` and `amount` are then in AUD).
    pub fx_price: String,
    pub fx_amount: String,
    pub tax: &'static str,
    pub description: String,
    /// Negative stock left by an approved sheet, shown as a warning.
    pub warning: Option<String>,
    /// A tyre's DOT codes, 'DOT 2324 ×3, 1025 ×1' (issue 36); empty for none.
    pub dots: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "orders/detail.html")]
pub struct DetailPage {
    pub shell: Shell,
    pub o: Order,
    /// The sheet's `xero_sent` code (an unknown one reads Unsent).
    pub xero: XeroState,
    pub route: &'static str,
    pub type_label: &'static str,
    pub kind: &'static str,
    pub fields: Vec<Field>,
    /// The invoice a credit note credits: its number and detail page (issue 32).
    pub credit_for: Option<(String, String)>,
    pub lines: Vec<LineView>,
    /// Whether the money columns and total show (an adjustment's only with cost sight).
    pub show_money: bool,
    pub totals: Totals,
    /// A foreign purchase sheet's currency and its totals in it (issue 35).
    pub foreign: Option<(String, Totals)>,
    pub show_tax: bool,
    pub tags: Vec<(String, &'static str)>,
    /// PRINT / UnPrint for approved invoices and credit notes (spec §4).
    pub print_tag: Option<(&'static str, &'static str)>,
    pub printed_label: &'static str,
    pub delivery_statuses: Vec<(i32, &'static str)>,
    pub actual_pay_types: Vec<(i32, &'static str)>,
    pub can: HashMap<&'static str, bool>,
    pub clone_options: Vec<(&'static str, String)>,
    pub history: Vec<HistoryRow>,
    pub drivers: Vec<(i64, String)>,
    pub warehouses: Vec<(i64, String)>,
    pub ship_types: Vec<(i32, &'static str)>,
    pub approve_view: bool,
    pub due_label: Option<&'static str>,
    pub delivery_label: Option<&'static str>,
    pub csrf: String,
    /// The 'Email …' buttons and the sheet's e-mails (issue 33).
    pub email: crate::pages::email::SheetEmail,
    /// The printer 'Print' sends this sheet to (issue 33), when it may print and one is set up.
    pub printer: Option<String>,
    /// The sheet's stops on drivers' runs, with what the driver recorded (issue 34).
    pub proofs: Vec<crate::pages::driver::ProofLine>,
    /// Landed costs from or to this bill (issue 35).
    pub landed: crate::pages::landed::Section,
}

impl DetailPage {
    fn can(&self, key: &str) -> bool {
        self.can.get(key).copied().unwrap_or(false)
    }
    fn is_warehouse(&self, id: &i64) -> bool {
        self.o.warehouse_id == Some(*id)
    }
    fn is_driver(&self, id: &i64) -> bool {
        self.o.driver_id == Some(*id)
    }
    fn date_value(d: &Option<NaiveDate>) -> String {
        d.map(|d| d.to_string()).unwrap_or_default()
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "orders/confirm_approve.html")]
pub struct ConfirmFragment {
    pub id: i64,
    pub title: &'static str,
    pub message: String,
    pub question: &'static str,
    pub csrf: String,
    pub warehouse_id: String,
    pub ship_type: String,
    pub driver_id: String,
}

/// A row of the sheet's history: when (in the company's zone), who and what.
pub struct HistoryRow {
    /// `27 Nov 2026 07:11`.
    pub at: String,
    /// The `datetime` of its `<time>`: `2026-11-27T07:11:00+11:00`.
    pub at_iso: String,
    pub operator: String,
    pub action: String,
}

impl HistoryRow {
    fn new(e: &Event, zone: Tz) -> Self {
        Self { at: dates::date_time(e.created_at, zone), at_iso: dates::date_time_iso(e.created_at, zone), operator: e.operator.clone(), action: e.action.clone() }
    }
}

fn money(c: i64) -> String {
    Cents(c).grouped()
}

/// The balance kept on the sheet, and the customer's balance as last read from Xero with
/// the time it was read (in the company's `zone`).
fn balance_text(on_sheet: i64, now: Option<(i64, Option<chrono::NaiveDateTime>)>, zone: Tz) -> String {
    match now {
        Some((b, Some(at))) => format!("{} (Xero: {} as of {})", money(on_sheet), money(b), dates::date_time(at, zone)),
        _ => money(on_sheet),
    }
}

/// What Xero last said of the payments of a sent invoice (issue 31): its payment state, the
/// amounts paid and due, the day it was fully paid and when it was read (in the company's
/// `zone`, whose `today` it is).
fn payment_text(o: &db::orders::Order, today: NaiveDate, zone: Tz) -> String {
    let Some(at) = o.xero_payments_at.filter(|_| o.xero_sent == domain::enums::XeroState::Sent.as_i32()) else { return String::new() };
    let mut parts: Vec<String> = crate::pages::orders::list::payment_state(o, today).map(|p| p.label()).into_iter().collect();
    if let Some(paid) = o.xero_amount_paid.filter(|p| *p != 0) {
        parts.push(match o.xero_paid_on {
            Some(d) => format!("paid {} on {}", money(paid), dates::date(d)),
            None => format!("paid {}", money(paid)),
        });
    }
    if let Some(due) = o.xero_amount_due {
        parts.push(format!("due {}", money(due)));
    }
    format!("{} (Xero, as of {})", parts.join(" · "), dates::date_time(at, zone))
}

/// `GET /order_detail/{route}/{id}`, streamed (web/stream.rs): the sheet's type and number
/// are read before the page answers (404 for another company's sheet), the rest after.
pub async fn page(State(state): State<AppState>, auth: Auth, headers: HeaderMap, uri: axum::http::Uri, Path((route, id)): Path<(String, i64)>, Query(q): Query<DetailQuery>) -> AppResult<Response> {
    let org = auth.org_id;
    let head = state.db.run(move |c| order_views::head_of(c, org, id)).await?;
    let t = OrderType::from_i32(head.order_type).ok_or(AppError::NotFound)?;
    if let Some(to) = super::canonical("order_detail", &route, t, id, uri.query())? {
        return Ok(to.into_response());
    }
    let (st, au) = (state.clone(), auth.clone());
    stream::respond(&state, &auth, &headers, &format!("{} {}", t.label(), head.no), &format!("/{}", t.route_name()), &[], move |mut shell| async move {
        let detail = st.db.run(move |c| order_views::detail(c, org, id)).await?;
        refresh_stale_balance(&st, org, detail.sheet.order.customer_id).await?;
        shell.flash = q.flash();
        let mut page = DetailPage::new(shell, t, detail, &au)?;
        page.email = crate::pages::email::sheet_email(&st, &au, id, t, page.can("print")).await?;
        if let Some(e) = q.emailed.and_then(|e| page.email.history.iter().find(|h| h.id == e)) {
            page.shell.flash = Some(Flash { text: format!("Queued for e-mail to {}.", e.to), level: "success", ms: 5000 });
        }
        if page.can("print") {
            page.printer = services::printing::printer_of_sheet(&st, org, id).await?.map(|p| p.name);
        }
        if matches!(t, OrderType::Invoice | OrderType::CreditNote) {
            page.proofs = crate::pages::driver::proof_lines(&st, &au, id).await?;
        }
        page.landed = crate::pages::landed::section(&st, &au, t, &page.o).await?;
        Ok(page)
    })
    .await
}

/// Opening a sheet reads the customer's Xero balance again when it is stale (issue 12): the
/// check reads on a plain connection, so only a stale balance joins the writers' queue.
async fn refresh_stale_balance(state: &AppState, org: i64, customer: Option<i64>) -> AppResult<()> {
    let Some(cid) = customer else { return Ok(()) };
    let now = state.xero.clock.now();
    if state.db.run(move |c| services::xero::balance_is_stale(c, org, cid, now)).await? && state.db.write(move |c| services::xero::refresh_balance(c, org, cid, now)).await? {
        state.xero.bell.notify_one();
    }
    Ok(())
}

/// Names of staff and warehouses by id, as the header fields show them.
struct Names<'a> {
    staff: &'a [Employee],
    warehouses: &'a [Warehouse],
}

impl Names<'_> {
    fn staff(&self, id: Option<i64>) -> String {
        id.and_then(|i| self.staff.iter().find(|e| e.id == i)).map(|e| e.name.clone()).unwrap_or_default()
    }
    fn warehouse(&self, id: Option<i64>) -> String {
        id.and_then(|i| self.warehouses.iter().find(|w| w.id == i)).map(|w| w.name.clone()).unwrap_or_default()
    }
}

/// The read-only header fields of a sheet of type `t`.
fn header_fields(t: OrderType, sheet: &Sheet, names: &Names<'_>, zone: Tz) -> Vec<Field> {
    let o = &sheet.order;
    let mut fields = vec![Field { label: "Date", value: dates::date(o.order_date) }];
    let date_opt = |d: Option<NaiveDate>| d.map(dates::date).unwrap_or_default();
    match t {
        OrderType::Invoice | OrderType::CreditNote => {
            let SheetCustomer { name, code, note, attention, .. } = sheet.customer.clone().unwrap_or_default();
            let balance = sheet.customer.as_ref().map(|c| (c.xero_balance, c.xero_balance_at));
            fields.extend([
                Field { label: "TAG", value: Tag::from_i32(o.tag_id).map(Tag::label).unwrap_or("").into() },
                Field { label: "To CSR", value: if code.is_empty() { name } else { format!("{name} ({code})") } },
                Field { label: "CSR Remark", value: [note, attention].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" · ") },
                Field { label: sheet::delivery_date_label(t).unwrap_or_default(), value: date_opt(o.delivery_date) },
                Field { label: "Due Date", value: date_opt(o.due_date) },
                Field { label: "Address", value: o.address.clone() },
                Field { label: "Phone", value: o.phone.clone() },
                Field { label: "Reference", value: o.reference.clone() },
                Field { label: "Service Staff", value: names.staff(o.csr_service_id) },
                Field { label: "Business Staff", value: names.staff(o.csr_bd_id) },
                Field { label: "Credit Limit", value: money(o.csr_credit_limit) },
                Field { label: "Accounting Balance", value: balance_text(o.csr_xero_balance, balance, zone) },
                Field { label: "Xero Payment", value: if t == OrderType::Invoice { payment_text(o, dates::today(zone), zone) } else { String::new() } },
                Field { label: "Price Type", value: code_label(o.price_type, PriceStrategy::from_i32, PriceStrategy::label) },
                Field { label: "Payment Type", value: code_label(o.payment_type, PaymentType::from_i32, PaymentType::label) },
                Field { label: "Area Type", value: code_label(o.area_type, AreaType::from_i32, AreaType::label) },
                Field { label: "Warehouse", value: names.warehouse(o.warehouse_id) },
                Field { label: "Shipping Type", value: code_label(o.ship_type, ShipType::from_i32, ShipType::label) },
                Field { label: "Delivery", value: delivery_text(o.ship_type, o.delivery_status, &names.staff(o.driver_id)) },
                Field { label: "Driver Comment", value: o.delivery_comment.clone() },
                Field { label: "Actual Pay Type", value: code_label(o.actual_pay_type, ActualPayType::from_i32, ActualPayType::label) },
                Field { label: "Drafter", value: format!("{} {}", DrafterType::label_for_code(o.drafter_type), names.staff(o.drafter_id)).trim().to_string() },
                Field { label: "CSR Self Note", value: o.csr_self_note.clone() },
            ]);
        }
        OrderType::PurchaseOrder | OrderType::Bill | OrderType::BillCreditNote => {
            fields.extend([
                Field { label: "Supplier", value: sheet.supplier.clone().unwrap_or_default() },
                Field { label: "TAG", value: Tag::from_i32(o.tag_id).map(Tag::label).unwrap_or("").into() },
                Field { label: sheet::delivery_date_label(t).unwrap_or_default(), value: date_opt(o.delivery_date) },
                Field { label: "Due Date", value: date_opt(o.due_date) },
                Field { label: "Reference", value: o.reference.clone() },
                Field { label: "Warehouse", value: names.warehouse(o.warehouse_id) },
                Field { label: "Amount Tax Type", value: code_label(o.tax_type, TaxType::from_i32, TaxType::label) },
                Field { label: "Currency", value: o.currency.clone() },
            ]);
            if o.currency != domain::currency::AUD {
                fields.push(Field { label: "Exchange Rate", value: domain::currency::rate_text(&o.currency, domain::currency::Rate(o.exchange_rate)) });
            }
            if t == OrderType::PurchaseOrder {
                fields.push(Field { label: "Shipment", value: o.shipment_ref.clone() });
            }
        }
        OrderType::Transfer => fields.extend([
            Field { label: "OUT Warehouse", value: names.warehouse(o.warehouse_id) },
            Field { label: "IN Warehouse", value: names.warehouse(o.in_warehouse_id) },
        ]),
        OrderType::Adjustment => fields.push(Field { label: "Warehouse", value: names.warehouse(o.warehouse_id) }),
    }
    fields.push(Field { label: "Comments", value: o.comments.clone() });
    fields.push(Field { label: "Last Approver", value: match o.last_approved_at { Some(at) => format!("{} {}", names.staff(o.last_approver_id), dates::date_time(at, zone)), None => String::new() } });
    fields
}

/// A line of the detail table, with a warning where an approved sheet left negative stock;
/// its price and amount as `sight` may see them on a sheet of type `t`.
fn line_view(d: &DetailLine, t: OrderType, sight: Sight) -> LineView {
    let l = &d.line;
    let (code, name) = d.product.clone().unwrap_or_default();
    let shown = sight.line_money(t, Cents(l.price), Cents(l.amount));
    LineView {
        seq: l.seq,
        code,
        name,
        unit: l.unit.clone(),
        qty: l.quantity,
        in_wh: l.in_warehouse_qty,
        in_sys: l.in_system_qty,
        price: shown.map(|m| m.0.grouped()).unwrap_or_default(),
        amount: shown.map(|m| m.1.grouped()).unwrap_or_default(),
        fx_price: Cents(l.fx_price).grouped(),
        fx_amount: Cents(l.fx_amount).grouped(),
        tax: TaxType::from_i32(l.tax_type).map(TaxType::label).unwrap_or(""),
        description: l.description.clone(),
        warning: d.stock_now.filter(|s| *s < 0).map(|s| format!("Stock now {s}")),
        dots: domain::dot::codes_label(&d.lots),
    }
}

/// Which actions the status machine allows and the viewer may take, by the template's key.
fn allowed_actions(state_: &SheetState, auth: &Auth) -> HashMap<&'static str, bool> {
    let may_recall = may_recall_or_batch_send(auth.role, auth.is_acct);
    [
        ("approve", Action::Approve),
        ("unapprove", Action::UnApprove),
        ("void", Action::Void),
        ("close", Action::Close),
        ("send_xero", Action::SendXero),
        ("recall", Action::XeroRecall),
        ("print", Action::Print),
        ("mark", Action::ManualMark),
        ("edit_content", Action::EditContent),
        ("edit_date", Action::EditDate),
        ("edit_address", Action::EditAddress),
        ("edit_driver", Action::EditDriver),
        ("edit_delivery", Action::EditDelivery),
        ("clone", Action::Clone),
    ]
    .into_iter()
    .map(|(key, action)| (key, allowed(action, state_) && (action != Action::XeroRecall || may_recall)))
    .collect()
}

/// The status and Xero tags beside the title.
fn status_tags(t: OrderType, state_: &SheetState) -> Vec<(String, &'static str)> {
    let mut tags = vec![match state_.status {
        OrderStatus::Draft => ("Draft".to_string(), "tag-green"),
        OrderStatus::Approved => ("Approved".to_string(), "tag-grey"),
        OrderStatus::Voided => ("Voided".to_string(), "tag-red"),
        OrderStatus::Closed => ("Approved".to_string(), "tag-grey"),
    }];
    if state_.is_closed() {
        tags.push(("Closed".into(), "tag-grey"));
    }
    if t.syncs_to_xero() {
        let x = state_.xero;
        tags.push((format!("Xero {}", x.label()), if x.is_sent() { "tag-green" } else if x.is_failed() { "tag-red" } else { "tag-amber" }));
    }
    tags
}

impl DetailPage {
    /// The page of a sheet of type `t` from its [`SheetDetail`].
    fn new(shell: Shell, t: OrderType, d: SheetDetail, auth: &Auth) -> AppResult<Self> {
        let SheetDetail { sheet, lines, events, staff, warehouses, credit_for } = d;
        let names = Names { staff: &staff, warehouses: &warehouses };
        let fields = header_fields(t, &sheet, &names, auth.zone);
        let o = sheet.order;
        let state_ = SheetState {
            order_type: t,
            status: OrderStatus::from_i32(o.status).unwrap_or(OrderStatus::Draft),
            closed: o.closed,
            xero: XeroState::from_i32(o.xero_sent).unwrap_or_default(),
        };
        let tax = if t.has_tax() { TaxType::from_i32(o.tax_type).unwrap_or_default() } else { TaxType::NoTax };
        let totals = Totals::from_lines(lines.iter().map(|l| (l.line.quantity, Cents(l.line.amount))), tax).ok_or_else(|| anyhow::Error::new(TotalsOverflow(o.no.clone())))?;
        let foreign = if o.currency == domain::currency::AUD {
            None
        } else {
            let fx = Totals::from_lines(lines.iter().map(|l| (l.line.quantity, Cents(l.line.fx_amount))), tax).ok_or_else(|| anyhow::Error::new(TotalsOverflow(o.no.clone())))?;
            Some((o.currency.clone(), fx))
        };
        // Kept apart from the other tags: the print page updates it when printing completes.
        let print_tag = (matches!(t, OrderType::Invoice | OrderType::CreditNote) && state_.is_approved()).then(|| (print_label(o.printed), if o.printed { "tag-green" } else { "tag-grey" }));
        let clone_options = if allowed(Action::Clone, &state_) {
            clone_targets(t).into_iter().map(|(opt, target)| (opt.label(), format!("/order_add/{}/{}?from={}", target.route_name(), opt.operation(), o.id))).collect()
        } else {
            vec![]
        };
        let sight = auth.sight();
        let drivers = staff.iter().filter(|e| listed_on_picker(e.is_active, e.id, o.driver_id) && e.role == Role::Driver.as_i32()).map(|e| (e.id, e.name.clone())).collect();
        let csrf = shell.csrf.clone();
        Ok(DetailPage {
            shell,
            route: t.route_name(),
            type_label: t.label(),
            kind: match t {
                OrderType::Transfer => "transfer",
                OrderType::Adjustment => "adjustment",
                _ => "money",
            },
            fields,
            credit_for: credit_for.map(|(id, no)| (no, format!("/order_detail/{}/{id}", OrderType::Invoice.route_name()))),
            lines: lines.iter().map(|l| line_view(l, t, sight)).collect(),
            show_money: sight.sees_money(t),
            totals,
            foreign,
            show_tax: t.has_tax(),
            tags: status_tags(t, &state_),
            print_tag,
            printed_label: print_label(true),
            delivery_statuses: {
                let ship = ShipType::from_i32(o.ship_type).unwrap_or(ShipType::Delivery);
                DeliveryStatus::ALL.iter().map(|d| (d.as_i32(), d.wording(ship))).collect()
            },
            actual_pay_types: ActualPayType::ALL.iter().map(|p| (p.as_i32(), p.label())).collect(),
            can: {
                let mut can = allowed_actions(&state_, auth);
                // The PO as the supplier sees it: for staff who may see purchase prices (issue 33).
                can.insert("po_pdf", t == OrderType::PurchaseOrder && sight.sees_cost() && state_.status != OrderStatus::Voided);
                can
            },
            clone_options,
            history: events.iter().map(|e| HistoryRow::new(e, auth.zone)).collect(),
            drivers,
            warehouses: warehouses.iter().map(|w| (w.id, w.name.clone())).collect(),
            ship_types: ShipType::ALL.iter().map(|s| (s.as_i32(), s.label())).collect(),
            approve_view: matches!(t, OrderType::Invoice | OrderType::CreditNote),
            due_label: sheet::has_due_date(t).then_some("Due Date"),
            delivery_label: sheet::delivery_date_label(t).filter(|_| sheet::delivery_date_editable(t)),
            csrf,
            email: Default::default(),
            printer: None,
            proofs: Vec::new(),
            landed: Default::default(),
            xero: state_.xero,
            o,
        })
    }
}

#[derive(Deserialize, Default)]
pub struct DetailQuery {
    ok: Option<String>,
    nomore: Option<String>,
    /// An e-mail just queued from this page: the page says to whom.
    emailed: Option<i64>,
}

impl DetailQuery {
    fn flash(&self) -> Option<Flash> {
        if self.nomore.is_some() {
            return Some(Flash { text: "No more data to load".into(), level: "warning", ms: 5000 });
        }
        self.ok.as_ref().map(|_| Flash { text: "Operation successful".into(), level: "success", ms: 3500 })
    }
}

#[derive(Deserialize)]
pub struct NavQuery {
    dir: Option<String>,
}

/// `GET /order_nav/{id}?dir=prev|next`: the neighbouring sheet of any type.
pub async fn navigate(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>, Query(q): Query<NavQuery>) -> AppResult<Response> {
    let org = auth.org_id;
    let forward = q.dir.as_deref() != Some("prev");
    let (current_type, next) = state.db.run(move |c| order_views::neighbour(c, org, id, forward)).await?;
    let route = |t: i32| OrderType::from_i32(t).map(OrderType::route_name).unwrap_or("invoices");
    Ok(match next {
        Some((nid, t)) => Redirect::to(&format!("/order_detail/{}/{nid}", route(t))),
        None => Redirect::to(&format!("/order_detail/{}/{id}?nomore=1", route(current_type))),
    }
    .into_response())
}

/// Fields any action form may carry (empty strings mean absent).
#[derive(Deserialize, Default)]
pub struct ActionForm {
    #[serde(default)]
    warehouse_id: String,
    #[serde(default)]
    ship_type: String,
    #[serde(default)]
    driver_id: String,
    #[serde(default)]
    confirmed: String,
    #[serde(default)]
    date: String,
    #[serde(default)]
    due_date: String,
    #[serde(default)]
    delivery_date: String,
    #[serde(default)]
    address: String,
    #[serde(default)]
    phone: String,
    #[serde(default)]
    delivery_status: String,
    #[serde(default)]
    delivery_comment: String,
    #[serde(default)]
    actual_pay_type: String,
}

fn num<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.trim().parse().ok()
}

fn day(field: &str, s: &str) -> AppResult<Option<NaiveDate>> {
    if s.trim().is_empty() {
        return Ok(None);
    }
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d").map(Some).map_err(|_| AppError::field(field, "Enter the date as dd/mm/yyyy."))
}

/// `POST /order_action/{id}/{action}`: one action of the detail page. htmx callers get an
/// `HX-Redirect` back to the reloaded sheet ('Operation successful'); role 4 gets the
/// 'Confirm Approve' dialog when the approval guard asks.
pub async fn act(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path((id, action)): Path<(i64, String)>, Form(f): Form<ActionForm>) -> AppResult<Response> {
    let actor = Actor::from(&auth);
    let result: AppResult<()> = match action.as_str() {
        "approve" => {
            let input = ApproveInput { warehouse_id: num(&f.warehouse_id).map(Unchecked::new), ship_type: num(&f.ship_type), driver_id: num(&f.driver_id).map(Unchecked::new), confirmed: f.confirmed == "1" };
            svc::approve_then_email(&state, &actor, id, input).await.map(|_| ())
        }
        "unapprove" => state.db.write(move |c| svc::unapprove(c, &actor, id)).await,
        "void" => state.db.write(move |c| svc::void(c, &actor, id)).await,
        "close" => state.db.write(move |c| svc::close(c, &actor, id)).await,
        "mark" => state.db.write(move |c| svc::mark_printed(c, &actor, id, Action::ManualMark, "Printed (Manual Mark)")).await,
        "send_xero" | "recall" => {
            let xa = if action == "send_xero" { Action::SendXero } else { Action::XeroRecall };
            let now = state.xero.clock.now();
            let done = state.db.write(move |c| services::xero::request(c, &actor, id, xa, now)).await;
            state.xero.bell.notify_one();
            done
        }
        "date" => {
            let d = Dates { date: day("date", &f.date)?, due_date: day("due_date", &f.due_date)?, delivery_date: day("delivery_date", &f.delivery_date)? };
            state.db.write(move |c| svc::set_dates(c, &actor, id, &d)).await
        }
        "address" => {
            let (a, p) = (f.address.clone(), f.phone.clone());
            state.db.write(move |c| svc::set_address(c, &actor, id, &a, &p)).await
        }
        "driver" => {
            let d = num(&f.driver_id).map(Unchecked::new);
            state.db.write(move |c| svc::assign_driver(c, &actor, id, d)).await
        }
        "delivery" => {
            let u = DeliveryUpdate::parse(num(&f.delivery_status), &f.delivery_comment, num(&f.actual_pay_type))?;
            state.db.write(move |c| delivery_svc::set_delivery(c, &actor, id, &u)).await
        }
        _ => Err(AppError::NotFound),
    };
    let is_htmx = headers.contains_key("hx-request");
    match result {
        Ok(()) => {
            let org = auth.org_id;
            let t = state.db.run(move |c| order_db::get(c, org, id)).await?.order_type;
            let route = OrderType::from_i32(t).map(OrderType::route_name).unwrap_or("invoices");
            let url = format!("/order_detail/{route}/{id}?ok=1");
            if is_htmx {
                let mut res = axum::http::StatusCode::NO_CONTENT.into_response();
                if let Ok(v) = HeaderValue::from_str(&url) {
                    res.headers_mut().insert("hx-redirect", v);
                }
                Ok(res)
            } else {
                Ok(Redirect::to(&url).into_response())
            }
        }
        Err(AppError::Conflict { message, code: Some("confirm_approve"), .. }) => Ok(ConfirmFragment {
            id,
            title: CONFIRM_TITLE,
            message,
            question: CONFIRM_QUESTION,
            csrf: auth.session.map(|s| s.csrf).unwrap_or_default(),
            warehouse_id: f.warehouse_id,
            ship_type: f.ship_type,
            driver_id: f.driver_id,
        }
        .into_response()),
        Err(e) => Err(e),
    }
}
