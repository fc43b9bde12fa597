//! RewardBench (v1 and v2): the overall score, the sections as the official table shows them, every
//! subset with its weight and interval, the Ties composite, and where the reward model fails: the
//! margin histogram and each subset's worst items. On a phone the tables stack, each figure under
//! its column's name (`data-label`).

use super::fmt::{self, Kind};
use crate::report::intervals::Intervals;
use crate::report::rewardbench::{MarginFigures, RewardBenchFigures, SubsetFigures, TiesFigures};
use leptos::prelude::*;

fn sections(rb: &RewardBenchFigures) -> impl IntoView {
    rb.section_details
        .iter()
        .map(|s| {
            let missing = (!s.missing.is_empty()).then(|| format!("missing: {}", s.missing.join(", ")));
            view! {
                <tr data-section=s.name.clone()>
                    <th scope="row">{s.name.clone()}</th>
                    <td class="num" data-label="score" data-figure=format!("rewardbench.sections.{}", s.name) data-value=fmt::exact(s.score)>{fmt::show(s.score, Kind::Share)}</td>
                    <td class="num" data-label="items">{fmt::count(s.items)}</td>
                    <td class="num" data-label="longer wins">{fmt::show(s.length_baseline, Kind::Share)}</td>
                    <td class="muted small what">{s.subsets.join(", ")}{missing.map(|m| view! { <span class="warn">" · " {m}</span> })}</td>
                </tr>
            }
        })
        .collect_view()
}

fn subset_row(s: &SubsetFigures, intervals: &Intervals) -> impl IntoView {
    let ci = intervals
        .wilson
        .get(&format!("rewardbench.subsets.{}", s.name))
        .map(|i| fmt::interval(i.lo, i.hi, Kind::Share));
    let worst = s
        .worst
        .iter()
        .take(3)
        .map(|w| format!("{} ({:+.3})", w.id, w.margin))
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <tr data-subset=s.name.clone()>
            <th scope="row">{s.name.clone()}</th>
            <td data-label="section">{s.section.clone().unwrap_or_else(|| "outside the table".to_string())}</td>
            <td class="num" data-label="weight">{s.weight.map(|w| format!("{w}")).unwrap_or_default()}</td>
            <td class="num" data-label="items">{fmt::count(s.items)}</td>
            <td class="num" data-label="score" data-figure=format!("rewardbench.subsets.{}", s.name) data-value=fmt::exact(s.score)>{fmt::show(s.score, Kind::Share)}</td>
            <td class="num muted" data-label="95% Wilson">{ci.unwrap_or_default()}</td>
            <td class="num" data-label="ties">{fmt::count(s.ties)}</td>
            <td class="muted small what" title="the lowest margins: chosen minus rejected">{worst}{(s.source != "items").then(|| format!(" (from the {} file)", s.source))}</td>
        </tr>
    }
}

fn ties(t: &TiesFigures) -> impl IntoView {
    let part = |label: &'static str, v: Option<f64>| {
        view! { <li>{label}" " <strong>{fmt::show(v, Kind::Score)}</strong></li> }
    };
    view! {
        <div class="ties">
            <h4>"Ties"</h4>
            <ul class="inline">
                {part("score", t.score)}
                {part("ref accuracy", t.ref_accuracy)}
                {part("tied accuracy", t.tied_accuracy)}
                {part("correctness preferred", t.correctness_preferred)}
                {part("…hard", t.correctness_preferred_hard)}
                {part("margin score", t.margin_score)}
            </ul>
            <p class="muted small">{format!(
                "{} and {}; {} used, {} with a single correct answer left out, {} without a margin.",
                fmt::plural(t.ref_prompts, "ref prompt", "ref prompts"),
                fmt::plural(t.tied_prompts, "tied prompt", "tied prompts"),
                fmt::plural(t.pairs, "pair", "pairs"),
                fmt::count(t.single_correct),
                fmt::count(t.no_margin)
            )}</p>
        </div>
    }
}

/// Margin histogram: bars below zero (failures) in the warning colour.
fn margins(m: &MarginFigures) -> impl IntoView {
    if m.histogram.is_empty() {
        return ().into_any();
    }
    let (w, h, pad) = (520.0, 110.0, 18.0);
    let lo = m.histogram.first().map_or(0.0, |b| b.lo);
    let hi = m.histogram.last().map_or(0.0, |b| b.hi);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let max = m
        .histogram
        .iter()
        .map(|b| b.count)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let x = move |v: f64| pad + (v - lo) / span * (w - 2.0 * pad);
    let bars = m
        .histogram
        .iter()
        .map(|b| {
            let bh = b.count as f64 / max * (h - 30.0);
            let class = if b.hi <= 0.0 { "hist-bar fail" } else { "hist-bar" };
            view! {
                <rect class=class data-count=b.count.to_string()
                    x=format!("{:.2}", x(b.lo) + 0.5) width=format!("{:.2}", (x(b.hi) - x(b.lo) - 1.0).max(0.5))
                    y=format!("{:.2}", h - 18.0 - bh) height=format!("{:.2}", bh)>
                    <title>{format!("margin {:.3} to {:.3}: {} items", b.lo, b.hi, b.count)}</title>
                </rect>
            }
        })
        .collect_view();
    view! {
        <figure class="margins">
            <svg viewBox=format!("0 0 {w} {h}") role="img" aria-label="Histogram of margins, chosen minus rejected">
                {bars}
                <line class="zero" x1=format!("{:.2}", x(0.0)) x2=format!("{:.2}", x(0.0)) y1="4" y2=format!("{}", h - 18.0) />
                <text class="tick" x=format!("{:.2}", x(lo)) y=format!("{}", h - 4.0)>{format!("{lo:.2}")}</text>
                <text class="tick" x=format!("{:.2}", x(0.0)) y=format!("{}", h - 4.0) text-anchor="middle">"0"</text>
                <text class="tick" x=format!("{:.2}", x(hi)) y=format!("{}", h - 4.0) text-anchor="end">{format!("{hi:.2}")}</text>
            </svg>
            <figcaption class="muted small">{format!(
                "Margins of {} items: {} negative (the model prefers the wrong response), {} exact ties.",
                fmt::count(m.items), fmt::count(m.negative), fmt::count(m.ties)
            )}</figcaption>
        </figure>
    }
    .into_any()
}

#[component]
pub fn RewardBench(rb: RewardBenchFigures, intervals: Intervals) -> impl IntoView {
    let subsets = rb
        .subset_details
        .iter()
        .map(|s| subset_row(s, &intervals))
        .collect_view();
    let mut notes = Vec::new();
    if !rb.unknown_subsets.is_empty() {
        notes.push(format!(
            "Subsets outside the benchmark's table, left out of the sections: {}.",
            rb.unknown_subsets.join(", ")
        ));
    }
    if rb.judged_items > 0 {
        notes.push(format!(
            "{} items carry a judge's verdict rather than two scores.",
            fmt::count(rb.judged_items)
        ));
    }
    if let Some(b) = rb.length_baseline {
        notes.push(format!(
            "\"The longer response wins\" would score {} overall.",
            fmt::show(Some(b), Kind::Share)
        ));
    }
    view! {
        <section class="panel" data-testid="rewardbench">
            <h3>{if rb.version == "rewardbench2" { "RewardBench 2" } else { "RewardBench" }}</h3>
            <p class="counts">
                "Overall " <strong data-figure="rewardbench.overall" data-value=fmt::exact(rb.overall)>{fmt::show(rb.overall, Kind::Share)}</strong>
                {rb.overall_with_prior_sets.map(|v| view! {
                    " · with prior sets " <strong data-figure="rewardbench.overall_with_prior_sets" data-value=fmt::exact(Some(v))>{fmt::show(Some(v), Kind::Share)}</strong>
                    <span class="muted small">" ((2C + 2CH + 2S + 2R + P) / 9, the first leaderboard's weighting)"</span>
                })}
            </p>
            <div class="scroll">
                <table class="figures stack">
                    <thead><tr><th>"section"</th><th class="num">"score"</th><th class="num">"items"</th><th class="num">"longer wins"</th><th>"subsets"</th></tr></thead>
                    <tbody>{sections(&rb)}</tbody>
                </table>
            </div>
            {rb.ties.as_ref().map(ties)}
            {margins(&rb.margins)}
            <details class="subsets">
                <summary>{format!("{} subsets", rb.subset_details.len())}</summary>
                <div class="scroll">
                    <table class="figures stack">
                        <thead><tr>
                            <th>"subset"</th><th>"section"</th><th class="num">"weight"</th><th class="num">"items"</th>
                            <th class="num">"score"</th><th class="num">"95% Wilson"</th><th class="num">"ties"</th><th>"worst items"</th>
                        </tr></thead>
                        <tbody>{subsets}</tbody>
                    </table>
                </div>
            </details>
            <ul class="muted small">{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
        </section>
    }
}
