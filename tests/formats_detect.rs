//! Detection by content: every fixture of the lm-eval, HELM, OpenAI evals and CSV readers is
//! claimed by its own format and by no other, near-misses are claimed by none of them, and a file
//! nobody reads gets an error naming the formats and the keys it saw.

use scorelens::formats::{detect, FORMATS, HEAD};
use scorelens::{score, Error, Input, Options};

fn head(path: &str) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes[..bytes.len().min(HEAD)].to_vec()
}

/// Every format that claims the file, by name.
fn claims(name: &str, head: &[u8]) -> Vec<&'static str> {
    FORMATS
        .iter()
        .filter(|f| f.sniff(name, head).is_some())
        .map(|f| f.name())
        .collect()
}

const FIXTURES: &[(&str, &str)] = &[
    (
        "lm_eval/v0.4.13/samples_sci_mc_2026-11-29T20-46-19.400381.jsonl",
        "lm-eval",
    ),
    (
        "lm_eval/v0.4.13/samples_sci_text_2026-11-29T20-46-19.400381.jsonl",
        "lm-eval",
    ),
    (
        "lm_eval/v0.4.13/samples_say_gen_2026-11-29T20-46-19.400381.jsonl",
        "lm-eval",
    ),
    (
        "lm_eval/v0.4.13/results_2026-11-29T20-46-19.400381.json",
        "lm-eval-results",
    ),
    ("lm_eval/v0.4.2/_sci_mc.jsonl", "lm-eval"),
    ("lm_eval/v0.4.2/_sci_text.jsonl", "lm-eval"),
    ("lm_eval/v0.4.2/results.json", "lm-eval-results"),
    ("helm/joint/scenario_state.json", "helm-scenario-state"),
    (
        "helm/joint/per_instance_stats.json",
        "helm-per-instance-stats",
    ),
    ("helm/joint/stats.json", "helm-stats"),
    ("helm/joint/run_spec.json", "helm-run-file"),
    ("helm/joint/scenario.json", "helm-run-file"),
    ("helm/separate/scenario_state.json", "helm-scenario-state"),
    (
        "helm/separate/per_instance_stats.json",
        "helm-per-instance-stats",
    ),
    ("helm/separate/stats.json", "helm-stats"),
    ("openai_evals/match.jsonl", "openai-evals"),
    ("openai_evals/choice.jsonl", "openai-evals"),
    ("csv/choice.csv", "csv"),
    ("csv/mixed.tsv", "csv"),
    ("promptfoo/results.json", "promptfoo"),
    ("promptfoo/results.jsonl", "promptfoo"),
    ("promptfoo/results.csv", "promptfoo"),
    ("evals_api/run_a/output_items_page1.json", "evals-api"),
    ("evals_api/run_a/run.json", "evals-api"),
    ("evals_api/run_b/output_items.json", "evals-api"),
    ("evals_api/jsonl/run_b_output_items.jsonl", "evals-api"),
];

#[test]
fn every_fixture_is_claimed_by_its_format_alone() {
    for (path, want) in FIXTURES {
        let full = format!("tests/fixtures/{path}");
        let h = head(&full);
        assert_eq!(claims(path, &h), [*want], "{path}");
        assert_eq!(detect(path, &h).map(|f| f.name()), Some(*want), "{path}");
    }
}

#[test]
fn detection_reads_content_not_names() {
    // The lm-eval samples under a canonical-looking name, and a canonical file under an lm-eval name.
    let h = head("tests/fixtures/lm_eval/v0.4.13/samples_sci_mc_2026-11-29T20-46-19.400381.jsonl");
    assert_eq!(
        detect("predictions.jsonl", &h).map(|f| f.name()),
        Some("lm-eval")
    );
    let canonical =
        br#"{"id": "q1", "options": ["A", "B"], "gold": "A", "probs": {"A": 0.6, "B": 0.4}}"#;
    let name = "samples_x_2026-01-01T00-00-00.jsonl";
    assert_eq!(detect(name, canonical).map(|f| f.name()), Some("scorelens"));
    assert_eq!(claims(name, canonical), ["scorelens"]);
    // A CSV saved as .txt is still CSV; a TSV is told by its tabs.
    let csv = b"id,options,gold,p_A,p_B\n1,A|B,A,0.5,0.5\n";
    assert_eq!(detect("table.txt", csv).map(|f| f.name()), Some("csv"));
}

const OURS: [&str; 10] = [
    "lm-eval",
    "lm-eval-results",
    "helm-scenario-state",
    "helm-per-instance-stats",
    "helm-stats",
    "helm-run-file",
    "openai-evals",
    "csv",
    "promptfoo",
    "evals-api",
];

#[test]
fn an_openai_evals_log_is_not_an_evals_api_item() {
    // Both have a `run_id`; only the API's output items say `"object": "eval.run.output_item"`.
    let line = br#"{"run_id": "r1", "event_id": 0, "sample_id": "s.0", "type": "match", "data": {"correct": true}}"#;
    assert_eq!(claims("events.jsonl", line), ["openai-evals"]);
    let fixture = head("tests/fixtures/openai_evals/match.jsonl");
    assert_eq!(claims("match.jsonl", &fixture), ["openai-evals"]);
}

#[test]
fn near_misses_are_not_ours() {
    let near: &[(&str, &[u8])] = &[
        // JSON Lines with a doc_id but no responses: a dataset, not lm-eval samples.
        (
            "docs.jsonl",
            br#"{"doc_id": 0, "question": "q", "choices": ["a", "b"]}"#,
        ),
        // `results` without the harness's bookkeeping keys.
        (
            "results.json",
            br#"{"results": {"task": {"acc": 0.5}}, "model": "m"}"#,
        ),
        // `results` and `versions`, but no "metric,filter" keys.
        (
            "r.json",
            br#"{"results": {"t": {"acc": 0.5}}, "versions": {"t": 1}}"#,
        ),
        // A HELM-like object without request states; an array of instances without stats.
        (
            "s.json",
            br#"{"adapter_spec": {"method": "generation"}, "instances": []}"#,
        ),
        (
            "p.json",
            br#"[{"instance_id": "id1", "train_trial_index": 0}]"#,
        ),
        // A name and a description are not a HELM scenario.json.
        (
            "scenario.json",
            br#"{"name": "x", "description": "y", "tags": []}"#,
        ),
        // Stats-like objects not in an array.
        (
            "stats.json",
            br#"{"name": {"name": "x"}, "count": 1, "sum": 1, "sum_squared": 1}"#,
        ),
        // A `spec` line that is not an evals RunSpec; events missing `data`.
        ("log.jsonl", br#"{"spec": {"version": 2}, "name": "x"}"#),
        (
            "ev.jsonl",
            br#"{"run_id": "r", "event_id": 0, "type": "match"}"#,
        ),
        // CSV without id or gold; JSON Lines are not CSV.
        ("t.csv", b"prompt,response,gold\nhi,hello,x\n"),
        ("t.csv", b"id,prompt,response\n1,hi,hello\n"),
        ("x.csv", br#"{"id": "a", "gold": "b"}"#),
        // A promptfoo config (prompts, providers, tests) and an eval id without results.
        (
            "promptfooconfig.json",
            br#"{"prompts": ["p {{x}}"], "providers": ["echo"], "tests": [{"vars": {"x": 1}}]}"#,
        ),
        (
            "eval.json",
            br#"{"evalId": "eval-1", "config": {"prompts": []}}"#,
        ),
        // Result lines with `success` and a score but no promptIdx: another tool's rows.
        (
            "rows.jsonl",
            br#"{"success": true, "score": 1, "testCase": {"vars": {}}, "provider": "p"}"#,
        ),
        // A page of runs (not of output items), an eval object, and an output item object
        // without its datasource item.
        (
            "runs.json",
            br#"{"object": "list", "data": [{"object": "eval.run", "id": "evalrun_1"}], "has_more": false}"#,
        ),
        (
            "eval_object.json",
            br#"{"object": "eval", "id": "eval_1", "data_source_config": {}, "testing_criteria": []}"#,
        ),
        (
            "item.json",
            br#"{"object": "eval.run.output_item", "id": "outputitem_1", "status": "pass"}"#,
        ),
    ];
    for (name, bytes) in near {
        let mine: Vec<&str> = claims(name, bytes)
            .into_iter()
            .filter(|c| OURS.contains(c))
            .collect();
        assert!(
            mine.is_empty(),
            "{name}: {mine:?} claimed {}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn an_unknown_file_names_our_formats_in_users_words_and_its_keys() {
    let bytes = br#"{"prompt": "hi", "completion": "hello", "score": 3}"#;
    let err = score(
        &[Input {
            name: "mystery.json",
            bytes,
        }],
        &Options::default(),
    )
    .unwrap_err();
    let Error::NoItems(w) = err else {
        panic!("{err:?}")
    };
    let reason = &w[0].reason;
    // The formats in the words their users know, never the internal names.
    for words in [
        "lm-eval samples files",
        "results files",
        "HELM run folders",
        "OpenAI evals logs",
        "promptfoo results",
        "OpenAI Evals API output items",
        "CSV or TSV tables",
    ] {
        assert!(reason.contains(words), "{words} missing from: {reason}");
    }
    for name in OURS.iter().filter(|n| n.contains('-') && **n != "lm-eval") {
        assert!(!reason.contains(name), "{name} in: {reason}");
    }
    assert!(reason.contains("prompt, completion, score"), "{reason}");
    assert_eq!(w[0].file, "mystery.json");
}

#[test]
fn the_other_samples_are_not_claimed_by_these_readers() {
    for entry in std::fs::read_dir("www/samples").unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let name = path.display().to_string();
        let h = head(&name);
        let mine: Vec<&str> = claims(&name, &h)
            .into_iter()
            .filter(|c| OURS.contains(c))
            .collect();
        assert!(mine.is_empty(), "{name}: claimed by {mine:?}");
    }
}
