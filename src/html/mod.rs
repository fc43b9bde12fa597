//! A report to share as one file: the report (or several runs and their comparison) as one
//! self-contained HTML document, with inline CSS and SVG, no script and no request, readable
//! offline and printable.
//!
//! The CLI's `--format html` and the page's "Export HTML" both call `report`, `runs` and
//! `leaderboard`, so the same input gives the same bytes. The document holds no clock and no path of this machine. Every
//! string from the user's files (model, file, group and subset names, ids, warnings) goes through
//! `Html::text` or `Html::attr`, which escape it; nothing else writes it.

mod benchmark;
mod calibration;
mod comparison;
mod diagram;
pub mod leaderboard;
pub mod node;
pub mod planning;
mod sections;
mod style;

use crate::compare::Comparison;
use crate::report::Report;
use std::fmt::Write;

/// Groups a report lists, the largest first, when it has more; the JSON report keeps them all.
pub const GROUPS_SHOWN: usize = 500;

/// The document being written.
struct Html(String);

impl Html {
    fn raw(&mut self, s: &str) -> &mut Self {
        self.0.push_str(s);
        self
    }

    /// Text from anywhere, escaped for an element's content.
    fn text(&mut self, s: &str) -> &mut Self {
        escape_into(&mut self.0, s);
        self
    }

    /// ` name="value"`, the value escaped.
    fn attr(&mut self, name: &str, value: &str) -> &mut Self {
        let _ = write!(self.0, " {name}=\"");
        escape_into(&mut self.0, value);
        self.0.push('"');
        self
    }

    /// `<tag class="class">text</tag>`, the text escaped; no class attribute when it is empty.
    fn el(&mut self, tag: &str, class: &str, text: &str) -> &mut Self {
        let _ = write!(self.0, "<{tag}");
        if !class.is_empty() {
            self.attr("class", class);
        }
        self.0.push('>');
        self.text(text);
        let _ = write!(self.0, "</{tag}>");
        self
    }
}

/// Writes `s` with `&`, `<`, `>`, `"` and `'` as character references: safe as element content
/// and inside a quoted attribute.
fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// `s` escaped for HTML text or a quoted attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

/// The document's head and the opening of its body.
fn open(title: &str) -> Html {
    let mut h = Html(String::with_capacity(64 * 1024));
    h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        // No script runs and nothing is fetched, whatever the file holds.
        .raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
        .raw("<meta name=\"generator\" content=\"scorelens ")
        .raw(env!("CARGO_PKG_VERSION"))
        .raw("\">\n")
        .el("title", "", title)
        .raw("\n<style>")
        .raw(style::CSS)
        .raw("</style>\n</head>\n<body>\n<main>\n");
    h
}

fn close(mut h: Html) -> String {
    h.raw("<footer>Written by scorelens ")
        .raw(env!("CARGO_PKG_VERSION"))
        .raw(" from the files named above, on the reader's own machine: this page runs no script and loads nothing.</footer>\n</main>\n</body>\n</html>\n");
    h.0
}

/// A run's name as a title: its model, else the name it was given.
fn model_or(r: &Report, name: &str) -> String {
    r.model.clone().unwrap_or_else(|| name.to_string())
}

/// One run's report as a document.
pub fn report(r: &Report) -> String {
    let name = model_or(r, "(unnamed model)");
    let mut h = open(&format!("{name} · {} · scorelens", r.profile));
    h.el("h1", "", &name);
    sections::report(&mut h, r, 2, "");
    close(h)
}

/// The leaderboard ranked on `figure` as one document (`None` when no board has that name).
pub fn leaderboard(l: &crate::leaderboard::Leaderboard, figure: &str) -> Option<String> {
    leaderboard::document(l, figure)
}

/// Several runs as one document: a summary row per run with its headline and links, the
/// comparison when there is one, then each run's report. `runs` are (name, report) in the
/// comparison's order.
pub fn runs(runs: &[(&str, &Report)], comparison: Option<&Comparison>) -> String {
    let mut h = open(&format!("{} runs · scorelens", runs.len()));
    h.el("h1", "", &format!("{} runs compared", runs.len()));
    comparison::summary(&mut h, runs, comparison.is_some());
    if let Some(c) = comparison {
        comparison::pairs(&mut h, c);
    }
    for (k, (name, r)) in runs.iter().enumerate() {
        let _ = write!(h.0, "<article id=\"run-{}\">", k + 1);
        h.el("h2", "", &format!("Run {}: {}", k + 1, model_or(r, name)));
        sections::report(&mut h, r, 3, &format!("run-{}-", k + 1));
        h.raw("<p class=\"top\"><a href=\"#summary\">Back to the summary</a></p></article>\n");
    }
    close(h)
}
