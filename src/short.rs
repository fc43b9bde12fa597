//! A short string and a short list of numbers kept inside the value, not on the heap: an item's
//! id and its probabilities, allocated once per item otherwise (a third of the CLI's malloc and
//! free on a million items). Longer ones go to the heap as before.

/// An immutable string; up to 24 bytes inline (as large as a `String`), longer on the heap.
pub type ShortStr = compact_str::CompactString;

/// Numbers a `ShortVec` holds inline: four options (most multiple-choice benchmarks) or fewer.
/// Every item carries the room, so more costs memory traffic: 8 made the items 32 bytes longer
/// and the CLI's 1M-item run 1.5-4% more CPU time; more options take a heap
/// allocation, as every list did before.
pub const INLINE_VEC: usize = 4;

/// A list of `f64`; up to `INLINE_VEC` of them without a heap allocation. Reads and writes as
/// a slice.
pub type ShortVec = smallvec::SmallVec<[f64; INLINE_VEC]>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_str_is_as_large_as_a_string() {
        assert_eq!(
            std::mem::size_of::<ShortStr>(),
            std::mem::size_of::<String>()
        );
    }

    #[test]
    fn short_and_long_strings_read_back_as_made() {
        for s in [
            "",
            "q1",
            "é",
            "012345678901234567890123",
            "0123456789012345678901234",
            "x".repeat(300).as_str(),
            "éééééééééééé",
            "ééééééééééééé",
        ] {
            for made in [
                ShortStr::new(s),
                ShortStr::from(s.to_string()),
                ShortStr::from(&s.to_string()),
            ] {
                assert_eq!(made.as_str(), s);
                assert_eq!(made.as_bytes(), s.as_bytes());
                assert_eq!(!made.is_heap_allocated(), s.len() <= 24, "{s}");
                assert_eq!(made, s);
                assert_eq!(made, *s);
                assert_eq!(made, s.to_string());
                assert_eq!(made.to_string(), s);
                assert_eq!(format!("{made:?}"), format!("{s:?}"));
                assert_eq!(made.clone(), made);
            }
        }
        assert_ne!(ShortStr::new("a"), ShortStr::new("b"));
        assert_ne!(ShortStr::new("a"), ShortStr::new("a\0"));
    }

    #[test]
    fn short_vecs_grow_past_the_inline_room() {
        for n in [0, 1, INLINE_VEC, INLINE_VEC + 1, 40] {
            let want: Vec<f64> = (0..n).map(|i| i as f64 / 7.0).collect();
            let mut pushed = ShortVec::new();
            for &x in &want {
                pushed.push(x);
            }
            let collected: ShortVec = want.iter().copied().collect();
            let sized = ShortVec::with_capacity(n);
            assert_eq!(sized.spilled(), n > INLINE_VEC);
            for v in [
                pushed,
                collected,
                ShortVec::from(want.clone()),
                ShortVec::from(&want[..]),
            ] {
                assert_eq!(v.as_slice(), &want[..], "n {n}");
                assert_eq!(v.spilled(), n > INLINE_VEC, "n {n}");
                assert_eq!(format!("{v:?}"), format!("{want:?}"));
                let mut doubled = v.clone();
                for x in &mut doubled {
                    *x *= 2.0;
                }
                let twice: Vec<f64> = want.iter().map(|x| x * 2.0).collect();
                assert_eq!(doubled.as_slice(), &twice[..]);
            }
        }
    }
}
