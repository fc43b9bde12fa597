//! The canonical reader on malformed input: SPEC §1's data errors are skipped, output errors are
//! scored as invalid, every warning carries its line, and nothing panics.

use scorelens::{score, Error, Input, Options, Session};

/// Eleven physical lines: BOM, CRLF, blank lines and every kind of bad line.
const MALFORMED: &str = concat!(
    "\u{feff}{\"scorelens\": 1, \"model\": \"m\"}\r\n",
    "{\"id\": \"a\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": 0.8, \"B\": 0.2}}\r\n",
    "\r\n",
    "{\"id\": \"b\", \"options\": [\"A\", \"B\"], \"gold\": \"A\"\n",
    "{\"id\": \"c\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": NaN}}\n",
    "{\"id\": \"d\", \"options\": [\"A\", \"B\"], \"gold\": \"B\", \"probs\": {\"A\": -0.1, \"B\": 0.9}}\n",
    "{\"id\": \"e\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\", \"probs\": {\"A\": 0.7, \"B\": 0.4}}\n",
    "{\"id\": \"f\", \"options\": [\"A\", \"B\"], \"gold\": \"Z\"}\n",
    "{\"id\": \"a\", \"options\": [\"A\", \"B\"], \"gold\": \"B\"}\n",
    "   \t \n",
    "{\"id\": \"g\", \"options\": [\"A\", \"B\", \"C\"], \"gold\": \"C\", \"probs\": {\"C\": 0.5, \"A\": 0.2}}",
);

fn run(text: &str, strict: bool) -> Result<scorelens::Report, Error> {
    let opts = Options {
        strict,
        ..Options::default()
    };
    score(
        &[Input {
            name: "bad.jsonl",
            bytes: text.as_bytes(),
        }],
        &opts,
    )
}

#[test]
fn data_errors_are_skipped_and_output_errors_scored() {
    let r = run(MALFORMED, false).unwrap();
    // a, d, e, g are scored; b (truncated), c (NaN), f (unknown gold), the second a are skipped.
    assert_eq!(r.items, 4);
    assert_eq!(r.skipped, 4);
    assert_eq!(r.model.as_deref(), Some("m"));
    let lines: Vec<Option<u64>> = r.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [4, 5, 6, 7, 8, 9].map(Some));
    assert!(r.warnings.iter().all(|w| w.file == "bad.jsonl"));
    let reason = |i: usize| r.warnings[i].reason.as_str();
    assert!(reason(0).starts_with("not valid JSON"), "{}", reason(0));
    assert!(reason(1).starts_with("not valid JSON"), "{}", reason(1));
    assert!(
        reason(2).contains("invalid probability -0.1"),
        "{}",
        reason(2)
    );
    assert!(reason(3).contains("above 1.02"), "{}", reason(3));
    assert!(
        reason(4).contains("gold `Z` is not among the options"),
        "{}",
        reason(4)
    );
    assert!(
        reason(5).contains("id `a` was already seen"),
        "{}",
        reason(5)
    );
    // d has invalid probabilities and no answer: invalid and wrong. e keeps its valid answer: right.
    // a right (0.8 on A), g right (argmax C).
    assert_eq!(r.metrics.accuracy, Some(0.75));
    assert_eq!(r.metrics.invalid_share, Some(0.25));
    // Only a and g have valid probabilities.
    assert_eq!(r.conditioning.items, 2);
    // Outside mass: a 0, g 0.3.
    let m = r.metrics.outside_mass.unwrap();
    assert!((m - 0.15).abs() < 1e-15, "{m}");
}

#[test]
fn strict_mode_stops_at_the_first_warning() {
    match run(MALFORMED, true) {
        Err(Error::Strict(w)) => {
            assert_eq!(w.line, Some(4));
            assert_eq!(
                w.to_string().split(':').take(2).collect::<Vec<_>>(),
                ["bad.jsonl", "4"]
            );
        }
        other => panic!("expected a strict-mode error, got {other:?}"),
    }
}

#[test]
fn a_file_of_nothing_but_errors_scores_no_item() {
    match run("{\"id\": 1, \"gold\": \"A\"}\nnot json\n", false) {
        Err(Error::NoItems(w)) => {
            assert_eq!(w.len(), 2);
            assert!(w[0].reason.contains("no `options`"), "{}", w[0].reason);
            assert_eq!(w[1].line, Some(2));
        }
        other => panic!("expected NoItems, got {other:?}"),
    }
}

#[test]
fn chunked_feeding_gives_the_same_report_as_one_read() {
    let whole = run(MALFORMED, false).unwrap();
    let bytes = MALFORMED.as_bytes();
    for size in [1, 2, 3, 7, 64] {
        let mut s = Session::new(&Options::default()).unwrap();
        let mut feed = s.add("bad.jsonl", bytes, None);
        for chunk in bytes.chunks(size) {
            feed.push(chunk);
        }
        feed.end();
        let r = s.finish().unwrap().report;
        assert_eq!(r, whole, "chunks of {size}");
    }
}

#[test]
fn a_json_array_reads_like_json_lines() {
    let text = concat!(
        "\u{feff}[\n",
        "  {\"id\": 1, \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": 0.9, \"B\": 0.1}},\n",
        "  {\"id\": 2, \"gold\": \"A\"},\n",
        "  {\"id\": 3, \"type\": \"noul\", \"gold\": \"no\", \"p_yes\": 0.3}\n",
        "]\n"
    );
    let r = run(text, false).unwrap();
    assert_eq!((r.items, r.skipped), (2, 1));
    assert_eq!(r.warnings[0].line, Some(3));
    assert!(
        r.warnings[0].reason.contains("element 2"),
        "{}",
        r.warnings[0].reason
    );
    assert_eq!(r.metrics.accuracy, Some(1.0));
}

#[test]
fn a_truncated_array_keeps_the_elements_before_the_break() {
    let text = "[{\"id\": 1, \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"},\n {\"id\": 2, \"opt";
    let r = run(text, false).unwrap();
    assert_eq!((r.items, r.skipped), (1, 1));
    assert_eq!(r.warnings[0].line, Some(2));
}

#[test]
fn aliases_and_alternative_probability_fields() {
    let text = concat!(
        "{\"id\": 1, \"type\": \"score\", \"options\": [\"1\", \"2\", \"3\"], \"gold\": 2, \"logprobs\": {\"1\": -2.302585092994046, \"2\": -0.2231435513142097}}\n",
        "{\"id\": 2, \"options\": [\"A\", \"B\"], \"gold\": \"B\", \"loglikelihoods\": {\"A\": -3.0, \"B\": -1.0}, \"element\": \"x\"}\n",
        "{\"id\": 3, \"type\": \"binary\", \"gold\": true, \"p_yes\": 0.75, \"category\": \"x\"}\n",
    );
    let r = run(text, false).unwrap();
    assert_eq!(r.items, 3);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.metrics.accuracy, Some(1.0));
    // Only items 1 and 3 have a known outside mass: 1 - (0.1 + 0.8) and 0.
    assert_eq!(r.mixing.items, 2);
    assert_eq!(r.conditioning.items, 3);
    let m = r.metrics.outside_mass.unwrap();
    assert!((m - 0.05).abs() < 1e-12, "{m}");
    assert_eq!(
        r.groups.iter().find(|g| g.name == "x").map(|g| g.items),
        Some(2)
    );
}

#[test]
fn consistency_chance_and_normalized() {
    // k1 = 2, k2 = 3, two consistent pairs: c = 2/6 = 1/3; wrong scores -c/(1-c) = -0.5.
    let text = concat!(
        "{\"id\": 1, \"type\": \"consistency\", \"options\": [[\"y\", \"n\"], [\"a\", \"b\", \"c\"]], \"consistent\": [[\"y\", \"a\"], [\"n\", \"b\"]], \"answers\": [\"y\", \"a\"]}\n",
        "{\"id\": 2, \"type\": \"consistency\", \"options\": [[\"y\", \"n\"], [\"a\", \"b\", \"c\"]], \"consistent\": [[\"y\", \"a\"], [\"n\", \"b\"]], \"answers\": [\"y\", \"c\"]}\n",
        "{\"id\": 3, \"type\": \"consistency\", \"options\": [[\"y\", \"n\"], [\"a\", \"b\", \"c\"]], \"consistent\": [[\"y\", \"a\"], [\"n\", \"b\"]], \"answers\": [\"maybe\", \"c\"]}\n",
    );
    let r = run(text, false).unwrap();
    assert_eq!(r.metrics.accuracy, Some(1.0 / 3.0));
    let n = r.metrics.normalized.unwrap();
    assert!(n.abs() < 1e-15, "(1 - 0.5 - 0.5) / 3 = 0, got {n}");
    assert_eq!(r.metrics.invalid_share, Some(1.0 / 3.0));
}

#[test]
fn two_option_normalization_and_argmax_ties() {
    // Ties go to the first option: item 1 answers A (right), item 2 answers A (wrong).
    let text = concat!(
        "{\"id\": 1, \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": 0.5, \"B\": 0.5}}\n",
        "{\"id\": 2, \"options\": [\"A\", \"B\"], \"gold\": \"B\", \"probs\": {\"B\": 0.4, \"A\": 0.4}}\n",
    );
    let r = run(text, false).unwrap();
    assert_eq!(r.metrics.accuracy, Some(0.5));
    assert_eq!(r.metrics.normalized, Some(0.0));
}

#[test]
fn a_file_no_reader_claims_names_the_formats_and_its_keys() {
    match run("{\"foo\": 1, \"bar\": [1]}\n", false) {
        Err(Error::NoItems(w)) => {
            assert_eq!(w.len(), 1);
            assert_eq!(w[0].line, None);
            assert!(w[0].reason.contains("scorelens"), "{}", w[0].reason);
            assert!(w[0].reason.contains("foo, bar"), "{}", w[0].reason);
        }
        other => panic!("expected NoItems, got {other:?}"),
    }
}

/// `cluster` and `passage_id` name an item's cluster (a string or a whole number); anything else
/// is a located warning and the item is its own cluster, still scored.
#[test]
fn cluster_fields_are_read_or_warned_about() {
    let text = concat!(
        "{\"id\": \"a\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\", \"cluster\": 17}\n",
        "{\"id\": \"b\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"B\", \"cluster\": \"17\"}\n",
        "{\"id\": \"c\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\", \"passage_id\": \"p2\"}\n",
        "{\"id\": \"d\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"B\", \"passage_id\": \"p2\"}\n",
        "{\"id\": \"e\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\", \"cluster\": [1]}\n",
    );
    let opts = Options {
        cluster: Some(scorelens::metrics::bootstrap::ClusterBy::File),
        ..Options::default()
    };
    let f = scorelens::score_sources(
        [scorelens::Source::bytes("c.jsonl", text.as_bytes())],
        &opts,
    )
    .unwrap();
    assert_eq!(f.report.items, 5);
    assert_eq!(f.clustered_items, 4);
    // 17 and "17" are one cluster, p2 another, e its own: three units.
    let c = f.report.intervals.clustered.unwrap();
    assert_eq!((c.clusters, c.in_clusters), (3, 4));
    let w = &f.report.warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].line, Some(5));
    assert_eq!(
        w[0].reason,
        "the cluster must be a string or a number, not a list; the item is its own cluster"
    );
}
