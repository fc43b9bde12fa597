//! Exact binomial intervals and the special functions under them: Clopper–Pearson for a
//! proportion (the reliability diagram's bins, where Wilson and the bootstrap are poor near 0 and
//! 1), the regularized incomplete beta function, its inverse, and the binomial tail.
//!
//! Written here rather than taken from `statrs`: the three functions below are about a hundred
//! lines, and the crate would bring `rand`, `approx` and `num-traits` into the browser's wasm for
//! them. They are checked against published values in `tests/intervals.rs`.

use crate::math::{exp, ln, sin};

/// Lanczos coefficients for g = 7, n = 9 (Godfrey's set), good to about 1e-15.
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// ln Γ(x) for x > 0.
pub fn ln_gamma(x: f64) -> f64 {
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return ln(pi / sin(pi * x)) - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = LANCZOS[0];
    for (i, &c) in LANCZOS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * ln(2.0 * std::f64::consts::PI) + (x + 0.5) * ln(t) - t + ln(sum)
}

/// The regularized incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1].
///
/// The continued fraction of I_x(a, b) converges fast for x < (a + 1) / (a + b + 2); above that
/// the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) is used. Evaluated with the modified Lentz method.
pub fn inc_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = a * ln(x) + b * ln(1.0 - x) + ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b);
    if x < (a + 1.0) / (a + b + 2.0) {
        exp(ln_front) * continued_fraction(x, a, b) / a
    } else {
        1.0 - exp(ln_front) * continued_fraction(1.0 - x, b, a) / b
    }
}

/// The continued fraction 1 / (1 + d1 / (1 + d2 / (1 + ...))) of I_x(a, b), by modified Lentz.
fn continued_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPS: f64 = 1e-16;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut f = d;
    for m in 1..=1000 {
        let m = f64::from(m);
        // Even step: d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)).
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        // Odd step: d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        for coef in [even, odd] {
            d = 1.0 + coef * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + coef / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            f *= d * c;
        }
        if (d * c - 1.0).abs() < EPS {
            break;
        }
    }
    f
}

/// The p-quantile of the Beta(a, b) distribution: the x with I_x(a, b) = p, by bisection (I is
/// increasing in x), to about 2 ulps relative.
pub fn beta_quantile(p: f64, a: f64, b: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        // Stop at full relative precision (or when the halves no longer differ).
        if mid <= lo || mid >= hi || hi - lo <= 4.0 * f64::EPSILON * hi {
            break;
        }
        if inc_beta(mid, a, b) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Clopper–Pearson interval at `level` (e.g. 0.95) for `successes` out of `n`: the Beta
/// quantiles B(α/2; x, n - x + 1) and B(1 - α/2; x + 1, n - x), with 0 below for x = 0 and 1 above
/// for x = n. `successes` may be fractional (an observed rate times n). None when n = 0.
pub fn clopper_pearson(successes: f64, n: u64, level: f64) -> Option<(f64, f64)> {
    if n == 0 || !successes.is_finite() {
        return None;
    }
    let nf = n as f64;
    let x = successes.clamp(0.0, nf);
    let alpha = 1.0 - level;
    let lo = if x <= 0.0 {
        0.0
    } else {
        beta_quantile(alpha / 2.0, x, nf - x + 1.0)
    };
    let hi = if x >= nf {
        1.0
    } else {
        beta_quantile(1.0 - alpha / 2.0, x + 1.0, nf - x)
    };
    Some((lo, hi))
}

/// P(X <= k) for X ~ Binomial(n, 1/2), exact to rounding: summed term by term for small n,
/// through I_{1/2}(n - k, k + 1) beyond (where 2^-n would underflow).
pub fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    if k >= n {
        return 1.0;
    }
    if n <= 1000 {
        // C(n, i) / 2^n, built up as a running product in log space-free form.
        let mut term = 0.5f64.powi(n as i32);
        let mut sum = term;
        for i in 0..k {
            term *= (n - i) as f64 / (i + 1) as f64;
            sum += term;
        }
        return sum.min(1.0);
    }
    inc_beta(0.5, (n - k) as f64, (k + 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_of_integers_is_log_factorial() {
        let mut fact = 1.0f64;
        for n in 1..20u32 {
            assert!((ln_gamma(f64::from(n)) - fact.ln()).abs() < 1e-12, "{n}");
            fact *= f64::from(n);
        }
        // Γ(1/2) = √π.
        let half = ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln();
        assert!(half.abs() < 1e-14);
    }

    #[test]
    fn inc_beta_closed_forms() {
        // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b.
        for &x in &[0.01, 0.3, 0.5, 0.77, 0.999] {
            assert!((inc_beta(x, 1.0, 1.0) - x).abs() < 1e-14);
            assert!((inc_beta(x, 3.5, 1.0) - x.powf(3.5)).abs() < 1e-14);
            assert!((inc_beta(x, 1.0, 4.0) - (1.0 - (1.0 - x).powi(4))).abs() < 1e-14);
        }
        assert_eq!(inc_beta(0.0, 2.0, 3.0), 0.0);
        assert_eq!(inc_beta(1.0, 2.0, 3.0), 1.0);
    }

    #[test]
    fn beta_quantile_inverts_inc_beta() {
        for &(a, b) in &[(0.5, 0.5), (2.0, 7.0), (30.0, 3.0), (200.0, 800.0)] {
            for &p in &[0.001, 0.025, 0.5, 0.975, 0.999] {
                let x = beta_quantile(p, a, b);
                assert!((inc_beta(x, a, b) - p).abs() < 1e-12, "{a} {b} {p}");
            }
        }
    }

    #[test]
    fn binomial_tail_small_and_large_agree() {
        // n = 7, k = 1: (1 + 7) / 128.
        assert!((binomial_half_cdf(1, 7) - 8.0 / 128.0).abs() < 1e-16);
        assert_eq!(binomial_half_cdf(7, 7), 1.0);
        // The two paths meet: n = 1000 summed vs the beta form.
        let summed = binomial_half_cdf(480, 1000);
        let beta = inc_beta(0.5, 520.0, 481.0);
        assert!((summed - beta).abs() < 1e-12, "{summed} {beta}");
    }
}
