//! Tyres by DOT date (issue 36): the week and year a tyre was made, as moulded into its
//! sidewall ('2325' = week 23 of 2025), its age, and which lots a sheet takes stock from or
//! puts it into. Stock of a tyre tracked by DOT is held per warehouse and code; the code
//! [`UNKNOWN`] holds stock from before tracking, until it is counted.
//!
//! A code is stored as `year * 100 + week` (202523), so codes sort by age.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate, Weekday};

use crate::stock::{StockEffect, StockError};

/// The stored code of stock whose DOT date is not known.
pub const UNKNOWN: i32 = 0;

/// A DOT date code: the ISO week and year of manufacture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dot {
    year: i32,
    week: u32,
}

/// Why a typed DOT code is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DotError {
    /// Not four digits (or 'WW/YYYY').
    Format,
    /// A week outside 01–53.
    Week(u32),
    /// A year before 2000 (the three-digit codes of the 1990s).
    TooOld,
    /// A week that has not begun yet.
    Future(String),
}

impl std::fmt::Display for DotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Format => f.write_str("Enter the DOT code as week and year, 4 digits: 2325 is week 23 of 2025."),
            Self::Week(w) => write!(f, "Week {w:02} does not exist: a DOT week is 01 to 53."),
            Self::TooOld => f.write_str("DOT codes before 2000 are not kept: the year must be 2000 or later."),
            Self::Future(code) => write!(f, "DOT {code} is in the future."),
        }
    }
}

impl std::error::Error for DotError {}

impl Dot {
    /// A code typed by staff: 'WWYY' (the sidewall's four digits) or 'WW/YYYY'; spaces are
    /// ignored. Week 01–53, year 2000 or later, and not a week after `today`'s.
    pub fn parse(text: &str, today: NaiveDate) -> Result<Self, DotError> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let (week, year) = match t.split_once('/') {
            Some((w, y)) if digits(w) && w.len() <= 2 && digits(y) && y.len() == 4 => (w.parse::<u32>().map_err(|_| DotError::Format)?, y.parse::<i32>().map_err(|_| DotError::Format)?),
            None if digits(&t) && t.len() == 4 => (t[..2].parse::<u32>().map_err(|_| DotError::Format)?, 2000 + t[2..].parse::<i32>().map_err(|_| DotError::Format)?),
            // The 1990s' codes had three digits (week and the year's last digit).
            None if digits(&t) && t.len() == 3 => return Err(DotError::TooOld),
            _ => return Err(DotError::Format),
        };
        if !(1..=53).contains(&week) {
            return Err(DotError::Week(week));
        }
        if year < 2000 {
            return Err(DotError::TooOld);
        }
        let dot = Self { year, week };
        if dot.made_on() > today {
            return Err(DotError::Future(dot.code()));
        }
        Ok(dot)
    }

    /// The code as stored (`year * 100 + week`); `None` for [`UNKNOWN`] or a value that is no code.
    pub fn from_stored(v: i32) -> Option<Self> {
        let (year, week) = (v / 100, u32::try_from(v % 100).ok()?);
        ((2000..=9999).contains(&year) && (1..=53).contains(&week)).then_some(Self { year, week })
    }

    /// The stored form, `year * 100 + week`.
    pub fn stored(self) -> i32 {
        self.year * 100 + i32::try_from(self.week).unwrap_or(0)
    }

    /// The sidewall's four digits, 'WWYY'.
    pub fn code(self) -> String {
        format!("{:02}{:02}", self.week, self.year % 100)
    }

    /// The year of manufacture.
    pub fn year(self) -> i32 {
        self.year
    }

    /// The Monday of the week of manufacture. Week 53 of a year with 52 ISO weeks is taken as
    /// the week after week 52.
    pub fn made_on(self) -> NaiveDate {
        NaiveDate::from_isoywd_opt(self.year, self.week, Weekday::Mon)
            .or_else(|| NaiveDate::from_isoywd_opt(self.year, 52, Weekday::Mon).map(|d| d + Duration::days(7)))
            .unwrap_or(NaiveDate::MIN)
    }

    /// Whole months from manufacture to `today` (0 for a tyre of this month).
    pub fn age_months(self, today: NaiveDate) -> i32 {
        let made = self.made_on();
        let months = (today.year() - made.year()) * 12 + i32::try_from(today.month()).unwrap_or(0) - i32::try_from(made.month()).unwrap_or(0);
        let months = if today.day() < made.day() { months - 1 } else { months };
        months.max(0)
    }

    /// The age as staff read it: '7m', '2y 3m'.
    pub fn age_label(self, today: NaiveDate) -> String {
        let m = self.age_months(today);
        match (m / 12, m % 12) {
            (0, m) => format!("{m}m"),
            (y, 0) => format!("{y}y"),
            (y, m) => format!("{y}y {m}m"),
        }
    }

    /// The age band of the tyre age report.
    pub fn band(self, today: NaiveDate) -> AgeBand {
        match self.age_months(today) {
            m if m < 12 => AgeBand::UnderOne,
            m if m < 24 => AgeBand::OneToTwo,
            m if m < 36 => AgeBand::TwoToThree,
            m if m < 60 => AgeBand::ThreeToFive,
            _ => AgeBand::FiveAndOver,
        }
    }

    /// Whether the tyre is `years` years old or more on `today`.
    pub fn older_than(self, years: i32, today: NaiveDate) -> bool {
        self.age_months(today) >= years.saturating_mul(12)
    }
}

/// Whether a new product is tracked by DOT unless told: a physical product in a tyre
/// category (PCR, TBR, trailer tyres).
pub fn tracked_by_default(kind: crate::enums::ProductKind, category: crate::enums::ProductCategory) -> bool {
    kind == crate::enums::ProductKind::Physical && category.is_tyre()
}

/// The years of manufacture a shop shows for stocked lots: 'DOT 2025', 'DOT 2024–2025', or
/// `None` when no lot of known code holds stock. Never a quantity.
pub fn shop_years(lots: impl IntoIterator<Item = (i32, i64)>) -> Option<String> {
    let years: Vec<i32> = lots.into_iter().filter(|(_, q)| *q > 0).filter_map(|(d, _)| Dot::from_stored(d)).map(Dot::year).collect();
    let (first, last) = (years.iter().min()?, years.iter().max()?);
    Some(if first == last { format!("DOT {first}") } else { format!("DOT {first}–{last}") })
}

/// The code of a stored value as shown: 'WWYY', or 'unknown'.
pub fn label(stored: i32) -> String {
    Dot::from_stored(stored).map_or_else(|| "unknown".to_owned(), Dot::code)
}

/// The codes a line took or put, as printed under it: 'DOT 2323 ×2, 2525 ×1' ('unknown' for
/// stock of unknown code). Quantities count as units whatever their sign (an invoice takes,
/// a credit note puts back); a code named twice is added up, in the order first named; ''
/// when nothing moved.
pub fn codes_label(moved: &[(i32, i64)]) -> String {
    let mut codes: Vec<(i32, i64)> = Vec::new();
    for &(dot, qty) in moved {
        let n = qty.saturating_abs();
        match codes.iter_mut().find(|c| c.0 == dot) {
            Some(c) => c.1 = c.1.saturating_add(n),
            None => codes.push((dot, n)),
        }
    }
    let parts: Vec<String> = codes.iter().filter(|c| c.1 != 0).map(|&(dot, n)| format!("{} ×{n}", label(dot))).collect();
    if parts.is_empty() { String::new() } else { format!("DOT {}", parts.join(", ")) }
}

/// The age bands of the tyre age report (issue 36), youngest first, then stock of unknown age.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AgeBand {
    UnderOne,
    OneToTwo,
    TwoToThree,
    ThreeToFive,
    FiveAndOver,
    Unknown,
}

impl AgeBand {
    /// Every band, in report order.
    pub const ALL: [Self; 6] = [Self::UnderOne, Self::OneToTwo, Self::TwoToThree, Self::ThreeToFive, Self::FiveAndOver, Self::Unknown];

    /// The column heading.
    pub const fn label(self) -> &'static str {
        match self {
            Self::UnderOne => "0–1 years",
            Self::OneToTwo => "1–2 years",
            Self::TwoToThree => "2–3 years",
            Self::ThreeToFive => "3–5 years",
            Self::FiveAndOver => "5+ years",
            Self::Unknown => "Unknown",
        }
    }

    /// The band of a stored code on `today`.
    pub fn of(stored: i32, today: NaiveDate) -> Self {
        Dot::from_stored(stored).map_or(Self::Unknown, |d| d.band(today))
    }
}

/// One lot's stock: its stored code and quantity on hand (may be below zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lot {
    pub dot: i32,
    pub on_hand: i64,
}

/// Which lots `qty` units leave from: all from `pinned` when the line names a code;
/// otherwise oldest first — stock of unknown code first (it predates tracking), then by code —
/// from lots that hold stock, and whatever the lots do not hold from the unknown lot (which
/// then goes below zero, as the warehouse's stock does). The quantities sum to `qty` exactly.
pub fn take(lots: &[Lot], qty: i64, pinned: Option<i32>) -> Vec<(i32, i64)> {
    if qty <= 0 {
        return Vec::new();
    }
    if let Some(dot) = pinned {
        return vec![(dot, qty)];
    }
    let mut order: Vec<&Lot> = lots.iter().filter(|l| l.on_hand > 0).collect();
    order.sort_by_key(|l| l.dot);
    let mut plan: Vec<(i32, i64)> = Vec::new();
    let mut left = qty;
    for lot in order {
        if left == 0 {
            break;
        }
        let n = lot.on_hand.min(left);
        plan.push((lot.dot, n));
        left -= n;
    }
    if left > 0 {
        add(&mut plan, UNKNOWN, left);
    }
    plan
}

/// Which lots `qty` returned units go back into: a code the line names, else the lots the
/// credited invoice took them from (`sold`, in the order taken), less what earlier returns
/// put back (`returned`); beyond that, the unknown lot. Sums to `qty` exactly.
pub fn give_back(sold: &[(i32, i64)], returned: &[(i32, i64)], qty: i64, pinned: Option<i32>) -> Vec<(i32, i64)> {
    if qty <= 0 {
        return Vec::new();
    }
    if let Some(dot) = pinned {
        return vec![(dot, qty)];
    }
    let mut already: BTreeMap<i32, i64> = BTreeMap::new();
    for (d, q) in returned {
        *already.entry(*d).or_default() += q;
    }
    let mut plan: Vec<(i32, i64)> = Vec::new();
    let mut left = qty;
    for (d, q) in sold {
        let back = already.entry(*d).or_default();
        let open = (q - *back).max(0);
        *back = (*back - q).max(0);
        let n = open.min(left);
        if n > 0 {
            add(&mut plan, *d, n);
            left -= n;
        }
    }
    if left > 0 {
        add(&mut plan, UNKNOWN, left);
    }
    plan
}

/// Undoing an approval: the lot changes it `recorded` (signed), negated; if they do not add
/// up to the reversal `delta` (a sheet approved before its product was tracked), the rest
/// goes to the unknown lot. Sums to `delta` exactly.
pub fn reverse(recorded: &[(i32, i64)], delta: i64) -> Vec<(i32, i64)> {
    let mut plan: Vec<(i32, i64)> = Vec::new();
    for (d, q) in recorded {
        add(&mut plan, *d, -q);
    }
    let rest = delta - plan.iter().map(|p| p.1).sum::<i64>();
    if rest != 0 {
        add(&mut plan, UNKNOWN, rest);
    }
    plan.retain(|p| p.1 != 0);
    plan
}

fn add(plan: &mut Vec<(i32, i64)>, dot: i32, qty: i64) {
    match plan.iter_mut().find(|p| p.0 == dot) {
        Some(p) => p.1 += qty,
        None => plan.push((dot, qty)),
    }
}

/// A sheet line as lots see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LotLine {
    /// Whether the line's product is tracked by DOT.
    pub tracked: bool,
    /// The code the line names (stored form), if any.
    pub dot: Option<i32>,
    /// An adjustment line: it counts one lot, the unknown one when it names none.
    pub counts_lot: bool,
}

/// One lot change of an approval: the index of the stock effect it belongs to, the lot and
/// the signed quantity. The changes of one effect sum to its on-hand change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LotMove {
    pub effect: usize,
    pub dot: i32,
    pub qty: i64,
}

/// The lot changes of approving a sheet whose stock effects are `effects`. `lots` holds the
/// lots now on hand by (warehouse, product) and is kept up to date as lines take from it, so
/// two lines never take the same units. A transfer's IN side receives exactly the lots its
/// OUT side took. `sold_returned` answers, for a credit note line, what the credited invoice
/// took of that line's product and what earlier credit notes returned (see [`give_back`]).
pub fn plan_approval(
    effects: &[StockEffect],
    lines: &[LotLine],
    lots: &mut BTreeMap<(i64, i64), Vec<Lot>>,
    sold_returned: impl Fn(usize) -> Option<(Vec<(i32, i64)>, Vec<(i32, i64)>)>,
) -> Result<Vec<LotMove>, StockError> {
    let mut moves: Vec<LotMove> = Vec::new();
    // The OUT plan of each line, for a transfer's IN side.
    let mut taken_by_line: BTreeMap<usize, Vec<(i32, i64)>> = BTreeMap::new();
    // What earlier lines of this credit note gave back, per product: a later line of the same
    // tyre counts them as returned already.
    let mut given: BTreeMap<i64, Vec<(i32, i64)>> = BTreeMap::new();
    for (i, e) in effects.iter().enumerate() {
        let Some(line) = lines.get(e.line).copied().filter(|l| l.tracked) else { continue };
        if e.on_hand_delta == 0 {
            continue;
        }
        let pinned = if line.counts_lot { Some(line.dot.unwrap_or(UNKNOWN)) } else { line.dot };
        let held = lots.entry((e.warehouse_id, e.product_id)).or_default();
        let plan: Vec<(i32, i64)> = if e.on_hand_delta < 0 {
            let out = take(held, e.on_hand_delta.checked_neg().ok_or(StockError::TooLarge)?, pinned);
            taken_by_line.insert(e.line, out.clone());
            out.into_iter().map(|(d, q)| (d, -q)).collect()
        } else if let Some(out) = taken_by_line.get(&e.line) {
            out.clone()
        } else if let Some((sold, mut returned)) = sold_returned(e.line) {
            let earlier = given.entry(e.product_id).or_default();
            returned.extend(earlier.iter().copied());
            let back = give_back(&sold, &returned, e.on_hand_delta, pinned);
            earlier.extend(back.iter().copied());
            back
        } else {
            vec![(pinned.unwrap_or(UNKNOWN), e.on_hand_delta)]
        };
        let held = lots.entry((e.warehouse_id, e.product_id)).or_default();
        for (dot, qty) in plan {
            match held.iter_mut().find(|l| l.dot == dot) {
                Some(l) => l.on_hand = l.on_hand.checked_add(qty).ok_or(StockError::TooLarge)?,
                None => held.push(Lot { dot, on_hand: qty }),
            }
            moves.push(LotMove { effect: i, dot, qty });
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    const TODAY: fn() -> NaiveDate = || day(2026, 11, 27);

    #[test]
    fn new_physical_tyres_are_tracked_by_default_and_nothing_else() {
        use crate::enums::{ProductCategory, ProductKind};
        for &c in ProductCategory::ALL.iter() {
            assert_eq!(tracked_by_default(ProductKind::Physical, c), c.is_tyre(), "{c:?}");
            assert!(!tracked_by_default(ProductKind::Virtual, c), "a virtual product holds no stock: {c:?}");
        }
    }

    #[test]
    fn the_shop_shows_the_years_in_stock_never_unknown_lots_or_empty_ones() {
        assert_eq!(shop_years([(202523, 4)]), Some("DOT 2025".into()));
        assert_eq!(shop_years([(202410, 2), (202523, 4), (202601, 1)]), Some("DOT 2024–2026".into()));
        assert_eq!(shop_years([(UNKNOWN, 9), (202410, 0), (202311, -1)]), None, "unknown, empty and short lots are not shown");
        assert_eq!(shop_years([(UNKNOWN, 9), (202523, 1)]), Some("DOT 2025".into()));
        assert_eq!(shop_years([]), None);
    }

    #[test]
    fn a_sidewall_code_is_week_then_year() {
        let d = Dot::parse("2325", TODAY()).unwrap();
        assert_eq!((d.year(), d.code(), d.stored()), (2025, "2325".to_owned(), 202_523));
        assert_eq!(d.made_on(), day(2025, 6, 2));
        assert_eq!(Dot::parse(" 23/2025 ", TODAY()), Ok(d));
        assert_eq!(Dot::from_stored(202_523), Some(d));
        assert_eq!(Dot::from_stored(UNKNOWN), None);
        assert_eq!(label(UNKNOWN), "unknown");
        assert_eq!(label(202_301), "0123");
        assert_eq!(codes_label(&[(202_423, -3), (UNKNOWN, -1), (202_510, 0)]), "DOT 2324 ×3, unknown ×1");
        assert_eq!(codes_label(&[]), "");
    }

    #[test]
    fn bad_codes_are_refused_with_a_reason() {
        assert_eq!(Dot::parse("5425", TODAY()), Err(DotError::Week(54)));
        assert_eq!(Dot::parse("0025", TODAY()), Err(DotError::Week(0)));
        assert_eq!(Dot::parse("0127", TODAY()), Err(DotError::Future("0127".into())));
        // This week is not the future; next week is.
        assert!(Dot::parse("4826", TODAY()).is_ok());
        assert_eq!(Dot::parse("4926", TODAY()), Err(DotError::Future("4926".into())));
        assert_eq!(Dot::parse("239", TODAY()), Err(DotError::TooOld));
        assert_eq!(Dot::parse("23/1999", TODAY()), Err(DotError::TooOld));
        assert_eq!(Dot::parse("23a5", TODAY()), Err(DotError::Format));
        assert_eq!(Dot::parse("", TODAY()), Err(DotError::Format));
        assert_eq!(Dot::parse("232025", TODAY()), Err(DotError::Format));
        assert_eq!(DotError::Week(54).to_string(), "Week 54 does not exist: a DOT week is 01 to 53.");
    }

    #[test]
    fn week_53_of_a_short_year_is_the_week_after_52() {
        // 2021 has 52 ISO weeks; 2020 has 53.
        assert_eq!(Dot::parse("5321", TODAY()).unwrap().made_on(), day(2022, 1, 3));
        assert_eq!(Dot::parse("5320", TODAY()).unwrap().made_on(), day(2020, 12, 28));
    }

    #[test]
    fn ages_and_bands() {
        let today = TODAY();
        let band = |code: &str| Dot::parse(code, today).unwrap().band(today);
        assert_eq!(band("4026"), AgeBand::UnderOne);
        // Made 1 Dec 2025: 11 whole months; made 24 Nov 2025: 12.
        assert_eq!(band("4925"), AgeBand::UnderOne);
        assert_eq!(band("4825"), AgeBand::OneToTwo);
        assert_eq!(band("0125"), AgeBand::OneToTwo);
        assert_eq!(band("2324"), AgeBand::TwoToThree);
        assert_eq!(band("2322"), AgeBand::ThreeToFive);
        assert_eq!(band("0121"), AgeBand::FiveAndOver);
        assert_eq!(AgeBand::of(UNKNOWN, today), AgeBand::Unknown);
        let d = Dot::parse("2325", today).unwrap();
        assert_eq!(d.age_months(today), 17);
        assert_eq!(d.age_label(today), "1y 5m");
        assert_eq!(Dot::parse("4726", today).unwrap().age_label(today), "0m");
        assert!(d.older_than(1, today));
        assert!(!d.older_than(2, today));
    }

    fn lots(list: &[(i32, i64)]) -> Vec<Lot> {
        list.iter().map(|&(dot, on_hand)| Lot { dot, on_hand }).collect()
    }

    #[test]
    fn a_sale_takes_the_oldest_first_unknown_before_any_code() {
        let held = lots(&[(202_525, 10), (202_410, 3), (UNKNOWN, 2)]);
        assert_eq!(take(&held, 4, None), vec![(UNKNOWN, 2), (202_410, 2)]);
        assert_eq!(take(&held, 8, None), vec![(UNKNOWN, 2), (202_410, 3), (202_525, 3)]);
        // Beyond what the lots hold: the rest from the unknown lot, which goes below zero.
        assert_eq!(take(&held, 20, None), vec![(UNKNOWN, 7), (202_410, 3), (202_525, 10)]);
        // A lot below zero is skipped.
        assert_eq!(take(&lots(&[(UNKNOWN, -2), (202_410, 3)]), 2, None), vec![(202_410, 2)]);
        // A pinned code takes all from it, even beyond what it holds (the guard warned).
        assert_eq!(take(&held, 4, Some(202_525)), vec![(202_525, 4)]);
        assert_eq!(take(&held, 0, None), vec![]);
    }

    #[test]
    fn a_return_goes_back_to_the_lots_sold_net_of_earlier_returns() {
        let sold = [(202_410, 3), (202_525, 2)];
        assert_eq!(give_back(&sold, &[], 4, None), vec![(202_410, 3), (202_525, 1)]);
        assert_eq!(give_back(&sold, &[(202_410, 2)], 2, None), vec![(202_410, 1), (202_525, 1)]);
        // More back than was sold: the rest is of unknown code.
        assert_eq!(give_back(&sold, &[(202_410, 3), (202_525, 2)], 1, None), vec![(UNKNOWN, 1)]);
        assert_eq!(give_back(&sold, &[], 2, Some(202_601)), vec![(202_601, 2)]);
    }

    #[test]
    fn unapproving_negates_what_was_recorded_and_the_rest_is_unknown() {
        assert_eq!(reverse(&[(202_410, -3), (202_525, -1)], 4), vec![(202_410, 3), (202_525, 1)]);
        // Approved before the product was tracked: nothing recorded.
        assert_eq!(reverse(&[], -5), vec![(UNKNOWN, -5)]);
        assert_eq!(reverse(&[(202_410, 2)], -3), vec![(202_410, -2), (UNKNOWN, -1)]);
    }

    fn effect(line: usize, warehouse_id: i64, on_hand_delta: i64) -> StockEffect {
        StockEffect { line, warehouse_id, product_id: 7, on_hand_delta, in_transit_delta: 0 }
    }

    fn sum_of(moves: &[LotMove], effect: usize) -> i64 {
        moves.iter().filter(|m| m.effect == effect).map(|m| m.qty).sum()
    }

    #[test]
    fn two_lines_of_one_tyre_never_take_the_same_units_and_every_plan_sums_exactly() {
        let mut book = BTreeMap::from([((1, 7), lots(&[(202_410, 3), (202_525, 10)]))]);
        let plain = LotLine { tracked: true, dot: None, counts_lot: false };
        let effects = [effect(0, 1, -2), effect(1, 1, -2), effect(2, 1, -1)];
        let pinned = LotLine { dot: Some(202_525), ..plain };
        let moves = plan_approval(&effects, &[plain, plain, pinned], &mut book, |_| None).unwrap();
        assert_eq!(
            moves,
            vec![
                LotMove { effect: 0, dot: 202_410, qty: -2 },
                LotMove { effect: 1, dot: 202_410, qty: -1 },
                LotMove { effect: 1, dot: 202_525, qty: -1 },
                LotMove { effect: 2, dot: 202_525, qty: -1 },
            ]
        );
        for (i, e) in effects.iter().enumerate() {
            assert_eq!(sum_of(&moves, i), e.on_hand_delta);
        }
        assert_eq!(book[&(1, 7)], lots(&[(202_410, 0), (202_525, 8)]));
    }

    #[test]
    fn a_transfer_moves_the_lots_it_took_to_the_other_warehouse() {
        let mut book = BTreeMap::from([((1, 7), lots(&[(UNKNOWN, 1), (202_410, 3), (202_525, 10)]))]);
        let line = LotLine { tracked: true, dot: None, counts_lot: false };
        let effects = [effect(0, 1, -5), effect(0, 2, 5)];
        let moves = plan_approval(&effects, &[line], &mut book, |_| None).unwrap();
        assert_eq!(sum_of(&moves, 0), -5);
        assert_eq!(sum_of(&moves, 1), 5);
        assert_eq!(book[&(2, 7)], lots(&[(UNKNOWN, 1), (202_410, 3), (202_525, 1)]));
        assert_eq!(book[&(1, 7)], lots(&[(UNKNOWN, 0), (202_410, 0), (202_525, 9)]));
        // Each warehouse's lots still add up to its stock: 14 - 5 and 0 + 5.
        assert_eq!(book[&(1, 7)].iter().map(|l| l.on_hand).sum::<i64>(), 9);
    }

    #[test]
    fn a_credit_note_returns_to_the_lot_sold_and_a_count_moves_one_lot() {
        let mut book = BTreeMap::new();
        let line = LotLine { tracked: true, dot: None, counts_lot: false };
        let moves = plan_approval(&[effect(0, 1, 2)], &[line], &mut book, |_| Some((vec![(202_525, 2)], vec![]))).unwrap();
        assert_eq!(moves, vec![LotMove { effect: 0, dot: 202_525, qty: 2 }]);
        // A bill line puts its stock in the code it names; none named: unknown.
        let bill = plan_approval(&[effect(0, 1, 4), effect(1, 1, 1)], &[LotLine { dot: Some(202_410), ..line }, line], &mut book, |_| None).unwrap();
        assert_eq!(bill, vec![LotMove { effect: 0, dot: 202_410, qty: 4 }, LotMove { effect: 1, dot: UNKNOWN, qty: 1 }]);
        // A stock-take line counts one lot: the unknown one when it names no code.
        let count = LotLine { counts_lot: true, ..line };
        let adj = plan_approval(&[effect(0, 1, -1), effect(1, 1, -1)], &[count, LotLine { dot: Some(202_525), ..count }], &mut book, |_| None).unwrap();
        assert_eq!(adj, vec![LotMove { effect: 0, dot: UNKNOWN, qty: -1 }, LotMove { effect: 1, dot: 202_525, qty: -1 }]);
        // Two lines of one credit note: the second counts what the first gave back.
        let two = plan_approval(&[effect(0, 1, 1), effect(1, 1, 2)], &[line, line], &mut BTreeMap::new(), |_| Some((vec![(202_410, 2), (202_525, 2)], vec![]))).unwrap();
        assert_eq!(two, vec![LotMove { effect: 0, dot: 202_410, qty: 1 }, LotMove { effect: 1, dot: 202_410, qty: 1 }, LotMove { effect: 1, dot: 202_525, qty: 1 }]);
        // A product not tracked has no lots.
        assert_eq!(plan_approval(&[effect(0, 1, -1)], &[LotLine { tracked: false, ..line }], &mut book, |_| None).unwrap(), vec![]);
    }
}
