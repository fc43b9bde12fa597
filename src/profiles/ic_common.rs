//! The rules shared by every profile that reports I/C (SPEC §5, §7): the generic profile and the
//! JevBench, Decision Bench and CMDB-1500 profiles differ only in which items they admit, how they
//! rewrite them, and the notes they add; the figures come from one accumulator.

use super::{Context, Rules};
use crate::items::{Body, Item, OptionKind, Tier};
use crate::metrics::ic::{IcAccumulator, IcOptions};
use crate::metrics::ic_cells::{tier_index, TIERS};
use crate::metrics::multi::MultiAccumulator;
use crate::report::Report;

/// Which benchmark's scope rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every item as it comes (generic, `jevbench-public-231`, `cmdb-1500`).
    All,
    /// Hard tier only; items without a tier are taken as hard (`jevbench-hard-111`).
    HardOnly,
    /// Every option item scored as Choice without tiers, TVD against the one-hot gold
    /// (`decision-bench`).
    ChoiceNoTiers,
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
}

const TIER_NAMES: [&str; TIERS] = ["easy", "standard", "judge", "hard", "none"];

impl IcRules {
    pub fn new(name: &'static str, scope: Scope, notes: &'static [&'static str]) -> Self {
        let opts = IcOptions {
            one_hot_tvd: scope == Scope::ChoiceNoTiers,
        };
        IcRules {
            name,
            scope,
            ic: IcAccumulator::new(opts),
            multi: MultiAccumulator::default(),
            out_of_scope: [0; TIERS],
            rewritten: 0,
            notes,
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
}

impl Rules for IcRules {
    fn admit(&mut self, item: &mut Item) -> bool {
        match self.scope {
            Scope::All => true,
            Scope::HardOnly => match item.tier {
                Some(Tier::Hard) => true,
                None => {
                    item.tier = Some(Tier::Hard);
                    self.rewritten += 1;
                    true
                }
                other => {
                    if let Some(n) = self.out_of_scope.get_mut(tier_index(other)) {
                        *n += 1;
                    }
                    false
                }
            },
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
                "{name}: {out} items outside the hard tier ({}) are out of scope and left out of every figure",
                tiers.join(", ")
            ));
        }
        if self.rewritten > 0 {
            report.notes.push(match self.scope {
                Scope::HardOnly => format!(
                    "{name}: {} items without a tier are taken as hard",
                    self.rewritten
                ),
                _ => format!(
                    "{name}: {} items were scored as choice items without a tier",
                    self.rewritten
                ),
            });
        }
        if let Some(f) = &ic {
            report.notes.push(
                "ic: I is the mean of the type CCs (choice, binary, rating; equal weights), i_weighted \
                 uses 50/25/25; each CC is chance-corrected (0 = uniform guessing, 100 = perfect), \
                 tier-weighted easy/standard/judge/hard 0.1/0.2/0.3/0.4 over the tiers present"
                    .to_string(),
            );
            report.notes.push(
                "ic: C uses conditioning probabilities and 10-bin equal-width ECE mapped to \
                 max(0, 100(1 - 2 ECE)); choice averages it with 100(1 - TVD), rating with 100(1 - RPS), \
                 binary bins p_yes against gold = yes"
                    .to_string(),
            );
            if let Some(choice) = &f.overall.types.choice {
                if choice.ece_items > 0 && choice.tvd_items == 0 {
                    report.notes.push(
                        "ic: no choice item has gold_probs, so the choice C is its ECE term alone"
                            .to_string(),
                    );
                }
            }
            report
                .notes
                .extend(self.notes.iter().map(|n| n.to_string()));
        }
        report.ic = ic;
        report.multi = self.multi.finish();
    }
}
