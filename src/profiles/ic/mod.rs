//! The rules shared by every profile that reports I/C (SPEC §5, §7): the generic profile and the
//! JevBench, Decision Bench and CMDB-1500 profiles differ only in which items they admit, how they
//! rewrite them, and the notes they add; the figures come from one accumulator.

pub(crate) mod how;
mod notes;

use super::frozen::{Frozen, FrozenTally};
use super::{Context, Rules};
use crate::items::{Body, Item, OptionKind, Tier};
use crate::metrics::ic::calibration::CalibrationScope;
use crate::metrics::ic::cells::{tier_index, TIERS};
use crate::metrics::ic::{IcAccumulator, IcOptions};
use crate::metrics::multi::MultiAccumulator;
use crate::report::Report;
use notes::calibration_notes;

/// Which benchmark's scope rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every item as it comes (generic).
    All,
    /// Every item; the Choice ECE and TVD over the hard-tier choice items, falling back to every
    /// choice item when there is none (`jevbench-public-231`).
    HardChoiceCalibration,
    /// I/C from the hard tier only; items without a tier are taken as hard; `items` and `metrics`
    /// still count every item (`jevbench-hard-111`).
    HardOnly,
    /// Every option item scored as Choice without tiers, TVD against the one-hot gold
    /// (`decision-bench`).
    ChoiceNoTiers,
    /// Tiers ignored; one pooled top-label ECE over choice and binary items per scope, which is
    /// the Choice ECE term; binary adds no C of its own (`cmdb-1500`).
    PooledNoTiers,
}

impl Scope {
    /// The accumulator options the scope needs.
    pub fn options(self) -> IcOptions {
        IcOptions {
            one_hot_tvd: self == Scope::ChoiceNoTiers,
            hard_only: self == Scope::HardOnly,
            calibration: match self {
                Scope::HardChoiceCalibration => CalibrationScope::HardChoice,
                Scope::PooledNoTiers => CalibrationScope::Pooled,
                _ => CalibrationScope::Type,
            },
        }
    }
}

/// I/C and multi-select accumulators plus the scope's own counts.
#[derive(Debug)]
pub struct IcRules {
    /// The profile's name, for notes.
    name: &'static str,
    scope: Scope,
    ic: IcAccumulator,
    multi: MultiAccumulator,
    /// Items kept out of scope, per tier slot.
    out_of_scope: [u64; TIERS],
    /// Items whose tier or type the scope rewrote.
    rewritten: u64,
    /// Notes the profile adds whenever I/C is reported.
    notes: &'static [&'static str],
    /// The benchmark's frozen counts, counted over the file as it comes.
    frozen: Option<FrozenTally>,
}

const TIER_NAMES: [&str; TIERS] = ["easy", "standard", "judge", "hard", "none"];

impl IcRules {
    pub fn new(name: &'static str, scope: Scope, notes: &'static [&'static str]) -> Self {
        IcRules {
            name,
            scope,
            ic: IcAccumulator::new(scope.options()),
            multi: MultiAccumulator::default(),
            out_of_scope: [0; TIERS],
            rewritten: 0,
            notes,
            frozen: None,
        }
    }

    /// Boxed, for a `Profile`'s `rules`.
    pub fn boxed(
        name: &'static str,
        scope: Scope,
        notes: &'static [&'static str],
    ) -> Box<dyn Rules> {
        Box::new(IcRules::new(name, scope, notes))
    }

    /// Boxed, checking the file against the benchmark's frozen counts.
    pub fn boxed_frozen(
        name: &'static str,
        scope: Scope,
        notes: &'static [&'static str],
        frozen: &'static Frozen,
    ) -> Box<dyn Rules> {
        let mut rules = IcRules::new(name, scope, notes);
        rules.frozen = Some(FrozenTally::new(frozen));
        Box::new(rules)
    }
}

impl Rules for IcRules {
    fn admit(&mut self, item: &mut Item) -> bool {
        if let Some(f) = self.frozen.as_mut() {
            f.add(item);
        }
        let in_ic = item.as_option().is_some();
        match self.scope {
            Scope::All | Scope::HardChoiceCalibration => true,
            Scope::HardOnly => {
                match item.tier {
                    Some(Tier::Hard) => {}
                    None if in_ic => {
                        item.tier = Some(Tier::Hard);
                        self.rewritten += 1;
                    }
                    None => {}
                    other => {
                        if let Some(n) = self.out_of_scope.get_mut(tier_index(other)) {
                            *n += u64::from(in_ic);
                        }
                    }
                }
                true
            }
            Scope::PooledNoTiers => {
                self.rewritten += u64::from(item.tier.take().is_some());
                true
            }
            Scope::ChoiceNoTiers => {
                let mut changed = item.tier.take().is_some();
                if let Body::Option(o) = &mut item.body {
                    changed |= o.kind != OptionKind::Choice;
                    o.kind = OptionKind::Choice;
                }
                self.rewritten += u64::from(changed);
                true
            }
        }
    }

    fn update(&mut self, item: &Item) {
        self.ic.update(item);
        self.multi.update(item);
    }

    fn finish(&self, _ctx: &Context, report: &mut Report) {
        let name = self.name;
        let mut ic = self.ic.finish();
        if let Some(ic) = ic.as_mut() {
            for (n, count) in TIER_NAMES.iter().zip(self.out_of_scope) {
                if count > 0 {
                    ic.out_of_scope.insert(n.to_string(), count);
                }
            }
        }
        let out: u64 = self.out_of_scope.iter().sum();
        if out > 0 {
            let tiers: Vec<String> = TIER_NAMES
                .iter()
                .zip(self.out_of_scope)
                .filter(|(_, c)| *c > 0)
                .map(|(n, c)| format!("{n} {c}"))
                .collect();
            report.notes.push(format!(
                "{name}: {out} items outside the hard tier ({}) are left out of I/C; `items` and `metrics` count every item of the file",
                tiers.join(", ")
            ));
        }
        if self.rewritten > 0 {
            report.notes.push(match self.scope {
                Scope::HardOnly => format!(
                    "{name}: {} items without a tier are taken as hard",
                    self.rewritten
                ),
                Scope::PooledNoTiers => format!(
                    "{name}: the benchmark has no tier weighting; the tiers of {} items are ignored",
                    self.rewritten
                ),
                _ => format!(
                    "{name}: {} items were scored as choice items without a tier",
                    self.rewritten
                ),
            });
        }
        if let Some(f) = &self.frozen {
            let (scope, note) = f.finish(name);
            report.notes.extend(note);
            report.scope = Some(scope);
        }
        if let Some(f) = &ic {
            report.notes.push(
                "ic: I is the mean of the type CCs (choice, binary, rating; equal weights), i_weighted \
                 uses 50/25/25; each CC is chance-corrected (0 = uniform guessing, 100 = perfect), \
                 tier-weighted easy/standard/judge/hard 0.1/0.2/0.3/0.4 over the tiers present"
                    .to_string(),
            );
            report.notes.extend(calibration_notes(name, self.scope, f));
            report
                .notes
                .extend(self.notes.iter().map(|n| n.to_string()));
        }
        report.ic = ic;
        report.multi = self.multi.finish();
    }
}
