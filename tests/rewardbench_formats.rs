//! RewardBench's files: detection by content, the samples, chunked reading, and clear errors for
//! malformed files (unequal arrays, non-numeric scores, unknown layouts).

mod rewardbench_util;
use rewardbench_util::*;
use scorelens::formats::{detect, HEAD};
use scorelens::{Error, Options, Session};

fn format_of(name: &str, text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    detect(name, &bytes[..bytes.len().min(HEAD)]).map(|f| f.name())
}

fn sample(name: &str) -> String {
    let path = format!("{}/www/samples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn every_sample_is_detected_and_picks_its_profile() {
    for (file, format, profile, items) in [
        (
            "rewardbench-v1-scores.json",
            "rewardbench-scores",
            "rewardbench",
            741,
        ),
        (
            "rewardbench-v1-judge.json",
            "rewardbench-scores",
            "rewardbench",
            362,
        ),
        (
            "rewardbench-v1-outputs.jsonl",
            "rewardbench-outputs",
            "rewardbench",
            69,
        ),
        (
            "rewardbench-v1-eval-set.json",
            "rewardbench-results",
            "rewardbench",
            0,
        ),
        (
            "rewardbench-v2-scores.json",
            "rewardbench-scores",
            "rewardbench2",
            464,
        ),
    ] {
        let text = sample(file);
        assert_eq!(format_of(file, &text), Some(format), "{file}");
        let r = score(file, &text);
        assert_eq!((r.profile.as_str(), r.items), (profile, items), "{file}");
        assert!(rb(&r).overall.is_some(), "{file}");
    }
}

#[test]
fn the_v1_sample_and_its_aggregate_agree_to_the_bit() {
    let a = score("s.json", &sample("rewardbench-v1-scores.json"));
    let b = score("e.json", &sample("rewardbench-v1-eval-set.json"));
    assert_eq!(rb(&a).sections, rb(&b).sections);
    assert_eq!(rb(&a).overall, rb(&b).overall);
    let both = run(
        &[
            ("s.json", &sample("rewardbench-v1-scores.json")),
            ("e.json", &sample("rewardbench-v1-eval-set.json")),
        ],
        None,
    )
    .unwrap();
    assert!(!noted(&both, &["recomputed"]), "{:?}", both.notes);
    assert_eq!(
        both.reported.len(),
        23,
        "the aggregate's figures stay beside ours"
    );
}

#[test]
fn a_head_cut_inside_the_arrays_is_still_recognised() {
    let text = sample("rewardbench-v1-scores.json");
    let head = &text.as_bytes()[..2000];
    let f = detect("scores.json", head).map(|f| f.name());
    assert_eq!(f, Some("rewardbench-scores"));
}

#[test]
fn other_formats_are_not_claimed() {
    let canonical = r#"{"id": "a", "type": "pair", "chosen": 1.0, "rejected": 0.5}"#;
    assert_eq!(format_of("x.jsonl", canonical), Some("scorelens"));
    let lm_eval =
        r#"{"results": {"arc": {"acc,none": 0.5}}, "versions": {"arc": 1}, "n-shot": {}}"#;
    assert_ne!(
        format_of("results.json", lm_eval),
        Some("rewardbench-results")
    );
    assert_eq!(format_of("x.json", r#"{"a": [1, 2], "b": 3}"#), None);
}

#[test]
fn chunked_reading_gives_the_same_report() {
    let text = sample("rewardbench-v1-outputs.jsonl");
    let whole = score("o.jsonl", &text);
    let mut s = Session::new(&Options::default()).unwrap();
    let bytes = text.as_bytes();
    let mut feed = s.add("o.jsonl", &bytes[..bytes.len().min(HEAD)], None);
    for chunk in bytes.chunks(7) {
        feed.push(chunk);
    }
    feed.end();
    let chunked = s.finish().unwrap().report;
    assert_eq!(chunked.rewardbench, whole.rewardbench);
}

#[test]
fn unequal_arrays_are_a_clear_error() {
    let text = r#"{"id": [1, 2, 3], "scores_chosen": [1, 2, 3], "scores_rejected": [0, 0],
        "subset": ["shp", "shp", "shp"]}"#;
    match run(&[("bad.json", text)], None) {
        Err(Error::NoItems(w)) => {
            let why = &w[0].reason;
            assert!(why.contains("unequal lengths"), "{why}");
            assert!(
                why.contains("scores_rejected 2") && why.contains("id 3"),
                "{why}"
            );
            assert_eq!(w[0].file, "bad.json");
        }
        other => panic!("expected NoItems, got {other:?}"),
    }
}

#[test]
fn non_numeric_scores_name_the_row_and_the_field() {
    let text = r#"{"id": [1, 2], "scores_chosen": ["high", [2.0]], "scores_rejected": [0, {"x": 1}],
        "subset": ["shp", "shp"]}"#;
    match run(&[("bad.json", text)], None) {
        Err(Error::NoItems(w)) => {
            let has = |f: &[&str]| w.iter().any(|w| f.iter().all(|f| w.reason.contains(f)));
            assert!(
                has(&[
                    "row 1 (id 1, shp)",
                    "`scores_chosen` is the string \"high\""
                ]),
                "{w:?}"
            );
            assert!(
                has(&["row 2 (id 2, shp)", "`scores_rejected` is an object"]),
                "{w:?}"
            );
            assert!(w.iter().all(|w| w.file == "bad.json" && w.line == Some(1)));
        }
        other => panic!("expected NoItems, got {other:?}"),
    }
}

#[test]
fn a_non_numeric_score_leaves_the_rest_scored() {
    let text = r#"{"id": [1, 2, 3], "scores_chosen": ["high", [2.0], 1], "scores_rejected": [0, 1, 0],
        "subset": ["shp", "shp", "shp"]}"#;
    let r = score("bad.json", text);
    assert_eq!((r.items, r.skipped), (2, 1));
    assert_eq!(subset(&r, "shp"), Some(1.0));
}

#[test]
fn unknown_layouts_say_what_they_lack() {
    let text = r#"{"id": [1, 2], "subset": ["shp", "shp"], "answers": ["a", "b"]}"#;
    match run(&[("odd.json", text)], None) {
        Err(Error::NoItems(w)) => {
            assert!(
                w[0].reason.contains("not a RewardBench layout"),
                "{}",
                w[0].reason
            );
            assert!(w[0]
                .reason
                .contains("`scores_chosen`/`scores_rejected` (v1)"));
        }
        other => panic!("expected NoItems, got {other:?}"),
    }
    let not_a_list =
        r#"{"id": [1], "subset": "shp", "scores_chosen": [1], "scores_rejected": [0]}"#;
    match run(&[("odd.json", not_a_list)], None) {
        Err(Error::NoItems(w)) => assert!(w[0].reason.contains("`subset` is not a list")),
        other => panic!("expected NoItems, got {other:?}"),
    }
}

#[test]
fn a_truncated_file_is_reported_at_its_line() {
    let text = sample("rewardbench-v1-scores.json");
    let cut = &text[..text.len() / 2];
    match run(&[("eval-set-scores/cut.json", cut)], None) {
        Err(Error::NoItems(w)) => {
            assert!(w[0].reason.starts_with("not valid JSON"), "{}", w[0].reason);
            assert!(w[0].line.unwrap() > 1000);
        }
        other => panic!("expected NoItems, got {other:?}"),
    }
}

#[test]
fn a_bom_and_python_nan_in_an_aggregate_are_handled() {
    let text =
        "\u{feff}{\"model\": \"m\", \"model_type\": \"DPO\", \"hep-go\": NaN, \"hep-cpp\": 0.5}";
    let r = score("eval-set/m.json", text);
    assert_eq!(subset(&r, "hep-cpp"), Some(0.5));
    assert!(rb(&r).subsets.get("hep-go").is_none());
    assert!(
        warned(&r, &["`hep-go` has the non-finite accuracy NaN"]),
        "{:?}",
        r.warnings
    );
    assert_eq!(r.model.as_deref(), Some("m"));
}

#[test]
fn the_cli_summary_gives_subsets_and_its_micro_accuracy_beside_them() {
    let text = r#"{"accuracy": 0.9, "num_prompts": 2985, "model": "m", "ref_model": null,
        "tokenizer": "m", "chat_template": null, "extra_results": {"hep-go": 0.75, "hep-cpp": 0.5}}"#;
    let r = score("m.json", text);
    assert_eq!(
        r.files[0].version.as_deref(),
        Some("rewardbench CLI summary")
    );
    assert_eq!(
        section(&r, "Reasoning"),
        Some((0.5 * 164.0 + 0.75 * 164.0) / 328.0)
    );
    assert!(r
        .reported
        .iter()
        .any(|f| f.name == "accuracy (CLI, micro)" && f.value == 0.9));
}
