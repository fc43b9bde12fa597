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

use crate::table::{Entry, Figure, Table};
use crate::Report;

/// The report's tables, in the order a reader wants them: the headline, whether these are the
/// benchmark's figures at all, a profile's own sections (RewardBench, then I and C), every
/// figure, calibration both ways with its reliability bins (for runs with probabilities), the
/// groups, how sure each figure is, then how the files were read and the tools' own figures.
pub fn tables(r: &Report) -> Vec<Table<Entry>> {
    let mut all = Vec::new();
    each_table(r, |t| all.push(t));
    all
}

/// `tables`, handed to `take` one at a time in the same order, so that a writer need not hold
/// them all: the groups and their Wilson intervals are 200,000 rows each on a file whose groups
/// are item ids.
pub fn each_table(r: &Report, mut take: impl FnMut(Table<Entry>)) {
    take(figures::headline(r));
    scope::table(r).into_iter().for_each(&mut take);
    rewardbench::tables(r).into_iter().for_each(&mut take);
    ic::tables(r).into_iter().for_each(&mut take);
    multi::table(r).into_iter().for_each(&mut take);
    take(figures::table(r));
    // Reward-model and graded runs have no probabilities: no empty calibration tables for them.
    if r.conditioning.items > 0 {
        calibration::tables(r).into_iter().for_each(&mut take);
    }
    take(groups::table(r));
    intervals::tables(r).into_iter().for_each(&mut take);
    sources::tables(r).into_iter().for_each(&mut take);
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
