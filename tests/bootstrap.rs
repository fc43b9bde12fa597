//! The bootstrap: its replays give the report's own figures, one seed gives one report, the
//! interval of a mean matches the normal approximation, strata and Ties pairs are kept whole.

use scorelens::metrics::bootstrap::{BootstrapOptions, Sample};
use scorelens::{score_sources, Input, Options, Report, Source};
use serde_json::Value;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples");

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{SAMPLES}/{name}")).unwrap()
}

/// Scores files as one run, keeping the sample; with `boot`, adds bootstrap intervals.
fn run(files: &[(&str, &[u8])], boot: Option<BootstrapOptions>) -> (Report, Sample) {
    let opts = Options {
        sample: Some(usize::MAX),
        bootstrap: boot,
        ..Options::default()
    };
    let sources = files
        .iter()
        .map(|&(name, bytes)| Source::bytes(name, bytes));
    let f = score_sources(sources, &opts).unwrap();
    (f.report, f.sample.unwrap())
}

/// The value at a report path: keys matched greedily, since names may hold spaces or dots.
fn lookup<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    if let Some(x) = v.get(path) {
        return Some(x);
    }
    let obj = v.as_object()?;
    obj.iter().find_map(|(k, x)| {
        let rest = path.strip_prefix(k.as_str())?.strip_prefix('.')?;
        lookup(x, rest)
    })
}

/// All weights 1 gives back every figure of the report: bit for bit, except the calibration
/// sums, which the replay adds in confidence order (last-bit differences only).
fn assert_identity(report: &Report, sample: &Sample) -> usize {
    let json = serde_json::to_value(report).unwrap();
    let mut out = Vec::new();
    sample.figures(&vec![1; sample.len()], &mut out);
    let names = sample.names();
    assert_eq!(names.len(), out.len());
    let mut checked = 0;
    for (name, got) in names.iter().zip(&out) {
        let want = lookup(&json, name).and_then(Value::as_f64);
        match (got, want) {
            (None, None) => {}
            (Some(g), Some(w)) => {
                if name.starts_with("conditioning.") || name.starts_with("mixing.") {
                    assert!(
                        (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                        "{name}: {g} vs {w}"
                    );
                } else {
                    assert_eq!(*g, w, "{name}");
                }
                checked += 1;
            }
            _ => panic!("{name}: replay {got:?}, report {want:?}"),
        }
    }
    checked
}

#[test]
fn replays_reproduce_every_sample_report() {
    let files = [
        "choice.jsonl",
        "binary.jsonl",
        "rating.jsonl",
        "multi.jsonl",
        "pair.jsonl",
        "best_of_n.jsonl",
        "consistency.jsonl",
        "cmdb-1500.jsonl",
        "decision-bench.jsonl",
        "jevbench-public-231.jsonl",
        "jevbench-hard-111.jsonl",
        "rewardbench-v1-outputs.jsonl",
        "rewardbench-v1-scores.json",
        "rewardbench-v2-scores.json",
    ];
    for f in files {
        let bytes = read(f);
        let (report, sample) = run(&[(f, &bytes)], None);
        assert_eq!(sample.len() as u64, report.items, "{f}");
        let checked = assert_identity(&report, &sample);
        assert!(checked >= 3, "{f}: only {checked} figures");
    }
}

#[test]
fn rewardbench_sections_replay_to_the_bit() {
    let bytes = read("rewardbench-v1-scores.json");
    let (report, sample) = run(&[("scores.json", &bytes)], None);
    let names = sample.names();
    assert!(names.iter().any(|n| n == "rewardbench.sections.Chat Hard"));
    assert!(names.iter().any(|n| n == "rewardbench.overall"));
    assert!(report.rewardbench.as_ref().unwrap().overall.is_some());
    assert_identity(&report, &sample);
}

#[test]
fn the_same_seed_gives_the_same_report_and_another_seed_another() {
    let bytes = read("jevbench-public-231.jsonl");
    let boot = |seed| BootstrapOptions {
        resamples: 300,
        seed,
    };
    let (a, _) = run(&[("j.jsonl", &bytes)], Some(boot(7)));
    let (b, _) = run(&[("j.jsonl", &bytes)], Some(boot(7)));
    let (c, _) = run(&[("j.jsonl", &bytes)], Some(boot(8)));
    assert_eq!(a.to_json(), b.to_json());
    let ia = a.intervals.bootstrap.as_ref().unwrap();
    let ic = c.intervals.bootstrap.as_ref().unwrap();
    assert_eq!((ia.seed, ia.resamples), (7, 300));
    assert_ne!(ia.figures, ic.figures);
    // The point estimates do not depend on the seed.
    assert_eq!(a.ic, c.ic);
}

#[test]
fn every_interval_holds_its_estimate_roughly_and_is_ordered() {
    let bytes = read("jevbench-public-231.jsonl");
    let (r, _) = run(&[("j.jsonl", &bytes)], Some(BootstrapOptions::default()));
    let b = r.intervals.bootstrap.as_ref().unwrap();
    assert_eq!(b.strata, "split × type × tier");
    assert!(b.strata_count >= 3, "{}", b.strata_count);
    for name in [
        "metrics.accuracy",
        "ic.i",
        "ic.c",
        "conditioning.ece",
        "conditioning.ece_em",
    ] {
        let f = b.figures.get(name).unwrap_or_else(|| panic!("{name}"));
        assert!(f.lo <= f.hi && f.se > 0.0, "{name}: {f:?}");
        assert!(
            f.lo - 3.0 * f.se <= f.estimate && f.estimate <= f.hi + 3.0 * f.se,
            "{name}"
        );
    }
    // Percentile intervals of a bounded figure stay in its range.
    let acc = b.figures.get("metrics.accuracy").unwrap();
    assert!(acc.lo >= 0.0 && acc.hi <= 1.0);
}

/// A canonical file of `n` choice items, right with probability `p`, with a seeded generator.
fn bernoulli_file(n: usize, p: f64, seed: u64) -> String {
    let mut rng = scorelens::metrics::bootstrap::SplitMix64::new(seed);
    let mut out = String::new();
    for i in 0..n {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let right = u < p;
        // q[gold] spread over (0.3, 0.9) so that EPA has a spread too.
        let q = 0.3 + 0.6 * ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64);
        let answer = if right { "A" } else { "B" };
        out += &format!(
            "{{\"id\":\"i{i}\",\"options\":[\"A\",\"B\"],\"gold\":\"A\",\"answer\":\"{answer}\",\"probs\":{{\"A\":{q},\"B\":{}}}}}\n",
            1.0 - q
        );
    }
    out
}

#[test]
fn the_interval_of_a_mean_matches_the_normal_approximation() {
    let n = 10_000;
    let text = bernoulli_file(n, 0.7, 11);
    let opts = BootstrapOptions {
        resamples: 2000,
        seed: 3,
    };
    let (r, sample) = run(&[("big.jsonl", text.as_bytes())], Some(opts));
    let b = r.intervals.bootstrap.as_ref().unwrap();
    assert_eq!(b.strata_count, 1, "no groups: one stratum");
    // Accuracy: the normal interval is ± z sqrt(p (1 - p) / n).
    let acc = b.figures.get("metrics.accuracy").unwrap();
    let p = acc.estimate;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    let normal = 2.0 * 1.959963984540054 * se;
    let width = acc.hi - acc.lo;
    assert!((width / normal - 1.0).abs() < 0.06, "{width} vs {normal}");
    assert!((acc.se / se - 1.0).abs() < 0.06, "{} vs {se}", acc.se);
    assert!(((acc.lo + acc.hi) / 2.0 - p).abs() < 0.25 * se);
    // EPA, the mean of q[gold]: the normal interval uses the sample standard deviation.
    let epa = b.figures.get("conditioning.epa").unwrap();
    let values: Vec<f64> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["probs"]["A"].as_f64().unwrap()
        })
        .collect();
    let mean = values.iter().sum::<f64>() / n as f64;
    let sd = (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
    let normal = 2.0 * 1.959963984540054 * sd / (n as f64).sqrt();
    assert!(((epa.hi - epa.lo) / normal - 1.0).abs() < 0.06);
    assert_eq!(sample.len(), n);
}

#[test]
fn ties_prompt_pairs_are_one_unit() {
    let bytes = read("rewardbench-v2-scores.json");
    let (r, sample) = run(
        &[("v2.json", &bytes)],
        Some(BootstrapOptions {
            resamples: 200,
            seed: 1,
        }),
    );
    let b = r.intervals.bootstrap.as_ref().unwrap();
    let d = sample.design();
    let ids = sample.ids();
    let unit = |id: &str| d.unit_of(ids.iter().position(|x| x == id).unwrap());
    let pairs = ids.iter().filter(|id| id.starts_with("ref:")).count();
    assert!(pairs > 0, "the sample has Ties rows");
    for id in ids.iter().filter(|id| id.starts_with("ref:")) {
        let tied = format!("tied:{}", &id[4..]);
        if ids.iter().any(|x| x == tied) {
            assert_eq!(unit(id), unit(&tied), "{id}");
        }
    }
    assert!((d.units() as u64) < r.items);
    assert!(b.units.contains("Ties"));
    assert!(
        b.figures.get("rewardbench.overall").is_some()
            || r.rewardbench.as_ref().unwrap().overall.is_none()
    );
}

#[test]
fn no_bootstrap_unless_asked_and_wilson_always() {
    let bytes = read("choice.jsonl");
    let r = scorelens::score(
        &[Input {
            name: "c.jsonl",
            bytes: &bytes,
        }],
        &Options::default(),
    )
    .unwrap();
    assert!(r.intervals.bootstrap.is_none());
    // The Wilson interval worked out here in its other textbook form,
    // (2np + z² ± z sqrt(z² + 4np(1 - p))) / (2(n + z²)), equal to rounding.
    let w = r.intervals.wilson.get("metrics.accuracy").unwrap();
    let n = r.items as f64;
    let right = (r.metrics.accuracy.unwrap() * n).round();
    assert_eq!(
        right, 203.0,
        "choice.jsonl: 203 of 240 right (numpy reference)"
    );
    let (z, p) = (1.959963984540054f64, right / n);
    let root = z * (z * z + 4.0 * n * p * (1.0 - p)).sqrt();
    let (lo, hi) = (
        (2.0 * n * p + z * z - root) / (2.0 * (n + z * z)),
        (2.0 * n * p + z * z + root) / (2.0 * (n + z * z)),
    );
    assert!(
        (w.lo - lo).abs() < 1e-15 && (w.hi - hi).abs() < 1e-15,
        "{w:?} vs ({lo}, {hi})"
    );
    for g in &r.groups {
        assert!(r
            .intervals
            .wilson
            .get(&format!("groups.{}.accuracy", g.name))
            .is_some());
    }
    let json = r.to_json();
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
}

#[test]
fn resamples_drawn_in_parts_equal_one_run() {
    let bytes = read("jevbench-public-231.jsonl");
    let (_, sample) = run(&[("j.jsonl", &bytes)], None);
    let opts = BootstrapOptions {
        resamples: 120,
        seed: 99,
    };
    let whole = sample.bootstrap(&opts);
    let parts = vec![
        sample.draws(&opts, 0..50),
        sample.draws(&opts, 50..51),
        sample.draws(&opts, 51..120),
    ];
    assert_eq!(sample.intervals(&opts, parts), whole);
}

proptest::proptest! {
    #[test]
    fn weighted_equal_mass_is_equal_mass_over_the_copies(
        values in proptest::collection::vec((0u32..40, proptest::bool::ANY, 0u32..4), 1..60)
    ) {
        use scorelens::metrics::ece::equal_mass::{ece_weighted, EqualMass};
        // Confidences on a coarse grid, so that ties (and ties at boundaries) are common.
        let mut parts: Vec<(f64, bool, u32)> =
            values.iter().map(|&(c, r, t)| (f64::from(c) / 40.0, r, t)).collect();
        parts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let sorted: Vec<(f64, bool)> = parts.iter().map(|p| (p.0, p.1)).collect();
        let times: Vec<u32> = parts.iter().map(|p| p.2).collect();
        let mut copies = EqualMass::default();
        for p in &parts {
            for _ in 0..p.2 {
                copies.add(p.0, p.1);
            }
        }
        match (ece_weighted(&sorted, &times), copies.ece()) {
            (Some(a), Some(b)) => proptest::prop_assert!((a - b).abs() < 1e-12, "{} vs {}", a, b),
            (a, b) => proptest::prop_assert_eq!(a, b),
        }
    }
}

/// FNV-1a over 64 bits, as scripts/reference/bootstrap_reference.py computes it.
fn fnv1a64(bytes: impl Iterator<Item = u8>) -> u64 {
    bytes.fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// The intervals of a file, seed and B against numpy's, computed independently from the file and
/// the same draws (tests/fixtures/bootstrap/reference.json, written by
/// scripts/reference/bootstrap_reference.py): probs, logprobs, loglikelihoods, outside mass,
/// invalid distributions and answers, groups. The draws depend only on the seed (64-bit integer
/// arithmetic), so these must come out on every platform, wasm32 included.
#[test]
fn intervals_equal_numpys_from_the_same_draws() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bootstrap");
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/reference.json")).unwrap())
            .unwrap();
    let opts = BootstrapOptions {
        resamples: reference["resamples"].as_u64().unwrap() as u32,
        seed: reference["seed"].as_u64().unwrap(),
    };
    let bytes = std::fs::read(format!("{dir}/mixed.jsonl")).unwrap();
    let (r, sample) = run(&[("mixed.jsonl", &bytes)], Some(opts));
    // The draws the reference used are the ones the bootstrap makes now.
    let design = sample.design();
    let mut draws = scorelens::metrics::bootstrap::Resampler::new(
        design.strata_units(|_| true),
        design.units(),
        opts.seed,
    );
    let mut weights = Vec::new();
    let mut all = Vec::new();
    for b in 0..opts.resamples {
        sample.weights(draws.draw(b), |_| true, &mut weights);
        all.extend(weights.iter().flat_map(|w| w.to_le_bytes()));
    }
    assert_eq!(
        format!("{:016x}", fnv1a64(all.into_iter())),
        reference["weights_fnv1a64"].as_str().unwrap(),
        "the draws differ from those the reference was computed on: rerun it"
    );
    let got = &r.intervals.bootstrap.as_ref().unwrap().figures;
    let want = reference["figures"].as_object().unwrap();
    // Summation order (numpy's pairwise sums, running sums here) and libm's last bits differ.
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
    for (name, w) in want {
        let g = got
            .get(name)
            .unwrap_or_else(|| panic!("{name}: no interval"));
        let f = |k: &str| w[k].as_f64().unwrap();
        assert!(
            near(g.estimate, f("estimate")),
            "{name} estimate: {} vs numpy {}",
            g.estimate,
            f("estimate")
        );
        assert!(
            near(g.lo, f("lo")),
            "{name} lo: {} vs numpy {}",
            g.lo,
            f("lo")
        );
        assert!(
            near(g.hi, f("hi")),
            "{name} hi: {} vs numpy {}",
            g.hi,
            f("hi")
        );
        assert!(
            near(g.se, f("se")),
            "{name} se: {} vs numpy {}",
            g.se,
            f("se")
        );
        assert_eq!(
            u64::from(g.undefined),
            w["undefined"].as_u64().unwrap(),
            "{name}"
        );
    }
    assert_eq!(
        want.len(),
        16,
        "every figure of SPEC §2–§4 is in the reference"
    );
}

/// Coverage: on data drawn from a known distribution, the 95% intervals of accuracy (true value
/// 0.7) and EPA (q[gold] uniform on (0.3, 0.9): true value 0.6) cover the truth in about 95% of
/// repeated draws. With R independent draws the count of covering intervals is binomial, sd =
/// sqrt(R 0.95 0.05); the test allows 3 sd either side of 95% plus one point below it, since the
/// percentile interval of a mean of n = 200 under-covers slightly (about 94%).
#[test]
fn intervals_cover_the_true_value_about_95_percent_of_the_time() {
    const DATASETS: u64 = 300;
    const N: usize = 200;
    let opts = BootstrapOptions {
        resamples: 200,
        seed: 17,
    };
    // (accuracy covered, EPA covered) over a range of draws; two threads share the draws.
    let covered = |seeds: std::ops::Range<u64>| {
        seeds.fold((0.0, 0.0), |(acc, epa), d| {
            let text = bernoulli_file(N, 0.7, 1000 + d);
            let (r, _) = run(&[("draw.jsonl", text.as_bytes())], Some(opts));
            let f = &r.intervals.bootstrap.as_ref().unwrap().figures;
            let hit = |name: &str, truth: f64| {
                let i = f.get(name).unwrap();
                f64::from(u8::from(i.lo <= truth && truth <= i.hi))
            };
            (
                acc + hit("metrics.accuracy", 0.7),
                epa + hit("conditioning.epa", 0.6),
            )
        })
    };
    let ((a1, e1), (a2, e2)) = std::thread::scope(|s| {
        let first = s.spawn(|| covered(0..DATASETS / 2));
        let second = s.spawn(|| covered(DATASETS / 2..DATASETS));
        (first.join().unwrap(), second.join().unwrap())
    });
    let (acc, epa) = (a1 + a2, e1 + e2);
    eprintln!("coverage of {DATASETS} draws: accuracy {acc}, EPA {epa}");
    let r = DATASETS as f64;
    let sd = (r * 0.95 * 0.05).sqrt();
    for (name, c) in [("accuracy", acc), ("epa", epa)] {
        assert!(
            c >= 0.95 * r - 3.0 * sd - 0.01 * r && c <= 0.95 * r + 3.0 * sd,
            "{name}: {c} of {r} intervals cover the true value (expected {:.0} ± {:.1})",
            0.95 * r,
            3.0 * sd
        );
    }
}
