//! N runs joined on item id, and their paired resamples: every resample draws the shared items
//! once (stratified as the reference run's profile says) and weighs every run with that one draw.
//!
//! Everything here is in a canonical order, so that the same files named in any order, with their
//! lines in any order, give the same leaderboard byte for byte: runs by name (the first by name is
//! the reference run, whose strata, units and groups are used), shared items by id, units by
//! their first shared item, strata by name (those under `MIN_STRATUM` units pooled last), subsets
//! by name.

use super::subset_lanes::SubsetLanes;
use crate::compare::Run;
use crate::metrics::bootstrap::design::pool_small;
use crate::metrics::bootstrap::{BootstrapOptions, LaneBuf, Resampler};
use crate::metrics::lanes::{Lanes, Weights, LANES};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// Subset boards made when the caller names no limit: the largest subsets, the rest noted.
pub const MAX_SUBSETS: usize = 50;

/// The runs, joined: the items every run has, and the figures every run names.
#[derive(Debug)]
pub struct Joined<'r> {
    /// The runs by name.
    pub(super) runs: Vec<&'r Run>,
    /// Per run, per shared item (in id order), the item's index in that run.
    pub(super) index: Vec<Vec<usize>>,
    /// Per run, whether each of its items is shared.
    pub(super) shared: Vec<Vec<bool>>,
    /// Figures every run names: (name, its index in each run's list), in the reference run's order.
    pub(super) figures: Vec<(String, Vec<usize>)>,
    /// Per shared item, its subset (an index into `subsets`, `u32::MAX` for a subset without a
    /// board); empty with fewer than two subsets.
    pub(super) subset_of: Vec<u32>,
    /// The subsets with a board (the reference run's groups among the shared items), by name.
    pub(super) subsets: Vec<String>,
    /// Subsets the shared items have in all, with a board or not.
    pub(super) subsets_total: usize,
    /// Per shared item, its resampling unit (numbered by first shared item).
    pub(super) unit_of: Vec<u32>,
    /// The strata's units, as the resampler draws them.
    pub(super) strata: Vec<Vec<u32>>,
    /// Per run, the figures of its sample that some column needs (all when `None`).
    wanted: Option<Vec<Vec<bool>>>,
    /// The board asked for alone (`only`).
    pub(super) only: Option<String>,
    /// The subsets laid out for the blocks of lanes, made at the first block.
    subset_lanes: std::sync::OnceLock<SubsetLanes>,
}

/// Per resample of a range: every run's value of every figure and subset (`NaN` when undefined),
/// at `(resample × columns + column) × runs + run`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replicates {
    pub(super) values: Vec<f64>,
}

impl<'r> Joined<'r> {
    /// The runs joined, with boards for at most `MAX_SUBSETS` subsets.
    pub fn new(runs: &'r [Run]) -> Self {
        Joined::with_subsets(runs, MAX_SUBSETS)
    }

    /// The runs joined, with boards for the `max_subsets` largest subsets (ties by name).
    pub fn with_subsets(runs: &'r [Run], max_subsets: usize) -> Self {
        let mut runs: Vec<&Run> = runs.iter().collect();
        runs.sort_by(|a, b| a.name.cmp(&b.name));
        let first = runs.first().copied();
        // Each run's ids; a repeated id joins once, at its first place in that run.
        let map = |r: &&'r Run| -> FxHashMap<&'r str, usize> {
            let r: &'r Run = r;
            let mut m = FxHashMap::with_capacity_and_hasher(r.sample.len(), Default::default());
            for (i, id) in r.sample.ids().iter().enumerate() {
                m.entry(id).or_insert(i);
            }
            m
        };
        // Each run's map on every core natively (dozens of runs of thousands of ids).
        #[cfg(not(target_arch = "wasm32"))]
        let maps: Vec<FxHashMap<&str, usize>> = {
            use rayon::prelude::*;
            runs.par_iter().map(map).collect()
        };
        #[cfg(target_arch = "wasm32")]
        let maps: Vec<FxHashMap<&str, usize>> = runs.iter().map(map).collect();
        let mut ids: Vec<&str> = match maps.first() {
            Some(m) => m
                .keys()
                .copied()
                .filter(|id| maps.iter().all(|o| o.contains_key(id)))
                .collect(),
            None => Vec::new(),
        };
        ids.sort_unstable();
        let index: Vec<Vec<usize>> = maps
            .iter()
            .map(|m| ids.iter().filter_map(|id| m.get(id).copied()).collect())
            .collect();
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
        let index0 = index.first().map(Vec::as_slice).unwrap_or_default();
        let (subset_of, subsets, subsets_total) = match first {
            Some(r) => subsets(r, index0, max_subsets),
            None => (Vec::new(), Vec::new(), 0),
        };
        let (unit_of, strata) = match first {
            Some(r) => design(r, index0),
            None => (Vec::new(), Vec::new()),
        };
        Joined {
            runs,
            index,
            shared,
            figures,
            subset_of,
            subsets,
            subsets_total,
            unit_of,
            strata,
            wanted: None,
            only: None,
            subset_lanes: std::sync::OnceLock::new(),
        }
    }

    /// The runs joined for what one board needs (`--by`): the headline figure `figure` alone,
    /// or for `subsets.NAME.accuracy` the subsets (all of them: Holm's family is every subset's
    /// pairs); the other figures are neither ranked nor computed. `None` when no board has that
    /// name.
    pub fn only(mut self, figure: &str) -> Option<Self> {
        if let Some(k) = self.figures.iter().position(|(n, _)| n == figure) {
            let kept = self.figures.swap_remove(k);
            self.figures = vec![kept];
            self.subsets.clear();
            self.subset_of.clear();
        } else {
            let name = figure.strip_prefix("subsets.")?.strip_suffix(".accuracy")?;
            self.subsets.iter().position(|s| s == name)?;
            self.figures.clear();
        }
        let wanted = self
            .runs
            .iter()
            .enumerate()
            .map(|(r, run)| {
                let mut w = vec![false; run.sample.names().len()];
                for (_, at) in &self.figures {
                    if let Some(slot) = at.get(r).and_then(|&a| w.get_mut(a)) {
                        *slot = true;
                    }
                }
                w
            })
            .collect();
        self.wanted = Some(wanted);
        self.only = Some(figure.to_string());
        Some(self)
    }

    /// Every run's layout of its records for the blocks of lanes, made before the draws (on every
    /// core natively): each run's is made once, where threads drawing their first blocks at once
    /// would wait on each other's.
    pub fn prepare_lanes(&self) {
        let prepare = |(r, run): (usize, &&Run)| {
            let wanted = self
                .wanted
                .as_ref()
                .and_then(|w| w.get(r))
                .map(Vec::as_slice);
            run.sample.prepare_lanes(wanted);
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            use rayon::prelude::*;
            self.runs.par_iter().enumerate().for_each(prepare);
        }
        #[cfg(target_arch = "wasm32")]
        self.runs.iter().enumerate().for_each(prepare);
    }

    /// Every board's name: the headline figures, then `subsets.NAME.accuracy`.
    pub fn board_names(&self) -> Vec<String> {
        self.figures
            .iter()
            .map(|(n, _)| n.clone())
            .chain(self.subsets.iter().map(|s| format!("subsets.{s}.accuracy")))
            .collect()
    }

    /// Items every run has.
    pub fn common(&self) -> usize {
        self.index.first().map_or(0, Vec::len)
    }

    /// Figures and subsets: the columns of a replicate.
    pub(super) fn columns(&self) -> usize {
        self.figures.len() + self.subsets.len()
    }

    /// Whether the reference run's items are in clusters the user named: then its units are
    /// clusters, and McNemar's test (of independent items) gives way to the clustered z-test.
    pub(super) fn clustered(&self) -> bool {
        self.clusters().is_some()
    }

    /// The reference run's clusters among the shared items (`compare::clusters`' rule).
    pub(super) fn clusters(&self) -> Option<crate::compare::Clusters> {
        let first = self.runs.first()?;
        crate::compare::clusters(
            first.sample.clustering(),
            self.units(),
            self.common() as u64,
        )
    }

    /// Resampling units among the shared items.
    pub(super) fn units(&self) -> usize {
        self.strata.iter().map(Vec::len).sum()
    }

    /// Every run's figures and subset accuracies with shared unit u counted `counts[u]` times,
    /// appended to `out` column by column.
    fn evaluate(&self, counts: &[u32], of: Range<usize>, buf: &mut Buffers, cols: &mut [f64]) {
        let n = self.runs.len();
        buf.shared_w.clear();
        buf.shared_w.extend(
            self.unit_of
                .iter()
                .map(|&u| counts.get(u as usize).copied().unwrap_or(0)),
        );
        for (r, run) in self.runs.iter().enumerate().take(of.end).skip(of.start) {
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
                if let Some((sum, count)) = buf.sums.get_mut(g as usize) {
                    let c = credits.get(j).copied().unwrap_or(0.0);
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
        let mut out = vec![f64::NAN; self.columns() * self.runs.len()];
        let all = 0..self.runs.len();
        self.evaluate(
            &vec![1; self.units()],
            all,
            &mut Buffers::default(),
            &mut out,
        );
        out
    }

    /// Every run's values in paired resamples `range` (of `opts.resamples`), drawn `LANES` at a
    /// time: one pass over a run's records serves the whole block (`Sample::figures_lanes`).
    pub fn draws(&self, opts: &BootstrapOptions, range: Range<u32>) -> Replicates {
        let mut r = Replicates::default();
        self.draws_into(opts, range, 0..self.runs.len(), &mut r);
        r
    }

    /// `draws` of runs `of` alone (indices in the runs' order by name), written into `into`:
    /// empty, or the replicates of the same `range` that other runs' draws filled. Each
    /// resample's draw is the same whichever runs it weighs, so runs drawn apart give `draws`'
    /// values; a caller can then hold one run's lanes at a time (`release_lanes`).
    pub fn draws_into(
        &self,
        opts: &BootstrapOptions,
        range: Range<u32>,
        of: Range<usize>,
        into: &mut Replicates,
    ) {
        if self.common() == 0 {
            return;
        }
        let per = self.columns() * self.runs.len();
        let size = range.len() * per;
        if into.values.len() != size {
            into.values = vec![f64::NAN; size];
        }
        let mut draws = Resampler::new(self.strata.clone(), self.units(), opts.seed);
        let mut buf = Buffers::default();
        let mut b = range.start;
        while b < range.end {
            let used = (range.end - b).min(LANES as u32) as usize;
            let at = (b - range.start) as usize * per;
            let Some(block) = into.values.get_mut(at..at + used * per) else {
                return;
            };
            buf.shared.clear();
            buf.shared.resize(self.unit_of.len(), [0; LANES]);
            let mut fits = true;
            for k in 0..used {
                let counts = draws.draw(b + k as u32);
                for (w, &u) in buf.shared.iter_mut().zip(&self.unit_of) {
                    let c = counts.get(u as usize).copied().unwrap_or(0);
                    fits &= c <= u32::from(u16::MAX);
                    if let Some(slot) = w.get_mut(k) {
                        *slot = c as u16;
                    }
                }
            }
            if fits {
                self.evaluate_lanes(used, of.clone(), &mut buf, block);
            } else {
                // A unit drawn more than 65,535 times in one resample (a stratum of that many
                // units): those resamples are evaluated one by one, with whole counts.
                for (k, cols) in block.chunks_mut(per).enumerate() {
                    let counts = draws.draw(b + k as u32).to_vec();
                    self.evaluate(&counts, of.clone(), &mut buf, cols);
                }
            }
            b += used as u32;
        }
    }

    /// Lets go of runs `of`'s layouts for the blocks of lanes (`Sample::release_lanes`).
    pub fn release_lanes(&self, of: Range<usize>) {
        for run in self.runs.iter().take(of.end).skip(of.start) {
            run.sample.release_lanes();
        }
    }

    /// The runs (indices in their order by name) in turns of at most `items` items, at least
    /// one run a turn, for `draws_into`.
    pub fn turns(&self, items: usize) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let (mut from, mut sum) = (0usize, 0usize);
        for (r, run) in self.runs.iter().enumerate() {
            let n = run.sample.len();
            if r > from && sum + n > items {
                out.push(from..r);
                (from, sum) = (r, 0);
            }
            sum += n;
        }
        if from < self.runs.len() {
            out.push(from..self.runs.len());
        }
        out
    }

    /// `evaluate` for the first `used` lanes of the block in `buf.shared`, resample by resample.
    fn evaluate_lanes(&self, used: usize, of: Range<usize>, buf: &mut Buffers, block: &mut [f64]) {
        let n = self.runs.len();
        let cols = self.columns();
        let subsets = self.subset_lanes.get_or_init(|| {
            let credits: Vec<Vec<f64>> = (0..n).map(|r| self.credits(r)).collect();
            SubsetLanes::new(&self.subset_of, self.subsets.len(), &credits)
        });
        // Each subset's count of draws is every run's: the runs share the draw.
        let counts = if self.subsets.is_empty() {
            Vec::new()
        } else {
            subsets.block(&buf.shared, &mut buf.by_subset)
        };
        for (r, run) in self.runs.iter().enumerate().take(of.end).skip(of.start) {
            let idx = self.index.get(r).map(Vec::as_slice).unwrap_or_default();
            buf.lanes.clear();
            buf.lanes.resize(run.sample.len(), [0; LANES]);
            for (&j, w) in idx.iter().zip(&buf.shared) {
                if let Some(slot) = buf.lanes.get_mut(j) {
                    *slot = *w;
                }
            }
            let wanted = self
                .wanted
                .as_ref()
                .and_then(|w| w.get(r))
                .map(Vec::as_slice);
            run.sample
                .figures_lanes_of(&buf.lanes, wanted, &mut buf.figures, &mut buf.lane_buf);
            let names = buf.figures.len() / LANES;
            for k in 0..used {
                for (c, (_, at)) in self.figures.iter().enumerate() {
                    let v = at
                        .get(r)
                        .and_then(|&a| buf.figures.get(k * names + a).copied().flatten());
                    if let Some(slot) = block.get_mut((k * cols + c) * n + r) {
                        *slot = v.unwrap_or(f64::NAN);
                    }
                }
            }
            if self.subsets.is_empty() {
                continue;
            }
            subsets.sums(r, &buf.by_subset, &mut buf.subset_sums);
            for (g, (sum, count)) in buf.subset_sums.iter().zip(&counts).enumerate() {
                for k in 0..used {
                    let v = if count[k] > 0 {
                        sum[k] / f64::from(count[k])
                    } else {
                        f64::NAN
                    };
                    let c = self.figures.len() + g;
                    if let Some(slot) = block.get_mut((k * cols + c) * n + r) {
                        *slot = v;
                    }
                }
            }
        }
    }

    /// Per shared item, the values of figure `k` (an index into `figures`) for run `r`, as
    /// `Replay::item_values` gives them; `None` when the figure is not a mean of item values.
    pub(super) fn item_values(&self, k: usize, r: usize) -> Option<Vec<f64>> {
        let run = self.runs.get(r)?;
        let at = *self.figures.get(k)?.1.get(r)?;
        let mut all = Vec::new();
        if !run.sample.item_values(at, &mut all) {
            return None;
        }
        let idx = self.index.get(r)?;
        Some(
            idx.iter()
                .map(|&j| all.get(j).copied().unwrap_or(f64::NAN))
                .collect(),
        )
    }

    /// Per shared item, run `r`'s SPEC §3 credit.
    pub(super) fn credits(&self, r: usize) -> Vec<f64> {
        let (Some(run), Some(idx)) = (self.runs.get(r), self.index.get(r)) else {
            return Vec::new();
        };
        let c = run.sample.credits();
        idx.iter()
            .map(|&j| c.get(j).copied().unwrap_or(f64::NAN))
            .collect()
    }
}

/// The reference run's resampling design over the shared items `index0` (in id order): each
/// item's unit, units numbered by their first shared item; the strata by name, each a list of its
/// units, those under `MIN_STRATUM` units pooled into one placed last.
fn design(first: &Run, index0: &[usize]) -> (Vec<u32>, Vec<Vec<u32>>) {
    let d = first.sample.design();
    let names = d.stratum_names();
    let mut renumber: FxHashMap<u32, u32> = FxHashMap::default();
    let mut unit_of = Vec::with_capacity(index0.len());
    let mut stratum_of_unit: Vec<u32> = Vec::new();
    for &i in index0 {
        let own = d.unit_of(i).unwrap_or(0);
        let next = renumber.len() as u32;
        let u = *renumber.entry(own).or_insert(next);
        if u == next {
            stratum_of_unit.push(d.stratum_of(own).unwrap_or(0));
        }
        unit_of.push(u);
    }
    let mut by_name: Vec<(&str, Vec<u32>)> = Vec::new();
    let mut place: FxHashMap<u32, usize> = FxHashMap::default();
    for (u, &s) in stratum_of_unit.iter().enumerate() {
        let k = *place.entry(s).or_insert_with(|| {
            by_name.push((names.get(s as usize).copied().unwrap_or(""), Vec::new()));
            by_name.len() - 1
        });
        if let Some((_, units)) = by_name.get_mut(k) {
            units.push(u as u32);
        }
    }
    by_name.sort_by(|a, b| a.0.cmp(b.0));
    (unit_of, pool_small(by_name.into_iter().map(|(_, u)| u)))
}

/// The reference run's groups among the shared items, when there are at least two: per shared
/// item its subset (`u32::MAX` when its subset has no board), the `max` largest subsets by name,
/// and how many subsets there are in all.
fn subsets(first: &Run, index0: &[usize], max: usize) -> (Vec<u32>, Vec<String>, usize) {
    let names = first.sample.group_names();
    let groups = first.sample.groups();
    let mut sizes: FxHashMap<u32, u64> = FxHashMap::default();
    for &i in index0 {
        if let Some(&g) = groups.get(i) {
            *sizes.entry(g).or_default() += 1;
        }
    }
    let total = sizes.len();
    if total < 2 {
        return (Vec::new(), Vec::new(), total);
    }
    let name = |g: u32| names.get(g as usize).map_or("", |s| &**s);
    let mut used: Vec<(u32, u64)> = sizes.into_iter().collect();
    // Largest first, ties by name; the boards are then in name order.
    used.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| name(a.0).cmp(name(b.0))));
    used.truncate(max);
    used.sort_by(|a, b| name(a.0).cmp(name(b.0)));
    let mut place = vec![u32::MAX; names.len()];
    for (k, &(g, _)) in used.iter().enumerate() {
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
                .unwrap_or(u32::MAX)
        })
        .collect();
    (
        subset_of,
        used.into_iter().map(|(g, _)| name(g).to_string()).collect(),
        total,
    )
}

/// Scratch space reused across resamples.
#[derive(Debug, Default)]
struct Buffers {
    shared_w: Vec<u32>,
    weights: Vec<u32>,
    figures: Vec<Option<f64>>,
    sums: Vec<(f64, u64)>,
    /// A block's weights per shared item, and per item of the run at hand.
    shared: Vec<Weights>,
    lanes: Vec<Weights>,
    lane_buf: LaneBuf,
    /// A block's weights in subset order, and one run's sums per subset.
    by_subset: Vec<Weights>,
    subset_sums: Vec<Lanes>,
}
