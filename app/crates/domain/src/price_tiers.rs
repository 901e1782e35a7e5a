//! Price tiers B–E derived from Class A (DESIGN §5), the price a customer's strategy picks, and the standard price dialog's rules (spec §5).

use super::enums::PriceStrategy;
use super::money::{Cents, div_round_half_away, saturate};

/// Percentage uplifts of tiers B–E over Class A, in basis points (500 = +5%) so organisations may use fractions of a percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierUplifts {
    /// Uplift of Class B.
    pub b: u32,
    /// Uplift of Class C.
    pub c: u32,
    /// Uplift of Class D.
    pub d: u32,
    /// Uplift of Class E.
    pub e: u32,
}

impl TierUplifts {
    /// The defaults: B +5%, C +10%, D +15%, E +20%.
    pub const DEFAULT: TierUplifts = TierUplifts {
        b: 500,
        c: 1_000,
        d: 1_500,
        e: 2_000,
    };
}

impl Default for TierUplifts {
    /// The defaults of DESIGN §5.
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Prices stored on the product for tiers B–E; a stored price wins over the derived one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TierOverrides {
    /// Stored Class B price.
    pub b: Option<Cents>,
    /// Stored Class C price.
    pub c: Option<Cents>,
    /// Stored Class D price.
    pub d: Option<Cents>,
    /// Stored Class E price.
    pub e: Option<Cents>,
}

/// The five class prices of a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierPrices {
    /// Class A/COD.
    pub a: Cents,
    /// Class B.
    pub b: Cents,
    /// Class C.
    pub c: Cents,
    /// Class D.
    pub d: Cents,
    /// Class E.
    pub e: Cents,
}

/// Class A raised by `uplift_bp` basis points, rounded to the cent half away from zero.
pub fn derive_tier(class_a: Cents, uplift_bp: u32) -> Cents {
    let numer = i128::from(class_a.0) * (10_000 + i128::from(uplift_bp));
    Cents(saturate(div_round_half_away(numer, 10_000)))
}

/// The class prices of a product: stored overrides where present, otherwise derived from Class A.
pub fn tier_prices(class_a: Cents, uplifts: TierUplifts, overrides: TierOverrides) -> TierPrices {
    let tier =
        |stored: Option<Cents>, uplift| stored.unwrap_or_else(|| derive_tier(class_a, uplift));
    TierPrices {
        a: class_a,
        b: tier(overrides.b, uplifts.b),
        c: tier(overrides.c, uplifts.c),
        d: tier(overrides.d, uplifts.d),
        e: tier(overrides.e, uplifts.e),
    }
}

/// The prices a strategy can pick from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProductPrices {
    /// The class prices (already resolved with overrides).
    pub tiers: TierPrices,
    /// The standard price.
    pub standard: Cents,
}

/// The unit price for a customer on `strategy`; OCOP/VIP uses the customer's OCOP price, else Class A.
pub fn price_for_strategy(
    strategy: PriceStrategy,
    prices: &ProductPrices,
    ocop: Option<Cents>,
) -> Cents {
    match strategy {
        PriceStrategy::ClassA => prices.tiers.a,
        PriceStrategy::ClassB => prices.tiers.b,
        PriceStrategy::ClassC => prices.tiers.c,
        PriceStrategy::ClassD => prices.tiers.d,
        PriceStrategy::ClassE => prices.tiers.e,
        PriceStrategy::Ocop => ocop.unwrap_or(prices.tiers.a),
        PriceStrategy::Standard => prices.standard,
    }
}

/// Refusal when "Special or not" is YES with no monthly special price.
pub const SPECIAL_NEEDS_PRICE: &str =
    "When \"Special or not\" is YES, \"Monthly Special\" price CANNOT be 0";

/// Refusal when a monthly special price is set but "Special or not" is NO.
pub const PRICE_NEEDS_SPECIAL: &str =
    "When the \"Monthly Special\" price is set, \"Special or not\" MUST be YES";

/// Refusal of a negative price in the dialog.
pub const PRICE_NOT_NEGATIVE: &str = "Prices cannot be negative.";

/// Refusal of a price change without the modPrc permission.
pub const NO_PRICE_PERMISSION: &str = "Sorry, no permission to modify the prices.";

/// What the standard price dialog submits (POST products/{id}/price).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceDialog {
    /// Standard price.
    pub standard: Cents,
    /// Monthly special price.
    pub special: Cents,
    /// Class A/COD price.
    pub class_a: Cents,
    /// Class B price.
    pub class_b: Cents,
    /// Reference purchase price ('Tempe').
    pub ref_pur: Cents,
    /// "Special or not".
    pub is_special: bool,
}

/// Checks the standard price dialog: every price 0 or more, then the special-price pairing.
pub fn validate_price_dialog(dialog: &PriceDialog) -> Result<(), &'static str> {
    let prices = [
        dialog.standard,
        dialog.special,
        dialog.class_a,
        dialog.class_b,
        dialog.ref_pur,
    ];
    if prices.iter().any(|p| p.is_negative()) {
        return Err(PRICE_NOT_NEGATIVE);
    }
    match (dialog.is_special, dialog.special == Cents::ZERO) {
        (true, true) => Err(SPECIAL_NEEDS_PRICE),
        (false, false) => Err(PRICE_NEEDS_SPECIAL),
        _ => Ok(()),
    }
}

/// Refuses a price change by a user without the modPrc permission.
pub fn check_price_permission(mod_prc: bool) -> Result<(), &'static str> {
    if mod_prc {
        Ok(())
    } else {
        Err(NO_PRICE_PERMISSION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_uplifts_derive_b_to_e_from_class_a() {
        // (class A, B, C, D, E)
        let table = [
            (10_000, 10_500, 11_000, 11_500, 12_000),
            (9_999, 10_499, 10_999, 11_499, 11_999), // 10498.95 → 10499, 10998.9 → 10999, 11498.85 → 11499, 11998.8 → 11999
            (10, 11, 11, 12, 12),                    // 10.5 → 11, 11, 11.5 → 12, 12
            (1, 1, 1, 1, 1),                         // 1.05, 1.1, 1.15, 1.2
            (0, 0, 0, 0, 0),
            (12_345, 12_962, 13_580, 14_197, 14_814), // 12962.25, 13579.5, 14196.75, 14814
        ];
        for (a, b, c, d, e) in table {
            let tiers = tier_prices(Cents(a), TierUplifts::default(), TierOverrides::default());
            assert_eq!(
                tiers,
                TierPrices {
                    a: Cents(a),
                    b: Cents(b),
                    c: Cents(c),
                    d: Cents(d),
                    e: Cents(e)
                },
                "A = {a}"
            );
        }
    }

    #[test]
    fn derived_tiers_round_half_away_from_zero() {
        assert_eq!(derive_tier(Cents(10), 500), Cents(11)); // 10.5
        assert_eq!(derive_tier(Cents(-10), 500), Cents(-11));
        assert_eq!(derive_tier(Cents(30), 1_500), Cents(35)); // 34.5
        assert_eq!(derive_tier(Cents(10_000), 0), Cents(10_000));
        assert_eq!(derive_tier(Cents(10_000), 1_250), Cents(11_250)); // +12.5%
        assert_eq!(derive_tier(Cents(i64::MAX), 2_000), Cents(i64::MAX));
    }

    #[test]
    fn organisation_uplifts_apply() {
        let uplifts = TierUplifts {
            b: 250,
            c: 750,
            d: 1_000,
            e: 3_333,
        };
        let tiers = tier_prices(Cents(20_000), uplifts, TierOverrides::default());
        assert_eq!(
            (tiers.b, tiers.c, tiers.d, tiers.e),
            (Cents(20_500), Cents(21_500), Cents(22_000), Cents(26_666))
        );
    }

    #[test]
    fn a_stored_price_wins_over_the_derived_one() {
        let overrides = TierOverrides {
            b: Some(Cents(9_000)),
            d: Some(Cents(0)),
            ..TierOverrides::default()
        };
        let tiers = tier_prices(Cents(10_000), TierUplifts::default(), overrides);
        assert_eq!(tiers.b, Cents(9_000));
        assert_eq!(tiers.c, Cents(11_000));
        assert_eq!(tiers.d, Cents(0), "a stored zero is still a stored price");
        assert_eq!(tiers.e, Cents(12_000));
    }

    #[test]
    fn each_strategy_picks_its_price() {
        let prices = ProductPrices {
            tiers: TierPrices {
                a: Cents(100),
                b: Cents(200),
                c: Cents(300),
                d: Cents(400),
                e: Cents(500),
            },
            standard: Cents(999),
        };
        let table = [
            (PriceStrategy::ClassA, None, 100),
            (PriceStrategy::ClassB, None, 200),
            (PriceStrategy::ClassC, None, 300),
            (PriceStrategy::ClassD, None, 400),
            (PriceStrategy::ClassE, None, 500),
            (PriceStrategy::Ocop, Some(Cents(77)), 77),
            (PriceStrategy::Ocop, None, 100),
            (PriceStrategy::Standard, None, 999),
        ];
        for (strategy, ocop, price) in table {
            assert_eq!(
                price_for_strategy(strategy, &prices, ocop),
                Cents(price),
                "{strategy:?} {ocop:?}"
            );
        }
        for strategy in PriceStrategy::ALL
            .iter()
            .filter(|s| **s != PriceStrategy::Ocop)
        {
            assert_eq!(
                price_for_strategy(*strategy, &prices, Some(Cents(1))),
                price_for_strategy(*strategy, &prices, None),
                "{strategy:?} ignores OCOP prices"
            );
        }
    }

    fn dialog(is_special: bool, special: i64) -> PriceDialog {
        PriceDialog {
            standard: Cents(10_000),
            special: Cents(special),
            class_a: Cents(9_000),
            class_b: Cents(9_500),
            ref_pur: Cents(7_000),
            is_special,
        }
    }

    #[test]
    fn special_flag_and_monthly_special_go_together() {
        let table = [
            (true, 0, Err(SPECIAL_NEEDS_PRICE)),
            (true, 8_500, Ok(())),
            (false, 0, Ok(())),
            (false, 1, Err(PRICE_NEEDS_SPECIAL)),
        ];
        for (is_special, special, result) in table {
            assert_eq!(
                validate_price_dialog(&dialog(is_special, special)),
                result,
                "{is_special} {special}"
            );
        }
        assert_eq!(
            SPECIAL_NEEDS_PRICE,
            r#"When "Special or not" is YES, "Monthly Special" price CANNOT be 0"#
        );
        assert_eq!(
            PRICE_NEEDS_SPECIAL,
            r#"When the "Monthly Special" price is set, "Special or not" MUST be YES"#
        );
    }

    #[test]
    fn every_price_must_be_zero_or_more() {
        let base = dialog(false, 0);
        let negatives = [
            PriceDialog {
                standard: Cents(-1),
                ..base
            },
            PriceDialog {
                special: Cents(-1),
                ..base
            },
            PriceDialog {
                class_a: Cents(-1),
                ..base
            },
            PriceDialog {
                class_b: Cents(-1),
                ..base
            },
            PriceDialog {
                ref_pur: Cents(-1),
                ..base
            },
        ];
        for d in negatives {
            assert_eq!(validate_price_dialog(&d), Err(PRICE_NOT_NEGATIVE), "{d:?}");
        }
        let zeros = PriceDialog {
            standard: Cents(0),
            class_a: Cents(0),
            class_b: Cents(0),
            ref_pur: Cents(0),
            ..base
        };
        assert_eq!(validate_price_dialog(&zeros), Ok(()));
    }

    #[test]
    fn price_changes_need_mod_prc() {
        assert_eq!(check_price_permission(true), Ok(()));
        assert_eq!(
            check_price_permission(false),
            Err("Sorry, no permission to modify the prices.")
        );
    }
}
