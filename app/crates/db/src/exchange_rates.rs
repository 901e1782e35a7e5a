//! The company's dated exchange rates (issue 35, Settings › Exchange rates): units of a
//! foreign currency per 1 AUD, in millionths.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::DbConn;
use super::schema::exchange_rates;
use crate::error::AppResult;

/// One stored rate.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = exchange_rates)]
pub struct RateRow {
    pub id: i64,
    pub currency: String,
    pub rate_date: NaiveDate,
    pub rate: i64,
}

/// The company's rates, newest first (at most `limit`).
pub fn rates(conn: &mut DbConn, org: i64, limit: i64) -> AppResult<Vec<RateRow>> {
    Ok(exchange_rates::table
        .filter(exchange_rates::org_id.eq(org))
        .order((exchange_rates::rate_date.desc(), exchange_rates::currency.asc()))
        .limit(limit)
        .select(RateRow::as_select())
        .load(conn)?)
}

/// The rate a sheet of `currency` dated `date` takes: the latest on or before the date, with
/// its date (one row through the unique index).
pub fn rate_on(conn: &mut DbConn, org: i64, currency: &str, date: NaiveDate) -> AppResult<Option<(NaiveDate, i64)>> {
    Ok(exchange_rates::table
        .filter(exchange_rates::org_id.eq(org))
        .filter(exchange_rates::currency.eq(currency))
        .filter(exchange_rates::rate_date.le(date))
        .order(exchange_rates::rate_date.desc())
        .select((exchange_rates::rate_date, exchange_rates::rate))
        .first(conn)
        .optional()?)
}

/// Sets the company's rate of `currency` on `date` (replacing one of that day); answers the
/// rate it replaced.
pub fn set(conn: &mut DbConn, org: i64, currency: &str, date: NaiveDate, rate: i64, user: i64, now: NaiveDateTime) -> AppResult<Option<i64>> {
    let day = exchange_rates::table.filter(exchange_rates::org_id.eq(org)).filter(exchange_rates::currency.eq(currency)).filter(exchange_rates::rate_date.eq(date));
    let old: Option<i64> = day.select(exchange_rates::rate).first(conn).optional()?;
    diesel::delete(day).execute(conn)?;
    diesel::insert_into(exchange_rates::table)
        .values((
            exchange_rates::org_id.eq(org),
            exchange_rates::currency.eq(currency),
            exchange_rates::rate_date.eq(date),
            exchange_rates::rate.eq(rate),
            exchange_rates::user_id.eq(Some(user)),
            exchange_rates::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(old)
}

/// Removes one of the company's rates; answers it (currency, date, rate) when it existed.
pub fn delete(conn: &mut DbConn, org: i64, id: i64) -> AppResult<Option<(String, NaiveDate, i64)>> {
    let row = exchange_rates::table.filter(exchange_rates::org_id.eq(org)).find(id).select((exchange_rates::currency, exchange_rates::rate_date, exchange_rates::rate)).first(conn).optional()?;
    if row.is_some() {
        diesel::delete(exchange_rates::table.filter(exchange_rates::org_id.eq(org)).find(id)).execute(conn)?;
    }
    Ok(row)
}
