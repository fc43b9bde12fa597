//! The SPEC §2–§4 figures every profile reports: accuracy, groups, calibration both ways, outside mass.

use super::accuracy::{Accuracy, AccuracyFigures};
use super::calibration::{Calibration, CalibrationFigures, LnMemo, OutsideMass};
use super::groups::Groups;
use super::outcome::outcome;
use crate::items::{Item, Mode};

/// One accumulator over all the general-purpose figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub overall: Accuracy,
    pub groups: Groups,
    pub conditioning: Calibration,
    pub mixing: Calibration,
    pub outside: OutsideMass,
}

impl Default for Summary {
    fn default() -> Self {
        Summary {
            overall: Accuracy::default(),
            groups: Groups::default(),
            conditioning: Calibration::new(Mode::Conditioning),
            mixing: Calibration::new(Mode::Mixing),
            outside: OutsideMass::default(),
        }
    }
}

/// The finished general-purpose figures.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryFigures {
    pub overall: AccuracyFigures,
    pub macro_accuracy: Option<f64>,
    pub macro_normalized: Option<f64>,
    pub groups: Vec<(String, AccuracyFigures)>,
    pub conditioning: CalibrationFigures,
    pub mixing: CalibrationFigures,
    pub outside_mass: Option<f64>,
}

impl Summary {
    pub fn update(&mut self, item: &Item) {
        let o = outcome(item);
        self.overall.add(&o);
        self.groups.add_shared(item.group.as_ref(), &o);
        // The two modes' parts of an item often take the same logarithm: taken once.
        let mut memo = LnMemo::default();
        self.conditioning.update_with(item, &mut memo);
        self.mixing.update_with(item, &mut memo);
        self.outside.update(item);
    }

    pub fn merge(&mut self, other: Self) {
        self.overall.merge(other.overall);
        self.groups.merge(other.groups);
        self.conditioning.merge(other.conditioning);
        self.mixing.merge(other.mixing);
        self.outside.merge(other.outside);
    }

    pub fn finish(&self) -> SummaryFigures {
        let (macro_accuracy, macro_normalized) = self.groups.macro_figures();
        SummaryFigures {
            overall: self.overall.finish(),
            macro_accuracy,
            macro_normalized,
            groups: self.groups.finish(),
            conditioning: self.conditioning.finish(),
            mixing: self.mixing.finish(),
            outside_mass: self.outside.finish(),
        }
    }
}
