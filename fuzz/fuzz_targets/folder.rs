//! Fuzzes a dropped folder: its files (paths in folders, bytes that may be gzip, zstd or UTF-16)
//! grouped into runs as the CLI's `score DIR` and the page group them (each file's first bytes
//! decoded by `session::peek`, then `runs::find`), then each run scored. Every file must end up
//! in exactly one run or among the files set aside, and no two runs may share a name (a
//! leaderboard refuses two runs of one name).
//!
//! Input: byte 0 picks the grouping; the rest is files in `common::paths`' layout.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::runs::{self, Grouping, Offered};
use scorelens::{score_sources, Options, Source};
use std::collections::HashSet;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let how = [Grouping::Found, Grouping::OneRun, Grouping::PerFile][usize::from(mode) % 3];
    // Under a folder of its own name, as the CLI shows a folder's files.
    let files: Vec<(String, &[u8])> = common::paths(rest)
        .into_iter()
        .map(|(path, bytes)| (format!("results/{path}"), bytes))
        .collect();
    let peeked: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(path, bytes)| {
            scorelens::session::peek(path, *bytes).unwrap_or_else(|_| (path.clone(), Vec::new()))
        })
        .collect();
    let offered: Vec<Offered> = peeked
        .iter()
        .map(|(path, head)| Offered { path, head })
        .collect();
    let found = runs::find(&offered, how);

    let mut seen = HashSet::new();
    for r in &found.runs {
        assert!(!r.files.is_empty(), "run {} has no file", r.name);
        for &i in &r.files {
            assert!(
                i < files.len() && seen.insert(i),
                "file {i} twice or unknown"
            );
        }
    }
    for (i, _) in &found.ignored {
        assert!(
            *i < files.len() && seen.insert(*i),
            "file {i} twice or unknown"
        );
    }
    assert_eq!(
        seen.len(),
        files.len(),
        "a file is in no run and not set aside"
    );
    let mut names = HashSet::new();
    for r in &found.runs {
        assert!(
            names.insert(r.name.as_str()),
            "two runs are named {:?}",
            r.name
        );
    }
    match how {
        Grouping::OneRun => assert!(found.runs.len() <= 1),
        Grouping::PerFile => assert!(found.runs.iter().all(|r| r.files.len() == 1)),
        Grouping::Found => {}
    }
    let _ = found.summary();

    let opts = Options {
        items: Some(1000),
        ..Options::default()
    };
    for r in found.runs.iter().take(8) {
        let sources = r
            .files
            .iter()
            .map(|&i| Source::bytes(files[i].0.as_str(), files[i].1));
        if let Ok(f) = score_sources(sources, &opts) {
            let _ = f.report.to_json();
        }
    }
});
