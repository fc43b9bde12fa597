//! Benchmark rules: which figures a benchmark reports, with which weights and scopes (SPEC §7).
//!
//! This is the only place that knows a benchmark's name. Each profile module exports a `PROFILE`
//! and is listed in `PROFILES`; its `Rules` may rewrite or exclude items, keep accumulators of its
//! own, and write its figures into the report. The general SPEC §2–§4 figures are always computed.

mod cmdb;
mod decision_bench;
mod frozen;
mod generic;
pub mod headline;
mod ic;
mod jevbench;
pub mod resampling;
mod rewardbench;
mod steer;

use crate::items::Item;
use crate::metrics::Summary;
use crate::report::{GroupFigures, Metrics, Report, SCHEMA};
use std::fmt;

/// A benchmark's name, description and rules.
pub struct Profile {
    /// The name users type and files carry in `benchmark`, e.g. `rewardbench`.
    pub name: &'static str,
    /// One line saying what the profile does, for `--help` and menus.
    pub describe: &'static str,
    /// Fresh rules state for one run.
    pub rules: fn() -> Box<dyn Rules>,
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Profile({})", self.name)
    }
}

impl PartialEq for Profile {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// Every profile, in the order menus list them.
pub static PROFILES: &[&Profile] = &[
    &generic::PROFILE,
    &steer::PROFILE,
    &jevbench::PUBLIC_231,
    &jevbench::HARD_111,
    &decision_bench::PROFILE,
    &cmdb::PROFILE,
    &rewardbench::PROFILE,
    &rewardbench::v2::PROFILE,
];

impl Profile {
    pub fn all() -> &'static [&'static Profile] {
        PROFILES
    }

    /// The profile a name (from the user, a header or a `benchmark` field) refers to.
    pub fn parse(name: &str) -> Option<&'static Profile> {
        let wanted = name.trim().to_ascii_lowercase().replace('_', "-");
        PROFILES.iter().copied().find(|p| p.name == wanted)
    }

    /// The default profile.
    pub fn generic() -> &'static Profile {
        &generic::PROFILE
    }
}

/// A profile's behaviour during one run; every method has a do-nothing default.
pub trait Rules: fmt::Debug {
    /// Rewrites an item before it is scored, or returns false to keep it out of every figure.
    fn admit(&mut self, _item: &mut Item) -> bool {
        true
    }
    /// Feeds an admitted item to the profile's own accumulators.
    fn update(&mut self, _item: &Item) {}
    /// Writes the profile's own figures and notes into the report; `ctx` holds what the files
    /// said besides their items.
    fn finish(&self, _ctx: &Context, _report: &mut Report) {}
}

/// Scores items under one profile.
#[derive(Debug)]
pub struct Scorer {
    profile: &'static Profile,
    summary: Summary,
    rules: Box<dyn Rules>,
}

/// What the scorer needs to know besides the items.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Context {
    pub model: Option<String>,
    pub benchmark: Option<String>,
    /// Figures the tools wrote in the files, so that a profile can use them (RewardBench's
    /// aggregates give its sections without items) or set its own beside them.
    pub reported: Vec<crate::reported::Reported>,
    /// The response lengths the readers measured, each with the index of its file in the run
    /// (RewardBench's length baseline).
    pub texts: Vec<(usize, crate::reported::TextLengths)>,
}

impl Scorer {
    pub fn new(profile: &'static Profile) -> Self {
        Scorer {
            profile,
            summary: Summary::default(),
            rules: (profile.rules)(),
        }
    }

    pub fn profile(&self) -> &'static Profile {
        self.profile
    }

    /// Scores one item; returns false when the profile keeps it out of scope.
    pub fn update(&mut self, item: Item) -> bool {
        self.update_seen(item, |_| {})
    }

    /// Like `update`, and shows the admitted item, as the profile rewrote it, to `seen`.
    pub fn update_seen(&mut self, mut item: Item, seen: impl FnOnce(&Item)) -> bool {
        self.update_seen_in(&mut item, seen)
    }

    /// `update_seen` of an item that stays where it is: the CLI's replay scores each item in its
    /// block's list, and the worker that allocated it frees it.
    pub fn update_seen_in(&mut self, item: &mut Item, seen: impl FnOnce(&Item)) -> bool {
        if !self.rules.admit(item) {
            return false;
        }
        self.summary.update(item);
        self.rules.update(item);
        seen(item);
        true
    }

    /// Sorts the equal-mass lists in place once no item will come: `finish` then
    /// needs no sorted copy of them (`EqualMass::settle`; the browser's peak memory).
    pub fn settle(&mut self) {
        let (conditioning, mixing) = (&mut self.summary.conditioning, &mut self.summary.mixing);
        crate::metrics::ece::equal_mass::both(|| conditioning.settle(), || mixing.settle());
    }

    /// The report's figures; the caller fills in files, counts and warnings.
    pub fn finish(&self, ctx: &Context) -> Report {
        let s = self.summary.finish();
        let mut notes = Vec::new();
        if s.conditioning.items > 0 && s.conditioning.items < 300 {
            notes.push(format!(
                "equal-mass ECE (ece_em) rests on {} items; HELM warns that it is unreliable below about 300",
                s.conditioning.items
            ));
        }
        if s.conditioning.items > s.mixing.items {
            notes.push(format!(
                "{} items give log-likelihoods, whose outside mass is unknown; they are left out of the mixing figures",
                s.conditioning.items - s.mixing.items
            ));
        }
        let mut report = Report {
            schema: SCHEMA.to_string(),
            profile: self.profile.name.to_string(),
            model: ctx.model.clone(),
            benchmark: ctx.benchmark.clone(),
            files: Vec::new(),
            items: s.overall.items,
            skipped: 0,
            warnings: Vec::new(),
            notes,
            reported: ctx.reported.clone(),
            metrics: Metrics {
                accuracy: s.overall.accuracy,
                normalized: s.overall.normalized,
                invalid_share: s.overall.invalid_share,
                outside_mass: s.outside_mass,
                macro_accuracy: s.macro_accuracy,
                macro_normalized: s.macro_normalized,
            },
            conditioning: s.conditioning,
            mixing: s.mixing,
            ic: None,
            multi: None,
            rewardbench: None,
            scope: None,
            intervals: Default::default(),
            groups: s
                .groups
                .into_iter()
                .map(|(name, g)| GroupFigures {
                    name,
                    items: g.items,
                    correct: g.correct,
                    accuracy: g.accuracy,
                    normalized: g.normalized,
                    invalid_share: g.invalid_share,
                })
                .collect(),
        };
        self.rules.finish(ctx, &mut report);
        report.intervals.wilson = crate::report::intervals::wilson_intervals(&report);
        report
    }
}
