//! OpenAI Evals API output items: the fixture built with the `openai` package's own types
//! (tests/fixtures/evals_api/make.py), one run per run id, checked against the run objects'
//! `result_counts` and `per_testing_criteria_results`.

use scorelens::report::Report;
use scorelens::runs::{find, Grouping, Offered};
use scorelens::{score, Input, Options};
use serde_json::Value;

const DIR: &str = "tests/fixtures/evals_api";

fn read(name: &str) -> Vec<u8> {
    let path = format!("{DIR}/{name}");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run_of(files: &[&str], part: Option<&str>) -> Report {
    let bytes: Vec<Vec<u8>> = files.iter().map(|f| read(f)).collect();
    let inputs: Vec<Input> = files
        .iter()
        .zip(&bytes)
        .map(|(name, bytes)| Input { name, bytes })
        .collect();
    let opts = Options {
        part: part.map(str::to_string),
        ..Options::default()
    };
    score(&inputs, &opts).unwrap()
}

fn figure(r: &Report, source: &str, name: &str) -> f64 {
    r.reported
        .iter()
        .find(|x| x.source == source && x.name == name && x.scope.is_empty())
        .unwrap_or_else(|| panic!("{source} {name}: {:?}", r.reported))
        .value
}

const RUN_A: &[&str] = &[
    "run_a/output_items_page1.json",
    "run_a/output_items_page2.json",
    "run_a/run.json",
];
const RUN_B: &[&str] = &["run_b/output_items.json", "run_b/run.json"];

#[test]
fn pages_and_run_objects_join_by_run_id() {
    let names: Vec<&str> = RUN_A.iter().chain(RUN_B).copied().collect();
    let bytes: Vec<Vec<u8>> = names.iter().map(|f| read(f)).collect();
    let offered: Vec<Offered> = names
        .iter()
        .zip(&bytes)
        .map(|(path, head)| Offered { path, head })
        .collect();
    let found = find(&offered, Grouping::Found);
    let runs: Vec<(&str, &[usize])> = found
        .runs
        .iter()
        .map(|r| (r.name.as_str(), r.files.as_slice()))
        .collect();
    // Named by each run object's `name`.
    let name = |f: &str| {
        serde_json::from_slice::<Value>(&read(f)).unwrap()["name"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        runs,
        [
            (name("run_a/run.json").as_str(), &[0, 1, 2][..]),
            (name("run_b/run.json").as_str(), &[3, 4])
        ]
    );
    assert!(found.ignored.is_empty());
}

#[test]
fn figures_equal_the_runs_own_counts() {
    for files in [RUN_A, RUN_B] {
        let run: Value = serde_json::from_slice(&read(files[files.len() - 1])).unwrap();
        let id = run["id"].as_str().unwrap();
        let r = run_of(files, Some(id));
        let counts = &run["result_counts"];
        let count = |k: &str| counts[k].as_f64().unwrap();
        assert_eq!(r.items as f64, count("total"));
        assert_eq!(r.metrics.accuracy, Some(count("passed") / count("total")));
        // Errored samples have no answer: they are the invalid share, counted apart.
        assert_eq!(
            r.metrics.invalid_share,
            Some(count("errored") / count("total"))
        );
        for k in ["passed", "failed", "errored"] {
            assert_eq!(figure(&r, "scorelens", k), count(k), "{k}");
            assert_eq!(
                figure(&r, "OpenAI Evals API", &format!("result_counts.{k}")),
                count(k)
            );
        }
        for c in run["per_testing_criteria_results"].as_array().unwrap() {
            let name = c["testing_criteria"].as_str().unwrap();
            let (p, f) = (c["passed"].as_f64().unwrap(), c["failed"].as_f64().unwrap());
            assert_eq!(
                figure(&r, "scorelens", &format!("{name} pass rate")),
                p / (p + f),
                "{name}"
            );
        }
        assert_eq!(r.model.as_deref(), run["model"].as_str());
    }
}

#[test]
fn mean_scores_are_the_graders_means() {
    let page: Value = serde_json::from_slice(&read(RUN_A[0])).unwrap();
    let page2: Value = serde_json::from_slice(&read(RUN_A[1])).unwrap();
    let items: Vec<&Value> = page["data"]
        .as_array()
        .unwrap()
        .iter()
        .chain(page2["data"].as_array().unwrap())
        .collect();
    let r = run_of(RUN_A, items[0]["run_id"].as_str());
    for g in ["exact", "similarity", "judge"] {
        let scores: Vec<f64> = items
            .iter()
            .flat_map(|i| i["results"].as_array().unwrap())
            .filter(|x| x["name"] == g)
            .map(|x| x["score"].as_f64().unwrap())
            .collect();
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        assert!(
            (figure(&r, "scorelens", &format!("{g} mean score")) - mean).abs() < 1e-12,
            "{g}"
        );
    }
}

#[test]
fn an_array_and_json_lines_read_the_same() {
    let id = serde_json::from_slice::<Value>(&read("run_b/run.json")).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let array = run_of(&["run_b/output_items.json"], Some(&id));
    let lines = run_of(&["jsonl/run_b_output_items.jsonl"], Some(&id));
    assert_eq!(array.metrics, lines.metrics);
    assert_eq!(array.reported, lines.reported);
    assert_eq!(array.items, 8);
}

#[test]
fn two_runs_join_on_the_datasource_item() {
    let run = |files: &[&str], name: &str| {
        let bytes: Vec<Vec<u8>> = files.iter().map(|f| read(f)).collect();
        let inputs: Vec<Input> = files
            .iter()
            .zip(&bytes)
            .map(|(name, bytes)| Input { name, bytes })
            .collect();
        let id = serde_json::from_slice::<Value>(bytes.last().unwrap()).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let opts = Options {
            part: Some(id),
            ..Options::default()
        };
        scorelens::score_run(name, inputs, &opts).unwrap()
    };
    let c = scorelens::compare(&[run(RUN_A, "a"), run(RUN_B, "b")], &Default::default());
    assert_eq!(c.pairs.len(), 1);
    assert_eq!(c.pairs[0].common, 8);
}

#[test]
fn several_runs_read_together_keep_their_ids_apart() {
    let r = run_of(
        &["run_a/output_items_page1.json", "run_b/output_items.json"],
        None,
    );
    assert_eq!((r.items, r.skipped), (13, 0), "{:?}", r.warnings);
}
