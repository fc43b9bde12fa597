//! The bootstrap's replay of the SPEC §2–§4 figures every profile reports: accuracy, normalized,
//! invalid share, the macro means over groups, outside mass, and the calibration figures under
//! conditioning and mixing.
//!
//! Per item it keeps the `Outcome`, the group index, the outside mass and the two
//! `CalibrationPart`s (about 120 bytes), and folds them into the same accumulators the scorer uses
//! (`Accuracy`, `OutsideMass`, `Calibration`). Calibration parts are replayed in ascending
//! confidence, so the equal-mass binning's sort meets already sorted values.

use super::accuracy::Accuracy;
use super::bootstrap::Replay;
use super::calibration::{Calibration, CalibrationFigures, CalibrationPart, OutsideMass};
use super::groups::NO_GROUP;
use super::outcome::{outcome, Outcome};
use crate::items::{Item, Mode};
use std::collections::HashMap;

/// The figures, by report path, with how to read each off the finished accumulators.
const NAMES: [&str; 16] = [
    "metrics.accuracy",
    "metrics.normalized",
    "metrics.invalid_share",
    "metrics.macro_accuracy",
    "metrics.macro_normalized",
    "metrics.outside_mass",
    "conditioning.ece",
    "conditioning.ece_em",
    "conditioning.brier",
    "conditioning.epa",
    "conditioning.nll",
    "mixing.ece",
    "mixing.ece_em",
    "mixing.brier",
    "mixing.epa",
    "mixing.nll",
];

/// One mode's calibration parts, tagged with their item.
#[derive(Debug, Clone)]
struct Track {
    template: Calibration,
    parts: Vec<(u32, CalibrationPart)>,
}

/// Compact records for the general figures.
#[derive(Debug, Clone)]
pub struct SummaryReplay {
    outcomes: Vec<Outcome>,
    groups: Vec<u32>,
    group_index: HashMap<String, u32>,
    /// Group indices in name order (the order `Groups` averages them in).
    group_order: Vec<u32>,
    outside: Vec<(u32, f64)>,
    tracks: [Track; 2],
}

impl Default for SummaryReplay {
    fn default() -> Self {
        let track = |mode| Track {
            template: Calibration::new(mode),
            parts: Vec::new(),
        };
        SummaryReplay {
            outcomes: Vec::new(),
            groups: Vec::new(),
            group_index: HashMap::new(),
            group_order: Vec::new(),
            outside: Vec::new(),
            tracks: [track(Mode::Conditioning), track(Mode::Mixing)],
        }
    }
}

impl Replay for SummaryReplay {
    fn push(&mut self, item: &Item) {
        let i = self.outcomes.len() as u32;
        self.outcomes.push(outcome(item));
        let name = item.group.as_deref().unwrap_or(NO_GROUP);
        let next = self.group_index.len() as u32;
        let g = match self.group_index.get(name) {
            Some(&g) => g,
            None => *self.group_index.entry(name.to_string()).or_insert(next),
        };
        self.groups.push(g);
        if let Some(m) = item
            .as_option()
            .and_then(|o| o.probs.as_ref())
            .and_then(|p| p.outside)
        {
            self.outside.push((i, m));
        }
        for t in &mut self.tracks {
            if let Some(p) = t.template.part(item) {
                t.parts.push((i, p));
            }
        }
    }

    fn seal(&mut self, _report: &crate::report::Report) {
        let mut names: Vec<(&String, &u32)> = self.group_index.iter().collect();
        names.sort();
        self.group_order = names.into_iter().map(|(_, &g)| g).collect();
        for t in &mut self.tracks {
            t.parts.sort_by(|a, b| {
                a.1.confidence
                    .total_cmp(&b.1.confidence)
                    .then(a.0.cmp(&b.0))
            });
        }
    }

    fn names(&self) -> Vec<String> {
        NAMES.iter().map(|n| n.to_string()).collect()
    }

    fn figures(&self, weights: &[u32], out: &mut Vec<Option<f64>>) {
        let w = |i: u32| weights.get(i as usize).copied().unwrap_or(0);
        let mut overall = Accuracy::default();
        let mut groups = vec![Accuracy::default(); self.group_index.len()];
        for (i, (o, &g)) in self.outcomes.iter().zip(&self.groups).enumerate() {
            let times = w(i as u32);
            if times == 0 {
                continue;
            }
            let group = groups.get_mut(g as usize);
            for _ in 0..times {
                overall.add(o);
            }
            if let Some(acc) = group {
                for _ in 0..times {
                    acc.add(o);
                }
            }
        }
        let mut outside = OutsideMass::default();
        for &(i, m) in &self.outside {
            for _ in 0..w(i) {
                outside.add(m);
            }
        }
        let f = overall.finish();
        let per_group: Vec<_> = self
            .group_order
            .iter()
            .filter_map(|&g| groups.get(g as usize))
            .map(Accuracy::finish)
            .collect();
        out.extend([
            f.accuracy,
            f.normalized,
            f.invalid_share,
            mean(per_group.iter().filter_map(|g| g.accuracy)),
            mean(per_group.iter().filter_map(|g| g.normalized)),
            outside.finish(),
        ]);
        for t in &self.tracks {
            let mut cal = t.template.clone();
            for (i, p) in &t.parts {
                for _ in 0..w(*i) {
                    cal.add(p);
                }
            }
            let c: CalibrationFigures = cal.finish();
            out.extend([c.ece, c.ece_em, c.brier, c.epa, c.nll]);
        }
    }
}

/// The mean of the values summed left to right, as `Groups::macro_figures` takes it.
fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}
