//! Invariants of the leaderboard: the runs' order does not matter (ranks follow the runs), ranks
//! stay within 1..=N with lo ≤ median ≤ hi, and Holm's adjusted p-values lie in [0, 1], never
//! below the raw ones, and rise with them.

use proptest::prelude::*;
use scorelens::leaderboard::holm::holm;
use scorelens::leaderboard::{leaderboard, Leaderboard};
use scorelens::{score_run, BootstrapOptions, Input, Options, Run};
use std::collections::BTreeMap;

/// Per run, per item: the answer given among `options` (gold is always "A"). Every run lists the
/// same items in the same order, so the resampling design does not depend on which run is first.
fn runs() -> impl Strategy<Value = (Vec<u8>, Vec<Vec<u8>>)> {
    (6usize..30, 2usize..6).prop_flat_map(|(items, n)| {
        (
            prop::collection::vec(0u8..3, items),
            prop::collection::vec(prop::collection::vec(0u8..3, items), n),
        )
    })
}

fn scored(groups: &[u8], answers: &[Vec<u8>]) -> Vec<Run> {
    answers
        .iter()
        .enumerate()
        .map(|(r, given)| {
            let name = format!("run{r}");
            let mut body = String::from("{\"scorelens\": 1, \"benchmark\": \"generic\"}\n");
            for (i, (g, a)) in groups.iter().zip(given).enumerate() {
                let answer = ["A", "B", "C"][*a as usize];
                body += &format!(
                    r#"{{"id": "i{i}", "type": "choice", "options": ["A", "B", "C"], "gold": "A", "answer": "{answer}", "group": "g{g}"}}"#
                );
                body.push('\n');
            }
            let input = Input {
                name: &name,
                bytes: body.as_bytes(),
            };
            score_run(&name, [input], &Options::default()).unwrap()
        })
        .collect()
}

/// Standings keyed by (figure, run); pairs by (figure, one run, the other) in name order.
type Standings = BTreeMap<(String, String), String>;
type Pairs = BTreeMap<(String, String, String), String>;

/// Every figure's standings by run, and every pair's tests by unordered pair.
fn by_run(l: &Leaderboard) -> (Standings, Pairs) {
    let mut standings = BTreeMap::new();
    let mut pairs = BTreeMap::new();
    for b in l.figures.iter().chain(&l.subsets) {
        for s in &b.standings {
            let v = format!(
                "{:?} {:?} {:?} {} {} {} {} {}",
                s.value, s.lo, s.hi, s.rank, s.rank_lo, s.rank_median, s.rank_hi, s.undefined
            );
            standings.insert((b.figure.clone(), s.run.clone()), v);
        }
        for p in &b.pairs {
            let (x, y) = if p.a < p.b {
                (&p.a, &p.b)
            } else {
                (&p.b, &p.a)
            };
            let v = format!(
                "{} {:?} {:?} {}",
                p.p_value, p.p_adjusted, p.better, p.differs
            );
            pairs.insert((b.figure.clone(), x.clone(), y.clone()), v);
        }
    }
    (standings, pairs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn ranks_follow_the_runs_whatever_their_order((groups, answers) in runs(), rot in 0usize..5) {
        let opts = BootstrapOptions { resamples: 80, seed: 4 };
        let forward = scored(&groups, &answers);
        let mut turned: Vec<Run> = scored(&groups, &answers);
        turned.reverse();
        let k = rot % turned.len();
        turned.rotate_left(k);
        let (a, b) = (leaderboard(&forward, &opts), leaderboard(&turned, &opts));
        prop_assert_eq!(by_run(&a), by_run(&b));
    }

    #[test]
    fn ranks_and_p_values_stay_in_bounds((groups, answers) in runs()) {
        let runs = scored(&groups, &answers);
        let n = runs.len() as u32;
        let l = leaderboard(&runs, &BootstrapOptions { resamples: 60, seed: 8 });
        prop_assert!(!l.figures.is_empty());
        for b in l.figures.iter().chain(&l.subsets) {
            for s in &b.standings {
                prop_assert!(1 <= s.rank_lo && s.rank_lo <= s.rank_median);
                prop_assert!(s.rank_median <= s.rank_hi && s.rank_hi <= n);
                prop_assert!(1 <= s.rank && s.rank <= n);
            }
            let mut pairs: Vec<_> = b.pairs.iter().collect();
            prop_assert_eq!(pairs.len() as u32, n * (n - 1) / 2);
            for p in &pairs {
                prop_assert!((0.0..=1.0).contains(&p.p_value));
                prop_assert!((0.0..=1.0).contains(&p.p_adjusted));
                prop_assert!(p.p_adjusted >= p.p_value);
            }
            // Within one figure's family (headline figures), adjusted values rise with raw ones.
            if !b.figure.starts_with("subsets.") {
                pairs.sort_by(|x, y| x.p_value.total_cmp(&y.p_value));
                for w in pairs.windows(2) {
                    prop_assert!(w[0].p_adjusted <= w[1].p_adjusted);
                }
            }
        }
    }

    #[test]
    fn holm_is_bounded_monotone_and_never_below_raw(raw in prop::collection::vec(0.0f64..=1.0, 0..40)) {
        let adj = holm(&raw);
        prop_assert_eq!(adj.len(), raw.len());
        for (a, r) in adj.iter().zip(&raw) {
            prop_assert!(*a >= *r && *a <= 1.0);
            // Never above Bonferroni's m × p.
            prop_assert!(*a <= (raw.len() as f64 * r).min(1.0) + 1e-15);
        }
        let mut order: Vec<usize> = (0..raw.len()).collect();
        order.sort_by(|&i, &j| raw[i].total_cmp(&raw[j]));
        for w in order.windows(2) {
            prop_assert!(adj[w[0]] <= adj[w[1]]);
        }
    }
}
