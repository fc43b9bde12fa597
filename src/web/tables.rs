//! The report's tables as data, rendered to CSV (full precision) or Markdown (four decimals) for
//! export and the clipboard.

use super::protocol::Scored;
use crate::markdown::cell as md_text;
use crate::metrics::calibration::CalibrationFigures;
use crate::Report;

/// A cell: text, or a figure that may not apply.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Num(Option<f64>),
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl From<Option<f64>> for Cell {
    fn from(v: Option<f64>) -> Self {
        Cell::Num(v)
    }
}

impl From<u64> for Cell {
    fn from(v: u64) -> Self {
        Cell::Num(Some(v as f64))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

fn cols(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn calibration(r: &Report) -> Table {
    let (c, m) = (&r.conditioning, &r.mixing);
    let row = |name: &str, f: fn(&CalibrationFigures) -> Option<f64>| {
        vec![name.into(), f(c).into(), f(m).into()]
    };
    Table {
        title: "Calibration".to_string(),
        columns: cols(&["figure", "conditioning", "mixing"]),
        rows: vec![
            row("ece", |f| f.ece),
            row("ece_em", |f| f.ece_em),
            row("brier", |f| f.brier),
            row("epa", |f| f.epa),
            row("nll", |f| f.nll),
            vec!["items".into(), c.items.into(), m.items.into()],
        ],
    }
}

fn bins(name: &str, f: &CalibrationFigures) -> Table {
    Table {
        title: format!("Reliability bins ({name}, equal-width)"),
        columns: cols(&[
            "lo",
            "hi",
            "count",
            "confidence",
            "accuracy",
            "ci_lo",
            "ci_hi",
        ]),
        rows: f
            .bins
            .iter()
            .map(|b| {
                vec![
                    Some(b.lo).into(),
                    Some(b.hi).into(),
                    b.count.into(),
                    b.confidence.into(),
                    b.accuracy.into(),
                    b.ci_lo.into(),
                    b.ci_hi.into(),
                ]
            })
            .collect(),
    }
}

/// Every table of one run's report.
pub fn report_tables(s: &Scored) -> Vec<Table> {
    let r = &s.report;
    let m = &r.metrics;
    let mut out = vec![Table {
        title: "Headline".to_string(),
        columns: cols(&["figure", "value"]),
        rows: vec![
            vec!["items".into(), r.items.into()],
            vec!["skipped".into(), r.skipped.into()],
            vec!["accuracy".into(), m.accuracy.into()],
            vec!["normalized".into(), m.normalized.into()],
            vec!["macro_accuracy".into(), m.macro_accuracy.into()],
            vec!["macro_normalized".into(), m.macro_normalized.into()],
            vec!["invalid_share".into(), m.invalid_share.into()],
            vec!["outside_mass".into(), m.outside_mass.into()],
        ],
    }];
    if let Some(ic) = &r.ic {
        let o = &ic.overall;
        out.push(Table {
            title: "I and C".to_string(),
            columns: cols(&["figure", "value"]),
            rows: vec![
                vec!["i".into(), o.i.into()],
                vec!["i_weighted".into(), o.i_weighted.into()],
                vec!["c".into(), o.c.into()],
            ],
        });
    }
    out.push(calibration(r));
    out.push(bins("conditioning", &r.conditioning));
    out.push(bins("mixing", &r.mixing));
    out.push(Table {
        title: "Groups".to_string(),
        columns: cols(&["group", "items", "accuracy", "normalized", "invalid_share"]),
        rows: r
            .groups
            .iter()
            .map(|g| {
                vec![
                    g.name.clone().into(),
                    g.items.into(),
                    g.accuracy.into(),
                    g.normalized.into(),
                    g.invalid_share.into(),
                ]
            })
            .collect(),
    });
    out
}

fn csv_field(s: &str) -> String {
    let s = crate::csv_cell::guard(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Full precision; whole numbers (counts) without a trailing `.0`.
fn csv_cell(c: &Cell) -> String {
    match c {
        Cell::Text(s) => csv_field(s),
        Cell::Num(Some(v)) if v.fract() == 0.0 && v.abs() < 9e15 => format!("{v:.0}"),
        Cell::Num(v) => super::fmt::exact(*v),
    }
}

/// CSV: each table under a `# title` line, a blank line between tables.
pub fn csv(tables: &[Table]) -> String {
    let mut out = String::new();
    for t in tables {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("# {}\n", t.title));
        let head: Vec<String> = t.columns.iter().map(|c| csv_field(c)).collect();
        out.push_str(&head.join(","));
        out.push('\n');
        for row in &t.rows {
            let cells: Vec<String> = row.iter().map(csv_cell).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
    }
    out
}

fn md_cell(c: &Cell) -> String {
    match c {
        Cell::Text(s) => md_text(s),
        Cell::Num(None) => "–".to_string(),
        Cell::Num(Some(v)) if v.fract() == 0.0 && v.abs() < 1e15 => format!("{v:.0}"),
        Cell::Num(Some(v)) => format!("{v:.4}"),
    }
}

/// Markdown: a `###` heading and a table each, numbers right-aligned.
pub fn markdown(tables: &[Table]) -> String {
    let mut out = String::new();
    for t in tables {
        out.push_str(&format!("### {}\n\n", md_text(&t.title)));
        let head: Vec<String> = t.columns.iter().map(|c| md_text(c)).collect();
        out.push_str(&format!("| {} |\n", head.join(" | ")));
        let align: Vec<&str> = t
            .columns
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let numeric = t
                    .rows
                    .iter()
                    .all(|r| matches!(r.get(i), Some(Cell::Num(_))));
                if numeric && !t.rows.is_empty() {
                    "---:"
                } else {
                    "---"
                }
            })
            .collect();
        out.push_str(&format!("| {} |\n", align.join(" | ")));
        for row in &t.rows {
            let cells: Vec<String> = row.iter().map(md_cell).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out.push('\n');
    }
    out
}
