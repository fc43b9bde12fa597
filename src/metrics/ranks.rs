//! The values at given ranks of a multiset of `f64` in `total_cmp` order, found by radix selection:
//! a few counting passes over the values where they lie, with no sort and no copy of them (the
//! equal-mass ECE's bin boundaries).
//!
//! Each pass counts the values of every range still holding a wanted rank into buckets of the
//! high bits of their order key (`order_key`) and narrows the range to the bucket holding the
//! rank; a range of few values is gathered and sorted instead. A rank is found when its range
//! holds a single key, so a list of one repeated value needs no sort at all.

/// Buckets a counting pass divides a range into (as bits of the order key).
const BITS: u32 = 12;

/// A range of at most this many values is gathered and sorted instead of counted again.
const GATHER: usize = 1 << 14;

/// The value's place in `f64::total_cmp` order as an unsigned integer (the sign bit flipped, and
/// every other bit too for a negative value); also the bootstrap's ordering of calibration parts
/// (`bootstrap::summary`).
pub(crate) fn order_key(v: f64) -> u64 {
    let bits = v.to_bits();
    bits ^ ((((bits as i64) >> 63) as u64) | 1 << 63)
}

/// The value whose order key is `key` (`order_key`'s inverse).
fn from_key(key: u64) -> f64 {
    let bits = if key >> 63 == 1 { key ^ 1 << 63 } else { !key };
    f64::from_bits(bits)
}

/// A range of order keys (inclusive) known to hold some wanted ranks, and how many values it has.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Range {
    lo: u64,
    hi: u64,
    count: usize,
}

impl Range {
    /// Bits of the key below a counting pass's bucket (`bucket`).
    fn shift(&self) -> u32 {
        (u64::BITS - (self.hi - self.lo).leading_zeros()).saturating_sub(BITS)
    }

    /// The bucket of key `k` (in the range) when the range is counted in buckets of `shift` bits.
    fn bucket(&self, k: u64, shift: u32) -> usize {
        ((k - self.lo) >> shift) as usize
    }
}

/// What a pass does with a range's values.
enum Pass {
    Count { shift: u32, buckets: Vec<usize> },
    Gather(Vec<u64>),
}

/// The values at `ranks` (0-based) of the values in `blocks`, in `total_cmp` order: the value a
/// sort by `total_cmp` would put at each rank, bit for bit. Every rank must be below the number
/// of values.
pub fn at_ranks(blocks: &[&[f64]], ranks: &[usize]) -> Vec<f64> {
    select(blocks, ranks, GATHER)
}

/// `at_ranks`, gathering ranges of at most `gather` values (the tests take it small, to count).
fn select(blocks: &[&[f64]], ranks: &[usize], gather: usize) -> Vec<f64> {
    let n: usize = blocks.iter().map(|b| b.len()).sum();
    assert!(ranks.iter().all(|&r| r < n), "a rank past the values");
    let mut found = vec![0.0; ranks.len()];
    if ranks.is_empty() {
        return found;
    }
    let (lo, hi) = keys(blocks).fold((u64::MAX, 0), |(a, b), k| (a.min(k), b.max(k)));
    // Each wanted rank: its range, and its rank among the range's values; None once found.
    let whole = Range { lo, hi, count: n };
    let mut open: Vec<Option<(Range, usize)>> = ranks.iter().map(|&r| Some((whole, r))).collect();
    let mut pass = 0;
    loop {
        for (slot, value) in open.iter_mut().zip(&mut found) {
            if let Some((range, _)) = slot.filter(|(r, _)| r.lo == r.hi) {
                *value = from_key(range.lo);
                *slot = None;
            }
        }
        let mut ranges: Vec<Range> = open.iter().flatten().map(|&(r, _)| r).collect();
        if ranges.is_empty() {
            return found;
        }
        ranges.sort_unstable();
        ranges.dedup();
        let mut passes: Vec<Pass> = ranges.iter().map(|r| pass_for(r, gather)).collect();
        // After the first pass every range lies in one of its buckets, which locate a value's.
        let located = (pass > 0).then(|| Buckets::of(whole, &ranges));
        fill(blocks, &ranges, &mut passes, located.as_ref());
        pass += 1;
        for (slot, value) in open.iter_mut().zip(&mut found) {
            let Some((range, rank)) = *slot else { continue };
            let at = ranges.partition_point(|r| r.lo < range.lo);
            match &passes[at] {
                Pass::Gather(keys) => {
                    *value = from_key(keys[rank]);
                    *slot = None;
                }
                Pass::Count { shift, buckets } => {
                    *slot = Some(narrow(range, rank, *shift, buckets));
                }
            }
        }
    }
}

/// Every value's order key.
fn keys<'a>(blocks: &'a [&'a [f64]]) -> impl Iterator<Item = u64> + 'a {
    blocks.iter().flat_map(|b| b.iter().map(|&v| order_key(v)))
}

fn pass_for(range: &Range, gather: usize) -> Pass {
    if range.count <= gather {
        return Pass::Gather(Vec::with_capacity(range.count));
    }
    let shift = range.shift();
    Pass::Count {
        shift,
        buckets: vec![0; range.bucket(range.hi, shift) + 1],
    }
}

/// The first pass's buckets of the whole range, each with the ranges of a later pass lying in it
/// (as indices into its sorted ranges): which range a value may be in, at once.
struct Buckets {
    whole: Range,
    shift: u32,
    ranges: Vec<(u32, u32)>,
}

impl Buckets {
    fn of(whole: Range, ranges: &[Range]) -> Self {
        let shift = whole.shift();
        let mut located = vec![(0, 0); whole.bucket(whole.hi, shift) + 1];
        for (i, r) in ranges.iter().enumerate() {
            let b = whole.bucket(r.lo, shift);
            let i = i as u32;
            located[b] = if located[b].0 == located[b].1 {
                (i, i + 1)
            } else {
                (located[b].0, i + 1)
            };
        }
        Buckets {
            whole,
            shift,
            ranges: located,
        }
    }

    /// Indices of the ranges that may hold key `k`.
    fn candidates(&self, k: u64) -> std::ops::Range<usize> {
        if !(self.whole.lo..=self.whole.hi).contains(&k) {
            return 0..0;
        }
        let (from, to) = self.ranges[self.whole.bucket(k, self.shift)];
        from as usize..to as usize
    }
}

/// One pass over the values: each value in a range is counted into its bucket or gathered
/// (then the gathered keys are sorted).
fn fill(blocks: &[&[f64]], ranges: &[Range], passes: &mut [Pass], located: Option<&Buckets>) {
    if let ([range], [Pass::Count { shift, buckets }]) = (ranges, &mut *passes) {
        // The first pass: one range holding every value.
        for b in blocks {
            for &v in *b {
                let k = order_key(v);
                if (range.lo..=range.hi).contains(&k) {
                    buckets[range.bucket(k, *shift)] += 1;
                }
            }
        }
        return;
    }
    for k in keys(blocks) {
        let near = located.map_or(0..ranges.len(), |l| l.candidates(k));
        if near.is_empty() {
            continue;
        }
        let i = near.start + ranges[near.clone()].partition_point(|r| r.lo <= k);
        let Some(i) = i.checked_sub(1).filter(|&i| i >= near.start) else {
            continue;
        };
        let range = &ranges[i];
        if k > range.hi {
            continue;
        }
        match &mut passes[i] {
            Pass::Count { shift, buckets } => buckets[range.bucket(k, *shift)] += 1,
            Pass::Gather(keys) => keys.push(k),
        }
    }
    for pass in passes {
        if let Pass::Gather(keys) = pass {
            keys.sort_unstable();
        }
    }
}

/// The bucket of `range` holding its `rank`-th value, as a range, and the rank within it.
fn narrow(range: Range, rank: usize, shift: u32, buckets: &[usize]) -> (Range, usize) {
    let mut before = 0;
    for (b, &count) in buckets.iter().enumerate() {
        if rank < before + count {
            let lo = range.lo + ((b as u64) << shift);
            let hi = lo.saturating_add((1u64 << shift) - 1).min(range.hi);
            return (Range { lo, hi, count }, rank - before);
        }
        before += count;
    }
    unreachable!("the buckets hold every value of the range")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The values at `ranks` by a sort, as bits.
    fn by_sort(values: &[f64], ranks: &[usize]) -> Vec<u64> {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        ranks.iter().map(|&r| sorted[r].to_bits()).collect()
    }

    fn bits(v: Vec<f64>) -> Vec<u64> {
        v.into_iter().map(f64::to_bits).collect()
    }

    /// Values that share buckets, repeats, both zeros, NaNs of both signs, infinities,
    /// subnormals and negatives.
    fn odd_values(n: usize, distinct: u64) -> Vec<f64> {
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
        (0..n as u64)
            .map(|i| {
                let k = (i * 7919) % distinct;
                match k % 97 {
                    0 => odd[(i % odd.len() as u64) as usize],
                    _ => k as f64 / distinct as f64,
                }
            })
            .collect()
    }

    #[test]
    fn finds_what_a_sort_finds_in_long_and_odd_lists() {
        for (n, distinct) in [(10, 3), (70_000, 2), (200_000, 1_000), (300_000, 300_000)] {
            let values = odd_values(n, distinct);
            let ranks: Vec<usize> = (0..25).map(|i| i * (n - 1) / 24).collect();
            // The same values split into blocks of any size.
            for (size, gather) in [(n, GATHER), (65_536, 0), (777, 100)] {
                let blocks: Vec<&[f64]> = values.chunks(size).collect();
                assert_eq!(
                    bits(select(&blocks, &ranks, gather)),
                    by_sort(&values, &ranks),
                    "{n} values, {distinct} distinct, blocks of {size}, gather {gather}"
                );
            }
        }
    }

    #[test]
    fn one_repeated_value_and_a_lone_outlier() {
        // Every value but one is 1.0: the range narrows to a single key without a gather.
        let mut values = vec![1.0; 100_000];
        values[50_000] = 1e-300;
        let ranks = [0, 1, 99_999];
        for gather in [0, GATHER] {
            assert_eq!(
                bits(select(&[&values], &ranks, gather)),
                by_sort(&values, &ranks)
            );
        }
        assert!(at_ranks(&[&values], &[]).is_empty());
    }

    #[test]
    fn order_key_orders_as_total_cmp_and_inverts() {
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
            assert_eq!(from_key(order_key(a)).to_bits(), a.to_bits());
            for b in v {
                assert_eq!(order_key(a).cmp(&order_key(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
    }

    proptest! {
        #[test]
        fn any_ranks_of_any_values_in_any_blocks(
            values in proptest::collection::vec(
                prop_oneof![0.0..1.0f64, Just(0.5), Just(1.0), any::<f64>()], 1..3000),
            picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..20),
            size in 1usize..500,
            gather in prop_oneof![Just(0usize), 1usize..64, Just(GATHER)],
        ) {
            let ranks: Vec<usize> = picks.iter().map(|i| i.index(values.len())).collect();
            let blocks: Vec<&[f64]> = values.chunks(size).collect();
            prop_assert_eq!(bits(select(&blocks, &ranks, gather)), by_sort(&values, &ranks));
        }
    }
}
