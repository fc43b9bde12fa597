//! The report's `rewardbench` section (SPEC §6, §8): sections, subsets and overall as the official
//! tables give them, plus what the browser needs to show where a reward model fails.

pub use crate::metrics::pairwise::{HistogramBin, MarginFigures, Worst};
pub use crate::metrics::ties::TiesFigures;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// `Reported::source` of the figures RewardBench's own files carry (an `eval-set` aggregate, the
/// CLI's summary).
pub const TOOL_SOURCE: &str = "rewardbench";

/// `Reported::source` of the per-subset length-baseline sums a RewardBench reader measures from
/// the response texts; the profile moves them into `length_baseline` and out of `reported`.
pub const LENGTH_SOURCE: &str = "scorelens length baseline";

/// The RewardBench figures of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RewardBenchFigures {
    /// `rewardbench` (v1) or `rewardbench2`.
    pub version: String,
    /// Section name to score, in the official column order; null where no subset is present.
    /// v1: Chat, Chat Hard, Safety, Reasoning, and Prior Sets when present; v2: the six subsets.
    pub sections: Ordered<Option<f64>>,
    /// Subset name to score: the benchmark's subsets in table order, then any others.
    pub subsets: Ordered<Option<f64>>,
    /// v1: (Chat + Chat Hard + Safety + Reasoning) / 4, always; v2: the mean of the six subsets.
    pub overall: Option<f64>,
    /// v1 with Prior Sets present: the first leaderboard's (2C + 2CH + 2S + 2R + P) / 9; null
    /// otherwise, or when any of the five is null.
    pub overall_with_prior_sets: Option<f64>,
    /// Items behind each section.
    pub section_items: Ordered<u64>,
    pub section_details: Vec<SectionFigures>,
    pub subset_details: Vec<SubsetFigures>,
    /// Subsets outside the benchmark's table: listed under `subsets`, left out of the sections.
    pub unknown_subsets: Vec<String>,
    /// RewardBench 2's Ties composite and its parts; null for v1 or without Ties items.
    pub ties: Option<TiesFigures>,
    /// Margins (chosen − rejected; worst correct − best incorrect for best-of-n) over all items.
    pub margins: MarginFigures,
    /// The overall formula applied to the "longer response wins" baseline; null unless every
    /// section has one.
    pub length_baseline: Option<f64>,
    /// Items whose credit is a judge's verdict (`results`), not a comparison of scores.
    pub judged_items: u64,
}

/// One section (a column of the official table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectionFigures {
    pub name: String,
    pub score: Option<f64>,
    pub items: u64,
    /// The subsets present, in the order they are summed.
    pub subsets: Vec<String>,
    /// The section's subsets with no figure (the official code skips them).
    pub missing: Vec<String>,
    /// The section's formula applied to the "longer response wins" baseline of its subsets.
    pub length_baseline: Option<f64>,
}

/// One subset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubsetFigures {
    pub name: String,
    /// The section it counts in; null for a subset outside the table.
    pub section: Option<String>,
    /// Its weight in the section (v1: the official example count).
    pub weight: Option<f64>,
    pub items: u64,
    /// Sum of the items' credit; null for Ties (a composite, not a sum) and for reported figures.
    pub credit: Option<f64>,
    pub score: Option<f64>,
    /// `items` when computed from this run's items, `reported` when taken from an aggregate file.
    pub source: String,
    /// Items whose margin is exactly 0.
    pub ties: u64,
    /// Accuracy of "the longer response wins" on the same rows, when the texts were present.
    pub length_baseline: Option<f64>,
    /// The items with the most negative margins, worst first.
    pub worst: Vec<Worst>,
}

/// Name-value pairs kept in a fixed order, serialised as a JSON object in that order.
#[derive(Debug, Clone, PartialEq)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V> Default for Ordered<V> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<V> Ordered<V> {
    /// The value under `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OrderedVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedVisitor<V> {
            type Value = Ordered<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry()? {
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(OrderedVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_keeps_its_order_through_json() {
        let o = Ordered(vec![
            ("Chat".to_string(), Some(0.5)),
            ("Chat Hard".to_string(), None),
            ("A".to_string(), Some(1.0)),
        ]);
        let json = serde_json::to_string(&o).unwrap();
        assert_eq!(json, r#"{"Chat":0.5,"Chat Hard":null,"A":1.0}"#);
        let back: Ordered<Option<f64>> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, o);
        assert_eq!(back.get("A"), Some(&Some(1.0)));
    }
}
