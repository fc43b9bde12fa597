//! Property tests of I and C (SPEC §5): an oracle scores I = 100, uniform guessing scores I ≈ 0,
//! a perfectly calibrated model with zero TVD scores C = 100; figures stay in bounds, do not depend
//! on item order, and merge(split(x)) = x.

use proptest::prelude::*;
use scorelens::items::{Body, Item, Modality, OptionItem, OptionKind, Split, Tier};
use scorelens::metrics::ic::figures::{IcFigures, TypeFigures};
use scorelens::metrics::ic::{IcAccumulator, IcOptions};
use scorelens::probs::{build, Source};

fn probs(p: &[f64]) -> Option<scorelens::items::Probs> {
    let v: Vec<Option<f64>> = p.iter().map(|&x| Some(x)).collect();
    build(&v, Source::Probs).ok()
}

fn options(kind: OptionKind, k: usize) -> Vec<String> {
    match kind {
        OptionKind::Binary => vec!["no".to_string(), "yes".to_string()],
        _ => (0..k).map(|i| i.to_string()).collect(),
    }
}

const TIERS: [Option<Tier>; 5] = [
    Some(Tier::Easy),
    Some(Tier::Standard),
    Some(Tier::Judge),
    Some(Tier::Hard),
    None,
];
const KINDS: [OptionKind; 3] = [OptionKind::Choice, OptionKind::Binary, OptionKind::Rating];

#[allow(clippy::too_many_arguments)]
fn item(
    id: usize,
    kind: OptionKind,
    k: usize,
    gold: usize,
    answer: Option<usize>,
    p: Option<Vec<f64>>,
    gold_probs: Option<Vec<f64>>,
    at: (usize, usize, usize),
) -> Item {
    let k = if kind == OptionKind::Binary { 2 } else { k };
    Item {
        id: id.to_string().into(),
        line: None,
        group: None,
        tier: TIERS[at.0 % 5],
        split: [None, Some(Split::Open), Some(Split::Sealed)][at.1 % 3],
        modality: [None, Some(Modality::Text), Some(Modality::Image)][at.2 % 3],
        cluster: None,
        body: Body::Option(OptionItem {
            kind,
            options: options(kind, k).into(),
            gold: gold % k,
            gold_probs,
            answer: answer.map(|a| a % k),
            probs: p.and_then(|p| probs(&p)),
        }),
    }
}

fn figures(items: &[Item]) -> IcFigures {
    let mut acc = IcAccumulator::new(IcOptions::default());
    for i in items {
        acc.update(i);
    }
    acc.finish().expect("figures")
}

fn types(f: &IcFigures) -> Vec<&TypeFigures> {
    let t = &f.overall.types;
    [&t.choice, &t.binary, &t.rating]
        .into_iter()
        .flatten()
        .collect()
}

/// An option item's description: kind, k, gold, answer (k = invalid), raw probabilities with the
/// share kept inside the options, gold_probs weights, and (tier, split, modality) slots.
type Spec = (
    usize,
    usize,
    usize,
    usize,
    Option<(Vec<f64>, f64)>,
    Option<Vec<f64>>,
    (usize, usize, usize),
);

/// Any option item.
fn any_item() -> impl Strategy<Value = Spec> {
    (0usize..3, 2usize..7).prop_flat_map(|(kind, k)| {
        let k = if kind == 1 { 2 } else { k };
        (
            Just(kind),
            Just(k),
            0..k,
            0..=k,
            proptest::option::of((proptest::collection::vec(0.01f64..1.0, k), 0.5f64..=1.0)),
            proptest::option::of(proptest::collection::vec(0.0f64..1.0, k)),
            (0usize..5, 0usize..3, 0usize..3),
        )
    })
}

fn build_items(specs: &[Spec]) -> Vec<Item> {
    specs
        .iter()
        .enumerate()
        .map(|(i, (kind, k, gold, answer, p, g, at))| {
            let p = p.as_ref().map(|(w, scale)| {
                let s: f64 = w.iter().sum();
                w.iter().map(|x| x / s * scale).collect::<Vec<f64>>()
            });
            let g = g.as_ref().and_then(|g| {
                let s: f64 = g.iter().sum();
                (s > 0.0).then(|| g.iter().map(|x| x / s).collect())
            });
            let answer = (*answer < *k).then_some(*answer);
            item(i, KINDS[*kind], *k, *gold, answer, p, g, *at)
        })
        .collect()
}

/// Compares two JSON trees, numbers within a relative 1e-9.
fn assert_close(a: &serde_json::Value, b: &serde_json::Value, path: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(
                (x - y).abs() <= 1e-9 * (1.0 + x.abs().max(y.abs())),
                "{path}: {x} vs {y}"
            );
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(x.len(), y.len(), "{path}");
            for (k, v) in x {
                assert_close(v, &y[k], &format!("{path}.{k}"));
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{path}");
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                assert_close(v, w, &format!("{path}[{i}]"));
            }
        }
        _ => assert_eq!(a, b, "{path}"),
    }
}

fn json(f: &IcFigures) -> serde_json::Value {
    serde_json::to_value(f).unwrap()
}

proptest! {
    #[test]
    fn an_oracle_scores_i_100(specs in proptest::collection::vec(any_item(), 1..60), with_probs in any::<bool>()) {
        // Right answers; with probabilities, all the mass on the gold.
        let items: Vec<Item> = specs.iter().enumerate().map(|(i, (kind, k, gold, _, _, _, at))| {
            let p = with_probs.then(|| (0..*k).map(|j| if j == *gold { 1.0 } else { 0.0 }).collect());
            item(i, KINDS[*kind], *k, *gold, Some(*gold), p, None, *at)
        }).collect();
        let f = figures(&items);
        prop_assert!((f.overall.i.unwrap() - 100.0).abs() < 1e-9, "{:?}", f.overall.i);
        prop_assert!((f.overall.i_weighted.unwrap() - 100.0).abs() < 1e-9);
        for t in types(&f) {
            prop_assert!((t.cc.unwrap() - 100.0).abs() < 1e-9);
        }
    }

    #[test]
    fn figures_stay_in_bounds(specs in proptest::collection::vec(any_item(), 1..80)) {
        let f = figures(&build_items(&specs));
        // Choice and binary CC lie in [-100, 100]. A rating's CC can fall below -100 (gold 1 of 5
        // levels answered 4: 100 (1 - 0.75 / 0.35) = -114.3), but not to -300: nMAE <= 1 and the
        // chance error exceeds 1/4 for every K and gold.
        let i = f.overall.i.unwrap();
        prop_assert!((-300.0..=100.0 + 1e-9).contains(&i), "I {}", i);
        if let Some(c) = f.overall.c {
            prop_assert!((0.0..=100.0).contains(&c), "C {}", c);
        }
        for t in types(&f) {
            for x in [t.ece, t.tvd, t.rps, t.brier, t.abstention_rate].into_iter().flatten() {
                prop_assert!((0.0..=1.0 + 1e-12).contains(&x), "{}", x);
            }
            if let Some(c) = t.c {
                prop_assert!((0.0..=100.0 + 1e-9).contains(&c), "type C {}", c);
            }
            let cc = t.cc.unwrap();
            let floor = if t.rps.is_some() || t.tiers.present().iter().any(|(_, x)| x.nmae.is_some()) { -300.0 } else { -100.0 - 1e-9 };
            prop_assert!(cc > floor - 1e-9 && cc <= 100.0 + 1e-9, "CC {}", cc);
            let w: f64 = t.tiers.present().iter().map(|(_, x)| x.weight).sum();
            prop_assert!((w - 1.0).abs() < 1e-12, "tier weights sum to {}", w);
            prop_assert_eq!(t.tiers.present().iter().map(|(_, x)| x.items).sum::<u64>(), t.items);
        }
    }

    #[test]
    fn item_order_does_not_matter(specs in proptest::collection::vec(any_item(), 1..60), seed in any::<u64>()) {
        let items = build_items(&specs);
        let mut shuffled = items.clone();
        // A seeded Fisher-Yates shuffle.
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        assert_close(&json(&figures(&items)), &json(&figures(&shuffled)), "ic");
    }

    #[test]
    fn merge_of_a_split_is_the_whole(specs in proptest::collection::vec(any_item(), 2..60), cut in any::<prop::sample::Index>()) {
        let items = build_items(&specs);
        let at = cut.index(items.len());
        let (mut a, mut b) = (IcAccumulator::default(), IcAccumulator::default());
        items[..at].iter().for_each(|i| a.update(i));
        items[at..].iter().for_each(|i| b.update(i));
        a.merge(&b);
        assert_close(&json(&a.finish().unwrap()), &json(&figures(&items)), "ic");
    }

    #[test]
    fn a_perfectly_calibrated_model_with_zero_tvd_scores_c_100(groups in proptest::collection::vec((0usize..3, 1usize..=9, 3usize..6), 1..12)) {
        // Each group: ten items whose confidence is m/10 and of which exactly m are right; the
        // reference distribution equals the prediction (TVD = RPS = 0). Choice and rating ECE are
        // top-label, so there the confidence is kept at 0.5 or more, above the other options.
        let mut items = Vec::new();
        for (kind, m, k) in groups {
            let kind = KINDS[kind];
            let m = if kind == OptionKind::Binary { m } else { 5 + m % 5 };
            let conf = m as f64 / 10.0;
            for j in 0..10 {
                let right = j < m;
                let id = items.len();
                if kind == OptionKind::Binary {
                    let p = vec![1.0 - conf, conf];
                    let gold = usize::from(right);
                    items.push(item(id, kind, 2, gold, None, Some(p.clone()), Some(p), (j, 0, 0)));
                } else {
                    let rest = (1.0 - conf) / (k - 1) as f64;
                    let p: Vec<f64> = (0..k).map(|i| if i == 0 { conf } else { rest }).collect();
                    let gold = if right { 0 } else { 1 + j % (k - 1) };
                    items.push(item(id, kind, k, gold, Some(0), Some(p.clone()), Some(p), (j, 0, 0)));
                }
            }
        }
        let f = figures(&items);
        prop_assert!((f.overall.c.unwrap() - 100.0).abs() < 1e-9, "C {:?}", f.overall.c);
        for t in types(&f) {
            prop_assert!(t.ece.unwrap() < 1e-12);
            prop_assert!(t.tvd.unwrap() < 1e-12);
            if let Some(r) = t.rps { prop_assert!(r < 1e-12); }
        }
    }
}

/// SplitMix64: a small seeded generator for the simulation.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Uniform guessing scores I ≈ 0. With 10,000 items per type spread over the five tiers, the
/// standard error of a type's CC is about 1.1 (binary), 0.8 (choice) and 0.9 (rating) points, and
/// of I about 0.6; the tolerances are 5 points per type and 2.5 for I (over 4 standard errors).
#[test]
fn uniform_guessing_scores_i_near_0() {
    const N: usize = 10_000;
    for seed in [1u64, 7, 42, 2026, 31337] {
        let mut rng = SplitMix(seed);
        let mut items = Vec::with_capacity(3 * N);
        for i in 0..N {
            // Choice: a random option of 2..=6.
            let k = 2 + rng.below(5);
            let (gold, answer, tier) = (rng.below(k), rng.below(k), rng.below(5));
            items.push(item(
                items.len(),
                OptionKind::Choice,
                k,
                gold,
                Some(answer),
                None,
                None,
                (tier, 0, 0),
            ));
            // Binary: p_yes 0 or 1 at random.
            let yes = rng.below(2) as f64;
            let (gold, tier) = (rng.below(2), rng.below(5));
            items.push(item(
                items.len(),
                OptionKind::Binary,
                2,
                gold,
                None,
                Some(vec![1.0 - yes, yes]),
                None,
                (tier, 0, 0),
            ));
            // Rating: a random level of 3..=7, no probabilities.
            let k = 3 + rng.below(5);
            let (gold, answer, tier) = (rng.below(k), rng.below(k), rng.below(5));
            items.push(item(
                items.len(),
                OptionKind::Rating,
                k,
                gold,
                Some(answer),
                None,
                None,
                (tier, i % 3, 0),
            ));
        }
        let f = figures(&items);
        let i = f.overall.i.unwrap();
        eprintln!(
            "seed {seed}: I = {i:.3}, i_weighted = {:.3}",
            f.overall.i_weighted.unwrap()
        );
        assert!(i.abs() < 2.5, "seed {seed}: I = {i}");
        for t in types(&f) {
            let cc = t.cc.unwrap();
            assert!(cc.abs() < 5.0, "seed {seed}: CC = {cc}");
        }
        assert_eq!(
            f.overall.types.binary.as_ref().unwrap().abstention_rate,
            Some(0.0)
        );
    }
}
