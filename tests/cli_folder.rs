//! `scorelens score DIR`: every run of a folder scored on its own, in name order, each report the
//! same as scoring that run alone, and a summary that names what could not be scored.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scorelens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scorelens-folder-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `n` choice items; item i is right when i is even.
fn items(prefix: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            let gold = if i % 2 == 0 { "A" } else { "B" };
            format!(
                "{{\"id\": \"{prefix}{i}\", \"options\": [\"A\", \"B\"], \"gold\": \"{gold}\", \"probs\": {{\"A\": 0.8, \"B\": 0.2}}}}\n"
            )
        })
        .collect()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn each_run_gets_the_report_it_gets_alone() {
    let dir = folder("alone");
    write(&dir.join("b.jsonl"), &items("b", 4));
    write(&dir.join("a.jsonl"), &items("a", 3));
    // A subfolder is one run of all its files: ids are unique across them, so 2 + 2 items.
    write(&dir.join("c/one.jsonl"), &items("c1-", 2));
    write(&dir.join("c/two.jsonl"), &items("c2-", 2));
    write(&dir.join(".hidden.jsonl"), &items("h", 1));
    let out = scorelens(&["score", dir.to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json(&out);
    let runs = doc["runs"].as_array().unwrap();
    let names: Vec<&str> = runs.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["a.jsonl", "b.jsonl", "c"],
        "name order, hidden files skipped"
    );
    let counts: Vec<u64> = runs
        .iter()
        .map(|r| r["report"]["items"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [3, 4, 4]);
    // a.jsonl: items 0 and 2 right out of 3.
    assert_eq!(runs[0]["report"]["metrics"]["accuracy"], 2.0 / 3.0);
    for (run, files) in [
        (&runs[0], vec![dir.join("a.jsonl")]),
        (&runs[1], vec![dir.join("b.jsonl")]),
        (
            &runs[2],
            vec![dir.join("c/one.jsonl"), dir.join("c/two.jsonl")],
        ),
    ] {
        let mut args = vec!["score".to_string()];
        args.extend(files.iter().map(|f| f.to_str().unwrap().to_string()));
        args.push("--json".to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let alone = json(&scorelens(&args));
        assert_eq!(run["report"], alone, "{}", run["name"]);
    }
}

#[test]
fn the_summary_names_runs_that_could_not_be_scored() {
    let dir = folder("summary");
    write(&dir.join("good.jsonl"), &items("g", 2));
    write(&dir.join("notes.txt"), "nothing to score here\n");
    let out = scorelens(&["score", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "one run scored is enough");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("== good.jsonl =="), "{text}");
    assert!(text.contains("Summary: 2 runs, 1 scored"), "{text}");
    let summary = &text[text.find("Summary").unwrap()..];
    let good = summary.lines().find(|l| l.contains("good.jsonl")).unwrap();
    assert!(good.contains("scorelens") && good.contains("0.5000") && good.contains("scored"));
    let bad = summary.lines().find(|l| l.contains("notes.txt")).unwrap();
    assert!(bad.contains("not scored: no item could be scored"), "{bad}");

    // Under --strict the failed run makes the exit code 1; the good one is still reported.
    let out = scorelens(&["score", dir.to_str().unwrap(), "--strict", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["runs"][0]["report"]["items"], 2);
}

#[test]
fn csv_and_markdown_summaries() {
    let dir = folder("layouts");
    write(&dir.join("x.jsonl"), &items("x", 2));
    let out = scorelens(&["score", dir.to_str().unwrap(), "--format", "csv"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("# Summary: 1 runs, 1 scored"), "{text}");
    assert!(text.contains("\nx.jsonl,scorelens,generic,2,0,"), "{text}");
    let out = scorelens(&["score", dir.to_str().unwrap(), "--format", "markdown"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("## x.jsonl") && text.contains("| x.jsonl | scorelens | generic | 2 |"));
}

#[test]
fn usage_errors() {
    let dir = folder("usage");
    write(&dir.join("x.jsonl"), &items("x", 2));
    let file = dir.join("x.jsonl");
    let out = scorelens(&["score", dir.to_str().unwrap(), file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "a folder goes alone");
    let out = scorelens(&["score", dir.to_str().unwrap(), "--profile", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown profile"));
    let empty = folder("empty");
    assert_eq!(
        scorelens(&["score", empty.to_str().unwrap()]).status.code(),
        Some(1)
    );
}
