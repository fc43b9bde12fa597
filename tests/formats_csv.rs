//! CSV/TSV tables: hand-worked fixtures, and the same items written as canonical JSON Lines give
//! the same figures (the rows go through the canonical item builder).

use proptest::prelude::*;
use scorelens::report::Report;
use scorelens::{score, Input, Options};

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(name: &str, bytes: &[u8]) -> Report {
    score(&[Input { name, bytes }], &Options::default()).unwrap()
}

#[test]
fn choice_csv_by_hand() {
    let r = run("choice.csv", &read("tests/fixtures/csv/choice.csv"));
    // q4's gold Z is not an option: skipped at its line (q3 spans lines 4-5 in quotes).
    assert_eq!((r.items, r.skipped), (3, 1));
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].line, Some(6));
    // q1 right (argmax A), q2 answers C (wrong), q3 right (argmax C).
    assert_eq!(r.metrics.accuracy, Some(2.0 / 3.0));
    // Conditioning EPA: 0.7 / 1.0, 0.2 / 1.0, 0.5 / 0.7.
    let epa = (0.7 + 0.2 + 0.5 / 0.7) / 3.0;
    assert!((r.conditioning.epa.unwrap() - epa).abs() < 1e-12);
    // Outside mass: 0, 0, 0.3 over three items.
    assert!((r.metrics.outside_mass.unwrap() - 0.1).abs() < 1e-12);
    assert_eq!(r.groups.len(), 2);
    let f = &r.files[0];
    assert_eq!(
        (f.format.as_str(), f.version.as_deref()),
        ("csv", Some("CSV"))
    );
    assert!(f.mapping.iter().any(|m| m.ends_with("ignored: question")));
}

#[test]
fn mixed_tsv_by_hand() {
    let r = run("mixed.tsv", &read("tests/fixtures/csv/mixed.tsv"));
    assert_eq!((r.items, r.skipped), (4, 0));
    // b1 yes (p_yes 0.9), b2 no (p_yes 0.3), r1 argmax 0 against gold 1, r2 answers its gold 2.
    assert_eq!(r.metrics.accuracy, Some(0.75));
    // r2's probability cell "x" is an output error: scored, probabilities left out.
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].line, Some(5));
    assert_eq!(r.conditioning.items, 3);
    assert!((r.conditioning.epa.unwrap() - (0.9 + 0.7 + 0.35) / 3.0).abs() < 1e-12);
    assert_eq!(r.files[0].version.as_deref(), Some("TSV"));
}

fn same_figures(a: &Report, b: &Report) {
    assert_eq!(a.items, b.items);
    assert_eq!(a.skipped, b.skipped);
    assert_eq!(a.metrics, b.metrics);
    assert_eq!(a.conditioning, b.conditioning);
    assert_eq!(a.mixing, b.mixing);
    assert_eq!(a.groups, b.groups);
}

#[test]
fn the_csv_fixture_equals_its_canonical_twin() {
    let jsonl = r#"{"id": "q1", "group": "math", "options": ["A", "B", "C"], "gold": "A", "probs": {"A": 0.7, "B": 0.2, "C": 0.1}}
{"id": "q2", "group": "math", "options": ["A", "B", "C"], "gold": "B", "answer": "C", "probs": {"A": 0.5, "B": 0.2, "C": 0.3}}
{"id": "q3", "group": "geo", "options": ["A", "B", "C"], "gold": "C", "probs": {"A": 0.1, "B": 0.1, "C": 0.5}}
"#;
    let a = run("choice.csv", &read("tests/fixtures/csv/choice.csv"));
    let b = run("twin.jsonl", jsonl.as_bytes());
    assert_eq!(a.items, 3);
    assert_eq!(a.metrics, b.metrics);
    assert_eq!(a.conditioning, b.conditioning);
    assert_eq!(a.groups, b.groups);
}

#[test]
fn a_header_without_gold_is_not_ours() {
    let text = "id,prompt,response\n1,hi,hello\n";
    let head = text.as_bytes();
    assert!(scorelens::formats::detect("t.csv", head).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random choice items written as CSV and as canonical JSON Lines score identically.
    #[test]
    fn csv_and_jsonl_agree(rows in proptest::collection::vec(
        (2usize..5, 0usize..5, proptest::collection::vec(0u32..1000, 5), any::<bool>()), 1..30)
    ) {
        let labels = ["a", "b", "c", "d", "e"];
        let mut csv = String::from("id,group,options,gold,p_a,p_b,p_c,p_d,p_e\n");
        let mut jsonl = String::new();
        for (i, (k, gold, raw, grouped)) in rows.iter().enumerate() {
            let k = *k;
            let gold = labels[gold % k];
            let total: u32 = raw[..k].iter().sum::<u32>().max(1);
            let p: Vec<f64> = raw[..k].iter().map(|&x| f64::from(x) / f64::from(total) * 0.9).collect();
            let group = if *grouped { "g1" } else { "g2" };
            let opts = labels[..k].join("|");
            let cells: Vec<String> = (0..5).map(|j| p.get(j).map_or(String::new(), |x| x.to_string())).collect();
            csv += &format!("i{i},{group},{opts},{gold},{}\n", cells.join(","));
            let probs: Vec<String> = (0..k).map(|j| format!("\"{}\": {}", labels[j], p[j])).collect();
            let opts_json: Vec<String> = labels[..k].iter().map(|l| format!("\"{l}\"")).collect();
            jsonl += &format!(
                "{{\"id\": \"i{i}\", \"group\": \"{group}\", \"options\": [{}], \"gold\": \"{gold}\", \"probs\": {{{}}}}}\n",
                opts_json.join(", "),
                probs.join(", ")
            );
        }
        let a = run("t.csv", csv.as_bytes());
        let b = run("t.jsonl", jsonl.as_bytes());
        same_figures(&a, &b);
    }
}
