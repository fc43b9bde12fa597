//! Equal-mass ECE over lists long enough to be kept in blocks: the same bins and ECE
//! whatever the order the values come in or how runs are merged, and the weighted form's ECE.

use scorelens::metrics::ece::equal_mass::{ece_weighted, EqualMass};

/// `n` confidences with correctness, in a scrambled order (a fixed LCG).
fn values(n: usize) -> Vec<(f64, bool)> {
    let mut x = 12345u64;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let c = ((x >> 11) % 100_000) as f64 / 100_000.0;
            (c, !(x >> 40).is_multiple_of(3))
        })
        .collect()
}

#[test]
fn long_lists_give_the_same_figures_in_any_order_and_merged() {
    let n = 3 * 65_536 + 1_234;
    let v = values(n);
    let mut scrambled = EqualMass::default();
    for &(c, ok) in &v {
        scrambled.add(c, ok);
    }
    let mut sorted_v = v.clone();
    sorted_v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut ordered = EqualMass::default();
    for &(c, ok) in &sorted_v {
        ordered.add(c, ok);
    }
    let (a, b) = v.split_at(n / 3);
    let (mut left, mut right) = (EqualMass::default(), EqualMass::default());
    a.iter().for_each(|&(c, ok)| left.add(c, ok));
    b.iter().for_each(|&(c, ok)| right.add(c, ok));
    left.merge(right);
    assert_eq!(scrambled.count(), n);
    let ece = scrambled.ece().unwrap();
    assert_eq!(ordered.ece().unwrap().to_bits(), ece.to_bits());
    assert_eq!(left.ece().unwrap().to_bits(), ece.to_bits());
    assert_eq!(scrambled.bins(), ordered.bins());
    assert_eq!(scrambled.bins(), left.bins());
    assert_eq!(
        scrambled.bins().iter().map(|b| b.count).sum::<u64>(),
        n as u64
    );
    let weighted = ece_weighted(&sorted_v, &vec![1; n]).unwrap();
    assert!((weighted - ece).abs() < 1e-12, "{weighted} vs {ece}");
    assert!(ece > 0.0);
}
