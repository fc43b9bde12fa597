//! The embed package's TypeScript types (www/embed/types.d.ts, appended to the `.d.ts` that
//! wasm-bindgen writes) against real reports: every interface that names a part of the report
//! lists exactly its keys, so a field added to the report in Rust cannot go untyped unnoticed.

use scorelens::{score, Input, Options};
use serde_json::Value;
use std::collections::BTreeSet;

const TYPES: &str = include_str!("../www/embed/types.d.ts");

/// An interface's keys: (the required ones, the optional ones, whether it has an index signature).
fn interface(name: &str) -> (BTreeSet<String>, BTreeSet<String>, bool) {
    let start = TYPES
        .find(&format!("export interface {name} "))
        .unwrap_or_else(|| panic!("types.d.ts has no interface {name}"));
    let body = &TYPES[start..];
    let body = &body[body.find('{').unwrap() + 1..];
    // Top-level members only: skip what nested braces hold.
    let (mut depth, mut end) = (0, body.len());
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                end = i;
                break;
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    let (mut required, mut optional, mut open) = (BTreeSet::new(), BTreeSet::new(), false);
    let mut depth = 0;
    for line in body[..end].lines() {
        let t = line.trim();
        if depth == 0 && !t.starts_with("/**") && !t.starts_with('*') {
            if t.starts_with('[') {
                open = true;
            } else if let Some(colon) = t.find(':') {
                let key = &t[..colon];
                match key.strip_suffix('?') {
                    Some(k) => optional.insert(k.to_string()),
                    None => required.insert(key.to_string()),
                };
            }
        }
        depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
    }
    (required, optional, open)
}

fn check(name: &str, value: &Value) {
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("{name}: not an object: {value}"));
    let keys: BTreeSet<String> = object.keys().cloned().collect();
    let (required, optional, open) = interface(name);
    let missing: Vec<_> = required.difference(&keys).collect();
    assert!(missing.is_empty(), "{name}: the report has no {missing:?}");
    if !open {
        let untyped: Vec<_> = keys
            .iter()
            .filter(|k| !required.contains(*k) && !optional.contains(*k))
            .collect();
        assert!(untyped.is_empty(), "{name}: types.d.ts lacks {untyped:?}");
    }
}

fn report(file: &str, bytes: &[u8]) -> Value {
    let r = score(&[Input { name: file, bytes }], &Options::default()).unwrap();
    serde_json::to_value(&r).unwrap()
}

fn sample(name: &str) -> Value {
    let bytes =
        std::fs::read(format!("{}/www/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    report(name, &bytes)
}

#[test]
fn report_types_list_the_reports_keys() {
    let jev = sample("jevbench-public-231.jsonl");
    check("Report", &jev);
    check("FileSummary", &jev["files"][0]);
    check("Metrics", &jev["metrics"]);
    check("Calibration", &jev["conditioning"]);
    check("Calibration", &jev["mixing"]);
    check("Bin", &jev["conditioning"]["bins"][9]);
    check("IcFigures", &jev["ic"]);
    check("IcType", &jev["ic"]["types"]["choice"]);
    check("GroupFigures", &jev["groups"][0]);
    check("Intervals", &jev["intervals"]);

    let rb = sample("rewardbench-v2-scores.json");
    check("Report", &rb);
    check("RewardBenchFigures", &rb["rewardbench"]);

    let reported = sample("rewardbench-v1-eval-set.json");
    check("Reported", &reported["reported"][0]);

    let bad =
        "{\"id\":\"a\",\"options\":[\"A\",\"B\"],\"gold\":\"A\",\"answer\":\"A\"}\nnot json\n";
    let warned = report("bad.jsonl", bad.as_bytes());
    check("Problem", &warned["warnings"][0]);
}

#[test]
fn the_parser_reads_what_it_must() {
    let (required, optional, open) = interface("IcFigures");
    assert!(required.contains("types") && required.contains("i"));
    assert!(optional.contains("out_of_scope"));
    assert!(
        !required.contains("choice"),
        "nested keys are not the interface's"
    );
    assert!(!open);
    assert!(interface("IcType").2, "an index signature");
}
