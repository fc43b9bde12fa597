//! The multi-select section of a report as a table, per scope (all, text, image).

use super::{count, share, text};
use crate::metrics::multi::MultiScopeFigures;
use crate::table::{Entry, Table};
use crate::Report;

/// "Multi-select", when the report has multi-select items.
pub fn table(r: &Report) -> Option<Table<Entry>> {
    let m = r.multi.as_ref()?;
    let mut scopes: Vec<(&str, &MultiScopeFigures)> = vec![("all", &m.overall)];
    scopes.extend(m.scopes.text.as_ref().map(|s| ("text", s)));
    scopes.extend(m.scopes.image.as_ref().map(|s| ("image", s)));
    type Get = fn(&MultiScopeFigures) -> Entry;
    let rows: [(&str, Get, &str); 7] = [
        (
            "exact set",
            |m| share(Some(m.exact_set_accuracy)),
            "share answering exactly the gold set",
        ),
        (
            "precision",
            |m| share(Some(m.precision)),
            "mean per-item |answer ∩ gold| / |answer|",
        ),
        (
            "recall",
            |m| share(Some(m.recall)),
            "mean per-item |answer ∩ gold| / |gold|",
        ),
        (
            "F1",
            |m| share(Some(m.f1)),
            "mean per-item F1 (invalid or empty answers 0)",
        ),
        (
            "P(gold set)",
            |m| share(m.p_gold_set),
            "mean product of the conditional step probabilities along the gold labels",
        ),
        (
            "invalid share",
            |m| share(Some(m.invalid_share)),
            "answers absent or naming a label outside the options",
        ),
        ("items", |m| count(m.items), "multi-select items"),
    ];
    let mut columns = vec!["figure".to_string()];
    columns.extend(scopes.iter().map(|(n, _)| n.to_string()));
    columns.push("what it is".to_string());
    Some(Table {
        title: "Multi-select".to_string(),
        columns,
        rows: rows
            .iter()
            .map(|(name, get, what)| {
                let mut row = vec![text(*name)];
                row.extend(scopes.iter().map(|(_, m)| get(m)));
                row.push(text(*what));
                row
            })
            .collect(),
    })
}
