//! The benchmarks' own tables in the HTML report: RewardBench's sections and subsets, and I and C
//! by item type and tier.

use super::sections::{heading, td, td_count, td_text, tend, th, thead};
use super::Html;
use crate::fmt::{self, Kind};
use crate::metrics::ic::figures::{ScopeFigures, TypeFigures};
use crate::report::rewardbench::RewardBenchFigures;
use std::fmt::Write;

pub fn rewardbench(h: &mut Html, rb: &RewardBenchFigures, level: u8) {
    heading(h, level, "RewardBench sections");
    thead(
        h,
        &["section", "score", "items", "longer response wins"],
        &[],
    );
    for s in &rb.section_details {
        h.raw("<tr>");
        th(h, &s.name);
        td(
            h,
            s.score,
            Kind::Share,
            &format!("rewardbench.sections.{}", s.name),
        );
        td_count(h, s.items);
        td(h, s.length_baseline, Kind::Share, "");
        h.raw("</tr>\n");
    }
    h.raw("<tr>");
    th(h, "overall");
    td(h, rb.overall, Kind::Share, "rewardbench.overall");
    h.raw("<td></td>");
    td(h, rb.length_baseline, Kind::Share, "");
    h.raw("</tr>\n");
    if rb.overall_with_prior_sets.is_some() {
        h.raw("<tr>");
        th(h, "overall with prior sets");
        td(
            h,
            rb.overall_with_prior_sets,
            Kind::Share,
            "rewardbench.overall_with_prior_sets",
        );
        h.raw("<td></td><td></td></tr>\n");
    }
    tend(h);
    heading(h, level + 1, "Subsets");
    thead(
        h,
        &[
            "subset",
            "section",
            "items",
            "score",
            "ties",
            "longer response wins",
        ],
        &[1],
    );
    for s in &rb.subset_details {
        h.raw("<tr>");
        th(h, &s.name);
        td_text(h, s.section.as_deref().unwrap_or(fmt::NA));
        td_count(h, s.items);
        td(
            h,
            s.score,
            Kind::Share,
            &format!("rewardbench.subsets.{}", s.name),
        );
        td_count(h, s.ties);
        td(h, s.length_baseline, Kind::Share, "");
        h.raw("</tr>\n");
    }
    tend(h);
}

pub fn ic_table(h: &mut Html, o: &ScopeFigures) {
    h.raw("<p class=\"counts\">I ")
        .raw("<strong>")
        .text(&fmt::show(o.i, Kind::Points))
        .raw("</strong> · I weighted 50/25/25 <strong>")
        .text(&fmt::show(o.i_weighted, Kind::Points))
        .raw("</strong> · C <strong>")
        .text(&fmt::show(o.c, Kind::Points))
        .raw("</strong> · ")
        .text(&fmt::plural(o.items, "item", "items"));
    if let Some(e) = o.pooled_ece {
        h.raw(" · pooled ECE ")
            .text(&fmt::show(Some(e), Kind::Score));
    }
    h.raw("</p>\n");
    thead(
        h,
        &[
            "type / tier",
            "CC",
            "C",
            "items",
            "weight",
            "invalid",
            "ECE",
            "TVD",
            "RPS",
            "abstains",
        ],
        &[],
    );
    let t = &o.types;
    for (name, f) in [
        ("choice", &t.choice),
        ("binary", &t.binary),
        ("rating", &t.rating),
    ] {
        if let Some(f) = f {
            type_rows(h, name, f);
        }
    }
    tend(h);
}

fn type_rows(h: &mut Html, name: &str, t: &TypeFigures) {
    h.raw("<tr class=\"type\">");
    th(h, name);
    td(h, t.cc, Kind::Points, "");
    td(h, t.c, Kind::Points, "");
    td_count(h, t.items);
    h.raw("<td></td>");
    td_count(h, t.invalid);
    td(h, t.ece, Kind::Score, "");
    td(h, t.tvd, Kind::Score, "");
    td(h, t.rps, Kind::Score, "");
    td(h, t.abstention_rate, Kind::Share, "");
    h.raw("</tr>\n");
    for (tier, f) in t.tiers.present() {
        h.raw("<tr class=\"tier\">");
        th(h, tier);
        td(h, f.cc, Kind::Points, "");
        h.raw("<td></td>");
        td_count(h, f.items);
        let _ = write!(h.0, "<td class=\"num\">{:.2}</td>", f.weight);
        h.raw("<td></td><td></td><td></td><td></td><td></td></tr>\n");
    }
}
