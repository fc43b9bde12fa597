//! `scorelens leaderboard FILES_OR_FOLDERS...`: many runs of one benchmark ranked with rank
//! intervals and Holm-adjusted pairwise tests (the figures come from `scorelens::leaderboard`).
//!
//! A file is one run; a folder gives its runs as `score DIR` finds them (a file directly in it is
//! one run, a subfolder one run of all its files). Runs are scored in parallel and the paired
//! resamples drawn on every core, joined in resample order, so the output equals a single-threaded
//! run's. Progress goes to stderr when it is a terminal.

use super::found::{self, Run as Found};
use super::{Layout, INPUT_ERROR, OK, USAGE};
use rayon::prelude::*;
use scorelens::leaderboard::tables::{default_figure, tables};
use scorelens::leaderboard::{leaderboard_of, Joined, Leaderboard, Replicates};
use scorelens::metrics::lanes::LANES;
use scorelens::runs::Grouping;
use scorelens::table;
use scorelens::{BootstrapOptions, Error, Options, Run, Session};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// Resamples drawn between two progress lines (on stderr, when it is a terminal): whole blocks of
/// `LANES`, which the draws take at a time (a slice of 25 would pay for 32).
const PROGRESS_EVERY: u32 = 3 * LANES as u32;

/// What the user asked the leaderboard for.
pub struct Ask<'a> {
    /// The one figure ranked and shown (`--by`); every figure when `None`.
    pub by: Option<&'a str>,
    /// Rank every figure even with `by`, showing `by` (`--all`).
    pub all: bool,
    /// How many subsets get a board (`--subsets`), the largest first.
    pub subsets: usize,
}

/// Runs `scorelens leaderboard`.
pub fn run(
    paths: &[PathBuf],
    opts: &Options,
    ask: Ask,
    boot: BootstrapOptions,
    json: bool,
    layout: Layout,
) -> i32 {
    if let Err(e) = Session::new(opts) {
        say!("scorelens: {e}");
        return USAGE;
    }
    // Runs are found as `score` and `compare` find them.
    let sources = match found::gather(paths, Grouping::Found) {
        Ok(g) => {
            found::note_ignored(&g.ignored);
            g.runs
        }
        Err(e) => {
            say!("scorelens: {e}");
            return USAGE;
        }
    };
    let mut seen = std::collections::HashSet::new();
    if let Some(s) = sources.iter().find(|s| !seen.insert(s.name.as_str())) {
        say!(
            "scorelens: two runs are named {}; give each run once",
            s.name
        );
        return USAGE;
    }
    let scored: Vec<Result<Run, String>> = sources.par_iter().map(|s| score(s, opts)).collect();
    let mut runs = Vec::with_capacity(scored.len());
    let mut left_out = Vec::new();
    for (source, result) in sources.iter().zip(scored) {
        match result {
            Ok(r) => runs.push(r),
            Err(e) => {
                say!("scorelens: {}: not ranked: {e}", source.name);
                left_out.push(format!("{} is not ranked: {e}", source.name));
            }
        }
    }
    if runs.len() < 2 {
        say!(
            "scorelens: a leaderboard needs two runs or more; {} could be scored",
            runs.len()
        );
        return INPUT_ERROR;
    }
    let done = AtomicU32::new(0);
    let shown = std::io::stderr().is_terminal();
    let mut joined = Joined::with_subsets(&runs, ask.subsets);
    // Rank what is asked for only: the other figures' resamples are not drawn at all.
    if let Some(f) = ask.by.filter(|_| !ask.all) {
        let names = joined.board_names();
        joined = match joined.only(f) {
            Some(j) => j,
            None => {
                say!(
                    "scorelens: no figure `{f}` is ranked; the figures every run has are {}",
                    names.join(", ")
                );
                return USAGE;
            }
        };
    }
    let mut l = leaderboard_of(joined, &boot, |joined, b| {
        joined.prepare_lanes();
        // Each core draws a contiguous range of resamples, handed back in resample order.
        let parts: Vec<Vec<Replicates>> = scorelens::session::spread(b.resamples, |r| {
            let mut parts = Vec::new();
            for start in r.clone().step_by(PROGRESS_EVERY as usize) {
                let end = (start + PROGRESS_EVERY).min(r.end);
                parts.push(joined.draws(b, start..end));
                let now = done.fetch_add(end - start, Ordering::Relaxed) + end - start;
                if shown {
                    eprint!("\rscorelens: {now} of {} paired resamples", b.resamples);
                }
            }
            parts
        });
        if shown {
            eprint!("\r{:60}\r", "");
        }
        // Each thread's slices in order, the threads in resample order.
        parts.into_iter().flatten().collect()
    });
    l.notes.extend(left_out);
    if l.common == 0 {
        say!("scorelens: the runs share no item id, so there is nothing to rank");
        return INPUT_ERROR;
    }
    let figure = match ask.by {
        Some(f) => f.to_string(),
        None => default_figure(&l).unwrap_or_default().to_string(),
    };
    let Some(t) = tables(&l, &figure) else {
        let names: Vec<&str> = l
            .figures
            .iter()
            .chain(&l.subsets)
            .map(|b| b.figure.as_str())
            .collect();
        say!(
            "scorelens: no figure `{figure}` is ranked; the figures every run has are {}",
            names.join(", ")
        );
        return USAGE;
    };
    let text = if json {
        l.to_json() + "\n"
    } else {
        match layout {
            Layout::Table => header(&l) + &super::tables::layout(&t) + &notes(&l),
            Layout::Csv => table::csv(&t),
            Layout::Markdown => table::markdown(&t),
            // `tables` found the figure, so the document has it too.
            Layout::Html => scorelens::html::leaderboard(&l, &figure).unwrap_or_default(),
        }
    };
    super::print(&text, json, layout);
    OK
}

/// Scores one run, keeping its sample for the paired bootstrap.
fn score(s: &Found, opts: &Options) -> Result<Run, String> {
    let sources = super::open(&s.files)?;
    let run = scorelens::score_run(&s.name, sources, &s.options(opts)).map_err(|e| match e {
        Error::NoItems(_) => "no item could be scored".to_string(),
        other => other.to_string(),
    })?;
    if !run.report.warnings.is_empty() {
        say!(
            "warning: {}: {} warnings; `scorelens score` on it lists them",
            s.name,
            run.report.warnings.len()
        );
    }
    // A leaderboard reads a run's name, model, profile and counts, and ranks its sample: the
    // report's rows per group and their intervals (200,000 of each where groups are ids) are
    // let go as soon as the run is scored, not held beside every other run's.
    let mut run = run;
    run.report.groups = Vec::new();
    run.report.intervals = Default::default();
    run.report.warnings = Vec::new();
    Ok(run)
}

fn header(l: &Leaderboard) -> String {
    let b = &l.bootstrap;
    let mut out = format!(
        "scorelens leaderboard · {} runs · {} shared items · {} {} resamples, seed {}, {:.0}% \
         intervals, strata {} ({})\n",
        l.runs.len(),
        l.common,
        b.resamples,
        b.method,
        b.seed,
        b.level * 100.0,
        scorelens::inert::inert(&b.strata),
        b.strata_count
    );
    out += &format!("  ranks: {}\n  tests: {}\n", l.tie_rule, b.adjustment);
    if let Some(c) = &b.clusters {
        out += &format!(
            "  clusters: by {}, {} independent units among the shared items; accuracy pairs take \
             the clustered z-test, not McNemar's\n",
            c.field, c.units
        );
    }
    out
}

fn notes(l: &Leaderboard) -> String {
    let say = |n: u64, run: &str| {
        format!("{n} items of {run} are missing from another run and are not ranked")
    };
    super::tables::missing_notes(&l.not_shared, say, &l.notes)
}
