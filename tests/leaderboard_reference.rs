//! The leaderboard against an independent numpy computation (scripts/reference/
//! leaderboard_reference.py), which ports the bootstrap's random numbers and stratified draws and
//! recomputes every resample, rank, interval, test and Holm adjustment from the runs it generated.
//! Ranks, tests and "differs" must match exactly; values and intervals to 1e-12.
//! (`--write` regenerates the reference file, `--check` says whether it is stale.)

mod leaderboard_util;

use leaderboard_util::{options, reference, runs, NATIVE_JSON};
use scorelens::leaderboard::leaderboard;
use serde_json::Value;

fn close(got: Option<f64>, want: &Value, what: &str) {
    let (g, w) = (got.unwrap(), want.as_f64().unwrap());
    assert!(
        (g - w).abs() <= 1e-12,
        "{what}: scorelens {g}, reference {w}"
    );
}

#[test]
fn rank_intervals_match_the_numpy_reference() {
    let doc = reference();
    let l = leaderboard(&runs(&doc), &options(&doc));
    assert_eq!(l.common, doc["common"].as_u64().unwrap());
    let boards = doc["boards"].as_object().unwrap();
    assert_eq!(boards.len(), 8, "four headline figures and four subsets");
    let mut checked = 0;
    for (figure, want) in boards {
        let board = l
            .board(figure)
            .unwrap_or_else(|| panic!("{figure}: no board"));
        for s in &board.standings {
            let w = &want["standings"][&s.run];
            let what = format!("{figure} {}", s.run);
            close(Some(s.value), &w["value"], &what);
            close(s.lo, &w["lo"], &format!("{what} lo"));
            close(s.hi, &w["hi"], &format!("{what} hi"));
            let ranks = (s.rank, s.rank_lo, s.rank_median, s.rank_hi);
            let wr = |k: &str| w[k].as_u64().unwrap() as u32;
            let want_ranks = (wr("rank"), wr("rank_lo"), wr("rank_median"), wr("rank_hi"));
            assert_eq!(ranks, want_ranks, "{what}: rank, lo, median, hi");
            checked += 1;
        }
        let pairs = want["pairs"].as_array().unwrap();
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
            close(Some(p.p_value), &w["p_value"], &format!("{what} p"));
            close(
                Some(p.p_adjusted),
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
    // Six runs on eight boards, and fifteen pairs on each.
    assert_eq!(checked, 8 * 6 + 8 * 15);
}

#[test]
fn the_json_is_pinned_for_the_wasm32_check() {
    let doc = reference();
    let json = leaderboard(&runs(&doc), &options(&doc)).to_json() + "\n";
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
