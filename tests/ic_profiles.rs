//! The I/C profiles' scope rules (SPEC §7): jevbench-public-231, jevbench-hard-111, decision-bench,
//! cmdb-1500, and I/C under generic.

mod ic_util;
use ic_util::*;

fn tiered() -> Vec<String> {
    vec![
        choice_item("e1", 2, 0, 0, Some("easy")),
        choice_item("s1", 2, 0, 1, Some("standard")),
        choice_item("h1", 4, 0, 0, Some("hard")),
        choice_item("h2", 4, 0, 1, Some("hard")),
        choice_item("n1", 2, 0, 0, None),
    ]
}

#[test]
fn public_231_keeps_every_tier() {
    let r = score(&tiered(), Some("jevbench-public-231"));
    assert_eq!(r.profile, "jevbench-public-231");
    assert_eq!(r.items, 5);
    let c = choice(&r);
    // easy 100, standard -100, hard (acc 0.5, cbar 0.25) 33.33, none 100 (weight 0.2).
    let hard = 100.0 * (0.5 - 0.25) / 0.75;
    let want = (0.1 * 100.0 + 0.2 * -100.0 + 0.4 * hard + 0.2 * 100.0) / 0.9;
    close(c.cc, want, 1e-9);
    assert!(ic(&r).out_of_scope.is_empty());
    // The generic profile gives the same I (the scopes narrow only Public 231's choice ECE).
    let g = score(&tiered(), None);
    assert_eq!(g.profile, "generic");
    let gi = g.ic.as_ref().unwrap();
    assert_eq!(gi.overall.i, ic(&r).overall.i);
    assert_eq!(gi.overall.types.choice.as_ref().unwrap().tiers, c.tiers);
}

#[test]
fn hard_111_reports_other_tiers_as_out_of_scope() {
    let r = score(&tiered(), Some("jevbench-hard-111"));
    // `items` counts the whole file; h1, h2 and the untiered n1 (taken as hard) are I/C's scope.
    assert_eq!(r.items, 5);
    assert_eq!(ic(&r).overall.items, 3);
    let c = choice(&r);
    assert!(c.tiers.easy.is_none() && c.tiers.standard.is_none() && c.tiers.none.is_none());
    assert_eq!(c.tiers.hard.as_ref().unwrap().items, 3);
    let oos = &ic(&r).out_of_scope;
    assert_eq!(oos.get("easy"), Some(&1));
    assert_eq!(oos.get("standard"), Some(&1));
    assert!(
        r.notes.iter().any(|n| n.contains("are left out of I/C")),
        "{:?}",
        r.notes
    );
    assert!(
        r.notes.iter().any(|n| n.contains("taken as hard")),
        "{:?}",
        r.notes
    );
    // Items outside the hard tier are left out of I/C only: accuracy is over the file's five
    // items (e1, h1 and n1 right).
    close(r.metrics.accuracy, 3.0 / 5.0, 1e-15);
}

#[test]
fn decision_bench_scores_everything_as_choice_with_one_hot_tvd() {
    let lines = vec![
        r#"{"id":"a","options":["x","y","z"],"gold":"x","tier":"hard","probs":{"x":0.6,"y":0.3,"z":0.1}}"#.to_string(),
        r#"{"id":"b","options":["x","y","z"],"gold":"y","probs":{"x":0.6,"y":0.3,"z":0.1}}"#.to_string(),
        binary_item("c", "yes", 0.7, ""),
    ];
    let r = score(&lines, Some("decision-bench"));
    let f = ic(&r);
    assert!(
        f.overall.types.binary.is_none(),
        "binary rescored as choice"
    );
    let c = choice(&r);
    assert_eq!(c.items, 3);
    // No tiers: everything in `none`, weight 1.
    assert_eq!(c.tiers.none.as_ref().unwrap().weight, 1.0);
    assert!(c.tiers.hard.is_none());
    // One-hot TVD = 1 - q[gold]: 0.4, 0.7, 0.3.
    close(c.tvd, (0.4 + 0.7 + 0.3) / 3.0, 1e-12);
    assert_eq!(c.tvd_items, 3);
    // Right: a (x) and c (yes, p 0.7 is the arg-max); cbar = (1/3 + 1/3 + 1/2) / 3.
    let cbar = (1.0 / 3.0 + 1.0 / 3.0 + 0.5) / 3.0;
    close(c.cc, 100.0 * (2.0 / 3.0 - cbar) / (1.0 - cbar), 1e-9);
    assert!(r.notes.iter().any(|n| n.contains("scored as choice items")));
}

#[test]
fn cmdb_keeps_multi_outside_ic_and_scores_it_by_set() {
    let lines = vec![
        choice_item("c1", 2, 0, 0, None).replace('}', ",\"modality\":\"text\"}"),
        choice_item("c2", 2, 0, 1, None).replace('}', ",\"modality\":\"image\"}"),
        r#"{"id":"m1","type":"multi","options":["a","b","c"],"gold":["a","b"],"answer":["b","a"],"modality":"text","steps":[{"a":0.5,"b":0.3},{"b":0.9}]}"#.to_string(),
        r#"{"id":"m2","type":"multi","options":["a","b","c"],"gold":["c"],"answer":["a","c"],"modality":"image"}"#.to_string(),
        r#"{"id":"m3","type":"multi","options":["a","b","c"],"gold":["a"],"answer":["q"],"modality":"image"}"#.to_string(),
    ];
    let r = score(&lines, Some("cmdb-1500"));
    assert_eq!(r.items, 5);
    assert_eq!(ic(&r).overall.items, 2, "multi is outside I/C");
    let m = r.multi.as_ref().unwrap();
    assert_eq!(m.overall.items, 3);
    close(Some(m.overall.exact_set_accuracy), 1.0 / 3.0, 1e-15);
    // F1: m1 1; m2 P 1/2 R 1 -> 2/3; m3 invalid 0.
    close(Some(m.overall.f1), (1.0 + 2.0 / 3.0) / 3.0, 1e-12);
    close(Some(m.overall.invalid_share), 1.0 / 3.0, 1e-15);
    close(m.overall.p_gold_set, 0.5 * 0.9, 1e-15);
    let text = m.scopes.text.as_ref().unwrap();
    let image = m.scopes.image.as_ref().unwrap();
    assert_eq!((text.items, image.items), (1, 2));
    close(Some(image.exact_set_accuracy), 0.0, 0.0);
    // The I/C scopes split the same way.
    close(ic(&r).scopes.text.as_ref().unwrap().i, 100.0, 1e-12);
    close(ic(&r).scopes.image.as_ref().unwrap().i, -100.0, 1e-12);
    // Micro accuracy counts multi items by exact set (SPEC §3): c1, m1 right of 5.
    close(r.metrics.accuracy, 2.0 / 5.0, 1e-15);
}

#[test]
fn the_header_names_the_profile() {
    for name in [
        "jevbench-public-231",
        "jevbench-hard-111",
        "decision-bench",
        "cmdb-1500",
    ] {
        let mut lines = vec![format!(
            "{{\"scorelens\":1,\"model\":\"m\",\"benchmark\":\"{name}\"}}"
        )];
        lines.extend(tiered());
        let r = score(&lines, None);
        assert_eq!(r.profile, name);
        assert!(r.ic.is_some());
        // The user's choice wins over the header.
        assert_eq!(score(&lines, Some("generic")).profile, "generic");
    }
}

#[test]
fn the_report_json_has_the_spec_8_keys() {
    let r = score(&tiered(), None);
    let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    let ic = &v["ic"];
    for k in ["i", "i_weighted", "c", "types", "scopes"] {
        assert!(ic.get(k).is_some(), "ic.{k}");
    }
    let choice = &ic["types"]["choice"];
    for k in [
        "cc",
        "c",
        "tiers",
        "ece",
        "tvd",
        "rps",
        "abstention_rate",
        "items",
    ] {
        assert!(choice.get(k).is_some(), "ic.types.choice.{k}");
    }
    for k in ["cc", "items", "weight"] {
        assert!(choice["tiers"]["hard"].get(k).is_some(), "tiers.hard.{k}");
    }
    assert!(ic["scopes"].get("text").is_some() && ic["scopes"].get("image").is_some());
    // The report reads back to the same value.
    let back: scorelens::Report = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(back.ic, r.ic);
}
