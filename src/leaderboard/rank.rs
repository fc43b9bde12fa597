//! Ranks of runs on one figure, and the summary of a run's ranks over the bootstrap's resamples.
//!
//! Tie rule: competition ranking ("1224"). A run's rank is one plus the number of runs strictly
//! better than it, so tied values share the best (smallest) rank of their block and the next
//! rank skips. An undefined value (the figure could not be computed in that resample) is worse
//! than every defined one; undefined values tie with each other.

/// Which way a figure improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
}

impl Better {
    /// The direction of a report path: error rates, calibration errors and losses are better low,
    /// everything else (accuracies, scores, I and C) high.
    pub fn of(figure: &str) -> Better {
        let last = figure.rsplit('.').next().unwrap_or(figure);
        match last {
            "invalid_share" | "outside_mass" | "ece" | "ece_em" | "brier" | "nll" => Better::Lower,
            _ => Better::Higher,
        }
    }

    /// Whether `x` is strictly better than `y`; `NaN` (undefined) is never better and every
    /// defined value is better than it.
    pub fn beats(self, x: f64, y: f64) -> bool {
        match (x.is_nan(), y.is_nan()) {
            (true, _) => false,
            (false, true) => true,
            _ => match self {
                Better::Higher => x > y,
                Better::Lower => x < y,
            },
        }
    }
}

/// Competition ranks (1-based) of `values` under `better`; `order` is scratch space.
pub fn competition(values: &[f64], better: Better, order: &mut Vec<usize>, out: &mut Vec<u32>) {
    let n = values.len();
    order.clear();
    order.extend(0..n);
    let key = |i: usize| values.get(i).copied().unwrap_or(f64::NAN);
    // Best first; NaN last. Ties compare equal, so a block of equal values stays together.
    order.sort_unstable_by(|&a, &b| {
        let (x, y) = (key(a), key(b));
        if better.beats(x, y) {
            std::cmp::Ordering::Less
        } else if better.beats(y, x) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    out.clear();
    out.resize(n, 0);
    let mut rank = 1u32;
    for (pos, &i) in order.iter().enumerate() {
        if pos > 0 {
            let prev = order.get(pos - 1).map_or(f64::NAN, |&p| key(p));
            if better.beats(prev, key(i)) {
                rank = pos as u32 + 1;
            }
        }
        if let Some(slot) = out.get_mut(i) {
            *slot = rank;
        }
    }
}

/// How often a run took each rank: `counts[r - 1]` resamples at rank r.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RankCounts {
    counts: Vec<u64>,
}

/// A run's rank over the resamples: the median and the central 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankSummary {
    pub median: u32,
    pub lo: u32,
    pub hi: u32,
}

impl RankCounts {
    pub fn new(runs: usize) -> Self {
        RankCounts {
            counts: vec![0; runs],
        }
    }

    pub fn add(&mut self, rank: u32) {
        if let Some(c) = (rank as usize)
            .checked_sub(1)
            .and_then(|i| self.counts.get_mut(i))
        {
            *c += 1;
        }
    }

    pub fn merge(&mut self, other: &RankCounts) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// The smallest rank whose cumulative share of resamples reaches num/den (the inverse of the
    /// empirical distribution function, numpy's `inverted_cdf`), in integers so that no rounding
    /// of num/den × B moves a boundary. `None` without resamples.
    fn quantile(&self, num: u64, den: u64) -> Option<u32> {
        let total: u64 = self.counts.iter().sum();
        if total == 0 {
            return None;
        }
        let mut cum = 0u64;
        for (i, c) in self.counts.iter().enumerate() {
            cum += c;
            if cum * den >= num * total && cum > 0 {
                return Some(i as u32 + 1);
            }
        }
        Some(self.counts.len() as u32)
    }

    /// Median and the 2.5% and 97.5% points of the ranks (see `quantile`).
    pub fn summary(&self) -> Option<RankSummary> {
        Some(RankSummary {
            lo: self.quantile(1, 40)?,
            median: self.quantile(1, 2)?,
            hi: self.quantile(39, 40)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(values: &[f64], better: Better) -> Vec<u32> {
        let (mut order, mut out) = (Vec::new(), Vec::new());
        competition(values, better, &mut order, &mut out);
        out
    }

    #[test]
    fn ties_share_the_best_rank_and_the_next_skips() {
        // 0.9 first; the two 0.7 share rank 2; 0.5 is fourth (competition ranking, "1224").
        assert_eq!(ranks(&[0.7, 0.9, 0.5, 0.7], Better::Higher), [2, 1, 4, 2]);
        // The same values when lower is better.
        assert_eq!(ranks(&[0.7, 0.9, 0.5, 0.7], Better::Lower), [2, 4, 1, 2]);
        // Undefined values come last and tie with each other.
        assert_eq!(ranks(&[f64::NAN, 0.1, f64::NAN], Better::Lower), [2, 1, 2]);
        assert_eq!(ranks(&[0.3, 0.3, 0.3], Better::Higher), [1, 1, 1]);
    }

    #[test]
    fn quantiles_of_ranks_by_hand() {
        // 40 resamples: rank 1 once, rank 2 thirty-eight times, rank 3 once.
        let mut c = RankCounts::new(3);
        c.add(1);
        (0..38).for_each(|_| c.add(2));
        c.add(3);
        // 2.5% of 40 = 1 resample: rank 1 reaches it. 97.5% = 39: rank 2 reaches it (1 + 38).
        let s = c.summary().unwrap();
        assert_eq!((s.lo, s.median, s.hi), (1, 2, 2));
        c.add(3);
        // 41 resamples: 2.5% is 1.025, so rank 1 (one resample) no longer reaches it.
        let s = c.summary().unwrap();
        assert_eq!((s.lo, s.median, s.hi), (2, 2, 3));
        assert_eq!(RankCounts::new(2).summary(), None);
    }

    #[test]
    fn directions() {
        assert_eq!(Better::of("metrics.accuracy"), Better::Higher);
        assert_eq!(Better::of("conditioning.ece_em"), Better::Lower);
        assert_eq!(Better::of("metrics.invalid_share"), Better::Lower);
        assert_eq!(Better::of("ic.c"), Better::Higher);
        assert_eq!(Better::of("rewardbench.sections.Chat"), Better::Higher);
    }
}
