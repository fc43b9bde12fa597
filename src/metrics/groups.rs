//! Per-group accuracy and the macro averages over groups (SPEC §3: items without a group form `(none)`).

use super::accuracy::{Accuracy, AccuracyFigures};
use super::outcome::Outcome;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The group name given to items that carry none.
pub const NO_GROUP: &str = "(none)";

/// Accuracy state per group name.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    /// Each name's place in `accs`.
    by_name: BTreeMap<String, usize>,
    accs: Vec<Accuracy>,
    /// The place of `(none)`, once known.
    none: Option<usize>,
    /// Names already seen, known by the address of their shared text.
    seen: ByAddress,
}

impl PartialEq for Groups {
    /// Equal when every name has equal state; how the names were found does not count.
    fn eq(&self, other: &Self) -> bool {
        self.by_name.len() == other.by_name.len()
            && self.by_name.iter().all(|(name, &i)| {
                other
                    .by_name
                    .get(name)
                    .is_some_and(|&j| self.accs[i] == other.accs[j])
            })
    }
}

impl Groups {
    /// Adds a judged item to its group.
    pub fn add(&mut self, group: Option<&str>, o: &Outcome) {
        let at = self.place(group.unwrap_or(NO_GROUP));
        self.accs[at].add(o);
    }

    /// `add` for an item's shared group name (`Item.group`): a name seen before is found by the
    /// address of its text, without comparing names (a `memcmp` per level of the map on every
    /// item was 4% of the CLI's time on a million items).
    pub fn add_shared(&mut self, group: Option<&Arc<str>>, o: &Outcome) {
        let at = match group {
            None => match self.none {
                Some(at) => at,
                None => {
                    let at = self.place(NO_GROUP);
                    self.none = Some(at);
                    at
                }
            },
            Some(name) => match self.seen.find(name) {
                Ok(at) => at,
                Err(slot) => {
                    let at = self.place(name);
                    self.seen.insert(slot, name, at);
                    at
                }
            },
        };
        self.accs[at].add(o);
    }

    /// The place of `name`'s state, made empty when new.
    fn place(&mut self, name: &str) -> usize {
        if let Some(&at) = self.by_name.get(name) {
            return at;
        }
        self.accs.push(Accuracy::default());
        self.by_name.insert(name.to_string(), self.accs.len() - 1);
        self.accs.len() - 1
    }

    pub fn merge(&mut self, other: Self) {
        let mut accs: Vec<Option<Accuracy>> = other.accs.into_iter().map(Some).collect();
        for (name, i) in other.by_name {
            let at = self.place(&name);
            if let Some(acc) = accs.get_mut(i).and_then(Option::take) {
                self.accs[at].merge(acc);
            }
        }
    }

    /// Each group's figures, in name order.
    pub fn finish(&self) -> Vec<(String, AccuracyFigures)> {
        self.by_name
            .iter()
            .map(|(name, &i)| (name.clone(), self.accs[i].finish()))
            .collect()
    }

    /// Unweighted means over groups of accuracy and of normalized accuracy.
    pub fn macro_figures(&self) -> (Option<f64>, Option<f64>) {
        let figures: Vec<AccuracyFigures> = self
            .by_name
            .values()
            .map(|&i| self.accs[i].finish())
            .collect();
        (
            mean(figures.iter().filter_map(|f| f.accuracy)),
            mean(figures.iter().filter_map(|f| f.normalized)),
        )
    }
}

/// Slots of the address table; it is emptied when half of them are taken.
const ADDRESS_SLOTS: usize = 1024;

/// Shared names and their place, found by the address of the text, linearly probed. Each entry
/// holds its name, so that no other text can take that address while the entry is kept.
#[derive(Debug, Clone, Default)]
struct ByAddress {
    slots: Vec<Option<(Arc<str>, usize)>>,
    len: usize,
}

impl ByAddress {
    fn home(name: &Arc<str>) -> usize {
        let address = Arc::as_ptr(name) as *const u8 as usize as u64;
        (address.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize % ADDRESS_SLOTS
    }

    /// `Ok` with the name's place, or `Err` with the empty slot where it would go.
    fn find(&self, name: &Arc<str>) -> Result<usize, usize> {
        if self.slots.is_empty() {
            return Err(Self::home(name));
        }
        let mut at = Self::home(name);
        // At most half the slots are taken, so the probe ends at an empty one.
        loop {
            match &self.slots[at] {
                Some((known, place)) if Arc::ptr_eq(known, name) => return Ok(*place),
                Some(_) => at = (at + 1) % ADDRESS_SLOTS,
                None => return Err(at),
            }
        }
    }

    /// Keeps `name` at `slot` (from `find`); when half the table is taken, it starts afresh.
    fn insert(&mut self, slot: usize, name: &Arc<str>, place: usize) {
        if self.len >= ADDRESS_SLOTS / 2 || self.slots.is_empty() {
            self.slots = vec![None; ADDRESS_SLOTS];
            self.len = 0;
            let Err(slot) = self.find(name) else { return };
            self.slots[slot] = Some((name.clone(), place));
        } else {
            self.slots[slot] = Some((name.clone(), place));
        }
        self.len += 1;
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::outcome::Outcome;

    fn outcome(correct: bool) -> Outcome {
        Outcome {
            credit: f64::from(u8::from(correct)),
            chance: Some(0.25),
            valid: true,
        }
    }

    proptest::proptest! {
        /// Shared names (many copies of the same text, reused and dropped, more distinct names
        /// than the address table keeps) give what names compared as text give.
        #[test]
        fn shared_names_count_as_names_do(
            picks in proptest::collection::vec((0usize..700, 0usize..3, proptest::bool::ANY), 1..3000),
        ) {
            let copies: Vec<Vec<Arc<str>>> = (0..700)
                .map(|g| (0..3).map(|_| Arc::from(format!("g{}", g % 600).as_str())).collect())
                .collect();
            let (mut by_text, mut shared) = (Groups::default(), Groups::default());
            for &(g, c, right) in &picks {
                let o = outcome(right);
                if g == 0 {
                    by_text.add(None, &o);
                    shared.add_shared(None, &o);
                } else if g == 1 {
                    // A fresh copy, dropped right after: its address may come back for another name.
                    let fresh: Arc<str> = Arc::from(format!("t{c}").as_str());
                    by_text.add(Some(&fresh), &o);
                    shared.add_shared(Some(&fresh), &o);
                } else {
                    by_text.add(Some(&copies[g][c]), &o);
                    shared.add_shared(Some(&copies[g][c]), &o);
                }
            }
            proptest::prop_assert_eq!(shared.finish(), by_text.finish());
            proptest::prop_assert!(shared == by_text);
        }
    }

    #[test]
    fn none_and_the_name_none_are_one_group() {
        let mut g = Groups::default();
        g.add_shared(None, &outcome(true));
        g.add_shared(Some(&Arc::from(NO_GROUP)), &outcome(false));
        g.add(None, &outcome(false));
        let figures = g.finish();
        assert_eq!(figures.len(), 1);
        assert_eq!(figures[0].0, NO_GROUP);
        assert_eq!(figures[0].1.items, 3);
    }
}
