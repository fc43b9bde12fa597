//! The summary figures for `LANES` resamples at once (`Replay::figures_lanes`, the leaderboard's
//! draws): one pass over the records for the accuracies, groups and outside mass, and one per
//! mode over the calibration parts in ascending confidence that keeps running sums of the
//! weights, weighted confidences and weighted correct answers. Both ECEs are then read off those
//! prefix sums (the equal-width bins are fixed runs of the sorted order; the equal-mass ones are
//! found by bisection, `ece_prefix_with`), so no figure costs a pass per resample. The running sums
//! are kept every `STEP` parts and recomputed in between.
//!
//! The same figures as `figures` lane by lane, up to the order of the sums (a test holds them to
//! 1e-12).

use super::{SummaryReplay, Track};
use crate::metrics::ece_em::ece_prefix_with;
use crate::metrics::lanes::{add, add_scaled, lanes, Lanes, Weights, LANES};
use std::cell::RefCell;

const ZERO: Lanes = [0.0; LANES];

thread_local! {
    /// The kept running sums of one mode (weights, confidences, correct), reused between calls.
    static MARKS: RefCell<Vec<[Lanes; 3]>> = const { RefCell::new(Vec::new()) };
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

/// Parts between two kept running sums: a lane's sums anywhere else are recomputed from the kept
/// one before it, in the same order, so they are the bits a sum kept at every part would have.
/// Keeping them all was a store of 192 bytes a part, most of a mode's time.
const STEP: usize = 16;

/// One mode's ECE, equal-mass ECE, Brier, EPA and NLL, lane by lane.
#[inline(always)]
fn mode(t: &Track, w: &[Weights]) -> [[Option<f64>; 5]; LANES] {
    // Taken out of its cell and put back, rather than borrowed in a closure: the loop must be
    // inlined into `lanes_avx2`.
    let mut marks = MARKS.take();
    marks.clear();
    marks.reserve(t.parts.len() / STEP + 1);
    let mut run = [ZERO; 3];
    let (mut brier, mut epa, mut nll) = (ZERO, ZERO, ZERO);
    for (j, (i, p)) in t.parts.iter().enumerate() {
        if j % STEP == 0 {
            marks.push(run);
        }
        let wi = &w.get(*i as usize).map_or(ZERO, lanes);
        add(&mut run[0], wi);
        add_scaled(&mut run[1], wi, p.confidence);
        if p.correct {
            add(&mut run[2], wi);
        }
        add_scaled(&mut brier, wi, p.brier);
        add_scaled(&mut epa, wi, p.epa);
        add_scaled(&mut nll, wi, p.nll);
    }
    let mut lanes = [[None; 5]; LANES];
    for (k, lane) in lanes.iter_mut().enumerate() {
        let sums = Running {
            t,
            w,
            marks: &marks,
            total: (run[0][k], run[1][k], run[2][k]),
            k,
        };
        let n = run[0][k];
        let mean = |x: f64| (n > 0.0).then(|| x / n);
        *lane = [
            width_ece(t, n, |j| sums.at(j)),
            ece_prefix_with(
                &t.values,
                |pos| sums.value_at(pos),
                |j| {
                    let (c, v, y) = sums.at(j);
                    (c as u64, v, y as u64)
                },
            ),
            mean(brier[k]),
            mean(epa[k]),
            mean(nll[k]),
        ];
    }
    MARKS.set(marks);
    lanes
}

/// Lane `k`'s running sums (weights, weighted confidences, weighted correct answers) over a
/// mode's parts in ascending confidence, from those kept every `STEP` parts.
struct Running<'a> {
    t: &'a Track,
    w: &'a [Weights],
    /// The lanes' sums before parts 0, STEP, 2·STEP, ...
    marks: &'a [[Lanes; 3]],
    /// Lane k's sums over every part.
    total: (f64, f64, f64),
    k: usize,
}

impl Running<'_> {
    /// Part j's weight in this lane.
    fn weight(&self, j: usize) -> f64 {
        self.t
            .parts
            .get(j)
            .and_then(|(i, _)| self.w.get(*i as usize))
            .map_or(0.0, |w| f64::from(w[self.k]))
    }

    /// The sums kept before part `c · STEP`.
    fn mark(&self, c: usize) -> (f64, f64, f64) {
        self.marks.get(c).map_or((0.0, 0.0, 0.0), |m| {
            (m[0][self.k], m[1][self.k], m[2][self.k])
        })
    }

    /// The sums over the first `j` parts, added as the lanes add them.
    fn at(&self, j: usize) -> (f64, f64, f64) {
        let len = self.t.parts.len();
        if j >= len {
            return self.total;
        }
        let c = j / STEP;
        let mut s = self.mark(c);
        for at in c * STEP..j {
            let w = self.weight(at);
            s.0 += w;
            if let Some((_, p)) = self.t.parts.get(at) {
                s.1 += w * p.confidence;
                if p.correct {
                    s.2 += w;
                }
            }
        }
        s
    }

    /// The value of the first part whose running weight passes `pos`; `None` past the end.
    fn value_at(&self, pos: u64) -> Option<f64> {
        let pos = pos as f64;
        let c = self
            .marks
            .partition_point(|m| m[0][self.k] <= pos)
            .saturating_sub(1);
        let mut count = self.mark(c).0;
        for j in c * STEP..self.t.parts.len() {
            count += self.weight(j);
            if count > pos {
                return self.t.values.get(j).copied();
            }
        }
        None
    }
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
