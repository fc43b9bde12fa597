//! How each profile's run is resampled for its intervals: which figure families it replays, what
//! its strata are, and what a resampling unit is (the bootstrap itself knows no benchmark).
//!
//! JevBench's design is split × type × tier, so its strata are those cells; every other profile
//! stratifies by group (RewardBench: by subset, whose sizes the sections' weights assume). A
//! RewardBench 2 Ties prompt pair (`ref:N` with `tied:N`) is one unit, since the composite scores
//! the pair.

use super::ic::Scope;
use super::rewardbench::replay::{ties_cluster, RewardBenchReplay};
use super::{cmdb, decision_bench, jevbench, rewardbench, steer, Profile};
use crate::metrics::bootstrap::ic::IcReplay;
use crate::metrics::bootstrap::summary::SummaryReplay;
use crate::metrics::bootstrap::{Replay, Sample, Strata};

/// An empty sample for a run under `profile`.
pub fn sample_for(profile: &Profile) -> Sample {
    let summary: Box<dyn Replay> = Box::new(SummaryReplay::default());
    let ic = |scope: Scope| -> Box<dyn Replay> { Box::new(IcReplay::new(scope.options())) };
    let name = profile.name;
    if name == rewardbench::PROFILE.name {
        let rb: Box<dyn Replay> = Box::new(RewardBenchReplay::v1());
        Sample::new(Strata::Group, None, "item", vec![summary, rb])
    } else if name == rewardbench::v2::PROFILE.name {
        let rb: Box<dyn Replay> = Box::new(RewardBenchReplay::v2());
        let units = "item (a Ties ref:N / tied:N prompt pair is one unit)";
        Sample::new(Strata::Group, Some(ties_cluster), units, vec![summary, rb])
    } else if name == jevbench::PUBLIC_231.name {
        let ic = ic(jevbench::PUBLIC_231_SCOPE);
        Sample::new(Strata::SplitTypeTier, None, "item", vec![summary, ic])
    } else if name == jevbench::HARD_111.name {
        let ic = ic(jevbench::HARD_111_SCOPE);
        Sample::new(Strata::SplitTypeTier, None, "item", vec![summary, ic])
    } else if name == decision_bench::PROFILE.name {
        let ic = ic(decision_bench::SCOPE);
        Sample::new(Strata::Group, None, "item", vec![summary, ic])
    } else if name == cmdb::PROFILE.name {
        Sample::new(Strata::Group, None, "item", vec![summary, ic(cmdb::SCOPE)])
    } else if name == steer::PROFILE.name {
        Sample::new(Strata::Group, None, "item", vec![summary])
    } else {
        // generic: the general figures and I/C.
        Sample::new(Strata::Group, None, "item", vec![summary, ic(Scope::All)])
    }
}
