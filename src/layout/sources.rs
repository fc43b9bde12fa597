//! Where the figures come from: how each file was read and the tools' own figures beside ours.

use super::{items, row, text};
use crate::table::{Entry, Figure, Table};
use crate::Report;

/// The "Files" table when any file says how it was read, and the "Reported by the tools" table
/// when a tool's own figures were found.
pub fn tables(r: &Report) -> Vec<Table<Entry>> {
    let mut out = Vec::new();
    let read_how = r
        .files
        .iter()
        .any(|f| f.version.is_some() || !f.mapping.is_empty() || f.not_applicable > 0);
    if read_how {
        let mut rows = Vec::new();
        for f in &r.files {
            let counts = format!(
                "{}, {} skipped, {} not applicable",
                items(f.items),
                f.skipped,
                f.not_applicable
            );
            let version = f.version.as_deref().unwrap_or("-");
            rows.push(row([
                text(f.name.as_str()),
                text(f.format.as_str()),
                text(version),
                text(counts),
            ]));
            for m in &f.mapping {
                rows.push(row([text(""), text(""), text(""), text(m.as_str())]));
            }
        }
        out.push(Table::new(
            "Files",
            &["file", "format", "version", "read as"],
            rows,
        ));
    }
    if !r.reported.is_empty() {
        let rows = r
            .reported
            .iter()
            .map(|x| {
                let scope = if x.scope.is_empty() {
                    "(run)"
                } else {
                    &x.scope
                };
                row([
                    text(x.source.as_str()),
                    text(x.name.as_str()),
                    text(scope),
                    Figure::Decimals(Some(x.value), 4).into(),
                    text(x.note.as_str()),
                ])
            })
            .collect();
        out.push(Table::new(
            "Reported by the tools (beside ours)",
            &["source", "figure", "scope", "value", "note"],
            rows,
        ));
    }
    out
}
