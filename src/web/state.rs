//! The page's state: the runs dropped so far and the view choices shared by every panel.
//!
//! Everything here is plain data in signals; file handles live with the worker client.

use super::protocol::{Named, RankedView, Scored, Text};
use crate::report::intervals::BootstrapIntervals;
use crate::Warning;
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// Which reading of the probabilities the figures and the diagram show (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    Conditioning,
    Mixing,
    Both,
}

/// Which bins the reliability diagram draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binning {
    EqualWidth,
    EqualMass,
}

/// Which 95% interval the reliability diagram's whiskers draw per bin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whiskers {
    /// Wilson score (SPEC §8, the report's `ci_lo`/`ci_hi`).
    Wilson,
    /// Clopper–Pearson, exact (`cp_lo`/`cp_hi`): for tiny or all-correct bins.
    ClopperPearson,
}

/// Where a run is.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Sent to the worker, nothing read yet.
    Waiting,
    Reading {
        file: String,
        done: f64,
        total: f64,
    },
    Scored(Arc<Scored>),
    Failed {
        error: String,
        warnings: Arc<Vec<Warning>>,
    },
    Cancelled,
}

/// A scored run's bootstrap intervals, which the worker computes after the report is on screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Boot {
    /// Resamples drawn so far.
    Computing { done: u32, total: u32 },
    /// The intervals, and the report JSON and HTML with them (`report.intervals.bootstrap`).
    Done {
        bootstrap: Arc<BootstrapIntervals>,
        json: Text,
        html: Text,
    },
    /// Not computed in the browser, and why.
    Skipped(String),
}

/// One scoring run: one file, or several read together.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub id: u32,
    /// The file names, joined.
    pub label: String,
    pub files: usize,
    /// The profile the user chose; `None` lets the file decide.
    pub profile: Option<String>,
    /// The cluster rule the user chose (`--cluster`'s names); `None` lets the file decide.
    pub cluster: Option<String>,
    pub status: Status,
}

impl Run {
    pub fn scored(&self) -> Option<&Arc<Scored>> {
        match &self.status {
            Status::Scored(s) => Some(s),
            _ => None,
        }
    }

    /// The name a column or a tab shows: the model when the file names one, else the files.
    pub fn title(&self) -> String {
        self.scored()
            .and_then(|s| s.report.model.clone())
            .unwrap_or_else(|| self.label.clone())
    }
}

/// Names for a list of runs that tell them apart: the title, and the files too where two runs
/// would otherwise share one (two files of the same model).
pub fn titles(runs: &[Run]) -> Vec<String> {
    let plain: Vec<String> = runs.iter().map(Run::title).collect();
    plain
        .iter()
        .zip(runs)
        .map(|(t, r)| {
            if plain.iter().filter(|x| *x == t).count() > 1 && *t != r.label {
                format!("{t} · {}", r.label)
            } else {
                t.clone()
            }
        })
        .collect()
}

/// Where the comparison of the scored runs is (drawn in the worker, shown by src/web/deltas.rs).
#[derive(Debug, Clone, PartialEq)]
pub enum Compared {
    /// Paired resamples drawn so far, of all pairs'.
    Running {
        done: u32,
        total: u32,
    },
    /// The comparison, its JSON as `scorelens compare --json` prints it and its HTML as
    /// `compare --format html` writes it.
    Done {
        comparison: Arc<crate::Comparison>,
        json: Arc<str>,
        html: Arc<str>,
        /// Each pair's differences and McNemar's test as CSV and Markdown.
        csv: Text,
        md: Text,
    },
    Failed(String),
    Stopped,
}

/// Scored runs of one benchmark from which the leaderboard opens (and the comparison waits for a
/// pair picked in it).
pub const LEADERBOARD_RUNS: usize = 4;

/// Where the leaderboard is (drawn in the worker, shown by src/web/leaderboard.rs).
#[derive(Debug, Clone, PartialEq)]
pub enum Ranked {
    /// Paired resamples drawn so far.
    Running {
        done: u32,
        total: u32,
    },
    /// One figure's view and exports.
    Done(Arc<RankedView>),
    Failed(String),
}

/// The view choices every panel follows: which reading of the probabilities, which bins, which
/// whiskers. A context of its own, provided by the app and by the widget, so that the components
/// the widget reuses need nothing else of the app's state.
#[derive(Clone, Copy)]
pub struct Toggles {
    pub reading: RwSignal<Reading>,
    pub binning: RwSignal<Binning>,
    pub whiskers: RwSignal<Whiskers>,
}

impl Default for Toggles {
    fn default() -> Self {
        Toggles {
            reading: RwSignal::new(Reading::Conditioning),
            binning: RwSignal::new(Binning::EqualWidth),
            whiskers: RwSignal::new(Whiskers::Wilson),
        }
    }
}

/// The toggles the app or the widget provides.
pub fn use_toggles() -> Toggles {
    expect_context::<Toggles>()
}

/// The app's runs and what the worker is doing for them, provided as context by the app.
#[derive(Clone, Copy)]
pub struct AppState {
    pub runs: RwSignal<Vec<Run>>,
    /// The run whose report is shown.
    pub active: RwSignal<Option<u32>>,
    /// How the last drop's files were grouped into runs (src/web/grouping.rs).
    pub grouping: RwSignal<Option<super::grouping::Grouped>>,
    pub profiles: RwSignal<Vec<Named>>,
    pub formats: RwSignal<Vec<Named>>,
    /// The explorer's group filter, set from the groups table.
    pub group_filter: RwSignal<Option<String>>,
    /// The latest page of items from the worker: (run, seq, page).
    pub items: RwSignal<Option<(u32, u32, Arc<crate::explore::Page>)>>,
    /// The latest comparison asked of the worker: (seq, runs compared, where it is).
    pub compared: RwSignal<Option<(u32, Vec<u32>, Compared)>>,
    /// The latest leaderboard asked of the worker: (seq, runs ranked, where it is).
    pub ranked: RwSignal<Option<(u32, Vec<u32>, Ranked)>>,
    /// Two runs picked in the leaderboard for the comparison.
    pub chosen: RwSignal<Option<Vec<u32>>>,
    /// Each scored run's bootstrap intervals, by run id (src/bin/worker/intervals.rs makes them).
    pub intervals: RwSignal<HashMap<u32, Boot>>,
    /// Runs closed while the worker may still be working on them, until it says `Stopped`.
    pub closing: RwSignal<Vec<u32>>,
    /// A comparison stopped, until the worker says `CompareStopped`.
    pub stopping: RwSignal<Option<u32>>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            runs: RwSignal::new(Vec::new()),
            active: RwSignal::new(None),
            grouping: RwSignal::new(None),
            profiles: RwSignal::new(Vec::new()),
            formats: RwSignal::new(Vec::new()),
            group_filter: RwSignal::new(None),
            items: RwSignal::new(None),
            compared: RwSignal::new(None),
            ranked: RwSignal::new(None),
            chosen: RwSignal::new(None),
            intervals: RwSignal::new(HashMap::new()),
            closing: RwSignal::new(Vec::new()),
            stopping: RwSignal::new(None),
        }
    }
}

impl AppState {
    /// Where the page is, for `data-status` on `<main>` (what tests wait for instead of a fixed
    /// time): `reading` while the worker has work under way for it (a run read, intervals or a
    /// comparison computed, a closed run or a stopped comparison not yet ended), then `error` when
    /// the run shown failed, `done` with runs, `idle` with none.
    pub fn status(&self) -> &'static str {
        let reading = self.runs.with(|runs| {
            runs.iter()
                .any(|r| matches!(r.status, Status::Waiting | Status::Reading { .. }))
        }) || self
            .intervals
            .with(|m| m.values().any(|b| matches!(b, Boot::Computing { .. })))
            || self
                .compared
                .with(|c| matches!(c, Some((_, _, Compared::Running { .. }))))
            || self
                .ranked
                .with(|c| matches!(c, Some((_, _, Ranked::Running { .. }))))
            || self.closing.with(|c| !c.is_empty())
            || self.stopping.with(Option::is_some);
        let failed = || {
            let active = self.active.get();
            self.runs.with(|runs| {
                runs.iter()
                    .any(|r| Some(r.id) == active && matches!(r.status, Status::Failed { .. }))
            })
        };
        if reading {
            "reading"
        } else if failed() {
            "error"
        } else if self.runs.with(|r| r.is_empty()) {
            "idle"
        } else {
            "done"
        }
    }

    /// The scored runs the leaderboard ranks: those of the profile most of them were scored
    /// under (the first such on a tie), in tab order.
    pub fn ranked_runs(&self) -> Vec<Run> {
        self.runs.with(|runs| {
            let profile = |r: &Run| r.scored().map(|s| s.report.profile.clone());
            let mut best: (usize, Option<String>) = (0, None);
            for r in runs.iter().filter(|r| r.scored().is_some()) {
                let n = runs.iter().filter(|x| profile(x) == profile(r)).count();
                if n > best.0 {
                    best = (n, profile(r));
                }
            }
            runs.iter()
                .filter(|r| r.scored().is_some() && profile(r) == best.1)
                .cloned()
                .collect()
        })
    }

    /// The runs the comparison shows: the two picked in the leaderboard, else every scored run
    /// while there are too few for a leaderboard (with more, comparing every pair is left to the
    /// leaderboard).
    pub fn to_compare(&self) -> Vec<Run> {
        let scored: Vec<Run> = self.runs.with(|runs| {
            runs.iter()
                .filter(|r| r.scored().is_some())
                .cloned()
                .collect()
        });
        if let Some(pick) = self.chosen.get() {
            let picked: Vec<Run> = pick
                .iter()
                .filter_map(|id| scored.iter().find(|r| r.id == *id).cloned())
                .collect();
            if picked.len() == 2 {
                return picked;
            }
        }
        if self.ranked_runs().len() >= LEADERBOARD_RUNS {
            Vec::new()
        } else {
            scored
        }
    }

    /// Changes one run in place.
    pub fn update_run(&self, id: u32, f: impl FnOnce(&mut Run)) {
        self.runs.update(|runs| {
            if let Some(r) = runs.iter_mut().find(|r| r.id == id) {
                f(r);
            }
        });
    }

    pub fn run(&self, id: u32) -> Option<Run> {
        self.runs
            .with(|runs| runs.iter().find(|r| r.id == id).cloned())
    }
}

pub fn use_state() -> AppState {
    expect_context::<AppState>()
}
