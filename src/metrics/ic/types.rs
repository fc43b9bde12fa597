//! One item type's share of I and C (SPEC §5): competence cells per split and tier (`cells`),
//! and the calibration sums (`calibration`) pooled over splits and tiers.

use super::calibration::{
    calibration_terms, conditioned_yes, CalibrationScope, CalibrationTerms, TypeCalibration,
};
use super::cells::{tier_index, tiers, weighted_cc, Cell, TIERS};
use super::figures::{SplitFigures, Splits, TypeFigures};
use crate::items::{OptionItem, OptionKind, Split, Tier};
use crate::metrics::rating;
use crate::metrics::tvd_rps::ece_score;

pub use super::calibration::yes_index;

/// Binary decisions: yes at p_yes >= 0.8, no at p_yes <= 0.2, both bounds inclusive.
pub const YES_AT: f64 = 0.8;
pub const NO_AT: f64 = 0.2;

/// What a binary item decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Label(usize),
    Abstain,
    Invalid,
}

/// The binary decision: thresholds on the conditioned q_yes, the same value its ECE bins (SPEC §5),
/// else the answer itself (a label-only output cannot abstain).
pub fn binary_decision(o: &OptionItem) -> Decision {
    let yes = yes_index(o);
    let no = 1 - yes.min(1);
    match conditioned_yes(o) {
        Some(q) if q >= YES_AT => Decision::Label(yes),
        Some(q) if q <= NO_AT => Decision::Label(no),
        Some(_) => Decision::Abstain,
        None => o.answer.map_or(Decision::Invalid, Decision::Label),
    }
}

/// What one item adds to its type's state: its competence cell and, with valid probabilities,
/// its calibration terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypePart {
    /// 0 open (or no split), 1 sealed.
    pub split: usize,
    /// `tier_index` of the item's tier.
    pub tier: usize,
    pub cell: Cell,
    pub invalid: bool,
    pub abstained: bool,
    pub calibration: Option<CalibrationTerms>,
}

/// One item's part of a type of kind `kind`. `credit` is the item's SPEC §3 credit (1 when
/// `answer` is the gold; a tool's own credit for graded items), used by choice; `one_hot_tvd`
/// measures choice TVD as 1 - q[gold].
pub fn type_part(
    kind: OptionKind,
    o: &OptionItem,
    credit: f64,
    at: (Option<Tier>, Option<Split>),
    one_hot_tvd: bool,
) -> TypePart {
    let (tier, split) = at;
    let mut cell = Cell {
        items: 1,
        ..Cell::default()
    };
    let mut abstained = false;
    let invalid = match kind {
        OptionKind::Choice => {
            cell.hits = credit;
            cell.chance = 1.0 / o.options.len() as f64;
            o.answer.is_none()
        }
        OptionKind::Binary => {
            let d = binary_decision(o);
            cell.hits = f64::from(u8::from(d == Decision::Label(o.gold)));
            cell.chance = 0.5;
            abstained = d == Decision::Abstain;
            d == Decision::Invalid
        }
        OptionKind::Rating => {
            (cell.hits, cell.chance) = rating::errors(o);
            rating::prediction(o) == rating::Prediction::Invalid
        }
    };
    TypePart {
        split: usize::from(split == Some(Split::Sealed)),
        tier: tier_index(tier),
        cell,
        invalid,
        abstained,
        calibration: calibration_terms(kind, o, one_hot_tvd),
    }
}

/// One type's running state.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeState {
    kind: OptionKind,
    /// [open (or no split), sealed][tier].
    cells: [[Cell; TIERS]; 2],
    items: u64,
    invalid: u64,
    abstained: u64,
    calibration: TypeCalibration,
}

impl TypeState {
    pub fn new(kind: OptionKind, scope: CalibrationScope) -> Self {
        TypeState {
            kind,
            cells: [[Cell::default(); TIERS]; 2],
            items: 0,
            invalid: 0,
            abstained: 0,
            calibration: TypeCalibration::new(kind, scope),
        }
    }

    pub fn items(&self) -> u64 {
        self.items
    }

    /// Adds one item's part (see `type_part`); the bootstrap replays parts instead of items.
    pub fn add(&mut self, p: &TypePart) {
        if let Some(cell) = self
            .cells
            .get_mut(p.split)
            .and_then(|row| row.get_mut(p.tier))
        {
            cell.add(&p.cell);
        }
        self.items += 1;
        self.invalid += u64::from(p.invalid);
        self.abstained += u64::from(p.abstained);
        let hard = p.tier == tier_index(Some(Tier::Hard));
        self.calibration.add(p.calibration.as_ref(), hard);
    }

    /// `add` `t` times at once (the bootstrap's resampled copies), up to the order of the sums.
    pub fn add_times(&mut self, p: &TypePart, t: u32) {
        if let Some(cell) = self
            .cells
            .get_mut(p.split)
            .and_then(|row| row.get_mut(p.tier))
        {
            cell.add_times(&p.cell, t);
        }
        self.items += u64::from(t);
        self.invalid += u64::from(t) * u64::from(p.invalid);
        self.abstained += u64::from(t) * u64::from(p.abstained);
        let hard = p.tier == tier_index(Some(Tier::Hard));
        self.calibration.add_times(p.calibration.as_ref(), hard, t);
    }

    pub fn merge(&mut self, other: &Self) {
        for (a, b) in self.cells.iter_mut().zip(other.cells.iter()) {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                x.add(y);
            }
        }
        self.items += other.items;
        self.invalid += other.invalid;
        self.abstained += other.abstained;
        self.calibration.merge(&other.calibration);
    }

    /// The type's figures; `None` when it has no items.
    pub fn finish(&self) -> Option<TypeFigures> {
        if self.items == 0 {
            return None;
        }
        let [open, sealed] = &self.cells;
        let mut pooled = *open;
        for (p, s) in pooled.iter_mut().zip(sealed.iter()) {
            p.add(s);
        }
        let has = |cells: &[Cell; TIERS]| cells.iter().any(|c| c.items > 0);
        let (cc, splits) = if has(open) && has(sealed) {
            let half = |cells: &[Cell; TIERS]| SplitFigures {
                cc: weighted_cc(cells, self.kind),
                items: cells.iter().map(|c| c.items).sum(),
                tiers: tiers(cells, self.kind),
            };
            let (open, sealed) = (half(open), half(sealed));
            let cc = match (open.cc, sealed.cc) {
                (Some(a), Some(b)) => Some(0.5 * a + 0.5 * b),
                _ => None,
            };
            (cc, Some(Splits { open, sealed }))
        } else {
            (weighted_cc(&pooled, self.kind), None)
        };
        let cal = self.calibration.finish();
        let c = match self.kind {
            OptionKind::Choice => cal.ece.map(|e| choice_c(e, cal.tvd)),
            OptionKind::Binary => cal.ece.map(ece_score),
            OptionKind::Rating => match (cal.ece, cal.rps) {
                (Some(e), Some(r)) => Some((ece_score(e) + 100.0 * (1.0 - r)) / 2.0),
                _ => None,
            },
        };
        let binary = self.kind == OptionKind::Binary;
        Some(TypeFigures {
            cc,
            c,
            items: self.items,
            invalid: self.invalid,
            tiers: tiers(&pooled, self.kind),
            splits,
            ece: cal.ece,
            ece_items: cal.ece_items,
            ece_confidence: if binary { "q_yes" } else { "top_label" }.to_string(),
            ece_scope: cal.ece_scope.to_string(),
            tvd: cal.tvd,
            tvd_items: cal.tvd_items,
            rps: cal.rps,
            brier: cal.brier,
            nll: cal.nll,
            prob_items: cal.prob_items,
            abstention_rate: binary.then(|| self.abstained as f64 / self.items as f64),
        })
    }
}

impl crate::metrics::flat::Sums for TypeState {
    fn visit(&mut self, f: &mut dyn FnMut(crate::metrics::flat::Slot<'_>)) {
        use crate::metrics::flat::Slot;
        for row in &mut self.cells {
            row.visit(f);
        }
        f(Slot::Count(&mut self.items));
        f(Slot::Count(&mut self.invalid));
        f(Slot::Count(&mut self.abstained));
        self.calibration.visit(f);
    }
}

/// The Choice calibration part: the mean of ece_score(E) and 100 (1 - TVD), or the ECE term alone
/// without a TVD.
pub fn choice_c(ece: f64, tvd: Option<f64>) -> f64 {
    match tvd {
        Some(t) => (ece_score(ece) + 100.0 * (1.0 - t)) / 2.0,
        None => ece_score(ece),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::Probs;

    fn binary(p_yes: Option<f64>, answer: Option<usize>) -> OptionItem {
        OptionItem {
            kind: OptionKind::Binary,
            options: vec!["no".to_string(), "yes".to_string()].into(),
            gold: 1,
            gold_probs: None,
            answer,
            probs: p_yes.map(|p| Probs {
                p: vec![1.0 - p, p].into(),
                sum: 1.0,
                outside: Some(0.0),
            }),
        }
    }

    #[test]
    fn binary_thresholds_are_inclusive() {
        assert_eq!(
            binary_decision(&binary(Some(0.8), None)),
            Decision::Label(1)
        );
        assert_eq!(
            binary_decision(&binary(Some(0.2), None)),
            Decision::Label(0)
        );
        assert_eq!(
            binary_decision(&binary(Some(0.79), None)),
            Decision::Abstain
        );
        assert_eq!(
            binary_decision(&binary(Some(0.21), None)),
            Decision::Abstain
        );
        // Probabilities decide over the answer; without them the answer decides.
        assert_eq!(
            binary_decision(&binary(Some(0.5), Some(1))),
            Decision::Abstain
        );
        assert_eq!(binary_decision(&binary(None, Some(0))), Decision::Label(0));
        assert_eq!(binary_decision(&binary(None, None)), Decision::Invalid);
    }
}
