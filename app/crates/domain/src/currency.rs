//! Foreign currencies on purchase sheets (issue 35): the currencies a supplier may bill in,
//! exchange rates and the conversion of a sheet's lines to AUD.
//!
//! A rate is written as Xero writes its `CurrencyRate`: units of the foreign currency that
//! one AUD buys ('1 AUD = 0.6520 USD'), kept in millionths (Xero rounds rates to six
//! decimals). Every amount in a foreign currency is in hundredths of it, like [`Cents`].

use std::fmt;

use super::money::{Cents, div_round_half_away, line_amount};
use super::sheet::ValidLine;

/// The company's own currency: every figure of stock, cost, reports and margins.
pub const AUD: &str = "AUD";

/// The currencies a supplier may bill in (ISO 4217), with their names: the currencies an
/// Australian importer of tyres and parts meets; each is one Xero knows.
pub const CURRENCIES: &[(&str, &str)] = &[
    ("AUD", "Australian dollar"),
    ("USD", "US dollar"),
    ("EUR", "Euro"),
    ("GBP", "Pound sterling"),
    ("NZD", "New Zealand dollar"),
    ("CNY", "Chinese yuan"),
    ("HKD", "Hong Kong dollar"),
    ("JPY", "Japanese yen"),
    ("KRW", "South Korean won"),
    ("TWD", "New Taiwan dollar"),
    ("THB", "Thai baht"),
    ("IDR", "Indonesian rupiah"),
    ("MYR", "Malaysian ringgit"),
    ("SGD", "Singapore dollar"),
    ("VND", "Vietnamese dong"),
    ("INR", "Indian rupee"),
    ("CAD", "Canadian dollar"),
];

/// `code` when it is one of [`CURRENCIES`] (case ignored, spaces trimmed).
pub fn currency(code: &str) -> Result<&'static str, &'static str> {
    let code = code.trim();
    CURRENCIES.iter().map(|c| c.0).find(|c| c.eq_ignore_ascii_case(code)).ok_or(NOT_A_CURRENCY)
}

/// The message for a currency not in [`CURRENCIES`].
pub const NOT_A_CURRENCY: &str = "Choose a currency from the list.";

/// Millionths in one unit of a rate.
const SCALE: i64 = 1_000_000;

/// The smallest rate accepted: one AUD buys at least 0.0001 of the currency.
pub const MIN_RATE: Rate = Rate(100);
/// The largest rate accepted: one AUD buys at most 100,000 of the currency (the dong and the
/// rupiah are near 16,000 and 10,000).
pub const MAX_RATE: Rate = Rate(100_000 * SCALE);

/// How far a sheet's own rate may stray from the company's rate of its date before it is
/// taken for a slip (a decimal point, or the rate the other way round): a factor of two.
const OVERRIDE_FACTOR: i64 = 2;

/// An exchange rate: units of the foreign currency per 1 AUD, in millionths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate(pub i64);

/// Why a typed rate was refused; `Display` is the message beside the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateError {
    /// Nothing typed.
    Empty,
    /// Not a number with at most six decimals.
    Invalid,
    /// Zero or below.
    NotPositive,
    /// Outside [`MIN_RATE`]..=[`MAX_RATE`].
    Absurd,
}

impl fmt::Display for RateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => "Please enter the exchange rate",
            Self::Invalid => "Enter the rate as a number with at most 6 decimals, e.g. 0.6520",
            Self::NotPositive => "The exchange rate must be above 0",
            Self::Absurd => "The exchange rate must be between 0.0001 and 100,000 (units of the currency per 1 AUD)",
        })
    }
}

impl std::error::Error for RateError {}

impl Rate {
    /// One to one: the rate of an AUD sheet.
    pub const ONE: Rate = Rate(SCALE);

    /// Parses a rate as staff type it ('0.652', '1,050.5'), at most six decimals, within
    /// [`MIN_RATE`]..=[`MAX_RATE`].
    pub fn parse(text: &str) -> Result<Rate, RateError> {
        let t: String = text.trim().chars().filter(|c| *c != ',').collect();
        if t.is_empty() {
            return Err(RateError::Empty);
        }
        let (negative, t) = match t.strip_prefix('-') {
            Some(rest) => (true, rest.to_string()),
            None => (false, t),
        };
        let (whole, frac) = t.split_once('.').unwrap_or((&t, ""));
        let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 6 || whole.len() > 9 {
            return Err(RateError::Invalid);
        }
        let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| RateError::Invalid)? };
        let frac: i64 = format!("{frac:0<6}").parse().map_err(|_| RateError::Invalid)?;
        let value = whole.checked_mul(SCALE).and_then(|w| w.checked_add(frac)).ok_or(RateError::Invalid)?;
        Rate::checked(if negative { -value } else { value })
    }

    /// A stored rate, checked against the range.
    pub fn checked(millionths: i64) -> Result<Rate, RateError> {
        if millionths <= 0 {
            Err(RateError::NotPositive)
        } else if !(MIN_RATE.0..=MAX_RATE.0).contains(&millionths) {
            Err(RateError::Absurd)
        } else {
            Ok(Rate(millionths))
        }
    }

    /// The rate with four to six decimals, as Settings and the sheet show it: '0.6520',
    /// '0.652375', '105.0000'.
    pub fn plain(self) -> String {
        let s = format!("{}.{:06}", self.0 / SCALE, self.0 % SCALE);
        let trimmed = s.trim_end_matches('0');
        let decimals = trimmed.len() - trimmed.find('.').map_or(trimmed.len(), |i| i + 1);
        if decimals >= 4 { trimmed.to_string() } else { s[..s.len() - (6 - 4)].to_string() }
    }

    /// The rate for Xero's `CurrencyRate` (a JSON number with six decimals at most).
    pub fn as_decimal(self) -> f64 {
        self.0 as f64 / SCALE as f64
    }
}

/// '1 AUD = 0.6520 USD': how a sheet and its print say the rate.
pub fn rate_text(code: &str, rate: Rate) -> String {
    format!("1 AUD = {} {code}", rate.plain())
}

/// A sheet's own rate against the company's rate of its date: refused when it is more than
/// twice or less than half of it, with a message that names both.
pub fn check_override(code: &str, entered: Rate, company: Rate) -> Result<(), String> {
    let far = |a: i64, b: i64| i128::from(a) > i128::from(b) * i128::from(OVERRIDE_FACTOR);
    if far(entered.0, company.0) || far(company.0, entered.0) {
        return Err(format!(
            "{} is far from the company's rate {}: check it is {code} per 1 AUD.",
            rate_text(code, entered),
            rate_text(code, company)
        ));
    }
    Ok(())
}

/// `amount` of the foreign currency in AUD at `rate`, rounded half away from zero to the
/// cent; `None` beyond what money holds.
pub fn to_aud(amount: Cents, rate: Rate) -> Option<Cents> {
    if rate.0 <= 0 {
        return None;
    }
    let aud = div_round_half_away(i128::from(amount.0) * i128::from(SCALE), i128::from(rate.0));
    i64::try_from(aud).ok().map(Cents)
}

/// A purchase line in AUD: the unit price converted and rounded to the cent, then times the
/// quantity, so the AUD line is price × quantity like every other line and the stock's cost
/// is exactly the line's. (The AUD total can differ from the foreign total converted by at
/// most half a cent a unit.)
pub fn line_in_aud(qty: i64, fx_price: Cents, rate: Rate) -> Option<(Cents, Cents)> {
    let price = to_aud(fx_price, rate)?;
    Some((price, line_amount(qty, price)?))
}

/// A saved sheet's lines in AUD ([`line_in_aud`] each): `lines` carry the supplier's prices
/// in the sheet's currency; the answer is what stock, cost and reports read.
pub fn lines_in_aud(lines: &[ValidLine], rate: Rate) -> Result<Vec<ValidLine>, &'static str> {
    lines
        .iter()
        .map(|l| {
            let (price, amount) = line_in_aud(l.quantity, l.price, rate).ok_or(super::limits::TOTAL_TOO_LARGE)?;
            Ok(ValidLine { price, amount, ..l.clone() })
        })
        .collect()
}

/// The rate a sheet dated `date` takes from the company's rates (date, rate) of one currency:
/// the latest on or before the date.
pub fn rate_on<D: Ord + Copy>(rates: &[(D, Rate)], date: D) -> Option<(D, Rate)> {
    rates.iter().filter(|(d, _)| *d <= date).max_by_key(|(d, _)| *d).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_typed_with_up_to_six_decimals_inside_a_sane_range() {
        assert_eq!(Rate::parse("0.652"), Ok(Rate(652_000)));
        assert_eq!(Rate::parse(" 1,050.5 "), Ok(Rate(1_050_500_000)));
        assert_eq!(Rate::parse(".5"), Ok(Rate(500_000)));
        assert_eq!(Rate::parse("16500"), Ok(Rate(16_500 * SCALE)));
        assert_eq!(Rate::parse(""), Err(RateError::Empty));
        assert_eq!(Rate::parse("0"), Err(RateError::NotPositive));
        assert_eq!(Rate::parse("-0.65"), Err(RateError::NotPositive));
        assert_eq!(Rate::parse("0.1234567"), Err(RateError::Invalid));
        assert_eq!(Rate::parse("0.65.1"), Err(RateError::Invalid));
        assert_eq!(Rate::parse("abc"), Err(RateError::Invalid));
        assert_eq!(Rate::parse("0.00001"), Err(RateError::Absurd));
        assert_eq!(Rate::parse("100000.000001"), Err(RateError::Absurd));
        assert_eq!(Rate::parse("100000"), Ok(MAX_RATE));
        assert_eq!(Rate::parse("99999999999999"), Err(RateError::Invalid));
    }

    #[test]
    fn a_rate_reads_with_four_to_six_decimals() {
        assert_eq!(Rate(652_000).plain(), "0.6520");
        assert_eq!(Rate(652_375).plain(), "0.652375");
        assert_eq!(Rate(105 * SCALE).plain(), "105.0000");
        assert_eq!(rate_text("USD", Rate(652_000)), "1 AUD = 0.6520 USD");
        assert_eq!(Rate(652_375).as_decimal(), 0.652375);
    }

    #[test]
    fn foreign_amounts_convert_to_aud_rounded_half_away_to_the_cent() {
        // US$45.00 at 1 AUD = 0.65 USD is A$69.2307… → 69.23.
        assert_eq!(to_aud(Cents(4500), Rate(650_000)), Some(Cents(6923)));
        // US$0.13 at 0.52 is A$0.25 exactly; 0.01 at 0.4 is 0.025 → 0.03 (half away).
        assert_eq!(to_aud(Cents(13), Rate(520_000)), Some(Cents(25)));
        assert_eq!(to_aud(Cents(1), Rate(400_000)), Some(Cents(3)));
        assert_eq!(to_aud(Cents(-1), Rate(400_000)), Some(Cents(-3)));
        // Yen: ¥10,000 at 1 AUD = 100 JPY is A$100.
        assert_eq!(to_aud(Cents(1_000_000), Rate(100 * SCALE)), Some(Cents(10_000)));
        // One to one changes nothing.
        assert_eq!(to_aud(Cents(12_345), Rate::ONE), Some(Cents(12_345)));
        // Beyond money: refused, not clamped.
        assert_eq!(to_aud(Cents(i64::MAX), MIN_RATE), None);
        assert_eq!(to_aud(Cents(1), Rate(0)), None);
    }

    #[test]
    fn an_aud_line_is_its_converted_unit_price_times_the_quantity() {
        // 400 tyres at US$45.00, 0.65: A$69.23 each, A$27,692.00 (the total converted
        // would be 27,692.31: the difference stays under half a cent a unit).
        assert_eq!(line_in_aud(400, Cents(4500), Rate(650_000)), Some((Cents(6923), Cents(2_769_200))));
        assert_eq!(line_in_aud(i64::MAX, Cents(4500), Rate(650_000)), None);
    }

    #[test]
    fn a_sheets_lines_convert_line_by_line() {
        let line = |qty: i64, price: i64| ValidLine {
            product_id: 1,
            quantity: qty,
            in_warehouse_qty: 0,
            in_system_qty: 0,
            price: Cents(price),
            amount: Cents(qty * price),
            description: String::new(),
            tax_type: 1,
            dot: None,
        };
        let aud = lines_in_aud(&[line(400, 4500), line(2, -150)], Rate(650_000)).unwrap();
        assert_eq!(aud.iter().map(|l| (l.quantity, l.price, l.amount)).collect::<Vec<_>>(), vec![(400, Cents(6923), Cents(2_769_200)), (2, Cents(-231), Cents(-462))]);
        assert!(lines_in_aud(&[line(1_000_000, 99_999_999_999)], MIN_RATE).is_err(), "beyond money is refused, not clamped");
    }

    #[test]
    fn a_sheet_takes_the_latest_rate_on_or_before_its_date() {
        let rates = [(3, Rate(650_000)), (10, Rate(660_000)), (7, Rate(640_000))];
        assert_eq!(rate_on(&rates, 8), Some((7, Rate(640_000))));
        assert_eq!(rate_on(&rates, 10), Some((10, Rate(660_000))));
        assert_eq!(rate_on(&rates, 2), None);
    }

    #[test]
    fn an_override_far_from_the_company_rate_is_taken_for_a_slip() {
        let company = Rate(650_000);
        assert_eq!(check_override("USD", Rate(700_000), company), Ok(()));
        assert_eq!(check_override("USD", Rate(1_300_000), company), Ok(()));
        // The rate the other way round (AUD per USD).
        let err = check_override("USD", Rate(1_538_462), company).unwrap_err();
        assert_eq!(err, "1 AUD = 1.538462 USD is far from the company's rate 1 AUD = 0.6500 USD: check it is USD per 1 AUD.");
        assert!(check_override("USD", Rate(65_000), company).is_err());
    }

    #[test]
    fn only_listed_currencies_are_taken() {
        assert_eq!(currency(" usd "), Ok("USD"));
        assert_eq!(currency("XYZ"), Err(NOT_A_CURRENCY));
        assert_eq!(currency(""), Err(NOT_A_CURRENCY));
    }
}
