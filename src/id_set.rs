//! The set of item ids seen in a run, for SPEC §1's "a later item with a seen id is skipped".
//!
//! A run of a million items keeps a million ids. A `HashSet<String>` costs one allocation per id,
//! SipHash on every lookup and its growth shows in profiles (issue 9). Here every id is appended
//! to one string and the table keeps only (hash, start, end): no per-id allocation, a fast
//! non-keyed hash (ids come from the user's own files, so hash flooding is no concern), and
//! growth rehashes from the stored hashes without touching the text.

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Distinct strings, stored back to back.
#[derive(Debug, Default)]
pub struct IdSet {
    text: String,
    table: HashTable<(u64, usize, usize)>,
}

impl IdSet {
    /// Adds `id`; false when it was already there.
    pub fn insert(&mut self, id: &str) -> bool {
        let hash = FxBuildHasher.hash_one(id);
        let text = &self.text;
        let same =
            |&(h, start, end): &(u64, usize, usize)| h == hash && text.get(start..end) == Some(id);
        if self.table.find(hash, same).is_some() {
            return false;
        }
        let start = self.text.len();
        self.text.push_str(id);
        let entry = (hash, start, self.text.len());
        self.table.insert_unique(hash, entry, |e| e.0);
        true
    }

    /// How many distinct ids it holds.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Whether `id` is in the set.
    pub fn contains(&self, id: &str) -> bool {
        let hash = FxBuildHasher.hash_one(id);
        self.table
            .find(hash, |&(h, start, end)| {
                h == hash && self.text.get(start..end) == Some(id)
            })
            .is_some()
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
        }
    }
}
