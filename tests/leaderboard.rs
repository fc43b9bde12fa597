//! The leaderboard against values worked by hand: three runs of ten items, two subsets of five.
//!
//! Subset g1 holds items 1–5, g2 items 6–10. A is right on all ten, B on g1 only, C on none; A also
//! has an item 11 that B and C lack. Strata are the groups (five units each, so neither is pooled):
//! every resample draws five items from g1 and five from g2, whatever the seed. So in every
//! resample A's accuracy is 10/10 = 1, B's 5/10 = 0.5 (all of g1 right, all of g2 wrong) and C's
//! 0: the ranks are 1, 2, 3 in every resample, the intervals collapse onto the points, and A − B
//! is 0.5 in every resample.
//!
//! McNemar's exact test, p = min(1, 2 P(X ≤ min(b, c))), X ~ Binomial(b + c, 1/2):
//!   A vs B: A alone right on 6–10 (b = 5, c = 0): 2 × (1/2)^5 = 0.0625
//!   A vs C: A alone right on 1–10 (b = 10, c = 0): 2 × (1/2)^10 = 0.001953125
//!   B vs C: B alone right on 1–5 (b = 5, c = 0): 0.0625
//! Holm over the three pairs (ascending 0.001953125, 0.0625, 0.0625):
//!   3 × 0.001953125 = 0.005859375; 2 × 0.0625 = 0.125; max(0.125, 1 × 0.0625) = 0.125.
//! At 0.05 only A vs C differs, so A, though first in every resample, does not lead.
//!
//! Subsets (one Holm family of 2 subsets × 3 pairs):
//!   g1: A = B = 1, C = 0. A vs B: no discordant item, p = 1; A vs C and B vs C: 0.0625.
//!   g2: A = 1, B = C = 0. A vs B and A vs C: 0.0625; B vs C: p = 1.
//!   Holm, ascending four × 0.0625 then two × 1: 6 × 0.0625 = 0.375, then 5 × 0.0625 = 0.3125,
//!   4 × and 3 × less again, so the running maximum keeps 0.375; the two ones stay 1.
//!   Nothing differs. On g1, A and B tie at the point and share rank 1 (competition ranking), C
//!   is third; on g2, B and C share rank 2.

use scorelens::leaderboard::{leaderboard, Board, Leaderboard};
use scorelens::{score_run, BootstrapOptions, Input, Options, Run};

fn line(id: usize, group: &str, right: bool) -> String {
    let answer = if right { "A" } else { "B" };
    format!(
        r#"{{"id": "q{id}", "type": "choice", "options": ["A", "B"], "gold": "A", "answer": "{answer}", "group": "{group}"}}"#
    )
}

/// A run whose items 1..=10 are right where `right(i)` holds, plus `extra` items.
fn run(name: &str, right: impl Fn(usize) -> bool, extra: &[usize]) -> Run {
    let mut body =
        format!("{{\"scorelens\": 1, \"model\": \"{name}\", \"benchmark\": \"generic\"}}\n");
    for i in (1..=10).chain(extra.iter().copied()) {
        let group = if i <= 5 { "g1" } else { "g2" };
        body += &line(i, group, right(i));
        body.push('\n');
    }
    let input = Input {
        name,
        bytes: body.as_bytes(),
    };
    score_run(name, [input], &Options::default()).unwrap()
}

fn hand_case(seed: u64) -> Leaderboard {
    let runs = [
        run("A", |_| true, &[11]),
        run("B", |i| i <= 5, &[]),
        run("C", |_| false, &[]),
    ];
    leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 400,
            seed,
        },
    )
}

fn ranks(b: &Board, run: &str) -> (u32, u32, u32, u32) {
    let s = b.standings.iter().find(|s| s.run == run).unwrap();
    (s.rank, s.rank_lo, s.rank_median, s.rank_hi)
}

fn near(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

#[test]
fn three_runs_ten_items_by_hand() {
    for seed in [1, 2024] {
        let l = hand_case(seed);
        assert_eq!(l.common, 10);
        assert_eq!(l.not_shared[0].count, 1);
        assert_eq!(l.not_shared[0].ids, ["q11"]);
        assert_eq!(l.not_shared[1].count, 0);
        assert_eq!(
            (l.bootstrap.strata.as_str(), l.bootstrap.strata_count),
            ("group", 2)
        );
        let acc = l.board("metrics.accuracy").unwrap();
        let order: Vec<&str> = acc.standings.iter().map(|s| s.run.as_str()).collect();
        assert_eq!(order, ["A", "B", "C"]);
        for (s, want) in acc.standings.iter().zip([1.0, 0.5, 0.0]) {
            near(s.value, want);
            near(s.lo.unwrap(), want);
            near(s.hi.unwrap(), want);
        }
        assert_eq!(ranks(acc, "A"), (1, 1, 1, 1));
        assert_eq!(ranks(acc, "B"), (2, 2, 2, 2));
        assert_eq!(ranks(acc, "C"), (3, 3, 3, 3));
        let want = [
            ("A", "B", 0.5, 0.0625, 0.125, false),
            ("A", "C", 1.0, 0.001953125, 0.005859375, true),
            ("B", "C", 0.5, 0.0625, 0.125, false),
        ];
        for (p, (a, b, d, raw, adj, differs)) in acc.pairs.iter().zip(want) {
            assert_eq!(
                (p.a.as_str(), p.b.as_str(), p.test.as_str()),
                (a, b, "mcnemar")
            );
            near(p.delta, d);
            near(p.lo.unwrap(), d);
            near(p.hi.unwrap(), d);
            near(p.p_value, raw);
            near(p.p_adjusted, adj);
            assert_eq!(p.differs, differs, "{a} vs {b}");
        }
        assert_eq!(acc.leader, None);

        let names: Vec<&str> = l.subsets.iter().map(|b| b.figure.as_str()).collect();
        assert_eq!(names, ["subsets.g1.accuracy", "subsets.g2.accuracy"]);
        let g1 = &l.subsets[0];
        assert_eq!(ranks(g1, "A"), (1, 1, 1, 1));
        assert_eq!(ranks(g1, "B"), (1, 1, 1, 1));
        assert_eq!(ranks(g1, "C"), (3, 3, 3, 3));
        let g2 = &l.subsets[1];
        assert_eq!(ranks(g2, "B"), (2, 2, 2, 2));
        assert_eq!(ranks(g2, "C"), (2, 2, 2, 2));
        let raw: Vec<f64> = l
            .subsets
            .iter()
            .flat_map(|b| &b.pairs)
            .map(|p| p.p_value)
            .collect();
        let adj: Vec<f64> = l
            .subsets
            .iter()
            .flat_map(|b| &b.pairs)
            .map(|p| p.p_adjusted)
            .collect();
        assert_eq!(raw, [1.0, 0.0625, 0.0625, 0.0625, 0.0625, 1.0]);
        assert_eq!(adj, [1.0, 0.375, 0.375, 0.375, 0.375, 1.0]);
        assert!(l.subsets.iter().all(|b| b.leader.is_none()));
        assert!(l.subsets.iter().flat_map(|b| &b.pairs).all(|p| !p.differs));
    }
}

#[test]
fn a_run_leads_only_when_it_differs_from_every_other() {
    // Two runs: A right on all ten, C on none. McNemar: 2 × (1/2)^10 = 0.001953125, a family of
    // one, so Holm leaves it; A differs from the only other run and leads.
    let runs = [run("A", |_| true, &[]), run("C", |_| false, &[])];
    let l = leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 100,
            seed: 3,
        },
    );
    let acc = l.board("metrics.accuracy").unwrap();
    near(acc.pairs[0].p_adjusted, 0.001953125);
    assert_eq!(acc.leader.as_deref(), Some("A"));
}

#[test]
fn the_same_seed_gives_the_same_leaderboard_and_threads_do_not_change_it() {
    let mut runs = [
        run("A", |i| i % 3 != 0, &[]),
        run("B", |i| i % 2 == 0, &[]),
        run("C", |i| i > 3, &[]),
        run("D", |i| i < 8, &[]),
    ];
    let opts = BootstrapOptions {
        resamples: 300,
        seed: 9,
    };
    let one = leaderboard(&runs, &opts);
    assert_eq!(one, leaderboard(&runs, &opts));
    // The runs' layouts for the draws let go (as the browser's worker does before the boards)
    // are made again by the next draws, the same.
    for r in &mut runs {
        r.sample.release_lanes();
    }
    assert_eq!(one, leaderboard(&runs, &opts));
    // Resamples drawn in three parts (as threads would) and joined in order.
    let parts = scorelens::leaderboard::leaderboard_with(&runs, &opts, |j, o| {
        vec![
            j.draws(o, 0..100),
            j.draws(o, 100..250),
            j.draws(o, 250..300),
        ]
    });
    assert_eq!(one.to_json(), parts.to_json());
    let other = leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 300,
            seed: 10,
        },
    );
    assert_ne!(one.to_json(), other.to_json());
}

#[test]
fn a_run_leads_on_a_subset_only_where_it_holds() {
    // A is right on all ten items; B only on g1 (items 1–5). On g1 they tie (1 and 1): no
    // discordant item, McNemar p = 1, nobody leads. On g2 A is right on five items B gets wrong:
    // p = 2 × (1/2)^5 = 0.0625 raw; with g1's pair the family has m = 2, so Holm gives
    // 2 × 0.0625 = 0.125 and A does not lead on g2 either, though it is first there in every
    // resample. Overall A leads B by 0.5 with p = 0.0625 (a family of one): not at 0.05.
    let runs = [run("A", |_| true, &[]), run("B", |i| i <= 5, &[])];
    let l = leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 100,
            seed: 3,
        },
    );
    let g2 = l.board("subsets.g2.accuracy").unwrap();
    near(g2.pairs[0].p_value, 0.0625);
    near(g2.pairs[0].p_adjusted, 0.125);
    assert_eq!(g2.leader, None);
    let g1 = l.board("subsets.g1.accuracy").unwrap();
    assert_eq!(g1.pairs[0].p_value, 1.0);
    assert_eq!((g1.standings[0].rank, g1.standings[1].rank), (1, 1));
    assert_eq!(g1.pairs[0].better, None);
    assert_eq!(l.board("metrics.accuracy").unwrap().leader, None);

    // With ten items per subset (items 1–10 in g1, 11–20 in g2; A right on all twenty, B on
    // g1's ten), g2's p is 2 × (1/2)^10 = 0.001953125, Holm's
    // 2 × that = 0.00390625: A leads on g2, and still nobody on g1.
    let wide = |name: &str, right: fn(usize) -> bool| {
        let mut body = format!("{{\"scorelens\": 1, \"model\": \"{name}\"}}\n");
        for i in 1..=20 {
            let group = if i <= 10 { "g1" } else { "g2" };
            body += &line(i, group, right(i));
            body.push('\n');
        }
        let input = Input {
            name,
            bytes: body.as_bytes(),
        };
        score_run(name, [input], &Options::default()).unwrap()
    };
    let runs = [wide("A", |_| true), wide("B", |i| i <= 10)];
    let l = leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 100,
            seed: 3,
        },
    );
    let g2 = l.board("subsets.g2.accuracy").unwrap();
    near(g2.pairs[0].p_value, 0.001953125);
    near(g2.pairs[0].p_adjusted, 0.00390625);
    assert_eq!(g2.leader.as_deref(), Some("A"));
    assert_eq!(l.board("subsets.g1.accuracy").unwrap().leader, None);
}
