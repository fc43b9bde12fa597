//! A run's report laid out as tables once, so that the CLI and the page's exports are the same.
//!
//! Each cell is text or a `Figure` that knows how a reader sees it, so that the writers of
//! `crate::table` round it for the eye (text, Markdown) or keep every digit (CSV). Text from a
//! user's file (group, section and model names, paths) goes in as it is: every writer makes it
//! inert or escapes it for its reader.

mod calibration;
mod figures;
mod groups;
mod ic;
mod intervals;
mod multi;
mod rewardbench;
mod scope;
mod sources;

pub use self::groups::row as group_row;

use crate::table::{Entry, Figure, Piece, Table};
use crate::Report;

/// The report's tables, in the order a reader wants them: the headline, whether these are the
/// benchmark's figures at all, a profile's own sections (RewardBench, then I and C), every
/// figure, calibration both ways with its reliability bins (for runs with probabilities), the
/// groups, how sure each figure is, then how the files were read and the tools' own figures.
pub fn tables(r: &Report) -> Vec<Table<Entry>> {
    let mut all: Vec<Table<Entry>> = Vec::new();
    each_piece(r, |p| match p {
        Piece::Start(t) => all.push(t),
        Piece::More(rows) => {
            if let Some(t) = all.last_mut() {
                t.rows.extend(rows);
            }
        }
    });
    all
}

/// `tables`, handed to `take` a piece at a time in the same order (`table::PieceWriter` writes
/// them), so that a writer need not hold them all: the groups and their Wilson intervals are
/// 200,000 rows each on a file whose groups are item ids, and come in pieces of `ROWS`.
pub fn each_piece(r: &Report, mut take: impl FnMut(Piece<Entry>)) {
    let mut whole = |t| take(Piece::Start(t));
    whole(figures::headline(r));
    scope::table(r).into_iter().for_each(&mut whole);
    rewardbench::tables(r).into_iter().for_each(&mut whole);
    ic::tables(r).into_iter().for_each(&mut whole);
    multi::table(r).into_iter().for_each(&mut whole);
    whole(figures::table(r));
    // Reward-model and graded runs have no probabilities: no empty calibration tables for them.
    if r.conditioning.items > 0 {
        calibration::tables(r).into_iter().for_each(&mut whole);
    }
    groups::pieces(r, &mut take);
    intervals::pieces(r, &mut take);
    sources::tables(r)
        .into_iter()
        .for_each(|t| take(Piece::Start(t)));
}

/// Rows in a piece of a long table.
const ROWS: usize = 4096;

/// A long table as pieces of `ROWS` rows: the first with the title and columns.
fn in_pieces<T>(
    title: String,
    columns: &[&str],
    items: &[T],
    row: impl Fn(&T) -> Vec<Entry>,
    take: &mut impl FnMut(Piece<Entry>),
) {
    let mut chunks = items.chunks(ROWS);
    let first = chunks.next().unwrap_or_default();
    take(Piece::Start(Table::new(
        title,
        columns,
        first.iter().map(&row).collect(),
    )));
    for c in chunks {
        take(Piece::More(c.iter().map(&row).collect()));
    }
}

/// A row of text and figures.
fn row<const N: usize>(cells: [Entry; N]) -> Vec<Entry> {
    cells.into()
}

/// A text cell.
fn text(s: impl Into<String>) -> Entry {
    Entry::Text(s.into())
}

/// A share with four decimals.
fn share(v: Option<f64>) -> Entry {
    Entry::Figure(Figure::share(v))
}

/// A count.
fn count(n: impl Into<u64>) -> Entry {
    Entry::Figure(Figure::count(n))
}

/// "1 item", "2 items": a count of items as a sentence says it (digits as the JSON has them).
pub fn items(n: u64) -> String {
    format!("{n} {}", if n == 1 { "item" } else { "items" })
}
