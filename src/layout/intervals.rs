//! The report's intervals as tables: the bootstrap's, clustered standard errors and Wilson's.

use super::{count, in_pieces, row, share, text};
use crate::report::clustered::Clustered;
use crate::report::planning;
use crate::table::{Entry, Figure, Piece, Table};
use crate::Report;

fn value(x: f64) -> Entry {
    share(Some(x))
}

fn span(lo: f64, hi: f64) -> Entry {
    Entry::Figure(Figure::interval(lo, hi))
}

/// A design effect: two decimals.
fn effect(x: f64) -> Entry {
    Entry::Figure(Figure::Decimals(Some(x), 2))
}

/// "Bootstrap intervals" when the report has them, the clustered tables, then "Wilson
/// intervals" (one per group, so in pieces).
pub fn pieces(r: &Report, take: &mut impl FnMut(Piece<Entry>)) {
    for t in tables(r) {
        take(Piece::Start(t));
    }
    if !r.intervals.wilson.0.is_empty() {
        let title = format!(
            "Wilson intervals ({:.0}%) of the accuracies",
            r.intervals.level * 100.0
        );
        let row = |(name, i): &(String, crate::report::intervals::Interval)| {
            row([text(name.as_str()), span(i.lo, i.hi)])
        };
        in_pieces(
            title,
            &["accuracy", "interval"],
            &r.intervals.wilson.0,
            row,
            take,
        );
    }
}

/// "Bootstrap intervals" when the report has them, and the clustered tables.
fn tables(r: &Report) -> Vec<Table<Entry>> {
    let mut out = Vec::new();
    if let Some(b) = &r.intervals.bootstrap {
        out.push(Table::new(
            format!(
                "Bootstrap intervals ({:.0}%, {} percentile resamples, seed {}, strata: {} ({}), units: {} ({}))",
                b.level * 100.0,
                b.resamples,
                b.seed,
                b.strata,
                b.strata_count,
                b.units,
                b.unit_count
            ),
            &["figure", "value", "interval", "se"],
            b.figures
                .0
                .iter()
                .map(|(name, f)| {
                    let interval = Figure::Span {
                        ends: Some((f.lo, f.hi)),
                        decimals: 4,
                        sep: " to ",
                        undefined: f.undefined.into(),
                    };
                    row([
                        text(name.as_str()),
                        value(f.estimate),
                        interval.into(),
                        value(f.se),
                    ])
                })
                .collect(),
        ));
    }
    if let Some(c) = &r.intervals.clustered {
        out.extend(clustered(c));
    }
    out
}

/// With a cluster field: each mean figure's clustered standard error and planning figures, and
/// Wilson's intervals on the effective number of items.
fn clustered(c: &Clustered) -> Vec<Table<Entry>> {
    let deff = c.design_effect.map_or(String::new(), |d| {
        format!(", accuracy's design effect {d:.2}")
    });
    let figures = Table::new(
        format!(
            "Clustered standard errors (by {}: {} items in {} independent units, {:.1} per unit{deff}). {}",
            c.field,
            c.items,
            c.clusters,
            c.mean_size,
            planning::of(c).sentence
        ),
        &[
            "figure",
            "value",
            "se",
            "se if independent",
            "design effect",
            "95% interval",
            "detectable (80% power)",
            "items to halve",
        ],
        c.figures
            .0
            .iter()
            .map(|(name, f)| {
                row([
                    text(name.as_str()),
                    value(f.value),
                    value(f.se),
                    value(f.se_iid),
                    effect(f.design_effect),
                    span(f.lo, f.hi),
                    Figure::Margin(f.mde, 4).into(),
                    count(f.items_to_halve),
                ])
            })
            .collect(),
    );
    let wilson = Table::new(
        "Wilson intervals (95%) on the effective number of items (n / design effect)",
        &["accuracy", "interval"],
        c.wilson
            .0
            .iter()
            .map(|(name, i)| row([text(name.as_str()), span(i.lo, i.hi)]))
            .collect(),
    );
    vec![figures, wilson]
}
