//! I and C, the intelligence and calibration scores on 0–100 (SPEC §5), for the whole run and per
//! modality.
//!
//! The accumulator takes every item and keeps those of type choice, binary and rating (`multi` and
//! the reward-model types are outside I/C). Profiles decide which items reach it and whether choice
//! TVD is measured against a one-hot gold.

pub(crate) mod calibration;
pub(crate) mod cells;
pub mod figures;
pub(crate) mod packed;
mod types;

use super::ece::EqualWidth;
use super::flat::{Slot, Sums};
use super::outcome::outcome;
use crate::items::{Item, Modality, OptionKind, Tier};
use calibration::CalibrationScope;
use figures::{IcFigures, ScopeFigures, Scopes, Types};
use std::collections::BTreeMap;
use types::{choice_c, type_part, TypePart, TypeState};

/// The type weights of `i_weighted`: choice, binary, rating.
pub const TYPE_WEIGHTS: [f64; 3] = [0.50, 0.25, 0.25];

/// Profile choices that change a figure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IcOptions {
    /// Measure choice TVD as 1 - q[gold] over every item with valid probabilities (Decision Bench).
    pub one_hot_tvd: bool,
    /// Only hard-tier items enter I/C (JevBench Hard 111; the profile makes untiered items hard).
    pub hard_only: bool,
    /// Which items each type's ECE and TVD cover.
    pub calibration: CalibrationScope,
}

/// One item's share of I/C: its type's slot, its modality and its part of the type's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IcPart {
    slot: usize,
    modality: Option<Modality>,
    part: TypePart,
}

/// The three types' states over one set of items, and the pooled top-label ECE where the
/// profile pools choice and binary.
#[derive(Debug, Clone, PartialEq)]
pub struct ScopeState {
    types: [TypeState; 3],
    pooled: Option<EqualWidth>,
}

impl Default for ScopeState {
    fn default() -> Self {
        ScopeState::new(CalibrationScope::default())
    }
}

fn slot(kind: OptionKind) -> usize {
    match kind {
        OptionKind::Choice => 0,
        OptionKind::Binary => 1,
        OptionKind::Rating => 2,
    }
}

impl ScopeState {
    fn new(scope: CalibrationScope) -> Self {
        ScopeState {
            types: [
                TypeState::new(OptionKind::Choice, scope),
                TypeState::new(OptionKind::Binary, scope),
                TypeState::new(OptionKind::Rating, scope),
            ],
            pooled: (scope == CalibrationScope::Pooled).then(EqualWidth::default),
        }
    }

    fn add(&mut self, p: &IcPart) {
        if let Some(t) = self.types.get_mut(p.slot) {
            t.add(&p.part);
        }
        if let (Some(pooled), Some((x, y))) = (
            self.pooled.as_mut(),
            p.part.calibration.and_then(|c| c.pooled),
        ) {
            pooled.add(x, y);
        }
    }

    fn add_times(&mut self, p: &IcPart, t: u32) {
        if let Some(ty) = self.types.get_mut(p.slot) {
            ty.add_times(&p.part, t);
        }
        if let (Some(pooled), Some((x, y))) = (
            self.pooled.as_mut(),
            p.part.calibration.and_then(|c| c.pooled),
        ) {
            pooled.add_times(x, y, t);
        }
    }

    fn merge(&mut self, other: &Self) {
        for (a, b) in self.types.iter_mut().zip(other.types.iter()) {
            a.merge(b);
        }
        if let (Some(a), Some(b)) = (self.pooled.as_mut(), other.pooled.as_ref()) {
            a.merge(b);
        }
    }

    /// The scope's figures; `None` when it holds no choice, binary or rating item.
    pub fn finish(&self) -> Option<ScopeFigures> {
        let items: u64 = self.types.iter().map(TypeState::items).sum();
        if items == 0 {
            return None;
        }
        let [choice, binary, rating] = &self.types;
        let mut types = Types {
            choice: choice.finish(),
            binary: binary.finish(),
            rating: rating.finish(),
        };
        let pooled_ece = self.pooled.as_ref().and_then(EqualWidth::ece);
        let all = [&types.choice, &types.binary, &types.rating];
        let cc: Vec<Option<f64>> = all.iter().map(|t| t.as_ref().and_then(|t| t.cc)).collect();
        let mut c: Vec<Option<f64>> = all.iter().map(|t| t.as_ref().and_then(|t| t.c)).collect();
        if self.pooled.is_some() {
            // The pooled ECE is the Choice ECE term (with the choice TVD), and binary items add
            // no C of their own. A file with binary items and no choice item still has the pooled
            // part in C, in the choice slot, or its binary calibration would count for nothing.
            let tvd = types.choice.as_ref().and_then(|t| t.tvd);
            let part = pooled_ece.map(|e| choice_c(e, tvd));
            c = vec![part, None, c[2]];
            if let Some(t) = types.choice.as_mut() {
                t.c = part;
            }
            if let Some(t) = types.binary.as_mut() {
                t.c = None;
            }
        }
        Some(ScopeFigures {
            i: weighted_mean(&cc, &[1.0; 3]),
            i_weighted: weighted_mean(&cc, &TYPE_WEIGHTS),
            c: weighted_mean(&c, &[1.0; 3]),
            items,
            types,
            pooled_ece,
            pooled_items: self.pooled.as_ref().map_or(0, EqualWidth::count),
        })
    }
}

impl Sums for ScopeState {
    fn visit(&mut self, f: &mut dyn FnMut(Slot<'_>)) {
        self.types.visit(f);
        self.pooled.visit(f);
    }
}

impl Sums for IcAccumulator {
    fn visit(&mut self, f: &mut dyn FnMut(Slot<'_>)) {
        self.overall.visit(f);
        self.text.visit(f);
        self.image.visit(f);
    }
}

/// sum w_t x_t / sum w_t over the available values, in type order; `None` when none is available.
fn weighted_mean(values: &[Option<f64>], weights: &[f64]) -> Option<f64> {
    let (mut sum, mut weight) = (0.0, 0.0);
    for (v, w) in values.iter().zip(weights) {
        if let Some(v) = v {
            sum += w * v;
            weight += w;
        }
    }
    (weight > 0.0).then(|| sum / weight)
}

/// I/C over the run and per modality.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IcAccumulator {
    opts: IcOptions,
    overall: ScopeState,
    text: ScopeState,
    image: ScopeState,
}

impl IcAccumulator {
    pub fn new(opts: IcOptions) -> Self {
        IcAccumulator {
            opts,
            overall: ScopeState::new(opts.calibration),
            text: ScopeState::new(opts.calibration),
            image: ScopeState::new(opts.calibration),
        }
    }

    pub fn update(&mut self, item: &Item) {
        if let Some(p) = self.part(item) {
            self.add(&p);
        }
    }

    /// What one item adds; `None` for items outside I/C. The bootstrap keeps these compact parts
    /// and replays them (`add`) instead of re-reading items.
    pub fn part(&self, item: &Item) -> Option<IcPart> {
        let o = item.as_option()?;
        if self.opts.hard_only && item.tier != Some(Tier::Hard) {
            return None;
        }
        let credit = outcome(item).credit;
        let at = (item.tier, item.split);
        Some(IcPart {
            slot: slot(o.kind),
            modality: item.modality,
            part: type_part(o.kind, o, credit, at, self.opts.one_hot_tvd),
        })
    }

    /// Adds one item's part to the run and to its modality's scope.
    pub fn add(&mut self, p: &IcPart) {
        self.overall.add(p);
        match p.modality {
            Some(Modality::Text) => self.text.add(p),
            Some(Modality::Image) => self.image.add(p),
            None => {}
        }
    }

    /// `add` `t` times at once (the bootstrap's resampled copies), up to the order of the sums.
    pub fn add_times(&mut self, p: &IcPart, t: u32) {
        self.overall.add_times(p, t);
        match p.modality {
            Some(Modality::Text) => self.text.add_times(p, t),
            Some(Modality::Image) => self.image.add_times(p, t),
            None => {}
        }
    }

    /// The places of `visit`'s order: how many sums one type's state holds, and one scope's.
    pub fn widths(&self) -> (usize, usize) {
        let mut ty = self.overall.types[0].clone();
        let mut scope = self.overall.clone();
        let (mut t, mut s) = (0, 0);
        ty.visit(&mut |_| t += 1);
        scope.visit(&mut |_| s += 1);
        (t, s)
    }

    /// The sums `add_times(p, _)` can change, each with its place in `visit`'s order (`widths`
    /// gives the layout): p's type in the run's scope and in its modality's, and their pooled
    /// ECE. Much less than `visit`, for decoding one part.
    pub fn visit_part(
        &mut self,
        p: &IcPart,
        (type_width, scope_width): (usize, usize),
        f: &mut dyn FnMut(usize, Slot<'_>),
    ) {
        let scope = match p.modality {
            Some(Modality::Text) => Some((1, &mut self.text)),
            Some(Modality::Image) => Some((2, &mut self.image)),
            None => None,
        };
        for (k, s) in std::iter::once((0, &mut self.overall)).chain(scope) {
            let base = k * scope_width;
            if let Some(t) = s.types.get_mut(p.slot) {
                let mut at = base + p.slot * type_width;
                t.visit(&mut |slot| {
                    f(at, slot);
                    at += 1;
                });
            }
            let mut at = base + 3 * type_width;
            s.pooled.visit(&mut |slot| {
                f(at, slot);
                at += 1;
            });
        }
    }

    pub fn merge(&mut self, other: &Self) {
        self.overall.merge(&other.overall);
        self.text.merge(&other.text);
        self.image.merge(&other.image);
    }

    /// The figures; `None` when no choice, binary or rating item was seen.
    pub fn finish(&self) -> Option<IcFigures> {
        Some(IcFigures {
            overall: self.overall.finish()?,
            scopes: Scopes {
                text: self.text.finish(),
                image: self.image.finish(),
            },
            out_of_scope: BTreeMap::new(),
        })
    }
}
