//! Paired comparison of runs over the same benchmark: do two models really differ?
//!
//! Runs are joined on item id. For each pair the headline figures are recomputed on the items both
//! runs have, and the difference A − B gets a paired bootstrap interval: every resample draws the
//! shared items once (stratified as the first run's profile says) and weighs both runs with the
//! same draw, so what the models have in common cancels. Accuracy also gets McNemar's exact test.
//! Items present in only one file are listed, never silently dropped.
//!
//! The CLI (`scorelens compare`) and the browser's comparison view both call `compare`.

use crate::metrics::bootstrap::{interval, BootstrapOptions, Resampler, Sample, LEVEL};
use crate::metrics::mcnemar::McNemar;
use crate::{Error, Input, Options, Report, Session};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

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

/// Scores `inputs` as one run and keeps its sample for `compare`.
pub fn score_run(name: &str, inputs: &[Input], opts: &Options) -> Result<Run, Error> {
    let mut session = Session::new(opts)?;
    session.keep_sample();
    for input in inputs {
        session.read(input.name, input.bytes);
    }
    let finished = session.finish_sampled()?;
    let report = finished.report;
    let profile = report.profile.clone();
    let sample = finished
        .sample
        .unwrap_or_else(|| crate::profiles::resampling::sample_for(profile_of(&profile)));
    Ok(Run {
        name: name.to_string(),
        report,
        sample,
    })
}

fn profile_of(name: &str) -> &'static crate::profiles::Profile {
    crate::profiles::Profile::parse(name).unwrap_or_else(crate::profiles::Profile::generic)
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
    /// McNemar's exact test on the items' correctness.
    pub mcnemar: McNemar,
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
}

/// Compares every pair of runs.
pub fn compare(runs: &[Run], opts: &BootstrapOptions) -> Comparison {
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
            pairs.push(pair(a, b, opts));
        }
    }
    Comparison {
        schema: SCHEMA.to_string(),
        runs: runs
            .iter()
            .map(|r| RunSummary {
                name: r.name.clone(),
                model: r.report.model.clone(),
                profile: r.report.profile.clone(),
                items: r.report.items,
            })
            .collect(),
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
        for id in r.sample.ids() {
            *seen.entry(id).or_default() += 1;
        }
    }
    runs.iter()
        .map(|r| {
            let alone = r
                .sample
                .ids()
                .iter()
                .filter(|id| seen.get(&***id) == Some(&1));
            listed(&r.name, alone)
        })
        .collect()
}

fn listed<'a>(run: &str, ids: impl Iterator<Item = &'a Box<str>>) -> OnlyIn {
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

/// The comparison of A and B on their common items.
fn pair(a: &Run, b: &Run, opts: &BootstrapOptions) -> Pair {
    let (sa, sb) = (&a.sample, &b.sample);
    let b_index: HashMap<&str, usize> = sb
        .ids()
        .iter()
        .enumerate()
        .map(|(j, id)| (&**id, j))
        .collect();
    // For each item of A, its index in B; for each item of B, whether A has it.
    let a_to_b: Vec<Option<usize>> = sa
        .ids()
        .iter()
        .map(|id| b_index.get(&**id).copied())
        .collect();
    let mut in_a = vec![false; sb.len()];
    for j in a_to_b.iter().flatten() {
        if let Some(x) = in_a.get_mut(*j) {
            *x = true;
        }
    }
    let common = a_to_b.iter().filter(|j| j.is_some()).count() as u64;
    let shared = |i: usize| a_to_b.get(i).is_some_and(Option::is_some);
    let only_a = listed(
        &a.name,
        sa.ids()
            .iter()
            .enumerate()
            .filter(|(i, _)| !shared(*i))
            .map(|(_, id)| id),
    );
    let only_b = listed(
        &b.name,
        sb.ids()
            .iter()
            .enumerate()
            .filter(|(j, _)| !in_a.get(*j).copied().unwrap_or(false))
            .map(|(_, id)| id),
    );

    // Figures both runs name, as (index in A's list, index in B's list).
    let (names_a, names_b) = (sa.names(), sb.names());
    let both: Vec<(String, usize, usize)> = names_a
        .iter()
        .enumerate()
        .filter_map(|(ka, n)| Some((n.clone(), ka, names_b.iter().position(|m| m == n)?)))
        .collect();

    // B's weights follow A's: item j of B weighs what its twin in A weighs.
    let mirror = |wa: &[u32], wb: &mut Vec<u32>| {
        wb.clear();
        wb.resize(sb.len(), 0);
        for (i, j) in a_to_b.iter().enumerate() {
            if let (Some(j), Some(&w)) = (j, wa.get(i)) {
                if let Some(slot) = wb.get_mut(*j) {
                    *slot = w;
                }
            }
        }
    };
    let (mut wa, mut wb) = (Vec::new(), Vec::new());
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    let ones = vec![1u32; sa.design().units()];
    sa.weights(&ones, shared, &mut wa);
    mirror(&wa, &mut wb);
    sa.figures(&wa, &mut fa);
    sb.figures(&wb, &mut fb);
    let point: Vec<Option<(f64, f64)>> = both
        .iter()
        .map(|(_, ka, kb)| Some((fa.get(*ka).copied()??, fb.get(*kb).copied()??)))
        .collect();

    let strata = sa.design().strata_units(shared);
    let strata_count = strata.len() as u64;
    let mut draws = Resampler::new(strata, sa.design().units(), opts.seed);
    let mut deltas: Vec<Vec<f64>> = vec![Vec::new(); both.len()];
    let mut undefined = vec![0u32; both.len()];
    if common > 0 {
        for r in 0..opts.resamples {
            let counts = draws.draw(r);
            sa.weights(counts, shared, &mut wa);
            mirror(&wa, &mut wb);
            sa.figures(&wa, &mut fa);
            sb.figures(&wb, &mut fb);
            for (k, (_, ka, kb)) in both.iter().enumerate() {
                match (
                    fa.get(*ka).copied().flatten(),
                    fb.get(*kb).copied().flatten(),
                ) {
                    (Some(x), Some(y)) => deltas.get_mut(k).into_iter().for_each(|d| d.push(x - y)),
                    _ => undefined.get_mut(k).into_iter().for_each(|u| *u += 1),
                }
            }
        }
    }
    let mut figures = Vec::new();
    for (k, (name, _, _)) in both.into_iter().enumerate() {
        let Some(Some((x, y))) = point.get(k).copied() else {
            continue;
        };
        let list = deltas.get_mut(k).map(std::mem::take).unwrap_or_default();
        let u = undefined.get(k).copied().unwrap_or(0);
        let Some(f) = interval(x - y, list, u) else {
            continue;
        };
        figures.push(Delta {
            figure: name,
            a: x,
            b: y,
            delta: x - y,
            lo: f.lo,
            hi: f.hi,
            se: f.se,
            undefined: u,
            distinguishable: f.lo > 0.0 || f.hi < 0.0,
        });
    }
    let mut mcnemar = McNemar::default();
    for (i, j) in a_to_b.iter().enumerate() {
        if let (Some(j), Some(&x)) = (j, sa.credits().get(i)) {
            if let Some(&y) = sb.credits().get(*j) {
                mcnemar.add(x, y);
            }
        }
    }
    Pair {
        a: a.name.clone(),
        b: b.name.clone(),
        common,
        only_a,
        only_b,
        strata: sa.strata().describe().to_string(),
        strata_count,
        figures,
        mcnemar: mcnemar.finish(),
    }
}

impl Comparison {
    /// The comparison as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
