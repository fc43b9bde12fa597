//! The calibration figures a report shows under conditioning and under mixing, and how each is
//! named: one table for the page, the HTML report and their exports, so the faces cannot drift.

use crate::metrics::calibration::CalibrationFigures;

pub type Getter = fn(&CalibrationFigures) -> Option<f64>;

/// The rows of conditioning against mixing: key, label, what it is, the figure.
pub const ROWS: [(&str, &str, &str, Getter); 5] = [
    (
        "ece",
        "ECE",
        "10 equal-width bins, confidence q[answer] (max q when the answer is invalid)",
        |f| f.ece,
    ),
    (
        "ece_em",
        "ECE equal-mass",
        "HELM's ece_10_bin: 10 bins of equal count",
        |f| f.ece_em,
    ),
    (
        "brier",
        "Brier",
        "squared error against the one-hot gold, averaged over options",
        |f| f.brier,
    ),
    ("epa", "EPA", "mean probability on the gold option", |f| {
        f.epa
    }),
    ("nll", "NLL", "mean −ln q[gold], floored at 1e-15", |f| {
        f.nll
    }),
];
