//! The report's tables (`crate::table`, the CLI's model), for the page's export as CSV (full
//! precision) or Markdown (four decimals), to a file or the clipboard. The worker writes them from
//! the whole report (every group), so the page carries neither these tables nor their writers.

use crate::metrics::calibration::CalibrationFigures;
use crate::table::{Cell, Table};
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
pub fn report_tables(r: &Report) -> Vec<Table> {
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
    if let Some(scope) = &r.scope {
        out.push(Table {
            title: format!(
                "Benchmark counts ({})",
                if scope.complete {
                    "complete"
                } else {
                    "incomplete: not the benchmark's figures"
                }
            ),
            columns: cols(&["count", "benchmark", "this file"]),
            rows: scope
                .expected
                .0
                .iter()
                .zip(&scope.found.0)
                .map(|((k, want), (_, got))| vec![k.clone().into(), (*want).into(), (*got).into()])
                .collect(),
        });
    }
    if let Some(rb) = &r.rewardbench {
        let mut rows: Vec<Vec<Cell>> = rb
            .section_details
            .iter()
            .map(|s| vec![s.name.clone().into(), s.score.into(), s.items.into()])
            .collect();
        rows.push(vec!["overall".into(), rb.overall.into(), Cell::Num(None)]);
        if rb.overall_with_prior_sets.is_some() {
            rows.push(vec![
                "overall_with_prior_sets".into(),
                rb.overall_with_prior_sets.into(),
                Cell::Num(None),
            ]);
        }
        out.push(Table {
            title: "RewardBench".to_string(),
            columns: cols(&["section", "score", "items"]),
            rows,
        });
    }
    if let Some(ic) = &r.ic {
        let o = &ic.overall;
        let mut rows = vec![
            vec!["i".into(), o.i.into()],
            vec!["i_weighted".into(), o.i_weighted.into()],
            vec!["c".into(), o.c.into()],
        ];
        if o.pooled_ece.is_some() {
            rows.push(vec!["pooled_ece".into(), o.pooled_ece.into()]);
        }
        out.push(Table {
            title: "I and C".to_string(),
            columns: cols(&["figure", "value"]),
            rows,
        });
        out.push(ic_types(o));
    }
    out.push(calibration(r));
    out.push(bins("conditioning", &r.conditioning));
    out.push(bins("mixing", &r.mixing));
    out.push(Table {
        title: "Groups".to_string(),
        columns: cols(&["group", "items", "accuracy", "normalized", "invalid_share"]),
        rows: crate::report::groups::in_name_order(&r.groups)
            .into_iter()
            .map(|i| &r.groups[i])
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

/// Each I/C type's parts, one row per type.
fn ic_types(o: &crate::metrics::ic::figures::ScopeFigures) -> Table {
    let t = &o.types;
    let rows = [
        ("choice", &t.choice),
        ("binary", &t.binary),
        ("rating", &t.rating),
    ]
    .into_iter()
    .filter_map(|(name, f)| f.as_ref().map(|f| (name, f)))
    .map(|(name, f)| {
        vec![
            name.into(),
            f.items.into(),
            f.cc.into(),
            f.c.into(),
            f.ece.into(),
            f.ece_confidence.clone().into(),
            f.ece_scope.clone().into(),
            f.ece_items.into(),
            f.tvd.into(),
            f.rps.into(),
            f.brier.into(),
            f.nll.into(),
            f.abstention_rate.into(),
        ]
    })
    .collect();
    Table {
        title: "I and C by type".to_string(),
        columns: cols(&[
            "type",
            "items",
            "cc",
            "c",
            "ece",
            "ece_confidence",
            "ece_scope",
            "ece_items",
            "tvd",
            "rps",
            "brier",
            "nll",
            "abstention_rate",
        ]),
        rows,
    }
}
