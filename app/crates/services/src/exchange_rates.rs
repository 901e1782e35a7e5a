//! Settings › Exchange rates (issue 35): the company's dated rates of the currencies its
//! suppliers bill in. Role 4 reads and changes them; every change is audited. A purchase
//! sheet takes the latest rate on or before its date (`orders::save`).

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::Core;
use crate::reference_data::{audit_change, only_approver};
use db::error::{AppError, AppResult};
use db::exchange_rates::{self as store, RateRow};
use domain::Actor;
use domain::currency::{self, Rate};

/// How many rates the page lists (newest first).
pub const LISTED: i64 = 200;

/// A rate as typed into the add form.
#[derive(Clone, Debug, Default)]
pub struct RateForm {
    pub currency: String,
    pub date: String,
    pub rate: String,
}

/// The company's rates, newest first (role 4).
pub async fn list(core: &Core, actor: &Actor) -> AppResult<Vec<RateRow>> {
    only_approver(actor.role)?;
    let org = actor.org_id;
    core.db.run(move |c| store::rates(c, org, LISTED)).await
}

/// Sets the rate of a currency on a date (replacing that day's); answers the message to show.
/// A currency that is not a foreign one of the list, a date that is no date, or a rate that
/// is zero, negative or absurd is refused with its field's message and nothing is saved.
pub async fn set(core: &Core, actor: &Actor, form: RateForm) -> AppResult<String> {
    only_approver(actor.role)?;
    let mut errors = BTreeMap::new();
    let code = match currency::currency(&form.currency) {
        Ok(currency::AUD) => {
            errors.insert("currency".to_string(), "AUD is the company's own currency: it needs no rate.".to_string());
            ""
        }
        Ok(c) => c,
        Err(m) => {
            errors.insert("currency".to_string(), m.to_string());
            ""
        }
    };
    let date = match NaiveDate::parse_from_str(form.date.trim(), "%Y-%m-%d") {
        Ok(d) => domain::limits::check_date(d).map_err(|m| errors.insert("date".to_string(), m.to_string())).ok(),
        Err(_) => {
            errors.insert("date".to_string(), "Enter the date as dd/mm/yyyy.".to_string());
            None
        }
    };
    let rate = Rate::parse(&form.rate).map_err(|e| errors.insert("rate".to_string(), e.to_string())).ok();
    let (Some(date), Some(rate), true) = (date, rate, errors.is_empty()) else {
        return Err(AppError::Validation { message: "Check the rate's fields.".into(), errors });
    };
    let admin = actor.clone();
    let code = code.to_string();
    core.db
        .write(move |c| {
            let old = store::set(c, admin.org_id, &code, date, rate.0, admin.user_id, db::now())?;
            let day = date.format("%d/%m/%Y");
            let detail = match old {
                Some(o) => format!("{code} {day}: {} → {}", Rate(o).plain(), rate.plain()),
                None => format!("{code} {day}: {}", rate.plain()),
            };
            audit_change(c, &admin, "exchange_rate", None, if old.is_some() { "update" } else { "create" }, detail)?;
            Ok(format!("Saved: {} from {day}.", currency::rate_text(&code, rate)))
        })
        .await
}

/// Removes one of the company's rates (role 4, audited); sheets saved with it keep it.
pub async fn remove(core: &Core, actor: &Actor, id: i64) -> AppResult<String> {
    only_approver(actor.role)?;
    let admin = actor.clone();
    core.db
        .write(move |c| {
            let (code, date, rate) = store::delete(c, admin.org_id, id)?.ok_or(AppError::NotFound)?;
            let detail = format!("{code} {}: {}", date.format("%d/%m/%Y"), Rate(rate).plain());
            audit_change(c, &admin, "exchange_rate", Some(id), "delete", detail.clone())?;
            Ok(format!("Removed the rate {detail}."))
        })
        .await
}
