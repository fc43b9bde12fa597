//! Equal-width expected calibration error with the per-bin data a reliability diagram needs (SPEC §4).

pub mod equal_mass;

use super::intervals::clopper_pearson;
use super::stats::{wilson, Z95};
use serde::{Deserialize, Serialize};

/// Number of equal-width bins.
pub const BINS: usize = 10;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Bin {
    count: u64,
    confidence: f64,
    correct: f64,
}

/// Sums per bin of confidence and correctness.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EqualWidth {
    bins: [Bin; BINS],
}

/// One bin as the report shows it; figures are null when the bin is empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BinReport {
    pub lo: f64,
    pub hi: f64,
    pub count: u64,
    pub confidence: Option<f64>,
    pub accuracy: Option<f64>,
    pub ci_lo: Option<f64>,
    pub ci_hi: Option<f64>,
    /// Clopper–Pearson (exact) 95% interval on the accuracy; better than Wilson in small,
    /// empty-looking or all-correct bins.
    #[serde(default)]
    pub cp_lo: Option<f64>,
    #[serde(default)]
    pub cp_hi: Option<f64>,
}

impl super::flat::Sums for EqualWidth {
    fn visit(&mut self, f: &mut dyn FnMut(super::flat::Slot<'_>)) {
        use super::flat::Slot;
        for b in &mut self.bins {
            f(Slot::Count(&mut b.count));
            f(Slot::Sum(&mut b.confidence));
            f(Slot::Sum(&mut b.correct));
        }
    }
}

/// The bin of a confidence: min(floor(confidence * 10), 9).
pub fn bin_of(confidence: f64) -> usize {
    // Truncation is floor for the non-negative values left after `max` (and cheaper: no libm call).
    ((confidence * BINS as f64).max(0.0) as usize).min(BINS - 1)
}

impl EqualWidth {
    /// Adds one prediction; `correct` may be fractional (an observed rate).
    pub fn add(&mut self, confidence: f64, correct: f64) {
        let b = &mut self.bins[bin_of(confidence)];
        b.count += 1;
        b.confidence += confidence;
        b.correct += correct;
    }

    /// Adds one prediction `times` times at once (the bootstrap's resampled copies); exactly
    /// `add` for 1, and no branch on `times`.
    pub fn add_times(&mut self, confidence: f64, correct: f64, times: u32) {
        let b = &mut self.bins[bin_of(confidence)];
        let t = f64::from(times);
        b.count += u64::from(times);
        b.confidence += t * confidence;
        b.correct += t * correct;
    }

    pub fn merge(&mut self, other: &Self) {
        for (a, b) in self.bins.iter_mut().zip(other.bins.iter()) {
            a.count += b.count;
            a.confidence += b.confidence;
            a.correct += b.correct;
        }
    }

    pub fn count(&self) -> u64 {
        self.bins.iter().map(|b| b.count).sum()
    }

    /// ECE = sum over non-empty bins of (n_b / N) |accuracy_b - confidence_b|; None when N = 0.
    pub fn ece(&self) -> Option<f64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let mut ece = 0.0;
        for b in self.bins.iter().filter(|b| b.count > 0) {
            let c = b.count as f64;
            ece += (c / n as f64) * (b.correct / c - b.confidence / c).abs();
        }
        Some(ece)
    }

    /// All ten bins in order, for the reliability diagram.
    pub fn bins(&self) -> Vec<BinReport> {
        self.bins
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let filled = b.count > 0;
                let n = b.count as f64;
                let ci = wilson(b.correct, b.count, Z95);
                let cp = clopper_pearson(b.correct, b.count, 0.95);
                BinReport {
                    lo: i as f64 / BINS as f64,
                    hi: (i + 1) as f64 / BINS as f64,
                    count: b.count,
                    confidence: filled.then(|| b.confidence / n),
                    accuracy: filled.then(|| b.correct / n),
                    ci_lo: ci.map(|c| c.0),
                    ci_hi: ci.map(|c| c.1),
                    cp_lo: cp.map(|c| c.0),
                    cp_hi: cp.map(|c| c.1),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_edges() {
        assert_eq!(bin_of(0.0), 0);
        assert_eq!(bin_of(0.1), 1, "0.1 opens the second bin");
        assert_eq!(bin_of(0.0999), 0);
        assert_eq!(bin_of(0.5), 5);
        assert_eq!(bin_of(1.0), 9, "1.0 belongs to the last bin");
    }

    #[test]
    fn ece_by_hand() {
        // Bin 9: confidences 0.9 and 1.0, one right -> |0.5 - 0.95| = 0.45, weight 2/3.
        // Bin 5: confidence 0.5, right -> |1 - 0.5| = 0.5, weight 1/3.
        let mut e = EqualWidth::default();
        e.add(0.9, 1.0);
        e.add(1.0, 0.0);
        e.add(0.5, 1.0);
        let want = 2.0 / 3.0 * 0.45 + 1.0 / 3.0 * 0.5;
        assert!((e.ece().unwrap() - want).abs() < 1e-15);
        let bins = e.bins();
        assert_eq!(bins.len(), 10);
        assert_eq!(bins[9].count, 2);
        assert_eq!(bins[9].accuracy, Some(0.5));
        assert_eq!(bins[3].count, 0);
        assert_eq!(bins[3].accuracy, None);
        assert_eq!((bins[3].lo, bins[3].hi), (0.3, 0.4));
        assert_eq!(EqualWidth::default().ece(), None);
    }
}
