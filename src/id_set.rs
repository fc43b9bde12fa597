//! The set of item ids seen in a run, for SPEC §1's "a later item with a seen id is skipped".
//!
//! A run of a million items keeps a million ids. A `HashSet<String>` costs one allocation per id,
//! SipHash on every lookup and its growth shows in profiles (issue 9). Here every id is appended
//! to one byte string after its length (LEB128, one byte below 128); the table is one array of
//! 8-byte slots, each a 24-bit tag of the hash and where the id's length starts in that string
//! (no list of bounds: 8 bytes an id less in wasm, 16 natively), probed linearly. At a million ids the
//! table's cache misses were most of the scoring thread's time, so a caller that knows the next
//! ids' hashes can `touch` their slots first: the loads then overlap instead of waiting one by
//! one. A fast non-keyed hash: ids come from the user's own files, so flooding is no concern.

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Bits of a slot that hold the id's place (its offset in `text`, plus one; 0 is an empty slot);
/// the rest hold the tag.
const PLACE_BITS: u32 = 40;
const PLACE_MASK: u64 = (1 << PLACE_BITS) - 1;

/// Distinct strings, stored back to back.
#[derive(Debug, Default)]
pub struct IdSet {
    /// Each id's length (LEB128), then its bytes, back to back.
    text: Vec<u8>,
    /// Ids held.
    len: usize,
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
        self.text.reserve(bytes.saturating_add(ids));
        let want = (self.len + ids).saturating_mul(2).next_power_of_two();
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
        if (self.len + 1) * 2 > self.slots.len() {
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
            if slot >> PLACE_BITS == tag && self.bytes_of(slot) == Some(id.as_bytes()) {
                return false;
            }
            at = (at + 1) & mask;
        }
        let place = self.text.len() as u64 + 1;
        let mut len = id.len();
        while len >= 0x80 {
            self.text.push((len & 0x7f) as u8 | 0x80);
            len >>= 7;
        }
        self.text.push(len as u8);
        self.text.extend_from_slice(id.as_bytes());
        self.len += 1;
        self.slots[at] = (tag << PLACE_BITS) | (place & PLACE_MASK);
        true
    }

    /// The bytes of the id a full slot points to.
    fn bytes_of(&self, slot: u64) -> Option<&[u8]> {
        let mut at = usize::try_from(slot & PLACE_MASK).ok()?.checked_sub(1)?;
        let (mut len, mut shift) = (0usize, 0u32);
        loop {
            let b = *self.text.get(at)?;
            at += 1;
            len |= usize::from(b & 0x7f).checked_shl(shift)?;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        self.text.get(at..at.checked_add(len)?)
    }

    /// Re-lays the table with `size` slots (a power of two).
    fn rebuild(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let Some(id) = self
                .bytes_of(slot)
                .and_then(|b| std::str::from_utf8(b).ok())
            else {
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
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
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
            if slot >> PLACE_BITS == tag && self.bytes_of(slot) == Some(id.as_bytes()) {
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

    #[test]
    fn long_ids_keep_their_lengths() {
        // Lengths of 128 bytes and more take two bytes or three in the string.
        let long: Vec<String> = [127, 128, 129, 300, 20_000]
            .iter()
            .map(|&n| "x".repeat(n))
            .collect();
        let mut s = IdSet::default();
        for id in &long {
            assert!(s.insert(id));
        }
        for id in &long {
            assert!(s.contains(id) && !s.insert(id));
        }
        assert!(!s.contains(&"x".repeat(126)) && !s.contains(&"x".repeat(256)));
        assert_eq!(s.len(), long.len());
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
