//! The reliability diagram in SVG: accuracy per bin against mean confidence, the diagonal, the
//! gap shaded, 95% whiskers per bin (Wilson, or Clopper–Pearson for tiny or all-correct bins, a
//! switch under the diagram), and the bin counts as a histogram underneath.
//!
//! One series draws bars; several (two readings, or several runs) draw lines over each other.
//! Every bar and count carries its figures in `data-*` attributes for tests and export.

use super::fmt::{self, Kind};
use super::state::{use_toggles, Whiskers};
use crate::metrics::ece::BinReport;
use crate::reliability_plot::{self as plot, hist_row, x, y, HIST_TOP, LEFT, PLOT, PW, TOP, W};
use leptos::prelude::*;

/// One curve: a name for the legend and its bins.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub bins: Vec<BinReport>,
}

/// The page's diagram keeps 34 units under the histogram; legend rows (several series) follow.
const H: f64 = plot::height(34.0);

fn px(v: f64) -> String {
    format!("{v:.2}")
}

fn describe(b: &BinReport) -> String {
    let mut s = format!(
        "confidence {} to {}: {}",
        fmt::number(b.lo, 2),
        fmt::number(b.hi, 2),
        fmt::plural(b.count, "item", "items")
    );
    if let (Some(a), Some(c)) = (b.accuracy, b.confidence) {
        s.push_str(&format!(
            ", accuracy {}, mean confidence {}",
            fmt::show(Some(a), Kind::Share),
            fmt::show(Some(c), Kind::Score)
        ));
    }
    for (name, lo, hi) in [
        ("Wilson", b.ci_lo, b.ci_hi),
        ("Clopper–Pearson", b.cp_lo, b.cp_hi),
    ] {
        if let (Some(lo), Some(hi)) = (lo, hi) {
            s.push_str(&format!(
                ", 95% {name} {}",
                fmt::interval(lo, hi, Kind::Share)
            ));
        }
    }
    s
}

fn axes() -> impl IntoView {
    let ticks = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0];
    view! {
        <g class="axes">
            {ticks.iter().map(|&t| view! {
                <line class="grid" x1=px(x(0.0)) x2=px(x(1.0)) y1=px(y(t)) y2=px(y(t)) />
                <line class="grid" x1=px(x(t)) x2=px(x(t)) y1=px(y(0.0)) y2=px(y(1.0)) />
                <text class="tick" x=px(LEFT - 6.0) y=px(y(t) + 4.0) text-anchor="end">{format!("{t:.1}")}</text>
                <text class="tick" x=px(x(t)) y=px(TOP + PLOT + 16.0) text-anchor="middle">{format!("{t:.1}")}</text>
            }).collect_view()}
            <line class="diagonal" x1=px(x(0.0)) y1=px(y(0.0)) x2=px(x(1.0)) y2=px(y(1.0)) />
            <rect class="frame" x=px(LEFT) y=px(TOP) width=px(PW) height=px(PLOT) />
            <text class="axis-label" x=px(LEFT + PW / 2.0) y=px(TOP + PLOT + 32.0) text-anchor="middle">"Confidence"</text>
            <text class="axis-label" transform=format!("translate(14 {}) rotate(-90)", px(TOP + PLOT / 2.0)) text-anchor="middle">"Accuracy"</text>
        </g>
    }
}

fn whisker(b: &BinReport, at: f64, series: usize, w: Whiskers) -> Option<impl IntoView> {
    let (lo, hi) = match w {
        Whiskers::Wilson => (b.ci_lo?, b.ci_hi?),
        Whiskers::ClopperPearson => (b.cp_lo?, b.cp_hi?),
    };
    let cap = 4.0;
    Some(view! {
        <g class=format!("ci s{series}") data-lo=fmt::exact(Some(lo)) data-hi=fmt::exact(Some(hi))>
            <line x1=px(at) x2=px(at) y1=px(y(lo)) y2=px(y(hi)) />
            <line x1=px(at - cap) x2=px(at + cap) y1=px(y(lo)) y2=px(y(lo)) />
            <line x1=px(at - cap) x2=px(at + cap) y1=px(y(hi)) y2=px(y(hi)) />
        </g>
    })
}

/// Bars for a single series.
fn bars(bins: &[BinReport], w: Whiskers) -> impl IntoView {
    bins.iter()
        .enumerate()
        .filter(|(_, b)| b.count > 0)
        .map(|(i, b)| {
            let (x0, x1) = (x(b.lo) + 1.0, x(b.hi) - 1.0);
            let acc = b.accuracy.unwrap_or(0.0);
            let conf = b.confidence.unwrap_or(0.0);
            let over = conf > acc;
            let (g0, g1) = (y(acc.max(conf)), y(acc.min(conf)));
            view! {
                <g class="bin">
                    <rect
                        class="bar s0"
                        data-bin=i.to_string()
                        data-count=b.count.to_string()
                        data-accuracy=fmt::exact(b.accuracy)
                        data-confidence=fmt::exact(b.confidence)
                        data-ci-lo=fmt::exact(b.ci_lo)
                        data-ci-hi=fmt::exact(b.ci_hi)
                        data-cp-lo=fmt::exact(b.cp_lo)
                        data-cp-hi=fmt::exact(b.cp_hi)
                        x=px(x0) width=px((x1 - x0).max(0.5)) y=px(y(acc)) height=px(y(0.0) - y(acc))
                    >
                        <title>{describe(b)}</title>
                    </rect>
                    <rect
                        class=if over { "gap over" } else { "gap under" }
                        x=px(x0) width=px((x1 - x0).max(0.5)) y=px(g0) height=px(g1 - g0)
                    />
                    <line class="mean-conf" x1=px(x0) x2=px(x1) y1=px(y(conf)) y2=px(y(conf)) />
                    {whisker(b, (x0 + x1) / 2.0, 0, w)}
                </g>
            }
        })
        .collect_view()
}

/// A line with points for each series, drawn at (mean confidence, accuracy).
fn lines(series: &[Series], w: Whiskers) -> impl IntoView {
    series
        .iter()
        .enumerate()
        .map(|(s, ser)| {
            let filled: Vec<(usize, &BinReport)> =
                ser.bins.iter().enumerate().filter(|(_, b)| b.count > 0).collect();
            let points: Vec<String> = filled
                .iter()
                .filter_map(|(_, b)| Some(format!("{},{}", px(x(b.confidence?)), px(y(b.accuracy?)))))
                .collect();
            view! {
                <g class=format!("series s{s}") data-series=ser.name.clone()>
                    <polyline class="curve" points=points.join(" ") />
                    {filled.into_iter().map(|(i, b)| {
                        let (cx, cy) = (x(b.confidence.unwrap_or(0.0)), y(b.accuracy.unwrap_or(0.0)));
                        view! {
                            {whisker(b, cx, s, w)}
                            <circle
                                class="point"
                                data-bin=i.to_string()
                                data-count=b.count.to_string()
                                data-accuracy=fmt::exact(b.accuracy)
                                data-confidence=fmt::exact(b.confidence)
                                cx=px(cx) cy=px(cy) r="4"
                            >
                                <title>{format!("{}: {}", ser.name, describe(b))}</title>
                            </circle>
                        }
                    }).collect_view()}
                </g>
            }
        })
        .collect_view()
}

/// The count histogram under the diagram. Several series get a row each, one above the other:
/// their bins need not share edges (equal-mass bins of two readings), and bars side by side in
/// bins that differ would read as one striped band.
fn histogram(series: &[Series]) -> impl IntoView {
    let top = HIST_TOP;
    let max = series
        .iter()
        .flat_map(|s| s.bins.iter().map(|b| b.count))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let label_counts = series.len() == 1;
    let baselines = (0..series.len().max(1))
        .map(|s| {
            let base = hist_row(s, series.len()).0;
            view! { <line class="baseline" x1=px(x(0.0)) x2=px(x(1.0)) y1=px(base) y2=px(base) /> }
        })
        .collect_view();
    view! {
        <g class="histogram">
            {baselines}
            <text class="tick" x=px(LEFT - 6.0) y=px(top + 8.0) text-anchor="end">"items"</text>
            {series.iter().enumerate().map(|(s, ser)| {
                let (base, row) = hist_row(s, series.len());
                ser.bins.iter().enumerate().map(move |(i, b)| {
                    let width = x(b.hi) - x(b.lo) - 2.0;
                    let x0 = x(b.lo) + 1.0;
                    let h = b.count as f64 / max * (row - if label_counts { 12.0 } else { 3.0 });
                    view! {
                        <rect
                            class=format!("hist s{s}")
                            data-bin=i.to_string()
                            data-count=b.count.to_string()
                            x=px(x0) width=px(width.max(0.5)) y=px(base - h) height=px(h)
                        >
                            <title>{format!("{}: {} items", ser.name, fmt::count(b.count))}</title>
                        </rect>
                        {(label_counts && b.count > 0).then(|| view! {
                            <text class="count" data-bin=i.to_string() x=px(x0 + width / 2.0) y=px(base - h - 3.0) text-anchor="middle">
                                {b.count.to_string()}
                            </text>
                        })}
                    }
                }).collect_view()
            }).collect_view()}
        </g>
    }
}

/// Height of one legend row; several series get one row each under the histogram. Room for
/// 11 px text on a phone, where the drawing is shrunk about twice (www/style.css keeps text sizes).
const LEGEND_ROW: f64 = 24.0;

fn height(series: usize) -> f64 {
    if series > 1 {
        H + LEGEND_ROW * series as f64
    } else {
        H
    }
}

fn legend(series: &[Series]) -> impl IntoView {
    series
        .iter()
        .enumerate()
        .map(|(s, ser)| {
            let x0 = LEFT;
            let y0 = H + LEGEND_ROW * (s as f64 + 0.5);
            view! {
                <g class=format!("legend s{s}")>
                    <rect class="swatch" x=px(x0) y=px(y0 - 9.0) width="12" height="10" />
                    <text x=px(x0 + 16.0) y=px(y0)>{ser.name.clone()}</text>
                </g>
            }
        })
        .collect_view()
}

/// The diagram; `id` names the SVG element for export.
#[component]
pub fn Reliability(
    #[prop(into)] id: String,
    #[prop(into)] series: Signal<Vec<Series>>,
    #[prop(into)] caption: Signal<String>,
) -> impl IntoView {
    let state = use_toggles();
    let caption = Signal::derive(move || {
        let name = match state.whiskers.get() {
            Whiskers::Wilson => "Wilson",
            Whiskers::ClopperPearson => "Clopper–Pearson",
        };
        format!("{} Whiskers: 95% {name} intervals.", caption.get())
    });
    view! {
        <figure class="reliability">
            <svg
                id=id
                xmlns="http://www.w3.org/2000/svg"
                viewBox=move || format!("0 0 {W} {}", height(series.with(Vec::len)))
                role="img"
                aria-label=move || caption.get()
            >
                {axes()}
                {move || series.with(|s| {
                    match s.as_slice() {
                        [one] => bars(&one.bins, state.whiskers.get()).into_any(),
                        _ => lines(s, state.whiskers.get()).into_any(),
                    }
                })}
                {move || series.with(|s| histogram(s))}
                {move || series.with(|s| if s.len() > 1 { legend(s).into_any() } else { ().into_any() })}
            </svg>
            <figcaption class="muted small">{move || caption.get()}</figcaption>
            <WhiskerToggle />
        </figure>
    }
}

/// The whiskers' switch: Wilson (the report's `ci_lo`/`ci_hi`) or Clopper–Pearson (`cp_lo`/`cp_hi`).
#[component]
fn WhiskerToggle() -> impl IntoView {
    let state = use_toggles();
    let option = move |value: Whiskers, label: &'static str, key: &'static str| {
        view! {
            <label>
                <input
                    type="radio"
                    name="whiskers"
                    value=key
                    data-testid=format!("whiskers-{key}")
                    prop:checked=move || state.whiskers.get() == value
                    on:change=move |_| state.whiskers.set(value)
                />
                {label}
            </label>
        }
    };
    view! {
        <fieldset class="seg whiskers">
            <legend>"Whiskers (95%)"</legend>
            {option(Whiskers::Wilson, "Wilson", "wilson")}
            {option(Whiskers::ClopperPearson, "Clopper–Pearson", "cp")}
        </fieldset>
    }
}
