//! The bootstrap: its replays give the report's own figures, one seed gives one report, the
//! interval of a mean matches the normal approximation, strata and Ties pairs are kept whole.

use scorelens::metrics::bootstrap::{BootstrapOptions, Sample};
use scorelens::{Input, Options, Report, Session};
use serde_json::Value;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples");

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{SAMPLES}/{name}")).unwrap()
}

/// Scores files as one run, keeping the sample; with `boot`, adds bootstrap intervals.
fn run(files: &[(&str, &[u8])], boot: Option<BootstrapOptions>) -> (Report, Sample) {
    let mut s = Session::new(&Options::default()).unwrap();
    s.keep_sample();
    if let Some(b) = boot {
        s.bootstrap(b);
    }
    for (name, bytes) in files {
        s.read(name, bytes);
    }
    let f = s.finish_sampled().unwrap();
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
    let mut rng = scorelens::metrics::bootstrap_rng::SplitMix64::new(seed);
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
    let unit = |id: &str| d.unit_of(ids.iter().position(|x| &**x == id).unwrap());
    let pairs = ids.iter().filter(|id| id.starts_with("ref:")).count();
    assert!(pairs > 0, "the sample has Ties rows");
    for id in ids.iter().filter(|id| id.starts_with("ref:")) {
        let tied = format!("tied:{}", &id[4..]);
        if ids.iter().any(|x| **x == *tied) {
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
    let w = r.intervals.wilson.get("metrics.accuracy").unwrap();
    assert!(w.lo < r.metrics.accuracy.unwrap() && r.metrics.accuracy.unwrap() < w.hi);
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
        use scorelens::metrics::ece_em::{ece_weighted, EqualMass};
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

/// The intervals of one sample file, seed and B, pinned: the draws depend only on the seed (64-bit
/// integer arithmetic), so these numbers must come out on every platform, wasm32 included; a wasm
/// test can assert the same constants.
#[test]
fn pinned_intervals_for_a_seed() {
    let bytes = read("choice.jsonl");
    let opts = BootstrapOptions {
        resamples: 200,
        seed: 1,
    };
    let (r, _) = run(&[("choice.jsonl", &bytes)], Some(opts));
    let f = &r.intervals.bootstrap.as_ref().unwrap().figures;
    let acc = f.get("metrics.accuracy").unwrap();
    assert_eq!((acc.lo, acc.hi), (0.8, 0.8959375));
    let em = f.get("conditioning.ece_em").unwrap();
    assert!(
        (em.lo - 0.0779998723753124).abs() < 1e-15 && (em.hi - 0.14857396205103676).abs() < 1e-15
    );
    let c = f.get("ic.c").unwrap();
    assert!((c.lo - 69.36795446935443).abs() < 1e-12 && (c.hi - 84.49419141533889).abs() < 1e-12);
}
