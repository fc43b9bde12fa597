//! A lane's running sums over a mode's parts in ascending confidence, recomputed from those the
//! pass kept every `STEP` parts, and the equal-width ECE read off them: what both ECEs of a block
//! are found from, lane by lane.

use super::lanes::STEP;
use super::Track;
use crate::metrics::lanes::{Lanes, Weights};

/// Lane `k`'s running sums (weights, weighted confidences, weighted correct answers) over a
/// mode's parts in ascending confidence, from those kept every `STEP` parts.
pub(super) struct Running<'a> {
    pub t: &'a Track,
    /// The weights in the parts' order.
    pub w: &'a [Weights],
    /// The lanes' sums before parts 0, STEP, 2·STEP, ...
    pub marks: &'a [[Lanes; 3]],
    /// Lane k's running weights of `marks`.
    pub weights_kept: &'a [f64],
    /// Lane k's sums over every part.
    pub total: (f64, f64, f64),
    pub k: usize,
}

impl Running<'_> {
    /// Part j's weight in this lane.
    fn weight(&self, j: usize) -> f64 {
        self.w.get(j).map_or(0.0, |w| f64::from(w[self.k]))
    }

    /// The sums kept before part `c · STEP`.
    fn mark(&self, c: usize) -> (f64, f64, f64) {
        self.marks.get(c).map_or((0.0, 0.0, 0.0), |m| {
            (m[0][self.k], m[1][self.k], m[2][self.k])
        })
    }

    /// The sums over the first `j` parts, added as the lanes add them.
    pub fn at(&self, j: usize) -> (f64, f64, f64) {
        let len = self.t.sorted.len();
        if j >= len {
            return self.total;
        }
        let c = j / STEP;
        let mut s = self.mark(c);
        for at in c * STEP..j {
            let w = self.weight(at);
            s.0 += w;
            let c = &self.t.sorted;
            if let (Some(&confidence), Some(&correct)) = (c.confidence.get(at), c.correct.get(at)) {
                s.1 += w * confidence;
                if correct {
                    s.2 += w;
                }
            }
        }
        s
    }

    /// The value of the first part whose running weight passes `pos`; `None` past the end.
    pub fn value_at(&self, pos: u64) -> Option<f64> {
        let pos = pos as f64;
        let c = self
            .weights_kept
            .partition_point(|&m| m <= pos)
            .saturating_sub(1);
        let mut count = self.mark(c).0;
        for j in c * STEP..self.t.sorted.len() {
            count += self.weight(j);
            if count > pos {
                return self.t.sorted.confidence.get(j).copied();
            }
        }
        None
    }
}

/// `EqualWidth::ece` from the prefix sums at the bins' fixed places in the sorted order (each
/// place's sums found once: a bin's end is the next one's start).
pub(super) fn width_ece(t: &Track, n: f64, at: impl Fn(usize) -> (f64, f64, f64)) -> Option<f64> {
    if n <= 0.0 {
        return None;
    }
    let mut ece = 0.0;
    let mut from = at(t.width_at.first().copied().unwrap_or(0));
    for &end in t.width_at.iter().skip(1) {
        let to = at(end);
        let c = to.0 - from.0;
        if c > 0.0 {
            let (confidence, correct) = (to.1 - from.1, to.2 - from.2);
            ece += (c / n) * (correct / c - confidence / c).abs();
        }
        from = to;
    }
    Some(ece)
}
