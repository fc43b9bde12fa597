//! Times the browser worker's code path natively: `Session` fed as src/bin/worker/main.rs
//! feeds it (seen ids sized from the file, canonical JSON Lines in blocks, 8 MiB chunks), with
//! and without the explorer's records and the bootstrap sample, the variants run alternately.
//! `cargo run --release --example worker_path -- FILE [ROUNDS]`; prints each variant's median
//! wall and CPU time (user + sys of this process) over ROUNDS runs (default 5).

use scorelens::explore::DEFAULT_CAP;
use scorelens::{Options, Session};
use std::time::Instant;

const CHUNK: usize = 8 << 20;
/// As the worker: `intervals::MAX_ITEMS`.
const SAMPLE_CAP: usize = 200_000;

/// This process's user + system CPU time in seconds, from /proc (Linux only; 0 elsewhere).
fn cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// One run: (wall s, cpu s, items, report JSON).
fn run(bytes: &[u8], explorer: bool, sample: bool) -> (f64, f64, u64, String) {
    let (t, c) = (Instant::now(), cpu());
    let opts = Options {
        items: explorer.then_some(DEFAULT_CAP),
        sample: sample.then_some(SAMPLE_CAP),
        ..Options::default()
    };
    let mut s = Session::new(&opts).expect("session");
    let head = &bytes[..bytes.len().min(scorelens::formats::HEAD)];
    let mut feed = s.add("f.jsonl", head, Some(bytes.len() as u64));
    for chunk in bytes.chunks(CHUNK) {
        feed.push(chunk);
    }
    feed.end();
    let f = s.finish().expect("report");
    let items = f.report.items;
    let json = f.report.to_json();
    drop(f);
    (t.elapsed().as_secs_f64(), cpu() - c, items, json)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: worker_path FILE [ROUNDS] [VARIANTS]");
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    // Which variants to run: any of n (neither), e (explorer), s (explorer + sample).
    let pick = args.next().unwrap_or_else(|| "nes".to_string());
    let bytes = std::fs::read(&path).expect("read");
    let variants = [
        ('n', "no explorer, no sample", false, false),
        ('e', "+ explorer records", true, false),
        ('s', "+ explorer + sample up to 200000", true, true),
    ];
    let chosen: Vec<_> = variants
        .iter()
        .filter(|v| pick.contains(v.0))
        .copied()
        .collect();
    let mut times = vec![(Vec::new(), Vec::new()); chosen.len()];
    let mut reports: Vec<Option<String>> = vec![None; chosen.len()];
    let mut items = 0;
    for _ in 0..rounds {
        for (k, &(_, _, explorer, sample)) in chosen.iter().enumerate() {
            let (wall, cpu, n, json) = run(&bytes, explorer, sample);
            items = n;
            times[k].0.push(wall);
            times[k].1.push(cpu);
            reports[k] = Some(json);
        }
    }
    println!("{path}: {items} items, {rounds} rounds, variants alternating");
    for (k, (_, name, _, _)) in chosen.iter().enumerate() {
        let (wall, cpu) = std::mem::take(&mut times[k]);
        println!(
            "{name:<36} wall {:.3} s  cpu {:.3} s (medians)",
            median(wall),
            median(cpu)
        );
    }
    // The kept records must not change the report.
    let first = reports.first().cloned().flatten();
    let same = reports.iter().all(|r| *r == first);
    println!("reports identical across variants: {same}");
}
