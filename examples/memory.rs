//! Bytes per item a run keeps, by component, on the worker's code path: a counting
//! allocator around `Session` fed in 8 MiB chunks, with the explorer and the sample as the
//! browser's worker asks for them (and the file size `Session::add` sizes the seen-id set from).
//! Then the worker's steps after reading, one by one (`worker_steps`).
//! `cargo run --release --example memory -- FILE`.
//! With several files, the worker's path over all of them instead (`worker_runs`): each scored
//! and kept as the page keeps it, then the leaderboard of them all, then each run's intervals.

use scorelens::explore::DEFAULT_CAP;
use scorelens::{BootstrapOptions, Options, Session};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        // As a wasm allocator may: the old and the new block live together while copying.
        let now = LIVE.fetch_add(new, Relaxed) + new;
        PEAK.fetch_max(now, Relaxed);
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

const CHUNK: usize = 8 << 20;

/// (peak bytes while reading and finishing, bytes still held after, items).
fn measure(bytes: &[u8], explorer: bool, sample: Option<usize>) -> (usize, usize, u64) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let opts = Options {
        items: explorer.then_some(DEFAULT_CAP),
        sample,
        ..Options::default()
    };
    let mut s = Session::new(&opts).expect("session");
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let mut feed = s.add("f.jsonl", head, Some(bytes.len() as u64));
    for c in bytes.chunks(CHUNK) {
        feed.push(c);
    }
    feed.end();
    let f = s.finish().expect("report");
    let items = f.report.items;
    let held = LIVE.load(Relaxed) - base;
    let peak = PEAK.load(Relaxed) - base;
    drop(f);
    (peak, held, items)
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.len() > 1 {
        return worker_runs(&paths);
    }
    let path = paths.first().expect("usage: memory FILE [FILE...]");
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
    let mut s = Session::new(&opts).expect("session");
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let mut feed = s.add("f.jsonl", head, Some(bytes.len() as u64));
    for c in bytes.chunks(CHUNK) {
        feed.push(c);
    }
    feed.end();
    let f = s.finish().expect("report");
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

/// The worker's path on several files, as the page's four big runs take it (src/bin/worker/
/// main.rs, leaderboard.rs and intervals.rs): each file scored with the explorer and the sample,
/// its exports written, the page's copy made, and the run kept without its groups' Wilson
/// intervals; then the leaderboard of every run, drawn in blocks, and its view's exports; then
/// each run's intervals and their exports. Wasm memory only grows, so the worker's memory is the
/// highest live total of all (`peak` of the last line).
fn worker_runs(paths: &[String]) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let mut runs = Vec::new();
    let mut explorers = Vec::new();
    for path in paths {
        let bytes = std::fs::read(path).expect("read");
        let opts = Options {
            items: Some(DEFAULT_CAP),
            sample: Some(200_000),
            ..Options::default()
        };
        let mut s = Session::new(&opts).expect("session");
        let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
        let mut feed = s.add(path, head, Some(bytes.len() as u64));
        for c in bytes.chunks(CHUNK) {
            feed.push(c);
        }
        feed.end();
        drop(bytes);
        let f = s.finish().expect("report");
        let mut report = f.report;
        let mut piece = std::io::BufWriter::with_capacity(1 << 20, std::io::sink());
        report.write_json(&mut piece).expect("json");
        drop(piece);
        drop(scorelens::html::report(&report));
        // As the worker's `Text::pieces`: each piece written (here to nothing), then let go.
        let mut w = scorelens::table::PieceWriter::new(Discard, Discard);
        scorelens::layout::each_piece(&report, |p| {
            let _ = w.piece(&p);
        });
        drop(scorelens::report::groups::with_largest(&mut report, 1000));
        report
            .intervals
            .wilson
            .0
            .retain(|(path, _)| !path.starts_with("groups."));
        runs.push(scorelens::Run::new(path.clone(), report, f.sample));
        explorers.push(f.explorer);
        step(&format!("run {} scored and kept", runs.len()), base);
    }
    let boot = BootstrapOptions::default();
    let lanes = scorelens::metrics::lanes::LANES as u32;
    let j = scorelens::leaderboard::Joined::new(&runs);
    step("the runs joined", base);
    j.prepare_lanes();
    step("their lanes laid out", base);
    let some = j.draws(&boot, 0..lanes * 8);
    step("a slice of resamples drawn", base);
    drop((some, j));
    step("the join dropped", base);
    let l = scorelens::leaderboard::leaderboard_with(&runs, &boot, |j, o| {
        (0..o.resamples)
            .step_by(lanes as usize * 8)
            .map(|at| j.draws(o, at..(at + lanes * 8).min(o.resamples)))
            .collect::<Vec<_>>()
            .tap(|| step("  (its join, lanes and draws)", base))
    });
    step("the leaderboard", base);
    let figure = scorelens::leaderboard::tables::default_figure(&l).expect("a figure");
    let mut piece = std::io::BufWriter::with_capacity(1 << 20, std::io::sink());
    l.write_json(&mut piece).expect("json");
    drop(piece);
    drop(scorelens::leaderboard::tables::tables(&l, figure));
    drop(scorelens::html::leaderboard(&l, figure));
    step("its view's exports (the leaderboard kept)", base);
    for (i, r) in runs.iter_mut().enumerate() {
        let parts = (0..boot.resamples)
            .step_by(64)
            .map(|at| r.sample.draws(&boot, at..(at + 64).min(boot.resamples)))
            .collect();
        let b = r.sample.intervals(&boot, parts);
        r.report.intervals.bootstrap = Some(b);
        let all = scorelens::report::intervals::wilson_intervals(&r.report);
        let kept = std::mem::replace(&mut r.report.intervals.wilson, all);
        let html = scorelens::html::report(&r.report);
        let mut piece = std::io::BufWriter::with_capacity(1 << 20, std::io::sink());
        r.report.write_json(&mut piece).expect("json");
        drop((piece, html));
        r.report.intervals.wilson = kept;
        step(&format!("run {}'s intervals and exports", i + 1), base);
    }
    drop((l, runs, explorers));
    step("all dropped", base);
}

/// Runs `f` after making a value, for a step inside a closure.
trait Tap: Sized {
    fn tap(self, f: impl FnOnce()) -> Self {
        f();
        self
    }
}
impl<T> Tap for T {}

/// A text writer that keeps nothing.
struct Discard;

impl std::fmt::Write for Discard {
    fn write_str(&mut self, _: &str) -> std::fmt::Result {
        Ok(())
    }
}
