//! N runs joined on item id, and their paired resamples: every resample draws the shared items
//! once (stratified as the first run's profile says) and weighs every run with that one draw.

use crate::compare::Run;
use crate::metrics::bootstrap::{BootstrapOptions, Resampler};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// The runs, joined: the items every run has, and the figures every run names.
#[derive(Debug)]
pub struct Joined<'r> {
    pub(super) runs: &'r [Run],
    /// Per run, per shared item (in the first run's order), the item's index in that run.
    pub(super) index: Vec<Vec<usize>>,
    /// Per run, whether each of its items is shared.
    pub(super) shared: Vec<Vec<bool>>,
    /// Figures every run names: (name, its index in each run's list).
    pub(super) figures: Vec<(String, Vec<usize>)>,
    /// Per shared item, its subset (an index into `subsets`); empty with fewer than two subsets.
    pub(super) subset_of: Vec<u32>,
    /// The subsets (the first run's groups among the shared items), in name order.
    pub(super) subsets: Vec<String>,
    /// The first run's resampling strata over the shared items.
    pub(super) strata: Vec<Vec<u32>>,
}

/// Per resample of a range: every run's value of every figure and subset (`NaN` when undefined),
/// at `(resample × columns + column) × runs + run`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replicates {
    pub(super) values: Vec<f64>,
}

impl<'r> Joined<'r> {
    pub fn new(runs: &'r [Run]) -> Self {
        let first = runs.first();
        let ids_of = |r: &'r Run| -> HashMap<&'r str, usize> {
            let mut m = HashMap::with_capacity(r.sample.len());
            for (i, id) in r.sample.ids().iter().enumerate() {
                m.entry(&**id).or_insert(i);
            }
            m
        };
        let maps: Vec<HashMap<&str, usize>> = runs.iter().map(ids_of).collect();
        let mut index = vec![Vec::new(); runs.len()];
        let mut taken = HashSet::new();
        for (i, id) in first
            .map(|r| r.sample.ids())
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let found: Option<Vec<usize>> = maps.iter().map(|m| m.get(&**id).copied()).collect();
            // A repeated id joins once, at its first place.
            if let (Some(found), true) = (found, taken.insert(&**id)) {
                if found.first() == Some(&i) {
                    for (list, j) in index.iter_mut().zip(found) {
                        list.push(j);
                    }
                }
            }
        }
        let shared: Vec<Vec<bool>> = runs
            .iter()
            .zip(&index)
            .map(|(r, list)| {
                let mut s = vec![false; r.sample.len()];
                for &j in list {
                    if let Some(x) = s.get_mut(j) {
                        *x = true;
                    }
                }
                s
            })
            .collect();
        let names: Vec<Vec<String>> = runs.iter().map(|r| r.sample.names()).collect();
        let figures = names
            .first()
            .map(|n| n.as_slice())
            .unwrap_or_default()
            .iter()
            .filter_map(|n| {
                let at: Option<Vec<usize>> = names
                    .iter()
                    .map(|list| list.iter().position(|m| m == n))
                    .collect();
                Some((n.clone(), at?))
            })
            .collect();
        let (subset_of, subsets) = match (first, index.first()) {
            (Some(r), Some(list)) => subsets(r, list),
            _ => (Vec::new(), Vec::new()),
        };
        let strata = match (first, shared.first()) {
            (Some(r), Some(keep)) => r
                .sample
                .design()
                .strata_units(|i| keep.get(i).copied().unwrap_or(false)),
            _ => Vec::new(),
        };
        Joined {
            runs,
            index,
            shared,
            figures,
            subset_of,
            subsets,
            strata,
        }
    }

    /// Items every run has.
    pub fn common(&self) -> usize {
        self.index.first().map_or(0, Vec::len)
    }

    /// Figures and subsets: the columns of a replicate.
    pub(super) fn columns(&self) -> usize {
        self.figures.len() + self.subsets.len()
    }

    /// Every run's figures and subset accuracies with shared item s of the first run's units
    /// counted `counts[unit]` times, appended to `out` column by column.
    fn evaluate(&self, counts: &[u32], buf: &mut Buffers, out: &mut Vec<f64>) {
        let n = self.runs.len();
        let start = out.len();
        out.resize(start + self.columns() * n, f64::NAN);
        let Some(first) = self.runs.first() else {
            return;
        };
        let design = first.sample.design();
        let index0 = self.index.first().map(Vec::as_slice).unwrap_or_default();
        buf.shared_w.clear();
        buf.shared_w.extend(index0.iter().map(|&i| {
            design
                .unit_of(i)
                .and_then(|u| counts.get(u as usize).copied())
                .unwrap_or(0)
        }));
        let cols = &mut out[start..];
        for (r, run) in self.runs.iter().enumerate() {
            let idx = self.index.get(r).map(Vec::as_slice).unwrap_or_default();
            buf.weights.clear();
            buf.weights.resize(run.sample.len(), 0);
            for (&j, &w) in idx.iter().zip(&buf.shared_w) {
                if let Some(slot) = buf.weights.get_mut(j) {
                    *slot = w;
                }
            }
            run.sample.figures(&buf.weights, &mut buf.figures);
            for (k, (_, at)) in self.figures.iter().enumerate() {
                let v = at
                    .get(r)
                    .and_then(|&a| buf.figures.get(a).copied().flatten());
                if let Some(slot) = cols.get_mut(k * n + r) {
                    *slot = v.unwrap_or(f64::NAN);
                }
            }
            if self.subsets.is_empty() {
                continue;
            }
            buf.sums.clear();
            buf.sums.resize(self.subsets.len(), (0.0, 0));
            let credits = run.sample.credits();
            for ((&j, &w), &g) in idx.iter().zip(&buf.shared_w).zip(&self.subset_of) {
                let c = credits.get(j).copied().unwrap_or(0.0);
                if let Some((sum, count)) = buf.sums.get_mut(g as usize) {
                    *sum += f64::from(w) * c;
                    *count += u64::from(w);
                }
            }
            for (g, &(sum, count)) in buf.sums.iter().enumerate() {
                let v = if count > 0 {
                    sum / count as f64
                } else {
                    f64::NAN
                };
                if let Some(slot) = cols.get_mut((self.figures.len() + g) * n + r) {
                    *slot = v;
                }
            }
        }
    }

    /// The point estimates: every shared item once.
    pub(super) fn point(&self) -> Vec<f64> {
        let units = self.runs.first().map_or(0, |r| r.sample.design().units());
        let mut out = Vec::new();
        self.evaluate(&vec![1; units], &mut Buffers::default(), &mut out);
        out
    }

    /// Every run's values in paired resamples `range` (of `opts.resamples`).
    pub fn draws(&self, opts: &BootstrapOptions, range: Range<u32>) -> Replicates {
        let mut values = Vec::new();
        let Some(first) = self.runs.first() else {
            return Replicates { values };
        };
        if self.common() == 0 {
            return Replicates { values };
        }
        let mut draws = Resampler::new(
            self.strata.clone(),
            first.sample.design().units(),
            opts.seed,
        );
        let mut buf = Buffers::default();
        for b in range {
            self.evaluate(draws.draw(b), &mut buf, &mut values);
        }
        Replicates { values }
    }
}

/// The first run's groups among the shared items, when there are at least two.
fn subsets(first: &Run, index0: &[usize]) -> (Vec<u32>, Vec<String>) {
    let names = first.sample.group_names();
    let groups = first.sample.groups();
    let mut used: Vec<u32> = index0
        .iter()
        .filter_map(|&i| groups.get(i).copied())
        .collect::<HashSet<u32>>()
        .into_iter()
        .collect();
    if used.len() < 2 {
        return (Vec::new(), Vec::new());
    }
    let name = |g: u32| names.get(g as usize).map_or("", String::as_str);
    used.sort_by(|&a, &b| name(a).cmp(name(b)));
    let mut place = vec![0u32; names.len()];
    for (k, &g) in used.iter().enumerate() {
        if let Some(p) = place.get_mut(g as usize) {
            *p = k as u32;
        }
    }
    let subset_of = index0
        .iter()
        .map(|&i| {
            groups
                .get(i)
                .and_then(|&g| place.get(g as usize).copied())
                .unwrap_or(0)
        })
        .collect();
    (
        subset_of,
        used.into_iter().map(|g| name(g).to_string()).collect(),
    )
}

/// Scratch space reused across resamples.
#[derive(Debug, Default)]
struct Buffers {
    shared_w: Vec<u32>,
    weights: Vec<u32>,
    figures: Vec<Option<f64>>,
    sums: Vec<(f64, u64)>,
}
