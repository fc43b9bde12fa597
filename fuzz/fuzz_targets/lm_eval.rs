//! Fuzzes the lm-eval samples and results readers through a whole session (see common.rs for the input layout).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::{self, Format};

static FAMILY: &[&dyn Format] = &[
    &formats::lm_eval::LmEvalSamples,
    &formats::lm_eval::results::LmEvalResults,
];

fuzz_target!(|data: &[u8]| common::run(data, FAMILY));
