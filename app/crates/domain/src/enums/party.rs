//! Codes of customers and suppliers: price strategy, payment terms, business type, area and usual ship type.

use super::ShipType;

code_enum! {
    /// The price a customer pays by default; codes 1–7 follow the specification's listing order.
    PriceStrategy {
        ClassA = 1, "Class A/COD";
        ClassB = 2, "Class B";
        ClassC = 3, "Class C";
        ClassD = 4, "Class D";
        ClassE = 5, "Class E";
        Ocop = 6, "OCOP/VIP";
        Standard = 7, "Standard";
    }
}

code_enum! {
    /// The customer's payment terms; the label is also the term the due date is computed from.
    PaymentType {
        CodChq = 1, "COD+CHQ";
        CodTransfer = 2, "COD+Transfer";
        CodEft = 3, "COD+EFT";
        CodPos = 4, "COD+POS";
        CodCash = 5, "COD+CASH";
        CodCard = 6, "COD+Card";
        Cod = 7, "COD";
        MustCod = 8, "MUST COD";
        Chq = 9, "CHQ";
        Cbd = 10, "CBD";
        CardDeduction = 11, "Card Deduction";
        Weekly = 12, "Weekly";
        Fortnightly = 13, "Fortnightly";
        Monthly = 14, "Monthly";
        ThirtyDays = 15, "30-Days";
        TransferThemselves = 16, "Transfer Themselves";
        Other = 17, "Other";
    }
}

impl PaymentType {
    /// Cash Before Delivery: triggers reason (c) of the approval guard.
    pub const fn is_cbd(self) -> bool {
        matches!(self, Self::Cbd)
    }
}

code_enum! {
    /// The customer's kind of business; "Car saler" is the specification's wording, kept as staff know it.
    BusinessType {
        Retailer = 1, "Retailer";
        Wholesaler = 2, "Wholesaler";
        AffiliateClient = 3, "Affiliate Client";
        EnterpriseClient = 4, "Enterprise Client";
        CashBuyer = 5, "Cash Buyer";
        CarSaler = 6, "Car saler";
        EndUser = 7, "End User";
    }
}

code_enum! {
    /// The delivery area of a customer.
    AreaType {
        North = 1, "North";
        South = 2, "South";
        East = 3, "East";
        West = 4, "West";
        Surrounding = 5, "Surrounding";
        Regional = 6, "Regional";
    }
}

code_enum! {
    /// A customer's usual ship type; codes equal the matching `ShipType` codes.
    DefaultShipType {
        Delivery = 1, "Delivery";
        PickUp = 2, "Pick up";
    }
}

impl DefaultShipType {
    /// The ship type a new invoice for this customer starts with.
    pub const fn ship_type(self) -> ShipType {
        match self {
            Self::Delivery => ShipType::Delivery,
            Self::PickUp => ShipType::PickUp,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_cbd_is_cash_before_delivery() {
        for p in PaymentType::ALL {
            assert_eq!(p.is_cbd(), p.label() == "CBD", "{p:?}");
        }
    }
}
