//! The sheet lists: filters and columns per kind (spec §2.4), delivery wording (spec §4),
//! '+ New' buttons, View in a new tab, and the `orders.xlsx` export.


use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;

use super::{SheetRoute, sheet_route};
use crate::auth::Auth;
use db::order_views::{self, ListPage, Names};
use db::orders::{self, OrderFilter, OrderRow};
use domain::enums::{ActualPayType, AreaType, DeliveryStatus, DrafterType, OrderSort, OrderStatus, OrderType, ShipType, Tag, closure_label, delivery_text, print_label};
use domain::money::Cents;
use domain::permissions::Sight;
use domain::status::Action;
use db::error::{AppError, AppResult};
use services::orders::ensure;
use crate::state::AppState;
use crate::http::query::Filters;
use crate::pages::list::{Cell, Column, EMPTY_NO_DATA, Filter, FilterKind, ListView, NewButton, Pager, Results, Selection, current, export_url, options_with_all};
use crate::pages::masters::respond;
use crate::pages::products::{xero_options, xero_tag};
use crate::http::download;
use services::exports;

/// Which set of filters and columns a list uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Sales,
    PurchaseOrders,
    Bills,
    Transfers,
    Adjustments,
}

fn family(r: &SheetRoute) -> Family {
    match r.types[0] {
        OrderType::Invoice | OrderType::CreditNote => Family::Sales,
        OrderType::PurchaseOrder => Family::PurchaseOrders,
        OrderType::Bill | OrderType::BillCreditNote => Family::Bills,
        OrderType::Transfer => Family::Transfers,
        OrderType::Adjustment => Family::Adjustments,
    }
}

fn status_tag(o: &orders::Order) -> Cell {
    match OrderStatus::from_i32(o.status) {
        Some(OrderStatus::Draft) => Cell::Tag { label: "Draft".into(), class: "tag-green" },
        Some(OrderStatus::Approved) => Cell::Tag { label: "Approved".into(), class: "tag-blue" },
        Some(OrderStatus::Voided) => Cell::Tag { label: "Voided".into(), class: "tag-red" },
        Some(OrderStatus::Closed) => Cell::Tag { label: "Closed".into(), class: "tag-grey" },
        None => Cell::Text(String::new()),
    }
}

/// The list's delivery cell: a compact status tag; its tooltip has the status and driver, then
/// the actual pay type once paid and the driver's comment, so a run sheet can be followed.
fn delivery_cell(o: &orders::Order, driver: &str) -> Cell {
    let ship = ShipType::from_i32(o.ship_type).unwrap_or(ShipType::Delivery);
    let status = DeliveryStatus::from_i32(o.delivery_status);
    let label = status.map(|d| d.wording(ship)).unwrap_or("").to_string();
    let class = match status {
        Some(DeliveryStatus::Finished) => "tag-green",
        Some(DeliveryStatus::Cancelled) => "tag-red",
        Some(DeliveryStatus::Ready | DeliveryStatus::Delivering) => "tag-blue",
        Some(DeliveryStatus::Preparing) | None => "tag-grey",
    };
    Cell::TagTip { label, class, title: delivery_tooltip(o, driver) }
}

fn delivery_tooltip(o: &orders::Order, driver: &str) -> String {
    let mut text = delivery_text(o.ship_type, o.delivery_status, driver);
    if let Some(pay) = ActualPayType::from_i32(o.actual_pay_type).filter(|p| *p != ActualPayType::Unpaid) {
        text.push_str(" · ");
        text.push_str(pay.label());
    }
    let comment = o.delivery_comment.trim();
    if !comment.is_empty() {
        text.push_str(" · ");
        text.push_str(comment);
    }
    text
}

/// Batch printing from the invoice and credit note lists: a checkbox on every sheet that may
/// print (spec §4), sent to `/order_print/batch` with the chosen variant.
fn print_selection(rows: &[OrderRow], printer: Option<String>) -> Selection {
    Selection {
        printer,
        action: "/order_print/batch",
        name: "ids",
        label: "Print selected",
        choices: vec![("variant", "standard", "Standard"), ("variant", "noprice", "Without Price")],
        rows: rows.iter().map(|r| ensure(&r.order, Action::Print).is_ok().then(|| (r.order.id.to_string(), r.order.no.clone()))).collect(),
    }
}

fn type_tag(o: &orders::Order) -> Cell {
    let t = OrderType::from_i32(o.order_type);
    let label = t.map(OrderType::number_prefix).unwrap_or("?").to_string();
    let class = match t {
        Some(OrderType::CreditNote | OrderType::BillCreditNote) => "tag-amber",
        _ => "tag-blue",
    };
    Cell::Tag { label, class }
}

fn view_link(o: &orders::Order) -> Cell {
    let route = OrderType::from_i32(o.order_type).map(OrderType::route_name).unwrap_or("invoices");
    Cell::Link { label: "View".into(), href: format!("/order_detail/{route}/{}", o.id), new_tab: true }
}

fn money(c: i64) -> Cell {
    Cell::Num(Cents(c).grouped())
}

/// The columns of a list; an adjustment's Amount only with cost sight (valued at cost).
fn columns(fam: Family, sight: Sight) -> Vec<Column> {
    let t = Column::text;
    let n = Column::num;
    match fam {
        Family::Sales => vec![
            t("No."), t("Type"), t("Reference"), t("Customer"), n("Qty"), n("Amount"), t("Date"), t("Dispatch"), t("Drafter"), t("Last Approver"),
            t("Delivery"), t("Area / Ship"), t("Status"), t("Print"), t("Xero"), t("Action"),
        ],
        Family::PurchaseOrders => vec![t("No."), t("Supplier"), t("Reference"), t("Shipment"), t("Warehouse"), n("Qty"), n("Amount"), t("Date"), t("ETA Date"), t("Status"), t("Closure"), t("Action")],
        Family::Bills => vec![t("No."), t("Type"), t("Supplier"), t("Reference"), t("Warehouse"), n("Qty"), n("Amount"), t("Date"), t("Due Date"), t("Status"), t("Xero"), t("Action")],
        Family::Transfers => vec![t("No."), t("Date"), t("OUT Warehouse"), t("IN Warehouse"), n("Qty"), t("Status"), t("Action")],
        Family::Adjustments if sight.sees_cost() => vec![t("No."), t("Date"), t("Warehouse"), n("Qty"), n("Amount"), t("Status"), t("Action")],
        Family::Adjustments => vec![t("No."), t("Date"), t("Warehouse"), n("Qty"), t("Status"), t("Action")],
    }
}

/// The Xero cell of a sales sheet: the Xero Sent state, and beside it the payment state
/// Xero last gave a sent invoice (Paid, Part paid, Overdue N days; issue 31).
fn xero_cell(o: &orders::Order, today: chrono::NaiveDate) -> Cell {
    let sent = xero_tag(o.xero_sent);
    match (payment_state(o, today), sent) {
        (Some(p), Cell::Tag { label, class }) => Cell::TagPair { label, class, second: p.label(), second_class: tone_class(p) },
        (_, sent) => sent,
    }
}

/// The payment state of a sheet's invoice as Xero last said it, when it is a sent invoice.
pub(crate) fn payment_state(o: &orders::Order, today: chrono::NaiveDate) -> Option<domain::payments::PaymentState> {
    let sent_invoice = o.order_type == OrderType::Invoice.as_i32() && o.xero_sent == domain::enums::XeroState::Sent.as_i32();
    sent_invoice.then(|| domain::payments::payment_state(o.xero_amount_due.map(Cents), o.xero_amount_paid.map(Cents), o.due_date.unwrap_or(o.order_date), today)).flatten()
}

/// The tag class of a payment state.
pub(crate) fn tone_class(p: domain::payments::PaymentState) -> &'static str {
    match p.tone() {
        "green" => "tag-green",
        "amber" => "tag-amber",
        _ => "tag-red",
    }
}

/// The self-order view shows the customer's note beside the customer.
const NOTE_AT: usize = 4;

fn with_note_column(mut columns: Vec<Column>) -> Vec<Column> {
    columns.insert(NOTE_AT, Column::text("Customer Note"));
    columns
}

fn with_note_cell(mut cells: Vec<Cell>, r: &OrderRow) -> Vec<Cell> {
    cells.insert(NOTE_AT, Cell::clip_narrow(r.order.csr_self_note.clone()));
    cells
}

/// The drafter: the staff member's name (their drafter type in the tooltip), or the drafter
/// type alone for a customer's own order.
fn drafter_cell(o: &orders::Order, names: &Names) -> Cell {
    let kind = DrafterType::label_for_code(o.drafter_type);
    match names.staff(o.drafter_id) {
        name if name.is_empty() && o.drafter_type == DrafterType::Customer.as_i32() => Cell::clip_narrow_titled("Self-order", kind),
        name if name.is_empty() => Cell::clip_narrow(kind),
        name => Cell::clip_narrow_titled(name.clone(), format!("{kind} {name}")),
    }
}

fn row(fam: Family, r: &OrderRow, names: &Names, sight: Sight, today: chrono::NaiveDate, zone: domain::dates::Tz) -> Vec<Cell> {
    let o = &r.order;
    let amount = || o.amount_for(sight).map_or(Cell::Text(String::new()), money);
    let no = Cell::Text(o.no.clone());
    let supplier = Cell::Name(r.supplier.clone().unwrap_or_default());
    match fam {
        Family::Sales => {
            let approver = match (names.staff(o.last_approver_id), o.last_approved_at) {
                (n, Some(at)) if !n.is_empty() => Cell::clip_narrow_titled(n.clone(), format!("{n} {}", domain::dates::date_time(at, zone))),
                _ => Cell::Text(String::new()),
            };
            let area = o.area_type.and_then(AreaType::from_i32).map(AreaType::label).unwrap_or("");
            let ship = ShipType::from_i32(o.ship_type).map(ShipType::label).unwrap_or("");
            vec![
                no,
                type_tag(o),
                Cell::clip_narrow(o.reference.clone()),
                Cell::Name(r.customer.clone().unwrap_or_default()),
                Cell::Num(o.total_qty.to_string()),
                amount(),
                Cell::date(o.order_date),
                Cell::date_opt(o.delivery_date),
                drafter_cell(o, names),
                approver,
                delivery_cell(o, &names.staff(o.driver_id)),
                Cell::clip_narrow(format!("{area} / {ship}")),
                status_tag(o),
                if o.printed { Cell::Tag { label: print_label(true).into(), class: "tag-green" } } else { Cell::Tag { label: print_label(false).into(), class: "tag-grey" } },
                xero_cell(o, today),
                view_link(o),
            ]
        }
        Family::PurchaseOrders => vec![
            no,
            supplier,
            Cell::Text(o.reference.clone()),
            Cell::clip_narrow(o.shipment_ref.clone()),
            Cell::Text(names.warehouse(o.warehouse_id)),
            Cell::Num(o.total_qty.to_string()),
            amount(),
            Cell::date(o.order_date),
            Cell::date_opt(o.delivery_date),
            status_tag(o),
            Cell::Text(closure_label(o.closed).into()),
            view_link(o),
        ],
        Family::Bills => vec![
            no,
            type_tag(o),
            supplier,
            Cell::Text(o.reference.clone()),
            Cell::Text(names.warehouse(o.warehouse_id)),
            Cell::Num(o.total_qty.to_string()),
            amount(),
            Cell::date(o.order_date),
            Cell::date_opt(o.due_date),
            status_tag(o),
            xero_tag(o.xero_sent),
            view_link(o),
        ],
        Family::Transfers => vec![
            no,
            Cell::date(o.order_date),
            Cell::Text(names.warehouse(o.warehouse_id)),
            Cell::Text(names.warehouse(o.in_warehouse_id)),
            Cell::Num(o.total_qty.to_string()),
            status_tag(o),
            view_link(o),
        ],
        Family::Adjustments => {
            let mut cells = vec![no, Cell::date(o.order_date), Cell::Text(names.warehouse(o.warehouse_id)), Cell::Num(o.total_qty.to_string())];
            cells.extend(o.amount_for(sight).map(money));
            cells.extend([status_tag(o), view_link(o)]);
            cells
        }
    }
}

/// The types a list's Type filter offers and its query accepts: the invoice and credit-note
/// lists both offer invoices and credit notes (spec §2.4), each defaulting to its own type
/// (spec §9); the other lists offer their own types.
fn type_choices(r: &SheetRoute) -> &'static [OrderType] {
    match family(r) {
        Family::Sales => &[OrderType::Invoice, OrderType::CreditNote],
        _ => r.types,
    }
}

fn filters(fam: Family, r: &SheetRoute, pairs: &[(String, String)], names: &Names, csr_view: bool) -> Vec<Filter> {
    let text = |label, name, placeholder| Filter { label, name, kind: FilterKind::Text { value: current(pairs, name), placeholder, suggestions: vec![] } };
    let select = |label, name, options| Filter { label, name, kind: FilterKind::Select { options, selected: current(pairs, name) } };
    let date = |label, name| Filter { label, name, kind: FilterKind::Date { value: current(pairs, name) } };
    let statuses = options_with_all(OrderStatus::ALL.iter().filter(|s| s.in_filter()).map(|s| (s.as_i32(), s.label())));
    let warehouses = options_with_all(names.warehouse_options.iter().cloned());
    let sorts: Vec<(String, String)> = OrderSort::ALL.iter().map(|s| (s.as_i32().to_string(), s.label().to_string())).collect();
    let tags = options_with_all(Tag::options_for(r.types[0]).into_iter().map(|t| (t.as_i32(), t.label())));
    let type_select = |types: &[OrderType]| -> Filter {
        let mut f = select("Type", "type", types.iter().map(|t| (t.as_i32().to_string(), t.label().to_string())).collect());
        if let FilterKind::Select { selected, .. } = &mut f.kind
            && (selected.is_empty() || csr_view)
        {
            *selected = r.types[0].as_i32().to_string();
        }
        f
    };
    match fam {
        Family::Sales => {
            let mut v = vec![type_select(type_choices(r))];
            let deliver = options_with_all(DeliveryStatus::ALL.iter().map(|d| {
                let value = if *d == DeliveryStatus::Preparing { "deliver preparing".to_string() } else { d.as_i32().to_string() };
                (value, d.label())
            }));
            let print = options_with_all([("printed", print_label(true)), ("unprinted", print_label(false))]);
            let drafters = options_with_all(DrafterType::FILTER.iter().map(|d| (d.as_i32(), d.label())));
            let csr_status = options_with_all([("awaiting", "Awaiting Staff"), ("taken", "Taken (due date set)"), ("done", "Done")]);
            v.extend([
                text("Number", "no", "e.g. INV-000123"),
                text("To CSR", "csr", "customer name or ABN"),
                date("Date From", "from"),
                date("Date To", "to"),
                date("Due Date From", "due_from"),
                date("Due Date To", "due_to"),
                select("TAG", "tag", tags),
                text("Reference", "reference", ""),
                select("Drafter Type", "drafter_type", drafters),
                text("Product Inside", "product", "code, size or name"),
                select("Warehouse", "warehouse", warehouses),
                select("Sort Type", "sort", sorts),
                select("Deliver Status", "delivery_status", deliver),
                select("Status", "status", statuses),
                select("Print", "print", print),
                select("Xero Sent", "xero", xero_options()),
                select("CSR Order Status", "csr_status", csr_status),
            ]);
            v
        }
        Family::PurchaseOrders => vec![
            text("Number", "no", "e.g. PO-000123"),
            text("Supplier", "supplier", "supplier name"),
            date("Date From", "from"),
            date("Date To", "to"),
            date("ETA From", "eta_from"),
            date("ETA To", "eta_to"),
            text("Product Inside", "product", "code, size or name"),
            select("Warehouse", "warehouse", warehouses),
            select("Sort Type", "sort", sorts),
            select("Status", "status", statuses),
            select("Closure", "closure", options_with_all([("closed", closure_label(true)), ("unclosed", closure_label(false))])),
        ],
        Family::Bills => {
            let mut v = vec![];
            if r.types.len() > 1 {
                v.push(type_select(r.types));
            }
            v.extend([
                text("Number", "no", ""),
                text("Supplier", "supplier", "supplier name"),
                date("Date From", "from"),
                date("Date To", "to"),
                date("Due Date From", "due_from"),
                date("Due Date To", "due_to"),
                text("Reference", "reference", ""),
                text("Product Inside", "product", "code, size or name"),
                select("Warehouse", "warehouse", warehouses),
                select("Sort Type", "sort", sorts),
                select("Status", "status", statuses),
                select("Xero Sent", "xero", xero_options()),
            ]);
            v
        }
        Family::Transfers => vec![
            text("Number", "no", "e.g. TR-000012"),
            date("Date From", "from"),
            date("Date To", "to"),
            select("OUT Warehouse", "warehouse", warehouses.clone()),
            select("IN Warehouse", "in_warehouse", warehouses),
            select("Status", "status", statuses),
            text("Product Inside", "product", "code, size or name"),
        ],
        Family::Adjustments => vec![
            text("Number", "no", "e.g. ADJ-000012"),
            date("Date From", "from"),
            date("Date To", "to"),
            select("Warehouse", "warehouse", warehouses),
            select("Status", "status", statuses),
            text("Product Inside", "product", "code, size or name"),
        ],
    }
}

/// `GET /{route}` for the seven sheet lists.
pub async fn list(State(state): State<AppState>, auth: Auth, headers: HeaderMap, Path(route): Path<String>, mut f: Filters<OrderFilter>) -> AppResult<Response> {
    let r = sheet_route(&route).ok_or(AppError::NotFound)?;
    let fam = family(r);
    let csr_view = f.value.order_type.as_deref() == Some("csr");
    if csr_view {
        // The customer self-order view (spec §2.1 `?type=csr`): customer drafts awaiting staff.
        f.value.order_type = None;
        f.value.drafter_type = Some(DrafterType::Customer.as_i32());
        f.value.csr_status.get_or_insert_with(|| "awaiting".into());
        f.pairs.retain(|(k, _)| k != "type");
        for (k, v) in [("drafter_type", "3"), ("csr_status", "awaiting")] {
            if !f.pairs.iter().any(|(pk, _)| pk == k) {
                f.pairs.push((k.into(), v.into()));
            }
        }
    }
    let types: Vec<i32> = if csr_view { vec![OrderType::Invoice.as_i32()] } else { type_choices(r).iter().map(|t| t.as_i32()).collect() };
    let offered = f.value.order_type.as_deref().and_then(|t| t.parse::<i32>().ok()).is_some_and(|t| types.contains(&t));
    if !offered && !csr_view {
        // The default type value of the list (spec §9): invoices 1, credit notes 2, bills 4 …,
        // also in place of a type the list does not offer.
        f.value.order_type = Some(r.types[0].as_i32().to_string());
    }
    let org = auth.org_id;
    if f.export {
        return match exports::orders_or_job(&state, auth.asker(), auth.sight(), types, f.value).await? {
            exports::SheetsExport::File(written) => download::xlsx("orders.xlsx", written).await,
            // Too many to wait for: the page goes to the Download Center, which lists the job.
            exports::SheetsExport::Queued(_) => crate::pages::redirect_with_notice(&state, &auth, "/reports_download", "success", domain::exports::queued_message(state.export_direct_max)).await,
        };
    }
    let path: &'static str = match r.route {
        "invoices" => "/invoices",
        "credit_notes" => "/credit_notes",
        "purchase_orders" => "/purchase_orders",
        "bills" => "/bills",
        "bill_credit_notes" => "/bill_credit_notes",
        "transfers" => "/transfers",
        _ => "/adjustments",
    };
    let (db, sight, today, zone) = (state.db.clone(), auth.sight(), domain::dates::today(auth.zone), auth.zone);
    respond(&state, &auth, &headers, r.title, path, &[], async move {
        let req = f.paging.resolve(r.page_size);
        let filter = f.value.clone();
        let over = db.over_cap();
        let ListPage { names, page } = db.run(move |c| order_views::list_page(c, &over, org, &types, &filter, req.offset(), req.per_page)).await?;
        let printer = if fam == Family::Sales { db.run(move |c| services::printing::printer_for(c, org, services::printing::Choice::Selection)).await?.map(|p| p.name) } else { None };
        let names = Names::from(names);
        let view = ListView {
            heading: if csr_view { "Customer Self-Orders" } else { r.title },
            path,
            new_buttons: r.new_buttons.iter().map(|(label, href)| NewButton { label, href }).collect(),
            filters: Some(filters(fam, r, &f.pairs, &names, csr_view)),
            results: Results {
                columns: if csr_view { with_note_column(columns(fam, sight)) } else { columns(fam, sight) },
                rows: page.rows.iter().map(|row_| if csr_view { with_note_cell(row(fam, row_, &names, sight, today, zone), row_) } else { row(fam, row_, &names, sight, today, zone) }).collect(),
                pager: Some(Pager::new(path, f.pairs.clone(), req, page.total)),
                empty_text: EMPTY_NO_DATA,
                export_url: Some(export_url(path, &f.pairs)),
                selection: (fam == Family::Sales).then(|| print_selection(&page.rows, printer)),
            },
        };
        Ok(view)
    })
    .await
}

