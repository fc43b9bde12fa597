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

/// Runs with probabilities (so that Brier, ECE and I/C are ranked too); `answers[r][i]` is the
/// option run r puts most mass on.
fn with_probs(groups: &[u8], answers: &[Vec<u8>]) -> Vec<Run> {
    answers
        .iter()
        .enumerate()
        .map(|(r, given)| {
            let name = format!("run{r}");
            let mut body = String::from("{\"scorelens\": 1, \"benchmark\": \"generic\"}\n");
            for (i, (g, a)) in groups.iter().zip(given).enumerate() {
                let top = 0.4 + 0.05 * ((i * 7 + r * 3) % 11) as f64;
                let rest = (1.0 - top) / 2.0;
                let p: Vec<f64> = (0..3u8).map(|o| if o == *a { top } else { rest }).collect();
                body += &format!(
                    r#"{{"id": "i{i}", "type": "choice", "options": ["A", "B", "C"], "gold": "A", "probs": {{"A": {}, "B": {}, "C": {}}}, "group": "g{g}"}}"#,
                    p[0], p[1], p[2]
                );
                body.push('\n');
            }
            score_text(&name, &body)
        })
        .collect()
}

/// Two-option runs whose lines come in the order `order` gives: every figure is then a sum of
/// values exact in binary (0, 1 and -1), so no sum depends on the order it is taken in.
fn two_options(groups: &[u8], answers: &[Vec<u8>], order: &[usize]) -> Vec<Run> {
    answers
        .iter()
        .enumerate()
        .map(|(r, given)| {
            let name = format!("run{r}");
            let mut body = String::from("{\"scorelens\": 1, \"benchmark\": \"generic\"}\n");
            for &i in order {
                let answer = if given[i] == 0 { "A" } else { "B" };
                body += &format!(
                    r#"{{"id": "i{i}", "type": "choice", "options": ["A", "B"], "gold": "A", "answer": "{answer}", "group": "g{}"}}"#,
                    groups[i]
                );
                body.push('\n');
            }
            score_text(&name, &body)
        })
        .collect()
}

fn score_text(name: &str, body: &str) -> Run {
    let input = Input {
        name,
        bytes: body.as_bytes(),
    };
    score_run(name, [input], &Options::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The same files named in any order give the same leaderboard byte for byte: runs, shared
    /// items, strata, units and subsets are all taken in a canonical order.
    #[test]
    fn the_order_of_the_files_does_not_change_a_byte((groups, answers) in runs(), rot in 0usize..5) {
        let opts = BootstrapOptions { resamples: 60, seed: 11 };
        let base = with_probs(&groups, &answers);
        let mut turned = with_probs(&groups, &answers);
        turned.reverse();
        let k = rot % turned.len();
        turned.rotate_left(k);
        prop_assert_eq!(leaderboard(&base, &opts).to_json(), leaderboard(&turned, &opts).to_json());
    }

    /// Lines in any order (each file its own order) and files in any order: the same leaderboard
    /// byte for byte, where no sum depends on its order (see `two_options`).
    #[test]
    fn the_order_of_the_lines_does_not_change_a_byte(
        (groups, answers) in runs(),
        rot in 0usize..5,
        seed in any::<u64>(),
    ) {
        let opts = BootstrapOptions { resamples: 60, seed: 11 };
        let items = groups.len();
        let forward: Vec<usize> = (0..items).collect();
        let base = leaderboard(&two_options(&groups, &answers, &forward), &opts);
        let mut x = seed | 1;
        let mut runs: Vec<Run> = (0..answers.len())
            .map(|r| {
                let mut order = forward.clone();
                for i in (1..items).rev() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    order.swap(i, (x % (i as u64 + 1)) as usize);
                }
                two_options(&groups, &answers, &order).swap_remove(r)
            })
            .collect();
        let k = rot % runs.len();
        runs.rotate_left(k);
        prop_assert_eq!(base.to_json(), leaderboard(&runs, &opts).to_json());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// `figures_lanes` (the leaderboard's blocks of resamples: prefix sums, both ECEs read off
    /// them) gives every figure `figures` gives lane by lane, to 1e-12.
    #[test]
    fn lanes_give_the_figures_of_each_resample(
        (groups, answers) in runs(),
        weights in prop::collection::vec(prop::array::uniform16(0u16..4), 30),
    ) {
        use scorelens::metrics::bootstrap::LaneBuf;
        use scorelens::metrics::lanes::LANES;
        let runs = with_probs(&groups, &answers);
        let sample = &runs[0].sample;
        let w = &weights[..sample.len()];
        let (mut lanes, mut one) = (Vec::new(), Vec::new());
        sample.figures_lanes(w, &mut lanes, &mut LaneBuf::default());
        let names = sample.names().len();
        prop_assert_eq!(lanes.len(), names * LANES);
        for k in 0..LANES {
            let column: Vec<u32> = w.iter().map(|x| u32::from(x[k])).collect();
            sample.figures(&column, &mut one);
            for (f, (a, b)) in lanes[k * names..(k + 1) * names].iter().zip(&one).enumerate() {
                match (a, b) {
                    (Some(a), Some(b)) => prop_assert!((a - b).abs() <= 1e-12, "{} lane {}: {} vs {}", f, k, a, b),
                    _ => prop_assert_eq!(a.is_some(), b.is_some(), "{} lane {}", f, k),
                }
            }
        }
    }
}
