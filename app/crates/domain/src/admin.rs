//! Running the company (issue 13): the organisation's settings (print details, department,
//! price-tier uplifts, time zone, logo) and its staff (role, flags, active, one-time
//! passwords, the last-approver rule). Values in, checked values or field messages out.

use chrono_tz::Tz;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::enums::Role;
use super::lenient;
use super::limits::{ADDRESS_MAX, NAME_MAX, PHONE_MAX, SHORT_MAX, Text, check_text};
use super::masters::{INVALID_EMAIL, LOCKED, UNKNOWN_CHOICE};
use super::validate::{FieldError, REQUIRED, is_email};

pub const ABN_DIGITS: &str = "An ABN has 11 digits, e.g. 53 004 085 616.";
pub const BSB_DIGITS: &str = "A BSB has 6 digits, e.g. 062-000.";
pub const ACCOUNT_DIGITS: &str = "An account number has 5 to 10 digits.";
pub const DEPARTMENT_RANGE: &str = "Enter a department id from 1 to 99.";
pub const UPLIFT_RANGE: &str = "Enter a percentage from 0 to 100 with at most two decimals, e.g. 5 or 7.5.";
pub const UNKNOWN_ZONE: &str = "Choose a time zone such as Australia/Sydney.";
pub const DEFAULT_WAREHOUSE_UNKNOWN: &str = "Choose one of the company's warehouses, or none.";
pub const QUOTATION_DAYS_RANGE: &str = "Enter how many days a quotation is valid: a whole number from 1 to 365 (empty: 7).";
pub const OVERDUE_DAYS_RANGE: &str = "Enter a number of days from 0 to 3650, or leave it empty to turn the rule off.";
pub const OLD_TYRE_YEARS_RANGE: &str = "Enter a number of years from 1 to 20, or leave it empty to turn the rule off.";
/// A logo that is not a small PNG, JPEG, GIF or WebP image.
pub const LOGO_TYPE: &str = "The logo must be a PNG, JPEG, GIF or WebP image.";
pub const LOGO_TOO_LARGE: &str = "The logo must be at most 256 KB.";
/// The largest logo kept (it is stored in the database and cached by browsers).
pub const LOGO_MAX_BYTES: usize = 256 * 1024;
/// The logo of a company that has not uploaded one.
pub const DEFAULT_LOGO: &str = "/static/img/logo.svg";
/// Where an uploaded logo is served.
pub const LOGO_ROUTE: &str = "/settings/logo";
/// The time zones offered first (any IANA name is accepted).
pub const AU_ZONES: &[&str] = &[
    "Australia/Sydney",
    "Australia/Melbourne",
    "Australia/Brisbane",
    "Australia/Adelaide",
    "Australia/Darwin",
    "Australia/Perth",
    "Australia/Hobart",
    "Pacific/Auckland",
];

// ---------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------

/// The settings form as submitted.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct SettingsInput {
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub abn: String,
    #[serde(rename = "addressLine1", deserialize_with = "lenient::string")]
    pub address_line1: String,
    #[serde(rename = "addressLine2", deserialize_with = "lenient::string")]
    pub address_line2: String,
    #[serde(deserialize_with = "lenient::string")]
    pub phone: String,
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    #[serde(rename = "bankAccountName", deserialize_with = "lenient::string")]
    pub bank_account_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub bsb: String,
    #[serde(rename = "bankAccount", deserialize_with = "lenient::string")]
    pub bank_account: String,
    #[serde(deserialize_with = "lenient::string")]
    pub website: String,
    #[serde(deserialize_with = "lenient::string")]
    pub department_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub tier_b: String,
    #[serde(deserialize_with = "lenient::string")]
    pub tier_c: String,
    #[serde(deserialize_with = "lenient::string")]
    pub tier_d: String,
    #[serde(deserialize_with = "lenient::string")]
    pub tier_e: String,
    #[serde(deserialize_with = "lenient::string")]
    pub time_zone: String,
    /// The approval guard's overdue rule in days; empty: off (issue 31).
    #[serde(deserialize_with = "lenient::string")]
    pub overdue_guard_days: String,
    /// The id of the warehouse new sheets start in; empty: none (issue 32).
    #[serde(deserialize_with = "lenient::string")]
    pub default_warehouse_id: String,
    /// How many days a quotation is valid (issue 33); empty: 7.
    #[serde(default, deserialize_with = "lenient::string")]
    pub quotation_valid_days: String,
    /// Print DOT codes on tax invoices and delivery dockets (issue 36); a checkbox.
    #[serde(deserialize_with = "lenient::flag")]
    pub dot_on_documents: bool,
    /// Show the years of manufacture in stock in the shop (issue 36); a checkbox.
    #[serde(deserialize_with = "lenient::flag")]
    pub shop_shows_dot: bool,
    /// The old-tyre rule in years (issue 36); empty: off.
    #[serde(deserialize_with = "lenient::string")]
    pub old_tyre_years: String,
    #[serde(deserialize_with = "lenient::int")]
    pub version: Option<i32>,
}

/// The checked settings, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub name: String,
    pub abn: String,
    pub address_line1: String,
    pub address_line2: String,
    pub phone: String,
    pub email: String,
    pub bank_account_name: String,
    pub bsb: String,
    pub bank_account: String,
    pub website: String,
    pub department_id: i32,
    /// Tier uplifts B–E in basis points (500 = 5%).
    pub tiers_bp: [i32; 4],
    pub time_zone: String,
    /// Days past due after which a customer's invoice stops an approval; `None`: off.
    pub overdue_guard_days: Option<i32>,
    /// The warehouse new sheets start in, as chosen (the caller checks it is the company's).
    pub default_warehouse_id: Option<i64>,
    /// How many days a quotation is valid, 1–365.
    pub quotation_valid_days: i32,
    pub dot_on_documents: bool,
    pub shop_shows_dot: bool,
    /// Tyres this many years old or more need an approver for a customer who has not
    /// accepted them; `None`: off.
    pub old_tyre_years: Option<i32>,
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Whether the text holds only digits and the separators people type in numbers.
fn numeric(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-'))
}

/// A percentage as typed ("5", "7.5", "12.25%") in basis points, 0–100%.
pub fn parse_uplift(text: &str) -> Result<i32, &'static str> {
    let t = text.trim().trim_end_matches('%').trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let ok = !whole.is_empty() && whole.len() <= 3 && whole.chars().all(|c| c.is_ascii_digit()) && frac.len() <= 2 && frac.chars().all(|c| c.is_ascii_digit());
    if !ok {
        return Err(UPLIFT_RANGE);
    }
    let whole: i32 = whole.parse().map_err(|_| UPLIFT_RANGE)?;
    let frac: i32 = format!("{frac:0<2}").parse().map_err(|_| UPLIFT_RANGE)?;
    let bp = whole * 100 + frac;
    if bp > 10_000 { Err(UPLIFT_RANGE) } else { Ok(bp) }
}

/// Basis points as the form shows them: 500 → "5", 750 → "7.5", 1225 → "12.25".
pub fn show_uplift(bp: i32) -> String {
    let s = format!("{}.{:02}", bp / 100, bp % 100);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The overdue rule's days as typed: empty is off, else a whole number from 0 to 3650.
pub fn parse_overdue_days(text: &str) -> Result<Option<i32>, &'static str> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<i32>() {
        Ok(d) if (0..=3650).contains(&d) && t.chars().all(|c| c.is_ascii_digit()) => Ok(Some(d)),
        _ => Err(OVERDUE_DAYS_RANGE),
    }
}

/// A quotation's validity in days as typed: empty is the default 7, else 1 to 365.
pub fn parse_quotation_days(text: &str) -> Result<i32, &'static str> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(7);
    }
    match t.parse::<i32>() {
        Ok(d) if (1..=365).contains(&d) && t.chars().all(|c| c.is_ascii_digit()) => Ok(d),
        _ => Err(QUOTATION_DAYS_RANGE),
    }
}

/// The old-tyre rule's years as typed: empty is off, else a whole number from 1 to 20.
pub fn parse_old_tyre_years(text: &str) -> Result<Option<i32>, &'static str> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<i32>() {
        Ok(y) if (1..=20).contains(&y) && t.chars().all(|c| c.is_ascii_digit()) => Ok(Some(y)),
        _ => Err(OLD_TYRE_YEARS_RANGE),
    }
}

/// A time zone name the server understands.
pub fn parse_zone(name: &str) -> Result<Tz, &'static str> {
    name.trim().parse::<Tz>().map_err(|_| UNKNOWN_ZONE)
}

/// Checks the settings form.
pub fn validate_settings(input: &SettingsInput) -> Result<Settings, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut text = |field: &'static str, value: &str, rule: Text, required: bool| -> String {
        let v = value.trim();
        if let Err(m) = check_text(v, rule) {
            errors.push(FieldError { field, message: m });
        } else if required && v.is_empty() {
            errors.push(FieldError { field, message: REQUIRED });
        }
        v.to_string()
    };
    let name = text("name", &input.name, Text::Line(NAME_MAX), true);
    let abn = text("abn", &input.abn, Text::Line(SHORT_MAX), true);
    let address_line1 = text("addressLine1", &input.address_line1, Text::Line(ADDRESS_MAX), true);
    let address_line2 = text("addressLine2", &input.address_line2, Text::Line(ADDRESS_MAX), false);
    let phone = text("phone", &input.phone, Text::Line(PHONE_MAX), false);
    let email = text("email", &input.email, Text::Line(SHORT_MAX), false);
    let bank_account_name = text("bankAccountName", &input.bank_account_name, Text::Line(NAME_MAX), false);
    let bsb = text("bsb", &input.bsb, Text::Line(SHORT_MAX), false);
    let bank_account = text("bankAccount", &input.bank_account, Text::Line(SHORT_MAX), false);
    let website = text("website", &input.website, Text::Line(SHORT_MAX), false);
    let time_zone = input.time_zone.trim().to_string();
    // Each of these may be left empty; when given, it must have its number of digits.
    let digits_ok = |v: &str, ok: fn(usize) -> bool| v.is_empty() || (numeric(v) && ok(digits(v).len()));
    if !digits_ok(&abn, |n| n == 11) {
        errors.push(FieldError { field: "abn", message: ABN_DIGITS });
    }
    if !email.is_empty() && !is_email(&email) {
        errors.push(FieldError { field: "email", message: INVALID_EMAIL });
    }
    if !digits_ok(&bsb, |n| n == 6) {
        errors.push(FieldError { field: "bsb", message: BSB_DIGITS });
    }
    if !digits_ok(&bank_account, |n| (5..=10).contains(&n)) {
        errors.push(FieldError { field: "bankAccount", message: ACCOUNT_DIGITS });
    }
    let department_id = match input.department_id.trim().parse::<i32>() {
        Ok(d) if (1..=99).contains(&d) => d,
        _ => {
            errors.push(FieldError { field: "department_id", message: DEPARTMENT_RANGE });
            0
        }
    };
    let mut tiers_bp = [0; 4];
    for (i, (field, value)) in [("tier_b", &input.tier_b), ("tier_c", &input.tier_c), ("tier_d", &input.tier_d), ("tier_e", &input.tier_e)].into_iter().enumerate() {
        match parse_uplift(value) {
            Ok(bp) => tiers_bp[i] = bp,
            Err(m) => errors.push(FieldError { field, message: m }),
        }
    }
    if let Err(m) = parse_zone(&time_zone) {
        errors.push(FieldError { field: "time_zone", message: m });
    }
    let overdue_guard_days = match parse_overdue_days(&input.overdue_guard_days) {
        Ok(d) => d,
        Err(m) => {
            errors.push(FieldError { field: "overdue_guard_days", message: m });
            None
        }
    };
    let default_warehouse_id = match input.default_warehouse_id.trim() {
        "" => None,
        t => match t.parse::<i64>() {
            Ok(id) if id > 0 && t.chars().all(|c| c.is_ascii_digit()) => Some(id),
            _ => {
                errors.push(FieldError { field: "default_warehouse_id", message: DEFAULT_WAREHOUSE_UNKNOWN });
                None
            }
        },
    };
    let quotation_valid_days = parse_quotation_days(&input.quotation_valid_days).unwrap_or_else(|m| {
        errors.push(FieldError { field: "quotation_valid_days", message: m });
        7
    });
    let old_tyre_years = parse_old_tyre_years(&input.old_tyre_years).unwrap_or_else(|m| {
        errors.push(FieldError { field: "old_tyre_years", message: m });
        None
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    let (dot_on_documents, shop_shows_dot) = (input.dot_on_documents, input.shop_shows_dot);
    Ok(Settings { name, abn, address_line1, address_line2, phone, email, bank_account_name, bsb, bank_account, website, department_id, tiers_bp, time_zone, overdue_guard_days, default_warehouse_id, quotation_valid_days, dot_on_documents, shop_shows_dot, old_tyre_years })
}

/// An uploaded logo's content type, read from its first bytes (never from the file name).
pub fn logo_type(bytes: &[u8]) -> Result<&'static str, &'static str> {
    if bytes.len() > LOGO_MAX_BYTES {
        return Err(LOGO_TOO_LARGE);
    }
    match bytes {
        [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, ..] => Ok("image/png"),
        [0xff, 0xd8, 0xff, ..] => Ok("image/jpeg"),
        [b'G', b'I', b'F', b'8', ..] => Ok("image/gif"),
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => Ok("image/webp"),
        _ => Err(LOGO_TYPE),
    }
}

/// Where the documents load the company's logo from: an uploaded logo (stored as a data URL)
/// is served at [`LOGO_ROUTE`] with a version from its content, so browsers cache it for good
/// and a new logo is fetched at once; any other value is a path used as it is.
pub fn logo_url(stored: &str) -> String {
    if stored.starts_with("data:") {
        let hash = Sha256::digest(stored.as_bytes());
        format!("{LOGO_ROUTE}?v={}", hex::encode(&hash[..6]))
    } else if stored.is_empty() {
        DEFAULT_LOGO.to_string()
    } else {
        stored.to_string()
    }
}

// ---------------------------------------------------------------------------------------
// Staff
// ---------------------------------------------------------------------------------------

/// Deactivating or demoting the company's last active approver.
pub const LAST_APPROVER: &str = "The company needs at least one active approver (role 4): make someone else an approver first.";
pub const EMAIL_TAKEN: &str = "This e-mail is already a staff member of this company.";
pub const NO_COMPANY: &str = "Choose at least one company.";
/// A company the approver does not approve for.
pub const NOT_YOUR_COMPANY: &str = "You can add staff only to companies where you are an approver.";
/// Any page a user with a one-time password asks for, until it is changed.
pub const PASSWORD_CHANGE_REQUIRED: &str = "Your password was set by an approver and must be changed before you continue.";

/// A staff member as submitted on the add or edit form.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct StaffInput {
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    #[serde(deserialize_with = "lenient::string")]
    pub phone: String,
    #[serde(deserialize_with = "lenient::int")]
    pub role: Option<i32>,
    #[serde(rename = "modPrc", deserialize_with = "lenient::flag")]
    pub mod_prc: bool,
    #[serde(rename = "isAcct", deserialize_with = "lenient::flag")]
    pub is_acct: bool,
    #[serde(rename = "crtCSR", deserialize_with = "lenient::flag")]
    pub crt_csr: bool,
    /// May use the purchase suggestions (issue 35).
    #[serde(rename = "isBuyer", deserialize_with = "lenient::flag")]
    pub is_buyer: bool,
    /// Edit only: whether the membership stays active.
    #[serde(deserialize_with = "lenient::flag_opt")]
    pub active: Option<bool>,
    /// Add only: the companies to give access to.
    pub orgs: Vec<i64>,
}

/// The checked staff member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffFields {
    pub name: String,
    /// Lower-case: sign-in compares e-mails that way.
    pub email: String,
    pub phone: String,
    pub role: Role,
    pub mod_prc: bool,
    pub is_acct: bool,
    pub crt_csr: bool,
    pub is_buyer: bool,
}

/// Checks a staff member; on edit `stored_email` is the sign-in, which may not change (it is
/// shared by every company the person works for).
pub fn validate_staff(input: &StaffInput, stored_email: Option<&str>) -> Result<StaffFields, Vec<FieldError>> {
    let mut errors = Vec::new();
    let name = input.name.trim().to_string();
    if let Err(m) = check_text(&name, Text::Line(NAME_MAX)) {
        errors.push(FieldError { field: "name", message: m });
    } else if name.is_empty() {
        errors.push(FieldError { field: "name", message: REQUIRED });
    }
    let email = match stored_email {
        Some(stored) => {
            let sent = input.email.trim().to_lowercase();
            if !sent.is_empty() && sent != stored {
                errors.push(FieldError { field: "email", message: LOCKED });
            }
            stored.to_string()
        }
        None => {
            let e = input.email.trim().to_lowercase();
            if e.is_empty() {
                errors.push(FieldError { field: "email", message: REQUIRED });
            } else if check_text(&e, Text::Line(SHORT_MAX)).is_err() || !is_email(&e) {
                errors.push(FieldError { field: "email", message: INVALID_EMAIL });
            }
            e
        }
    };
    let phone = input.phone.trim().to_string();
    if let Err(m) = check_text(&phone, Text::Line(PHONE_MAX)) {
        errors.push(FieldError { field: "phone", message: m });
    }
    let role = match input.role {
        None => {
            errors.push(FieldError { field: "role", message: REQUIRED });
            None
        }
        Some(r) => {
            let role = Role::from_i32(r);
            if role.is_none() {
                errors.push(FieldError { field: "role", message: UNKNOWN_CHOICE });
            }
            role
        }
    };
    match role {
        Some(role) if errors.is_empty() => Ok(StaffFields { name, email, phone, role, mod_prc: input.mod_prc, is_acct: input.is_acct, crt_csr: input.crt_csr, is_buyer: input.is_buyer }),
        _ => Err(errors),
    }
}

/// Whether a change leaves the company an active approver. `active_approvers` counts the
/// company's active role-4 members now, the one being changed included.
pub fn keeps_an_approver(active_approvers: i64, was_active_approver: bool, will_be_active_approver: bool) -> bool {
    !was_active_approver || will_be_active_approver || active_approvers > 1
}

/// The companies a new staff member may be given: those asked for, each one where the
/// approver adding them is an approver.
pub fn grantable(asked: &[i64], approver_of: &[i64]) -> Result<Vec<i64>, &'static str> {
    if asked.is_empty() {
        return Err(NO_COMPANY);
    }
    let mut orgs: Vec<i64> = asked.to_vec();
    orgs.sort_unstable();
    orgs.dedup();
    if orgs.iter().all(|o| approver_of.contains(o)) { Ok(orgs) } else { Err(NOT_YOUR_COMPANY) }
}

/// Paths a user who must change a one-time password may still reach.
pub fn reachable_before_change(path: &str) -> bool {
    matches!(path, "/password/change" | "/api/password" | "/logout")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SettingsInput {
        SettingsInput {
            name: "Southern Cross Tyres".into(),
            abn: "53 004 085 616".into(),
            address_line1: "112 Princes Hwy".into(),
            bsb: "062-000".into(),
            bank_account: "1234 5678".into(),
            email: "accounts@sct.example".into(),
            department_id: "4".into(),
            tier_b: "5".into(),
            tier_c: "10".into(),
            tier_d: "15.5".into(),
            tier_e: "20%".into(),
            time_zone: "Australia/Perth".into(),
            ..Default::default()
        }
    }

    fn fields(errors: &[FieldError]) -> Vec<(&'static str, &'static str)> {
        errors.iter().map(|e| (e.field, e.message)).collect()
    }

    #[test]
    fn the_old_tyre_rule_is_off_when_empty_and_takes_1_to_20_years() {
        assert_eq!(validate_settings(&settings()).unwrap().old_tyre_years, None, "off by default");
        for (typed, years) in [("1", 1), (" 5 ", 5), ("20", 20)] {
            assert_eq!(validate_settings(&SettingsInput { old_tyre_years: typed.into(), ..settings() }).unwrap().old_tyre_years, Some(years), "{typed}");
        }
        for bad in ["0", "21", "-1", "2.5", "five", "+3"] {
            let e = validate_settings(&SettingsInput { old_tyre_years: bad.into(), ..settings() }).unwrap_err();
            assert_eq!(fields(&e), vec![("old_tyre_years", OLD_TYRE_YEARS_RANGE)], "{bad}");
        }
        let on = validate_settings(&SettingsInput { dot_on_documents: true, shop_shows_dot: true, ..settings() }).unwrap();
        assert!(on.dot_on_documents && on.shop_shows_dot);
        let off = validate_settings(&settings()).unwrap();
        assert!(!off.dot_on_documents && !off.shop_shows_dot, "checkboxes left unticked are off");
    }

    #[test]
    fn settings_are_checked_and_uplifts_become_basis_points() {
        let s = validate_settings(&settings()).unwrap();
        assert_eq!(s.tiers_bp, [500, 1000, 1550, 2000]);
        assert_eq!(s.department_id, 4);
        assert_eq!(s.time_zone, "Australia/Perth");
    }

    #[test]
    fn a_quotation_is_valid_for_1_to_365_days_7_by_default() {
        assert_eq!(validate_settings(&settings()).unwrap().quotation_valid_days, 7);
        assert_eq!(validate_settings(&SettingsInput { quotation_valid_days: " 30 ".into(), ..settings() }).unwrap().quotation_valid_days, 30);
        for ok in ["1", "365"] {
            assert!(parse_quotation_days(ok).is_ok(), "{ok}");
        }
        for bad in ["0", "366", "-1", "7.5", "x", "+7"] {
            let e = validate_settings(&SettingsInput { quotation_valid_days: bad.into(), ..settings() }).unwrap_err();
            assert_eq!(fields(&e), vec![("quotation_valid_days", QUOTATION_DAYS_RANGE)], "{bad}");
        }
    }

    #[test]
    fn bad_settings_name_each_field() {
        let bad = SettingsInput {
            name: " ".into(),
            abn: "53 004".into(),
            bsb: "06200".into(),
            bank_account: "12".into(),
            email: "nope".into(),
            department_id: "100".into(),
            tier_b: "-1".into(),
            tier_c: "100.01".into(),
            tier_d: "5.555".into(),
            tier_e: "abc".into(),
            time_zone: "Sydney".into(),
            overdue_guard_days: "-3".into(),
            default_warehouse_id: "x1".into(),
            ..settings()
        };
        assert_eq!(
            fields(&validate_settings(&bad).unwrap_err()),
            vec![
                ("name", REQUIRED),
                ("abn", ABN_DIGITS),
                ("email", INVALID_EMAIL),
                ("bsb", BSB_DIGITS),
                ("bankAccount", ACCOUNT_DIGITS),
                ("department_id", DEPARTMENT_RANGE),
                ("tier_b", UPLIFT_RANGE),
                ("tier_c", UPLIFT_RANGE),
                ("tier_d", UPLIFT_RANGE),
                ("tier_e", UPLIFT_RANGE),
                ("time_zone", UNKNOWN_ZONE),
                ("overdue_guard_days", OVERDUE_DAYS_RANGE),
                ("default_warehouse_id", DEFAULT_WAREHOUSE_UNKNOWN),
            ]
        );
    }

    #[test]
    fn the_overdue_rule_is_off_when_empty_and_whole_days_otherwise() {
        assert_eq!(parse_overdue_days(""), Ok(None));
        assert_eq!(parse_overdue_days(" 30 "), Ok(Some(30)));
        assert_eq!(parse_overdue_days("0"), Ok(Some(0)));
        assert_eq!(parse_overdue_days("3650"), Ok(Some(3650)));
        for bad in ["-1", "+5", "3651", "7.5", "thirty"] {
            assert_eq!(parse_overdue_days(bad), Err(OVERDUE_DAYS_RANGE), "{bad}");
        }
        assert_eq!(validate_settings(&settings()).unwrap().overdue_guard_days, None, "off by default");
        let on = SettingsInput { overdue_guard_days: "45".into(), ..settings() };
        assert_eq!(validate_settings(&on).unwrap().overdue_guard_days, Some(45));
    }

    #[test]
    fn the_default_warehouse_is_none_when_empty_and_an_id_otherwise() {
        assert_eq!(validate_settings(&settings()).unwrap().default_warehouse_id, None);
        let on = SettingsInput { default_warehouse_id: " 12 ".into(), ..settings() };
        assert_eq!(validate_settings(&on).unwrap().default_warehouse_id, Some(12));
        for bad in ["0", "-4", "1.5", "main"] {
            let off = SettingsInput { default_warehouse_id: bad.into(), ..settings() };
            assert_eq!(fields(&validate_settings(&off).unwrap_err()), vec![("default_warehouse_id", DEFAULT_WAREHOUSE_UNKNOWN)], "{bad}");
        }
    }

    #[test]
    fn uplifts_read_and_show_alike() {
        assert_eq!(parse_uplift("0"), Ok(0));
        assert_eq!(parse_uplift("100"), Ok(10_000));
        assert_eq!(parse_uplift(" 7.5 % "), Ok(750));
        assert_eq!(parse_uplift(""), Err(UPLIFT_RANGE));
        for bp in [0, 5, 500, 750, 1225, 10_000] {
            assert_eq!(parse_uplift(&show_uplift(bp)), Ok(bp));
        }
        assert_eq!(show_uplift(750), "7.5");
    }

    #[test]
    fn logos_are_known_images_within_the_size() {
        assert_eq!(logo_type(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0]), Ok("image/png"));
        assert_eq!(logo_type(&[0xff, 0xd8, 0xff, 0xe0]), Ok("image/jpeg"));
        assert_eq!(logo_type(b"<svg onload=alert(1)>"), Err(LOGO_TYPE));
        assert_eq!(logo_type(&vec![0xff; LOGO_MAX_BYTES + 1]), Err(LOGO_TOO_LARGE));
    }

    #[test]
    fn uploaded_logos_get_a_cache_busting_url() {
        let a = logo_url("data:image/png;base64,AAAA");
        assert!(a.starts_with("/settings/logo?v="));
        assert_ne!(a, logo_url("data:image/png;base64,AAAB"));
        assert_eq!(logo_url(""), DEFAULT_LOGO);
        assert_eq!(logo_url("/static/img/logo.svg"), "/static/img/logo.svg");
    }

    #[test]
    fn staff_need_name_email_and_a_known_role() {
        let e = validate_staff(&StaffInput::default(), None).unwrap_err();
        assert_eq!(fields(&e), vec![("name", REQUIRED), ("email", REQUIRED), ("role", REQUIRED)]);
        let e = validate_staff(&StaffInput { name: "A".into(), email: "x".into(), role: Some(7), ..Default::default() }, None).unwrap_err();
        assert_eq!(fields(&e), vec![("email", INVALID_EMAIL), ("role", UNKNOWN_CHOICE)]);
        let ok = validate_staff(&StaffInput { name: " Ann ".into(), email: "Ann@X.example".into(), role: Some(2), mod_prc: true, ..Default::default() }, None).unwrap();
        assert_eq!((ok.name.as_str(), ok.email.as_str(), ok.role, ok.mod_prc), ("Ann", "ann@x.example", Role::Sales, true));
    }

    #[test]
    fn a_staff_email_locks_once_it_exists() {
        let input = StaffInput { name: "A".into(), email: "b@x.example".into(), role: Some(2), ..Default::default() };
        assert_eq!(fields(&validate_staff(&input, Some("a@x.example")).unwrap_err()), vec![("email", LOCKED)]);
        let same = StaffInput { email: "A@X.example".into(), ..input };
        assert_eq!(validate_staff(&same, Some("a@x.example")).unwrap().email, "a@x.example");
    }

    #[test]
    fn the_last_active_approver_stays() {
        assert!(!keeps_an_approver(1, true, false), "demoting or deactivating the only approver");
        assert!(keeps_an_approver(2, true, false));
        assert!(keeps_an_approver(1, true, true), "the approver keeps the role");
        assert!(keeps_an_approver(1, false, false), "someone else changes");
    }

    #[test]
    fn staff_are_added_only_to_the_approvers_companies() {
        assert_eq!(grantable(&[9, 4, 4], &[4, 9]), Ok(vec![4, 9]));
        assert_eq!(grantable(&[4, 9], &[4]), Err(NOT_YOUR_COMPANY));
        assert_eq!(grantable(&[], &[4]), Err(NO_COMPANY));
    }

    #[test]
    fn a_one_time_password_holder_reaches_only_the_change() {
        assert!(reachable_before_change("/password/change"));
        assert!(reachable_before_change("/api/password"));
        assert!(!reachable_before_change("/invoices"));
    }
}
