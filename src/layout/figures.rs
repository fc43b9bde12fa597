//! The figures every run has: the profile's headline and the report's top-level figures.

use super::{row, share, text};
use crate::profiles::headline::headline as lead;
use crate::table::{Entry, Table};
use crate::Report;

/// The profile's headline figures (`profiles::headline`, the rule every face follows), each with
/// its report path.
pub fn headline(r: &Report) -> Table<Entry> {
    Table::new(
        format!("Headline ({})", r.profile),
        &["figure", "value", "report path"],
        lead(r)
            .into_iter()
            .map(|f| row([text(f.label), share(f.value), text(f.path)]))
            .collect(),
    )
}

/// Every top-level figure.
pub fn table(r: &Report) -> Table<Entry> {
    let m = &r.metrics;
    let figure = |name: &str, v: Option<f64>, what: &str| row([text(name), share(v), text(what)]);
    Table::new(
        "Figures",
        &["figure", "value", "what it is"],
        vec![
            figure(
                "accuracy",
                m.accuracy,
                "exact match: correct / items (micro)",
            ),
            figure(
                "normalized",
                m.normalized,
                "1 if right, -c/(1-c) if wrong; chance = 0",
            ),
            figure(
                "macro accuracy",
                m.macro_accuracy,
                "mean over groups of accuracy",
            ),
            figure(
                "macro normalized",
                m.macro_normalized,
                "mean over groups of normalized",
            ),
            figure(
                "invalid share",
                m.invalid_share,
                "answers absent or not a valid option",
            ),
            figure(
                "outside mass",
                m.outside_mass,
                "mean probability outside the valid options",
            ),
        ],
    )
}
