//! Equal-mass ECE against the reference implementation HELM uses (uncertainty-calibration's
//! `get_ece_em`), on seeded cases made by scripts/reference/ece_em_vectors.py.

use scorelens::metrics::ece::equal_mass::EqualMass;
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    confidence: Vec<f64>,
    correct: Vec<u8>,
    ece_em: f64,
}

#[derive(Deserialize)]
struct Vectors {
    cases: Vec<Case>,
}

#[test]
fn matches_uncertainty_calibration() {
    let text = include_str!("fixtures/ece_em/vectors.json");
    let vectors: Vectors = serde_json::from_str(text).unwrap();
    assert_eq!(vectors.cases.len(), 11);
    for (i, case) in vectors.cases.iter().enumerate() {
        let mut e = EqualMass::default();
        for (&c, &r) in case.confidence.iter().zip(&case.correct) {
            e.add(c, r == 1);
        }
        let ours = e.ece().unwrap();
        assert!(
            (ours - case.ece_em).abs() < 1e-12,
            "case {i} (n = {}): ours {ours}, reference {}",
            case.confidence.len(),
            case.ece_em
        );
    }
}
