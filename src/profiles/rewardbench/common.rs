//! What the RewardBench v1 and v2 profiles share: per-subset credit and margins gathered from the
//! items, the figures the tool's own aggregate files reported, and the length baseline the readers
//! measured, resolved into one figure per subset.

use crate::formats::rewardbench::aggregate::SOURCE as TOOL_SOURCE;
use crate::items::{Body, Item};
use crate::metrics::accuracy::AccuracyFigures;
use crate::metrics::groups::NO_GROUP;
use crate::metrics::outcome::Outcome;
use crate::metrics::pairwise::{longer_wins, longest_wins, margin, Margins};
use crate::metrics::Groups;
use crate::profiles::Context;
use crate::report::rewardbench::SubsetFigures;
use crate::report::Report;
use crate::warning::Warning;
use std::collections::BTreeMap;

/// The accumulators both profiles keep.
#[derive(Debug, Default)]
pub struct Tally {
    /// Credit per subset, added in item order (the official `sum(results) / n`).
    pub subsets: Groups,
    pub margins: Margins,
    /// Items credited from a judge's verdict.
    pub judged: u64,
    /// Items of other types, kept out, by type name.
    pub excluded: BTreeMap<&'static str, u64>,
}

impl Tally {
    /// Counts an item the profile keeps out.
    pub fn exclude(&mut self, item: &Item) {
        *self.excluded.entry(item.type_name()).or_default() += 1;
    }

    /// Adds an item with its credit under `subset`; its margin, when it has one, too.
    pub fn add(&mut self, subset: &str, item: &Item, credit: f64) {
        let o = Outcome {
            credit,
            chance: None,
            valid: true,
        };
        self.subsets.add(Some(subset), &o);
        if matches!(item.body, Body::Graded { .. }) {
            self.judged += 1;
        }
        if let Some(m) = margin(item) {
            self.margins.add(subset, &item.id, item.line, m);
        }
    }

    /// Notes on the items kept out.
    pub fn notes(&self, profile: &str, report: &mut Report) {
        for (kind, n) in &self.excluded {
            report.notes.push(format!(
                "{n} `{kind}` items are not {profile} items and are left out of its figures"
            ));
        }
    }
}

/// The subset of an item: its group, or `(none)`.
pub fn subset_of(item: &Item) -> &str {
    item.group.as_deref().unwrap_or(NO_GROUP)
}

/// Everything a subset's figure may come from, gathered once at the end of the run.
pub struct Sources<'t> {
    computed: BTreeMap<String, AccuracyFigures>,
    reported: BTreeMap<String, f64>,
    length: BTreeMap<String, f64>,
    tally: &'t Tally,
}

impl<'t> Sources<'t> {
    /// Gathers the sources: the tool's own subset figures from `report.reported`, and the length
    /// baseline from the response lengths the readers measured.
    pub fn take(report: &Report, ctx: &Context, tally: &'t Tally) -> Self {
        let mut reported = BTreeMap::new();
        for r in &report.reported {
            if r.source == TOOL_SOURCE && r.name == "accuracy" && !r.scope.is_empty() {
                reported.entry(r.scope.clone()).or_insert(r.value);
            }
        }
        let length = length_sums(ctx)
            .into_iter()
            .filter(|(_, (_, n))| *n > 0.0)
            .map(|(k, (c, n))| (k, c / n))
            .collect();
        Sources {
            computed: tally.subsets.finish().into_iter().collect(),
            reported,
            length,
            tally,
        }
    }

    /// The subset's figure: from this run's items when it has any, else from an aggregate file;
    /// `None` when neither has it. A disagreement between the two is noted.
    pub fn subset(
        &self,
        name: &str,
        section: Option<&str>,
        weight: Option<f64>,
        notes: &mut Vec<String>,
    ) -> Option<SubsetFigures> {
        let (items, credit, score, source) = match (
            self.computed.get(name),
            self.reported.get(name),
        ) {
            (Some(c), reported) => {
                if let (Some(ours), Some(&theirs)) = (c.accuracy, reported) {
                    if ours != theirs {
                        notes.push(format!(
                            "{name}: recomputed {ours} from the items; the aggregate file says {theirs}"
                        ));
                    }
                }
                (c.items, Some(c.correct), c.accuracy, "items")
            }
            (None, Some(&r)) => (0, None, Some(r), "reported"),
            (None, None) => return None,
        };
        Some(SubsetFigures {
            name: name.to_string(),
            section: section.map(str::to_string),
            weight,
            items,
            credit,
            score,
            source: source.to_string(),
            ties: self.tally.margins.ties(name),
            length_baseline: self.length.get(name).copied(),
            worst: self.tally.margins.worst(name).to_vec(),
        })
    }

    /// Every subset name seen, in name order.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.computed.keys().cloned().collect();
        names.extend(
            self.reported
                .keys()
                .filter(|k| !self.computed.contains_key(*k))
                .cloned(),
        );
        names.sort();
        names
    }

    /// Whether a subset has items in this run (so that, say, Ties can replace their credit).
    pub fn has_items(&self, name: &str) -> bool {
        self.computed.contains_key(name)
    }
}

/// "The longer response wins" per subset: credit and rows, summed per file in row order, then
/// over the files in run order. Ties prompts are left out: their score is not a per-row credit.
fn length_sums(ctx: &Context) -> BTreeMap<String, (f64, f64)> {
    let mut per_file: BTreeMap<(usize, &str), (f64, u64)> = BTreeMap::new();
    for (file, t) in &ctx.texts {
        let credit = match (t.best_of_n, t.lengths.as_slice()) {
            (true, _) if t.group.eq_ignore_ascii_case("ties") => continue,
            (true, lengths) => longest_wins(lengths),
            (false, &[chosen, rejected]) => longer_wins(chosen, rejected),
            (false, _) => continue,
        };
        let e = per_file.entry((*file, t.group.as_str())).or_default();
        e.0 += credit;
        e.1 += 1;
    }
    let mut sums: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for ((_, group), (credit, rows)) in per_file {
        let e = sums.entry(group.to_string()).or_default();
        e.0 += credit;
        e.1 += rows as f64;
    }
    sums
}

/// A run-level warning raised by a profile (it belongs to no file or line).
pub fn warn(report: &mut Report, reason: String) {
    report.warnings.push(Warning::new("", None, reason));
}

/// Formats a list of names for a message.
pub fn list(names: &[String]) -> String {
    names.join(", ")
}
