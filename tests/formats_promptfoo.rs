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

/// A report as JSON without what differs by file (its name and format line) and without the
/// figures promptfoo wrote into its JSON output only (the CSV export carries no `metrics`).
fn comparable(r: &Report) -> Value {
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("files");
    let reported = o["reported"].as_array().unwrap().clone();
    o["reported"] = reported
        .into_iter()
        .filter(|x| x["source"] != "promptfoo")
        .collect();
    v
}

#[test]
fn the_csv_export_scores_as_the_json_output() {
    let csv = read("results.csv");
    let json = read("results.json");
    // The CSV's header names the same runs, in promptfoo's order.
    let parts: Vec<String> = scorelens::formats::by_name("promptfoo")
        .unwrap()
        .parts("results.csv", &csv)
        .into_iter()
        .map(|p| p.name)
        .collect();
    let want: Vec<String> = prompts(&json).iter().map(part_name).collect();
    assert_eq!(parts, want);
    for name in &want {
        let from_csv = part("results.csv", &csv, name);
        let from_json = part("results.json", &json, name);
        assert_eq!(from_csv.files[0].format, "promptfoo");
        assert!(from_csv.warnings.is_empty(), "{:?}", from_csv.warnings);
        // The CSV writes each test's score with two decimals, so the mean score is of rounded
        // scores; every other figure, the named-score means and the test ids are the JSON's.
        let score = |r: &Report| {
            r.reported
                .iter()
                .find(|x| x.source == "scorelens" && x.name == "score")
                .unwrap()
                .value
        };
        assert!(
            (score(&from_csv) - score(&from_json)).abs() <= 0.005,
            "{name}"
        );
        let without_score = |r: &Report| {
            let mut v = comparable(r);
            let kept: Vec<Value> = v["reported"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|x| x["name"] != "score")
                .cloned()
                .collect();
            v["reported"] = Value::Array(kept);
            v
        };
        assert_eq!(
            without_score(&from_csv),
            without_score(&from_json),
            "{name}"
        );
    }
}

#[test]
fn a_var_groups_the_tests() {
    let json = read("results.json");
    let doc: Value = serde_json::from_slice(&json).unwrap();
    let rows = doc["results"]["results"].as_array().unwrap();
    for p in prompts(&json) {
        let name = part_name(&p);
        // By hand from promptfoo's own rows: region → (tests, passed).
        let mut want: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
        for x in rows.iter().filter(|x| {
            x["provider"]["label"] == p["provider"] && x["prompt"]["label"] == p["label"]
        }) {
            let region = x["testCase"]["vars"]["region"]
                .as_str()
                .unwrap()
                .to_string();
            let e = want.entry(region).or_default();
            e.0 += 1;
            e.1 += u64::from(x["success"].as_bool().unwrap());
        }
        for file in ["results.json", "results.jsonl", "results.csv"] {
            let opts = Options {
                part: Some(name.clone()),
                group_by: Some("region".to_string()),
                ..Options::default()
            };
            let r = score(
                &[Input {
                    name: file,
                    bytes: &read(file),
                }],
                &opts,
            )
            .unwrap();
            let got: std::collections::BTreeMap<String, (u64, u64)> = r
                .groups
                .iter()
                .map(|g| (g.name.clone(), (g.items, g.correct as u64)))
                .collect();
            assert_eq!(got, want, "{file} {name}");
            assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        }
        // A var no test has: every test in no group, and a warning says so.
        let opts = Options {
            part: Some(name.clone()),
            group_by: Some("planet".to_string()),
            ..Options::default()
        };
        let r = score(
            &[Input {
                name: "results.json",
                bytes: &json,
            }],
            &opts,
        )
        .unwrap();
        let why: Vec<&str> = r.warnings.iter().map(|w| w.reason.as_str()).collect();
        assert_eq!(why, ["4 tests have no var `planet`: they are in no group"]);
    }
}

#[test]
fn group_by_on_another_format_says_it_is_not_read() {
    let opts = Options {
        group_by: Some("region".to_string()),
        ..Options::default()
    };
    let bytes = std::fs::read("tests/fixtures/csv/choice.csv").unwrap();
    let r = score(
        &[Input {
            name: "choice.csv",
            bytes: &bytes,
        }],
        &opts,
    )
    .unwrap();
    assert!(r.warnings.iter().any(|w| w.reason
        == "--group-by region is read in promptfoo results only: this csv file's items keep the groups it gives them"));
}

#[test]
fn near_misses_of_the_csv_export_are_not_promptfoo() {
    let detect = |head: &[u8]| scorelens::formats::detect("r.csv", head).map(|f| f.name());
    assert_eq!(
        detect(b"Description,x,[echo] p,Status,Score\nd,1,out,PASS,1\n"),
        Some("promptfoo")
    );
    // A bracketed column without promptfoo's `Status` beside it, and a plain table.
    assert_eq!(detect(b"id,gold,[note] a,answer\n1,a,x,a\n"), Some("csv"));
    assert_eq!(detect(b"x,[echo] p,Score\n1,out,1\n"), None);
}

#[test]
fn the_csv_rows_are_in_test_order() {
    // A CSV row's position is the test's index, the join key with the JSON's runs: promptfoo
    // writes the rows in testIdx order, each with its test's description.
    let json = read("results.json");
    let doc: Value = serde_json::from_slice(&json).unwrap();
    let csv = read("results.csv");
    let mut rows = csv::ReaderBuilder::new().from_reader(&csv[..]);
    for (i, rec) in rows.records().enumerate() {
        let rec = rec.unwrap();
        let described: Vec<&Value> = doc["results"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["testIdx"] == i)
            .map(|x| &x["testCase"]["description"])
            .collect();
        assert!(!described.is_empty(), "test {i}");
        assert!(
            described.iter().all(|d| d.as_str() == Some(&rec[0])),
            "test {i}"
        );
    }
}
