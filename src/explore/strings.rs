//! The explorer's string tables: every label, group and file name stored once, and the last
//! option list and group names found by the address of their shared text, without hashing it.

use super::NONE;
use crate::metrics::groups::NO_GROUP;
use crate::metrics::names::Names;
use std::sync::Arc;

/// Strings stored once each (`Names`: shared text, numbers in a hash table).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Interner {
    names: Names,
}

impl Interner {
    pub(super) fn get(&mut self, s: &str) -> u32 {
        self.names.number(s, || Arc::from(s))
    }

    /// `get`, keeping the item's own shared text when it is new.
    pub(super) fn get_shared(&mut self, s: &Arc<str>) -> u32 {
        self.names.number(s, || Arc::clone(s))
    }

    /// The index of `s`, if it was stored.
    pub(super) fn find(&self, s: &str) -> Option<u32> {
        self.names.find(s)
    }

    pub(super) fn name(&self, i: u32) -> &str {
        self.names.names().get(i as usize).map_or("", |s| &**s)
    }
}

/// Slots of `Recent`'s group cache (a prime).
const GROUP_SLOTS: usize = 61;

/// Interned strings found without hashing text: the labels of the option list the last
/// item shared (readers give every item with the same list one `Arc`), each filled at its first
/// use; the group names by the address of their shared text (the canonical reader gives every
/// item of a group one `Arc`), direct-mapped, each slot holding its name so that no other text can
/// take that address meanwhile; and the last item kind. A miss interns the text as before.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Recent {
    options: Option<Arc<[String]>>,
    labels: Vec<u32>,
    groups: Vec<Option<(Arc<str>, u32)>>,
    no_group: Option<u32>,
    kind: Option<(&'static str, u32)>,
}

impl Recent {
    /// The interned label `i` of `options` (`""` past its end).
    pub(super) fn label(
        &mut self,
        strings: &mut Interner,
        options: &Arc<[String]>,
        i: usize,
    ) -> u32 {
        if !self
            .options
            .as_ref()
            .is_some_and(|o| Arc::ptr_eq(o, options))
        {
            self.options = Some(Arc::clone(options));
            self.labels.clear();
            self.labels.resize(options.len(), NONE);
        }
        match (self.labels.get_mut(i), options.get(i)) {
            (Some(slot), Some(label)) => {
                if *slot == NONE {
                    *slot = strings.get(label);
                }
                *slot
            }
            _ => strings.get(""),
        }
    }

    /// The interned group name (`NO_GROUP` without one).
    pub(super) fn group(&mut self, strings: &mut Interner, group: Option<&Arc<str>>) -> u32 {
        let Some(name) = group else {
            return *self.no_group.get_or_insert_with(|| strings.get(NO_GROUP));
        };
        if self.groups.is_empty() {
            self.groups = vec![None; GROUP_SLOTS];
        }
        // Names made one after another lie a few 16-byte steps apart: modulo a prime, up to
        // about 30 such names take a slot each.
        let home = (Arc::as_ptr(name) as *const u8 as usize >> 4) % GROUP_SLOTS;
        match self.groups.get_mut(home) {
            Some(Some((known, g))) if Arc::ptr_eq(known, name) => *g,
            Some(slot) => {
                let g = strings.get_shared(name);
                *slot = Some((Arc::clone(name), g));
                g
            }
            None => strings.get_shared(name),
        }
    }

    pub(super) fn kind(&mut self, strings: &mut Interner, kind: &'static str) -> u32 {
        match self.kind {
            // The same literal, most often: compared by address first.
            Some((k, i)) if std::ptr::eq(k, kind) || k == kind => i,
            _ => {
                let i = strings.get(kind);
                self.kind = Some((kind, i));
                i
            }
        }
    }
}
