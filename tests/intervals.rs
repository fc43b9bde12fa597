//! Wilson and Clopper–Pearson intervals against published values, the beta function under them,
//! McNemar's test on hand-worked tables, and the intervals the reliability bins carry.

use proptest::prelude::*;
use scorelens::metrics::intervals::{beta_quantile, clopper_pearson, inc_beta};
use scorelens::metrics::mcnemar::{exact_p, McNemar};
use scorelens::metrics::stats::{wilson, Z95};
use scorelens::{Input, Options};

fn close(got: (f64, f64), want: (f64, f64), tol: f64) {
    assert!(
        (got.0 - want.0).abs() < tol && (got.1 - want.1).abs() < tol,
        "{got:?} vs {want:?}"
    );
}

#[test]
fn wilson_matches_newcombe_1998() {
    // Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (score interval).
    close(wilson(81.0, 263, Z95).unwrap(), (0.2553, 0.3662), 5e-5);
    close(wilson(15.0, 148, Z95).unwrap(), (0.0624, 0.1605), 5e-5);
    close(wilson(0.0, 20, Z95).unwrap(), (0.0, 0.1611), 5e-5);
    close(wilson(1.0, 29, Z95).unwrap(), (0.0061, 0.1718), 5e-5);
}

#[test]
fn clopper_pearson_matches_newcombe_1998() {
    // The same table, method 5 ("exact", Clopper and Pearson 1934).
    close(
        clopper_pearson(81.0, 263, 0.95).unwrap(),
        (0.2527, 0.3676),
        5e-5,
    );
    close(
        clopper_pearson(15.0, 148, 0.95).unwrap(),
        (0.0578, 0.1617),
        5e-5,
    );
    close(clopper_pearson(0.0, 20, 0.95).unwrap(), (0.0, 0.1684), 5e-5);
    close(
        clopper_pearson(1.0, 29, 0.95).unwrap(),
        (0.0009, 0.1776),
        5e-5,
    );
}

#[test]
fn clopper_pearson_closed_forms_and_textbook_cases() {
    // x = 0: upper = 1 - (α/2)^(1/n); x = n: lower = (α/2)^(1/n).
    for n in [1u64, 5, 20, 100] {
        let (lo, hi) = clopper_pearson(0.0, n, 0.95).unwrap();
        assert_eq!(lo, 0.0);
        assert!(
            (hi - (1.0 - 0.025f64.powf(1.0 / n as f64))).abs() < 1e-12,
            "{n}"
        );
        let (lo, hi) = clopper_pearson(n as f64, n, 0.95).unwrap();
        assert_eq!(hi, 1.0);
        assert!((lo - 0.025f64.powf(1.0 / n as f64)).abs() < 1e-12, "{n}");
    }
    // 5/10 -> 0.1871 to 0.8129; 1/10 -> 0.0025 to 0.4450 (standard tables).
    close(
        clopper_pearson(5.0, 10, 0.95).unwrap(),
        (0.1871, 0.8129),
        5e-5,
    );
    close(
        clopper_pearson(1.0, 10, 0.95).unwrap(),
        (0.0025, 0.4450),
        5e-5,
    );
    assert_eq!(clopper_pearson(0.0, 0, 0.95), None);
}

#[test]
fn incomplete_beta_by_hand() {
    // I_{1/2}(a, a) = 1/2 by symmetry; I_x(2, 2) = 3x² - 2x³.
    for a in [0.5, 1.0, 3.0, 40.0, 400.0] {
        assert!((inc_beta(0.5, a, a) - 0.5).abs() < 1e-13, "{a}");
    }
    for x in [0.1, 0.25, 0.6, 0.9] {
        let want = 3.0 * x * x - 2.0 * x * x * x;
        assert!((inc_beta(x, 2.0, 2.0) - want).abs() < 1e-14, "{x}");
    }
    // The median of Beta(a, a) is 1/2.
    assert!((beta_quantile(0.5, 7.0, 7.0) - 0.5).abs() < 1e-12);
}

#[test]
fn mcnemar_exact_on_hand_worked_tables() {
    // A right / B wrong on 1 item, the reverse on 6: n = 7 discordant, min = 1,
    // P(X <= 1) = (C(7,0) + C(7,1)) / 2^7 = 8/128, two-sided p = 0.125.
    let mut t = McNemar::default();
    for (a, b, n) in [(1.0, 1.0, 10), (1.0, 0.0, 1), (0.0, 1.0, 6), (0.0, 0.0, 3)] {
        for _ in 0..n {
            t.add(a, b);
        }
    }
    let t = t.finish();
    assert_eq!(
        (t.both_right, t.only_a, t.only_b, t.both_wrong),
        (10, 1, 6, 3)
    );
    assert!((t.p_value.unwrap() - 0.125).abs() < 1e-15);
    // b = 2, c = 10: (1 + 12 + 66) / 4096 * 2 = 158 / 4096.
    assert!((exact_p(2, 10) - 158.0 / 4096.0).abs() < 1e-15);
    assert!((exact_p(10, 2) - exact_p(2, 10)).abs() < 1e-18, "symmetric");
    // b = 0, c = 5: 2 / 32.
    assert!((exact_p(0, 5) - 0.0625).abs() < 1e-15);
    // Large n: the normal approximation with continuity correction is close.
    let p = exact_p(4_800, 5_200);
    let z = (400.0f64 - 1.0) / (10_000.0f64).sqrt();
    assert!(p > 0.0 && p < 1e-4 && z > 3.9, "{p}");
}

#[test]
fn reliability_bins_carry_both_intervals() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/samples/choice.jsonl"
    ))
    .unwrap();
    let input = Input {
        name: "choice.jsonl",
        bytes: &bytes,
    };
    let r = scorelens::score(&[input], &Options::default()).unwrap();
    let mut filled = 0;
    for b in &r.conditioning.bins {
        if b.count == 0 {
            assert!(b.cp_lo.is_none() && b.ci_lo.is_none());
            continue;
        }
        filled += 1;
        let acc = b.accuracy.unwrap();
        let (lo, hi) = (b.cp_lo.unwrap(), b.cp_hi.unwrap());
        assert!(lo <= acc && acc <= hi);
        let want = clopper_pearson(acc * b.count as f64, b.count, 0.95).unwrap();
        close((lo, hi), want, 1e-12);
        if acc == 1.0 {
            // All correct: the exact interval reaches 1, its lower end is (α/2)^(1/n).
            assert_eq!(hi, 1.0);
            assert!((lo - 0.025f64.powf(1.0 / b.count as f64)).abs() < 1e-12);
        }
    }
    assert!(filled >= 3);
}

proptest! {
    #[test]
    fn clopper_pearson_covers_the_rate_and_nests_by_level(x in 0u64..200, extra in 0u64..200) {
        let n = x + extra;
        prop_assume!(n > 0);
        let p = x as f64 / n as f64;
        let (lo95, hi95) = clopper_pearson(x as f64, n, 0.95).unwrap();
        let (lo99, hi99) = clopper_pearson(x as f64, n, 0.99).unwrap();
        prop_assert!(0.0 <= lo95 && lo95 <= p && p <= hi95 && hi95 <= 1.0);
        prop_assert!(lo99 <= lo95 + 1e-12 && hi95 <= hi99 + 1e-12);
        // The defining tail: P(X >= x | lo) = α/2 when x > 0.
        if x > 0 {
            prop_assert!((inc_beta(lo95, x as f64, (n - x + 1) as f64) - 0.025).abs() < 1e-9);
        }
    }

    #[test]
    fn mcnemar_p_is_a_probability_and_symmetric(b in 0u64..3000, c in 0u64..3000) {
        let p = exact_p(b, c);
        prop_assert!((0.0..=1.0).contains(&p));
        prop_assert!((p - exact_p(c, b)).abs() < 1e-15);
        // More imbalance never raises the p-value.
        prop_assert!(exact_p(b, c + 1) <= p + 1e-12 || b > c);
    }
}
