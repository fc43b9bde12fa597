//! State a format keeps across the files of one run, for files that only make sense together
//! (a JevBench task file and its results, lm-eval samples and their `results_*.json`).
//!
//! Each format stores one value of its own type, keyed by that type; whichever file arrives second
//! finds the first one's data here, so the order in which files are dropped does not matter.

use std::any::{Any, TypeId};
use std::collections::HashMap;

#[derive(Default)]
pub struct Shelf {
    slots: HashMap<TypeId, Box<dyn Any>>,
}

impl Shelf {
    /// The slot of type `T`, created empty on first use.
    pub fn get<T: Any + Default>(&mut self) -> &mut T {
        let slot = self
            .slots
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()));
        match slot.downcast_mut::<T>() {
            Some(t) => t,
            // The key is T's own TypeId, so the downcast cannot fail.
            None => unreachable!("shelf slot holds another type"),
        }
    }

    /// Takes the slot of type `T` out, if there is one.
    pub fn take<T: Any>(&mut self) -> Option<T> {
        self.slots
            .remove(&TypeId::of::<T>())
            .and_then(|b| b.downcast::<T>().ok())
            .map(|b| *b)
    }
}

impl std::fmt::Debug for Shelf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Shelf({} slots)", self.slots.len())
    }
}
