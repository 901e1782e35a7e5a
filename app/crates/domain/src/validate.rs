//! Form rules of spec §5 that the server checks for both the HTML forms and the JSON API.

use super::money::{Cents, MoneyError};

/// A code that is not one of the listed values (tag, tax type, ship type, a list filter).
pub const NOT_LISTED: &str = "Choose one of the listed values.";

/// The message of a required field left empty.
pub const REQUIRED: &str = "Please enter";
/// Sign-in: the email is missing or not an email address.
pub const ENTER_EMAIL: &str = "Please enter your email";
/// Sign-in: the password is missing.
pub const ENTER_PASSWORD: &str = "Please enter your password";
/// Change password: the new password is empty.
pub const PASSWORD_EMPTY: &str = "Password can not be empty";
/// Change password: the confirmation differs.
pub const PASSWORD_MISMATCH: &str = "Confirm Password is not the same";
/// Product names longer than [`PRODUCT_NAME_MAX`] characters.
pub const PRODUCT_NAME_TOO_LONG: &str = "The product name should not exceed 50 characters.";
/// A cart quantity outside 0..=999 or not a whole number.
pub const CART_QTY_INVALID: &str = "Quantity must be a whole number from 0 to 999";
/// A line quantity below 0 or not a whole number.
pub const LINE_QTY_INVALID: &str = "Quantity must be a whole number, 0 or more";

/// The longest product name, counted in characters.
pub const PRODUCT_NAME_MAX: usize = 50;
/// The largest quantity the quoting cart takes.
pub const CART_QTY_MAX: i64 = 999;

/// A message tied to the form field it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldError {
    /// The field's form name, e.g. "email".
    pub field: &'static str,
    /// The message shown under the field.
    pub message: &'static str,
}

/// The trimmed value of a required field, or 'Please enter'.
pub fn required(value: &str) -> Result<&str, &'static str> {
    let value = value.trim();
    if value.is_empty() {
        Err(REQUIRED)
    } else {
        Ok(value)
    }
}

/// Whether `text` looks like an email address: one '@', a local part, and a dotted domain without spaces.
pub fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    let labels_ok = domain.split('.').count() >= 2
        && domain.split('.').all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        });
    text.len() <= 254
        && !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && !local
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "@<>()[]\\,;:\"".contains(c))
        && labels_ok
}

/// The sign-in email, trimmed; empty and malformed addresses get the same message.
pub fn sign_in_email(email: &str) -> Result<&str, &'static str> {
    let email = email.trim();
    if is_email(email) {
        Ok(email)
    } else {
        Err(ENTER_EMAIL)
    }
}

/// The sign-in password; any non-empty text counts, spaces included, because passwords are not trimmed.
pub fn sign_in_password(password: &str) -> Result<(), &'static str> {
    if password.is_empty() {
        Err(ENTER_PASSWORD)
    } else {
        Ok(())
    }
}

/// Checks the sign-in form, reporting every field at once.
pub fn validate_sign_in(email: &str, password: &str) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    if let Err(message) = sign_in_email(email) {
        errors.push(FieldError {
            field: "email",
            message,
        });
    }
    if let Err(message) = sign_in_password(password) {
        errors.push(FieldError {
            field: "password",
            message,
        });
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The longest password accepted, in characters.
pub const PASSWORD_MAX: usize = 256;
/// A new password longer than [`PASSWORD_MAX`].
pub const PASSWORD_TOO_LONG: &str = "A password has at most 256 characters";

/// A new password must not be empty nor longer than [`PASSWORD_MAX`] (the API receives it
/// without its confirmation).
pub fn new_password(password: &str) -> Result<(), &'static str> {
    if password.is_empty() {
        Err(PASSWORD_EMPTY)
    } else if password.chars().nth(PASSWORD_MAX).is_some() {
        Err(PASSWORD_TOO_LONG)
    } else {
        Ok(())
    }
}

/// Checks the change-password dialog: a non-empty password and a matching confirmation.
pub fn new_password_confirmed(password: &str, confirm: &str) -> Result<(), &'static str> {
    new_password(password)?;
    if password == confirm {
        Ok(())
    } else {
        Err(PASSWORD_MISMATCH)
    }
}

/// The trimmed product name: required, and at most 50 characters (not bytes, so accents count once).
pub fn check_product_name(name: &str) -> Result<&str, &'static str> {
    let name = required(name)?;
    if name.chars().count() > PRODUCT_NAME_MAX {
        Err(PRODUCT_NAME_TOO_LONG)
    } else {
        Ok(name)
    }
}

/// A whole number typed by staff: optional spaces around ASCII digits, no sign, point or separator.
fn whole_number(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A cart quantity: a whole number from 0 to 999.
pub fn parse_cart_qty(text: &str) -> Result<i64, &'static str> {
    whole_number(text)
        .filter(|q| *q <= CART_QTY_MAX)
        .ok_or(CART_QTY_INVALID)
}

/// Whether the cart's Add button is enabled for `qty` (disabled at 0).
pub const fn cart_add_enabled(qty: i64) -> bool {
    qty > 0 && qty <= CART_QTY_MAX
}

/// A line quantity: a whole number from 0 to [`super::limits::QTY_MAX`].
pub fn parse_line_qty(text: &str) -> Result<i64, &'static str> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LINE_QTY_INVALID);
    }
    // Digits beyond i64 are a quantity out of range, not a malformed one.
    text.parse::<i64>().map_or(Err(super::limits::QTY_OUT_OF_RANGE), super::limits::check_qty)
}

/// A quantity that may be negative (stock in the system): a whole number within ±[`super::limits::QTY_MAX`].
pub fn parse_signed_qty(text: &str) -> Result<i64, &'static str> {
    let text = text.trim();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LINE_QTY_INVALID);
    }
    text.parse::<i64>().map_or(Err(super::limits::QTY_OUT_OF_RANGE), super::limits::check_qty)
}

/// A line price: 0 or more with at most 2 decimals.
pub fn parse_line_price(text: &str) -> Result<Cents, MoneyError> {
    Cents::parse_non_negative(text)
}

/// A list's filters, checked against the values each one lists (issue 29: an unknown value
/// used to be ignored, so `?type=99` listed every sheet). Implemented beside each filter;
/// the list extractor answers 422 with the fields named.
pub trait ListedValues {
    /// The filters whose value is not one listed: field → [`NOT_LISTED`].
    fn unlisted(&self) -> std::collections::BTreeMap<String, String>;
}

/// Notes `field` in `errors` when its code is given and `known` does not know it.
pub fn listed_code<T>(errors: &mut std::collections::BTreeMap<String, String>, field: &str, value: Option<i32>, known: fn(i32) -> Option<T>) {
    if value.is_some_and(|v| known(v).is_none()) {
        errors.insert(field.to_string(), NOT_LISTED.to_string());
    }
}

/// Notes `field` in `errors` when its word is given and not one of `allowed`.
pub fn listed_word(errors: &mut std::collections::BTreeMap<String, String>, field: &str, value: Option<&str>, allowed: &[&str]) {
    listed_if(errors, field, value, |v| allowed.contains(&v));
}

/// Notes `field` in `errors` when its word is given and `known` does not read it.
pub fn listed_if(errors: &mut std::collections::BTreeMap<String, String>, field: &str, value: Option<&str>, known: impl Fn(&str) -> bool) {
    if value.is_some_and(|v| !known(v)) {
        errors.insert(field.to_string(), NOT_LISTED.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_fields() {
        assert_eq!(required("  abc "), Ok("abc"));
        assert_eq!(required(""), Err("Please enter"));
        assert_eq!(required(" \t\n"), Err("Please enter"));
    }

    #[test]
    fn email_addresses() {
        let good = [
            "sales@demo.test",
            "first.last@example.com.au",
            "a+tag@sub.example.org",
            "x@y.co",
            "O'Brien@tyres.com.au",
            "josé@exämple.de",
        ];
        for email in good {
            assert!(is_email(email), "{email}");
            assert_eq!(sign_in_email(&format!("  {email} ")), Ok(email));
        }
        let long_local = format!("{}@example.com", "a".repeat(65));
        let long_total = format!("a@{}.com", "b".repeat(260));
        let bad = [
            "",
            "   ",
            "plain",
            "@example.com",
            "user@",
            "user@localhost",
            "user@@example.com",
            "user@exa mple.com",
            "us er@example.com",
            "user@example..com",
            "user@.example.com",
            "user@example.com.",
            ".user@example.com",
            "user.@example.com",
            "us..er@example.com",
            "user@-example.com",
            "user@example-.com",
            "user@exa_mple.com",
            "a@b@c.com",
            "<user>@example.com",
            long_local.as_str(),
            long_total.as_str(),
        ];
        for email in bad {
            assert!(!is_email(email), "{email:?}");
            assert_eq!(
                sign_in_email(email),
                Err("Please enter your email"),
                "{email:?}"
            );
        }
    }

    #[test]
    fn sign_in_reports_every_field() {
        assert_eq!(validate_sign_in("sales@demo.test", "tyredesk"), Ok(()));
        assert_eq!(
            validate_sign_in("sales@demo.test", "   "),
            Ok(()),
            "spaces are a password"
        );
        assert_eq!(
            validate_sign_in("", ""),
            Err(vec![
                FieldError {
                    field: "email",
                    message: "Please enter your email"
                },
                FieldError {
                    field: "password",
                    message: "Please enter your password"
                },
            ])
        );
        assert_eq!(
            validate_sign_in("not-an-email", "x"),
            Err(vec![FieldError {
                field: "email",
                message: "Please enter your email"
            }])
        );
        assert_eq!(
            validate_sign_in("a@b.co", ""),
            Err(vec![FieldError {
                field: "password",
                message: "Please enter your password"
            }])
        );
    }

    #[test]
    fn change_password() {
        assert_eq!(new_password(""), Err("Password can not be empty"));
        assert_eq!(new_password("x"), Ok(()));
        assert_eq!(new_password(&"p".repeat(256)), Ok(()));
        assert_eq!(new_password(&"p".repeat(257)), Err(PASSWORD_TOO_LONG));
        let table = [
            ("", "", Err("Password can not be empty")),
            ("", "x", Err("Password can not be empty")),
            ("secret", "", Err("Confirm Password is not the same")),
            ("secret", "Secret", Err("Confirm Password is not the same")),
            ("secret", "secret ", Err("Confirm Password is not the same")),
            ("secret", "secret", Ok(())),
            (" ", " ", Ok(())),
        ];
        for (password, confirm, result) in table {
            assert_eq!(
                new_password_confirmed(password, confirm),
                result,
                "{password:?} / {confirm:?}"
            );
        }
    }

    #[test]
    fn product_names_count_characters_not_bytes() {
        let fifty_ascii = "a".repeat(50);
        let fifty_accented = "é".repeat(50); // 100 bytes
        let fifty_one = "a".repeat(51);
        assert_eq!(check_product_name(&fifty_ascii), Ok(fifty_ascii.as_str()));
        assert_eq!(
            check_product_name(&fifty_accented),
            Ok(fifty_accented.as_str())
        );
        assert_eq!(
            check_product_name(&format!("  {fifty_ascii}  ")),
            Ok(fifty_ascii.as_str()),
            "trimmed first"
        );
        assert_eq!(
            check_product_name(&fifty_one),
            Err("The product name should not exceed 50 characters.")
        );
        assert_eq!(
            check_product_name(&"轮".repeat(51)),
            Err(PRODUCT_NAME_TOO_LONG)
        );
        assert_eq!(check_product_name("  "), Err("Please enter"));
        assert_eq!(
            check_product_name("205/55R16 91V Michelin Primacy 4"),
            Ok("205/55R16 91V Michelin Primacy 4")
        );
    }

    #[test]
    fn cart_quantities() {
        let table = [
            ("0", Ok(0)),
            ("1", Ok(1)),
            (" 12 ", Ok(12)),
            ("999", Ok(999)),
            ("0999", Ok(999)),
            ("1000", Err(CART_QTY_INVALID)),
            ("-1", Err(CART_QTY_INVALID)),
            ("+1", Err(CART_QTY_INVALID)),
            ("1.5", Err(CART_QTY_INVALID)),
            ("1.0", Err(CART_QTY_INVALID)),
            ("1e2", Err(CART_QTY_INVALID)),
            ("", Err(CART_QTY_INVALID)),
            ("abc", Err(CART_QTY_INVALID)),
            ("99999999999999999999999", Err(CART_QTY_INVALID)),
        ];
        for (text, result) in table {
            assert_eq!(parse_cart_qty(text), result, "{text:?}");
        }
        assert!(!cart_add_enabled(0));
        assert!(cart_add_enabled(1));
        assert!(cart_add_enabled(999));
        assert!(!cart_add_enabled(1000));
        assert!(!cart_add_enabled(-1));
    }

    #[test]
    fn line_quantities() {
        let table = [
            ("0", Ok(0)),
            ("7", Ok(7)),
            ("12000", Ok(12_000)),
            ("-1", Err(LINE_QTY_INVALID)),
            ("2.5", Err(LINE_QTY_INVALID)),
            ("1,000", Err(LINE_QTY_INVALID)),
            ("", Err(LINE_QTY_INVALID)),
            ("x", Err(LINE_QTY_INVALID)),
            ("1000000", Ok(1_000_000)),
            ("1000001", Err(super::super::limits::QTY_OUT_OF_RANGE)),
            ("9223372036854775807", Err(super::super::limits::QTY_OUT_OF_RANGE)),
            ("99999999999999999999999", Err(super::super::limits::QTY_OUT_OF_RANGE)),
        ];
        for (text, result) in table {
            assert_eq!(parse_line_qty(text), result, "{text:?}");
        }
    }

    #[test]
    fn signed_quantities() {
        assert_eq!(parse_signed_qty("-12"), Ok(-12));
        assert_eq!(parse_signed_qty(" 40 "), Ok(40));
        assert_eq!(parse_signed_qty("-1000001"), Err(super::super::limits::QTY_OUT_OF_RANGE));
        assert_eq!(parse_signed_qty("-"), Err(LINE_QTY_INVALID));
        assert_eq!(parse_signed_qty("--1"), Err(LINE_QTY_INVALID));
        assert_eq!(parse_signed_qty("1.5"), Err(LINE_QTY_INVALID));
    }

    #[test]
    fn line_prices() {
        assert_eq!(parse_line_price("125"), Ok(Cents(12_500)));
        assert_eq!(parse_line_price("125.5"), Ok(Cents(12_550)));
        assert_eq!(parse_line_price("0"), Ok(Cents(0)));
        assert_eq!(parse_line_price("-1"), Err(MoneyError::Negative));
        assert_eq!(parse_line_price("1.999"), Err(MoneyError::TooManyDecimals));
        assert_eq!(parse_line_price(""), Err(MoneyError::Empty));
        assert_eq!(parse_line_price("abc"), Err(MoneyError::Invalid));
    }
}
