//! Decision Bench files: a published predictions.jsonl, a local run's results.jsonl joined with the
//! corpus cases.jsonl in either order, and the protocol's probability rules. Expected figures are
//! worked out by hand from the table in tests/fixtures/decision_bench/make_fixtures.py.

use proptest::prelude::*;
use scorelens::formats::{detect, HEAD};
use scorelens::report::Report;
use scorelens::{score, Error, Input, Options};
use serde_json::{json, Value};

const DIR: &str = "tests/fixtures/decision_bench";

fn read(name: &str) -> Vec<u8> {
    let path = format!("{DIR}/{name}");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run_named(files: &[(&str, Vec<u8>)]) -> Result<Report, Error> {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(n, b)| Input { name: n, bytes: b })
        .collect();
    score(&inputs, &Options::default())
}

fn run(names: &[&str]) -> Report {
    let files: Vec<(&str, Vec<u8>)> = names.iter().map(|n| (*n, read(n))).collect();
    run_named(&files).unwrap_or_else(|e| panic!("{names:?}: {e}"))
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-12)
}

fn reasons(r: &Report) -> Vec<String> {
    r.warnings.iter().map(|w| w.reason.clone()).collect()
}

/// The six rows by hand: sup-1 right (0.7), sup-2 wrong with its own non-arg-max label (0.35),
/// sup-3 an error row, fin-1 right (0.6), fin-2 wrong (0.9), fin-3 right (1.0).
fn check(r: &Report) {
    assert_eq!(r.profile, "decision-bench");
    assert_eq!(r.items, 6);
    assert!(close(r.metrics.accuracy, 3.0 / 6.0));
    assert!(close(r.metrics.invalid_share, 1.0 / 6.0));
    // Three options everywhere: a wrong answer scores -1/2.
    assert!(close(r.metrics.normalized, (3.0 - 3.0 * 0.5) / 6.0));
    assert!(close(r.metrics.outside_mass, 0.0));
    // Bins: 0.35 wrong; 0.6 right; 0.7 right; 0.9 wrong and 1.0 right share the last bin.
    let ece = (0.35 + 0.4 + 0.3 + 2.0 * (0.95 - 0.5)) / 5.0;
    assert!(close(r.conditioning.ece, ece));
    assert!(close(r.conditioning.ece, 0.39));
    assert!(close(
        r.conditioning.epa,
        (0.7 + 0.45 + 0.6 + 0.05 + 1.0) / 5.0
    ));
    let brier = (0.14 + 0.465 + 0.26 + 1.715 + 0.0) / 3.0 / 5.0;
    assert!(close(r.conditioning.brier, brier));
    let nll = -(0.7f64.ln() + 0.45f64.ln() + 0.6f64.ln() + 0.05f64.ln() + 1.0f64.ln()) / 5.0;
    assert!(close(r.conditioning.nll, nll));
    // No outside mass after renormalising: mixing is conditioning.
    assert!(close(r.mixing.ece, ece));
    let support = r.groups.iter().find(|g| g.name == "support").unwrap();
    assert_eq!(support.items, 3);
    assert!(close(support.accuracy, 1.0 / 3.0));
}

#[test]
fn published_predictions_alone_match_the_hand_worked_figures() {
    let r = run(&["predictions.jsonl"]);
    check(&r);
    assert_eq!(r.files[0].items, 6);
    assert_eq!(
        r.files[0].version.as_deref(),
        Some("predictions.jsonl (schema 1)")
    );
    // The error row has no probabilities; without the corpus its option count comes from its task.
    assert!(reasons(&r).iter().any(|w| w.contains("3 options assumed")));
}

#[test]
fn predictions_with_the_corpus_take_the_corpus_options() {
    let r = run(&["cases.jsonl", "predictions.jsonl"]);
    check(&r);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn a_runs_results_join_the_corpus_in_either_order() {
    let a = run(&["results.jsonl", "cases.jsonl"]);
    let b = run(&["cases.jsonl", "results.jsonl"]);
    check(&a);
    check(&b);
    assert_eq!(a.metrics, b.metrics);
    assert_eq!(a.conditioning, b.conditioning);
    // sup-2's first record (a timeout) is superseded by its retry.
    let results = b.files.iter().find(|f| f.name == "results.jsonl").unwrap();
    assert_eq!((results.items, results.not_applicable), (6, 1));
}

#[test]
fn results_without_the_corpus_say_what_is_missing() {
    let files = [("results.jsonl", read("results.jsonl"))];
    let Err(Error::NoItems(w)) = run_named(&files) else {
        panic!("results rows carry no gold");
    };
    assert!(
        w[0].reason.contains("6 rows") && w[0].reason.contains("cases.jsonl"),
        "{}",
        w[0]
    );
    let files = [("cases.jsonl", read("cases.jsonl"))];
    let Err(Error::NoItems(w)) = run_named(&files) else {
        panic!("a corpus holds no answers");
    };
    assert!(w[0].reason.contains("holds no answers"), "{}", w[0]);
}

#[test]
fn every_fixture_is_detected_and_near_misses_are_not() {
    for name in ["predictions.jsonl", "results.jsonl", "cases.jsonl"] {
        let bytes = read(name);
        let head = &bytes[..bytes.len().min(HEAD)];
        assert_eq!(
            detect(name, head).map(|f| f.name()),
            Some("decision-bench"),
            "{name}"
        );
    }
    let misses: [&[u8]; 4] = [
        br#"{"id": "a", "options": ["x", "y"], "gold": "x", "probs": {"x": 0.5}}"#,
        br#"{"task_id": "t1", "probs": {"a": 1.0}, "valid": true}"#,
        br#"{"doc_id": 0, "resps": [], "filtered_resps": []}"#,
        br#"{"row_id": "r1", "note": "no answer fields"}"#,
    ];
    for m in misses {
        assert_ne!(
            detect("x.jsonl", m).map(|f| f.name()),
            Some("decision-bench"),
            "{}",
            String::from_utf8_lossy(m)
        );
    }
}

fn row(id: &str, answer: Value, gold: &str, probs: Value, status: &str) -> Value {
    json!({"row_id": id, "task": "T", "category": "c", "status": status, "answer": answer,
           "gold": gold, "probabilities": probs})
}

fn lines(rows: &[Value]) -> Vec<u8> {
    rows.iter()
        .map(|r| format!("{r}\n"))
        .collect::<String>()
        .into_bytes()
}

#[test]
fn probabilities_read_as_spec_with_a_notice_where_the_protocol_differs() {
    let rows = [
        // Sums to 0.99: conditioning renormalises: q = (0.5, 0.49) / 0.99; outside mass 0.01.
        row("a", json!("x"), "x", json!({"x": 0.5, "y": 0.49}), "ok"),
        // Sums to 0.97: the protocol would reject it; SPEC §2 keeps it with outside mass 0.03.
        row("b", json!("x"), "x", json!({"x": 0.5, "y": 0.47}), "ok"),
        // A label that is not an option of the row's own distribution makes the answer invalid.
        row("c", json!("z"), "x", json!({"x": 0.4, "y": 0.6}), "ok"),
        // A status other than ok: no valid answer, whatever the row says.
        row("d", json!("x"), "x", json!({"x": 1.0, "y": 0.0}), "timeout"),
        // Sums to 1.05: above SPEC's 1.02, the probabilities are invalid; the answer still counts.
        row("e", json!("y"), "y", json!({"x": 0.5, "y": 0.55}), "ok"),
    ];
    let r = run_named(&[("p.jsonl", lines(&rows))]).unwrap();
    assert_eq!(r.items, 5);
    assert!(close(r.metrics.accuracy, 3.0 / 5.0));
    assert!(close(r.metrics.invalid_share, 2.0 / 5.0));
    assert_eq!(r.conditioning.items, 3);
    assert!(close(
        r.conditioning.epa,
        (0.5 / 0.99 + 0.5 / 0.97 + 0.4) / 3.0
    ));
    // Outside mass over a, b, c: 0.01, 0.03, 0.
    assert!(close(r.metrics.outside_mass, (0.01 + 0.03) / 3.0));
    let w = reasons(&r);
    assert!(
        w.iter()
            .any(|w| w.contains("sum to 0.97") && w.contains("protocol") && w.contains("kept")),
        "{w:?}"
    );
    assert!(w.iter().any(|w| w.contains("above 1.02")), "{w:?}");
    assert!(
        w.iter().any(|w| w.contains("answer `z` is not an option")),
        "{w:?}"
    );
}

#[test]
fn inconsistent_rows_are_named() {
    let mut a = row("a", json!("x"), "x", json!({"x": 0.8, "y": 0.2}), "ok");
    a["correct"] = json!(false);
    a["confidence"] = json!(0.5);
    let bad = row("b", json!("x"), "q", json!({"x": 0.8, "y": 0.2}), "ok");
    let r = run_named(&[("p.jsonl", lines(&[a, bad]))]).unwrap();
    assert_eq!((r.items, r.skipped), (1, 1));
    let w = reasons(&r);
    assert!(w.iter().any(|w| w.contains("correct = false")));
    assert!(w.iter().any(|w| w.contains("confidence 0.5")));
    assert!(w
        .iter()
        .any(|w| w.contains("gold `q` is not among the options")));
}

proptest! {
    /// Rows whose probabilities sum to at most 1.02 are valid (SPEC §2), with outside mass
    /// max(0, 1 - total), and accuracy counts the model's own labels.
    #[test]
    fn rows_keep_their_outside_mass(
        rows in prop::collection::vec((prop::collection::vec(0.01f64..1.0, 2..6), 0.9f64..1.02, any::<u8>(), any::<u8>()), 1..25)
    ) {
        let mut out = Vec::new();
        let (mut right, mut outside) = (0, 0.0);
        for (i, (w, total, a, g)) in rows.iter().enumerate() {
            let s: f64 = w.iter().sum();
            let labels: Vec<String> = (0..w.len()).map(|j| format!("l{j}")).collect();
            let values: Vec<f64> = w.iter().map(|x| x / s * total).collect();
            let sum: f64 = values.iter().sum();
            outside += (1.0 - sum).max(0.0);
            let probs: serde_json::Map<String, Value> = labels.iter().zip(&values).map(|(l, x)| (l.clone(), json!(x))).collect();
            let answer = &labels[*a as usize % w.len()];
            let gold = &labels[*g as usize % w.len()];
            right += usize::from(answer == gold);
            out.push(row(&format!("r{i}"), json!(answer), gold, Value::Object(probs), "ok"));
        }
        let r = run_named(&[("p.jsonl", lines(&out))]).unwrap();
        prop_assert_eq!(r.conditioning.items as usize, rows.len());
        prop_assert!((r.metrics.accuracy.unwrap() - right as f64 / rows.len() as f64).abs() < 1e-12);
        prop_assert!((r.metrics.outside_mass.unwrap() - outside / rows.len() as f64).abs() < 1e-9);
    }
}
