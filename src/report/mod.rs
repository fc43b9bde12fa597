//! The report: the one output of scoring, the same JSON from the CLI, the browser and the embed API.
//!
//! Keys follow SPEC §8. A figure that does not apply is `None` and serialises as `null`, never 0.

use crate::metrics::calibration::CalibrationFigures;
use crate::metrics::ic::figures::IcFigures;
use crate::metrics::multi::MultiFigures;
use crate::reported::Reported;
use crate::warning::Warning;
use serde::{Deserialize, Serialize};

pub mod calibration_rows;
pub mod clustered;
pub mod groups;
pub mod intervals;
pub mod packed_groups;
pub mod planning;
pub mod rewardbench;

pub use rewardbench::Ordered;

/// The schema tag every report carries.
pub const SCHEMA: &str = "scorelens.report/1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema: String,
    pub profile: String,
    pub model: Option<String>,
    /// The benchmark the file names, if it names one.
    pub benchmark: Option<String>,
    /// Each input file, its detected format and what it contributed.
    pub files: Vec<FileSummary>,
    pub items: u64,
    pub skipped: u64,
    pub warnings: Vec<Warning>,
    /// Remarks on how to read the figures (small samples, definitions used, and so on).
    pub notes: Vec<String>,
    /// Figures the tools themselves wrote in the files, shown beside ours.
    pub reported: Vec<Reported>,
    pub metrics: Metrics,
    pub conditioning: CalibrationFigures,
    pub mixing: CalibrationFigures,
    pub ic: Option<IcFigures>,
    /// Multi-select figures (exact-set accuracy, F1, gold-set probability), when there are `multi` items.
    pub multi: Option<MultiFigures>,
    /// RewardBench v1 or v2 figures, under the `rewardbench` and `rewardbench2` profiles.
    pub rewardbench: Option<rewardbench::RewardBenchFigures>,
    /// Whether the file holds exactly a benchmark's frozen counts (SPEC §7); null for profiles
    /// without them.
    #[serde(default)]
    pub scope: Option<ScopeCheck>,
    pub groups: Vec<GroupFigures>,
    /// Wilson intervals of the accuracies, and bootstrap intervals when asked for.
    #[serde(default)]
    pub intervals: intervals::Intervals,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileSummary {
    pub name: String,
    pub format: String,
    /// The format's version or variant, when the reader can tell.
    pub version: Option<String>,
    /// How the file's fields became items (one line each).
    pub mapping: Vec<String>,
    pub items: u64,
    pub skipped: u64,
    /// Units of the file that were neither items nor errors.
    pub not_applicable: u64,
}

/// A frozen-count check: `complete` when every found count equals the benchmark's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScopeCheck {
    pub complete: bool,
    pub expected: Ordered<u64>,
    pub found: Ordered<u64>,
}

/// Headline figures (SPEC §3, §2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub accuracy: Option<f64>,
    pub normalized: Option<f64>,
    pub invalid_share: Option<f64>,
    pub outside_mass: Option<f64>,
    pub macro_accuracy: Option<f64>,
    pub macro_normalized: Option<f64>,
}

/// One group's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupFigures {
    pub name: String,
    pub items: u64,
    pub correct: f64,
    pub accuracy: Option<f64>,
    pub normalized: Option<f64>,
    pub invalid_share: Option<f64>,
}

impl Report {
    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        // Serialising plain structs of numbers and strings cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// `to_json` and a line break (the CLI's `--json`), written to `w` a piece at a time: the
    /// JSON of 200,000 groups is 52 MB, which the browser's worker need not hold whole.
    pub fn write_json(&self, mut w: impl std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut w, self)?;
        w.write_all(b"\n")
    }
}
