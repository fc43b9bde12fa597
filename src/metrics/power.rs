//! How many items a comparison needs: the minimum detectable effect of a two-sided test at the
//! 95% level with 80% power, and the items a given gap or a narrower interval would need.
//!
//! For a difference with standard error SE from n items, a two-sided z-test at level α detects a
//! true difference δ with power 1 − β when |δ| ≥ (z_{1−α/2} + z_{1−β}) · SE (the normal
//! approximation; Miller 2024, "Adding Error Bars to Evals", §5; Cohen 1988, ch. 12). SE shrinks
//! as 1 / √n at a fixed design (clusters of the same size), so a gap δ needs
//! n · ((z_{1−α/2} + z_{1−β}) · SE / δ)² items, and halving an interval needs four times the items.

use super::stats::Z95;

/// z_{0.80}: the normal quantile for 80% power.
pub const Z_POWER80: f64 = 0.841_621_233_572_914_3;

/// The smallest true difference a 95%-level test detects with 80% power, given its standard
/// error.
pub fn mde(se: f64) -> f64 {
    (Z95 + Z_POWER80) * se
}

/// Past this many items no benchmark reaches: a gap that needs more (a difference of a rounding
/// error, say) needs "none in reach", and stays a whole number JavaScript can hold.
pub const ITEMS_IN_REACH: f64 = 1e12;

/// Items the test would need (at the same design) to detect a true difference of `gap` with 80%
/// power, when `items` items give standard error `se`; `None` for no gap, no spread, or more
/// than `ITEMS_IN_REACH`.
pub fn items_needed(items: u64, se: f64, gap: f64) -> Option<u64> {
    if gap.is_nan() || gap == 0.0 || se.is_nan() || se <= 0.0 || items == 0 {
        return None;
    }
    let need = items as f64 * (mde(se) / gap.abs()).powi(2);
    if need.is_nan() || need > ITEMS_IN_REACH {
        return None;
    }
    // Rounded up: fewer would fall short of the power; the tiny slack absorbs the float error of
    // an exact square.
    Some((need - 1e-9).ceil().max(1.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms() {
        // (1.959964 + 0.841621) = 2.801585.
        assert!((mde(1.0) - 2.801_585_218_112_968).abs() < 1e-12);
        assert!((mde(0.01) - 0.028_015_852_181_129_68).abs() < 1e-14);
        // A gap equal to the MDE needs the items it has; half of it four times as many.
        assert_eq!(items_needed(400, 0.01, mde(0.01)), Some(400));
        assert_eq!(items_needed(400, 0.01, mde(0.01) / 2.0), Some(1600));
        assert_eq!(items_needed(400, 0.01, 0.0), None);
        assert_eq!(items_needed(400, 0.0, 0.1), None);
        // A gap of a rounding error is out of reach, not u64::MAX items.
        assert_eq!(items_needed(400, 0.01, 1e-17), None);
    }
}
