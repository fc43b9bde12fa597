//! Equal-mass ECE exactly as HELM's `ece_10_bin` (uncertainty-calibration's `get_ece_em`, SPEC §4).
//!
//! Equal-mass bins need every confidence. To keep that compact the state holds two plain `f64`
//! lists, the confidences of right and of wrong answers, 8 bytes an item with no flag. A list past
//! `CHUNK` values grows in blocks of exactly that many, never by doubling: a run of millions of
//! items keeps 8 bytes an item, not up to 16, and never copies the whole list to grow it (the
//! browser's memory). Nothing is sorted: the bin boundaries are the values at a few ranks
//! (`ranks::at_ranks`, radix selection), and each bin's confidences are summed exactly, rounded
//! once (`exact_sum`), so the figures do not depend on the order the items came in, bit for bit.

use super::BinReport;
use crate::metrics::exact_sum::ExactSum;
use crate::metrics::intervals::clopper_pearson;
use crate::metrics::ranks::at_ranks;
use crate::metrics::stats::{wilson, Z95};

/// Number of equal-mass bins HELM uses.
pub const BINS: usize = 10;

/// One bin's (count, sum of confidences, correct answers).
type BinSums = (u64, f64, u64);

/// Values per block of a long `Values` list (512 KiB).
const CHUNK: usize = 1 << 16;

/// A list of values: one `Vec` while short (growing as usual), then blocks of `CHUNK` values
/// each allocated at its exact size.
#[derive(Debug, Clone, Default)]
struct Values {
    blocks: Vec<Vec<f64>>,
}

impl Values {
    fn push(&mut self, v: f64) {
        match self.blocks.last_mut() {
            Some(b) if b.len() < CHUNK => b.push(v),
            _ => {
                let mut b = Vec::with_capacity(if self.blocks.is_empty() { 4 } else { CHUNK });
                b.push(v);
                self.blocks.push(b);
            }
        }
    }

    fn len(&self) -> usize {
        self.blocks.iter().map(Vec::len).sum()
    }

    fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        self.blocks.iter().flatten().copied()
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// Every confidence, split by correctness.
#[derive(Debug, Clone, Default)]
pub struct EqualMass {
    right: Values,
    wrong: Values,
    /// The bins' edges and sums, kept by `settle` for `ece` and `bins`, which both need them.
    settled: Option<Binned>,
}

/// Upper bin boundaries and per-bin sums.
type Binned = (Vec<f64>, Vec<BinSums>);

impl PartialEq for EqualMass {
    fn eq(&self, other: &Self) -> bool {
        self.right == other.right && self.wrong == other.wrong
    }
}

impl EqualMass {
    pub fn add(&mut self, confidence: f64, correct: bool) {
        self.settled = None;
        if correct {
            self.right.push(confidence);
        } else {
            self.wrong.push(confidence);
        }
    }

    pub fn merge(&mut self, other: Self) {
        self.settled = None;
        for v in other.right.iter() {
            self.right.push(v);
        }
        for v in other.wrong.iter() {
            self.wrong.push(v);
        }
    }

    pub fn count(&self) -> usize {
        self.right.len() + self.wrong.len()
    }

    /// Bins the values once no more will come (at the end of a run), so that `ece` and `bins`,
    /// which both need the bins, find them the same and made once.
    pub fn settle(&mut self) {
        self.settled = self.bin();
    }

    /// The ECE; None when there is no item.
    pub fn ece(&self) -> Option<f64> {
        let (_, sums) = self.binned()?;
        Some(ece_of(&sums, self.count() as u64))
    }

    /// The equal-mass bins as the reliability diagram draws them: `lo`/`hi` are the bin's
    /// boundaries (the first starts at 0), figures and the Wilson interval as for equal width.
    /// Empty when there is no item.
    pub fn bins(&self) -> Vec<BinReport> {
        let Some((edges, sums)) = self.binned() else {
            return Vec::new();
        };
        let mut lo = 0.0;
        edges
            .iter()
            .zip(sums)
            .map(|(&hi, (count, confidence, correct))| {
                let n = count as f64;
                let filled = count > 0;
                let ci = wilson(correct as f64, count, Z95);
                let cp = clopper_pearson(correct as f64, count, 0.95);
                let bin = BinReport {
                    lo,
                    hi,
                    count,
                    confidence: filled.then(|| confidence / n),
                    accuracy: filled.then(|| correct as f64 / n),
                    ci_lo: ci.map(|c| c.0),
                    ci_hi: ci.map(|c| c.1),
                    cp_lo: cp.map(|c| c.0),
                    cp_hi: cp.map(|c| c.1),
                };
                lo = hi;
                bin
            })
            .collect()
    }

    /// Upper boundaries and per-bin sums; None without items.
    fn binned(&self) -> Option<Binned> {
        self.settled.clone().or_else(|| self.bin())
    }

    /// `binned`, computed.
    fn bin(&self) -> Option<Binned> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let blocks: Vec<&[f64]> = (self.right.blocks.iter())
            .chain(&self.wrong.blocks)
            .map(Vec::as_slice)
            .collect();
        let edges = boundaries(&blocks, n);
        let sums = sums(&self.right, &self.wrong, &edges);
        Some((edges, sums))
    }
}

/// Each bin's count, exact sum of confidences (rounded once) and correct answers.
fn sums(right: &Values, wrong: &Values, edges: &[f64]) -> Vec<BinSums> {
    let mut bins: Vec<(u64, ExactSum, u64)> = edges.iter().map(|_| Default::default()).collect();
    // The edges padded to `BINS` with infinity, which no value passes: a bin is then a count of
    // ten comparisons, without branches.
    let mut padded = [f64::INFINITY; BINS];
    padded[..edges.len()].copy_from_slice(edges);
    let last = edges.len() - 1;
    for (values, correct) in [(right, 1u64), (wrong, 0u64)] {
        for block in &values.blocks {
            for &v in block {
                // First boundary >= v (numpy's searchsorted, side "left"); past 1.0, the last.
                let below: usize = padded.iter().map(|&e| usize::from(e < v)).sum();
                let s = &mut bins[below.min(last)];
                s.0 += 1;
                s.1.add(v);
                s.2 += correct;
            }
        }
    }
    bins.into_iter()
        .map(|(count, sum, correct)| (count, sum.sum(), correct))
        .collect()
}

/// The same ECE over a multiset given as (confidence, correct, times) in ascending confidence,
/// each value counted `times` times: what the bootstrap needs, without materialising copies.
/// Equal to `EqualMass` fed every copy (up to the order of the sums). None when no value counts.
pub fn ece_weighted(sorted: &[(f64, bool)], times: &[u32]) -> Option<f64> {
    ece_weighted_by(sorted.iter().copied(), times)
}

/// `ece_weighted` over the values and their correctness held as two columns (how the
/// bootstrap's summary keeps them, sorted once).
pub fn ece_weighted_columns(values: &[f64], correct: &[bool], times: &[u32]) -> Option<f64> {
    ece_weighted_by(values.iter().copied().zip(correct.iter().copied()), times)
}

/// `ece_weighted` over any walk of (value, correct) in ascending value, walked twice.
fn ece_weighted_by(
    sorted: impl Iterator<Item = (f64, bool)> + Clone,
    times: &[u32],
) -> Option<f64> {
    let n: u64 = times.iter().map(|&t| u64::from(t)).sum();
    if n == 0 {
        return None;
    }
    let mut at = sorted
        .clone()
        .zip(times)
        .filter(|(_, &t)| t > 0)
        .map(|((v, _), &t)| (v, u64::from(t)));
    // The value at expanded position `pos`, walking forward only.
    let (mut current, mut covered) = match at.next() {
        Some((v, t)) => (v, t),
        None => return None,
    };
    let mut value_at = |pos: u64| -> Option<f64> {
        while pos >= covered {
            let (v, t) = at.next()?;
            current = v;
            covered += t;
        }
        Some(current)
    };
    let mut pairs = Vec::with_capacity(BINS);
    for end in chunk_ends(n) {
        pairs.push((
            value_at(end).unwrap_or(1.0),
            value_at(end + 1).unwrap_or(1.0),
        ));
    }
    let edges = edges_between(pairs);
    let mut sums = vec![(0u64, 0.0f64, 0u64); edges.len()];
    let mut b = 0;
    for ((v, correct), &t) in sorted.zip(times) {
        if t == 0 {
            continue;
        }
        while b + 1 < edges.len() && edges.get(b).is_some_and(|&e| e < v) {
            b += 1;
        }
        if let Some(s) = sums.get_mut(b) {
            s.0 += u64::from(t);
            s.1 += f64::from(t) * v;
            s.2 += u64::from(t) * u64::from(correct);
        }
    }
    Some(ece_of(&sums, n))
}

/// `ece_weighted` from running sums over the values in ascending order, for the bootstrap's
/// lanes: `prefix(j)` is (Σ times, Σ times × value, Σ times × correct) over the first j values,
/// for j in 0..=len. A bin is a run of sorted positions, so its sums are two prefixes apart, and
/// the value at an expanded position is found by bisection: no pass over the items per resample.
pub fn ece_prefix(values: &[f64], prefix: impl Fn(usize) -> (u64, f64, u64)) -> Option<f64> {
    let len = values.len();
    // The value at expanded position `pos`: the first j whose copies reach past it.
    let value_at = |pos: u64| -> Option<f64> {
        let (mut lo, mut hi) = (0usize, len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if prefix(mid + 1).0 <= pos {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        values.get(lo).copied()
    };
    ece_prefix_with(values, value_at, &prefix)
}

/// `ece_prefix` with the caller finding the value at an expanded position (`value_at(pos)`: the
/// value of the first j whose running count passes `pos`, `None` past the end), for running sums
/// kept only at some places and the rest recomputed from them.
pub fn ece_prefix_with(
    values: &[f64],
    value_at: impl Fn(u64) -> Option<f64>,
    prefix: impl Fn(usize) -> (u64, f64, u64),
) -> Option<f64> {
    let len = values.len();
    let n = prefix(len).0;
    if n == 0 {
        return None;
    }
    let pairs = chunk_ends(n)
        .into_iter()
        .map(|end| {
            (
                value_at(end).unwrap_or(1.0),
                value_at(end + 1).unwrap_or(1.0),
            )
        })
        .collect();
    let edges = edges_between(pairs);
    let last = edges.len() - 1;
    let mut sums = Vec::with_capacity(edges.len());
    let mut from = prefix(0);
    for (b, &e) in edges.iter().enumerate() {
        // A value belongs to the first bin whose edge is >= it (the last bin takes the rest).
        let end = if b == last {
            len
        } else {
            values.partition_point(|&v| v <= e)
        };
        let to = prefix(end);
        sums.push((
            to.0.saturating_sub(from.0),
            to.1 - from.1,
            to.2.saturating_sub(from.2),
        ));
        from = to;
    }
    Some(ece_of(&sums, n))
}

/// SPEC §4's ECE from the bins' sums over `n` items: sum over filled bins of
/// (n_b / N) |mean confidence_b - accuracy_b|.
fn ece_of(sums: &[BinSums], n: u64) -> f64 {
    let mut ece = 0.0;
    for &(count, confidence, correct) in sums.iter().filter(|s| s.0 > 0) {
        let c = count as f64;
        ece += (c / n as f64) * (confidence / c - correct as f64 / c).abs();
    }
    ece
}

/// Positions, in the sorted order of `n` values, of the last value of each `numpy.array_split`
/// chunk but the final one (min(BINS, n) chunks, the first n mod chunks one value longer).
fn chunk_ends(n: u64) -> Vec<u64> {
    let chunks = (BINS as u64).min(n);
    let (base, extra) = (n / chunks, n % chunks);
    let mut end = 0;
    (0..chunks - 1)
        .map(|c| {
            end += base + u64::from(c < extra);
            end - 1
        })
        .collect()
}

/// The upper bin boundaries from the values at each chunk's end and just after it: their
/// midpoints, then 1.0, de-duplicated and sorted.
fn edges_between(pairs: Vec<(f64, f64)>) -> Vec<f64> {
    let mut edges: Vec<f64> = pairs.into_iter().map(|(a, b)| (a + b) / 2.0).collect();
    edges.push(1.0);
    edges.sort_unstable_by(f64::total_cmp);
    edges.dedup();
    edges
}

/// Runs `a` and `b`, on two cores natively, one after the other in wasm (no threads):
/// for work whose result does not depend on where it runs, like binning each reading's lists.
pub(crate) fn both(a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
    #[cfg(not(target_arch = "wasm32"))]
    rayon::join(a, b);
    #[cfg(target_arch = "wasm32")]
    {
        a();
        b();
    }
}

/// The upper bin boundaries: midpoints between `numpy.array_split` chunks of the sorted values,
/// then 1.0, de-duplicated and sorted.
fn boundaries(blocks: &[&[f64]], n: usize) -> Vec<f64> {
    // Ranks of the last value of each chunk but the final one, and of the value after it.
    let ranks: Vec<usize> = chunk_ends(n as u64)
        .into_iter()
        .flat_map(|end| [end as usize, end as usize + 1])
        .collect();
    let values = at_ranks(blocks, &ranks);
    edges_between(values.chunks(2).map(|ab| (ab[0], ab[1])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ece(items: &[(f64, bool)]) -> f64 {
        let mut e = EqualMass::default();
        for &(c, r) in items {
            e.add(c, r);
        }
        e.ece().unwrap()
    }

    #[test]
    fn fewer_items_than_bins_gives_one_bin_each() {
        // N = 3 -> B = 3 chunks of one; boundaries 0.3, 0.6, 1.0.
        // Bins: {0.2 wrong} |0.2-0| ; {0.4 right} |0.4-1| ; {0.8 right} |0.8-1|.
        let got = ece(&[(0.8, true), (0.2, false), (0.4, true)]);
        let want = (0.2 + 0.6 + 0.2) / 3.0;
        assert!((got - want).abs() < 1e-15, "{got}");
    }

    #[test]
    fn ties_at_a_boundary_fall_into_the_lower_bin() {
        // N = 12 -> 10 chunks, the first two hold two items each.
        // Sorted: 0.1 0.1 | 0.3 0.5 | 0.5 | 0.5 | 0.6 | 0.7 | 0.8 | 0.9 | 0.9 | 1.0
        // Midpoints: 0.2, 0.5 (0.5|0.5), 0.5, 0.55, 0.65, 0.75, 0.85, 0.9, 0.95, then 1.0.
        // De-duplicated: 0.2 0.5 0.55 0.65 0.75 0.85 0.9 0.95 1.0.
        // Every 0.5 equals the boundary 0.5 and joins 0.3 in the second bin.
        let items = [
            (0.1, false),
            (0.1, true),
            (0.3, false),
            (0.5, true),
            (0.5, true),
            (0.5, false),
            (0.6, true),
            (0.7, true),
            (0.8, false),
            (0.9, true),
            (0.9, true),
            (1.0, true),
        ];
        // Bins: {0.1,0.1} conf 0.1 acc 0.5 -> 0.4*2
        //       {0.3,0.5,0.5,0.5} conf 0.45 acc 0.5 -> 0.05*4
        //       {0.6} 0.4 ; {0.7} 0.3 ; {0.8 wrong} 0.8 ; {0.9,0.9} 0.1*2 ; {1.0} 0
        let want = (0.8 + 0.2 + 0.4 + 0.3 + 0.8 + 0.2 + 0.0) / 12.0;
        let got = ece(&items);
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }

    #[test]
    fn bins_follow_the_boundaries_and_sum_to_the_ece() {
        // Same data as above: nine bins after de-duplication; the second holds 0.3 and three 0.5.
        let mut e = EqualMass::default();
        for (c, r) in [
            (0.1, false),
            (0.1, true),
            (0.3, false),
            (0.5, true),
            (0.5, true),
        ] {
            e.add(c, r);
        }
        for (c, r) in [
            (0.5, false),
            (0.6, true),
            (0.7, true),
            (0.8, false),
            (0.9, true),
        ] {
            e.add(c, r);
        }
        e.add(0.9, true);
        e.add(1.0, true);
        let bins = e.bins();
        assert_eq!(bins.len(), 9);
        assert_eq!((bins[0].lo, bins[0].hi), (0.0, 0.2));
        assert_eq!((bins[1].lo, bins[1].hi), (0.2, 0.5));
        assert_eq!(bins[1].count, 4);
        assert_eq!(bins[1].accuracy, Some(0.5));
        assert!((bins[1].confidence.unwrap() - 0.45).abs() < 1e-15);
        assert_eq!(bins.last().map(|b| b.hi), Some(1.0));
        assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), 12);
        let ece: f64 = bins
            .iter()
            .filter(|b| b.count > 0)
            .map(|b| b.count as f64 / 12.0 * (b.confidence.unwrap() - b.accuracy.unwrap()).abs())
            .sum();
        assert!((ece - e.ece().unwrap()).abs() < 1e-15);
        assert!(EqualMass::default().bins().is_empty());
    }

    #[test]
    fn settling_changes_no_figure() {
        // Lists of one block, of just over one, and of several, scrambled with repeats, in
        // order and in reverse; -0.0 and 0.0 both present.
        for (n, order) in [
            (1, 0),
            (65_537, 0),
            (300_000, 0),
            (200_000, 1),
            (200_000, 2),
        ] {
            let mut e = EqualMass::default();
            for i in 0..n as u64 {
                let k = match order {
                    0 => (i * 7919) % 100_003,
                    1 => i / 2,
                    _ => n as u64 - i / 2,
                };
                let v = if k == 5 { -0.0 } else { k as f64 / 400_003.0 };
                e.add(v, i % 3 != 0);
            }
            let (ece, bins) = (e.ece(), e.bins());
            let mut settled = e.clone();
            settled.settle();
            assert!(settled.settled.is_some());
            assert_eq!(
                settled.ece().map(f64::to_bits),
                ece.map(f64::to_bits),
                "{n}"
            );
            assert_eq!(format!("{:?}", settled.bins()), format!("{bins:?}"), "{n}");
        }
    }

    /// Confidences on a grid of 2^-60 (`k` of them each, for 53-bit `k`) can be summed exactly in
    /// integers: the reference sorts them, bins them as SPEC §4 says, and rounds each bin's
    /// integer sum to `f64` once (`u128 as f64` rounds to nearest, ties to even).
    fn reference(items: &[(u64, bool)]) -> (Vec<f64>, Vec<BinSums>) {
        let scale = 2f64.powi(-60);
        let mut sorted = items.to_vec();
        sorted.sort();
        let n = sorted.len();
        let chunks = BINS.min(n);
        let (base, extra) = (n / chunks, n % chunks);
        let mut edges = Vec::new();
        let mut end = 0;
        for c in 0..chunks - 1 {
            end += base + usize::from(c < extra);
            let (a, b) = (
                sorted[end - 1].0 as f64 * scale,
                sorted[end].0 as f64 * scale,
            );
            edges.push((a + b) / 2.0);
        }
        edges.push(1.0);
        edges.sort_by(f64::total_cmp);
        edges.dedup();
        let mut sums = vec![(0u64, 0u128, 0u64); edges.len()];
        for &(k, correct) in &sorted {
            let v = k as f64 * scale;
            let b = edges
                .iter()
                .position(|&e| e >= v)
                .unwrap_or(edges.len() - 1);
            sums[b].0 += 1;
            sums[b].1 += u128::from(k);
            sums[b].2 += u64::from(correct);
        }
        let sums = sums
            .into_iter()
            .map(|(c, s, r)| (c, s as f64 * scale, r))
            .collect();
        (edges, sums)
    }

    #[test]
    fn bins_and_sums_equal_an_exact_reference_bit_for_bit() {
        // Long enough for the superaccumulator and the counting passes; values whose naive sum
        // in any order rounds (53-bit fractions), and a run of ties across a boundary.
        let mut x = 7u64;
        let items: Vec<(u64, bool)> = (0..150_000)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = if i % 5 == 0 { 3 << 57 } else { (x >> 11) << 7 };
                (k, !(x >> 7).is_multiple_of(3))
            })
            .collect();
        for items in [&items[..], &items[..7], &items[..2_000]] {
            let mut e = EqualMass::default();
            for &(k, correct) in items {
                e.add(k as f64 * 2f64.powi(-60), correct);
            }
            let (edges, sums) = e.bin().unwrap();
            let (want_edges, want_sums) = reference(items);
            assert_eq!(bits(&edges), bits(&want_edges), "{}", items.len());
            assert_eq!(sums.len(), want_sums.len());
            for (got, want) in sums.iter().zip(&want_sums) {
                assert_eq!(
                    (got.0, got.1.to_bits(), got.2),
                    (want.0, want.1.to_bits(), want.2)
                );
            }
        }
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    proptest::proptest! {
        /// Permutation invariance and merge(split(x)) = x hold bit for bit: nothing depends on
        /// the order the values came in.
        #[test]
        fn any_order_and_any_split_give_the_same_bits(
            items in proptest::collection::vec((0.0..=1.0f64, proptest::bool::ANY), 1..400),
            cut in proptest::prelude::any::<proptest::sample::Index>(),
            seed in proptest::num::u64::ANY,
        ) {
            let mut shuffled = items.clone();
            let mut x = seed;
            for i in (1..shuffled.len()).rev() {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                shuffled.swap(i, (x >> 33) as usize % (i + 1));
            }
            let feed = |items: &[(f64, bool)]| {
                let mut e = EqualMass::default();
                items.iter().for_each(|&(c, r)| e.add(c, r));
                e
            };
            let whole = feed(&items);
            let (a, b) = shuffled.split_at(cut.index(items.len()));
            let mut merged = feed(a);
            merged.merge(feed(b));
            let want = (whole.ece().map(f64::to_bits), format!("{:?}", whole.bins()));
            proptest::prop_assert_eq!(
                (feed(&shuffled).ece().map(f64::to_bits), format!("{:?}", feed(&shuffled).bins())),
                want.clone()
            );
            proptest::prop_assert_eq!(
                (merged.ece().map(f64::to_bits), format!("{:?}", merged.bins())),
                want
            );
            let ece = whole.ece().unwrap();
            proptest::prop_assert!((0.0..=1.0).contains(&ece));
        }
    }

    #[test]
    fn empty_is_none() {
        assert_eq!(EqualMass::default().ece(), None);
    }
}
