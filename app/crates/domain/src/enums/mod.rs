//! The coded enumerations of the specification (§3) with their labels and the small rules tied to them.
//!
//! Every enumeration is stored and sent as its integer code; `from_i32` rejects codes the
//! specification does not define so a bad row or request never turns into a silent default.
//!
//! One file per family of codes (sheets, delivery, tax, customers and suppliers, products, roles,
//! the accounting link, list sorts); every item is re-exported here, so `domain::enums::X` names it.

use std::fmt;

/// A stored or submitted code that names no value of an enumeration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownCode {
    /// The enumeration that was asked, e.g. "OrderType".
    pub kind: &'static str,
    /// The code that matched nothing.
    pub code: i32,
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} code {}", self.kind, self.code)
    }
}

impl std::error::Error for UnknownCode {}

/// What every coded enumeration offers, so select boxes and filters can be built generically.
pub trait CodeEnum: Copy + Eq + 'static {
    /// Every value, in the order the interface lists them.
    const ALL: &'static [Self];
    /// The value stored under `code`, or `None` for an unknown code.
    fn from_code(code: i32) -> Option<Self>;
    /// The integer stored in the database and sent over the API.
    fn code(self) -> i32;
    /// The wording shown to staff.
    fn text(self) -> &'static str;
}

/// Declares a coded enumeration: variants with code and label, `ALL`, conversions, serde as the code.
macro_rules! code_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $variant:ident = $code:literal, $label:literal; )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(into = "i32", try_from = "i32")]
        pub enum $name {
            $(
                #[doc = concat!("Code ", stringify!($code), ": ", $label, ".")]
                $variant,
            )+
        }

        impl $name {
            /// Every value, in the order the interface lists them.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// The value stored under `code`, or `None` when no value has that code.
            pub const fn from_i32(code: i32) -> Option<Self> {
                match code {
                    $($code => Some(Self::$variant),)+
                    _ => None,
                }
            }

            /// The integer stored in the database and sent over the API.
            pub const fn as_i32(self) -> i32 {
                match self {
                    $(Self::$variant => $code,)+
                }
            }

            /// The wording shown to staff.
            pub const fn label(self) -> &'static str {
                match self {
                    $(Self::$variant => $label,)+
                }
            }
        }

        impl $crate::enums::CodeEnum for $name {
            const ALL: &'static [Self] = $name::ALL;
            fn from_code(code: i32) -> Option<Self> {
                Self::from_i32(code)
            }
            fn code(self) -> i32 {
                self.as_i32()
            }
            fn text(self) -> &'static str {
                self.label()
            }
        }

        impl From<$name> for i32 {
            fn from(value: $name) -> i32 {
                value.as_i32()
            }
        }

        impl TryFrom<i32> for $name {
            type Error = $crate::enums::UnknownCode;
            fn try_from(code: i32) -> Result<Self, $crate::enums::UnknownCode> {
                Self::from_i32(code).ok_or($crate::enums::UnknownCode { kind: stringify!($name), code })
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.label())
            }
        }
    };
}
pub(crate) use code_enum;

// Declared after `code_enum!`, which they use.
mod base_info;
mod delivery;
mod order;
mod party;
mod product;
mod role;
mod sort;
mod tax;
mod xero;

pub use base_info::*;
pub use delivery::*;
pub use order::*;
pub use party::*;
pub use product::*;
pub use role::*;
pub use sort::*;
pub use tax::*;
pub use xero::*;

/// The label of a stored code, or nothing for a code the enum does not know or a column
/// left empty (`code` is an `i32` or an `Option<i32>`).
pub fn code_label<T: Copy>(code: impl Into<Option<i32>>, from: fn(i32) -> Option<T>, label: fn(T) -> &'static str) -> String {
    code.into().and_then(from).map(label).unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::HashSet;

    /// Checks one enumeration against its expected (code, label) table, in `ALL` order.
    pub(super) fn check_table<
        T: CodeEnum + fmt::Debug + fmt::Display + Serialize + serde::de::DeserializeOwned,
    >(
        expected: &[(i32, &str)],
    ) {
        let name = std::any::type_name::<T>();
        let got: Vec<(i32, &str)> = T::ALL.iter().map(|v| (v.code(), v.text())).collect();
        assert_eq!(got, expected, "{name}: codes and labels in list order");
        for &value in T::ALL {
            assert_eq!(
                T::from_code(value.code()),
                Some(value),
                "{name}: round trip {value:?}"
            );
            assert_eq!(
                value.to_string(),
                value.text(),
                "{name}: Display is the label"
            );
            let json = serde_json::to_string(&value).expect("serialize");
            assert_eq!(
                json,
                value.code().to_string(),
                "{name}: serialized as its code"
            );
            let back: T = serde_json::from_str(&json).expect("deserialize");
            assert_eq!(back, value);
        }
        let codes: HashSet<i32> = expected.iter().map(|(c, _)| *c).collect();
        assert_eq!(codes.len(), expected.len(), "{name}: codes unique");
        let labels: HashSet<&str> = expected.iter().map(|(_, l)| *l).collect();
        assert_eq!(labels.len(), expected.len(), "{name}: labels unique");
        for code in -3..=120 {
            if !codes.contains(&code) {
                assert_eq!(
                    T::from_code(code),
                    None,
                    "{name}: unknown code {code} rejected"
                );
                assert!(
                    serde_json::from_str::<T>(&code.to_string()).is_err(),
                    "{name}: serde rejects {code}"
                );
            }
        }
        for code in [i32::MIN, i32::MAX] {
            assert_eq!(T::from_code(code), None);
        }
    }

    #[test]
    fn every_enumeration_matches_the_specification_tables() {
        check_table::<OrderType>(&[
            (1, "Invoice"),
            (2, "Credit Note"),
            (3, "Purchase Order"),
            (4, "Bill"),
            (5, "Bill Credit Note"),
            (6, "Transfer"),
            (7, "Adjustment"),
        ]);
        check_table::<BaseInfo>(&[
            (8, "Product"),
            (9, "Customer"),
            (10, "Supplier"),
            (11, "Warehouse"),
            (12, "Brand"),
            (13, "Employee"),
        ]);
        check_table::<OrderStatus>(&[(1, "Draft"), (2, "Approved"), (3, "Voided"), (4, "Closed")]);
        check_table::<Tag>(&[
            (1, "Normal"),
            (2, "Adjustment"),
            (3, "Special Sale"),
            (4, "Giftware"),
            (5, "Outsourcing"),
        ]);
        check_table::<ShipType>(&[
            (1, "Delivery"),
            (6, "Morning Delivery"),
            (7, "Afternoon Delivery"),
            (2, "Pick-up"),
            (3, "Fast Delivery"),
            (8, "3rd-Party Logistics"),
            (4, "Driver Pick-up"),
            (5, "Return by CSR"),
        ]);
        check_table::<DeliveryStatus>(&[
            (0, "Preparing"),
            (1, "Ready"),
            (2, "Delivering"),
            (3, "Finished"),
            (99, "Cancelled"),
        ]);
        check_table::<ActualPayType>(&[
            (0, "Unpaid"),
            (1, "Cash"),
            (2, "Cheque"),
            (3, "EFT"),
            (4, "POS"),
            (5, "Transfer"),
            (6, "Account Period"),
            (7, "Partial Paid"),
        ]);
        check_table::<TaxType>(&[(1, "No Tax"), (2, "Tax Inclusive"), (3, "GST on Income")]);
        check_table::<DrafterType>(&[
            (0, "Admin"),
            (1, "Staff Service"),
            (2, "Staff Business"),
            (3, "Customer Self"),
        ]);
        check_table::<PriceStrategy>(&[
            (1, "Class A/COD"),
            (2, "Class B"),
            (3, "Class C"),
            (4, "Class D"),
            (5, "Class E"),
            (6, "OCOP/VIP"),
            (7, "Standard"),
        ]);
        check_table::<ProductPriceType>(&[
            (1, "Standard"),
            (2, "Special"),
            (3, "Class A"),
            (4, "Class B"),
            (5, "OCOP"),
            (6, "Cost Price"),
            (7, "Cost USD"),
        ]);
        check_table::<PaymentType>(&[
            (1, "COD+CHQ"),
            (2, "COD+Transfer"),
            (3, "COD+EFT"),
            (4, "COD+POS"),
            (5, "COD+CASH"),
            (6, "COD+Card"),
            (7, "COD"),
            (8, "MUST COD"),
            (9, "CHQ"),
            (10, "CBD"),
            (11, "Card Deduction"),
            (12, "Weekly"),
            (13, "Fortnightly"),
            (14, "Monthly"),
            (15, "30-Days"),
            (16, "Transfer Themselves"),
            (17, "Other"),
        ]);
        check_table::<BusinessType>(&[
            (1, "Retailer"),
            (2, "Wholesaler"),
            (3, "Affiliate Client"),
            (4, "Enterprise Client"),
            (5, "Cash Buyer"),
            (6, "Car saler"),
            (7, "End User"),
        ]);
        check_table::<AreaType>(&[
            (1, "North"),
            (2, "South"),
            (3, "East"),
            (4, "West"),
            (5, "Surrounding"),
            (6, "Regional"),
        ]);
        check_table::<DefaultShipType>(&[(1, "Delivery"), (2, "Pick up")]);
        check_table::<Material>(&[(1, "N/A"), (2, "Alloy"), (3, "Steel")]);
        check_table::<ProductKind>(&[(1, "Physical"), (4, "Virtual")]);
        check_table::<AutoPartsType>(&[
            (1, "Wheel"),
            (2, "Filter"),
            (3, "Oil"),
            (6, "Battery"),
            (4, "Bumper"),
            (5, "Suspension"),
        ]);
        check_table::<Role>(&[
            (1, "Business staff"),
            (2, "Sales staff"),
            (3, "Service staff"),
            (4, "Approver"),
            (5, "Warehouse staff"),
            (6, "Driver"),
        ]);
        check_table::<XeroState>(&[(0, "Unsent"), (2, "Fail"), (1, "SENT"), (3, "Sending…"), (4, "Recalling…")]);
        check_table::<StockAvailability>(&[
            (1, "In Stock Only"),
            (2, "Out of Stock"),
            (3, "No More Than 5"),
            (4, "No More Than 8"),
            (5, "No More Than 10"),
            (6, "No More Than 15"),
            (7, "No More Than 20"),
            (8, "No More Than 25"),
        ]);
        check_table::<ProductSort>(&[
            (0, "All"),
            (1, "Code High to Low"),
            (2, "Code Low to High"),
            (3, "Create Date New to Old"),
            (4, "Create Date Old to New"),
            (5, "Modify Date New to Old"),
            (6, "Modify Date Old to New"),
        ]);
        check_table::<OrderSort>(&[
            (0, "Default"),
            (1, "Number High to Low"),
            (2, "Number Low to High"),
            (3, "Amount High to Low"),
            (4, "Amount Low to High"),
            (5, "Due Date Late to Early"),
            (6, "Due Date Early to Late"),
        ]);
    }

    #[test]
    fn unknown_code_error_names_the_enumeration() {
        let err = OrderType::try_from(9).expect_err("9 is not an order type");
        assert_eq!(
            err,
            UnknownCode {
                kind: "OrderType",
                code: 9
            }
        );
        assert_eq!(err.to_string(), "unknown OrderType code 9");
        assert_eq!(Role::try_from(4), Ok(Role::Approver));
        assert_eq!(i32::from(ShipType::ThirdPartyLogistics), 8);
    }

    #[test]
    fn a_stored_code_reads_as_its_label_and_an_unknown_or_empty_one_as_nothing() {
        assert_eq!(code_label(2, PaymentType::from_i32, PaymentType::label), PaymentType::from_i32(2).unwrap().label());
        assert_eq!(code_label(Some(2), PaymentType::from_i32, PaymentType::label), PaymentType::from_i32(2).unwrap().label());
        assert_eq!(code_label(99, PaymentType::from_i32, PaymentType::label), "");
        assert_eq!(code_label(None, PaymentType::from_i32, PaymentType::label), "");
    }
}
