//! Rules of the customer shop (issue 14): what a customer is told about stock, the status
//! of their orders in their words, the cart's ranges and the check-out's inputs. The
//! thresholds are recorded in docs/decisions/shop.md.

use chrono::NaiveDate;

use crate::enums::{DefaultShipType, DeliveryStatus, OrderStatus, ShipType};

/// A customer signed in with a one-time password must choose their own first.
pub const PASSWORD_CHANGE_FIRST: &str = "Please choose your own password before you go on.";

/// Largest quantity of one product in the cart (spec §9: cart quantity max 999).
pub const MAX_QTY: i64 = 999;
/// Most different products in one cart (a self-order is one sheet; sheets keep their lines
/// within the editor's limit).
pub const MAX_CART_LINES: usize = 100;
/// On hand at or above this many is 'In stock'; below it (but above none) 'Low stock'.
/// Two sets of four tyres: a customer ordering a set sees 'Low stock' while one set is left.
pub const LOW_STOCK_BELOW: i64 = 8;
/// Longest customer reference (their PO number), as on the staff form.
pub const MAX_REFERENCE: usize = crate::limits::SHORT_MAX;
/// Longest note to the wholesaler.
pub const MAX_NOTE: usize = 500;

pub const QTY_RANGE: &str = "Enter a quantity from 1 to 999.";
pub const CART_FULL: &str = "Your cart holds up to 100 different products. Place this order first, then start another.";
pub const CART_EMPTY: &str = "Your cart is empty.";
pub const REFERENCE_TOO_LONG: &str = "Your reference can be up to 100 characters.";
pub const NOTE_TOO_LONG: &str = "Your note can be up to 500 characters.";
pub const SHIP_CHOICE: &str = "Choose delivery or pick-up.";
pub const PRICES_CHANGED: &str = "Some prices changed since you added the products. Please check the new prices and place the order again.";
/// A product without a price for this customer is shown but cannot be ordered (issue 29).
pub const NOT_PRICED: &str = "This product has no price for you yet; call us to order it.";
/// What the shop shows instead of a price of zero.
pub const PRICE_ON_REQUEST: &str = "Price on request";
pub const SIGN_IN_FAILED: &str = "The e-mail or password is incorrect, or this account has no shop access.";

/// Refusal of a shop invite to staff without the right.
pub const INVITE_REFUSED: &str = "Only an approver (role 4) or staff who may create customers (crtCSR) can send a shop invite.";

/// Who may give a customer a one-time shop password: approvers, and staff who may create
/// customers (crtCSR).
/// Whether a customer may order a product at `price` in the shop: only at a price someone
/// set for them. A price of zero (no tier, no OCOP price) is never a sale at $0.00.
pub fn orderable(price: crate::money::Cents) -> bool {
    price > crate::money::Cents::ZERO
}

pub const fn may_invite(role: crate::enums::Role, crt_csr: bool) -> bool {
    matches!(role, crate::enums::Role::Approver) || crt_csr
}

/// What a customer is told about a product's stock: never the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Availability {
    InStock,
    LowStock,
    /// Nothing on hand but some on its way; the earliest ETA when one is known.
    OnOrder(Option<NaiveDate>),
    CallUs,
}

impl Availability {
    /// From the stock of the warehouses counted for customer orders.
    pub fn of(on_hand: i64, in_transit: i64, eta: Option<NaiveDate>) -> Self {
        if on_hand >= LOW_STOCK_BELOW {
            Self::InStock
        } else if on_hand > 0 {
            Self::LowStock
        } else if in_transit > 0 {
            Self::OnOrder(eta)
        } else {
            Self::CallUs
        }
    }

    pub fn label(self) -> String {
        match self {
            Self::InStock => "In stock".into(),
            Self::LowStock => "Low stock".into(),
            Self::OnOrder(Some(eta)) => format!("On order (ETA {})", crate::dates::date(eta)),
            Self::OnOrder(None) => "On order".into(),
            Self::CallUs => "Call us".into(),
        }
    }

    /// The CSS class of its tag.
    pub const fn class(self) -> &'static str {
        match self {
            Self::InStock => "ok",
            Self::LowStock => "low",
            Self::OnOrder(_) => "order",
            Self::CallUs => "call",
        }
    }
}

/// An order's state in the customer's words (issue 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomerStatus {
    Received,
    Confirmed,
    OnTheWay,
    Delivered,
    Cancelled,
}

impl CustomerStatus {
    /// From the sheet's status and delivery status: a draft is received; an approved sheet
    /// is confirmed until the driver sets off, on the way while delivering, delivered when
    /// finished; a void sheet or a cancelled delivery is cancelled.
    pub fn of(status: i32, delivery_status: i32) -> Self {
        match OrderStatus::from_i32(status) {
            Some(OrderStatus::Draft) | None => Self::Received,
            Some(OrderStatus::Voided) => Self::Cancelled,
            Some(OrderStatus::Approved | OrderStatus::Closed) => match DeliveryStatus::from_i32(delivery_status) {
                Some(DeliveryStatus::Delivering) => Self::OnTheWay,
                Some(DeliveryStatus::Finished) => Self::Delivered,
                Some(DeliveryStatus::Cancelled) => Self::Cancelled,
                _ => Self::Confirmed,
            },
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Self::Received => "Received",
            Self::Confirmed => "Confirmed",
            Self::OnTheWay => "On the way",
            Self::Delivered => "Delivered",
            Self::Cancelled => "Cancelled",
        }
    }

    /// Whether the customer may open the A4 tax invoice (only once approved).
    pub const fn has_invoice(self) -> bool {
        !matches!(self, Self::Received | Self::Cancelled)
    }
}

/// A cart quantity as typed: 1–999.
pub fn quantity(text: &str) -> Result<i64, &'static str> {
    text.trim().parse::<i64>().map_err(|_| QTY_RANGE).and_then(in_range)
}

/// A cart quantity, whoever sends it: 1–999.
pub fn in_range(qty: i64) -> Result<i64, &'static str> {
    if (1..=MAX_QTY).contains(&qty) { Ok(qty) } else { Err(QTY_RANGE) }
}

/// Adding `more` (itself 1–999) to `held` of the same product: the sum, or the range message.
pub fn add_quantity(held: i64, more: i64) -> Result<i64, &'static str> {
    in_range(more)?;
    match held.checked_add(more) {
        Some(q) if (1..=MAX_QTY).contains(&q) => Ok(q),
        _ => Err(QTY_RANGE),
    }
}

/// How the order travels: the two choices a customer has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shipping {
    Delivery,
    PickUp,
}

impl Shipping {
    /// The customer's default (their default ship type), delivery when unset.
    pub fn default_for(default_ship_type: i32) -> Self {
        match DefaultShipType::from_i32(default_ship_type) {
            Some(DefaultShipType::PickUp) => Self::PickUp,
            _ => Self::Delivery,
        }
    }

    /// `delivery` / `pickup` as posted by the form, or the JSON API's ship type code (1 or 2).
    pub fn parse(text: &str) -> Result<Self, &'static str> {
        match text.trim() {
            "delivery" | "1" => Ok(Self::Delivery),
            "pickup" | "2" => Ok(Self::PickUp),
            _ => Err(SHIP_CHOICE),
        }
    }

    pub const fn ship_type(self) -> ShipType {
        match self {
            Self::Delivery => ShipType::Delivery,
            Self::PickUp => ShipType::PickUp,
        }
    }

    pub const fn value(self) -> &'static str {
        match self {
            Self::Delivery => "delivery",
            Self::PickUp => "pickup",
        }
    }
}

/// The check-out's inputs, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkout {
    pub reference: String,
    pub note: String,
    pub shipping: Shipping,
}

/// Checks the check-out form: field → message for each problem.
pub fn checkout(reference: &str, note: &str, shipping: &str) -> Result<Checkout, Vec<(&'static str, &'static str)>> {
    let mut errors = Vec::new();
    let reference = reference.trim();
    let note = note.trim();
    if reference.chars().count() > MAX_REFERENCE {
        errors.push(("reference", REFERENCE_TOO_LONG));
    }
    if note.chars().count() > MAX_NOTE {
        errors.push(("note", NOTE_TOO_LONG));
    }
    let shipping = Shipping::parse(shipping).map_err(|m| errors.push(("shipping", m))).ok();
    match shipping {
        Some(shipping) if errors.is_empty() => Ok(Checkout { reference: reference.to_string(), note: note.to_string(), shipping }),
        _ => Err(errors),
    }
}

/// A cart line whose price moved since the customer saw it: (product, seen, now).
pub fn changed_prices(lines: &[(i64, i64, i64)]) -> Vec<(i64, i64, i64)> {
    lines.iter().copied().filter(|(_, seen, now)| seen != now).collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn only_a_price_someone_set_is_orderable() {
        use crate::money::Cents;
        assert!(orderable(Cents(1)));
        assert!(!orderable(Cents::ZERO));
        assert!(!orderable(Cents(-5)));
    }

    use super::*;

    #[test]
    fn stock_is_told_in_words_never_in_numbers() {
        assert_eq!(Availability::of(8, 0, None), Availability::InStock);
        assert_eq!(Availability::of(120, 4, None), Availability::InStock);
        assert_eq!(Availability::of(7, 0, None), Availability::LowStock);
        assert_eq!(Availability::of(1, 10, None), Availability::LowStock);
        let eta = NaiveDate::from_ymd_opt(2026, 12, 3);
        assert_eq!(Availability::of(0, 20, eta), Availability::OnOrder(eta));
        assert_eq!(Availability::of(0, 20, eta).label(), "On order (ETA 03 Dec 2026)");
        assert_eq!(Availability::of(0, 20, None).label(), "On order");
        assert_eq!(Availability::of(0, 0, eta), Availability::CallUs);
        assert_eq!(Availability::of(-3, 0, None).label(), "Call us", "negative stock is none");
    }

    #[test]
    fn an_orders_status_reads_as_the_customer_expects() {
        use CustomerStatus::*;
        assert_eq!(CustomerStatus::of(1, 0), Received);
        assert_eq!(CustomerStatus::of(2, 0), Confirmed);
        assert_eq!(CustomerStatus::of(2, 1), Confirmed);
        assert_eq!(CustomerStatus::of(2, 2), OnTheWay);
        assert_eq!(CustomerStatus::of(2, 3), Delivered);
        assert_eq!(CustomerStatus::of(4, 3), Delivered, "a closed sheet keeps its delivery state");
        assert_eq!(CustomerStatus::of(2, 99), Cancelled);
        assert_eq!(CustomerStatus::of(3, 0), Cancelled);
        assert!(!Received.has_invoice() && !Cancelled.has_invoice());
        assert!(Confirmed.has_invoice() && Delivered.has_invoice());
    }

    #[test]
    fn cart_quantities_stay_within_one_to_999() {
        assert_eq!(quantity(" 4 "), Ok(4));
        assert_eq!(quantity("999"), Ok(999));
        for bad in ["0", "-1", "1000", "", "2.5", "four", "99999999999999999999"] {
            assert_eq!(quantity(bad), Err(QTY_RANGE), "{bad}");
        }
        assert_eq!(add_quantity(4, 4), Ok(8));
        assert_eq!(add_quantity(995, 4), Ok(999));
        assert_eq!(add_quantity(996, 4), Err(QTY_RANGE), "summing never goes past 999");
        assert_eq!(add_quantity(i64::MAX, 1), Err(QTY_RANGE));
        assert_eq!(add_quantity(5, -2), Err(QTY_RANGE), "adding never takes away");
        assert_eq!(add_quantity(5, 0), Err(QTY_RANGE));
        assert_eq!((in_range(1), in_range(999), in_range(0), in_range(1000)), (Ok(1), Ok(999), Err(QTY_RANGE), Err(QTY_RANGE)));
    }

    #[test]
    fn shipping_defaults_from_the_customer_and_accepts_two_choices() {
        assert_eq!(Shipping::default_for(2), Shipping::PickUp);
        assert_eq!(Shipping::default_for(1), Shipping::Delivery);
        assert_eq!(Shipping::default_for(0), Shipping::Delivery);
        assert_eq!(Shipping::parse("pickup"), Ok(Shipping::PickUp));
        assert_eq!(Shipping::parse("1"), Ok(Shipping::Delivery));
        assert_eq!(Shipping::parse("4"), Err(SHIP_CHOICE), "a staff-only ship type is refused");
        assert_eq!(Shipping::PickUp.ship_type(), ShipType::PickUp);
    }

    #[test]
    fn checkout_checks_reference_note_and_shipping() {
        let ok = checkout(" PO-77 ", " leave at the back ", "delivery").unwrap();
        assert_eq!((ok.reference.as_str(), ok.note.as_str(), ok.shipping), ("PO-77", "leave at the back", Shipping::Delivery));
        let errors = checkout(&"x".repeat(101), &"n".repeat(501), "boat").unwrap_err();
        assert_eq!(errors, vec![("reference", REFERENCE_TOO_LONG), ("note", NOTE_TOO_LONG), ("shipping", SHIP_CHOICE)]);
        assert!(checkout(&"é".repeat(100), "", "pickup").is_ok(), "characters, not bytes");
    }

    #[test]
    fn approvers_and_customer_creators_send_invites() {
        use crate::enums::Role;
        assert!(may_invite(Role::Approver, false));
        assert!(may_invite(Role::Sales, true));
        assert!(!may_invite(Role::Sales, false));
        assert!(!may_invite(Role::Business, false));
    }

    #[test]
    fn only_moved_prices_are_shown_for_confirmation() {
        assert_eq!(changed_prices(&[(1, 100, 100), (2, 100, 120), (3, 90, 80)]), vec![(2, 100, 120), (3, 90, 80)]);
        assert!(changed_prices(&[(1, 5, 5)]).is_empty());
    }
}
