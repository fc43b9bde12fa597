//! Benchmark rules: which figures a benchmark reports, with which weights and scopes (SPEC §7).
//!
//! This is the only place that knows a benchmark's name. A `Profile` names the rules; a `Scorer`
//! applies them, feeding each item to the general figures and to the profile's own accumulators.

mod generic;
mod steer;

use crate::items::Item;
use crate::metrics::Summary;
use crate::report::{GroupFigures, Metrics, Report, SCHEMA};

/// A benchmark's scoring rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Generic,
    Steer,
}

impl Profile {
    /// Every profile, in the order menus list them.
    pub fn all() -> &'static [Profile] {
        &[Profile::Generic, Profile::Steer]
    }

    pub fn name(self) -> &'static str {
        match self {
            Profile::Generic => "generic",
            Profile::Steer => "steer",
        }
    }

    /// One line saying what the profile does, for `--help` and menus.
    pub fn describe(self) -> &'static str {
        match self {
            Profile::Generic => generic::DESCRIPTION,
            Profile::Steer => steer::DESCRIPTION,
        }
    }

    /// The profile a name (from the user, a header or a `benchmark` field) refers to.
    pub fn parse(name: &str) -> Option<Profile> {
        let wanted = name.trim().to_ascii_lowercase().replace('_', "-");
        Profile::all().iter().copied().find(|p| p.name() == wanted)
    }
}

/// Scores items under one profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Scorer {
    profile: Profile,
    summary: Summary,
}

/// What the scorer needs to know besides the items.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Context {
    pub model: Option<String>,
    pub benchmark: Option<String>,
}

impl Scorer {
    pub fn new(profile: Profile) -> Self {
        Scorer {
            profile,
            summary: Summary::default(),
        }
    }

    pub fn profile(&self) -> Profile {
        self.profile
    }

    pub fn update(&mut self, item: &Item) {
        self.summary.update(item);
    }

    pub fn merge(&mut self, other: Self) {
        self.summary.merge(other.summary);
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
        match self.profile {
            Profile::Generic => {}
            Profile::Steer => notes.extend(steer::notes()),
        }
        Report {
            schema: SCHEMA.to_string(),
            profile: self.profile.name().to_string(),
            model: ctx.model.clone(),
            benchmark: ctx.benchmark.clone(),
            files: Vec::new(),
            items: s.overall.items,
            skipped: 0,
            warnings: Vec::new(),
            notes,
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
            rewardbench: None,
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
        }
    }
}
