//! What a form post has to say once, kept for the page it redirects to (post/redirect/get,
//! docs/decisions/screens.md "Post-redirect-get and one-time notices"): one notice per browser session, taken — read
//! and removed — by the next page that shows it, so a reload shows nothing and posts nothing.

use chrono::Duration;
use diesel::prelude::*;

use super::schema::session_notices;
use super::{DbConn, now};
use crate::error::AppResult;

/// A notice older than this is not shown (the redirect it was kept for never came).
const FRESH: Duration = Duration::minutes(10);

/// Keeps `text` for session `session_id` (replacing one not yet taken); `level` is the
/// alert's kind: `success`, `error` or `info`.
pub fn put(conn: &mut DbConn, session_id: &str, level: &str, text: &str) -> AppResult<()> {
    diesel::delete(session_notices::table.find(session_id)).execute(conn)?;
    diesel::insert_into(session_notices::table)
        .values((session_notices::session_id.eq(session_id), session_notices::level.eq(level), session_notices::text.eq(text), session_notices::created_at.eq(now())))
        .execute(conn)?;
    Ok(())
}

/// Takes the session's notice: answers it (when still fresh) and removes it.
pub fn take(conn: &mut DbConn, session_id: &str) -> AppResult<Option<(String, String)>> {
    let found: Option<(String, String, chrono::NaiveDateTime)> =
        session_notices::table.find(session_id).select((session_notices::level, session_notices::text, session_notices::created_at)).first(conn).optional()?;
    if found.is_none() {
        return Ok(None);
    }
    diesel::delete(session_notices::table.find(session_id)).execute(conn)?;
    Ok(found.filter(|(_, _, at)| now() - *at < FRESH).map(|(level, text, _)| (level, text)))
}

/// Removes notices no page took (the session ended, the redirect never came); hourly upkeep.
pub fn forget_stale(conn: &mut DbConn) -> AppResult<usize> {
    Ok(diesel::delete(session_notices::table.filter(session_notices::created_at.lt(now() - FRESH))).execute(conn)?)
}
