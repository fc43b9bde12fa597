//! Clustered standard errors, design effects and power against an independent numpy computation
//! (scripts/reference/clustered_reference.py, whose files are in tests/fixtures/clustered): two
//! runs of 60 passages × 4 questions, through `score --cluster`, `compare` and the leaderboard.

use scorelens::compare::{compare, score_run, Run};
use scorelens::leaderboard::leaderboard;
use scorelens::metrics::bootstrap::{BootstrapOptions, ClusterBy};
use scorelens::{score_sources, Options, Report, Source};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/clustered");

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}/{name}")).unwrap()
}

fn expected() -> Value {
    serde_json::from_slice(&bytes("expected.json")).unwrap()
}

fn close(got: f64, want: &Value, what: &str) {
    let want = want.as_f64().unwrap();
    assert!(
        (got - want).abs() <= 1e-12 * want.abs().max(1.0),
        "{what}: {got} against numpy's {want}"
    );
}

fn report(name: &str, cluster: Option<ClusterBy>, boot: Option<BootstrapOptions>) -> Report {
    let opts = Options {
        cluster,
        bootstrap: boot,
        ..Options::default()
    };
    let b = bytes(name);
    score_sources([Source::bytes(name, &b)], &opts)
        .unwrap()
        .report
}

fn runs(cluster: Option<ClusterBy>) -> Vec<Run> {
    let opts = Options {
        cluster,
        ..Options::default()
    };
    ["run-a", "run-b"]
        .iter()
        .map(|n| {
            let b = bytes(&format!("{n}.jsonl"));
            score_run(n, [Source::bytes(format!("{n}.jsonl"), &b)], &opts).unwrap()
        })
        .collect()
}

#[test]
fn a_runs_clustered_standard_errors_equal_numpys() {
    let want = expected();
    for name in ["run-a", "run-b"] {
        let r = report(&format!("{name}.jsonl"), Some(ClusterBy::File), None);
        let c = r.intervals.clustered.as_ref().expect("asked for clusters");
        let w = &want["runs"][name];
        assert_eq!(
            (c.field.as_str(), c.items, c.clusters),
            ("cluster", 240, 60)
        );
        assert_eq!(c.in_clusters, 240);
        let f = c.figures.get("metrics.accuracy").unwrap();
        close(f.value, &w["value"], "accuracy");
        close(f.se, &w["se"], "se");
        close(f.se_iid, &w["se_iid"], "se_iid");
        close(f.design_effect, &w["design_effect"], "design effect");
        close(
            c.design_effect.unwrap(),
            &w["design_effect"],
            "report's design effect",
        );
        close(f.half_width, &w["half_width"], "half-width");
        close(f.mde, &w["mde"], "mde");
        assert_eq!(f.items_to_halve, w["items_to_halve"].as_u64().unwrap());
        let wi = c.wilson.get("metrics.accuracy").unwrap();
        close(wi.lo, &w["wilson_lo"], "Wilson lo on the effective n");
        close(wi.hi, &w["wilson_hi"], "Wilson hi on the effective n");
        // The effective n is smaller: the clustered Wilson interval is the wider one.
        let plain = r.intervals.wilson.get("metrics.accuracy").unwrap();
        assert!(wi.hi - wi.lo > plain.hi - plain.lo);
    }
}

#[test]
fn compare_and_the_leaderboard_take_the_clustered_paired_standard_error() {
    let want = &expected()["pair"];
    let boot = BootstrapOptions {
        resamples: 64,
        seed: 7,
    };
    // The file's passage_id clusters by default, with no --cluster.
    let rs = runs(None);
    let c = compare(&rs, &boot);
    let p = &c.pairs[0];
    assert_eq!(p.clusters.as_ref().map(|c| c.units), Some(60));
    let d = p
        .figures
        .iter()
        .find(|d| d.figure == "metrics.accuracy")
        .unwrap();
    close(d.delta, &want["delta"], "delta");
    close(d.se_paired.unwrap(), &want["se"], "compare's paired se");
    close(d.mde.unwrap(), &want["mde"], "compare's mde");
    assert_eq!(d.items_needed, want["items_needed"].as_u64());

    let l = leaderboard(&rs, &boot);
    assert_eq!(l.bootstrap.clusters.as_ref().map(|c| c.units), Some(60));
    let b = l.board("metrics.accuracy").unwrap();
    let pd = &b.pairs[0];
    assert_eq!(
        pd.test, "paired-z",
        "McNemar's test takes items as independent"
    );
    close(pd.se.unwrap(), &want["se"], "leaderboard's se");
    close(pd.p_value, &want["p_value"], "leaderboard's p-value");
    close(pd.mde.unwrap(), &want["mde"], "leaderboard's mde");
    assert_eq!(pd.items_needed, want["items_needed"].as_u64());

    // Told the items are independent, the leaderboard goes back to McNemar's test, and its
    // standard error is the smaller, unclustered one.
    let flat = leaderboard(&runs(Some(ClusterBy::Off)), &boot);
    let fp = &flat.board("metrics.accuracy").unwrap().pairs[0];
    assert_eq!(fp.test, "mcnemar");
    assert!(flat.bootstrap.clusters.is_none());
    assert!(fp.se.unwrap() < pd.se.unwrap());
}

#[test]
fn without_clusters_the_report_is_as_it_was() {
    let boot = Some(BootstrapOptions {
        resamples: 200,
        seed: 3,
    });
    // `--cluster none` gives every item its own unit: the bootstrap is today's, and the
    // clustered block says so (design effect 1).
    let plain = report("run-a.jsonl", None, boot);
    let none = report("run-a.jsonl", Some(ClusterBy::Off), boot);
    let c = none.intervals.clustered.as_ref().unwrap();
    assert_eq!(c.clusters, 240);
    let f = c.figures.get("metrics.accuracy").unwrap();
    assert!((f.design_effect - 1.0).abs() < 1e-12, "{}", f.design_effect);
    // A file with a cluster field and no --cluster resamples its clusters: unlike `none`.
    assert_ne!(plain.intervals.bootstrap, none.intervals.bootstrap);
    assert!(plain.intervals.clustered.is_none());
    // A file without one gives the same report with or without `--cluster none`, but for the
    // clustered block itself.
    let text = String::from_utf8(bytes("run-a.jsonl")).unwrap();
    let bare: String = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("passage_id");
            v.to_string() + "\n"
        })
        .collect();
    let score = |cluster| {
        let opts = Options {
            cluster,
            bootstrap: boot,
            ..Options::default()
        };
        score_sources([Source::bytes("bare.jsonl", bare.as_bytes())], &opts)
            .unwrap()
            .report
    };
    let (a, mut b) = (score(None), score(Some(ClusterBy::Off)));
    assert!(b.intervals.clustered.take().is_some());
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(a.intervals.bootstrap, none.intervals.bootstrap);
}

#[test]
fn the_html_report_says_it_in_words() {
    let r = report("run-a.jsonl", Some(ClusterBy::File), None);
    let html = scorelens::html::report(&r);
    assert!(html.contains("How sure, and how many items"));
    assert!(
        html.contains(
            "With these 240 items in 60 independent units (by the file&#39;s cluster field)"
        ) || html
            .contains("With these 240 items in 60 independent units (by the file's cluster field)")
    );
    assert!(html.contains("data-figure=\"metrics.accuracy\""));
    // Without --cluster there is no such section.
    let plain = scorelens::html::report(&report("run-a.jsonl", None, None));
    assert!(!plain.contains("How sure, and how many items"));
}
