//! Inspect AI logs: real fixtures written by inspect-ai 0.3.285 with its mock model, checked against
//! Inspect's own metrics and hand-worked figures; derived archives (DEFLATE, summaries only, no
//! header, damaged, zip bombs); and small hand-written logs for the mapping's corners.

use proptest::prelude::*;
use scorelens::formats::inspect::eval::{Archive, Limits, LIMITS};
use scorelens::formats::{detect, HEAD};
use scorelens::report::Report;
use scorelens::{score, Error, Input, Options, Session};
use serde_json::{json, Value};

const DIR: &str = "tests/fixtures/inspect";

fn read(name: &str) -> Vec<u8> {
    let path = format!("{DIR}/{name}");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run_bytes(name: &str, bytes: &[u8]) -> Result<Report, Error> {
    score(&[Input { name, bytes }], &Options::default())
}

fn run(name: &str) -> Report {
    run_bytes(name, &read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Items scored and warnings, whether or not the run ends in an error for want of items.
fn items_and_warnings(name: &str, bytes: &[u8]) -> (u64, Vec<scorelens::Warning>) {
    match run_bytes(name, bytes) {
        Ok(r) => (r.items, r.warnings),
        Err(Error::NoItems(w)) => (0, w),
        Err(e) => panic!("{name}: {e}"),
    }
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-12)
}

fn reported(r: &Report, scope: &str, name: &str) -> f64 {
    r.reported
        .iter()
        .find(|x| x.source == "Inspect" && x.scope == scope && x.name == name)
        .unwrap_or_else(|| panic!("Inspect reported no {name} for {scope}"))
        .value
}

fn reasons(r: &Report) -> Vec<String> {
    r.warnings.iter().map(|w| w.reason.clone()).collect()
}

/// The colour_mc samples worked by hand: (k, gold, answer, letter probabilities p, correct).
/// The mock model's letter token and its top-4 alternatives are set in make_fixtures.py.
/// (k, gold, answer, letter probabilities, correct).
type HandItem = (usize, usize, Option<usize>, Option<Vec<f64>>, bool);

fn colour_mc_by_hand() -> Vec<HandItem> {
    vec![
        (4, 1, Some(1), Some(vec![0.05, 0.90, 0.03, 0.01]), true), // id 7
        (3, 2, Some(2), Some(vec![0.25, 0.0, 0.60 + 0.05]), true), // s1: " C" + " c"
        (4, 0, Some(1), Some(vec![0.20, 0.70, 0.04, 0.05]), false), // s2
        (3, 1, None, None, false),                                 // s3: empty, N
        (3, 0, None, Some(vec![0.30, 0.10, 0.0]), false),          // s4: off-menu Z
        (3, 1, Some(1), Some(vec![0.06, 0.55 + 0.35, 0.0]), true), // s5: " b" + " B"
        (2, 0, Some(0), None, true),                               // s6: no logprobs
        (2, 1, Some(0), Some(vec![0.45 + 0.15, 0.38]), false),     // s8: "A" + " A"
    ]
}

/// ECE over (confidence, correct) pairs, 10 equal-width bins, written out independently.
fn ece(pairs: &[(f64, bool)]) -> f64 {
    let n = pairs.len() as f64;
    (0..10)
        .map(|b| {
            let bin: Vec<&(f64, bool)> = pairs
                .iter()
                .filter(|(c, _)| ((c * 10.0).floor() as usize).min(9) == b)
                .collect();
            if bin.is_empty() {
                return 0.0;
            }
            let m = bin.len() as f64;
            let conf = bin.iter().map(|p| p.0).sum::<f64>() / m;
            let acc = bin.iter().filter(|p| p.1).count() as f64 / m;
            m / n * (acc - conf).abs()
        })
        .sum()
}

fn check_colour_mc(r: &Report) {
    let hand = colour_mc_by_hand();
    assert_eq!(r.items, 8);
    assert_eq!(r.skipped, 0);
    assert!(close(r.metrics.accuracy, 0.5));
    assert!(close(r.metrics.accuracy, reported(r, "choice", "accuracy")));
    assert!(close(r.metrics.invalid_share, 2.0 / 8.0));
    let normalized: f64 = hand
        .iter()
        .map(|h| if h.4 { 1.0 } else { -1.0 / (h.0 as f64 - 1.0) })
        .sum::<f64>()
        / 8.0;
    assert!(close(r.metrics.normalized, normalized));
    let with: Vec<_> = hand.iter().filter(|h| h.3.is_some()).collect();
    let outside: f64 = with
        .iter()
        .map(|h| 1.0 - h.3.as_ref().unwrap().iter().sum::<f64>())
        .sum::<f64>()
        / with.len() as f64;
    assert!(close(r.metrics.outside_mass, outside));
    assert!(close(r.metrics.outside_mass, 0.13));
    let (mut cond, mut mix, mut epa) = (Vec::new(), Vec::new(), 0.0);
    for (k, gold, answer, p, right) in &with.iter().map(|h| (*h).clone()).collect::<Vec<_>>() {
        let p = p.as_ref().unwrap();
        let s: f64 = p.iter().sum();
        let qc: Vec<f64> = p.iter().map(|x| x / s).collect();
        let qm: Vec<f64> = p.iter().map(|x| x + (1.0 - s) / *k as f64).collect();
        let conf =
            |q: &[f64]| answer.map_or_else(|| q.iter().cloned().fold(0.0, f64::max), |a| q[a]);
        cond.push((conf(&qc), *right));
        mix.push((conf(&qm), *right));
        epa += qc[*gold];
    }
    assert!(close(r.conditioning.ece, ece(&cond)));
    assert!(close(r.mixing.ece, ece(&mix)));
    assert!((r.conditioning.ece.unwrap() - 0.32416).abs() < 1e-5);
    assert!((r.mixing.ece.unwrap() - 0.28).abs() < 1e-12);
    assert!(close(r.conditioning.epa, epa / 6.0));
    assert_eq!(r.conditioning.items, 6);
    assert_eq!(r.model.as_deref(), Some("mockllm/model"));
}

#[test]
fn colour_mc_eval_matches_inspect_and_the_hand_worked_figures() {
    let r = run("colour_mc.eval");
    check_colour_mc(&r);
    let f = &r.files[0];
    assert_eq!(f.format, "inspect");
    assert_eq!(
        f.version.as_deref(),
        Some("log v2 .eval, inspect_ai 0.3.285")
    );
    assert!(f.mapping.iter().any(|m| m.contains("zstd (method 93)")));
    assert!(f.mapping.iter().any(|m| m.contains("top_logprobs")));
}

#[test]
fn the_json_log_and_the_deflate_archive_score_exactly_like_the_zstd_archive() {
    let zstd = run("colour_mc.eval");
    for name in ["colour_mc.json", "colour_mc_deflate.eval"] {
        let r = run(name);
        check_colour_mc(&r);
        // The .json log lists its samples in another order, so sums may differ in the last bit.
        let same = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-12,
            (a, b) => a == b,
        };
        for (a, b) in [
            (r.metrics.accuracy, zstd.metrics.accuracy),
            (r.metrics.normalized, zstd.metrics.normalized),
            (r.metrics.outside_mass, zstd.metrics.outside_mass),
            (r.conditioning.ece_em, zstd.conditioning.ece_em),
            (r.conditioning.brier, zstd.conditioning.brier),
            (r.conditioning.epa, zstd.conditioning.epa),
            (r.conditioning.nll, zstd.conditioning.nll),
            (r.mixing.ece, zstd.mixing.ece),
            (r.mixing.ece_em, zstd.mixing.ece_em),
            (r.mixing.brier, zstd.mixing.brier),
            (r.mixing.nll, zstd.mixing.nll),
        ] {
            assert!(same(a, b), "{name}: {a:?} != {b:?}");
        }
    }
    let deflate = run("colour_mc_deflate.eval");
    assert!(deflate.files[0]
        .mapping
        .iter()
        .any(|m| m.contains("DEFLATE (method 8)")));
}

#[test]
fn summaries_only_give_accuracy_without_probabilities() {
    let r = run("colour_mc_summaries.eval");
    assert_eq!(r.items, 8);
    assert!(close(r.metrics.accuracy, 0.5));
    assert_eq!(r.conditioning.items, 0);
    assert_eq!(r.metrics.outside_mass, None);
    assert!(r.files[0]
        .mapping
        .iter()
        .any(|m| m.contains("summaries.json")));
}

#[test]
fn a_missing_header_is_a_warning_and_the_samples_still_count() {
    let journal = run("colour_mc_journal.eval");
    assert_eq!(journal.items, 8);
    assert!(reasons(&journal).iter().any(|w| w.contains("start.json")));
    assert_eq!(journal.model.as_deref(), Some("mockllm/model"));
    let bare = run("colour_mc_no_header.eval");
    assert_eq!(bare.items, 8);
    assert_eq!(bare.model, None);
    assert!(bare.reported.is_empty());
    assert!(reasons(&bare).iter().any(|w| w.contains("no header.json")));
}

#[test]
fn a_damaged_entry_is_skipped_by_its_crc_and_the_rest_is_scored() {
    let r = run("colour_mc_crc.eval");
    assert_eq!((r.items, r.skipped), (7, 1));
    let w = &r.warnings[0];
    assert_eq!(w.file, "colour_mc_crc.eval");
    assert!(
        w.reason.contains("samples/s2_epoch_1.json") && w.reason.contains("CRC-32"),
        "{w}"
    );
    // s2 (wrong) is gone: 4 right of 7.
    assert!(close(r.metrics.accuracy, 4.0 / 7.0));
}

#[test]
fn a_truncated_archive_is_a_clear_error() {
    let (items, w) = items_and_warnings("t.eval", &read("colour_mc_truncated.eval"));
    assert_eq!(items, 0);
    assert!(
        w[0].reason.contains("not a readable ZIP archive"),
        "{}",
        w[0]
    );
}

#[test]
fn zip_bombs_stop_at_the_caps() {
    let start = std::time::Instant::now();
    for (name, says) in [
        ("bomb_declared.eval", "above the 256 MiB cap per entry"),
        (
            "bomb_lying.eval",
            "more than the 4096 bytes the archive declares",
        ),
    ] {
        let (items, w) = items_and_warnings(name, &read(name));
        assert_eq!(items, 0, "{name}: a bomb must not be scored");
        assert!(w.iter().any(|w| w.reason.contains(says)), "{name}: {w:?}");
    }
    // A reader without caps would inflate 2 GiB here.
    assert!(start.elapsed().as_secs() < 20);
}

#[test]
fn archive_caps_apply_per_entry_and_in_total() {
    let bytes = read("colour_mc.eval");
    let mut a = Archive::open(&bytes, LIMITS).unwrap();
    let header = a.read("header.json").unwrap();
    assert!(header.starts_with(b"{"));
    let small = Limits {
        entry: 1000,
        total: 1 << 20,
    };
    let mut a = Archive::open(&bytes, small).unwrap();
    let err = a.read("header.json").unwrap_err();
    assert!(err.contains("cap per entry"), "{err}");
    let total = Limits {
        entry: 1 << 20,
        total: header.len() as u64 + 10,
    };
    let mut a = Archive::open(&bytes, total).unwrap();
    assert!(a.read("header.json").is_ok());
    let err = a.read("samples/s1_epoch_1.json").unwrap_err();
    assert!(err.contains("in all"), "{err}");
    assert!(a.read("nope.json").unwrap_err().contains("no such entry"));
}

#[test]
fn epochs_are_reduced_by_the_mean_as_inspect_does() {
    let r = run("mc_epochs.eval");
    assert_eq!(r.items, 3);
    // m1: A then B (target A) = 0.5; m2: C, C = 1; m3: B then A (target A) = 0.5.
    assert!(close(r.metrics.accuracy, (0.5 + 1.0 + 0.5) / 3.0));
    assert!(close(
        r.metrics.accuracy,
        reported(&r, "choice", "accuracy")
    ));
    let m = &r.files[0].mapping;
    assert!(m
        .iter()
        .any(|m| m.contains("3 samples with several epochs") && m.contains("mean")));
    let note = &r
        .reported
        .iter()
        .find(|x| x.name == "accuracy")
        .unwrap()
        .note;
    assert!(note.contains("`mean` epoch reducer"), "{note}");
}

#[test]
fn partial_credit_numbers_and_unscored_samples() {
    let r = run("qa_partial.json");
    // q1 C, q2 P, q3 I, q4 C; q5 unscored (NaN) is left out as Inspect leaves it out.
    assert_eq!(r.items, 4);
    assert!(close(r.metrics.accuracy, (1.0 + 0.5 + 0.0 + 1.0) / 4.0));
    assert!(close(
        r.metrics.accuracy,
        reported(&r, "graded", "accuracy")
    ));
    assert_eq!(
        r.metrics.normalized, None,
        "free-form answers have no chance level"
    );
    assert_eq!(r.files[0].not_applicable, 1);
    // The second scorer is shown as Inspect reported it: mean word overlap over all 5 samples,
    // "red" of "red and blue" being 1/3.
    let overlap = (1.0 + 1.0 / 3.0 + 0.0 + 1.0 + 0.0) / 5.0;
    assert!(close(Some(reported(&r, "overlap", "mean")), overlap));
}

#[test]
fn a_repeated_entry_name_takes_the_last_copy_as_inspect_does() {
    // s2 (gold A) answered B in the first copy and A in the appended one: 4 of 8 right become 5.
    let r = run("colour_mc_repeated.eval");
    assert_eq!(r.items, 8);
    assert!(
        close(r.metrics.accuracy, 5.0 / 8.0),
        "{:?}",
        r.metrics.accuracy
    );
}

#[test]
fn the_per_sample_folder_layout_scores_like_the_flat_one() {
    let r = run("colour_mc_sample_dirs.eval");
    check_colour_mc(&r);
}

#[test]
fn a_log_still_being_written_says_so() {
    let (items, warnings) = items_and_warnings(
        "colour_mc_journal_only.eval",
        &read("colour_mc_journal_only.eval"),
    );
    assert_eq!(items, 0);
    let reasons: Vec<&str> = warnings.iter().map(|w| w.reason.as_str()).collect();
    assert!(
        reasons.contains(
            &"the log is still being written: no sample has finished yet (it holds only \
              _journal/); drop it again once samples have finished or the run has ended"
        ),
        "{reasons:?}"
    );
}

#[test]
fn every_fixture_is_detected_as_inspect_and_near_misses_are_not() {
    for name in [
        "colour_mc.eval",
        "colour_mc.json",
        "mc_epochs.eval",
        "qa_partial.json",
        "colour_mc_deflate.eval",
        "colour_mc_summaries.eval",
        "colour_mc_journal.eval",
        "colour_mc_no_header.eval",
        "colour_mc_journal_only.eval",
        "colour_mc_repeated.eval",
        "colour_mc_sample_dirs.eval",
        "colour_mc_crc.eval",
        "colour_mc_truncated.eval",
        "bomb_lying.eval",
    ] {
        let bytes = read(name);
        let head = &bytes[..bytes.len().min(HEAD)];
        assert_eq!(
            detect(name, head).map(|f| f.name()),
            Some("inspect"),
            "{name}"
        );
    }
    let misses: [&[u8]; 4] = [
        br#"{"version": 2, "results": {}}"#,
        br#"{"eval": {"task": "x"}, "samples": []}"#,
        b"PK\x03\x04\x14\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00notes.txt",
        br#"{"id": "a", "gold": "x", "options": ["x", "y"]}"#,
    ];
    for m in misses {
        assert_ne!(
            detect("x.json", m).map(|f| f.name()),
            Some("inspect"),
            "{}",
            String::from_utf8_lossy(m)
        );
    }
}

#[test]
fn chunked_feeding_gives_the_same_report() {
    let bytes = read("colour_mc.eval");
    let whole = run("colour_mc.eval");
    for size in [1, 7, 4096] {
        let mut s = Session::new(&Options::default()).unwrap();
        let mut feed = s.add("colour_mc.eval", &bytes[..HEAD.min(bytes.len())], None);
        for chunk in bytes.chunks(size) {
            feed.push(chunk);
        }
        feed.end();
        let r = s.finish().unwrap().report;
        assert_eq!(r.metrics, whole.metrics, "chunks of {size}");
        assert_eq!(r.conditioning, whole.conditioning, "chunks of {size}");
    }
}

/// A small hand-written `.json` log around the given samples.
fn log(samples: Value) -> Vec<u8> {
    let log = json!({
        "version": 2, "status": "success",
        "eval": {"task": "t", "model": "m/x"},
        "results": {"scores": [{"name": "s", "scorer": "s", "metrics": {}}]},
        "samples": samples,
    });
    serde_json::to_vec(&log).unwrap()
}

fn sample(
    id: &str,
    epoch: u64,
    choices: Value,
    target: Value,
    value: Value,
    answer: &str,
) -> Value {
    json!({"id": id, "epoch": epoch, "choices": choices, "target": target,
           "scores": {"s": {"value": value, "answer": answer}}})
}

#[test]
fn attachments_resolve_and_a_missing_one_is_kept_with_a_warning() {
    let mut s = sample(
        "a1",
        1,
        json!(["x", "y", "z"]),
        json!("attachment://t1"),
        json!("C"),
        "attachment://a1",
    );
    s["attachments"] = json!({"t1": "B", "a1": "B"});
    let mut missing = sample(
        "a2",
        1,
        json!(["x", "y"]),
        json!("A"),
        json!("I"),
        "attachment://gone",
    );
    missing["attachments"] = json!({});
    let r = run_bytes("att.json", &log(json!([s, missing]))).unwrap();
    assert_eq!(r.items, 2);
    assert!(close(r.metrics.accuracy, 0.5));
    // The unresolved answer is kept as written: not a letter, so invalid.
    assert!(close(r.metrics.invalid_share, 0.5));
    assert!(reasons(&r)
        .iter()
        .any(|w| w.contains("attachment://gone") && w.contains("kept as written")));
}

#[test]
fn several_gold_letters_make_a_multi_select_item() {
    let s = sample(
        "m",
        1,
        json!(["a", "b", "c"]),
        json!(["A", "C"]),
        json!("C"),
        "A, C",
    );
    let wrong = sample(
        "n",
        1,
        json!(["a", "b", "c"]),
        json!("A, C"),
        json!("I"),
        "A",
    );
    let r = run_bytes("multi.json", &log(json!([s, wrong]))).unwrap();
    assert_eq!(r.items, 2);
    assert!(close(r.metrics.accuracy, 0.5));
}

#[test]
fn score_values_follow_inspects_value_to_float() {
    let free = |id: &str, v: Value| sample(id, 1, Value::Null, json!("t"), v, "ans");
    let samples = json!([
        free("p", json!("P")),
        free("num", json!(0.25)),
        free("yes", json!("yes")),
        free("bool", json!(false)),
        free("odd", json!("maybe")),
        free("list", json!([1, 0])),
        free("big", json!(3)),
    ]);
    let r = run_bytes("values.json", &log(samples)).unwrap();
    assert_eq!((r.items, r.skipped), (5, 2));
    assert!(close(
        r.metrics.accuracy,
        (0.5 + 0.25 + 1.0 + 0.0 + 0.0) / 5.0
    ));
    let w = reasons(&r);
    assert!(w
        .iter()
        .any(|w| w.contains("\"maybe\"") && w.contains("counted 0")));
    assert!(w.iter().any(|w| w.contains("a list")));
    assert!(w.iter().any(|w| w.contains("outside [0, 1]")));
}

#[test]
fn a_verdict_that_contradicts_the_letters_is_kept_and_named() {
    let s = sample("c", 1, json!(["a", "b"]), json!("A"), json!("C"), "B");
    let r = run_bytes("odd.json", &log(json!([s]))).unwrap();
    assert!(close(r.metrics.accuracy, 1.0));
    assert!(reasons(&r).iter().any(|w| w.contains("verdict is kept")));
}

#[test]
fn the_letter_token_is_the_one_after_the_last_answer_line() {
    let lp = |t: &str, p: f64| json!({"token": t, "logprob": p.ln()});
    let mut s = sample("l", 1, json!(["a", "b", "c"]), json!("B"), json!("C"), "B");
    s["output"] = json!({"choices": [{"logprobs": {"content": [
        lp("ANSWER", 1.0), lp(":", 1.0), {"token": " A", "logprob": 0.9f64.ln(), "top_logprobs": [lp(" A", 0.9)]},
        lp("\n", 1.0), lp("Answer", 1.0), lp(" :", 1.0),
        // The sampled token is missing from its own top list: it is added.
        {"token": " B", "logprob": 0.5f64.ln(), "top_logprobs": [lp(" C", 0.3), lp("b", 0.1), lp(" Z", 0.05)]},
    ]}}]});
    let r = run_bytes("lp.json", &log(json!([s]))).unwrap();
    // p = [0, 0.5 + 0.1, 0.3]: conditioning q[B] = 0.6 / 0.9, outside mass 0.1.
    assert!(close(r.metrics.outside_mass, 1.0 - 0.9));
    assert!(close(r.conditioning.epa, 0.6 / 0.9));
}

proptest! {
    /// Accuracy is the mean over samples of the mean over their scored epochs, whatever the order
    /// of the samples in the log.
    #[test]
    fn accuracy_is_the_mean_of_epoch_means(
        verdicts in prop::collection::vec(prop::collection::vec(0usize..5, 1..4), 1..12),
        seed in any::<u64>(),
    ) {
        let values = ["C", "I", "P", "N", "NaN"];
        let credit = [Some(1.0), Some(0.0), Some(0.5), Some(0.0), None];
        let mut samples = Vec::new();
        for (i, epochs) in verdicts.iter().enumerate() {
            for (e, &v) in epochs.iter().enumerate() {
                let value = if values[v] == "NaN" { Value::Null } else { json!(values[v]) };
                samples.push(sample(&format!("q{i}"), e as u64 + 1, Value::Null, json!("t"), value, "x"));
            }
        }
        // Shuffle deterministically from the seed.
        let mut state = seed | 1;
        for i in (1..samples.len()).rev() {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            samples.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let means: Vec<f64> = verdicts.iter().filter_map(|epochs| {
            let c: Vec<f64> = epochs.iter().filter_map(|&v| credit[v]).collect();
            (!c.is_empty()).then(|| c.iter().sum::<f64>() / c.len() as f64)
        }).collect();
        match run_bytes("p.json", &log(Value::Array(samples))) {
            Ok(r) => {
                prop_assert_eq!(r.items as usize, means.len());
                let want = means.iter().sum::<f64>() / means.len() as f64;
                prop_assert!((r.metrics.accuracy.unwrap() - want).abs() < 1e-12);
            }
            Err(_) => prop_assert!(means.is_empty()),
        }
    }
}
