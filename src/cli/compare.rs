//! `scorelens compare A B [C...]` and `score --bootstrap`: reading runs for intervals and paired
//! comparisons, and laying a comparison out as tables.

use super::tables;
use super::{Layout, INPUT_ERROR, OK, USAGE};
use scorelens::compare::{compare_with, Comparison, Pair};
use scorelens::metrics::bootstrap::Sample;
use scorelens::report::intervals::BootstrapIntervals;
use scorelens::table::{self, Table};
use scorelens::{BootstrapOptions, Error, Input, Options, Report, Run, Session};
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;

/// Scores one run; with `boot`, the report carries bootstrap intervals (drawn on every core:
/// each resample has its own seeded stream, so the intervals equal a single-threaded run's).
pub fn score(
    inputs: &[Input],
    opts: &Options,
    boot: Option<BootstrapOptions>,
) -> Result<Report, Error> {
    let mut session = Session::new(opts)?;
    if boot.is_some() {
        session.keep_sample();
    }
    for input in inputs {
        super::parallel::read(&mut session, input.name, input.bytes);
    }
    let mut finished = session.finish_sampled()?;
    if let (Some(b), Some(sample)) = (boot, &finished.sample) {
        finished.report.intervals.bootstrap = Some(parallel_bootstrap(sample, &b));
    }
    Ok(finished.report)
}

/// Resamples `0..resamples` in one contiguous range per core, in order.
pub(super) fn ranges(resamples: u32) -> Vec<Range<u32>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    let per = resamples.div_ceil(threads.max(1)).max(1);
    (0..resamples)
        .step_by(per as usize)
        .map(|start| start..(start + per).min(resamples))
        .collect()
}

/// `Sample::bootstrap`, its resamples split over the machine's cores.
pub fn parallel_bootstrap(sample: &Sample, b: &BootstrapOptions) -> BootstrapIntervals {
    let ranges = ranges(b.resamples);
    let parts = std::thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .into_iter()
            .map(|r| scope.spawn(move || sample.draws(b, r)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    sample.intervals(b, parts)
}

/// Runs `scorelens compare`: each file is one run.
pub fn run(
    files: &[PathBuf],
    opts: &Options,
    boot: BootstrapOptions,
    json: bool,
    layout: Layout,
) -> i32 {
    let mut runs: Vec<Run> = Vec::with_capacity(files.len());
    for path in files {
        let name = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("scorelens: {name}: {e}");
                return USAGE;
            }
        };
        let input = Input {
            name: &name,
            bytes: &bytes,
        };
        match scorelens::score_run(&name, &[input], opts) {
            Ok(r) => {
                if !r.report.warnings.is_empty() {
                    eprintln!(
                        "warning: {name}: {} warnings; `scorelens score {name}` lists them",
                        r.report.warnings.len()
                    );
                }
                runs.push(r);
            }
            Err(e @ Error::UnknownProfile(_)) => {
                eprintln!("scorelens: {e}");
                return USAGE;
            }
            Err(e) => {
                eprintln!("scorelens: {name}: {e}");
                return INPUT_ERROR;
            }
        }
    }
    let c = compare_with(&runs, &boot, |pair, b| {
        let ranges = ranges(b.resamples);
        std::thread::scope(|scope| {
            let handles: Vec<_> = ranges
                .into_iter()
                .map(|r| scope.spawn(move || pair.draws(b, r)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        })
    });
    let text = if json {
        c.to_json() + "\n"
    } else {
        let t = comparison_tables(&c);
        match layout {
            Layout::Table => header(&c) + &tables::layout(&t) + &notes(&c),
            Layout::Csv => table::csv(&t),
            Layout::Markdown => table::markdown(&t),
        }
    };
    let _ = std::io::stdout().write_all(text.as_bytes());
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
            "  {}: {} items, profile {}, model {}\n",
            r.name,
            r.items,
            r.profile,
            r.model.as_deref().unwrap_or("(unnamed)")
        );
    }
    out
}

fn notes(c: &Comparison) -> String {
    let mut out = String::new();
    for o in c.only_in.iter().filter(|o| o.count > 0) {
        let more = o.count.saturating_sub(o.ids.len() as u64);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out += &format!(
            "\nnote: {} items are only in {}: {}{tail}",
            o.count,
            o.run,
            o.ids.join(", ")
        );
    }
    for n in &c.notes {
        out += &format!("\nnote: {n}");
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Per pair: the deltas, then McNemar's table.
pub fn comparison_tables(c: &Comparison) -> Vec<Table> {
    c.pairs.iter().flat_map(pair_tables).collect()
}

fn pair_tables(p: &Pair) -> Vec<Table> {
    let f = |x: f64| format!("{x:.4}");
    let deltas = Table::text(
        format!(
            "{} (A) vs {} (B): {} common items, strata {} ({})",
            p.a, p.b, p.common, p.strata, p.strata_count
        ),
        ["figure", "A", "B", "A - B", "95% interval", "differs"]
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
