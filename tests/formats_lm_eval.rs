//! lm-eval `--log_samples` files: real fixtures from lm-eval 0.4.13 and 0.4.2 (dummy model) checked
//! against the harness's own results files, plus hand-worked samples and malformed input.

use proptest::prelude::*;
use scorelens::formats::lm_eval::task_name;
use scorelens::report::Report;
use scorelens::{score, Input, Options, Session};
use serde_json::Value;
use std::path::Path;

const NEW: &str = "tests/fixtures/lm_eval/v0.4.13";
const OLD: &str = "tests/fixtures/lm_eval/v0.4.2";
const DATE: &str = "2026-11-29T20-46-19.400381";

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(files: &[(String, Vec<u8>)]) -> Report {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(n, b)| Input { name: n, bytes: b })
        .collect();
    score(&inputs, &Options::default()).unwrap()
}

fn fixture(dir: &str, names: &[&str]) -> Vec<(String, Vec<u8>)> {
    names
        .iter()
        .map(|n| (n.to_string(), read(&format!("{dir}/{n}"))))
        .collect()
}

/// The harness's own figure `metric,filter` for a task, read straight from its results file.
fn harness(results: &str, task: &str, key: &str) -> f64 {
    let v: Value = serde_json::from_slice(&read(results)).unwrap();
    v["results"][task][key].as_f64().unwrap()
}

fn group<'r>(r: &'r Report, name: &str) -> &'r scorelens::report::GroupFigures {
    r.groups.iter().find(|g| g.name == name).unwrap()
}

fn reported(r: &Report, source: &str, scope: &str, name: &str) -> f64 {
    r.reported
        .iter()
        .find(|x| x.source == source && x.scope == scope && x.name == name)
        .unwrap_or_else(|| panic!("no {source} {name} for {scope}"))
        .value
}

#[test]
fn v0_4_13_accuracy_equals_the_harness_acc_and_exact_match() {
    let names = [
        format!("samples_sci_mc_{DATE}.jsonl"),
        format!("samples_sci_text_{DATE}.jsonl"),
        format!("samples_say_gen_{DATE}.jsonl"),
        format!("results_{DATE}.json"),
    ];
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let r = run(&fixture(NEW, &names));
    let results = format!("{NEW}/results_{DATE}.json");
    assert_eq!(r.items, 12 + 12 + 5 + 5);
    assert_eq!(r.skipped, 0);
    for task in ["sci_mc", "sci_text"] {
        let g = group(&r, task);
        assert_eq!(
            g.accuracy,
            Some(harness(&results, task, "acc,none")),
            "{task}"
        );
        let ours = reported(&r, "scorelens", task, "acc_norm");
        assert_eq!(ours, harness(&results, task, "acc_norm,none"), "{task}");
        assert_eq!(ours, reported(&r, "lm-eval", task, "acc_norm"));
    }
    for filter in ["raw", "strict-match"] {
        let g = group(&r, &format!("say_gen · {filter}"));
        let want = harness(&results, "say_gen", &format!("exact_match,{filter}"));
        assert_eq!(g.accuracy, Some(want), "{filter}");
        assert_eq!(g.normalized, None, "free text has no chance baseline");
    }
    // acc and acc_norm differ on sci_text, so the recomputation is not the same argmax twice.
    assert_ne!(
        harness(&results, "sci_text", "acc,none"),
        harness(&results, "sci_text", "acc_norm,none")
    );
    // softmax over loglikelihoods: conditioning only, every mixing figure and the outside mass null.
    assert_eq!(r.conditioning.items, 24);
    assert_eq!(r.mixing.items, 0);
    assert_eq!(r.mixing.ece, None);
    assert_eq!(r.metrics.outside_mass, None);
    assert_eq!(r.model.as_deref(), Some("dummy"));
    let f = &r.files[0];
    assert_eq!(f.format, "lm-eval");
    assert_eq!(f.version.as_deref(), Some("0.4.3+ (JSON Lines)"));
    assert!(f
        .mapping
        .iter()
        .any(|m| m.contains("softmax over option loglikelihoods")));
    assert!(f.mapping.iter().any(|m| m.contains("the headline")));
    assert_eq!(r.files[3].format, "lm-eval-results");
    // The generation file has two filters: said once, with no line.
    let notice: Vec<_> = r
        .warnings
        .iter()
        .filter(|w| w.reason.contains("2 filters"))
        .collect();
    assert_eq!(notice.len(), 1);
    assert_eq!(notice[0].line, None);
}

#[test]
fn v0_4_2_arrays_equal_the_harness_acc_and_acc_norm() {
    let r = run(&fixture(
        OLD,
        &["_sci_mc.jsonl", "_sci_text.jsonl", "results.json"],
    ));
    let results = format!("{OLD}/results.json");
    assert_eq!((r.items, r.skipped), (24, 0));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    for task in ["sci_mc", "sci_text"] {
        assert_eq!(
            group(&r, task).accuracy,
            Some(harness(&results, task, "acc,none"))
        );
        let ours = reported(&r, "scorelens", task, "acc_norm");
        assert_eq!(ours, harness(&results, task, "acc_norm,none"), "{task}");
    }
    assert_eq!(
        r.files[0].version.as_deref(),
        Some("0.4.0-0.4.2 (one JSON array)")
    );
    // Array elements are located by the line they start on.
    assert_eq!(r.files[0].items, 12);
}

/// FORMATS.md §3.6 worked by hand: lls -5.2, -6.1, -9.0 for "oxygen", "carbon dioxide", "helium".
const EXAMPLE: &str = r#"{"doc_id": 0, "doc": {"choices": ["oxygen", "carbon dioxide", "helium"]}, "target": "1", "arguments": {"gen_args_0": {"arg_0": "Q", "arg_1": " oxygen"}, "gen_args_1": {"arg_0": "Q", "arg_1": " carbon dioxide"}, "gen_args_2": {"arg_0": "Q", "arg_1": " helium"}}, "resps": [[["-5.2", "False"]], [["-6.1", "False"]], [["-9.0", "False"]]], "filtered_resps": [["-5.2", "False"], ["-6.1", "False"], ["-9.0", "False"]], "filter": "none", "metrics": ["acc", "acc_norm"], "acc": 0.0, "acc_norm": 1.0}"#;

#[test]
fn the_formats_example_by_hand() {
    let r = run(&[(
        "samples_sci_2026-11-29T10-15-02.1.jsonl".into(),
        EXAMPLE.into(),
    )]);
    // acc: the largest ll is oxygen's, so wrong; acc_norm: -5.2/6, -6.1/14, -9/6 picks the gold.
    assert_eq!(r.metrics.accuracy, Some(0.0));
    assert_eq!(reported(&r, "scorelens", "sci", "acc_norm"), 1.0);
    let e = [-5.2f64, -6.1, -9.0].map(f64::exp);
    let total: f64 = e.iter().sum();
    let epa = e[1] / total;
    assert!((r.conditioning.epa.unwrap() - epa).abs() < 1e-12);
    assert!((r.conditioning.nll.unwrap() + epa.ln()).abs() < 1e-12);
    assert_eq!(r.groups[0].name, "sci");
    assert!(r.warnings.is_empty());
}

#[test]
fn gen_args_sort_by_number_not_by_text() {
    // Eleven choices, keys written in text order (gen_args_10 before gen_args_2); gold 10 is best.
    let mut args = Vec::new();
    let mut resps = Vec::new();
    let mut keys: Vec<usize> = (0..11).collect();
    keys.sort_by_key(|k| k.to_string());
    for k in keys {
        args.push(format!(
            r#""gen_args_{k}": {{"arg_0": "Q", "arg_1": " c{k}"}}"#
        ));
    }
    for k in 0..11 {
        let ll = if k == 10 { -0.5 } else { -3.0 - k as f64 };
        resps.push(format!(r#"["{ll}", "False"]"#));
    }
    let line = format!(
        r#"{{"doc_id": 7, "target": "10", "arguments": {{{}}}, "filtered_resps": [{}], "acc": 1.0}}"#,
        args.join(", "),
        resps.join(", ")
    );
    let r = run(&[(
        "samples_t_2026-01-01T00-00-00.jsonl".into(),
        line.into_bytes(),
    )]);
    assert_eq!(r.metrics.accuracy, Some(1.0));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

fn mc_line(doc: u32, target: &str, lls: [&str; 2], extra: &str) -> String {
    format!(
        r#"{{"doc_id": {doc}, "target": {target}, "arguments": {{"gen_args_0": {{"arg_0": "Q", "arg_1": " 1"}}, "gen_args_1": {{"arg_0": "Q", "arg_1": " 0"}}}}, "filtered_resps": [["{}", "False"], ["{}", "False"]]{extra}}}"#,
        lls[0], lls[1]
    )
}

#[test]
fn numeral_choices_are_disambiguated_by_the_logged_acc() {
    // Choices "1" and "0"; target "0" reads as position 0 or as the text at position 1.
    let lines = [
        mc_line(0, r#""0""#, ["-1", "-2"], r#", "acc": 1.0"#), // position 0 agrees with acc
        mc_line(1, r#""0""#, ["-2", "-1"], r#", "acc": 1.0"#), // only the text reading agrees
        mc_line(2, "1", ["-2", "-1"], r#", "acc": 1.0"#),      // an integer target is a position
    ];
    let r = run(&[(
        "samples_num_2026-01-01T00-00-00.jsonl".into(),
        lines.join("\n").into(),
    )]);
    assert_eq!((r.items, r.metrics.accuracy), (3, Some(1.0)));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn malformed_samples_are_located_and_the_rest_scored() {
    let lines = [
        mc_line(0, r#""0""#, ["-1", "-2"], ""),
        "{\"doc_id\": 1, \"target\": \"0\"".to_string(), // truncated
        mc_line(2, r#""[0, 1]""#, ["-1", "-2"], ""),     // several golds
        mc_line(3, r#""7""#, ["-1", "-2"], ""),          // neither a position nor a text
        mc_line(4, r#""0""#, ["abc", "-2"], ""),         // an ll that is no number
        mc_line(5, r#""0""#, ["-inf", "-2"], ""),        // -inf: probability 0, a valid answer
        "[1, 2]".to_string(),
        mc_line(6, "0", ["-1", "-2"], r#", "acc": 0.0"#), // disagrees with the logged acc
    ];
    let r = run(&[(
        "samples_bad_2026-01-01T00-00-00.jsonl".into(),
        lines.join("\r\n").into(),
    )]);
    assert_eq!(r.items, 4, "docs 0, 4, 5, 6");
    assert_eq!(r.skipped, 4);
    let at = |line: u64| {
        r.warnings
            .iter()
            .find(|w| w.line == Some(line))
            .map(|w| w.reason.clone())
            .unwrap_or_else(|| panic!("no warning at line {line}: {:?}", r.warnings))
    };
    assert!(at(2).starts_with("not valid JSON"), "{}", at(2));
    assert!(at(3).contains("several gold choices"), "{}", at(3));
    assert!(at(4).contains("neither a choice position"), "{}", at(4));
    assert!(at(5).contains("not a number"), "{}", at(5));
    assert!(
        r.warnings.iter().all(|w| w.line != Some(6)),
        "-inf is no error"
    );
    assert!(at(7).contains("expected a JSON object"), "{}", at(7));
    let check = r.warnings.iter().find(|w| w.reason.contains("logged acc"));
    assert!(check.unwrap().reason.contains("first at line 8"));
    // Doc 4's answer is invalid; doc 5 keeps its argmax (-inf loses, so wrong); doc 6 is right
    // by its integer target, whatever its logged acc says (hence the warning above).
    assert_eq!(r.metrics.invalid_share, Some(0.25));
    assert_eq!(r.metrics.accuracy, Some(0.5), "docs 0 and 6 right");
    assert_eq!(
        r.conditioning.items, 3,
        "doc 4 has no usable probabilities; doc 5's -inf is probability 0"
    );
}

#[test]
fn repeated_doc_ids_without_filter_field_are_successive_filters() {
    let lines = [
        mc_line(0, r#""0""#, ["-1", "-2"], ""),
        mc_line(1, r#""0""#, ["-1", "-2"], ""),
        mc_line(0, r#""0""#, ["-2", "-1"], ""),
        mc_line(1, r#""0""#, ["-2", "-1"], ""),
    ];
    let r = run(&[(
        "samples_t_2026-01-01T00-00-00.jsonl".into(),
        lines.join("\n").into(),
    )]);
    assert_eq!((r.items, r.skipped), (4, 0));
    assert_eq!(group(&r, "t").accuracy, Some(1.0));
    assert_eq!(group(&r, "t · filter 2").accuracy, Some(0.0));
    assert!(r.warnings.iter().any(|w| w.reason.contains("PR #2517")));
}

#[test]
fn task_names_from_file_names() {
    assert_eq!(
        task_name("out/m/samples_arc_easy_2026-11-29T10-15-02.123456.jsonl"),
        "arc_easy"
    );
    assert_eq!(
        task_name("C:\\x\\samples_leaderboard_bbh_2024-06-26T12-34-56.jsonl"),
        "leaderboard_bbh"
    );
    assert_eq!(task_name("samples_mmlu.jsonl"), "mmlu");
    assert_eq!(
        task_name("pretrained=org__m,dtype=float_arc_easy.jsonl"),
        "arc_easy"
    );
    assert_eq!(task_name("_sci_mc.jsonl"), "sci_mc");
    assert_eq!(task_name("mine.jsonl"), "mine");
}

fn report_in_chunks(name: &str, bytes: &[u8], cuts: &[usize]) -> Report {
    let mut s = Session::new(&Options::default()).unwrap();
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let mut feed = s.add(name, head, None);
    let mut at = 0;
    for &c in cuts.iter().chain([&bytes.len()]) {
        let c = c.clamp(at, bytes.len());
        feed.push(&bytes[at..c]);
        at = c;
    }
    feed.end();
    s.finish().unwrap().report
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Chunk boundaries anywhere (inside a line, a UTF-8 character or the array) change nothing.
    #[test]
    fn any_chunking_gives_the_same_report(mut cuts in proptest::collection::vec(0usize..25_000, 0..6), old in any::<bool>()) {
        let path = if old {
            format!("{OLD}/_sci_text.jsonl")
        } else {
            format!("{NEW}/samples_sci_text_{DATE}.jsonl")
        };
        let name = Path::new(&path).file_name().unwrap().to_str().unwrap().to_string();
        let bytes = read(&path);
        cuts.sort_unstable();
        let whole = report_in_chunks(&name, &bytes, &[]);
        let chunked = report_in_chunks(&name, &bytes, &cuts);
        prop_assert_eq!(whole.to_json(), chunked.to_json());
    }

    /// The order of the lines does not change any figure.
    #[test]
    fn line_order_does_not_matter(seed in any::<u64>()) {
        let path = format!("{NEW}/samples_sci_mc_{DATE}.jsonl");
        let text = String::from_utf8(read(&path)).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        let mut state = seed | 1;
        for i in (1..lines.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            lines.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let name = format!("samples_sci_mc_{DATE}.jsonl");
        let a = run(&[(name.clone(), text.clone().into_bytes())]);
        let b = run(&[(name, lines.join("\n").into_bytes())]);
        prop_assert_eq!(a.metrics.accuracy, b.metrics.accuracy);
        prop_assert_eq!(a.conditioning.ece_em, b.conditioning.ece_em);
        let (x, y) = (a.conditioning.brier.unwrap(), b.conditioning.brier.unwrap());
        prop_assert!((x - y).abs() < 1e-12);
        prop_assert_eq!(&a.reported, &b.reported);
    }
}

/// Every file of a folder, in name order, named as `score FILES...` would name them.
fn folder(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let bytes = read(&format!("{dir}/{n}"));
            (n, bytes)
        })
        .collect()
}

#[test]
fn each_model_folder_of_an_output_folder_equals_its_own_results() {
    // lm-eval 0.4.13 wrote one folder per model (named after `pretrained`) under one output path.
    for model in ["model-a", "model-b"] {
        let dir = format!("tests/fixtures/lm_eval/output_folder/{model}");
        let files = folder(&dir);
        let results = files
            .iter()
            .find(|(n, _)| n.starts_with("results_"))
            .map(|(n, _)| format!("{dir}/{n}"))
            .unwrap();
        let r = run(&files);
        assert_eq!(r.items, 24, "{model}");
        for task in ["sci_mc", "sci_text"] {
            let g = group(&r, task);
            assert_eq!(g.accuracy, Some(harness(&results, task, "acc,none")));
            let ours = reported(&r, "scorelens", task, "acc_norm");
            assert_eq!(
                ours,
                harness(&results, task, "acc_norm,none"),
                "{model} {task}"
            );
        }
    }
}

#[test]
fn results_named_after_a_json_output_path_with_stderr_n_a_are_read() {
    // `--output_path run.json` names the results `run_<date>.json`; `--limit 1` makes every
    // stderr the string "N/A", which must not stop the figures beside it.
    let dir = "tests/fixtures/lm_eval/json_output_path";
    let files = folder(dir);
    let results = files
        .iter()
        .find(|(n, _)| n.starts_with("run_"))
        .map(|(n, _)| format!("{dir}/{n}"))
        .unwrap();
    let text = String::from_utf8(read(&results)).unwrap();
    assert!(text.contains(r#""acc_stderr,none": "N/A""#));
    let r = run(&files);
    assert!(r.files.iter().any(|f| f.format == "lm-eval-results"));
    assert_eq!(
        reported(&r, "lm-eval", "sci_mc", "acc"),
        harness(&results, "sci_mc", "acc,none")
    );
    assert_eq!(
        group(&r, "sci_mc").accuracy,
        Some(harness(&results, "sci_mc", "acc,none"))
    );
    assert_eq!(
        reported(&r, "lm-eval", "say_gen · strict-match", "exact_match"),
        harness(&results, "say_gen", "exact_match,strict-match")
    );
}
