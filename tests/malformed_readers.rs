//! The malformed corpus, one reader family at a time (tests/malformed/<reader>/): lm-eval,
//! HELM, JevBench, Decision Bench, OpenAI evals, CSV/TSV and RewardBench files with the faults
//! each format meets in practice (cut-off runs, wrong types, strings for numbers, NaN literals,
//! parallel lists of unequal length, rows that match nothing). Each test asserts the exact
//! warnings (file, line, reason, in order) and the number of items scored, and `check` requires
//! the same report when the bytes arrive in 7-byte chunks.

mod malformed_util;

use malformed_util::{check, check_one, run, w};

#[test]
fn lm_eval_samples() {
    check_one(
        "lm_eval/samples_colours_2026-11-29T20-46-19.400381.jsonl",
        5,
        &[
            (Some(2), "not valid JSON: EOF while parsing an object at column 90"),
            (Some(3), "`doc_id` must be an integer, not an object"),
            (Some(4), "2 log-likelihood responses for 3 requests cannot be paired up: graded by the logged acc, without probabilities"),
            (Some(5), "a loglikelihood is not a number; the answer is invalid"),
            (Some(7), "target `7` is neither a choice position (0-1) nor a choice's text"),
            (Some(8), "`arguments` has the key `other`, not gen_args_N"),
            (Some(9), "not valid JSON: bare `NaN` at column 181 (NaN and Infinity are not JSON numbers)"),
            (Some(10), "id `colours/0` was already seen; this later item is skipped"),
            (Some(11), "loglikelihoods holds a non-finite value inf; probabilities invalid"),
            (Some(13), "expected a JSON object, found a list"),
        ],
    );
}

#[test]
fn lm_eval_array_v042() {
    // The 0.4.0-0.4.2 layout: one JSON array, cut off inside its fifth element.
    check_one(
        "lm_eval/_sci_mc.jsonl",
        2,
        &[
            (Some(3), "element 2: no `arguments`"),
            (Some(5), "element 4: expected a JSON object, found a number"),
            (Some(6), "the JSON array is malformed here, so the rest of the file is lost: EOF while parsing an object"),
        ],
    );
}

#[test]
fn lm_eval_results_nan() {
    // A results file with a bare NaN, a figure written as text and a task that is a number: the
    // file is read, and only the well-formed figures are shown.
    let out = check_one(
        "lm_eval/results_2026-11-29T20-46-19.400381.json",
        0,
        &[(None, "the file holds Python's bare NaN/Infinity literals, which are not JSON; those figures are left out")],
    );
    let reported: Vec<(String, String)> = out
        .report
        .unwrap()
        .reported
        .iter()
        .map(|f| (f.name.clone(), f.scope.clone()))
        .collect();
    let want = [
        ("exact_match", "say_gen · raw"),
        ("exact_match", "say_gen · strict-match"),
    ];
    assert_eq!(reported, want.map(|(a, b)| (a.to_string(), b.to_string())));
}

#[test]
fn helm_truncated() {
    check_one(
        "helm/truncated/scenario_state.json",
        0,
        &[(
            Some(121),
            "not a HELM file this reader understands: EOF while parsing an object",
        )],
    );
}

#[test]
fn helm_odd_values() {
    check_one(
        "helm/odd_values/scenario_state.json",
        4,
        &[
            (
                None,
                "request_states[2] (instance id3): no reference is tagged correct",
            ),
            (
                None,
                "read without its per_instance_stats.json: nothing to cross-check",
            ),
        ],
    );
}

#[test]
fn helm_wrong_type() {
    check_one(
        "helm/wrong_type/scenario_state.json",
        0,
        &[(
            Some(86),
            r#"not a HELM file this reader understands: invalid type: string "-0.9", expected f64"#,
        )],
    );
}

#[test]
fn helm_mismatched() {
    check(
        &["helm/mismatched/scenario_state.json", "helm/mismatched/per_instance_stats.json"],
        3,
        &[
            w("helm/mismatched/per_instance_stats.json", None, "on 1 instances (first id2) HELM's per-instance stats disagree with the answer or probability read from scenario_state.json"),
            w("helm/mismatched/per_instance_stats.json", None, "1 items have no entry in per_instance_stats.json: are both files from one run?"),
        ],
    );
}

#[test]
fn helm_orphan() {
    check_one(
        "helm/orphan/per_instance_stats.json",
        0,
        &[
            (None, "per_instance_stats.json without its scenario_state.json has no options or answers: not scored (drop both files of the run)"),
        ],
    );
}

#[test]
fn helm_nan_stats() {
    // stats.json with a bare NaN mean: read as absent, the other figures are kept.
    let out = check(
        &["helm/nan_stats/scenario_state.json", "helm/nan_stats/stats.json"],
        3,
        &[
            w("helm/nan_stats/stats.json", None, "the file holds Python's bare NaN/Infinity literals, which are not JSON; read as absent values"),
            w("helm/nan_stats/scenario_state.json", None, "read without its per_instance_stats.json: nothing to cross-check"),
        ],
    );
    let reported: Vec<(String, f64)> = out
        .report
        .unwrap()
        .reported
        .iter()
        .map(|f| (f.name.clone(), f.value))
        .collect();
    assert_eq!(reported, [("exact_match".to_string(), 0.6666666666666666)]);
}

#[test]
fn jevbench_bad_rows() {
    check(
        &[
            "jevbench/bad_rows/easy.jsonl",
            "jevbench/bad_rows/results.jsonl",
        ],
        3,
        &[
            w(
                "jevbench/bad_rows/easy.jsonl",
                Some(2),
                "expected `delta` is not among the labels",
            ),
            w(
                "jevbench/bad_rows/easy.jsonl",
                Some(3),
                "needs at least 2 labels, has 0",
            ),
            w(
                "jevbench/bad_rows/easy.jsonl",
                Some(5),
                "task id `e-1` was already seen; this later task is skipped",
            ),
            w(
                "jevbench/bad_rows/easy.jsonl",
                Some(6),
                "`expected` is null: JevBench marks the item unscorable, so it is skipped",
            ),
            w(
                "jevbench/bad_rows/easy.jsonl",
                Some(8),
                "not valid JSON: EOF while parsing an object at column 115",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(5),
                "a second results row for task `e-6`; the first one is kept",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(7),
                "a second results row for task `e-1`; the first one is kept",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(9),
                "not valid JSON: bare `NaN` at column 58 (NaN and Infinity are not JSON numbers)",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(3),
                "task `e-4`: probs[`yes`] is a string, not a number; probabilities invalid",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(4),
                "task `e-6`: probs sum to 1.8 over the options, above 1.02; probabilities invalid",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(2),
                "task_id `e-2` matches no task in the task files; skipped",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(6),
                "task_id `e-8` matches no task in the task files; skipped",
            ),
            w(
                "jevbench/bad_rows/results.jsonl",
                Some(8),
                "task_id `17` matches no task in the task files; skipped",
            ),
        ],
    );
}

#[test]
fn jevbench_unmatched() {
    check_one(
        "jevbench/unmatched/results.jsonl",
        0,
        &[
            (None, "JevBench results rows carry no type, gold or tier; drop the task files (easy.jsonl, original.jsonl, hard.jsonl) together with results.jsonl"),
        ],
    );
}

#[test]
fn decision_bench_predictions() {
    let out = check_one(
        "decision_bench/predictions/predictions.jsonl",
        8,
        &[
            (Some(2), "probabilities left out: probs sum to 1.5 over the options, above 1.02"),
            (Some(3), "probabilities left out: probs holds an invalid probability -0.2"),
            (Some(6), "id `r1` was already seen; this later item is skipped"),
            (Some(12), "not valid JSON: EOF while parsing a value at column 60"),
            (Some(4), "no probabilities and no corpus row: 3 options assumed, as in the task's other rows"),
            (Some(4), "probabilities left out: the probability of `close` is a string, not a number"),
            (Some(5), "no probabilities and no corpus row: 3 options assumed, as in the task's other rows"),
            (None, "2 rows (first `r6`, `r8`) carry no gold: drop the corpus cases.jsonl together with the run's results.jsonl"),
        ],
    );
    // Right: r1, r3 and r4 (a valid answer despite invalid probabilities), r7, r9. Wrong: r2,
    // r5 (no answer), r10 (answer `wait`, gold `close`).
    assert_eq!(out.report.unwrap().metrics.accuracy, Some(5.0 / 8.0));
}

#[test]
fn decision_bench_joined() {
    let out = check(
        &["decision_bench/joined/cases.jsonl", "decision_bench/joined/results.jsonl"],
        3,
        &[
            w("decision_bench/joined/cases.jsonl", Some(5), "corpus row `c1` appears twice; the first is kept"),
            w("decision_bench/joined/results.jsonl", Some(5), "answer `3` is not an option: invalid"),
            w("decision_bench/joined/results.jsonl", Some(5), "probabilities left out: `probabilities` is a list, not an object"),
            w("decision_bench/joined/results.jsonl", Some(7), "gold `nowhere` is not among the options"),
            w("decision_bench/joined/results.jsonl", Some(3), "row `c9` matches no row of the corpus, so it is skipped: is it the corpus of this run?"),
            w("decision_bench/joined/results.jsonl", Some(8), "row `c4` matches no row of the corpus, so it is skipped: is it the corpus of this run?"),
        ],
    );
    // c1's later row (label 3) supersedes its first, c2's later timeout its answer; c5 is right.
    assert_eq!(out.report.unwrap().metrics.accuracy, Some(1.0 / 3.0));
}

#[test]
fn openai_evals_record() {
    check_one(
        "openai_evals/record.jsonl",
        6,
        &[
            (Some(4), "a match event without a boolean `correct`"),
            (Some(6), "a match event without a `data` object"),
            (
                Some(11),
                "not valid JSON: EOF while parsing a string at column 70",
            ),
        ],
    );
}

#[test]
fn promptfoo_results_lines() {
    // Read without a chosen run, so every id carries its `[provider] prompt`.
    check_one(
        "promptfoo/results.jsonl",
        4,
        &[
            (Some(2), "not valid JSON: expected ident"),
            (Some(3), "expected a result object, found a list"),
            (Some(4), "a result without a non-negative integer `testIdx`"),
            (Some(5), "a result without a boolean `success`"),
            (Some(6), "a result without a `provider`"),
            (
                Some(7),
                "`score` is not a number: the test is scored, and left out of the mean score",
            ),
            (
                Some(9),
                "id `[echo] say 0` was already seen; this later item is skipped",
            ),
            (Some(11), "not valid JSON: EOF while parsing a value"),
            (
                None,
                "1 result errored (promptfoo counts errors apart from failures): scored as wrong, with no answer",
            ),
        ],
    );
}

#[test]
fn promptfoo_results_document() {
    // Rows inside `results.results` are named by the document's own lines.
    check_one(
        "promptfoo/results.json",
        2,
        &[
            (Some(5), "a result without a boolean `success`"),
            (Some(6), "expected a result object, found a number"),
        ],
    );
}

#[test]
fn promptfoo_csv_export() {
    // Read without a chosen run: each row is a test of both runs.
    check_one(
        "promptfoo/results.csv",
        11,
        &[
            (
                Some(3),
                "[echo] say: status `MAYBE` is not PASS, FAIL or ERROR: the test is not scored",
            ),
            (
                Some(4),
                "[echo] say: score `high` is not a number: the test is scored, and left out of the mean score",
            ),
            (
                Some(5),
                "[echo] say: `Named Scores` is not a JSON object: left out of the named scores",
            ),
            (
                Some(7),
                "a row of 4 cells where the header has 16: its tests are not scored",
            ),
            (
                None,
                "1 result errored (promptfoo counts errors apart from failures): scored as wrong, with no answer",
            ),
        ],
    );
}

#[test]
fn evals_api_output_items() {
    check_one(
        "evals_api/output_items.jsonl",
        4,
        &[
            (Some(2), "an output item without a string `run_id`"),
            (Some(3), "an output item without an integer `datasource_item_id`"),
            (Some(4), "an output item without a string `status`"),
            (
                Some(5),
                "grader result 1 has no string `name` and boolean `passed`: left out of the grader figures",
            ),
            (
                Some(7),
                "not an output item (`object` is not eval.run.output_item)",
            ),
            (
                Some(9),
                "id `evalrun_1/0` was already seen; this later item is skipped",
            ),
            (Some(10), "not valid JSON: expected ident"),
            (
                None,
                "1 sample errored (the API counts them apart from the failures): scored as wrong, with no answer",
            ),
        ],
    );
}

#[test]
fn csv_bom_crlf() {
    check_one(
        "csv/bom_crlf.tsv",
        1,
        &[
            (
                Some(3),
                "id `t1` was already seen; this later item is skipped",
            ),
            (Some(4), "not valid UTF-8 (field 5)"),
            (Some(5), "needs at least 2 options, has 1"),
            (Some(7), "no `gold`"),
        ],
    );
}

#[test]
fn csv_header_only() {
    check_one(
        "csv/header_only.csv",
        0,
        &[(None, "the table has a header row and no rows")],
    );
}

#[test]
fn csv_ragged() {
    let out = check_one(
        "csv/ragged.csv",
        8,
        &[
            (
                Some(3),
                "the row has 7 fields, the header 9: the missing ones count as empty",
            ),
            (
                Some(4),
                "the row has 11 fields, the header 9: the extra ones are ignored",
            ),
            (
                Some(5),
                "probs holds an invalid probability NaN; probabilities invalid",
            ),
            (
                Some(6),
                "probs holds an invalid probability inf; probabilities invalid",
            ),
            (
                Some(7),
                "probs holds an invalid probability -0.1; probabilities invalid",
            ),
            (Some(9), "no `id`"),
            (
                Some(10),
                "the row has 6 fields, the header 9: the missing ones count as empty",
            ),
            (
                Some(10),
                "probs[`A`] is a string, not a number; probabilities invalid",
            ),
        ],
    );
    // Right: q1 (A 0.7), q3 (C 0.5, its extra fields ignored), q7 (options from the p_ columns,
    // A first among the tied). Wrong: q2 (answer C), q4-q6 (invalid probabilities, no answer),
    // q8, whose unclosed quote swallowed the last line into its p_A cell.
    assert_eq!(out.report.unwrap().metrics.accuracy, Some(3.0 / 8.0));
}

#[test]
fn rewardbench_unequal_arrays() {
    check_one(
        "rewardbench/unequal_arrays.json",
        0,
        &[
            (None, "the file holds Python's bare NaN/Infinity literals, which are not JSON; read as non-finite numbers"),
            (None, "the columns have unequal lengths (id 5, subset 4, results 5, scores_chosen 5, scores_rejected 6, text_chosen 5, text_rejected 5), so rows cannot be aligned; the file is not scored"),
        ],
    );
}

#[test]
fn rewardbench_v2_bad_rows() {
    check(
        &["rewardbench/v2_bad_rows.json"],
        1,
        &[
            w("rewardbench/v2_bad_rows.json", Some(6), "row 2 (id a2, Math): `num_correct` is 5, not between 1 and the 4 candidates - 1"),
            w("rewardbench/v2_bad_rows.json", Some(7), "row 3 (id a3, Precise IF): `scores` needs at least 2 candidates"),
            w("rewardbench/v2_bad_rows.json", Some(8), r#"row 4 (id a4, Focus): `scores[2]` is the string "x", not a number"#),
            w("rewardbench/v2_bad_rows.json", Some(9), "id `a1` was already seen; this later item is skipped"),
            w("", None, "the RewardBench 2 overall needs all six subsets; it is null because Precise IF, Math, Safety, Focus, Ties has no figure"),
        ],
    );
}

#[test]
fn rewardbench_outputs() {
    check(
        &["rewardbench/outputs.jsonl"],
        3,
        &[
            w("rewardbench/outputs.jsonl", Some(2), r#"row 2 (id 1, alpacaeval-easy): `scores_chosen` is the string "1.0", not a number"#),
            w("rewardbench/outputs.jsonl", Some(5), "Python's bare NaN/Infinity literal, which is not JSON; read as a non-finite number"),
            w("rewardbench/outputs.jsonl", Some(5), "row 5 (id 4, alpacaeval-hard): `scores_chosen` is inf; the item is left out (the official scorer counts such a comparison as wrong)"),
            w("rewardbench/outputs.jsonl", Some(6), "id 5: `subset` is null, not a string"),
            w("rewardbench/outputs.jsonl", Some(7), "id `alpacaeval-easy/0` was already seen; this later item is skipped"),
            w("rewardbench/outputs.jsonl", Some(8), "not valid JSON: EOF while parsing a value at column 50"),
            w("", None, "section Chat Hard has none of its subsets (mt-bench-hard, llmbar-natural, llmbar-adver-neighbor, llmbar-adver-GPTInst, llmbar-adver-GPTOut, llmbar-adver-manual); it is null, and so is the overall"),
            w("", None, "section Safety has none of its subsets (refusals-dangerous, refusals-offensive, xstest-should-refuse, xstest-should-respond, donotanswer); it is null, and so is the overall"),
            w("", None, "section Reasoning has none of its subsets (math-prm, hep-cpp, hep-go, hep-java, hep-js, hep-python, hep-rust); it is null, and so is the overall"),
        ],
    );
}

#[test]
fn rewardbench_aggregate() {
    let out = check(
        &["rewardbench/aggregate_results.json"],
        0,
        &[
            w("rewardbench/aggregate_results.json", None, "`alpacaeval-hard` is a string, not a subset accuracy; ignored"),
            w("rewardbench/aggregate_results.json", None, "subset `mt-bench-med` has the accuracy 1.7, outside [0, 1]; left out"),
            w("rewardbench/aggregate_results.json", None, "subset `donotanswer` has the accuracy -0.1, outside [0, 1]; left out"),
            w("rewardbench/aggregate_results.json", None, "subset `llmbar-natural` has the non-finite accuracy NaN; left out"),
            w("rewardbench/aggregate_results.json", None, "subset `hep-go` has the accuracy 1e308, outside [0, 1]; left out"),
            w("", None, "section Chat Hard has none of its subsets (mt-bench-hard, llmbar-natural, llmbar-adver-neighbor, llmbar-adver-GPTInst, llmbar-adver-GPTOut, llmbar-adver-manual); it is null, and so is the overall"),
            w("", None, "section Safety has none of its subsets (refusals-dangerous, refusals-offensive, xstest-should-refuse, xstest-should-respond, donotanswer); it is null, and so is the overall"),
            w("", None, "section Reasoning has none of its subsets (math-prm, hep-cpp, hep-go, hep-java, hep-js, hep-python, hep-rust); it is null, and so is the overall"),
        ],
    );
    // Only alpacaeval-easy is left in the Chat section; the out-of-range values carry nowhere.
    let rb = out.report.unwrap().rewardbench.unwrap();
    assert_eq!(rb.sections.get("Chat").copied().flatten(), Some(0.9));
    assert_eq!(rb.sections.get("Safety").copied().flatten(), None);
}

#[test]
fn csv_no_id_column() {
    // No `id` column: no reader claims the table, and the reason says what a table needs.
    let out = run(&["csv/no_id_column.csv"]);
    assert_eq!(out.items, 0);
    assert_eq!(out.warnings.len(), 1);
    let reason = &out.warnings[0].reason;
    assert!(
        reason.starts_with("not a file scorelens reads: a table whose first line is no header scorelens reads: a CSV or TSV table needs an `id` column and `gold`, `chosen` and `rejected`, or `scores`. scorelens reads "),
        "{reason}"
    );
}

#[test]
fn lighteval_details_lines() {
    check_one(
        "lighteval/details_letters|0_2026-12-06T00-00-00.jsonl",
        6,
        &[
            (Some(2), "not valid JSON: EOF while parsing a string"),
            (Some(3), "expected a detail object, found an array"),
            (Some(4), "a `doc` without a `gold_index`"),
            (Some(5), "`gold_index` 7 is past the 3 choices"),
            (Some(6), "a `gold_index` that is a string"),
            (
                Some(7),
                "a loglikelihood is not a number (a NaN is null in the table); the answer is invalid",
            ),
            (
                Some(9),
                "id `letters|0/0` was already seen; this later item is skipped",
            ),
            (Some(10), "a `doc.choices` entry that is not text"),
            (Some(11), "a row without a `model_response` object"),
            (
                Some(14),
                "a generative row whose metrics (bleu) name no correctness: scorelens reads em, exact_match, quasi_exact_match, prefix_exact_match, extractive_match, pass@1, acc, accuracy",
            ),
            (Some(15), "a correctness metric of 3, outside [0, 1]"),
            (
                None,
                "on 1 row (first at line 8) the logged acc disagrees with the argmax of the loglikelihoods against doc.gold_index: check the file was not edited",
            ),
        ],
    );
}
