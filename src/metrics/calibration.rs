//! Calibration figures under one reading of the probabilities, conditioning or mixing (SPEC §2, §4).

use super::ece::equal_mass::EqualMass;
use super::ece::{BinReport, EqualWidth};
use crate::items::{Item, Mode, OptionItem};
use serde::{Deserialize, Serialize};

/// Floor on q[gold] inside the log, so a zero probability gives a finite NLL.
pub const NLL_FLOOR: f64 = 1e-15;

/// The last natural logarithm taken, kept by the bits of its argument: an item's two modes give
/// q[gold] the same bits whenever its probabilities sum to 1 (nearly half the items of the
/// benchmark file), and the logarithm was a twentieth of the CLI's scoring thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct LnMemo {
    last: Option<(u64, f64)>,
}

impl LnMemo {
    /// `math::ln(x)`, the same bits, taken again only for an argument of other bits.
    pub fn ln(&mut self, x: f64) -> f64 {
        match self.last {
            Some((bits, y)) if bits == x.to_bits() => y,
            _ => {
                let y = crate::math::ln(x);
                self.last = Some((x.to_bits(), y));
                y
            }
        }
    }
}

/// Running state of every calibration figure for one `Mode`.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    mode: Mode,
    items: u64,
    brier: f64,
    epa: f64,
    nll: f64,
    width: EqualWidth,
    mass: EqualMass,
}

/// The finished figures; all null when no item had usable probabilities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationFigures {
    pub ece: Option<f64>,
    pub ece_em: Option<f64>,
    pub brier: Option<f64>,
    pub epa: Option<f64>,
    pub nll: Option<f64>,
    pub items: u64,
    /// The ten equal-width bins, empty ones included.
    pub bins: Vec<BinReport>,
    /// The equal-mass bins of `ece_em` (up to ten, HELM's boundaries; empty without items).
    #[serde(default)]
    pub bins_em: Vec<BinReport>,
}

/// One item's contribution to the calibration figures under one mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibrationPart {
    pub confidence: f64,
    pub correct: bool,
    /// (1/k) sum_i (q_i - y_i)^2.
    pub brier: f64,
    /// q[gold].
    pub epa: f64,
    /// -ln max(q[gold], 1e-15).
    pub nll: f64,
}

/// Brier of one distribution against the one-hot gold, averaged over the options (SPEC §4):
/// (1/k) sum_i (q_i - y_i)^2, summed in option order.
pub fn brier(q: &[f64], gold: usize) -> f64 {
    let squares: f64 = q
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let y = if i == gold { 1.0 } else { 0.0 };
            (x - y) * (x - y)
        })
        .sum();
    squares / q.len() as f64
}

/// Confidence of one prediction: q[answer] for a valid answer, else max q (SPEC §4).
pub fn confidence(o: &OptionItem, q: &[f64]) -> f64 {
    match o.answer {
        Some(a) => q[a],
        None => q.iter().copied().fold(0.0, f64::max),
    }
}

impl Calibration {
    pub fn new(mode: Mode) -> Self {
        Calibration {
            mode,
            items: 0,
            brier: 0.0,
            epa: 0.0,
            nll: 0.0,
            width: EqualWidth::default(),
            mass: EqualMass::default(),
        }
    }

    pub fn update(&mut self, item: &Item) {
        self.update_with(item, &mut LnMemo::default());
    }

    /// `update`, with the logarithm of another mode's part of the same item (`Summary::update`).
    pub fn update_with(&mut self, item: &Item, memo: &mut LnMemo) {
        if let Some(p) = self.part_with(item, memo) {
            self.add(&p);
        }
    }

    /// What one item adds under this mode; `None` when it has no usable probabilities. The
    /// bootstrap keeps these and replays them (`add`) instead of re-reading items.
    pub fn part(&self, item: &Item) -> Option<CalibrationPart> {
        self.part_with(item, &mut LnMemo::default())
    }

    fn part_with(&self, item: &Item, memo: &mut LnMemo) -> Option<CalibrationPart> {
        let o = item.as_option()?;
        o.probs
            .as_ref()?
            .with_distribution(self.mode, |q| Self::part_of(o, q, memo))
    }

    /// One option item's part, given its distribution `q`.
    fn part_of(o: &OptionItem, q: &[f64], memo: &mut LnMemo) -> CalibrationPart {
        let q_gold = q.get(o.gold).copied().unwrap_or(0.0);
        CalibrationPart {
            confidence: confidence(o, q),
            correct: o.answer == Some(o.gold),
            brier: brier(q, o.gold),
            epa: q_gold,
            nll: -memo.ln(q_gold.max(NLL_FLOOR)),
        }
    }

    /// Adds one item's part.
    pub fn add(&mut self, p: &CalibrationPart) {
        self.items += 1;
        self.width.add(p.confidence, f64::from(u8::from(p.correct)));
        self.mass.add(p.confidence, p.correct);
        self.brier += p.brier;
        self.epa += p.epa;
        self.nll += p.nll;
    }

    pub fn merge(&mut self, other: Self) {
        self.items += other.items;
        self.brier += other.brier;
        self.epa += other.epa;
        self.nll += other.nll;
        self.width.merge(&other.width);
        self.mass.merge(other.mass);
    }

    /// Sorts the equal-mass lists in place, at the end of a run (`EqualMass::settle`).
    pub fn settle(&mut self) {
        self.mass.settle();
    }

    pub fn finish(&self) -> CalibrationFigures {
        let mean = |x: f64| (self.items > 0).then(|| x / self.items as f64);
        CalibrationFigures {
            ece: self.width.ece(),
            ece_em: self.mass.ece(),
            brier: mean(self.brier),
            epa: mean(self.epa),
            nll: mean(self.nll),
            items: self.items,
            bins: self.width.bins(),
            bins_em: self.mass.bins(),
        }
    }
}

/// Mean outside mass over the items whose outside mass is known (SPEC §2).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutsideMass {
    items: u64,
    sum: f64,
}

impl OutsideMass {
    pub fn update(&mut self, item: &Item) {
        if let Some(m) = item
            .as_option()
            .and_then(|o| o.probs.as_ref())
            .and_then(|p| p.outside)
        {
            self.add(m);
        }
    }

    pub fn merge(&mut self, other: Self) {
        self.items += other.items;
        self.sum += other.sum;
    }

    /// Adds one item's known outside mass.
    pub fn add(&mut self, mass: f64) {
        self.add_times(mass, 1);
    }

    /// Adds one item's outside mass `times` times at once (the bootstrap's resampled copies).
    pub fn add_times(&mut self, mass: f64, times: u32) {
        self.items += u64::from(times);
        self.sum += f64::from(times) * mass;
    }

    pub fn finish(&self) -> Option<f64> {
        (self.items > 0).then(|| self.sum / self.items as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The memo gives `math::ln`'s bits for every argument, repeated or not (zeros of both
        /// signs, the floor, subnormals, NaN, values one ulp apart).
        #[test]
        fn the_memo_gives_the_logarithm(picks in proptest::collection::vec(0usize..10, 0..40)) {
            let values = [
                0.25,
                0.25f64.next_up(),
                0.0,
                -0.0,
                NLL_FLOOR,
                f64::MIN_POSITIVE / 4.0,
                1.0,
                0.6373 / 1.0001,
                f64::NAN,
                f64::INFINITY,
            ];
            let mut memo = LnMemo::default();
            for i in picks {
                let x = values[i];
                prop_assert_eq!(memo.ln(x).to_bits(), crate::math::ln(x).to_bits(), "{}", x);
            }
        }
    }
}
