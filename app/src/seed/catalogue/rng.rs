//! The deterministic generator every catalogue table is drawn from: a small splitmix64
//! stream, so the same seed always gives the same rows.

/// A small deterministic splitmix64 generator: the same seed always yields the same stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n` must be positive; 0 gives 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A uniform number in `lo..=hi_inclusive` (`lo` when the range is empty).
    pub fn range_i64(&mut self, lo: i64, hi_inclusive: i64) -> i64 {
        if hi_inclusive <= lo {
            return lo;
        }
        let span = hi_inclusive.abs_diff(lo).wrapping_add(1);
        if span == 0 {
            return self.next_u64() as i64;
        }
        lo.wrapping_add(self.below(span) as i64)
    }

    /// True with a probability of `pct` percent.
    pub fn chance(&mut self, pct: u32) -> bool {
        self.below(100) < u64::from(pct)
    }

    /// One element of a non-empty slice, chosen uniformly.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// An index chosen by integer weights (a zero total gives 0).
    pub(super) fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut roll = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if roll < u64::from(w) {
                return i;
            }
            roll -= u64::from(w);
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut r = Rng::new(1);
        for _ in 0..10_000 {
            assert!(r.below(7) < 7);
            let v = r.range_i64(-3, 3);
            assert!((-3..=3).contains(&v));
            assert!([1, 2, 3].contains(r.pick(&[1, 2, 3])));
        }
        assert_eq!(r.range_i64(5, 5), 5);
        assert_eq!(r.range_i64(5, 1), 5);
        let _ = r.range_i64(i64::MIN, i64::MAX);
        assert!(!r.chance(0));
        assert!(r.chance(100));
        let hits = (0..10_000).filter(|_| r.chance(30)).count();
        assert!((2_700..3_300).contains(&hits), "{hits}");
    }
}
