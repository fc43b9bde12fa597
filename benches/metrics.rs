//! The scoring side alone, on items already read: each metric family, the whole summary, the
//! profile's scorer, equal-mass ECE (every confidence kept, then binned) and the report build.
//!
//! Items come from the same generated file as the throughput bench (100k items, 1M for the ECE).

mod common;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use scorelens::items::{Item, Mode};
use scorelens::metrics::calibration::confidence;
use scorelens::metrics::ece::equal_mass::EqualMass;
use scorelens::metrics::ic::{IcAccumulator, IcOptions};
use scorelens::metrics::{outcome, Accuracy, Calibration, Groups, OutsideMass, Summary};
use scorelens::profiles::{Context, Profile, Scorer};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 100_000;

fn families(c: &mut Criterion) {
    let items = common::items(N);
    let mut group = c.benchmark_group("metrics");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(N as u64));
    group.bench_function("accuracy", |b| {
        b.iter(|| {
            let mut a = Accuracy::default();
            items.iter().for_each(|i| a.update(i));
            black_box(a.finish())
        })
    });
    group.bench_function("groups", |b| {
        b.iter(|| {
            let mut g = Groups::default();
            items
                .iter()
                .for_each(|i| g.add(i.group.as_deref(), &outcome(i)));
            black_box(g.finish())
        })
    });
    for (name, mode) in [
        ("calibration_conditioning", Mode::Conditioning),
        ("calibration_mixing", Mode::Mixing),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut cal = Calibration::new(mode);
                items.iter().for_each(|i| cal.update(i));
                black_box(cal.finish())
            })
        });
    }
    group.bench_function("outside_mass", |b| {
        b.iter(|| {
            let mut m = OutsideMass::default();
            items.iter().for_each(|i| m.update(i));
            black_box(m.finish())
        })
    });
    group.bench_function("ic", |b| {
        b.iter(|| {
            let mut ic = IcAccumulator::new(IcOptions::default());
            items.iter().for_each(|i| ic.update(i));
            black_box(ic.finish())
        })
    });
    group.bench_function("summary", |b| {
        b.iter(|| {
            let mut s = Summary::default();
            items.iter().for_each(|i| s.update(i));
            black_box(s.finish())
        })
    });
    // The scorer takes items by value: the clone is made outside the timed part.
    group.bench_function("scorer_generic", |b| {
        b.iter_batched(
            || items.clone(),
            |owned| {
                let mut s = Scorer::new(Profile::generic());
                owned.into_iter().for_each(|i| {
                    s.update(i);
                });
                s
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();

    let mut scorer = Scorer::new(Profile::generic());
    items.iter().cloned().for_each(|i| {
        scorer.update(i);
    });
    let ctx = Context::default();
    let mut group = c.benchmark_group("report");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function(BenchmarkId::new("finish", N), |b| {
        b.iter(|| black_box(scorer.finish(&ctx)))
    });
    let report = scorer.finish(&ctx);
    group.bench_function(BenchmarkId::new("json", N), |b| {
        b.iter(|| black_box(report.to_json()))
    });
    group.finish();
}

/// (confidence, correct) under conditioning for every item of the generated file of `n` items.
fn confidences(items: &[Item]) -> Vec<(f64, bool)> {
    items
        .iter()
        .filter_map(|i| {
            let o = i.as_option()?;
            let q = o.probs.as_ref()?.distribution(Mode::Conditioning)?;
            Some((confidence(o, &q), o.answer == Some(o.gold)))
        })
        .collect()
}

fn equal_mass(c: &mut Criterion) {
    let mut group = c.benchmark_group("ece_em");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for n in common::sizes() {
        let pairs = confidences(&common::items(n));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &pairs, |b, pairs| {
            b.iter(|| {
                let mut e = EqualMass::default();
                pairs.iter().for_each(|&(c, r)| e.add(c, r));
                black_box(e.ece())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, families, equal_mass);
criterion_main!(benches);
