//! The clustered block (`intervals.clustered`, `score --cluster`) in a reader's words: a sentence
//! on how far accuracy reaches and what the items can detect, and each mean figure's cells as
//! written. The CLI prints the sentence; `html::planning` lays both out for the page's planning
//! panel and the HTML report.

use crate::fmt::{self, Kind};
use crate::report::clustered::{Clustered, ClusteredFigure};

/// What the planning panel shows of a run with clusters.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanView {
    /// The headline sentence, for accuracy (or the first mean figure).
    pub sentence: String,
    pub rows: Vec<PlanRow>,
}

/// One mean figure: its cells as written, and the exact numbers behind two of them.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanRow {
    pub figure: String,
    /// value, 95% interval, detectable difference, design effect, items to halve it.
    pub cells: [String; 5],
    pub se: f64,
    pub mde: f64,
}

/// A figure's scale as the page shows it: shares in points, the rest as scores.
fn kind(figure: &str) -> Kind {
    match figure {
        "metrics.accuracy" | "metrics.invalid_share" | "metrics.outside_mass" => Kind::Share,
        _ => Kind::Score,
    }
}

/// A width in the figure's own unit: percentage points for shares.
fn width(x: f64, figure: &str) -> String {
    match kind(figure) {
        Kind::Share => format!("{} points", fmt::number(x * 100.0, 1)),
        _ => fmt::number(x, 3),
    }
}

/// What the rule is, in words.
fn rule(field: &str) -> String {
    match field {
        "cluster" => "by the file's cluster field".to_string(),
        "group" => "by group".to_string(),
        "none" => "each item on its own".to_string(),
        name => format!("by the field {name}"),
    }
}

/// The headline sentence for accuracy (or the first mean figure).
fn sentence(c: &Clustered, name: &str, f: &ClusteredFigure) -> String {
    let value = fmt::show(Some(f.value), kind(name));
    let mut s = format!(
        "With these {} items in {} independent units ({}), {name} is {value} ± {} at 95%; \
         a departure under {} from a fixed target is not reliably detectable (80% power).",
        fmt::count(c.items),
        fmt::count(c.clusters),
        rule(&c.field),
        width(f.half_width, name),
        width(f.mde, name),
    );
    if f.design_effect > 1.0 + 1e-9 {
        s += &format!(
            " Items of one cluster are alike: the {} items count as {} independent ones (design effect {}).",
            fmt::count(f.items),
            fmt::count((f.items as f64 / f.design_effect).round() as u64),
            fmt::number(f.design_effect, 2),
        );
    }
    s + &format!(
        " {} items would halve the interval.",
        fmt::count(f.items_to_halve)
    )
}

/// The panel's content.
pub fn of(c: &Clustered) -> PlanView {
    let sentence = c
        .figures
        .0
        .iter()
        .find(|(n, _)| n == "metrics.accuracy")
        .or_else(|| c.figures.0.first())
        .map(|(n, f)| sentence(c, n, f))
        .unwrap_or_default();
    let rows = c
        .figures
        .0
        .iter()
        .map(|(name, f)| PlanRow {
            figure: name.clone(),
            cells: [
                fmt::show(Some(f.value), kind(name)),
                format!("± {}", width(f.half_width, name)),
                width(f.mde, name),
                fmt::number(f.design_effect, 2),
                fmt::count(f.items_to_halve),
            ],
            se: f.se,
            mde: f.mde,
        })
        .collect();
    PlanView { sentence, rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bootstrap::ClusterBy;
    use crate::{score_sources, Options, Source};

    #[test]
    fn the_sentence_and_rows_of_the_clustered_fixture() {
        let text = include_str!("../../tests/fixtures/clustered/run-a.jsonl");
        let opts = Options {
            cluster: Some(ClusterBy::File),
            ..Options::default()
        };
        let f = score_sources([Source::bytes("run-a.jsonl", text.as_bytes())], &opts).unwrap();
        let c = f.report.intervals.clustered.unwrap();
        let plan = of(&c);
        assert!(
            plan.sentence.starts_with(
                "With these 240 items in 60 independent units (by the file's cluster field), \
             metrics.accuracy is 63."
            ),
            "{}",
            plan.sentence
        );
        assert!(plan.sentence.contains("a departure under 10.8 points"));
        assert!(plan
            .sentence
            .contains("count as 155 independent ones (design effect 1.55)"));
        assert!(plan
            .sentence
            .ends_with("960 items would halve the interval."));
        let acc = &plan.rows[0];
        assert_eq!(acc.figure, "metrics.accuracy");
        assert_eq!(acc.cells[1], "± 7.6 points");
        assert_eq!(acc.cells[3], "1.55");
        assert_eq!(acc.se, c.figures.get("metrics.accuracy").unwrap().se);
    }
}
