//! The command lines of README.md and docs/*.md run, as written, from the repository root: they are
//! what a new user types first, so a renamed sample, a dropped flag or a `cargo run` that cannot
//! pick its binary must fail here rather than on their machine.
//!
//! What is run, and how:
//! - every line of a ```sh, ```bash or ```shell block that starts with `cargo run`, `scorelens` or
//!   `make`; a trailing `# comment` is dropped, and a line ending in `\` goes on on the next one;
//! - `cargo run …` runs literally, with the cargo that runs this test and no substitution of the
//!   prefix. The first such line builds the release CLI, as it would for a new user (minutes
//!   from scratch, and again after a change to the sources, because of LTO); the others find it
//!   fresh and cost cargo's check, a fraction of a second each. That is what proves that
//!   `cargo run` picks the CLI (`default-run` in Cargo.toml) beside the browser's bins;
//! - `scorelens …` runs the CLI that cargo built for this test (the binary `cargo install --path .`
//!   would put on PATH), so that no doc line needs an installed copy;
//! - `make TARGET` runs, unless TARGET is in [`SKIPPED_MAKE`], which says why it is not;
//! - a file name the docs use for "your file" (`results.jsonl`, `runs/`, …) is replaced by the
//!   sample [`PLACEHOLDERS`] gives for it; every other argument that looks like a file must exist.
//!
//! A line passes when it exits 0 (or the code its comment announces, as in `# exits 1`), prints
//! something on stdout, and prints nothing but JSON there when it asks for `--json`.

mod doc_lines;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use doc_lines::{command_lines, looks_like_file, DocLine};

/// The names the docs use for the reader's own files, and the sample each stands for here. The
/// one place that ties the docs' examples to www/samples/: renaming a sample breaks this test,
/// never the docs. An entry no doc line uses any more fails the test, so the table stays true.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("results.jsonl", "www/samples/choice.jsonl"),
    // The same sample gzipped (`gzip -9 -n`), as a user's compressed results.
    (
        "results.jsonl.gz",
        "tests/fixtures/compressed/choice.jsonl.gz",
    ),
    // One run split across two files, under the STEER profile: choices and consistency pairs.
    ("a.jsonl", "www/samples/choice.jsonl"),
    ("b.jsonl", "www/samples/consistency.jsonl"),
    // A folder of runs, one model per file.
    ("runs/", "www/samples/compare/"),
    ("model-a.jsonl", "www/samples/compare/model-a.jsonl"),
    ("model-b.jsonl", "www/samples/compare/model-b.jsonl"),
];

/// `make` targets that this test does not run, and why. Every other target a doc names is run.
const SKIPPED_MAKE: &[(&str, &str)] = &[
    ("serve", "serves until stopped; `make test` builds and serves the same site for its browser tests"),
    ("test", "it runs this very test"),
    ("bench", "minutes of benchmarks, and it rewrites docs/performance.md"),
    ("bench-reference", "minutes: a Python venv from PyPI and five timed runs on 1M items"),
    ("bench-browser", "minutes: 100 MB and 1 GB files in Chromium; it rewrites docs/performance.md"),
    ("fuzz", "ten minutes and more: every fuzz target for SECONDS each, with the sanitizer build; docs/reliability.md records its rounds"),
    ("dist", "the pinned wasm toolchain; `make test` builds and checks the same package (scripts/wasm_test.sh, tests/e2e/embed_package.test.mjs)"),
];

/// README.md, then every page of docs/ in name order.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("read docs/")
        .map(|entry| entry.expect("read docs/").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    docs
}

/// The argument with a placeholder replaced by its sample; an error when a file it names is
/// missing.
fn resolve(root: &Path, arg: &str, used: &mut BTreeSet<&'static str>) -> Result<String, String> {
    if !looks_like_file(arg) {
        return Ok(arg.to_string());
    }
    if let Some((name, sample)) = PLACEHOLDERS.iter().find(|(name, _)| *name == arg) {
        used.insert(name);
        return if root.join(sample).exists() {
            Ok(sample.to_string())
        } else {
            Err(format!(
                "`{arg}` stands for {sample} (PLACEHOLDERS in tests/readme_commands.rs), which does not exist"
            ))
        };
    }
    if root.join(arg).exists() {
        Ok(arg.to_string())
    } else {
        Err(format!(
            "`{arg}` is not in the repository, and PLACEHOLDERS in tests/readme_commands.rs gives no sample for it"
        ))
    }
}

/// The targets a Makefile defines.
fn make_targets(root: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(root.join("Makefile")).expect("read Makefile");
    text.lines()
        .filter(|line| !line.starts_with(['\t', '#', '.', ' ']))
        .filter_map(|line| {
            line.split_once(':')
                .map(|(target, _)| target.trim().to_string())
        })
        .collect()
}

/// How a doc line is run here, or why it is skipped.
enum Plan {
    Run(Command),
    Skip(&'static str),
}

fn plan(root: &Path, line: &DocLine, used: &mut BTreeSet<&'static str>) -> Result<Plan, String> {
    let (program, args) = line.words.split_first().expect("a command line has a word");
    let mut command = match program.as_str() {
        "cargo" => {
            // The cargo that runs this test, so that the toolchain is the same; its options before
            // `--` are cargo's, the arguments after it the CLI's.
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let mut command = Command::new(cargo);
            let split = args
                .iter()
                .position(|a| a == "--")
                .map_or(args.len(), |i| i + 1);
            command.args(&args[..split]);
            for arg in &args[split..] {
                command.arg(resolve(root, arg, used)?);
            }
            command
        }
        "scorelens" => {
            let mut command = Command::new(env!("CARGO_BIN_EXE_scorelens"));
            for arg in args {
                command.arg(resolve(root, arg, used)?);
            }
            command
        }
        "make" => {
            let targets = make_targets(root);
            for target in args
                .iter()
                .filter(|a| !a.starts_with('-') && !a.contains('='))
            {
                if !targets.contains(target) {
                    return Err(format!("the Makefile has no target `{target}`"));
                }
                if let Some((_, why)) = SKIPPED_MAKE.iter().find(|(name, _)| name == target) {
                    return Ok(Plan::Skip(why));
                }
            }
            let mut command = Command::new("make");
            command.args(args);
            command
        }
        other => unreachable!("is_command let `{other}` through"),
    };
    command.current_dir(root);
    Ok(Plan::Run(command))
}

/// Runs one line; an error says what went wrong, with the line's output.
fn check(line: &DocLine, mut command: Command) -> Result<(), String> {
    let output = command
        .output()
        .map_err(|e| format!("could not start {command:?}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let tail = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        match lines.len() {
            0 => "(nothing)".to_string(),
            n => lines[n.saturating_sub(15)..].join("\n    "),
        }
    };
    let problem = match output.status.code() {
        Some(code) if code != line.exit => {
            Some(format!("exit code {code}, expected {}", line.exit))
        }
        None => Some(format!("killed ({})", output.status)),
        Some(0) if stdout.trim().is_empty() => Some("printed nothing on stdout".to_string()),
        Some(0) if line.words.iter().any(|w| w == "--json") => {
            serde_json::from_str::<serde_json::Value>(&stdout)
                .err()
                .map(|e| format!("asks for --json, but stdout is not JSON ({e})"))
        }
        _ => None,
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(format!(
            "{problem}\n  ran: {command:?}\n  stderr (last lines):\n    {}\n  stdout (last lines):\n    {}",
            tail(&stderr),
            tail(&stdout)
        )),
    }
}

#[test]
fn every_doc_command_line_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lines = Vec::new();
    for doc in documents(root) {
        let name = doc.strip_prefix(root).unwrap_or(&doc).display().to_string();
        let text = std::fs::read_to_string(&doc).unwrap_or_else(|e| panic!("read {name}: {e}"));
        let found = command_lines(&name, &text);
        println!(
            "{name}: {} command line(s) in its shell blocks",
            found.len()
        );
        lines.extend(found);
    }
    assert!(
        lines
            .iter()
            .flatten()
            .any(|line| line.place.starts_with("README.md:") && line.words[0] == "cargo"),
        "README.md has no `cargo run` line in a sh block: this test would prove nothing"
    );

    let mut failures = Vec::new();
    let mut used = BTreeSet::new();
    let (mut ran, mut skipped) = (0, 0);
    for line in lines {
        let line = match line {
            Ok(line) => line,
            Err(problem) => {
                failures.push(problem);
                continue;
            }
        };
        let started = Instant::now();
        let outcome = plan(root, &line, &mut used).and_then(|plan| match plan {
            Plan::Run(command) => {
                ran += 1;
                check(&line, command).map(|()| "ok".to_string())
            }
            Plan::Skip(why) => {
                skipped += 1;
                Ok(format!("skipped: {why}"))
            }
        });
        let seconds = started.elapsed().as_secs_f64();
        match outcome {
            Ok(said) => println!("{}: `{}`: {said} ({seconds:.1} s)", line.place, line.text),
            Err(problem) => failures.push(format!("{}: `{}`: {problem}", line.place, line.text)),
        }
    }
    for (name, sample) in PLACEHOLDERS {
        if !used.contains(name) {
            failures.push(format!(
                "PLACEHOLDERS gives `{name}` -> {sample}, but no doc command line names `{name}`: remove the entry"
            ));
        }
    }
    println!("{ran} doc command lines ran, {skipped} skipped");
    assert!(
        failures.is_empty(),
        "{} doc command line(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
