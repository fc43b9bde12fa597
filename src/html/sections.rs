//! One run's report as HTML sections, in the page's order: what was read, the headline, the
//! benchmark's own tables, calibration, the other figures, the groups, then notes and warnings.

use super::{benchmark, calibration, Html, GROUPS_SHOWN};
use crate::fmt::{self, Kind};
use crate::profiles::headline::headline;
use crate::report::groups as order;
use crate::report::{GroupFigures, Report};
use std::fmt::Write;

/// Warnings listed before the rest are only counted.
const WARNINGS_SHOWN: usize = 20;

/// `<hN>` for a section at `level`.
pub(super) fn heading(h: &mut Html, level: u8, text: &str) {
    h.el(&format!("h{level}"), "", text);
}

/// A table's head: the first column is the row's name, the others numbers except the columns
/// in `text`.
pub(super) fn thead(h: &mut Html, columns: &[&str], text: &[usize]) {
    h.raw("<div class=\"scroll\"><table><thead><tr>");
    head_cells(h, columns, text);
}

/// A table whose rows stack on a narrow screen, each cell under its column's name: its cells
/// are written with `td_in`, which names the column (`data-label`).
pub(super) fn thead_stacked(h: &mut Html, columns: &[&str], text: &[usize]) {
    h.raw("<div class=\"scroll\"><table class=\"stack\"><thead><tr>");
    head_cells(h, columns, text);
}

fn head_cells(h: &mut Html, columns: &[&str], text: &[usize]) {
    for (i, c) in columns.iter().enumerate() {
        let num = i > 0 && !text.contains(&i);
        h.el("th", if num { "num" } else { "" }, c);
    }
    h.raw("</tr></thead><tbody>\n");
}

pub(super) fn tend(h: &mut Html) {
    h.raw("</tbody></table></div>\n");
}

/// A row's name cell.
pub(super) fn th(h: &mut Html, text: &str) {
    h.raw("<th scope=\"row\">").text(text).raw("</th>");
}

/// A figure's cell: as shown, with its report path and exact value for readers and tests.
pub(super) fn td(h: &mut Html, v: Option<f64>, kind: Kind, path: &str) {
    td_in(h, v, kind, path, "");
}

/// `td` in the column named `column` of a stacked table ("" names none).
pub(super) fn td_in(h: &mut Html, v: Option<f64>, kind: Kind, path: &str, column: &str) {
    h.raw("<td class=\"num\"");
    if !column.is_empty() {
        h.attr("data-label", column);
    }
    if !path.is_empty() {
        h.attr("data-figure", path);
    }
    h.attr("data-value", &fmt::exact(v));
    h.raw(">").text(&fmt::show(v, kind)).raw("</td>");
}

/// A count's cell.
pub(super) fn td_count(h: &mut Html, n: u64) {
    let _ = write!(
        h.0,
        "<td class=\"num\" data-value=\"{n}\">{}</td>",
        fmt::count(n)
    );
}

/// A plain text cell.
pub(super) fn td_text(h: &mut Html, text: &str) {
    h.el("td", "", text);
}

/// One run's report; `level` is its sections' heading level, `id` prefixes its anchors.
pub fn report(h: &mut Html, r: &Report, level: u8, id: &str) {
    read(h, r);
    headline_cards(h, r, level, id);
    if let Some(c) = &r.intervals.clustered {
        heading(h, level, "How sure, and how many items");
        h.raw(&super::planning::tree(c).to_html());
    }
    if let Some(rb) = &r.rewardbench {
        benchmark::rewardbench(h, rb, level);
    }
    if let Some(ic) = &r.ic {
        heading(h, level, "I and C");
        benchmark::ic_table(h, &ic.overall);
        for (name, s) in [("text", &ic.scopes.text), ("image", &ic.scopes.image)] {
            if let Some(s) = s {
                heading(h, level + 1, &format!("I and C, {name} items"));
                benchmark::ic_table(h, s);
            }
        }
    }
    calibration::section(h, r, level);
    figures(h, r, level);
    groups(h, &r.groups, level);
    notes(h, r, level);
}

/// What was read: profile, counts, files, and whether these are the benchmark's counts.
fn read(h: &mut Html, r: &Report) {
    h.raw("<p class=\"meta\">profile ")
        .el("strong", "", &r.profile);
    if let Some(b) = &r.benchmark {
        h.raw(" · benchmark ").text(b);
    }
    h.raw(" · ")
        .text(&fmt::plural(r.items, "item scored", "items scored"))
        .raw(", ")
        .text(&fmt::plural(r.skipped, "skipped", "skipped"))
        .raw("</p>\n<ul class=\"files\">");
    for f in &r.files {
        h.raw("<li>")
            .el("strong", "", &f.name)
            .raw(" (")
            .text(&f.format);
        if let Some(v) = &f.version {
            h.raw(" ").text(v);
        }
        h.raw("): ")
            .text(&fmt::plural(f.items, "item", "items"))
            .raw(", ")
            .text(&fmt::count(f.skipped))
            .raw(" skipped</li>");
    }
    h.raw("</ul>\n");
    if let Some(s) = &r.scope {
        let (class, text) = if s.complete {
            ("meta", "The file holds exactly the benchmark's counts.")
        } else {
            (
                "warn",
                "The file does not hold the benchmark's counts: these are not the benchmark's figures.",
            )
        };
        h.el("p", class, text);
    }
}

/// The profile's headline figures as cards, each with its interval and how it is made.
fn headline_cards(h: &mut Html, r: &Report, level: u8, id: &str) {
    let _ = write!(h.0, "<section id=\"{id}headline\">");
    heading(h, level, "Headline");
    h.raw("<div class=\"cards\">");
    for f in headline(r) {
        h.raw("<div class=\"card\"")
            .attr("data-key", &f.key)
            .attr("title", &f.how)
            .raw(">");
        h.el("span", "label", &f.label);
        h.raw("<span class=\"value\"")
            .attr("data-figure", &f.path)
            .attr("data-value", &fmt::exact(f.value))
            .raw(">")
            .text(&fmt::show(f.value, f.kind))
            .raw("</span>");
        if let Some((lo, hi, method)) = interval(r, &f.path) {
            h.raw("<span class=\"ci\"")
                .attr("data-lo", &fmt::exact(Some(lo)))
                .attr("data-hi", &fmt::exact(Some(hi)))
                .raw(">")
                .text(&format!("95% {method}: {}", fmt::interval(lo, hi, f.kind)))
                .raw("</span>");
        }
        h.el("span", "how", &f.how);
        h.raw("</div>");
    }
    h.raw("</div></section>\n");
}

/// A figure's 95% interval: the bootstrap's when the report has one, else Wilson's.
fn interval(r: &Report, path: &str) -> Option<(f64, f64, &'static str)> {
    if let Some(b) = r.intervals.bootstrap(path) {
        return Some((b.lo, b.hi, "bootstrap"));
    }
    let w = r.intervals.wilson.get(path)?;
    Some((w.lo, w.hi, "Wilson"))
}

/// Every headline figure of the report, whichever the profile leads with.
fn figures(h: &mut Html, r: &Report, level: u8) {
    let m = &r.metrics;
    heading(h, level, "All figures");
    thead(h, &["figure", "value", "what it is"], &[2]);
    let rows: [(&str, Option<f64>, Kind, &str, &str); 6] = [
        (
            "accuracy",
            m.accuracy,
            Kind::Share,
            "metrics.accuracy",
            "exact match: correct / items",
        ),
        (
            "normalized",
            m.normalized,
            Kind::Score,
            "metrics.normalized",
            "1 if right, −c/(1−c) if wrong; chance scores 0",
        ),
        (
            "macro accuracy",
            m.macro_accuracy,
            Kind::Share,
            "metrics.macro_accuracy",
            "mean over groups of accuracy",
        ),
        (
            "macro normalized",
            m.macro_normalized,
            Kind::Score,
            "metrics.macro_normalized",
            "mean over groups of normalized",
        ),
        (
            "invalid share",
            m.invalid_share,
            Kind::Share,
            "metrics.invalid_share",
            "answers absent or not a valid option",
        ),
        (
            "outside mass",
            m.outside_mass,
            Kind::Score,
            "metrics.outside_mass",
            "mean probability outside the valid options",
        ),
    ];
    for (label, v, kind, path, what) in rows {
        h.raw("<tr>");
        th(h, label);
        td(h, v, kind, path);
        td_text(h, what);
        h.raw("</tr>\n");
    }
    tend(h);
}

/// The groups in natural order of name, all of them up to `GROUPS_SHOWN`, else the largest.
fn groups(h: &mut Html, groups: &[GroupFigures], level: u8) {
    if groups.is_empty() {
        return;
    }
    heading(h, level, "Groups");
    let shown = if groups.len() > GROUPS_SHOWN {
        order::largest(groups, GROUPS_SHOWN)
    } else {
        order::in_name_order(groups)
    };
    if groups.len() > GROUPS_SHOWN {
        h.el(
            "p",
            "meta",
            &format!(
                "{} groups; the {} largest are listed here, every group's figures are in the JSON report.",
                fmt::count(groups.len() as u64),
                fmt::count(GROUPS_SHOWN as u64)
            ),
        );
    }
    thead(
        h,
        &["group", "items", "accuracy", "normalized", "invalid share"],
        &[],
    );
    for g in shown.into_iter().map(|i| &groups[i]) {
        h.raw("<tr>");
        th(h, &g.name);
        td_count(h, g.items);
        td(
            h,
            g.accuracy,
            Kind::Share,
            &format!("groups.{}.accuracy", g.name),
        );
        td(h, g.normalized, Kind::Score, "");
        td(h, g.invalid_share, Kind::Share, "");
        h.raw("</tr>\n");
    }
    tend(h);
}

fn notes(h: &mut Html, r: &Report, level: u8) {
    if !r.notes.is_empty() {
        heading(h, level, "Notes");
        h.raw("<ul class=\"notes\">");
        for n in &r.notes {
            h.el("li", "", n);
        }
        h.raw("</ul>\n");
    }
    if !r.warnings.is_empty() {
        heading(
            h,
            level,
            &fmt::plural(r.warnings.len() as u64, "warning", "warnings"),
        );
        h.raw("<ul class=\"warnings\">");
        for w in r.warnings.iter().take(WARNINGS_SHOWN) {
            h.el("li", "", &w.to_string());
        }
        if r.warnings.len() > WARNINGS_SHOWN {
            h.el(
                "li",
                "meta",
                &format!(
                    "and {} more, in the JSON report",
                    fmt::count((r.warnings.len() - WARNINGS_SHOWN) as u64)
                ),
            );
        }
        h.raw("</ul>\n");
    }
}
