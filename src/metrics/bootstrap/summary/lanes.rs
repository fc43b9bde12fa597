//! The summary figures for `LANES` resamples at once (`Replay::figures_lanes`, the leaderboard's
//! draws): one pass over the records in group order for the accuracies, the macro means and the
//! outside mass, and one per mode over the calibration parts in ascending confidence that keeps
//! running sums of the weights, weighted confidences and weighted correct answers. Both ECEs are
//! then read off those prefix sums (the equal-width bins are fixed runs of the sorted order; the
//! equal-mass ones are found by bisection, `ece_prefix_with`), so no figure costs a pass per
//! resample. The running sums are kept every `STEP` parts and recomputed in between.
//!
//! The passes read `Columns` (`columns.rs`), so that the loops have no branch and keep their sums
//! in vector registers; the ECEs are read off the kept sums by `running.rs`. Each pass first gathers its weights into that order: a
//! tight gather keeps many loads in flight, where loads inside the sums would stall on each.
//!
//! The same figures as `figures` lane by lane, up to the order of the sums (a test holds them to
//! 1e-12).

use super::columns::{Columns, ModeColumns, INVALID, NORMALIZED, OUTSIDE};
use super::running::{width_ece, Running};
use super::{SummaryReplay, Track};
use crate::metrics::ece::equal_mass::ece_prefix_with;
use crate::metrics::lanes::{add_scaled, count, count_if, lanes, Counts, Lanes, Weights, LANES};
use std::cell::RefCell;

const ZERO: Lanes = [0.0; LANES];
const NONE: Counts = [0; LANES];

/// Parts between two kept running sums: a lane's sums anywhere else are recomputed from the kept
/// one before it, in the same order, so they are the bits a sum kept at every part would have.
pub(super) const STEP: usize = 16;

/// The weights gathered into a pass's order, the kept running sums of one mode, and their
/// running weights lane by lane.
type Scratch = (Vec<Weights>, Vec<[Lanes; 3]>, Vec<f64>);

thread_local! {
    /// The weights gathered into a pass's order, and the kept running sums of one mode
    /// (weights, confidences, correct), reused between calls.
    static SCRATCH: RefCell<Scratch> =
        const { RefCell::new((Vec::new(), Vec::new(), Vec::new())) };
}

/// Lets go of this thread's scratch (the gathered weights alone are 32 bytes an item).
pub(super) fn release_scratch() {
    SCRATCH.take();
}

/// What the pass over the groups gives: the run's items, credit, items with a normalized
/// value and their sum, the run-wide sums, and the macro figures' (sum of group means, groups)
/// per lane.
struct GroupPass {
    items: Counts,
    credit: Lanes,
    nitems: Counts,
    nsum: Lanes,
    run: RunSums,
    macros: [(Lanes, Lanes); 2],
}

/// `lanes_of` with the AVX-512 kernels (`avx512`: a block's lanes in registers of eight, every
/// sum of a pass in registers); the same operations in the same order as the portable ones, so
/// the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
pub(super) unsafe fn lanes_avx512(
    t: &SummaryReplay,
    c: &Columns,
    w: &[Weights],
    modes: [bool; 2],
    out: &mut Vec<Option<f64>>,
) {
    lanes_of::<super::avx512::Avx512>(t, c, w, modes, out);
}

/// `lanes_of` compiled for AVX2 (four lanes to an instruction where the baseline has two). Rust
/// never fuses a multiply and an add on its own, so enabling a feature cannot change a rounding.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn lanes_avx2(
    t: &SummaryReplay,
    c: &Columns,
    w: &[Weights],
    modes: [bool; 2],
    out: &mut Vec<Option<f64>>,
) {
    lanes_of::<Portable>(t, c, w, modes, out);
}

/// One group's sums: items, credit, items with a normalized value and their sum.
#[derive(Clone, Copy)]
pub(super) struct GroupSums {
    pub items: Counts,
    pub credit: Lanes,
    pub nitems: Counts,
    pub nsum: Lanes,
}

/// The run-wide sums the pass over the groups adds to: invalid answers, items with an outside
/// mass and its sum.
pub(super) struct RunSums {
    pub invalid: Counts,
    pub oitems: Counts,
    pub osum: Lanes,
}

/// One mode's sums over every part: items, confidence, correct answers, Brier, EPA and NLL.
pub(super) struct ModeSums {
    pub items: Counts,
    pub confidence: Lanes,
    pub right: Counts,
    pub scores: [Lanes; 3],
}

/// The two inner loops, the whole of the lanes' time: portable code, or one CPU's intrinsics.
pub(super) trait Kernel {
    /// The sums of rows `rows` of the group order, whose weights are `w`.
    fn group(
        c: &Columns,
        rows: std::ops::Range<usize>,
        w: &[Weights],
        run: &mut RunSums,
    ) -> GroupSums;
    /// A mode's sums, with the running sums (weights, confidences, correct) pushed to `marks`
    /// before parts 0, STEP, 2·STEP, ...; `w` in the parts' order.
    fn mode(c: &ModeColumns, w: &[Weights], marks: &mut Vec<[Lanes; 3]>) -> ModeSums;
}

/// The kernels in plain Rust, for any target.
pub(super) struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn group(
        c: &Columns,
        rows: std::ops::Range<usize>,
        w: &[Weights],
        run: &mut RunSums,
    ) -> GroupSums {
        let (mut items, mut credit, mut nitems, mut nsum) = (NONE, ZERO, NONE, ZERO);
        for (wi, cr, nv, ov, f) in c.rows(rows, w) {
            count(&mut items, wi);
            count_if(&mut nitems, wi, f & NORMALIZED != 0);
            count_if(&mut run.invalid, wi, f & INVALID != 0);
            count_if(&mut run.oitems, wi, f & OUTSIDE != 0);
            let wf = &lanes(wi);
            add_scaled(&mut credit, wf, cr);
            add_scaled(&mut nsum, wf, nv);
            add_scaled(&mut run.osum, wf, ov);
        }
        GroupSums {
            items,
            credit,
            nitems,
            nsum,
        }
    }

    #[inline(always)]
    fn mode(c: &ModeColumns, w: &[Weights], marks: &mut Vec<[Lanes; 3]>) -> ModeSums {
        let (mut items, mut confidence, mut right) = (NONE, ZERO, NONE);
        let mut scores = [ZERO; 3];
        for (ws, xs, ys, ss) in c.blocks(w) {
            marks.push([items.map(f64::from), confidence, right.map(f64::from)]);
            for (((wi, &x), &y), s) in ws.iter().zip(xs).zip(ys).zip(ss) {
                count(&mut items, wi);
                count_if(&mut right, wi, y);
                let wf = &lanes(wi);
                add_scaled(&mut confidence, wf, x);
                for (acc, &v) in scores.iter_mut().zip(s) {
                    add_scaled(acc, wf, v);
                }
            }
        }
        ModeSums {
            items,
            confidence,
            right,
            scores,
        }
    }
}

/// Every summary figure of the block's `LANES` resamples, lane after lane, in `NAMES` order;
/// a mode's figures only where `modes` asks for them (`None` otherwise).
#[inline(always)]
pub(super) fn lanes_of<K: Kernel>(
    t: &SummaryReplay,
    c: &Columns,
    w: &[Weights],
    modes: [bool; 2],
    out: &mut Vec<Option<f64>>,
) {
    let wanted = modes;
    let (mut gathered, mut marks, mut by_lane) = SCRATCH.take();
    let g = groups::<K>(c, w, &mut gathered);
    // A loop, not an iterator's `collect`: the call must be inlined here for the features.
    let mut modes = [[[None; 5]; LANES]; 2];
    for ((m, track), on) in modes.iter_mut().zip(&t.tracks).zip(wanted) {
        if on {
            *m = mode::<K>(track, w, &mut gathered, &mut marks, &mut by_lane);
        }
    }
    SCRATCH.set((gathered, marks, by_lane));
    let ratio = |x: f64, n: f64| (n > 0.0).then(|| x / n);
    for k in 0..LANES {
        let [(acc, acc_n), (norm, norm_n)] = g.macros.map(|(sum, n)| (sum[k], n[k]));
        let items = f64::from(g.items[k]);
        out.extend([
            ratio(g.credit[k], items),
            ratio(g.nsum[k], f64::from(g.nitems[k])),
            ratio(f64::from(g.run.invalid[k]), items),
            ratio(acc, acc_n),
            ratio(norm, norm_n),
            ratio(g.run.osum[k], f64::from(g.run.oitems[k])),
        ]);
        for m in &modes {
            out.extend(m.get(k).copied().unwrap_or([None; 5]));
        }
    }
}

/// `w` in the order of `at`.
#[inline(always)]
fn gather(at: &[u32], w: &[Weights], into: &mut Vec<Weights>) {
    // Sized first and written in place: a copy through `extend` went by way of the stack.
    into.clear();
    into.resize(at.len(), [0; LANES]);
    for (o, &i) in into.iter_mut().zip(at) {
        if let Some(x) = w.get(i as usize) {
            *o = *x;
        }
    }
}

/// The groups one at a time in name order, as `Groups::macro_figures` takes them; the run's
/// sums are the sums of its groups'.
#[inline(always)]
fn groups<K: Kernel>(c: &Columns, w: &[Weights], gathered: &mut Vec<Weights>) -> GroupPass {
    gather(&c.at, w, gathered);
    let mut all = GroupPass {
        items: NONE,
        credit: ZERO,
        nitems: NONE,
        nsum: ZERO,
        run: RunSums {
            invalid: NONE,
            oitems: NONE,
            osum: ZERO,
        },
        macros: [(ZERO, ZERO); 2],
    };
    let mut from = 0usize;
    for &end in &c.group_ends {
        let end = (end as usize).max(from);
        let g = K::group(c, from..end, gathered, &mut all.run);
        from = end;
        for k in 0..LANES {
            all.items[k] += g.items[k];
            all.nitems[k] += g.nitems[k];
            all.credit[k] += g.credit[k];
            all.nsum[k] += g.nsum[k];
            let groups = [(g.credit[k], g.items[k]), (g.nsum[k], g.nitems[k])];
            for ((value, n), (x, m)) in all.macros.iter_mut().zip(groups) {
                if m > 0 {
                    value[k] += x / f64::from(m);
                    n[k] += 1.0;
                }
            }
        }
    }
    all
}

/// One mode's ECE, equal-mass ECE, Brier, EPA and NLL, lane by lane.
#[inline(always)]
fn mode<K: Kernel>(
    t: &Track,
    w: &[Weights],
    gathered: &mut Vec<Weights>,
    marks: &mut Vec<[Lanes; 3]>,
    by_lane: &mut Vec<f64>,
) -> [[Option<f64>; 5]; LANES] {
    let c = &t.sorted;
    gather(&c.at, w, gathered);
    marks.clear();
    marks.reserve(c.at.len() / STEP + 1);
    let m = K::mode(c, gathered, marks);
    // The kept running weights lane by lane, each lane's together: the equal-mass edges are
    // found by bisection over one lane's, which then sit in a few cache lines instead of one
    // line per probe.
    let kept = marks.len();
    by_lane.clear();
    by_lane.resize(kept * LANES, 0.0);
    for (c, mark) in marks.iter().enumerate() {
        for (k, &x) in mark[0].iter().enumerate() {
            if let Some(slot) = by_lane.get_mut(k * kept + c) {
                *slot = x;
            }
        }
    }
    let [brier, epa, nll] = m.scores;
    let mut out = [[None; 5]; LANES];
    for (k, lane) in out.iter_mut().enumerate() {
        let n = f64::from(m.items[k]);
        let sums = Running {
            t,
            w: gathered,
            marks,
            weights_kept: by_lane.get(k * kept..(k + 1) * kept).unwrap_or_default(),
            total: (n, m.confidence[k], f64::from(m.right[k])),
            k,
        };
        let mean = |x: f64| (n > 0.0).then(|| x / n);
        *lane = [
            width_ece(t, n, |j| sums.at(j)),
            ece_prefix_with(
                &t.sorted.confidence,
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
    out
}
