//! The JevBench native format (FORMATS §8): task files and results.jsonl joined on id, in any order
//! and any chunking, with clear warnings when they do not join.

mod ic_util;
use ic_util::*;
use scorelens::{Error, Input, Options, Report, Session};

const EASY: &str = r#"{"id": "e-1", "split": "public", "question": {"type": "choice"}, "labels": ["alpha", "beta"], "expected": "alpha", "group": "g1"}
{"id": "e-2", "split": "public", "question": {"type": "noul"}, "labels": ["no", "yes"], "expected": "yes"}
{"id": "e-3", "split": "public", "question": {"type": "noul"}, "labels": ["no", "yes"], "expected": false}
"#;

const ORIGINAL: &str = r#"{"id": "o-1", "question": {"type": "score"}, "labels": ["0", "1", "2", "3"], "expected": 2}
{"id": "o-2", "question": {"type": "choice"}, "labels": ["a", "b", "c"], "expected": "c", "tier": "judge"}
"#;

const HARD: &str = r#"{"id": "h-1", "question": {"type": "choice"}, "labels": ["a", "b", "c"], "expected": "b", "provenance": {"gold_probs": {"a": 0.2, "b": 0.7, "c": 0.1}}}
{"id": "h-2", "question": {"type": "score"}, "labels": ["0", "1", "2"], "expected": null}
"#;

const RESULTS: &str = r#"{"task_id": "e-1", "ok": true, "valid": true, "probs": {"alpha": 0.9, "beta": 0.1}, "predicted": "alpha", "model": "demo-model"}
{"task_id": "e-2", "ok": false, "valid": false, "probs": null, "predicted": null}
{"task_id": "e-3", "ok": true, "valid": true, "probs": {"no": 0.85, "yes": 0.15}, "predicted": "no"}
{"task_id": "o-1", "ok": true, "valid": true, "probs": {"0": 0.0, "1": 0.2, "2": 0.6, "3": 0.2}, "predicted": "2"}
{"task_id": "o-2", "ok": true, "valid": true, "probs": {"a": 0.5, "b": 0.5, "c": 0.0}, "predicted": "b"}
{"task_id": "h-1", "ok": true, "valid": true, "probs": {"a": 0.3, "b": 0.6, "c": 0.1}, "predicted": "b"}
"#;

fn run(files: &[(&str, &str)], profile: Option<&str>) -> Result<Report, Error> {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(name, text)| Input {
            name,
            bytes: text.as_bytes(),
        })
        .collect();
    let opts = Options {
        profile: profile.map(str::to_string),
        strict: false,
        ..Options::default()
    };
    scorelens::score(&inputs, &opts)
}

fn all_files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("public/easy.jsonl", EASY),
        ("public/original.jsonl", ORIGINAL),
        ("public/hard.jsonl", HARD),
        ("run/results.jsonl", RESULTS),
    ]
}

#[test]
fn tasks_and_results_join_into_items() {
    let r = run(&all_files(), None).unwrap();
    assert_eq!(r.profile, "jevbench-public-231");
    assert_eq!(r.model.as_deref(), Some("demo-model"));
    assert!(r.files.iter().all(|f| f.format == "jevbench"));
    // h-2 has expected null: skipped with a warning.
    assert_eq!((r.items, r.skipped), (6, 1));
    assert!(r
        .warnings
        .iter()
        .any(|w| w.reason.contains("unscorable") && w.line == Some(2)));
    let c = choice(&r);
    // e-1 easy right (k 2): 100; o-2 judge (tier field) wrong (k 3): -50; h-1 hard right (k 3): 100.
    close(c.tiers.easy.as_ref().unwrap().cc, 100.0, 1e-12);
    close(c.tiers.judge.as_ref().unwrap().cc, -50.0, 1e-12);
    close(c.tiers.hard.as_ref().unwrap().cc, 100.0, 1e-12);
    close(c.cc, (0.1 * 100.0 + 0.3 * -50.0 + 0.4 * 100.0) / 0.8, 1e-9);
    // gold_probs from provenance: TVD of h-1 = 0.5 (0.1 + 0.1 + 0) = 0.1.
    close(c.tvd, 0.1, 1e-12);
    // e-2 valid: false -> invalid, wrong; e-3 (expected false = no) p_yes 0.15 -> right.
    let b = binary(&r);
    assert_eq!(b.invalid, 1);
    close(b.tiers.easy.as_ref().unwrap().accuracy, 0.5, 0.0);
    // o-1: "original" is the standard tier; expected position 2.0 -> nMAE 0.
    let t = rating(&r).tiers.standard.as_ref().unwrap();
    close(t.nmae, 0.0, 1e-15);
}

#[test]
fn the_order_of_the_files_does_not_matter() {
    let files = all_files();
    let want = run(&files, None).unwrap();
    let orders = [[3, 0, 1, 2], [2, 3, 1, 0], [1, 2, 3, 0], [0, 3, 2, 1]];
    for order in orders {
        let shuffled: Vec<_> = order.iter().map(|&i| files[i]).collect();
        let got = run(&shuffled, None).unwrap();
        assert_eq!(got.ic, want.ic, "order {order:?}");
        assert_eq!(
            (got.items, got.skipped, got.metrics.clone()),
            (want.items, want.skipped, want.metrics.clone())
        );
    }
}

#[test]
fn chunked_reading_gives_the_same_report() {
    let files = all_files();
    let want = run(&files, None).unwrap();
    for size in [1, 7, 64] {
        let mut s = Session::new(&Options::default()).unwrap();
        for (name, text) in &files {
            let bytes = text.as_bytes();
            let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
            let mut feed = s.add(name, head, None);
            for chunk in bytes.chunks(size) {
                feed.push(chunk);
            }
        }
        let got = s.finish().unwrap().report;
        assert_eq!(got.ic, want.ic, "chunks of {size}");
    }
}

#[test]
fn only_hard_tasks_name_the_hard_111_benchmark() {
    let r = run(&[("hard.jsonl", HARD), ("results.jsonl", RESULTS)], None).unwrap();
    assert_eq!(r.profile, "jevbench-hard-111");
    assert_eq!(r.items, 1);
    // Rows for tasks in files not given are skipped, each with its line.
    let unmatched: Vec<_> = r
        .warnings
        .iter()
        .filter(|w| w.reason.contains("matches no task"))
        .collect();
    assert_eq!(unmatched.len(), 5);
    assert!(unmatched
        .iter()
        .all(|w| w.file == "results.jsonl" && w.line.is_some()));
}

#[test]
fn files_that_do_not_join_say_so() {
    // Tasks alone.
    let err = run(&[("easy.jsonl", EASY)], None).unwrap_err();
    assert!(
        err.to_string().contains("drop the harness's results.jsonl"),
        "{err}"
    );
    // Results alone.
    let err = run(&[("results.jsonl", RESULTS)], None).unwrap_err();
    assert!(
        err.to_string().contains("carry no type, gold or tier"),
        "{err}"
    );
    // Both, but no id in common.
    let other = RESULTS.replace("\"task_id\": \"", "\"task_id\": \"x-");
    let err = run(&[("easy.jsonl", EASY), ("results.jsonl", &other)], None).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("none of the 6 results rows matches one of the 3 task ids"),
        "{msg}"
    );
    assert!(msg.contains("`x-e-1`") && msg.contains("`e-1`"), "{msg}");
}

#[test]
fn a_task_without_a_result_in_a_joined_file_is_invalid() {
    let results: String = RESULTS
        .lines()
        .filter(|l| !l.contains("\"e-1\""))
        .collect::<Vec<_>>()
        .join("\n");
    let r = run(&[("easy.jsonl", EASY), ("results.jsonl", &results)], None).unwrap();
    assert_eq!(r.items, 3);
    assert!(r.warnings.iter().any(|w| w.file == "easy.jsonl"
        && w.line == Some(1)
        && w.reason.contains("no results row")));
    assert_eq!(choice(&r).invalid, 1);
    // A task file none of whose tasks has a row is left out with one warning.
    let r = run(
        &[
            ("easy.jsonl", EASY),
            ("hard.jsonl", HARD),
            ("results.jsonl", &results.replace("h-1", "zz")),
        ],
        None,
    )
    .unwrap();
    assert!(r
        .warnings
        .iter()
        .any(|w| w.file == "hard.jsonl" && w.reason.contains("left out")));
    assert_eq!(r.items, 3);
}

#[test]
fn malformed_rows_are_warned_with_file_and_line() {
    let results = RESULTS.replace(
        r#"{"a": 0.3, "b": 0.6, "c": 0.1}"#,
        r#"{"a": 0.9, "b": 0.6, "c": 0.1}"#,
    ) + "not json\n{\"task_id\": \"e-1\", \"valid\": true, \"probs\": {}}\n";
    let r = run(&[("hard.jsonl", HARD), ("results.jsonl", &results)], None).unwrap();
    let w = |line: u64| {
        r.warnings
            .iter()
            .find(|w| w.line == Some(line) && w.file == "results.jsonl")
    };
    assert!(
        w(6).unwrap().reason.contains("above 1.02"),
        "{:?}",
        r.warnings
    );
    assert!(w(7).unwrap().reason.contains("not valid JSON"));
    assert!(w(8).unwrap().reason.contains("second results row"));
    // h-1 is still scored: its answer `b` is valid, its probabilities are not.
    let c = choice(&r);
    assert_eq!((c.items, c.ece_items, c.invalid), (1, 0, 0));
}

#[test]
fn noul_labels_and_tier_from_the_file_name() {
    use scorelens::formats::jevbench::tier_from_name;
    use scorelens::items::Tier;
    assert_eq!(
        tier_from_name("datasets/public/easy.jsonl"),
        Some(Tier::Easy)
    );
    assert_eq!(
        tier_from_name("C:\\runs\\original.jsonl"),
        Some(Tier::Standard)
    );
    assert_eq!(tier_from_name("jevbench-hard.jsonl"), Some(Tier::Hard));
    assert_eq!(tier_from_name("results.jsonl"), None);
    assert_eq!(
        tier_from_name("easy-vs-hard.jsonl"),
        None,
        "two tiers named: none chosen"
    );
    let bad = r#"{"id": "x", "question": {"type": "noul"}, "labels": ["maybe", "yes"], "expected": "yes"}"#;
    let r = run(
        &[
            ("easy.jsonl", &format!("{bad}\n{EASY}")),
            ("results.jsonl", RESULTS),
        ],
        None,
    )
    .unwrap();
    assert!(r
        .warnings
        .iter()
        .any(|w| w.line == Some(1) && w.reason.contains("\"no\" and \"yes\"")));
}

#[test]
fn the_user_profile_wins_over_the_detected_one() {
    let r = run(
        &[("hard.jsonl", HARD), ("results.jsonl", RESULTS)],
        Some("generic"),
    )
    .unwrap();
    assert_eq!(r.profile, "generic");
    assert!(r.ic.is_some());
}
