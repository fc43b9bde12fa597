//! Headline cards: one figure each, the profile's headline first, with a tooltip that says how it
//! is made from the file's counts and its 95% interval under it. Calibration cards follow the
//! reading chosen (conditioning, mixing, or both side by side).
//!
//! The interval is the bootstrap's (`intervals.bootstrap.figures[path]`, computed by the worker
//! after the report is shown, or carried by the report) when there is one, else Wilson's for an
//! accuracy; while the bootstrap runs the cards say so.

use super::fmt::{self, Kind};
use super::state::{use_toggles, AppState, Boot, Reading};
use crate::metrics::calibration::CalibrationFigures;
use crate::report::intervals::{BootstrapIntervals, Intervals};
use crate::Report;
use leptos::prelude::*;
use std::sync::Arc;

/// A card's figure: under one reading, or the same under both.
#[derive(Clone)]
enum Source {
    /// The figure and its report path.
    Plain(Option<f64>, String),
    /// The figure of a reading, and its name under `conditioning.` / `mixing.`.
    Calibration(fn(&CalibrationFigures) -> Option<f64>, &'static str),
}

struct Card {
    key: String,
    label: String,
    kind: Kind,
    source: Source,
    tip: String,
}

/// The cards: the profile's headline first, then the other figures, each with how it is made
/// from the file's counts (`profiles::headline::cards`, the rule the CLI and the HTML report
/// follow too). Calibration figures follow the reading chosen.
fn cards(r: &Report) -> Vec<Card> {
    crate::profiles::headline::cards(r)
        .into_iter()
        .map(|f| {
            let reading: Option<Source> = match f.path.as_str() {
                "conditioning.ece" => Some(Source::Calibration(|c| c.ece, "ece")),
                "conditioning.brier" => Some(Source::Calibration(|c| c.brier, "brier")),
                "conditioning.epa" => Some(Source::Calibration(|c| c.epa, "epa")),
                _ => None,
            };
            Card {
                source: reading.unwrap_or(Source::Plain(f.value, f.path)),
                key: f.key,
                label: f.label,
                kind: f.kind,
                tip: f.how,
            }
        })
        .collect()
}

/// What the bootstrap's intervals are, for a tooltip.
pub fn describe(b: &BootstrapIntervals) -> String {
    format!(
        "{:.0}% percentile bootstrap: {} resamples, seed {}, strata: {} ({}), units: {} ({})",
        b.level * 100.0,
        b.resamples,
        b.seed,
        b.strata,
        b.strata_count,
        b.units,
        b.unit_count
    )
}

/// An interval as a card shows it: its bounds, the method's name and its description.
struct Shown {
    lo: f64,
    hi: f64,
    method: &'static str,
    title: String,
}

fn interval(path: &str, boot: Option<&BootstrapIntervals>, all: &Intervals) -> Option<Shown> {
    if let Some((b, f)) = boot.and_then(|b| Some((b, b.figures.get(path)?))) {
        return Some(Shown {
            lo: f.lo,
            hi: f.hi,
            method: "bootstrap",
            title: describe(b),
        });
    }
    all.wilson.get(path).map(|i| Shown {
        lo: i.lo,
        hi: i.hi,
        method: "wilson",
        title: format!("{:.0}% Wilson score interval", all.level * 100.0),
    })
}

/// The note after the cards: how the intervals were made, or how far the bootstrap is.
fn note(boot: Option<&Boot>, shown: Option<&BootstrapIntervals>) -> Option<impl IntoView> {
    let (state, text) = match (boot, shown) {
        (Some(Boot::Computing { done, total }), _) => (
            "computing",
            format!(
                "computing intervals… {}% of {total} bootstrap resamples",
                u64::from(*done) * 100 / u64::from((*total).max(1))
            ),
        ),
        (Some(Boot::Skipped(why)), _) => ("skipped", format!("No bootstrap intervals: {why}.")),
        (_, Some(b)) => ("done", format!("Intervals: {}.", describe(b))),
        _ => return None,
    };
    Some(view! {
        <p class="card-ci intervals-note" role="status" data-testid="intervals-status" data-state=state>{text}</p>
    })
}

/// The headline cards of a run; `run` names it so that the worker's bootstrap, once done, shows.
#[component]
pub fn Cards(report: Arc<Report>, #[prop(optional)] run: Option<u32>) -> impl IntoView {
    // The app's runs have the worker's intervals; the widget's have only the report's.
    let state = use_context::<AppState>();
    let toggles = use_toggles();
    let boot = Memo::new(move |_| {
        let (id, state) = (run?, state?);
        state.intervals.with(|m| m.get(&id).cloned())
    });
    // The bootstrap shown: the worker's, else the report's own (a report scored with it).
    let report_boot = report.intervals.bootstrap.clone().map(Arc::new);
    let shown = Memo::new(move |_| match boot.get() {
        Some(Boot::Done { bootstrap, .. }) => Some(bootstrap),
        _ => report_boot.clone(),
    });
    // Without probabilities the calibration cards would all be dashes: leave them out.
    let probs = report.conditioning.items > 0;
    let list: Vec<Card> = cards(&report)
        .into_iter()
        .filter(|c| {
            probs || !(matches!(c.source, Source::Calibration(..)) || c.key == "outside_mass")
        })
        .collect();
    let cards = list
        .into_iter()
        .map(|card| {
            let s = report.clone();
            let tip_id = format!("tip-{}", card.key);
            let described = tip_id.clone();
            let source = card.source.clone();
            // (tag, value, report path) under the reading chosen.
            let values = move || -> Vec<(Option<&'static str>, Option<f64>, String)> {
                let r = &*s;
                match &source {
                    Source::Plain(v, path) => vec![(None, *v, path.clone())],
                    Source::Calibration(f, name) => {
                        let one = |tag, mode: &str, c| (tag, f(c), format!("{mode}.{name}"));
                        match toggles.reading.get() {
                            Reading::Conditioning => vec![one(None, "conditioning", &r.conditioning)],
                            Reading::Mixing => vec![one(None, "mixing", &r.mixing)],
                            Reading::Both => vec![
                                one(Some("cond."), "conditioning", &r.conditioning),
                                one(Some("mix."), "mixing", &r.mixing),
                            ],
                        }
                    }
                }
            };
            let is_plain = matches!(card.source, Source::Plain(..));
            let reading = move || match (is_plain, toggles.reading.get()) {
                (true, _) => "",
                (_, Reading::Conditioning) => "conditioning",
                (_, Reading::Mixing) => "mixing",
                (_, Reading::Both) => "both",
            };
            let path = match &card.source {
                Source::Plain(_, p) => p.clone(),
                Source::Calibration(..) => String::new(),
            };
            let kind = card.kind;
            let all = report.intervals.clone();
            let values_too = values.clone();
            // Each value's interval; while the bootstrap runs, a figure without one says so.
            let intervals = move || {
                let b = shown.get();
                let computing = matches!(boot.get(), Some(Boot::Computing { .. }));
                values_too()
                    .into_iter()
                    .filter(|(_, v, _)| v.is_some())
                    .map(|(tag, _, path)| {
                        let tag = tag.map(|t| format!("{t} ")).unwrap_or_default();
                        match interval(&path, b.as_deref(), &all) {
                            Some(i) => view! {
                                <span class="card-ci" title=i.title data-path=path data-method=i.method data-lo=fmt::exact(Some(i.lo)) data-hi=fmt::exact(Some(i.hi))>
                                    {format!("{tag}95%: {}", fmt::interval(i.lo, i.hi, kind))}
                                </span>
                            }.into_any(),
                            None if computing => view! {
                                <span class="card-ci" data-path=path data-method="pending">{format!("{tag}95%: computing…")}</span>
                            }.into_any(),
                            None => ().into_any(),
                        }
                    })
                    .collect_view()
            };
            view! {
                <div
                    class="card"
                    tabindex="0"
                    data-figure=card.key
                    data-path=path
                    data-reading=reading
                    aria-describedby=described
                >
                    <span class="card-label">{card.label}</span>
                    {move || values().into_iter().map(|(tag, v, _)| view! {
                        <span class="card-value" data-value=fmt::exact(v)>
                            {fmt::show(v, kind)}
                            {tag.map(|t| view! { <span class="card-tag">{t}</span> })}
                        </span>
                    }).collect_view()}
                    {intervals}
                    <span class="tip" role="tooltip" id=tip_id>{card.tip}</span>
                </div>
            }
        })
        .collect_view();
    view! {
        {cards}
        {move || note(boot.get().as_ref(), shown.get().as_deref())}
    }
}
