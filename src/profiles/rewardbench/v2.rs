//! RewardBench 2 (SPEC §6): best-of-4 credit per subset, the Ties composite recomputed from the
//! scores and the `ref:`/`tied:` ids, and the overall as the unweighted mean of the six subsets.

use super::common::{list, subset_of, warn, Sources, Tally};
use super::figures;
use crate::items::{best_of_n_credit, Body, Item};
use crate::metrics::outcome::outcome;
use crate::metrics::pairwise::mean_in_order;
use crate::metrics::ties::{Ties, TiesKind};
use crate::profiles::{Context, Profile, Rules};
use crate::report::rewardbench::{SectionFigures, SubsetFigures};
use crate::report::Report;

pub static PROFILE: Profile = Profile {
    name: "rewardbench2",
    describe: "RewardBench 2: best-of-4 credit (1/k on a k-way tie at the top) per subset, the Ties composite from ref/tied prompt pairs, overall = mean of the six subsets",
    rules: || Box::<RewardBench2>::default(),
};

/// The six subsets, in the paper's (and the overall's summation) order.
pub const SUBSETS: [&str; 6] = [
    "Factuality",
    "Precise IF",
    "Math",
    "Safety",
    "Focus",
    "Ties",
];

/// The subset scored as a composite.
pub const TIES: &str = "Ties";

#[derive(Debug, Default)]
struct RewardBench2 {
    tally: Tally,
    ties: Ties,
    /// Ties rows whose id is not `ref:N` / `tied:N`, the first few named.
    bad_ids: (u64, Vec<String>),
    /// Ties rows with a judge's verdict and no scores: no margins, so outside the composite.
    judged_ties: u64,
    /// Non-Ties rows with more than one correct candidate (credited on the first, as the official code).
    several_correct: u64,
}

impl Rules for RewardBench2 {
    fn admit(&mut self, item: &mut Item) -> bool {
        let ok = matches!(item.body, Body::BestOfN { .. } | Body::Graded { .. });
        if !ok {
            self.tally.exclude(item);
        }
        ok
    }

    fn update(&mut self, item: &Item) {
        let subset = subset_of(item);
        let is_ties = subset.eq_ignore_ascii_case(TIES);
        let credit = match &item.body {
            Body::BestOfN {
                scores,
                num_correct,
            } => {
                if is_ties {
                    match TiesKind::parse_id(&item.id) {
                        Some((kind, n)) => self.ties.add(kind, n, scores, *num_correct),
                        None => {
                            self.bad_ids.0 += 1;
                            if self.bad_ids.1.len() < 5 {
                                self.bad_ids.1.push(item.id.to_string());
                            }
                        }
                    }
                } else if *num_correct != 1 {
                    self.several_correct += 1;
                }
                best_of_n_credit(scores)
            }
            _ => {
                self.judged_ties += u64::from(is_ties);
                outcome(item).credit
            }
        };
        self.tally
            .add(if is_ties { TIES } else { subset }, item, credit);
    }

    fn finish(&self, ctx: &Context, report: &mut Report) {
        let sources = Sources::take(report, ctx, &self.tally);
        let mut notes = Vec::new();
        let ties = (!self.ties.is_empty()).then(|| self.ties.finish());
        let mut subsets: Vec<SubsetFigures> = Vec::new();
        let mut missing = Vec::new();
        for name in SUBSETS {
            let Some(mut f) = sources.subset(name, Some(name), None, &mut notes) else {
                missing.push(name.to_string());
                continue;
            };
            if name == TIES && sources.has_items(TIES) {
                // The rows' own credit means nothing here (FORMATS.md §7.4): the composite replaces it.
                f.credit = None;
                f.score = ties.as_ref().and_then(|t| t.score);
                f.length_baseline = None;
                notes.push(
                    "Ties is the composite of its prompt pairs; the Ties entry of `groups` only averages each row's best-of credit"
                        .to_string(),
                );
                if f.score.is_none() {
                    warn(report, "Ties is null: no ref:N / tied:N prompt pair whose tied prompt has two or more correct answers".to_string());
                }
            }
            subsets.push(f);
        }
        let scores: Option<Vec<f64>> = SUBSETS
            .iter()
            .map(|n| subsets.iter().find(|f| f.name == *n).and_then(|f| f.score))
            .collect();
        let overall = scores.and_then(mean_in_order);
        if overall.is_none() {
            let null: Vec<String> = subsets
                .iter()
                .filter(|f| f.score.is_none())
                .map(|f| f.name.clone())
                .chain(missing.iter().cloned())
                .collect();
            warn(report, format!(
                "the RewardBench 2 overall needs all six subsets; it is null because {} has no figure",
                list(&null)
            ));
        }
        let sections: Vec<SectionFigures> = subsets
            .iter()
            .map(|f| SectionFigures {
                name: f.name.clone(),
                score: f.score,
                items: f.items,
                subsets: vec![f.name.clone()],
                missing: Vec::new(),
                length_baseline: f.length_baseline,
            })
            .collect();
        let unknown: Vec<String> = sources
            .names()
            .into_iter()
            .filter(|n| !SUBSETS.contains(&n.as_str()))
            .collect();
        for name in &unknown {
            subsets.extend(sources.subset(name, None, None, &mut notes));
        }
        if !unknown.is_empty() {
            notes.push(format!(
                "subsets outside RewardBench 2's six are listed but left out of the overall: {}",
                list(&unknown)
            ));
        }
        self.notes(&mut notes, ties.as_ref().map_or(0, |t| t.single_correct));
        self.tally.notes("RewardBench 2", report);
        report.notes.extend(notes);
        let margins = self.tally.margins.finish();
        let mut figures = figures(
            "rewardbench2",
            sections,
            subsets,
            unknown,
            overall,
            None,
            margins,
            self.tally.judged,
        );
        figures.ties = ties;
        report.rewardbench = Some(figures);
    }
}

impl RewardBench2 {
    fn notes(&self, notes: &mut Vec<String>, single_correct: u64) {
        let (bad, ids) = &self.bad_ids;
        if *bad > 0 {
            notes.push(format!(
                "{bad} Ties rows have ids other than ref:N / tied:N ({}); they are left out of the Ties score",
                list(ids)
            ));
        }
        if self.judged_ties > 0 {
            notes.push(format!(
                "{} Ties rows carry only a judge's verdict, no scores; the Ties composite needs scores, so they are left out of it",
                self.judged_ties
            ));
        }
        if single_correct > 0 {
            notes.push(format!(
                "{single_correct} tied prompts have a single correct answer (no spread among correct answers); they are left out of the Ties margin terms"
            ));
        }
        if self.several_correct > 0 {
            notes.push(format!(
                "{} non-Ties rows have several correct candidates; as in the official code only the first one's rank earns credit",
                self.several_correct
            ));
        }
        if self.tally.judged > 0 {
            notes.push(format!(
                "{} items are a generative judge's verdicts: `results` is their credit",
                self.tally.judged
            ));
        }
    }
}
