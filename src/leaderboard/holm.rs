//! Holm's step-down adjustment (Holm 1979): p-values of a family of tests made comparable with
//! one family-wise error rate, uniformly more powerful than Bonferroni's.
//!
//! With the m raw p-values in ascending order p(1) ≤ … ≤ p(m), the adjusted value of the j-th is
//! max over i ≤ j of min(1, (m − i + 1) p(i)): the running maximum keeps the adjusted values in the
//! raw values' order, so "reject while p(j) ≤ α / (m − j + 1)" and "adjusted p ≤ α" agree.

/// The Holm-adjusted p-values of `raw`, in `raw`'s order. Equal raw values are taken in their
/// given order (a stable sort), which leaves their adjusted values equal too.
pub fn holm(raw: &[f64]) -> Vec<f64> {
    let m = raw.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (raw.get(a).copied(), raw.get(b).copied());
        x.unwrap_or(1.0).total_cmp(&y.unwrap_or(1.0))
    });
    let mut adjusted = vec![1.0; m];
    let mut running = 0.0f64;
    for (i, &k) in order.iter().enumerate() {
        let p = raw.get(k).copied().unwrap_or(1.0);
        let scaled = ((m - i) as f64 * p).min(1.0);
        running = running.max(scaled);
        if let Some(slot) = adjusted.get_mut(k) {
            *slot = running;
        }
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_worked_example() {
        // Wikipedia, "Holm–Bonferroni method", Example: four hypotheses with p1 = 0.01,
        // p2 = 0.04, p3 = 0.03, p4 = 0.005 at α = 0.05. Sorted: 0.005, 0.01, 0.03, 0.04, compared
        // with 0.05/4, 0.05/3, 0.05/2, 0.05/1: H4 and H1 are rejected, the procedure stops at H3.
        // Adjusted (statsmodels `multipletests(method="holm")` gives the same):
        // 4 × 0.005 = 0.02, 3 × 0.01 = 0.03, 2 × 0.03 = 0.06, max(0.06, 1 × 0.04) = 0.06.
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.03, 0.06, 0.06, 0.02];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-15, "{adj:?}");
        }
        let rejected: Vec<bool> = adj.iter().map(|&p| p <= 0.05).collect();
        assert_eq!(rejected, [true, false, false, true]);
    }

    #[test]
    fn capped_at_one_and_empty() {
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
        assert_eq!(holm(&[0.2]), vec![0.2]);
    }
}
