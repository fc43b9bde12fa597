//! Each pair of a comparison in the table model (`crate::table`): its differences with their
//! paired intervals, then McNemar's test, so that the CSV (every digit) and Markdown (four
//! decimals) exports carry what the JSON has.

use super::{Comparison, Pair};
use crate::table::{Cell, Table};

fn cols(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Two tables per pair, in the comparison's order: the differences A − B, and McNemar's test.
pub fn pair_tables(c: &Comparison) -> Vec<Table> {
    c.pairs.iter().flat_map(pair).collect()
}

/// The title of a pair's differences: the runs, the items, the strata and the clusters.
pub fn title(p: &Pair) -> String {
    let clusters = p.clusters.as_ref().map_or(String::new(), |c| {
        format!(", clusters by {} ({} units)", c.field, c.units)
    });
    format!(
        "{} (A) vs {} (B): {} common items, strata {} ({}){clusters}",
        p.a, p.b, p.common, p.strata, p.strata_count
    )
}

fn pair(p: &Pair) -> [Table; 2] {
    let deltas = Table {
        title: title(p),
        columns: cols(&[
            "figure",
            "a",
            "b",
            "a_minus_b",
            "ci_lo",
            "ci_hi",
            "se",
            "undefined_resamples",
            "differs",
            "se_paired",
            "mde",
            "items_needed",
        ]),
        rows: p
            .figures
            .iter()
            .map(|d| {
                vec![
                    Cell::from(d.figure.as_str()),
                    Some(d.a).into(),
                    Some(d.b).into(),
                    Some(d.delta).into(),
                    Some(d.lo).into(),
                    Some(d.hi).into(),
                    Some(d.se).into(),
                    u64::from(d.undefined).into(),
                    Cell::from(if d.distinguishable { "yes" } else { "no" }),
                    d.se_paired.into(),
                    d.mde.into(),
                    d.items_needed.map_or_else(|| Cell::from(""), Cell::from),
                ]
            })
            .collect(),
    };
    let m = &p.mcnemar;
    let mcnemar = Table {
        title: format!("McNemar's exact test on correctness: {} vs {}", p.a, p.b),
        columns: cols(&[
            "both_right",
            "a_only",
            "b_only",
            "both_wrong",
            "fractional",
            "p_value",
        ]),
        rows: vec![vec![
            m.both_right.into(),
            m.only_a.into(),
            m.only_b.into(),
            m.both_wrong.into(),
            m.not_binary.into(),
            m.p_value.into(),
        ]],
    };
    [deltas, mcnemar]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{Delta, OnlyIn, Settings};
    use crate::metrics::mcnemar::McNemar;

    fn comparison() -> Comparison {
        let only = |run: &str| OnlyIn {
            run: run.to_string(),
            count: 0,
            ids: Vec::new(),
        };
        Comparison {
            schema: "scorelens.compare/1".to_string(),
            runs: Vec::new(),
            only_in: Vec::new(),
            bootstrap: Settings {
                method: "paired".to_string(),
                resamples: 2000,
                seed: 2024,
                level: 0.95,
            },
            pairs: vec![Pair {
                a: "model-a".to_string(),
                b: "model-b".to_string(),
                common: 40,
                only_a: only("model-a"),
                only_b: only("model-b"),
                strata: "group".to_string(),
                strata_count: 2,
                figures: vec![Delta {
                    figure: "metrics.accuracy".to_string(),
                    a: 0.75,
                    b: 0.6,
                    delta: 0.15000000000000002,
                    lo: -0.05,
                    hi: 0.35,
                    se: 0.1,
                    undefined: 0,
                    distinguishable: false,
                    se_paired: Some(0.08),
                    mde: Some(0.25),
                    items_needed: Some(112),
                }],
                mcnemar: McNemar {
                    both_right: 20,
                    only_a: 10,
                    only_b: 4,
                    both_wrong: 6,
                    not_binary: 0,
                    p_value: Some(0.1795654296875),
                },
                clusters: None,
            }],
            notes: Vec::new(),
        }
    }

    #[test]
    fn csv_keeps_every_digit_and_markdown_four_decimals() {
        let t = pair_tables(&comparison());
        assert_eq!(t.len(), 2);
        let csv = crate::table::csv(&t);
        assert!(
            csv.contains(
                "metrics.accuracy,0.75,0.6,0.15000000000000002,-0.05,0.35,0.1,0,no,0.08,0.25,112\n"
            ),
            "{csv}"
        );
        assert!(csv.contains("20,10,4,6,0,0.1795654296875\n"), "{csv}");
        assert!(csv.contains("model-a (A) vs model-b (B): 40 common items, strata group (2)"));
        let md = crate::table::markdown(&t);
        assert!(md.contains("| metrics.accuracy | 0.7500 | 0.6000 | 0.1500 | -0.0500 | 0.3500 | 0.1000 | 0 | no | 0.0800 | 0.2500 | 112 |"), "{md}");
        assert!(md.contains("| 20 | 10 | 4 | 6 | 0 | 0.1796 |"), "{md}");
    }
}
