//! Paired tests whose p-value any number of runs can use: a z-test of the difference A − B with
//! its standard error from the central limit theorem (for figures that are means of item values),
//! or from the paired bootstrap's resampled differences (for the rest).
//!
//! A bootstrap p-value counted from B resamples cannot fall below 2 / (B + 1), and Holm's
//! adjustment multiplies the smallest p by the number of pairs: past a dozen runs no such pair
//! could ever differ. A p-value from a standard error has no floor.
//!
//! The CLT standard error is the linearised (Taylor) variance of a stratified, clustered sample
//! (Cochran 1977, "Sampling Techniques", §5A.11 and §6.4; Wolter 2007, "Introduction to Variance
//! Estimation", §6.2), over the bootstrap's own strata and units. A run's figure is the mean of
//! its values v_i over the m items it counts, θ = Σ v_i / m; item i's influence is
//! u_i = (v_i − θ) / m when counted and 0 otherwise. For the pair, z_i = u_i(A) − u_i(B) summed
//! within each unit to z_u, and
//!
//! ```text
//! Var(θ_A − θ_B) = Σ_h n_h / (n_h − 1) · Σ_{u ∈ h} (z_u − z̄_h)²
//! ```
//!
//! over strata h of n_h units. With one stratum and every item its own unit this is the paired
//! t-test's s_d² / n; a subset's accuracy (a domain) counts the units outside it as zeros.

/// One run's influence values of a mean figure, per shared item.
#[derive(Debug, Clone, PartialEq)]
pub struct Influence {
    pub u: Vec<f64>,
}

impl Influence {
    /// From a run's item values (`NaN` where not counted); `None` when no item is counted.
    pub fn of(values: &[f64]) -> Option<Influence> {
        let (mut sum, mut m) = (0.0, 0u64);
        for &v in values.iter().filter(|v| !v.is_nan()) {
            sum += v;
            m += 1;
        }
        if m == 0 {
            return None;
        }
        let m = m as f64;
        let theta = sum / m;
        let u = values
            .iter()
            .map(|&v| if v.is_nan() { 0.0 } else { (v - theta) / m })
            .collect();
        Some(Influence { u })
    }
}

/// The design the standard errors are taken over: each shared item's unit, and the strata as
/// lists of units (the resampler's).
#[derive(Debug, Clone)]
pub struct Design<'a> {
    unit_of: &'a [u32],
    stratum_of_unit: Vec<u32>,
    stratum_units: Vec<f64>,
}

impl<'a> Design<'a> {
    pub fn new(unit_of: &'a [u32], strata: &[Vec<u32>]) -> Self {
        let units = strata.iter().map(Vec::len).sum();
        let mut stratum_of_unit = vec![0u32; units];
        for (h, list) in strata.iter().enumerate() {
            for &u in list {
                if let Some(s) = stratum_of_unit.get_mut(u as usize) {
                    *s = h as u32;
                }
            }
        }
        Design {
            unit_of,
            stratum_of_unit,
            stratum_units: strata.iter().map(|s| s.len() as f64).collect(),
        }
    }
}

/// Scratch space for `se`, reused across pairs.
#[derive(Debug, Default)]
pub struct Scratch {
    unit: Vec<f64>,
    sums: Vec<(f64, f64)>,
    touched: Vec<u32>,
}

/// The standard error of θ_A − θ_B over the shared items `items` (all when `None`) from the two
/// runs' influence values.
pub fn se(a: &Influence, b: &Influence, items: Option<&[u32]>, d: &Design, s: &mut Scratch) -> f64 {
    s.unit.resize(d.stratum_of_unit.len(), 0.0);
    s.sums.resize(d.stratum_units.len(), (0.0, 0.0));
    let unit = |i: usize| d.unit_of.get(i).copied().unwrap_or(0) as usize;
    let diff = |i: usize| a.u.get(i).copied().unwrap_or(0.0) - b.u.get(i).copied().unwrap_or(0.0);
    let mut add = |i: usize| {
        if let Some(z) = s.unit.get_mut(unit(i)) {
            *z += diff(i);
        }
    };
    match items {
        Some(list) => list.iter().for_each(|&i| add(i as usize)),
        None => (0..d.unit_of.len()).for_each(add),
    }
    // Each unit's total read once (and zeroed, so that its other items add nothing).
    s.touched.clear();
    let mut take = |i: usize| {
        let u = unit(i);
        let z = s.unit.get_mut(u).map_or(0.0, std::mem::take);
        let h = d.stratum_of_unit.get(u).copied().unwrap_or(0);
        if let Some(sum) = s.sums.get_mut(h as usize) {
            if *sum == (0.0, 0.0) {
                s.touched.push(h);
            }
            sum.0 += z;
            sum.1 += z * z;
        }
    };
    match items {
        Some(list) => list.iter().for_each(|&i| take(i as usize)),
        None => (0..d.unit_of.len()).for_each(take),
    }
    let mut var = 0.0;
    for &h in &s.touched {
        let (s1, s2) = s
            .sums
            .get_mut(h as usize)
            .map_or((0.0, 0.0), std::mem::take);
        let n = d.stratum_units.get(h as usize).copied().unwrap_or(0.0);
        if n > 1.0 {
            var += n / (n - 1.0) * (s2 - s1 * s1 / n).max(0.0);
        }
    }
    var.sqrt()
}

/// The units of a design, or of a domain of it, laid out stratum by stratum, each stratum's units
/// in the order of their first item: with every run's unit totals laid out so once, a pair's
/// standard error is one pass over two arrays, where `se` scatters the pair's items into units.
/// A leaderboard asks it of every pair of dozens of runs on every mean figure.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// The items, in order (the domain's, or every shared item).
    items: Vec<u32>,
    /// Per item of `items`, its unit's place among the totals.
    place: Vec<u32>,
    /// Per stratum with a unit among the items, in the order first met: where its units end
    /// among the totals, and how many units the stratum has in all.
    strata: Vec<(u32, f64)>,
}

impl Layout {
    /// The layout of the shared items `items` (all when `None`) under design `d`.
    pub fn new(d: &Design, items: Option<&[u32]>) -> Self {
        let items: Vec<u32> = match items {
            Some(list) => list.to_vec(),
            None => (0..d.unit_of.len() as u32).collect(),
        };
        let unit = |i: u32| d.unit_of.get(i as usize).copied().unwrap_or(0);
        let stratum = |u: u32| d.stratum_of_unit.get(u as usize).copied().unwrap_or(0);
        // The strata in the order first met, and each one's units in the order first met.
        let mut order: Vec<u32> = Vec::new();
        let mut units: Vec<Vec<u32>> = Vec::new();
        let mut rank_of_stratum = vec![u32::MAX; d.stratum_units.len()];
        let mut seen = vec![false; d.stratum_of_unit.len()];
        for &i in &items {
            let u = unit(i);
            if seen.get(u as usize).copied().unwrap_or(true) {
                continue;
            }
            if let Some(s) = seen.get_mut(u as usize) {
                *s = true;
            }
            let h = stratum(u);
            let Some(k) = rank_of_stratum.get_mut(h as usize) else {
                continue;
            };
            if *k == u32::MAX {
                *k = order.len() as u32;
                order.push(h);
                units.push(Vec::new());
            }
            if let Some(list) = units.get_mut(*k as usize) {
                list.push(u);
            }
        }
        let mut place_of_unit = vec![0u32; d.stratum_of_unit.len()];
        let mut strata = Vec::with_capacity(order.len());
        let mut at = 0u32;
        for (&h, list) in order.iter().zip(&units) {
            for &u in list {
                if let Some(p) = place_of_unit.get_mut(u as usize) {
                    *p = at;
                }
                at += 1;
            }
            let n = d.stratum_units.get(h as usize).copied().unwrap_or(0.0);
            strata.push((at, n));
        }
        let place = items
            .iter()
            .map(|&i| place_of_unit.get(unit(i) as usize).copied().unwrap_or(0))
            .collect();
        Layout {
            items,
            place,
            strata,
        }
    }

    /// One run's unit totals of its influence values, in this layout's order.
    pub fn totals(&self, inf: &Influence) -> Vec<f64> {
        let mut out = vec![0.0; self.strata.last().map_or(0, |s| s.0 as usize)];
        for (&i, &p) in self.items.iter().zip(&self.place) {
            if let Some(t) = out.get_mut(p as usize) {
                *t += inf.u.get(i as usize).copied().unwrap_or(0.0);
            }
        }
        out
    }

    /// The standard error of θ_A − θ_B from two runs' `totals`: `se`'s value, with each
    /// stratum's sums taken four units at a time (so the last bits may differ from it).
    pub fn se(&self, a: &[f64], b: &[f64]) -> f64 {
        let mut var = 0.0;
        let mut from = 0usize;
        for &(end, n) in &self.strata {
            let end = end as usize;
            let (Some(a), Some(b)) = (a.get(from..end), b.get(from..end)) else {
                break;
            };
            from = end;
            if n <= 1.0 {
                continue;
            }
            let (mut s1, mut s2) = ([0.0f64; 4], [0.0f64; 4]);
            let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
            let (ra, rb) = (ca.remainder(), cb.remainder());
            for (x, y) in ca.zip(cb) {
                for k in 0..4 {
                    let z = x[k] - y[k];
                    s1[k] += z;
                    s2[k] += z * z;
                }
            }
            for (k, (x, y)) in ra.iter().zip(rb).enumerate() {
                let z = x - y;
                s1[k] += z;
                s2[k] += z * z;
            }
            let s1 = (s1[0] + s1[1]) + (s1[2] + s1[3]);
            let s2 = (s2[0] + s2[1]) + (s2[2] + s2[3]);
            var += n / (n - 1.0) * (s2 - s1 * s1 / n).max(0.0);
        }
        var.sqrt()
    }
}

/// The two-sided p-value of "no difference" for a difference `delta` with standard error `se`
/// (the normal approximation): erfc(|δ| / (se √2)). A difference with no spread at all is certain
/// (p = 0), and no difference gives 1.
pub fn p_value(delta: f64, se: f64) -> f64 {
    if delta == 0.0 || delta.is_nan() {
        return 1.0;
    }
    if se.is_nan() {
        return 1.0;
    }
    if se == 0.0 {
        return 0.0;
    }
    libm::erfc(delta.abs() / (se * std::f64::consts::SQRT_2)).min(1.0)
}

/// The sample standard deviation of the resampled differences (the bootstrap's standard error of
/// the difference); `NaN` with fewer than two.
pub fn bootstrap_se(diffs: &[f64]) -> f64 {
    let n = diffs.len();
    if n < 2 {
        return f64::NAN;
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let ss: f64 = diffs.iter().map(|d| (d - mean) * (d - mean)).sum();
    (ss / (n - 1) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stratum_of_single_items_is_the_paired_t_standard_error() {
        // A: 1 1 0 1, B: 0 1 0 0. d = 1 0 0 1, mean 0.5, s² = (4 × 0.25) / 3 = 1/3,
        // SE = sqrt(1/3 / 4) = sqrt(1/12).
        let a = Influence::of(&[1.0, 1.0, 0.0, 1.0]).unwrap();
        let b = Influence::of(&[0.0, 1.0, 0.0, 0.0]).unwrap();
        let units = [0, 1, 2, 3];
        let d = Design::new(&units, &[vec![0, 1, 2, 3]]);
        let got = se(&a, &b, None, &d, &mut Scratch::default());
        assert!((got - (1.0f64 / 12.0).sqrt()).abs() < 1e-15, "{got}");
    }

    #[test]
    fn strata_and_clusters_by_hand() {
        // Two strata of two units; unit 0 holds items 0 and 1. Influence differences: items
        // (A − B) with A = 1 1 1 0 0, B = 0 0 0 0 0 over five items: θ_A = 0.6, u_A = ±/5.
        let a = Influence::of(&[1.0, 1.0, 1.0, 0.0, 0.0]).unwrap();
        let b = Influence::of(&[0.0; 5]).unwrap();
        let units = [0, 0, 1, 2, 3];
        let d = Design::new(&units, &[vec![0, 1], vec![2, 3]]);
        let got = se(&a, &b, None, &d, &mut Scratch::default());
        // z: unit 0 = 2 × 0.4/5 = 0.16, unit 1 = 0.08, unit 2 = unit 3 = -0.12.
        // Stratum 0: mean 0.12, Σ (z - mean)² = 0.0032, × 2/1; stratum 1: 0.
        let want = (2.0f64 * 0.0032).sqrt();
        assert!((got - want).abs() < 1e-15, "{got} {want}");
        // A subset (a domain) of items 2 and 3: units outside it count as zeros.
        let sub = [2u32, 3];
        let got = se(&a, &b, Some(&sub), &d, &mut Scratch::default());
        // z: unit 1 = 0.08, unit 2 = -0.12, units 0 and 3 zero. Stratum 0: {0, 0.08}: 2 × 0.0032;
        // stratum 1: {-0.12, 0}: 2 × 0.0072.
        let want = (2.0f64 * 0.0032 + 2.0 * 0.0072).sqrt();
        assert!((got - want).abs() < 1e-15, "{got} {want}");
    }

    /// The laid-out pairs give `se`'s value on designs with strata, clusters of every size and
    /// domains, at the sizes of a leaderboard (thousands of items): an independent route to it.
    #[test]
    fn layout_equals_the_scatter_into_units() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        for case in 0..12 {
            let items = 200 + next(3000) as usize;
            // Units of 1 to 4 items (all single in the even cases), numbered by first item.
            let mut unit_of = Vec::with_capacity(items);
            let mut u = 0u32;
            while unit_of.len() < items {
                let size = if case % 2 == 0 {
                    1
                } else {
                    1 + next(4) as usize
                };
                unit_of.extend(std::iter::repeat_n(u, size.min(items - unit_of.len())));
                u += 1;
            }
            let strata_n = 1 + next(5) as usize;
            let mut strata = vec![Vec::new(); strata_n];
            for unit in 0..u {
                strata[next(strata_n as u64) as usize].push(unit);
            }
            let d = Design::new(&unit_of, &strata);
            let mut values = |p: u64| -> Vec<f64> {
                (0..items)
                    .map(|_| (next(100) < p) as u8 as f64 * 0.5 + next(3) as f64 * 0.25)
                    .collect()
            };
            let (a, b) = (values(70), values(40));
            let (ia, ib) = (Influence::of(&a).unwrap(), Influence::of(&b).unwrap());
            let domain: Vec<u32> = (0..items as u32).filter(|_| next(3) == 0).collect();
            for list in [None, Some(domain.as_slice())] {
                let want = se(&ia, &ib, list, &d, &mut Scratch::default());
                let l = Layout::new(&d, list);
                let got = l.se(&l.totals(&ia), &l.totals(&ib));
                assert!(want > 0.0);
                assert!((got - want).abs() <= 1e-12 * want, "{case}: {got} {want}");
                // A run against itself has no spread at all.
                assert_eq!(l.se(&l.totals(&ia), &l.totals(&ia)), 0.0);
            }
        }
    }

    #[test]
    fn p_values() {
        // z = 1.959963984540054 gives 0.05.
        assert!((p_value(1.959963984540054, 1.0) - 0.05).abs() < 1e-12);
        assert_eq!(p_value(0.0, 0.0), 1.0);
        assert_eq!(p_value(0.1, 0.0), 0.0);
        // No floor: far past what 2 / (B + 1) could say.
        assert!(p_value(1.0, 0.1) < 1e-20);
        assert!((bootstrap_se(&[1.0, 2.0, 3.0]) - 1.0).abs() < 1e-15);
    }
}
