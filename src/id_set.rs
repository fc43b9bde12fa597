//! The set of item ids seen in a run, for SPEC §1's "a later item with a seen id is skipped".
//!
//! A run of a million items keeps a million ids. A `HashSet<String>` costs one allocation per id,
//! SipHash on every lookup and its growth shows in profiles (issue 9). Here every id is appended
//! to one string, with its (start, end) in a list; the table is one array of 8-byte slots, each a
//! 24-bit tag of the hash and the id's place in that list, probed linearly. At a million ids the
//! table's cache misses were most of the scoring thread's time, so a caller that knows the next
//! ids' hashes can `touch` their slots first: the loads then overlap instead of waiting one by
//! one. A fast non-keyed hash: ids come from the user's own files, so flooding is no concern.

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Bits of a slot that hold the id's place (plus one; 0 is an empty slot); the rest hold the tag.
const PLACE_BITS: u32 = 40;
const PLACE_MASK: u64 = (1 << PLACE_BITS) - 1;

/// Distinct strings, stored back to back.
#[derive(Debug, Default)]
pub struct IdSet {
    text: String,
    spans: Vec<(usize, usize)>,
    slots: Vec<u64>,
}

impl IdSet {
    /// The hash `insert` uses for `id`: Fx, then a 64-bit finaliser so that both the slot
    /// (low bits) and the tag (high bits) are well mixed.
    pub fn hash(id: &str) -> u64 {
        let mut h = FxBuildHasher.hash_one(id);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    /// Room for `ids` more ids of about `bytes` bytes in all, so that the table does not grow
    /// while it fills.
    pub fn reserve(&mut self, ids: usize, bytes: usize) {
        self.spans.reserve(ids);
        self.text.reserve(bytes);
        let want = (self.spans.len() + ids)
            .saturating_mul(2)
            .next_power_of_two();
        if want > self.slots.len() {
            self.rebuild(want);
        }
    }

    /// Loads the slots where these hashes start probing, so that the inserts that follow find
    /// them in cache; returns nothing useful (the loads only warm the cache).
    pub fn touch(&self, hashes: &[u64]) {
        let Some(mask) = self.slots.len().checked_sub(1) else {
            return;
        };
        let mut any = 0u64;
        for &h in hashes {
            any ^= self.slots.get(h as usize & mask).copied().unwrap_or(0);
        }
        std::hint::black_box(any);
    }

    /// Adds `id`; false when it was already there.
    pub fn insert(&mut self, id: &str) -> bool {
        self.insert_hashed(id, Self::hash(id))
    }

    /// `insert` with `hash` = `IdSet::hash(id)` already computed.
    pub fn insert_hashed(&mut self, id: &str, hash: u64) -> bool {
        if (self.spans.len() + 1) * 2 > self.slots.len() {
            self.rebuild((self.slots.len() * 2).max(16));
        }
        let mask = self.slots.len() - 1;
        let tag = hash >> PLACE_BITS;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                break;
            }
            if slot >> PLACE_BITS == tag && self.text_of(slot) == Some(id) {
                return false;
            }
            at = (at + 1) & mask;
        }
        let start = self.text.len();
        self.text.push_str(id);
        self.spans.push((start, self.text.len()));
        self.slots[at] = (tag << PLACE_BITS) | self.spans.len() as u64;
        true
    }

    /// The id a full slot points to.
    fn text_of(&self, slot: u64) -> Option<&str> {
        let place = usize::try_from(slot & PLACE_MASK).ok()?.checked_sub(1)?;
        let &(start, end) = self.spans.get(place)?;
        self.text.get(start..end)
    }

    /// Re-lays the table with `size` slots (a power of two).
    fn rebuild(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let Some(id) = self.text_of(slot) else {
                continue;
            };
            let mut at = Self::hash(id) as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }

    /// How many distinct ids it holds.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Whether `id` is in the set.
    pub fn contains(&self, id: &str) -> bool {
        let Some(mask) = self.slots.len().checked_sub(1) else {
            return false;
        };
        let hash = Self::hash(id);
        let tag = hash >> PLACE_BITS;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return false;
            }
            if slot >> PLACE_BITS == tag && self.text_of(slot) == Some(id) {
                return true;
            }
            at = (at + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    #[test]
    fn second_insert_of_an_id_is_refused() {
        let mut s = IdSet::default();
        s.touch(&[IdSet::hash("a")]);
        s.reserve(3, 3);
        assert!(s.insert("a"));
        assert!(s.insert("ab"));
        assert!(s.insert(""));
        assert!(!s.insert("a"));
        assert!(!s.insert(""));
        assert!(s.contains("ab") && !s.contains("b"));
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn prefixes_and_concatenations_stay_distinct() {
        // Back to back, "ab" + "c" spell "abc": the stored bounds must keep them apart.
        let mut s = IdSet::default();
        assert!(s.insert("ab"));
        assert!(s.insert("c"));
        assert!(!s.contains("abc") && !s.contains("bc"));
        assert!(s.insert("abc"));
    }

    proptest! {
        #[test]
        fn agrees_with_a_hash_set(ids in proptest::collection::vec("[a-c]{0,3}", 0..200)) {
            let mut ours = IdSet::default();
            let mut std_set = HashSet::new();
            for id in &ids {
                prop_assert_eq!(ours.insert(id), std_set.insert(id.clone()));
            }
            prop_assert_eq!(ours.len(), std_set.len());
            for id in &ids {
                prop_assert!(ours.contains(id));
            }
            prop_assert_eq!(ours.contains("d"), false);
        }
    }
}
