//! The bootstrap's design: which stratum each item belongs to, which items are drawn together
//! (a unit), and the seeded draws themselves.
//!
//! Strata and units are numbered in the order items arrive and drawn with `SplitMix64` in integer
//! arithmetic, so the same seed gives the same resamples natively and in wasm32.

use super::rng::SplitMix64;
use crate::items::{Item, Split};
use crate::metrics::names::Names;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::sync::Arc;

/// Strata with fewer units than this are pooled into one: a stratum of one unit would never vary.
pub const MIN_STRATUM: usize = 5;

/// What the strata are. SPEC is silent: JevBench resamples within split × type × tier, and every
/// other profile within groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strata {
    /// One stratum: plain resampling.
    None,
    /// The item's group (`(none)` without one).
    Group,
    /// Split × type × tier (JevBench's design).
    SplitTypeTier,
}

impl Strata {
    /// The item's stratum; borrowed from the item when it can be (no allocation per item).
    pub fn key(self, item: &Item) -> Cow<'_, str> {
        match self {
            Strata::None => Cow::Borrowed(""),
            Strata::Group => Cow::Borrowed(item.group.as_deref().unwrap_or_default()),
            Strata::SplitTypeTier => {
                let split = match item.split {
                    Some(Split::Open) => "open",
                    Some(Split::Sealed) => "sealed",
                    None => "-",
                };
                let tier = item.tier.map_or("-", |t| t.name());
                Cow::Owned(format!("{split}/{}/{tier}", item.type_name()))
            }
        }
    }

    /// `key` as text to keep: the item's own shared group name where the strata are groups.
    pub fn shared_key(self, item: &Item) -> Arc<str> {
        match (self, &item.group) {
            (Strata::Group, Some(g)) => g.clone(),
            _ => Arc::from(self.key(item)),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Strata::None => "none",
            Strata::Group => "group",
            Strata::SplitTypeTier => "split × type × tier",
        }
    }
}

/// Names the unit an item is resampled with (items of one unit are drawn together); `None`
/// makes the item a unit of its own.
pub type ClusterOf = fn(&Item) -> Option<String>;

/// Which items the user says belong together (`--cluster`): their intervals, resamples and
/// paired tests count a cluster, not an item, as what is independent. A profile's own units
/// (RewardBench 2's Ties pairs) apply to items this leaves alone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ClusterBy {
    /// The file's own cluster field (`cluster`, `passage_id`), where an item has one.
    #[default]
    File,
    /// A field the user names (a column, a key, `metadata.passage`): the reader puts its value
    /// where the file's own cluster field would go, so the rule reads the same place as `File`.
    Field(std::sync::Arc<str>),
    /// The item's group (its subject, task or category).
    Group,
    /// Every item its own cluster.
    Off,
}

impl ClusterBy {
    /// The names `--cluster` takes.
    pub const NAMES: &'static str = "cluster (or passage_id: the file's own field), group, none, or any field of the items (a column, a key, metadata.KEY, doc.KEY)";

    /// The rule a name asks for: a fixed name, else the field of that name. `None` for a name
    /// that cannot be a field (empty, or with spaces or control characters at either end).
    pub fn parse(name: &str) -> Option<ClusterBy> {
        match name {
            "cluster" | "passage_id" | "file" => Some(ClusterBy::File),
            "group" => Some(ClusterBy::Group),
            "none" | "item" => Some(ClusterBy::Off),
            _ if is_field_name(name) => Some(ClusterBy::Field(name.into())),
            _ => None,
        }
    }

    /// The field the readers are asked to read, for a rule that names one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ClusterBy::Field(name) => Some(name),
            _ => None,
        }
    }

    /// The item's cluster under this rule.
    pub fn key<'i>(&self, item: &'i Item) -> Option<&'i str> {
        match self {
            ClusterBy::File | ClusterBy::Field(_) => item.cluster.as_deref(),
            ClusterBy::Group => item.group.as_deref(),
            ClusterBy::Off => None,
        }
    }

    /// What the report calls the field.
    pub fn describe(&self) -> &str {
        match self {
            ClusterBy::File => "cluster",
            ClusterBy::Field(name) => name,
            ClusterBy::Group => "group",
            ClusterBy::Off => "none",
        }
    }
}

/// Whether a name can be a field's: at most 200 characters, none of them a control character,
/// and no blank at either end (a name pasted with a trailing space would match nothing).
fn is_field_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 200
        && name.trim() == name
        && !name.chars().any(char::is_control)
}

/// Items, their units and the units' strata.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Design {
    /// Item → unit.
    unit_of: Vec<u32>,
    /// Unit → stratum.
    unit_stratum: Vec<u32>,
    strata: Names,
    clusters: FxHashMap<Arc<str>, u32>,
}

impl Design {
    pub fn push(&mut self, stratum: &str, cluster: Option<&str>) {
        self.push_shared(stratum, || Arc::from(stratum), cluster);
    }

    /// `push`, with `shared` giving the stratum's text to keep when it is new (the item's own
    /// shared name, not a copy).
    pub fn push_shared(
        &mut self,
        stratum: &str,
        shared: impl FnOnce() -> Arc<str>,
        cluster: Option<&str>,
    ) {
        let s = self.strata.number(stratum, shared);
        let unit = match cluster {
            Some(c) => match self.clusters.get(c) {
                Some(&u) => u,
                None => {
                    let u = self.unit_stratum.len() as u32;
                    self.clusters.insert(Arc::from(c), u);
                    self.unit_stratum.push(s);
                    u
                }
            },
            None => {
                self.unit_stratum.push(s);
                self.unit_stratum.len() as u32 - 1
            }
        };
        self.unit_of.push(unit);
    }

    /// Lets go of the room grown beyond the items and units.
    pub fn shrink_to_fit(&mut self) {
        self.unit_of.shrink_to_fit();
        self.unit_stratum.shrink_to_fit();
    }

    pub fn items(&self) -> usize {
        self.unit_of.len()
    }

    /// Resampling units (clusters count once).
    pub fn units(&self) -> usize {
        self.unit_stratum.len()
    }

    /// The unit of item `i`.
    pub fn unit_of(&self, i: usize) -> Option<u32> {
        self.unit_of.get(i).copied()
    }

    /// Every item's unit, in push order (what standard errors over the units sum by).
    pub fn units_of_items(&self) -> &[u32] {
        &self.unit_of
    }

    /// The stratum of unit `u`, an index into `stratum_names`.
    pub fn stratum_of(&self, u: u32) -> Option<u32> {
        self.unit_stratum.get(u as usize).copied()
    }

    /// The strata's names (their keys), by stratum number: what a caller that renumbers the
    /// strata in an order of its own (the leaderboard's, by name) sorts by.
    pub fn stratum_names(&self) -> Vec<&str> {
        self.strata.names().iter().map(|s| &**s).collect()
    }

    /// The units of each stratum, strata of fewer than `MIN_STRATUM` units pooled into one
    /// (placed last), keeping only units with an item for which `keep` holds.
    pub fn strata_units(&self, keep: impl Fn(usize) -> bool) -> Vec<Vec<u32>> {
        let mut kept = vec![false; self.unit_stratum.len()];
        for (i, &u) in self.unit_of.iter().enumerate() {
            if keep(i) {
                if let Some(k) = kept.get_mut(u as usize) {
                    *k = true;
                }
            }
        }
        let mut by_stratum = vec![Vec::new(); self.strata.len()];
        for (u, &s) in self.unit_stratum.iter().enumerate() {
            if kept.get(u).copied().unwrap_or(false) {
                if let Some(list) = by_stratum.get_mut(s as usize) {
                    list.push(u as u32);
                }
            }
        }
        pool_small(by_stratum)
    }
}

/// Strata (lists of units) as the resampler draws them: those of fewer than `MIN_STRATUM` units
/// pooled into one, in unit order, placed last.
pub fn pool_small(strata: impl IntoIterator<Item = Vec<u32>>) -> Vec<Vec<u32>> {
    let mut pooled = Vec::new();
    let mut out = Vec::new();
    for units in strata {
        if units.len() >= MIN_STRATUM {
            out.push(units);
        } else {
            pooled.extend(units);
        }
    }
    if !pooled.is_empty() {
        pooled.sort_unstable();
        out.push(pooled);
    }
    out
}

/// The seed of resample `b`'s stream: both numbers passed through SplitMix64's mixer.
pub fn stream_seed(seed: u64, b: u32) -> u64 {
    let mut m = SplitMix64::new(seed ^ SplitMix64::new(u64::from(b)).next_u64());
    m.next_u64()
}

/// Draws resamples: per stratum, as many units as it holds, uniformly with replacement.
#[derive(Debug, Clone)]
pub struct Resampler {
    strata: Vec<Vec<u32>>,
    seed: u64,
    rng: SplitMix64,
    counts: Vec<u32>,
}

impl Resampler {
    pub fn new(strata: Vec<Vec<u32>>, units: usize, seed: u64) -> Self {
        Resampler {
            strata,
            seed,
            rng: SplitMix64::new(seed),
            counts: vec![0; units],
        }
    }

    /// Resample number `b` (0-based): how often each unit was drawn. Each resample has its own
    /// stream, seeded from (seed, b), so resamples can be drawn in any order or on several
    /// threads and still be the same.
    pub fn draw(&mut self, b: u32) -> &[u32] {
        self.rng = SplitMix64::new(stream_seed(self.seed, b));
        self.counts.iter_mut().for_each(|c| *c = 0);
        for units in &self.strata {
            let n = units.len() as u64;
            for _ in 0..n {
                let pick = self.rng.below(n) as usize;
                if let Some(c) = units
                    .get(pick)
                    .and_then(|&u| self.counts.get_mut(u as usize))
                {
                    *c += 1;
                }
            }
        }
        &self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_strata_are_pooled_and_clusters_drawn_whole() {
        let mut d = Design::default();
        for i in 0..6 {
            d.push("big", None);
            let _ = i;
        }
        d.push("tiny", None);
        d.push("other", Some("c1"));
        d.push("other", Some("c1"));
        let s = d.strata_units(|_| true);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0], vec![0, 1, 2, 3, 4, 5]);
        // The tiny stratum and the two-item cluster (one unit) are pooled.
        assert_eq!(s[1], vec![6, 7]);
        assert_eq!(d.unit_of(7), d.unit_of(8));
    }

    #[test]
    fn a_resample_draws_each_stratum_to_its_size() {
        let mut r = Resampler::new(vec![vec![0, 1, 2], vec![3, 4]], 5, 9);
        for b in 0..50 {
            let c = r.draw(b);
            assert_eq!(c[0] + c[1] + c[2], 3);
            assert_eq!(c[3] + c[4], 2);
        }
    }
}
