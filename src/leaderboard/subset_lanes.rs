//! The subsets' accuracies for a block of resamples, every run at once: the shared items laid
//! out subset by subset once, each block's weights gathered into that order once, each
//! subset's count of draws taken once for every run (the runs share the draw), and each run's
//! sums of `weight × credit` a pass over its credits in that order with the sums in registers.
//!
//! A subset's items are added in shared-item order, as one pass in that order would add them,
//! so the sums are the same bits.

use crate::metrics::lanes::{add_scaled, count, lanes, Counts, Lanes, Weights, LANES};

/// The shared items of the subsets with a board, subset by subset.
#[derive(Debug, Clone, Default)]
pub(super) struct SubsetLanes {
    /// Shared items (their places in id order), subset by subset, in id order within each.
    order: Vec<u32>,
    /// Where each subset ends in `order`.
    ends: Vec<u32>,
    /// Per run, its credit of each item of `order`.
    credits: Vec<Vec<f64>>,
}

impl SubsetLanes {
    /// From each shared item's subset (`u32::MAX`: no board) and each run's credits over the
    /// shared items.
    pub fn new(subset_of: &[u32], subsets: usize, credits: &[Vec<f64>]) -> Self {
        let mut order: Vec<u32> = (0..subset_of.len() as u32)
            .filter(|&s| {
                subset_of
                    .get(s as usize)
                    .is_some_and(|&g| (g as usize) < subsets)
            })
            .collect();
        // Stable: id order within a subset.
        order.sort_by_key(|&s| subset_of.get(s as usize).copied().unwrap_or(u32::MAX));
        let mut ends = vec![0u32; subsets];
        for (k, &s) in order.iter().enumerate() {
            if let Some(e) = subset_of
                .get(s as usize)
                .and_then(|&g| ends.get_mut(g as usize))
            {
                *e = k as u32 + 1;
            }
        }
        // A subset with no item ends where the one before it does.
        for k in 1..ends.len() {
            if ends[k] < ends[k - 1] {
                ends[k] = ends[k - 1];
            }
        }
        let credits = credits
            .iter()
            .map(|c| {
                order
                    .iter()
                    .map(|&s| c.get(s as usize).copied().unwrap_or(0.0))
                    .collect()
            })
            .collect();
        SubsetLanes {
            order,
            ends,
            credits,
        }
    }

    /// The block's weights (per shared item) in subset order, into `into`, and each subset's
    /// count of draws.
    pub fn block(&self, shared: &[Weights], into: &mut Vec<Weights>) -> Vec<Counts> {
        into.clear();
        into.extend(
            self.order
                .iter()
                .map(|&s| shared.get(s as usize).copied().unwrap_or([0; LANES])),
        );
        self.ranges()
            .map(|r| {
                let mut n = [0u32; LANES];
                for w in into.get(r).unwrap_or_default() {
                    count(&mut n, w);
                }
                n
            })
            .collect()
    }

    /// Run `r`'s sum of `weight × credit` over each subset, for the weights `block` gathered.
    pub fn sums(&self, r: usize, gathered: &[Weights], out: &mut Vec<Lanes>) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512 F, checked on the line above.
            return unsafe { self.sums_avx512(r, gathered, out) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked on the line above.
            return unsafe { self.sums_avx2(r, gathered, out) };
        }
        self.sums_of(r, gathered, out);
    }

    /// `sums_of` compiled for AVX-512; the same operations in the same order (Rust never fuses
    /// a multiply and an add on its own), so the same bits.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn sums_avx512(&self, r: usize, gathered: &[Weights], out: &mut Vec<Lanes>) {
        self.sums_of(r, gathered, out);
    }

    /// `sums_of` compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn sums_avx2(&self, r: usize, gathered: &[Weights], out: &mut Vec<Lanes>) {
        self.sums_of(r, gathered, out);
    }

    #[inline(always)]
    fn sums_of(&self, r: usize, gathered: &[Weights], out: &mut Vec<Lanes>) {
        out.clear();
        let credits = self.credits.get(r).map(Vec::as_slice).unwrap_or_default();
        for range in self.ranges() {
            let mut sum = [0.0; LANES];
            let ws = gathered.get(range.clone()).unwrap_or_default();
            let cs = credits.get(range).unwrap_or_default();
            for (w, &c) in ws.iter().zip(cs) {
                add_scaled(&mut sum, &lanes(w), c);
            }
            out.push(sum);
        }
    }

    /// Each subset's places in `order`.
    fn ranges(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let mut from = 0usize;
        self.ends.iter().map(move |&e| {
            let e = (e as usize).max(from);
            let r = from..e;
            from = e;
            r
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each subset's count and sums are those of a pass over the shared items in id order.
    #[test]
    fn sums_are_the_pass_in_id_order() {
        let subset_of = [2, 0, u32::MAX, 2, 0, 1, 0, 2];
        let credits = vec![
            vec![1.0, 0.0, 1.0, 0.5, 1.0, 1.0, 0.25, 0.0],
            vec![0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0],
        ];
        let s = SubsetLanes::new(&subset_of, 3, &credits);
        let shared: Vec<Weights> = (0..8u16)
            .map(|i| std::array::from_fn(|k| (i + k as u16) % 3))
            .collect();
        let mut gathered = Vec::new();
        let counts = s.block(&shared, &mut gathered);
        let mut sums = Vec::new();
        for (r, c) in credits.iter().enumerate() {
            s.sums(r, &gathered, &mut sums);
            for g in 0..3u32 {
                let (mut want, mut n) = ([0.0; LANES], [0u32; LANES]);
                for i in (0..8).filter(|&i| subset_of[i] == g) {
                    add_scaled(&mut want, &lanes(&shared[i]), c[i]);
                    count(&mut n, &shared[i]);
                }
                assert_eq!(sums[g as usize], want, "run {r} subset {g}");
                assert_eq!(counts[g as usize], n);
            }
        }
    }
}
