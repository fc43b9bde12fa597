//! Pairwise differences on one figure: the paired interval, the raw p-value (McNemar's exact test
//! for accuracy, the bootstrap otherwise) and, once the family is known, Holm's adjustment.

use super::rank::Better;
use super::PairDiff;
use crate::metrics::bootstrap::{interval, quantile, LEVEL};
use crate::metrics::mcnemar::McNemar;

/// The two-sided bootstrap p-value of "no difference" from the resampled differences:
/// 2 × (1 + the smaller count of differences on either side of zero, zero counted on both) /
/// (1 + resamples), at most 1 (Davison and Hinkley 1997, §4.4: the +1 keeps p above zero).
pub fn bootstrap_p(diffs: &[f64]) -> f64 {
    let below = diffs.iter().filter(|&&d| d <= 0.0).count();
    let above = diffs.iter().filter(|&&d| d >= 0.0).count();
    let p = 2.0 * (1 + below.min(above)) as f64 / (1 + diffs.len()) as f64;
    p.min(1.0)
}

/// One pair's difference, before adjustment. `values` hold every resample's (a, b) values
/// (`NaN` where undefined); `table` is McNemar's table when the figure is an accuracy.
pub fn pair(
    names: (&str, &str),
    points: (f64, f64),
    values: impl Iterator<Item = (f64, f64)>,
    table: Option<McNemar>,
    better: Better,
) -> PairDiff {
    let mut diffs = Vec::new();
    let mut undefined = 0u32;
    for (x, y) in values {
        if x.is_nan() || y.is_nan() {
            undefined += 1;
        } else {
            diffs.push(x - y);
        }
    }
    let delta = points.0 - points.1;
    let table = table.map(McNemar::finish);
    let (test, p) = match table.and_then(|t| t.p_value) {
        Some(p) => ("mcnemar", p),
        None => ("bootstrap", bootstrap_p(&diffs)),
    };
    let f = interval(delta, diffs, undefined);
    PairDiff {
        a: names.0.to_string(),
        b: names.1.to_string(),
        delta,
        lo: f.as_ref().map(|f| f.lo),
        hi: f.as_ref().map(|f| f.hi),
        better: if better.beats(points.0, points.1) {
            Some(names.0.to_string())
        } else if better.beats(points.1, points.0) {
            Some(names.1.to_string())
        } else {
            None
        },
        test: test.to_string(),
        p_value: p,
        p_adjusted: p,
        differs: false,
    }
}

/// Fills in the family's Holm-adjusted p-values and whether each pair differs at 1 − LEVEL.
pub fn adjust<'a>(family: impl Iterator<Item = &'a mut PairDiff>) {
    let mut members: Vec<&mut PairDiff> = family.collect();
    let raw: Vec<f64> = members.iter().map(|p| p.p_value).collect();
    let adjusted = super::holm::holm(&raw);
    for (p, a) in members.iter_mut().zip(adjusted) {
        p.p_adjusted = a;
        // A tie at the point estimate names no better run, so it never differs.
        p.differs = a <= 1.0 - LEVEL && p.better.is_some();
    }
}

/// The percentile interval of a run's own resampled values (`NaN` dropped).
pub fn own_interval(values: impl Iterator<Item = f64>) -> (Option<f64>, Option<f64>, u32) {
    let mut list = Vec::new();
    let mut undefined = 0u32;
    for v in values {
        if v.is_nan() {
            undefined += 1;
        } else {
            list.push(v);
        }
    }
    list.sort_unstable_by(f64::total_cmp);
    if list.is_empty() {
        return (None, None, undefined);
    }
    let alpha = 1.0 - LEVEL;
    (
        Some(quantile(&list, alpha / 2.0)),
        Some(quantile(&list, 1.0 - alpha / 2.0)),
        undefined,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_p_by_hand() {
        // 9 resamples: 1 at or below zero, 8 above: 2 × (1 + 1) / 10 = 0.4.
        let d = [-0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.4, 0.1, 0.2];
        assert!((bootstrap_p(&d) - 0.4).abs() < 1e-15);
        // All on one side: 2 × 1 / 10 = 0.2, never zero.
        assert!((bootstrap_p(&[0.1; 9]) - 0.2).abs() < 1e-15);
        // Identical runs (every difference zero) give 1.
        assert_eq!(bootstrap_p(&[0.0; 9]), 1.0);
    }
}
