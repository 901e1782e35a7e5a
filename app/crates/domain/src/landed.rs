//! Landed costs (issue 35, docs/decisions/purchasing.md "Landed costs"): a cost bill's
//! freight, duty, insurance or brokerage spread over the stock bills it belongs to, the part
//! still in stock raising the moving-average cost, the part already sold going to cost of
//! goods sold. Every step is to the cent and checked (i128 inside); nothing is clamped.

use std::fmt;

use super::money::{Cents, div_round_half_away};

/// What a landed cost pays for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Freight = 1,
    Duty = 2,
    Insurance = 3,
    Brokerage = 4,
    Other = 5,
}

impl Kind {
    /// Every kind, in the order a form lists them.
    pub const ALL: [Kind; 5] = [Kind::Freight, Kind::Duty, Kind::Insurance, Kind::Brokerage, Kind::Other];

    /// The stored number.
    pub const fn as_i32(self) -> i32 {
        self as i32
    }

    /// The kind stored as `n`.
    pub fn from_i32(n: i32) -> Option<Kind> {
        Self::ALL.into_iter().find(|k| k.as_i32() == n)
    }

    /// What staff read.
    pub const fn label(self) -> &'static str {
        match self {
            Kind::Freight => "Freight",
            Kind::Duty => "Duty",
            Kind::Insurance => "Insurance",
            Kind::Brokerage => "Brokerage",
            Kind::Other => "Other",
        }
    }
}

/// How the amount is spread over the target lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// In proportion to each line's AUD amount (ex GST).
    Value = 1,
    /// In proportion to each line's quantity.
    Quantity = 2,
}

impl Method {
    /// Both methods, in the order a form lists them.
    pub const ALL: [Method; 2] = [Method::Value, Method::Quantity];

    /// The stored number.
    pub const fn as_i32(self) -> i32 {
        self as i32
    }

    /// The method stored as `n`.
    pub fn from_i32(n: i32) -> Option<Method> {
        Self::ALL.into_iter().find(|m| m.as_i32() == n)
    }

    /// What staff read.
    pub const fn label(self) -> &'static str {
        match self {
            Method::Value => "By value",
            Method::Quantity => "By quantity",
        }
    }
}

/// Status of an allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Draft = 1,
    Approved = 2,
}

impl Status {
    /// The stored number.
    pub const fn as_i32(self) -> i32 {
        self as i32
    }

    /// The status stored as `n`.
    pub fn from_i32(n: i32) -> Option<Status> {
        match n {
            1 => Some(Status::Draft),
            2 => Some(Status::Approved),
            _ => None,
        }
    }

    /// What staff read.
    pub const fn label(self) -> &'static str {
        match self {
            Status::Draft => "Draft",
            Status::Approved => "Approved",
        }
    }
}

/// Why an allocation cannot be worked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LandedError {
    /// No target line, or every weight is zero: nothing to spread over.
    NoBasis,
    /// A weight below zero (a credit line among the targets).
    NegativeWeight,
    /// A figure beyond what money holds.
    TooLarge,
    /// The product's cost would fall below zero.
    NegativeCost,
}

impl fmt::Display for LandedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoBasis => "The chosen bills have no stock lines to spread the cost over (their value or quantity is zero).",
            Self::NegativeWeight => "A target line has a negative value or quantity; choose bills that received stock.",
            Self::TooLarge => "The landed cost is too large.",
            Self::NegativeCost => "This would make a product's cost negative.",
        })
    }
}

impl std::error::Error for LandedError {}

fn narrow(v: i128) -> Result<i64, LandedError> {
    i64::try_from(v).map_err(|_| LandedError::TooLarge)
}

/// Spreads `amount` over lines weighted by `weights` (each line's AUD amount ex GST, or its
/// quantity). The shares sum to `amount` exactly: each share is `amount × weight / total`
/// truncated toward zero, then the cents left over go one each to the lines with the
/// largest remainders, ties to the earlier line (largest-remainder rounding). A negative
/// amount (a credit) gives negative shares by the same rule.
pub fn allocate(amount: Cents, weights: &[i64]) -> Result<Vec<Cents>, LandedError> {
    if weights.iter().any(|w| *w < 0) {
        return Err(LandedError::NegativeWeight);
    }
    let total: i128 = weights.iter().map(|w| i128::from(*w)).sum();
    if total == 0 {
        return Err(LandedError::NoBasis);
    }
    let a = i128::from(amount.0);
    let mut shares = Vec::with_capacity(weights.len());
    let mut remainders = Vec::with_capacity(weights.len());
    let mut given: i128 = 0;
    for w in weights {
        let product = a.checked_mul(i128::from(*w)).ok_or(LandedError::TooLarge)?;
        let share = product / total; // truncates toward zero
        remainders.push((product % total).abs());
        given += share;
        shares.push(share);
    }
    let left = a - given; // |left| < number of lines with a nonzero remainder
    let step = left.signum();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    // Largest remainder first; the stable sort keeps line order among equals.
    order.sort_by(|x, y| remainders[*y].cmp(&remainders[*x]));
    for i in order.into_iter().take(usize::try_from(left.abs()).map_err(|_| LandedError::TooLarge)?) {
        shares[i] += step;
    }
    shares.into_iter().map(|s| narrow(s).map(Cents)).collect()
}

/// One product line's share split between the stock still held and the goods already sold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The quantity of the receipt counted as still in stock.
    pub in_stock: i64,
    /// The part of the share that raises the cost of the stock held.
    pub to_stock: Cents,
    /// The part of the share for goods already sold (cost of goods sold).
    pub to_cogs: Cents,
}

/// Splits `share` of a line that received `received` units when `in_stock` of them are
/// still held (the caller works it out with [`in_stock_of`]): `to_stock = share × in_stock /
/// received`, rounded half away from zero to the cent, and `to_cogs` the rest, so the two
/// sum to the share. A line that received nothing sends its whole share to cost of goods sold.
pub fn split(share: Cents, received: i64, in_stock: i64) -> Result<Split, LandedError> {
    if received <= 0 || in_stock <= 0 {
        return Ok(Split { in_stock: 0, to_stock: Cents::ZERO, to_cogs: share });
    }
    let held = in_stock.min(received);
    let numer = i128::from(share.0).checked_mul(i128::from(held)).ok_or(LandedError::TooLarge)?;
    let to_stock = narrow(div_round_half_away(numer, i128::from(received)))?;
    let to_cogs = share.0.checked_sub(to_stock).ok_or(LandedError::TooLarge)?;
    Ok(Split { in_stock: held, to_stock: Cents(to_stock), to_cogs: Cents(to_cogs) })
}

/// How much of each line's receipt is still in stock when several target lines share one
/// product: the product's total on hand now (below zero counts as none) is handed to its
/// lines in line order, each taking at most what it received. With one line per product
/// this is `min(received, on hand, ≥ 0)`.
pub fn in_stock_of(received: &[i64], on_hand: i64) -> Vec<i64> {
    let mut left = on_hand.max(0);
    received
        .iter()
        .map(|r| {
            let take = (*r).max(0).min(left);
            left -= take;
            take
        })
        .collect()
}

/// The moving-average cost after `to_stock` is added to the `on_hand` units held:
/// `old + to_stock / on_hand`, rounded half away from zero to the cent. Nothing on hand
/// leaves the cost as it is (the whole share went to cost of goods sold). Refused when the
/// result would be below zero.
pub fn raised_cost(old: Cents, to_stock: Cents, on_hand: i64) -> Result<Cents, LandedError> {
    if on_hand <= 0 {
        return Ok(old);
    }
    let per_unit = div_round_half_away(i128::from(to_stock.0), i128::from(on_hand));
    let new = narrow(i128::from(old.0) + per_unit)?;
    if new < 0 {
        return Err(LandedError::NegativeCost);
    }
    Ok(Cents(new))
}

/// The cost after unapproving an allocation that moved the cost from `old` to `new`: the
/// current cost less the recorded per-unit delta (`new − old`). When nothing else moved the
/// cost since, that is exactly `old`; when another bill moved it meanwhile, the same delta
/// is taken off what it is now. Refused when the result would be below zero.
pub fn reverted_cost(current: Cents, old: Cents, new: Cents) -> Result<Cents, LandedError> {
    let delta = i128::from(new.0) - i128::from(old.0);
    let back = narrow(i128::from(current.0) - delta)?;
    if back < 0 {
        return Err(LandedError::NegativeCost);
    }
    Ok(Cents(back))
}

/// The allocation number staff read: LC-000123.
pub fn number(id: i64) -> String {
    format!("LC-{id:06}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[i64]) -> Vec<Cents> {
        v.iter().map(|x| Cents(*x)).collect()
    }

    #[test]
    fn allocate_sums_to_the_amount_exactly() {
        // 100 cents over three equal lines: 33 each, the left-over cent to the first line.
        assert_eq!(allocate(Cents(100), &[1, 1, 1]), Ok(c(&[34, 33, 33])));
        // Proportional when it divides.
        assert_eq!(allocate(Cents(1_000), &[1, 3]), Ok(c(&[250, 750])));
        // Largest remainder wins the cent: 10 over 1:2 → 3.33, 6.67 → 3, 7.
        assert_eq!(allocate(Cents(10), &[1, 2]), Ok(c(&[3, 7])));
        for (amount, weights) in [(12_345i64, vec![7i64, 11, 13, 17]), (1, vec![5, 5]), (99_999, vec![1, 2, 3, 4, 5, 6]), (-12_345, vec![3, 3, 1])] {
            let shares = allocate(Cents(amount), &weights).unwrap();
            assert_eq!(shares.iter().map(|s| s.0).sum::<i64>(), amount, "{amount} over {weights:?}");
        }
    }

    #[test]
    fn allocate_ties_go_to_the_earlier_line() {
        assert_eq!(allocate(Cents(2), &[1, 1, 1]), Ok(c(&[1, 1, 0])));
        assert_eq!(allocate(Cents(1), &[2, 1, 1]), Ok(c(&[1, 0, 0])));
    }

    #[test]
    fn allocate_a_credit_is_negative_by_the_same_rule() {
        assert_eq!(allocate(Cents(-100), &[1, 1, 1]), Ok(c(&[-34, -33, -33])));
        assert_eq!(allocate(Cents(-10), &[1, 2]), Ok(c(&[-3, -7])));
    }

    #[test]
    fn allocate_zero_weight_lines_get_nothing() {
        assert_eq!(allocate(Cents(500), &[0, 2, 0, 3]), Ok(c(&[0, 200, 0, 300])));
        assert_eq!(allocate(Cents(0), &[2, 3]), Ok(c(&[0, 0])));
    }

    #[test]
    fn allocate_refuses_no_basis_negative_weights_and_overflow() {
        assert_eq!(allocate(Cents(100), &[]), Err(LandedError::NoBasis));
        assert_eq!(allocate(Cents(100), &[0, 0]), Err(LandedError::NoBasis));
        assert_eq!(allocate(Cents(100), &[3, -1]), Err(LandedError::NegativeWeight));
        // i128 inside: the largest figures still work out exactly.
        let big = allocate(Cents(i64::MAX), &[i64::MAX, i64::MAX]).unwrap();
        assert_eq!(i128::from(big[0].0) + i128::from(big[1].0), i128::from(i64::MAX));
    }

    #[test]
    fn split_sends_the_sold_part_to_cogs() {
        // 10 received, 4 left: 40% of the share to stock.
        assert_eq!(split(Cents(1_000), 10, 4), Ok(Split { in_stock: 4, to_stock: Cents(400), to_cogs: Cents(600) }));
        // Rounded half away from zero, the rest to COGS: 1 × 1/3 = 0.33 → 0; 2/3 → 1.
        assert_eq!(split(Cents(1), 3, 1), Ok(Split { in_stock: 1, to_stock: Cents(0), to_cogs: Cents(1) }));
        assert_eq!(split(Cents(1), 3, 2), Ok(Split { in_stock: 2, to_stock: Cents(1), to_cogs: Cents(0) }));
        assert_eq!(split(Cents(5), 2, 1), Ok(Split { in_stock: 1, to_stock: Cents(3), to_cogs: Cents(2) }));
        assert_eq!(split(Cents(-5), 2, 1), Ok(Split { in_stock: 1, to_stock: Cents(-3), to_cogs: Cents(-2) }));
        // All still held: all to stock; more on hand than received counts the receipt only.
        assert_eq!(split(Cents(777), 10, 10).unwrap().to_stock, Cents(777));
        assert_eq!(split(Cents(777), 10, 50), Ok(Split { in_stock: 10, to_stock: Cents(777), to_cogs: Cents(0) }));
        // All sold, or stock below zero: all to COGS.
        assert_eq!(split(Cents(777), 10, 0), Ok(Split { in_stock: 0, to_stock: Cents(0), to_cogs: Cents(777) }));
        assert_eq!(split(Cents(777), 10, -3), Ok(Split { in_stock: 0, to_stock: Cents(0), to_cogs: Cents(777) }));
        assert_eq!(split(Cents(777), 0, 5).unwrap().to_cogs, Cents(777));
    }

    #[test]
    fn in_stock_is_handed_to_a_products_lines_in_order() {
        assert_eq!(in_stock_of(&[10], 4), vec![4]);
        assert_eq!(in_stock_of(&[10], 40), vec![10]);
        assert_eq!(in_stock_of(&[10], -2), vec![0]);
        assert_eq!(in_stock_of(&[10, 10], 15), vec![10, 5]);
        assert_eq!(in_stock_of(&[10, -1, 10], 25), vec![10, 0, 10]);
    }

    #[test]
    fn raised_cost_adds_the_per_unit_share() {
        assert_eq!(raised_cost(Cents(10_000), Cents(400), 4), Ok(Cents(10_100)));
        // 1000 / 3 = 333.33 → 333; 500 / 4 = 125; 2 / 4 = 0.5 → 1 (half away from zero).
        assert_eq!(raised_cost(Cents(10_000), Cents(1_000), 3), Ok(Cents(10_333)));
        assert_eq!(raised_cost(Cents(10_000), Cents(2), 4), Ok(Cents(10_001)));
        assert_eq!(raised_cost(Cents(10_000), Cents(-2), 4), Ok(Cents(9_999)));
        // Nothing on hand: the cost stays.
        assert_eq!(raised_cost(Cents(10_000), Cents(400), 0), Ok(Cents(10_000)));
        assert_eq!(raised_cost(Cents(i64::MAX), Cents(100), 1), Err(LandedError::TooLarge));
    }

    #[test]
    fn raised_cost_never_goes_negative() {
        assert_eq!(raised_cost(Cents(100), Cents(-500), 4), Err(LandedError::NegativeCost));
        assert_eq!(raised_cost(Cents(100), Cents(-400), 4), Ok(Cents(0)));
    }

    #[test]
    fn unapprove_restores_the_old_cost_exactly() {
        for (old, to_stock, on_hand) in [(10_000i64, 1_000i64, 3i64), (1, 1, 2), (12_345, -7, 9), (0, 99, 7)] {
            let new = raised_cost(Cents(old), Cents(to_stock), on_hand).unwrap();
            assert_eq!(reverted_cost(new, Cents(old), new), Ok(Cents(old)));
        }
    }

    #[test]
    fn unapprove_after_another_change_takes_the_same_delta_off() {
        // Raised 100 → 110; another bill moved it to 120 meanwhile: back to 110.
        assert_eq!(reverted_cost(Cents(120), Cents(100), Cents(110)), Ok(Cents(110)));
        // A credit that lowered it: the delta is added back.
        assert_eq!(reverted_cost(Cents(95), Cents(100), Cents(90)), Ok(Cents(105)));
        // Refused below zero.
        assert_eq!(reverted_cost(Cents(5), Cents(100), Cents(110)), Err(LandedError::NegativeCost));
    }

    #[test]
    fn codes_round_trip() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_i32(k.as_i32()), Some(k));
        }
        for m in Method::ALL {
            assert_eq!(Method::from_i32(m.as_i32()), Some(m));
        }
        assert_eq!(Kind::from_i32(0), None);
        assert_eq!(Method::from_i32(3), None);
        assert_eq!(Status::from_i32(2), Some(Status::Approved));
        assert_eq!(number(42), "LC-000042");
    }
}
