//! Checking who signs in, for the sign-in forms (staff and shop) and `/oauth/token`: the
//! password, under the sign-in throttle, with the same time whether the account exists.

use std::sync::OnceLock;

use db::accounts;
use db::error::{AppError, AppResult};
use db::shop::{self as shop_db, ShopAccount};
use domain::shop as rules;

use crate::password;
use domain::permissions::WAREHOUSE_REFUSED;
use crate::Core;

/// Message for a failed sign-in (spec §8).
pub const LOGIN_FAILED: &str = "Login failed. Incorrect email or password";

/// Who signed in: the user, the company picked, and whether a one-time password must be
/// changed first.
pub struct SignedIn {
    pub user_id: i64,
    pub org_id: i64,
    pub must_change_password: bool,
}

/// Runs a credential check under the sign-in throttle (see `auth::throttle`): the throttle
/// decides first, counting failures other server processes recorded on the same database,
/// and learns the outcome. `meter` names the account being tried; a check answering `None`
/// is a failure, answered with `refused` (or 'too many attempts' once the account's meter
/// is full). Shared by the staff sign-in and the shop's.
pub async fn throttled<T: Send + 'static>(
    core: &Core,
    meter: &str,
    ip: Option<std::net::IpAddr>,
    refused: &'static str,
    check: impl FnOnce(&mut db::DbConn) -> AppResult<Option<T>> + Send + 'static,
) -> AppResult<T> {
    let keys = core.throttle.shared_keys(meter, ip);
    let both = keys.both();
    let stored = core.db.run(move |c| accounts::failure_tats(c, &both)).await?;
    core.throttle.merge_shared(&keys, &stored);
    let attempt = core.throttle.admit(meter, ip).ok_or(AppError::TooManyRequests)?;
    let Some(found) = core.db.run(check).await? else {
        core.throttle.failed(&attempt);
        let tats = core.throttle.shared_tats(&attempt);
        core.db.write(move |c| accounts::record_failure_tats(c, &tats)).await?;
        return Err(if attempt.wrong_password_is_throttled() { AppError::TooManyRequests } else { AppError::forbidden(refused) });
    };
    core.throttle.succeeded(&attempt);
    let forgiven = attempt.shared_keys().pair_key();
    core.db.write(move |c| accounts::clear_failures(c, &forgiven)).await?;
    Ok(found)
}

/// Checks a staff e-mail and password and picks the company; shared by the form and
/// `/oauth/token`.
pub async fn staff(core: &Core, email: &str, pass: &str, ip: Option<std::net::IpAddr>) -> AppResult<SignedIn> {
    let email_ = email.trim().to_lowercase();
    let pass = pass.to_string();
    let (user_id, memberships, must_change_password) = throttled(core, email, ip, LOGIN_FAILED, move |conn| {
        let user = accounts::user_by_email(conn, &email_)?;
        let Some(user) = user.filter(|u| u.is_active && u.able_login) else {
            password::verify(&pass, dummy_hash());
            return Ok(None);
        };
        if !password::verify(&pass, &user.password_hash) {
            return Ok(None);
        }
        Ok(Some((user.id, accounts::memberships_of(conn, user.id)?, user.must_change_password)))
    })
    .await?;
    let org = accounts::choose_org(&memberships, None).ok_or_else(|| AppError::forbidden(WAREHOUSE_REFUSED))?;
    Ok(SignedIn { user_id, org_id: org.org_id, must_change_password })
}

/// A hash to verify against when the e-mail is unknown, so timing does not reveal accounts.
pub fn dummy_hash() -> &'static str {
    static H: OnceLock<String> = OnceLock::new();
    H.get_or_init(|| password::hash("not-a-real-password").unwrap_or_default())
}

/// Checks a customer's e-mail and password under the staff sign-in's throttle (its own
/// meters: a customer's failures never lock a staff account); returns every shop the pair
/// opens. Shared by the form and `/oauth/token`.
pub async fn customer(core: &Core, email: &str, pass: &str, ip: Option<std::net::IpAddr>) -> AppResult<Vec<ShopAccount>> {
    let meter = format!("shop:{}", email.trim().to_lowercase());
    let (email, pass) = (email.trim().to_string(), pass.to_string());
    throttled(core, &meter, ip, rules::SIGN_IN_FAILED, move |c| {
        let accounts = shop_db::accounts_by_email(c, &email)?;
        if accounts.is_empty() {
            password::verify(&pass, dummy_hash());
        }
        let opened: Vec<ShopAccount> = accounts.into_iter().filter(|a| password::verify(&pass, &a.password_hash)).collect();
        Ok((!opened.is_empty()).then_some(opened))
    })
    .await
}
