//! Names (groups, strata) numbered in the order they first arrive, each kept once as shared
//! text: the sample, its design and its summary replay all key by the item's own `Arc<str>`
//! instead of a `String` copy each, which, for a file whose groups are item ids, was a large
//! part of the memory a run holds for resampling.

use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Names and their numbers, in arrival order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Names {
    index: FxHashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Names {
    /// The number of `name`, numbering it next if it is new; `shared` gives its text to keep
    /// (the item's own `Arc` where it has one), called only then.
    pub fn number(&mut self, name: &str, shared: impl FnOnce() -> Arc<str>) -> u32 {
        if let Some(&n) = self.index.get(name) {
            return n;
        }
        let n = self.names.len() as u32;
        let text = shared();
        debug_assert_eq!(&*text, name);
        self.index.insert(text.clone(), n);
        self.names.push(text);
        n
    }

    /// The number of `name` or `default` when it has none, the item's text kept when new.
    pub fn number_of(&mut self, name: Option<&Arc<str>>, default: &str) -> u32 {
        match name {
            Some(n) => self.number(n, || n.clone()),
            None => self.number(default, || Arc::from(default)),
        }
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
        assert_eq!(n.len(), 3);
        let names: Vec<&str> = n.names().iter().map(|s| &**s).collect();
        assert_eq!(names, ["task_a", "(none)", "b"]);
        // The item's own text is kept, not a copy of it.
        assert!(Arc::ptr_eq(&n.names()[0], &a));
    }
}
