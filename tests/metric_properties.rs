//! Property tests of the SPEC §2–§4 figures: bounds, order invariance, merge of parts = whole,
//! and what conditioning and mixing must preserve.

use proptest::prelude::*;
use scorelens::items::{Body, Item, Mode, OptionItem, OptionKind, Probs};
use scorelens::metrics::{Summary, SummaryFigures};
use scorelens::probs::{build, Source};

/// An option item with probabilities on a 1/1000 grid (so ties are exact) and some outside mass.
fn item() -> impl Strategy<Value = Item> {
    (2usize..6)
        .prop_flat_map(|k| {
            (
                Just(k),
                0..k,
                prop::collection::vec(0u32..1000, k),
                prop::option::of(0..k + 1),
                prop::option::of("[a-c]"),
                0u32..1000,
            )
        })
        .prop_map(|(k, gold, raw, answer, group, total)| {
            // Scale the raw weights so that they sum to at most total/1000 (<= 1).
            let sum: u32 = raw.iter().sum::<u32>().max(1);
            let values: Vec<Option<f64>> = raw
                .iter()
                .map(|&r| Some(((r as u64 * total.max(1) as u64 / sum as u64) as f64) / 1000.0))
                .collect();
            let probs = build(&values, Source::Probs).ok();
            let answer = match answer {
                // k means "an answer outside the options": invalid.
                Some(a) if a < k => Some(a),
                Some(_) => None,
                None => probs.as_ref().map(Probs::argmax),
            };
            Item {
                id: Default::default(),
                line: None,
                group: group.map(Into::into),
                tier: None,
                split: None,
                modality: None,
                cluster: None,
                body: Body::Option(OptionItem {
                    kind: OptionKind::Choice,
                    options: (0..k).map(|i| i.to_string()).collect(),
                    gold,
                    gold_probs: None,
                    answer,
                    probs,
                }),
            }
        })
}

fn summarize(items: &[Item]) -> SummaryFigures {
    let mut s = Summary::default();
    for i in items {
        s.update(i);
    }
    s.finish()
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9,
        (None, None) => true,
        _ => false,
    }
}

/// Every headline figure of two summaries agrees to rounding.
fn same(a: &SummaryFigures, b: &SummaryFigures) -> bool {
    let cal = |x: &scorelens::metrics::calibration::CalibrationFigures,
               y: &scorelens::metrics::calibration::CalibrationFigures| {
        close(x.ece, y.ece)
            && close(x.ece_em, y.ece_em)
            && close(x.brier, y.brier)
            && close(x.epa, y.epa)
            && close(x.nll, y.nll)
            && x.items == y.items
            && x.bins
                .iter()
                .zip(&y.bins)
                .all(|(p, q)| p.count == q.count && close(p.accuracy, q.accuracy))
    };
    close(a.overall.accuracy, b.overall.accuracy)
        && close(a.overall.normalized, b.overall.normalized)
        && close(a.overall.invalid_share, b.overall.invalid_share)
        && close(a.macro_accuracy, b.macro_accuracy)
        && close(a.macro_normalized, b.macro_normalized)
        && close(a.outside_mass, b.outside_mass)
        && a.groups.len() == b.groups.len()
        && cal(&a.conditioning, &b.conditioning)
        && cal(&a.mixing, &b.mixing)
}

proptest! {
    #[test]
    fn figures_stay_in_bounds(items in prop::collection::vec(item(), 1..60)) {
        let f = summarize(&items);
        for c in [&f.conditioning, &f.mixing] {
            for x in [c.ece, c.ece_em, c.brier, c.epa].into_iter().flatten() {
                prop_assert!((0.0..=1.0).contains(&x), "{x}");
            }
            if let Some(nll) = c.nll {
                prop_assert!(nll >= 0.0);
            }
            let counted: u64 = c.bins.iter().map(|b| b.count).sum();
            prop_assert_eq!(counted, c.items);
        }
        let acc = f.overall.accuracy.unwrap();
        prop_assert!((0.0..=1.0).contains(&acc));
        let n = f.overall.normalized.unwrap();
        prop_assert!((-1.0..=1.0).contains(&n));
    }

    #[test]
    fn item_order_does_not_matter(items in prop::collection::vec(item(), 1..60), seed in any::<u64>()) {
        let mut shuffled = items.clone();
        // A seeded Fisher-Yates shuffle.
        let mut state = seed | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            shuffled.swap(i, (state % (i as u64 + 1)) as usize);
        }
        prop_assert!(same(&summarize(&items), &summarize(&shuffled)));
    }

    #[test]
    fn merging_two_halves_gives_the_whole(items in prop::collection::vec(item(), 1..60), cut in any::<prop::sample::Index>()) {
        let at = cut.index(items.len() + 1);
        let mut left = Summary::default();
        let mut right = Summary::default();
        for i in &items[..at] {
            left.update(i);
        }
        for i in &items[at..] {
            right.update(i);
        }
        left.merge(right);
        prop_assert!(same(&left.finish(), &summarize(&items)));
    }

}

/// Runs `check` on `cases` inputs drawn from `strategy` (a fixed seed, so the counts below are
/// the same on every run); `check` says whether its assertion applied to the input. Returns how
/// many it applied to, so that a test can require its branch to be taken, not only pass.
fn counted<S: Strategy>(
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) -> u32 {
    let taken = std::cell::Cell::new(0u32);
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new_with_rng(
        config,
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    runner
        .run(&strategy, |v| {
            if check(v)? {
                taken.set(taken.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    taken.get()
}

#[test]
fn conditioning_and_mixing_keep_the_argmax() {
    let inputs = (prop::collection::vec(0u32..1000, 2..8), 1u32..1000);
    let taken = counted(256, inputs, |(raw, total)| {
        let sum: u32 = raw.iter().sum::<u32>().max(1);
        let values: Vec<Option<f64>> = raw
            .iter()
            .map(|&r| Some(((r as u64 * total as u64 / sum as u64) as f64) / 1000.0))
            .collect();
        // All-zero weights (a small total rounds every value to 0) are invalid probabilities.
        let Ok(p) = build(&values, Source::Probs) else {
            return Ok(false);
        };
        let top = p.argmax();
        for mode in [Mode::Conditioning, Mode::Mixing] {
            let q = p.distribution(mode).unwrap();
            prop_assert_eq!(scorelens::items::argmax(&q), top);
            let s: f64 = q.iter().sum();
            // Conditioning sums to s/s, mixing to s + m: both are distributions.
            prop_assert!((s - 1.0).abs() < 1e-9, "{s}");
        }
        Ok(true)
    });
    // Invalid (all-zero) inputs are rare: most cases must reach the assertions.
    assert!(
        taken >= 200,
        "only {taken} of 256 cases had valid probabilities"
    );
}

#[test]
fn mixing_with_no_outside_mass_is_conditioning() {
    let inputs = (prop::collection::vec(1u32..1000, 2..8), 0u32..20);
    let taken = counted(256, inputs, |(raw, over)| {
        // Totals from 1 up to 1.019: the outside mass is 0 unless rounding leaves the shares a
        // hair below 1 (over = 0), which the count below tolerates.
        let sum: u32 = raw.iter().sum();
        let mut values: Vec<f64> = raw.iter().map(|&r| r as f64 / sum as f64).collect();
        values[0] += over as f64 / 1000.0;
        let wrapped: Vec<Option<f64>> = values.into_iter().map(Some).collect();
        let p = build(&wrapped, Source::Probs).unwrap();
        if p.outside != Some(0.0) {
            return Ok(false);
        }
        prop_assert_eq!(
            p.distribution(Mode::Mixing),
            p.distribution(Mode::Conditioning)
        );
        Ok(true)
    });
    // over > 0 (19 of 20 draws) always gives a total above 1, so outside mass exactly 0.
    assert!(
        taken >= 220,
        "only {taken} of 256 cases had no outside mass"
    );
}
