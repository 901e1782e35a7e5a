//! Cloning a sheet (spec §2.1 operations `clone` and `cloneBillToInv`, §2.6 Clone): what
//! the new sheet keeps of its source. Like any new sheet it is dated today, without due or
//! delivery date, with its own type's default ship type (`ShipType::default_for`).

use crate::enums::OrderType;
use crate::money::Cents;

/// The refusal of Bill -> Invoice from anything but a bill.
pub const BILL_TO_INVOICE_BILLS_ONLY: &str = "Bill -> Invoice clones bills only.";

/// The refusal of a credit note linked to anything but an invoice of its own customer.
pub const CREDIT_FOR_OWN_INVOICE: &str = "A credit note can only credit an invoice of its own customer.";

/// What a new sheet takes from the sheet it is cloned from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cloning {
    /// The source's customer and supplier stay when both sheets are on the same side (a
    /// customer on sales sheets, a supplier on purchase sheets); across sides the new sheet
    /// starts without one.
    pub keeps_counterparty: bool,
    /// The sheet the new sheet follows (`related_order_id`): the source, when a purchase
    /// order becomes a bill (Related PO) or an invoice becomes a credit note (Credit for).
    pub related_order: Option<i64>,
    /// Line prices start from each product's class A price instead of the source's: Bill ->
    /// Invoice, because a bill's prices are costs.
    pub reprices_from_class_a: bool,
}

/// The rules for cloning sheet `source_id` of type `source` into a new sheet of type
/// `target`; `bill_to_invoice` is the `cloneBillToInv` operation, which only a bill starts.
pub fn cloning(source: OrderType, source_id: i64, target: OrderType, bill_to_invoice: bool) -> Result<Cloning, &'static str> {
    if bill_to_invoice && source != OrderType::Bill {
        return Err(BILL_TO_INVOICE_BILLS_ONLY);
    }
    Ok(Cloning {
        keeps_counterparty: source.is_sales() == target.is_sales(),
        related_order: matches!((source, target), (OrderType::PurchaseOrder, OrderType::Bill) | (OrderType::Invoice, OrderType::CreditNote)).then_some(source_id),
        reprices_from_class_a: bill_to_invoice,
    })
}

/// Whether a credit note of customer `customer` may credit the sheet of type `linked` and
/// customer `linked_customer` (issue 32): only an invoice, and only of the same customer (the
/// company is the caller's already: the link is looked up inside it).
pub fn credit_for(customer: Option<i64>, linked: Option<OrderType>, linked_customer: Option<i64>) -> Result<(), &'static str> {
    if linked == Some(OrderType::Invoice) && customer.is_some() && customer == linked_customer { Ok(()) } else { Err(CREDIT_FOR_OWN_INVOICE) }
}

impl Cloning {
    /// A cloned line's price as the line editor shows it: the source line's, or when
    /// repricing the product's class A price (empty when there is none).
    pub fn line_price(self, source_price: String, class_a: Option<Cents>) -> String {
        if self.reprices_from_class_a { class_a.map(Cents::plain).unwrap_or_default() } else { source_price }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderType::{Adjustment, Bill, BillCreditNote, CreditNote, Invoice, PurchaseOrder, Transfer};

    #[test]
    fn the_counterparty_stays_on_the_same_side_only() {
        for (source, target) in [(Invoice, CreditNote), (CreditNote, Invoice), (PurchaseOrder, Bill), (Bill, BillCreditNote)] {
            assert!(cloning(source, 1, target, false).unwrap().keeps_counterparty, "{source:?} -> {target:?}");
        }
        for (source, target) in [(Bill, Invoice), (Invoice, Bill), (CreditNote, BillCreditNote)] {
            assert!(!cloning(source, 1, target, false).unwrap().keeps_counterparty, "{source:?} -> {target:?}");
        }
        assert!(!cloning(Bill, 1, Invoice, true).unwrap().keeps_counterparty, "Bill -> Invoice starts without the supplier");
    }

    #[test]
    fn a_bill_from_a_purchase_order_and_a_credit_note_from_an_invoice_link_to_their_source() {
        assert_eq!(cloning(PurchaseOrder, 42, Bill, false).unwrap().related_order, Some(42));
        assert_eq!(cloning(Invoice, 43, CreditNote, false).unwrap().related_order, Some(43));
        for (source, target) in [(PurchaseOrder, PurchaseOrder), (PurchaseOrder, BillCreditNote), (Bill, Bill), (Invoice, Invoice), (CreditNote, CreditNote), (CreditNote, Invoice), (Bill, BillCreditNote)] {
            assert_eq!(cloning(source, 42, target, false).unwrap().related_order, None, "{source:?} -> {target:?}");
        }
    }

    #[test]
    fn a_credit_note_credits_an_invoice_of_its_own_customer_only() {
        assert_eq!(credit_for(Some(7), Some(Invoice), Some(7)), Ok(()));
        assert_eq!(credit_for(Some(7), Some(Invoice), Some(8)), Err(CREDIT_FOR_OWN_INVOICE), "another customer's invoice");
        assert_eq!(credit_for(None, Some(Invoice), None), Err(CREDIT_FOR_OWN_INVOICE), "no customer yet");
        for other in [CreditNote, PurchaseOrder, Bill, BillCreditNote, Transfer, Adjustment] {
            assert_eq!(credit_for(Some(7), Some(other), Some(7)), Err(CREDIT_FOR_OWN_INVOICE), "{other:?}");
        }
        assert_eq!(credit_for(Some(7), None, Some(7)), Err(CREDIT_FOR_OWN_INVOICE), "an unknown type");
    }

    #[test]
    fn bill_to_invoice_reprices_lines_from_class_a_and_starts_only_from_a_bill() {
        let to_invoice = cloning(Bill, 7, Invoice, true).unwrap();
        assert!(to_invoice.reprices_from_class_a);
        assert_eq!(to_invoice.line_price("80.00".into(), Some(Cents(12_345))), "123.45");
        assert_eq!(to_invoice.line_price("80.00".into(), None), "", "no class A price: the price is typed");
        let plain = cloning(Bill, 7, Bill, false).unwrap();
        assert!(!plain.reprices_from_class_a);
        assert_eq!(plain.line_price("80.00".into(), Some(Cents(12_345))), "80.00");
        for source in [Invoice, CreditNote, PurchaseOrder, BillCreditNote, Transfer, Adjustment] {
            assert_eq!(cloning(source, 7, Invoice, true), Err(BILL_TO_INVOICE_BILLS_ONLY), "{source:?}");
        }
    }
}
