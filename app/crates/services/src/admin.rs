//! Running the company (role 4): the organisation's settings and logo, and its staff — add,
//! change role, flags and status, one-time passwords. Every change is one transaction with
//! its audit row.

use base64::Engine;

use crate::password;
use db::token;
use db::accounts::{self, StaffMember};
use db::reference_data::{AuditEntry, audit};
use domain::admin::{self as rules, Settings, SettingsInput, StaffInput};
use domain::masters::require_version;
use domain::reference_data::changes;
use domain::validate::FieldError;
use db::error::{AppError, AppResult};
use crate::masters::{invalid, version_conflict};
use crate::reference_data::{audit_change, only_approver};
use crate::Core;
use domain::Actor;

// ---------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------

fn settings_changes(o: &accounts::Organisation, s: &Settings, warehouses: &[db::masters::Warehouse]) -> String {
    let bp = |v: i32| rules::show_uplift(v) + "%";
    let yes = |on: bool| if on { "yes".to_string() } else { "no".to_string() };
    let warehouse = |id: Option<i64>| match id {
        None => "none".to_string(),
        Some(id) => warehouses.iter().find(|w| w.id == id).map_or_else(|| format!("#{id}"), |w| w.name.clone()),
    };
    changes(&[
        ("Name", o.name.clone(), s.name.clone()),
        ("ABN", o.abn.clone(), s.abn.clone()),
        ("Address line 1", o.address_line1.clone(), s.address_line1.clone()),
        ("Address line 2", o.address_line2.clone(), s.address_line2.clone()),
        ("Phone", o.phone.clone(), s.phone.clone()),
        ("Email", o.email.clone(), s.email.clone()),
        ("Bank account name", o.bank_account_name.clone(), s.bank_account_name.clone()),
        ("BSB", o.bsb.clone(), s.bsb.clone()),
        ("Account", o.bank_account.clone(), s.bank_account.clone()),
        ("Website", o.website.clone(), s.website.clone()),
        ("Department", o.department_id.to_string(), s.department_id.to_string()),
        ("Class B uplift", bp(o.tier_b_bp), bp(s.tiers_bp[0])),
        ("Class C uplift", bp(o.tier_c_bp), bp(s.tiers_bp[1])),
        ("Class D uplift", bp(o.tier_d_bp), bp(s.tiers_bp[2])),
        ("Class E uplift", bp(o.tier_e_bp), bp(s.tiers_bp[3])),
        ("Time zone", o.time_zone.clone(), s.time_zone.clone()),
        ("Overdue rule (days)", o.overdue_guard_days.map(|d| d.to_string()).unwrap_or_else(|| "off".into()), s.overdue_guard_days.map(|d| d.to_string()).unwrap_or_else(|| "off".into())),
        ("Default warehouse", warehouse(o.default_warehouse_id), warehouse(s.default_warehouse_id)),
        ("Quotation valid for (days)", o.quotation_valid_days.to_string(), s.quotation_valid_days.to_string()),
        ("DOT codes on documents", yes(o.dot_on_documents), yes(s.dot_on_documents)),
        ("DOT year in the shop", yes(o.shop_shows_dot), yes(s.shop_shows_dot)),
        ("Old-tyre rule (years)", o.old_tyre_years.map(|y| y.to_string()).unwrap_or_else(|| "off".into()), s.old_tyre_years.map(|y| y.to_string()).unwrap_or_else(|| "off".into())),
    ])
}

/// Saves the company's settings if nobody saved in between.
pub async fn save_settings(core: &Core, actor: &Actor, input: SettingsInput) -> AppResult<()> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    let version = require_version(input.version).map_err(|e| invalid(vec![e]))?;
    let settings = rules::validate_settings(&input).map_err(invalid)?;
    core
        .db
        .write(move |c| {
            let stored = accounts::organisation(c, admin.org_id)?;
            // The default warehouse is one of the company's (another company's id is refused).
            let warehouses = db::masters::all_warehouses(c, admin.org_id)?;
            if settings.default_warehouse_id.is_some_and(|id| !warehouses.iter().any(|w| w.id == id)) {
                return Err(AppError::field("default_warehouse_id", rules::DEFAULT_WAREHOUSE_UNKNOWN));
            }
            if !accounts::update_settings(c, admin.org_id, version, &settings)? {
                return Err(version_conflict());
            }
            let detail = settings_changes(&stored, &settings, &warehouses);
            if !detail.is_empty() {
                audit_change(c, &admin, "settings", Some(admin.org_id), "update", detail)?;
            }
            Ok(())
        })
        .await
}

/// Replaces the company's logo with an uploaded image (`None` puts the default back).
pub async fn set_logo(core: &Core, actor: &Actor, image: Option<Vec<u8>>) -> AppResult<()> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    let (stored, detail) = match image {
        None => (rules::DEFAULT_LOGO.to_string(), "removed".to_string()),
        Some(bytes) => {
            let mime = rules::logo_type(&bytes).map_err(|m| AppError::field("logo", m))?;
            let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
            (format!("data:{mime};base64,{data}"), format!("replaced ({mime}, {} KB)", bytes.len().div_ceil(1024)))
        }
    };
    core
        .db
        .write(move |c| {
            accounts::set_logo(c, admin.org_id, &stored)?;
            audit_change(c, &admin, "settings", Some(admin.org_id), "logo", detail.clone())
        })
        .await
}

/// The uploaded logo's bytes and content type, if the company has one.
pub fn decode_logo(stored: &str) -> Option<(&str, Vec<u8>)> {
    let rest = stored.strip_prefix("data:")?;
    let (mime, data) = rest.split_once(";base64,")?;
    base64::engine::general_purpose::STANDARD.decode(data).ok().map(|b| (mime, b))
}

// ---------------------------------------------------------------------------------------
// Staff
// ---------------------------------------------------------------------------------------

/// A new staff member and the one-time password to hand them (shown once).
pub struct Added {
    pub user_id: i64,
    /// `None` when the e-mail already signs in elsewhere: the person keeps their password.
    pub one_time_password: Option<String>,
}

/// Adds a staff member to the chosen companies (each one where the approver is an approver).
/// A new e-mail gets a user with a one-time password; an e-mail that already signs in (in
/// another company) gets the membership only.
pub async fn add_staff(core: &Core, actor: &Actor, input: StaffInput) -> AppResult<Added> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    let fields = rules::validate_staff(&input, None).map_err(invalid)?;
    let otp = token::one_time_password();
    let hash = password::hash(&otp)?;
    let asked = if input.orgs.is_empty() { vec![admin.org_id] } else { input.orgs.clone() };
    core
        .db
        .write(move |c| {
            let approver_of: Vec<i64> = accounts::approver_orgs(c, admin.user_id)?.into_iter().map(|(id, _)| id).collect();
            let orgs = rules::grantable(&asked, &approver_of).map_err(|m| invalid(vec![FieldError { field: "orgs", message: m }]))?;
            let now = db::now();
            let (user_id, fresh) = match accounts::user_by_email(c, &fields.email)? {
                Some(u) => {
                    if accounts::is_member(c, admin.org_id, u.id)? {
                        return Err(invalid(vec![FieldError { field: "email", message: rules::EMAIL_TAKEN }]));
                    }
                    (u.id, false)
                }
                None => {
                    let new = accounts::NewUser {
                        email: &fields.email,
                        name: &fields.name,
                        phone: &fields.phone,
                        password_hash: &hash,
                        status: 1,
                        able_login: true,
                        is_active: true,
                        created_at: now,
                        updated_at: now,
                    };
                    let id = accounts::insert_user(c, &new)?;
                    accounts::set_one_time_password(c, id, &hash)?;
                    (id, true)
                }
            };
            for org in orgs {
                if accounts::is_member(c, org, user_id)? {
                    continue;
                }
                accounts::insert_membership(
                    c,
                    &accounts::NewMembership {
                        user_id,
                        org_id: org,
                        role: fields.role.as_i32(),
                        mod_prc: fields.mod_prc,
                        is_acct: fields.is_acct,
                        crt_csr: fields.crt_csr,
                        last_used_at: None,
                        created_at: now,
                    },
                )?;
                accounts::set_buyer(c, org, user_id, fields.is_buyer)?;
                let detail = format!("{} <{}> as {}", fields.name, fields.email, fields.role.label());
                audit(c, AuditEntry { org_id: org, user_id: admin.user_id, entity: "staff", entity_id: Some(user_id), action: "create", detail }, now)?;
            }
            Ok(Added { user_id, one_time_password: fresh.then(|| otp.clone()) })
        })
        .await
}

fn flags_text(m: &StaffMember) -> String {
    [("modPrc", m.mod_prc), ("isAcct", m.is_acct), ("crtCSR", m.crt_csr), ("isBuyer", m.is_buyer)].iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect::<Vec<_>>().join(",")
}

/// Changes a staff member's name, phone, role, flags and status in this company. Demoting or
/// deactivating the last active approver is refused; a deactivation or a change of role or
/// flags ends the person's sessions and tokens in this company at once.
pub async fn update_staff(core: &Core, actor: &Actor, user_id: i64, input: StaffInput) -> AppResult<()> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    core
        .db
        .write(move |c| {
            let stored = accounts::staff_member(c, admin.org_id, user_id)?;
            let f = rules::validate_staff(&input, Some(&stored.email)).map_err(invalid)?;
            let active = input.active.unwrap_or(stored.active);
            let was_approver = stored.active && stored.role == 4;
            let will_be = active && f.role.is_approver();
            if !rules::keeps_an_approver(accounts::active_approvers(c, admin.org_id)?, was_approver, will_be) {
                return Err(invalid(vec![FieldError { field: "role", message: rules::LAST_APPROVER }]));
            }
            accounts::update_user_details(c, user_id, &f.name, &f.phone)?;
            accounts::update_membership(c, admin.org_id, user_id, f.role.as_i32(), (f.mod_prc, f.is_acct, f.crt_csr), active)?;
            accounts::set_buyer(c, admin.org_id, user_id, f.is_buyer)?;
            let new = StaffMember { name: f.name.clone(), phone: f.phone.clone(), role: f.role.as_i32(), mod_prc: f.mod_prc, is_acct: f.is_acct, crt_csr: f.crt_csr, is_buyer: f.is_buyer, active, ..stored.clone() };
            let status = |a: bool| if a { "Active" } else { "Inactive" }.to_string();
            let role = |r: i32| domain::enums::Role::from_i32(r).map(|r| r.label()).unwrap_or("?").to_string();
            let detail = changes(&[
                ("Name", stored.name.clone(), new.name.clone()),
                ("Phone", stored.phone.clone(), new.phone.clone()),
                ("Role", role(stored.role), role(new.role)),
                ("Flags", flags_text(&stored), flags_text(&new)),
                ("Status", status(stored.active), status(new.active)),
            ]);
            let rights_changed = stored.role != new.role || flags_text(&stored) != flags_text(&new) || stored.active != new.active;
            if rights_changed {
                accounts::end_sessions_in(c, admin.org_id, user_id)?;
            }
            if !detail.is_empty() {
                audit_change(c, &admin, "staff", Some(user_id), "update", detail)?;
            }
            Ok(())
        })
        .await
}

/// Sets a one-time password for a staff member of this company (the answer to 'forgot
/// password'); it must be changed at the next sign-in, and their sessions end now.
pub async fn reset_password(core: &Core, actor: &Actor, user_id: i64) -> AppResult<String> {
    let admin = actor.clone();
    only_approver(admin.role)?;
    let otp = token::one_time_password();
    let hash = password::hash(&otp)?;
    core
        .db
        .write(move |c| {
            let member = accounts::staff_member(c, admin.org_id, user_id)?;
            accounts::set_one_time_password(c, user_id, &hash)?;
            audit_change(c, &admin, "staff", Some(user_id), "one-time password", format!("set for {}", member.email))
        })
        .await?;
    Ok(otp)
}
