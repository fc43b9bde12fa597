//! Helpers shared by the RewardBench integration tests: build files in the official layouts, score them.
#![allow(dead_code)]

use scorelens::report::rewardbench::RewardBenchFigures;
use scorelens::{Error, Input, Options, Report};
use serde_json::{json, Value};

/// SPEC §9's subset counts (correct, rows).
pub const SPEC_9: [(&str, u32, u32); 23] = [
    ("alpacaeval-easy", 99, 100),
    ("alpacaeval-hard", 90, 95),
    ("alpacaeval-length", 90, 95),
    ("donotanswer", 105, 136),
    ("hep-cpp", 161, 164),
    ("hep-go", 160, 164),
    ("hep-java", 163, 164),
    ("hep-js", 163, 164),
    ("hep-python", 160, 164),
    ("hep-rust", 156, 164),
    ("llmbar-adver-GPTInst", 89, 92),
    ("llmbar-adver-GPTOut", 41, 47),
    ("llmbar-adver-manual", 39, 46),
    ("llmbar-adver-neighbor", 121, 134),
    ("llmbar-natural", 95, 100),
    ("math-prm", 446, 447),
    ("mt-bench-easy", 28, 28),
    ("mt-bench-hard", 33, 37),
    ("mt-bench-med", 39, 40),
    ("refusals-dangerous", 96, 100),
    ("refusals-offensive", 99, 100),
    ("xstest-should-refuse", 147, 154),
    ("xstest-should-respond", 239, 250),
];

/// One v1 row: id, subset, chosen and rejected score (as JSON, so `[x]` and NaN can be given).
pub struct Pair {
    pub id: u64,
    pub subset: String,
    pub chosen: Value,
    pub rejected: Value,
}

/// Rows with `correct` of `rows` right in each subset; every other row's scores are `[x]`-wrapped.
pub fn pairs(counts: &[(&str, u32, u32)]) -> Vec<Pair> {
    let mut out = Vec::new();
    for &(subset, correct, rows) in counts {
        for i in 0..rows {
            let (c, r) = if i < correct {
                (1.5, 0.25)
            } else {
                (-0.5, 0.75)
            };
            let wrap = |x: f64| {
                if out.len() % 2 == 0 {
                    json!([x])
                } else {
                    json!(x)
                }
            };
            out.push(Pair {
                id: out.len() as u64 + 30,
                subset: subset.to_string(),
                chosen: wrap(c),
                rejected: wrap(r),
            });
        }
    }
    out
}

/// An `eval-set-scores` v1 file, as save_to_hub writes it (sorted keys, indent 4).
pub fn v1_file(rows: &[Pair]) -> String {
    let results: Vec<u8> = rows
        .iter()
        .map(|p| u8::from(unwrap(&p.chosen) > unwrap(&p.rejected)))
        .collect();
    let obj = json!({
        "chat_template": "tulu",
        "id": rows.iter().map(|p| p.id).collect::<Vec<_>>(),
        "model": "test/rm",
        "model_type": "Seq. Classifier",
        "results": results,
        "scores_chosen": rows.iter().map(|p| p.chosen.clone()).collect::<Vec<_>>(),
        "scores_rejected": rows.iter().map(|p| p.rejected.clone()).collect::<Vec<_>>(),
        "subset": rows.iter().map(|p| p.subset.clone()).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&obj).unwrap()
}

fn unwrap(v: &Value) -> f64 {
    match v {
        Value::Array(a) => a[0].as_f64().unwrap(),
        other => other.as_f64().unwrap_or(f64::NAN),
    }
}

/// An `eval-set/<model>.json` aggregate with the subsets' accuracies.
pub fn aggregate(subsets: &[(&str, f64)]) -> String {
    let mut obj = serde_json::Map::new();
    obj.insert("model".into(), json!("test/rm"));
    obj.insert("model_type".into(), json!("Seq. Classifier"));
    obj.insert("chat_template".into(), json!("tulu"));
    for (s, v) in subsets {
        obj.insert(s.to_string(), json!(v));
    }
    serde_json::to_string_pretty(&Value::Object(obj)).unwrap()
}

/// One v2 row: id, subset, num_correct, scores.
pub fn v2_file(rows: &[(&str, &str, usize, Vec<f64>)]) -> String {
    let obj = json!({
        "chat_template": "tokenizer",
        "id": rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        "model": "test/rm2",
        "model_type": "Seq. Classifier",
        "num_correct": rows.iter().map(|r| r.2).collect::<Vec<_>>(),
        "results": rows.iter().map(|_| 0).collect::<Vec<_>>(),
        "scores": rows.iter().map(|r| r.3.iter().map(|s| json!([s])).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "subset": rows.iter().map(|r| r.1).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&obj).unwrap()
}

/// Scores named files as one run.
pub fn run(files: &[(&str, &str)], profile: Option<&str>) -> Result<Report, Error> {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(name, text)| Input {
            name,
            bytes: text.as_bytes(),
        })
        .collect();
    let opts = Options {
        profile: profile.map(str::to_string),
        strict: false,
        ..Options::default()
    };
    scorelens::score(&inputs, &opts)
}

/// Scores one file, which must give a report.
pub fn score(name: &str, text: &str) -> Report {
    run(&[(name, text)], None).expect("a report")
}

pub fn rb(r: &Report) -> &RewardBenchFigures {
    r.rewardbench.as_ref().expect("rewardbench figures")
}

/// A section's score (panics when the section is absent).
pub fn section(r: &Report, name: &str) -> Option<f64> {
    *rb(r).sections.get(name).expect("section present")
}

pub fn subset(r: &Report, name: &str) -> Option<f64> {
    *rb(r).subsets.get(name).expect("subset present")
}

/// Whether any warning's reason contains all the fragments.
pub fn warned(r: &Report, fragments: &[&str]) -> bool {
    r.warnings
        .iter()
        .any(|w| fragments.iter().all(|f| w.reason.contains(f)))
}

pub fn noted(r: &Report, fragments: &[&str]) -> bool {
    r.notes
        .iter()
        .any(|n| fragments.iter().all(|f| n.contains(f)))
}
