//! The RewardBench section as tables: sections, subsets, Ties, worst items and margins.

use super::{count, row, share, text};
use crate::report::rewardbench::RewardBenchFigures;
use crate::table::{Entry, Figure, Table};
use crate::Report;

/// How many of each subset's worst items the table lists (the JSON report keeps more).
const WORST_SHOWN: usize = 3;

/// As the leaderboard prints it: a percentage with one decimal.
fn board(x: Option<f64>) -> Entry {
    Entry::Figure(Figure::Percent(x, 1))
}

/// The RewardBench tables, when the report has RewardBench figures.
pub fn tables(r: &Report) -> Vec<Table<Entry>> {
    let Some(rb) = &r.rewardbench else {
        return Vec::new();
    };
    let mut out = vec![sections(rb), subsets(rb)];
    if let Some(t) = &rb.ties {
        // The weights are the composite's definition, written as it writes them.
        let parts = [
            (
                "tied accuracy",
                t.tied_accuracy,
                "0.30",
                "every correct answer above every wrong one, tied prompts",
            ),
            (
                "ref accuracy",
                t.ref_accuracy,
                "0.30",
                "the same, reference prompts (one correct answer)",
            ),
            (
                "correctness preferred",
                t.correctness_preferred,
                "0.20",
                "cim(tied) > spread of the correct answers",
            ),
            (
                "correctness preferred, hard",
                t.correctness_preferred_hard,
                "0.20",
                "min(cim(ref), cim(tied)) > spread",
            ),
            (
                "margin score",
                t.margin_score,
                "0.01",
                "mean tanh(min cim / spread - 1), NaN as 0",
            ),
            ("Ties", t.score, "", "the weighted sum, in this order"),
        ];
        out.push(Table::new(
            format!(
                "Ties ({} prompt pairs; {} ref, {} tied prompts)",
                t.pairs, t.ref_prompts, t.tied_prompts
            ),
            &["part", "value", "weight", "what it is"],
            parts
                .iter()
                .map(|(n, v, w, what)| row([text(*n), share(*v), text(*w), text(*what)]))
                .collect(),
        ));
    }
    if rb.margins.items > 0 {
        out.push(worst(rb));
        let edge = |v: f64| Entry::Figure(Figure::Decimals(Some(v), 3));
        out.push(Table::new(
            format!(
                "Margins ({} items: {} negative, {} exact ties)",
                rb.margins.items, rb.margins.negative, rb.margins.ties
            ),
            &["from", "to", "count"],
            rb.margins
                .histogram
                .iter()
                .map(|b| row([edge(b.lo), edge(b.hi), count(b.count)]))
                .collect(),
        ));
    }
    out
}

fn sections(rb: &RewardBenchFigures) -> Table<Entry> {
    let title = match rb.version.as_str() {
        "rewardbench2" => "RewardBench 2",
        _ => "RewardBench",
    };
    let mut rows: Vec<Vec<Entry>> = rb
        .section_details
        .iter()
        .map(|s| {
            row([
                text(s.name.as_str()),
                share(s.score),
                board(s.score),
                count(s.items),
                share(s.length_baseline),
                text(s.missing.join(", ")),
            ])
        })
        .collect();
    // v1's overall is over its four sections; Prior Sets count only in the weighted row.
    let four = if rb.version == "rewardbench2" {
        usize::MAX
    } else {
        4
    };
    let items = |n: usize| -> u64 { rb.section_items.0.iter().take(n).map(|(_, n)| n).sum() };
    rows.push(row([
        text("overall"),
        share(rb.overall),
        board(rb.overall),
        count(items(four)),
        share(rb.length_baseline),
        text(""),
    ]));
    if rb.overall_with_prior_sets.is_some() {
        rows.push(row([
            text("overall with prior sets"),
            share(rb.overall_with_prior_sets),
            board(rb.overall_with_prior_sets),
            count(items(usize::MAX)),
            share(None),
            text("(2C + 2CH + 2S + 2R + P) / 9, the first leaderboard's weighting"),
        ]));
    }
    Table::new(
        title,
        &[
            "section",
            "score",
            "x100",
            "items",
            "longer wins",
            "missing subsets",
        ],
        rows,
    )
}

fn subsets(rb: &RewardBenchFigures) -> Table<Entry> {
    Table::new(
        "Subsets",
        &[
            "subset",
            "section",
            "weight",
            "items",
            "score",
            "from",
            "exact ties",
            "longer wins",
        ],
        rb.subset_details
            .iter()
            .map(|s| {
                row([
                    text(s.name.as_str()),
                    text(s.section.as_deref().unwrap_or("(none)")),
                    Figure::Exact(s.weight).into(),
                    count(s.items),
                    share(s.score),
                    text(s.source.as_str()),
                    count(s.ties),
                    share(s.length_baseline),
                ])
            })
            .collect(),
    )
}

fn worst(rb: &RewardBenchFigures) -> Table<Entry> {
    let mut rows = Vec::new();
    for s in &rb.subset_details {
        for w in s.worst.iter().take(WORST_SHOWN) {
            rows.push(row([
                text(s.name.as_str()),
                text(w.id.as_str()),
                share(Some(w.margin)),
                Figure::Count(w.line).into(),
            ]));
        }
    }
    Table::new(
        format!("Worst items (up to {WORST_SHOWN} per subset; most negative margin first)"),
        &["subset", "id", "margin", "line"],
        rows,
    )
}
