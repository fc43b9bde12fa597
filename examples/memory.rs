//! Bytes per item a run keeps, by component, on the worker's code path: a counting
//! allocator around `Session` fed in 8 MiB chunks, with the explorer and the sample as the
//! browser's worker asks for them (and the file size `Session::add` sizes the seen-id set from).
//! Then the worker's steps after reading, one by one (`worker_steps`).
//! `cargo run --release --example memory -- FILE`.
//! The worker's path over several runs, the leaderboard included, is measured in wasm32 itself:
//! tests/wasm_memory.rs.

use scorelens::explore::DEFAULT_CAP;
use scorelens::{BootstrapOptions, Options, Session};
#[path = "../tests/counting/mod.rs"]
mod counting;

use counting::{Counting, LIVE, PEAK};
use std::sync::atomic::Ordering::Relaxed;

#[global_allocator]
static A: Counting = Counting;

const CHUNK: usize = 8 << 20;

/// `bytes` read as the worker feeds a session (`Options` `opts`), and finished.
fn read(bytes: &[u8], opts: &Options) -> scorelens::Finished {
    let mut s = Session::new(opts).expect("session");
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let mut feed = s.add("f.jsonl", head, Some(bytes.len() as u64));
    for c in bytes.chunks(CHUNK) {
        feed.push(c);
    }
    feed.end();
    s.finish().expect("report")
}

/// (peak bytes while reading and finishing, bytes still held after, items).
fn measure(bytes: &[u8], explorer: bool, sample: Option<usize>) -> (usize, usize, u64) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let opts = Options {
        items: explorer.then_some(DEFAULT_CAP),
        sample,
        ..Options::default()
    };
    let f = read(bytes, &opts);
    let items = f.report.items;
    let held = LIVE.load(Relaxed) - base;
    let peak = PEAK.load(Relaxed) - base;
    drop(f);
    (peak, held, items)
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: memory FILE");
    let bytes = std::fs::read(path).expect("read");
    let mut rows = Vec::new();
    for (name, explorer, sample) in [
        ("session only (scorer + seen ids)", false, None),
        ("+ explorer", true, None),
        (
            "+ explorer + sample (Options::sample)",
            true,
            Some(usize::MAX),
        ),
        ("+ explorer + sample up to 200000", true, Some(200_000)),
    ] {
        if sample == Some(usize::MAX) && bytes.len() > 200 << 20 {
            // Every item's sample of a large file: gigabytes; the row is left out.
            continue;
        }
        let (peak, held, items) = measure(&bytes, explorer, sample);
        let per = |b: usize| b as f64 / items.max(1) as f64;
        rows.push(format!(
            "{name:<36} items {items:>8}  peak {:>8.1} MB ({:>6.1} B/item)  held after {:>8.1} MB ({:>6.1} B/item)",
            peak as f64 / 1e6,
            per(peak),
            held as f64 / 1e6,
            per(held)
        ));
    }
    // Components alone, on the same items: the seen-id set, and one reading's equal-mass ECE.
    let ids: Vec<&str> = bytes
        .split(|&b| b == b'\n')
        .filter_map(|l| {
            let at = l.windows(6).position(|w| w == b"\"id\":\"")? + 6;
            let len = l[at..].iter().position(|&b| b == b'"')?;
            std::str::from_utf8(&l[at..at + len]).ok()
        })
        .collect();
    let n = ids.len().max(1) as f64;
    for (name, hint) in [
        ("seen-id set alone, no hint", 0),
        ("seen-id set alone, exact hint", ids.len()),
    ] {
        let (base, _) = (LIVE.load(Relaxed), PEAK.store(LIVE.load(Relaxed), Relaxed));
        let mut set = scorelens::id_set::IdSet::default();
        set.reserve(hint);
        for id in &ids {
            set.insert(id);
        }
        let (peak, held) = (PEAK.load(Relaxed) - base, LIVE.load(Relaxed) - base);
        let (tables, len) = (set.tables(), set.len());
        drop(set);
        rows.push(format!(
            "{name:<36} ids {:>10}  peak {:>8.1} MB ({:>6.1} B/item)  held {:>6.1} B/item  {tables} tables, {len} distinct",
            ids.len(),
            peak as f64 / 1e6,
            peak as f64 / n,
            held as f64 / n
        ));
    }
    let (base, _) = (LIVE.load(Relaxed), PEAK.store(LIVE.load(Relaxed), Relaxed));
    let mut mass = scorelens::metrics::ece::equal_mass::EqualMass::default();
    for (i, _) in ids.iter().enumerate() {
        mass.add(((i * 7919) % 10007) as f64 / 10007.0, i % 3 == 0);
    }
    let held = LIVE.load(Relaxed) - base;
    // As `Session::finish`: sorted in place first.
    mass.settle();
    let ece = mass.ece();
    let peak = PEAK.load(Relaxed) - base;
    drop(mass);
    rows.push(format!(
        "{:<36} ece {:.4}  peak {:>8.1} MB ({:>6.1} B/item)  held {:>6.1} B/item",
        "equal-mass ECE, one reading, alone",
        ece.unwrap_or(f64::NAN),
        peak as f64 / 1e6,
        peak as f64 / n,
        held as f64 / n
    ));
    for r in rows {
        println!("{r}");
    }
    println!();
    worker_steps(&bytes);
}

fn mb(b: usize) -> f64 {
    b as f64 / 1e6
}

/// Prints the step's peak and what is held after it, then starts the next step's peak.
fn step(name: &str, base: usize) {
    let (live, peak) = (LIVE.load(Relaxed), PEAK.load(Relaxed));
    println!(
        "{name:<48} peak {:>8.1} MB   held after {:>8.1} MB",
        mb(peak - base),
        mb(live - base)
    );
    PEAK.store(live, Relaxed);
}

/// The browser worker's steps on one run (src/bin/worker/main.rs and intervals.rs): the session
/// with the explorer and the sample, the exports written a piece at a time, the page's copy of the
/// report, the bootstrap and the report's JSON again with it. Wasm memory only grows, so the
/// worker's memory is the highest of these peaks. The page's tables (`scorelens::layout`, written by the worker)
/// are left out: on 200,000 groups they add some 32 MB while their CSV and Markdown are written.
fn worker_steps(bytes: &[u8]) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let opts = Options {
        items: Some(DEFAULT_CAP),
        sample: Some(200_000),
        ..Options::default()
    };
    let f = read(bytes, &opts);
    step("read and finish (explorer, sample)", base);
    let mut report = f.report;
    // As the worker's `Text::writer`: a MiB gathered, then handed on.
    let mut piece = std::io::BufWriter::with_capacity(1 << 20, std::io::sink());
    report.write_json(&mut piece).expect("json");
    drop(piece);
    step("the report's JSON, a MiB at a time", base);
    let html = scorelens::html::report(&report);
    step("the report's HTML", base);
    drop(html);
    let page = scorelens::report::groups::with_largest(&mut report, 1000);
    step("the page's copy (1,000 largest groups)", base);
    drop(page);
    let sample = f.sample.expect("a sample");
    let boot = BootstrapOptions::default();
    let draws = sample.draws(&boot, 0..boot.resamples);
    step(&format!("{} resamples drawn", boot.resamples), base);
    let intervals = sample.intervals(&boot, vec![draws]);
    step("their intervals", base);
    report.intervals.bootstrap = Some(intervals);
    let mut piece = std::io::BufWriter::with_capacity(1 << 20, std::io::sink());
    report.write_json(&mut piece).expect("json");
    drop(piece);
    let html = scorelens::html::report(&report);
    step("the report with intervals: JSON and HTML", base);
    drop((html, report, sample, f.explorer));
    step("all dropped", base);
}
