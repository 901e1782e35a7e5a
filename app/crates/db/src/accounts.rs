//! Users, memberships, organisations, sessions and API tokens.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;

use super::schema::{api_clients, api_tokens, memberships, organisations, sessions, users};
use super::{DbConn, now};
use crate::error::AppResult;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub phone: String,
    pub password_hash: String,
    pub status: i32,
    pub able_login: bool,
    pub is_active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Set with a one-time password: the next sign-in must choose a new one.
    pub must_change_password: bool,
}

#[derive(Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub phone: &'a str,
    pub password_hash: &'a str,
    pub status: i32,
    pub able_login: bool,
    pub is_active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A user's place in one organisation, with the organisation's name: read from
/// memberships joined to organisations.
#[derive(Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = memberships)]
pub struct Membership {
    pub org_id: i64,
    #[diesel(select_expression = organisations::name)]
    pub org_name: String,
    pub role: i32,
    pub mod_prc: bool,
    pub is_acct: bool,
    pub crt_csr: bool,
    /// May use the purchase suggestions (issue 35) without being an approver.
    pub is_buyer: bool,
    pub last_used_at: Option<NaiveDateTime>,
    /// The company's time zone (IANA name), for "today".
    #[diesel(select_expression = organisations::time_zone)]
    pub time_zone: String,
}

#[derive(Insertable)]
#[diesel(table_name = memberships)]
pub struct NewMembership {
    pub user_id: i64,
    pub org_id: i64,
    pub role: i32,
    pub mod_prc: bool,
    pub is_acct: bool,
    pub crt_csr: bool,
    pub last_used_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug, serde::Serialize)]
#[diesel(table_name = organisations)]
pub struct Organisation {
    pub id: i64,
    pub name: String,
    pub abn: String,
    pub address_line1: String,
    pub address_line2: String,
    pub phone: String,
    pub email: String,
    pub bank_account_name: String,
    pub bsb: String,
    pub bank_account: String,
    pub department_id: i32,
    pub logo: String,
    pub website: String,
    pub time_zone: String,
    pub tier_b_bp: i32,
    pub tier_c_bp: i32,
    pub tier_d_bp: i32,
    pub tier_e_bp: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub version: i32,
    /// The approval guard's overdue rule: an invoice of the customer more than this many
    /// days past due stops an approval (`None`: off).
    pub overdue_guard_days: Option<i32>,
    /// The warehouse a new sheet starts in (issue 32); `None`: none chosen.
    pub default_warehouse_id: Option<i64>,
    /// How many days a quotation is valid (issue 33; 7 unless set).
    pub quotation_valid_days: i32,
    /// Tyres by DOT date (issue 36): the printed tax invoice and delivery docket name each
    /// line's DOT codes.
    pub dot_on_documents: bool,
    /// The shop shows the years of manufacture in stock ('DOT 2025'), never quantities.
    pub shop_shows_dot: bool,
    /// The approval guard's old-tyre rule: an invoice selling tyres this many years old or
    /// more to a customer who has not accepted them needs an approver (`None`: off).
    pub old_tyre_years: Option<i32>,
}

/// Sessions stay valid this long after the last request.
pub const SESSION_IDLE: Duration = Duration::hours(12);
/// API bearer tokens live this long.
pub const TOKEN_LIFETIME: Duration = Duration::hours(12);

pub fn user_by_email(conn: &mut DbConn, email: &str) -> AppResult<Option<User>> {
    Ok(users::table
        .filter(users::email.eq(email.trim().to_lowercase()))
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

pub fn user_by_id(conn: &mut DbConn, id: i64) -> AppResult<User> {
    Ok(users::table.find(id).select(User::as_select()).first(conn)?)
}

pub fn insert_user(conn: &mut DbConn, new: &NewUser) -> AppResult<i64> {
    diesel::insert_into(users::table).values(new).execute(conn)?;
    Ok(users::table.filter(users::email.eq(new.email)).select(users::id).first(conn)?)
}

pub fn set_password(conn: &mut DbConn, user_id: i64, password_hash: &str) -> AppResult<()> {
    diesel::update(users::table.find(user_id))
        .set((users::password_hash.eq(password_hash), users::must_change_password.eq(false), users::updated_at.eq(now())))
        .execute(conn)?;
    Ok(())
}

/// Every active membership of a user, ordered by organisation id (the "first" account is the lowest).
pub fn memberships_of(conn: &mut DbConn, user_id: i64) -> AppResult<Vec<Membership>> {
    Ok(memberships::table
        .inner_join(organisations::table)
        .filter(memberships::user_id.eq(user_id))
        .filter(memberships::active.eq(true))
        .order(memberships::org_id.asc())
        .select(Membership::as_select())
        .load(conn)?)
}

pub fn insert_membership(conn: &mut DbConn, m: &NewMembership) -> AppResult<()> {
    diesel::insert_into(memberships::table).values(m).execute(conn)?;
    Ok(())
}

/// Remembers the organisation as the user's last used one.
pub fn mark_org_used(conn: &mut DbConn, user_id: i64, org_id: i64) -> AppResult<()> {
    diesel::update(memberships::table.filter(memberships::user_id.eq(user_id)).filter(memberships::org_id.eq(org_id)))
        .set(memberships::last_used_at.eq(Some(now())))
        .execute(conn)?;
    Ok(())
}

pub fn organisation(conn: &mut DbConn, org_id: i64) -> AppResult<Organisation> {
    Ok(organisations::table.find(org_id).select(Organisation::as_select()).first(conn)?)
}

/// A session with its user: read from sessions joined to users.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = sessions)]
pub struct SessionRow {
    pub id: String,
    pub user_id: i64,
    pub org_id: i64,
    pub csrf_token: String,
    pub last_seen_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    #[diesel(select_expression = users::name)]
    pub user_name: String,
    #[diesel(select_expression = users::email)]
    pub user_email: String,
    #[diesel(select_expression = users::must_change_password)]
    pub must_change_password: bool,
}

/// Creates a session; returns the cookie token (only its digest is stored) and the CSRF token.
pub fn create_session(conn: &mut DbConn, user_id: i64, org_id: i64) -> AppResult<(String, String)> {
    let token = crate::token::random_token();
    let csrf = crate::token::random_token();
    let t = now();
    diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(crate::token::digest(&token)),
            sessions::user_id.eq(user_id),
            sessions::org_id.eq(org_id),
            sessions::csrf_token.eq(&csrf),
            sessions::created_at.eq(t),
            sessions::last_seen_at.eq(t),
            sessions::expires_at.eq(t + SESSION_IDLE),
        ))
        .execute(conn)?;
    Ok((token, csrf))
}

/// The live session for a cookie token, with its user and the user's memberships, in one
/// statement: every request signed in by cookie starts with it (issue 38: one round trip,
/// not two). Expired sessions are not returned; the memberships are the active ones, in
/// company order, as [`memberships_of`] reads them.
pub fn session_with_memberships(conn: &mut DbConn, token: &str) -> AppResult<Option<(SessionRow, Vec<Membership>)>> {
    let rows: Vec<(SessionRow, Option<Membership>)> = sessions::table
        .inner_join(users::table)
        .left_join(memberships::table.on(memberships::user_id.eq(users::id).and(memberships::active.eq(true))))
        .left_join(organisations::table.on(organisations::id.eq(memberships::org_id)))
        .filter(sessions::id.eq(crate::token::digest(token)))
        .filter(sessions::expires_at.gt(now()))
        .filter(users::is_active.eq(true))
        .filter(users::able_login.eq(true))
        .order(memberships::org_id.asc())
        .select((SessionRow::as_select(), Option::<Membership>::as_select()))
        .load(conn)?;
    let mut rows = rows.into_iter();
    let Some((session, first)) = rows.next() else { return Ok(None) };
    let all = first.into_iter().chain(rows.filter_map(|(_, m)| m)).collect();
    Ok(Some((session, all)))
}

/// Slides the idle expiry forward.
pub fn touch_session(conn: &mut DbConn, id: &str) -> AppResult<()> {
    let t = now();
    diesel::update(sessions::table.find(id))
        .set((sessions::last_seen_at.eq(t), sessions::expires_at.eq(t + SESSION_IDLE)))
        .execute(conn)?;
    Ok(())
}

pub fn set_session_org(conn: &mut DbConn, id: &str, org_id: i64) -> AppResult<()> {
    diesel::update(sessions::table.find(id)).set(sessions::org_id.eq(org_id)).execute(conn)?;
    Ok(())
}

pub fn delete_session(conn: &mut DbConn, id: &str) -> AppResult<()> {
    diesel::delete(sessions::table.find(id)).execute(conn)?;
    Ok(())
}

/// Ends every session of a user except `keep` (after a password change).
pub fn delete_other_sessions(conn: &mut DbConn, user_id: i64, keep: Option<&str>) -> AppResult<()> {
    let q = sessions::table.filter(sessions::user_id.eq(user_id));
    match keep {
        Some(k) => diesel::delete(q.filter(sessions::id.ne(k))).execute(conn)?,
        None => diesel::delete(q).execute(conn)?,
    };
    diesel::delete(api_tokens::table.filter(api_tokens::user_id.eq(user_id))).execute(conn)?;
    Ok(())
}

pub fn client_secret_hash(conn: &mut DbConn, client_id: &str) -> AppResult<Option<String>> {
    Ok(api_clients::table.find(client_id).select(api_clients::secret_hash).first(conn).optional()?)
}

pub fn insert_client(conn: &mut DbConn, id: &str, secret_hash: &str, name: &str) -> AppResult<()> {
    diesel::insert_into(api_clients::table)
        .values((
            api_clients::id.eq(id),
            api_clients::secret_hash.eq(secret_hash),
            api_clients::name.eq(name),
            api_clients::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

/// Issues a bearer token; returns the token (only its digest is stored).
pub fn create_api_token(conn: &mut DbConn, user_id: i64, client_id: &str, org_id: i64, scope: &str) -> AppResult<String> {
    let token = crate::token::random_token();
    let t = now();
    diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::id.eq(crate::token::digest(&token)),
            api_tokens::user_id.eq(user_id),
            api_tokens::client_id.eq(client_id),
            api_tokens::org_id.eq(org_id),
            api_tokens::scope.eq(scope),
            api_tokens::created_at.eq(t),
            api_tokens::expires_at.eq(t + TOKEN_LIFETIME),
        ))
        .execute(conn)?;
    Ok(token)
}

/// The user and default organisation of a live bearer token.
pub fn api_token(conn: &mut DbConn, token: &str) -> AppResult<Option<(i64, i64, String, String)>> {
    Ok(api_tokens::table
        .inner_join(users::table)
        .filter(api_tokens::id.eq(crate::token::digest(token)))
        .filter(api_tokens::expires_at.gt(now()))
        .filter(users::is_active.eq(true))
        .select((api_tokens::user_id, api_tokens::org_id, users::name, users::email))
        .first(conn)
        .optional()?)
}

use super::schema::login_failures;

/// The shared sign-in failure meters of `keys` (see `auth::throttle`), as stored.
pub fn failure_tats(conn: &mut DbConn, keys: &[String]) -> AppResult<Vec<(String, NaiveDateTime)>> {
    Ok(login_failures::table.filter(login_failures::meter_key.eq_any(keys)).select((login_failures::meter_key, login_failures::tat)).load(conn)?)
}

/// Moves shared failure meters forward (never back: another process may have moved them
/// further meanwhile).
pub fn record_failure_tats(conn: &mut DbConn, tats: &[(String, NaiveDateTime)]) -> AppResult<()> {
    use diesel::dsl::sql;
    use diesel::sql_types::Timestamp;
    for (key, tat) in tats {
        let row = (login_failures::meter_key.eq(key), login_failures::tat.eq(tat));
        let later = sql::<Timestamp>("CASE WHEN excluded.tat > login_failures.tat THEN excluded.tat ELSE login_failures.tat END");
        crate::per_backend!(&mut *conn, |c| diesel::insert_into(login_failures::table)
            .values(row)
            .on_conflict(login_failures::meter_key)
            .do_update()
            .set(login_failures::tat.eq(later))
            .execute(c))?;
    }
    Ok(())
}

/// Forgets one shared failure meter (a successful sign-in from that address).
pub fn clear_failures(conn: &mut DbConn, key: &str) -> AppResult<()> {
    diesel::delete(login_failures::table.filter(login_failures::meter_key.eq(key))).execute(conn)?;
    Ok(())
}

/// Deletes meters that no longer count anything.
pub fn forget_failures_before(conn: &mut DbConn, t: NaiveDateTime) -> AppResult<usize> {
    Ok(diesel::delete(login_failures::table.filter(login_failures::tat.lt(t))).execute(conn)?)
}

// ---------------------------------------------------------------------------------------
// Staff administration (issue 13)
// ---------------------------------------------------------------------------------------

/// A staff member of one company: the user and the membership.
#[derive(Queryable, Clone, Debug)]
pub struct StaffMember {
    pub user_id: i64,
    pub email: String,
    pub name: String,
    pub phone: String,
    pub role: i32,
    pub mod_prc: bool,
    pub is_acct: bool,
    pub crt_csr: bool,
    /// May use the purchase suggestions (issue 35).
    pub is_buyer: bool,
    /// Active in this company.
    pub active: bool,
    pub must_change_password: bool,
    pub created_at: NaiveDateTime,
}

/// The company's staff member with this user id (404 for anyone else).
pub fn staff_member(conn: &mut DbConn, org: i64, user_id: i64) -> AppResult<StaffMember> {
    memberships::table
        .inner_join(users::table)
        .filter(memberships::org_id.eq(org))
        .filter(memberships::user_id.eq(user_id))
        .select((
            users::id,
            users::email,
            users::name,
            users::phone,
            memberships::role,
            memberships::mod_prc,
            memberships::is_acct,
            memberships::crt_csr,
            memberships::is_buyer,
            memberships::active,
            users::must_change_password,
            users::created_at,
        ))
        .first(conn)
        .optional()?
        .ok_or(crate::error::AppError::NotFound)
}

/// The company's active approvers (role 4), counted.
pub fn active_approvers(conn: &mut DbConn, org: i64) -> AppResult<i64> {
    Ok(memberships::table
        .inner_join(users::table)
        .filter(memberships::org_id.eq(org))
        .filter(memberships::role.eq(4))
        .filter(memberships::active.eq(true))
        .filter(users::is_active.eq(true))
        .count()
        .get_result(conn)?)
}

/// The companies where the user is an active approver.
pub fn approver_orgs(conn: &mut DbConn, user_id: i64) -> AppResult<Vec<(i64, String)>> {
    Ok(memberships::table
        .inner_join(organisations::table)
        .filter(memberships::user_id.eq(user_id))
        .filter(memberships::role.eq(4))
        .filter(memberships::active.eq(true))
        .order(organisations::id.asc())
        .select((organisations::id, organisations::name))
        .load(conn)?)
}

/// Whether the user already has a membership (active or not) in the company.
pub fn is_member(conn: &mut DbConn, org: i64, user_id: i64) -> AppResult<bool> {
    Ok(memberships::table.filter(memberships::org_id.eq(org)).filter(memberships::user_id.eq(user_id)).count().get_result::<i64>(conn)? > 0)
}

/// Changes the user's name and phone (shared by every company the person works for).
pub fn update_user_details(conn: &mut DbConn, user_id: i64, name: &str, phone: &str) -> AppResult<()> {
    diesel::update(users::table.find(user_id)).set((users::name.eq(name), users::phone.eq(phone), users::updated_at.eq(now()))).execute(conn)?;
    Ok(())
}

/// Sets the buyer flag of one membership (purchase suggestions, issue 35).
pub fn set_buyer(conn: &mut DbConn, org: i64, user_id: i64, is_buyer: bool) -> AppResult<()> {
    diesel::update(memberships::table.filter(memberships::org_id.eq(org)).filter(memberships::user_id.eq(user_id))).set(memberships::is_buyer.eq(is_buyer)).execute(conn)?;
    Ok(())
}

/// Changes the role, flags and active state of one membership.
pub fn update_membership(conn: &mut DbConn, org: i64, user_id: i64, role: i32, flags: (bool, bool, bool), active: bool) -> AppResult<()> {
    let (mod_prc, is_acct, crt_csr) = flags;
    diesel::update(memberships::table.filter(memberships::org_id.eq(org)).filter(memberships::user_id.eq(user_id)))
        .set((memberships::role.eq(role), memberships::mod_prc.eq(mod_prc), memberships::is_acct.eq(is_acct), memberships::crt_csr.eq(crt_csr), memberships::active.eq(active)))
        .execute(conn)?;
    Ok(())
}

/// Ends the user's sessions and API tokens in one company (after a deactivation or a change
/// of role: the next request signs in again with what the membership now allows).
pub fn end_sessions_in(conn: &mut DbConn, org: i64, user_id: i64) -> AppResult<()> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id)).filter(sessions::org_id.eq(org))).execute(conn)?;
    diesel::delete(api_tokens::table.filter(api_tokens::user_id.eq(user_id)).filter(api_tokens::org_id.eq(org))).execute(conn)?;
    Ok(())
}

/// Sets a one-time password: it must be changed at the next sign-in, and every session and
/// token of the user ends.
pub fn set_one_time_password(conn: &mut DbConn, user_id: i64, password_hash: &str) -> AppResult<()> {
    diesel::update(users::table.find(user_id))
        .set((users::password_hash.eq(password_hash), users::must_change_password.eq(true), users::updated_at.eq(now())))
        .execute(conn)?;
    delete_other_sessions(conn, user_id, None)
}

/// Saves the company's settings if they still have `version`; false when someone saved in between.
pub fn update_settings(conn: &mut DbConn, org: i64, version: i32, s: &domain::admin::Settings) -> AppResult<bool> {
    let [b, c, d, e] = s.tiers_bp;
    let n = diesel::update(organisations::table.filter(organisations::id.eq(org)).filter(organisations::version.eq(version)))
        .set((
            organisations::name.eq(&s.name),
            organisations::abn.eq(&s.abn),
            organisations::address_line1.eq(&s.address_line1),
            organisations::address_line2.eq(&s.address_line2),
            organisations::phone.eq(&s.phone),
            organisations::email.eq(&s.email),
            organisations::bank_account_name.eq(&s.bank_account_name),
            organisations::bsb.eq(&s.bsb),
            organisations::bank_account.eq(&s.bank_account),
            organisations::website.eq(&s.website),
            organisations::department_id.eq(s.department_id),
            organisations::tier_b_bp.eq(b),
            organisations::tier_c_bp.eq(c),
            organisations::tier_d_bp.eq(d),
            organisations::tier_e_bp.eq(e),
            organisations::time_zone.eq(&s.time_zone),
            organisations::overdue_guard_days.eq(s.overdue_guard_days),
            organisations::default_warehouse_id.eq(s.default_warehouse_id),
            organisations::quotation_valid_days.eq(s.quotation_valid_days),
            organisations::dot_on_documents.eq(s.dot_on_documents),
            organisations::shop_shows_dot.eq(s.shop_shows_dot),
            organisations::old_tyre_years.eq(s.old_tyre_years),
            organisations::updated_at.eq(now()),
            organisations::version.eq(organisations::version + 1),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// Sets the warehouse new sheets of company `org` start in (the seed's; the settings form
/// saves it with the rest).
pub fn set_default_warehouse(conn: &mut DbConn, org: i64, warehouse: Option<i64>) -> AppResult<()> {
    diesel::update(organisations::table.find(org)).set(organisations::default_warehouse_id.eq(warehouse)).execute(conn)?;
    Ok(())
}

/// The warehouse new sheets of company `org` start in, while it is one of the company's.
pub fn default_warehouse(conn: &mut DbConn, org: i64) -> AppResult<Option<i64>> {
    use crate::schema::warehouses;
    Ok(organisations::table
        .inner_join(warehouses::table.on(warehouses::id.nullable().eq(organisations::default_warehouse_id).and(warehouses::org_id.eq(organisations::id))))
        .filter(organisations::id.eq(org))
        .select(warehouses::id)
        .first(conn)
        .optional()?)
}

/// Stores the company's logo (a data URL, or the default path).
pub fn set_logo(conn: &mut DbConn, org: i64, logo: &str) -> AppResult<()> {
    diesel::update(organisations::table.find(org))
        .set((organisations::logo.eq(logo), organisations::updated_at.eq(now()), organisations::version.eq(organisations::version + 1)))
        .execute(conn)?;
    Ok(())
}

/// The company's stored logo.
pub fn logo(conn: &mut DbConn, org: i64) -> AppResult<String> {
    Ok(organisations::table.find(org).select(organisations::logo).first(conn)?)
}

/// Memberships that open the app: warehouse staff (roles 5 and 6) are never offered.
pub fn usable(memberships: &[Membership]) -> Vec<&Membership> {
    memberships.iter().filter(|m| domain::enums::Role::from_i32(m.role).is_some_and(domain::enums::Role::may_use_app)).collect()
}

/// The organisation to work in: the requested one if usable, otherwise the last used,
/// otherwise the first (spec §1).
pub fn choose_org(memberships: &[Membership], requested: Option<i64>) -> Option<&Membership> {
    let usable = usable(memberships);
    if let Some(id) = requested {
        return usable.into_iter().find(|m| m.org_id == id);
    }
    usable
        .iter()
        .filter(|m| m.last_used_at.is_some())
        .max_by_key(|m| m.last_used_at)
        .or_else(|| usable.first())
        .copied()
}

#[cfg(test)]
mod choice_tests {
    use super::*;
    use chrono::NaiveDate;

    fn m(org_id: i64, role: i32, used_day: Option<u32>) -> Membership {
        Membership {
            org_id,
            org_name: format!("Org {org_id}"),
            role,
            mod_prc: false,
            is_acct: false,
            crt_csr: false,
            is_buyer: false,
            last_used_at: used_day.map(|d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap().and_hms_opt(9, 0, 0).unwrap()),
            time_zone: "Australia/Sydney".into(),
        }
    }

    #[test]
    fn last_used_company_wins_otherwise_the_first() {
        let ms = vec![m(4, 2, Some(1)), m(9, 4, Some(3))];
        assert_eq!(choose_org(&ms, None).unwrap().org_id, 9);
        let ms = vec![m(4, 2, None), m(9, 4, None)];
        assert_eq!(choose_org(&ms, None).unwrap().org_id, 4);
    }

    #[test]
    fn warehouse_memberships_are_never_chosen() {
        let ms = vec![m(4, 5, Some(9)), m(9, 2, None)];
        assert_eq!(choose_org(&ms, None).unwrap().org_id, 9);
        assert!(choose_org(&ms, Some(4)).is_none());
        assert!(choose_org(&[m(4, 5, None), m(9, 6, None)], None).is_none());
    }

    #[test]
    fn requested_company_must_be_a_membership() {
        let ms = vec![m(4, 2, None)];
        assert!(choose_org(&ms, Some(9)).is_none());
        assert_eq!(choose_org(&ms, Some(4)).unwrap().org_id, 4);
    }
}
