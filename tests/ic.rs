//! I and C (SPEC §5): the SPEC §9 vectors and hand-worked cases, end to end through the canonical
//! reader and the profiles.

mod ic_util;
use ic_util::*;

#[test]
fn spec_9_choice_tiers_renormalised_over_easy_and_hard() {
    // Easy: 2/2 right, k = 2. Hard: 1/2 right, k = 2 and 4 -> cbar 0.375, CC 20.
    let lines = vec![
        choice_item("e1", 2, 0, 0, Some("easy")),
        choice_item("e2", 2, 1, 1, Some("easy")),
        choice_item("h1", 2, 0, 0, Some("hard")),
        choice_item("h2", 4, 0, 3, Some("hard")),
    ];
    let r = score(&lines, None);
    let c = choice(&r);
    let easy = c.tiers.easy.as_ref().unwrap();
    let hard = c.tiers.hard.as_ref().unwrap();
    close(easy.cc, 100.0, 1e-12);
    close(hard.chance, 0.375, 1e-15);
    close(hard.cc, 20.0, 1e-12);
    // (0.1 * 100 + 0.4 * 20) / 0.5 = 36; weights renormalised to 0.2 / 0.8.
    close(c.cc, 36.0, 1e-12);
    assert!((easy.weight - 0.2).abs() < 1e-15 && (hard.weight - 0.8).abs() < 1e-15);
    assert!(c.tiers.standard.is_none() && c.tiers.judge.is_none() && c.tiers.none.is_none());
    // One type: I is its CC, and so is i_weighted.
    close(ic(&r).overall.i, 36.0, 1e-12);
    close(ic(&r).overall.i_weighted, 36.0, 1e-12);
}

#[test]
fn spec_9_rating_four_levels_gold_0() {
    let line = r#"{"id":"r","type":"rating","options":["0","1","2","3"],"gold":"0","probs":{"0":0.5,"1":0.5}}"#;
    let r = score(&[line.to_string()], None);
    let t = rating(&r).tiers.none.as_ref().unwrap();
    close(t.nmae, 0.5 / 3.0, 1e-15);
    close(t.nmae_chance, 0.5, 1e-15);
    // CC = 100 (1 - (1/6) / 0.5) = 66.67.
    close(rating(&r).cc, 100.0 * (1.0 - (0.5 / 3.0) / 0.5), 1e-12);
}

#[test]
fn spec_9_rating_three_levels_with_rps() {
    let line = r#"{"id":"r","type":"rating","options":["0","1","2"],"gold":"1","probs":{"0":0.4,"1":0.35,"2":0.25}}"#;
    let r = score(&[line.to_string()], None);
    let f = rating(&r);
    let t = f.tiers.none.as_ref().unwrap();
    close(t.nmae, 0.075, 1e-15);
    close(t.nmae_chance, 1.0 / 3.0, 1e-15);
    close(f.rps, 0.11125, 1e-15);
    // Answer = arg-max level 0, wrong, confidence 0.4: ECE 0.4; C = (ece_score 20 + 88.875) / 2.
    close(f.ece, 0.4, 1e-15);
    close(f.c, (20.0 + 100.0 * (1.0 - 0.11125)) / 2.0, 1e-9);
}

#[test]
fn spec_9_binary_boundaries_are_inclusive() {
    // 0.80 and 0.20 decide (right); 0.79 and 0.21 abstain (wrong).
    let lines = vec![
        binary_item("a", "yes", 0.8, ""),
        binary_item("b", "no", 0.2, ""),
        binary_item("c", "yes", 0.79, ""),
        binary_item("d", "no", 0.21, ""),
        // The same bounds written as probs.
        r#"{"id":"e","type":"binary","gold":"yes","probs":{"yes":0.8,"no":0.2}}"#.to_string(),
        r#"{"id":"f","type":"binary","gold":"no","probs":{"yes":0.2,"no":0.8}}"#.to_string(),
    ];
    let r = score(&lines, None);
    let b = binary(&r);
    let t = b.tiers.none.as_ref().unwrap();
    close(t.accuracy, 4.0 / 6.0, 1e-15);
    close(b.abstention_rate, 2.0 / 6.0, 1e-15);
    close(b.cc, 100.0 * (4.0 / 6.0 - 0.5) / 0.5, 1e-12);
    assert_eq!(b.invalid, 0);
}

#[test]
fn binary_without_probabilities_uses_the_answer_and_cannot_abstain() {
    let lines = vec![
        r#"{"id":"a","type":"binary","gold":"yes","answer":"yes"}"#.to_string(),
        r#"{"id":"b","type":"binary","gold":"yes","answer":"no"}"#.to_string(),
        r#"{"id":"c","type":"binary","gold":"no"}"#.to_string(),
    ];
    let b = binary(&score(&lines, None)).clone();
    close(b.abstention_rate, 0.0, 0.0);
    assert_eq!(b.invalid, 1);
    close(b.tiers.none.as_ref().unwrap().accuracy, 1.0 / 3.0, 1e-15);
    assert_eq!(b.c, None, "no probabilities, no calibration part");
    assert_eq!(b.ece, None);
}

#[test]
fn binary_c_bins_p_yes_against_the_yes_rate() {
    // p_yes 0.9 twice (one yes) and 0.1 twice (no yes): bins 9 and 1.
    // ECE = 0.5 * |0.5 - 0.9| + 0.5 * |0 - 0.1| = 0.25; C = 100 (1 - 0.5) = 50.
    let lines = vec![
        binary_item("a", "yes", 0.9, ""),
        binary_item("b", "no", 0.9, ""),
        binary_item("c", "no", 0.1, ""),
        binary_item("d", "no", 0.1, ""),
    ];
    let b = binary(&score(&lines, None)).clone();
    close(b.ece, 0.25, 1e-12);
    close(b.c, 50.0, 1e-9);
    // Brier: (0.01 + 0.81 + 0.01 + 0.01) / 4.
    close(b.brier, 0.84 / 4.0, 1e-12);
}

#[test]
fn rating_with_gold_probs_uses_them_for_rps_and_tvd() {
    // q = [0.2, 0.5, 0.3], gold_probs [0.2, 0.6, 0.2]: F_q = 0.2, 0.7; F_g = 0.2, 0.8;
    // RPS = (0 + 0.01) / 2 = 0.005; TVD = 0.5 (0 + 0.1 + 0.1) = 0.1.
    let line = r#"{"id":"r","type":"rating","options":["0","1","2"],"gold":"1","gold_probs":{"0":0.2,"1":0.6,"2":0.2},"probs":{"0":0.2,"1":0.5,"2":0.3}}"#;
    let r = score(&[line.to_string()], None);
    let f = rating(&r);
    close(f.rps, 0.005, 1e-15);
    close(f.tvd, 0.1, 1e-15);
    assert_eq!(f.tvd_items, 1);
    // The answer is level 1 (right) with confidence 0.5: ECE 0.5, ece_score 0.
    close(f.c, (0.0 + 100.0 * (1.0 - 0.005)) / 2.0, 1e-9);
}

#[test]
fn invalid_rating_answer_takes_the_largest_error() {
    // Gold 1 of 5 levels, no probabilities and no valid answer: nMAE = max(1, 3)/4 = 0.75.
    let line =
        r#"{"id":"r","type":"rating","options":["0","1","2","3","4"],"gold":"1","answer":"7"}"#;
    let r = score(&[line.to_string()], None);
    let f = rating(&r);
    assert_eq!(f.invalid, 1);
    close(f.tiers.none.as_ref().unwrap().nmae, 0.75, 0.0);
    // Chance (1+0+1+2+3)/5/4 = 0.35 -> CC = 100 (1 - 0.75/0.35).
    close(f.cc, 100.0 * (1.0 - 0.75 / 0.35), 1e-9);
}

#[test]
fn choice_c_mixes_ece_and_tvd() {
    // Two items with gold_probs. a: q = [0.8, 0.2], answer 0 right, g = [0.6, 0.4] -> TVD 0.2.
    // b: q = [0.3, 0.7], answer 1 wrong (gold 0), g = [1, 0] -> TVD 0.7.
    // ECE: bin 8 {0.8, right} 0.2, bin 7 {0.7, wrong} 0.7 -> 0.45; ece_score 10; TVD 0.45 -> 55.
    let lines = vec![
        r#"{"id":"a","options":["x","y"],"gold":"x","gold_probs":{"x":0.6,"y":0.4},"probs":{"x":0.8,"y":0.2}}"#.to_string(),
        r#"{"id":"b","options":["x","y"],"gold":"x","gold_probs":{"x":1,"y":0},"probs":{"x":0.3,"y":0.7}}"#.to_string(),
    ];
    let r = score(&lines, None);
    let c = choice(&r);
    close(c.ece, 0.45, 1e-12);
    close(c.tvd, 0.45, 1e-12);
    close(c.c, (10.0 + 55.0) / 2.0, 1e-9);
    close(ic(&r).overall.c, 32.5, 1e-9);
}

#[test]
fn both_splits_average_half_and_half() {
    // Open: easy 1/1 right (k 2) -> 100. Sealed: hard 0/1 (k 2) -> -100, standard 1/1 -> 100.
    // Sealed CC = (0.2 * 100 + 0.4 * -100) / 0.6 = -33.33; type CC = 0.5 * 100 + 0.5 * -33.33.
    let with = |line: String, split: &str| line.replace('}', &format!(",\"split\":\"{split}\"}}"));
    let lines = vec![
        with(choice_item("o1", 2, 0, 0, Some("easy")), "open"),
        with(choice_item("s1", 2, 0, 1, Some("hard")), "sealed"),
        with(choice_item("s2", 2, 0, 0, Some("standard")), "sealed"),
    ];
    let r = score(&lines, None);
    let c = choice(&r);
    let sealed = (0.2 * 100.0 + 0.4 * -100.0) / 0.6;
    close(c.cc, 0.5 * 100.0 + 0.5 * sealed, 1e-9);
    let splits = c.splits.as_ref().expect("both splits reported");
    close(splits.open.cc, 100.0, 1e-12);
    close(splits.sealed.cc, sealed, 1e-9);
    assert_eq!((splits.open.items, splits.sealed.items), (1, 2));
    let w = splits.sealed.tiers.hard.as_ref().unwrap().weight;
    assert!((w - 0.4 / 0.6).abs() < 1e-15);
    // One split only: no `splits`.
    let r = score(&lines[1..], None);
    assert!(choice(&r).splits.is_none());
}

#[test]
fn modality_scopes_repeat_every_figure() {
    let lines = vec![
        choice_item("t1", 2, 0, 0, None).replace('}', ",\"modality\":\"text\"}"),
        choice_item("t2", 2, 0, 0, None).replace('}', ",\"modality\":\"text\"}"),
        choice_item("i1", 2, 0, 1, None).replace('}', ",\"modality\":\"image\"}"),
        binary_item("i2", "yes", 0.9, ",\"modality\":\"image\""),
        choice_item("n1", 4, 0, 0, None),
    ];
    let r = score(&lines, None);
    let f = ic(&r);
    let text = f.scopes.text.as_ref().unwrap();
    let image = f.scopes.image.as_ref().unwrap();
    assert_eq!((f.overall.items, text.items, image.items), (5, 2, 2));
    close(text.i, 100.0, 1e-12);
    assert!(text.types.binary.is_none());
    // Image: choice -100, binary 100 -> I = 0; i_weighted = (0.5 * -100 + 0.25 * 100) / 0.75.
    close(image.i, 0.0, 1e-12);
    close(image.i_weighted, (0.5 * -100.0 + 0.25 * 100.0) / 0.75, 1e-9);
    close(
        image.types.binary.as_ref().unwrap().c,
        100.0 * (1.0 - 2.0 * 0.1),
        1e-9,
    );
    // Overall pools all five: choice 3/4 right, cbar (0.5*3 + 0.25)/4.
    let cbar: f64 = (0.5 * 3.0 + 0.25) / 4.0;
    close(choice(&r).cc, 100.0 * (0.75 - cbar) / (1.0 - cbar), 1e-9);
    let none = score(&lines[4..], None);
    assert!(ic(&none).scopes.text.is_none() && ic(&none).scopes.image.is_none());
}

#[test]
fn i_is_the_plain_mean_and_i_weighted_the_50_25_25_mean() {
    // Choice 100, binary -100 (abstention), rating: answer level 0 of 3 with gold 0 -> 100.
    let lines = vec![
        choice_item("c", 2, 0, 0, None),
        binary_item("b", "yes", 0.5, ""),
        r#"{"id":"r","type":"rating","options":["0","1","2"],"gold":"0","answer":"0"}"#.to_string(),
    ];
    let r = score(&lines, None);
    close(ic(&r).overall.i, 100.0 / 3.0, 1e-9);
    close(
        ic(&r).overall.i_weighted,
        0.5 * 100.0 - 0.25 * 100.0 + 0.25 * 100.0,
        1e-9,
    );
}

#[test]
fn no_option_items_means_no_ic() {
    let lines = vec![r#"{"id":"p","type":"pair","chosen":1,"rejected":0}"#.to_string()];
    let r = score(&lines, None);
    assert!(r.ic.is_none() && r.multi.is_none());
    let json = r.to_json();
    assert!(json.contains("\"ic\": null"), "{json}");
}

#[test]
fn the_binary_decision_reads_the_conditioned_q_yes() {
    // Totals of 0.999 condition to 0.2002 and 0.7908: both abstain, where the raw 0.2 would have
    // decided. A total of 0.8 conditions 0.78 to 0.975: yes.
    let lines = vec![
        r#"{"id":"a","type":"binary","gold":"no","probs":{"yes":0.2,"no":0.799}}"#.to_string(),
        r#"{"id":"b","type":"binary","gold":"yes","probs":{"yes":0.79,"no":0.209}}"#.to_string(),
        r#"{"id":"c","type":"binary","gold":"yes","probs":{"yes":0.78,"no":0.02}}"#.to_string(),
    ];
    let b = binary(&score(&lines, None)).clone();
    close(b.abstention_rate, 2.0 / 3.0, 0.0);
    close(b.tiers.none.as_ref().unwrap().accuracy, 1.0 / 3.0, 0.0);
    // Calibration bins the same conditioned q_yes: 0.2/0.999, 0.79/0.999 and 0.78/0.8 in bins 2,
    // 7 and 9, one item each.
    let want = (0.2 / 0.999 + (1.0 - 0.79 / 0.999) + (1.0 - 0.78 / 0.8)) / 3.0;
    close(b.ece, want, 1e-12);
}
