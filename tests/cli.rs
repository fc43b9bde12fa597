//! The command line: exit codes, `--json` printing nothing but the report, and the layouts.

use std::io::Write;
use std::process::{Command, Output};

fn scorelens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("scorelens-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    path
}

const GOOD: &str = "{\"id\": 1, \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": 0.7, \"B\": 0.3}}\n{\"id\": 2, \"options\": [\"A\", \"B\"], \"gold\": \"B\", \"probs\": {\"A\": 0.6, \"B\": 0.4}}\n";

#[test]
fn json_prints_only_the_report() {
    let f = temp_file("good.jsonl", GOOD);
    let out = scorelens(&["score", f.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(report["schema"], "scorelens.report/1");
    assert_eq!(report["items"], 2);
    assert_eq!(report["metrics"]["accuracy"], 0.5);
    assert_eq!(report["conditioning"]["bins"].as_array().unwrap().len(), 10);
}

#[test]
fn table_csv_and_markdown_layouts() {
    let f = temp_file("layouts.jsonl", GOOD);
    let path = f.to_str().unwrap();
    let table = String::from_utf8(scorelens(&["score", path]).stdout).unwrap();
    assert!(
        table.contains("accuracy") && table.contains("0.5000"),
        "{table}"
    );
    let csv = String::from_utf8(scorelens(&["score", path, "--format", "csv"]).stdout).unwrap();
    // CSV is data for a spreadsheet: every figure with every digit, none padded to four decimals.
    assert!(csv.contains("\naccuracy,0.5,"), "{csv}");
    assert!(!csv.contains("0.5000"), "{csv}");
    let md = String::from_utf8(scorelens(&["score", path, "--format", "markdown"]).stdout).unwrap();
    assert!(md.contains("| accuracy | 0.5000 |"), "{md}");
}

#[test]
fn csv_cells_a_spreadsheet_would_run_open_as_text() {
    let f = temp_file(
        "csv-formula.jsonl",
        "{\"id\": 1, \"group\": \"=HYPERLINK(\\\"http://x\\\")\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"A\"}\n{\"id\": 2, \"group\": \"-0.5\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"B\"}\n",
    );
    let csv =
        String::from_utf8(scorelens(&["score", f.to_str().unwrap(), "--format", "csv"]).stdout)
            .unwrap();
    // The group's cell starts with a quote mark (and is CSV-quoted for its own quotes); a group
    // named as a number stays a number.
    assert!(
        csv.contains("\n\"'=HYPERLINK(\"\"http://x\"\")\",1,"),
        "{csv}"
    );
    assert!(csv.contains("\n-0.5,1,"), "{csv}");
    assert!(
        !csv.contains("\n\"=HYPERLINK") && !csv.contains("\n=HYPERLINK"),
        "{csv}"
    );
}

#[test]
fn markdown_shows_html_from_a_file_as_text() {
    let f = temp_file(
        "md-html.jsonl",
        "{\"id\": 1, \"group\": \"<img src=x onerror=alert(1)>|g\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": 0.7, \"B\": 0.3}}\n",
    );
    let md = String::from_utf8(
        scorelens(&["score", f.to_str().unwrap(), "--format", "markdown"]).stdout,
    )
    .unwrap();
    assert!(
        md.contains("&lt;img src=x onerror=alert(1)&gt;\\|g"),
        "{md}"
    );
    assert!(!md.contains("<img"), "{md}");
}

#[test]
fn exit_codes() {
    let good = temp_file("ok.jsonl", GOOD);
    let bad = temp_file(
        "bad.jsonl",
        &format!("{GOOD}{{\"id\": 3, \"options\": [\"A\"], \"gold\": \"A\"}}\n"),
    );
    let empty = temp_file("empty.jsonl", "{\"id\": 1, \"gold\": \"A\"}\n");
    let code = |args: &[&str]| scorelens(args).status.code();
    assert_eq!(
        code(&["score", bad.to_str().unwrap()]),
        Some(0),
        "warnings alone do not fail"
    );
    assert_eq!(code(&["score", bad.to_str().unwrap(), "--strict"]), Some(1));
    assert_eq!(code(&["score", empty.to_str().unwrap()]), Some(1));
    assert_eq!(
        code(&["score", good.to_str().unwrap(), "--profile", "nope"]),
        Some(2)
    );
    assert_eq!(code(&["score", "/no/such/file.jsonl"]), Some(2));
    assert_eq!(code(&["score"]), Some(2));
    assert_eq!(
        code(&["score", good.to_str().unwrap(), "--json", "--format", "csv"]),
        Some(2)
    );
    assert_eq!(code(&["profiles"]), Some(0));
}

#[test]
fn strict_error_names_file_and_line() {
    let bad = temp_file(
        "strict.jsonl",
        &format!("{GOOD}\n{{\"id\": 3, \"options\": [\"A\"], \"gold\": \"A\"}}\n"),
    );
    let out = scorelens(&["score", bad.to_str().unwrap(), "--strict"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("strict.jsonl:4: needs at least 2 options"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
