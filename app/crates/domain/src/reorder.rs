//! Purchase suggestions (issue 35, docs/decisions/purchasing.md "Purchase suggestions"): the
//! weekly sales velocity of a product in a warehouse, the reorder point and order-up-to level
//! proposed from it (or entered by a buyer), and what to order when the stock position falls
//! to the reorder point. Quantities are whole units; every sum is checked.

use super::limits::QTY_MAX;
use super::sheet::FieldErrors;

/// Weeks of sales the velocity is read from, when the screen does not say.
pub const WEEKS_DEFAULT: u32 = 12;
/// The most weeks of sales the velocity may be read from (a year).
pub const WEEKS_MAX: u32 = 52;
/// The lead time assumed for a supplier whose lead time is unknown: 4 weeks.
pub const LEAD_DAYS_UNKNOWN: i64 = 28;
/// Safety stock: one week of sales on top of the lead time.
pub const SAFETY_DAYS: i64 = 7;
/// What an order covers beyond the reorder point: four weeks of sales.
pub const COVER_DAYS: i64 = 28;
/// The highest reorder point or order-up-to level a buyer may enter.
pub const LEVEL_MAX: i64 = QTY_MAX;

pub const WEEKS_OUT_OF_RANGE: &str = "Weeks of sales must be a whole number from 1 to 52.";
pub const LEVEL_OUT_OF_RANGE: &str = "Enter a whole number of units from 0 to 1,000,000.";
pub const LEVELS_BOTH: &str = "Enter both the reorder point and the order-up-to level, or leave both blank to go back to the proposed levels.";
pub const LEVELS_ORDER: &str = "The reorder point must not be above the order-up-to level.";
pub const SUGGESTED_OUT_OF_RANGE: &str = "The quantity to order must be a whole number from 1 to 1,000,000.";
pub const LEAD_TIME_UNREADABLE: &str = "The supplier's lead time is out of range.";

/// The weeks of sales asked for: blank → [`WEEKS_DEFAULT`], else 1–52.
pub fn parse_weeks(text: Option<&str>) -> Result<u32, &'static str> {
    match text.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(WEEKS_DEFAULT),
        Some(s) => s.parse::<u32>().ok().filter(|w| (1..=WEEKS_MAX).contains(w)).ok_or(WEEKS_OUT_OF_RANGE),
    }
}

/// Units sold in the window: invoiced units less credited units. A window where credits
/// exceed sales sold nothing (velocity 0), it does not "unsell".
pub fn net_units(invoiced: i64, credited: i64) -> i64 {
    invoiced.checked_sub(credited).unwrap_or(0).max(0)
}

/// `units` sold over `weeks` weeks, as units per week with one decimal ("2.5"), for showing.
pub fn velocity_text(units: i64, weeks: u32) -> String {
    let weeks = i128::from(weeks.max(1));
    let tenths = (i128::from(units.max(0)) * 10 + weeks / 2) / weeks;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Units needed for `days` at the pace of `units` per `weeks` weeks, rounded up.
fn cover(units: i64, weeks: u32, days: i64) -> Option<i64> {
    let num = i128::from(units.max(0)).checked_mul(i128::from(days.max(0)))?;
    let den = i128::from(weeks.max(1)) * 7;
    let q = (num + den - 1) / den;
    i64::try_from(q).ok()
}

/// A reorder point and an order-up-to level, entered or proposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Levels {
    pub reorder_point: i64,
    pub order_up_to: i64,
    /// Entered by a buyer (else proposed from the sales).
    pub entered: bool,
}

/// The levels proposed from `units` sold over `weeks` weeks and the supplier's lead time in
/// days (`None`: unknown → [`LEAD_DAYS_UNKNOWN`]): reorder point = velocity × (lead time +
/// safety week) rounded up; order-up-to = reorder point + velocity × cover weeks rounded up.
/// `None` when the figures overflow (they cannot within the ranged inputs).
pub fn proposed(units: i64, weeks: u32, lead_days: Option<i64>) -> Option<Levels> {
    let lead = lead_days.unwrap_or(LEAD_DAYS_UNKNOWN).max(0);
    let reorder_point = cover(units, weeks, lead.checked_add(SAFETY_DAYS)?)?;
    let order_up_to = reorder_point.checked_add(cover(units, weeks, COVER_DAYS)?)?;
    Some(Levels { reorder_point, order_up_to, entered: false })
}

/// The levels that apply: the entered ones when a buyer entered them, else the proposal.
pub fn effective(entered: Option<(i64, i64)>, proposal: Levels) -> Levels {
    match entered {
        Some((reorder_point, order_up_to)) => Levels { reorder_point, order_up_to, entered: true },
        None => proposal,
    }
}

/// The stock position: on hand + in transit (approved purchase orders not yet received) +
/// on order (draft purchase orders). `None` on overflow.
pub fn position(on_hand: i64, in_transit: i64, on_order: i64) -> Option<i64> {
    on_hand.checked_add(in_transit)?.checked_add(on_order)
}

/// The quantity to order: when the position is at or below the reorder point, up to the
/// order-up-to level; `None` when nothing is to be ordered (above the reorder point, or
/// already at the level).
pub fn suggestion(position: i64, levels: Levels) -> Option<i64> {
    if position > levels.reorder_point {
        return None;
    }
    levels.order_up_to.checked_sub(position).filter(|q| *q > 0)
}

fn level(errors: &mut FieldErrors, field: &str, text: &str) -> Option<i64> {
    match text.trim().parse::<i64>().ok().filter(|v| (0..=LEVEL_MAX).contains(v)) {
        Some(v) => Some(v),
        None => {
            errors.insert(field.into(), LEVEL_OUT_OF_RANGE.into());
            None
        }
    }
}

/// The levels a buyer typed: both blank → `Ok(None)` (back to the proposal); both whole
/// numbers 0–1,000,000 with the reorder point not above the order-up-to level → the pair;
/// else the messages per field (`reorder_point`, `order_up_to`).
pub fn check_levels(reorder_point: &str, order_up_to: &str) -> Result<Option<(i64, i64)>, FieldErrors> {
    let mut errors = FieldErrors::new();
    match (reorder_point.trim().is_empty(), order_up_to.trim().is_empty()) {
        (true, true) => return Ok(None),
        (true, false) => {
            errors.insert("reorder_point".into(), LEVELS_BOTH.into());
            return Err(errors);
        }
        (false, true) => {
            errors.insert("order_up_to".into(), LEVELS_BOTH.into());
            return Err(errors);
        }
        _ => {}
    }
    let rp = level(&mut errors, "reorder_point", reorder_point);
    let out = level(&mut errors, "order_up_to", order_up_to);
    match (rp, out) {
        (Some(rp), Some(out)) if rp <= out => Ok(Some((rp, out))),
        (Some(_), Some(_)) => {
            errors.insert("reorder_point".into(), LEVELS_ORDER.into());
            Err(errors)
        }
        _ => Err(errors),
    }
}

/// A quantity ticked to order: a whole number 1–1,000,000.
pub fn check_order_qty(text: &str) -> Result<i64, &'static str> {
    text.trim().parse::<i64>().ok().filter(|q| (1..=QTY_MAX).contains(q)).ok_or(SUGGESTED_OUT_OF_RANGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_default_to_twelve_and_are_ranged() {
        assert_eq!(parse_weeks(None), Ok(12));
        assert_eq!(parse_weeks(Some(" ")), Ok(12));
        assert_eq!(parse_weeks(Some("1")), Ok(1));
        assert_eq!(parse_weeks(Some("52")), Ok(52));
        for bad in ["0", "53", "-1", "x", "2.5"] {
            assert_eq!(parse_weeks(Some(bad)), Err(WEEKS_OUT_OF_RANGE), "{bad}");
        }
    }

    #[test]
    fn credit_notes_subtract_and_never_go_below_zero() {
        assert_eq!(net_units(50, 10), 40);
        assert_eq!(net_units(5, 10), 0);
        assert_eq!(net_units(i64::MIN, 1), 0);
    }

    #[test]
    fn velocity_is_units_per_week_to_one_decimal() {
        assert_eq!(velocity_text(24, 12), "2.0");
        assert_eq!(velocity_text(30, 12), "2.5");
        assert_eq!(velocity_text(1, 3), "0.3");
        assert_eq!(velocity_text(0, 12), "0.0");
    }

    #[test]
    fn proposal_rounds_up_and_assumes_four_weeks_when_lead_time_unknown() {
        // 24 units over 12 weeks = 2/week; unknown lead 4 weeks + safety 1 → 10; + cover 4 weeks → 18.
        assert_eq!(proposed(24, 12, None), Some(Levels { reorder_point: 10, order_up_to: 18, entered: false }));
        // 2/week, lead 14 days: (2 + 1) weeks × 2 = 6; + 8 = 14.
        assert_eq!(proposed(24, 12, Some(14)), Some(Levels { reorder_point: 6, order_up_to: 14, entered: false }));
        // 1 unit over 12 weeks: 35 days → 0.42 → 1; cover 28 days → 0.33 → 1.
        assert_eq!(proposed(1, 12, None), Some(Levels { reorder_point: 1, order_up_to: 2, entered: false }));
        assert_eq!(proposed(0, 12, None), Some(Levels { reorder_point: 0, order_up_to: 0, entered: false }));
        assert!(proposed(i64::MAX, 1, Some(i64::MAX)).is_none());
    }

    #[test]
    fn entered_levels_override_the_proposal() {
        let p = proposed(24, 12, None).unwrap();
        assert_eq!(effective(Some((3, 9)), p), Levels { reorder_point: 3, order_up_to: 9, entered: true });
        assert_eq!(effective(None, p), p);
    }

    #[test]
    fn suggests_up_to_the_level_at_or_below_the_reorder_point() {
        let l = Levels { reorder_point: 10, order_up_to: 18, entered: false };
        assert_eq!(suggestion(11, l), None);
        assert_eq!(suggestion(10, l), Some(8));
        assert_eq!(suggestion(0, l), Some(18));
        assert_eq!(suggestion(-4, l), Some(22));
        // Nothing sold, nothing entered: nothing to order.
        assert_eq!(suggestion(0, Levels { reorder_point: 0, order_up_to: 0, entered: false }), None);
    }

    #[test]
    fn position_counts_in_transit_and_on_order_once_and_is_checked() {
        assert_eq!(position(3, 4, 5), Some(12));
        assert_eq!(position(i64::MAX, 1, 0), None);
    }

    #[test]
    fn levels_are_both_or_neither_ranged_and_ordered() {
        assert_eq!(check_levels("", " "), Ok(None));
        assert_eq!(check_levels("5", "20"), Ok(Some((5, 20))));
        assert_eq!(check_levels("0", "0"), Ok(Some((0, 0))));
        assert_eq!(check_levels("5", "").unwrap_err().get("order_up_to").map(String::as_str), Some(LEVELS_BOTH));
        assert_eq!(check_levels("", "5").unwrap_err().get("reorder_point").map(String::as_str), Some(LEVELS_BOTH));
        assert_eq!(check_levels("21", "20").unwrap_err().get("reorder_point").map(String::as_str), Some(LEVELS_ORDER));
        assert_eq!(check_levels("-1", "20").unwrap_err().get("reorder_point").map(String::as_str), Some(LEVEL_OUT_OF_RANGE));
        assert_eq!(check_levels("1", "1000001").unwrap_err().get("order_up_to").map(String::as_str), Some(LEVEL_OUT_OF_RANGE));
    }

    #[test]
    fn ordered_quantities_are_ranged() {
        assert_eq!(check_order_qty(" 7 "), Ok(7));
        for bad in ["0", "-3", "1000001", "x", ""] {
            assert_eq!(check_order_qty(bad), Err(SUGGESTED_OUT_OF_RANGE), "{bad}");
        }
    }
}
