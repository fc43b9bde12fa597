//! The reliability diagram as static SVG, drawn as the page draws one series: accuracy per bin
//! against confidence, the gap to the diagonal shaded, 95% Wilson whiskers, and the bin counts as
//! a histogram underneath. It scales with its box (a viewBox, no fixed size).

use super::Html;
use crate::fmt::{self, Kind};
use crate::metrics::ece::BinReport;
use crate::reliability_plot::{height, x, y, HIST, HIST_TOP, LEFT, PLOT, PW, TOP, W};
use std::fmt::Write;

/// The report's diagram draws one series and no legend: a small margin under the histogram.
const H: f64 = height(8.0);

/// A line from (x1, y1) to (x2, y2).
fn line(h: &mut Html, class: &str, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let _ = write!(
        h.0,
        "<line class=\"{class}\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\"/>"
    );
}

fn label(h: &mut Html, class: &str, (tx, ty): (f64, f64), anchor: &str, text: &str) {
    let _ = write!(
        h.0,
        "<text class=\"{class}\" x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"{anchor}\">"
    );
    h.text(text).raw("</text>");
}

fn axes(h: &mut Html) {
    for t in [0.0, 0.2, 0.4, 0.6, 0.8, 1.0] {
        line(h, "grid", (x(0.0), y(t)), (x(1.0), y(t)));
        line(h, "grid", (x(t), y(0.0)), (x(t), y(1.0)));
        let tick = format!("{t:.1}");
        label(h, "tick", (LEFT - 6.0, y(t) + 4.0), "end", &tick);
        label(h, "tick", (x(t), TOP + PLOT + 16.0), "middle", &tick);
    }
    line(h, "diagonal", (x(0.0), y(0.0)), (x(1.0), y(1.0)));
    let _ = write!(
        h.0,
        "<rect class=\"frame\" x=\"{LEFT}\" y=\"{TOP}\" width=\"{PW}\" height=\"{PLOT}\"/>"
    );
    label(
        h,
        "axis",
        (LEFT + PW / 2.0, TOP + PLOT + 32.0),
        "middle",
        "Confidence",
    );
    let _ = write!(
        h.0,
        "<text class=\"axis\" transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">Accuracy</text>",
        TOP + PLOT / 2.0
    );
}

/// What a bin holds, for its tooltip.
fn describe(b: &BinReport) -> String {
    let mut s = format!(
        "confidence {} to {}: {}",
        fmt::number(b.lo, 2),
        fmt::number(b.hi, 2),
        fmt::plural(b.count, "item", "items")
    );
    if let (Some(a), Some(c)) = (b.accuracy, b.confidence) {
        let _ = write!(
            s,
            ", accuracy {}, mean confidence {}",
            fmt::show(Some(a), Kind::Share),
            fmt::show(Some(c), Kind::Score)
        );
    }
    if let (Some(lo), Some(hi)) = (b.ci_lo, b.ci_hi) {
        let _ = write!(s, ", 95% Wilson {}", fmt::interval(lo, hi, Kind::Share));
    }
    s
}

fn bars(h: &mut Html, bins: &[BinReport]) {
    for (i, b) in bins.iter().enumerate().filter(|(_, b)| b.count > 0) {
        let (x0, x1) = (x(b.lo) + 1.0, x(b.hi) - 1.0);
        let w = (x1 - x0).max(0.5);
        let acc = b.accuracy.unwrap_or(0.0);
        let conf = b.confidence.unwrap_or(0.0);
        let _ = write!(
            h.0,
            "<g class=\"bin\"><rect class=\"bar\" data-bin=\"{i}\" data-count=\"{}\" data-accuracy=\"{}\" data-confidence=\"{}\" x=\"{x0:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\"><title>",
            b.count,
            fmt::exact(b.accuracy),
            fmt::exact(b.confidence),
            y(acc),
            y(0.0) - y(acc)
        );
        h.text(&describe(b)).raw("</title></rect>");
        let (g0, g1) = (y(acc.max(conf)), y(acc.min(conf)));
        let over = if conf > acc { "over" } else { "under" };
        let _ = write!(
            h.0,
            "<rect class=\"gap {over}\" x=\"{x0:.1}\" y=\"{g0:.1}\" width=\"{w:.1}\" height=\"{:.1}\"/>",
            g1 - g0
        );
        line(h, "conf", (x0, y(conf)), (x1, y(conf)));
        if let (Some(lo), Some(hi)) = (b.ci_lo, b.ci_hi) {
            let at = (x0 + x1) / 2.0;
            line(h, "ci", (at, y(lo)), (at, y(hi)));
            line(h, "ci", (at - 4.0, y(lo)), (at + 4.0, y(lo)));
            line(h, "ci", (at - 4.0, y(hi)), (at + 4.0, y(hi)));
        }
        h.raw("</g>");
    }
}

fn histogram(h: &mut Html, bins: &[BinReport]) {
    let top = HIST_TOP;
    let max = bins.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64;
    line(h, "baseline", (x(0.0), top + HIST), (x(1.0), top + HIST));
    label(h, "tick", (LEFT - 6.0, top + 8.0), "end", "items");
    for b in bins.iter().filter(|b| b.count > 0) {
        let (x0, w) = (x(b.lo) + 1.0, (x(b.hi) - x(b.lo) - 2.0).max(0.5));
        let bh = b.count as f64 / max * (HIST - 12.0);
        let _ = write!(
            h.0,
            "<rect class=\"hist\" x=\"{x0:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{bh:.1}\"/>",
            top + HIST - bh
        );
        label(
            h,
            "count",
            (x0 + w / 2.0, top + HIST - bh - 3.0),
            "middle",
            &b.count.to_string(),
        );
    }
}

/// The diagram of `bins` in a figure with its caption.
pub fn figure(h: &mut Html, bins: &[BinReport], caption: &str) {
    let _ = write!(
        h.0,
        "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" role=\"img\""
    );
    h.attr("aria-label", caption).raw(">");
    axes(h);
    bars(h, bins);
    histogram(h, bins);
    h.raw("</svg>")
        .el("figcaption", "", caption)
        .raw("</figure>\n");
}
