//! The customer statement (issue 33): for a customer and a month, the opening balance, the
//! month's invoices, credit notes and payments with a running balance, the closing balance
//! and its ageing by due date at the month's end. Laid out by `templates/pdf/statement.typ`.
//!
//! The ledger is the customer's approved invoices (debits) and credit notes (credits). A
//! payment is known only where the accounting link read it back: Xero says how much of an
//! invoice was paid and, once fully paid, on which day; that payment is a credit on that day.
//! A part-payment has no day in what Xero returns for an invoice, so it is not on the
//! statement (docs/decisions/documents.md).

use chrono::NaiveDate;

use super::document::{Company, CustomerBlock, Supplier, company_block, day};
use super::rules;
use domain::money::Cents;
use domain::statement::{Ageing, BUCKETS, Month};

/// What a ledger sheet is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetKind {
    Invoice,
    CreditNote,
}

/// An approved invoice or credit note of the customer, with what Xero said was paid on it.
#[derive(Debug, Clone)]
pub struct LedgerSheet {
    pub kind: SheetKind,
    pub no: String,
    pub date: NaiveDate,
    /// The due date; a sheet without one is due on its date.
    pub due: Option<NaiveDate>,
    pub reference: String,
    /// The sheet's total (positive; a credit note's is subtracted).
    pub amount: Cents,
    /// A payment read back from Xero: the day the invoice was fully paid and the amount paid.
    pub paid: Option<(NaiveDate, Cents)>,
}

/// The customer a statement is for.
#[derive(Debug, Clone, Default)]
pub struct StatementCustomer {
    pub name: String,
    pub code: String,
    pub address: String,
    pub phone: String,
    pub email: String,
}

/// One line of the month.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StatementRow {
    pub date: String,
    /// 'Invoice', 'Credit Note' or 'Payment'.
    pub kind: &'static str,
    pub no: String,
    pub reference: String,
    pub debit: String,
    pub credit: String,
    pub balance: String,
}

/// The statement as printed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StatementDoc {
    pub title: &'static str,
    /// `October 2026`.
    pub month: String,
    /// The statement's date: the month's last day.
    pub date: String,
    pub supplier: Supplier,
    pub customer: CustomerBlock,
    pub opening: String,
    pub rows: Vec<StatementRow>,
    pub closing: String,
    pub total_debit: String,
    pub total_credit: String,
    /// (bucket, amount) in order: Current, 1–30, 31–60, 61–90, 90+ days.
    pub ageing: Vec<(&'static str, String)>,
    /// What the statement knows of payments.
    pub payments_note: &'static str,
    pub bank: Option<super::document::Bank>,
}

/// The closing balance and ageing, without the printing: also what the statements job uses
/// to pick the customers with a balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balances {
    pub opening: Cents,
    pub closing: Cents,
    pub ageing: Ageing,
}

/// The note under the ledger.
pub const PAYMENTS_NOTE: &str = "Payments are those recorded in our accounts by the end of the month; a part-payment appears once the invoice is paid in full.";

/// Money as the statement prints it: `$1,234.50`, a credit balance `-$120.00`.
pub fn dollars(c: Cents) -> String {
    if c.0 < 0 { format!("-${}", Cents(c.0.saturating_neg()).grouped()) } else { format!("${}", c.grouped()) }
}

fn signed(s: &LedgerSheet) -> i64 {
    match s.kind {
        SheetKind::Invoice => s.amount.0,
        SheetKind::CreditNote => -s.amount.0,
    }
}

/// A payment counts from its day; `None` when it is unknown or after `by`.
fn paid_by(s: &LedgerSheet, by: NaiveDate) -> i64 {
    match (s.kind, s.paid) {
        (SheetKind::Invoice, Some((on, amount))) if on <= by => amount.0,
        _ => 0,
    }
}

/// Opening and closing balance and the ageing at the month's end of `sheets`.
pub fn balances(sheets: &[LedgerSheet], month: Month) -> Balances {
    let before = month.first.pred_opt().unwrap_or(month.first);
    let opening = sheets.iter().filter(|s| s.date < month.first).map(|s| signed(s) - paid_by(s, before)).sum::<i64>();
    let outstanding: Vec<(NaiveDate, Cents)> = sheets
        .iter()
        .filter(|s| s.date <= month.last)
        .map(|s| (s.due.unwrap_or(s.date), Cents(signed(s) - paid_by(s, month.last))))
        .filter(|(_, c)| c.0 != 0)
        .collect();
    let ageing = Ageing::of(outstanding, month.last);
    Balances { opening: Cents(opening), closing: ageing.total(), ageing }
}

/// The statement of `customer` for `month` from all the customer's ledger sheets.
pub fn build(company: &Company, customer: &StatementCustomer, sheets: &[LedgerSheet], month: Month) -> StatementDoc {
    let b = balances(sheets, month);
    let in_month = |d: NaiveDate| d >= month.first && d <= month.last;
    // The month's lines: each sheet on its date, each payment on its day; by date, then
    // sheets before payments, then by number.
    let mut lines: Vec<(NaiveDate, u8, &LedgerSheet, &'static str, i64)> = Vec::new();
    for s in sheets {
        if in_month(s.date) {
            let kind = if s.kind == SheetKind::Invoice { "Invoice" } else { "Credit Note" };
            lines.push((s.date, 0, s, kind, signed(s)));
        }
        if let (SheetKind::Invoice, Some((on, amount))) = (s.kind, s.paid)
            && in_month(on)
        {
            lines.push((on, 1, s, "Payment", -amount.0));
        }
    }
    lines.sort_by(|a, b| (a.0, a.1, &a.2.no).cmp(&(b.0, b.1, &b.2.no)));
    let mut running = b.opening.0;
    let (mut debit, mut credit) = (0i64, 0i64);
    let rows = lines
        .into_iter()
        .map(|(date, _, s, kind, amount)| {
            running += amount;
            if amount >= 0 { debit += amount } else { credit -= amount }
            StatementRow {
                date: day(date),
                kind,
                no: s.no.clone(),
                reference: s.reference.trim().to_string(),
                debit: if amount >= 0 { Cents(amount).grouped() } else { String::new() },
                credit: if amount < 0 { Cents(-amount).grouped() } else { String::new() },
                balance: Cents(running).grouped(),
            }
        })
        .collect();
    debug_assert_eq!(running, b.closing.0, "the running balance ends at the aged closing balance");
    StatementDoc {
        title: "STATEMENT",
        month: month.label(),
        date: day(month.last),
        supplier: company_block(company),
        customer: CustomerBlock { name: customer.name.clone(), abn: rules::customer_abn(&customer.code), address: customer.address.trim().to_string(), phone: customer.phone.clone() },
        opening: dollars(b.opening),
        rows,
        closing: dollars(b.closing),
        total_debit: dollars(Cents(debit)),
        total_credit: dollars(Cents(credit)),
        ageing: BUCKETS.iter().zip(b.ageing.0).map(|(label, c)| (*label, dollars(c))).collect(),
        payments_note: PAYMENTS_NOTE,
        bank: (!company.bank_account.trim().is_empty()).then(|| super::document::Bank {
            account_name: company.bank_account_name.clone(),
            bsb: company.bsb.clone(),
            account: company.bank_account.clone(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::fixtures::company;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn inv(no: &str, date: NaiveDate, due: NaiveDate, amount: i64, paid: Option<(NaiveDate, i64)>) -> LedgerSheet {
        LedgerSheet { kind: SheetKind::Invoice, no: no.into(), date, due: Some(due), reference: String::new(), amount: Cents(amount), paid: paid.map(|(d, a)| (d, Cents(a))) }
    }

    fn cn(no: &str, date: NaiveDate, amount: i64) -> LedgerSheet {
        LedgerSheet { kind: SheetKind::CreditNote, no: no.into(), date, due: None, reference: "RET-1".into(), amount: Cents(amount), paid: None }
    }

    /// Before October: 1,000 (paid in September) + 300 due in July; in October: an
    /// invoice of 500, a credit note of 120, the payment of an August invoice of 200.
    fn ledger() -> Vec<LedgerSheet> {
        vec![
            inv("INV-000001", d(2026, 6, 20), d(2026, 7, 20), 300_00, None),
            inv("INV-000002", d(2026, 8, 10), d(2026, 9, 10), 200_00, Some((d(2026, 10, 5), 200_00))),
            inv("INV-000003", d(2026, 9, 1), d(2026, 9, 15), 1_000_00, Some((d(2026, 9, 20), 1_000_00))),
            inv("INV-000004", d(2026, 10, 12), d(2026, 11, 12), 500_00, None),
            cn("CN-000001", d(2026, 10, 20), 120_00),
            inv("INV-000005", d(2026, 11, 2), d(2026, 12, 2), 999_00, None),
        ]
    }

    #[test]
    fn opening_lines_running_balance_and_closing() {
        let month = Month::of(d(2026, 10, 1));
        let doc = build(&company(4), &StatementCustomer { name: "Harbour Auto".into(), ..Default::default() }, &ledger(), month);
        assert_eq!((doc.title, doc.month.as_str(), doc.date.as_str()), ("STATEMENT", "October 2026", "31 Oct 2026"));
        assert_eq!(doc.opening, "$500.00", "300 + 200 unpaid before October; 1,000 paid in September");
        let got: Vec<(&str, &str, &str, &str, &str)> = doc.rows.iter().map(|r| (r.kind, r.no.as_str(), r.debit.as_str(), r.credit.as_str(), r.balance.as_str())).collect();
        assert_eq!(
            got,
            vec![
                ("Payment", "INV-000002", "", "200.00", "300.00"),
                ("Invoice", "INV-000004", "500.00", "", "800.00"),
                ("Credit Note", "CN-000001", "", "120.00", "680.00"),
            ]
        );
        assert_eq!(doc.rows[2].reference, "RET-1");
        assert_eq!((doc.closing.as_str(), doc.total_debit.as_str(), doc.total_credit.as_str()), ("$680.00", "$500.00", "$320.00"));
        // At 31 Oct: 500 not yet due; the credit note (due on its date, 11 days ago) −120;
        // the July invoice 103 days past due.
        let ageing: Vec<&str> = doc.ageing.iter().map(|a| a.1.as_str()).collect();
        assert_eq!(ageing, vec!["$500.00", "-$120.00", "$0.00", "$0.00", "$300.00"]);
    }

    #[test]
    fn a_payment_after_the_month_does_not_count_and_nothing_after_it_shows() {
        let mut sheets = ledger();
        sheets[3].paid = Some((d(2026, 11, 3), Cents(500_00)));
        let b = balances(&sheets, Month::of(d(2026, 10, 1)));
        assert_eq!(b.closing, Cents(680_00));
        let nov = balances(&sheets, Month::of(d(2026, 11, 1)));
        assert_eq!((nov.opening, nov.closing), (Cents(680_00), Cents(680_00 - 500_00 + 999_00)));
    }

    #[test]
    fn a_customer_with_nothing_has_zero_balances() {
        let b = balances(&[], Month::of(d(2026, 10, 1)));
        assert_eq!((b.opening, b.closing), (Cents::ZERO, Cents::ZERO));
        let doc = build(&company(4), &StatementCustomer::default(), &[], Month::of(d(2026, 10, 1)));
        assert!(doc.rows.is_empty());
        assert_eq!(doc.closing, "$0.00");
    }
}
