//! What the benchmarks share: the generated input files and a sink that only counts.
//!
//! Inputs come from scripts/gen_large.py (seeded), cached in target/bench-data/ (or
//! $SCORELENS_BENCH_DATA) and generated on first use, so every run measures the same bytes.
#![allow(dead_code)] // each bench target uses its own part of this module

use scorelens::formats::canonical::Canonical;
use scorelens::formats::{Format, Meta, Shelf, Sink};
use scorelens::items::Item;
use scorelens::reported::Reported;
use scorelens::Warning;
use std::path::PathBuf;
use std::process::Command;

/// Item counts to measure: $SCORELENS_BENCH_SIZES (comma-separated), else 10k, 100k and 1M.
pub fn sizes() -> Vec<usize> {
    std::env::var("SCORELENS_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 100_000, 1_000_000])
}

/// The generated canonical file of `n` items, made on first use.
pub fn file(n: usize) -> Vec<u8> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("SCORELENS_BENCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target").join("bench-data"));
    let path = dir.join(format!("items-{n}.jsonl"));
    if !path.exists() {
        std::fs::create_dir_all(&dir).expect("create the bench data folder");
        let status = Command::new("python3")
            .arg(root.join("scripts").join("gen_large.py"))
            .args(["--items", &n.to_string(), "--out"])
            .arg(&path)
            .status()
            .expect("run python3 scripts/gen_large.py");
        assert!(status.success(), "gen_large.py failed");
    }
    std::fs::read(&path).expect("read the bench data file")
}

/// Keeps what the benchmarks need from a reader's output.
#[derive(Default)]
pub struct Collect {
    pub items: Vec<Item>,
    pub count: u64,
    pub skipped: u64,
    /// Keep the items (metrics benches) or only count them (parse bench).
    pub keep: bool,
    shelf: Shelf,
}

impl Sink for Collect {
    fn item(&mut self, item: Item) {
        self.count += 1;
        if self.keep {
            self.items.push(item);
        } else {
            std::hint::black_box(&item);
        }
    }
    fn item_in(&mut self, _file: &str, item: Item) {
        self.item(item);
    }
    fn skip(&mut self, _w: Warning) {
        self.skipped += 1;
    }
    fn warn(&mut self, _w: Warning) {}
    fn meta(&mut self, _key: Meta, _value: &str) {}
    fn reported(&mut self, _figure: Reported) {}
    fn shelf(&mut self) -> &mut Shelf {
        &mut self.shelf
    }
}

/// Runs the canonical reader over `bytes` into `sink`.
pub fn parse(bytes: &[u8], sink: &mut Collect) {
    let mut reader = Canonical.reader("bench.jsonl");
    reader.feed(bytes, sink);
    reader.finish(sink);
}

/// The items of the generated file of `n` items.
pub fn items(n: usize) -> Vec<Item> {
    let mut sink = Collect {
        keep: true,
        ..Collect::default()
    };
    parse(&file(n), &mut sink);
    assert_eq!(sink.count as usize, n, "every generated item is read");
    sink.items
}
