//! HELM run folders: real fixtures from crfm-helm 0.5.16 (SimpleMCQAScenario, simple/model1 with
//! seeded log-probabilities; tests/fixtures/README.md), checked against HELM's own stats.json and
//! against uncertainty-calibration's `get_ece_em` (the function HELM calls) on HELM's per-instance
//! stats, plus a hand-worked joint run.

use scorelens::report::Report;
use scorelens::{score, Error, Input, Options, Source};
use serde_json::Value;

const JOINT: &str = "tests/fixtures/helm/joint";
const SEPARATE: &str = "tests/fixtures/helm/separate";
const FILES: [&str; 3] = [
    "scenario_state.json",
    "per_instance_stats.json",
    "stats.json",
];

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run_files(files: &[(String, Vec<u8>)]) -> Result<Report, Error> {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(n, b)| Input { name: n, bytes: b })
        .collect();
    score(&inputs, &Options::default())
}

fn run_dir(dir: &str, names: &[&str]) -> Report {
    let files: Vec<(String, Vec<u8>)> = names
        .iter()
        .map(|n| (format!("{dir}/{n}"), read(&format!("{dir}/{n}"))))
        .collect();
    run_files(&files).unwrap()
}

/// HELM's own run-level figure, read straight from its stats.json.
fn helm_stat(dir: &str, name: &str) -> f64 {
    let stats: Vec<Value> = serde_json::from_slice(&read(&format!("{dir}/stats.json"))).unwrap();
    stats
        .iter()
        .find(|s| {
            s["name"]["name"] == name
                && s["name"]["split"] == "test"
                && s["name"].get("perturbation").is_none()
        })
        .and_then(|s| s["mean"].as_f64())
        .unwrap()
}

fn reported<'r>(r: &'r Report, name: &str) -> Option<&'r scorelens::reported::Reported> {
    r.reported
        .iter()
        .find(|x| x.source == "HELM" && x.name == name)
}

#[test]
fn separate_adapter_ece_em_equals_helms_definition() {
    let r = run_dir(SEPARATE, &FILES);
    assert_eq!((r.items, r.skipped), (60, 0));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.metrics.accuracy, Some(helm_stat(SEPARATE, "exact_match")));
    // HELM 0.5.16 writes no ece_10_bin for separate adapters (its calibration needs a `logprob`
    // stat that only generation requests have). This is uncertainty-calibration 0.1.4's
    // get_ece_em(max_probs, [int(em)], num_bins=10) on HELM's per_instance_stats.json, which is
    // what HELM's compute_calibration_metrics computes (the README gives the command).
    let helm_ece_10_bin = 0.07210965757919358;
    let ours = r.conditioning.ece_em.unwrap();
    assert!((ours - helm_ece_10_bin).abs() < 1e-12, "{ours}");
    // Conditioning is HELM's max_prob here, so the mean confidence matches HELM's max_prob too.
    let mean_conf: f64 = r
        .conditioning
        .bins
        .iter()
        .filter_map(|b| b.confidence.map(|c| c * b.count as f64))
        .sum::<f64>()
        / 60.0;
    assert!((mean_conf - helm_stat(SEPARATE, "max_prob")).abs() < 1e-12);
    assert_eq!(r.mixing.items, 0, "softmax scores keep no outside mass");
    assert_eq!(r.groups[0].name, "test");
    let f = r
        .files
        .iter()
        .find(|f| f.format == "helm-scenario-state")
        .unwrap();
    assert_eq!(
        f.version.as_deref(),
        Some("scenario_state, adapter multiple_choice_separate_original")
    );
}

/// The reference used for the joint fixture: exactly HELM's ece_10_bin in its stats.json.
#[test]
fn joint_adapter_accuracy_and_helms_figures_beside_ours() {
    let r = run_dir(JOINT, &FILES);
    assert_eq!((r.items, r.skipped), (60, 0));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.metrics.accuracy, Some(helm_stat(JOINT, "exact_match")));
    let ece = reported(&r, "ece_10_bin").unwrap();
    assert_eq!(ece.value, helm_stat(JOINT, "ece_10_bin"));
    assert_eq!(ece.scope, "test");
    assert!(ece.note.contains("joint adapter"), "{}", ece.note);
    // The joint confidence is the raw probability of the generated letter: neither of ours.
    assert_ne!(r.conditioning.ece_em, Some(ece.value));
    assert_ne!(r.mixing.ece_em, Some(ece.value));
    // Off-menu letters (the patched model sometimes says "M") are invalid answers; count them
    // from the file itself.
    let state: Value =
        serde_json::from_slice(&read(&format!("{JOINT}/scenario_state.json"))).unwrap();
    let off_menu = state["request_states"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|rs| {
            let comps = rs["result"]["completions"].as_array().unwrap();
            let top = comps
                .iter()
                .reduce(|a, b| {
                    if b["logprob"].as_f64() > a["logprob"].as_f64() {
                        b
                    } else {
                        a
                    }
                })
                .unwrap();
            let letter = top["text"].as_str().unwrap().trim();
            rs["output_mapping"].get(letter).is_none()
        })
        .count();
    assert!(off_menu > 0);
    assert_eq!(r.metrics.invalid_share, Some(off_menu as f64 / 60.0));
    assert_eq!(r.conditioning.items, 60 - off_menu as u64);
}

#[test]
fn a_whole_run_folder_reads_without_complaint() {
    let names = [
        "run_spec.json",
        "scenario.json",
        "scenario_state.json",
        "per_instance_stats.json",
        "stats.json",
    ];
    let r = run_dir(JOINT, &names);
    assert_eq!((r.items, r.skipped), (60, 0));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let companions: Vec<_> = r
        .files
        .iter()
        .filter(|f| f.format == "helm-run-file")
        .collect();
    assert_eq!(companions.len(), 2);
    assert!(companions.iter().all(|f| f.not_applicable == 1));
}

#[test]
fn the_files_of_a_run_join_in_any_order() {
    let want = run_dir(SEPARATE, &FILES);
    for order in [[1, 0, 2], [2, 1, 0], [0, 2, 1], [1, 2, 0], [2, 0, 1]] {
        let names: Vec<&str> = order.iter().map(|&i| FILES[i]).collect();
        let r = run_dir(SEPARATE, &names);
        assert_eq!(r.items, want.items);
        assert_eq!(r.metrics, want.metrics);
        assert_eq!(r.conditioning, want.conditioning);
        assert!(r.warnings.is_empty(), "{order:?}: {:?}", r.warnings);
    }
}

#[test]
fn half_a_run_is_read_or_explained() {
    let alone = run_dir(SEPARATE, &["scenario_state.json"]);
    assert_eq!(alone.items, 60);
    assert!(alone.warnings[0]
        .reason
        .contains("without its per_instance_stats.json"));
    let stats_only = run_files(&[(
        "per_instance_stats.json".into(),
        read(&format!("{SEPARATE}/per_instance_stats.json")),
    )]);
    match stats_only {
        Err(Error::NoItems(w)) => assert!(w[0].reason.contains("drop both files")),
        other => panic!("{other:?}"),
    }
}

/// Three instances by hand: right, off-menu, and a second correct reference.
const HAND_STATE: &str = r#"{"adapter_spec": {"method": "multiple_choice_joint", "model": "org/m"},
 "request_states": [
  {"instance": {"id": "i1", "split": "test", "references": [
     {"output": {"text": "Mars"}, "tags": []}, {"output": {"text": "Jupiter"}, "tags": ["correct"]}]},
   "train_trial_index": 0, "output_mapping": {"A": "Mars", "B": "Jupiter"},
   "result": {"completions": [{"text": " A", "logprob": -2.0}, {"text": " B", "logprob": -0.5}]}},
  {"instance": {"id": "i2", "split": "test", "references": [
     {"output": {"text": "x"}, "tags": ["correct"]}, {"output": {"text": "y"}, "tags": []}]},
   "train_trial_index": 0, "output_mapping": {"A": "x", "B": "y"},
   "result": {"completions": [{"text": " M", "logprob": -0.1}]}},
  {"instance": {"id": "i3", "split": "test", "references": [
     {"output": {"text": "p"}, "tags": ["correct"]}, {"output": {"text": "q"}, "tags": ["correct"]},
     {"output": {"text": "r"}, "tags": []}]},
   "train_trial_index": 0, "output_mapping": {"A": "p", "B": "q", "C": "r"},
   "result": {"completions": [{"text": "B", "logprob": -0.2}]}},
  {"instance": {"id": "i1", "split": "test", "perturbation": {"name": "typos"}, "references": []},
   "train_trial_index": 0, "result": {"completions": []}}
 ]}"#;

#[test]
fn joint_by_hand() {
    let r = run_files(&[("scenario_state.json".into(), HAND_STATE.into())]).unwrap();
    assert_eq!((r.items, r.skipped), (3, 0));
    assert_eq!(r.model.as_deref(), Some("org/m"));
    // i1 right (top completion B), i2 off-menu (invalid), i3 right (q is also correct).
    assert_eq!(r.metrics.accuracy, Some(2.0 / 3.0));
    assert_eq!(r.metrics.invalid_share, Some(1.0 / 3.0));
    // Mixing: q[answer] = p + (1 - p) / k with p = exp(logprob of the answer).
    let (p1, p3) = ((-0.5f64).exp(), (-0.2f64).exp());
    let epa = ((p1 + (1.0 - p1) / 2.0) + (p3 + (1.0 - p3) / 3.0)) / 2.0;
    assert!((r.mixing.epa.unwrap() - epa).abs() < 1e-12);
    assert_eq!(
        r.conditioning.epa,
        Some(1.0),
        "one known probability conditions to 1"
    );
    assert_eq!(r.files[0].not_applicable, 1, "the perturbed state");
}

#[test]
fn a_broken_file_is_one_located_warning() {
    let bytes = read(&format!("{JOINT}/scenario_state.json"));
    let cut = bytes[..bytes.len() / 2].to_vec();
    let err = run_files(&[("scenario_state.json".into(), cut)]).unwrap_err();
    let Error::NoItems(w) = err else { panic!() };
    assert!(w[0].line.is_some());
    assert!(w[0].reason.contains("not a HELM file"), "{}", w[0].reason);
}

#[test]
fn stats_from_another_run_are_caught_by_the_cross_check() {
    let files = vec![
        (
            "scenario_state.json".to_string(),
            read(&format!("{SEPARATE}/scenario_state.json")),
        ),
        (
            "per_instance_stats.json".to_string(),
            read(&format!("{JOINT}/per_instance_stats.json")),
        ),
    ];
    let r = run_files(&files).unwrap();
    assert_eq!(r.items, 60, "the items still come from scenario_state.json");
    let w = r
        .warnings
        .iter()
        .find(|w| w.reason.contains("disagree"))
        .unwrap();
    assert_eq!(w.file, "per_instance_stats.json");
}

const SUITE_RUN: &str = "tests/fixtures/helm/suite/runs/fix/simple_mcqa:model=simple_model1";

#[test]
fn a_summarized_run_folder_reads_every_file_without_complaint() {
    // helm-summarize adds display_predictions.json, display_requests.json and instances.json; the
    // first starts like per_instance_stats.json (`instance_id`, `stats`) and must not be read as it.
    let mut names: Vec<String> = std::fs::read_dir(SUITE_RUN)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 8, "{names:?}");
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let r = run_dir(SUITE_RUN, &names);
    assert_eq!((r.items, r.skipped), (20, 0));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(
        r.metrics.accuracy,
        Some(helm_stat(SUITE_RUN, "exact_match"))
    );
    let companions: Vec<&str> = r
        .files
        .iter()
        .filter(|f| f.format == "helm-run-file")
        .map(|f| f.name.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        companions,
        [
            "display_predictions.json",
            "display_requests.json",
            "instances.json",
            "run_spec.json",
            "scenario.json"
        ]
    );
    // The same figures as the three scored files alone.
    let three = run_dir(SUITE_RUN, &FILES);
    assert_eq!(r.metrics.accuracy, three.metrics.accuracy);
    assert_eq!(r.conditioning.ece, three.conditioning.ece);
}

#[test]
fn display_predictions_with_thinking_text_are_still_a_companion() {
    // Newer HELM adds `thinking_text` to each display prediction (reasoning models).
    let path = format!("{SUITE_RUN}/display_predictions.json");
    let text = String::from_utf8(read(&path)).unwrap();
    let with = text.replacen(
        "\"predicted_text\"",
        "\"thinking_text\": \"Let me think.\", \"predicted_text\"",
        1,
    );
    assert_ne!(with, text);
    let format = scorelens::formats::detect("display_predictions.json", with.as_bytes());
    assert_eq!(format.map(|f| f.name()), Some("helm-run-file"));
}

/// Two train trials of two instances: each instance's trials are one cluster, so the run has two
/// independent units, and `--cluster cluster` counts them.
#[test]
fn train_trials_of_one_instance_are_one_cluster() {
    let state = |id: &str, trial: u32, answer: &str| {
        format!(
            r#"{{"instance": {{"id": "{id}", "split": "test", "references": [
              {{"output": {{"text": "x"}}, "tags": ["correct"]}}, {{"output": {{"text": "y"}}, "tags": []}}]}},
             "train_trial_index": {trial}, "output_mapping": {{"A": "x", "B": "y"}},
             "result": {{"completions": [{{"text": " {answer}", "logprob": -0.1}}]}}}}"#
        )
    };
    let states = [
        state("i1", 0, "A"),
        state("i1", 1, "A"),
        state("i2", 0, "B"),
        state("i2", 1, "A"),
        state("i3", 0, "B"),
        state("i3", 1, "B"),
    ];
    let text = format!(
        r#"{{"adapter_spec": {{"method": "multiple_choice_joint", "model": "org/m"}}, "request_states": [{}]}}"#,
        states.join(",")
    );
    let opts = Options {
        cluster: Some(scorelens::metrics::bootstrap::ClusterBy::File),
        ..Options::default()
    };
    let f = scorelens::score_sources(
        [Source::bytes("scenario_state.json", text.as_bytes())],
        &opts,
    )
    .unwrap();
    assert_eq!(f.report.items, 6);
    assert_eq!(f.clustered_items, 6);
    let c = f.report.intervals.clustered.unwrap();
    assert_eq!((c.items, c.clusters, c.in_clusters), (6, 3, 6));
    assert!(f.report.files[0]
        .mapping
        .iter()
        .any(|m| m.starts_with("clusters: the train trials of one instance")));
    // The single-trial run above names no cluster.
    let one = scorelens::score_sources(
        [Source::bytes("scenario_state.json", HAND_STATE.as_bytes())],
        &Options::default(),
    )
    .unwrap();
    assert_eq!(one.clustered_items, 0);
}
