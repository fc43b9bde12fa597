//! Equal-mass ECE exactly as HELM's `ece_10_bin` (uncertainty-calibration's `get_ece_em`, SPEC §4).
//!
//! Equal-mass bins need every confidence, sorted. To keep that compact the state holds two plain
//! `f64` lists, the confidences of right and of wrong answers, 8 bytes an item with no flag. A
//! list past `CHUNK` values grows in blocks of exactly that many, never by doubling: a run of
//! millions of items keeps 8 bytes an item, not up to 16, and never copies the whole list to grow
//! it (issue 9, the browser's memory). At the end of a run `settle` sorts the lists where they
//! are (dealt by their high bits into ranges of about a block, each radix-sorted; in wasm in four
//! passes, so that a quarter of a list at most is held twice), so the figures and the bins walk
//! them without a sorted copy.

use super::ece::BinReport;
use super::intervals::clopper_pearson;
use super::stats::{wilson, Z95};
use std::borrow::Cow;

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

    fn is_sorted(&self) -> bool {
        let mut last = None;
        self.iter().all(|v| {
            let ok = last.is_none_or(|l: f64| l.total_cmp(&v).is_le());
            last = Some(v);
            ok
        })
    }

    /// The values in ascending order, as blocks: borrowed when they are already (`settle`, or
    /// added in order as the bootstrap's replay does), else one sorted copy of exactly their size.
    fn sorted(&self) -> Cow<'_, [Vec<f64>]> {
        if self.is_sorted() {
            return Cow::Borrowed(&self.blocks);
        }
        let mut owned = Vec::with_capacity(self.len());
        owned.extend(self.iter());
        sort_values(&mut owned);
        Cow::Owned(vec![owned])
    }

    /// Sorts the values in place: dealt by the high bits of their order key into ranges of about
    /// `CHUNK` values, each range radix-sorted on its own; the ranges, in key order, are the
    /// sorted list. A long list is dealt in several passes, each taking its ranges' values out
    /// of the blocks (which shrink as they give them up), so that at most one pass's values are
    /// held twice (the browser's memory on a gigabyte file).
    fn settle(&mut self) {
        self.settle_in(self.len().div_ceil(SWEEPS).max(ONE_SWEEP));
    }

    /// `settle`, each pass filling ranges of up to `budget` values together (always one range).
    fn settle_in(&mut self, budget: usize) {
        if self.is_sorted() {
            return;
        }
        let deal = Deal::new(self);
        let mut sorted = Vec::with_capacity(deal.sizes.len());
        let mut first = 0;
        while first < deal.sizes.len() {
            let mut end = first + 1;
            let mut held = deal.sizes[first];
            while end < deal.sizes.len() && held + deal.sizes[end] <= budget {
                held += deal.sizes[end];
                end += 1;
            }
            let mut ranges: Vec<Vec<f64>> = deal.sizes[first..end]
                .iter()
                .map(|&n| Vec::with_capacity(n))
                .collect();
            // Puts `v` into its range if this pass holds that range; false if not.
            let mut put = |v: f64| match deal.range(v).checked_sub(first) {
                Some(r) if r < ranges.len() => {
                    ranges[r].push(v);
                    true
                }
                _ => false,
            };
            if end == deal.sizes.len() {
                for block in self.blocks.drain(..) {
                    block.into_iter().for_each(|v| {
                        put(v);
                    });
                }
            } else {
                for block in &mut self.blocks {
                    block.retain(|&v| !put(v));
                    block.shrink_to_fit();
                }
            }
            for mut r in ranges {
                radsort::sort(&mut r);
                sorted.push(r);
            }
            first = end;
        }
        self.blocks = sorted;
    }
}

/// Passes `settle` makes over a long list to fill its ranges: one natively, where memory is
/// plenty; four in wasm, where a list of a gigabyte file's confidences is tens of megabytes.
const SWEEPS: usize = if cfg!(target_arch = "wasm32") { 4 } else { 1 };

/// Values a pass may always hold (8 MiB): a list up to this long is dealt in one pass.
const ONE_SWEEP: usize = 1 << 20;

/// Buckets of the order key's high bits that `settle` counts before dealing.
const BUCKETS: usize = 1 << 16;

/// How `settle` deals a list's values into ranges: each value's bucket (the high bits of its
/// order key above the list's smallest key), and the bucket's range (consecutive buckets holding
/// up to `CHUNK` values together; a bucket with more is a range of its own).
struct Deal {
    low: u64,
    shift: u32,
    range_of: Vec<u32>,
    sizes: Vec<usize>,
}

impl Deal {
    fn new(values: &Values) -> Self {
        let (low, high) = values
            .iter()
            .map(order_key)
            .fold((u64::MAX, 0), |(a, b), k| (a.min(k), b.max(k)));
        let span = high.saturating_sub(low);
        let shift = (u64::BITS - span.leading_zeros()).saturating_sub(BUCKETS.trailing_zeros());
        let mut deal = Deal {
            low,
            shift,
            range_of: Vec::new(),
            sizes: Vec::new(),
        };
        let mut counts = vec![0usize; BUCKETS];
        for v in values.iter() {
            if let Some(c) = counts.get_mut(deal.bucket(v)) {
                *c += 1;
            }
        }
        deal.range_of = Vec::with_capacity(BUCKETS);
        let mut held = 0;
        for c in counts {
            if held > 0 && held + c > CHUNK {
                deal.sizes.push(held);
                held = 0;
            }
            held += c;
            deal.range_of.push(deal.sizes.len() as u32);
        }
        deal.sizes.push(held);
        deal
    }

    fn bucket(&self, v: f64) -> usize {
        (order_key(v).wrapping_sub(self.low) >> self.shift) as usize
    }

    fn range(&self, v: f64) -> usize {
        self.range_of.get(self.bucket(v)).map_or(0, |&r| r as usize)
    }
}

/// The value's place in `f64::total_cmp` order as an unsigned integer (the sign bit flipped, and
/// every other bit too for a negative value), the key radsort sorts floats by; also the
/// bootstrap's ordering of calibration parts (`bootstrap_summary`).
pub(crate) fn order_key(v: f64) -> u64 {
    let bits = v.to_bits();
    bits ^ ((((bits as i64) >> 63) as u64) | 1 << 63)
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

    /// Sorts the lists in place (at the end of a run), so that `ece` and `bins` need no sorted
    /// copy of them; the figures stay the same, bit for bit.
    pub fn settle(&mut self) {
        let (right, wrong) = (&mut self.right, &mut self.wrong);
        both(|| right.settle(), || wrong.settle());
        self.settled = self.bin();
    }

    /// The ECE; None when there is no item.
    pub fn ece(&self) -> Option<f64> {
        let n = self.count();
        let (_, sums) = self.binned()?;
        let mut ece = 0.0;
        for &(count, confidence, correct) in sums.iter().filter(|s| s.0 > 0) {
            let c = count as f64;
            ece += (c / n as f64) * (confidence / c - correct as f64 / c).abs();
        }
        Some(ece)
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
        if self.count() == 0 {
            return None;
        }
        // Values settled, or added in ascending order (the bootstrap's replay), need no copy.
        let (right, wrong) = (self.right.sorted(), self.wrong.sorted());
        let edges = boundaries(&right, &wrong, self.count());
        let mut sums = vec![(0u64, 0.0f64, 0u64); edges.len()];
        for (values, correct) in [(&*right, 1u64), (&*wrong, 0u64)] {
            let mut b = 0;
            for &v in values.iter().flatten() {
                // First boundary >= v (numpy's searchsorted, side "left"); values are sorted.
                while b + 1 < edges.len() && edges[b] < v {
                    b += 1;
                }
                let s = &mut sums[b];
                s.0 += 1;
                s.1 += v;
                s.2 += correct;
            }
        }
        Some((edges, sums))
    }
}

/// The same ECE over a multiset given as (confidence, correct, times) in ascending confidence,
/// each value counted `times` times: what the bootstrap needs, without materialising copies.
/// Equal to `EqualMass` fed every copy (up to the order of the sums). None when no value counts.
pub fn ece_weighted(sorted: &[(f64, bool)], times: &[u32]) -> Option<f64> {
    let n: u64 = times.iter().map(|&t| u64::from(t)).sum();
    if n == 0 {
        return None;
    }
    let chunks = (BINS as u64).min(n);
    let (base, extra) = (n / chunks, n % chunks);
    // Positions (in the expanded order) of the last value of each chunk but the final one.
    let mut edges = Vec::with_capacity(BINS);
    let mut at = sorted
        .iter()
        .zip(times)
        .filter(|(_, &t)| t > 0)
        .map(|(&(v, _), &t)| (v, u64::from(t)));
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
    let mut end = 0u64;
    for c in 0..chunks - 1 {
        end += base + u64::from(c < extra);
        let a = value_at(end - 1).unwrap_or(1.0);
        let b = value_at(end).unwrap_or(1.0);
        edges.push((a + b) / 2.0);
    }
    edges.push(1.0);
    edges.sort_unstable_by(f64::total_cmp);
    edges.dedup();
    let mut sums = vec![(0u64, 0.0f64, 0u64); edges.len()];
    let mut b = 0;
    for (&(v, correct), &t) in sorted.iter().zip(times) {
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
    let mut ece = 0.0;
    for &(count, confidence, correct) in sums.iter().filter(|s| s.0 > 0) {
        let c = count as f64;
        ece += (c / n as f64) * (confidence / c - correct as f64 / c).abs();
    }
    Some(ece)
}

/// Runs `a` and `b`, on two cores natively (issue 9), one after the other in wasm (no threads):
/// for work whose result does not depend on where it runs, like sorting each list on its own.
pub(crate) fn both(a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
    #[cfg(not(target_arch = "wasm32"))]
    rayon::join(a, b);
    #[cfg(target_arch = "wasm32")]
    {
        a();
        b();
    }
}

/// Sorts by `f64::total_cmp`, a total order, so the result is the one sorted sequence however
/// it is reached (a radix sort on the order key; issue 9).
fn sort_values(v: &mut [f64]) {
    radsort::sort(v);
}

/// The upper bin boundaries: midpoints between `numpy.array_split` chunks of the sorted values,
/// then 1.0, de-duplicated and sorted.
fn boundaries(right: &[Vec<f64>], wrong: &[Vec<f64>], n: usize) -> Vec<f64> {
    let chunks = BINS.min(n);
    let (base, extra) = (n / chunks, n % chunks);
    // Indices (in merged sorted order) of the last item of each chunk but the final one.
    let mut ends = Vec::with_capacity(chunks);
    let mut end = 0;
    for c in 0..chunks - 1 {
        end += base + usize::from(c < extra);
        ends.push(end - 1);
    }
    let mut edges = Vec::with_capacity(chunks);
    let mut merged = Merged::new(right, wrong);
    let mut at = 0;
    for &last in &ends {
        while at < last {
            merged.next();
            at += 1;
        }
        let a = merged.next().unwrap_or(1.0);
        let b = merged.peek().unwrap_or(1.0);
        at += 1;
        edges.push((a + b) / 2.0);
    }
    edges.push(1.0);
    edges.sort_unstable_by(f64::total_cmp);
    edges.dedup();
    edges
}

/// Walks two sorted lists of blocks as one sorted sequence.
struct Merged<'a> {
    a: std::iter::Peekable<std::iter::Copied<std::iter::Flatten<std::slice::Iter<'a, Vec<f64>>>>>,
    b: std::iter::Peekable<std::iter::Copied<std::iter::Flatten<std::slice::Iter<'a, Vec<f64>>>>>,
}

impl<'a> Merged<'a> {
    fn new(a: &'a [Vec<f64>], b: &'a [Vec<f64>]) -> Self {
        Merged {
            a: a.iter().flatten().copied().peekable(),
            b: b.iter().flatten().copied().peekable(),
        }
    }

    fn peek(&mut self) -> Option<f64> {
        match (self.a.peek(), self.b.peek()) {
            (Some(&x), Some(&y)) => Some(x.min(y)),
            (Some(&x), None) | (None, Some(&x)) => Some(x),
            (None, None) => None,
        }
    }

    fn next(&mut self) -> Option<f64> {
        let take_a = match (self.a.peek(), self.b.peek()) {
            (Some(x), Some(y)) => x <= y,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return None,
        };
        if take_a {
            self.a.next()
        } else {
            self.b.next()
        }
    }
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
    fn settling_in_place_changes_no_figure() {
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
            for (list, before) in [(&settled.right, &e.right), (&settled.wrong, &e.wrong)] {
                assert!(list.is_sorted() && matches!(list.sorted(), Cow::Borrowed(_)));
                assert!(list.blocks.iter().all(|b| !b.is_empty()));
                assert_eq!(
                    list.iter().map(f64::to_bits).collect::<Vec<_>>(),
                    by_total_cmp(before),
                    "{n} {order}"
                );
            }
            assert_eq!(
                settled.ece().map(f64::to_bits),
                ece.map(f64::to_bits),
                "{n}"
            );
            assert_eq!(format!("{:?}", settled.bins()), format!("{bins:?}"), "{n}");
        }
    }

    /// The list's values sorted by `f64::total_cmp`, as bits.
    fn by_total_cmp(list: &Values) -> Vec<u64> {
        let mut want: Vec<f64> = list.iter().collect();
        want.sort_by(f64::total_cmp);
        want.into_iter().map(f64::to_bits).collect()
    }

    #[test]
    fn settling_deals_every_value_into_its_place_in_any_number_of_sweeps() {
        // Values that share a bucket (repeats, a bucket of more than CHUNK), both zeros, NaNs of
        // both signs, infinities, subnormals and negatives; lists shorter and longer than CHUNK.
        let odd = [
            -0.0,
            0.0,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE / 4.0,
            -1.5,
            1e300,
        ];
        for (n, distinct) in [(10, 3), (70_000, 2), (200_000, 1_000), (300_000, 300_000)] {
            let mut list = Values::default();
            for i in 0..n as u64 {
                let k = (i * 7919) % distinct;
                let v = match k % 97 {
                    0 => odd[(i % odd.len() as u64) as usize],
                    _ => k as f64 / distinct as f64,
                };
                list.push(v);
            }
            let want = by_total_cmp(&list);
            for sweeps in [1, 2, 4, 7] {
                let mut settled = list.clone();
                settled.settle_in(sweeps);
                assert!(settled.is_sorted(), "{n} {sweeps}");
                assert!(settled.blocks.iter().all(|b| !b.is_empty()));
                let got: Vec<u64> = settled.iter().map(f64::to_bits).collect();
                assert!(
                    got == want,
                    "{n} values, {distinct} distinct, {sweeps} sweeps"
                );
            }
        }
    }

    #[test]
    fn order_key_orders_as_total_cmp() {
        let v = [
            -f64::NAN,
            f64::NEG_INFINITY,
            -1.0,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            f64::MIN_POSITIVE / 2.0,
            0.5,
            1.0,
            f64::INFINITY,
            f64::NAN,
        ];
        for a in v {
            for b in v {
                assert_eq!(order_key(a).cmp(&order_key(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
    }

    #[test]
    fn empty_is_none() {
        assert_eq!(EqualMass::default().ece(), None);
    }
}
