//! The bootstrap's speed: resamples of a 100k-item run (choice items with probabilities, eight
//! groups as strata), the general figures and I/C replayed per resample; and one paired resample
//! of two such runs. `cargo bench --bench bootstrap`; 2000 resamples = 2000 × the per-resample time.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use scorelens::metrics::bootstrap::SplitMix64;
use scorelens::metrics::bootstrap::{BootstrapOptions, Sample};
use scorelens::{score_sources, Options, Source};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 100_000;
const RESAMPLES: u32 = 20;

/// A seeded canonical file of `n` four-option choice items in eight groups.
fn file(n: usize, seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut out = String::new();
    for i in 0..n {
        let p: Vec<f64> = (0..4).map(|_| unit() + 0.05).collect();
        let s: f64 = p.iter().sum::<f64>() * (1.0 + 0.1 * unit());
        out += &format!(
            "{{\"id\":\"i{i}\",\"group\":\"g{}\",\"options\":[\"A\",\"B\",\"C\",\"D\"],\"gold\":\"{}\",\"probs\":{{\"A\":{},\"B\":{},\"C\":{},\"D\":{}}}}}\n",
            i % 8,
            ["A", "B", "C", "D"][i % 4],
            p[0] / s,
            p[1] / s,
            p[2] / s,
            p[3] / s
        );
    }
    out
}

fn sample(n: usize, seed: u64) -> Sample {
    let text = file(n, seed);
    let opts = Options {
        sample: Some(usize::MAX),
        ..Options::default()
    };
    score_sources([Source::bytes("bench.jsonl", text.as_bytes())], &opts)
        .expect("a report")
        .sample
        .expect("a sample")
}

fn resamples(c: &mut Criterion) {
    let one = sample(N, 1);
    let runs = [
        scorelens::Run {
            name: "a".to_string(),
            report: scorelens::score(
                &[scorelens::Input {
                    name: "a",
                    bytes: file(N, 1).as_bytes(),
                }],
                &Options::default(),
            )
            .expect("a report"),
            sample: sample(N, 1),
        },
        scorelens::Run {
            name: "b".to_string(),
            report: scorelens::score(
                &[scorelens::Input {
                    name: "b",
                    bytes: file(N, 2).as_bytes(),
                }],
                &Options::default(),
            )
            .expect("a report"),
            sample: sample(N, 2),
        },
    ];
    let opts = BootstrapOptions {
        resamples: RESAMPLES,
        seed: 7,
    };
    let mut group = c.benchmark_group("bootstrap_100k");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(u64::from(RESAMPLES)));
    group.bench_function("resamples_20", |b| {
        b.iter(|| black_box(one.bootstrap(&opts)))
    });
    group.bench_function("paired_resamples_20", |b| {
        b.iter(|| black_box(scorelens::compare(&runs, &opts)))
    });
    group.finish();
}

criterion_group!(benches, resamples);
criterion_main!(benches);
