//! The leaderboard against an independent numpy computation (scripts/reference/
//! leaderboard_reference.py), which ports the bootstrap's random numbers and the canonical
//! stratified design and recomputes every resample, rank, interval, test (McNemar, paired-z with
//! the CLT standard error, bootstrap-z), Holm adjustment and tied rank from the 13 runs it
//! generated. Ranks, tied ranks, test names and "differs" must match exactly; values and intervals
//! to 1e-12; p-values to 1e-9 (absolute) and standard errors to 1e-9 (relative).
//! (`--write` regenerates the reference file, `--check` says whether it is stale.)

mod leaderboard_util;

use leaderboard_util::{options, reference, runs, NATIVE_JSON};
use scorelens::leaderboard::{leaderboard, Leaderboard};
use serde_json::Value;

fn close(got: Option<f64>, want: &Value, what: &str) {
    let (g, w) = (got.unwrap(), want.as_f64().unwrap());
    assert!(
        (g - w).abs() <= 1e-12,
        "{what}: scorelens {g}, reference {w}"
    );
}

fn close_p(got: f64, want: &Value, what: &str) {
    let w = want.as_f64().unwrap();
    assert!(
        (got - w).abs() <= 1e-9,
        "{what}: scorelens {got}, reference {w}"
    );
}

fn close_se(got: Option<f64>, want: &Value, what: &str) {
    let (g, w) = (got.unwrap(), want.as_f64().unwrap());
    assert!(
        (g - w).abs() <= 1e-9 * w.abs() + 1e-15,
        "{what}: scorelens {g}, reference {w}"
    );
}

fn names(doc: &Value, key: &str) -> Vec<String> {
    doc[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn the_leaderboard(doc: &Value) -> Leaderboard {
    leaderboard(&runs(doc), &options(doc))
}

#[test]
fn rank_intervals_and_tests_match_the_numpy_reference() {
    let doc = reference();
    let l = the_leaderboard(&doc);
    assert_eq!(l.common, doc["common"].as_u64().unwrap());
    assert_eq!(
        l.bootstrap.strata_count as usize,
        doc["strata"].as_array().unwrap().len()
    );
    let n_runs = doc["runs"].as_array().unwrap().len();
    assert_eq!(n_runs, 13);
    let n_pairs = n_runs * (n_runs - 1) / 2;
    let boards = doc["boards"].as_object().unwrap();
    assert_eq!(boards.len(), 10, "five headline figures and five subsets");
    let mut checked = 0;
    for (figure, want) in boards {
        let board = l
            .board(figure)
            .unwrap_or_else(|| panic!("{figure}: no board"));
        assert_eq!(board.standings.len(), n_runs, "{figure}");
        for s in &board.standings {
            let w = &want["standings"][&s.run];
            let what = format!("{figure} {}", s.run);
            close(Some(s.value), &w["value"], &what);
            close(s.lo, &w["lo"], &format!("{what} lo"));
            close(s.hi, &w["hi"], &format!("{what} hi"));
            let ranks = (
                s.rank,
                s.tied_rank,
                s.rank_lo,
                s.rank_median,
                s.rank_hi,
                s.undefined,
            );
            let wr = |k: &str| w[k].as_u64().unwrap() as u32;
            let want_ranks = (
                wr("rank"),
                wr("tied_rank"),
                wr("rank_lo"),
                wr("rank_median"),
                wr("rank_hi"),
                wr("undefined"),
            );
            assert_eq!(
                ranks, want_ranks,
                "{what}: rank, tied rank, lo, median, hi, undefined"
            );
            checked += 1;
        }
        let pairs = want["pairs"].as_array().unwrap();
        assert_eq!(pairs.len(), n_pairs, "{figure}");
        assert_eq!(board.pairs.len(), pairs.len(), "{figure}");
        for (p, w) in board.pairs.iter().zip(pairs) {
            let what = format!("{figure} {} vs {}", p.a, p.b);
            assert_eq!(
                (p.a.as_str(), p.b.as_str()),
                (w["a"].as_str().unwrap(), w["b"].as_str().unwrap())
            );
            close(Some(p.delta), &w["delta"], &what);
            close(p.lo, &w["lo"], &format!("{what} lo"));
            close(p.hi, &w["hi"], &format!("{what} hi"));
            assert_eq!(p.test, w["test"].as_str().unwrap(), "{what}: test");
            close_se(p.se, &w["se"], &format!("{what} se"));
            close_p(p.p_value, &w["p_value"], &format!("{what} p"));
            close_p(
                p.p_adjusted,
                &w["p_adjusted"],
                &format!("{what} adjusted p"),
            );
            assert_eq!(p.better.as_deref(), w["better"].as_str(), "{what}: better");
            assert_eq!(
                p.differs,
                w["differs"].as_bool().unwrap(),
                "{what}: differs"
            );
            checked += 1;
        }
    }
    // 13 runs on ten boards, and 78 pairs on each.
    assert_eq!(checked, 10 * 13 + 10 * 78);
}

/// Runs 0.95 and 0.30 apart differ on the bootstrap-tested macro accuracy after Holm over all
/// 78 pairs, in scorelens's output and in the reference's.
#[test]
fn far_apart_runs_differ_on_the_bootstrap_tested_macro_accuracy() {
    let doc = reference();
    let l = the_leaderboard(&doc);
    let far = names(&doc, "far_apart");
    for figure in [
        "metrics.macro_accuracy",
        "metrics.macro_normalized",
        "metrics.accuracy",
        "metrics.normalized",
    ] {
        let board = l.board(figure).unwrap();
        let p = board
            .pairs
            .iter()
            .find(|p| far.contains(&p.a) && far.contains(&p.b))
            .unwrap();
        let want = doc["boards"][figure]["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["a"] == p.a.as_str() && w["b"] == p.b.as_str())
            .unwrap();
        assert!(
            p.differs && want["differs"].as_bool().unwrap(),
            "{figure} {} vs {}",
            p.a,
            p.b
        );
        assert!(p.p_adjusted < 1e-6, "{figure}: adjusted p {}", p.p_adjusted);
        if figure.starts_with("metrics.macro") {
            assert_eq!(p.test, "bootstrap-z", "{figure}");
            assert_eq!(want["test"], "bootstrap-z", "{figure}");
        }
    }
}

/// Three identical runs never differ from each other, on any figure scorelens ranks (also those
/// the reference does not compute): delta 0, p = 1, not different, the same ranks.
#[test]
fn identical_runs_never_differ() {
    let doc = reference();
    let l = the_leaderboard(&doc);
    let same = names(&doc, "identical");
    assert_eq!(same.len(), 3);
    let mut pairs = 0;
    for board in l.figures.iter().chain(&l.subsets) {
        let figure = &board.figure;
        for p in &board.pairs {
            if same.contains(&p.a) && same.contains(&p.b) {
                let what = format!("{figure} {} vs {}", p.a, p.b);
                assert_eq!(p.delta, 0.0, "{what}");
                assert_eq!((p.p_value, p.p_adjusted), (1.0, 1.0), "{what}");
                assert!(!p.differs && p.better.is_none(), "{what}");
                pairs += 1;
            }
        }
        let of: Vec<_> = board
            .standings
            .iter()
            .filter(|s| same.contains(&s.run))
            .map(|s| {
                (
                    s.value,
                    s.rank,
                    s.tied_rank,
                    s.rank_lo,
                    s.rank_median,
                    s.rank_hi,
                )
            })
            .collect();
        assert_eq!(of.len(), 3, "{figure}");
        assert!(of.iter().all(|x| *x == of[0]), "{figure}: {of:?}");
        if let Some(want) = doc["boards"].get(figure.as_str()) {
            for w in want["pairs"].as_array().unwrap() {
                let (a, b) = (w["a"].as_str().unwrap(), w["b"].as_str().unwrap());
                if same.iter().any(|s| s == a) && same.iter().any(|s| s == b) {
                    assert_eq!(w["p_value"], 1.0, "{figure} {a} vs {b}");
                    assert_eq!(w["differs"], false, "{figure} {a} vs {b}");
                }
            }
        }
    }
    assert!(
        pairs >= 3 * 10,
        "three pairs on every board, at least ten boards"
    );
}

#[test]
fn the_json_is_pinned_for_the_wasm32_check() {
    let doc = reference();
    let json = the_leaderboard(&doc).to_json() + "\n";
    if std::env::var_os("SCORELENS_WRITE_FIXTURE").is_some() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/leaderboard/reference-runs.json"
        );
        std::fs::write(path, &json).unwrap();
        return;
    }
    assert!(json == NATIVE_JSON, "the leaderboard JSON changed: check it, then rewrite the fixture with SCORELENS_WRITE_FIXTURE=1");
}

/// The browser's worker draws big runs in turns, letting each turn's lane layouts go before the
/// next (`Joined::turns`, `draws_into`, `release_lanes`): the same values, bit for bit, as one
/// draw over every run, and so the same leaderboard.
#[test]
fn runs_drawn_in_turns_give_the_one_draws_values() {
    use scorelens::leaderboard::{leaderboard_with, Joined, Replicates};
    let doc = reference();
    let (runs, opts) = (runs(&doc), options(&doc));
    let joined = Joined::new(&runs);
    let budget = runs.first().unwrap().sample.len() * 3;
    let turns = joined.turns(budget);
    assert!(turns.len() >= 4, "{turns:?}");
    // One after another over every run, each within the budget or a run alone.
    assert_eq!(turns.first().unwrap().start, 0);
    assert_eq!(turns.last().unwrap().end, runs.len());
    assert!(
        turns.windows(2).all(|w| w[0].end == w[1].start),
        "{turns:?}"
    );
    let mut by_name: Vec<&scorelens::Run> = runs.iter().collect();
    by_name.sort_by(|a, b| a.name.cmp(&b.name));
    for t in &turns {
        let items: usize = by_name[t.clone()].iter().map(|r| r.sample.len()).sum();
        assert!(items <= budget || t.len() == 1, "{t:?}: {items} items");
    }
    let ranges = [0..100u32, 100..opts.resamples];
    let mut parts: Vec<Replicates> = vec![Replicates::default(); ranges.len()];
    for of in &turns {
        for (r, into) in ranges.iter().zip(&mut parts) {
            joined.draws_into(&opts, r.clone(), of.clone(), into);
        }
        joined.release_lanes(of.clone());
    }
    let whole: Vec<Replicates> = ranges
        .iter()
        .map(|r| joined.draws(&opts, r.clone()))
        .collect();
    // As text: NaN (undefined in a resample) is not equal to itself.
    assert!(
        format!("{parts:?}") == format!("{whole:?}"),
        "the turns' values differ"
    );
    let parts = std::cell::RefCell::new(Some(parts));
    let l = leaderboard_with(&runs, &opts, |_, _| parts.borrow_mut().take().unwrap());
    assert_eq!(l.to_json() + "\n", NATIVE_JSON);
    // A budget below one run still draws every run, one a turn.
    assert_eq!(joined.turns(1).len(), runs.len());
}
