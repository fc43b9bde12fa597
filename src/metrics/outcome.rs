//! Whether each item was answered right, and its chance of being right by a uniform guess (SPEC §3).
//!
//! Every accuracy-like figure (exact match, normalized, per group) starts from this one judgement,
//! so all item types agree on what "correct" means.

use crate::items::{best_of_n_credit, Body, Item};

/// The judgement of one item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// 1 when correct, 0 when wrong; a fraction only for `best_of_n` ties at the maximum.
    pub credit: f64,
    /// Chance of full credit under a uniform guess; `None` where no guess can fail (c = 1).
    pub chance: Option<f64>,
    /// False when the model's answer is invalid (absent or not a valid label).
    pub valid: bool,
}

impl Outcome {
    /// Budescu and Bar-Hillel's normalized score: 1 when right, -c/(1-c) when wrong; 0 by chance.
    pub fn normalized(&self) -> Option<f64> {
        self.chance.map(|c| (self.credit - c) / (1.0 - c))
    }
}

fn chance(c: f64) -> Option<f64> {
    (c < 1.0).then_some(c)
}

fn credit(right: bool) -> f64 {
    if right {
        1.0
    } else {
        0.0
    }
}

/// Judges one item.
pub fn outcome(item: &Item) -> Outcome {
    match &item.body {
        Body::Option(o) => Outcome {
            credit: credit(o.answer == Some(o.gold)),
            chance: chance(1.0 / o.options.len() as f64),
            valid: o.answer.is_some(),
        },
        Body::Multi(m) => {
            let right = m.answer.as_ref().is_some_and(|a| same_set(a, &m.gold));
            // A uniform guess picks one of the 2^k - 1 non-empty subsets.
            // Past 1023 options 2^k is +inf and the chance 0 (no `as i32` wrap for huge k).
            let k = i32::try_from(m.options.len()).unwrap_or(i32::MAX);
            let subsets = 2f64.powi(k) - 1.0;
            Outcome {
                credit: credit(right),
                chance: chance(1.0 / subsets),
                valid: m.answer.is_some(),
            }
        }
        Body::Pair { chosen, rejected } => Outcome {
            credit: credit(chosen > rejected),
            chance: Some(0.5),
            valid: true,
        },
        // A uniform guess makes the first of n candidates the maximum once in n.
        Body::BestOfN { scores, .. } => Outcome {
            credit: best_of_n_credit(scores),
            chance: chance(1.0 / scores.len() as f64),
            valid: true,
        },
        Body::Consistency(c) => Outcome {
            credit: credit(c.consistent == Some(true)),
            chance: chance(c.consistent_pairs as f64 / (c.sizes.0 * c.sizes.1) as f64),
            valid: c.consistent.is_some(),
        },
        // Free-form answers have no option menu, hence no chance of guessing right.
        Body::Graded { credit, answer, .. } => Outcome {
            credit: *credit,
            chance: None,
            valid: answer.is_some(),
        },
    }
}

/// Set equality of two label-index lists, ignoring order and repeats.
pub fn same_set(a: &[usize], b: &[usize]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    a.dedup();
    b.sort_unstable();
    b.dedup();
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_candidate_earns_credit() {
        // Candidates 0 and 1 are both correct, but the second holds the maximum alone.
        assert_eq!(best_of_n_credit(&[1.0, 2.0, 0.0]), 0.0);
        assert_eq!(best_of_n_credit(&[2.0, 2.0, 0.0]), 0.5);
        assert_eq!(best_of_n_credit(&[]), 0.0);
    }

    #[test]
    fn rewardbench2_credit_vectors_of_spec_9() {
        assert_eq!(best_of_n_credit(&[2.0, 1.0, 1.0, 0.5]), 1.0);
        assert_eq!(best_of_n_credit(&[2.0, 2.0, 1.0, 0.0]), 0.5);
        assert_eq!(best_of_n_credit(&[2.0, 2.0, 2.0, 1.0]), 1.0 / 3.0);
        assert_eq!(best_of_n_credit(&[1.0, 1.0, 1.0, 1.0]), 0.25);
        assert_eq!(best_of_n_credit(&[1.0, 3.0, 0.0, 0.0]), 0.0);
    }

    #[test]
    fn normalized_for_two_options_is_plus_or_minus_one() {
        let right = Outcome {
            credit: 1.0,
            chance: Some(0.5),
            valid: true,
        };
        let wrong = Outcome {
            credit: 0.0,
            chance: Some(0.5),
            valid: true,
        };
        assert_eq!(right.normalized(), Some(1.0));
        assert_eq!(wrong.normalized(), Some(-1.0));
        let four = Outcome {
            credit: 0.0,
            chance: Some(0.25),
            valid: true,
        };
        assert_eq!(four.normalized(), Some(-1.0 / 3.0));
    }

    #[test]
    fn sets_compare_without_order() {
        assert!(same_set(&[2, 0], &[0, 2]));
        assert!(!same_set(&[0], &[0, 2]));
    }
}
