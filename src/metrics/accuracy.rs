//! Exact match, normalized accuracy and invalid share over a set of items (SPEC §3).

use super::outcome::{outcome, Outcome};
use crate::items::Item;
use serde::{Deserialize, Serialize};

/// Running sums for the accuracy figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Accuracy {
    pub items: u64,
    pub credit: f64,
    pub invalid: u64,
    normalized_sum: f64,
    normalized_items: u64,
}

/// The finished accuracy figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccuracyFigures {
    pub items: u64,
    pub correct: f64,
    pub accuracy: Option<f64>,
    pub normalized: Option<f64>,
    pub invalid_share: Option<f64>,
}

impl Accuracy {
    pub fn update(&mut self, item: &Item) {
        self.add(&outcome(item));
    }

    /// Adds an already judged item.
    pub fn add(&mut self, o: &Outcome) {
        self.items += 1;
        self.credit += o.credit;
        self.invalid += u64::from(!o.valid);
        if let Some(n) = o.normalized() {
            self.normalized_sum += n;
            self.normalized_items += 1;
        }
    }

    /// Adds an already judged item `times` times at once (the bootstrap's resampled copies); the
    /// same as `times` calls of `add` up to the order of the sums, and exactly `add` for 1.
    pub fn add_times(&mut self, o: &Outcome, times: u32) {
        let t = f64::from(times);
        self.items += u64::from(times);
        self.credit += t * o.credit;
        self.invalid += u64::from(times) * u64::from(!o.valid);
        if let Some(n) = o.normalized() {
            self.normalized_sum += t * n;
            self.normalized_items += u64::from(times);
        }
    }

    pub fn merge(&mut self, other: Self) {
        self.items += other.items;
        self.credit += other.credit;
        self.invalid += other.invalid;
        self.normalized_sum += other.normalized_sum;
        self.normalized_items += other.normalized_items;
    }

    pub fn finish(&self) -> AccuracyFigures {
        let per_item = |x: f64| (self.items > 0).then(|| x / self.items as f64);
        AccuracyFigures {
            items: self.items,
            correct: self.credit,
            accuracy: per_item(self.credit),
            normalized: (self.normalized_items > 0)
                .then(|| self.normalized_sum / self.normalized_items as f64),
            invalid_share: per_item(self.invalid as f64),
        }
    }
}
