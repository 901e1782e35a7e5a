//! The tyre age report (issue 36, report kind `tyreAge`): the stock of tyres tracked by DOT
//! by brand, size and warehouse, its quantity and its cost in each age band
//! ([`AgeBand::ALL`]) on the report's date. The database gives the lots grouped by row and
//! code, in row order; [`Rows`] folds them into one [`Banded`] per row as they come.

use chrono::NaiveDate;

use crate::dot::AgeBand;

/// Quantity and cost (cents, at the product's moving-average cost) per age band, in the
/// order of [`AgeBand::ALL`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Banded {
    pub qty: [i64; 6],
    pub cost: [i64; 6],
}

/// A figure left the range of a quantity or an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

fn slot(band: AgeBand) -> usize {
    AgeBand::ALL.iter().position(|b| *b == band).unwrap_or(AgeBand::ALL.len() - 1)
}

impl Banded {
    /// Adds `qty` units costing `cost` in all to `band`.
    pub fn add(&mut self, band: AgeBand, qty: i64, cost: i64) -> Result<(), TooLarge> {
        let i = slot(band);
        self.qty[i] = self.qty[i].checked_add(qty).ok_or(TooLarge)?;
        self.cost[i] = self.cost[i].checked_add(cost).ok_or(TooLarge)?;
        Ok(())
    }

    /// Adds another row's figures (the total row).
    pub fn plus(&mut self, other: &Banded) -> Result<(), TooLarge> {
        for (band, i) in AgeBand::ALL.into_iter().zip(0..) {
            self.add(band, other.qty[i], other.cost[i])?;
        }
        Ok(())
    }

    /// The quantity over every band.
    pub fn total_qty(&self) -> Result<i64, TooLarge> {
        self.qty.iter().try_fold(0i64, |s, q| s.checked_add(*q)).ok_or(TooLarge)
    }

    /// The cost over every band.
    pub fn total_cost(&self) -> Result<i64, TooLarge> {
        self.cost.iter().try_fold(0i64, |s, c| s.checked_add(*c)).ok_or(TooLarge)
    }
}

/// Folds lots, given in row order, into rows: each lot `(row, code, quantity, cost)` goes to
/// the band of its code on `today`; a row ends when the next lot belongs to another.
#[derive(Debug)]
pub struct Rows<K> {
    today: NaiveDate,
    open: Option<(K, Banded)>,
}

impl<K: PartialEq> Rows<K> {
    pub fn new(today: NaiveDate) -> Self {
        Self { today, open: None }
    }

    /// Adds a lot; answers the row it ends, if it starts another.
    pub fn push(&mut self, key: K, dot: i32, qty: i64, cost: i64) -> Result<Option<(K, Banded)>, TooLarge> {
        let band = AgeBand::of(dot, self.today);
        match &mut self.open {
            Some((k, b)) if *k == key => {
                b.add(band, qty, cost)?;
                Ok(None)
            }
            _ => {
                let mut b = Banded::default();
                b.add(band, qty, cost)?;
                Ok(self.open.replace((key, b)))
            }
        }
    }

    /// The last row.
    pub fn finish(self) -> Option<(K, Banded)> {
        self.open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dot::{codes_label, UNKNOWN};

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn lots_fall_in_their_band_on_the_reports_date_and_rows_follow_their_key() {
        let today = day(2026, 11, 27);
        let mut rows = Rows::new(today);
        let mut out = Vec::new();
        // (brand, size, warehouse) as the database orders them, then the lots' codes.
        let lots = [
            (("Michelin", "205/55R16", 1), 202640, 2, 200), // 1 month: 0–1
            (("Michelin", "205/55R16", 1), 202440, 3, 300), // 2 years 1 month: 2–3
            (("Michelin", "205/55R16", 1), UNKNOWN, 1, 100),
            (("Michelin", "205/55R16", 2), 201901, 4, 400), // nearly 8 years: 5+
            (("Pirelli", "225/45R17", 1), 202301, 5, 500),  // 3 years 10 months: 3–5
            (("Pirelli", "225/45R17", 1), 202449, 6, 600),  // 1 year 11 months: 1–2
        ];
        for (k, dot, q, c) in lots {
            out.extend(rows.push(k, dot, q, c).unwrap());
        }
        out.extend(rows.finish());
        assert_eq!(out.len(), 3, "one row per brand, size and warehouse");
        assert_eq!(out[0].1.qty, [2, 0, 3, 0, 0, 1]);
        assert_eq!(out[0].1.cost, [200, 0, 300, 0, 0, 100]);
        assert_eq!(out[1].1.qty, [0, 0, 0, 0, 4, 0]);
        assert_eq!(out[2].1.qty, [0, 6, 0, 5, 0, 0]);
        let mut total = Banded::default();
        for (_, b) in &out {
            total.plus(b).unwrap();
        }
        assert_eq!(total.total_qty(), Ok(2 + 3 + 1 + 4 + 5 + 6), "the total row adds every lot once");
        assert_eq!(total.total_cost(), Ok(2100));
    }

    #[test]
    fn a_band_edge_is_the_whole_year() {
        let today = day(2026, 6, 1);
        // Week 22 of 2025 began on Monday 26 May 2025: one year and a few days by 1 June 2026.
        assert_eq!(AgeBand::of(202522, today), AgeBand::OneToTwo);
        // Week 23 of 2025 began on 2 June 2025: not yet a year.
        assert_eq!(AgeBand::of(202523, today), AgeBand::UnderOne);
        assert_eq!(AgeBand::of(202123, today), AgeBand::ThreeToFive, "4 years 11 months");
        assert_eq!(AgeBand::of(202122, today), AgeBand::FiveAndOver, "5 years");
        assert_eq!(AgeBand::of(UNKNOWN, today), AgeBand::Unknown);
    }

    #[test]
    fn figures_that_leave_the_range_are_refused() {
        let mut b = Banded::default();
        b.add(AgeBand::Unknown, i64::MAX, 0).unwrap();
        assert_eq!(b.add(AgeBand::Unknown, 1, 0), Err(TooLarge));
        let mut c = Banded::default();
        c.add(AgeBand::UnderOne, i64::MAX, 0).unwrap();
        c.add(AgeBand::OneToTwo, 1, 0).unwrap();
        assert_eq!(c.total_qty(), Err(TooLarge));
    }

    #[test]
    fn the_codes_of_a_line_read_as_printed() {
        assert_eq!(codes_label(&[(202323, -2), (202525, -1)]), "DOT 2323 ×2, 2525 ×1", "an invoice took them: units, not signs");
        assert_eq!(codes_label(&[(202323, 1), (202323, 2)]), "DOT 2323 ×3", "a code once, added up");
        assert_eq!(codes_label(&[(UNKNOWN, -1)]), "DOT unknown ×1");
        assert_eq!(codes_label(&[(202525, 1), (UNKNOWN, 2), (202323, 1)]), "DOT 2525 ×1, unknown ×2, 2323 ×1", "in the order first named");
        assert_eq!(codes_label(&[]), "");
        assert_eq!(codes_label(&[(202323, 0)]), "", "nothing moved");
    }
}
