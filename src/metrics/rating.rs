//! Rating items for the I/C competence (SPEC §5): the predicted position, its normalised error and
//! the error a uniform guess would make.
//!
//! Positions run 0..K-1 in option order. The prediction is the expected position under conditioning
//! when the item has valid probabilities, else the position of a valid answer; with neither the item
//! takes the largest error it could have, max(gold, K-1-gold) / (K-1) (decisio's rule, SPEC §5).

use crate::items::{Mode, OptionItem};

/// The expected position sum_i i * q_i.
pub fn expected_position(q: &[f64]) -> f64 {
    q.iter().enumerate().map(|(i, &x)| i as f64 * x).sum()
}

/// nMAE = |pred - gold| / (K - 1).
pub fn nmae(pred: f64, gold: usize, k: usize) -> f64 {
    (pred - gold as f64).abs() / (k - 1) as f64
}

/// The uniform guess's mean error: (1/K) * sum_l |l - gold| / (K - 1).
///
/// The integer sum is formed first (exact), then divided by K and by K - 1.
pub fn nmae_chance(gold: usize, k: usize) -> f64 {
    let total: usize = (0..k).map(|l| l.abs_diff(gold)).sum();
    total as f64 / k as f64 / (k - 1) as f64
}

/// The largest error an item can have: max(gold, K-1-gold) / (K - 1).
pub fn max_error(gold: usize, k: usize) -> f64 {
    gold.max(k - 1 - gold) as f64 / (k - 1) as f64
}

/// How the rating prediction was formed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Prediction {
    /// Expected position from valid probabilities.
    Expected(f64),
    /// The position of a valid answer, without probabilities.
    Answer(usize),
    /// Neither: the item takes the largest error.
    Invalid,
}

/// The item's prediction.
pub fn prediction(o: &OptionItem) -> Prediction {
    let q = o
        .probs
        .as_ref()
        .and_then(|p| p.distribution(Mode::Conditioning));
    match (q, o.answer) {
        (Some(q), _) => Prediction::Expected(expected_position(&q)),
        (None, Some(a)) => Prediction::Answer(a),
        (None, None) => Prediction::Invalid,
    }
}

/// The item's (nMAE, nMAE_chance); an item with fewer than two levels gives (0, 0).
pub fn errors(o: &OptionItem) -> (f64, f64) {
    let k = o.options.len();
    if k < 2 {
        return (0.0, 0.0);
    }
    let e = match prediction(o) {
        Prediction::Expected(pred) => nmae(pred, o.gold, k),
        Prediction::Answer(a) => nmae(a as f64, o.gold, k),
        Prediction::Invalid => max_error(o.gold, k),
    };
    (e, nmae_chance(o.gold, k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::{OptionKind, Probs};

    fn rating(k: usize, gold: usize, p: Option<Vec<f64>>, answer: Option<usize>) -> OptionItem {
        OptionItem {
            kind: OptionKind::Rating,
            options: (0..k).map(|i| i.to_string()).collect(),
            gold,
            gold_probs: None,
            answer,
            probs: p.map(|p| {
                let sum = p.iter().sum();
                Probs {
                    p: p.into(),
                    sum,
                    outside: Some(0.0),
                }
            }),
        }
    }

    #[test]
    fn spec_9_four_levels_gold_0() {
        // K = 4, gold 0, probs {0: 0.5, 1: 0.5}: nMAE = 0.5/3, chance = 0.5.
        let (e, c) = errors(&rating(4, 0, Some(vec![0.5, 0.5, 0.0, 0.0]), Some(0)));
        assert!((e - 0.5 / 3.0).abs() < 1e-15, "{e}");
        assert_eq!(c, 0.5);
    }

    #[test]
    fn spec_9_three_levels_gold_1() {
        // Probs [0.4, 0.35, 0.25], gold 1: expected 0.85, nMAE 0.075, chance 1/3.
        let o = rating(3, 1, Some(vec![0.4, 0.35, 0.25]), Some(0));
        match prediction(&o) {
            Prediction::Expected(x) => assert!((x - 0.85).abs() < 1e-15, "{x}"),
            other => panic!("{other:?}"),
        }
        let (e, c) = errors(&o);
        assert!((e - 0.075).abs() < 1e-15, "{e}");
        assert_eq!(c, 1.0 / 3.0);
    }

    #[test]
    fn answer_without_probabilities_and_invalid_answers() {
        // Level 3 of 5 answered, gold 1: |3 - 1| / 4 = 0.5.
        assert_eq!(errors(&rating(5, 1, None, Some(3))).0, 0.5);
        // Invalid, gold 1 of 5: max(1, 3) / 4 = 0.75; gold 0 of 3: 2/2 = 1.
        assert_eq!(errors(&rating(5, 1, None, None)).0, 0.75);
        assert_eq!(errors(&rating(3, 0, None, None)).0, 1.0);
    }

    #[test]
    fn chance_by_hand() {
        // K = 5, gold 2: (2+1+0+1+2)/5/4 = 0.3.
        assert!((nmae_chance(2, 5) - 0.3).abs() < 1e-15);
        assert_eq!(nmae_chance(0, 2), 0.5);
    }
}
