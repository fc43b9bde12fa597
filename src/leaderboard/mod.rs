//! Many runs of one benchmark at once: a leaderboard whose ranks say how sure they are.
//!
//! Runs are joined on item id (the items every run has; the rest listed per run), all in a
//! canonical order (`join`). One paired bootstrap draws the shared items, stratified as the
//! reference run's profile says, and weighs every run with the same draw. From it: each run's
//! figures with intervals, its rank on each figure in every resample (median and 95% rank
//! interval), and every pair's difference with a paired interval and a p-value (McNemar's exact
//! test for 0/1 accuracies, z-tests otherwise: `paired_z`), Holm-adjusted over all pairs of a
//! figure, and over all pairs of all subsets for the per-subset accuracies. A run "leads" a
//! figure or subset only when it differs from every other run after the adjustment; its tied rank
//! counts the runs that differ from it and are better. The tie rule is in `rank`.
//!
//! Pure and seeded like the rest of the core: the caller may draw ranges of resamples on threads
//! and hand them back in order (`leaderboard_with`), with the same result as `leaderboard`.

pub use crate::compare::Clusters;
use crate::compare::{listed, OnlyIn, Run, RunSummary};
use crate::metrics::bootstrap::{BootstrapOptions, LEVEL};
use serde::{Deserialize, Serialize};

mod boards;
pub mod holm;
mod join;
pub use crate::metrics::paired_z;
pub mod pairs;
pub mod rank;
mod subset_lanes;
pub mod tables;

pub use join::{Joined, Replicates, MAX_SUBSETS};

/// The schema tag of a leaderboard.
pub const SCHEMA: &str = "scorelens.leaderboard/1";

/// The tie rule, as the output states it.
pub const TIE_RULE: &str =
    "competition ranking: tied values share the best rank (1 + the number of runs strictly better)";

/// The tests, as the output states them.
pub const TESTS: &str = "McNemar's exact test on 0/1 accuracies of unclustered items (mcnemar); a z-test with the CLT \
    standard error of the paired item differences, over the bootstrap's strata and units (clusters \
    when named), on other means of item values (paired-z); a z-test with the bootstrap's standard error of the \
    difference on the rest (bootstrap-z)";

/// The leaderboard of N runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub schema: String,
    pub runs: Vec<RunSummary>,
    /// Items every run has: every figure below is over these.
    pub common: u64,
    /// Per run, its items that some other run lacks (left out of every figure).
    pub not_shared: Vec<OnlyIn>,
    pub bootstrap: Settings,
    pub tie_rule: String,
    /// The headline figures every run has, in the first run's order.
    pub figures: Vec<Board>,
    /// Accuracy per subset (the first run's groups), when there are two or more.
    pub subsets: Vec<Board>,
    pub notes: Vec<String>,
}

/// The paired bootstrap's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub method: String,
    pub resamples: u32,
    pub seed: u64,
    pub level: f64,
    pub strata: String,
    pub strata_count: u64,
    /// The multiple-comparison adjustment and its families.
    pub adjustment: String,
    /// Which test decides which pairs (each pair's `test` names its own).
    pub tests: String,
    /// The cluster rule the reference run's items were joined by (`--cluster`), and the
    /// independent units among the shared items; absent when no item is in a named cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clusters: Option<Clusters>,
}

/// One figure (or one subset's accuracy) across the runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// Report path (`metrics.accuracy`), or `subsets.<name>.accuracy`.
    pub figure: String,
    pub higher_is_better: bool,
    /// Runs best first (by the point estimate; ties in the runs' given order).
    pub standings: Vec<Standing>,
    /// Every pair (A, B) in the runs' given order; deltas are A − B.
    pub pairs: Vec<PairDiff>,
    /// The run ranked first that differs from every other run after the adjustment.
    pub leader: Option<String>,
}

/// One run on one figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub run: String,
    pub value: f64,
    /// Percentile interval of the value (none when no resample defined it).
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    /// Rank of the point estimate.
    pub rank: u32,
    /// 1 + the number of runs that differ from this one (after the adjustment) and are better:
    /// runs that share it form a tie group that agrees with `differs`.
    pub tied_rank: u32,
    /// Median rank over the resamples, and the 2.5% and 97.5% points.
    pub rank_median: u32,
    pub rank_lo: u32,
    pub rank_hi: u32,
    /// Resamples in which the figure was undefined for this run (ranked last there).
    pub undefined: u32,
}

/// The difference of two runs on one figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairDiff {
    pub a: String,
    pub b: String,
    /// a − b at the point estimates.
    pub delta: f64,
    /// Paired percentile interval of the difference (none when no resample defined it).
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    /// The better of the two at the point estimates (none on a tie).
    pub better: Option<String>,
    /// `mcnemar` (0/1 accuracies), `paired-z` (other means of item values: the CLT standard
    /// error of the paired differences) or `bootstrap-z` (the rest: the bootstrap's standard
    /// error of the difference); see `paired_z`.
    pub test: String,
    /// The standard error of the difference the test used (for `mcnemar`, the CLT one, shown);
    /// none when it could not be estimated.
    pub se: Option<f64>,
    /// The smallest true difference a 95%-level test with this standard error detects with 80%
    /// power (before the multiple-comparison adjustment): (z_{0.975} + z_{0.80})·se.
    pub mde: Option<f64>,
    /// The shared items (of the same design) a true difference of `delta` would need for 80%
    /// power; none for no difference or no spread.
    pub items_needed: Option<u64>,
    pub p_value: f64,
    /// Holm-adjusted over the family.
    pub p_adjusted: f64,
    /// The adjusted p-value is at most 1 − level.
    pub differs: bool,
}

/// The leaderboard, drawing every resample here.
pub fn leaderboard(runs: &[Run], opts: &BootstrapOptions) -> Leaderboard {
    leaderboard_with(runs, opts, |j, o| {
        j.prepare_lanes();
        vec![j.draws(o, 0..o.resamples)]
    })
}

/// `leaderboard`, with the caller drawing the resamples: `draw` returns the replicates of every
/// resample `0..opts.resamples` in parts, in resample order.
pub fn leaderboard_with(
    runs: &[Run],
    opts: &BootstrapOptions,
    draw: impl Fn(&Joined, &BootstrapOptions) -> Vec<Replicates>,
) -> Leaderboard {
    leaderboard_of(Joined::new(runs), opts, draw)
}

/// `leaderboard_with` on runs the caller joined (`Joined::with_subsets` to rank more subsets).
pub fn leaderboard_of(
    joined: Joined,
    opts: &BootstrapOptions,
    draw: impl Fn(&Joined, &BootstrapOptions) -> Vec<Replicates>,
) -> Leaderboard {
    let runs: Vec<&Run> = joined.runs.clone();
    // The draws make the runs' lanes as they need them (`Joined::prepare_lanes` makes them on
    // every core first); a caller that drew them already on another join made them there.
    let parts = draw(&joined, opts);
    let mut values = Vec::new();
    for p in parts {
        values.extend(p.values);
    }
    let (figures, subsets, mut notes) = boards::boards(&joined, &values);
    notes.extend(profile_notes(&runs));
    if let Some(f) = &joined.only {
        notes.push(format!(
            "only what {f} needs is ranked (`--by`); leave out `--by` to rank every figure and subset"
        ));
    }
    if joined.subsets.len() < joined.subsets_total && !joined.subsets.is_empty() {
        notes.push(format!(
            "{} of {} subsets are ranked, the largest; `--subsets all` ranks every one",
            joined.subsets.len(),
            joined.subsets_total
        ));
    }
    let strata_count = joined.strata.len() as u64;
    Leaderboard {
        schema: SCHEMA.to_string(),
        runs: runs.iter().map(|r| RunSummary::of(r)).collect(),
        common: joined.common() as u64,
        not_shared: runs
            .iter()
            .zip(&joined.shared)
            .map(|(r, s)| {
                // In id order, as everything else here: the file's line order must not matter.
                let mut ids: Vec<&str> = (r.sample.ids().iter().zip(s))
                    .filter(|(_, &s)| !s)
                    .map(|(id, _)| id)
                    .collect();
                ids.sort_unstable();
                listed(&r.name, ids.into_iter())
            })
            .collect(),
        bootstrap: Settings {
            method: "paired percentile".to_string(),
            resamples: opts.resamples,
            seed: opts.seed,
            level: LEVEL,
            strata: runs
                .first()
                .map_or("none", |r| r.sample.strata().describe())
                .to_string(),
            strata_count,
            adjustment:
                "Holm, over all pairs of a figure; over all pairs of all subsets for subsets"
                    .to_string(),
            tests: TESTS.to_string(),
            clusters: joined.clusters(),
        },
        tie_rule: TIE_RULE.to_string(),
        figures,
        subsets,
        notes,
    }
}

fn profile_notes(runs: &[&Run]) -> Vec<String> {
    let Some(first) = runs.first() else {
        return Vec::new();
    };
    runs.iter()
        .skip(1)
        .filter(|r| r.report.profile != first.report.profile)
        .map(|r| {
            format!(
                "{} is scored under {} and {} under {}; only the figures both profiles have are ranked",
                first.name, first.report.profile, r.name, r.report.profile
            )
        })
        .collect()
}

impl Leaderboard {
    /// The leaderboard as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// `to_json` and a line break (the CLI's `--json`), written to `w` a piece at a time: the
    /// JSON of 50 runs is about 19 MB, which the browser's worker need not hold whole.
    pub fn write_json(&self, mut w: impl std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut w, self)?;
        w.write_all(b"\n")
    }

    /// The board of a figure (`metrics.accuracy`) or subset (`subsets.X.accuracy`).
    pub fn board(&self, figure: &str) -> Option<&Board> {
        self.figures
            .iter()
            .chain(&self.subsets)
            .find(|b| b.figure == figure)
    }
}
