//! The I/C sample files in www/samples (written by scripts/samples/ic.py): each is detected from
//! its header, scores the same with `--profile`, its figures (and the spec-v2 fixtures') equal an
//! independent Python computation to 1e-12, and the CLI prints its I/C tables.

use scorelens::{Input, Options, Report};
use std::path::Path;
use std::process::Command;

const SAMPLES: [(&str, &str); 4] = [
    ("jevbench-public-231.jsonl", "jevbench-public-231"),
    ("jevbench-hard-111.jsonl", "jevbench-hard-111"),
    ("decision-bench.jsonl", "decision-bench"),
    ("cmdb-1500.jsonl", "cmdb-1500"),
];

fn samples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples"))
}

fn score(files: &[&str], profile: Option<&str>) -> Report {
    let bytes: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            (
                f.to_string(),
                std::fs::read(samples().join(f)).expect("sample file"),
            )
        })
        .collect();
    let inputs: Vec<Input> = bytes
        .iter()
        .map(|(name, b)| Input { name, bytes: b })
        .collect();
    let opts = Options {
        profile: profile.map(str::to_string),
        strict: true,
        ..Options::default()
    };
    scorelens::score(&inputs, &opts).expect("the sample scores without a warning")
}

#[test]
fn each_sample_is_detected_from_its_header_and_matches_its_profile() {
    for (file, profile) in SAMPLES {
        let detected = score(&[file], None);
        assert_eq!(detected.profile, profile, "{file}");
        assert!(
            detected
                .model
                .as_deref()
                .unwrap_or("")
                .contains("synthetic"),
            "{file}"
        );
        let chosen = score(&[file], Some(profile));
        assert_eq!(chosen.ic, detected.ic, "{file}");
    }
}

/// The figures of scripts/reference/ic_reference.py, an independent Python reading of SPEC §5
/// (`--write` regenerates this file, `--check` says whether it is stale).
const REFERENCE: &str = include_str!("../scripts/reference/ic_expected.json");

/// A report figure by its dotted CLI key (`ic.types.choice.cc`); null when any step is absent or
/// null, as a type with no items is.
fn figure(report: &serde_json::Value, path: &str) -> Option<f64> {
    let mut v = report;
    for key in path.split('.') {
        v = v.get(key)?;
    }
    if v.is_null() {
        return None;
    }
    Some(
        v.as_f64()
            .unwrap_or_else(|| panic!("{path} is not a number: {v}")),
    )
}

#[test]
fn ic_figures_match_the_independent_reference() {
    let reference: serde_json::Value = serde_json::from_str(REFERENCE).expect("reference JSON");
    let files = reference["files"].as_object().expect("files");
    assert!(
        files.len() >= 9,
        "the reference covers the samples and fixtures"
    );
    let mut wrong = Vec::new();
    let mut compared = 0;
    for (file, expected) in files {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let input = Input {
            name: file,
            bytes: &bytes,
        };
        // The profile comes from the file's header, as a reader's run would pick it.
        let opts = Options {
            profile: None,
            strict: true,
            ..Options::default()
        };
        let report = scorelens::score(&[input], &opts).expect("scores without a warning");
        assert_eq!(
            report.profile, expected["profile"],
            "{file}: profile from its header"
        );
        let report: serde_json::Value =
            serde_json::from_str(&report.to_json()).expect("report JSON");
        for (key, want) in expected["figures"].as_object().expect("figures") {
            let (got, want) = (figure(&report, key), want.as_f64());
            compared += 1;
            let same = match (got, want) {
                (Some(a), Some(b)) => (a - b).abs() <= 1e-12,
                (None, None) => true,
                _ => false,
            };
            if !same {
                wrong.push(format!(
                    "{file}: {key}: scorelens {got:?}, reference {want:?}"
                ));
            }
        }
    }
    assert!(compared > 300, "{compared} figures compared");
    assert!(
        wrong.is_empty(),
        "{} of {compared} I/C figures differ from scripts/reference/ic_expected.json by more \
         than 1e-12:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_cmdb_sample_has_scopes_and_multi() {
    let r = score(&["cmdb-1500.jsonl"], None);
    assert_eq!(r.items, 1500);
    let ic = r.ic.as_ref().unwrap();
    let (text, image) = (
        ic.scopes.text.as_ref().unwrap(),
        ic.scopes.image.as_ref().unwrap(),
    );
    assert_eq!(text.items + image.items, ic.overall.items);
    let m = r.multi.as_ref().unwrap();
    assert_eq!(m.overall.items + ic.overall.items, 1500);
    assert!(m.overall.p_gold_set.is_some());
}

#[test]
fn the_native_jevbench_files_score_like_the_canonical_sample() {
    let native = score(
        &[
            "jevbench-native/results.jsonl",
            "jevbench-native/hard.jsonl",
            "jevbench-native/easy.jsonl",
            "jevbench-native/original.jsonl",
        ],
        None,
    );
    let canonical = score(&["jevbench-public-231.jsonl"], None);
    assert_eq!(native.profile, "jevbench-public-231");
    assert_eq!(native.items, 231);
    let (a, b) = (native.ic.unwrap().overall, canonical.ic.unwrap().overall);
    for (x, y) in [(a.i, b.i), (a.i_weighted, b.i_weighted), (a.c, b.c)] {
        assert!((x.unwrap() - y.unwrap()).abs() < 1e-9, "{x:?} {y:?}");
    }
    // The same items in another order (the native files are joined, then emitted): counts agree
    // exactly; figures that are sums (ECE bins, Brier, NLL) may move in the last bits.
    let (x, y) = (a.types.binary.unwrap(), b.types.binary.unwrap());
    near(
        &serde_json::to_value(&x).unwrap(),
        &serde_json::to_value(&y).unwrap(),
        "binary",
    );
}

/// Equal JSON trees, numbers within 1e-12 (integers exactly).
fn near(a: &serde_json::Value, b: &serde_json::Value, path: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-12, "{path}: {x} vs {y}");
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(x.len(), y.len(), "{path}");
            for (k, v) in x {
                near(v, &y[k], &format!("{path}.{k}"));
            }
        }
        _ => assert_eq!(a, b, "{path}"),
    }
}

#[test]
fn the_cli_prints_the_ic_tables_with_profile() {
    let exe = env!("CARGO_BIN_EXE_scorelens");
    let out = Command::new(exe)
        .arg("score")
        .arg(samples().join("cmdb-1500.jsonl"))
        .args(["--profile", "cmdb-1500"])
        .output()
        .expect("runs the CLI");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "I and C (0-100)",
        "I/C by type",
        "I/C tiers",
        "Multi-select",
        "equal-width ECE",
    ] {
        assert!(text.contains(want), "missing {want}:\n{text}");
    }
}
