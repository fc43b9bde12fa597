//! McNemar's exact test (the sign test on the discordant items): whether two models' accuracies
//! on the same items differ by more than chance would make them.
//!
//! Only the items one model gets right and the other wrong carry information. Under the null
//! hypothesis each of those n = b + c items is equally likely to favour either model, so
//! min(b, c) ~ Binomial(n, 1/2) and the two-sided p-value is min(1, 2 P(X <= min(b, c))).

use super::intervals::binomial_half_cdf;
use serde::{Deserialize, Serialize};

/// The 2×2 table of two models' correctness on shared items, and the test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct McNemar {
    pub both_right: u64,
    /// A right, B wrong.
    pub only_a: u64,
    /// A wrong, B right.
    pub only_b: u64,
    pub both_wrong: u64,
    /// Items left out because a credit was fractional (best-of-n ties, judges' half points).
    pub not_binary: u64,
    /// Exact two-sided p-value; 1 when no item is discordant; null with no binary item at all.
    pub p_value: Option<f64>,
}

impl McNemar {
    /// Adds one shared item by the two credits (1 right, 0 wrong; anything else is left out).
    pub fn add(&mut self, a: f64, b: f64) {
        match (binary(a), binary(b)) {
            (Some(true), Some(true)) => self.both_right += 1,
            (Some(true), Some(false)) => self.only_a += 1,
            (Some(false), Some(true)) => self.only_b += 1,
            (Some(false), Some(false)) => self.both_wrong += 1,
            _ => self.not_binary += 1,
        }
    }

    /// The table with its p-value filled in.
    pub fn finish(mut self) -> Self {
        let total = self.both_right + self.only_a + self.only_b + self.both_wrong;
        self.p_value = (total > 0).then(|| exact_p(self.only_a, self.only_b));
        self
    }
}

fn binary(credit: f64) -> Option<bool> {
    if credit == 1.0 {
        Some(true)
    } else if credit == 0.0 {
        Some(false)
    } else {
        None
    }
}

/// Two-sided exact McNemar p-value for b and c discordant items: min(1, 2 P(X <= min(b, c))),
/// X ~ Binomial(b + c, 1/2).
pub fn exact_p(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    (2.0 * binomial_half_cdf(b.min(c), n)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_tables_give_one() {
        assert_eq!(exact_p(0, 0), 1.0);
        assert_eq!(exact_p(3, 3), 1.0);
    }

    #[test]
    fn fractional_credit_is_left_out() {
        let mut t = McNemar::default();
        t.add(1.0, 0.0);
        t.add(0.5, 1.0);
        t.add(0.0, 0.0);
        let t = t.finish();
        assert_eq!((t.only_a, t.both_wrong, t.not_binary), (1, 1, 1));
        // b = 1, c = 0: 2 * P(X <= 0) = 2 * 1/2 = 1.
        assert_eq!(t.p_value, Some(1.0));
        assert_eq!(McNemar::default().finish().p_value, None);
    }
}
