//! The set of item ids seen in a run, for SPEC §1's "a later item with a seen id is skipped".
//!
//! A 1 GB file holds 6.4M ids; the browser must score it in under 300 MB, so the set
//! keeps no id text, only 8 bytes a slot at a load of at most 0.8 (10 bytes an id) and never
//! copies itself to grow. Each id is hashed once with the 128-bit XXH3: one half is the slot's
//! fingerprint (0 means empty; a fingerprint of 0 is stored as 1), the other half picks the home
//! slot (multiply-shift, so a table has any size), probed linearly. Without the id's text the
//! set can be wrong in one way only: a new id whose fingerprint equals that of a seen id in the
//! same probe run is taken for seen (and skipped). As the home does not come from the
//! fingerprint, that needs 64 more bits to agree than just landing in the same run: about
//! (slots compared per insert) / 2^64 per item, around 1e-12 for a whole 6.4M-id run
//! (docs/app.md, "Memory"); a HashSet of the texts would be exact at 4 to 8 times the bytes.
//!
//! The home slot cannot be recomputed from a fingerprint, so a full table is never rebuilt: a
//! new table as large as all the others together takes the inserts that follow, and a lookup
//! probes every table (few, the first being sized from the caller's `reserve` hint: one when the
//! hint is right). At the limit, just after a growth, that is 20 bytes an id. At a million ids
//! the table's cache misses were most of the scoring thread's time, so a caller that knows the
//! next ids' hashes can `touch` their slots first: the loads then overlap instead of waiting one
//! by one. A fast non-keyed hash: ids come from the user's own files, so flooding is no concern.

use xxhash_rust::xxh3::xxh3_128;

/// Most ids a table holds: 4 in 5 slots.
const fn max_ids(slots: usize) -> usize {
    slots / 5 * 4 + slots % 5 * 4 / 5
}

/// Slots of the first table when no `reserve` came before the first insert.
const FIRST_SLOTS: usize = 1024;

/// Slots in a 4 KiB page of memory.
const PAGE_SLOTS: usize = 4096 / 8;

/// Fewest slots of a table.
const MIN_SLOTS: usize = 16;

/// One table of fingerprints, linearly probed; never fuller than `max_ids`.
#[derive(Debug, Clone)]
struct Table {
    slots: Vec<u64>,
    len: usize,
}

impl Table {
    fn new(slots: usize) -> Self {
        let mut slots = vec![0; slots.max(MIN_SLOTS)];
        // Natively the zeros are pages the kernel maps on first use, and `touch` reads a slot
        // before the insert writes it: each page took a fault to map the shared zero page, then
        // another to copy it on the write, with a TLB flush on every core (a few percent of the
        // CLI's time on 1M items, its parsers interrupted too). Written now, a page a
        // slot apart, each page is mapped writable at once. (In wasm memory is plain memory.)
        if cfg!(not(target_arch = "wasm32")) {
            // Opaque, so that the zeros written are not taken for zeros already there.
            let pages = std::hint::black_box(&mut slots);
            for s in pages.iter_mut().step_by(PAGE_SLOTS) {
                *s = 0;
            }
        }
        Table { slots, len: 0 }
    }

    /// The home slot: the top 32 bits of `half` scaled to the table (64-bit arithmetic: wasm has
    /// no 64x64-bit product, a `u128` one is a library call).
    fn home(&self, half: u64) -> usize {
        let n = self.slots.len() as u64;
        if n <= u64::from(u32::MAX) {
            (((half >> 32) * n) >> 32) as usize
        } else {
            ((u128::from(half) * u128::from(n)) >> 64) as usize
        }
    }

    /// Where the probe for `print` from `home` ends: `Ok` at its slot, `Err` at the first empty one.
    fn find(&self, print: u64, half: u64) -> Result<usize, usize> {
        let n = self.slots.len();
        let mut at = self.home(half);
        // A table always has an empty slot (`max_ids`), so the probe ends.
        loop {
            match self.slots.get(at) {
                Some(&s) if s == print => return Ok(at),
                Some(0) | None => return Err(at),
                Some(_) => at = if at + 1 == n { 0 } else { at + 1 },
            }
        }
    }

    fn full(&self) -> bool {
        self.len >= max_ids(self.slots.len())
    }
}

/// Distinct strings, known by their 128-bit hash.
#[derive(Debug, Clone, Default)]
pub struct IdSet {
    /// Oldest first; only the last takes inserts, the others are full.
    tables: Vec<Table>,
    /// Ids held.
    len: usize,
}

/// An id's 128-bit hash as the set uses it: the fingerprint a slot holds, and the half that picks
/// the home slot. Computed once where an item is read (`IdSet::hash`), so that `touch` and
/// `insert_hashed` do not hash the id again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdHash {
    print: u64,
    half: u64,
}

impl IdSet {
    /// `id`'s hash, for `touch` and `insert_hashed`.
    pub fn hash(id: &str) -> IdHash {
        Self::hash_bytes(id.as_bytes())
    }

    /// `hash` of the id's bytes.
    pub fn hash_bytes(id: &[u8]) -> IdHash {
        let h = xxh3_128(id);
        IdHash {
            print: (h as u64).max(1),
            half: (h >> 64) as u64,
        }
    }

    /// Room for `ids` more ids without growth: a new table of that size unless the newest has
    /// the room left (an empty newest table is replaced).
    pub fn reserve(&mut self, ids: usize) {
        let room = self
            .tables
            .last()
            .map_or(0, |t| max_ids(t.slots.len()) - t.len);
        if room >= ids {
            return;
        }
        if self.tables.last().is_some_and(|t| t.len == 0) {
            self.tables.pop();
        }
        // The fewest slots that hold `ids` at a load of 0.8.
        let slots = ids.saturating_add(ids / 4).saturating_add(1);
        self.tables.push(Table::new(slots));
    }

    /// Loads the slots where these hashes start probing, so that the inserts that follow find
    /// them in cache; returns nothing useful (the loads only warm the cache).
    pub fn touch(&self, hashes: &[IdHash]) {
        let mut any = 0u64;
        for t in &self.tables {
            for h in hashes {
                any ^= t.slots.get(t.home(h.half)).copied().unwrap_or(0);
            }
        }
        std::hint::black_box(any);
    }

    /// Adds `id`; false when it was already there.
    pub fn insert(&mut self, id: &str) -> bool {
        self.insert_hashed(Self::hash(id))
    }

    /// `insert` of the id whose `IdSet::hash` is `hash`.
    pub fn insert_hashed(&mut self, hash: IdHash) -> bool {
        let IdHash { print, half } = hash;
        let Some((newest, older)) = self.tables.split_last_mut() else {
            self.tables.push(Table::new(FIRST_SLOTS));
            return self.insert_hashed(hash);
        };
        if older.iter().any(|t| t.find(print, half).is_ok()) {
            return false;
        }
        let at = match newest.find(print, half) {
            Ok(_) => return false,
            Err(at) if !newest.full() => at,
            Err(_) => {
                // As many slots again as all the tables together: the total doubles.
                let total: usize = self.tables.iter().map(|t| t.slots.len()).sum();
                self.tables.push(Table::new(total));
                let Some(t) = self.tables.last_mut() else {
                    return false;
                };
                let Err(at) = t.find(print, half) else {
                    return false;
                };
                at
            }
        };
        if let Some(t) = self.tables.last_mut() {
            if let Some(slot) = t.slots.get_mut(at) {
                *slot = print;
                t.len += 1;
                self.len += 1;
            }
        }
        true
    }

    /// How many distinct ids it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many tables it has (one while the ids fit the first `reserve`); for measurements.
    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// Bytes its tables take; for measurements.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.slots.len() * 8).sum()
    }

    /// Whether `id` is in the set.
    pub fn contains(&self, id: &str) -> bool {
        let IdHash { print, half } = Self::hash(id);
        self.tables.iter().any(|t| t.find(print, half).is_ok())
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
        s.reserve(3);
        s.touch(&[IdSet::hash("a")]);
        assert!(s.insert("a"));
        assert!(s.insert("ab"));
        assert!(s.insert(""));
        assert!(!s.insert("a"));
        assert!(!s.insert(""));
        assert!(s.contains("ab") && !s.contains("b"));
        assert_eq!(s.len(), 3);
        assert_eq!(s.tables(), 1);
    }

    #[test]
    fn prefixes_and_concatenations_stay_distinct() {
        let mut s = IdSet::default();
        assert!(s.insert("ab"));
        assert!(s.insert("c"));
        assert!(!s.contains("abc") && !s.contains("bc"));
        assert!(s.insert("abc"));
    }

    #[test]
    fn long_ids_are_told_apart() {
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

    #[test]
    fn a_right_reserve_keeps_one_table_at_ten_bytes_an_id() {
        let mut s = IdSet::default();
        s.reserve(100_000);
        for i in 0..100_000 {
            assert!(s.insert(&format!("item-{i}")));
        }
        assert_eq!((s.tables(), s.len()), (1, 100_000));
        assert!(s.bytes() <= 100_000 * 10 + 16, "{}", s.bytes());
        // One more id than reserved: a second table, as large as the first.
        assert!(s.insert("one more"));
        assert_eq!(s.tables(), 2);
        assert!(s.bytes() <= 100_000 * 20 + 32, "{}", s.bytes());
        for i in (0..100_000).step_by(997) {
            assert!(!s.insert(&format!("item-{i}")));
        }
        assert!(!s.insert("one more") && s.contains("one more"));
    }

    #[test]
    fn growth_doubles_the_slots_and_keeps_every_id() {
        let mut s = IdSet::default();
        s.reserve(1);
        assert_eq!(s.bytes(), MIN_SLOTS * 8);
        let ids: Vec<String> = (0..5000).map(|i| format!("{i:x}")).collect();
        let mut last = s.bytes();
        for id in &ids {
            assert!(s.insert(id));
            // No table is ever fuller than 4 in 5 slots, and a growth doubles the total.
            assert!(
                s.len() * 10 <= s.bytes(),
                "{} ids in {} bytes",
                s.len(),
                s.bytes()
            );
            assert!(s.bytes() == last || s.bytes() == 2 * last);
            last = s.bytes();
        }
        assert!(s.tables() > 5);
        assert!(ids.iter().all(|id| s.contains(id) && !s.insert(id)));
        assert_eq!(s.len(), ids.len());
    }

    #[test]
    fn reserve_adds_room_and_replaces_an_empty_table() {
        let mut s = IdSet::default();
        s.reserve(10);
        s.reserve(1000);
        assert_eq!(s.tables(), 1, "the empty first table was replaced");
        for i in 0..1000 {
            s.insert(&i.to_string());
        }
        s.reserve(500);
        s.reserve(400);
        assert_eq!(s.tables(), 2, "room for 400 was left in the second");
        for i in 0..500 {
            assert!(s.insert(&format!("b{i}")));
        }
        assert_eq!(s.tables(), 2);
        assert!(s.contains("999") && s.contains("b499") && !s.contains("b500"));
    }

    #[test]
    fn touch_reads_every_table_without_changing_anything() {
        let mut s = IdSet::default();
        let raw = |half: u64| IdHash { print: 1, half };
        s.touch(&[raw(1), raw(2), raw(u64::MAX)]);
        s.reserve(2);
        for i in 0..20 {
            s.insert(&format!("{}", char::from(b'a' + i)));
        }
        assert!(s.tables() >= 2, "16 slots hold 12 ids");
        let hashes: Vec<IdHash> = ["a", "z", ""].iter().map(|id| IdSet::hash(id)).collect();
        s.touch(&hashes);
        s.touch(&[raw(0), raw(u64::MAX)]);
        assert_eq!(s.len(), 20);
        assert!(s.contains("a") && s.contains("t") && !s.contains("z"));
    }

    #[test]
    fn homes_fall_in_the_table_and_spread_over_it() {
        for n in [16usize, 17, 1000, 125_001] {
            let t = Table::new(n);
            let mut hit = vec![false; n];
            for half in [0, 1, u64::MAX, u64::MAX / 3, 1 << 63] {
                assert!(t.home(half) < n);
            }
            for i in 0..n as u64 * 8 {
                hit[t.home(IdSet::hash(&i.to_string()).half)] = true;
            }
            // Eight hashes a slot: nearly every slot is some id's home.
            let empty = hit.iter().filter(|h| !**h).count();
            assert!(empty * 100 <= n, "{empty} of {n} slots never a home");
        }
    }

    proptest! {
        #[test]
        fn agrees_with_a_hash_set(
            ids in proptest::collection::vec("[a-d]{0,4}", 0..400),
            hint in proptest::option::of(0usize..40),
        ) {
            let mut ours = IdSet::default();
            if let Some(h) = hint {
                ours.reserve(h);
            }
            let mut std_set = HashSet::new();
            for id in &ids {
                prop_assert_eq!(ours.insert(id), std_set.insert(id.clone()));
                prop_assert_eq!(ours.len(), std_set.len());
            }
            for id in &ids {
                prop_assert!(ours.contains(id));
            }
            prop_assert!(!ours.contains("e"));
        }
    }
}
