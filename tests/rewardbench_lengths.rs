//! The length baseline: readers hand on the lengths of the texts they read, the RewardBench
//! profiles turn them into "the longer response wins" per subset; no other profile shows them.

mod rewardbench_util;

use rewardbench_util::*;
use serde_json::json;

/// A v2 file of best-of-n rows with texts: (id, subset, scores, texts).
fn v2_with_texts(rows: &[(&str, &str, Vec<f64>, Vec<&str>)]) -> String {
    json!({
        "chat_template": "tokenizer",
        "id": rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        "model": "test/rm2",
        "model_type": "Seq. Classifier",
        "num_correct": rows.iter().map(|_| 1).collect::<Vec<_>>(),
        "scores": rows.iter().map(|r| r.2.clone()).collect::<Vec<_>>(),
        "subset": rows.iter().map(|r| r.1).collect::<Vec<_>>(),
        "text": rows.iter().map(|r| r.3.clone()).collect::<Vec<_>>(),
    })
    .to_string()
}

#[test]
fn lengths_sum_per_subset_over_files_and_leave_ties_out() {
    let a = v2_with_texts(&[
        ("1", "Math", vec![3.0, 1.0, 0.0], vec!["longest", "a", "b"]),
        ("2", "Ties", vec![3.0, 1.0], vec!["longest", "a"]),
    ]);
    let b = v2_with_texts(&[
        // The first candidate shares the longest length with one other: half a credit.
        ("3", "Math", vec![3.0, 1.0, 0.0], vec!["same", "four", "b"]),
        ("4", "Focus", vec![3.0, 1.0], vec!["a", "longer"]),
    ]);
    let r = run(&[("a.json", &a), ("b.json", &b)], Some("rewardbench2")).unwrap();
    let subset = |name: &str| {
        rb(&r)
            .subset_details
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no subset {name}"))
            .length_baseline
    };
    assert_eq!(subset("Math"), Some(0.75));
    assert_eq!(subset("Focus"), Some(0.0));
    assert_eq!(
        subset("Ties"),
        None,
        "a Ties prompt has no per-row length credit"
    );
    assert!(
        r.reported.is_empty(),
        "the lengths are not a tool's figures"
    );
}

#[test]
fn other_profiles_do_not_show_the_lengths() {
    let a = v2_with_texts(&[("1", "Math", vec![3.0, 1.0], vec!["longest", "a"])]);
    let r = run(&[("a.json", &a)], Some("generic")).unwrap();
    assert!(r.reported.is_empty(), "{:?}", r.reported);
}
