//! The summary figures for `LANES` resamples at once (`Replay::figures_lanes`, the leaderboard's
//! draws): one pass over the records for the accuracies, groups and outside mass, and one per
//! mode over the calibration parts in ascending confidence that keeps running sums of the
//! weights, weighted confidences and weighted correct answers. Both ECEs are then read off those
//! prefix sums (the equal-width bins are fixed runs of the sorted order; the equal-mass ones are
//! found by bisection, `ece_prefix`), so no figure costs a pass per resample.
//!
//! The same figures as `figures` lane by lane, up to the order of the sums (a test holds them to
//! 1e-12).

use super::{SummaryReplay, Track};
use crate::metrics::ece_em::ece_prefix;
use crate::metrics::lanes::{add, add_scaled, lanes, Lanes, Weights, LANES};
use std::cell::RefCell;

const ZERO: Lanes = [0.0; LANES];

thread_local! {
    /// The running sums of one mode (weights, confidences, correct), reused between calls: a
    /// fresh buffer of this size per call would be a fresh mapping, page faults and all.
    static PREFIX: RefCell<Vec<[Lanes; 3]>> = const { RefCell::new(Vec::new()) };
}

/// Per group: items, credit, normalized items and normalized sum.
type GroupSums = [Lanes; 4];

impl SummaryReplay {
    /// `lanes` compiled for AVX2 (four lanes to an instruction where the baseline has two); the
    /// same operations in the same order, so the same bits. Rust never fuses a multiply and an
    /// add on its own, so enabling the feature cannot change a rounding.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn lanes_avx2(&self, w: &[Weights], out: &mut Vec<Option<f64>>) {
        self.lanes(w, out);
    }

    #[inline(always)]
    pub(super) fn lanes(&self, w: &[Weights], out: &mut Vec<Option<f64>>) {
        let (mut items, mut credit, mut invalid) = (ZERO, ZERO, ZERO);
        let (mut nsum, mut nitems, mut oitems, mut osum) = (ZERO, ZERO, ZERO, ZERO);
        for (r, wi) in self.records.iter().zip(w) {
            let wi = &lanes(wi);
            let o = &r.outcome;
            add(&mut items, wi);
            add_scaled(&mut credit, wi, o.credit);
            if !o.valid {
                add(&mut invalid, wi);
            }
            if let Some(x) = o.normalized() {
                add_scaled(&mut nsum, wi, x);
                add(&mut nitems, wi);
            }
            if !r.outside.is_nan() {
                add(&mut oitems, wi);
                add_scaled(&mut osum, wi, r.outside);
            }
        }
        let macros = self.macros(w);
        // A loop, not an iterator's `collect`: the call must be inlined here for `lanes_avx2`.
        let mut modes = [[[None; 5]; LANES]; 2];
        for (m, t) in modes.iter_mut().zip(&self.tracks) {
            *m = mode(t, w);
        }
        let ratio = |x: f64, n: f64| (n > 0.0).then(|| x / n);
        for k in 0..LANES {
            let [(acc, acc_n), (norm, norm_n)] = macros.map(|(sum, n)| (sum[k], n[k]));
            out.extend([
                ratio(credit[k], items[k]),
                ratio(nsum[k], nitems[k]),
                ratio(invalid[k], items[k]),
                ratio(acc, acc_n),
                ratio(norm, norm_n),
                ratio(osum[k], oitems[k]),
            ]);
            for m in &modes {
                out.extend(m.get(k).copied().unwrap_or([None; 5]));
            }
        }
    }

    /// The macro accuracy's and macro normalized's sums of group means and counts of groups, lane
    /// by lane: the groups one at a time in name order, as `Groups::macro_figures` takes them.
    #[inline(always)]
    fn macros(&self, w: &[Weights]) -> [(Lanes, Lanes); 2] {
        let mut sums = [(ZERO, ZERO); 2];
        let mut from = 0usize;
        for &end in &self.group_ends {
            let end = end as usize;
            let mut g: GroupSums = [ZERO; 4];
            for &i in self.by_group.get(from..end).unwrap_or_default() {
                let (Some(r), Some(wi)) = (self.records.get(i as usize), w.get(i as usize)) else {
                    continue;
                };
                let wi = &lanes(wi);
                add(&mut g[0], wi);
                add_scaled(&mut g[1], wi, r.outcome.credit);
                if let Some(x) = r.outcome.normalized() {
                    add(&mut g[2], wi);
                    add_scaled(&mut g[3], wi, x);
                }
            }
            from = end.max(from);
            for k in 0..LANES {
                for (m, (value, count)) in sums.iter_mut().enumerate() {
                    let (x, n) = (g[2 * m + 1][k], g[2 * m][k]);
                    if n > 0.0 {
                        value[k] += x / n;
                        count[k] += 1.0;
                    }
                }
            }
        }
        sums
    }
}

/// One mode's ECE, equal-mass ECE, Brier, EPA and NLL, lane by lane.
#[inline(always)]
fn mode(t: &Track, w: &[Weights]) -> [[Option<f64>; 5]; LANES] {
    // Taken out of its cell and put back, rather than borrowed in a closure: the loop must be
    // inlined into `lanes_avx2`.
    let mut prefix = PREFIX.take();
    prefix.clear();
    prefix.reserve(t.parts.len() + 1);
    let mut run = [ZERO; 3];
    prefix.push(run);
    let (mut brier, mut epa, mut nll) = (ZERO, ZERO, ZERO);
    for (i, p) in &t.parts {
        let wi = &w.get(*i as usize).map_or(ZERO, lanes);
        add(&mut run[0], wi);
        add_scaled(&mut run[1], wi, p.confidence);
        if p.correct {
            add(&mut run[2], wi);
        }
        add_scaled(&mut brier, wi, p.brier);
        add_scaled(&mut epa, wi, p.epa);
        add_scaled(&mut nll, wi, p.nll);
        prefix.push(run);
    }
    let at = |j: usize, k: usize| -> (f64, f64, f64) {
        prefix
            .get(j)
            .map_or((0.0, 0.0, 0.0), |p| (p[0][k], p[1][k], p[2][k]))
    };
    let mut lanes = [[None; 5]; LANES];
    for (k, lane) in lanes.iter_mut().enumerate() {
        let n = run[0][k];
        let mean = |x: f64| (n > 0.0).then(|| x / n);
        *lane = [
            width_ece(t, n, |j| at(j, k)),
            ece_prefix(&t.values, |j| {
                let (c, v, y) = at(j, k);
                (c as u64, v, y as u64)
            }),
            mean(brier[k]),
            mean(epa[k]),
            mean(nll[k]),
        ];
    }
    PREFIX.set(prefix);
    lanes
}

/// `EqualWidth::ece` from the prefix sums at the bins' fixed places in the sorted order.
fn width_ece(t: &Track, n: f64, at: impl Fn(usize) -> (f64, f64, f64)) -> Option<f64> {
    if n <= 0.0 {
        return None;
    }
    let mut ece = 0.0;
    for b in t.width_at.windows(2) {
        let (from, to) = (at(b[0]), at(b[1]));
        let c = to.0 - from.0;
        if c > 0.0 {
            let (confidence, correct) = (to.1 - from.1, to.2 - from.2);
            ece += (c / n) * (correct / c - confidence / c).abs();
        }
    }
    Some(ece)
}
