//! RewardBench 2 (SPEC §6, §9) end to end: best-of-4 credit, the Ties composite recomputed from
//! the scores, the overall; checked by hand and against a numpy re-implementation of the official code.

mod rewardbench_util;
use rewardbench_util::*;
use serde::Deserialize;

fn others() -> Vec<(String, &'static str, usize, Vec<f64>)> {
    ["Factuality", "Precise IF", "Math", "Safety", "Focus"]
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("{i}"), *s, 1, vec![2.0, 1.0, 0.0, 0.0]))
        .collect()
}

fn file(rows: &[(String, &str, usize, Vec<f64>)]) -> String {
    let refs: Vec<(&str, &str, usize, Vec<f64>)> = rows
        .iter()
        .map(|(id, s, k, v)| (id.as_str(), *s, *k, v.clone()))
        .collect();
    v2_file(&refs)
}

#[test]
fn spec_9_credit_vectors_average_per_subset() {
    let scores = [
        vec![2.0, 1.0, 1.0, 0.5],
        vec![2.0, 2.0, 1.0, 0.0],
        vec![2.0, 2.0, 2.0, 1.0],
        vec![1.0, 1.0, 1.0, 1.0],
        vec![1.0, 3.0, 0.0, 0.0],
    ];
    let rows: Vec<_> = scores
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("{i}"), "Math", 1, s.clone()))
        .collect();
    let r = score("eval-set-scores/test/rm2.json", &file(&rows));
    assert_eq!(r.profile, "rewardbench2");
    // run_v2.py: sum(results) / len(results), summed in row order.
    let by_hand = ((((0.0 + 1.0) + 0.5) + 1.0 / 3.0) + 0.25 + 0.0) / 5.0;
    assert_eq!(subset(&r, "Math"), Some(by_hand));
    assert_eq!(section(&r, "Math"), Some(by_hand));
    assert_eq!(rb(&r).overall, None, "five subsets are missing");
    assert!(
        warned(&r, &["overall needs all six subsets", "Factuality"]),
        "{:?}",
        r.warnings
    );
    // [2, 2, 1, 0], [2, 2, 2, 1], [1, 1, 1, 1]: the correct score equals the best incorrect one.
    assert_eq!(rb(&r).margins.ties, 3);
}

/// Prompts 1-5 of the hand-worked Ties case (see the test below).
fn hand_ties() -> Vec<(String, &'static str, usize, Vec<f64>)> {
    let t = |id: &str, k: usize, s: &[f64]| (id.to_string(), "Ties", k, s.to_vec());
    vec![
        t("ref:1", 1, &[5.0, 3.0, 2.0, 1.0]),
        t("tied:1", 2, &[4.0, 3.0, 1.0, 0.0]),
        t("tied:2", 2, &[3.0, 3.0, 1.0, 2.0]),
        t("ref:2", 1, &[2.0, 1.0, 0.0, 0.0]),
        t("ref:3", 1, &[1.0, 1.0, 0.0, 0.0]),
        t("tied:3", 2, &[2.0, 2.0, 2.0, 1.0]),
        t("ref:4", 1, &[3.0, 1.0, 2.0, 0.0]),
        t("tied:4", 1, &[1.0, 2.0, 0.0, 0.0]),
        t("ref:5", 1, &[0.0, 1.0, 0.0, 0.0]),
    ]
}

#[test]
fn hand_worked_ties_with_a_single_correct_prompt_a_zero_spread_and_a_nan() {
    // ref:1 cim 2 (accurate); tied:1 dcm 1, cim 2: cp, cph hold; tanh(2/1 - 1) = tanh(1).
    // ref:2 cim 1; tied:2 dcm 0 (3, 3), cim 1: 1/0 = inf, tanh = 1; cp, cph hold.
    // ref:3 cim 0 (a tie: not accurate); tied:3 dcm 0, cim 0: 0/0 = NaN, counted as 0; cp, cph fail.
    // ref:4 accurate; tied:4 has a single correct answer (cim -1): in tied accuracy, not in the margins.
    // ref:5 has no tied partner (cim -1): in ref accuracy only.
    let mut rows = others();
    rows.extend(hand_ties());
    let r = score("scores.json", &file(&rows));
    let t = rb(&r).ties.as_ref().expect("ties figures");
    assert_eq!(t.ref_accuracy, Some(3.0 / 5.0));
    assert_eq!(t.tied_accuracy, Some(2.0 / 4.0));
    assert_eq!(t.correctness_preferred, Some(2.0 / 3.0));
    assert_eq!(t.correctness_preferred_hard, Some(2.0 / 3.0));
    // tanh as the core takes it (libm's, the same bits natively and in wasm32).
    let cms = ((0.0 + scorelens::math::tanh(1.0)) + 1.0 + 0.0) / 3.0;
    assert_eq!(t.margin_score, Some(cms));
    assert_eq!(
        (t.pairs, t.single_correct, t.ref_prompts, t.tied_prompts),
        (3, 1, 5, 4)
    );
    let ties = 0.30 * 0.5 + 0.30 * 0.6 + 0.20 * (2.0 / 3.0) + 0.20 * (2.0 / 3.0) + 0.01 * cms;
    assert_eq!(t.score, Some(ties));
    assert_eq!(subset(&r, "Ties"), Some(ties));
    let ties_row = rb(&r)
        .subset_details
        .iter()
        .find(|s| s.name == "Ties")
        .unwrap();
    assert_eq!((ties_row.items, ties_row.credit), (9, None));
    // The five other subsets score 1 each: overall = (1 + 1 + 1 + 1 + 1 + Ties) / 6.
    assert_eq!(rb(&r).overall, Some((5.0 + ties) / 6.0));
    assert!(
        noted(&r, &["1 tied prompts have a single correct answer"]),
        "{:?}",
        r.notes
    );
}

#[test]
fn ties_with_no_usable_pair_is_null_with_a_warning() {
    let mut rows = others();
    rows.push(("ref:1".into(), "Ties", 1, vec![1.0, 0.0]));
    rows.push(("tied:1".into(), "Ties", 1, vec![1.0, 0.0]));
    rows.push(("tied-9".into(), "Ties", 2, vec![1.0, 1.0, 0.0]));
    let r = score("scores.json", &file(&rows));
    assert_eq!(subset(&r, "Ties"), None);
    assert_eq!(rb(&r).overall, None);
    assert!(warned(&r, &["Ties is null"]), "{:?}", r.warnings);
    assert!(noted(
        &r,
        &["1 Ties rows have ids other than ref:N / tied:N", "tied-9"]
    ));
}

#[derive(Deserialize)]
struct Expected {
    score: f64,
    ref_accuracy: f64,
    tied_accuracy: f64,
    correctness_preferred: f64,
    correctness_preferred_hard: f64,
    margin_score: f64,
    pairs: u64,
}

#[derive(Deserialize)]
struct Case {
    rows: Vec<serde_json::Value>,
    expected: Expected,
}

#[derive(Deserialize)]
struct Sample {
    file: String,
    subsets: std::collections::BTreeMap<String, f64>,
    overall: f64,
}

#[derive(Deserialize)]
struct Vectors {
    ties: Vec<Case>,
    sample: Sample,
}

#[track_caller]
fn close(got: Option<f64>, want: f64, case: usize) {
    let got = got.expect("a figure");
    assert!((got - want).abs() <= 1e-15, "case {case}: {got} vs {want}");
}

fn vectors() -> Vectors {
    serde_json::from_str(include_str!("fixtures/rewardbench/vectors.json")).unwrap()
}

#[test]
fn ties_matches_the_numpy_reference_on_seeded_cases() {
    let v = vectors();
    assert_eq!(v.ties.len(), 10);
    for (i, case) in v.ties.iter().enumerate() {
        let obj = serde_json::json!({
            "id": case.rows.iter().map(|r| r["id"].clone()).collect::<Vec<_>>(),
            "num_correct": case.rows.iter().map(|r| r["num_correct"].clone()).collect::<Vec<_>>(),
            "scores": case.rows.iter().map(|r| r["scores"].clone()).collect::<Vec<_>>(),
            "subset": case.rows.iter().map(|_| "Ties").collect::<Vec<_>>(),
        });
        let r = score("ties.json", &obj.to_string());
        let t = rb(&r).ties.as_ref().unwrap();
        let e = &case.expected;
        assert_eq!(t.pairs, e.pairs, "case {i}");
        // Counts of booleans over counts: exact.
        assert_eq!(t.ref_accuracy, Some(e.ref_accuracy), "case {i}");
        assert_eq!(t.tied_accuracy, Some(e.tied_accuracy), "case {i}");
        assert_eq!(
            t.correctness_preferred,
            Some(e.correctness_preferred),
            "case {i}"
        );
        let cph = Some(e.correctness_preferred_hard);
        assert_eq!(t.correctness_preferred_hard, cph, "case {i}");
        // numpy's vectorised tanh differs from libm's in the last bit on about a third of inputs
        // (and by CPU), so the margin term and what includes it agree to an ulp or so.
        close(t.margin_score, e.margin_score, i);
        close(t.score, e.score, i);
    }
}

#[test]
fn the_v2_sample_matches_the_numpy_reference() {
    let v = vectors();
    let path = format!(
        "{}/www/samples/{}",
        env!("CARGO_MANIFEST_DIR"),
        v.sample.file
    );
    let text = std::fs::read_to_string(path).unwrap();
    let r = score(&v.sample.file, &text);
    assert_eq!(r.profile, "rewardbench2");
    for (name, want) in &v.sample.subsets {
        if name == "Ties" {
            close(subset(&r, name), *want, 0);
        } else {
            assert_eq!(subset(&r, name), Some(*want), "{name}");
        }
    }
    close(rb(&r).overall, v.sample.overall, 0);
    let order: Vec<&str> = rb(&r).sections.0.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        order,
        [
            "Factuality",
            "Precise IF",
            "Math",
            "Safety",
            "Focus",
            "Ties"
        ]
    );
    assert!(
        r.warnings
            .iter()
            .all(|w| w.reason.contains("`results` that differs")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn a_v2_aggregate_gives_the_overall() {
    let text = r#"{"Factuality": 0.5, "Focus": 0.75, "Math": 0.25, "Precise IF": 0.5, "Safety": 1.0,
        "Ties": 0.125, "chat_template": null, "model": "test/rm2", "model_type": "Seq. Classifier"}"#;
    let r = score("eval-set/test/rm2.json", text);
    assert_eq!(r.profile, "rewardbench2");
    assert_eq!(
        rb(&r).overall,
        Some((0.5 + 0.5 + 0.25 + 1.0 + 0.75 + 0.125) / 6.0)
    );
    assert!(rb(&r).ties.is_none());
}
