//! The report laid out as tables (`scorelens::table`), and those printed as aligned text; CSV and
//! Markdown are the table model's own writers.

use scorelens::inert::inert;
use scorelens::metrics::calibration::CalibrationFigures;
use scorelens::profiles::headline::headline;
use scorelens::report::{groups, GroupFigures};
use scorelens::table::{Cell, Table};
use scorelens::Report;

fn cell(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.4}"))
}

/// One reliability bin: its edges (equal-mass edges are data, so three decimals), count, figures
/// and Wilson interval.
fn bin_row(b: &scorelens::metrics::ece::BinReport) -> Vec<String> {
    let ci = match (b.ci_lo, b.ci_hi) {
        (Some(lo), Some(hi)) => format!("{lo:.3}-{hi:.3}"),
        _ => "-".to_string(),
    };
    vec![
        format!("{:.3}-{:.3}", b.lo, b.hi),
        b.count.to_string(),
        cell(b.confidence),
        cell(b.accuracy),
        ci,
    ]
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|s| s.to_string()).collect()
}

/// The profile's headline figures (`profiles::headline`, the rule every face follows), each with
/// its report path.
fn lead(r: &Report) -> Table {
    Table::text(
        format!("Headline ({})", r.profile),
        row(&["figure", "value", "report path"]),
        headline(r)
            .into_iter()
            .map(|f| vec![f.label, cell(f.value), f.path])
            .collect(),
    )
}

/// The report's tables: the headline, then every figure, calibration both ways, reliability
/// bins, groups.
pub fn tables(r: &Report) -> Vec<Table> {
    let m = &r.metrics;
    let headline = Table::text(
        "Figures".to_string(),
        row(&["figure", "value", "what it is"]),
        vec![
            row(&[
                "accuracy",
                &cell(m.accuracy),
                "exact match: correct / items (micro)",
            ]),
            row(&[
                "normalized",
                &cell(m.normalized),
                "1 if right, -c/(1-c) if wrong; chance = 0",
            ]),
            row(&[
                "macro accuracy",
                &cell(m.macro_accuracy),
                "mean over groups of accuracy",
            ]),
            row(&[
                "macro normalized",
                &cell(m.macro_normalized),
                "mean over groups of normalized",
            ]),
            row(&[
                "invalid share",
                &cell(m.invalid_share),
                "answers absent or not a valid option",
            ]),
            row(&[
                "outside mass",
                &cell(m.outside_mass),
                "mean probability outside the valid options",
            ]),
        ],
    );
    let (c, x) = (&r.conditioning, &r.mixing);
    let both = |name: &str, f: fn(&CalibrationFigures) -> Option<f64>, what: &str| {
        row(&[name, &cell(f(c)), &cell(f(x)), what])
    };
    let calibration = Table::text(
        "Calibration".to_string(),
        row(&["figure", "conditioning", "mixing", "what it is"]),
        vec![
            both(
                "ECE",
                |f| f.ece,
                "10 equal-width bins, confidence q[answer] (max q when the answer is invalid)",
            ),
            both("ECE equal-mass", |f| f.ece_em, "HELM's ece_10_bin"),
            both("Brier", |f| f.brier, "squared error averaged over options"),
            both("EPA", |f| f.epa, "mean probability on the gold option"),
            both("NLL", |f| f.nll, "mean -ln q[gold], floored at 1e-15"),
            row(&[
                "items",
                &c.items.to_string(),
                &x.items.to_string(),
                "items with usable probabilities",
            ]),
        ],
    );
    let bins = Table::text(
        "Reliability (conditioning, equal-width)".to_string(),
        row(&["bin", "count", "confidence", "accuracy", "95% Wilson"]),
        c.bins.iter().map(bin_row).collect(),
    );
    let bins_em = Table::text(
        "Reliability (conditioning, equal-mass: HELM's ece_10_bin)".to_string(),
        row(&["bin", "count", "confidence", "accuracy", "95% Wilson"]),
        c.bins_em.iter().map(bin_row).collect(),
    );
    let groups = Table::text(
        "Groups".to_string(),
        row(&["group", "items", "accuracy", "normalized", "invalid share"]),
        groups::in_name_order(&r.groups)
            .into_iter()
            .map(|i| group_row(&r.groups[i]))
            .collect(),
    );
    let mut all = vec![lead(r), headline];
    // Reward-model and graded runs have no probabilities: no empty calibration tables for them.
    if c.items > 0 {
        all.extend([calibration, bins, bins_em]);
    }
    // Profile sections (I/C, RewardBench) add their tables here, each from its own module.
    all.splice(1..1, super::ic_tables::tables(r)); // I and C come first, after the headline
    all.splice(1..1, super::rewardbench_tables::tables(r)); // so do a reward model's sections
    all.splice(1..1, scope(r)); // whether these are the benchmark's figures at all
    all.push(groups);
    all.extend(super::interval_tables::tables(r)); // how sure each figure is
    all.extend(super::source_tables::tables(r)); // how the files were read, the tools' own figures
    all
}

/// The file's counts against the benchmark's frozen ones, when the profile has them.
fn scope(r: &Report) -> Option<Table> {
    let scope = r.scope.as_ref()?;
    let title = if scope.complete {
        "Benchmark counts: complete"
    } else {
        "Benchmark counts: INCOMPLETE (not the benchmark's figures)"
    };
    let rows = scope
        .expected
        .0
        .iter()
        .zip(&scope.found.0)
        .map(|((key, want), (_, got))| {
            let mark = if got == want { "yes" } else { "NO" };
            vec![
                key.replace('_', " "),
                want.to_string(),
                got.to_string(),
                mark.to_string(),
            ]
        })
        .collect();
    Some(Table::text(
        title.to_string(),
        row(&["count", "benchmark", "this file", "equal"]),
        rows,
    ))
}

/// Groups the aligned text lists, the largest first, when a run has more (groups that are really
/// ids number in the hundreds of thousands); CSV, Markdown and JSON keep every group.
pub const GROUPS_SHOWN: usize = 40;

/// One group's row of the groups table.
fn group_row(g: &GroupFigures) -> Vec<String> {
    vec![
        g.name.clone(),
        g.items.to_string(),
        cell(g.accuracy),
        cell(g.normalized),
        cell(g.invalid_share),
    ]
}

/// The groups table cut to the `GROUPS_SHOWN` largest, with the count of the rest in its title.
fn largest_groups(r: &Report, t: &Table) -> Table {
    let rest = r.groups.len() - GROUPS_SHOWN;
    Table {
        title: format!(
            "Groups: the {GROUPS_SHOWN} largest of {} ({rest} more in --format csv or --json)",
            r.groups.len()
        ),
        columns: t.columns.clone(),
        rows: groups::largest(&r.groups, GROUPS_SHOWN)
            .into_iter()
            .map(|i| {
                group_row(&r.groups[i])
                    .into_iter()
                    .map(Cell::Text)
                    .collect()
            })
            .collect(),
    }
}

/// Aligned plain text, with a header naming the run.
pub fn text(r: &Report, tables: &[Table]) -> String {
    let capped: Vec<Table>;
    let tables = if r.groups.len() > GROUPS_SHOWN {
        capped = tables
            .iter()
            .map(|t| {
                if t.title == "Groups" && t.rows.len() == r.groups.len() {
                    largest_groups(r, t)
                } else {
                    t.clone()
                }
            })
            .collect();
        &capped[..]
    } else {
        tables
    };
    let mut out = format!(
        "scorelens · profile {} · model {} · {} scored, {} skipped\n",
        inert(&r.profile),
        inert(r.model.as_deref().unwrap_or("(unnamed)")),
        items(r.items),
        r.skipped
    );
    for f in &r.files {
        out += &format!(
            "  {} ({}): {}, {} skipped\n",
            inert(&f.name),
            f.format,
            items(f.items),
            f.skipped
        );
    }
    out += &layout(tables);
    for n in &r.notes {
        out += &format!("\nnote: {}", inert(n));
    }
    if !r.notes.is_empty() {
        out.push('\n');
    }
    out
}

/// The tables as aligned plain text, each under its title; every title, name and cell made inert
/// (`scorelens::inert`) before the columns are measured, so that a control character in a group
/// name neither acts on the terminal nor breaks the alignment.
pub fn layout(tables: &[Table]) -> String {
    let mut out = String::new();
    for t in tables {
        out += &format!("\n{}\n", inert(&t.title));
        let head: Vec<String> = t.columns.iter().map(|c| inert(c).into_owned()).collect();
        let rows: Vec<Vec<String>> = t
            .rows
            .iter()
            .map(|r| r.iter().map(|c| inert(&c.shown()).into_owned()).collect())
            .collect();
        let widths: Vec<usize> = (0..head.len())
            .map(|i| {
                let cells = rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| c.chars().count());
                cells
                    .chain(head.get(i).map(|c| c.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for cells in std::iter::once(&head).chain(&rows) {
            let line: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, w))| {
                    let numeric =
                        i > 0 && c.chars().all(|ch| ch.is_ascii_digit() || ".-".contains(ch));
                    if numeric {
                        format!("{c:>w$}")
                    } else {
                        format!("{c:<w$}")
                    }
                })
                .collect();
            out += &format!("  {}\n", line.join("  ").trim_end());
        }
    }
    out
}

/// The notes under a comparison or a leaderboard: per run, its items the others lack (`say`
/// words the count and the run), then the other notes; empty when there is nothing to say.
pub fn missing_notes(
    lists: &[scorelens::compare::OnlyIn],
    say: impl Fn(u64, &str) -> String,
    notes: &[String],
) -> String {
    let mut out = String::new();
    for o in lists.iter().filter(|o| o.count > 0) {
        let more = o.count.saturating_sub(o.ids.len() as u64);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out += &format!(
            "\nnote: {}: {}{tail}",
            inert(&say(o.count, &o.run)),
            inert(&o.ids.join(", "))
        );
    }
    for n in notes {
        out += &format!("\nnote: {}", inert(n));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// "1 item", "2 items": a count of items as a sentence says it (digits as the JSON has them).
pub fn items(n: u64) -> String {
    format!("{n} {}", if n == 1 { "item" } else { "items" })
}
