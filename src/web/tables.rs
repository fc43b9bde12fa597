//! The report's tables (`crate::table`, the CLI's model), for the export as CSV (full precision)
//! or Markdown (four decimals), to a file or the clipboard.

use super::protocol::Scored;
use crate::metrics::calibration::CalibrationFigures;
use crate::table::Table;
use crate::Report;

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
