//! The equal-mass bins in the report (`conditioning.bins_em`, `mixing.bins_em`): HELM's
//! boundaries on a hand-worked file, and on the samples the bins that give `ece_em` itself.

use scorelens::{score, Input, Options};

fn report(text: &str) -> scorelens::Report {
    let input = Input {
        name: "t.jsonl",
        bytes: text.as_bytes(),
    };
    score(&[input], &Options::default()).expect("scores")
}

#[test]
fn three_items_make_three_bins_at_the_midpoints() {
    // Confidences q[answer] 0.2 (wrong), 0.6 (right), 0.9 (right): three chunks of one; the
    // boundaries are (0.2 + 0.6) / 2 = 0.4, (0.6 + 0.9) / 2 = 0.75 and 1.0.
    let text = [
        r#"{"id":"a","options":["o0","o1"],"gold":"o0","answer":"o1","probs":{"o0":0.8,"o1":0.2}}"#,
        r#"{"id":"b","options":["o0","o1"],"gold":"o0","probs":{"o0":0.6,"o1":0.4}}"#,
        r#"{"id":"c","options":["o0","o1"],"gold":"o0","probs":{"o0":0.9,"o1":0.1}}"#,
    ]
    .join("\n");
    let r = report(&text);
    let bins = &r.conditioning.bins_em;
    let edges: Vec<(f64, f64)> = bins.iter().map(|b| (b.lo, b.hi)).collect();
    assert_eq!(edges.len(), 3);
    for ((lo, hi), (want_lo, want_hi)) in edges.iter().zip([(0.0, 0.4), (0.4, 0.75), (0.75, 1.0)]) {
        assert!(
            (lo - want_lo).abs() < 1e-15 && (hi - want_hi).abs() < 1e-15,
            "{edges:?}"
        );
    }
    let counts: Vec<u64> = bins.iter().map(|b| b.count).collect();
    assert_eq!(counts, [1, 1, 1]);
    let acc: Vec<Option<f64>> = bins.iter().map(|b| b.accuracy).collect();
    assert_eq!(acc, [Some(0.0), Some(1.0), Some(1.0)]);
    // ECE = (0.2 + 0.4 + 0.1) / 3.
    let ece = r.conditioning.ece_em.unwrap();
    assert!((ece - 0.7 / 3.0).abs() < 1e-15, "{ece}");
    // The JSON carries them under both readings.
    let json = r.to_json();
    assert_eq!(json.matches("\"bins_em\"").count(), 2, "{json}");
}

#[test]
fn on_the_samples_the_bins_give_ece_em_and_hold_every_item() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/samples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let r = report(&text);
        for f in [&r.conditioning, &r.mixing] {
            let n: u64 = f.bins_em.iter().map(|b| b.count).sum();
            assert_eq!(n, f.items, "{}", path.display());
            if f.items == 0 {
                assert!(f.bins_em.is_empty());
                continue;
            }
            let total = f.items as f64;
            let ece: f64 = f
                .bins_em
                .iter()
                .filter(|b| b.count > 0)
                .map(|b| {
                    b.count as f64 / total * (b.accuracy.unwrap() - b.confidence.unwrap()).abs()
                })
                .sum();
            assert!(
                (ece - f.ece_em.unwrap()).abs() < 1e-12,
                "{}: {ece} vs {:?}",
                path.display(),
                f.ece_em
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 8,
        "only {checked} readings of the samples had probabilities"
    );
}
