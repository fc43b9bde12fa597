//! Calibration both ways and the reliability bins, for a run with probabilities.

use super::{count, row, share, text};
use crate::metrics::calibration::CalibrationFigures;
use crate::metrics::ece::BinReport;
use crate::table::{Entry, Figure, Table};
use crate::Report;

const BIN_COLUMNS: [&str; 5] = ["bin", "count", "confidence", "accuracy", "95% Wilson"];

/// "Calibration", then the equal-width and the equal-mass reliability bins.
pub fn tables(r: &Report) -> Vec<Table<Entry>> {
    let (c, x) = (&r.conditioning, &r.mixing);
    let both = |name: &str, f: fn(&CalibrationFigures) -> Option<f64>, what: &str| {
        row([text(name), share(f(c)), share(f(x)), text(what)])
    };
    let calibration = Table::new(
        "Calibration",
        &["figure", "conditioning", "mixing", "what it is"],
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
            row([
                text("items"),
                count(c.items),
                count(x.items),
                text("items with usable probabilities"),
            ]),
        ],
    );
    let bins = Table::new(
        "Reliability (conditioning, equal-width)",
        &BIN_COLUMNS,
        c.bins.iter().map(bin_row).collect(),
    );
    let bins_em = Table::new(
        "Reliability (conditioning, equal-mass: HELM's ece_10_bin)",
        &BIN_COLUMNS,
        c.bins_em.iter().map(bin_row).collect(),
    );
    vec![calibration, bins, bins_em]
}

/// One reliability bin: its edges, count, figures and Wilson interval.
fn bin_row(b: &BinReport) -> Vec<Entry> {
    let ci = b.ci_lo.zip(b.ci_hi);
    row([
        Figure::edges(Some((b.lo, b.hi))).into(),
        count(b.count),
        share(b.confidence),
        share(b.accuracy),
        Figure::edges(ci).into(),
    ])
}
