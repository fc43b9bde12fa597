//! RewardBench 2's Ties composite (SPEC §6): it scores pairs of prompts, not single items, so it
//! keeps every prompt's candidate scores until the end and combines them in the official order.
//!
//! A `ref:N` prompt has one correct answer, its partner `tied:N` several equally correct ones. The
//! composite rewards ranking every correct answer above every wrong one (accuracy) and a gap between
//! correct and wrong answers that is wider than the spread among the correct ones (margins).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which half of a Ties pair a prompt is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TiesKind {
    /// `ref:N`: a prompt with one correct answer.
    Ref,
    /// `tied:N`: a prompt with several correct answers.
    Tied,
}

impl TiesKind {
    /// Splits a Ties id `ref:N` / `tied:N` into its kind and prompt number.
    pub fn parse_id(id: &str) -> Option<(TiesKind, u64)> {
        let (kind, n) = id.split_once(':')?;
        let kind = match kind {
            "ref" => TiesKind::Ref,
            "tied" => TiesKind::Tied,
            _ => return None,
        };
        Some((kind, n.trim().parse().ok()?))
    }
}

/// One prompt's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PromptStats {
    /// Every correct answer outscores the best wrong one: cim > 0.
    pub accurate: bool,
    /// Spread among the correct answers, max - min; `None` with fewer than two.
    pub dcm: Option<f64>,
    /// Worst correct minus best incorrect.
    pub cim: f64,
}

/// The figures of one prompt from its (correct?, score) samples; `None` when it lacks a correct or
/// an incorrect answer (no margin exists).
pub fn prompt_stats(samples: &[(bool, f64)]) -> Option<PromptStats> {
    let pick = |want: bool| samples.iter().filter(move |s| s.0 == want).map(|s| s.1);
    let correct = pick(true).count();
    if correct == 0 || pick(false).next().is_none() {
        return None;
    }
    let best_correct = pick(true).fold(f64::NEG_INFINITY, f64::max);
    let worst_correct = pick(true).fold(f64::INFINITY, f64::min);
    let best_incorrect = pick(false).fold(f64::NEG_INFINITY, f64::max);
    let cim = worst_correct - best_incorrect;
    Some(PromptStats {
        accurate: cim > 0.0,
        dcm: (correct > 1).then_some(best_correct - worst_correct),
        cim,
    })
}

/// Collects Ties prompts; a prompt named twice pools its samples, as the official grouping does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ties {
    prompts: BTreeMap<(TiesKind, u64), Vec<(bool, f64)>>,
}

/// The finished composite and its parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TiesFigures {
    /// 0.30 tied_accuracy + 0.30 ref_accuracy + 0.20 cp + 0.20 cph + 0.01 cms; null when no pair is usable.
    pub score: Option<f64>,
    pub ref_accuracy: Option<f64>,
    pub tied_accuracy: Option<f64>,
    /// Share of pairs with cim(tied) > dcm(tied) ("correctness preferred").
    pub correctness_preferred: Option<f64>,
    /// Share of pairs with min(cim(ref), cim(tied)) > dcm(tied) ("correctness preferred, hard").
    pub correctness_preferred_hard: Option<f64>,
    /// Mean of tanh(min(cim(ref), cim(tied)) / dcm(tied) - 1), NaN counted as 0.
    pub margin_score: Option<f64>,
    pub ref_prompts: u64,
    pub tied_prompts: u64,
    /// Prompt numbers present as both `ref` and `tied` and usable for the margins.
    pub pairs: u64,
    /// Pairs left out of the margins because their tied prompt has a single correct answer.
    pub single_correct: u64,
    /// Prompts without a correct or without an incorrect answer (no margin); left out entirely.
    pub no_margin: u64,
}

impl Ties {
    /// Adds a prompt's candidate scores; the first `num_correct` are the correct ones.
    pub fn add(&mut self, kind: TiesKind, prompt: u64, scores: &[f64], num_correct: usize) {
        let samples = self.prompts.entry((kind, prompt)).or_default();
        samples.extend(
            scores
                .iter()
                .enumerate()
                .map(|(i, &s)| (i < num_correct, s)),
        );
    }

    pub fn merge(&mut self, other: Self) {
        for (key, samples) in other.prompts {
            self.prompts.entry(key).or_default().extend(samples);
        }
    }

    /// Whether any prompt was added.
    pub fn is_empty(&self) -> bool {
        self.prompts.is_empty()
    }

    pub fn finish(&self) -> TiesFigures {
        let mut stats: [BTreeMap<u64, PromptStats>; 2] = Default::default();
        let mut no_margin = 0;
        for (&(kind, prompt), samples) in &self.prompts {
            match prompt_stats(samples) {
                Some(s) => {
                    stats[kind as usize].insert(prompt, s);
                }
                None => no_margin += 1,
            }
        }
        let [refs, tied] = &stats;
        let accuracy = |m: &BTreeMap<u64, PromptStats>| {
            share(m.values().filter(|s| s.accurate).count(), m.len())
        };
        // Prompt numbers in ascending order: CPython iterates a set of small ints that way, and
        // the order fixes how numpy sums the margin scores.
        let mut single_correct = 0;
        let mut both = Vec::new();
        for (prompt, t) in tied {
            let Some(r) = refs.get(prompt) else { continue };
            match t.dcm {
                Some(dcm) => both.push((r.cim, t.cim, dcm)),
                None => single_correct += 1,
            }
        }
        let n = both.len();
        let cp = share(both.iter().filter(|(_, t, d)| t > d).count(), n);
        let cph = share(both.iter().filter(|(r, t, d)| r.min(*t) > *d).count(), n);
        let margins: Vec<f64> = both
            .iter()
            .map(|(r, t, d)| {
                let m = crate::math::tanh(r.min(*t) / d - 1.0);
                if m.is_nan() {
                    0.0
                } else {
                    m
                }
            })
            .collect();
        let cms = (n > 0).then(|| numpy_sum(&margins) / n as f64);
        let (ref_accuracy, tied_accuracy) = (accuracy(refs), accuracy(tied));
        let score = match (tied_accuracy, ref_accuracy, cp, cph, cms) {
            (Some(t), Some(r), Some(cp), Some(cph), Some(cms)) => {
                Some(0.30 * t + 0.30 * r + 0.20 * cp + 0.20 * cph + 0.01 * cms)
            }
            _ => None,
        };
        TiesFigures {
            score,
            ref_accuracy,
            tied_accuracy,
            correctness_preferred: cp,
            correctness_preferred_hard: cph,
            margin_score: cms,
            ref_prompts: refs.len() as u64,
            tied_prompts: tied.len() as u64,
            pairs: n as u64,
            single_correct,
            no_margin,
        }
    }
}

fn share(count: usize, n: usize) -> Option<f64> {
    (n > 0).then(|| count as f64 / n as f64)
}

/// `numpy.sum` of a contiguous float64 array, in numpy's own order: sequential below 8 values,
/// eight interleaved accumulators up to 128, and halves (at a multiple of 8) beyond.
pub fn numpy_sum(values: &[f64]) -> f64 {
    0.0 + pairwise(values)
}

fn pairwise(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        return a.iter().fold(0.0, |s, &x| s + x);
    }
    if n <= 128 {
        let mut r = [0.0; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for block in a[8..whole].chunks_exact(8) {
            for (acc, &x) in r.iter_mut().zip(block) {
                *acc += x;
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[whole..] {
            res += x;
        }
        return res;
    }
    let half = n / 2;
    let half = half - half % 8;
    pairwise(&a[..half]) + pairwise(&a[half..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_ids_parse() {
        assert_eq!(TiesKind::parse_id("ref:7"), Some((TiesKind::Ref, 7)));
        assert_eq!(TiesKind::parse_id("tied:12"), Some((TiesKind::Tied, 12)));
        assert_eq!(TiesKind::parse_id("tied:x"), None);
        assert_eq!(TiesKind::parse_id("12"), None);
        assert_eq!(TiesKind::parse_id("other:3"), None);
    }

    #[test]
    fn prompt_stats_by_hand() {
        // Correct 3.0 and 2.5, incorrect 1.0 and 2.0: cim = 2.5 - 2.0, dcm = 0.5.
        let s = prompt_stats(&[(true, 3.0), (true, 2.5), (false, 1.0), (false, 2.0)]).unwrap();
        assert_eq!(
            s,
            PromptStats {
                accurate: true,
                dcm: Some(0.5),
                cim: 0.5
            }
        );
        let single = prompt_stats(&[(true, 1.0), (false, 1.0)]).unwrap();
        assert_eq!(single.dcm, None);
        assert!(!single.accurate, "a tie is not accurate");
        assert_eq!(prompt_stats(&[(true, 1.0), (true, 2.0)]), None);
    }

    #[test]
    fn numpy_sum_order_matches_hand_grouping() {
        // 10 values: eight accumulators take a[0..8], the tail a[8], a[9] is added after.
        let a: Vec<f64> = (0..10).map(|i| 0.1 * f64::from(i)).collect();
        let r = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
        assert_eq!(numpy_sum(&a), (r + a[8]) + a[9]);
        let small = [0.1, 0.2, 0.3];
        assert_eq!(numpy_sum(&small), ((0.0 + 0.1) + 0.2) + 0.3);
        assert_eq!(numpy_sum(&[]), 0.0);
    }
}
