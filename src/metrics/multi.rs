//! Multi-select items (`multi`): exact-set accuracy, per-item precision, recall and F1, and the
//! probability the model's step distributions give the gold set (SPEC §1, §7 `cmdb-1500`).
//!
//! Precision, recall and F1 are computed per item and averaged over items (scikit-learn's
//! `average="samples"`). An invalid answer (absent, or naming a label outside the options) is wrong
//! and scores 0 on all three; so does an empty answer. The gold set's probability is the product of
//! the conditional step probabilities along the gold labels in the order the file lists them.

use crate::items::{Body, Item, Modality, MultiItem};
use serde::{Deserialize, Serialize};

/// Running sums over one set of multi items.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MultiState {
    items: u64,
    invalid: u64,
    exact: u64,
    precision: f64,
    recall: f64,
    f1: f64,
    set_probability: f64,
    set_items: u64,
    unusable_steps: u64,
}

/// One item's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MultiScore {
    pub exact: bool,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

fn distinct(xs: &[usize]) -> Vec<usize> {
    let mut v = xs.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// Exact match, precision, recall and F1 of one item.
pub fn score(m: &MultiItem) -> MultiScore {
    let gold = distinct(&m.gold);
    let Some(answer) = m.answer.as_deref().map(distinct) else {
        return MultiScore {
            exact: false,
            precision: 0.0,
            recall: 0.0,
            f1: 0.0,
        };
    };
    let hits = answer.iter().filter(|a| gold.contains(a)).count() as f64;
    let precision = if answer.is_empty() {
        0.0
    } else {
        hits / answer.len() as f64
    };
    let recall = if gold.is_empty() {
        0.0
    } else {
        hits / gold.len() as f64
    };
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    MultiScore {
        exact: answer == gold,
        precision,
        recall,
        f1,
    }
}

/// The probability of the gold set from the steps: prod_t steps[t][gold[t]]. `None` without steps;
/// `Err` when they cannot be used (fewer steps than gold labels, or a value outside [0, 1]).
pub fn gold_set_probability(m: &MultiItem) -> Option<Result<f64, ()>> {
    let steps = m.steps.as_ref()?;
    if steps.len() < m.gold.len() {
        return Some(Err(()));
    }
    let mut p = 1.0;
    for (step, &g) in steps.iter().zip(&m.gold) {
        if step.iter().any(|x| !(0.0..=1.0).contains(x)) {
            return Some(Err(()));
        }
        match step.get(g) {
            Some(x) => p *= x,
            None => return Some(Err(())),
        }
    }
    Some(Ok(p))
}

impl MultiState {
    pub fn update(&mut self, m: &MultiItem) {
        let s = score(m);
        self.items += 1;
        self.invalid += u64::from(m.answer.is_none());
        self.exact += u64::from(s.exact);
        self.precision += s.precision;
        self.recall += s.recall;
        self.f1 += s.f1;
        match gold_set_probability(m) {
            Some(Ok(p)) => {
                self.set_probability += p;
                self.set_items += 1;
            }
            Some(Err(())) => self.unusable_steps += 1,
            None => {}
        }
    }

    pub fn merge(&mut self, o: &Self) {
        self.items += o.items;
        self.invalid += o.invalid;
        self.exact += o.exact;
        self.precision += o.precision;
        self.recall += o.recall;
        self.f1 += o.f1;
        self.set_probability += o.set_probability;
        self.set_items += o.set_items;
        self.unusable_steps += o.unusable_steps;
    }

    pub fn finish(&self) -> Option<MultiScopeFigures> {
        if self.items == 0 {
            return None;
        }
        let n = self.items as f64;
        Some(MultiScopeFigures {
            items: self.items,
            exact_set_accuracy: self.exact as f64 / n,
            precision: self.precision / n,
            recall: self.recall / n,
            f1: self.f1 / n,
            invalid_share: self.invalid as f64 / n,
            p_gold_set: (self.set_items > 0).then(|| self.set_probability / self.set_items as f64),
            p_gold_set_items: self.set_items,
            unusable_steps: self.unusable_steps,
        })
    }
}

/// Multi figures over one set of items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultiScopeFigures {
    pub items: u64,
    /// Share of items whose answered set equals the gold set.
    pub exact_set_accuracy: f64,
    /// Mean per-item precision, recall and F1.
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub invalid_share: f64,
    /// Mean probability of the gold set from `steps`, over the items with usable steps.
    pub p_gold_set: Option<f64>,
    pub p_gold_set_items: u64,
    /// Items whose `steps` could not be used (too few steps, or a value outside [0, 1]).
    pub unusable_steps: u64,
}

/// The report's `multi` key: all multi items, and per modality.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultiFigures {
    #[serde(flatten)]
    pub overall: MultiScopeFigures,
    pub scopes: MultiScopes,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MultiScopes {
    pub text: Option<MultiScopeFigures>,
    pub image: Option<MultiScopeFigures>,
}

/// Multi figures over the run and per modality.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MultiAccumulator {
    overall: MultiState,
    text: MultiState,
    image: MultiState,
}

impl MultiAccumulator {
    pub fn update(&mut self, item: &Item) {
        let Body::Multi(m) = &item.body else { return };
        self.overall.update(m);
        match item.modality {
            Some(Modality::Text) => self.text.update(m),
            Some(Modality::Image) => self.image.update(m),
            None => {}
        }
    }

    pub fn merge(&mut self, o: &Self) {
        self.overall.merge(&o.overall);
        self.text.merge(&o.text);
        self.image.merge(&o.image);
    }

    /// The figures; `None` when no multi item was seen.
    pub fn finish(&self) -> Option<MultiFigures> {
        Some(MultiFigures {
            overall: self.overall.finish()?,
            scopes: MultiScopes {
                text: self.text.finish(),
                image: self.image.finish(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn multi(gold: &[usize], answer: Option<&[usize]>, steps: Option<Vec<Vec<f64>>>) -> MultiItem {
        MultiItem {
            options: ["a", "b", "c", "d"].map(String::from).to_vec(),
            gold: gold.to_vec(),
            answer: answer.map(<[usize]>::to_vec),
            steps,
        }
    }

    #[test]
    fn precision_recall_f1_by_hand() {
        // Gold {a, b}, answer {b, c}: one hit; P = 1/2, R = 1/2, F1 = 1/2.
        let s = score(&multi(&[0, 1], Some(&[1, 2]), None));
        assert_eq!(
            (s.exact, s.precision, s.recall, s.f1),
            (false, 0.5, 0.5, 0.5)
        );
        // Gold {a, b, c}, answer {a}: P = 1, R = 1/3, F1 = 2 * (1/3) / (4/3) = 0.5.
        let s = score(&multi(&[0, 1, 2], Some(&[0]), None));
        assert_eq!(s.precision, 1.0);
        assert!((s.recall - 1.0 / 3.0).abs() < 1e-15 && (s.f1 - 0.5).abs() < 1e-15);
        // Order and repeats do not matter for the set.
        assert!(score(&multi(&[2, 0], Some(&[0, 2, 0]), None)).exact);
    }

    #[test]
    fn invalid_and_empty_answers_score_zero() {
        let s = score(&multi(&[0], None, None));
        assert_eq!(
            (s.exact, s.precision, s.recall, s.f1),
            (false, 0.0, 0.0, 0.0)
        );
        let s = score(&multi(&[0], Some(&[]), None));
        assert_eq!(
            (s.exact, s.precision, s.recall, s.f1),
            (false, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn gold_set_probability_follows_the_gold_order() {
        // Gold [c, a]: step 1 gives c 0.5, step 2 (given c) gives a 0.8 -> 0.4.
        let steps = vec![vec![0.3, 0.2, 0.5, 0.0], vec![0.8, 0.2, 0.0, 0.0]];
        let m = multi(&[2, 0], Some(&[0, 2]), Some(steps.clone()));
        assert_eq!(gold_set_probability(&m), Some(Ok(0.5 * 0.8)));
        // Too few steps, or a value above 1, cannot be used.
        let short = multi(&[2, 0, 1], None, Some(steps));
        assert_eq!(gold_set_probability(&short), Some(Err(())));
        let bad = multi(&[0], None, Some(vec![vec![1.5, 0.0, 0.0, 0.0]]));
        assert_eq!(gold_set_probability(&bad), Some(Err(())));
        assert_eq!(gold_set_probability(&multi(&[0], None, None)), None);
    }

    #[test]
    fn state_means_and_merge() {
        let items = [
            multi(
                &[0, 1],
                Some(&[0, 1]),
                Some(vec![vec![0.5; 4], vec![0.5; 4]]),
            ),
            multi(&[0, 1], Some(&[1, 2]), None),
            multi(&[3], None, Some(vec![vec![0.0, 0.0, 0.0, 0.9]])),
        ];
        let mut whole = MultiState::default();
        for m in &items {
            whole.update(m);
        }
        let f = whole.finish().unwrap();
        assert_eq!(f.items, 3);
        assert!((f.exact_set_accuracy - 1.0 / 3.0).abs() < 1e-15);
        assert!((f.f1 - 0.5).abs() < 1e-15, "(1 + 0.5 + 0) / 3");
        assert!((f.invalid_share - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(f.p_gold_set, Some((0.25 + 0.9) / 2.0));
        let (mut a, mut b) = (MultiState::default(), MultiState::default());
        a.update(&items[0]);
        b.update(&items[1]);
        b.update(&items[2]);
        a.merge(&b);
        assert_eq!(a.finish().unwrap(), f);
    }
}
