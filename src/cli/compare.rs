//! `scorelens compare A B [C...]`: each file scored as a run, the runs compared item by item, and
//! the comparison laid out as tables.

use super::found;
use super::tables;
use super::{Layout, INPUT_ERROR, OK, USAGE};
use scorelens::compare::{Comparison, Pair};
use scorelens::inert::inert;
use scorelens::runs::Grouping;
use scorelens::table::{self, Table};
use scorelens::{BootstrapOptions, Error, Options, Report, Run};
use std::path::PathBuf;

/// Runs `scorelens compare`: the files and folders grouped into runs, each run scored.
pub fn run(
    files: &[PathBuf],
    how: Grouping,
    opts: &Options,
    boot: BootstrapOptions,
    json: bool,
    layout: Layout,
) -> i32 {
    let mut gathered = match found::gather(files, how) {
        Ok(g) => g,
        Err(why) => {
            say!("scorelens: {why}");
            return USAGE;
        }
    };
    found::note_ignored(&gathered.ignored);
    // Files of one model (two configurations under one header name) are still two runs to
    // compare when the user named them one by one.
    let all_files = files.iter().all(|p| !found::is_folder(p));
    if gathered.runs.len() < 2 && all_files && files.len() >= 2 && how == Grouping::Found {
        match found::gather(files, Grouping::PerFile) {
            Ok(g) => gathered = g,
            Err(why) => {
                say!("scorelens: {why}");
                return USAGE;
            }
        }
    }
    if gathered.runs.len() < 2 {
        say!(
            "scorelens: compare needs two runs or more; found {}",
            gathered.summary
        );
        return USAGE;
    }
    if !all_files {
        say!("scorelens: {}", gathered.summary);
    }
    let mut runs: Vec<Run> = Vec::with_capacity(gathered.runs.len());
    for found in &gathered.runs {
        let name = &found.name;
        let sources = match super::open(&found.files) {
            Ok(s) => s,
            Err(e) => {
                say!("scorelens: {e}");
                return USAGE;
            }
        };
        match scorelens::score_run(name, sources, &found.options(opts)) {
            Ok(r) => {
                if !r.report.warnings.is_empty() {
                    say!(
                        "warning: {name}: {} warnings; `scorelens score` on its files lists them",
                        r.report.warnings.len()
                    );
                }
                runs.push(r);
            }
            Err(e @ (Error::UnknownProfile(_) | Error::Io { .. } | Error::TooBig { .. })) => {
                say!("scorelens: {e}");
                return USAGE;
            }
            Err(e) => {
                say_lines!("scorelens: {name}: {e}");
                return INPUT_ERROR;
            }
        }
    }
    let c = scorelens::compare(&runs, &boot);
    let text = if json {
        c.to_json() + "\n"
    } else {
        let t = comparison_tables(&c);
        match layout {
            Layout::Table => header(&c) + &tables::layout(&t) + &notes(&c),
            Layout::Csv => table::csv(&t),
            Layout::Markdown => table::markdown(&t),
            Layout::Html => {
                let named: Vec<(&str, &Report)> =
                    runs.iter().map(|r| (r.name.as_str(), &r.report)).collect();
                scorelens::html::runs(&named, Some(&c))
            }
        }
    };
    super::print(&text, json, layout);
    OK
}

fn header(c: &Comparison) -> String {
    let mut out = format!(
        "scorelens compare · {} runs · {} {} bootstrap resamples, seed {}, {:.0}% intervals\n",
        c.runs.len(),
        c.bootstrap.resamples,
        c.bootstrap.method,
        c.bootstrap.seed,
        c.bootstrap.level * 100.0
    );
    for r in &c.runs {
        out += &format!(
            "  {}: {}, profile {}, model {}\n",
            inert(&r.name),
            super::tables::items(r.items),
            inert(&r.profile),
            inert(r.model.as_deref().unwrap_or("(unnamed)"))
        );
    }
    out
}

fn notes(c: &Comparison) -> String {
    let say = |n: u64, run: &str| format!("{n} items are only in {run}");
    tables::missing_notes(&c.only_in, say, &c.notes)
}

/// Per pair: the deltas, then McNemar's table.
pub fn comparison_tables(c: &Comparison) -> Vec<Table> {
    c.pairs.iter().flat_map(pair_tables).collect()
}

fn pair_tables(p: &Pair) -> Vec<Table> {
    let f = |x: f64| format!("{x:.4}");
    let deltas = Table::text(
        scorelens::compare::tables::title(p),
        [
            "figure",
            "A",
            "B",
            "A - B",
            "95% interval",
            "differs",
            "detectable (80% power)",
            "items for 80% power",
        ]
        .map(String::from)
        .to_vec(),
        p.figures
            .iter()
            .map(|d| {
                vec![
                    d.figure.clone(),
                    f(d.a),
                    f(d.b),
                    format!("{:+.4}", d.delta),
                    format!("{:+.4} to {:+.4}", d.lo, d.hi),
                    if d.distinguishable { "yes" } else { "no" }.to_string(),
                    d.mde.map_or_else(|| "-".to_string(), f),
                    d.items_needed
                        .map_or_else(|| "-".to_string(), |n| n.to_string()),
                ]
            })
            .collect(),
    );
    let m = &p.mcnemar;
    let mcnemar = Table::text(
        format!("McNemar's exact test on correctness: {} vs {}", p.a, p.b),
        [
            "both right",
            "A only",
            "B only",
            "both wrong",
            "fractional",
            "p-value",
        ]
        .map(String::from)
        .to_vec(),
        vec![vec![
            m.both_right.to_string(),
            m.only_a.to_string(),
            m.only_b.to_string(),
            m.both_wrong.to_string(),
            m.not_binary.to_string(),
            m.p_value
                .map_or_else(|| "-".to_string(), |p| format!("{p:.4}")),
        ]],
    );
    vec![deltas, mcnemar]
}
