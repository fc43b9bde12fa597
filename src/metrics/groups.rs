//! Per-group accuracy and the macro averages over groups (SPEC §3: items without a group form `(none)`).

use super::accuracy::{Accuracy, AccuracyFigures};
use super::outcome::Outcome;
use std::collections::BTreeMap;

/// The group name given to items that carry none.
pub const NO_GROUP: &str = "(none)";

/// Accuracy state per group name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Groups {
    by_name: BTreeMap<String, Accuracy>,
}

impl Groups {
    /// Adds a judged item to its group.
    pub fn add(&mut self, group: Option<&str>, o: &Outcome) {
        let name = group.unwrap_or(NO_GROUP);
        match self.by_name.get_mut(name) {
            Some(acc) => acc.add(o),
            None => {
                let mut acc = Accuracy::default();
                acc.add(o);
                self.by_name.insert(name.to_string(), acc);
            }
        }
    }

    pub fn merge(&mut self, other: Self) {
        for (name, acc) in other.by_name {
            self.by_name.entry(name).or_default().merge(acc);
        }
    }

    /// Each group's figures, in name order.
    pub fn finish(&self) -> Vec<(String, AccuracyFigures)> {
        self.by_name
            .iter()
            .map(|(name, acc)| (name.clone(), acc.finish()))
            .collect()
    }

    /// Unweighted means over groups of accuracy and of normalized accuracy.
    pub fn macro_figures(&self) -> (Option<f64>, Option<f64>) {
        let figures: Vec<AccuracyFigures> = self.by_name.values().map(Accuracy::finish).collect();
        (
            mean(figures.iter().filter_map(|f| f.accuracy)),
            mean(figures.iter().filter_map(|f| f.normalized)),
        )
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}
