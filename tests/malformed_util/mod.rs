//! Shared by the malformed-corpus tests: reads files of `tests/malformed/` as one run and checks
//! the exact warnings (file, line, reason) and the number of items scored, and that feeding the
//! same bytes in small chunks gives the very same report.

#![allow(dead_code)]

use scorelens::formats::HEAD;
use scorelens::{score, Error, Input, Options, Report, Session, Warning};
use std::path::PathBuf;

/// The corpus folder.
pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/malformed")
}

/// A corpus file's bytes, by its path under `tests/malformed/`.
pub fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(dir().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// One expected warning.
pub fn w(file: &str, line: Option<u64>, reason: &str) -> Warning {
    Warning::new(file, line, reason)
}

/// What a run gave: items scored and warnings, whether or not a report could be made.
#[derive(Debug)]
pub struct Outcome {
    pub items: u64,
    pub skipped: Option<u64>,
    pub warnings: Vec<Warning>,
    pub report: Option<Report>,
}

/// Scores named byte strings as one run, whole and in `chunk`-byte pieces, and checks that both
/// ways agree.
pub fn run_named(files: &[(&str, Vec<u8>)], profile: Option<&str>, chunk: usize) -> Outcome {
    let opts = Options {
        profile: profile.map(str::to_string),
        ..Options::default()
    };
    let inputs: Vec<Input> = files
        .iter()
        .map(|(name, b)| Input { name, bytes: b })
        .collect();
    let whole = score(&inputs, &opts);
    let mut session = Session::new(&opts).expect("profile");
    for (name, b) in files {
        let mut feed = session.add(name, &b[..b.len().min(HEAD)], None);
        for piece in b.chunks(chunk.max(1)) {
            feed.push(piece);
        }
    }
    let chunked = session.finish().map(|f| f.report);
    assert_eq!(
        whole.as_ref().map(Report::to_json),
        chunked.as_ref().map(Report::to_json),
        "feeding in {chunk}-byte chunks changed the result"
    );
    match whole {
        Ok(r) => Outcome {
            items: r.items,
            skipped: Some(r.skipped),
            warnings: r.warnings.clone(),
            report: Some(r),
        },
        Err(Error::NoItems(warnings)) => Outcome {
            items: 0,
            skipped: None,
            warnings,
            report: None,
        },
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// Scores corpus files as one run (named by their path under `tests/malformed/`).
pub fn run(files: &[&str]) -> Outcome {
    let named: Vec<(&str, Vec<u8>)> = files.iter().map(|f| (*f, bytes(f))).collect();
    run_named(&named, None, 7)
}

/// Asserts the exact warnings, in order, and the number of items scored.
pub fn check(files: &[&str], items: u64, warnings: &[Warning]) -> Outcome {
    let out = run(files);
    assert_warnings(&out, items, warnings);
    out
}

/// Like `check` for a single file, with expected warnings given as (line, reason) in that file.
pub fn check_one(file: &str, items: u64, warnings: &[(Option<u64>, &str)]) -> Outcome {
    let want: Vec<Warning> = warnings.iter().map(|(l, r)| w(file, *l, r)).collect();
    check(&[file], items, &want)
}

pub fn assert_warnings(out: &Outcome, items: u64, want: &[Warning]) {
    let shown = |ws: &[Warning]| {
        ws.iter()
            .map(|w| format!("  {:?}, {:?}, {:?}", w.file, w.line, w.reason))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        out.warnings == want,
        "warnings differ\n got:\n{}\n want:\n{}",
        shown(&out.warnings),
        shown(want)
    );
    assert_eq!(out.items, items, "items scored");
}
