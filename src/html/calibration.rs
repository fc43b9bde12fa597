//! Calibration in the HTML report: the reliability diagram under each reading, conditioning
//! against mixing figure by figure, and the conditioning bins as a table.

use super::sections::{heading, td, td_count, td_in, tend, th, thead, thead_stacked};
use super::{diagram, Html};
use crate::fmt::{self, Kind};
use crate::report::Report;

use crate::report::calibration_rows::ROWS;

pub fn section(h: &mut Html, r: &Report, level: u8) {
    let (c, m) = (&r.conditioning, &r.mixing);
    heading(h, level, "Calibration");
    if c.items == 0 {
        h.el(
            "p",
            "meta",
            "No item carries probabilities, so there is no calibration to show: the reliability diagram, ECE, Brier, EPA and NLL apply to items with probabilities over their options.",
        );
        return;
    }
    h.raw("<div class=\"figures\">");
    for (name, f) in [("conditioning", c), ("mixing", m)] {
        if f.items > 0 {
            let caption = format!(
                "Reliability, {name}, 10 equal-width bins: accuracy against mean confidence; red where the model is more confident than right, green where less; whiskers are 95% Wilson intervals. ECE {}.",
                fmt::show(f.ece, Kind::Score)
            );
            diagram::figure(h, &f.bins, &caption);
        }
    }
    h.raw("</div>\n");
    heading(h, level + 1, "Conditioning versus mixing");
    h.el(
        "p",
        "meta",
        "Conditioning renormalises the probabilities over the valid options; mixing spreads the mass the model put outside them evenly over the options. Neither changes the answer.",
    );
    thead_stacked(
        h,
        &[
            "figure",
            "conditioning",
            "mixing",
            "mixing − cond.",
            "what it is",
        ],
        &[4],
    );
    for (key, label, what, get) in ROWS {
        let (a, b) = (get(c), get(m));
        h.raw("<tr>");
        th(h, label);
        td_in(
            h,
            a,
            Kind::Score,
            &format!("conditioning.{key}"),
            "conditioning",
        );
        td_in(h, b, Kind::Score, &format!("mixing.{key}"), "mixing");
        h.raw("<td class=\"num\" data-label=\"mixing − cond.\">")
            .text(&fmt::diff(a, b, Kind::Score))
            .raw("</td>");
        h.el("td", "what", what);
        h.raw("</tr>\n");
    }
    h.raw("<tr>");
    th(h, "items");
    for (n, column) in [(c.items, "conditioning"), (m.items, "mixing")] {
        h.raw("<td class=\"num\"")
            .attr("data-label", column)
            .attr("data-value", &n.to_string())
            .raw(">")
            .text(&fmt::count(n))
            .raw("</td>");
    }
    h.raw("<td></td>");
    h.el("td", "what", "items with usable probabilities");
    h.raw("</tr>\n");
    tend(h);
    heading(h, level + 1, "Reliability bins, conditioning");
    thead(
        h,
        &[
            "confidence",
            "items",
            "mean confidence",
            "accuracy",
            "95% Wilson",
        ],
        &[],
    );
    for b in &c.bins {
        h.raw("<tr>");
        th(
            h,
            &format!("{} to {}", fmt::number(b.lo, 1), fmt::number(b.hi, 1)),
        );
        td_count(h, b.count);
        td(h, b.confidence, Kind::Score, "");
        td(h, b.accuracy, Kind::Share, "");
        match (b.ci_lo, b.ci_hi) {
            (Some(lo), Some(hi)) => h.el("td", "num", &fmt::interval(lo, hi, Kind::Share)),
            _ => h.el("td", "num", fmt::NA),
        };
        h.raw("</tr>\n");
    }
    tend(h);
}
