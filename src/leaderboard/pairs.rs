//! Pairwise differences on one figure: the paired interval, the raw p-value (McNemar's exact test
//! for 0/1 accuracy, a z-test otherwise: `paired_z`) and, once the family is known, Holm's
//! adjustment.

use super::rank::Better;
use super::PairDiff;
use crate::metrics::bootstrap::{quantile_unsorted, LEVEL};
use crate::metrics::mcnemar::McNemar;
use crate::metrics::paired_z::{bootstrap_se, p_value};
use crate::metrics::power::{items_needed, mde};

/// Which test decides a pair.
#[derive(Debug, Clone, Copy)]
pub enum Test {
    /// McNemar's exact test on 0/1 credits, with the CLT standard error of the difference shown.
    McNemar(McNemar, f64),
    /// A mean figure: the z-test with the CLT standard error of the paired differences.
    PairedZ(f64),
    /// Any other figure: the z-test with the bootstrap's standard error of the difference.
    BootstrapZ,
}

/// One pair's difference over `items` shared items, before adjustment. `values` hold every
/// resample's (a, b) values (`NaN` where undefined).
pub fn pair(
    names: (&str, &str),
    points: (f64, f64),
    values: impl Iterator<Item = (f64, f64)>,
    test: Test,
    better: Better,
    items: u64,
) -> PairDiff {
    // Resamples where either value is undefined are left out.
    let mut diffs: Vec<f64> = values
        .filter(|(x, y)| !x.is_nan() && !y.is_nan())
        .map(|(x, y)| x - y)
        .collect();
    let delta = points.0 - points.1;
    let (test, se, p) = match test {
        Test::McNemar(t, se) => match t.finish().p_value {
            Some(p) => ("mcnemar", se, p),
            None => ("paired-z", se, p_value(delta, se)),
        },
        Test::PairedZ(se) => ("paired-z", se, p_value(delta, se)),
        Test::BootstrapZ => {
            let se = bootstrap_se(&diffs);
            ("bootstrap-z", se, p_value(delta, se))
        }
    };
    let (lo, hi) = percentiles(&mut diffs);
    PairDiff {
        a: names.0.to_string(),
        b: names.1.to_string(),
        delta,
        lo,
        hi,
        better: if better.beats(points.0, points.1) {
            Some(names.0.to_string())
        } else if better.beats(points.1, points.0) {
            Some(names.1.to_string())
        } else {
            None
        },
        test: test.to_string(),
        se: se.is_finite().then_some(se),
        mde: se.is_finite().then(|| mde(se)),
        items_needed: items_needed(items, se, delta),
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

/// The central `LEVEL` percentile interval of `values` (reordered); none without values.
fn percentiles(values: &mut [f64]) -> (Option<f64>, Option<f64>) {
    if values.is_empty() {
        return (None, None);
    }
    let alpha = 1.0 - LEVEL;
    (
        Some(quantile_unsorted(values, alpha / 2.0)),
        Some(quantile_unsorted(values, 1.0 - alpha / 2.0)),
    )
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
    let (lo, hi) = percentiles(&mut list);
    (lo, hi, undefined)
}
