//! `--cluster FIELD` with a field the user names: a key, a nested key, a CSV column, an lm-eval
//! `doc.KEY`, an Inspect metadata key. Each must give exactly the clusters of the same file
//! written with SPEC §1's own `passage_id` field (whose figures tests/clustered_reference.rs
//! checks against numpy), and a value that names no cluster must say so where it is.

use scorelens::metrics::bootstrap::ClusterBy;
use scorelens::report::clustered::Clustered;
use scorelens::{score_sources, Options, Report, Source};
use serde_json::{json, Value};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn score(name: &str, bytes: &[u8], cluster: Option<ClusterBy>) -> Report {
    let opts = Options {
        cluster,
        ..Options::default()
    };
    score_sources([Source::bytes(name, bytes)], &opts)
        .unwrap()
        .report
}

fn field(name: &str) -> Option<ClusterBy> {
    let rule = ClusterBy::parse(name).unwrap();
    assert_eq!(rule.field(), Some(name), "`{name}` names a field");
    Some(rule)
}

/// The clustered block with the rule's name taken out, to compare two rules' figures.
fn figures(r: &Report) -> Clustered {
    let mut c = r.intervals.clustered.clone().expect("asked for clusters");
    c.field.clear();
    c
}

/// The reference run's items (60 passages of 4 questions), each as a JSON object.
fn reference_items() -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/clustered/run-a.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("id").is_some())
        .collect()
}

fn jsonl(items: &[Value]) -> Vec<u8> {
    items
        .iter()
        .map(|v| format!("{v}\n"))
        .collect::<String>()
        .into_bytes()
}

/// The reference run with each item's passage moved from `passage_id` by `place`.
fn moved(place: impl Fn(&mut serde_json::Map<String, Value>, Value)) -> Vec<u8> {
    let items: Vec<Value> = reference_items()
        .into_iter()
        .map(|mut v| {
            let o = v.as_object_mut().unwrap();
            let passage = o.remove("passage_id").unwrap();
            place(o, passage);
            v
        })
        .collect();
    jsonl(&items)
}

fn reference() -> Report {
    let bytes = std::fs::read(format!("{DIR}/clustered/run-a.jsonl")).unwrap();
    score("run-a.jsonl", &bytes, Some(ClusterBy::File))
}

#[test]
fn a_named_key_clusters_as_the_files_own_field_does() {
    let want = reference();
    let c = want.intervals.clustered.as_ref().unwrap();
    assert_eq!((c.items, c.clusters), (240, 60));
    let top = moved(|o, p| {
        o.insert("passage".into(), p);
    });
    let got = score("top.jsonl", &top, field("passage"));
    assert_eq!(got.intervals.clustered.as_ref().unwrap().field, "passage");
    assert_eq!(figures(&got), figures(&want));
    assert!(got.warnings.is_empty(), "{:?}", got.warnings);
    // Nested under metadata, read by its path; the point estimates are untouched.
    let nested = moved(|o, p| {
        o.insert("metadata".into(), json!({ "source": { "passage": p } }));
    });
    let got = score("nested.jsonl", &nested, field("metadata.source.passage"));
    assert_eq!(figures(&got), figures(&want));
    assert_eq!(got.metrics, want.metrics);
    // Without the option the same file has no clusters at all.
    let plain = score("top.jsonl", &top, None);
    assert!(plain.intervals.clustered.is_none());
}

#[test]
fn a_csv_column_clusters_as_the_files_own_field_does() {
    let mut csv = String::from("id,type,options,gold,answer,passage\n");
    for v in reference_items() {
        let opts: Vec<&str> = v["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        csv += &format!(
            "{},{},{},{},{},{}\n",
            v["id"].as_str().unwrap(),
            v["type"].as_str().unwrap(),
            opts.join("|"),
            v["gold"].as_str().unwrap(),
            v["answer"].as_str().unwrap(),
            v["passage_id"].as_str().unwrap()
        );
    }
    let got = score("run-a.csv", csv.as_bytes(), field("passage"));
    assert_eq!(figures(&got), figures(&reference()));
    let mapping = &got.files[0].mapping;
    assert!(
        mapping
            .iter()
            .any(|m| m
                == "clusters: the column `passage` (an empty cell: the item is its own cluster)"),
        "{mapping:?}"
    );
    // The column is the clusters', not among the ignored ones.
    assert!(!mapping.iter().any(|m| m.contains("ignored: passage")));
}

#[test]
fn a_value_that_names_no_cluster_is_noted_on_its_line() {
    let mut items = reference_items();
    for v in &mut items {
        let p = v["passage_id"].clone();
        v["passage"] = p;
    }
    items[4]["passage"] = json!([1, 2]);
    items[9]["passage"] = json!(2.5);
    items[11]["passage"] = Value::Null;
    let got = score("odd.jsonl", &jsonl(&items), field("passage"));
    let reasons: Vec<String> = got
        .warnings
        .iter()
        .map(|w| format!("{}:{}: {}", w.file, w.line.unwrap_or(0), w.reason))
        .collect();
    assert_eq!(
        reasons,
        [
            "odd.jsonl:5: the cluster field `passage` must be a string or a whole number, not a list; the item is its own cluster",
            "odd.jsonl:10: the cluster field `passage` must be a string or a whole number, not a number; the item is its own cluster",
        ]
    );
    let c = got.intervals.clustered.unwrap();
    // Three items left their passages and stand alone: 60 passages still, plus 3 units.
    assert_eq!((c.items, c.in_clusters, c.clusters), (240, 237, 63));
}

#[test]
fn a_field_no_item_has_says_so_and_clusters_nothing() {
    let bytes = std::fs::read(format!("{DIR}/clustered/run-a.jsonl")).unwrap();
    let got = score("run-a.jsonl", &bytes, field("pasage"));
    let c = got.intervals.clustered.as_ref().unwrap();
    assert_eq!((c.clusters, c.in_clusters), (240, 0));
    assert_eq!(c.design_effect, Some(1.0));
    let last = got.warnings.last().unwrap();
    assert_eq!(last.file, "");
    assert!(
        last.reason.starts_with(
            "no item has the cluster field `pasage`, so every item is its own cluster: check the field's name"
        ),
        "{}",
        last.reason
    );
}

#[test]
fn lm_eval_reads_a_key_of_the_doc() {
    // Two filters of the same documents: `doc.answer` puts a document's filters together.
    let mut lines = String::new();
    for d in 0..30 {
        for filter in ["raw", "strict"] {
            let hit = f64::from(u8::from((d * 7 + filter.len()) % 3 == 0));
            lines += &format!(
                "{}\n",
                json!({"doc_id": d, "doc": {"question": format!("q{d}"), "answer": format!("a{}", d / 3)},
                       "target": "x", "arguments": {"gen_args_0": {"arg_0": "q", "arg_1": {}}},
                       "resps": [["x"]], "filtered_resps": ["x"], "filter": filter,
                       "metrics": ["exact_match"], "exact_match": hit})
            );
        }
    }
    let name = "samples_t_2026-12-01T19-00-00.230646.jsonl";
    let got = score(name, lines.as_bytes(), field("doc.answer"));
    let c = got.intervals.clustered.as_ref().unwrap();
    assert_eq!((c.items, c.clusters, c.in_clusters), (60, 10, 60));
    let by_doc = score(name, lines.as_bytes(), field("doc_id"));
    assert_eq!(by_doc.intervals.clustered.unwrap().clusters, 30);
}

#[test]
fn inspect_reads_a_key_of_each_samples_metadata() {
    let path = format!("{DIR}/inspect/colour_mc.json");
    let mut log: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let samples = log["samples"].as_array_mut().unwrap();
    let n = samples.len();
    assert!(n >= 4, "the fixture has {n} samples");
    for (i, s) in samples.iter_mut().enumerate() {
        s["metadata"] = json!({ "topic": format!("t{}", i / 2) });
    }
    let bytes = serde_json::to_vec(&log).unwrap();
    for name in ["topic", "metadata.topic"] {
        let got = score("colour_mc.json", &bytes, field(name));
        let c = got.intervals.clustered.as_ref().unwrap();
        assert_eq!((c.items, c.in_clusters), (n as u64, n as u64));
        assert_eq!(c.clusters, n.div_ceil(2) as u64);
    }
}

#[test]
fn a_format_that_reads_no_fields_says_so_and_drops_its_own_clusters() {
    let dir = format!("{DIR}/openai_evals");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .expect("an openai evals log");
    let bytes = std::fs::read(&file).unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    let got = score(name, &bytes, field("passage"));
    let why = format!(
        "{}: openai-evals files have no fields scorelens reads by name, so `--cluster passage` leaves this file's items each its own cluster; --cluster group clusters by group",
        name
    );
    assert!(
        got.warnings
            .iter()
            .any(|w| format!("{}: {}", w.file, w.reason) == why),
        "{:?}",
        got.warnings
    );
    assert_eq!(got.intervals.clustered.unwrap().in_clusters, 0);
}

#[test]
fn names_that_cannot_be_fields_are_refused() {
    for bad in ["", " passage", "passage ", "pas\u{7}sage"] {
        assert_eq!(ClusterBy::parse(bad), None, "{bad:?}");
    }
    assert_eq!(ClusterBy::parse("passage_id"), Some(ClusterBy::File));
    assert_eq!(ClusterBy::parse("group"), Some(ClusterBy::Group));
    assert_eq!(ClusterBy::parse("none"), Some(ClusterBy::Off));
}
