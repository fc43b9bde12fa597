//! Fuzzes the leaderboard's join: two to four small runs (duplicate ids, disjoint ids, empty
//! runs, other profiles) joined on item id and ranked as `scorelens leaderboard` ranks them
//! (`Joined::with_subsets`, `--by` through `Joined::only`, resamples drawn on every core in
//! ranges), with 20 resamples so that an input stays quick. Drawing in ranges must give the
//! leaderboard drawn at once; every board ranks every run, and the tables, CSV, Markdown and JSON
//! are made as the CLI makes them.
//!
//! Input: byte 0 picks how many subsets are ranked and whether one figure is (`--by`), byte 1
//! the seed; the rest is runs separated by `common::RUN_SEP`, each files in `common::paths`'
//! layout.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::leaderboard::tables::{default_figure, tables};
use scorelens::leaderboard::{leaderboard, Joined};
use scorelens::{BootstrapOptions, Options};

fuzz_target!(|data: &[u8]| {
    let [mode, seed, rest @ ..] = data else {
        return;
    };
    let runs = common::runs_of(rest, &Options::default());
    if runs.len() < 2 {
        return;
    }
    let boot = BootstrapOptions {
        resamples: 20,
        seed: u64::from(*seed),
    };
    let n = runs.len();

    // Drawn in ranges on every core, as the CLI draws, equals drawn at once.
    let at_once = leaderboard(&runs, &boot);
    let in_ranges = common::leaderboard(Joined::new(&runs), &boot);
    assert_eq!(
        at_once.to_json(),
        in_ranges.to_json(),
        "drawing in ranges changed the board"
    );

    let mut joined = Joined::with_subsets(&runs, usize::from(mode & 0x3f));
    if mode & 0x40 != 0 {
        let names = joined.board_names();
        if let Some(f) = names.get(usize::from(*seed) % names.len().max(1)) {
            match joined.only(f) {
                Some(j) => joined = j,
                None => panic!("{f} is a board's name but `only` finds no such board"),
            }
        }
    }
    let l = common::leaderboard(joined, &boot);
    assert_eq!(l.runs.len(), n);
    assert_eq!(l.not_shared.len(), n);
    let fewest = runs.iter().map(|r| r.sample.len()).min().unwrap_or(0);
    assert!(
        l.common as usize <= fewest,
        "{} shared of {fewest}",
        l.common
    );
    for b in l.figures.iter().chain(&l.subsets) {
        assert_eq!(b.standings.len(), n, "{} does not rank every run", b.figure);
        assert_eq!(b.pairs.len(), n * (n - 1) / 2, "{} lacks a pair", b.figure);
    }
    let _ = l.to_json();
    if let Some(figure) = default_figure(&l) {
        if let Some(t) = tables(&l, figure) {
            let _ = scorelens::table::csv(&t);
            let _ = scorelens::table::markdown(&t);
        }
    }
});
