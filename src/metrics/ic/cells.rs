//! Competence cells for I/C (SPEC §5): per split × tier sums, the CC they give, and the tier
//! weighting renormalised over the tiers present.
//!
//! A cell holds the item count, the "hits" (right answers for choice and binary, the summed nMAE for
//! rating) and the summed chance baseline, so the CC of any cell or union of cells follows from sums
//! alone and states merge by addition.

use super::figures::{TierFigures, Tiers};
use crate::items::{OptionKind, Tier};

/// Tier weights in index order easy, standard, judge, hard, none (`none` weighs like standard).
pub const TIER_WEIGHTS: [f64; TIERS] = [0.10, 0.20, 0.30, 0.40, 0.20];
/// Number of tier slots, `none` included.
pub const TIERS: usize = 5;

/// The slot of a tier; items without one go to `none`.
pub fn tier_index(t: Option<Tier>) -> usize {
    match t {
        Some(Tier::Easy) => 0,
        Some(Tier::Standard) => 1,
        Some(Tier::Judge) => 2,
        Some(Tier::Hard) => 3,
        None => 4,
    }
}

/// Sums for one split × tier cell.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cell {
    pub items: u64,
    /// Right answers (choice, binary) or summed nMAE (rating).
    pub hits: f64,
    /// Summed chance baseline: 1/k (choice), 0.5 (binary), nMAE_chance (rating).
    pub chance: f64,
}

impl Cell {
    pub fn add(&mut self, o: &Cell) {
        self.items += o.items;
        self.hits += o.hits;
        self.chance += o.chance;
    }

    /// `add` `t` times at once, up to the order of the sums.
    pub fn add_times(&mut self, o: &Cell, t: u32) {
        let w = f64::from(t);
        self.items += u64::from(t) * o.items;
        self.hits += w * o.hits;
        self.chance += w * o.chance;
    }

    /// The cell's chance-corrected competence, not clipped; `None` for an empty cell.
    pub fn cc(&self, kind: OptionKind) -> Option<f64> {
        if self.items == 0 {
            return None;
        }
        let n = self.items as f64;
        let (score, base) = (self.hits / n, self.chance / n);
        match kind {
            OptionKind::Choice => (base < 1.0).then(|| 100.0 * (score - base) / (1.0 - base)),
            OptionKind::Binary => Some(100.0 * (score - 0.5) / 0.5),
            OptionKind::Rating => (base > 0.0).then(|| 100.0 * (1.0 - score / base)),
        }
    }
}

impl crate::metrics::flat::Sums for Cell {
    fn visit(&mut self, f: &mut dyn FnMut(crate::metrics::flat::Slot<'_>)) {
        use crate::metrics::flat::Slot;
        f(Slot::Count(&mut self.items));
        f(Slot::Sum(&mut self.hits));
        f(Slot::Sum(&mut self.chance));
    }
}

/// sum_t w_t CC_t / sum_t w_t over the tiers that have items, in tier order.
pub fn weighted_cc(cells: &[Cell; TIERS], kind: OptionKind) -> Option<f64> {
    let (mut sum, mut weight) = (0.0, 0.0);
    for (cell, w) in cells.iter().zip(TIER_WEIGHTS) {
        if let Some(cc) = cell.cc(kind) {
            sum += w * cc;
            weight += w;
        }
    }
    (weight > 0.0).then(|| sum / weight)
}

/// The per-tier figures of a row of cells, with weights renormalised over the tiers present.
pub fn tiers(cells: &[Cell; TIERS], kind: OptionKind) -> Tiers {
    let total: f64 = cells
        .iter()
        .zip(TIER_WEIGHTS)
        .filter(|(c, _)| c.cc(kind).is_some())
        .map(|(_, w)| w)
        .sum();
    let figure = |i: usize| -> Option<TierFigures> {
        let c = cells.get(i)?;
        let cc = c.cc(kind)?;
        let n = c.items as f64;
        let rating = kind == OptionKind::Rating;
        Some(TierFigures {
            cc: Some(cc),
            items: c.items,
            weight: TIER_WEIGHTS.get(i).copied().unwrap_or(0.0) / total,
            accuracy: (!rating).then(|| c.hits / n),
            chance: (!rating).then(|| c.chance / n),
            nmae: rating.then(|| c.hits / n),
            nmae_chance: rating.then(|| c.chance / n),
        })
    };
    Tiers {
        easy: figure(0),
        standard: figure(1),
        judge: figure(2),
        hard: figure(3),
        none: figure(4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_cc_by_kind() {
        let c = Cell {
            items: 2,
            hits: 1.0,
            chance: 0.75,
        };
        // Choice: acc 0.5, cbar 0.375 -> 20 (SPEC §9).
        assert!((c.cc(OptionKind::Choice).unwrap() - 20.0).abs() < 1e-12);
        // Binary: acc 0.5 -> 0.
        assert_eq!(c.cc(OptionKind::Binary), Some(0.0));
        // Rating: mean nMAE 0.5, mean chance 0.375 -> 100 (1 - 4/3).
        assert!((c.cc(OptionKind::Rating).unwrap() + 100.0 / 3.0).abs() < 1e-12);
        assert_eq!(Cell::default().cc(OptionKind::Choice), None);
    }

    #[test]
    fn weights_renormalise_over_present_tiers() {
        let mut cells = [Cell::default(); TIERS];
        cells[0] = Cell {
            items: 1,
            hits: 1.0,
            chance: 0.5,
        };
        cells[3] = Cell {
            items: 1,
            hits: 0.0,
            chance: 0.5,
        };
        // (0.1 * 100 + 0.4 * -100) / 0.5 = -60.
        assert!((weighted_cc(&cells, OptionKind::Choice).unwrap() + 60.0).abs() < 1e-12);
        let t = tiers(&cells, OptionKind::Choice);
        assert!((t.easy.unwrap().weight - 0.2).abs() < 1e-15);
        assert!((t.hard.unwrap().weight - 0.8).abs() < 1e-15);
        assert!(t.standard.is_none() && t.none.is_none());
        assert_eq!(
            weighted_cc(&[Cell::default(); TIERS], OptionKind::Choice),
            None
        );
    }
}
