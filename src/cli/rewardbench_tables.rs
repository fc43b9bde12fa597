//! The RewardBench section of the report as tables: sections as the leaderboard shows them, the
//! subsets behind them, the Ties composite, and where the model fails (worst items, margins).

use scorelens::report::rewardbench::RewardBenchFigures;
use scorelens::table::Table;
use scorelens::Report;

/// How many of each subset's worst items the table lists (the JSON report keeps more).
const WORST_SHOWN: usize = 3;

fn unit(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.4}"))
}

/// As the leaderboard prints it: a percentage with one decimal.
fn board(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.1}", 100.0 * v))
}

fn strings(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|s| s.to_string()).collect()
}

/// The RewardBench tables, when the report has RewardBench figures.
pub fn tables(r: &Report) -> Vec<Table> {
    let Some(rb) = &r.rewardbench else {
        return Vec::new();
    };
    let mut out = vec![sections(rb), subsets(rb)];
    if let Some(t) = &rb.ties {
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
        out.push(Table::text(
            format!(
                "Ties ({} prompt pairs; {} ref, {} tied prompts)",
                t.pairs, t.ref_prompts, t.tied_prompts
            ),
            strings(&["part", "value", "weight", "what it is"]),
            parts
                .iter()
                .map(|(n, v, w, what)| strings(&[n, &unit(*v), w, what]))
                .collect(),
        ));
    }
    if rb.margins.items > 0 {
        out.push(worst(rb));
        out.push(Table::text(
            format!(
                "Margins ({} items: {} negative, {} exact ties)",
                rb.margins.items, rb.margins.negative, rb.margins.ties
            ),
            strings(&["from", "to", "count"]),
            rb.margins
                .histogram
                .iter()
                .map(|b| {
                    vec![
                        format!("{:.3}", b.lo),
                        format!("{:.3}", b.hi),
                        b.count.to_string(),
                    ]
                })
                .collect(),
        ));
    }
    out
}

fn sections(rb: &RewardBenchFigures) -> Table {
    let title = match rb.version.as_str() {
        "rewardbench2" => "RewardBench 2",
        _ => "RewardBench",
    };
    let mut rows: Vec<Vec<String>> = rb
        .section_details
        .iter()
        .map(|s| {
            vec![
                s.name.clone(),
                unit(s.score),
                board(s.score),
                s.items.to_string(),
                unit(s.length_baseline),
                s.missing.join(", "),
            ]
        })
        .collect();
    // v1's overall is over its four sections; Prior Sets count only in the weighted row.
    let four = if rb.version == "rewardbench2" {
        usize::MAX
    } else {
        4
    };
    let items = |n: usize| -> u64 { rb.section_items.0.iter().take(n).map(|(_, n)| n).sum() };
    rows.push(vec![
        "overall".to_string(),
        unit(rb.overall),
        board(rb.overall),
        items(four).to_string(),
        unit(rb.length_baseline),
        String::new(),
    ]);
    if rb.overall_with_prior_sets.is_some() {
        rows.push(vec![
            "overall with prior sets".to_string(),
            unit(rb.overall_with_prior_sets),
            board(rb.overall_with_prior_sets),
            items(usize::MAX).to_string(),
            "-".to_string(),
            "(2C + 2CH + 2S + 2R + P) / 9, the first leaderboard's weighting".to_string(),
        ]);
    }
    Table::text(
        title.to_string(),
        strings(&[
            "section",
            "score",
            "x100",
            "items",
            "longer wins",
            "missing subsets",
        ]),
        rows,
    )
}

fn subsets(rb: &RewardBenchFigures) -> Table {
    Table::text(
        "Subsets".to_string(),
        strings(&[
            "subset",
            "section",
            "weight",
            "items",
            "score",
            "from",
            "exact ties",
            "longer wins",
        ]),
        rb.subset_details
            .iter()
            .map(|s| {
                vec![
                    s.name.clone(),
                    s.section.clone().unwrap_or_else(|| "(none)".to_string()),
                    s.weight.map_or_else(|| "-".to_string(), |w| format!("{w}")),
                    s.items.to_string(),
                    unit(s.score),
                    s.source.clone(),
                    s.ties.to_string(),
                    unit(s.length_baseline),
                ]
            })
            .collect(),
    )
}

fn worst(rb: &RewardBenchFigures) -> Table {
    let mut rows = Vec::new();
    for s in &rb.subset_details {
        for w in s.worst.iter().take(WORST_SHOWN) {
            rows.push(vec![
                s.name.clone(),
                w.id.clone(),
                format!("{:.4}", w.margin),
                w.line.map_or_else(|| "-".to_string(), |l| l.to_string()),
            ]);
        }
    }
    Table::text(
        format!("Worst items (up to {WORST_SHOWN} per subset; most negative margin first)"),
        strings(&["subset", "id", "margin", "line"]),
        rows,
    )
}
