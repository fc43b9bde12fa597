//! What the bootstrap gives: its settings and one percentile interval per figure. The report
//! carries it under `intervals.bootstrap`.

use crate::metrics::ordered::Ordered;
use serde::{Deserialize, Serialize};

/// The bootstrap's settings and its intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapIntervals {
    /// `percentile`: the 2.5% and 97.5% quantiles of the resampled figures (numpy's linear rule).
    pub method: String,
    pub resamples: u32,
    pub seed: u64,
    pub level: f64,
    /// What the strata are: `group`, `split × type × tier` or `none`.
    pub strata: String,
    /// Strata used (those smaller than five units pooled into one).
    pub strata_count: u64,
    /// What one resampling unit is (`item`, or e.g. a RewardBench 2 Ties prompt pair).
    pub units: String,
    pub unit_count: u64,
    /// Report path → interval, in the report's order.
    pub figures: Ordered<FigureInterval>,
}

/// One figure's bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FigureInterval {
    /// The figure itself, as in the report.
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
    /// Standard deviation of the resampled figures.
    pub se: f64,
    /// Resamples in which the figure was undefined (left out of the quantiles).
    pub undefined: u32,
}
