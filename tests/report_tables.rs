//! A report's tables are laid out once (`scorelens::layout`) and written by each face: CSV keeps
//! every figure's digits for a spreadsheet, while aligned text and Markdown round them for a reader.

use scorelens::table::{csv, markdown};
use scorelens::{score, Input, Options};
use std::process::Command;

/// Three items, one right: an accuracy of 1/3, which no number of decimals writes exactly.
const THIRD: &str = "{\"id\": 1, \"options\": [\"A\", \"B\"], \"gold\": \"A\", \"probs\": {\"A\": 0.7, \"B\": 0.3}}\n\
{\"id\": 2, \"options\": [\"A\", \"B\"], \"gold\": \"B\", \"probs\": {\"A\": 0.6, \"B\": 0.4}}\n\
{\"id\": 3, \"options\": [\"A\", \"B\"], \"gold\": \"B\", \"probs\": {\"A\": 0.55, \"B\": 0.45}}\n";

fn report() -> scorelens::Report {
    let input = Input {
        name: "third.jsonl",
        bytes: THIRD.as_bytes(),
    };
    score(&[input], &Options::default()).unwrap()
}

#[test]
fn csv_keeps_every_digit_and_markdown_four_decimals() {
    let r = report();
    assert_eq!(r.metrics.accuracy, Some(1.0 / 3.0));
    let tables = scorelens::layout::tables(&r);
    let csv = csv(&tables);
    assert!(
        csv.contains("\naccuracy,0.3333333333333333,exact match"),
        "{csv}"
    );
    // A count without a point, a bin's edges with every digit, a figure that does not apply empty.
    assert!(
        csv.contains("\nitems,3,3,items with usable probabilities\n"),
        "{csv}"
    );
    assert!(csv.contains("\n0-0.1,0,,,\n"), "{csv}");
    let md = markdown(&tables);
    assert!(md.contains("| accuracy | 0.3333 | exact match"), "{md}");
    assert!(md.contains("| 0.000-0.100 | 0 | - | - | - |"), "{md}");
    assert!(!md.contains("0.33333"), "{md}");
}

#[test]
fn the_aligned_text_keeps_four_decimals() {
    let dir = std::env::temp_dir().join(format!("scorelens-report-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("third.jsonl");
    std::fs::write(&path, THIRD).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_scorelens"))
        .args(["score", path.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\n  accuracy           0.3333  exact match"),
        "{text}"
    );
    assert!(
        text.contains("\n  0.000-0.100      0           -         -            -\n"),
        "{text}"
    );
    assert!(!text.contains("0.33333"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
