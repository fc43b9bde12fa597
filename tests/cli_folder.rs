//! `scorelens score` on folders and several files: runs found by what the files say, each scored
//! on its own with the report it gets alone, a summary that names what could not be scored, files
//! no reader claims noted once, and a folder of one run printed as that run's report.

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

/// `n` items of a scorelens file whose header names `model`.
fn with_model(model: &str, prefix: &str, n: usize) -> String {
    format!(
        "{{\"scorelens\": 1, \"model\": \"{model}\"}}\n{}",
        items(prefix, n)
    )
}

fn score_alone(files: &[PathBuf]) -> serde_json::Value {
    let mut args = vec!["score".to_string()];
    args.extend(files.iter().map(|f| f.to_str().unwrap().to_string()));
    args.push("--json".to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    json(&scorelens(&args))
}

#[test]
fn each_run_gets_the_report_it_gets_alone() {
    let dir = folder("alone");
    write(&dir.join("b.jsonl"), &items("b", 4));
    write(&dir.join("a.jsonl"), &items("a", 3));
    // Two files whose headers name one model are one run: ids are unique across them.
    write(&dir.join("c/one.jsonl"), &with_model("c-model", "c1-", 2));
    write(&dir.join("c/two.jsonl"), &with_model("c-model", "c2-", 2));
    write(&dir.join(".hidden.jsonl"), &items("h", 1));
    let out = scorelens(&["score", dir.to_str().unwrap(), "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("3 runs: a.jsonl, 1 file; b.jsonl, 1 file; c-model, 2 files"),
        "{stderr}"
    );
    let doc = json(&out);
    let runs = doc["runs"].as_array().unwrap();
    let names: Vec<&str> = runs.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["a.jsonl", "b.jsonl", "c-model"],
        "hidden files skipped"
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
        assert_eq!(run["report"], score_alone(&files), "{}", run["name"]);
    }
}

#[test]
fn a_folder_of_one_run_prints_that_runs_report() {
    // A HELM run folder and one model's lm-eval folder, as the tools wrote them: `score DIR`
    // prints exactly what naming the files one by one prints.
    for dir in [
        "tests/fixtures/helm/joint",
        "tests/fixtures/lm_eval/output_folder/model-a",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let out = scorelens(&["score", dir, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{dir}");
        let whole = json(&out);
        assert!(whole.get("runs").is_none(), "{dir}: one report, not a list");
        let alone = score_alone(&files);
        // The files are named as walked (`joint/…`) rather than as given; the rest is the same.
        let rename = |v: &serde_json::Value| {
            let mut t = v.to_string();
            for f in &files {
                let given = f.to_str().unwrap();
                let walked = format!(
                    "{}/{}",
                    Path::new(dir).file_name().unwrap().to_str().unwrap(),
                    f.file_name().unwrap().to_str().unwrap()
                );
                t = t.replace(&walked, given);
            }
            t
        };
        assert_eq!(rename(&whole), rename(&alone), "{dir}");
    }
}

#[test]
fn the_summary_names_runs_that_could_not_be_scored() {
    let dir = folder("summary");
    write(&dir.join("good.jsonl"), &items("g", 2));
    // Claimed by the canonical reader, but no line can be scored (no options).
    write(&dir.join("bad.jsonl"), "{\"id\": \"x\", \"gold\": \"A\"}\n");
    write(&dir.join("notes.txt"), "nothing to score here\n");
    let out = scorelens(&["score", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "one run scored is enough");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("notes.txt")).collect();
    assert_eq!(notes.len(), 1, "noted once: {stderr}");
    assert!(
        notes[0].starts_with("note: ")
            && notes[0].ends_with(
                "notes.txt: not read: not a file scorelens reads: text that is neither JSON nor a table: drop the results file the evaluation wrote"
            ),
        "{}",
        notes[0]
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("== good.jsonl =="), "{text}");
    assert!(text.contains("Summary: 2 runs, 1 scored"), "{text}");
    let summary = &text[text.find("Summary").unwrap()..];
    let good = summary.lines().find(|l| l.contains("good.jsonl")).unwrap();
    assert!(good.contains("scorelens") && good.contains("0.5000") && good.contains("scored"));
    let bad = summary.lines().find(|l| l.contains("bad.jsonl")).unwrap();
    assert!(bad.contains("not scored: no item could be scored"), "{bad}");

    // Under --strict the failed run makes the exit code 1; the good one is still reported.
    let out = scorelens(&["score", dir.to_str().unwrap(), "--strict", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["runs"][1]["report"]["items"], 2);
}

#[test]
fn the_user_can_regroup() {
    let dir = folder("regroup");
    write(&dir.join("x.jsonl"), &with_model("m", "x", 2));
    write(&dir.join("y.jsonl"), &with_model("m", "y", 3));
    let d = dir.to_str().unwrap();
    // Found: one model, one run.
    assert_eq!(json(&scorelens(&["score", d, "--json"]))["items"], 5);
    let each = json(&scorelens(&["score", d, "--json", "--runs-per-file"]));
    let counts: Vec<u64> = each["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["report"]["items"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [2, 3]);
    // Files named one by one, two header-less runs, read as one with --one-run.
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    write(&a, &items("a", 2));
    write(&b, &items("b", 2));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let two = json(&scorelens(&["score", a, b, "--json"]));
    assert_eq!(two["runs"].as_array().unwrap().len(), 2);
    let one = json(&scorelens(&["score", a, b, "--json", "--one-run"]));
    assert_eq!(one["items"], 4);
}

#[test]
fn csv_and_markdown_summaries() {
    let dir = folder("layouts");
    write(&dir.join("x.jsonl"), &items("x", 2));
    write(&dir.join("y.jsonl"), &items("y", 2));
    let out = scorelens(&["score", dir.to_str().unwrap(), "--format", "csv"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("# Summary: 2 runs, 2 scored"), "{text}");
    assert!(text.contains("\nx.jsonl,scorelens,generic,2,0,"), "{text}");
    let out = scorelens(&["score", dir.to_str().unwrap(), "--format", "markdown"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("## x.jsonl") && text.contains("| x.jsonl | scorelens | generic | 2 |"));
}

#[test]
fn usage_errors() {
    let dir = folder("usage");
    write(&dir.join("x.jsonl"), &items("x", 2));
    let d = dir.to_str().unwrap();
    let out = scorelens(&["score", d, "--one-run", "--runs-per-file"]);
    assert_eq!(out.status.code(), Some(2), "two groupings at once");
    let out = scorelens(&["score", d, "--profile", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown profile"));
    let empty = folder("empty");
    assert_eq!(
        scorelens(&["score", empty.to_str().unwrap()]).status.code(),
        Some(1)
    );
    let missing = dir.join("missing.jsonl");
    let out = scorelens(&["score", d, missing.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a wrong path stops before any file is read"
    );
}

#[test]
fn compare_takes_an_output_folder_of_two_models() {
    let out = scorelens(&[
        "compare",
        "tests/fixtures/lm_eval/output_folder",
        "--json",
        "--bootstrap",
        "200",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c = json(&out);
    let names: Vec<&str> = c["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["model-a", "model-b"]);
    // One folder of one run is no comparison.
    let out = scorelens(&["compare", "tests/fixtures/helm/joint"]);
    assert_eq!(out.status.code(), Some(2));
}
