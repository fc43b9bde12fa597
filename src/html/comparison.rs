//! Several runs in the HTML report: one summary row per run with its headline and a link to its
//! report, and each pair's differences with their paired intervals, McNemar's test and the items
//! only one file has.

use super::sections::{td, td_count, td_in, td_text, tend, th, thead, thead_stacked};
use super::Html;
use crate::compare::{Comparison, OnlyIn, Pair};
use crate::fmt::{self, Kind};
use crate::profiles::headline::{headline, Figure};
use crate::report::Report;
use std::fmt::Write;

/// The runs, one row each: name (a link to its report), model, profile, items and its headline.
pub fn summary(h: &mut Html, runs: &[(&str, &Report)], compared: bool) {
    let heads: Vec<Vec<Figure>> = runs.iter().map(|(_, r)| headline(r)).collect();
    // The union of the runs' headline figures, in order of first appearance.
    let mut columns: Vec<(String, String, Kind)> = Vec::new();
    for f in heads.iter().flatten() {
        if !columns.iter().any(|c| c.0 == f.path) {
            columns.push((f.path.clone(), f.label.clone(), f.kind));
        }
    }
    h.raw("<section id=\"summary\">");
    let mut names = vec!["run", "profile", "items"];
    names.extend(columns.iter().map(|c| c.1.as_str()));
    thead(h, &names, &[1]);
    for (k, ((name, r), head)) in runs.iter().zip(&heads).enumerate() {
        let _ = write!(h.0, "<tr><th scope=\"row\"><a href=\"#run-{}\">", k + 1);
        h.text(&super::model_or(r, name)).raw("</a>");
        if r.model.is_some() {
            h.raw(" <span class=\"meta\">").text(name).raw("</span>");
        }
        h.raw("</th>");
        td_text(h, &r.profile);
        td_count(h, r.items);
        for (path, _, kind) in &columns {
            let v = head.iter().find(|f| &f.path == path).and_then(|f| f.value);
            td(h, v, *kind, path);
        }
        h.raw("</tr>\n");
    }
    tend(h);
    if compared {
        h.raw("<p><a href=\"#comparison\">The comparison, pair by pair</a></p>");
    }
    h.raw("</section>\n");
}

/// Every pair's differences.
pub fn pairs(h: &mut Html, c: &Comparison) {
    h.raw("<section id=\"comparison\"><h2>Comparison</h2>");
    let b = &c.bootstrap;
    h.el(
        "p",
        "meta",
        &format!(
            "Each difference is A − B on the items both runs have, with a {} bootstrap interval ({}, seed {}, {:.0}%); “differs” when the interval excludes 0.",
            b.method,
            fmt::plural(u64::from(b.resamples), "resample", "resamples"),
            b.seed,
            b.level * 100.0
        ),
    );
    for p in &c.pairs {
        pair(h, p);
    }
    for o in &c.only_in {
        only(h, o);
    }
    for n in &c.notes {
        h.el("p", "meta", n);
    }
    h.raw("</section>\n");
}

fn pair(h: &mut Html, p: &Pair) {
    h.raw("<div class=\"pair\">")
        .el("h3", "", &format!("{} − {}", p.a, p.b))
        .el(
            "p",
            "meta",
            &format!(
                "On the {} both files have; resampled within {} ({}). A is {}, B is {}.",
                fmt::plural(p.common, "item", "items"),
                p.strata,
                fmt::plural(p.strata_count, "stratum", "strata"),
                p.a,
                p.b
            ),
        );
    thead_stacked(
        h,
        &["figure", "A", "B", "A − B", "95% interval", "differs"],
        &[5],
    );
    for d in &p.figures {
        let (label, kind) = fmt::figure(&d.figure);
        let unit = fmt::unit(kind);
        h.raw("<tr").attr("data-figure", &d.figure).raw(">");
        th(h, &label);
        td_in(h, Some(d.a), kind, "", "A");
        td_in(h, Some(d.b), kind, "", "B");
        h.raw("<td class=\"num\" data-label=\"A − B\"")
            .attr("data-value", &fmt::exact(Some(d.delta)))
            .raw(">")
            .text(&format!("{}{unit}", fmt::signed(d.delta, kind)))
            .raw("</td><td class=\"num interval\" data-label=\"95% interval\"")
            .attr("data-lo", &fmt::exact(Some(d.lo)))
            .attr("data-hi", &fmt::exact(Some(d.hi)))
            .raw(">")
            .text(&format!(
                "{} to {}{unit}",
                fmt::signed(d.lo, kind),
                fmt::signed(d.hi, kind)
            ))
            .raw("</td>");
        h.raw("<td data-label=\"differs\">")
            .text(if d.distinguishable { "yes" } else { "no" })
            .raw("</td>");
        h.raw("</tr>\n");
    }
    tend(h);
    let m = &p.mcnemar;
    thead(
        h,
        &[
            "McNemar's exact test",
            "both right",
            "A only",
            "B only",
            "both wrong",
            "p-value",
        ],
        &[],
    );
    h.raw("<tr>");
    th(h, "items");
    for n in [m.both_right, m.only_a, m.only_b, m.both_wrong] {
        td_count(h, n);
    }
    h.raw("<td class=\"num\"")
        .attr("data-value", &fmt::exact(m.p_value))
        .raw(">")
        .text(&fmt::p_value(m.p_value))
        .raw("</td></tr>\n");
    tend(h);
    h.raw("</div>\n");
}

/// "5 items are only in model-a: q395, q396, …".
fn only(h: &mut Html, o: &OnlyIn) {
    if o.count == 0 {
        return;
    }
    let more = if (o.ids.len() as u64) < o.count {
        ", …"
    } else {
        ""
    };
    let are = if o.count == 1 { "item is" } else { "items are" };
    h.el(
        "p",
        "meta",
        &format!(
            "{} {are} only in {}: {}{more}",
            fmt::count(o.count),
            o.run,
            o.ids.join(", ")
        ),
    );
}
