//! One item type's share of I and C (SPEC §5): competence cells per split and tier (`ic_cells`),
//! and the calibration sums (ECE, TVD, RPS, Brier) pooled over splits and tiers.

use super::calibration::confidence;
use super::ece::EqualWidth;
use super::ic_cells::{tier_index, tiers, weighted_cc, Cell, TIERS};
use super::ic_figures::{SplitFigures, Splits, TypeFigures};
use super::rating;
use super::tvd_rps::{ece_score, one_hot, rps, tvd};
use crate::items::{Mode, OptionItem, OptionKind, Split, Tier};

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

/// The index of `yes` among a binary item's options (1 in the canonical order).
pub fn yes_index(o: &OptionItem) -> usize {
    o.options.iter().position(|l| l == "yes").unwrap_or(1)
}

/// The binary decision: thresholds on p_yes as the file gives it (after SPEC §2's rescaling of
/// totals above 1), else the answer itself (a label-only output cannot abstain).
pub fn binary_decision(o: &OptionItem) -> Decision {
    let yes = yes_index(o);
    let no = 1 - yes.min(1);
    match o.probs.as_ref().and_then(|p| p.p.get(yes)) {
        Some(&p) if p >= YES_AT => Decision::Label(yes),
        Some(&p) if p <= NO_AT => Decision::Label(no),
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

/// One item's calibration terms under conditioning (SPEC §5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibrationTerms {
    /// The binned value: top-label confidence (choice, rating) or p_yes (binary).
    pub ece_x: f64,
    /// Its outcome: right (choice, rating) or gold = yes (binary).
    pub ece_y: f64,
    /// Rating only: RPS against the gold or `gold_probs`.
    pub rps: Option<f64>,
    /// TVD to `gold_probs`, or 1 - q[gold] under one-hot TVD (choice).
    pub tvd: Option<f64>,
}

/// One item's part of a type of kind `kind` (see `TypeState::update` for the arguments).
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

fn calibration_terms(
    kind: OptionKind,
    o: &OptionItem,
    one_hot_tvd: bool,
) -> Option<CalibrationTerms> {
    o.probs
        .as_ref()?
        .with_distribution(Mode::Conditioning, |q| terms_of(kind, o, q, one_hot_tvd))
}

/// `calibration_terms` given the conditioning distribution `q`.
fn terms_of(kind: OptionKind, o: &OptionItem, q: &[f64], one_hot_tvd: bool) -> CalibrationTerms {
    let q_gold = q.get(o.gold).copied().unwrap_or(0.0);
    let (ece_x, ece_y) = match kind {
        OptionKind::Binary => {
            let yes = yes_index(o);
            let p_yes = q.get(yes).copied().unwrap_or(0.0);
            (p_yes, f64::from(u8::from(o.gold == yes)))
        }
        OptionKind::Choice | OptionKind::Rating => {
            let right = f64::from(u8::from(o.answer == Some(o.gold)));
            let conf = match o.answer {
                Some(a) if a < q.len() => confidence(o, q),
                _ => q.iter().copied().fold(0.0, f64::max),
            };
            (conf, right)
        }
    };
    let rps = (kind == OptionKind::Rating).then(|| match &o.gold_probs {
        Some(g) => rps(q, g),
        None => rps(q, &one_hot(q.len(), o.gold)),
    });
    let tvd = if one_hot_tvd && kind == OptionKind::Choice {
        Some(1.0 - q_gold)
    } else {
        o.gold_probs.as_ref().map(|g| tvd(q, g))
    };
    CalibrationTerms {
        ece_x,
        ece_y,
        rps,
        tvd,
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
    ece: EqualWidth,
    tvd_sum: f64,
    tvd_items: u64,
    rps_sum: f64,
    brier_sum: f64,
}

impl TypeState {
    pub fn new(kind: OptionKind) -> Self {
        TypeState {
            kind,
            cells: [[Cell::default(); TIERS]; 2],
            items: 0,
            invalid: 0,
            abstained: 0,
            ece: EqualWidth::default(),
            tvd_sum: 0.0,
            tvd_items: 0,
            rps_sum: 0.0,
            brier_sum: 0.0,
        }
    }

    pub fn items(&self) -> u64 {
        self.items
    }

    /// Adds one item of this type. `credit` is the item's SPEC §3 credit (1 when `answer` is the
    /// gold; a tool's own credit for graded items), used by choice; `one_hot_tvd` measures choice
    /// TVD as 1 - q[gold].
    pub fn update(
        &mut self,
        o: &OptionItem,
        credit: f64,
        at: (Option<Tier>, Option<Split>),
        one_hot_tvd: bool,
    ) {
        let p = type_part(self.kind, o, credit, at, one_hot_tvd);
        self.add(&p);
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
        let Some(c) = &p.calibration else { return };
        self.ece.add(c.ece_x, c.ece_y);
        if self.kind == OptionKind::Binary {
            self.brier_sum += (c.ece_x - c.ece_y) * (c.ece_x - c.ece_y);
        }
        if let Some(r) = c.rps {
            self.rps_sum += r;
        }
        if let Some(t) = c.tvd {
            self.tvd_sum += t;
            self.tvd_items += 1;
        }
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
        self.ece.merge(&other.ece);
        self.tvd_sum += other.tvd_sum;
        self.tvd_items += other.tvd_items;
        self.rps_sum += other.rps_sum;
        self.brier_sum += other.brier_sum;
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
        let n = self.ece.count();
        let mean = |sum: f64, count: u64| (count > 0).then(|| sum / count as f64);
        let ece = self.ece.ece();
        let tvd = mean(self.tvd_sum, self.tvd_items);
        let rps = (self.kind == OptionKind::Rating)
            .then(|| mean(self.rps_sum, n))
            .flatten();
        let c = match self.kind {
            OptionKind::Choice => ece.map(|e| match tvd {
                Some(t) => (ece_score(e) + 100.0 * (1.0 - t)) / 2.0,
                None => ece_score(e),
            }),
            OptionKind::Binary => ece.map(ece_score),
            OptionKind::Rating => match (ece, rps) {
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
            ece,
            ece_items: n,
            tvd,
            tvd_items: self.tvd_items,
            rps,
            brier: binary.then(|| mean(self.brier_sum, n)).flatten(),
            abstention_rate: binary.then(|| self.abstained as f64 / self.items as f64),
        })
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
