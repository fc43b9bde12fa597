//! Headline cards: one figure each, with a tooltip that defines it. Calibration cards follow the
//! reading chosen (conditioning, mixing, or both side by side).

use super::fmt::{self, Kind};
use super::protocol::Scored;
use super::state::{use_state, Reading};
use leptos::prelude::*;
use scorelens::metrics::calibration::CalibrationFigures;
use std::sync::Arc;

/// A card's figure: under one reading, or the same under both.
#[derive(Clone, Copy)]
enum Source {
    Plain(Option<f64>),
    Calibration(fn(&CalibrationFigures) -> Option<f64>),
}

struct Card {
    key: &'static str,
    /// A 95% interval shown under the figure.
    interval: Option<(f64, f64)>,
    label: &'static str,
    kind: Kind,
    source: Source,
    tip: &'static str,
}

fn cards(s: &Scored) -> Vec<Card> {
    let m = &s.report.metrics;
    let mut out = Vec::new();
    if let Some(ic) = s.report.ic.as_ref() {
        out.push(Card {
            key: "i",
            interval: None,
            label: "I",
            kind: Kind::Points,
            source: Source::Plain(ic.overall.i),
            tip: "Intelligence, 0 to 100: the mean over item types of how far accuracy rises above chance, tier-weighted (SPEC §5).",
        });
        out.push(Card {
            key: "c",
            interval: None,
            label: "C",
            kind: Kind::Points,
            source: Source::Plain(ic.overall.c),
            tip: "Calibration, 0 to 100: the mean over item types of ECE and distribution scores (TVD, RPS) turned into points (SPEC §5).",
        });
    }
    out.extend([
        Card {
            key: "accuracy",
            interval: s
                .report
                .intervals
                .wilson
                .get("metrics.accuracy")
                .map(|i| (i.lo, i.hi)),
            label: "Accuracy",
            kind: Kind::Share,
            source: Source::Plain(m.accuracy),
            tip: "Exact match: correct items / items. An invalid answer counts as wrong.",
        },
        Card {
            key: "normalized",
            interval: None,
            label: "Normalized",
            kind: Kind::Score,
            source: Source::Plain(m.normalized),
            tip: "Chance-corrected accuracy: 1 when right, −c/(1−c) when wrong (c = chance of a uniform guess), averaged; guessing scores 0.",
        },
        Card {
            key: "ece",
            interval: None,
            label: "ECE",
            kind: Kind::Score,
            source: Source::Calibration(|c| c.ece),
            tip: "Expected calibration error: over 10 equal-width confidence bins, the item-weighted gap between accuracy and mean confidence. 0 is perfect.",
        },
        Card {
            key: "brier",
            interval: None,
            label: "Brier",
            kind: Kind::Score,
            source: Source::Calibration(|c| c.brier),
            tip: "Mean squared error of the probabilities against the one-hot gold, averaged over the options; 0 is perfect.",
        },
        Card {
            key: "epa",
            interval: None,
            label: "EPA",
            kind: Kind::Score,
            source: Source::Calibration(|c| c.epa),
            tip: "Expected probability assignment: the mean probability put on the gold option.",
        },
        Card {
            key: "invalid_share",
            interval: None,
            label: "Invalid answers",
            kind: Kind::Share,
            source: Source::Plain(m.invalid_share),
            tip: "Share of items whose answer is missing or not one of the options; they count as wrong.",
        },
        Card {
            key: "outside_mass",
            interval: None,
            label: "Outside mass",
            kind: Kind::Score,
            source: Source::Plain(m.outside_mass),
            tip: "Mean probability the model put outside the valid options (1 − their total), over items with probabilities. Mixing spreads it uniformly; conditioning renormalises it away.",
        },
    ]);
    out
}

#[component]
pub fn Cards(scored: Arc<Scored>) -> impl IntoView {
    let state = use_state();
    // Without probabilities the calibration cards would all be dashes: leave them out.
    let probs = scored.report.conditioning.items > 0;
    let list: Vec<Card> = cards(&scored)
        .into_iter()
        .filter(|c| {
            probs || !(matches!(c.source, Source::Calibration(_)) || c.key == "outside_mass")
        })
        .collect();
    list.into_iter()
        .map(|card| {
            let s = scored.clone();
            let tip_id = format!("tip-{}", card.key);
            let described = tip_id.clone();
            let value = move || -> Vec<(Option<&'static str>, Option<f64>)> {
                let r = &s.report;
                match card.source {
                    Source::Plain(v) => vec![(None, v)],
                    Source::Calibration(f) => match state.reading.get() {
                        Reading::Conditioning => vec![(None, f(&r.conditioning))],
                        Reading::Mixing => vec![(None, f(&r.mixing))],
                        Reading::Both => vec![
                            (Some("cond."), f(&r.conditioning)),
                            (Some("mix."), f(&r.mixing)),
                        ],
                    },
                }
            };
            let reading = move || match (card.source, state.reading.get()) {
                (Source::Plain(_), _) => "",
                (_, Reading::Conditioning) => "conditioning",
                (_, Reading::Mixing) => "mixing",
                (_, Reading::Both) => "both",
            };
            view! {
                <div
                    class="card"
                    tabindex="0"
                    data-figure=card.key
                    data-reading=reading
                    aria-describedby=described
                >
                    <span class="card-label">{card.label}</span>
                    {move || value().into_iter().map(|(tag, v)| view! {
                        <span class="card-value" data-value=fmt::exact(v)>
                            {fmt::show(v, card.kind)}
                            {tag.map(|t| view! { <span class="card-tag">{t}</span> })}
                        </span>
                    }).collect_view()}
                    {card.interval.map(|(lo, hi)| view! {
                        <span class="card-ci" title="95% Wilson interval">
                            {format!("95%: {}–{}", fmt::show(Some(lo), card.kind), fmt::show(Some(hi), card.kind))}
                        </span>
                    })}
                    <span class="tip" role="tooltip" id=tip_id>{card.tip}</span>
                </div>
            }
        })
        .collect_view()
}
