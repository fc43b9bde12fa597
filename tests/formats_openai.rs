//! OpenAI evals logs: real fixtures written by `oaieval` (evals 3.0.1.post1) with a canned
//! completion function (tests/fixtures/README.md), checked against the log's own final_report.

use scorelens::report::Report;
use scorelens::{score, Error, Input, Options};
use serde_json::Value;

const DIR: &str = "tests/fixtures/openai_evals";

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(name: &str, bytes: &[u8]) -> Result<Report, Error> {
    score(&[Input { name, bytes }], &Options::default())
}

/// The log's own `final_report.accuracy`, read straight from the file.
fn final_accuracy(bytes: &[u8]) -> f64 {
    let text = std::str::from_utf8(bytes).unwrap();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| v["final_report"]["accuracy"].as_f64())
        .unwrap()
}

#[test]
fn free_text_matches_are_graded_by_the_log() {
    let bytes = read(&format!("{DIR}/match.jsonl"));
    let r = run("match.jsonl", &bytes).unwrap();
    assert_eq!((r.items, r.skipped), (4, 0));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.metrics.accuracy, Some(final_accuracy(&bytes)));
    assert_eq!(
        r.metrics.normalized, None,
        "no option menu, no chance baseline"
    );
    assert_eq!(r.model.as_deref(), Some("canned"));
    assert_eq!(r.groups[0].name, "demo-match");
    let reported = r.reported.iter().find(|x| x.name == "accuracy").unwrap();
    assert_eq!(
        (reported.source.as_str(), reported.value),
        ("OpenAI evals", 0.5)
    );
    assert_eq!(
        r.files[0].version.as_deref(),
        Some("oaieval log of demo-match.dev.v0")
    );
}

#[test]
fn matches_with_an_option_menu_are_choices() {
    let bytes = read(&format!("{DIR}/choice.jsonl"));
    let r = run("choice.jsonl", &bytes).unwrap();
    assert_eq!(r.metrics.accuracy, Some(final_accuracy(&bytes)));
    // Two right (1 each), one wrong pick and one unmatched "D" (invalid), k = 3: -1/2 each.
    assert_eq!(r.metrics.normalized, Some((1.0 + 1.0 - 0.5 - 0.5) / 4.0));
    assert_eq!(r.metrics.invalid_share, Some(0.25));
    assert!(r.files[0].mapping.iter().any(|m| m.contains("choice item")));
}

#[test]
fn events_are_items_and_the_rest_is_accounted_for() {
    let lines = [
        r#"{"spec": {"completion_fns": ["m1"], "eval_name": "e.dev.v0", "base_eval": "e", "run_id": "r"}}"#,
        r#"{"run_id": "r", "event_id": 0, "sample_id": "e.0", "type": "sampling", "data": {"prompt": "p", "sampled": ["x"]}}"#,
        r#"{"run_id": "r", "event_id": 1, "sample_id": "e.0", "type": "match", "data": {"correct": true, "expected": "x", "picked": "x"}}"#,
        r#"{"run_id": "r", "event_id": 2, "sample_id": "e.0", "type": "match", "data": {"correct": false, "expected": "y", "picked": null}}"#,
        r#"{"run_id": "r", "event_id": 3, "sample_id": "e.1", "type": "match", "data": {"expected": "y"}}"#,
        r#"{"run_id": "r", "event_id": 4, "sample_id": "e.2", "type": "match", "data": {"correct": true"#,
    ];
    let r = run("log.jsonl", lines.join("\n").as_bytes()).unwrap();
    // Accuracy counts match events, not samples: e.0 has two.
    assert_eq!((r.items, r.skipped), (2, 2));
    assert_eq!(r.metrics.accuracy, Some(0.5));
    assert_eq!(r.files[0].not_applicable, 1, "the sampling event");
    let at = |n: u64| {
        r.warnings
            .iter()
            .find(|w| w.line == Some(n))
            .unwrap()
            .reason
            .clone()
    };
    assert!(at(5).contains("boolean `correct`"), "{}", at(5));
    assert!(at(6).starts_with("not valid JSON"), "{}", at(6));
    let last = r.warnings.last().unwrap();
    assert!(last.reason.contains("no final_report"), "{}", last.reason);
    assert_eq!(last.line, None);
}

#[test]
fn a_log_without_matches_has_nothing_to_score() {
    let text = r#"{"spec": {"completion_fns": ["m"], "eval_name": "e.dev.v0", "run_id": "r"}}
{"final_report": {"accuracy": NaN}}"#;
    match run("log.jsonl", text.as_bytes()) {
        Err(Error::NoItems(w)) => assert!(w[0].reason.contains("not valid JSON"), "{w:?}"),
        other => panic!("{other:?}"),
    }
}
