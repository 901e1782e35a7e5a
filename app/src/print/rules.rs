//! The layout rules of spec §2.7, each a small pure function of the company's department,
//! the sheet's warehouse or the customer, so every rule is tested on its own.

use crate::domain::money::{Cents, gst_exclusive_price};

/// Departments whose documents show prices without GST (spec §2.7: 7 and 8).
pub fn prices_exclude_gst(department: i32) -> bool {
    matches!(department, 7 | 8)
}

/// A line price or amount as printed: divided by 1.1 (2 decimals) for GST-exclusive
/// departments, as stored otherwise.
pub fn printed_price(department: i32, price: Cents) -> Cents {
    if prices_exclude_gst(department) { gst_exclusive_price(price) } else { price }
}

/// What a sheet's warehouse means for printing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WarehouseRole {
    /// The branch warehouse (spec: "warehouse id 9999"); its address replaces the company's.
    pub is_branch: bool,
    /// The third-party store (read as spec's "warehouse id 20" of department 4).
    pub is_third_party: bool,
}

/// Department 4 dispatching from the third-party store: the spec's "warehouse 20 with
/// department 4" special case (see docs/decisions.md, Printing).
pub fn is_third_party_dispatch(department: i32, warehouse: &WarehouseRole) -> bool {
    department == 4 && warehouse.is_third_party
}

/// Whether the Loc. column is printed: departments 4, 7 and 9 and above, except when
/// department 4 dispatches from the third-party store, where our shelf locations mean nothing.
pub fn shows_location(department: i32, warehouse: &WarehouseRole) -> bool {
    let by_department = department == 4 || department == 7 || department >= 9;
    by_department && !is_third_party_dispatch(department, warehouse)
}

/// A product location (tag4, several joined by '/') as printed: 'call' prints blank.
pub fn printed_location(tag4: &str) -> String {
    tag4.split('/').map(str::trim).filter(|l| !l.is_empty() && !l.eq_ignore_ascii_case("call")).collect::<Vec<_>>().join("/")
}

/// The customer's ABN line: only a code of 8 to 14 characters without the letter c
/// (either case) is an ABN; shorter codes and 'C…' account codes are internal.
pub fn customer_abn(code: &str) -> Option<String> {
    let code = code.trim();
    let len = code.chars().count();
    ((8..=14).contains(&len) && !code.chars().any(|c| c.eq_ignore_ascii_case(&'c'))).then(|| code.to_string())
}

/// Departments whose documents show the sheet's reference (spec §2.7: 7, 8 and 12).
pub fn shows_reference(department: i32) -> bool {
    matches!(department, 7 | 8 | 12)
}

/// The notice department 10 prints under the customer block (spec §2.7 names it without
/// its text; this wording is recorded in docs/decisions.md).
pub const DEPARTMENT_10_NOTICE: &str = "Please check all goods on receipt: shortages or damage must be noted on this document before it is signed. \
Goods remain the property of the supplier until paid for in full.";

/// The department's notice, if it has one.
pub fn department_notice(department: i32) -> Option<&'static str> {
    (department == 10).then_some(DEPARTMENT_10_NOTICE)
}

/// The return policy every document prints (spec §2.7, §9).
pub const RETURN_POLICY: &str = "Return policy: goods may be returned free of charge within 48 hours of delivery; \
returns within 7 days incur a 10% restocking fee; no returns are accepted after 7 days.";

/// The sentence of the payment advice on invoices.
pub const PAYMENT_ADVICE: &str = "Please detach this advice and send it with your payment, or quote the invoice number as the reference of your transfer.";

/// The sentence of the credit advice on credit notes (spec §2.7).
pub const CREDIT_ADVICE: &str = "Please do not pay on this advice. Deduct the amount of this Credit Note from your next payment to us.";

/// The line printed on drafts (only draft credit notes can be printed, spec §4).
pub const DRAFT_FOR_FETCH: &str = "Draft for Fetch";

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: WarehouseRole = WarehouseRole { is_branch: false, is_third_party: false };
    const THIRD_PARTY: WarehouseRole = WarehouseRole { is_branch: false, is_third_party: true };

    #[test]
    fn only_departments_7_and_8_print_prices_without_gst() {
        for d in 0..=20 {
            assert_eq!(prices_exclude_gst(d), d == 7 || d == 8, "department {d}");
        }
        assert_eq!(printed_price(7, Cents(11_000)), Cents(10_000));
        assert_eq!(printed_price(8, Cents(12_345)), Cents(11_223), "123.45 / 1.1 = 112.227… → 112.23");
        assert_eq!(printed_price(8, Cents(5)), Cents(5), "0.05 / 1.1 = 0.045… → 0.05");
        assert_eq!(printed_price(4, Cents(12_345)), Cents(12_345));
        assert_eq!(printed_price(12, Cents(11_000)), Cents(11_000));
    }

    #[test]
    fn the_location_column_is_for_departments_4_7_and_9_up() {
        let shown: Vec<i32> = (0..=15).filter(|d| shows_location(*d, &PLAIN)).collect();
        assert_eq!(shown, vec![4, 7, 9, 10, 11, 12, 13, 14, 15]);
    }

    #[test]
    fn department_4_dispatching_from_the_third_party_store_drops_locations() {
        assert!(is_third_party_dispatch(4, &THIRD_PARTY));
        assert!(!shows_location(4, &THIRD_PARTY));
        // Other departments keep their rule.
        assert!(!is_third_party_dispatch(9, &THIRD_PARTY));
        assert!(shows_location(9, &THIRD_PARTY));
        assert!(!shows_location(8, &THIRD_PARTY));
        assert!(!is_third_party_dispatch(4, &WarehouseRole { is_branch: true, is_third_party: false }));
    }

    #[test]
    fn call_prints_blank() {
        assert_eq!(printed_location("call"), "");
        assert_eq!(printed_location("CALL"), "");
        assert_eq!(printed_location(" A01/B02 "), "A01/B02");
        assert_eq!(printed_location("A01/call/C03"), "A01/C03");
        assert_eq!(printed_location(""), "");
    }

    #[test]
    fn the_customer_abn_needs_8_to_14_characters_and_no_c() {
        assert_eq!(customer_abn("53004085616").as_deref(), Some("53004085616"));
        assert_eq!(customer_abn("53 004 085 616").as_deref(), Some("53 004 085 616"), "14 characters with spaces");
        assert_eq!(customer_abn("12345678").as_deref(), Some("12345678"), "8 is the shortest");
        assert_eq!(customer_abn("1234567"), None, "7 is too short");
        assert_eq!(customer_abn("123456789012345"), None, "15 is too long");
        assert_eq!(customer_abn("C1234567890"), None);
        assert_eq!(customer_abn("ac1234567890"), None);
        assert_eq!(customer_abn("AB123456"), Some("AB123456".into()), "other letters are allowed");
        assert_eq!(customer_abn(""), None);
    }

    #[test]
    fn departments_7_8_and_12_show_the_reference() {
        let shown: Vec<i32> = (0..=15).filter(|d| shows_reference(*d)).collect();
        assert_eq!(shown, vec![7, 8, 12]);
    }

    #[test]
    fn department_10_prints_its_notice() {
        for d in 0..=15 {
            assert_eq!(department_notice(d).is_some(), d == 10, "department {d}");
        }
        assert!(DEPARTMENT_10_NOTICE.contains("noted on this document before it is signed"));
    }

    #[test]
    fn fixed_texts() {
        assert!(RETURN_POLICY.contains("within 48 hours") && RETURN_POLICY.contains("10% restocking fee") && RETURN_POLICY.contains("after 7 days"));
        assert_eq!(CREDIT_ADVICE, "Please do not pay on this advice. Deduct the amount of this Credit Note from your next payment to us.");
        assert_eq!(DRAFT_FOR_FETCH, "Draft for Fetch");
    }
}
