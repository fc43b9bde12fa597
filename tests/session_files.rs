//! Per-file counts in the report when a format joins files and emits at the end of the run.

use scorelens::{score, Input, Options};

fn read(dir: &str, names: &[&str]) -> Vec<(String, Vec<u8>)> {
    names
        .iter()
        .map(|n| {
            let path = format!("{}/{dir}/{n}", env!("CARGO_MANIFEST_DIR"));
            (n.to_string(), std::fs::read(&path).unwrap())
        })
        .collect()
}

fn per_file(files: &[(String, Vec<u8>)]) -> (u64, u64, Vec<(String, u64, u64)>) {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(name, bytes)| Input { name, bytes })
        .collect();
    let r = score(&inputs, &Options::default()).unwrap();
    let mut counts: Vec<_> = r
        .files
        .iter()
        .map(|f| (f.name.clone(), f.items, f.skipped))
        .collect();
    counts.sort();
    (r.items, r.skipped, counts)
}

#[test]
fn joined_items_count_in_their_results_file_whatever_the_order() {
    for dir_files in [
        (
            "www/samples/jevbench-native",
            vec![
                "easy.jsonl",
                "original.jsonl",
                "hard.jsonl",
                "results.jsonl",
            ],
        ),
        (
            "tests/fixtures/decision_bench",
            vec!["cases.jsonl", "results.jsonl"],
        ),
    ] {
        let (dir, names) = dir_files;
        let forward = per_file(&read(dir, &names));
        let mut reversed_names = names.clone();
        reversed_names.reverse();
        let backward = per_file(&read(dir, &reversed_names));
        assert_eq!(forward, backward, "{dir}");
        let (items, skipped, files) = forward;
        assert!(items > 0, "{dir}");
        let summed: u64 = files.iter().map(|f| f.1).sum();
        let summed_skips: u64 = files.iter().map(|f| f.2).sum();
        assert_eq!((summed, summed_skips), (items, skipped), "{dir}: {files:?}");
        let results = files.iter().find(|f| f.0 == "results.jsonl").unwrap();
        assert_eq!(results.1, items, "{dir}: the answers live in results.jsonl");
    }
}
