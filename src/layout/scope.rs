//! The file's counts against the benchmark's frozen ones: whether these are its figures at all.

use super::{count, row, text};
use crate::table::{Entry, Table};
use crate::Report;

/// "Benchmark counts", complete or not.
pub fn table(r: &Report) -> Option<Table<Entry>> {
    let scope = r.scope.as_ref()?;
    let title = if scope.complete {
        "Benchmark counts: complete"
    } else {
        "Benchmark counts: INCOMPLETE (not the benchmark's figures)"
    };
    let rows = scope
        .expected
        .0
        .iter()
        .zip(&scope.found.0)
        .map(|((key, want), (_, got))| {
            let mark = if got == want { "yes" } else { "NO" };
            row([
                text(key.replace('_', " ")),
                count(*want),
                count(*got),
                text(mark),
            ])
        })
        .collect();
    Some(Table::new(
        title,
        &["count", "benchmark", "this file", "equal"],
        rows,
    ))
}
