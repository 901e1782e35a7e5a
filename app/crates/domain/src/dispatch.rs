//! Dispatch (issue 34, docs/decisions/dispatch.md): which sheets go on a driver's run, the
//! order of its stops, what the driver collects, what a driver may record at a stop through
//! the run's link, when that link expires, and the end-of-day reconciliation of cash.

use std::collections::BTreeMap;

use chrono::{Days, NaiveDate, NaiveDateTime};

use crate::dates::{Tz, day_start_utc};
use crate::enums::{code_enum, ActualPayType, DeliveryStatus, OrderType, PaymentType, ShipMovement, ShipType};
use crate::limits::{self, SHORT_MAX, Text};
use crate::money::Cents;

/// How many days back the board also shows sheets not yet finished or cancelled.
pub const CARRY_OVER_DAYS: u64 = 7;
/// The most sheets one bulk action takes (a day's board of one warehouse fits many times).
pub const MAX_BULK: usize = 500;
/// The largest signature or photo kept for a stop, in bytes (the phone scales a photo down first).
pub const MAX_PROOF_BYTES: usize = 1_500_000;
/// The length of a run link's token: 20 characters of a 32-letter alphabet, 100 bits.
pub const TOKEN_LEN: usize = 20;
/// The alphabet of a run link's token: no 0/O or 1/I/L to misread when typed from paper.
pub const TOKEN_ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZa";

code_enum! {
    /// What became of a stop: still to do, done (delivered, picked up or returned, as the
    /// ship type says) or not done, with a reason.
    Outcome {
        Open = 0, "Open";
        Done = 1, "Done";
        NotDone = 2, "Not delivered";
    }
}

impl Outcome {
    /// The wording for a stop of `ship`: 'Delivered', 'Picked up', 'Returned', 'Not delivered', …
    pub const fn wording(self, ship: ShipType) -> &'static str {
        match self {
            Self::Open => DeliveryStatus::Delivering.wording(ship),
            Self::Done => DeliveryStatus::Finished.wording(ship),
            Self::NotDone => match ship.movement() {
                ShipMovement::Deliver => "Not delivered",
                ShipMovement::PickUp => "Not picked up",
                ShipMovement::Return => "Not returned",
            },
        }
    }
}

/// Whether a sheet of this ship type goes on a driver's run: the customer collects a
/// Pick-up at the counter and a carrier takes a 3rd-Party Logistics sheet, so neither has a
/// driver's stop.
pub const fn goes_on_run(ship: ShipType) -> bool {
    !matches!(ship, ShipType::PickUp | ShipType::ThirdPartyLogistics)
}

/// The message for a sheet whose ship type has no driver's stop.
pub fn not_on_run(no: &str, ship: ShipType) -> String {
    match ship {
        ShipType::PickUp => format!("{no} is a Pick-up: the customer collects it, so it does not go on a driver's run."),
        _ => format!("{no} goes by {}: it does not go on a driver's run.", ship.label()),
    }
}

/// Checks a run's name as typed ('Morning North'): required, one line, at most 100 characters.
pub fn check_run_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("Name the run, e.g. 'Morning North'.".into());
    }
    limits::check_text(name, Text::Line(SHORT_MAX)).map_err(str::to_string)?;
    Ok(name.to_string())
}

/// How a customer of this payment type pays the driver, when it pays on delivery: the COD
/// payment types (spec §5); an account customer (CHQ, CBD, card deduction, weekly) pays nothing at the door.
pub const fn pay_on_delivery(payment: PaymentType) -> Option<ActualPayType> {
    match payment {
        PaymentType::CodChq => Some(ActualPayType::Cheque),
        PaymentType::CodTransfer => Some(ActualPayType::Transfer),
        PaymentType::CodEft => Some(ActualPayType::Eft),
        PaymentType::CodPos | PaymentType::CodCard => Some(ActualPayType::Pos),
        PaymentType::CodCash | PaymentType::Cod | PaymentType::MustCod => Some(ActualPayType::Cash),
        _ => None,
    }
}

/// What the driver collects for a sheet, and how: an unpaid invoice of a COD customer, its
/// whole amount. A credit note, an account customer or a sheet already paid collects nothing.
pub fn to_collect(order_type: OrderType, payment_type: Option<i32>, actual_pay_type: i32, amount: Cents) -> Option<(ActualPayType, Cents)> {
    if order_type != OrderType::Invoice || actual_pay_type != ActualPayType::Unpaid.as_i32() || amount <= Cents::ZERO {
        return None;
    }
    let how = pay_on_delivery(PaymentType::from_i32(payment_type?)?)?;
    Some((how, amount))
}

/// The key that orders new stops on a run: area type, then customer, then sheet number.
pub fn stop_order_key(area_type: Option<i32>, customer: &str, no: &str) -> (i32, String, String) {
    (area_type.unwrap_or(i32::MAX), customer.to_lowercase(), no.to_string())
}

/// How long a link made for a run of a day already past lasts (the office reprints an old
/// run sheet): half a day from when it was made.
pub const LATE_LINK_HOURS: i64 = 12;

/// When a run's link stops working: the end of the day after the run's day, in the
/// company's zone (a driver back late still reaches it; the next day's run has its own);
/// for a link made later than that, [`LATE_LINK_HOURS`] after `now`.
pub fn link_expires(run_date: NaiveDate, zone: Tz, now: NaiveDateTime) -> NaiveDateTime {
    let after = run_date.checked_add_days(Days::new(2)).unwrap_or(run_date);
    let end = day_start_utc(after, zone);
    end.max(now + chrono::Duration::hours(LATE_LINK_HOURS))
}

/// Whether `token` could be a run link's token (its length and alphabet), so a malformed
/// one is refused before any look-up.
pub fn token_shape_ok(token: &str) -> bool {
    token.len() == TOKEN_LEN && token.bytes().all(|b| TOKEN_ALPHABET.contains(&b))
}

/// The kind of proof a driver took at a stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofKind {
    /// Drawn on the phone's screen (PNG).
    Signature,
    /// Taken with the phone's camera (JPEG or PNG).
    Photo,
}

impl ProofKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Signature => "signature",
            Self::Photo => "photo",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "signature" => Some(Self::Signature),
            "photo" => Some(Self::Photo),
            _ => None,
        }
    }
}

/// The image type of a proof from its first bytes: PNG or JPEG, else `None`.
pub fn proof_mime(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}

/// What the driver sent for a stop, as typed on the phone.
#[derive(Debug, Clone, Default)]
pub struct StopInput {
    /// "done" or "not_done".
    pub outcome: String,
    pub received_by: String,
    pub reason: String,
    /// The amount collected as typed ('' for none).
    pub collected: String,
    pub pay_type: Option<i32>,
    /// Whether a signature or photo came with it.
    pub has_proof: bool,
}

/// A driver's record of a stop, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopReport {
    pub outcome: Outcome,
    pub received_by: String,
    pub reason: String,
    pub collected: Cents,
    /// How the money came (Unpaid when nothing was collected).
    pub pay_type: ActualPayType,
}

impl StopReport {
    /// The actual pay type the sheet takes: unchanged (`None`) when nothing was collected;
    /// the pay type when the whole amount to collect came; Partial Paid when less did.
    pub fn sheet_pay_type(&self, to_collect: Option<Cents>) -> Option<ActualPayType> {
        if self.collected <= Cents::ZERO {
            return None;
        }
        match to_collect {
            Some(due) if self.collected < due => Some(ActualPayType::PartialPaid),
            _ => Some(self.pay_type),
        }
    }

    /// The sheet's delivery status after the stop: Finished when done; unchanged otherwise
    /// (a stop not done goes back to Preparing when the day is closed).
    pub const fn delivery_status(&self) -> Option<DeliveryStatus> {
        match self.outcome {
            Outcome::Done => Some(DeliveryStatus::Finished),
            Outcome::Open | Outcome::NotDone => None,
        }
    }
}

/// The pay types a driver may record money under: those that hand money or its proof over
/// at the door (not Unpaid, Account Period or Partial Paid, which describe a sheet, not a payment).
pub const DRIVER_PAY_TYPES: [ActualPayType; 5] =
    [ActualPayType::Cash, ActualPayType::Cheque, ActualPayType::Eft, ActualPayType::Pos, ActualPayType::Transfer];

/// Checks what the driver sent; the messages are keyed by field.
pub fn check_stop(input: &StopInput) -> Result<StopReport, BTreeMap<&'static str, String>> {
    let mut errors = BTreeMap::new();
    let outcome = match input.outcome.as_str() {
        "done" => Outcome::Done,
        "not_done" => Outcome::NotDone,
        _ => {
            errors.insert("outcome", "Choose what happened at this stop.".to_string());
            Outcome::Open
        }
    };
    let received_by = input.received_by.trim().to_string();
    let reason = input.reason.trim().to_string();
    for (field, value) in [("received_by", &received_by), ("reason", &reason)] {
        if let Err(m) = limits::check_text(value, Text::Line(SHORT_MAX)) {
            errors.insert(field, m.to_string());
        }
    }
    match outcome {
        Outcome::Done if received_by.is_empty() => {
            errors.insert("received_by", "Enter the name of who received it.".into());
        }
        Outcome::Done if !input.has_proof => {
            errors.insert("proof", "Ask for a signature or take a photo.".into());
        }
        Outcome::NotDone if reason.is_empty() => {
            errors.insert("reason", "Say why, e.g. 'Closed' or 'Refused'.".into());
        }
        _ => {}
    }
    let collected = match input.collected.trim() {
        "" => Cents::ZERO,
        text => match Cents::parse_non_negative(text) {
            Ok(c) => c,
            Err(e) => {
                errors.insert("collected", e.to_string());
                Cents::ZERO
            }
        },
    };
    let pay_type = match input.pay_type.and_then(ActualPayType::from_i32) {
        Some(p) if DRIVER_PAY_TYPES.contains(&p) => p,
        _ if collected == Cents::ZERO => ActualPayType::Unpaid,
        _ => {
            errors.insert("pay_type", "Choose how it was paid: Cash, Cheque, EFT, POS or Transfer.".into());
            ActualPayType::Unpaid
        }
    };
    if outcome == Outcome::NotDone && collected > Cents::ZERO {
        errors.insert("collected", "Nothing is collected at a stop that was not delivered.".into());
    }
    if errors.is_empty() {
        Ok(StopReport { outcome, received_by, reason, collected, pay_type: if collected == Cents::ZERO { ActualPayType::Unpaid } else { pay_type } })
    } else {
        Err(errors)
    }
}

/// One stop as the reconciliation reads it.
#[derive(Debug, Clone)]
pub struct ReconStop {
    pub driver: String,
    pub outcome: Outcome,
    /// What the driver was to collect, and how.
    pub to_collect: Option<(ActualPayType, Cents)>,
    /// What the driver recorded.
    pub collected: Cents,
    pub collected_pay_type: ActualPayType,
}

/// Expected against collected money of one driver and pay type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReconLine {
    pub driver: String,
    pub pay_type: ActualPayType,
    pub expected: Cents,
    pub collected: Cents,
}

impl ReconLine {
    /// Collected less expected: negative when money is short. `None` on overflow.
    pub fn difference(&self) -> Option<Cents> {
        self.collected.checked_sub(self.expected)
    }
}

/// The day's money per driver and pay type, sorted by driver then pay type. Expected counts
/// only stops done (a stop not delivered owes nothing); collected counts what was recorded.
/// `None` when a sum leaves the range of money.
pub fn reconcile(stops: &[ReconStop]) -> Option<Vec<ReconLine>> {
    let mut lines: BTreeMap<(String, i32), (Cents, Cents)> = BTreeMap::new();
    for s in stops {
        if let (Outcome::Done, Some((how, due))) = (s.outcome, s.to_collect) {
            let e = lines.entry((s.driver.clone(), how.as_i32())).or_default();
            e.0 = e.0.checked_add(due)?;
        }
        if s.collected > Cents::ZERO {
            let e = lines.entry((s.driver.clone(), s.collected_pay_type.as_i32())).or_default();
            e.1 = e.1.checked_add(s.collected)?;
        }
    }
    Some(
        lines
            .into_iter()
            .map(|((driver, pay), (expected, collected))| ReconLine {
                driver,
                pay_type: ActualPayType::from_i32(pay).unwrap_or(ActualPayType::Cash),
                expected,
                collected,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(outcome: &str) -> StopInput {
        StopInput { outcome: outcome.into(), received_by: "Sam".into(), has_proof: true, ..Default::default() }
    }

    #[test]
    fn outcome_wording_follows_the_ship_type() {
        assert_eq!(Outcome::Done.wording(ShipType::Delivery), "Delivered");
        assert_eq!(Outcome::Done.wording(ShipType::DriverPickUp), "Picked up");
        assert_eq!(Outcome::Done.wording(ShipType::ReturnByCsr), "Returned");
        assert_eq!(Outcome::NotDone.wording(ShipType::MorningDelivery), "Not delivered");
        assert_eq!(Outcome::NotDone.wording(ShipType::DriverPickUp), "Not picked up");
        assert_eq!(Outcome::NotDone.wording(ShipType::ReturnByCsr), "Not returned");
        assert_eq!(Outcome::Open.wording(ShipType::DriverPickUp), "Picking-up");
    }

    #[test]
    fn counter_pick_ups_and_carriers_have_no_drivers_stop() {
        for ship in ShipType::ALL {
            let expected = !matches!(ship, ShipType::PickUp | ShipType::ThirdPartyLogistics);
            assert_eq!(goes_on_run(*ship), expected, "{ship:?}");
        }
        assert!(not_on_run("INV-1", ShipType::PickUp).contains("the customer collects it"));
        assert!(not_on_run("INV-1", ShipType::ThirdPartyLogistics).contains("3rd-Party Logistics"));
    }

    #[test]
    fn a_run_needs_a_name_of_one_line() {
        assert_eq!(check_run_name("  Morning North "), Ok("Morning North".into()));
        assert!(check_run_name("  ").is_err());
        assert!(check_run_name("a\u{7}b").is_err());
        assert!(check_run_name(&"x".repeat(SHORT_MAX + 1)).is_err());
    }

    #[test]
    fn cod_invoices_collect_their_amount_and_nothing_else_does() {
        let amount = Cents(21_900);
        let cod_cash = Some(PaymentType::CodCash.as_i32());
        assert_eq!(to_collect(OrderType::Invoice, cod_cash, 0, amount), Some((ActualPayType::Cash, amount)));
        assert_eq!(to_collect(OrderType::Invoice, Some(PaymentType::CodEft.as_i32()), 0, amount), Some((ActualPayType::Eft, amount)));
        assert_eq!(to_collect(OrderType::Invoice, Some(PaymentType::CodCard.as_i32()), 0, amount), Some((ActualPayType::Pos, amount)));
        assert_eq!(to_collect(OrderType::Invoice, Some(PaymentType::Weekly.as_i32()), 0, amount), None, "account customer");
        assert_eq!(to_collect(OrderType::Invoice, Some(PaymentType::Cbd.as_i32()), 0, amount), None, "paid before delivery");
        assert_eq!(to_collect(OrderType::Invoice, cod_cash, ActualPayType::Eft.as_i32(), amount), None, "already paid");
        assert_eq!(to_collect(OrderType::CreditNote, cod_cash, 0, amount), None, "a credit note pays nothing");
        assert_eq!(to_collect(OrderType::Invoice, None, 0, amount), None);
        assert_eq!(to_collect(OrderType::Invoice, cod_cash, 0, Cents::ZERO), None);
        for p in PaymentType::ALL {
            assert_eq!(pay_on_delivery(*p).is_some(), p.label().contains("COD"), "{p:?}");
        }
    }

    #[test]
    fn new_stops_go_by_area_then_customer() {
        let mut stops = vec![(Some(2), "bravo", "INV-3"), (None, "alpha", "INV-9"), (Some(1), "Zulu", "INV-2"), (Some(2), "Alpha", "INV-5")];
        stops.sort_by_key(|(a, c, n)| stop_order_key(*a, c, n));
        let nos: Vec<_> = stops.iter().map(|s| s.2).collect();
        assert_eq!(nos, ["INV-2", "INV-5", "INV-3", "INV-9"]);
    }

    #[test]
    fn the_link_lasts_until_the_end_of_the_next_day_in_the_companys_zone() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        let morning = day.and_hms_opt(0, 30, 0).unwrap();
        let sydney = link_expires(day, crate::dates::DEFAULT_ZONE, morning);
        // Midnight starting 29 Nov in Sydney (AEDT, UTC+11) is 13:00 UTC on 28 Nov.
        assert_eq!(sydney, NaiveDate::from_ymd_opt(2026, 11, 28).unwrap().and_hms_opt(13, 0, 0).unwrap());
        let perth = link_expires(day, chrono_tz::Australia::Perth, morning);
        assert_eq!(perth, NaiveDate::from_ymd_opt(2026, 11, 28).unwrap().and_hms_opt(16, 0, 0).unwrap());
        // A link made a week later for that run (a reprint) still works for half a day.
        let later = NaiveDate::from_ymd_opt(2026, 12, 4).unwrap().and_hms_opt(1, 0, 0).unwrap();
        assert_eq!(link_expires(day, crate::dates::DEFAULT_ZONE, later), later + chrono::Duration::hours(LATE_LINK_HOURS));
    }

    #[test]
    fn tokens_are_checked_for_shape_before_any_look_up() {
        assert!(token_shape_ok("23456789ABCDEFGHJKMN"));
        assert!(!token_shape_ok("23456789ABCDEFGHJKM"), "too short");
        assert!(!token_shape_ok("0OIL56789ABCDEFGHJKM"), "misreadable letters are not in the alphabet");
        assert!(!token_shape_ok("23456789ABCDEFGHJK/."));
        assert_eq!(TOKEN_ALPHABET.len(), 32);
    }

    #[test]
    fn proofs_are_png_or_jpeg() {
        assert_eq!(proof_mime(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(proof_mime(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(proof_mime(b"<svg"), None);
        assert_eq!(ProofKind::parse("signature"), Some(ProofKind::Signature));
        assert_eq!(ProofKind::parse("video"), None);
    }

    #[test]
    fn a_delivery_needs_a_name_and_a_signature_or_photo() {
        let ok = check_stop(&input("done")).unwrap();
        assert_eq!((ok.outcome, ok.received_by.as_str(), ok.collected), (Outcome::Done, "Sam", Cents::ZERO));
        assert_eq!(ok.delivery_status(), Some(DeliveryStatus::Finished));
        let no_name = check_stop(&StopInput { received_by: " ".into(), ..input("done") }).unwrap_err();
        assert!(no_name.contains_key("received_by"));
        let no_proof = check_stop(&StopInput { has_proof: false, ..input("done") }).unwrap_err();
        assert!(no_proof.contains_key("proof"));
        assert!(check_stop(&input("lost")).unwrap_err().contains_key("outcome"));
    }

    #[test]
    fn a_stop_not_done_needs_a_reason_and_collects_nothing() {
        let no_reason = check_stop(&input("not_done")).unwrap_err();
        assert!(no_reason.contains_key("reason"));
        let ok = check_stop(&StopInput { reason: "Closed".into(), has_proof: false, ..input("not_done") }).unwrap();
        assert_eq!((ok.outcome, ok.delivery_status()), (Outcome::NotDone, None));
        let cash = check_stop(&StopInput { reason: "Closed".into(), collected: "10".into(), pay_type: Some(1), ..input("not_done") }).unwrap_err();
        assert!(cash.contains_key("collected"));
    }

    #[test]
    fn money_collected_needs_a_pay_type_and_a_valid_amount() {
        let paid = check_stop(&StopInput { collected: "219.00".into(), pay_type: Some(ActualPayType::Cash.as_i32()), ..input("done") }).unwrap();
        assert_eq!((paid.collected, paid.pay_type), (Cents(21_900), ActualPayType::Cash));
        assert_eq!(paid.sheet_pay_type(Some(Cents(21_900))), Some(ActualPayType::Cash));
        assert_eq!(paid.sheet_pay_type(Some(Cents(30_000))), Some(ActualPayType::PartialPaid), "less than due");
        assert_eq!(paid.sheet_pay_type(None), Some(ActualPayType::Cash), "an account customer paying at the door");
        let nothing = check_stop(&input("done")).unwrap();
        assert_eq!(nothing.sheet_pay_type(Some(Cents(21_900))), None, "nothing collected leaves the sheet as it was");
        for bad in ["-5", "abc", "1.234", "100000000000"] {
            let e = check_stop(&StopInput { collected: bad.into(), pay_type: Some(1), ..input("done") }).unwrap_err();
            assert!(e.contains_key("collected"), "{bad}");
        }
        for pay in [None, Some(0), Some(6), Some(7), Some(42)] {
            let e = check_stop(&StopInput { collected: "5".into(), pay_type: pay, ..input("done") }).unwrap_err();
            assert!(e.contains_key("pay_type"), "{pay:?}");
        }
    }

    #[test]
    fn reconciliation_sets_what_was_due_against_what_came_back() {
        let stop = |driver: &str, outcome, due: Option<(ActualPayType, i64)>, got: i64, how| ReconStop {
            driver: driver.into(),
            outcome,
            to_collect: due.map(|(h, c)| (h, Cents(c))),
            collected: Cents(got),
            collected_pay_type: how,
        };
        use ActualPayType::*;
        let lines = reconcile(&[
            stop("Dan", Outcome::Done, Some((Cash, 10_000)), 10_000, Cash),
            stop("Dan", Outcome::Done, Some((Cash, 5_000)), 4_000, Cash),
            stop("Dan", Outcome::Done, Some((Eft, 7_000)), 7_000, Pos),
            stop("Dan", Outcome::NotDone, Some((Cash, 9_999)), 0, Unpaid),
            stop("Amy", Outcome::Done, None, 1_500, Cheque),
        ])
        .unwrap();
        let view: Vec<_> = lines.iter().map(|l| (l.driver.as_str(), l.pay_type, l.expected.0, l.collected.0, l.difference().unwrap().0)).collect();
        assert_eq!(
            view,
            [
                ("Amy", Cheque, 0, 1_500, 1_500),
                ("Dan", Cash, 15_000, 14_000, -1_000),
                ("Dan", Eft, 7_000, 0, -7_000),
                ("Dan", Pos, 0, 7_000, 7_000),
            ]
        );
        assert!(reconcile(&[stop("X", Outcome::Done, Some((Cash, i64::MAX)), 0, Unpaid), stop("X", Outcome::Done, Some((Cash, 1)), 0, Unpaid)]).is_none(), "overflow is refused, not clamped");
    }
}
