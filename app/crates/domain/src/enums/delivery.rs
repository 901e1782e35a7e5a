//! How goods reach the customer: ship types, delivery statuses and their wording, and how the customer paid.

use super::{DefaultShipType, OrderType};

code_enum! {
    /// How goods reach the customer or come back; listed in the original's display order.
    ShipType {
        Delivery = 1, "Delivery";
        MorningDelivery = 6, "Morning Delivery";
        AfternoonDelivery = 7, "Afternoon Delivery";
        PickUp = 2, "Pick-up";
        FastDelivery = 3, "Fast Delivery";
        ThirdPartyLogistics = 8, "3rd-Party Logistics";
        DriverPickUp = 4, "Driver Pick-up";
        ReturnByCsr = 5, "Return by CSR";
    }
}

/// Which way goods move for a ship type; decides the delivery-status wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipMovement {
    /// Goods go out to the customer (ship types 1, 3, 6, 7, 8).
    Deliver,
    /// Goods are collected (ship types 2, 4).
    PickUp,
    /// Goods come back from the customer (ship type 5).
    Return,
}

impl ShipType {
    /// Which way the goods move.
    pub const fn movement(self) -> ShipMovement {
        match self {
            Self::Delivery
            | Self::MorningDelivery
            | Self::AfternoonDelivery
            | Self::FastDelivery
            | Self::ThirdPartyLogistics => ShipMovement::Deliver,
            Self::PickUp | Self::DriverPickUp => ShipMovement::PickUp,
            Self::ReturnByCsr => ShipMovement::Return,
        }
    }

    /// The ship type a new sheet starts with: credit notes Driver Pick-up (spec §2.5), else the customer's default, else Delivery.
    pub const fn default_for(
        order_type: OrderType,
        customer_default: Option<DefaultShipType>,
    ) -> Self {
        match (order_type, customer_default) {
            (OrderType::CreditNote, _) => Self::DriverPickUp,
            (_, Some(default)) => default.ship_type(),
            (_, None) => Self::Delivery,
        }
    }
}

/// Shown in the delivery column when no driver is assigned.
pub const DRIVER_NOT_ASSIGNED: &str = "not assigned";

code_enum! {
    /// Where a shipped sheet is in its delivery; `label` is the generic wording of the filter.
    DeliveryStatus {
        Preparing = 0, "Preparing";
        Ready = 1, "Ready";
        Delivering = 2, "Delivering";
        Finished = 3, "Finished";
        Cancelled = 99, "Cancelled";
    }
}

impl DeliveryStatus {
    /// The wording on an order row, which depends on the ship type (spec §4).
    pub const fn wording(self, ship_type: ShipType) -> &'static str {
        let movement = ship_type.movement();
        match self {
            Self::Preparing => "Preparing",
            Self::Ready => match ship_type {
                ShipType::DriverPickUp | ShipType::ReturnByCsr => "Confirmed",
                _ => "Ready",
            },
            Self::Delivering => match movement {
                ShipMovement::Deliver => "Delivering",
                ShipMovement::PickUp => "Picking-up",
                ShipMovement::Return => "Returning",
            },
            Self::Finished => match movement {
                ShipMovement::Deliver => "Delivered",
                ShipMovement::PickUp => "Picked up",
                ShipMovement::Return => "Returned",
            },
            Self::Cancelled => "Cancelled",
        }
    }
}

code_enum! {
    /// How the customer actually paid for a sheet.
    ActualPayType {
        Unpaid = 0, "Unpaid";
        Cash = 1, "Cash";
        Cheque = 2, "Cheque";
        Eft = 3, "EFT";
        Pos = 4, "POS";
        Transfer = 5, "Transfer";
        AccountPeriod = 6, "Account Period";
        PartialPaid = 7, "Partial Paid";
    }
}

/// 'Delivered · Dan Driver', or 'not assigned' without a driver (spec §4).
pub fn delivery_text(ship_type: i32, delivery_status: i32, driver: &str) -> String {
    let ship = ShipType::from_i32(ship_type).unwrap_or(ShipType::Delivery);
    let status = DeliveryStatus::from_i32(delivery_status).map(|d| d.wording(ship)).unwrap_or("");
    let driver = if driver.is_empty() { DRIVER_NOT_ASSIGNED } else { driver };
    format!("{status} · {driver}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ship_type_movement_and_defaults() {
        use ShipMovement::*;
        let table = [
            (ShipType::Delivery, Deliver),
            (ShipType::MorningDelivery, Deliver),
            (ShipType::AfternoonDelivery, Deliver),
            (ShipType::PickUp, PickUp),
            (ShipType::FastDelivery, Deliver),
            (ShipType::ThirdPartyLogistics, Deliver),
            (ShipType::DriverPickUp, PickUp),
            (ShipType::ReturnByCsr, Return),
        ];
        assert_eq!(table.len(), ShipType::ALL.len());
        for (ship, movement) in table {
            assert_eq!(ship.movement(), movement, "{ship:?}");
        }
        for t in OrderType::ALL {
            let expected_none = if *t == OrderType::CreditNote {
                ShipType::DriverPickUp
            } else {
                ShipType::Delivery
            };
            assert_eq!(ShipType::default_for(*t, None), expected_none);
            let expected_pick = if *t == OrderType::CreditNote {
                ShipType::DriverPickUp
            } else {
                ShipType::PickUp
            };
            assert_eq!(
                ShipType::default_for(*t, Some(DefaultShipType::PickUp)),
                expected_pick
            );
        }
        for d in DefaultShipType::ALL {
            assert_eq!(
                d.ship_type().as_i32(),
                d.as_i32(),
                "default ship type codes match ship type codes"
            );
        }
    }

    #[test]
    fn delivery_status_wording_for_every_ship_type() {
        // Rows follow ShipType::ALL: 1, 6, 7, 2, 3, 8, 4, 5.
        let table: [(DeliveryStatus, [&str; 8]); 5] = [
            (DeliveryStatus::Preparing, ["Preparing"; 8]),
            (
                DeliveryStatus::Ready,
                [
                    "Ready",
                    "Ready",
                    "Ready",
                    "Ready",
                    "Ready",
                    "Ready",
                    "Confirmed",
                    "Confirmed",
                ],
            ),
            (
                DeliveryStatus::Delivering,
                [
                    "Delivering",
                    "Delivering",
                    "Delivering",
                    "Picking-up",
                    "Delivering",
                    "Delivering",
                    "Picking-up",
                    "Returning",
                ],
            ),
            (
                DeliveryStatus::Finished,
                [
                    "Delivered",
                    "Delivered",
                    "Delivered",
                    "Picked up",
                    "Delivered",
                    "Delivered",
                    "Picked up",
                    "Returned",
                ],
            ),
            (DeliveryStatus::Cancelled, ["Cancelled"; 8]),
        ];
        assert_eq!(table.len(), DeliveryStatus::ALL.len());
        for (status, words) in table {
            for (ship, word) in ShipType::ALL.iter().zip(words) {
                assert_eq!(status.wording(*ship), word, "{status:?} with {ship:?}");
            }
        }
        assert_eq!(DRIVER_NOT_ASSIGNED, "not assigned");
    }
}
