//! Names (groups, strata, labels) numbered in the order they first arrive, each kept once as
//! shared text: the bootstrap's sample and design and the explorer key by the item's own
//! `Arc<str>` instead of a `String` copy each, and look names up through a table of their
//! numbers (four bytes a name), which, for a file whose groups are item ids, was a large part of
//! the memory a run holds.

use hashbrown::HashTable;
use std::hash::BuildHasher;
use std::sync::Arc;

/// Names and their numbers, in arrival order.
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// Each name's number, found by the name's hash.
    index: HashTable<u32>,
    names: Vec<Arc<str>>,
}

fn hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

impl PartialEq for Names {
    fn eq(&self, other: &Self) -> bool {
        self.names == other.names
    }
}

impl Names {
    /// The number of `name`, numbering it next if it is new; `shared` gives its text to keep
    /// (the item's own `Arc` where it has one), called only then.
    pub fn number(&mut self, name: &str, shared: impl FnOnce() -> Arc<str>) -> u32 {
        let h = hash(name);
        if let Some(n) = self.find_hashed(h, name) {
            return n;
        }
        let n = self.names.len() as u32;
        let text = shared();
        debug_assert_eq!(&*text, name);
        self.names.push(text);
        let names = &self.names;
        self.index
            .insert_unique(h, n, |&m| hash(names.get(m as usize).map_or("", |s| &**s)));
        n
    }

    /// The number of `name` or `default` when it has none, the item's text kept when new.
    pub fn number_of(&mut self, name: Option<&Arc<str>>, default: &str) -> u32 {
        match name {
            Some(n) => self.number(n, || n.clone()),
            None => self.number(default, || Arc::from(default)),
        }
    }

    /// The number of `name`, if it has one.
    pub fn find(&self, name: &str) -> Option<u32> {
        self.find_hashed(hash(name), name)
    }

    /// `find` with the name's hash already taken (`number` needs it again to insert).
    fn find_hashed(&self, h: u64, name: &str) -> Option<u32> {
        let names = &self.names;
        let same = |&n: &u32| names.get(n as usize).is_some_and(|x| **x == *name);
        self.index.find(h, same).copied()
    }

    /// The names, by number.
    pub fn names(&self) -> &[Arc<str>] {
        &self.names
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_arrival_order_and_keeps_the_given_text() {
        let mut n = Names::default();
        let a: Arc<str> = Arc::from("task_a");
        assert_eq!(n.number_of(Some(&a), "(none)"), 0);
        assert_eq!(n.number_of(None, "(none)"), 1);
        assert_eq!(n.number("task_a", || unreachable!("known")), 0);
        assert_eq!(n.number("b", || Arc::from("b")), 2);
        assert_eq!(n.find("b"), Some(2));
        assert_eq!(n.find("c"), None);
        assert_eq!(n.len(), 3);
        let names: Vec<&str> = n.names().iter().map(|s| &**s).collect();
        assert_eq!(names, ["task_a", "(none)", "b"]);
        // The item's own text is kept, not a copy of it.
        assert!(Arc::ptr_eq(&n.names()[0], &a));
    }

    /// Many names, some alike but for one byte, each numbered once and found again after the
    /// table has grown many times.
    #[test]
    fn finds_every_name_after_growing() {
        let mut n = Names::default();
        for i in 0..10_000u32 {
            let s = format!("group-{i}");
            assert_eq!(n.number(&s, || Arc::from(s.as_str())), i);
        }
        for i in (0..10_000u32).rev() {
            assert_eq!(n.number(&format!("group-{i}"), || unreachable!("known")), i);
        }
        assert_eq!(n.number("group-", || Arc::from("group-")), 10_000);
    }
}
