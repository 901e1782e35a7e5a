//! The layout rules of spec §2.7, each a small pure function of the company's department,
//! the sheet's warehouse or the customer, so every rule is tested on its own.

use domain::money::{Cents, gst_exclusive_price};

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
/// department 4" special case (see docs/decisions/printing.md).
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

/// The Description cell of a printed line: the item, its code and product name, once; then
/// the line's own description, only where it says more than the product name. A description
/// that carries the whole name (a longer form of it) replaces the name; one the name already
/// holds, or that only repeats the code, adds nothing. Nothing prints twice on a line.
pub fn printed_description(code: &str, name: &str, description: &str) -> String {
    let code = code.trim();
    let name = without_code(name.trim(), code);
    let description = without_code(description.trim(), code);
    let (name_words, desc_words) = (words(name), words(description));
    let text = if desc_words.is_empty() || holds(&name_words, &desc_words) {
        name.to_string()
    } else if name_words.is_empty() || holds(&desc_words, &name_words) {
        description.to_string()
    } else {
        format!("{name} · {description}")
    };
    [code, text.as_str()].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ")
}

/// `text` without a leading item code (as a whole word, any case).
fn without_code<'a>(text: &'a str, code: &str) -> &'a str {
    match text.get(..code.len()) {
        Some(head) if !code.is_empty() && head.eq_ignore_ascii_case(code) => {
            let rest = &text[code.len()..];
            if rest.is_empty() || rest.starts_with(char::is_whitespace) { rest.trim_start() } else { text }
        }
        _ => text,
    }
}

/// The words of a text as compared: case and spacing do not count.
fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_lowercase).collect()
}

/// Whether `part` occurs in `whole` as a run of whole words.
fn holds(whole: &[String], part: &[String]) -> bool {
    !part.is_empty() && whole.windows(part.len()).any(|w| w == part)
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
/// its text; this wording is recorded in docs/decisions/printing.md).
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
    fn the_item_prints_once_and_the_description_only_when_it_adds_something() {
        let p = |c, n, d| printed_description(c, n, d);
        // The description defaults to the product name: the item alone.
        assert_eq!(p("2055516MIC", "205/55R16 91V Michelin Primacy 4", "205/55R16 91V Michelin Primacy 4"), "2055516MIC 205/55R16 91V Michelin Primacy 4");
        assert_eq!(p("2055516MIC", "205/55R16 91V Michelin Primacy 4", " 205/55r16  91v MICHELIN primacy 4 "), "2055516MIC 205/55R16 91V Michelin Primacy 4", "case and spacing do not count");
        assert_eq!(p("2055516MIC", "205/55R16 91V Michelin Primacy 4", ""), "2055516MIC 205/55R16 91V Michelin Primacy 4");
        // Repeating the code, or a part of the name, adds nothing.
        assert_eq!(p("2055516MIC", "205/55R16 91V Michelin Primacy 4", "2055516MIC 205/55R16 91V Michelin Primacy 4"), "2055516MIC 205/55R16 91V Michelin Primacy 4");
        assert_eq!(p("2055516MIC", "205/55R16 91V Michelin Primacy 4", "2055516mic"), "2055516MIC 205/55R16 91V Michelin Primacy 4");
        assert_eq!(p("2055516MIC", "205/55R16 91V Michelin Primacy 4", "Primacy 4"), "2055516MIC 205/55R16 91V Michelin Primacy 4");
        // A longer form of the name replaces it; another text follows it.
        assert_eq!(p("2055516MIC", "205/55R16 91V Michelin Primacy 4", "205/55R16 91V Michelin Primacy 4 DOT 2025"), "2055516MIC 205/55R16 91V Michelin Primacy 4 DOT 2025");
        assert_eq!(p("VALVE-TR413", "TR413 Snap-in Valve", "Fit with new tyres"), "VALVE-TR413 TR413 Snap-in Valve · Fit with new tyres");
        // A name that starts with the code prints the code once.
        assert_eq!(p("X1", "X1 wheel nut", "X1 wheel nut"), "X1 wheel nut");
        assert_eq!(p("X1", "X1 wheel nut", "X10 nut"), "X1 wheel nut · X10 nut", "X10 is not the code X1");
        assert_eq!(p("ABC", "ABC", "ABC"), "ABC");
        // Without a product: the description alone.
        assert_eq!(p("", "", "Freight to Dubbo"), "Freight to Dubbo");
        assert_eq!(p("", "", ""), "");
        // Words are compared whole: '4' is not in 'Primacy 45'.
        assert_eq!(p("P", "Primacy 45", "4"), "P Primacy 45 · 4");
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
