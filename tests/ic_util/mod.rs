//! Helpers shared by the I/C integration tests: score JSON Lines text, compare floats.
#![allow(dead_code)]

use scorelens::metrics::ic::figures::{IcFigures, TypeFigures};
use scorelens::{Input, Options, Report};

/// Scores canonical JSON Lines under a profile (None: header or generic).
pub fn score(lines: &[String], profile: Option<&str>) -> Report {
    let text = lines.join("\n");
    let opts = Options {
        profile: profile.map(str::to_string),
        strict: false,
        ..Options::default()
    };
    let input = Input {
        name: "test.jsonl",
        bytes: text.as_bytes(),
    };
    scorelens::score(&[input], &opts).expect("scores")
}

pub fn ic(r: &Report) -> &IcFigures {
    r.ic.as_ref().expect("ic figures")
}

pub fn choice(r: &Report) -> &TypeFigures {
    ic(r).overall.types.choice.as_ref().expect("choice figures")
}

pub fn binary(r: &Report) -> &TypeFigures {
    ic(r).overall.types.binary.as_ref().expect("binary figures")
}

pub fn rating(r: &Report) -> &TypeFigures {
    ic(r).overall.types.rating.as_ref().expect("rating figures")
}

/// Asserts |a - b| <= tol, with a message.
#[track_caller]
pub fn close(a: Option<f64>, b: f64, tol: f64) {
    let a = a.expect("a figure, not null");
    assert!((a - b).abs() <= tol, "{a} vs {b}");
}

/// A choice item line.
pub fn choice_item(id: &str, k: usize, gold: usize, answer: usize, tier: Option<&str>) -> String {
    let options: Vec<String> = (0..k).map(|i| format!("\"o{i}\"")).collect();
    let tier = tier.map_or(String::new(), |t| format!(",\"tier\":\"{t}\""));
    format!(
        "{{\"id\":\"{id}\",\"options\":[{}],\"gold\":\"o{gold}\",\"answer\":\"o{answer}\"{tier}}}",
        options.join(",")
    )
}

/// A binary item line with p_yes.
pub fn binary_item(id: &str, gold: &str, p_yes: f64, extra: &str) -> String {
    format!("{{\"id\":\"{id}\",\"type\":\"binary\",\"gold\":\"{gold}\",\"p_yes\":{p_yes}{extra}}}")
}
