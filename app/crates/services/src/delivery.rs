//! Delivery tracking (spec §2.5 approve view, §4): delivery status, driver comment and
//! actual pay type of an approved invoice or credit note. Driver assignment lives with the
//! other sheet edits in `orders`.

use diesel::prelude::*;

use super::orders::ensure;
use domain::Actor;
use db::orders as order_db;
use db::schema::orders;
use db::{DbConn, now};
use domain::enums::{ActualPayType, DeliveryStatus, ShipType};
use domain::status::Action;
use db::error::{AppError, AppResult};

/// The longest driver comment kept (a note for the run sheet, not a letter).
pub const MAX_COMMENT: usize = 200;

/// The approve view's delivery fields as entered.
#[derive(Debug, Clone)]
pub struct DeliveryUpdate {
    pub status: DeliveryStatus,
    pub comment: String,
    pub actual_pay_type: ActualPayType,
}

impl DeliveryUpdate {
    /// Reads the three fields from their codes, with field errors for unknown codes.
    pub fn parse(status: Option<i32>, comment: &str, actual_pay_type: Option<i32>) -> AppResult<Self> {
        let status = status.and_then(DeliveryStatus::from_i32).ok_or_else(|| AppError::field("delivery_status", "Choose a delivery status."))?;
        let actual_pay_type = actual_pay_type.and_then(ActualPayType::from_i32).ok_or_else(|| AppError::field("actual_pay_type", "Choose the actual pay type."))?;
        let comment = comment.trim().to_string();
        if comment.chars().count() > MAX_COMMENT {
            return Err(AppError::field("delivery_comment", format!("Keep the driver comment within {MAX_COMMENT} characters.")));
        }
        domain::limits::check_text(&comment, domain::limits::Text::Lines(MAX_COMMENT)).map_err(|m| AppError::field("delivery_comment", m))?;
        Ok(Self { status, comment, actual_pay_type })
    }
}

/// Sets delivery status, driver comment and actual pay type, with a history row that reads
/// as the list shows it (e.g. 'Picked up').
pub fn set_delivery(conn: &mut DbConn, actor: &Actor, id: i64, u: &DeliveryUpdate) -> AppResult<()> {
    let o = order_db::get(conn, actor.org_id, id)?;
    ensure(&o, Action::EditDelivery)?;
    diesel::update(orders::table.find(id))
        .set((
            orders::delivery_status.eq(u.status.as_i32()),
            orders::delivery_comment.eq(&u.comment),
            orders::actual_pay_type.eq(u.actual_pay_type.as_i32()),
            orders::updated_at.eq(now()),
        ))
        .execute(conn)?;
    let ship = ShipType::from_i32(o.ship_type).unwrap_or(ShipType::Delivery);
    let mut action = format!("Delivery: {} · Actual Pay Type: {}", u.status.wording(ship), u.actual_pay_type.label());
    if !u.comment.is_empty() {
        action.push_str(&format!(" · Driver Comment: {}", u.comment));
    }
    order_db::add_event(conn, actor.org_id, id, Some(actor.user_id), &actor.name, &action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_parse_from_codes() {
        let u = DeliveryUpdate::parse(Some(3), "  left at the back door ", Some(1)).unwrap();
        assert_eq!((u.status, u.actual_pay_type, u.comment.as_str()), (DeliveryStatus::Finished, ActualPayType::Cash, "left at the back door"));
        assert!(DeliveryUpdate::parse(Some(99), "", Some(0)).is_ok(), "Cancelled and Unpaid are codes too");
        assert!(matches!(DeliveryUpdate::parse(Some(4), "", Some(0)), Err(AppError::Validation { errors, .. }) if errors.contains_key("delivery_status")));
        assert!(matches!(DeliveryUpdate::parse(Some(0), "", None), Err(AppError::Validation { errors, .. }) if errors.contains_key("actual_pay_type")));
        let long = "x".repeat(MAX_COMMENT + 1);
        assert!(matches!(DeliveryUpdate::parse(Some(0), &long, Some(0)), Err(AppError::Validation { errors, .. }) if errors.contains_key("delivery_comment")));
        assert!(matches!(DeliveryUpdate::parse(Some(0), "gate\0code", Some(0)), Err(AppError::Validation { errors, .. }) if errors["delivery_comment"] == domain::limits::CONTROL_CHARACTERS));
    }
}
