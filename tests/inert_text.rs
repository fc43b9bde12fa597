//! Hostile names (control characters, bidirectional overrides, formula starts, Markdown and HTML
//! syntax) through every layout of `score`, `compare` and `leaderboard`, run by the real binary:
//! nothing that acts on a terminal reaches aligned text, Markdown or stderr, every CSV cell and
//! title opens as text, and HTML and JSON keep the names as data.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Group names: each carries something that must not act.
const GROUPS: [&str; 7] = [
    "\u{1b}[2J\u{1b}]52;c;aGk=\u{7}",
    "=HYPERLINK(\"http://x\",\"y\")",
    "+1+2\nnext line",
    "-cmd|calc",
    "@SUM(A1)\u{202E}txt.exe\u{2066}",
    "<script>alert(1)</script>\u{9b}31m\r",
    "tab\there\u{200F}\u{61C}\u{7f}\u{85}",
];

/// Run names (the header's `model`), one a file.
const MODELS: [&str; 3] = [
    "=run,a\u{1b}[31m",
    "<script>x</script>\u{7}",
    "\u{202E}+r\nb|c",
];

fn scorelens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A folder of three runs of 28 items (four per group) and one line whose gold is not an option.
fn corpus(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scorelens-inert-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (r, model) in MODELS.iter().enumerate() {
        let header = serde_json::json!({"scorelens": 1, "model": model, "benchmark": "generic"});
        let mut text = header.to_string() + "\n";
        for i in 0..28 {
            let right = (i + r) % 3 != 0;
            let item = serde_json::json!({
                "id": format!("q{i}"),
                "options": ["A", "B"],
                "gold": "A",
                "answer": if right { "A" } else { "B" },
                "probs": {"A": if right { 0.8 } else { 0.3 }, "B": if right { 0.2 } else { 0.7 }},
                "group": GROUPS[i % GROUPS.len()],
            });
            text += &(item.to_string() + "\n");
        }
        text +=
            r#"{"id": "bad", "options": ["A", "B"], "gold": "Z\u001b[1m\u202e", "answer": "A"}"#;
        text.push('\n');
        std::fs::write(dir.join(format!("run{r}.jsonl")), text).unwrap();
    }
    dir
}

/// Characters that act on a terminal or reorder text: C0 but the line feed, DEL, C1, bidi.
fn acting(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c < ' ' && c != '\n')
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || matches!(c, '\u{200E}' | '\u{200F}' | '\u{61C}')
                || ('\u{202A}'..='\u{202E}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
        })
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The three commands on the corpus, with the layout's arguments.
fn runs(dir: &Path, layout: &[&str]) -> Vec<(&'static str, Output)> {
    let files: Vec<String> = (0..3)
        .map(|r| path(&dir.join(format!("run{r}.jsonl"))).to_string())
        .collect();
    let mut score = vec!["score", files[0].as_str()];
    score.extend(layout);
    let mut compare = vec!["compare", path(dir), "--bootstrap", "40"];
    compare.extend(layout);
    let mut board = vec![
        "leaderboard",
        path(dir),
        "--bootstrap",
        "40",
        "--subsets",
        "all",
    ];
    board.extend(layout);
    vec![
        ("score", scorelens(&score)),
        ("compare", scorelens(&compare)),
        ("leaderboard", scorelens(&board)),
    ]
}

#[test]
fn aligned_text_markdown_and_stderr_show_escapes() {
    let dir = corpus("text");
    for layout in [["--format", "table"], ["--format", "markdown"]] {
        for (command, out) in runs(&dir, &layout) {
            assert!(out.status.success(), "{command} {layout:?}: {out:?}");
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            assert_eq!(
                acting(&stdout),
                [],
                "{command} {layout:?} stdout:\n{stdout}"
            );
            assert_eq!(
                acting(&stderr),
                [],
                "{command} {layout:?} stderr:\n{stderr}"
            );
            // The ESC group is named, visibly, where its figures are (a comparison has no
            // groups, only runs).
            let shown = match command {
                "compare" => "=run,a\\u{1b}[31m",
                _ => "\\u{1b}[2J\\u{1b}]52;c;aGk=\\u{7}",
            };
            assert!(stdout.contains(shown), "{command} {layout:?}:\n{stdout}");
            // The bidi override in a run's name is shown, never obeyed.
            assert!(
                stdout.contains("\\u{202e}"),
                "{command} {layout:?}:\n{stdout}"
            );
        }
    }
    let out = scorelens(&["score", path(&dir.join("run0.jsonl"))]);
    let stderr = text(&out.stderr);
    let file = dir.join("run0.jsonl");
    assert_eq!(
        stderr,
        format!(
            "warning: {}:30: gold `Z\\u{{1b}}[1m\\u{{202e}}` is not among the options\n",
            file.display()
        )
    );
    let stdout = text(&out.stdout);
    // One cell a line: the line feed in a group name is an escape, not a new row.
    assert!(stdout.contains("  +1+2\\u{a}next line  "), "{stdout}");
    assert!(
        stdout.contains("model =run,a\\u{1b}[31m · 28 items scored, 1 skipped"),
        "{stdout}"
    );
    let md = text(&scorelens(&["score", path(&file), "--format", "markdown"]).stdout);
    assert!(
        md.contains("| &lt;script&gt;alert(1)&lt;/script&gt;\\u{9b}31m  |"),
        "{md}"
    );
    assert!(md.contains("| -cmd\\|calc |"), "{md}");
    assert!(
        md.contains("| tab\\u{9}here\\u{200f}\\u{61c}\\u{7f}\\u{85} |"),
        "{md}"
    );
    // compare and leaderboard name each run once a line, on stderr, with its warning count.
    let compare = runs(&dir, &["--format", "table"]).remove(1).1;
    assert!(
        text(&compare.stderr).contains("warning: \\u{202e}+r\\u{a}b|c: 1 warnings;"),
        "{}",
        text(&compare.stderr)
    );
}

/// Every cell of a CSV text as a spreadsheet splits it.
fn cells(csv: &str) -> Vec<String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv.as_bytes());
    reader
        .records()
        .flat_map(|r| r.unwrap().iter().map(String::from).collect::<Vec<_>>())
        .collect()
}

#[test]
fn every_csv_cell_and_title_opens_as_text() {
    let dir = corpus("csv");
    for (command, out) in runs(&dir, &["--format", "csv"]) {
        assert!(out.status.success(), "{command}: {out:?}");
        let stdout = text(&out.stdout);
        let all = cells(&stdout);
        let risky: Vec<&String> = all
            .iter()
            .filter(|c| c.len() > 1 && c.starts_with(['=', '+', '-', '@', '\t', '\r']))
            .filter(|c| c.parse::<f64>().is_err())
            .collect();
        assert_eq!(risky, Vec::<&String>::new(), "{command}:\n{stdout}");
        assert_eq!(acting(&text(&out.stderr)), [], "{command} stderr");
        // The report's formula group, the leaderboard's formula run, kept and guarded (a
        // comparison names its runs in titles only, below).
        let guarded = match command {
            "score" => "'=HYPERLINK(\"http://x\",\"y\")",
            "leaderboard" => "'=run,a\u{1b}[31m",
            _ => {
                "# McNemar's exact test on correctness: =run,a\u{1b}[31m vs <script>x</script>\u{7}"
            }
        };
        assert!(all.iter().any(|c| c == guarded), "{command}:\n{stdout}");
    }
    // A subset's board is titled with its group's name: the title is one cell starting with `#`.
    let by = format!("subsets.{}.accuracy", GROUPS[1]);
    let board = scorelens(&[
        "leaderboard",
        path(&dir),
        "--bootstrap",
        "40",
        "--by",
        &by,
        "--format",
        "csv",
    ]);
    let all = cells(&text(&board.stdout));
    let titled: Vec<&String> = all.iter().filter(|c| c.contains("=HYPERLINK")).collect();
    assert_eq!(
        titled,
        [
            "# Ranked by subsets.=HYPERLINK(\"http://x\",\"y\").accuracy (higher is better) on \
             28 shared items; tied rank: 1 + the runs that differ from it and are better",
            "subsets.=HYPERLINK(\"http://x\",\"y\").accuracy",
            "# Pairs on subsets.=HYPERLINK(\"http://x\",\"y\").accuracy: A - B with paired 95% \
             intervals, p-values Holm-adjusted over the pairs of every subset",
        ],
        "{all:?}"
    );
    let compare = runs(&dir, &["--format", "csv"]).remove(1).1;
    let all = cells(&text(&compare.stdout));
    assert!(
        all.iter()
            .any(|c| c.starts_with("# =run,a\u{1b}[31m (A) vs <script>x</script>\u{7} (B)")),
        "{all:?}"
    );
}

#[test]
fn html_escapes_markup_and_json_keeps_names_exactly() {
    let dir = corpus("html");
    for (command, out) in runs(&dir, &["--format", "html"]) {
        assert!(out.status.success(), "{command}: {out:?}");
        let html = text(&out.stdout);
        assert!(!html.contains("<script"), "{command}");
        assert!(html.contains("&lt;script&gt;"), "{command}");
        assert_eq!(acting(&text(&out.stderr)), [], "{command} stderr");
    }
    for (command, out) in runs(&dir, &["--json"]) {
        assert!(out.status.success(), "{command}: {out:?}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let json = doc.to_string();
        let names: &[&str] = match command {
            "compare" => &MODELS,
            _ => &GROUPS,
        };
        for &name in names {
            // As JSON writes the string, within a key such as `subsets.NAME.accuracy` or alone.
            let quoted = serde_json::Value::from(name).to_string();
            let inner = quoted.trim_start_matches('"').trim_end_matches('"');
            assert!(json.contains(inner), "{command}: {name:?}");
        }
        assert_eq!(acting(&text(&out.stderr)), [], "{command} stderr");
    }
}

#[test]
fn an_error_of_several_lines_keeps_its_lines_and_escapes_the_rest() {
    let dir = corpus("error");
    let file = dir.join("none.jsonl");
    let line = r#"{"id": "q1", "options": ["A", "B"], "gold": "Z\u001b]0;x\u0007", "answer": "A"}"#;
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let out = scorelens(&["score", path(&file)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "scorelens: no item could be scored\n  {}:1: gold `Z\\u{{1b}}]0;x\\u{{7}}` is not \
             among the options\n",
            file.display()
        )
    );
}
