//! The browser worker's memory on one run, step by step, natively: a counting allocator around
//! what src/bin/worker/main.rs and intervals.rs do with a scored run (the session with the
//! explorer and the sample, the exports written a piece at a time, the page's copy of the report,
//! the bootstrap and the report's JSON again with it). Wasm memory only grows, so the worker's
//! memory is the highest of these peaks. The page's tables (`web::tables`, wasm only) are left
//! out: on 200,000 groups they add some 32 MB while their CSV and Markdown are written.
//! `cargo run --release --example worker_memory -- FILE`.

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
/// As the worker: `intervals::MAX_ITEMS` and `protocol::GROUPS_HELD`.
const SAMPLE_CAP: usize = 200_000;

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

fn main() {
    let path = std::env::args().nth(1).expect("usage: worker_memory FILE");
    let bytes = std::fs::read(&path).expect("read");
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let opts = Options {
        items: Some(DEFAULT_CAP),
        sample: Some(SAMPLE_CAP),
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
