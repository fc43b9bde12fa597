//! Paired comparison of runs over the same benchmark: do two models really differ?
//!
//! Runs are joined on item id. For each pair the headline figures are recomputed on the items both
//! runs have, and the difference A − B gets a paired bootstrap interval: every resample draws the
//! shared items once (stratified as the first run's profile says) and weighs both runs with the
//! same draw, so what the models have in common cancels. Accuracy also gets McNemar's exact test.
//! Items present in only one file are listed, never silently dropped.
//!
//! The CLI (`scorelens compare`) and the browser's comparison view both call `compare`.

use crate::metrics::bootstrap::{BootstrapOptions, Sample, LEVEL};
use crate::metrics::mcnemar::McNemar;
use crate::{score_sources, Error, Finished, Options, Report, Source};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

mod paired;
pub(crate) use paired::clusters;
pub mod tables;

pub use paired::{PairDraws, Paired};

/// The schema tag of a comparison.
pub const SCHEMA: &str = "scorelens.comparison/1";

/// How many ids each "only in" list shows (the count is always complete).
pub const IDS_SHOWN: usize = 20;

/// One scored run, with the compact per-item records the comparison resamples.
#[derive(Debug)]
pub struct Run {
    /// How the comparison names the run (a file name, a model).
    pub name: String,
    pub report: Report,
    pub sample: Sample,
}

/// Scores `sources` as one run and keeps its sample for `compare`.
pub fn score_run<'a, S: Into<Source<'a>>>(
    name: &str,
    sources: impl IntoIterator<Item = S>,
    opts: &Options,
) -> Result<Run, Error> {
    let opts = Options {
        sample: Some(usize::MAX),
        ..opts.clone()
    };
    Ok(score_sources(sources, &opts)?.into_run(name))
}

impl Run {
    /// The run named `name` of `report`, with the sample kept while reading it: a run of
    /// aggregate files only, which keeps none, has its profile's empty sample, so that it still
    /// joins a comparison or a leaderboard (with no item in common).
    pub fn new(name: impl Into<String>, report: Report, sample: Option<Sample>) -> Run {
        let sample = sample.unwrap_or_else(|| {
            let profile = crate::profiles::Profile::parse(&report.profile)
                .unwrap_or_else(crate::profiles::Profile::generic);
            crate::profiles::resampling::sample_for(profile)
        });
        Run {
            name: name.into(),
            report,
            sample,
        }
    }
}

impl Finished {
    /// The run a comparison or a leaderboard takes, named `name` (`Run::new`).
    pub fn into_run(self, name: impl Into<String>) -> Run {
        Run::new(name, self.report, self.sample)
    }
}

/// The comparison of two or more runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub schema: String,
    pub runs: Vec<RunSummary>,
    /// Per run, the items no other run has.
    pub only_in: Vec<OnlyIn>,
    pub bootstrap: Settings,
    /// Every pair (A, B) in the order the runs were given; deltas are A − B.
    pub pairs: Vec<Pair>,
    pub notes: Vec<String>,
}

/// Which run, under which profile, with how many items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub name: String,
    pub model: Option<String>,
    pub profile: String,
    pub items: u64,
}

impl RunSummary {
    /// What a comparison or a leaderboard says of a run it read.
    pub fn of(r: &Run) -> RunSummary {
        RunSummary {
            name: r.name.clone(),
            model: r.report.model.clone(),
            profile: r.report.profile.clone(),
            items: r.report.items,
        }
    }
}

/// Items of one run missing from others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OnlyIn {
    pub run: String,
    pub count: u64,
    /// The first `IDS_SHOWN` of them, in the run's order.
    pub ids: Vec<String>,
}

/// The paired bootstrap's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub method: String,
    pub resamples: u32,
    pub seed: u64,
    pub level: f64,
}

/// One pair of runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub a: String,
    pub b: String,
    /// Items both runs have: every figure below is over these.
    pub common: u64,
    pub only_a: OnlyIn,
    pub only_b: OnlyIn,
    /// What the strata are and how many were used.
    pub strata: String,
    pub strata_count: u64,
    pub figures: Vec<Delta>,
    /// McNemar's exact test on the items' correctness (it takes items as independent: with
    /// `clusters`, each mean figure's `se_paired` is the one that counts them).
    pub mcnemar: McNemar,
    /// A's cluster rule (`--cluster`) and its independent units among the common items; absent
    /// when no item is in a named cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clusters: Option<Clusters>,
}

/// The clusters among the items a comparison or leaderboard is over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clusters {
    /// The cluster rule (`cluster`, `group`).
    pub field: String,
    /// Independent units: the clusters, and every item in none.
    pub units: u64,
}

/// One figure of A and B on the common items, and their difference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Delta {
    /// Report path, e.g. `metrics.accuracy`.
    pub figure: String,
    pub a: f64,
    pub b: f64,
    /// a − b.
    pub delta: f64,
    /// Paired percentile interval of the difference.
    pub lo: f64,
    pub hi: f64,
    pub se: f64,
    /// Resamples in which the difference was undefined.
    pub undefined: u32,
    /// The interval excludes 0: the runs differ beyond resampling noise.
    pub distinguishable: bool,
    /// For a mean of item values: the CLT standard error of the paired item differences, over
    /// A's strata and units (its clusters, when named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub se_paired: Option<f64>,
    /// The smallest true difference a 95%-level test detects with 80% power, from `se_paired`
    /// (else the bootstrap's `se`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mde: Option<f64>,
    /// Common items (of the same design) a true difference of `delta` would need for 80% power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items_needed: Option<u64>,
}

/// Compares every pair of runs (natively, each pair's resamples drawn on every core).
pub fn compare(runs: &[Run], opts: &BootstrapOptions) -> Comparison {
    compare_with(runs, opts, |p, o| {
        crate::session::spread(o.resamples, |r| p.draws(o, r))
    })
}

/// `compare`, with the caller drawing each pair's resamples: `draw` returns the draws of every
/// resample `0..opts.resamples`, in parts in resample order (e.g. ranges drawn on threads; each
/// resample has its own seeded stream, so the result equals `compare`'s).
pub fn compare_with(
    runs: &[Run],
    opts: &BootstrapOptions,
    draw: impl Fn(&Paired, &BootstrapOptions) -> Vec<PairDraws>,
) -> Comparison {
    let mut notes = Vec::new();
    if let Some(first) = runs.first() {
        for r in runs.iter().skip(1) {
            if r.report.profile != first.report.profile {
                notes.push(format!(
                    "{} is scored under {} and {} under {}; only the figures both profiles have are compared",
                    first.name, first.report.profile, r.name, r.report.profile
                ));
            }
        }
    }
    let mut pairs = Vec::new();
    for (i, a) in runs.iter().enumerate() {
        for b in runs.iter().skip(i + 1) {
            let paired = Paired::new(a, b);
            let parts = draw(&paired, opts);
            pairs.push(paired.finish(parts));
        }
    }
    Comparison {
        schema: SCHEMA.to_string(),
        runs: runs.iter().map(RunSummary::of).collect(),
        only_in: only_in(runs),
        bootstrap: Settings {
            method: "paired percentile".to_string(),
            resamples: opts.resamples,
            seed: opts.seed,
            level: LEVEL,
        },
        pairs,
        notes,
    }
}

/// Per run, its ids that no other run has.
fn only_in(runs: &[Run]) -> Vec<OnlyIn> {
    let mut seen: HashMap<&str, u32> = HashMap::new();
    for r in runs {
        for id in r.sample.ids().iter() {
            *seen.entry(id).or_default() += 1;
        }
    }
    runs.iter()
        .map(|r| {
            let alone = r.sample.ids().iter().filter(|id| seen.get(*id) == Some(&1));
            listed(&r.name, alone)
        })
        .collect()
}

pub(crate) fn listed<'a>(run: &str, ids: impl Iterator<Item = &'a str>) -> OnlyIn {
    let mut count = 0u64;
    let mut shown = Vec::new();
    for id in ids {
        count += 1;
        if shown.len() < IDS_SHOWN {
            shown.push(id.to_string());
        }
    }
    OnlyIn {
        run: run.to_string(),
        count,
        ids: shown,
    }
}

impl Comparison {
    /// The comparison as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
