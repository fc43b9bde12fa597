//! Distances between a predicted distribution and a reference one, and the 0–100 calibration mapping
//! that the I/C calibration parts use (SPEC §5).

/// Total variation distance: 0.5 * sum_i |q_i - g_i|, summed in option order.
pub fn tvd(q: &[f64], g: &[f64]) -> f64 {
    0.5 * q.iter().zip(g).map(|(a, b)| (a - b).abs()).sum::<f64>()
}

/// Ranked probability score over K ordered levels:
/// sum_{j=0}^{K-2} (F_q(j) - F_y(j))^2 / (K - 1), F the cumulative sums; 0 for fewer than 2 levels.
pub fn rps(q: &[f64], y: &[f64]) -> f64 {
    let k = q.len().min(y.len());
    if k < 2 {
        return 0.0;
    }
    let (mut fq, mut fy, mut sum) = (0.0, 0.0, 0.0);
    for j in 0..k - 1 {
        fq += q[j];
        fy += y[j];
        sum += (fq - fy) * (fq - fy);
    }
    sum / (k - 1) as f64
}

/// The one-hot distribution on `gold` over `k` options.
pub fn one_hot(k: usize, gold: usize) -> Vec<f64> {
    (0..k).map(|i| if i == gold { 1.0 } else { 0.0 }).collect()
}

/// SPEC §5's mapping of an ECE onto 0–100: max(0, 100 * (1 - 2E)).
pub fn ece_score(ece: f64) -> f64 {
    (100.0 * (1.0 - 2.0 * ece)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tvd_by_hand() {
        assert!((tvd(&[0.2, 0.7, 0.1], &[0.5, 0.5, 0.0]) - 0.3).abs() < 1e-15);
        assert_eq!(tvd(&[0.25, 0.75], &[0.25, 0.75]), 0.0);
        // Against a one-hot gold, TVD is 1 - q[gold].
        let q = [0.1, 0.6, 0.3];
        assert!((tvd(&q, &one_hot(3, 2)) - 0.7).abs() < 1e-15);
    }

    #[test]
    fn rps_vector_of_spec_9() {
        // Levels 3, probs [0.4, 0.35, 0.25], gold position 1: ((0.4)^2 + (0.75 - 1)^2) / 2.
        let got = rps(&[0.4, 0.35, 0.25], &one_hot(3, 1));
        assert!((got - 0.11125).abs() < 1e-15, "{got}");
    }

    #[test]
    fn rps_is_zero_on_the_reference_and_one_at_the_far_end() {
        let g = [0.1, 0.2, 0.3, 0.4];
        assert_eq!(rps(&g, &g), 0.0);
        assert_eq!(rps(&one_hot(4, 0), &one_hot(4, 3)), 1.0);
        assert_eq!(rps(&[1.0], &[1.0]), 0.0);
    }

    #[test]
    fn ece_score_maps_and_clips() {
        assert_eq!(ece_score(0.0), 100.0);
        assert_eq!(ece_score(0.25), 50.0);
        assert_eq!(ece_score(0.5), 0.0);
        assert_eq!(ece_score(0.9), 0.0, "clipped at 0");
    }
}
