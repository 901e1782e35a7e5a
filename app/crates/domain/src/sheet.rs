//! Validation of a sheet as typed (spec §2.5, §5): which header fields each kind needs,
//! line quantities and prices, and the totals. HTML forms and the JSON API share it.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::enums::{OrderType, ShipType, Tag, TaxType};
use super::limits::{self, ADDRESS_MAX, COMMENT_MAX, DESCRIPTION_MAX, LINES_MAX, PHONE_MAX, SHORT_MAX, Text};
use super::money::{Cents, Totals, line_amount};
use super::validate::{NOT_LISTED, REQUIRED, parse_line_price, parse_line_qty, parse_signed_qty};

/// Message when a sheet has no product line.
pub const NO_LINES: &str = "Add at least one line with a product.";
/// Message when a transfer moves stock into the warehouse it comes from.
pub const SAME_WAREHOUSE: &str = "The IN warehouse must differ from the OUT warehouse.";

/// A line as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineDraft {
    pub product_id: Option<i64>,
    pub qty: String,
    pub price: String,
    pub description: String,
    pub tax_type: i32,
    pub in_warehouse_qty: String,
    pub in_system_qty: String,
    /// A tyre's DOT code as typed ('2325'; issue 36), empty for none.
    pub dot: String,
    /// The product's code as typed on a line whose product was not picked (a sheet form sent
    /// before the line editor's code arrived, issue 37); the save looks it up in the company.
    pub code: String,
}

/// The header fields whose presence depends on the kind.
#[derive(Debug, Clone, Default)]
pub struct SheetDraft {
    pub order_type: Option<OrderType>,
    pub customer_id: Option<i64>,
    pub supplier_id: Option<i64>,
    pub warehouse_id: Option<i64>,
    pub in_warehouse_id: Option<i64>,
    pub tax_type: i32,
    pub lines: Vec<LineDraft>,
    /// The company's today, which a DOT code may not be after.
    pub today: NaiveDate,
}

/// The header fields every kind shares, as received, for [`check_header`].
#[derive(Debug, Clone, Default)]
pub struct HeaderDraft<'a> {
    pub tag_id: i32,
    pub tax_type: i32,
    pub ship_type: Option<i32>,
    pub date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
    pub address: &'a str,
    pub phone: &'a str,
    pub reference: &'a str,
    pub comments: &'a str,
    pub csr_self_note: &'a str,
}

/// Checks the header's codes, dates and texts against their ranges (docs/decisions/screens.md, "Forms, input and messages").
pub fn check_header(t: OrderType, h: &HeaderDraft<'_>) -> FieldErrors {
    let mut errors = FieldErrors::new();
    if !Tag::from_i32(h.tag_id).is_some_and(|tag| tag.visible_for(t)) {
        errors.insert("tag_id".into(), NOT_LISTED.into());
    }
    if TaxType::from_i32(h.tax_type).is_none() {
        errors.insert("tax_type".into(), NOT_LISTED.into());
    }
    if h.ship_type.is_some_and(|s| ShipType::from_i32(s).is_none()) {
        errors.insert("ship_type".into(), NOT_LISTED.into());
    }
    for (field, date) in [("date", h.date), ("due_date", h.due_date), ("delivery_date", h.delivery_date)] {
        if let Some(Err(m)) = date.map(limits::check_date) {
            errors.insert(field.into(), m.into());
        }
    }
    let texts = [
        ("address", h.address.trim(), Text::Lines(ADDRESS_MAX)),
        ("phone", h.phone.trim(), Text::Line(PHONE_MAX)),
        ("reference", h.reference.trim(), Text::Line(SHORT_MAX)),
        ("comments", h.comments.trim(), Text::Lines(COMMENT_MAX)),
        ("csr_self_note", h.csr_self_note.trim(), Text::Lines(COMMENT_MAX)),
    ];
    errors.extend(limits::check_texts(texts));
    errors
}

/// Whether a sheet of type `t` has a due date: invoices, credit notes, bills and bill
/// credit notes (spec §2.6, Edit Date: types 1, 2, 4, 5).
pub const fn has_due_date(t: OrderType) -> bool {
    matches!(t, OrderType::Invoice | OrderType::CreditNote | OrderType::Bill | OrderType::BillCreditNote)
}

/// The label of a sheet's delivery date (spec §2.5): Dispatch Date on invoices, Pickup Date
/// on credit notes, ETA Date on purchase orders, bills and bill credit notes; transfers and
/// adjustments have none.
pub const fn delivery_date_label(t: OrderType) -> Option<&'static str> {
    match t {
        OrderType::Invoice => Some("Dispatch Date"),
        OrderType::CreditNote => Some("Pickup Date"),
        OrderType::PurchaseOrder | OrderType::Bill | OrderType::BillCreditNote => Some("ETA Date"),
        OrderType::Transfer | OrderType::Adjustment => None,
    }
}

/// Whether the Edit Date dialog changes the delivery date: types 1, 2 and 3 only (spec
/// §2.6); a bill's ETA is set on its form.
pub const fn delivery_date_editable(t: OrderType) -> bool {
    matches!(t, OrderType::Invoice | OrderType::CreditNote | OrderType::PurchaseOrder)
}

/// A validated line (product lines only, in order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidLine {
    pub product_id: i64,
    /// For adjustments: in-warehouse − in-system.
    pub quantity: i64,
    pub in_warehouse_qty: i64,
    pub in_system_qty: i64,
    pub price: Cents,
    pub amount: Cents,
    pub description: String,
    pub tax_type: i32,
    /// The DOT code (stored form, issue 36), `None` when the line names none.
    pub dot: Option<i32>,
}

/// A DOT code on a sheet type that keeps none (purchase orders).
pub const NO_DOT_HERE: &str = "DOT codes are kept on invoices, credit notes, bills, bill credit notes, transfers and stock adjustments only.";

/// Values a stock-take at cost (issue 29): an adjustment's lines take their product's moving
/// average cost when the sheet is saved, whatever price was sent, so the sheet's amount is
/// the value of the stock it changes. `cost_of` answers a line product's cost; the server
/// decides it, so a viewer who may not see cost can still count stock.
pub fn value_at_cost(lines: &mut [ValidLine], cost_of: impl Fn(i64) -> Cents) -> Result<(), &'static str> {
    for l in lines.iter_mut() {
        l.price = cost_of(l.product_id);
        l.amount = line_amount(l.quantity, l.price).ok_or(limits::TOTAL_TOO_LARGE)?;
    }
    Ok(())
}

/// Field errors keyed like the form: `customer_id`, `lines.3.qty` (line index as typed).
pub type FieldErrors = BTreeMap<String, String>;

/// Checks a draft; returns the product lines with amounts, or every message at once.
pub fn validate(d: &SheetDraft) -> Result<Vec<ValidLine>, FieldErrors> {
    let mut errors = FieldErrors::new();
    let Some(t) = d.order_type else {
        errors.insert("order_type".into(), REQUIRED.into());
        return Err(errors);
    };
    match t {
        OrderType::Invoice | OrderType::CreditNote => {
            if d.customer_id.is_none() {
                errors.insert("customer_id".into(), REQUIRED.into());
            }
        }
        OrderType::PurchaseOrder | OrderType::Bill | OrderType::BillCreditNote => {
            if d.supplier_id.is_none() {
                errors.insert("supplier_id".into(), REQUIRED.into());
            }
            if d.warehouse_id.is_none() {
                errors.insert("warehouse_id".into(), REQUIRED.into());
            }
        }
        OrderType::Transfer => {
            if d.warehouse_id.is_none() {
                errors.insert("warehouse_id".into(), REQUIRED.into());
            }
            match d.in_warehouse_id {
                None => {
                    errors.insert("in_warehouse_id".into(), REQUIRED.into());
                }
                Some(i) if Some(i) == d.warehouse_id => {
                    errors.insert("in_warehouse_id".into(), SAME_WAREHOUSE.into());
                }
                Some(_) => {}
            }
        }
        OrderType::Adjustment => {
            if d.warehouse_id.is_none() {
                errors.insert("warehouse_id".into(), REQUIRED.into());
            }
        }
    }
    if d.lines.len() > LINES_MAX {
        errors.insert("lines".into(), limits::TOO_MANY_LINES.into());
        return Err(errors);
    }
    let mut out = Vec::new();
    for (i, l) in d.lines.iter().enumerate() {
        let Some(product_id) = l.product_id else { continue };
        let key = |f: &str| format!("lines.{i}.{f}");
        if let Err(m) = limits::check_text(l.description.trim(), Text::Line(DESCRIPTION_MAX)) {
            errors.insert(key("description"), m.into());
        }
        // 0 means "the sheet's tax type" (the line editor sends it for new lines).
        let tax_type = match l.tax_type {
            0 => TaxType::from_i32(d.tax_type).unwrap_or_default(),
            code => match TaxType::from_i32(code) {
                Some(tax) => tax,
                None => {
                    errors.insert(key("taxType"), NOT_LISTED.into());
                    continue;
                }
            },
        };
        let (quantity, in_wh, in_sys) = if t == OrderType::Adjustment {
            let counted = parse_line_qty(&l.in_warehouse_qty).map_err(|m| errors.insert(key("inWarehouseQty"), m.into())).ok();
            let system = if l.in_system_qty.trim().is_empty() { Ok(0) } else { parse_signed_qty(&l.in_system_qty) };
            let system = system.map_err(|m| errors.insert(key("inSystemQty"), m.into())).ok();
            match (counted, system) {
                // Both lie within ±QTY_MAX, so the difference cannot overflow.
                (Some(c), Some(s)) => (c - s, c, s),
                _ => continue,
            }
        } else {
            match parse_line_qty(&l.qty) {
                Ok(q) => (q, 0, 0),
                Err(m) => {
                    errors.insert(key("qty"), m.into());
                    continue;
                }
            }
        };
        let price = if t == OrderType::Transfer || l.price.trim().is_empty() && t == OrderType::Adjustment {
            Cents::ZERO
        } else {
            match parse_line_price(&l.price) {
                Ok(p) => p,
                Err(e) => {
                    errors.insert(key("price"), e.to_string());
                    continue;
                }
            }
        };
        let Some(amount) = line_amount(quantity, price) else {
            errors.insert(key("price"), limits::TOTAL_TOO_LARGE.into());
            continue;
        };
        let dot = match l.dot.trim() {
            "" => None,
            _ if t == OrderType::PurchaseOrder => {
                errors.insert(key("dot"), NO_DOT_HERE.into());
                continue;
            }
            typed => match crate::dot::Dot::parse(typed, d.today) {
                Ok(dot) => Some(dot.stored()),
                Err(e) => {
                    errors.insert(key("dot"), e.to_string());
                    continue;
                }
            },
        };
        out.push(ValidLine {
            product_id,
            quantity,
            in_warehouse_qty: in_wh,
            in_system_qty: in_sys,
            price,
            amount,
            description: l.description.trim().to_string(),
            tax_type: tax_type.as_i32(),
            dot,
        });
    }
    if out.is_empty() && errors.keys().all(|k| !k.starts_with("lines.")) {
        errors.insert("lines".into(), NO_LINES.into());
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

/// The footer totals of validated lines (spec §2.5, §9); an impossible sum is refused.
pub fn totals(lines: &[ValidLine], order_type: OrderType, tax_type: i32) -> Result<Totals, FieldErrors> {
    let tax = if order_type.has_tax() { TaxType::from_i32(tax_type).unwrap_or_default() } else { TaxType::NoTax };
    Totals::from_lines(lines.iter().map(|l| (l.quantity, l.amount)), tax).ok_or_else(|| FieldErrors::from([("lines".to_string(), limits::TOTAL_TOO_LARGE.to_string())]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(product: i64, qty: &str, price: &str) -> LineDraft {
        LineDraft { product_id: Some(product), qty: qty.into(), price: price.into(), tax_type: 3, ..Default::default() }
    }

    fn draft(t: OrderType, lines: Vec<LineDraft>) -> SheetDraft {
        SheetDraft { order_type: Some(t), customer_id: Some(1), supplier_id: Some(2), warehouse_id: Some(3), in_warehouse_id: Some(4), tax_type: 3, lines, today: NaiveDate::from_ymd_opt(2026, 11, 27).unwrap() }
    }

    #[test]
    fn a_line_keeps_a_valid_dot_code_and_a_bad_one_is_named() {
        let dot = |code: &str| LineDraft { dot: code.into(), ..line(7, "2", "10") };
        let ok = validate(&draft(OrderType::Bill, vec![dot("2325"), dot(" ")])).unwrap();
        assert_eq!((ok[0].dot, ok[1].dot), (Some(202_523), None));
        let errors = validate(&draft(OrderType::Bill, vec![dot("5425"), dot("0127"), dot("239")])).unwrap_err();
        assert_eq!(errors["lines.0.dot"], "Week 54 does not exist: a DOT week is 01 to 53.");
        assert_eq!(errors["lines.1.dot"], "DOT 0127 is in the future.");
        assert!(errors["lines.2.dot"].contains("before 2000"));
        let po = validate(&draft(OrderType::PurchaseOrder, vec![dot("2325")])).unwrap_err();
        assert_eq!(po["lines.0.dot"], NO_DOT_HERE);
    }

    #[test]
    fn due_date_is_on_invoices_credit_notes_bills_and_bill_credit_notes_only() {
        let with_due: Vec<OrderType> = OrderType::ALL.iter().copied().filter(|t| has_due_date(*t)).collect();
        assert_eq!(with_due, [OrderType::Invoice, OrderType::CreditNote, OrderType::Bill, OrderType::BillCreditNote]);
    }

    #[test]
    fn delivery_date_is_dispatch_pickup_or_eta_by_type() {
        assert_eq!(delivery_date_label(OrderType::Invoice), Some("Dispatch Date"));
        assert_eq!(delivery_date_label(OrderType::CreditNote), Some("Pickup Date"));
        for t in [OrderType::PurchaseOrder, OrderType::Bill, OrderType::BillCreditNote] {
            assert_eq!(delivery_date_label(t), Some("ETA Date"), "{t:?}");
        }
        assert_eq!(delivery_date_label(OrderType::Transfer), None);
        assert_eq!(delivery_date_label(OrderType::Adjustment), None);
    }

    #[test]
    fn edit_date_changes_the_delivery_date_of_types_one_to_three_only() {
        let editable: Vec<OrderType> = OrderType::ALL.iter().copied().filter(|t| delivery_date_editable(*t)).collect();
        assert_eq!(editable, [OrderType::Invoice, OrderType::CreditNote, OrderType::PurchaseOrder]);
        assert!(editable.iter().all(|t| delivery_date_label(*t).is_some()), "an editable date has a label");
    }

    #[test]
    fn each_kind_needs_its_counterparty_and_warehouses() {
        let mut d = draft(OrderType::Invoice, vec![line(1, "1", "10")]);
        d.customer_id = None;
        assert_eq!(validate(&d).unwrap_err()["customer_id"], REQUIRED);
        let mut d = draft(OrderType::Bill, vec![line(1, "1", "10")]);
        d.supplier_id = None;
        d.warehouse_id = None;
        let e = validate(&d).unwrap_err();
        assert_eq!(e["supplier_id"], REQUIRED);
        assert_eq!(e["warehouse_id"], REQUIRED);
        let mut d = draft(OrderType::Transfer, vec![line(1, "1", "")]);
        d.in_warehouse_id = Some(3);
        assert_eq!(validate(&d).unwrap_err()["in_warehouse_id"], SAME_WAREHOUSE);
        let mut d = draft(OrderType::CreditNote, vec![line(1, "1", "10")]);
        d.supplier_id = None;
        d.warehouse_id = None;
        assert!(validate(&d).is_ok(), "credit notes need a customer only");
    }

    #[test]
    fn lines_without_product_are_ignored_but_one_is_needed() {
        let d = draft(OrderType::Invoice, vec![LineDraft::default()]);
        assert_eq!(validate(&d).unwrap_err()["lines"], NO_LINES);
        let d = draft(OrderType::Invoice, vec![LineDraft::default(), line(5, "2", "12.50")]);
        let v = validate(&d).unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].amount, Cents(2_500));
    }

    #[test]
    fn quantities_and_prices_are_checked_per_line() {
        let d = draft(OrderType::Invoice, vec![line(1, "-1", "10"), line(2, "1.5", "10"), line(3, "2", "10.123"), line(4, "2", "-3")]);
        let e = validate(&d).unwrap_err();
        assert!(e.contains_key("lines.0.qty") && e.contains_key("lines.1.qty"));
        assert!(e.contains_key("lines.2.price") && e.contains_key("lines.3.price"));
        assert!(!e.contains_key("lines"), "no 'add a line' message when lines were typed");
    }

    #[test]
    fn adjustments_count_the_difference_and_transfers_have_no_price() {
        let mut l = line(1, "", "");
        l.in_warehouse_qty = "7".into();
        l.in_system_qty = "10".into();
        l.price = "20".into();
        let v = validate(&draft(OrderType::Adjustment, vec![l])).unwrap();
        assert_eq!((v[0].quantity, v[0].amount), (-3, Cents(-6_000)));
        let v = validate(&draft(OrderType::Transfer, vec![line(1, "4", "")])).unwrap();
        assert_eq!((v[0].quantity, v[0].price), (4, Cents::ZERO));
    }

    #[test]
    fn an_adjustment_is_valued_at_each_products_cost_whatever_price_was_sent() {
        let mut a = line(1, "", "");
        (a.in_warehouse_qty, a.in_system_qty, a.price) = ("30".into(), "28".into(), "".into());
        let mut b = line(2, "", "");
        (b.in_warehouse_qty, b.in_system_qty, b.price) = ("1".into(), "4".into(), "99.99".into());
        let mut v = validate(&draft(OrderType::Adjustment, vec![a, b])).unwrap();
        value_at_cost(&mut v, |p| if p == 1 { Cents(14_432) } else { Cents(500) }).unwrap();
        assert_eq!((v[0].price, v[0].amount), (Cents(14_432), Cents(28_864)), "2 more at 144.32");
        assert_eq!((v[1].price, v[1].amount), (Cents(500), Cents(-1_500)), "3 fewer at 5.00, not the 99.99 sent");
        let t = totals(&v, OrderType::Adjustment, 3).unwrap();
        assert_eq!((t.qty, t.amount, t.gst), (-1, Cents(27_364), Cents::ZERO));
        assert_eq!(value_at_cost(&mut v, |_| Cents(i64::MAX / 2)), Err(limits::TOTAL_TOO_LARGE));
    }

    #[test]
    fn totals_take_gst_from_the_total_for_taxable_kinds() {
        let v = validate(&draft(OrderType::Invoice, vec![line(1, "3", "36.67"), line(2, "1", "0.01")])).unwrap();
        let t = totals(&v, OrderType::Invoice, 3).unwrap();
        assert_eq!((t.qty, t.amount, t.gst), (4, Cents(11_002), Cents(1_000)));
        assert_eq!(t.gst_label(), "(GST 10%)");
        assert_eq!(totals(&v, OrderType::Invoice, 1).unwrap().gst, Cents::ZERO);
        assert_eq!(totals(&v, OrderType::Transfer, 3).unwrap().gst, Cents::ZERO);
    }

    #[test]
    fn quantities_prices_and_line_counts_have_upper_bounds() {
        let d = draft(OrderType::Invoice, vec![line(1, "9223372036854775807", "10"), line(2, "1000001", "10"), line(3, "1000000", "999999999.99"), line(4, "1", "1000000000")]);
        let e = validate(&d).unwrap_err();
        assert_eq!(e["lines.0.qty"], crate::limits::QTY_OUT_OF_RANGE);
        assert_eq!(e["lines.1.qty"], crate::limits::QTY_OUT_OF_RANGE);
        assert!(!e.contains_key("lines.2.qty") && !e.contains_key("lines.2.price"), "a million units at the largest price still fits");
        assert_eq!(e["lines.3.price"], "The amount is too large");
        let many = draft(OrderType::Invoice, (0..1_001).map(|i| line(i, "1", "1")).collect());
        assert_eq!(validate(&many).unwrap_err()["lines"], crate::limits::TOO_MANY_LINES);
        let huge = draft(OrderType::Invoice, (0..100).map(|i| line(i, "1000000", "999999999.99")).collect());
        let v = validate(&huge).unwrap();
        assert_eq!(totals(&v, OrderType::Invoice, 3).unwrap_err()["lines"], crate::limits::TOTAL_TOO_LARGE, "a total beyond i64 is refused, not clamped");
        let big = draft(OrderType::Invoice, (0..1_000).map(|i| line(i, "1000", "99999.99")).collect());
        let v = validate(&big).unwrap();
        assert_eq!(totals(&v, OrderType::Invoice, 3).unwrap().amount, Cents(9_999_999_000_000));
    }

    #[test]
    fn line_codes_and_texts_are_checked() {
        let mut bad_tax = line(1, "1", "1");
        bad_tax.tax_type = 99;
        let mut nul = line(2, "1", "1");
        nul.description = "Tyre\0".into();
        let mut sheet_tax = line(3, "1", "1");
        sheet_tax.tax_type = 0;
        let e = validate(&draft(OrderType::Invoice, vec![bad_tax, nul, sheet_tax.clone()])).unwrap_err();
        assert_eq!(e["lines.0.taxType"], NOT_LISTED);
        assert_eq!(e["lines.1.description"], crate::limits::CONTROL_CHARACTERS);
        let v = validate(&draft(OrderType::Invoice, vec![sheet_tax])).unwrap();
        assert_eq!(v[0].tax_type, 3, "0 takes the sheet's tax type");
        let mut adj = line(1, "", "");
        adj.in_warehouse_qty = "5".into();
        adj.in_system_qty = "-9223372036854775808".into();
        assert_eq!(validate(&draft(OrderType::Adjustment, vec![adj])).unwrap_err()["lines.0.inSystemQty"], crate::limits::QTY_OUT_OF_RANGE);
    }

    #[test]
    fn header_codes_dates_and_texts_are_checked() {
        let ok = HeaderDraft { tag_id: 1, tax_type: 3, ship_type: Some(1), date: NaiveDate::from_ymd_opt(2026, 11, 20), ..Default::default() };
        assert!(check_header(OrderType::Invoice, &ok).is_empty());
        let long = "x".repeat(1_000_000);
        let bad = HeaderDraft {
            tag_id: 99,
            tax_type: 99,
            ship_type: Some(99),
            date: NaiveDate::from_ymd_opt(0, 1, 1),
            due_date: NaiveDate::from_ymd_opt(1, 1, 1),
            delivery_date: NaiveDate::from_ymd_opt(2100, 1, 1),
            comments: &long,
            phone: "12\0",
            ..Default::default()
        };
        let e = check_header(OrderType::Invoice, &bad);
        for field in ["tag_id", "tax_type", "ship_type"] {
            assert_eq!(e[field], NOT_LISTED, "{field}");
        }
        for field in ["date", "due_date", "delivery_date"] {
            assert_eq!(e[field], crate::limits::DATE_OUT_OF_RANGE, "{field}");
        }
        assert_eq!(e["comments"], "At most 2,000 characters.");
        assert_eq!(e["phone"], crate::limits::CONTROL_CHARACTERS);
        let outsourcing_on_invoice = HeaderDraft { tag_id: Tag::Outsourcing.as_i32(), ..ok.clone() };
        assert_eq!(check_header(OrderType::Invoice, &outsourcing_on_invoice)["tag_id"], NOT_LISTED, "a tag hidden for the kind is refused too");
        let negative_tag = HeaderDraft { tag_id: -5, ..ok };
        assert_eq!(check_header(OrderType::Invoice, &negative_tag)["tag_id"], NOT_LISTED);
    }
}
