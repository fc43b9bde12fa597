//! Whole-run throughput (parse + score + report) and parse alone, at 10k, 100k and 1M items.
//!
//! `make bench` turns the medians into MB/s and items/s in docs/performance.md; equal throughput
//! across the sizes is the "linear in N" check.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use scorelens::{Input, Options};
use std::time::Duration;

fn measurement_time(n: usize) -> Duration {
    Duration::from_secs(if n >= 1_000_000 { 20 } else { 5 })
}

fn parse_score(c: &mut Criterion) {
    // One thread, as docs/performance.md's table says: with blocks larger than any file the
    // session reads a file in memory on this thread (natively it would parse on every core).
    std::env::set_var("SCORELENS_BLOCK_BYTES", "1000000000000");
    let mut group = c.benchmark_group("parse_score");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for n in common::sizes() {
        let bytes = common::file(n);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.measurement_time(measurement_time(n));
        group.bench_with_input(BenchmarkId::from_parameter(n), &bytes, |b, bytes| {
            b.iter(|| {
                let input = Input {
                    name: "bench.jsonl",
                    bytes,
                };
                let report = scorelens::score(&[input], &Options::default()).expect("a report");
                assert_eq!(report.items as usize, n);
                report
            })
        });
    }
    group.finish();
}

fn parse_only(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for n in common::sizes() {
        let bytes = common::file(n);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.measurement_time(measurement_time(n));
        group.bench_with_input(BenchmarkId::from_parameter(n), &bytes, |b, bytes| {
            b.iter(|| {
                let mut sink = common::Collect::default();
                common::parse(bytes, &mut sink);
                assert_eq!(sink.count as usize, n);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parse_score, parse_only);
criterion_main!(benches);
