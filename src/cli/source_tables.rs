//! Where the figures come from: how each file was read (format, version, mapping, counts) and the
//! figures the tools reported themselves, shown beside ours.

use scorelens::table::Table;
use scorelens::Report;

fn strings(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|s| s.to_string()).collect()
}

/// The "Files" table when any file says how it was read, and the "Reported by the tools" table
/// when a tool's own figures were found.
pub fn tables(r: &Report) -> Vec<Table> {
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
                super::tables::items(f.items),
                f.skipped,
                f.not_applicable
            );
            let version = f.version.as_deref().unwrap_or("-");
            rows.push(strings(&[&f.name, &f.format, version, &counts]));
            for m in &f.mapping {
                rows.push(strings(&["", "", "", m]));
            }
        }
        out.push(Table::text(
            "Files".to_string(),
            strings(&["file", "format", "version", "read as"]),
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
                strings(&[
                    &x.source,
                    &x.name,
                    scope,
                    &format!("{:.4}", x.value),
                    &x.note,
                ])
            })
            .collect();
        out.push(Table::text(
            "Reported by the tools (beside ours)".to_string(),
            strings(&["source", "figure", "scope", "value", "note"]),
            rows,
        ));
    }
    out
}
