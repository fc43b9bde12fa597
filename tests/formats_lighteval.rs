//! lighteval details: the real fixture written by lighteval 0.13.0 with its dummy model
//! (tests/fixtures/lighteval/), its Parquet tables and the same rows as `datasets` writes them to
//! JSON Lines, checked against lighteval's own results file of the same run; detection near
//! misses; and the Parquet files scorelens refuses, each with its reason.

use scorelens::report::Report;
use scorelens::runs::{find, Grouping, Offered};
use scorelens::{score, Input, Options};
use serde_json::Value;
use std::path::{Path, PathBuf};

const DIR: &str = "tests/fixtures/lighteval";

/// The files under `dir` (any depth) whose names end with `ext`, sorted.
fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    fn walk(d: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, ext, out);
            } else if p.to_string_lossy().ends_with(ext) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new(dir), ext, &mut out);
    out.sort();
    out
}

fn report_of(paths: &[PathBuf]) -> Report {
    let bytes: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|p| (p.to_string_lossy().into_owned(), std::fs::read(p).unwrap()))
        .collect();
    let inputs: Vec<Input> = bytes
        .iter()
        .map(|(name, b)| Input { name, bytes: b })
        .collect();
    score(&inputs, &Options::default()).unwrap()
}

/// lighteval's results file of the fixture's run: task → metric → value.
fn results() -> Value {
    let path = &files(&format!("{DIR}/out/results/dummy"), ".json")[0];
    let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v["results"].clone()
}

fn group_accuracy(r: &Report, task: &str) -> f64 {
    let g = r.groups.iter().find(|g| g.name == task);
    g.unwrap_or_else(|| panic!("no group {task}"))
        .accuracy
        .unwrap()
}

fn reported(r: &Report, source: &str, name: &str, scope: &str) -> f64 {
    let f = r
        .reported
        .iter()
        .find(|f| f.source == source && f.name == name && f.scope == scope);
    f.unwrap_or_else(|| panic!("no {source} {name} for {scope}"))
        .value
}

#[test]
fn the_details_give_lightevals_own_task_figures() {
    let r = report_of(&files(&format!("{DIR}/out/details/dummy"), ".parquet"));
    let want = results();
    assert_eq!(r.items, 80);
    assert_eq!(r.skipped, 0);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // Accuracy is lighteval's acc on the multiple choice and its em on the generative task.
    let mcq = &want["scorelens_mcq|0"];
    let echo = &want["scorelens_echo|0"];
    assert_eq!(
        group_accuracy(&r, "scorelens_mcq|0"),
        mcq["acc"].as_f64().unwrap()
    );
    assert_eq!(
        group_accuracy(&r, "scorelens_echo|0"),
        echo["em"].as_f64().unwrap()
    );
    // acc_norm, recomputed from the loglikelihoods and the choices' characters.
    let norm = reported(&r, "scorelens", "acc_norm", "scorelens_mcq|0");
    assert_eq!(norm, mcq["acc_norm"].as_f64().unwrap());
    // The logged per-sample metrics' means are the task figures lighteval printed.
    for (task, metric) in [
        ("scorelens_mcq|0", "acc"),
        ("scorelens_mcq|0", "acc_norm"),
        ("scorelens_echo|0", "em"),
    ] {
        let got = reported(&r, "lighteval", metric, task);
        assert_eq!(got, want[task][metric].as_f64().unwrap(), "{task} {metric}");
    }
    // Every choice item has probabilities (a softmax over the choices' loglikelihoods), so the
    // calibration figures exist; the generative items are graded, without probabilities.
    assert_eq!(r.conditioning.items, 60);
    assert!(r.conditioning.ece.is_some());
}

#[test]
fn the_same_rows_as_json_lines_score_the_same() {
    let parquet = report_of(&files(&format!("{DIR}/out/details/dummy"), ".parquet"));
    let jsonl = report_of(&files(&format!("{DIR}/jsonl"), ".jsonl"));
    let strip = |r: &Report| {
        let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
        v.as_object_mut().unwrap().remove("files");
        v
    };
    assert_eq!(strip(&parquet), strip(&jsonl));
}

#[test]
fn each_models_details_are_a_run_named_after_the_model() {
    let paths = files(&format!("{DIR}/out"), "");
    let heads: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|p| {
            let name = p.to_string_lossy().into_owned();
            let file = std::fs::File::open(p).unwrap();
            let (_, head) = scorelens::session::peek(&name, file).unwrap();
            (name, head)
        })
        .collect();
    let offered: Vec<Offered> = heads
        .iter()
        .map(|(path, head)| Offered { path, head })
        .collect();
    let found = find(&offered, Grouping::Found);
    let runs: Vec<(&str, usize)> = found
        .runs
        .iter()
        .map(|r| (r.name.as_str(), r.files.len()))
        .collect();
    assert_eq!(runs, [("dummy", 2), ("dummy-b", 2)]);
    // lighteval's results files are not details: set aside with a reason.
    assert_eq!(found.ignored.len(), 2);
}

/// The CLI's JSON for `args`.
fn cli_json(args: &[&str]) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn two_models_are_compared_and_ranked_on_their_shared_items() {
    let (a, b) = (
        format!("{DIR}/out/details/dummy"),
        format!("{DIR}/out/details/dummy-b"),
    );
    let compared = cli_json(&["compare", "--json", &a, &b]);
    let pair = &compared["pairs"][0];
    assert_eq!(pair["common"], 80, "every task/doc id is in both runs");
    // McNemar's table counts the items each model alone gets right, from lighteval's own acc/em.
    let right = |dir: &str| -> Vec<(String, f64)> {
        let mut out = Vec::new();
        for f in files(dir, ".parquet") {
            let rows =
                scorelens_parquet::to_json_lines(std::fs::read(f).unwrap(), 1 << 30).unwrap();
            for line in rows.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                let v: Value = serde_json::from_slice(line).unwrap();
                let id = format!(
                    "{}/{}",
                    v["doc"]["task_name"].as_str().unwrap(),
                    v["doc"]["id"].as_str().unwrap()
                );
                let m = &v["metric"];
                out.push((id, m.get("acc").or(m.get("em")).unwrap().as_f64().unwrap()));
            }
        }
        out.sort_by(|x, y| x.0.cmp(&y.0));
        out
    };
    let (ra, rb) = (right(&a), right(&b));
    let only_a = ra
        .iter()
        .zip(&rb)
        .filter(|(x, y)| x.1 == 1.0 && y.1 == 0.0)
        .count();
    let only_b = ra
        .iter()
        .zip(&rb)
        .filter(|(x, y)| x.1 == 0.0 && y.1 == 1.0)
        .count();
    let m = &pair["mcnemar"];
    assert_eq!(
        (m["only_a"].as_u64(), m["only_b"].as_u64()),
        (Some(only_a as u64), Some(only_b as u64)),
        "{m}"
    );
    let board = cli_json(&["leaderboard", "--json", &a, &b]);
    assert_eq!(board["common"], 80);
    assert_eq!(board["runs"].as_array().unwrap().len(), 2);
}

#[test]
fn near_misses_are_not_lighteval_details() {
    let detect = |head: &[u8]| scorelens::formats::detect("x.jsonl", head).map(|f| f.name());
    let row = br#"{"doc": {"query": "q", "choices": ["a", "b"], "gold_index": 0}, "metric": {"acc": 1}, "model_response": {"logprobs": [-1, -2]}}"#;
    assert_eq!(detect(row), Some("lighteval"));
    // A row without its model response, or without its metrics: another tool's rows.
    let no_response = br#"{"doc": {"query": "q"}, "metric": {"acc": 1}}"#;
    assert_ne!(detect(no_response), Some("lighteval"));
    let no_metric = br#"{"doc": {"query": "q"}, "model_response": {"text": ["a"]}}"#;
    assert_ne!(detect(no_metric), Some("lighteval"));
    // lm-eval's samples have a `doc` too, and `resps`, not a model response.
    let lm_eval = br#"{"doc_id": 0, "doc": {"q": 1}, "target": "0", "arguments": {}, "resps": [], "filtered_resps": [], "acc": 1.0}"#;
    assert_ne!(detect(lm_eval), Some("lighteval"));
    // lighteval's results file is its summary, not details.
    let results = std::fs::read(&files(&format!("{DIR}/out/results/dummy"), ".json")[0]).unwrap();
    assert_eq!(detect(&results), None);
}

#[test]
fn parquet_files_that_cannot_be_read_say_why() {
    let zstd = &files(&format!("{DIR}/zstd"), ".parquet")[0];
    let bytes = std::fs::read(zstd).unwrap();
    let name = zstd.to_string_lossy();
    let e = score(
        &[Input {
            name: &name,
            bytes: &bytes,
        }],
        &Options::default(),
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("a Parquet table compressed with zstd, which scorelens does not decode"),
        "{msg}"
    );
    // A table cut short has lost its footer, where Parquet keeps its index.
    let good = std::fs::read(&files(&format!("{DIR}/out/details/dummy"), ".parquet")[0]).unwrap();
    let cut = &good[..good.len() / 2];
    let e = score(
        &[Input {
            name: "cut.parquet",
            bytes: cut,
        }],
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("not a Parquet table that can be read"),
        "{e}"
    );
}
