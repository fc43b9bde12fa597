//! The amended I/C contract (SPEC §5–§7) on small files worked out by hand before the code ran:
//! top-label calibration, the binary decision on the conditioned q_yes, typed Brier and NLL, the
//! benchmarks' own scopes (Public 231's hard-tier choice ECE, Hard 111's hard-tier I/C, CMDB's
//! pooled ECE) and RewardBench's overall beside the prior-sets weighting.

mod ic_util;
use ic_util::*;

/// A two-option choice item, gold `o0`, with probabilities and optional tier and gold_probs.
fn two(id: &str, p0: f64, tier: &str, gold_probs: Option<[f64; 2]>) -> String {
    let p1 = ((1.0 - p0) * 1e6).round() / 1e6;
    let g = gold_probs.map_or(String::new(), |g| {
        format!(",\"gold_probs\":[{},{}]", g[0], g[1])
    });
    format!(
        "{{\"id\":\"{id}\",\"options\":[\"o0\",\"o1\"],\"gold\":\"o0\",\"probs\":{{\"o0\":{p0},\"o1\":{p1}}},\"tier\":\"{tier}\"{g}}}"
    )
}

/// Hard h1 (0.9, right) and h2 (0.3, so 0.7 on o1, wrong); easy e1 (0.6, right) and e2 (0.45,
/// so 0.55 on o1, wrong). h1 and e1 carry reference distributions.
fn public_file() -> Vec<String> {
    vec![
        two("h1", 0.9, "hard", Some([0.8, 0.2])),
        two("h2", 0.3, "hard", None),
        two("e1", 0.6, "easy", Some([1.0, 0.0])),
        two("e2", 0.45, "easy", None),
    ]
}

#[test]
fn public_231_choice_ece_and_tvd_use_the_hard_tier_only() {
    let r = score(&public_file(), Some("jevbench-public-231"));
    let c = choice(&r);
    // Hard only: bins 9 (0.9, right: 0.1) and 7 (0.7, wrong: 0.7), half each: 0.4. Over every
    // choice item it would be (0.1 + 0.7 + 0.4 + 0.55) / 4 = 0.4375.
    close(c.ece, 0.4, 1e-12);
    assert_eq!(c.ece_items, 2);
    assert_eq!(c.ece_scope, "hard_tier");
    // TVD over h1 alone: 0.5 (0.1 + 0.1) = 0.1 (with e1 it would be 0.25).
    close(c.tvd, 0.1, 1e-12);
    assert_eq!(c.tvd_items, 1);
    // C = (ece_score(0.4) + 100 (1 - 0.1)) / 2 = (20 + 90) / 2.
    close(c.c, 55.0, 1e-9);
    // Brier and NLL cover all four: (0.01 + 0.49 + 0.16 + 0.3025) / 4, -ln(0.9·0.3·0.6·0.45) / 4.
    close(c.brier, 0.240625, 1e-12);
    close(c.nll, -(0.9f64 * 0.3 * 0.6 * 0.45).ln() / 4.0, 1e-12);
    assert_eq!(c.prob_items, 4);
    assert!(r
        .notes
        .iter()
        .any(|n| n.contains("hard-tier choice items only")));
    // The generic profile keeps every item in the ECE.
    let g = score(&public_file(), None);
    close(choice(&g).ece, 0.4375, 1e-12);
    assert_eq!(choice(&g).ece_scope, "type");
}

#[test]
fn public_231_falls_back_to_every_choice_item_without_a_hard_tier() {
    let easy: Vec<String> = public_file()
        .iter()
        .map(|l| l.replace("\"hard\"", "\"standard\""))
        .collect();
    let r = score(&easy, Some("jevbench-public-231"));
    let c = choice(&r);
    close(c.ece, 0.4375, 1e-12);
    assert_eq!(c.ece_scope, "type_fallback");
    close(c.tvd, 0.25, 1e-12);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("fall back to every choice item")),
        "{:?}",
        r.notes
    );
}

#[test]
fn a_choice_answer_off_the_arg_max_decides_accuracy_but_not_the_ic_ece() {
    // Gold o0, answer o1, q = (0.6, 0.3, 0.1).
    let line = r#"{"id":"q","options":["o0","o1","o2"],"gold":"o0","answer":"o1","probs":{"o0":0.6,"o1":0.3,"o2":0.1}}"#;
    let r = score(&[line.to_string()], None);
    assert_eq!(r.metrics.accuracy, Some(0.0));
    let c = choice(&r);
    // CC: acc 0, cbar 1/3: 100 (0 - 1/3) / (2/3) = -50.
    close(c.cc, -50.0, 1e-9);
    // Top-label: confidence 0.6, right (first arg-max o0 is gold): ECE 0.4, C = 100 (1 - 0.8).
    close(c.ece, 0.4, 1e-12);
    assert_eq!(c.ece_confidence, "top_label");
    close(c.c, 20.0, 1e-9);
    // SPEC §4's block keeps q[answer]: confidence 0.3, wrong: ECE 0.3.
    close(r.conditioning.ece, 0.3, 1e-12);
}

#[test]
fn a_binary_item_decides_on_the_conditioned_q_yes() {
    // {yes: 0.75, no: 0.05}: s = 0.8, q_yes = 0.9375, so yes (the raw 0.75 would abstain).
    let line = r#"{"id":"b","type":"binary","gold":"yes","probs":{"yes":0.75,"no":0.05}}"#;
    let r = score(&[line.to_string()], None);
    let b = binary(&r);
    close(b.cc, 100.0, 1e-12);
    assert_eq!(b.abstention_rate, Some(0.0));
    assert_eq!(b.ece_confidence, "q_yes");
    close(b.ece, 0.0625, 1e-12);
    close(b.c, 87.5, 1e-9);
    close(b.brier, 0.0625 * 0.0625, 1e-15);
    close(b.nll, -(0.9375f64).ln(), 1e-15);
}

/// A CMDB-like run: choice c1 (text, hard, 4 options, q 0.7 on gold, gold_probs), choice c2 (image,
/// easy, 0.6 on the wrong option), binary b1 (text, judge, gold yes, q_yes 0.5), b2 (image, gold
/// no, 0.3), b3 (text, gold no, 0.9), and a multi item.
fn cmdb_file() -> Vec<String> {
    vec![
        r#"{"id":"c1","options":["o0","o1","o2","o3"],"gold":"o0","probs":{"o0":0.7,"o1":0.1,"o2":0.1,"o3":0.1},"gold_probs":[0.5,0.5,0,0],"modality":"text","tier":"hard"}"#,
        r#"{"id":"c2","options":["o0","o1"],"gold":"o1","probs":{"o0":0.6,"o1":0.4},"modality":"image","tier":"easy"}"#,
        r#"{"id":"b1","type":"binary","gold":"yes","p_yes":0.5,"modality":"text","tier":"judge"}"#,
        r#"{"id":"b2","type":"binary","gold":"no","p_yes":0.3,"modality":"image"}"#,
        r#"{"id":"b3","type":"binary","gold":"no","p_yes":0.9,"modality":"text"}"#,
        r#"{"id":"m1","type":"multi","options":["a","b","c"],"gold":["a","b"],"answer":["b","a"],"modality":"text"}"#,
    ]
    .into_iter()
    .map(str::to_string)
    .collect()
}

#[test]
fn cmdb_pools_choice_and_binary_into_one_top_label_ece() {
    let r = score(&cmdb_file(), Some("cmdb-1500"));
    let f = ic(&r);
    // Pooled: (0.7, right) c1, (0.6, wrong) c2, (0.5, right) b1, (0.7, right) b2, (0.9, wrong) b3:
    // bin 7 gap 0.3 for two, bins 6, 5, 9 gaps 0.6, 0.5, 0.9: 0.4·0.3 + 0.2·(0.6 + 0.5 + 0.9).
    close(f.overall.pooled_ece, 0.52, 1e-12);
    assert_eq!(f.overall.pooled_items, 5);
    // The choice-only ECE is still shown: (0.3 + 0.6) / 2; binary's own on q_yes: (0.5 + 0.3 + 0.9) / 3.
    let c = choice(&r);
    close(c.ece, 0.45, 1e-12);
    close(binary(&r).ece, 1.7 / 3.0, 1e-12);
    // Choice C = (ece_score(0.52) = 0, 100 (1 - TVD 0.4)) / 2 = 30; binary has no C; C = 30.
    close(c.c, 30.0, 1e-9);
    assert_eq!(binary(&r).c, None);
    close(f.overall.c, 30.0, 1e-9);
    // Tiers ignored: choice CC from one cell, acc 1/2, cbar (1/4 + 1/2) / 2 = 0.375: 20.
    close(c.cc, 20.0, 1e-9);
    assert!(c.tiers.hard.is_none() && c.tiers.none.is_some());
    // Binary: b1 and b2 abstain, b3 decides yes against gold no: acc 0, CC -100; I = (20 - 100) / 2.
    close(binary(&r).cc, -100.0, 1e-9);
    close(binary(&r).abstention_rate, 2.0 / 3.0, 1e-15);
    close(f.overall.i, -40.0, 1e-9);
    assert!(r
        .notes
        .iter()
        .any(|n| n.contains("tiers of 3 items are ignored")));
    // Per scope, from that scope's items. Text: c1, b1, b3: (0.3 + 0.5 + 0.9) / 3; choice C =
    // (0 + 60) / 2. Image: c2, b2: (0.6 + 0.3) / 2 = 0.45; no TVD there, so C = ece_score = 10.
    let text = f.scopes.text.as_ref().unwrap();
    close(text.pooled_ece, 1.7 / 3.0, 1e-12);
    close(text.c, 30.0, 1e-9);
    let image = f.scopes.image.as_ref().unwrap();
    close(image.pooled_ece, 0.45, 1e-12);
    close(image.c, 10.0, 1e-9);
    // Frozen counts: 6 items, 1 multi, text 3 and image 2 (multi left out), 5 choice or binary.
    let scope = r.scope.as_ref().expect("cmdb has frozen counts");
    assert!(!scope.complete);
    let found: Vec<u64> = scope.found.0.iter().map(|(_, n)| *n).collect();
    assert_eq!(found, vec![6, 1, 3, 2, 5, 0, 1]);
    // Under generic there is no pooled ECE and binary keeps its C.
    let g = score(&cmdb_file(), None);
    assert_eq!(ic(&g).overall.pooled_ece, None);
    assert!(binary(&g).c.is_some());
    assert_eq!(g.scope, None);
}

#[test]
fn hard_111_ic_is_the_hard_tier_and_items_the_whole_file() {
    let r = score(&public_file(), Some("jevbench-hard-111"));
    assert_eq!(r.items, 4);
    // Accuracy over all four (arg-max answers: h1, e1 right).
    close(r.metrics.accuracy, 0.5, 1e-15);
    let c = choice(&r);
    assert_eq!(c.items, 2);
    close(c.ece, 0.4, 1e-12);
    assert_eq!(ic(&r).out_of_scope.get("easy"), Some(&2));
    assert!(r
        .notes
        .iter()
        .any(|n| n.contains("2 items outside the hard tier (easy 2) are left out of I/C")));
}

/// `n` lines of a kind, numbered from `start`.
fn lines(kind: &str, n: usize, start: usize, extra: &str) -> Vec<String> {
    (start..start + n)
        .map(|i| match kind {
            "choice" => format!(r#"{{"id":"c{i}","options":["a","b"],"gold":"a","probs":{{"a":0.7,"b":0.3}}{extra}}}"#),
            "binary" => format!(r#"{{"id":"b{i}","type":"binary","gold":"yes","p_yes":0.9{extra}}}"#),
            "rating" => format!(r#"{{"id":"r{i}","type":"rating","options":["1","2","3"],"gold":"2","probs":{{"1":0.2,"2":0.6,"3":0.2}}{extra}}}"#),
            "multi" => format!(r#"{{"id":"m{i}","type":"multi","options":["a","b"],"gold":["a"],"answer":["a"]{extra}}}"#),
            _ => unreachable!(),
        })
        .collect()
}

/// Scores `file` and again without its last line; the first is complete, the second not.
fn complete_then_short(file: Vec<String>, profile: &str) {
    let r = score(&file, Some(profile));
    let scope = r.scope.as_ref().expect("frozen counts");
    assert!(scope.complete, "{profile}: {scope:?}");
    assert!(!r.notes.iter().any(|n| n.contains("this file holds")));
    let short = &file[..file.len() - 1];
    let r = score(short, Some(profile));
    assert!(!r.scope.as_ref().unwrap().complete, "{profile} one short");
    assert!(
        r.notes
            .iter()
            .any(|n| n.starts_with(&format!("{profile}: this file holds"))),
        "{:?}",
        r.notes
    );
}

#[test]
fn each_frozen_profile_is_complete_on_its_counts_and_not_one_short() {
    let tier = r#","tier":"hard""#;
    let mut public = lines("choice", 139, 0, tier);
    public.extend(lines("binary", 74, 0, ""));
    public.extend(lines("rating", 18, 0, ""));
    complete_then_short(public, "jevbench-public-231");

    let mut hard = lines("choice", 67, 0, tier);
    hard.extend(lines("binary", 38, 0, tier));
    hard.extend(lines("rating", 6, 0, ""));
    hard.extend(lines("choice", 5, 100, r#","tier":"easy""#)); // other tiers do not count
    let short_last = hard.remove(hard.len() - 6); // the last hard rating line goes last
    hard.push(short_last);
    complete_then_short(hard, "jevbench-hard-111");

    let text = r#","modality":"text""#;
    let image = r#","modality":"image""#;
    let gp = r#","modality":"text","gold_probs":[0.5,0.5]"#;
    let mut cmdb = lines("multi", 100, 0, text);
    cmdb.extend(lines("choice", 67, 0, gp));
    cmdb.extend(lines("choice", 567, 100, text));
    cmdb.extend(lines("binary", 300, 0, text));
    cmdb.extend(lines("choice", 300, 1000, image));
    cmdb.extend(lines("rating", 166, 0, text));
    complete_then_short(cmdb, "cmdb-1500");

    let counts: [(&str, usize); 23] = [
        ("alpacaeval-easy", 100),
        ("alpacaeval-length", 95),
        ("alpacaeval-hard", 95),
        ("mt-bench-easy", 28),
        ("mt-bench-med", 40),
        ("mt-bench-hard", 37),
        ("llmbar-natural", 100),
        ("llmbar-adver-neighbor", 134),
        ("llmbar-adver-GPTInst", 92),
        ("llmbar-adver-GPTOut", 47),
        ("llmbar-adver-manual", 46),
        ("refusals-dangerous", 100),
        ("refusals-offensive", 100),
        ("xstest-should-refuse", 154),
        ("xstest-should-respond", 250),
        ("donotanswer", 136),
        ("math-prm", 447),
        ("hep-cpp", 164),
        ("hep-go", 164),
        ("hep-java", 164),
        ("hep-js", 164),
        ("hep-python", 164),
        ("hep-rust", 164),
    ];
    let mut rb = Vec::new();
    for (subset, n) in counts {
        for i in 0..n {
            rb.push(format!(r#"{{"id":"{subset}-{i}","type":"pair","chosen":1,"rejected":[0],"subset":"{subset}"}}"#));
        }
    }
    assert_eq!(rb.len(), 2985);
    complete_then_short(rb, "rewardbench");
}

/// `n` pairs of a subset, the first `right` of them chosen over rejected.
fn pairs(subset: &str, n: usize, right: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let chosen = if i < right { 1.0 } else { 0.0 };
            format!(r#"{{"id":"{subset}-{i}","type":"pair","chosen":{chosen},"rejected":[0.5],"subset":"{subset}"}}"#)
        })
        .collect()
}

#[test]
fn rewardbench_overall_is_the_four_sections_and_prior_sets_are_reported_beside_it() {
    let mut file = pairs("alpacaeval-easy", 2, 1); // Chat 0.5
    file.extend(pairs("mt-bench-hard", 1, 1)); // Chat Hard 1
    file.extend(pairs("refusals-dangerous", 2, 2)); // Safety 1
    file.extend(pairs("math-prm", 4, 1)); // Reasoning 0.25
    file.extend(pairs("anthropic_helpful", 2, 1)); // 0.5
    file.extend(pairs("shp", 1, 0)); // 0: Prior Sets 0.25
    let r = score(&file, Some("rewardbench"));
    let rb = r.rewardbench.as_ref().unwrap();
    // (0.5 + 1 + 1 + 0.25) / 4, and (2·0.5 + 2·1 + 2·1 + 2·0.25 + 0.25) / 9 = 5.75 / 9.
    close(rb.overall, 0.6875, 1e-15);
    close(rb.overall_with_prior_sets, 5.75 / 9.0, 1e-15);
    // Without prior sets there is no weighted overall, and the plain one is unchanged.
    let r2 = score(&file[..9], Some("rewardbench"));
    let rb2 = r2.rewardbench.as_ref().unwrap();
    close(rb2.overall, 0.6875, 1e-15);
    assert_eq!(rb2.overall_with_prior_sets, None);
    // 9 table items of 2,985.
    let scope = r.scope.as_ref().unwrap();
    assert_eq!(scope.found.0[0], ("items".to_string(), 9));
    assert!(!scope.complete);
}

/// The files above as the browser test drops them (tests/e2e/spec_v2.test.mjs): a header naming the
/// profile, then the same lines. `SCORELENS_WRITE_FIXTURES=1` writes them; otherwise they must
/// equal what this file builds, so the two tests cannot drift apart.
#[test]
fn the_browser_fixtures_are_these_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/fixtures/spec-v2");
    let header =
        |p: &str| format!(r#"{{"scorelens": 1, "model": "spec-v2 {p}", "benchmark": "{p}"}}"#);
    let mut rb = pairs("alpacaeval-easy", 2, 1);
    for (s, n, r) in [
        ("mt-bench-hard", 1, 1),
        ("refusals-dangerous", 2, 2),
        ("math-prm", 4, 1),
        ("anthropic_helpful", 2, 1),
        ("shp", 1, 0),
    ] {
        rb.extend(pairs(s, n, r));
    }
    let files: [(&str, &str, Vec<String>); 6] = [
        ("public-231.jsonl", "jevbench-public-231", public_file()),
        ("hard-111.jsonl", "jevbench-hard-111", public_file()),
        ("cmdb.jsonl", "cmdb-1500", cmdb_file()),
        ("binary-conditioned.jsonl", "generic", vec![r#"{"id":"b","type":"binary","gold":"yes","probs":{"yes":0.75,"no":0.05}}"#.to_string()]),
        ("answer-off-argmax.jsonl", "generic", vec![r#"{"id":"q","options":["o0","o1","o2"],"gold":"o0","answer":"o1","probs":{"o0":0.6,"o1":0.3,"o2":0.1}}"#.to_string()]),
        ("rewardbench-prior-sets.jsonl", "rewardbench", rb),
    ];
    let write = std::env::var_os("SCORELENS_WRITE_FIXTURES").is_some();
    for (name, profile, lines) in files {
        let mut text = header(profile);
        for l in &lines {
            text.push('\n');
            text.push_str(l);
        }
        text.push('\n');
        let path = dir.join(name);
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (SCORELENS_WRITE_FIXTURES=1 writes it)",
                path.display()
            )
        });
        assert_eq!(
            on_disk, text,
            "{name} differs from the lines this test scores"
        );
        // The header picks the profile the Rust tests name.
        let r = score(
            &on_disk.lines().map(str::to_string).collect::<Vec<_>>(),
            None,
        );
        assert_eq!(r.profile, profile, "{name}");
    }
}

#[test]
fn gold_probs_are_renormalised_and_a_sum_off_by_more_than_0_02_is_a_data_error() {
    // [0.606, 0.404] sums to 1.01: divided by it, (0.6, 0.4); against q = (0.9, 0.1) the TVD is
    // 0.5 (0.3 + 0.3) = 0.3 (unrenormalised it would be 0.299). [0.7, 0.321] sums to 1.021.
    let lines = vec![
        r#"{"id":"a","options":["o0","o1"],"gold":"o0","probs":{"o0":0.9,"o1":0.1},"gold_probs":[0.606,0.404]}"#.to_string(),
        r#"{"id":"b","options":["o0","o1"],"gold":"o0","probs":{"o0":0.9,"o1":0.1},"gold_probs":{"o0":0.7,"o1":0.321}}"#.to_string(),
    ];
    let r = score(&lines, None);
    assert_eq!(r.items, 1);
    assert_eq!(r.skipped, 1);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert_eq!(r.warnings[0].line, Some(2));
    assert!(
        r.warnings[0].reason.contains("gold_probs"),
        "{:?}",
        r.warnings
    );
    let c = choice(&r);
    close(c.tvd, 0.3, 1e-12);
    assert_eq!(c.tvd_items, 1);
}
