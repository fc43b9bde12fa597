//! The malformed corpus, canonical format and files no reader claims (tests/malformed/canonical/,
//! other/), plus inputs too large to commit, made here: a 10 MB single line and a run with more
//! warnings than the report keeps. Each test asserts the exact warnings (file, line, reason) and
//! how many items were scored; `check` also feeds the bytes in 7-byte chunks and requires the very
//! same report. The other readers are in malformed_readers.rs, archives in malformed_archives.rs.

mod malformed_util;

use malformed_util::{check_one, run, run_named};
use scorelens::session::MAX_WARNINGS;

#[test]
fn canonical_array_elements() {
    check_one(
        "canonical/array_elements.json",
        2,
        &[
            (Some(4), "element 3: expected a JSON object, found a number"),
            (Some(5), "element 4: expected a JSON object, found a string"),
            (Some(6), "element 5: expected a JSON object, found null"),
            (Some(7), "element 6: expected a JSON object, found a list"),
            (Some(8), "element 7: gold `C` is not among the options"),
            (
                Some(9),
                "id `q1` was already seen; this later item is skipped",
            ),
            (
                Some(14),
                "text after the JSON array is ignored: trailing characters",
            ),
        ],
    );
}

#[test]
fn canonical_array_truncated() {
    check_one(
        "canonical/array_truncated.json",
        2,
        &[
            (Some(5), "the JSON array is malformed here, so the rest of the file is lost: EOF while parsing an object"),
        ],
    );
}

#[test]
fn canonical_bad_probabilities() {
    let out = check_one(
        "canonical/bad_probabilities.jsonl",
        10,
        &[
            (
                Some(1),
                "probs holds an invalid probability -0.1; probabilities invalid",
            ),
            (
                Some(2),
                "probs sum to 1.5 over the options, above 1.02; probabilities invalid",
            ),
            (
                Some(3),
                "probs sum to 1.03 over the options, above 1.02; probabilities invalid",
            ),
            (Some(5), "probs are all zero; probabilities invalid"),
            (
                Some(6),
                "`p_yes` 1.5 is outside [0, 1]; probabilities invalid",
            ),
            (
                Some(7),
                "`p_yes` -0.1 is outside [0, 1]; probabilities invalid",
            ),
            (Some(8), "`gold_probs` holds a negative probability"),
            (
                Some(9),
                "probs sum to 1.6 over the options, above 1.02; probabilities invalid",
            ),
            (Some(11), "probs names `A` twice; probabilities invalid"),
            (Some(12), "`gold_probs` sums to 0.8, not 1"),
        ],
    );
    let r = out.report.unwrap();
    // Valid probabilities: q4 (total exactly 1.02, rescaled) and q10 (-0.0 is not negative).
    assert_eq!(r.conditioning.items, 2);
    // Only q9 is right: its probabilities are invalid but its `answer` B is valid. q1, q2, q3,
    // q5, q6, q7 and q11 have invalid probabilities and no answer: invalid and wrong.
    assert_eq!(r.metrics.accuracy, Some(0.1));
    assert_eq!(r.metrics.invalid_share, Some(0.7));
}

#[test]
fn canonical_bom_crlf() {
    // BOM, CRLF, blank and whitespace-only CRLF lines, no final line end: nothing to warn about.
    let out = check_one("canonical/bom_crlf.jsonl", 3, &[]);
    let r = out.report.unwrap();
    assert_eq!(r.model.as_deref(), Some("crlf-model"));
    // q1 and q2 answer A by arg-max (right), q3 answers B (wrong).
    assert_eq!(r.metrics.accuracy, Some(2.0 / 3.0));
}

#[test]
fn canonical_bom_midfile() {
    check_one(
        "canonical/bom_midfile.jsonl",
        2,
        &[(Some(2), "not valid JSON: expected value at column 1")],
    );
}

#[test]
fn canonical_control_bytes() {
    check_one(
        "canonical/control_bytes.jsonl",
        2,
        &[
            (Some(2), "not valid JSON: expected value at column 1"),
            (Some(3), "not valid JSON: expected value at column 1"),
            (
                Some(4),
                r#"not valid JSON: control character (\u0000-\u001F) found while parsing a string at column 63"#,
            ),
            (Some(6), "not valid JSON: expected value at column 1"),
        ],
    );
}

#[test]
fn canonical_cr_only() {
    // Classic Mac line ends: each carriage return ends a line, and the mapping says so.
    let out = check_one("canonical/cr_only.jsonl", 3, &[]);
    let report = out.report.expect("a report");
    assert_eq!(
        report.files[0].mapping,
        ["line endings: CR (classic Mac), read as line ends"]
    );
}

#[test]
fn canonical_deeply_nested() {
    check_one(
        "canonical/deeply_nested.jsonl",
        4,
        &[
            (
                Some(3),
                "not valid JSON: recursion limit exceeded at column 815",
            ),
            (
                Some(5),
                "not valid JSON: EOF while parsing a list at column 5085",
            ),
        ],
    );
}

#[test]
fn canonical_duplicate_ids() {
    check_one(
        "canonical/duplicate_ids.jsonl",
        2,
        &[
            (
                Some(2),
                "id `q1` was already seen; this later item is skipped",
            ),
            (
                Some(4),
                "id `2` was already seen; this later item is skipped",
            ),
            (Some(5), "field `id` appears twice"),
            (Some(6), "field `gold` appears twice"),
            (
                Some(7),
                "id `q1` was already seen; this later item is skipped",
            ),
            (Some(8), "option `A` is listed twice"),
        ],
    );
}

#[test]
fn canonical_empty_options() {
    check_one(
        "canonical/empty_options.jsonl",
        1,
        &[
            (Some(1), "needs at least 2 options, has 0"),
            (Some(2), "no `options`"),
            (Some(3), "no `options`"),
            (Some(4), "needs at least 2 options, has 0"),
            (Some(5), "`consistent` is empty"),
            (Some(7), "`scores` needs at least 2 candidates, has 0"),
        ],
    );
}

#[test]
fn canonical_gold_missing() {
    check_one(
        "canonical/gold_missing.jsonl",
        1,
        &[
            (Some(1), "no `gold`"),
            (Some(2), "no `gold`"),
            (Some(3), "`gold` is an empty set"),
            (Some(4), "no `gold`"),
            (Some(5), "no `gold`"),
            (Some(6), "no `rejected`"),
        ],
    );
}

#[test]
fn canonical_huge_numbers() {
    let out = check_one(
        "canonical/huge_numbers.jsonl",
        7,
        &[
            (Some(1), "not valid JSON: number out of range at column 69"),
            (
                Some(2),
                "probs sum to inf over the options, above 1.02; probabilities invalid",
            ),
            (Some(3), "`id` must be a string or an integer, not a number"),
            (
                Some(4),
                "logprobs holds an invalid probability inf; probabilities invalid",
            ),
            (Some(7), "`num_correct` must be an integer, not a number"),
        ],
    );
    // Right: q5 (log-likelihoods ±1e308: a softmax without overflow gives B), q6 (the largest
    // and smallest finite scores), q8 (5e-324 on A), q9, q10. Wrong: q2 and q4 (invalid, no answer).
    assert_eq!(out.report.unwrap().metrics.accuracy, Some(5.0 / 7.0));
}

#[test]
fn canonical_id_list_first() {
    // A first item whose `id` is a list once made RewardBench's sniff claim the file (an `id`
    // array alone); the whole first object is in view, so it is canonical JSON Lines.
    check_one(
        "canonical/id_list_first.jsonl",
        1,
        &[(Some(1), "`id` must be a string or an integer, not a list")],
    );
}

#[test]
fn canonical_invalid_utf8() {
    check_one(
        "canonical/invalid_utf8.jsonl",
        4,
        &[
            (Some(1), "not valid JSON: not valid UTF-8"),
            (Some(4), "not valid JSON: not valid UTF-8"),
        ],
    );
}

#[test]
fn canonical_k_equals_1() {
    check_one(
        "canonical/k_equals_1.jsonl",
        2,
        &[
            (Some(1), "needs at least 2 options, has 1"),
            (Some(2), "needs at least 2 options, has 1"),
            (Some(3), "needs at least 2 options, has 1"),
            (Some(4), "`scores` needs at least 2 candidates, has 1"),
        ],
    );
}

#[test]
fn canonical_labels_not_in_options() {
    check_one(
        "canonical/labels_not_in_options.jsonl",
        3,
        &[
            (Some(1), "gold `C` is not among the options"),
            (
                Some(4),
                "`gold` names a label that is not among the options",
            ),
            (Some(5), "gold `4` is not among the options"),
            (Some(6), "gold `a` is not among the options"),
            (Some(7), "probs are all zero; probabilities invalid"),
            (
                Some(8),
                "`consistent` names a label that is not among the options",
            ),
        ],
    );
}

#[test]
fn canonical_mixed_types() {
    let out = check_one(
        "canonical/mixed_types.jsonl",
        8,
        &[(Some(10), "unknown type `essay`")],
    );
    // One item of every type is scored; the header names the model.
    let r = out.report.unwrap();
    assert_eq!(r.model.as_deref(), Some("mixed-model"));
    assert!(r.multi.is_some(), "the multi-select item is reported");
}

#[test]
fn canonical_nan_infinity() {
    check_one(
        "canonical/nan_infinity.jsonl",
        1,
        &[
            (Some(1), "not valid JSON: bare `NaN` at column 65 (NaN and Infinity are not JSON numbers)"),
            (Some(2), "not valid JSON: bare `Infinity` at column 65 (NaN and Infinity are not JSON numbers)"),
            (Some(3), "not valid JSON: bare `-Infinity` at column 69 (NaN and Infinity are not JSON numbers)"),
            (Some(4), "not valid JSON: bare `NaN` at column 40 (NaN and Infinity are not JSON numbers)"),
            (Some(6), "not valid JSON: expected ident at column 66"),
        ],
    );
}

#[test]
fn canonical_numbers_as_strings() {
    check_one(
        "canonical/numbers_as_strings.jsonl",
        5,
        &[
            (
                Some(1),
                "probs[`A`] is a string, not a number; probabilities invalid",
            ),
            (
                Some(2),
                "`p_yes` is a string, not a number; probabilities invalid",
            ),
            (
                Some(3),
                "`chosen` must be a number or a one-element list, not a string",
            ),
            (Some(6), "`num_correct` must be an integer, not a string"),
            (
                Some(7),
                "logprobs[`A`] is a string, not a number; probabilities invalid",
            ),
        ],
    );
}

#[test]
fn canonical_truncated() {
    check_one(
        "canonical/truncated.jsonl",
        2,
        &[
            (
                Some(2),
                "not valid JSON: EOF while parsing a value at column 76",
            ),
            (
                Some(4),
                "not valid JSON: EOF while parsing an object at column 87",
            ),
        ],
    );
}

#[test]
fn canonical_wrong_types() {
    check_one(
        "canonical/wrong_types.jsonl",
        4,
        &[
            (Some(1), "`gold` must be a label, not an object"),
            (Some(2), "`options` must be a list of labels, not a string"),
            (Some(3), "`id` must be a string or an integer, not a list"),
            (
                Some(4),
                "`probs` is a list, not an object label → number; probabilities invalid",
            ),
            (Some(5), "`type` must be a string, not a number"),
            (Some(6), "`answer` is an object; counted as invalid"),
            (Some(7), "the group must be a string, not a boolean"),
            (Some(8), "`options` holds null, not a label"),
            (Some(9), "unknown tier `4`; ignored"),
            (
                Some(10),
                "`id` must be a string or an integer, not a number",
            ),
            (
                Some(11),
                "`chosen` must be a number or a one-element list, not a string",
            ),
            (Some(12), "`scores` must be a list of numbers"),
            (Some(13), "`gold` must be a label, not a boolean"),
        ],
    );
}

#[test]
fn other_blank_lines() {
    check_one(
        "other/blank_lines.jsonl",
        0,
        &[(None, "the file holds only blank lines; nothing to score")],
    );
}

#[test]
fn other_bom_only() {
    check_one(
        "other/bom_only.jsonl",
        0,
        &[(None, "the file is empty; nothing to score")],
    );
}

#[test]
fn other_empty() {
    check_one(
        "other/empty.jsonl",
        0,
        &[(None, "the file is empty; nothing to score")],
    );
}

/// The reason given for a file no format claims, whatever formats this build reads.
fn assert_unknown(file: &str, what: &str) {
    let out = run(&[file]);
    assert_eq!(out.items, 0);
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    let w = &out.warnings[0];
    assert_eq!((w.file.as_str(), w.line), (file, None));
    assert!(
        w.reason
            .starts_with(&format!("not a file scorelens reads: {what}")),
        "{}",
        w.reason
    );
    assert!(w.reason.ends_with(scorelens::formats::unknown::READS));
}

#[test]
fn other_binary() {
    assert_unknown("other/binary.bin", "a binary file, not text");
}

#[test]
fn other_page() {
    // The `{"id": ..., "gold": ...}` inside the page's body does not make it a predictions file.
    assert_unknown("other/page.html", "an HTML page, not a results file");
}

/// A 10 MB canonical line: read whole and scored, in one piece or in 64 KiB chunks.
#[test]
fn ten_megabyte_line_is_scored() {
    let mut big = br#"{"id": "big", "options": ["A", "B"], "gold": "B", "probs": {"A": 0.25, "B": 0.75}, "prompt": ""#.to_vec();
    big.extend(std::iter::repeat_n(b'x', 10 << 20));
    big.extend_from_slice(b"\"}\n");
    big.extend_from_slice(br#"{"id": "small", "options": ["A", "B"], "gold": "A", "answer": "B"}"#);
    assert!(big.len() > 10_000_000);
    let out = run_named(&[("big.jsonl", big)], None, 64 << 10);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(out.items, 2);
    assert_eq!(out.report.unwrap().metrics.accuracy, Some(0.5));
}

/// A 10 MB line cut short inside its string: one data error for that line, the next is scored.
#[test]
fn ten_megabyte_broken_line() {
    let head = br#"{"id": "big", "options": ["A", "B"], "gold": "B", "prompt": ""#;
    let mut big = head.to_vec();
    big.extend(std::iter::repeat_n(b'y', 10 << 20));
    let column = big.len();
    big.extend_from_slice(b"\n");
    big.extend_from_slice(br#"{"id": "next", "options": ["A", "B"], "gold": "A", "answer": "A"}"#);
    let out = run_named(&[("broken.jsonl", big)], None, 1 << 20);
    assert_eq!(out.items, 1);
    assert_eq!(
        out.warnings,
        [malformed_util::w(
            "broken.jsonl",
            Some(1),
            &format!("not valid JSON: EOF while parsing a string at column {column}")
        )]
    );
}

/// A 10 MB CSV cell is one field like any other.
#[test]
fn ten_megabyte_csv_cell() {
    let mut csv = b"id,options,gold,answer,note\nq1,A|B,A,A,".to_vec();
    csv.extend(std::iter::repeat_n(b'z', 10 << 20));
    csv.extend_from_slice(b"\nq2,A|B,B,A,short\n");
    let out = run_named(&[("big.csv", csv)], None, 1 << 20);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(out.items, 2);
}

/// Past `MAX_WARNINGS` the report keeps a count, not the warnings; every bad line is still
/// skipped and counted, and the good line after them is scored.
#[test]
fn warnings_beyond_the_cap_are_counted() {
    let mut text = String::new();
    for i in 0..MAX_WARNINGS + 200 {
        text.push_str(&format!(
            "{{\"id\": \"q{i}\", \"options\": [\"A\"], \"gold\": \"A\"}}\n"
        ));
    }
    text.push_str(r#"{"id": "ok", "options": ["A", "B"], "gold": "A", "answer": "A"}"#);
    let out = run_named(&[("many.jsonl", text.into_bytes())], None, 4096);
    assert_eq!(out.items, 1);
    assert_eq!(out.skipped, Some(MAX_WARNINGS as u64 + 200));
    assert_eq!(out.warnings.len(), MAX_WARNINGS + 1);
    assert_eq!(
        out.warnings[0],
        malformed_util::w("many.jsonl", Some(1), "needs at least 2 options, has 1")
    );
    assert_eq!(
        out.warnings[MAX_WARNINGS],
        malformed_util::w("", None, "200 more warnings not shown")
    );
}
