//! The I/C section as tables: the headline per scope, each type's parts and their tiers.

use super::{count, share, text};
use crate::metrics::ic::figures::{ScopeFigures, Tiers, TypeFigures};
use crate::table::{Entry, Figure, Table};
use crate::Report;

/// A 0-100 figure.
fn pts(x: Option<f64>) -> Entry {
    Entry::Figure(Figure::Decimals(x, 2))
}

/// The I/C tables (headline, by type, tiers), when the report has I/C figures.
pub fn tables(r: &Report) -> Vec<Table<Entry>> {
    let Some(ic) = &r.ic else {
        return Vec::new();
    };
    let mut scopes: Vec<(&str, &ScopeFigures)> = vec![("all", &ic.overall)];
    scopes.extend(ic.scopes.text.as_ref().map(|s| ("text", s)));
    scopes.extend(ic.scopes.image.as_ref().map(|s| ("image", s)));
    vec![headline(&scopes), by_type(&ic.overall), tiers(&ic.overall)]
}

fn headline(scopes: &[(&str, &ScopeFigures)]) -> Table<Entry> {
    type Get = fn(&ScopeFigures) -> Entry;
    let rows: [(&str, Get, &str); 5] = [
        (
            "I",
            |s| pts(s.i),
            "intelligence: mean of the type CCs (choice, binary, rating), equal weights",
        ),
        (
            "I weighted",
            |s| pts(s.i_weighted),
            "the same with type weights 50/25/25",
        ),
        (
            "C",
            |s| pts(s.c),
            "calibration: mean of the type C parts (conditioning probabilities, equal-width ECE)",
        ),
        (
            "pooled ECE",
            |s| share(s.pooled_ece),
            "cmdb-1500: one top-label ECE over choice and binary items, the choice ECE term of C",
        ),
        (
            "items",
            |s| count(s.items),
            "choice, binary and rating items (multi is outside I/C)",
        ),
    ];
    let mut columns = vec!["figure".to_string()];
    columns.extend(scopes.iter().map(|(n, _)| n.to_string()));
    columns.push("what it is".to_string());
    Table {
        title: "I and C (0-100)".to_string(),
        columns,
        rows: rows
            .iter()
            .filter(|(name, ..)| {
                *name != "pooled ECE" || scopes.iter().any(|(_, s)| s.pooled_ece.is_some())
            })
            .map(|(name, get, what)| {
                let mut row = vec![text(*name)];
                row.extend(scopes.iter().map(|(_, s)| get(s)));
                row.push(text(*what));
                row
            })
            .collect(),
    }
}

fn by_type(s: &ScopeFigures) -> Table<Entry> {
    let t = &s.types;
    let types = [&t.choice, &t.binary, &t.rating];
    type Get = fn(&TypeFigures) -> Entry;
    let rows: [(&str, Get, &str); 14] = [
        ("CC", |f| pts(f.cc), "chance-corrected competence, tier-weighted; 0 = chance, 100 = perfect"),
        ("C", |f| pts(f.c), "calibration part: ece_score = max(0, 100(1-2 ECE)), averaged with 100(1-TVD) / 100(1-RPS)"),
        ("ECE", |f| share(f.ece), "10 equal-width bins, conditioning; its confidence and items are the next two rows"),
        ("ECE confidence", |f| text(f.ece_confidence.replace('_', " ")), "top label: max q, right when the first arg-max is gold; q yes: against gold = yes"),
        ("ECE items", |f| text(format!("{} ({})", f.ece_items, f.ece_scope.replace('_', " "))), "items in ECE and TVD: the type, its hard tier, or the type as a fallback"),
        ("TVD", |f| share(f.tvd), "mean total variation distance to gold_probs (decision-bench: 1 - q[gold])"),
        ("RPS", |f| share(f.rps), "rating: ranked probability score against the gold (or gold_probs)"),
        ("Brier", |f| share(f.brier), "mean squared error over the options, conditioning (binary: (q_yes - [gold = yes])^2)"),
        ("NLL", |f| share(f.nll), "mean -ln q[gold], conditioning"),
        ("abstention", |f| share(f.abstention_rate), "binary: share with 0.2 < q_yes < 0.8, counted wrong"),
        ("items", |f| count(f.items), "items of the type"),
        ("invalid", |f| count(f.invalid), "invalid answers (wrong; ratings take the largest error)"),
        ("with probs", |f| count(f.prob_items), "items with valid probabilities (Brier, NLL, RPS)"),
        ("with gold_probs", |f| count(f.tvd_items), "items in TVD"),
    ];
    Table::new(
        "I/C by type",
        &["figure", "choice", "binary", "rating", "what it is"],
        rows.iter()
            .map(|(name, get, what)| {
                let mut row = vec![text(*name)];
                // A type the run lacks: every row of its column is a figure that does not apply.
                row.extend(
                    types
                        .iter()
                        .map(|f| f.as_ref().map_or_else(|| share(None), get)),
                );
                row.push(text(*what));
                row
            })
            .collect(),
    )
}

fn tiers(s: &ScopeFigures) -> Table<Entry> {
    let t = &s.types;
    let mut rows = Vec::new();
    let mut add = |kind: &str, split: &str, tiers: &Tiers| {
        for (name, f) in tiers.present() {
            rows.push(vec![
                text(kind),
                text(split),
                text(name),
                count(f.items),
                share(Some(f.weight)),
                pts(f.cc),
                share(f.accuracy.or(f.nmae)),
                share(f.chance.or(f.nmae_chance)),
            ]);
        }
    };
    for (kind, f) in [
        ("choice", &t.choice),
        ("binary", &t.binary),
        ("rating", &t.rating),
    ] {
        let Some(f) = f else { continue };
        match &f.splits {
            Some(sp) => {
                add(kind, "open", &sp.open.tiers);
                add(kind, "sealed", &sp.sealed.tiers);
            }
            None => add(kind, "all", &f.tiers),
        }
    }
    Table::new(
        "I/C tiers (accuracy for choice/binary, nMAE for rating; chance = cbar, 0.5 or nMAE_chance)",
        &[
            "type",
            "split",
            "tier",
            "items",
            "weight",
            "CC",
            "accuracy/nMAE",
            "chance",
        ],
        rows,
    )
}
