//! Fuzzes the OpenAI evals record-log reader through a whole session (see common.rs for the input layout).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::formats::{self, Format};

static FAMILY: &[&dyn Format] = &[&formats::openai_evals::OpenAiEvals];

fuzz_target!(|data: &[u8]| common::run(data, FAMILY));
