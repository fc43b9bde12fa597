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

/// One run's credits over shared items as bits, 64 items a word: which are right (1) and which
/// wrong (0). A pair's table is then four counts of set bits, where `add` branches on every
/// item: a leaderboard asks it of every pair of dozens of runs, and of every subset.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcomes {
    right: Vec<u64>,
    wrong: Vec<u64>,
    items: u64,
}

impl Outcomes {
    /// From the credits (anything but 0 and 1 is neither right nor wrong: not binary).
    pub fn of(credits: &[f64]) -> Self {
        Outcomes {
            right: bits(credits.iter().map(|&c| c == 1.0)),
            wrong: bits(credits.iter().map(|&c| c == 0.0)),
            items: credits.len() as u64,
        }
    }

    /// `add`'s table of runs `a` and `b` over every item, or over the items set in `among`
    /// (`bits` of a subset) and `among_items` of them.
    pub fn table(a: &Outcomes, b: &Outcomes, among: Option<(&[u64], u64)>) -> McNemar {
        let words = a.right.len().min(b.right.len());
        let count = |x: &[u64], y: &[u64]| -> u64 {
            let mut n = 0u64;
            for k in 0..words {
                let m = among.map_or(u64::MAX, |(m, _)| m.get(k).copied().unwrap_or(0));
                let (Some(p), Some(q)) = (x.get(k), y.get(k)) else {
                    break;
                };
                n += u64::from((p & q & m).count_ones());
            }
            n
        };
        let t = McNemar {
            both_right: count(&a.right, &b.right),
            only_a: count(&a.right, &b.wrong),
            only_b: count(&a.wrong, &b.right),
            both_wrong: count(&a.wrong, &b.wrong),
            ..McNemar::default()
        };
        let items = among.map_or(a.items.min(b.items), |(_, n)| n);
        let binary = t.both_right + t.only_a + t.only_b + t.both_wrong;
        McNemar {
            not_binary: items.saturating_sub(binary),
            ..t
        }
    }
}

/// Flags packed into words of 64, the first flag in the lowest bit of the first word.
pub fn bits(flags: impl Iterator<Item = bool>) -> Vec<u64> {
    let mut out = Vec::new();
    for (k, f) in flags.enumerate() {
        if k % 64 == 0 {
            out.push(0);
        }
        if let Some(w) = out.last_mut() {
            *w |= u64::from(f) << (k % 64);
        }
    }
    out
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

    /// The bit counts give `add`'s table on every item and on a subset, with fractional
    /// credits, at the size of a benchmark.
    #[test]
    fn bits_give_the_table_item_by_item() {
        let mut state = 0x853c_49e6_748f_ea9bu64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [0usize, 1, 63, 64, 65, 1000, 2999] {
            let credit = |x: u64| [0.0, 1.0, 1.0, 0.0, 0.5][(x % 5) as usize];
            let a: Vec<f64> = (0..n).map(|_| credit(next())).collect();
            let b: Vec<f64> = (0..n).map(|_| credit(next())).collect();
            let member: Vec<bool> = (0..n).map(|_| next() % 3 == 0).collect();
            let (oa, ob) = (Outcomes::of(&a), Outcomes::of(&b));
            let mut all = McNemar::default();
            let mut sub = McNemar::default();
            for i in 0..n {
                all.add(a[i], b[i]);
                if member[i] {
                    sub.add(a[i], b[i]);
                }
            }
            assert_eq!(Outcomes::table(&oa, &ob, None), all, "{n}");
            let m = bits(member.iter().copied());
            let k = member.iter().filter(|&&x| x).count() as u64;
            assert_eq!(Outcomes::table(&oa, &ob, Some((&m, k))), sub, "{n}");
        }
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
