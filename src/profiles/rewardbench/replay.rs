//! The bootstrap's replay of RewardBench's sections and overall (v1 and v2).
//!
//! Per item it keeps the subset and the credit; per RewardBench 2 Ties row its prompt and scores.
//! Which subsets a section sums, with which weights, and which subsets came from an aggregate file
//! (constants here: there are no items to resample) are read off the point report at `seal`, so the
//! replay follows the profile's own choices. Sections are summed in the official order with the
//! same helpers, so all weights 1 gives the report's numbers to the bit.

use super::common::subset_of;
use super::v2::TIES;
use super::{overall_of, overall_with_prior_of};
use crate::items::{Body, Item};
use crate::metrics::accuracy::Accuracy;
use crate::metrics::bootstrap::Replay;
use crate::metrics::outcome::{outcome, Outcome};
use crate::metrics::pairwise::{mean_in_order, weighted_mean_in_order};
use crate::metrics::ties::{Ties, TiesKind};
use crate::report::Report;
use std::any::Any;
use std::collections::{BTreeMap, HashMap};

/// One Ties row: its prompt and candidates.
#[derive(Debug, Clone)]
struct TiesRow {
    item: u32,
    kind: TiesKind,
    scores: Vec<f64>,
    num_correct: usize,
}

/// Where a subset's score comes from in a resample.
#[derive(Debug, Clone)]
enum Source {
    /// Its items' mean credit (slot in `RewardBenchReplay::slots`).
    Items(usize),
    /// RewardBench 2's Ties composite, from the Ties rows.
    TiesComposite,
    /// A figure from an aggregate file: fixed.
    Fixed(Option<f64>),
}

/// One section: its subsets, in summation order, with their weights.
#[derive(Debug, Clone)]
struct Section {
    name: String,
    subsets: Vec<(Source, Option<f64>)>,
    /// Weighted (v1's four sections) or plain mean (Prior Sets, v2's single-subset sections).
    weighted: bool,
}

/// Compact RewardBench records.
#[derive(Debug, Clone, Default)]
pub struct RewardBenchReplay {
    /// v2 (Ties composite, overall = mean of six) rather than v1.
    v2: bool,
    items: u32,
    /// Per item: subset slot and outcome.
    credit: Vec<(u32, Outcome)>,
    slots: HashMap<String, u32>,
    /// Ties rows by prompt number, ascending (the order the composite sums in).
    ties: BTreeMap<u64, Vec<TiesRow>>,
    sections: Vec<Section>,
}

impl RewardBenchReplay {
    pub fn v1() -> Self {
        RewardBenchReplay::default()
    }

    pub fn v2() -> Self {
        RewardBenchReplay {
            v2: true,
            ..RewardBenchReplay::default()
        }
    }
}

/// The Ties prompt of a RewardBench 2 row, if it is one (the resampling unit of the composite).
pub fn ties_prompt(item: &Item) -> Option<(TiesKind, u64)> {
    if !subset_of(item).eq_ignore_ascii_case(TIES) {
        return None;
    }
    match &item.body {
        Body::BestOfN { .. } => TiesKind::parse_id(&item.id),
        _ => None,
    }
}

/// Both halves of a Ties prompt pair are drawn together.
pub fn ties_cluster(item: &Item) -> Option<String> {
    ties_prompt(item).map(|(_, n)| format!("ties:{n}"))
}

impl Replay for RewardBenchReplay {
    fn push(&mut self, item: &Item) {
        let i = self.items;
        self.items += 1;
        let subset = subset_of(item);
        let subset = if self.v2 && subset.eq_ignore_ascii_case(TIES) {
            TIES
        } else {
            subset
        };
        let next = self.slots.len() as u32;
        let slot = match self.slots.get(subset) {
            Some(&s) => s,
            None => *self.slots.entry(subset.to_string()).or_insert(next),
        };
        let o = Outcome {
            credit: outcome(item).credit,
            chance: None,
            valid: true,
        };
        self.credit.push((slot, o));
        if !self.v2 {
            return;
        }
        if let (
            Some((kind, n)),
            Body::BestOfN {
                scores,
                num_correct,
            },
        ) = (ties_prompt(item), &item.body)
        {
            self.ties.entry(n).or_default().push(TiesRow {
                item: i,
                kind,
                scores: scores.clone(),
                num_correct: *num_correct,
            });
        }
    }

    fn seal(&mut self, point: &dyn Any) {
        let Some(rb) = point
            .downcast_ref::<Report>()
            .and_then(|r| r.rewardbench.as_ref())
        else {
            return;
        };
        let composite = self.v2 && rb.ties.is_some();
        let source = |name: &str| -> (Source, Option<f64>) {
            let detail = rb.subset_details.iter().find(|s| s.name == name);
            let weight = detail.and_then(|d| d.weight);
            let from_items = detail.is_some_and(|d| d.source == "items");
            let src = match self.slots.get(name) {
                _ if name == TIES && composite => Source::TiesComposite,
                Some(&slot) if from_items => Source::Items(slot as usize),
                _ => Source::Fixed(detail.and_then(|d| d.score)),
            };
            (src, weight)
        };
        self.sections = rb
            .section_details
            .iter()
            .map(|s| {
                let subsets: Vec<(Source, Option<f64>)> =
                    s.subsets.iter().map(|n| source(n)).collect();
                let weighted = !self.v2 && subsets.iter().all(|(_, w)| w.is_some());
                Section {
                    name: s.name.clone(),
                    subsets,
                    weighted,
                }
            })
            .collect();
    }

    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .sections
            .iter()
            .map(|s| format!("rewardbench.sections.{}", s.name))
            .collect();
        names.push("rewardbench.overall".to_string());
        if self.with_prior() {
            names.push("rewardbench.overall_with_prior_sets".to_string());
        }
        names
    }

    fn figures(&self, weights: &[u32], out: &mut Vec<Option<f64>>) {
        let w = |i: u32| weights.get(i as usize).copied().unwrap_or(0);
        let mut subsets = vec![Accuracy::default(); self.slots.len()];
        for (i, (slot, o)) in self.credit.iter().enumerate() {
            if let Some(acc) = subsets.get_mut(*slot as usize) {
                for _ in 0..w(i as u32) {
                    acc.add(o);
                }
            }
        }
        let ties = self.ties_score(&w);
        let score = |src: &Source| match src {
            Source::Items(slot) => subsets.get(*slot).and_then(|a| a.finish().accuracy),
            Source::TiesComposite => ties,
            Source::Fixed(v) => *v,
        };
        let sections: Vec<Option<f64>> = self
            .sections
            .iter()
            .map(|s| {
                let present = s
                    .subsets
                    .iter()
                    .filter_map(|(src, w)| Some((score(src)?, *w)));
                if s.weighted {
                    weighted_mean_in_order(present.filter_map(|(v, w)| Some((v, w?))))
                } else {
                    mean_in_order(present.map(|(v, _)| v))
                }
            })
            .collect();
        out.extend(sections.iter().copied());
        out.push(self.overall(&sections));
        if self.with_prior() {
            out.push(overall_with_prior_of(&sections));
        }
    }
}

impl RewardBenchReplay {
    /// The Ties composite with each prompt pair counted as often as it was drawn: copies get fresh
    /// prompt numbers, in ascending order of the original ones, so all weights 1 is the point.
    fn ties_score(&self, w: &impl Fn(u32) -> u32) -> Option<f64> {
        if self.ties.is_empty() {
            return None;
        }
        let mut ties = Ties::default();
        let mut fresh = 0u64;
        for rows in self.ties.values() {
            let copies = rows.iter().map(|r| w(r.item)).max().unwrap_or(0);
            for j in 0..copies {
                for r in rows.iter().filter(|r| j < w(r.item)) {
                    ties.add(r.kind, fresh + u64::from(j), &r.scores, r.num_correct);
                }
            }
            fresh += u64::from(copies);
        }
        ties.finish().score
    }

    /// v1: (C + CH + S + R) / 4, with or without Prior Sets; v2: the mean of the six subsets.
    /// Null when a section is.
    fn overall(&self, sections: &[Option<f64>]) -> Option<f64> {
        if self.v2 {
            let all: Vec<f64> = sections.iter().copied().collect::<Option<_>>()?;
            return (all.len() == 6).then(|| mean_in_order(all)).flatten();
        }
        overall_of(sections)
    }

    /// v1 with a fifth section, Prior Sets.
    fn with_prior(&self) -> bool {
        !self.v2 && self.sections.len() == 5
    }
}
