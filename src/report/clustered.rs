//! The report's `intervals.clustered` key, there when the user names clusters (`--cluster`):
//! standard errors that count clusters rather than items, the design effect, Wilson's intervals
//! on the effective number of items, and the planning figures (how far the interval reaches, the
//! smallest departure it can detect, how many items would halve it).

use super::intervals::Interval;
use super::Report;
use crate::metrics::bootstrap::Sample;
use crate::metrics::clustered::{clustered_means, wilson_effective, ClusteredMean};
use crate::metrics::ordered::Ordered;
use crate::metrics::power::mde;
use crate::metrics::stats::Z95;
use serde::{Deserialize, Serialize};

/// How the run's items cluster, and every mean figure's clustered standard error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clustered {
    /// The rule: `cluster` (the file's `cluster` or `passage_id` field), `group` or `none`.
    pub field: String,
    pub items: u64,
    /// Independent units: the clusters, and every item in none.
    pub clusters: u64,
    /// Items the rule put in a named cluster.
    pub in_clusters: u64,
    /// Items per unit.
    pub mean_size: f64,
    /// Accuracy's design effect: its clustered variance over the variance if items were
    /// independent.
    pub design_effect: Option<f64>,
    /// Every figure that is a mean of item values.
    pub figures: Ordered<ClusteredFigure>,
    /// Wilson's intervals of the accuracies (overall and per group) on n / design effect items.
    pub wilson: Ordered<Interval>,
}

/// One mean figure under the cluster rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClusteredFigure {
    pub value: f64,
    /// The cluster-robust standard error, and the one that treats items as independent.
    pub se: f64,
    pub se_iid: f64,
    pub design_effect: f64,
    /// The 95% CLT interval value ± z·se, and its half-width.
    pub lo: f64,
    pub hi: f64,
    pub half_width: f64,
    /// The smallest true departure from a fixed value that a 95%-level test detects with 80%
    /// power: (z_{0.975} + z_{0.80})·se.
    pub mde: f64,
    pub items: u64,
    pub clusters: u64,
    /// Items (of the same clusters' sizes) that would halve the half-width: four times as many.
    pub items_to_halve: u64,
}

impl ClusteredFigure {
    fn of(m: &ClusteredMean) -> ClusteredFigure {
        let (lo, hi) = m.interval();
        ClusteredFigure {
            value: m.mean,
            se: m.se,
            se_iid: m.se_iid,
            design_effect: m.design_effect(),
            lo,
            hi,
            half_width: Z95 * m.se,
            mde: mde(m.se),
            items: m.items,
            clusters: m.clusters,
            items_to_halve: 4 * m.items,
        }
    }
}

/// The clustered block of a sealed sample, when the user named a cluster rule.
pub fn clustered(sample: &Sample, report: &Report) -> Clustered {
    let (by, in_clusters) = sample.clustering();
    let design = sample.design();
    let unit_of = design.units_of_items();
    let all = vec![0u32; sample.len()];
    let mut figures = Vec::new();
    let mut values = Vec::new();
    for (k, name) in sample.names().into_iter().enumerate() {
        if !sample.item_values(k, &mut values) {
            continue;
        }
        if let Some(Some(m)) = clustered_means(&values, unit_of, &all, 1).first() {
            figures.push((name, ClusteredFigure::of(m)));
        }
    }
    let accuracy = figures
        .iter()
        .find(|(n, _)| n == "metrics.accuracy")
        .map(|(_, f)| f.design_effect);
    Clustered {
        field: by.describe().to_string(),
        items: sample.len() as u64,
        clusters: design.units() as u64,
        in_clusters,
        mean_size: sample.len() as f64 / design.units().max(1) as f64,
        design_effect: accuracy,
        figures: Ordered(figures),
        wilson: Ordered(wilson(sample, report, unit_of)),
    }
}

/// Wilson's intervals of overall and per-group accuracy on the effective number of items.
fn wilson(sample: &Sample, report: &Report, unit_of: &[u32]) -> Vec<(String, Interval)> {
    let credits = sample.credits();
    let mut out = Vec::new();
    let mut add = |name: String, m: &ClusteredMean| {
        if let Some((lo, hi)) = wilson_effective(m.mean, m.effective_items(), Z95) {
            out.push((name, Interval { lo, hi }));
        }
    };
    if report.metrics.accuracy.is_some() {
        let all = vec![0u32; credits.len()];
        if let Some(Some(m)) = clustered_means(credits, unit_of, &all, 1).first() {
            add("metrics.accuracy".to_string(), m);
        }
    }
    let names = sample.group_names();
    let by_group = clustered_means(credits, unit_of, sample.groups(), names.len());
    let index: std::collections::HashMap<&str, usize> =
        names.iter().enumerate().map(|(i, n)| (&**n, i)).collect();
    // In the report's group order, for the groups it shows.
    for g in &report.groups {
        let m = index
            .get(g.name.as_str())
            .and_then(|&i| by_group.get(i))
            .and_then(Option::as_ref);
        if let Some(m) = m {
            add(format!("groups.{}.accuracy", g.name), m);
        }
    }
    out
}
