//! The seeded percentile bootstrap: how sure each headline figure is.
//!
//! A run keeps a `Sample`: per item, a compact record of what it adds to each accumulator (a
//! `Replay` per figure family), plus its stratum and resampling unit. One resample draws, within
//! each stratum, as many units as the stratum holds, with replacement; every item then counts as
//! often as its unit was drawn, and each `Replay` folds its records that many times into fresh
//! accumulators and finishes them with their own code. Nothing is re-read or re-parsed, so 2000
//! resamples of 100k items take seconds, and the figures are those of the point estimate by
//! construction (all weights 1 gives the report's own numbers).
//!
//! The draws come from `SplitMix64` in integer arithmetic, strata and units are numbered in the
//! order items arrive, so one seed gives the same intervals natively and in wasm32.

pub(crate) mod design;
pub(crate) mod ic;
mod ids;
mod intervals;
mod rng;
pub(crate) mod summary;

use super::groups::NO_GROUP;
use super::lanes::{self, Weights, LANES};
use super::ordered::Ordered;
use super::outcome::outcome;
use crate::items::Item;
pub use design::{ClusterBy, ClusterOf, Design, Resampler, Strata, MIN_STRATUM};
pub use ids::Ids;
pub use intervals::{BootstrapIntervals, FigureInterval};
pub use rng::SplitMix64;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;
use std::ops::Range;

/// Resamples when the caller gives no number.
pub const DEFAULT_RESAMPLES: u32 = 2000;
/// Seed when the caller gives none.
pub const DEFAULT_SEED: u64 = 2024;
/// Two-sided level of every interval.
pub const LEVEL: f64 = 0.95;

/// How many resamples, from which seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BootstrapOptions {
    pub resamples: u32,
    pub seed: u64,
}

impl Default for BootstrapOptions {
    fn default() -> Self {
        BootstrapOptions {
            resamples: DEFAULT_RESAMPLES,
            seed: DEFAULT_SEED,
        }
    }
}

/// One family of figures, recomputed from compact per-item records under resampling weights.
pub trait Replay: fmt::Debug + Send + Sync {
    /// Records one scored item (as the profile admitted and rewrote it), in scoring order.
    fn push(&mut self, item: &Item);
    /// `push` from a sample that numbered the item's group already (in arrival order, `(none)`
    /// for an item without one): a replay that groups items takes the number instead of keeping
    /// a table of names of its own.
    fn push_in(&mut self, item: &Item, _group: u32) {
        self.push(item);
    }
    /// The sample's group names by number (what `push_in` gave numbers of), before `seal`.
    fn group_names(&mut self, _names: &[std::sync::Arc<str>]) {}
    /// Called once after the last item, with the point estimate (for structure such as which
    /// subsets a section holds, or figures that came from aggregate files rather than items).
    /// Its type is the profile's business (the report); a replay that needs it downcasts it.
    fn seal(&mut self, _point: &dyn Any) {}
    /// The figures' names, as report paths (`metrics.accuracy`, `conditioning.ece`, ...).
    fn names(&self) -> Vec<String>;
    /// Appends the figures, one per name, with item i counted `weights[i]` times.
    fn figures(&self, weights: &[u32], out: &mut Vec<Option<f64>>);
    /// For a figure (an index into `names`) that is the mean of one value per item over the items
    /// it counts (accuracy, Brier, ...): each item's value, in push order, written to `out`, `NaN`
    /// where the item is not counted. `false` for figures that are not such means (ECE, macro
    /// means, I, C, sections). Paired tests of means use it in place of the bootstrap.
    fn item_values(&self, _figure: usize, _out: &mut Vec<f64>) -> bool {
        false
    }
    /// `figures` for `LANES` resamples at once, item i counted `weights[i][k]` times in lane k:
    /// appends lane 0's figures, then lane 1's, and so on. The default takes each lane in turn.
    fn figures_lanes(&self, weights: &[Weights], out: &mut Vec<Option<f64>>) {
        lanes::each_lane(weights, out, |w, out| self.figures(w, out));
    }
    /// Makes now what the first block of lanes would make (a layout of the records for them), so
    /// that a caller with many runs can make every run's on all cores before drawing.
    fn prepare_lanes(&self) {}
    /// Lets go of what `prepare_lanes` (or the first block) made, once no more blocks are drawn:
    /// a run of 200,000 items holds some 14 MB of it.
    fn release_lanes(&self) {}
    /// `figures_lanes` where only the figures `wanted` marks (by index into `names`; all when
    /// `None`) must be right: a replay may leave the others `None` to save their passes.
    fn figures_lanes_of(
        &self,
        weights: &[Weights],
        _wanted: Option<&[bool]>,
        out: &mut Vec<Option<f64>>,
    ) {
        self.figures_lanes(weights, out);
    }
}

/// Whether a replay whose figures are `n` from `start` (indices into the sample's `names`)
/// holds one that `wanted` marks (every figure is wanted when `None`).
fn needed(wanted: Option<&[bool]>, start: usize, n: usize) -> bool {
    wanted.is_none_or(|w| w.iter().skip(start).take(n).any(|&x| x))
}

/// A run's compact per-item records, ready to resample.
#[derive(Debug)]
pub struct Sample {
    strata: Strata,
    cluster: Option<ClusterOf>,
    /// The user's clusters, which come before the profile's.
    cluster_by: ClusterBy,
    /// Items the user's rule put in a named cluster.
    user_clustered: u64,
    /// What the units are, for the report.
    units_are: &'static str,
    design: Design,
    ids: Ids,
    /// Each item's SPEC §3 credit (for McNemar's table).
    credit: Vec<f64>,
    /// Each item's group, as an index into `group_names` (for per-group leaderboards).
    group: Vec<u32>,
    /// Group names in the order they first arrive; `(none)` for items without a group.
    group_names: crate::metrics::names::Names,
    replays: Vec<Box<dyn Replay>>,
}

impl Sample {
    /// A sample whose figures come from `replays`; `units_are` says what a resampling unit is.
    pub fn new(
        strata: Strata,
        cluster: Option<ClusterOf>,
        units_are: &'static str,
        replays: Vec<Box<dyn Replay>>,
    ) -> Self {
        Sample {
            strata,
            cluster,
            cluster_by: ClusterBy::default(),
            user_clustered: 0,
            units_are,
            design: Design::default(),
            ids: Ids::default(),
            credit: Vec::new(),
            group: Vec::new(),
            group_names: crate::metrics::names::Names::default(),
            replays,
        }
    }

    /// The sample with the user's clusters (`--cluster`) in place of the file's own field.
    pub fn cluster_by(mut self, by: ClusterBy) -> Self {
        self.cluster_by = by;
        self
    }

    /// Records one scored item.
    pub fn push(&mut self, item: &Item) {
        let own = self.cluster_by.key(item);
        let profile = match own {
            Some(_) => None,
            None => self.cluster.and_then(|f| f(item)),
        };
        self.user_clustered += u64::from(own.is_some());
        let strata = self.strata;
        self.design.push_shared(
            &strata.key(item),
            || strata.shared_key(item),
            own.or(profile.as_deref()),
        );
        self.ids.push(item.id.as_str());
        self.credit.push(outcome(item).credit);
        let g = self.group_names.number_of(item.group.as_ref(), NO_GROUP);
        self.group.push(g);
        for r in &mut self.replays {
            r.push_in(item, g);
        }
    }

    /// Ends recording; the point estimate (the report) gives the replays their structure.
    pub fn seal(&mut self, point: &dyn Any) {
        for r in &mut self.replays {
            r.group_names(self.group_names.names());
            r.seal(point);
        }
        // Kept as long as the run is: the room the vectors grew beyond their items goes back
        // now (up to half of each), where the browser's worker, whose memory only grows, would
        // otherwise keep it for every run it holds.
        self.ids.shrink_to_fit();
        self.credit.shrink_to_fit();
        self.group.shrink_to_fit();
        self.design.shrink_to_fit();
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The item ids, in scoring order.
    pub fn ids(&self) -> &Ids {
        &self.ids
    }

    /// The items' credits, in scoring order.
    pub fn credits(&self) -> &[f64] {
        &self.credit
    }

    /// Each item's group, an index into `group_names`, in scoring order.
    pub fn groups(&self) -> &[u32] {
        &self.group
    }

    /// The group names, in the order they first arrived.
    pub fn group_names(&self) -> &[std::sync::Arc<str>] {
        self.group_names.names()
    }

    pub fn design(&self) -> &Design {
        &self.design
    }

    pub fn strata(&self) -> Strata {
        self.strata
    }

    pub fn units_are(&self) -> &'static str {
        self.units_are
    }

    /// The user's cluster rule, and how many items it put in a named cluster (0: none did, and
    /// every item is a unit of its own or of the profile's).
    pub fn clustering(&self) -> (&ClusterBy, u64) {
        (&self.cluster_by, self.user_clustered)
    }

    /// Every figure's name, in the order of `figures`.
    pub fn names(&self) -> Vec<String> {
        self.replays.iter().flat_map(|r| r.names()).collect()
    }

    /// `Replay::item_values` of figure `k` (an index into `names`).
    pub fn item_values(&self, k: usize, out: &mut Vec<f64>) -> bool {
        let mut start = 0;
        for r in &self.replays {
            let n = r.names().len();
            if k < start + n {
                out.clear();
                return r.item_values(k - start, out);
            }
            start += n;
        }
        false
    }

    /// `figures` for `LANES` resamples at once (`Replay::figures_lanes`): lane 0's figures, then
    /// lane 1's, and so on, each in `names` order.
    pub fn figures_lanes(
        &self,
        weights: &[Weights],
        out: &mut Vec<Option<f64>>,
        buf: &mut LaneBuf,
    ) {
        self.figures_lanes_of(weights, None, out, buf);
    }

    /// Lets go of every replay's layout for the blocks of lanes (`prepare_lanes`), and of the
    /// scratch their passes keep on this thread; the next block makes them again.
    pub fn release_lanes(&self) {
        for r in &self.replays {
            r.release_lanes();
        }
    }

    /// `Replay::prepare_lanes` of the replays that hold a figure `wanted` marks (all when
    /// `None`), as `figures_lanes_of` would need them.
    pub fn prepare_lanes(&self, wanted: Option<&[bool]>) {
        let mut start = 0;
        for r in &self.replays {
            let n = r.names().len();
            if needed(wanted, start, n) {
                r.prepare_lanes();
            }
            start += n;
        }
    }

    /// `figures_lanes`, computing only the replays that hold a figure `wanted` marks (by index
    /// into `names`; all when `None`): the others' figures are `None`. Ranking one figure need
    /// not pay for the families it does not show.
    pub fn figures_lanes_of(
        &self,
        weights: &[Weights],
        wanted: Option<&[bool]>,
        out: &mut Vec<Option<f64>>,
        buf: &mut LaneBuf,
    ) {
        out.clear();
        buf.parts.resize_with(self.replays.len(), Vec::new);
        let mut start = 0;
        for (r, part) in self.replays.iter().zip(&mut buf.parts) {
            part.clear();
            let n = r.names().len();
            if needed(wanted, start, n) {
                let own = wanted.and_then(|w| w.get(start..start + n));
                r.figures_lanes_of(weights, own, part);
            } else {
                part.resize(n * LANES, None);
            }
            start += n;
        }
        for k in 0..LANES {
            for part in &buf.parts {
                let n = part.len() / LANES;
                out.extend(part.iter().skip(k * n).take(n));
            }
        }
    }

    /// Every figure with item i counted `weights[i]` times.
    pub fn figures(&self, weights: &[u32], out: &mut Vec<Option<f64>>) {
        out.clear();
        for r in &self.replays {
            r.figures(weights, out);
        }
    }

    /// Item weights from unit counts (items outside `keep` weigh 0).
    pub fn weights(&self, counts: &[u32], keep: impl Fn(usize) -> bool, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            (0..self.design.items()).map(|i| match self.design.unit_of(i) {
                Some(u) if keep(i) => counts.get(u as usize).copied().unwrap_or(0),
                _ => 0,
            }),
        );
    }

    /// Percentile intervals of every figure that has a point estimate.
    pub fn bootstrap(&self, opts: &BootstrapOptions) -> BootstrapIntervals {
        let draws = self.draws(opts, 0..opts.resamples);
        self.intervals(opts, vec![draws])
    }

    /// The figures of resamples `range` (of `opts.resamples`): per figure, its values in resample
    /// order and how often it was undefined. Ranges may be drawn apart (on threads, say) and
    /// joined by `intervals`, with the same result as one `bootstrap`.
    pub fn draws(&self, opts: &BootstrapOptions, range: Range<u32>) -> Draws {
        let names = self.names().len();
        let strata = self.design.strata_units(|_| true);
        let mut draws = Resampler::new(strata, self.design.units(), opts.seed);
        let mut values: Vec<Vec<f64>> = vec![Vec::new(); names];
        let mut undefined = vec![0u32; names];
        let (mut weights, mut out) = (Vec::new(), Vec::new());
        for b in range {
            let counts = draws.draw(b);
            self.weights(counts, |_| true, &mut weights);
            self.figures(&weights, &mut out);
            for (k, v) in out.iter().enumerate() {
                match (v, values.get_mut(k)) {
                    (Some(v), Some(list)) => list.push(*v),
                    _ => {
                        if let Some(u) = undefined.get_mut(k) {
                            *u += 1;
                        }
                    }
                }
            }
        }
        Draws { values, undefined }
    }

    /// The intervals from the draws of every resample (in resample order).
    pub fn intervals(&self, opts: &BootstrapOptions, parts: Vec<Draws>) -> BootstrapIntervals {
        let names = self.names();
        let mut point = Vec::new();
        self.figures(&vec![1; self.len()], &mut point);
        let strata = self.design.strata_units(|_| true);
        let strata_count = strata.len() as u64;
        let units = strata.iter().map(Vec::len).sum::<usize>() as u64;
        let mut values: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
        let mut undefined = vec![0u32; names.len()];
        for part in parts {
            for (k, list) in part.values.into_iter().enumerate() {
                if let Some(all) = values.get_mut(k) {
                    all.extend(list);
                }
            }
            for (k, u) in part.undefined.into_iter().enumerate() {
                if let Some(all) = undefined.get_mut(k) {
                    *all += u;
                }
            }
        }
        let mut figures = Vec::new();
        for (k, name) in names.into_iter().enumerate() {
            let Some(Some(estimate)) = point.get(k).copied() else {
                continue;
            };
            let list = values.get_mut(k).map(std::mem::take).unwrap_or_default();
            let undefined = undefined.get(k).copied().unwrap_or(0);
            if let Some(f) = interval(estimate, list, undefined) {
                figures.push((name, f));
            }
        }
        BootstrapIntervals {
            method: "percentile".to_string(),
            resamples: opts.resamples,
            seed: opts.seed,
            level: LEVEL,
            strata: self.strata.describe().to_string(),
            strata_count,
            units: self.units_are.to_string(),
            unit_count: units,
            figures: Ordered(figures),
        }
    }
}

/// Scratch space for `Sample::figures_lanes`: each replay's lanes before they are interleaved.
#[derive(Debug, Default)]
pub struct LaneBuf {
    parts: Vec<Vec<Option<f64>>>,
}

/// Resampled figures of a range of resamples (see `Sample::draws`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Draws {
    values: Vec<Vec<f64>>,
    undefined: Vec<u32>,
}

/// The percentile interval of a figure from its resampled values; `None` without values.
pub fn interval(estimate: f64, mut values: Vec<f64>, undefined: u32) -> Option<FigureInterval> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable_by(f64::total_cmp);
    let alpha = 1.0 - LEVEL;
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    Some(FigureInterval {
        estimate,
        lo: quantile(&values, alpha / 2.0),
        hi: quantile(&values, 1.0 - alpha / 2.0),
        se: var.sqrt(),
        undefined,
    })
}

/// The p-quantile of sorted values, interpolated linearly between order statistics (numpy's
/// default, Hyndman and Fan's type 7); `NaN`-free for non-empty input.
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let Some(&last) = sorted.last() else {
        return f64::NAN;
    };
    let h = (sorted.len() - 1) as f64 * p;
    let below = h.floor();
    let i = below as usize;
    let a = sorted.get(i).copied().unwrap_or(last);
    let b = sorted.get(i + 1).copied().unwrap_or(a);
    a + (h - below) * (b - a)
}

/// `quantile` of values in any order, by selection rather than a sort (O(n) where a sort is
/// O(n log n); the leaderboard takes two quantiles of each of its many pairs): the same order
/// statistics, so the same bits. Reorders `values`.
pub fn quantile_unsorted(values: &mut [f64], p: f64) -> f64 {
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * p;
    let below = h.floor();
    let i = (below as usize).min(n - 1);
    let (_, &mut a, above) = values.select_nth_unstable_by(i, f64::total_cmp);
    let b = above.iter().copied().min_by(f64::total_cmp).unwrap_or(a);
    a + (h - below) * (b - a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_gives_the_quantiles_of_the_sorted_values() {
        let mut v: Vec<f64> = (0..101).map(|i| ((i * 37) % 101) as f64 / 7.0).collect();
        let mut sorted = v.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        for p in [0.0, 0.025, 0.5, 0.975, 1.0] {
            assert_eq!(quantile_unsorted(&mut v, p), quantile(&sorted, p));
        }
        assert_eq!(quantile_unsorted(&mut [3.0], 0.975), 3.0);
        assert!(quantile_unsorted(&mut [], 0.5).is_nan());
    }

    #[test]
    fn quantile_type_7_by_hand() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert_eq!(quantile(&v, 0.5), 2.5);
        // h = 3 * 0.025 = 0.075 -> 1 + 0.075.
        assert!((quantile(&v, 0.025) - 1.075).abs() < 1e-15);
        assert_eq!(quantile(&[7.0], 0.975), 7.0);
    }
}
