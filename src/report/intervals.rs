//! The report's `intervals` key: how sure each figure is.
//!
//! `wilson` is always there: a 95% Wilson interval for every accuracy the report holds (overall,
//! per group, per I/C tier, per RewardBench subset, multi-select exact-set), from its counts.
//! `bootstrap` is there when the caller asked for it (`--bootstrap`): a seeded percentile interval
//! for every headline figure, with the seed and the number of resamples. The reliability bins carry
//! their own Wilson (`ci_lo`/`ci_hi`) and Clopper–Pearson (`cp_lo`/`cp_hi`) intervals.
//!
//! Keys are report paths, e.g. `metrics.accuracy`, `conditioning.ece`, `ic.types.choice.cc`,
//! `rewardbench.sections.Chat Hard`, `groups.<name>.accuracy`.

use super::Report;
pub use crate::metrics::bootstrap::{BootstrapIntervals, FigureInterval};
use crate::metrics::ic::figures::{ScopeFigures, TypeFigures};
use crate::metrics::ordered::Ordered;
use crate::metrics::stats::{wilson, Z95};
use serde::{Deserialize, Serialize};

/// Every interval of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Intervals {
    /// Two-sided level of every interval (0.95).
    pub level: f64,
    /// Wilson score intervals of the accuracies, from their counts.
    pub wilson: Ordered<Interval>,
    /// Percentile bootstrap intervals of the headline figures; null unless asked for.
    pub bootstrap: Option<BootstrapIntervals>,
    /// Standard errors that count clusters, and the planning figures; there only when the user
    /// named a cluster rule (`--cluster`), so that other reports are as they were.
    /// The page never reads it (the worker lays out what it shows, `report::planning`), so that the
    /// page carries no deserialiser for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ui", serde(skip_deserializing))]
    pub clustered: Option<super::clustered::Clustered>,
}

impl Default for Intervals {
    fn default() -> Self {
        Intervals {
            level: 0.95,
            wilson: Ordered::default(),
            bootstrap: None,
            clustered: None,
        }
    }
}

/// A closed interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Intervals {
    /// The bootstrap interval of a figure, by report path.
    pub fn bootstrap(&self, path: &str) -> Option<&FigureInterval> {
        self.bootstrap.as_ref()?.figures.get(path)
    }
}

/// The Wilson intervals of every accuracy in the report.
pub fn wilson_intervals(r: &Report) -> Ordered<Interval> {
    let mut out = Vec::new();
    let mut add = |name: String, successes: f64, n: u64| {
        if let Some((lo, hi)) = wilson(successes, n, Z95) {
            out.push((name, Interval { lo, hi }));
        }
    };
    if r.metrics.accuracy.is_some() {
        let correct: f64 = r.groups.iter().map(|g| g.correct).sum();
        let items: u64 = r.groups.iter().map(|g| g.items).sum();
        add("metrics.accuracy".to_string(), correct, items);
    }
    for g in &r.groups {
        add(format!("groups.{}.accuracy", g.name), g.correct, g.items);
    }
    if let Some(ic) = &r.ic {
        ic_tiers("ic", &ic.overall, &mut add);
        for (scope, f) in [("text", &ic.scopes.text), ("image", &ic.scopes.image)] {
            if let Some(f) = f {
                ic_tiers(&format!("ic.scopes.{scope}"), f, &mut add);
            }
        }
    }
    if let Some(m) = &r.multi {
        let n = m.overall.items;
        add(
            "multi.exact_set_accuracy".to_string(),
            m.overall.exact_set_accuracy * n as f64,
            n,
        );
    }
    if let Some(rb) = &r.rewardbench {
        for s in &rb.subset_details {
            if let Some(credit) = s.credit {
                add(format!("rewardbench.subsets.{}", s.name), credit, s.items);
            }
        }
    }
    Ordered(out)
}

/// Tier accuracies of the choice and binary types of one I/C scope.
fn ic_tiers(prefix: &str, f: &ScopeFigures, add: &mut impl FnMut(String, f64, u64)) {
    let types: [(&str, &Option<TypeFigures>); 2] =
        [("choice", &f.types.choice), ("binary", &f.types.binary)];
    for (kind, t) in types {
        let Some(t) = t else { continue };
        for (tier, figures) in t.tiers.present() {
            if let Some(acc) = figures.accuracy {
                let n = figures.items;
                let name = format!("{prefix}.types.{kind}.tiers.{tier}.accuracy");
                add(name, acc * n as f64, n);
            }
        }
    }
}
