//! A run's mean figures with standard errors that count what is really independent: the
//! cluster-robust (sandwich) standard error of a mean, its design effect, and the effective number
//! of items that Wilson's interval takes in place of the item count.
//!
//! Items in one cluster (questions on one passage, epochs of one sample) are not independent:
//! treating them as such understates the standard error (Miller 2024, "Adding Error Bars to
//! Evals", arXiv 2411.00640, §2.2). For a mean θ = Σ v_i / n over n counted items in G clusters,
//! with r_c = Σ_{i ∈ c} (v_i − θ) each cluster's summed residual,
//!
//! ```text
//! SE² = G / (G − 1) · Σ_c r_c² / n²
//! ```
//!
//! the sandwich estimator with the usual small-sample factor G / (G − 1) (Cameron and Miller
//! 2015, "A Practitioner's Guide to Cluster-Robust Inference", §II.C). With every item its own
//! cluster it is s² / n with the n − 1 divisor: the plain CLT standard error. The design effect is
//! SE² over that plain SE², and the effective number of items n / deff (Kish 1965; Korn and
//! Graubard 1998 use it for a proportion's interval, as Wilson's does here).

pub use super::stats::wilson_share as wilson_effective;
use super::stats::Z95;

/// A mean over clustered items and how sure it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusteredMean {
    pub mean: f64,
    /// Items counted (values that are not `NaN`).
    pub items: u64,
    /// Clusters with at least one counted item.
    pub clusters: u64,
    /// The cluster-robust standard error.
    pub se: f64,
    /// The standard error as if every item were independent (s / √n).
    pub se_iid: f64,
}

impl ClusteredMean {
    /// SE² / SE²_iid; 1 when the values do not vary at all.
    pub fn design_effect(&self) -> f64 {
        if self.se_iid > 0.0 {
            (self.se / self.se_iid).powi(2)
        } else {
            1.0
        }
    }

    /// n / deff: how many independent items the clustered ones are worth.
    pub fn effective_items(&self) -> f64 {
        self.items as f64 / self.design_effect()
    }

    /// The CLT interval θ ± z·SE at the 95% level.
    pub fn interval(&self) -> (f64, f64) {
        (self.mean - Z95 * self.se, self.mean + Z95 * self.se)
    }
}

/// The clustered mean of `values` (`NaN` where an item is not counted), item i in cluster
/// `cluster_of[i]`; `None` with fewer than two counted items or two clusters.
pub fn clustered_mean(values: &[f64], cluster_of: &[u32]) -> Option<ClusteredMean> {
    let domain = vec![0; values.len()];
    clustered_means(values, cluster_of, &domain, 1)
        .pop()
        .flatten()
}

/// `clustered_mean` of each domain d in `0..domains` (a group, say) at once: item i counts in
/// domain `domain_of[i]` (none when out of range). One sort, whatever the number of domains.
pub fn clustered_means(
    values: &[f64],
    cluster_of: &[u32],
    domain_of: &[u32],
    domains: usize,
) -> Vec<Option<ClusteredMean>> {
    let mut sums = vec![(0.0, 0u64); domains];
    let counted = || {
        values
            .iter()
            .zip(cluster_of)
            .zip(domain_of)
            .filter(|((v, _), &d)| !v.is_nan() && (d as usize) < domains)
    };
    for ((&v, _), &d) in counted() {
        if let Some((s, n)) = sums.get_mut(d as usize) {
            *s += v;
            *n += 1;
        }
    }
    let mean = |d: u32| {
        sums.get(d as usize)
            .map_or(f64::NAN, |&(s, n)| s / n as f64)
    };
    // Each counted item's residual, by (domain, cluster): a cluster's items side by side.
    let mut rows: Vec<(u32, u32, f64)> = counted()
        .map(|((&v, &c), &d)| (d, c, v - mean(d)))
        .collect();
    rows.sort_unstable_by_key(|&(d, c, _)| (d, c));
    // Per domain: Σ r², Σ_c (Σ_{i∈c} r_i)², clusters.
    let mut parts = vec![(0.0, 0.0, 0u64); domains];
    let mut at = 0;
    while let Some(&(d, c, _)) = rows.get(at) {
        let mut r_c = 0.0;
        let mut squares = 0.0;
        while let Some(&(d2, c2, r)) = rows.get(at) {
            if (d2, c2) != (d, c) {
                break;
            }
            r_c += r;
            squares += r * r;
            at += 1;
        }
        if let Some(p) = parts.get_mut(d as usize) {
            p.0 += squares;
            p.1 += r_c * r_c;
            p.2 += 1;
        }
    }
    sums.iter()
        .zip(&parts)
        .map(|(&(sum, n), &(squares, meat, g))| {
            if n < 2 || g < 2 {
                return None;
            }
            let (gf, nf) = (g as f64, n as f64);
            Some(ClusteredMean {
                mean: sum / nf,
                items: n,
                clusters: g,
                se: (gf / (gf - 1.0) * meat / (nf * nf)).sqrt(),
                se_iid: (squares / (nf - 1.0) / nf).sqrt(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::stats::wilson;

    #[test]
    fn single_item_clusters_give_the_plain_standard_error() {
        // 1 1 0 1: mean 0.75, s² = (3 × 0.0625 + 0.5625) / 3 = 0.25, SE = sqrt(0.25 / 4) = 0.25.
        let m = clustered_mean(&[1.0, 1.0, 0.0, 1.0], &[0, 1, 2, 3]).unwrap();
        assert!((m.se - 0.25).abs() < 1e-15, "{m:?}");
        assert!((m.se_iid - 0.25).abs() < 1e-15);
        assert!((m.design_effect() - 1.0).abs() < 1e-12);
        assert_eq!((m.items, m.clusters), (4, 4));
    }

    #[test]
    fn clusters_by_hand() {
        // Clusters {1, 1}, {0, 0}, {1, 0}: mean 0.5, residual sums 1, −1, 0; meat 2;
        // SE² = 3/2 · 2 / 36 = 1/12. Plain: s² = 6 × 0.25 / 5 = 0.3, SE² = 0.05.
        let m = clustered_mean(&[1.0, 1.0, 0.0, 0.0, 1.0, 0.0], &[0, 0, 1, 1, 2, 2]).unwrap();
        assert!((m.se * m.se - 1.0 / 12.0).abs() < 1e-15, "{m:?}");
        assert!((m.se_iid * m.se_iid - 0.05).abs() < 1e-15);
        assert!((m.design_effect() - (1.0 / 12.0) / 0.05).abs() < 1e-12);
        assert!((m.effective_items() - 6.0 * 0.05 * 12.0).abs() < 1e-12);
        // Uncounted items are left out, and so is a cluster with none counted.
        let n = f64::NAN;
        let m2 = clustered_mean(
            &[1.0, 1.0, 0.0, 0.0, 1.0, 0.0, n, n],
            &[0, 0, 1, 1, 2, 2, 3, 3],
        )
        .unwrap();
        assert_eq!(m, m2);
    }

    #[test]
    fn domains_at_once_equal_each_alone() {
        let v = [1.0, 0.0, 1.0, 1.0, 0.0, 0.5, 1.0, 0.0, 0.25];
        let c = [0, 0, 1, 2, 2, 3, 4, 4, 5];
        let d = [0, 1, 0, 1, 0, 1, 0, 1, 7];
        let both = clustered_means(&v, &c, &d, 2);
        for (k, got) in both.iter().enumerate() {
            let own: Vec<f64> = v
                .iter()
                .zip(&d)
                .map(|(&x, &g)| if g == k as u32 { x } else { f64::NAN })
                .collect();
            assert_eq!(*got, clustered_mean(&own, &c), "domain {k}");
        }
    }

    #[test]
    fn too_little_to_say() {
        assert_eq!(clustered_mean(&[1.0], &[0]), None);
        assert_eq!(clustered_mean(&[1.0, 0.0], &[0, 0]), None);
    }

    #[test]
    fn effective_wilson_is_wilson_on_whole_counts() {
        let (lo, hi) = wilson_effective(81.0 / 263.0, 263.0, Z95).unwrap();
        let (wlo, whi) = wilson(81.0, 263, Z95).unwrap();
        assert!((lo - wlo).abs() < 1e-15 && (hi - whi).abs() < 1e-15);
        assert_eq!(wilson_effective(0.5, 0.0, Z95), None);
    }
}
