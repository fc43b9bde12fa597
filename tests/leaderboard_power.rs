//! The leaderboard's tests at the size users bring: 12 runs of 2,000 items, three of them the same
//! file, nine with accuracy from 0.30 to 0.95 at one confidence. Holm over 66 pairs must still let
//! far-apart runs differ on every figure the bootstrap tests (ECE both ways, macro accuracy, I, C),
//! which a p-value counted from the resamples (floored at 2 / (B + 1)) never could, and must never
//! let the identical runs differ. The paired z-test on Brier is checked against its textbook form
//! computed here from the probabilities (one stratum, every item its own unit).

use scorelens::leaderboard::{leaderboard, Leaderboard};
use scorelens::{score_run, BootstrapOptions, Input, Options, Run};

const ITEMS: usize = 2000;
const CONFIDENCE: f64 = 0.7;

/// A small deterministic generator (xorshift64*), so the runs are the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Per item: the option the run favours (0 is the gold), at `CONFIDENCE`, the rest spread evenly.
fn answers(accuracy: f64, seed: u64) -> Vec<usize> {
    let mut rng = Rng(seed);
    (0..ITEMS)
        .map(|_| {
            if rng.next() < accuracy {
                0
            } else {
                1 + (rng.next() * 3.0) as usize % 3
            }
        })
        .collect()
}

fn probs(favoured: usize) -> [f64; 4] {
    let rest = (1.0 - CONFIDENCE) / 3.0;
    let mut p = [rest; 4];
    p[favoured] = CONFIDENCE;
    p
}

fn run(name: &str, favoured: &[usize]) -> Run {
    let mut body = String::from("{\"scorelens\": 1, \"benchmark\": \"generic\"}\n");
    for (i, &f) in favoured.iter().enumerate() {
        let p = probs(f);
        body += &format!(
            r#"{{"id": "q{i:04}", "options": ["A", "B", "C", "D"], "gold": "A", "probs": {{"A": {}, "B": {}, "C": {}, "D": {}}}, "group": "g{}"}}"#,
            p[0],
            p[1],
            p[2],
            p[3],
            i % 8
        );
        body.push('\n');
    }
    let input = Input {
        name,
        bytes: body.as_bytes(),
    };
    score_run(name, [input], &Options::default()).unwrap()
}

fn runs() -> (Vec<Run>, Vec<Vec<usize>>) {
    let mut answered = Vec::new();
    let mut names = Vec::new();
    let same = answers(0.6, 99);
    for k in 0..3 {
        names.push(format!("same-{k}"));
        answered.push(same.clone());
    }
    for k in 0..9 {
        let accuracy = 0.30 + 0.65 * k as f64 / 8.0;
        names.push(format!("skill-{k}"));
        answered.push(answers(accuracy, 7 + k as u64));
    }
    let runs = names
        .iter()
        .zip(&answered)
        .map(|(n, a)| run(n, a))
        .collect();
    (runs, answered)
}

fn pair<'a>(
    l: &'a Leaderboard,
    figure: &str,
    a: &str,
    b: &str,
) -> &'a scorelens::leaderboard::PairDiff {
    let board = l
        .board(figure)
        .unwrap_or_else(|| panic!("{figure}: no board"));
    board
        .pairs
        .iter()
        .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
        .unwrap()
}

#[test]
fn far_apart_runs_differ_on_every_figure_and_identical_runs_never_do() {
    let (runs, answered) = runs();
    let l = leaderboard(
        &runs,
        &BootstrapOptions {
            resamples: 500,
            seed: 3,
        },
    );
    assert_eq!(l.common, ITEMS as u64);
    // The bootstrap-tested figures: far apart on each (ECE 0.40 against 0.25, accuracy 0.30
    // against 0.95), they must differ after Holm over all 66 pairs.
    for figure in [
        "conditioning.ece",
        "conditioning.ece_em",
        "metrics.macro_accuracy",
        "ic.i",
        "ic.c",
    ] {
        let p = pair(&l, figure, "skill-0", "skill-8");
        assert_eq!(p.test, "bootstrap-z", "{figure}");
        assert!(p.differs, "{figure}: {p:?}");
        // Far below what 66 × 2 / 501 (the floor of a counted p-value, adjusted) could reach.
        assert!(p.p_adjusted < 1e-6, "{figure}: {p:?}");
    }
    for (figure, test) in [
        ("metrics.accuracy", "mcnemar"),
        ("metrics.normalized", "paired-z"),
        ("conditioning.brier", "paired-z"),
        ("conditioning.nll", "paired-z"),
    ] {
        let p = pair(&l, figure, "skill-0", "skill-8");
        assert_eq!(p.test, test, "{figure}");
        assert!(p.differs, "{figure}: {p:?}");
    }
    // Three copies of one file: every pair of them, on every figure, p = 1 and no difference.
    let mut checked = 0;
    for b in l.figures.iter().chain(&l.subsets) {
        for p in b
            .pairs
            .iter()
            .filter(|p| p.a.starts_with("same") && p.b.starts_with("same"))
        {
            assert!(
                !p.differs && p.p_value == 1.0 && p.delta == 0.0,
                "{}: {p:?}",
                b.figure
            );
            checked += 1;
        }
        let tied: Vec<u32> = b
            .standings
            .iter()
            .filter(|s| s.run.starts_with("same"))
            .map(|s| s.tied_rank)
            .collect();
        assert!(
            tied.windows(2).all(|w| w[0] == w[1]),
            "{}: {tied:?}",
            b.figure
        );
    }
    assert!(checked >= 3 * 20, "{checked}");
    // Tied ranks agree with "differs": the best run on accuracy differs from every other.
    let acc = l.board("metrics.accuracy").unwrap();
    assert_eq!(acc.standings[0].run, "skill-8");
    assert_eq!(acc.standings[0].tied_rank, 1);
    assert_eq!(acc.leader.as_deref(), Some("skill-8"));

    // Brier's paired z-test, worked here: d_i = Brier_i(A) − Brier_i(B) with Brier_i =
    // (1/4) Σ (q − y)², SE = sqrt(n/(n−1) Σ (d_i − d̄)²) / n over the whole file. The groups are
    // the strata, so the test's SE sums the same over each group; g0..g7 hold 250 items each.
    let brier = |f: usize| {
        let p = probs(f);
        p.iter()
            .enumerate()
            .map(|(o, q)| (q - f64::from(u8::from(o == 0))).powi(2))
            .sum::<f64>()
            / 4.0
    };
    for (a, b) in [(3usize, 4usize), (3, 11), (7, 8)] {
        let d: Vec<f64> = (0..ITEMS)
            .map(|i| brier(answered[a][i]) - brier(answered[b][i]))
            .collect();
        let mut var = 0.0;
        for g in 0..8 {
            let z: Vec<f64> = (g..ITEMS).step_by(8).map(|i| d[i] / ITEMS as f64).collect();
            let m = z.len() as f64;
            let mean = z.iter().sum::<f64>() / m;
            var += m / (m - 1.0) * z.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
        }
        let se = var.sqrt();
        let delta = d.iter().sum::<f64>() / ITEMS as f64;
        let p = libm::erfc(delta.abs() / se / std::f64::consts::SQRT_2);
        let names = (runs[a].name.as_str(), runs[b].name.as_str());
        let got = pair(&l, "conditioning.brier", names.0, names.1);
        let sign = if got.a == names.0 { 1.0 } else { -1.0 };
        assert!((got.delta - sign * delta).abs() < 1e-12, "{got:?} {delta}");
        assert!(
            (got.se.unwrap() - se).abs() < 1e-12 * se.max(1e-300),
            "{got:?} {se}"
        );
        assert!((got.p_value - p).abs() < 1e-9, "{got:?} {p}");
    }
}
