//! Runs found in folders the tools wrote: the real fixtures, offered as a user's drop would offer
//! them (paths relative to the dropped folder, each file's first 64 KiB).

use scorelens::formats::HEAD;
use scorelens::runs::{find, Found, Grouping, Offered};
use std::path::Path;

/// Every file under `root`, recursively, as (path relative to `prefix` + root's name, head).
fn walk(root: &str, prefix: &str) -> Vec<(String, Vec<u8>)> {
    fn go(dir: &Path, rel: &str, out: &mut Vec<(String, Vec<u8>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().into_string().unwrap();
            let rel = format!("{rel}/{name}");
            if e.path().is_dir() {
                go(&e.path(), &rel, out);
            } else {
                let mut bytes = std::fs::read(e.path()).unwrap();
                bytes.truncate(HEAD);
                out.push((rel, bytes));
            }
        }
    }
    let mut out = Vec::new();
    go(Path::new(root), prefix, &mut out);
    out
}

fn found(files: &[(String, Vec<u8>)], how: Grouping) -> Found {
    let offered: Vec<Offered> = files
        .iter()
        .map(|(p, h)| Offered { path: p, head: h })
        .collect();
    find(&offered, how)
}

/// (run name, file names) for each run.
fn runs(files: &[(String, Vec<u8>)], f: &Found) -> Vec<(String, Vec<String>)> {
    f.runs
        .iter()
        .map(|r| {
            let names = r
                .files
                .iter()
                .map(|&i| files[i].0.rsplit('/').next().unwrap().to_string())
                .collect();
            (r.name.clone(), names)
        })
        .collect()
}

#[test]
fn an_lm_eval_output_folder_gives_one_run_per_model() {
    let files = walk("tests/fixtures/lm_eval/output_folder", "out");
    let f = found(&files, Grouping::Found);
    let runs = runs(&files, &f);
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!(runs[0].0, "model-a");
    assert_eq!(runs[1].0, "model-b");
    for (_, names) in &runs {
        assert_eq!(names.len(), 3);
        assert!(names.iter().any(|n| n.starts_with("results_")));
        assert_eq!(
            names.iter().filter(|n| n.starts_with("samples_")).count(),
            2
        );
    }
    assert!(f.ignored.is_empty());
    assert_eq!(f.summary(), "2 runs: model-a, 3 files; model-b, 3 files");
}

#[test]
fn a_helm_suite_gives_one_run_per_run_folder() {
    // Two real HELM run folders laid out as a suite: runs/<suite>/<run>/…
    let mut files = walk(
        "tests/fixtures/helm/joint",
        "runs/fix/simple_mcqa:model=simple_model1",
    );
    files.extend(walk(
        "tests/fixtures/helm/separate",
        "runs/fix/simple_mcqa_separate:model=simple_model1",
    ));
    let f = found(&files, Grouping::Found);
    let runs = runs(&files, &f);
    let names: Vec<&str> = runs.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "simple_mcqa:model=simple_model1",
            "simple_mcqa_separate:model=simple_model1"
        ]
    );
    assert_eq!(runs[0].1.len(), 5);
    assert_eq!(runs[1].1.len(), 4);
    // One run folder on its own is one run, whatever else the user asks of the grouping.
    let joint = walk("tests/fixtures/helm/joint", "joint");
    assert_eq!(found(&joint, Grouping::Found).runs.len(), 1);
}

#[test]
fn decision_bench_parts_are_one_run() {
    let files = walk("tests/fixtures/decision_bench", "db");
    let f = found(&files, Grouping::Found);
    let runs = runs(&files, &f);
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0].0, "db");
    assert_eq!(
        runs[0].1,
        ["cases.jsonl", "predictions.jsonl", "results.jsonl"]
    );
    // The script that made them is no results file: set aside with its reason.
    assert_eq!(f.ignored.len(), 1);
    assert_eq!(files[f.ignored[0].0].0, "db/make_fixtures.py");
}

#[test]
fn per_file_and_one_run_override_what_was_found() {
    let files = walk("tests/fixtures/lm_eval/output_folder", "out");
    let per_file = found(&files, Grouping::PerFile);
    assert_eq!(per_file.runs.len(), 6);
    let one = found(&files, Grouping::OneRun);
    assert_eq!(one.runs.len(), 1);
    assert_eq!(one.runs[0].files.len(), 6);
}

#[test]
fn a_real_helm_suite_sets_its_own_summaries_aside() {
    // helm-run and helm-summarize's layout (crfm-helm 0.5.16: no runs/latest).
    let files = walk("tests/fixtures/helm/suite", "benchmark_output");
    let f = found(&files, Grouping::Found);
    let runs = runs(&files, &f);
    let names: Vec<&str> = runs.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "simple_mcqa:model=simple_model1",
            "simple_mcqa_separate:model=simple_model1"
        ]
    );
    assert!(runs.iter().all(|r| r.1.len() == 8), "{runs:?}");
    let ignored: Vec<&str> = f
        .ignored
        .iter()
        .map(|(i, _)| files[*i].0.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        ignored,
        [
            "costs.json",
            "run_specs.json",
            "runs_to_run_suites.json",
            "summary.json"
        ]
    );
    assert!(f
        .ignored
        .iter()
        .any(|(_, why)| why == "a HELM suite or run description: nothing to score in it"));
}

#[test]
fn a_folder_named_as_a_renamed_run_keeps_its_name_and_the_rename_moves_on() {
    // `model-a/` (lm-eval) and a scorelens file of model `model-a` both make a run `model-a`;
    // the second became `model-a (2)`, the very name of the folder `model-a/model-a (2)/`, and
    // a leaderboard refuses two runs of one name.
    let lm = std::fs::read(
        "tests/fixtures/lm_eval/v0.4.13/samples_sci_mc_2026-11-29T20-46-19.400381.jsonl",
    )
    .unwrap();
    let lm = &lm[..lm.len().min(HEAD)];
    let header = br#"{"scorelens": 1, "model": "model-a"}
{"id": "q1", "type": "choice", "options": ["A", "B"], "gold": "A", "probs": {"A": 0.9, "B": 0.1}}
"#;
    let sample = "samples_sci_mc_2026-11-29T20-46-19.400381.jsonl";
    let files = vec![
        (format!("out/model-a/{sample}"), lm.to_vec()),
        ("out/predictions.jsonl".to_string(), header.to_vec()),
        (format!("out/model-a/model-a (2)/{sample}"), lm.to_vec()),
    ];
    let f = found(&files, Grouping::Found);
    let names: Vec<&str> = f.runs.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["model-a", "model-a (3)", "model-a (2)"]);
    let files_of: Vec<&[usize]> = f.runs.iter().map(|r| r.files.as_slice()).collect();
    assert_eq!(files_of, [&[0][..], &[1], &[2]]);
}
