//! `scorelens score DIR`: every run in a folder scored on its own, in parallel, one report each
//! and a summary table (leaderboard maintainers score thousands of files).
//!
//! A file directly in the folder is one run. A subfolder is one run made of all its files, read
//! together as `scorelens score A B ...` reads them: a HELM run folder or an lm-eval output folder
//! holds files that belong together. Names starting with `.` are skipped. Runs are scored on
//! rayon's thread pool and listed in name order whatever order they finish in.

use super::tables;
use super::{compare, Layout, INPUT_ERROR, OK, SHOWN_WARNINGS, USAGE};
use rayon::prelude::*;
use scorelens::table::{self, Table};
use scorelens::{BootstrapOptions, Error, Input, Options, Report, Session};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One run of the folder: its name and the files it reads.
pub(super) struct Run {
    pub(super) name: String,
    pub(super) files: Vec<PathBuf>,
}

/// What scoring one run gave.
struct Outcome {
    name: String,
    result: Result<Report, String>,
}

/// Scores every run in `dir` and prints the reports and the summary; returns the exit code.
pub fn run(
    dir: &Path,
    opts: &Options,
    boot: Option<BootstrapOptions>,
    json: bool,
    layout: Layout,
) -> i32 {
    // An unknown profile is a usage error once, not one error per file.
    if let Err(e) = Session::new(opts) {
        eprintln!("scorelens: {e}");
        return USAGE;
    }
    let runs = match runs(dir) {
        Ok(r) if r.is_empty() => {
            eprintln!("scorelens: {}: the folder holds no file", dir.display());
            return INPUT_ERROR;
        }
        Ok(r) => r,
        Err(e) => {
            eprintln!("scorelens: {}: {e}", dir.display());
            return USAGE;
        }
    };
    let outcomes: Vec<Outcome> = runs.par_iter().map(|r| score_run(r, opts, boot)).collect();
    print_warnings(&outcomes);
    let text = if json {
        json_text(&outcomes)
    } else {
        report_text(&outcomes, layout)
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
    let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
    if failed == outcomes.len() || (opts.strict && failed > 0) {
        INPUT_ERROR
    } else {
        OK
    }
}

/// The folder's runs in name order.
pub(super) fn runs(dir: &Path) -> std::io::Result<Vec<Run>> {
    let mut runs = Vec::new();
    for (name, path) in entries(dir)? {
        if path.is_dir() {
            let mut files = Vec::new();
            collect_files(&path, &mut files)?;
            if !files.is_empty() {
                runs.push(Run { name, files });
            }
        } else {
            runs.push(Run {
                name,
                files: vec![path],
            });
        }
    }
    Ok(runs)
}

/// Visible entries of a folder, sorted by name.
fn entries(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            out.push((name, entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// Every file under `dir`, depth first in name order.
fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for (_, path) in entries(dir)? {
        if path.is_dir() {
            collect_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn score_run(run: &Run, opts: &Options, boot: Option<BootstrapOptions>) -> Outcome {
    let mut contents = Vec::with_capacity(run.files.len());
    for path in &run.files {
        match std::fs::read(path) {
            Ok(bytes) => contents.push((path.display().to_string(), bytes)),
            Err(e) => {
                return Outcome {
                    name: run.name.clone(),
                    result: Err(format!("{}: {e}", path.display())),
                }
            }
        }
    }
    let inputs: Vec<Input> = contents
        .iter()
        .map(|(name, bytes)| Input { name, bytes })
        .collect();
    let result = compare::score(&inputs, opts, boot).map_err(|e| match e {
        Error::NoItems(_) => "no item could be scored".to_string(),
        other => other.to_string(),
    });
    Outcome {
        name: run.name.clone(),
        result,
    }
}

fn print_warnings(outcomes: &[Outcome]) {
    let mut shown = 0;
    let mut more = 0;
    for o in outcomes {
        let warnings = o.result.as_ref().map(|r| r.warnings.as_slice());
        for w in warnings.unwrap_or_default() {
            if shown < SHOWN_WARNINGS {
                eprintln!("warning: {w}");
                shown += 1;
            } else {
                more += 1;
            }
        }
    }
    if more > 0 {
        eprintln!("warning: {more} more warnings; see the JSON reports (--json)");
    }
}

/// Each run's report under its name, then the summary.
fn report_text(outcomes: &[Outcome], layout: Layout) -> String {
    let mut out = String::new();
    for o in outcomes {
        match (&o.result, layout) {
            (Ok(r), Layout::Table) => {
                out += &format!("== {} ==\n", o.name);
                out += &tables::text(r, &tables::tables(r));
                out.push('\n');
            }
            (Ok(r), Layout::Csv) => {
                out += &format!("# == {} ==\n", o.name);
                out += &table::csv(&tables::tables(r));
            }
            (Ok(r), Layout::Markdown) => {
                out += &format!("## {}\n\n", o.name);
                out += &table::markdown(&tables::tables(r));
            }
            (Err(e), Layout::Csv) => out += &format!("# == {} ==\n# not scored: {e}\n\n", o.name),
            (Err(e), Layout::Markdown) => out += &format!("## {}\n\nNot scored: {e}\n\n", o.name),
            (Err(e), Layout::Table) => out += &format!("== {} ==\nnot scored: {e}\n\n", o.name),
        }
    }
    let summary = [summary(outcomes)];
    out += &match layout {
        Layout::Table => tables::layout(&summary),
        Layout::Csv => table::csv(&summary),
        Layout::Markdown => table::markdown(&summary),
    };
    out
}

/// One row per run: what was read and the headline figures.
fn summary(outcomes: &[Outcome]) -> Table {
    let cell = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.4}"));
    let columns = [
        "run",
        "format",
        "profile",
        "items",
        "skipped",
        "warnings",
        "accuracy",
        "normalized",
        "ece",
        "ece_em",
        "brier",
        "status",
    ];
    let rows = outcomes
        .iter()
        .map(|o| match &o.result {
            Ok(r) => {
                let mut formats: Vec<&str> = r.files.iter().map(|f| f.format.as_str()).collect();
                formats.dedup();
                vec![
                    o.name.clone(),
                    formats.join("+"),
                    r.profile.clone(),
                    r.items.to_string(),
                    r.skipped.to_string(),
                    r.warnings.len().to_string(),
                    cell(r.metrics.accuracy),
                    cell(r.metrics.normalized),
                    cell(r.conditioning.ece),
                    cell(r.conditioning.ece_em),
                    cell(r.conditioning.brier),
                    "scored".to_string(),
                ]
            }
            Err(e) => {
                let mut row = vec![o.name.clone()];
                row.extend(std::iter::repeat_n("-".to_string(), columns.len() - 2));
                row.push(format!("not scored: {e}"));
                row
            }
        })
        .collect();
    Table::text(
        format!(
            "Summary: {} runs, {} scored (calibration under conditioning)",
            outcomes.len(),
            outcomes.iter().filter(|o| o.result.is_ok()).count()
        ),
        columns.iter().map(|c| c.to_string()).collect(),
        rows,
    )
}

/// `{"runs": [{"name": ..., "report": {...}} or {"name": ..., "error": "..."}]}`.
fn json_text(outcomes: &[Outcome]) -> String {
    let runs: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| match &o.result {
            Ok(r) => serde_json::json!({ "name": o.name, "report": r }),
            Err(e) => serde_json::json!({ "name": o.name, "error": e }),
        })
        .collect();
    let doc = serde_json::json!({ "runs": runs });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}
