//! The numpy reference's runs (scripts/reference/leaderboard_expected.json) as scored runs, for
//! the native and the wasm32 leaderboard tests.

use scorelens::{score_run, BootstrapOptions, Input, Options, Run};
use serde_json::Value;

pub const REFERENCE: &str = include_str!("../../scripts/reference/leaderboard_expected.json");

/// The leaderboard of the reference's runs, natively: what the wasm32 build must equal byte for
/// byte (tests/leaderboard_reference.rs checks it is current).
pub const NATIVE_JSON: &str = include_str!("../fixtures/leaderboard/reference-runs.json");

pub fn reference() -> Value {
    serde_json::from_str(REFERENCE).unwrap()
}

/// The reference's seed and resamples.
pub fn options(doc: &Value) -> BootstrapOptions {
    BootstrapOptions {
        resamples: doc["resamples"].as_u64().unwrap() as u32,
        seed: doc["seed"].as_u64().unwrap(),
    }
}

/// The reference's runs as canonical JSONL files, scored.
pub fn runs(doc: &Value) -> Vec<Run> {
    doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let name = r["name"].as_str().unwrap();
            let mut body = format!(
                "{{\"scorelens\": 1, \"model\": \"{name}\", \"benchmark\": \"generic\"}}\n"
            );
            for it in r["items"].as_array().unwrap() {
                let mut line = it.clone();
                line["type"] = Value::from("choice");
                body += &line.to_string();
                body.push('\n');
            }
            let input = Input {
                name,
                bytes: body.as_bytes(),
            };
            score_run(name, [input], &Options::default()).unwrap()
        })
        .collect()
}
