//! The invariants every metric relies on, checked once per item before it is scored, so that a
//! reader's slip becomes a skipped item with a warning instead of a panic (an index out of range)
//! or a wrong figure. Readers guarantee these already; this is the net under them.

use crate::items::{Body, Item};

/// Why the item cannot be scored as built, if it cannot.
pub fn inconsistency(item: &Item) -> Option<String> {
    match &item.body {
        Body::Option(o) => {
            let k = o.options.len();
            if k == 0 {
                return Some("it has no options".to_string());
            }
            if o.gold >= k {
                return Some(format!("gold position {} of {k} options", o.gold));
            }
            if let Some(a) = o.answer.filter(|&a| a >= k) {
                return Some(format!("answer position {a} of {k} options"));
            }
            if let Some(p) = &o.probs {
                if p.p.len() != k {
                    return Some(format!("{} probabilities for {k} options", p.p.len()));
                }
                let valid = p.p.iter().all(|x| x.is_finite() && *x >= 0.0);
                if !(valid && p.sum.is_finite() && p.sum > 0.0) {
                    return Some("probabilities that are not finite and positive".to_string());
                }
            }
            match &o.gold_probs {
                Some(g) if g.len() != k => {
                    Some(format!("{} gold probabilities for {k} options", g.len()))
                }
                _ => None,
            }
        }
        Body::Multi(m) => {
            let k = m.options.len();
            let outside = |xs: &[usize]| xs.iter().any(|&i| i >= k);
            if m.gold.is_empty() || outside(&m.gold) {
                return Some(format!("gold positions {:?} of {k} options", m.gold));
            }
            if m.answer.as_deref().is_some_and(outside) {
                return Some(format!("answer positions outside the {k} options"));
            }
            match &m.steps {
                Some(steps) if steps.iter().any(|s| s.len() != k) => {
                    Some(format!("step probabilities not over the {k} options"))
                }
                _ => None,
            }
        }
        Body::BestOfN {
            scores,
            num_correct,
        } => (scores.is_empty() || *num_correct > scores.len())
            .then(|| format!("{num_correct} correct among {} candidates", scores.len())),
        Body::Consistency(c) => {
            let pairs = c.sizes.0.saturating_mul(c.sizes.1);
            (pairs == 0 || c.consistent_pairs > pairs).then(|| {
                format!(
                    "{} consistent pairs of {} × {} answers",
                    c.consistent_pairs, c.sizes.0, c.sizes.1
                )
            })
        }
        Body::Pair { .. } | Body::Graded { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::{ConsistencyItem, MultiItem, OptionItem, OptionKind, Probs};

    fn item(body: Body) -> Item {
        Item {
            id: "x".into(),
            line: None,
            group: None,
            tier: None,
            split: None,
            modality: None,
            cluster: None,
            body,
        }
    }

    fn choice(gold: usize, answer: Option<usize>, p: Option<Vec<f64>>) -> Item {
        item(Body::Option(OptionItem {
            kind: OptionKind::Choice,
            options: vec!["A".to_string(), "B".to_string()].into(),
            gold,
            gold_probs: None,
            answer,
            probs: p.map(|p| Probs {
                sum: p.iter().sum(),
                p: p.into(),
                outside: Some(0.0),
            }),
        }))
    }

    #[test]
    fn sound_items_pass() {
        assert_eq!(
            inconsistency(&choice(1, Some(0), Some(vec![0.6, 0.4]))),
            None
        );
        assert_eq!(inconsistency(&choice(0, None, None)), None);
        let multi = item(Body::Multi(MultiItem {
            options: vec!["A".to_string(), "B".to_string()],
            gold: vec![1],
            answer: Some(vec![0, 1]),
            steps: Some(vec![vec![0.5, 0.5]]),
        }));
        assert_eq!(inconsistency(&multi), None);
    }

    #[test]
    fn positions_and_lengths_outside_the_options_are_caught() {
        assert!(inconsistency(&choice(2, None, None)).is_some());
        assert!(inconsistency(&choice(0, Some(5), None)).is_some());
        assert!(inconsistency(&choice(0, None, Some(vec![1.0]))).is_some());
        assert!(inconsistency(&choice(0, None, Some(vec![f64::NAN, 0.5]))).is_some());
        assert!(inconsistency(&choice(0, None, Some(vec![0.0, 0.0]))).is_some());
        let bon = item(Body::BestOfN {
            scores: vec![1.0],
            num_correct: 2,
        });
        assert!(inconsistency(&bon).is_some());
        let cons = item(Body::Consistency(ConsistencyItem {
            sizes: (0, 3),
            consistent_pairs: 1,
            consistent: None,
        }));
        assert!(inconsistency(&cons).is_some());
    }
}
