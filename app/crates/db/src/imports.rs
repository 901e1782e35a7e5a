//! What the Download Center's imports did (`imports`): the file's SHA-256 and the outcome of
//! each accepted import, so the same file twice in a row is noticed (issue 29).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{imports, users};
use super::{DbConn, now};
use crate::error::AppResult;

/// The company's last accepted import of `kind`: its file's digest, when and by whom.
pub fn last(conn: &mut DbConn, org: i64, kind: &str) -> AppResult<Option<(String, NaiveDateTime, String)>> {
    Ok(imports::table
        .inner_join(users::table.on(users::id.eq(imports::user_id)))
        .filter(imports::org_id.eq(org))
        .filter(imports::kind.eq(kind))
        .order(imports::id.desc())
        .select((imports::digest, imports::created_at, users::name))
        .first(conn)
        .optional()?)
}

/// An accepted import: imported now (`done`) or queued as a job, and what it said.
pub struct Accepted<'a> {
    pub org_id: i64,
    pub user_id: i64,
    pub kind: &'a str,
    pub file_name: &'a str,
    pub digest: &'a str,
    pub rows: usize,
    pub done: bool,
    pub message: &'a str,
}

pub fn record(conn: &mut DbConn, a: &Accepted<'_>) -> AppResult<()> {
    diesel::insert_into(imports::table)
        .values((
            imports::org_id.eq(a.org_id),
            imports::user_id.eq(a.user_id),
            imports::kind.eq(a.kind),
            imports::file_name.eq(a.file_name),
            imports::digest.eq(a.digest),
            imports::row_count.eq(i32::try_from(a.rows).unwrap_or(i32::MAX)),
            imports::state.eq(i32::from(a.done)),
            imports::message.eq(a.message),
            imports::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}
