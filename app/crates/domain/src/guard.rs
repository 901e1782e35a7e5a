//! The approval guard of invoices (spec §4, DESIGN §5), the warnings any approval confirms
//! first (issue 29: a sale at $0.00, stock taken below zero), and the line notices of the
//! sheet form (spec §5).

use super::enums::{OrderType, Role};
use super::money::Cents;

/// A line priced this far (or further) below Class A needs an approver: $10.
pub const GUARD_PRICE_GAP: Cents = Cents(1_000);

/// A line priced more than this below Class A gets a notice while editing: 3 AUD.
pub const NOTICE_PRICE_GAP: Cents = Cents(300);

/// The title of the approver's confirmation dialog.
pub const CONFIRM_TITLE: &str = "Confirm Approve";

/// The question that ends the approver's confirmation dialog.
pub const CONFIRM_QUESTION: &str = "Approve now?";

/// What joins several reasons in one message.
pub const REASON_SEPARATOR: &str = " *AND* ";

/// Reason (c): the customer pays Cash Before Delivery.
pub const CBD_REASON: &str = "This is CBD (Cash Before Delivery) customer.";

/// The refusal of an approver without the accountant permit on a CBD customer.
pub const NEEDS_ACCOUNTANT_PERMIT: &str =
    "You need Accountant-Permit. And This is CBD (Cash Before Delivery) customer.";

/// The notice beside an invoice line priced more than 3 AUD below Class A/COD.
pub const PRICE_NOTICE: &str = "The price is more than 3 AUD below PriceA / COD.";

/// One invoice line as the guard sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardLine {
    /// The 1-based line number shown to staff.
    pub line_no: usize,
    /// The unit price on the line.
    pub price: Cents,
    /// The product's Class A/COD price.
    pub class_a: Cents,
}

/// Everything the guard needs to decide on one approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardInput<'a> {
    /// The sheet's type; only invoices are guarded.
    pub order_type: OrderType,
    /// The sheet's lines.
    pub lines: &'a [GuardLine],
    /// The customer's credit limit; zero means no limit.
    pub credit_limit: Cents,
    /// The customer's balance in the accounting system.
    pub balance: Cents,
    /// Whether the customer's payment type is CBD.
    pub is_cbd: bool,
    /// The approving user's role in this company.
    pub role: Role,
    /// Whether the user holds the accountant permit.
    pub is_acct: bool,
    /// Whether the user already answered 'Approve now?' with yes.
    pub confirmed: bool,
    /// What whoever approves is asked to confirm first, whatever their role ([`warnings`]).
    pub warnings: &'a [String],
    /// The company's overdue rule: days past due beyond which an invoice of the customer
    /// stops the approval (`None`: off, the default).
    pub overdue_guard_days: Option<i32>,
    /// How many whole days the customer's longest-overdue sent invoice is past due, as Xero
    /// last said (`payments::days_overdue`; 0 when none is).
    pub days_overdue: i64,
    /// Reason (b3), issue 36: the invoice would sell tyres older than the company's limit to a
    /// customer who has not accepted them ([`old_tyre_reason`]).
    pub old_tyres: Option<&'a str>,
}

/// The guard's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuardOutcome {
    /// Approve.
    Proceed,
    /// Do not approve; show the message.
    Refused(String),
    /// Ask the approver first: title [`CONFIRM_TITLE`], then `message`, then [`CONFIRM_QUESTION`].
    NeedsConfirmation {
        /// The triggered reasons, in order: lines, balance, CBD.
        reasons: Vec<String>,
        /// The reasons joined by ' *AND* '.
        message: String,
    },
}

/// The reasons that stop an invoice approval, in the order lines (a), balance (b), CBD (c).
///
/// Amounts in reason (b) are plain dollars with two decimals ("1500.00"), the form the original showed.
pub fn guard_reasons(
    lines: &[GuardLine],
    credit_limit: Cents,
    balance: Cents,
    is_cbd: bool,
) -> Vec<String> {
    let mut reasons: Vec<String> = lines
        .iter()
        .filter(|line| line.class_a.checked_sub(line.price).is_some_and(|gap| gap >= GUARD_PRICE_GAP))
        .map(|line| {
            format!(
                "The price of line {} is $10 (or more) lower than PriceA.",
                line.line_no
            )
        })
        .collect();
    if credit_limit != Cents::ZERO && balance > credit_limit {
        reasons.push(format!(
            "Current Xero Balance {} greater than his Limit {}",
            balance.plain(),
            credit_limit.plain()
        ));
    }
    if is_cbd {
        reasons.push(CBD_REASON.to_owned());
    }
    reasons
}

/// Reason (b2), issue 31: the customer has a sent invoice more than `setting` days past
/// due with something still due, when the company's overdue rule is on.
pub fn overdue_reason(setting: Option<i32>, days_overdue: i64) -> Option<String> {
    let limit = setting?;
    (days_overdue > i64::from(limit)).then(|| format!("Customer has invoices overdue more than {limit} days"))
}

/// Reason (b3), issue 36: when the company set a limit of `years` (off by default) and the
/// customer has not accepted old tyres, the tyres the invoice takes (product code and DOT
/// code) that are `years` old or more on `today`, named.
pub fn old_tyre_reason(years: Option<i32>, accepts: bool, taken: &[(String, crate::dot::Dot)], today: chrono::NaiveDate) -> Option<String> {
    let years = years.filter(|_| !accepts)?;
    let old: Vec<String> = taken.iter().filter(|(_, d)| d.older_than(years, today)).map(|(code, d)| format!("{code} DOT {}", d.code())).collect();
    (!old.is_empty()).then(|| format!("Tyres {years} years old or more for a customer who has not accepted them: {}", old.join(", ")))
}

/// The invoice guard's reasons for `input`, in the order lines (a), balance (b), overdue
/// (b2, when the company's rule is on), CBD (c); none for other sheet types.
pub fn invoice_reasons(input: &GuardInput<'_>) -> Vec<String> {
    if input.order_type != OrderType::Invoice {
        return vec![];
    }
    let mut reasons = guard_reasons(input.lines, input.credit_limit, input.balance, false);
    reasons.extend(overdue_reason(input.overdue_guard_days, input.days_overdue));
    reasons.extend(input.old_tyres.map(str::to_owned));
    if input.is_cbd {
        reasons.push(CBD_REASON.to_owned());
    }
    reasons
}

/// A stock shortfall as the confirmation names it: product code, warehouse name, and what
/// would be left (below zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortfall {
    pub code: String,
    pub warehouse: String,
    pub left: i64,
}

/// What any approval of a sheet of type `order_type` asks to confirm first, after the guard's
/// own reasons: each sales line priced at $0.00 (invoices and credit notes; a sale at a
/// price nobody set), then each product the approval would take below zero (DESIGN §5:
/// negative stock is allowed, but the one approving is warned before, not after).
pub fn warnings(order_type: OrderType, lines: &[GuardLine], shortfalls: &[Shortfall]) -> Vec<String> {
    let sales = matches!(order_type, OrderType::Invoice | OrderType::CreditNote);
    lines
        .iter()
        .filter(|l| sales && l.price == Cents::ZERO)
        .map(|l| format!("Line {} is priced at $0.00.", l.line_no))
        .chain(shortfalls.iter().map(|s| format!("Stock of {} at {} would be {} after approval.", s.code, s.warehouse, s.left)))
        .collect()
}

/// Decides whether an approval goes ahead, is refused, or needs confirmation. The guard's
/// reasons (invoices only) keep spec §4's rules: a role other than 4 is refused, an approver
/// without the accountant permit is refused on a CBD customer, an approver confirms. The
/// [`warnings`] are confirmed by whoever approves; they never refuse on their own.
pub fn approval_guard(input: &GuardInput<'_>) -> GuardOutcome {
    let mut reasons = invoice_reasons(input);
    if !reasons.is_empty() {
        if !input.role.is_approver() {
            return GuardOutcome::Refused(format!("{} Contact manager.", reasons.join(REASON_SEPARATOR)));
        }
        // A confirmation cannot stand in for the accountant permit on a CBD customer.
        if input.is_cbd && !input.is_acct {
            return GuardOutcome::Refused(NEEDS_ACCOUNTANT_PERMIT.to_owned());
        }
    }
    reasons.extend(input.warnings.iter().cloned());
    if reasons.is_empty() || input.confirmed {
        return GuardOutcome::Proceed;
    }
    let message = reasons.join(REASON_SEPARATOR);
    GuardOutcome::NeedsConfirmation { reasons, message }
}

/// The notice for an invoice line priced more than 3 AUD below Class A/COD, if any.
pub fn price_notice(price: Cents, class_a: Cents) -> Option<&'static str> {
    class_a.checked_sub(price).is_some_and(|gap| gap > NOTICE_PRICE_GAP).then_some(PRICE_NOTICE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(line_no: usize, price: i64, class_a: i64) -> GuardLine {
        GuardLine {
            line_no,
            price: Cents(price),
            class_a: Cents(class_a),
        }
    }

    fn input<'a>(lines: &'a [GuardLine], role: Role) -> GuardInput<'a> {
        GuardInput {
            order_type: OrderType::Invoice,
            lines,
            credit_limit: Cents::ZERO,
            balance: Cents::ZERO,
            is_cbd: false,
            role,
            is_acct: false,
            confirmed: false,
            warnings: &[],
            overdue_guard_days: None,
            days_overdue: 0,
            old_tyres: None,
        }
    }

    const OVERDUE_30: &str = "Customer has invoices overdue more than 30 days";

    #[test]
    fn old_tyres_need_the_setting_a_customer_who_did_not_accept_them_and_an_old_code() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        let dot = |c: &str| crate::dot::Dot::parse(c, today).unwrap();
        let taken = [("PCR1".to_owned(), dot("2320")), ("PCR2".to_owned(), dot("2325"))];
        let reason = old_tyre_reason(Some(5), false, &taken, today);
        assert_eq!(reason.as_deref(), Some("Tyres 5 years old or more for a customer who has not accepted them: PCR1 DOT 2320"));
        assert_eq!(old_tyre_reason(None, false, &taken, today), None, "off by default");
        assert_eq!(old_tyre_reason(Some(5), true, &taken, today), None, "the customer accepted old tyres");
        assert_eq!(old_tyre_reason(Some(7), false, &taken, today), None, "none that old");
        // Below approver the reason refuses; an approver confirms it.
        let text = reason.unwrap();
        let sales = GuardInput { old_tyres: Some(&text), ..input(&[], Role::Sales) };
        assert_eq!(approval_guard(&sales), GuardOutcome::Refused(format!("{text} Contact manager.")));
        let approver = GuardInput { role: Role::Approver, ..sales };
        assert!(matches!(approval_guard(&approver), GuardOutcome::NeedsConfirmation { .. }));
    }

    #[test]
    fn the_overdue_reason_needs_the_rule_on_and_an_invoice_past_it() {
        assert_eq!(overdue_reason(None, 400), None, "off by default");
        assert_eq!(overdue_reason(Some(30), 30), None, "exactly 30 days is not more than 30");
        assert_eq!(overdue_reason(Some(30), 31).as_deref(), Some(OVERDUE_30));
        assert_eq!(overdue_reason(Some(0), 1).as_deref(), Some("Customer has invoices overdue more than 0 days"));
        assert_eq!(overdue_reason(Some(0), 0), None);
    }

    #[test]
    fn the_overdue_reason_joins_the_guard_before_cbd_and_refuses_below_approver() {
        let lines = [line(2, 0, 5_000)];
        let on = GuardInput { overdue_guard_days: Some(30), days_overdue: 45, credit_limit: Cents(100), balance: Cents(200), is_cbd: true, ..input(&lines, Role::Sales) };
        assert_eq!(invoice_reasons(&on), [LINE_2, "Current Xero Balance 2.00 greater than his Limit 1.00", OVERDUE_30, CBD_REASON]);
        let alone = GuardInput { overdue_guard_days: Some(30), days_overdue: 45, ..input(&[], Role::Sales) };
        assert_eq!(approval_guard(&alone), GuardOutcome::Refused(format!("{OVERDUE_30} Contact manager.")));
        let approver = GuardInput { role: Role::Approver, ..alone };
        assert_eq!(approval_guard(&approver), GuardOutcome::NeedsConfirmation { reasons: vec![OVERDUE_30.to_string()], message: OVERDUE_30.to_string() });
        assert_eq!(approval_guard(&GuardInput { confirmed: true, ..approver }), GuardOutcome::Proceed);
        // Off, or not past the setting: nothing to say.
        assert_eq!(approval_guard(&GuardInput { overdue_guard_days: None, ..alone }), GuardOutcome::Proceed);
        assert_eq!(approval_guard(&GuardInput { days_overdue: 30, ..alone }), GuardOutcome::Proceed);
        // Other sheet types are not guarded.
        assert_eq!(approval_guard(&GuardInput { order_type: OrderType::CreditNote, ..alone }), GuardOutcome::Proceed);
    }

    const LINE_2: &str = "The price of line 2 is $10 (or more) lower than PriceA.";

    #[test]
    fn line_reason_starts_at_exactly_ten_dollars_below_class_a() {
        // (price, class A, reason?)
        let table = [
            (10_000, 11_000, true),  // exactly $10 below
            (10_001, 11_000, false), // $9.99 below
            (5_000, 11_000, true),
            (0, 1_000, true),
            (11_000, 11_000, false),
            (12_000, 11_000, false), // above class A
            (0, 0, false),           // no class A price
            (0, 999, false),
        ];
        for (price, class_a, flagged) in table {
            let reasons =
                guard_reasons(&[line(2, price, class_a)], Cents::ZERO, Cents::ZERO, false);
            let expected: Vec<String> = if flagged {
                vec![LINE_2.to_owned()]
            } else {
                vec![]
            };
            assert_eq!(reasons, expected, "price {price} vs class A {class_a}");
        }
    }

    #[test]
    fn one_reason_per_offending_line_in_line_order() {
        let lines = [
            line(1, 5_000, 20_000),
            line(2, 19_500, 20_000),
            line(3, 100, 1_100),
        ];
        assert_eq!(
            guard_reasons(&lines, Cents::ZERO, Cents::ZERO, false),
            [
                "The price of line 1 is $10 (or more) lower than PriceA.",
                "The price of line 3 is $10 (or more) lower than PriceA."
            ]
        );
    }

    #[test]
    fn balance_reason_needs_a_limit_and_a_balance_above_it() {
        // (limit, balance, reason?)
        let table = [
            (
                100_000,
                150_000,
                Some("Current Xero Balance 1500.00 greater than his Limit 1000.00"),
            ),
            (
                100_000,
                100_001,
                Some("Current Xero Balance 1000.01 greater than his Limit 1000.00"),
            ),
            (100_000, 100_000, None), // equal is within the limit
            (100_000, 50_000, None),
            (0, 999_999_999, None), // zero limit means no limit
            (
                123_456_789,
                200_000_000,
                Some("Current Xero Balance 2000000.00 greater than his Limit 1234567.89"),
            ),
        ];
        for (limit, balance, reason) in table {
            let reasons = guard_reasons(&[], Cents(limit), Cents(balance), false);
            let expected: Vec<String> = reason.into_iter().map(str::to_owned).collect();
            assert_eq!(reasons, expected, "limit {limit} balance {balance}");
        }
    }

    #[test]
    fn reasons_come_in_the_order_lines_balance_cbd() {
        let lines = [line(2, 0, 5_000)];
        assert_eq!(
            guard_reasons(&lines, Cents(100), Cents(200), true),
            [
                LINE_2,
                "Current Xero Balance 2.00 greater than his Limit 1.00",
                "This is CBD (Cash Before Delivery) customer."
            ]
        );
    }

    #[test]
    fn no_reasons_proceed_at_once_for_every_role() {
        let lines = [line(1, 11_000, 11_000)];
        for role in Role::ALL {
            for is_acct in [false, true] {
                for confirmed in [false, true] {
                    let guard = GuardInput {
                        is_acct,
                        confirmed,
                        ..input(&lines, *role)
                    };
                    assert_eq!(approval_guard(&guard), GuardOutcome::Proceed, "{role:?}");
                }
            }
        }
    }

    #[test]
    fn other_sheet_types_are_not_guarded() {
        let lines = [line(1, 0, 100_000)];
        for t in OrderType::ALL.iter().filter(|t| **t != OrderType::Invoice) {
            let guard = GuardInput {
                order_type: *t,
                is_cbd: true,
                ..input(&lines, Role::Sales)
            };
            assert_eq!(approval_guard(&guard), GuardOutcome::Proceed, "{t:?}");
        }
    }

    #[test]
    fn roles_other_than_approver_are_refused_with_contact_manager() {
        let lines = [line(2, 0, 5_000)];
        for role in Role::ALL.iter().filter(|r| !r.is_approver()) {
            for (is_acct, confirmed) in [(false, false), (true, true)] {
                let guard = GuardInput {
                    is_acct,
                    confirmed,
                    ..input(&lines, *role)
                };
                assert_eq!(
                    approval_guard(&guard),
                    GuardOutcome::Refused(format!("{LINE_2} Contact manager.")),
                    "{role:?}: confirming does not help"
                );
            }
        }
        let guard = GuardInput {
            is_cbd: true,
            ..input(&lines, Role::Service)
        };
        assert_eq!(
            approval_guard(&guard),
            GuardOutcome::Refused(format!(
                "{LINE_2} *AND* This is CBD (Cash Before Delivery) customer. Contact manager."
            ))
        );
    }

    #[test]
    fn approver_without_permit_on_cbd_customer_is_refused_even_when_confirming() {
        let lines = [line(2, 0, 5_000)];
        for (line_set, confirmed) in [(&lines[..], false), (&lines[..], true), (&[][..], false)] {
            let guard = GuardInput {
                is_cbd: true,
                confirmed,
                ..input(line_set, Role::Approver)
            };
            assert_eq!(
                approval_guard(&guard),
                GuardOutcome::Refused(NEEDS_ACCOUNTANT_PERMIT.to_owned())
            );
        }
        assert_eq!(
            NEEDS_ACCOUNTANT_PERMIT,
            "You need Accountant-Permit. And This is CBD (Cash Before Delivery) customer."
        );
    }

    #[test]
    fn approver_is_asked_to_confirm_then_proceeds() {
        let lines = [line(2, 0, 5_000)];
        let cases = [
            (false, false, vec![LINE_2.to_owned()]),
            (true, false, vec![LINE_2.to_owned()]),
            (true, true, vec![LINE_2.to_owned(), CBD_REASON.to_owned()]),
        ];
        for (is_acct, is_cbd, reasons) in cases {
            let guard = GuardInput {
                is_acct,
                is_cbd,
                credit_limit: Cents::ZERO,
                ..input(&lines, Role::Approver)
            };
            let message = reasons.join(" *AND* ");
            assert_eq!(
                approval_guard(&guard),
                GuardOutcome::NeedsConfirmation { reasons, message }
            );
            let confirmed = GuardInput {
                confirmed: true,
                ..guard
            };
            assert_eq!(approval_guard(&confirmed), GuardOutcome::Proceed);
        }
    }

    #[test]
    fn confirmation_message_joins_every_reason() {
        let lines = [line(1, 0, 2_000), line(4, 0, 3_000)];
        let guard = GuardInput {
            credit_limit: Cents(50_000),
            balance: Cents(60_000),
            is_cbd: true,
            is_acct: true,
            ..input(&lines, Role::Approver)
        };
        let GuardOutcome::NeedsConfirmation { reasons, message } = approval_guard(&guard) else {
            panic!("expected a confirmation");
        };
        assert_eq!(reasons.len(), 4);
        assert_eq!(
            message,
            "The price of line 1 is $10 (or more) lower than PriceA. *AND* \
             The price of line 4 is $10 (or more) lower than PriceA. *AND* \
             Current Xero Balance 600.00 greater than his Limit 500.00 *AND* \
             This is CBD (Cash Before Delivery) customer."
        );
        assert_eq!(
            (CONFIRM_TITLE, CONFIRM_QUESTION),
            ("Confirm Approve", "Approve now?")
        );
    }

    #[test]
    fn zero_priced_sales_lines_and_shortfalls_are_warned_in_that_order() {
        let lines = [line(1, 0, 0), line(2, 500, 400), line(3, 0, 900)];
        let short = [Shortfall { code: "2055516-MICH".into(), warehouse: "Tempe (Main)".into(), left: -4 }];
        for t in [OrderType::Invoice, OrderType::CreditNote] {
            assert_eq!(
                warnings(t, &lines, &short),
                ["Line 1 is priced at $0.00.", "Line 3 is priced at $0.00.", "Stock of 2055516-MICH at Tempe (Main) would be -4 after approval."],
                "{t:?}"
            );
        }
        // A transfer or a bill credit note has no sale price: only the stock.
        for t in [OrderType::Transfer, OrderType::BillCreditNote] {
            assert_eq!(warnings(t, &lines, &short).len(), 1, "{t:?}");
        }
        assert!(warnings(OrderType::Invoice, &[line(1, 100, 0)], &[]).is_empty());
    }

    #[test]
    fn warnings_are_confirmed_by_whoever_approves_and_never_refuse() {
        let lines = [line(1, 11_000, 11_000)];
        let warned = ["Line 1 is priced at $0.00.".to_string()];
        for role in Role::ALL {
            for t in [OrderType::Invoice, OrderType::Transfer] {
                let guard = GuardInput { order_type: t, warnings: &warned, ..input(&lines, *role) };
                assert_eq!(
                    approval_guard(&guard),
                    GuardOutcome::NeedsConfirmation { reasons: warned.to_vec(), message: warned[0].clone() },
                    "{role:?} {t:?}"
                );
                assert_eq!(approval_guard(&GuardInput { confirmed: true, ..guard }), GuardOutcome::Proceed, "{role:?} {t:?}");
            }
        }
        // The guard's own reasons still refuse below role 4, without the warnings.
        let low = [line(2, 0, 5_000)];
        let guard = GuardInput { warnings: &warned, ..input(&low, Role::Sales) };
        assert_eq!(approval_guard(&guard), GuardOutcome::Refused(format!("{LINE_2} Contact manager.")));
        // An approver confirms both at once, the guard's reasons first.
        let guard = GuardInput { warnings: &warned, ..input(&low, Role::Approver) };
        let GuardOutcome::NeedsConfirmation { reasons, .. } = approval_guard(&guard) else { panic!("a confirmation") };
        assert_eq!(reasons, [LINE_2.to_string(), warned[0].clone()]);
    }

    #[test]
    fn price_notice_above_three_dollars_below_class_a() {
        // (price, class A, notice?)
        let table = [
            (10_000, 10_300, false), // exactly 3 AUD below: no notice
            (9_999, 10_300, true),   // 3.01 below
            (0, 301, true),
            (10_300, 10_300, false),
            (20_000, 10_300, false),
            (0, 0, false),
        ];
        for (price, class_a, notice) in table {
            let expected = notice.then_some("The price is more than 3 AUD below PriceA / COD.");
            assert_eq!(
                price_notice(Cents(price), Cents(class_a)),
                expected,
                "{price} vs {class_a}"
            );
        }
    }
}
