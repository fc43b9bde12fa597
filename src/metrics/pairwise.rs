//! Reward-model figures beyond accuracy (SPEC §6): where a model fails (margins, exact ties, the
//! worst items per group), the "longer response wins" baseline, and the order-fixed weighted mean
//! that RewardBench's sections need to match the official tables to the last bit.

use crate::items::{best_of_n_credit, Body, Item};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many of the most negative margins each group keeps.
pub const WORST_KEPT: usize = 10;

/// Bins of the margin histogram: half below zero, half at or above.
pub const HISTOGRAM_BINS: usize = 20;

/// Chosen minus rejected for a pair; worst correct minus best incorrect for best-of-n. `None` for
/// other items, or when a side has no candidate.
pub fn margin(item: &Item) -> Option<f64> {
    match &item.body {
        Body::Pair { chosen, rejected } => Some(chosen - rejected),
        Body::BestOfN {
            scores,
            num_correct,
        } => {
            let (correct, incorrect) = scores.split_at((*num_correct).min(scores.len()));
            if correct.is_empty() || incorrect.is_empty() {
                return None;
            }
            let worst = correct.iter().copied().fold(f64::INFINITY, f64::min);
            let best = incorrect.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Some(worst - best)
        }
        _ => None,
    }
}

/// Credit of the "longer response wins" baseline for a pair of lengths: 1, 0.5 on equal lengths
/// (a coin flip), else 0.
pub fn longer_wins(chosen: usize, rejected: usize) -> f64 {
    match chosen.cmp(&rejected) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The same baseline over best-of-n candidates: the first (correct) one must be the longest,
/// sharing credit on equal lengths as best-of-n shares it on equal scores.
pub fn longest_wins(lengths: &[usize]) -> f64 {
    let as_scores: Vec<f64> = lengths.iter().map(|&l| l as f64).collect();
    best_of_n_credit(&as_scores)
}

/// (Σ value·weight) / (Σ weight) with the terms added in the order given, starting from 0, as
/// Python's loop does; `None` for no terms or a zero total weight.
pub fn weighted_mean_in_order(terms: impl IntoIterator<Item = (f64, f64)>) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for (value, weight) in terms {
        num += value * weight;
        den += weight;
    }
    (den > 0.0).then(|| num / den)
}

/// Plain mean, summed left to right; `None` when empty.
pub fn mean_in_order(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    weighted_mean_in_order(values.into_iter().map(|v| (v, 1.0)))
}

/// One item among the worst of its group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Worst {
    pub id: String,
    pub margin: f64,
    pub line: Option<u64>,
}

/// Per-group margin state.
#[derive(Debug, Clone, Default, PartialEq)]
struct GroupMargins {
    /// The most negative margins (at most `WORST_KEPT`), ascending, ties broken by id.
    worst: Vec<Worst>,
    /// Margins exactly 0.
    ties: u64,
}

/// Margin state over all items: every margin (for the histogram) and each group's worst items.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Margins {
    all: Vec<f64>,
    groups: BTreeMap<String, GroupMargins>,
}

/// One histogram bin: `lo <= margin < hi` (the last bin also holds `hi`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistogramBin {
    pub lo: f64,
    pub hi: f64,
    pub count: u64,
}

/// The finished margin figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MarginFigures {
    /// Items that have a margin.
    pub items: u64,
    /// Margins below zero (the model prefers a wrong response).
    pub negative: u64,
    /// Margins exactly zero (an exact tie: wrong for pairs).
    pub ties: u64,
    /// `HISTOGRAM_BINS` equal-width bins over [-A, A], A the largest |margin|, with 0 as an edge;
    /// one bin [0, 0] when every margin is 0; empty when there are none.
    pub histogram: Vec<HistogramBin>,
}

fn by_margin_then_id(a: &Worst, b: &Worst) -> std::cmp::Ordering {
    a.margin.total_cmp(&b.margin).then_with(|| a.id.cmp(&b.id))
}

impl Margins {
    /// Adds one item's margin under its group. Only margins <= 0 (failures) can be among the worst.
    pub fn add(&mut self, group: &str, id: &str, line: Option<u64>, margin: f64) {
        self.all.push(margin);
        let g = match self.groups.get_mut(group) {
            Some(g) => g,
            None => self.groups.entry(group.to_string()).or_default(),
        };
        if margin == 0.0 {
            g.ties += 1;
        }
        if margin > 0.0 {
            return;
        }
        let entry = Worst {
            id: id.to_string(),
            margin,
            line,
        };
        let at = g
            .worst
            .partition_point(|w| by_margin_then_id(w, &entry).is_lt());
        if at < WORST_KEPT {
            g.worst.insert(at, entry);
            g.worst.truncate(WORST_KEPT);
        }
    }

    pub fn merge(&mut self, other: Self) {
        self.all.extend(other.all);
        for (name, o) in other.groups {
            let g = self.groups.entry(name).or_default();
            g.ties += o.ties;
            g.worst.extend(o.worst);
            g.worst.sort_by(by_margin_then_id);
            g.worst.truncate(WORST_KEPT);
        }
    }

    /// The worst items of a group, most negative first.
    pub fn worst(&self, group: &str) -> &[Worst] {
        self.groups.get(group).map_or(&[], |g| &g.worst)
    }

    /// Exact ties within a group.
    pub fn ties(&self, group: &str) -> u64 {
        self.groups.get(group).map_or(0, |g| g.ties)
    }

    pub fn finish(&self) -> MarginFigures {
        let count = |f: fn(f64) -> bool| self.all.iter().filter(|&&m| f(m)).count() as u64;
        MarginFigures {
            items: self.all.len() as u64,
            negative: count(|m| m < 0.0),
            ties: count(|m| m == 0.0),
            histogram: histogram(&self.all),
        }
    }
}

/// Equal-width bins symmetric around 0 (see `MarginFigures::histogram`).
pub fn histogram(margins: &[f64]) -> Vec<HistogramBin> {
    if margins.is_empty() {
        return Vec::new();
    }
    let reach = margins.iter().fold(0.0f64, |a, m| a.max(m.abs()));
    if reach == 0.0 {
        let count = margins.len() as u64;
        return vec![HistogramBin {
            lo: 0.0,
            hi: 0.0,
            count,
        }];
    }
    let half = HISTOGRAM_BINS / 2;
    let width = reach / half as f64;
    // Shared edges, so that one bin's `hi` is the next one's `lo`; the outer ones are ±reach.
    let edge = |j: usize| match j {
        0 => -reach,
        j if j == HISTOGRAM_BINS => reach,
        j => (j as f64 - half as f64) * width,
    };
    let mut bins: Vec<HistogramBin> = (0..HISTOGRAM_BINS)
        .map(|i| HistogramBin {
            lo: edge(i),
            hi: edge(i + 1),
            count: 0,
        })
        .collect();
    for &m in margins {
        // By sign, so that 0 is always an edge whatever the rounding of reach / width.
        let i = if m >= 0.0 {
            half + ((m / width).floor() as usize).min(half - 1)
        } else {
            half.saturating_sub(((-m / width).ceil() as usize).max(1))
        };
        if let Some(b) = bins.get_mut(i) {
            b.count += 1;
        }
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_mean_adds_in_the_given_order() {
        let terms = [(0.99, 100.0), (90.0 / 95.0, 95.0), (0.5, 28.0)];
        let by_hand = ((0.0 + 0.99 * 100.0) + (90.0 / 95.0) * 95.0) + 0.5 * 28.0;
        assert_eq!(weighted_mean_in_order(terms), Some(by_hand / 223.0));
        assert_eq!(weighted_mean_in_order([]), None);
        assert_eq!(mean_in_order([1.0, 2.0]), Some(1.5));
    }

    #[test]
    fn length_baselines() {
        assert_eq!(longer_wins(10, 3), 1.0);
        assert_eq!(longer_wins(3, 3), 0.5);
        assert_eq!(longer_wins(2, 3), 0.0);
        assert_eq!(longest_wins(&[9, 9, 1, 2]), 0.5);
        assert_eq!(longest_wins(&[1, 9, 1, 2]), 0.0);
    }

    #[test]
    fn histogram_puts_zero_at_an_edge() {
        let bins = histogram(&[-1.0, 0.0, 0.05, 1.0, -0.3]);
        assert_eq!(bins.len(), HISTOGRAM_BINS);
        assert_eq!(bins[0].lo, -1.0);
        assert_eq!(bins[10].lo, 0.0);
        assert_eq!(bins[19].hi, 1.0);
        let counts: Vec<u64> = bins.iter().map(|b| b.count).collect();
        // -1.0 -> bin 0; -0.3 -> bin 7 ([-0.3, -0.2)); 0 and 0.05 -> bin 10; 1.0 -> bin 19.
        assert_eq!(counts[0], 1);
        assert_eq!(counts[7], 1);
        assert_eq!(counts[10], 2);
        assert_eq!(counts[19], 1);
        assert_eq!(counts.iter().sum::<u64>(), 5);
        assert_eq!(histogram(&[0.0, 0.0])[0].count, 2);
        assert!(histogram(&[]).is_empty());
    }

    #[test]
    fn worst_items_are_kept_most_negative_first() {
        let mut m = Margins::default();
        for i in 0..15 {
            m.add("a", &format!("x{i:02}"), Some(i), -(i as f64));
        }
        m.add("a", "pos", None, 2.0);
        m.add("a", "tie", None, 0.0);
        let worst = m.worst("a");
        assert_eq!(worst.len(), WORST_KEPT);
        assert_eq!(worst[0].id, "x14");
        assert_eq!(worst[0].margin, -14.0);
        assert_eq!(m.ties("a"), 2, "x00 and tie");
        let f = m.finish();
        assert_eq!((f.items, f.negative, f.ties), (17, 14, 2));
    }
}
