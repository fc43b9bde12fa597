//! Fuzzes the exports a user shares: one to four runs scored, then each run's HTML report, the
//! runs and their comparison as one document, and the leaderboard as HTML, CSV and Markdown, as
//! the CLI's `--format` and the page's exports write them. Text from the files (ids, groups,
//! models, file names, warnings) must never come out as markup: every element in the HTML is one
//! the export writes, and the marker `x-fuzz` never follows a raw `<`, `"` or `'` in HTML or a
//! raw `<` in Markdown (the seeds put it in names and ids); no CSV field starts as a formula.
//!
//! Input: byte 0 the seed of the 20 resamples; the rest is runs separated by `common::RUN_SEP`,
//! each files in `common::paths`' layout.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use scorelens::leaderboard::tables::tables;
use scorelens::leaderboard::Joined;
use scorelens::{compare, BootstrapOptions, Options};

/// Every element the HTML export writes (`src/html`): anything else in its output came from a
/// file.
const ELEMENTS: &[&str] = &[
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "main",
    "footer",
    "article",
    "section",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "a",
    "b",
    "strong",
    "span",
    "div",
    "ul",
    "li",
    "table",
    "caption",
    "col",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "figure",
    "figcaption",
    "svg",
    "g",
    "rect",
    "line",
    "text",
    "path",
    "circle",
    "polyline",
];

/// Panics when `html` holds markup the export does not write.
fn check_html(html: &str, what: &str) {
    let lower = html.to_ascii_lowercase();
    for marker in ["<x-fuzz", "\"x-fuzz", "'x-fuzz"] {
        assert!(
            !lower.contains(marker),
            "{what}: {marker} from a file is raw in the HTML"
        );
    }
    for (at, _) in lower.match_indices('<') {
        let tag: String = lower[at + 1..]
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!' || *c == '-')
            .collect();
        assert!(
            tag == "!doctype" || ELEMENTS.contains(&tag.as_str()),
            "{what}: <{tag} is no element the export writes (at byte {at})"
        );
    }
}

/// The fields of CSV text, unquoted.
fn csv_fields(csv: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted, mut chars) =
        (Vec::new(), String::new(), false, csv.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',' | '\n') => fields.push(std::mem::take(&mut field)),
            (false, c) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// Panics when a CSV field would run as a formula in a spreadsheet.
fn check_csv(csv: &str) {
    for f in csv_fields(csv) {
        let risky = f.len() > 1 && f.starts_with(['=', '+', '-', '@', '\t', '\r']);
        assert!(
            !risky || f.parse::<f64>().is_ok(),
            "CSV field {f:?} runs as a formula"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&seed, rest)) = data.split_first() else {
        return;
    };
    let runs = common::runs_of(rest, &Options::default());
    for r in &runs {
        check_html(&scorelens::html::report(&r.report), "report");
    }
    if runs.len() < 2 {
        return;
    }
    let boot = BootstrapOptions {
        resamples: 20,
        seed: u64::from(seed),
    };
    let named: Vec<(&str, &scorelens::Report)> =
        runs.iter().map(|r| (r.name.as_str(), &r.report)).collect();
    let c = compare(&runs, &boot);
    check_html(&scorelens::html::runs(&named, Some(&c)), "comparison");
    let l = common::leaderboard(Joined::new(&runs), &boot);
    for b in l.figures.iter().chain(&l.subsets) {
        if let Some(doc) = scorelens::html::leaderboard(&l, &b.figure) {
            check_html(&doc, "leaderboard");
        }
        if let Some(t) = tables(&l, &b.figure) {
            check_csv(&scorelens::table::csv(&t));
            let md = scorelens::table::markdown(&t).to_ascii_lowercase();
            assert!(
                !md.contains("<x-fuzz"),
                "<x-fuzz from a file is raw in the Markdown"
            );
        }
    }
});
