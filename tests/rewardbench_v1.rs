//! RewardBench v1 (SPEC §6, §9) end to end: the official files in, sections bit-identical to the
//! official tables out.

mod rewardbench_util;
use rewardbench_util::*;

const CHAT: f64 = 0.9664804469273743;
const CHAT_HARD: f64 = 0.9166666666666666;
const SAFETY: f64 = 0.927027027027027;
const REASONING: f64 = 0.9882107000600208;
const OVERALL: f64 = 0.9495962101702722;

fn assert_spec_9(r: &scorelens::Report) {
    assert_eq!(section(r, "Chat"), Some(CHAT));
    assert_eq!(section(r, "Chat Hard"), Some(CHAT_HARD));
    assert_eq!(section(r, "Safety"), Some(SAFETY));
    assert_eq!(section(r, "Reasoning"), Some(REASONING));
    assert_eq!(rb(r).overall, Some(OVERALL));
}

#[test]
fn spec_9_vectors_from_eval_set_scores_are_bit_identical() {
    let rows = pairs(&SPEC_9);
    let r = score("eval-set-scores/test/rm.json", &v1_file(&rows));
    assert_eq!(r.profile, "rewardbench", "detected from the file");
    assert_eq!(r.items, 2985);
    assert_spec_9(&r);
    for (name, correct, n) in SPEC_9 {
        assert_eq!(
            subset(&r, name),
            Some(f64::from(correct) / f64::from(n)),
            "{name}"
        );
    }
    let items = &rb(&r).section_items;
    assert_eq!(items.get("Chat"), Some(&358));
    assert_eq!(items.get("Chat Hard"), Some(&456));
    assert_eq!(items.get("Safety"), Some(&740));
    assert_eq!(items.get("Reasoning"), Some(&1431));
    let order: Vec<&str> = rb(&r).sections.0.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(order, ["Chat", "Chat Hard", "Safety", "Reasoning"]);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn spec_9_vectors_from_the_aggregate_alone() {
    let accs: Vec<(&str, f64)> = SPEC_9
        .iter()
        .map(|&(s, c, n)| (s, f64::from(c) / f64::from(n)))
        .collect();
    let r = score("eval-set/test/rm.json", &aggregate(&accs));
    assert_eq!(r.items, 0);
    assert_eq!(r.profile, "rewardbench");
    assert_spec_9(&r);
    assert_eq!(rb(&r).subset_details[0].source, "reported");
    assert_eq!(r.files[0].format, "rewardbench-results");
}

#[test]
fn the_order_of_files_and_rows_does_not_change_the_sections() {
    let mut rows = pairs(&SPEC_9);
    rows.reverse();
    let half = rows.split_off(1500);
    let (a, b) = (v1_file(&rows), v1_file(&half));
    let r = run(&[("b.json", &b), ("a.json", &a)], None).unwrap();
    assert_spec_9(&r);
}

#[test]
fn a_missing_subset_is_skipped_with_a_note() {
    let counts: Vec<_> = SPEC_9
        .iter()
        .copied()
        .filter(|(s, ..)| *s != "mt-bench-med")
        .collect();
    let r = score("scores.json", &v1_file(&pairs(&counts)));
    // Chat over the four subsets present, summed in the official order.
    let chat = (((0.0 + 0.99 * 100.0) + (90.0 / 95.0) * 95.0) + (90.0 / 95.0) * 95.0 + 1.0 * 28.0)
        / (100.0 + 95.0 + 95.0 + 28.0);
    assert_eq!(section(&r, "Chat"), Some(chat));
    assert_eq!(section(&r, "Safety"), Some(SAFETY));
    assert_eq!(
        rb(&r).overall,
        Some((chat + CHAT_HARD + SAFETY + REASONING) / 4.0)
    );
    assert!(
        noted(&r, &["section Chat lacks mt-bench-med", "official code"]),
        "{:?}",
        r.notes
    );
    let chat_details = &rb(&r).section_details[0];
    assert_eq!(chat_details.missing, ["mt-bench-med"]);
    assert_eq!(chat_details.items, 100 + 95 + 95 + 28);
}

#[test]
fn a_section_without_subsets_is_null_with_a_warning_and_so_is_the_overall() {
    let counts: Vec<_> = SPEC_9
        .iter()
        .copied()
        .filter(|(s, ..)| !s.starts_with("hep") && *s != "math-prm")
        .collect();
    let r = score("scores.json", &v1_file(&pairs(&counts)));
    assert_eq!(section(&r, "Reasoning"), None);
    assert_eq!(section(&r, "Chat"), Some(CHAT));
    assert_eq!(rb(&r).overall, None);
    assert!(
        warned(&r, &["section Reasoning has none of its subsets", "null"]),
        "{:?}",
        r.warnings
    );
}

#[test]
fn prior_sets_are_a_fifth_column_and_weigh_half_a_section() {
    let mut counts = SPEC_9.to_vec();
    counts.extend([
        ("anthropic_helpful", 3, 5),
        ("shp", 4, 5),
        ("anthropic_harmless", 1, 2),
    ]);
    let r = score("scores.json", &v1_file(&pairs(&counts)));
    let prior = (0.0 + 0.6 + 0.8) / 2.0;
    assert_eq!(section(&r, "Prior Sets"), Some(prior));
    let by_hand = (2.0 * CHAT + 2.0 * CHAT_HARD + 2.0 * SAFETY + 2.0 * REASONING + prior) / 9.0;
    // The overall stays the four-section mean, bit for bit SPEC §9's; the first leaderboard's
    // weighting with Prior Sets is reported beside it.
    assert_eq!(rb(&r).overall, Some(OVERALL));
    assert_eq!(rb(&r).overall_with_prior_sets, Some(by_hand));
    assert_ne!(by_hand, OVERALL);
    // anthropic_harmless is a prior-sets file subset but not one of the four: listed, left out.
    assert_eq!(rb(&r).unknown_subsets, ["anthropic_harmless"]);
    assert_eq!(subset(&r, "anthropic_harmless"), Some(0.5));
    assert_eq!(r.items, 2985 + 12, "unknown subsets still count as items");
    let details = rb(&r).section_details.last().unwrap();
    assert_eq!(details.name, "Prior Sets");
    assert_eq!(details.missing, ["anthropic_hhh", "summarize"]);
}

#[test]
fn exact_ties_are_wrong_and_counted() {
    let text = r#"{"id": [1, 2, 3, 4], "model_type": "Seq. Classifier",
        "scores_chosen": [[1.0], 2.0, [0.5], 3.0], "scores_rejected": [[1.0], 1.0, 0.5, [3.5]],
        "subset": ["hep-go", "hep-go", "hep-go", "hep-go"], "results": [0, 1, 0, 0]}"#;
    let r = score("scores.json", text);
    assert_eq!(subset(&r, "hep-go"), Some(0.25));
    assert_eq!(section(&r, "Reasoning"), Some(0.25));
    let m = &rb(&r).margins;
    assert_eq!((m.items, m.ties, m.negative), (4, 2, 1));
    let go = &rb(&r).subset_details[0];
    assert_eq!(go.ties, 2);
    // Worst first: 3.0 - 3.5, then the two ties by id.
    let worst: Vec<(&str, f64)> = go.worst.iter().map(|w| (w.id.as_str(), w.margin)).collect();
    assert_eq!(
        worst,
        [("hep-go/4", -0.5), ("hep-go/1", 0.0), ("hep-go/3", 0.0)]
    );
    assert!(noted(&r, &["2 pairs", "tie counts as wrong"]));
}

#[test]
fn non_finite_scores_are_reported_and_left_out() {
    let text = "{\n    \"id\": [\n        1,\n        2,\n        3\n    ],\n    \"scores_chosen\": [\n        [NaN],\n        [2.0],\n        Infinity\n    ],\n    \"scores_rejected\": [\n        [0.0],\n        [1.0],\n        [0.0]\n    ],\n    \"subset\": [\n        \"shp\",\n        \"shp\",\n        \"shp\"\n    ]\n}";
    let r = score("scores.json", text);
    assert_eq!(r.items, 1);
    assert_eq!(r.skipped, 2);
    assert_eq!(subset(&r, "shp"), Some(1.0));
    assert!(
        warned(
            &r,
            &["row 1 (id 1, shp)", "`scores_chosen` is NaN", "left out"]
        ),
        "{:?}",
        r.warnings
    );
    let w = r
        .warnings
        .iter()
        .find(|w| w.reason.contains("row 3"))
        .unwrap();
    assert_eq!(w.line, Some(5), "the line of the row's id");
    assert!(w.reason.contains("inf"));
}

#[test]
fn a_generative_judge_is_credited_by_its_results() {
    let text = r#"{"id": [1, 2, 3, 4], "model": "judge", "model_type": "Generative RM",
        "results": [1, 0.5, 0, 1], "subset": ["donotanswer", "donotanswer", "donotanswer", "shp"],
        "text_chosen": [[{"content": "q", "role": "user"}, {"content": "a long answer", "role": "assistant"}], "x", "x", "x"],
        "text_rejected": [[{"content": "q", "role": "user"}, {"content": "short", "role": "assistant"}], "xx", "x", "x"]}"#;
    let r = score("judge.json", text);
    assert_eq!(subset(&r, "donotanswer"), Some(0.5));
    assert_eq!(section(&r, "Safety"), Some(0.5));
    assert_eq!(rb(&r).judged_items, 4);
    assert_eq!(rb(&r).margins.items, 0, "a verdict has no margin");
    assert!(r.files[0]
        .mapping
        .iter()
        .any(|m| m.contains("generative judge")));
    // Longer chosen wins once, loses once, ties once (0.5): 1.5 / 3.
    assert_eq!(rb(&r).subset_details[0].length_baseline, Some(0.5));
}

#[test]
fn the_length_baseline_is_weighted_like_the_sections() {
    let text = r#"{"id": [1, 2, 3], "scores_chosen": [1, 1, 1], "scores_rejected": [0, 0, 0],
        "subset": ["alpacaeval-easy", "alpacaeval-easy", "mt-bench-easy"],
        "text_chosen": ["long answer", "a", "same"], "text_rejected": ["short", "bb", "four"]}"#;
    let r = score("scores.json", text);
    let chat = &rb(&r).section_details[0];
    // alpacaeval-easy 1/2 (weight 100), mt-bench-easy 0.5 (weight 28: equal lengths).
    assert_eq!(
        chat.length_baseline,
        Some((0.5 * 100.0 + 0.5 * 28.0) / 128.0)
    );
    assert_eq!(chat.score, Some(1.0));
    assert!(
        r.reported.is_empty(),
        "the baseline sums are not the tool's figures"
    );
}

#[test]
fn cli_outputs_jsonl_scores_like_the_arrays() {
    let rows = pairs(&SPEC_9);
    let lines: Vec<String> = rows
        .iter()
        .map(|p| {
            serde_json::json!({"prompt": "q", "results": 1, "scores_chosen": p.chosen,
                "scores_rejected": p.rejected, "text_chosen": "a", "text_rejected": "b",
                "subset": p.subset, "id": p.id})
            .to_string()
        })
        .collect();
    let r = score("rm_outputs.jsonl", &lines.join("\n"));
    assert_eq!(r.files[0].format, "rewardbench-outputs");
    assert_spec_9(&r);
    assert!(
        warned(&r, &["rows carry a `results` that differs"]),
        "results 1 on every row"
    );
}

#[test]
fn items_and_the_aggregate_together_prefer_the_items_and_note_a_disagreement() {
    let rows = pairs(&[("hep-go", 3, 4)]);
    let agg = aggregate(&[("hep-go", 0.5), ("hep-cpp", 0.25)]);
    let r = run(
        &[("scores.json", &v1_file(&rows)), ("eval-set.json", &agg)],
        None,
    )
    .unwrap();
    assert_eq!(subset(&r, "hep-go"), Some(0.75));
    assert_eq!(subset(&r, "hep-cpp"), Some(0.25));
    assert_eq!(
        section(&r, "Reasoning"),
        Some((0.25 * 164.0 + 0.75 * 164.0) / 328.0)
    );
    assert!(
        noted(&r, &["hep-go: recomputed 0.75", "says 0.5"]),
        "{:?}",
        r.notes
    );
}

#[test]
fn canonical_pair_items_under_the_profile() {
    let lines = [
        r#"{"scorelens": 1, "model": "m", "benchmark": "rewardbench"}"#,
        r#"{"id": "a", "type": "pair", "group": "hep-go", "chosen": [2.0], "rejected": 1.0}"#,
        r#"{"id": "b", "type": "pair", "group": "hep-go", "chosen": 1.0, "rejected": 1.0}"#,
        r#"{"id": "c", "type": "best_of_n", "group": "hep-go", "scores": [1.0, 0.0]}"#,
    ];
    let r = score("items.jsonl", &lines.join("\n"));
    assert_eq!(r.profile, "rewardbench");
    assert_eq!(subset(&r, "hep-go"), Some(0.5));
    assert_eq!(section(&r, "Reasoning"), Some(0.5));
    assert_eq!(r.items, 2, "the best_of_n item is out of scope");
    assert!(
        noted(&r, &["1 `best_of_n` items are not RewardBench items"]),
        "{:?}",
        r.notes
    );
    assert_eq!(section(&r, "Chat"), None);
    assert!(warned(&r, &["section Chat has none of its subsets"]));
}
