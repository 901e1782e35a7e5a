//! Validation of a sheet as typed (spec §2.5, §5): which header fields each kind needs,
//! line quantities and prices, and the totals. HTML forms and the JSON API share it.

use std::collections::BTreeMap;

use super::enums::{OrderType, TaxType};
use super::money::{Cents, Totals, line_amount};
use super::validate::{REQUIRED, parse_line_price, parse_line_qty};

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
    let mut out = Vec::new();
    for (i, l) in d.lines.iter().enumerate() {
        let Some(product_id) = l.product_id else { continue };
        let key = |f: &str| format!("lines.{i}.{f}");
        let (quantity, in_wh, in_sys) = if t == OrderType::Adjustment {
            let counted = parse_line_qty(&l.in_warehouse_qty).map_err(|m| errors.insert(key("inWarehouseQty"), m.into())).ok();
            let system: i64 = l.in_system_qty.trim().parse().unwrap_or(0);
            match counted {
                Some(c) => (c - system, c, system),
                None => continue,
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
        out.push(ValidLine {
            product_id,
            quantity,
            in_warehouse_qty: in_wh,
            in_system_qty: in_sys,
            price,
            amount: line_amount(quantity, price),
            description: l.description.trim().to_string(),
            tax_type: TaxType::from_i32(l.tax_type).unwrap_or(TaxType::from_i32(d.tax_type).unwrap_or_default()).as_i32(),
        });
    }
    if out.is_empty() && errors.keys().all(|k| !k.starts_with("lines.")) {
        errors.insert("lines".into(), NO_LINES.into());
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

/// The footer totals of validated lines (spec §2.5, §9).
pub fn totals(lines: &[ValidLine], order_type: OrderType, tax_type: i32) -> Totals {
    let tax = if order_type.has_tax() { TaxType::from_i32(tax_type).unwrap_or_default() } else { TaxType::NoTax };
    Totals::from_lines(lines.iter().map(|l| (l.quantity, l.amount)), tax)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(product: i64, qty: &str, price: &str) -> LineDraft {
        LineDraft { product_id: Some(product), qty: qty.into(), price: price.into(), tax_type: 3, ..Default::default() }
    }

    fn draft(t: OrderType, lines: Vec<LineDraft>) -> SheetDraft {
        SheetDraft { order_type: Some(t), customer_id: Some(1), supplier_id: Some(2), warehouse_id: Some(3), in_warehouse_id: Some(4), tax_type: 3, lines }
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
    fn totals_take_gst_from_the_total_for_taxable_kinds() {
        let v = validate(&draft(OrderType::Invoice, vec![line(1, "3", "36.67"), line(2, "1", "0.01")])).unwrap();
        let t = totals(&v, OrderType::Invoice, 3);
        assert_eq!((t.qty, t.amount, t.gst), (4, Cents(11_002), Cents(1_000)));
        assert_eq!(t.gst_label(), "(GST 10%)");
        assert_eq!(totals(&v, OrderType::Invoice, 1).gst, Cents::ZERO);
        assert_eq!(totals(&v, OrderType::Transfer, 3).gst, Cents::ZERO);
    }
}
