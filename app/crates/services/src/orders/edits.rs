//! Edits an approved sheet still takes: the print mark, its dates, address and driver.

use super::*;

/// Marks a sheet printed: `Action::ManualMark` without printing, `Action::Print` after the
/// browser printed it; `how` is the history row.
pub fn mark_printed(conn: &mut DbConn, actor: &Actor, id: i64, action: Action, how: &str) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, action)?;
    diesel::update(orders::table.find(id)).set((orders::printed.eq(true), orders::printed_at.eq(Some(now())), orders::updated_at.eq(now()))).execute(conn)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, how)
}

/// The dates of the Edit Date dialog (spec §2.6).
#[derive(Clone, Debug, Default)]
pub struct Dates {
    pub date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub delivery_date: Option<NaiveDate>,
}

/// Edits the dates the Edit Date dialog offers for the sheet's type (`sheet::has_due_date`,
/// `sheet::delivery_date_editable`).
pub fn set_dates(conn: &mut DbConn, actor: &Actor, id: i64, d: &Dates) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    let state = ensure(&o, Action::EditDate)?;
    let t = state.order_type;
    let date = d.date.ok_or_else(|| AppError::field("date", domain::validate::REQUIRED))?;
    for (field, value) in [("date", Some(date)), ("due_date", d.due_date), ("delivery_date", d.delivery_date)] {
        if let Some(Err(m)) = value.map(limits::check_date) {
            return Err(AppError::field(field, m));
        }
    }
    let due = if sheet::has_due_date(t) { d.due_date } else { o.due_date };
    let delivery = if sheet::delivery_date_editable(t) { d.delivery_date } else { o.delivery_date };
    diesel::update(orders::table.find(id))
        .set((orders::order_date.eq(date), orders::due_date.eq(due), orders::delivery_date.eq(delivery), orders::updated_at.eq(now())))
        .execute(conn)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Dates edited")
}

/// Edits the contact infos (types 1 and 2, not voided).
pub fn set_address(conn: &mut DbConn, actor: &Actor, id: i64, address: &str, phone: &str) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::EditAddress)?;
    let bad = limits::check_texts([("address", address, limits::Text::Lines(limits::ADDRESS_MAX)), ("phone", phone, limits::Text::Line(limits::PHONE_MAX))]);
    if !bad.is_empty() {
        return Err(invalid(bad.into_iter().collect()));
    }
    diesel::update(orders::table.find(id)).set((orders::address.eq(address.trim()), orders::phone.eq(phone.trim()), orders::updated_at.eq(now()))).execute(conn)?;
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, "Address edited")
}

/// Assigns or changes the driver (types 1 and 2, approved; role-6 staff only).
pub fn assign_driver(conn: &mut DbConn, actor: &Actor, id: i64, driver: Option<Unchecked<Driver>>) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::EditDriver)?;
    let driver = refs::resolve_opt(conn, actor.org_id, driver, "driver_id")?;
    diesel::update(orders::table.find(id)).set((orders::driver_id.eq(id_of(driver)), orders::updated_at.eq(now()))).execute(conn)?;
    let action = match driver {
        Some(d) => {
            let name: String = db::schema::users::table.find(d.id()).select(db::schema::users::name).first(conn)?;
            format!("Driver assigned: {name}")
        }
        None => "Driver removed".to_string(),
    };
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, &action)
}
