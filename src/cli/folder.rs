//! `scorelens score` on several runs (a folder, or files that make more than one run): each run
//! scored on its own, in parallel, one report each and a summary table (leaderboard maintainers
//! score thousands of files). Runs are scored on rayon's thread pool and listed in the order
//! they were found, whatever order they finish in.

use super::found::Run;
use super::tables;
use super::{open, Layout, INPUT_ERROR, OK, SHOWN_WARNINGS};
use rayon::prelude::*;
use scorelens::inert::inert;
use scorelens::table::{self, Table};
use scorelens::{score_sources, Error, Options, Report};

/// What scoring one run gave.
struct Outcome {
    name: String,
    result: Result<Report, String>,
}

/// Scores every run and prints the reports and the summary; returns the exit code.
pub fn run(runs: &[Run], opts: &Options, json: bool, layout: Layout) -> i32 {
    let outcomes: Vec<Outcome> = runs.par_iter().map(|r| score(r, opts)).collect();
    print_warnings(&outcomes);
    let text = if json {
        json_text(&outcomes)
    } else {
        report_text(&outcomes, layout)
    };
    super::print(&text, json, layout);
    let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
    if failed == outcomes.len() || (opts.strict && failed > 0) {
        INPUT_ERROR
    } else {
        OK
    }
}

/// Scores one run; a run whose file does not open is not scored, and says why.
fn score(run: &Run, opts: &Options) -> Outcome {
    let result = open(&run.files).and_then(|sources| {
        score_sources(sources, &run.options(opts))
            .map(|f| f.report)
            .map_err(|e| match e {
                Error::NoItems(_) => "no item could be scored".to_string(),
                other => other.to_string(),
            })
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
                say!("warning: {w}");
                shown += 1;
            } else {
                more += 1;
            }
        }
    }
    if more > 0 {
        say!("warning: {more} more warnings; see the JSON reports (--json)");
    }
}

/// Each run's report under its name, then the summary.
fn report_text(outcomes: &[Outcome], layout: Layout) -> String {
    if let Layout::Html = layout {
        // One document: a summary row per scored run, then each report; failures on stderr.
        let scored: Vec<(&str, &Report)> = outcomes
            .iter()
            .filter_map(|o| Some((o.name.as_str(), o.result.as_ref().ok()?)))
            .collect();
        for o in outcomes {
            if let Err(e) = &o.result {
                say!("scorelens: {}: not scored: {e}", o.name);
            }
        }
        return scorelens::html::runs(&scored, None);
    }
    let mut out = String::new();
    for o in outcomes {
        match (&o.result, layout) {
            (Ok(r), Layout::Table | Layout::Html) => {
                out += &format!("== {} ==\n", inert(&o.name));
                out += &tables::text(r, &scorelens::layout::tables(r));
                out.push('\n');
            }
            (Ok(r), Layout::Csv) => {
                out += &table::csv::title_line(&format!("== {} ==", o.name));
                out += &table::csv(&scorelens::layout::tables(r));
            }
            (Ok(r), Layout::Markdown) => {
                out += &format!("## {}\n\n", table::markdown::cell(&o.name));
                out += &table::markdown(&scorelens::layout::tables(r));
            }
            (Err(e), Layout::Csv) => {
                out += &table::csv::title_line(&format!("== {} ==", o.name));
                out += &table::csv::title_line(&format!("not scored: {e}"));
                out.push('\n');
            }
            (Err(e), Layout::Markdown) => {
                let (name, e) = (table::markdown::cell(&o.name), table::markdown::cell(e));
                out += &format!("## {name}\n\nNot scored: {e}\n\n");
            }
            (Err(e), Layout::Table | Layout::Html) => {
                out += &format!("== {} ==\nnot scored: {}\n\n", inert(&o.name), inert(e))
            }
        }
    }
    let summary = [summary(outcomes)];
    out += &match layout {
        Layout::Table | Layout::Html => tables::layout(&summary),
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
