//! The I/C and multi-select sections of the report as tables, each figure saying what it is.

use scorelens::metrics::ic::figures::{ScopeFigures, Tiers, TypeFigures};
use scorelens::metrics::multi::MultiScopeFigures;
use scorelens::table::Table;
use scorelens::Report;

/// A 0–100 figure.
fn pts(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

/// A 0–1 figure.
fn unit(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.4}"))
}

fn strings(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|s| s.to_string()).collect()
}

/// The I/C tables (headline, by type, tiers) and the multi-select table, for what the report has.
pub fn tables(r: &Report) -> Vec<Table> {
    let mut out = Vec::new();
    if let Some(ic) = &r.ic {
        let mut scopes: Vec<(&str, &ScopeFigures)> = vec![("all", &ic.overall)];
        scopes.extend(ic.scopes.text.as_ref().map(|s| ("text", s)));
        scopes.extend(ic.scopes.image.as_ref().map(|s| ("image", s)));
        out.push(headline(&scopes));
        out.push(by_type(&ic.overall));
        out.push(tiers(&ic.overall));
    }
    if let Some(m) = &r.multi {
        let mut scopes: Vec<(&str, &MultiScopeFigures)> = vec![("all", &m.overall)];
        scopes.extend(m.scopes.text.as_ref().map(|s| ("text", s)));
        scopes.extend(m.scopes.image.as_ref().map(|s| ("image", s)));
        out.push(multi(&scopes));
    }
    out
}

fn headline(scopes: &[(&str, &ScopeFigures)]) -> Table {
    type Get = fn(&ScopeFigures) -> String;
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
            |s| unit(s.pooled_ece),
            "cmdb-1500: one top-label ECE over choice and binary items, the choice ECE term of C",
        ),
        (
            "items",
            |s| s.items.to_string(),
            "choice, binary and rating items (multi is outside I/C)",
        ),
    ];
    let mut columns = vec!["figure".to_string()];
    columns.extend(scopes.iter().map(|(n, _)| n.to_string()));
    columns.push("what it is".to_string());
    Table::text(
        "I and C (0-100)".to_string(),
        columns,
        rows.iter()
            .filter(|(name, ..)| {
                *name != "pooled ECE" || scopes.iter().any(|(_, s)| s.pooled_ece.is_some())
            })
            .map(|(name, get, what)| {
                let mut row = vec![name.to_string()];
                row.extend(scopes.iter().map(|(_, s)| get(s)));
                row.push(what.to_string());
                row
            })
            .collect(),
    )
}

fn by_type(s: &ScopeFigures) -> Table {
    let t = &s.types;
    let types = [&t.choice, &t.binary, &t.rating];
    type Get = fn(&TypeFigures) -> String;
    let rows: [(&str, Get, &str); 14] = [
        ("CC", |f| pts(f.cc), "chance-corrected competence, tier-weighted; 0 = chance, 100 = perfect"),
        ("C", |f| pts(f.c), "calibration part: ece_score = max(0, 100(1-2 ECE)), averaged with 100(1-TVD) / 100(1-RPS)"),
        ("ECE", |f| unit(f.ece), "10 equal-width bins, conditioning; its confidence and items are the next two rows"),
        ("ECE confidence", |f| f.ece_confidence.replace('_', " "), "top label: max q, right when the first arg-max is gold; q yes: against gold = yes"),
        ("ECE items", |f| format!("{} ({})", f.ece_items, f.ece_scope.replace('_', " ")), "items in ECE and TVD: the type, its hard tier, or the type as a fallback"),
        ("TVD", |f| unit(f.tvd), "mean total variation distance to gold_probs (decision-bench: 1 - q[gold])"),
        ("RPS", |f| unit(f.rps), "rating: ranked probability score against the gold (or gold_probs)"),
        ("Brier", |f| unit(f.brier), "mean squared error over the options, conditioning (binary: (q_yes - [gold = yes])^2)"),
        ("NLL", |f| unit(f.nll), "mean -ln q[gold], conditioning"),
        ("abstention", |f| unit(f.abstention_rate), "binary: share with 0.2 < q_yes < 0.8, counted wrong"),
        ("items", |f| f.items.to_string(), "items of the type"),
        ("invalid", |f| f.invalid.to_string(), "invalid answers (wrong; ratings take the largest error)"),
        ("with probs", |f| f.prob_items.to_string(), "items with valid probabilities (Brier, NLL, RPS)"),
        ("with gold_probs", |f| f.tvd_items.to_string(), "items in TVD"),
    ];
    Table::text(
        "I/C by type".to_string(),
        strings(&["figure", "choice", "binary", "rating", "what it is"]),
        rows.iter()
            .map(|(name, get, what)| {
                let mut row = vec![name.to_string()];
                row.extend(
                    types
                        .iter()
                        .map(|f| f.as_ref().map_or("-".to_string(), get)),
                );
                row.push(what.to_string());
                row
            })
            .collect(),
    )
}

fn tiers(s: &ScopeFigures) -> Table {
    let t = &s.types;
    let mut rows = Vec::new();
    let mut add = |kind: &str, split: &str, tiers: &Tiers| {
        for (name, f) in tiers.present() {
            rows.push(vec![
                kind.to_string(),
                split.to_string(),
                name.to_string(),
                f.items.to_string(),
                format!("{:.4}", f.weight),
                pts(f.cc),
                unit(f.accuracy.or(f.nmae)),
                unit(f.chance.or(f.nmae_chance)),
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
    Table::text("I/C tiers (accuracy for choice/binary, nMAE for rating; chance = cbar, 0.5 or nMAE_chance)"
            .to_string(), strings(&["type", "split", "tier", "items", "weight", "CC", "accuracy/nMAE", "chance"]), rows)
}

fn multi(scopes: &[(&str, &MultiScopeFigures)]) -> Table {
    type Get = fn(&MultiScopeFigures) -> String;
    let rows: [(&str, Get, &str); 7] = [
        (
            "exact set",
            |m| unit(Some(m.exact_set_accuracy)),
            "share answering exactly the gold set",
        ),
        (
            "precision",
            |m| unit(Some(m.precision)),
            "mean per-item |answer ∩ gold| / |answer|",
        ),
        (
            "recall",
            |m| unit(Some(m.recall)),
            "mean per-item |answer ∩ gold| / |gold|",
        ),
        (
            "F1",
            |m| unit(Some(m.f1)),
            "mean per-item F1 (invalid or empty answers 0)",
        ),
        (
            "P(gold set)",
            |m| unit(m.p_gold_set),
            "mean product of the conditional step probabilities along the gold labels",
        ),
        (
            "invalid share",
            |m| unit(Some(m.invalid_share)),
            "answers absent or naming a label outside the options",
        ),
        ("items", |m| m.items.to_string(), "multi-select items"),
    ];
    let mut columns = vec!["figure".to_string()];
    columns.extend(scopes.iter().map(|(n, _)| n.to_string()));
    columns.push("what it is".to_string());
    Table::text(
        "Multi-select".to_string(),
        columns,
        rows.iter()
            .map(|(name, get, what)| {
                let mut row = vec![name.to_string()];
                row.extend(scopes.iter().map(|(_, m)| get(m)));
                row.push(what.to_string());
                row
            })
            .collect(),
    )
}
