//! promptfoo results: the real fixture written by promptfoo 0.121.20 with its echo provider
//! (tests/fixtures/promptfoo/), one run per provider × prompt, checked against promptfoo's own
//! figures in the same file (each run's `metrics`, the eval's `stats`).

use scorelens::report::Report;
use scorelens::runs::{find, Grouping, Offered};
use scorelens::{score, Input, Options};
use serde_json::Value;

const DIR: &str = "tests/fixtures/promptfoo";

fn read(name: &str) -> Vec<u8> {
    let path = format!("{DIR}/{name}");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn part(name: &str, bytes: &[u8], part: &str) -> Report {
    let opts = Options {
        part: Some(part.to_string()),
        ..Options::default()
    };
    score(&[Input { name, bytes }], &opts).unwrap()
}

/// promptfoo's `results.prompts`: the runs and their metrics as promptfoo wrote them.
fn prompts(json: &[u8]) -> Vec<Value> {
    let v: Value = serde_json::from_slice(json).unwrap();
    v["results"]["prompts"].as_array().unwrap().clone()
}

fn part_name(p: &Value) -> String {
    format!(
        "[{}] {}",
        p["provider"].as_str().unwrap(),
        p["label"].as_str().unwrap()
    )
}

#[test]
fn each_provider_and_prompt_is_a_run() {
    for name in ["results.json", "results.jsonl"] {
        let bytes = read(name);
        let found = find(
            &[Offered {
                path: name,
                head: &bytes,
            }],
            Grouping::Found,
        );
        let mut names: Vec<&str> = found.runs.iter().map(|r| r.name.as_str()).collect();
        let mut want: Vec<String> = prompts(&read("results.json"))
            .iter()
            .map(part_name)
            .collect();
        // The output file lists them in promptfoo's order; JSON Lines in the order first seen.
        if name.ends_with(".jsonl") {
            names.sort();
            want.sort();
        }
        assert_eq!(names, want, "{name}");
        assert!(found
            .runs
            .iter()
            .all(|r| r.part.as_deref() == Some(r.name.as_str())));
        // Regrouped as one run, every result is an item, its id prefixed with its run.
        let one = find(
            &[Offered {
                path: name,
                head: &bytes,
            }],
            Grouping::OneRun,
        );
        assert_eq!(one.runs[0].part, None);
    }
}

#[test]
fn pass_counts_equal_promptfoos_own() {
    let json = read("results.json");
    let doc: Value = serde_json::from_slice(&json).unwrap();
    let (mut passed, mut total) = (0.0, 0.0);
    for p in prompts(&json) {
        let m = &p["metrics"];
        let pass = m["testPassCount"].as_f64().unwrap();
        let all =
            pass + m["testFailCount"].as_f64().unwrap() + m["testErrorCount"].as_f64().unwrap();
        for file in ["results.json", "results.jsonl"] {
            let r = part(file, &read(file), &part_name(&p));
            assert_eq!(r.items as f64, all, "{file}");
            assert_eq!(
                r.metrics.accuracy,
                Some(pass / all),
                "{file} {}",
                part_name(&p)
            );
            assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        }
        passed += pass;
        total += all;
    }
    let stats = &doc["results"]["stats"];
    assert_eq!(passed, stats["successes"].as_f64().unwrap());
    assert_eq!(
        total - passed,
        stats["failures"].as_f64().unwrap() + stats["errors"].as_f64().unwrap()
    );
}

#[test]
fn scores_are_kept_beside_promptfoos_sums() {
    let json = read("results.json");
    let doc: Value = serde_json::from_slice(&json).unwrap();
    let rows = doc["results"]["results"].as_array().unwrap();
    for p in prompts(&json) {
        let r = part("results.json", &json, &part_name(&p));
        let figure = |source: &str, name: &str| {
            r.reported
                .iter()
                .find(|x| x.source == source && x.name == name && x.scope.is_empty())
                .unwrap_or_else(|| panic!("{source} {name}"))
                .value
        };
        let mine: Vec<&Value> = rows
            .iter()
            .filter(|x| {
                x["provider"]["label"] == p["provider"] && x["prompt"]["label"] == p["label"]
            })
            .collect();
        let sum: f64 = mine.iter().map(|x| x["score"].as_f64().unwrap()).sum();
        assert_eq!(
            figure("promptfoo", "score"),
            p["metrics"]["score"].as_f64().unwrap()
        );
        assert!((figure("scorelens", "score") - sum / mine.len() as f64).abs() < 1e-12);
        // promptfoo's named score is a sum over the tests that have it; ours the mean.
        for (k, v) in p["metrics"]["namedScores"].as_object().unwrap() {
            let n = p["metrics"]["namedScoresCount"][k].as_f64().unwrap();
            let mean = figure("scorelens", &format!("namedScores.{k}"));
            assert!((mean - v.as_f64().unwrap() / n).abs() < 1e-12, "{k}");
        }
    }
}

#[test]
fn the_runs_join_on_the_test() {
    let json = read("results.json");
    let names: Vec<String> = prompts(&json).iter().map(part_name).collect();
    let runs: Vec<scorelens::Run> = names
        .iter()
        .map(|n| {
            let opts = Options {
                part: Some(n.clone()),
                ..Options::default()
            };
            scorelens::score_run(
                n,
                [Input {
                    name: "results.json",
                    bytes: &json,
                }],
                &opts,
            )
            .unwrap()
        })
        .collect();
    let c = scorelens::compare(&runs, &Default::default());
    assert!(c.only_in.iter().all(|o| o.count == 0), "{:?}", c.only_in);
    assert_eq!(c.pairs.len(), 6);
    assert!(c.pairs.iter().all(|p| p.common == 4));
}

#[test]
fn read_whole_every_run_is_kept_apart() {
    let json = read("results.json");
    let r = score(
        &[Input {
            name: "results.json",
            bytes: &json,
        }],
        &Options::default(),
    )
    .unwrap();
    assert_eq!(r.items, 16);
    assert_eq!(r.skipped, 0, "{:?}", r.warnings);
    let scopes: std::collections::BTreeSet<&str> = r
        .reported
        .iter()
        .filter(|x| x.source == "promptfoo")
        .map(|x| x.scope.as_str())
        .collect();
    assert_eq!(scopes.len(), 4);
}
