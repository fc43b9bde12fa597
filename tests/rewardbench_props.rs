//! Invariants of the RewardBench figures: order of rows and files does not matter, merged parts
//! equal the whole, figures stay in their bounds, the histogram holds every margin once.

mod rewardbench_util;
use proptest::prelude::*;
use rewardbench_util::*;
use scorelens::metrics::pairwise::{histogram, weighted_mean_in_order, Margins};
use scorelens::metrics::ties::{Ties, TiesKind};

const SUBSETS: [&str; 8] = [
    "alpacaeval-easy",
    "mt-bench-hard",
    "llmbar-natural",
    "donotanswer",
    "math-prm",
    "hep-go",
    "shp",
    "other-set",
];

/// Rows (subset index, chosen, rejected) with small integer scores, so that ties are common.
fn rows() -> impl Strategy<Value = Vec<(usize, i8, i8)>> {
    prop::collection::vec((0..SUBSETS.len(), -3i8..4, -3i8..4), 1..80)
}

fn pairs_of(rows: &[(usize, i8, i8)]) -> Vec<Pair> {
    rows.iter()
        .enumerate()
        .map(|(i, &(s, c, r))| Pair {
            id: i as u64,
            subset: SUBSETS[s].to_string(),
            chosen: serde_json::json!([f64::from(c)]),
            rejected: serde_json::json!(f64::from(r)),
        })
        .collect()
}

fn margin_rows() -> impl Strategy<Value = Vec<(u8, f64)>> {
    prop::collection::vec((0u8..4, -50.0f64..50.0), 0..60)
}

fn margins_of(rows: &[(u8, f64)], range: std::ops::Range<usize>) -> Margins {
    let mut m = Margins::default();
    for (i, (g, x)) in rows.iter().enumerate().skip(range.start).take(range.len()) {
        m.add(&format!("g{g}"), &format!("id{i}"), None, x.round() / 4.0);
    }
    m
}

/// Ties prompts: (kind, prompt number, scores, correct count).
fn ties_rows() -> impl Strategy<Value = Vec<(bool, u64, Vec<i8>, usize)>> {
    prop::collection::vec(
        (
            any::<bool>(),
            0u64..12,
            prop::collection::vec(0i8..6, 2..7),
            1usize..4,
        ),
        1..40,
    )
}

fn ties_of(rows: &[(bool, u64, Vec<i8>, usize)]) -> Ties {
    let mut t = Ties::default();
    for (is_ref, n, scores, k) in rows {
        let kind = if *is_ref {
            TiesKind::Ref
        } else {
            TiesKind::Tied
        };
        let scores: Vec<f64> = scores.iter().map(|&s| f64::from(s)).collect();
        t.add(kind, *n, &scores, (*k).min(scores.len() - 1));
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn row_and_file_order_do_not_change_the_figures(rows in rows(), cut in 0usize..80) {
        let pairs = pairs_of(&rows);
        let whole = score("a.json", &v1_file(&pairs));
        let mut reversed = pairs_of(&rows);
        reversed.reverse();
        let cut = cut.min(reversed.len());
        let tail = reversed.split_off(cut);
        let mut files = vec![("b.json".to_string(), v1_file(&tail))];
        if !reversed.is_empty() {
            files.push(("c.json".to_string(), v1_file(&reversed)));
        }
        let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let split = run(&files, None).unwrap();
        let (a, b) = (rb(&whole), rb(&split));
        prop_assert_eq!(&a.sections, &b.sections);
        prop_assert_eq!(a.overall, b.overall);
        prop_assert_eq!(&a.subsets, &b.subsets);
        prop_assert_eq!(&a.margins, &b.margins);
        prop_assert_eq!(&a.unknown_subsets, &b.unknown_subsets);
    }

    #[test]
    fn sections_stay_within_their_subsets(rows in rows()) {
        let r = score("a.json", &v1_file(&pairs_of(&rows)));
        let f = rb(&r);
        for s in &f.section_details {
            let subs: Vec<f64> = s.subsets.iter().filter_map(|n| *f.subsets.get(n).unwrap()).collect();
            match s.score {
                Some(x) => {
                    let lo = subs.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = subs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    prop_assert!(lo - 1e-15 <= x && x <= hi + 1e-15, "{} {x} not in [{lo}, {hi}]", s.name);
                }
                None => prop_assert!(subs.is_empty()),
            }
        }
        if let Some(o) = f.overall {
            prop_assert!((0.0..=1.0).contains(&o));
        }
        let ties = rows.iter().filter(|(_, c, r)| c == r).count() as u64;
        prop_assert_eq!(f.margins.ties, ties);
    }

    #[test]
    fn margins_merge_to_the_whole(rows in margin_rows(), cut in 0usize..60) {
        let cut = cut.min(rows.len());
        let whole = margins_of(&rows, 0..rows.len());
        let mut left = margins_of(&rows, cut..rows.len());
        left.merge(margins_of(&rows, 0..cut));
        prop_assert_eq!(whole.finish(), left.finish());
        for g in 0..4 {
            let name = format!("g{g}");
            prop_assert_eq!(whole.worst(&name), left.worst(&name));
            prop_assert_eq!(whole.ties(&name), left.ties(&name));
        }
    }

    #[test]
    fn ties_merge_to_the_whole_in_any_order(rows in ties_rows(), cut in 0usize..40) {
        let cut = cut.min(rows.len());
        let whole = ties_of(&rows).finish();
        let mut merged = ties_of(&rows[cut..]);
        merged.merge(ties_of(&rows[..cut]));
        prop_assert_eq!(&whole, &merged.finish());
        let mut reversed = rows.clone();
        reversed.reverse();
        prop_assert_eq!(&whole, &ties_of(&reversed).finish());
        if let Some(s) = whole.score {
            // 0.3 + 0.3 + 0.2 + 0.2 of shares in [0, 1], and 0.01 of a mean in [-1, 1].
            prop_assert!((-0.01..=1.01).contains(&s));
        }
    }

    #[test]
    fn the_histogram_holds_every_margin_once(xs in prop::collection::vec(-1e3f64..1e3, 0..100)) {
        let bins = histogram(&xs);
        prop_assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), xs.len() as u64);
        for (i, b) in bins.iter().enumerate() {
            prop_assert!(b.lo <= b.hi);
            if i > 0 {
                prop_assert_eq!(bins[i - 1].hi, b.lo);
            }
        }
    }

    #[test]
    fn weighted_means_lie_between_their_values(terms in prop::collection::vec((0.0f64..1.0, 1.0f64..1000.0), 1..10)) {
        let m = weighted_mean_in_order(terms.iter().copied()).unwrap();
        let lo = terms.iter().map(|t| t.0).fold(f64::INFINITY, f64::min);
        let hi = terms.iter().map(|t| t.0).fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(lo - 1e-12 <= m && m <= hi + 1e-12);
    }
}
