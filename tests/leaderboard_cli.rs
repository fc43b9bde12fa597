//! `scorelens leaderboard`: runs found in folders and files, every layout, `--by`, the JSON equal
//! to the library's single-threaded leaderboard, and clear errors for what cannot be ranked.

use scorelens::leaderboard::leaderboard;
use scorelens::{score_run, BootstrapOptions, Input, Options};
use std::path::PathBuf;
use std::process::{Command, Output};

fn scorelens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scorelens-lb-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 40 choice items in groups g1 and g2; item i is right when `right(i)`.
fn run_text(right: impl Fn(usize) -> bool) -> String {
    let mut out = String::from("{\"scorelens\": 1, \"benchmark\": \"generic\"}\n");
    for i in 0..40 {
        let answer = if right(i) { "A" } else { "B" };
        let group = if i % 2 == 0 { "g1" } else { "g2" };
        out += &format!(
            r#"{{"id": "q{i}", "type": "choice", "options": ["A", "B", "C"], "gold": "A", "answer": "{answer}", "group": "{group}"}}"#
        );
        out.push('\n');
    }
    out
}

/// Four runs of clearly different skill, as files of one folder.
fn four_runs(test: &str) -> PathBuf {
    let dir = folder(test);
    let skills: [fn(usize) -> bool; 4] = [
        |i| i % 10 != 0,
        |i| i % 3 != 0,
        |i| i % 2 == 0,
        |i| i % 5 == 0,
    ];
    for (name, right) in ["w.jsonl", "x.jsonl", "y.jsonl", "z.jsonl"]
        .iter()
        .zip(skills)
    {
        std::fs::write(dir.join(name), run_text(right)).unwrap();
    }
    dir
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn a_folder_is_ranked_in_every_layout() {
    let dir = four_runs("layouts");
    let d = dir.to_str().unwrap();
    let table = scorelens(&["leaderboard", d, "--bootstrap", "300"]);
    assert!(
        table.status.success(),
        "{}",
        String::from_utf8_lossy(&table.stderr)
    );
    let text = stdout(&table);
    assert!(
        text.contains("4 runs · 40 shared items · 300 paired percentile resamples"),
        "{text}"
    );
    assert!(
        text.contains("Ranked by metrics.accuracy (higher is better)"),
        "{text}"
    );
    // w is right on 36 of 40 (0.9), x on 26, y on 20, z on 8: that order.
    let order: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|w| w.ends_with(".jsonl"))
        .take(4)
        .collect();
    assert_eq!(
        order,
        ["w.jsonl", "x.jsonl", "y.jsonl", "z.jsonl"],
        "{text}"
    );
    assert!(text.contains("0.9000"), "{text}");

    let csv = stdout(&scorelens(&[
        "leaderboard",
        d,
        "--bootstrap",
        "300",
        "--format",
        "csv",
    ]));
    assert!(csv.starts_with("# Ranked by metrics.accuracy"), "{csv}");
    // w differs from every other run and is better: tied rank 1 too.
    assert!(csv.contains("\n1,1,w.jsonl,0.9,"), "{csv}");
    assert!(csv.contains("# Pairs on metrics.accuracy"), "{csv}");
    let md = stdout(&scorelens(&[
        "leaderboard",
        d,
        "--bootstrap",
        "300",
        "--format",
        "markdown",
    ]));
    assert!(md.contains("| rank | tied rank | run | value |"), "{md}");

    let by = scorelens(&[
        "leaderboard",
        d,
        "--bootstrap",
        "300",
        "--by",
        "subsets.g2.accuracy",
    ]);
    assert!(by.status.success());
    assert!(stdout(&by).contains("Ranked by subsets.g2.accuracy"));
}

#[test]
fn the_json_equals_the_librarys_single_threaded_leaderboard() {
    let dir = four_runs("json");
    let d = dir.to_str().unwrap();
    let out = scorelens(&[
        "leaderboard",
        d,
        "--bootstrap",
        "400",
        "--seed",
        "12",
        "--json",
    ]);
    assert!(out.status.success());
    let mut runs = Vec::new();
    for name in ["w.jsonl", "x.jsonl", "y.jsonl", "z.jsonl"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let path = dir.join(name).display().to_string();
        let input = Input {
            name: &path,
            bytes: &bytes,
        };
        runs.push(score_run(name, [input], &Options::default()).unwrap());
    }
    let l = leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 400,
            seed: 12,
        },
    );
    assert_eq!(stdout(&out), l.to_json() + "\n");
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["schema"], "scorelens.leaderboard/1");
    assert_eq!(v["figures"][0]["standings"][0]["run"], "w.jsonl");
}

#[test]
fn files_and_folders_mix_and_a_bad_run_is_left_out_with_a_note() {
    let dir = four_runs("mix");
    let extra = folder("mix-extra");
    let solo = extra.join("solo.jsonl");
    std::fs::write(&solo, run_text(|i| i < 30)).unwrap();
    std::fs::write(dir.join("broken.jsonl"), "{\"id\": \"q1\", \"gold\": \n").unwrap();
    let out = scorelens(&[
        "leaderboard",
        dir.to_str().unwrap(),
        solo.to_str().unwrap(),
        "--bootstrap",
        "200",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("5 runs"), "{text}");
    assert!(text.contains("note: broken.jsonl is not ranked"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.jsonl: not ranked"));
}

#[test]
fn what_cannot_be_ranked_is_a_clear_error() {
    let dir = four_runs("errors");
    let d = dir.to_str().unwrap();
    let by = scorelens(&[
        "leaderboard",
        d,
        "--bootstrap",
        "50",
        "--by",
        "metrics.nothing",
    ]);
    assert_eq!(by.status.code(), Some(2));
    let err = String::from_utf8_lossy(&by.stderr);
    assert!(
        err.contains("no figure `metrics.nothing`") && err.contains("metrics.accuracy"),
        "{err}"
    );

    let one = dir.join("w.jsonl");
    let alone = scorelens(&["leaderboard", one.to_str().unwrap()]);
    assert_eq!(alone.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&alone.stderr).contains("needs two runs or more"));

    let missing = scorelens(&["leaderboard", d, "/no/such/file.jsonl"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/no/such/file.jsonl"));

    let twice = scorelens(&["leaderboard", d, d]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("is given twice; give each file once"));

    let apart = folder("errors-apart");
    std::fs::write(apart.join("a.jsonl"), run_text(|_| true)).unwrap();
    let other = run_text(|_| true).replace("\"id\": \"q", "\"id\": \"other");
    std::fs::write(apart.join("b.jsonl"), other).unwrap();
    let disjoint = scorelens(&["leaderboard", apart.to_str().unwrap()]);
    assert_eq!(disjoint.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&disjoint.stderr).contains("share no item id"));

    let profile = scorelens(&["leaderboard", d, "--profile", "nope"]);
    assert_eq!(profile.status.code(), Some(2));
}

#[test]
fn by_ranks_that_figure_only_unless_all_is_asked() {
    let dir = four_runs("by-all");
    let d = dir.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["leaderboard", d, "--bootstrap", "64", "--json"];
        args.extend_from_slice(extra);
        let out = scorelens(&args);
        assert!(out.status.success(), "{extra:?}");
        serde_json::from_str::<serde_json::Value>(&stdout(&out)).unwrap()
    };
    let full = run(&[]);
    let only = run(&["--by", "metrics.accuracy"]);
    let all = run(&["--by", "metrics.accuracy", "--all"]);
    assert_eq!(all, full, "--all ranks everything, as no --by does");
    assert_eq!(only["figures"].as_array().unwrap().len(), 1);
    assert_eq!(only["subsets"].as_array().unwrap().len(), 0);
    assert_eq!(only["figures"][0], full["figures"][0]);
}
