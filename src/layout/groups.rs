//! The groups table, every group in natural order; a face that shows fewer picks with `row`.

use super::{count, row as cells, share, text};
use crate::report::{groups, GroupFigures};
use crate::table::{Entry, Table};
use crate::Report;

/// The columns of the groups table.
pub const COLUMNS: [&str; 5] = ["group", "items", "accuracy", "normalized", "invalid share"];

/// "Groups": every group, in natural order of name.
pub fn table(r: &Report) -> Table<Entry> {
    Table::new(
        "Groups",
        &COLUMNS,
        groups::in_name_order(&r.groups)
            .into_iter()
            .map(|i| row(&r.groups[i]))
            .collect(),
    )
}

/// One group's row of the groups table.
pub fn row(g: &GroupFigures) -> Vec<Entry> {
    cells([
        text(g.name.as_str()),
        count(g.items),
        share(g.accuracy),
        share(g.normalized),
        share(g.invalid_share),
    ])
}
