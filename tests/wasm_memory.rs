//! The browser worker's memory on four runs of 200,000 groups, measured in wasm32 itself (in Node,
//! by wasm-bindgen-test-runner): the same files as tests/e2e_slow/leaderboard_big.test.mjs, made
//! here in 8 MiB chunks, taken along the worker's path (each run scored, its exports written and
//! kept as the worker keeps it, its group rows packed; then the leaderboard, a run's draws at a
//! time; then a run's intervals). Each step prints
//! the live bytes (a counting allocator around the wasm allocator) and the wasm memory's size,
//! which only grows: its last value is the worker's wasm memory in the page test, minutes sooner.
//! A measurement, not a check (the page test holds the budget), so it is not run by `make test`:
//! `cargo test --release --target wasm32-unknown-unknown --test wasm_memory -- --nocapture`.
#![cfg(target_arch = "wasm32")]

mod counting;

use counting::{Counting, LIVE, PEAK};
use scorelens::explore::DEFAULT_CAP;
use scorelens::leaderboard::Joined;
use scorelens::metrics::lanes::LANES;
use scorelens::report::packed_groups::PackedGroups;
use scorelens::{BootstrapOptions, Options, Run, Session};
use std::sync::atomic::Ordering::Relaxed;
use wasm_bindgen_test::*;

#[global_allocator]
static A: Counting = Counting;

const RUNS: usize = 4;
const N: usize = 200_000;
const CHUNK: usize = 8 << 20;

fn mb(b: usize) -> f64 {
    b as f64 / 1e6
}

/// Prints the step's live peak, what is live after it and the wasm memory's size.
fn step(name: &str) {
    let pages = core::arch::wasm32::memory_size::<0>();
    let live = LIVE.load(Relaxed);
    wasm_bindgen_test::console_log!(
        "{name:<44} peak {:>7.1} MB  live after {:>7.1} MB  wasm memory {:>7.1} MB",
        mb(PEAK.load(Relaxed)),
        mb(live),
        mb(pages * 65536)
    );
    PEAK.store(live, Relaxed);
}

/// Run r's file, as the page test writes it, in chunks of about `CHUNK` bytes.
fn chunks(r: usize, mut take: impl FnMut(&[u8])) {
    let mut buf = format!(
        "{{\"scorelens\":1,\"model\":\"big-model-{}\",\"benchmark\":\"generic\"}}\n",
        r + 1
    );
    for i in 0..N {
        let wrong = (7 * i + 13 * r).is_multiple_of(4 + r);
        let probs = if wrong {
            "{\"A\":0.2,\"B\":0.6,\"C\":0.1,\"D\":0.1}".to_string()
        } else {
            format!(
                "{{\"A\":0.{},\"B\":0.1,\"C\":0.1,\"D\":0.{}}}",
                7 + r % 2,
                if r % 2 == 1 { 0 } else { 1 }
            )
        };
        buf.push_str(&format!(
            "{{\"id\":\"question-{i:07}\",\"type\":\"choice\",\"group\":\"task_{i}\",\"options\":[\"A\",\"B\",\"C\",\"D\"],\"gold\":\"A\",\"probs\":{probs}}}\n"
        ));
        if buf.len() >= CHUNK {
            take(buf.as_bytes());
            buf.clear();
        }
    }
    take(buf.as_bytes());
}

#[wasm_bindgen_test]
fn four_runs_of_200000_groups_along_the_workers_path() {
    step("start");
    let mut runs = Vec::new();
    let mut explorers = Vec::new();
    let mut groups = Vec::new();
    for r in 0..RUNS {
        let opts = Options {
            items: Some(DEFAULT_CAP),
            sample: Some(200_000),
            ..Options::default()
        };
        let mut s = Session::new(&opts).expect("session");
        let mut first = Vec::new();
        chunks(r, |c| {
            if first.is_empty() {
                first = c.to_vec();
            }
        });
        let head = &first[..first.len().min(scorelens::formats::HEAD)];
        let mut feed = s.add("f.jsonl", head, Some(29_000_000));
        drop(first);
        chunks(r, |c| {
            feed.push(c);
        });
        feed.end();
        step(&format!("run {} read", r + 1));
        let f = s.finish().expect("report");
        step(&format!("run {} finished", r + 1));
        let mut report = f.report;
        let mut sink = std::io::sink();
        report.write_json(&mut sink).expect("json");
        step("  its JSON");
        drop(scorelens::html::report(&report));
        step("  its HTML");
        // As the worker's `Text::pieces`: each piece written (here to nothing), then let go.
        let mut w = scorelens::table::PieceWriter::new(Discard, Discard);
        scorelens::layout::each_piece(&report, |p| {
            let _ = w.piece(&p);
        });
        step("  its tables' CSV and Markdown");
        drop(scorelens::report::groups::with_largest(&mut report, 1000));
        step("  the page's copy");
        report
            .intervals
            .wilson
            .0
            .retain(|(path, _)| !path.starts_with("groups."));
        let packed = PackedGroups::pack(&std::mem::take(&mut report.groups));
        groups.push(packed);
        runs.push(Run::new(format!("big-model-{}", r + 1), report, f.sample));
        explorers.push(f.explorer);
        step(&format!("run {} scored and kept", r + 1));
    }
    let boot = BootstrapOptions::default();
    let slice = LANES as u32 * 8;
    // As the worker (src/bin/worker/leaderboard.rs): the draws a run at a time, each run's lanes
    // let go after its turn (`draw_all`); then the boards, on the same join.
    let joined = Joined::new(&runs);
    step("the runs joined");
    let ranges: Vec<_> = (0..boot.resamples)
        .step_by(slice as usize)
        .map(|at| at..(at + slice).min(boot.resamples))
        .collect();
    let mut parts = vec![scorelens::leaderboard::Replicates::default(); ranges.len()];
    for (t, of) in joined.turns(300_000).into_iter().enumerate() {
        for (r, into) in ranges.iter().zip(&mut parts) {
            joined.draws_into(&boot, r.clone(), of.clone(), into);
        }
        step(&format!("  turn {} drawn", t + 1));
        joined.release_lanes(of);
    }
    step("the resamples drawn, every turn's lanes let go");
    let parts = std::cell::RefCell::new(Some(parts));
    let l = scorelens::leaderboard::leaderboard_of(joined, &boot, |_, _| {
        parts.borrow_mut().take().unwrap_or_default()
    });
    step("the leaderboard");
    let figure = scorelens::leaderboard::tables::default_figure(&l).expect("a figure");
    l.write_json(std::io::sink()).expect("json");
    drop(scorelens::leaderboard::tables::tables(&l, figure));
    drop(scorelens::html::leaderboard(&l, figure));
    step("its view's exports (the leaderboard kept)");
    // One run's intervals: every run's take the same memory.
    for (i, r) in runs.iter_mut().enumerate().take(1) {
        let parts = (0..boot.resamples)
            .step_by(64)
            .map(|at| r.sample.draws(&boot, at..(at + 64).min(boot.resamples)))
            .collect();
        let b = r.sample.intervals(&boot, parts);
        r.report.intervals.bootstrap = Some(b);
        r.report.groups = groups[i].unpack();
        let all = scorelens::report::intervals::wilson_intervals(&r.report);
        let kept = std::mem::replace(&mut r.report.intervals.wilson, all);
        drop(scorelens::html::report(&r.report));
        r.report.write_json(std::io::sink()).expect("json");
        r.report.intervals.wilson = kept;
        r.report.groups = Vec::new();
        step(&format!("run {}'s intervals and exports", i + 1));
    }
    drop((l, runs, explorers, groups));
    step("all dropped");
}

/// A text writer that keeps nothing (the exports' bytes, written and dropped).
struct Discard;

impl std::fmt::Write for Discard {
    fn write_str(&mut self, _: &str) -> std::fmt::Result {
        Ok(())
    }
}
