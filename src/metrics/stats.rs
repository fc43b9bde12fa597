//! Interval formulas shared by several figures.

/// z for a two-sided 95% interval, as SPEC §8 fixes it.
pub const Z95: f64 = 1.959963984540054;

/// Wilson score interval for `successes` out of `n` (None when n = 0).
pub fn wilson(successes: f64, n: u64, z: f64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    wilson_share(successes / n, n, z)
}

/// Wilson score interval for a share `p` of `n` items, `n` possibly fractional (an effective
/// number of items, n / design effect); None when n is not positive.
pub fn wilson_share(p: f64, n: f64, z: f64) -> Option<(f64, f64)> {
    if n.is_nan() || n <= 0.0 || p.is_nan() {
        return None;
    }
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some(((center - half).max(0.0), (center + half).min(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), Table I: 81/263 -> 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605.
        let (lo, hi) = wilson(81.0, 263, Z95).unwrap();
        assert!(
            (lo - 0.2553).abs() < 5e-5 && (hi - 0.3662).abs() < 5e-5,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(15.0, 148, Z95).unwrap();
        assert!(
            (lo - 0.0624).abs() < 5e-5 && (hi - 0.1605).abs() < 5e-5,
            "{lo} {hi}"
        );
        // 0/10 -> 0 to 0.2775 (Newcombe's case 5).
        let (lo, hi) = wilson(0.0, 10, Z95).unwrap();
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 5e-5, "{lo} {hi}");
        assert_eq!(wilson(0.0, 0, Z95), None);
    }
}
