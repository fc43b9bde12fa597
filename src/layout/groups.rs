//! The groups table, every group in natural order; a face that shows fewer picks with `row`.

use super::{count, in_pieces, row as cells, share, text};
use crate::report::{groups, GroupFigures};
use crate::table::{Entry, Piece};
use crate::Report;

/// The columns of the groups table.
pub const COLUMNS: [&str; 5] = ["group", "items", "accuracy", "normalized", "invalid share"];

/// "Groups": every group, in natural order of name, in pieces.
pub fn pieces(r: &Report, take: &mut impl FnMut(Piece<Entry>)) {
    let order = groups::in_name_order(&r.groups);
    let row = |&i: &usize| r.groups.get(i).map(row).unwrap_or_default();
    in_pieces("Groups".to_string(), &COLUMNS, &order, row, take);
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
