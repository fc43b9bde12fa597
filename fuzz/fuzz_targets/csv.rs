//! Fuzzes the CSV/TSV table reader through a whole session (see common.rs for the input layout).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::{self, Format};

static FAMILY: &[&dyn Format] = &[&formats::csv::CsvTable];

fuzz_target!(|data: &[u8]| common::run(data, FAMILY));
