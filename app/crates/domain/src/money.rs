//! Money as integer cents: parsing what staff type, display formats, GST and sheet totals.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::enums::TaxType;

/// An amount of Australian dollars in cents; sums are checked (`checked_add`), never clamped.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Cents(pub i64);

/// Why a typed amount was not accepted; `Display` is the message shown beside the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoneyError {
    /// Nothing was typed.
    Empty,
    /// The text is not an amount (letters, misplaced commas, two points, ...).
    Invalid,
    /// More than two digits after the decimal point.
    TooManyDecimals,
    /// A minus sign where only 0 or more is allowed.
    Negative,
    /// Beyond the largest amount the app accepts.
    TooLarge,
}

impl MoneyError {
    /// The message shown beside the field.
    pub const fn message(self) -> &'static str {
        match self {
            Self::Empty => "Please enter an amount",
            Self::Invalid => "Please enter a valid amount, e.g. 1234.56",
            Self::TooManyDecimals => "Use at most 2 decimal places",
            Self::Negative => "The amount cannot be negative",
            Self::TooLarge => "The amount is too large",
        }
    }
}

impl fmt::Display for MoneyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for MoneyError {}

/// GST is 10%, so a tax-inclusive amount holds 1/11 GST and its ex-GST part is 10/11.
const GST_DIVISOR: i128 = 11;

impl Cents {
    /// Zero dollars.
    pub const ZERO: Cents = Cents(0);

    /// The largest amount accepted from input: just under one billion dollars (10^11 cents),
    /// so a line of a million units stays far inside `i64`.
    pub const MAX_INPUT: Cents = Cents(99_999_999_999);

    /// Parses "12.5", "12.50", "$1,234.56", "-3" into cents; commas must group thousands.
    pub fn parse(text: &str) -> Result<Cents, MoneyError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoneyError::Empty);
        }
        // Accept the sign on either side of the dollar sign: "-$5" and "$-5".
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let rest = rest.strip_prefix('$').unwrap_or(rest).trim_start();
        let (negative, rest) = match rest.strip_prefix('-') {
            Some(inner) if !negative => (true, inner),
            Some(_) => return Err(MoneyError::Invalid),
            None => (negative, rest),
        };
        let (whole, fraction) = match rest.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (rest, None),
        };
        let whole_digits = grouped_digits(whole).ok_or(MoneyError::Invalid)?;
        let fraction = fraction.unwrap_or("");
        if !fraction.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoneyError::Invalid);
        }
        if whole_digits.is_empty() && fraction.is_empty() {
            return Err(MoneyError::Invalid);
        }
        if fraction.len() > 2 {
            return Err(MoneyError::TooManyDecimals);
        }
        let mut cents: i64 = 0;
        for digit in whole_digits
            .bytes()
            .chain(fraction.bytes())
            .chain("00".bytes().take(2 - fraction.len()))
        {
            cents = cents
                .checked_mul(10)
                .and_then(|c| c.checked_add(i64::from(digit - b'0')))
                .ok_or(MoneyError::TooLarge)?;
        }
        if cents > Self::MAX_INPUT.0 {
            return Err(MoneyError::TooLarge);
        }
        Ok(Cents(if negative { -cents } else { cents }))
    }

    /// Parses like [`Cents::parse`] but refuses amounts below zero ("-0" is zero and accepted).
    pub fn parse_non_negative(text: &str) -> Result<Cents, MoneyError> {
        let cents = Self::parse(text)?;
        if cents.0 < 0 {
            Err(MoneyError::Negative)
        } else {
            Ok(cents)
        }
    }

    /// Formats with thousands separators, e.g. "1,234.56" and "-0.05".
    pub fn grouped(self) -> String {
        let (sign, dollars, cents) = self.parts();
        format!("{sign}{}.{cents:02}", thousands(dollars))
    }

    /// Formats without separators, e.g. "1234.56", for inputs, exports and the accounting system.
    pub fn plain(self) -> String {
        let (sign, dollars, cents) = self.parts();
        format!("{sign}{dollars}.{cents:02}")
    }

    /// Whether the amount is below zero.
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    fn parts(self) -> (&'static str, u64, u64) {
        let abs = self.0.unsigned_abs();
        (if self.0 < 0 { "-" } else { "" }, abs / 100, abs % 100)
    }
}

impl fmt::Display for Cents {
    /// Shows the grouped form staff read on screens and prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.grouped())
    }
}

impl Cents {
    /// The sum, or `None` when it leaves `i64`.
    pub const fn checked_add(self, rhs: Cents) -> Option<Cents> {
        match self.0.checked_add(rhs.0) {
            Some(v) => Some(Cents(v)),
            None => None,
        }
    }

    /// The difference, or `None` when it leaves `i64`.
    pub const fn checked_sub(self, rhs: Cents) -> Option<Cents> {
        match self.0.checked_sub(rhs.0) {
            Some(v) => Some(Cents(v)),
            None => None,
        }
    }
}

/// The digits of a whole-dollar part, allowing commas only as thousands separators ("1,234").
fn grouped_digits(whole: &str) -> Option<String> {
    if !whole.contains(',') {
        return whole
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| whole.to_owned());
    }
    // Strict grouping keeps "1,50" (a decimal comma) from being read as 150 dollars.
    let mut groups = whole.split(',');
    let first = groups.next()?;
    if first.is_empty() || first.len() > 3 || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut digits = first.to_owned();
    for group in groups {
        if group.len() != 3 || !group.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.push_str(group);
    }
    Some(digits)
}

/// `numer / denom` rounded half away from zero; `denom` must be positive (a zero divisor gives 0).
pub fn div_round_half_away(numer: i128, denom: i128) -> i128 {
    let (Some(quotient), Some(remainder)) = (numer.checked_div(denom), numer.checked_rem(denom))
    else {
        return 0;
    };
    if remainder.abs() * 2 >= denom.abs() {
        quotient + numer.signum() * denom.signum()
    } else {
        quotient
    }
}

/// Narrows a wide intermediate result back to cents, saturating at the `i64` limits.
pub(crate) fn saturate(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}

/// A whole number with thousands separators, e.g. "10,000".
pub fn thousands(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let (sign, digits) = digits.strip_prefix('-').map_or(("", digits.as_str()), |d| ("-", d));
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    grouped.push_str(sign);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    grouped
}

/// The GST inside a tax-inclusive amount: 1/11 for tax types 2 and 3, nothing for No Tax.
pub fn gst_of_inclusive(amount: Cents, tax_type: TaxType) -> Cents {
    if tax_type.charges_gst() {
        Cents(saturate(div_round_half_away(
            i128::from(amount.0),
            GST_DIVISOR,
        )))
    } else {
        Cents::ZERO
    }
}

/// A tax-inclusive price without GST (price / 1.1), as printed for departments 7 and 8.
pub fn gst_exclusive_price(price: Cents) -> Cents {
    Cents(saturate(div_round_half_away(
        i128::from(price.0) * 10,
        GST_DIVISOR,
    )))
}

/// The amount of one line: quantity times unit price, or `None` when it leaves `i64`.
pub fn line_amount(qty: i64, price: Cents) -> Option<Cents> {
    qty.checked_mul(price.0).map(Cents)
}

/// A stored sheet whose lines add up beyond what money can hold; saved sheets never do
/// (their totals were checked on save), so this is a damaged row.
#[derive(Debug, thiserror::Error)]
#[error("the lines of sheet {0} add up beyond the largest amount")]
pub struct TotalsOverflow(pub String);

/// The footer of a sheet's lines: Total Qty, Total Amount, Total Tax and SubTotal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    /// Sum of line quantities.
    pub qty: i64,
    /// Sum of line amounts (tax-inclusive when the tax type charges GST).
    pub amount: Cents,
    /// GST contained in `amount`: 1/11 of the total, rounded once on the total.
    pub gst: Cents,
    /// `amount` without GST.
    pub subtotal: Cents,
    /// The sheet's tax type, which decides the GST and its label.
    pub tax_type: TaxType,
}

impl Totals {
    /// Totals of `(qty, line amount)` pairs under the sheet's tax type, or `None` when a sum
    /// leaves `i64` (input ranges keep real sheets far from it).
    pub fn from_lines<I: IntoIterator<Item = (i64, Cents)>>(lines: I, tax_type: TaxType) -> Option<Totals> {
        let (qty, amount) = lines
            .into_iter()
            .try_fold((0i64, Cents::ZERO), |(qty, amount), (q, a)| {
                Some((qty.checked_add(q)?, amount.checked_add(a)?))
            })?;
        // GST is taken from the total, not summed per line, as spec §9 states; per-line sums could drift by cents.
        let gst = gst_of_inclusive(amount, tax_type);
        Some(Totals {
            qty,
            amount,
            gst,
            subtotal: amount.checked_sub(gst)?,
            tax_type,
        })
    }

    /// The label beside Total Tax: '(GST 10%)' for tax types 2 and 3, else '(No Tax)'.
    pub const fn gst_label(&self) -> &'static str {
        self.tax_type.footer_label()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_staff_type() {
        let table: &[(&str, i64)] = &[
            ("12", 1200),
            ("12.5", 1250),
            ("12.50", 1250),
            ("12.05", 1205),
            ("0", 0),
            ("0.01", 1),
            (".5", 50),
            (".05", 5),
            ("12.", 1200),
            ("$12", 1200),
            ("$1,234.56", 123_456),
            ("1,234,567.89", 123_456_789),
            ("  7.5  ", 750),
            ("$ 7.50", 750),
            ("-3", -300),
            ("-$3.10", -310),
            ("$-3.10", -310),
            ("-0", 0),
            ("007", 700),
            ("999,999.99", 99_999_999),
            ("999,999,999.99", 99_999_999_999),
        ];
        for (text, cents) in table {
            assert_eq!(Cents::parse(text), Ok(Cents(*cents)), "{text:?}");
        }
    }

    #[test]
    fn rejects_bad_amounts_with_a_reason() {
        use MoneyError::*;
        let table: &[(&str, MoneyError)] = &[
            ("", Empty),
            ("   ", Empty),
            ("abc", Invalid),
            ("12a", Invalid),
            ("1.2.3", Invalid),
            ("1,50", Invalid),
            ("12,34.5", Invalid),
            (",123", Invalid),
            ("1,2345", Invalid),
            ("1 234", Invalid),
            ("$", Invalid),
            ("-", Invalid),
            (".", Invalid),
            ("--5", Invalid),
            ("-$-5", Invalid),
            ("+5", Invalid),
            ("5$", Invalid),
            ("1e3", Invalid),
            ("１２", Invalid),
            ("12.345", TooManyDecimals),
            ("12.500", TooManyDecimals),
            ("0.001", TooManyDecimals),
            ("1000000000", TooLarge),
            ("-1000000000", TooLarge),
            ("99999999999999999999999", TooLarge),
        ];
        for (text, err) in table {
            assert_eq!(Cents::parse(text), Err(*err), "{text:?}");
        }
    }

    #[test]
    fn non_negative_parse_refuses_minus() {
        assert_eq!(Cents::parse_non_negative("-1"), Err(MoneyError::Negative));
        assert_eq!(
            Cents::parse_non_negative("-0.01"),
            Err(MoneyError::Negative)
        );
        assert_eq!(Cents::parse_non_negative("-0"), Ok(Cents(0)));
        assert_eq!(Cents::parse_non_negative("0.01"), Ok(Cents(1)));
        assert_eq!(
            Cents::parse_non_negative("1.234"),
            Err(MoneyError::TooManyDecimals)
        );
        assert_eq!(Cents::parse_non_negative(""), Err(MoneyError::Empty));
    }

    #[test]
    fn error_messages_are_readable() {
        assert_eq!(MoneyError::Empty.to_string(), "Please enter an amount");
        assert_eq!(
            MoneyError::Invalid.to_string(),
            "Please enter a valid amount, e.g. 1234.56"
        );
        assert_eq!(
            MoneyError::TooManyDecimals.to_string(),
            "Use at most 2 decimal places"
        );
        assert_eq!(
            MoneyError::Negative.to_string(),
            "The amount cannot be negative"
        );
        assert_eq!(MoneyError::TooLarge.to_string(), "The amount is too large");
    }

    #[test]
    fn formats_grouped_and_plain() {
        let table: &[(i64, &str, &str)] = &[
            (0, "0.00", "0.00"),
            (5, "0.05", "0.05"),
            (50, "0.50", "0.50"),
            (100, "1.00", "1.00"),
            (99_999, "999.99", "999.99"),
            (100_000, "1,000.00", "1000.00"),
            (123_456, "1,234.56", "1234.56"),
            (123_456_789, "1,234,567.89", "1234567.89"),
            (100_000_000, "1,000,000.00", "1000000.00"),
            (-5, "-0.05", "-0.05"),
            (-123_456, "-1,234.56", "-1234.56"),
            (
                i64::MIN,
                "-92,233,720,368,547,758.08",
                "-92233720368547758.08",
            ),
        ];
        for (cents, grouped, plain) in table {
            assert_eq!(Cents(*cents).grouped(), *grouped);
            assert_eq!(Cents(*cents).to_string(), *grouped);
            assert_eq!(Cents(*cents).plain(), *plain);
        }
    }

    #[test]
    fn formatting_round_trips_through_parse() {
        for cents in [0, 1, 99, 100, 12_345, 123_456_789, -1, -100_050] {
            assert_eq!(Cents::parse(&Cents(cents).grouped()), Ok(Cents(cents)));
            assert_eq!(Cents::parse(&Cents(cents).plain()), Ok(Cents(cents)));
        }
    }

    #[test]
    fn arithmetic_is_checked_never_clamped() {
        assert_eq!(Cents(100).checked_add(Cents(250)), Some(Cents(350)));
        assert_eq!(Cents(100).checked_sub(Cents(250)), Some(Cents(-150)));
        assert_eq!(Cents(i64::MAX).checked_add(Cents(1)), None);
        assert_eq!(Cents(i64::MIN).checked_sub(Cents(1)), None);
        assert!(Cents(-1).is_negative());
        assert!(!Cents(0).is_negative());
    }

    #[test]
    fn serializes_as_integer_cents() {
        assert_eq!(
            serde_json::to_string(&Cents(1250)).expect("serialize"),
            "1250"
        );
        assert_eq!(
            serde_json::from_str::<Cents>("-7").expect("deserialize"),
            Cents(-7)
        );
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        let table: &[(i128, i128, i128)] = &[
            (10, 4, 3),
            (-10, 4, -3),
            (9, 4, 2),
            (-9, 4, -2),
            (11, 4, 3),
            (5, 11, 0),
            (6, 11, 1),
            (-6, 11, -1),
            (0, 11, 0),
            (7, 0, 0),
        ];
        for (n, d, q) in table {
            assert_eq!(div_round_half_away(*n, *d), *q, "{n}/{d}");
        }
        assert_eq!(saturate(i128::MAX), i64::MAX);
        assert_eq!(saturate(i128::MIN), i64::MIN);
        assert_eq!(saturate(42), 42);
    }

    #[test]
    fn gst_is_one_eleventh_for_tax_types_2_and_3() {
        // (amount, gst) for tax types 2 and 3
        let table: &[(i64, i64)] = &[
            (11_000, 1_000),
            (110, 10),
            (100, 9),    // 9.09 rounds down
            (1_000, 91), // 90.909 rounds up
            (5, 0),      // 0.4545
            (6, 1),      // 0.5454
            (55, 5),     // exactly 5
            (165, 15),
            (-11_000, -1_000),
            (-6, -1),
            (0, 0),
        ];
        for (amount, gst) in table {
            for tax in [TaxType::TaxInclusive, TaxType::GstOnIncome] {
                assert_eq!(
                    gst_of_inclusive(Cents(*amount), tax),
                    Cents(*gst),
                    "{amount} under {tax:?}"
                );
            }
            assert_eq!(
                gst_of_inclusive(Cents(*amount), TaxType::NoTax),
                Cents(0),
                "No Tax carries no GST"
            );
        }
    }

    #[test]
    fn gst_exclusive_price_divides_by_1_1() {
        let table: &[(i64, i64)] = &[
            (11_000, 10_000),
            (110, 100),
            (100, 91),        // 90.909
            (15_999, 14_545), // 14544.5454 rounds up
            (1, 1),           // 0.909
            (0, 0),
            (-110, -100),
            (165, 150),
        ];
        for (price, ex) in table {
            assert_eq!(gst_exclusive_price(Cents(*price)), Cents(*ex), "{price}");
        }
    }

    #[test]
    fn line_amount_is_qty_times_price() {
        assert_eq!(line_amount(4, Cents(12_550)), Some(Cents(50_200)));
        assert_eq!(line_amount(0, Cents(12_550)), Some(Cents(0)));
        assert_eq!(line_amount(3, Cents(0)), Some(Cents(0)));
        assert_eq!(line_amount(-2, Cents(1_000)), Some(Cents(-2_000)));
        assert_eq!(line_amount(i64::MAX, Cents(100)), None, "an impossible amount is an error, not a clamp");
    }

    #[test]
    fn totals_with_gst() {
        let lines = [(4, Cents(44_000)), (2, Cents(11_000)), (1, Cents(1_000))];
        let totals = Totals::from_lines(lines, TaxType::GstOnIncome).unwrap();
        assert_eq!(totals.qty, 7);
        assert_eq!(totals.amount, Cents(56_000));
        assert_eq!(totals.gst, Cents(5_091)); // 5090.909
        assert_eq!(totals.subtotal, Cents(50_909));
        assert_eq!(totals.gst.checked_add(totals.subtotal), Some(totals.amount));
        assert_eq!(totals.gst_label(), "(GST 10%)");
        let inclusive = Totals::from_lines(lines, TaxType::TaxInclusive).unwrap();
        assert_eq!(inclusive.gst, Cents(5_091));
        assert_eq!(inclusive.gst_label(), "(GST 10%)");
    }

    #[test]
    fn totals_without_tax() {
        let totals = Totals::from_lines([(3, Cents(3_300))], TaxType::NoTax).unwrap();
        assert_eq!(totals.gst, Cents(0));
        assert_eq!(totals.subtotal, Cents(3_300));
        assert_eq!(totals.gst_label(), "(No Tax)");
    }

    #[test]
    fn gst_is_rounded_once_on_the_total() {
        // Ten lines of 0.05: per line the GST rounds to 0.00 each, on the 0.50 total it is 0.045 -> 0.05.
        let lines = std::iter::repeat_n((1, Cents(5)), 10);
        let totals = Totals::from_lines(lines, TaxType::GstOnIncome).unwrap();
        assert_eq!(totals.amount, Cents(50));
        assert_eq!(totals.gst, Cents(5));
    }

    #[test]
    fn a_total_beyond_i64_is_refused() {
        assert_eq!(Totals::from_lines([(1, Cents(i64::MAX)), (1, Cents(1))], TaxType::NoTax), None);
        assert_eq!(Totals::from_lines([(i64::MAX, Cents(0)), (1, Cents(0))], TaxType::NoTax), None);
    }

    #[test]
    fn empty_sheet_totals_are_zero() {
        let totals = Totals::from_lines(std::iter::empty(), TaxType::default()).unwrap();
        assert_eq!(
            (totals.qty, totals.amount, totals.gst, totals.subtotal),
            (0, Cents(0), Cents(0), Cents(0))
        );
    }
}
