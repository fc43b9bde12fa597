//! The report's `rewardbench` section (SPEC §6, §8): sections, subsets and overall as the official
//! tables give them, plus what the browser needs to show where a reward model fails.

pub use crate::metrics::ordered::Ordered;
pub use crate::metrics::pairwise::{HistogramBin, MarginFigures, Worst};
pub use crate::metrics::ties::TiesFigures;
use serde::{Deserialize, Serialize};

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
