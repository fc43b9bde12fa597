//! `--by`: ranking one figure computes only what that figure needs, and its board is the full
//! leaderboard's board for that figure exactly (values, intervals, ranks, tests, adjustments).

use scorelens::leaderboard::{leaderboard_of, Joined};
use scorelens::{score_run, BootstrapOptions, Input, Options, Run};

/// Run `r` of four: 300 choice items over three groups, with probabilities, its accuracy
/// rising with `r`.
fn run(r: usize) -> Run {
    let name = format!("run-{r}");
    let mut body =
        format!("{{\"scorelens\": 1, \"model\": \"{name}\", \"benchmark\": \"generic\"}}\n");
    let mut x: u64 = 0x9e37_79b9 + r as u64;
    for i in 0..300 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let u = (x >> 11) as f64 / (1u64 << 53) as f64;
        let right = u < 0.4 + 0.12 * r as f64;
        let p = 0.5 + 0.45 * u;
        let (answer, probs) = if right {
            ("A", format!("{{\"A\": {p}, \"B\": {}}}", 1.0 - p))
        } else {
            ("B", format!("{{\"A\": {}, \"B\": {p}}}", 1.0 - p))
        };
        body += &format!(
            "{{\"id\": \"q{i}\", \"type\": \"choice\", \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"answer\": \"{answer}\", \"probs\": {probs}, \"group\": \"g{}\"}}\n",
            i % 3
        );
    }
    let input = Input {
        name: &name,
        bytes: body.as_bytes(),
    };
    score_run(&name, [input], &Options::default()).unwrap()
}

#[test]
fn one_figure_alone_is_its_board_in_the_whole_leaderboard() {
    let runs: Vec<Run> = (0..4).map(run).collect();
    let opts = BootstrapOptions {
        resamples: 96,
        seed: 5,
    };
    let draw = |j: &Joined, o: &BootstrapOptions| vec![j.draws(o, 0..o.resamples)];
    let full = leaderboard_of(Joined::new(&runs), &opts, draw);
    assert!(full.figures.len() > 5 && full.subsets.len() == 3);
    for f in [
        "metrics.accuracy",
        "conditioning.ece",
        "conditioning.brier",
        "ic.c",
        "subsets.g1.accuracy",
    ] {
        let only = Joined::new(&runs).only(f).expect(f);
        let by = leaderboard_of(only, &opts, draw);
        assert_eq!(by.board(f), full.board(f), "{f}");
        if f.starts_with("subsets.") {
            // Holm's family is every subset's pairs: all subsets stay, no headline figure.
            assert!(by.figures.is_empty());
            assert_eq!(by.subsets, full.subsets, "{f}");
        } else {
            assert_eq!(by.figures.len(), 1, "{f}");
            assert!(by.subsets.is_empty(), "{f}");
        }
        assert!(
            by.notes.iter().any(|n| n.contains("`--by`")),
            "{f}: {:?}",
            by.notes
        );
    }
    assert!(Joined::new(&runs).only("metrics.nothing").is_none());
    assert!(Joined::new(&runs).only("subsets.g9.accuracy").is_none());
}
