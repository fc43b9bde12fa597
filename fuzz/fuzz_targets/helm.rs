//! Fuzzes the HELM readers (scenario_state, per_instance_stats, stats, companions) and their join through a whole session (see common.rs for the input layout).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::{self, Format};

static FAMILY: &[&dyn Format] = &[
    &formats::helm::SCENARIO_STATE,
    &formats::helm::PER_INSTANCE_STATS,
    &formats::helm::STATS,
    &formats::helm::COMPANION,
];

fuzz_target!(|data: &[u8]| common::run(data, FAMILY));
