//! Fuzzes the RewardBench readers (score arrays, JSON Lines outputs, aggregates) through a whole session (see common.rs for the input layout).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::{self, Format};

static FAMILY: &[&dyn Format] = &[
    &formats::rewardbench::arrays::RewardBenchArrays,
    &formats::rewardbench::jsonl::RewardBenchJsonl,
    &formats::rewardbench::aggregate::RewardBenchAggregate,
];

fuzz_target!(|data: &[u8]| common::run(data, FAMILY));
