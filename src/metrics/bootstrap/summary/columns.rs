//! The summary records laid out column by column, in the order each pass walks: the records by
//! group for the leaderboard's blocks of lanes (every flag a mask and every missing value a zero,
//! so that the passes have no branch), and each mode's parts by confidence, which is also how a
//! sealed replay keeps them.

use super::lanes::STEP;
use super::{Record, SummaryReplay};
use crate::metrics::calibration::CalibrationPart;
use crate::metrics::lanes::Weights;
use std::ops::Range;

/// The records as the lanes read them, made at the first block (a run that is only scored never
/// needs them). `None` where a value is not finite: a lane that drew the item 0 times would add
/// 0 × ∞, where `figures` adds nothing, so such a run is drawn lane by lane.
#[derive(Debug, Clone)]
pub(super) struct Columns {
    /// The records in group order (groups by name, each in item order): each one's item,
    /// credit, normalized value and outside mass (0 where it has none) and flags (`NORMALIZED`,
    /// `INVALID`, `OUTSIDE`).
    pub at: Vec<u32>,
    pub credit: Vec<f64>,
    pub normalized: Vec<f64>,
    pub outside: Vec<f64>,
    pub flags: Vec<u8>,
    /// Where each group ends among them.
    pub group_ends: Vec<u32>,
}

/// One mode's calibration parts in ascending confidence, column by column: each part's item,
/// confidence, correctness and scores.
#[derive(Debug, Clone, Default)]
pub(super) struct ModeColumns {
    pub at: Vec<u32>,
    pub confidence: Vec<f64>,
    pub correct: Vec<bool>,
    /// Brier, EPA and NLL of each part.
    pub scores: Vec<[f64; 3]>,
}

pub(super) const NORMALIZED: u8 = 1;
pub(super) const INVALID: u8 = 2;
pub(super) const OUTSIDE: u8 = 4;

impl Columns {
    pub(super) fn of(s: &SummaryReplay) -> Option<Columns> {
        let n = s.by_group.len();
        let mut c = Columns {
            at: Vec::with_capacity(n),
            credit: Vec::with_capacity(n),
            normalized: Vec::with_capacity(n),
            outside: Vec::with_capacity(n),
            flags: Vec::with_capacity(n),
            group_ends: s.group_ends.clone(),
        };
        let mut finite = true;
        for &i in &s.by_group {
            let r: &Record = s.records.get(i as usize)?;
            let o = &r.outcome();
            let norm = o.normalized();
            let has_outside = !r.outside.is_nan();
            let outside = if has_outside { r.outside } else { 0.0 };
            let normalized = norm.unwrap_or(0.0);
            finite &= o.credit.is_finite() && normalized.is_finite() && outside.is_finite();
            c.at.push(i);
            c.credit.push(o.credit);
            c.normalized.push(normalized);
            c.outside.push(outside);
            c.flags.push(
                (u8::from(norm.is_some()) * NORMALIZED)
                    | (u8::from(!o.valid) * INVALID)
                    | (u8::from(has_outside) * OUTSIDE),
            );
        }
        finite &= s.tracks.iter().all(|t| t.finite);
        finite.then_some(c)
    }
}

impl ModeColumns {
    /// The `n` parts, given in the order they are to be kept, as columns.
    pub(super) fn of<'a>(
        n: usize,
        parts: impl Iterator<Item = &'a (u32, CalibrationPart)>,
    ) -> Self {
        let mut m = ModeColumns {
            at: Vec::with_capacity(n),
            confidence: Vec::with_capacity(n),
            correct: Vec::with_capacity(n),
            scores: Vec::with_capacity(n),
        };
        for (i, p) in parts {
            m.at.push(*i);
            m.confidence.push(p.confidence);
            m.correct.push(p.correct);
            m.scores.push([p.brier, p.epa, p.nll]);
        }
        m
    }

    /// Whether every confidence and score is finite.
    pub(super) fn finite(&self) -> bool {
        self.confidence.iter().all(|x| x.is_finite())
            && self.scores.iter().flatten().all(|x| x.is_finite())
    }

    pub(super) fn len(&self) -> usize {
        self.confidence.len()
    }
}

/// One record of the pass over the groups: its weights, credit, normalized value, outside mass
/// and flags.
pub(super) type GroupRow<'a> = (&'a Weights, f64, f64, f64, u8);

/// `STEP` parts of a mode (fewer at the end): weights, confidences, correct answers, scores.
pub(super) type ModeBlock<'a> = (&'a [Weights], &'a [f64], &'a [bool], &'a [[f64; 3]]);

impl Columns {
    /// Records `r` of the group order, with `w` the weights gathered into that order: what every
    /// kernel's pass over a group reads.
    #[inline(always)]
    pub fn rows<'a>(
        &'a self,
        r: Range<usize>,
        w: &'a [Weights],
    ) -> impl Iterator<Item = GroupRow<'a>> + 'a {
        w.get(r.clone())
            .unwrap_or_default()
            .iter()
            .zip(self.credit.get(r.clone()).unwrap_or_default())
            .zip(self.normalized.get(r.clone()).unwrap_or_default())
            .zip(self.outside.get(r.clone()).unwrap_or_default())
            .zip(self.flags.get(r).unwrap_or_default())
            .map(|((((w, &c), &n), &o), &f)| (w, c, n, o, f))
    }
}

impl ModeColumns {
    /// The parts in blocks of `STEP`, with `w` the weights gathered into the parts' order: what
    /// every kernel's pass over a mode reads, keeping its running sums before each block.
    #[inline(always)]
    pub fn blocks<'a>(&'a self, w: &'a [Weights]) -> impl Iterator<Item = ModeBlock<'a>> + 'a {
        w.chunks(STEP)
            .zip(self.confidence.chunks(STEP))
            .zip(self.correct.chunks(STEP))
            .zip(self.scores.chunks(STEP))
            .map(|(((w, x), y), s)| (w, x, y, s))
    }
}
