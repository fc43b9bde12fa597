//! One run's whole report, panel by panel, in the order a reader asks the questions: what was
//! read and what went wrong (one short block), the headline, calibration, the benchmark's own
//! figures and the notes that explain them, the error bars, the exports, the breakdowns, then
//! the items themselves.

use super::cards::Cards;
use super::cond_mix::CondMix;
use super::explorer::Explorer;
use super::export::{stem, Export};
use super::groups::Groups;
use super::header::ReportHeader;
use super::ic::Ic;
use super::multi::Multi;
use super::notes::Notes;
use super::planning::Planning;
use super::protocol::{Scored, Text};
use super::reliability::{Reliability, Series};
use super::rewardbench::RewardBench;
use super::scope_notice::ScopeNotice;
use super::state::{use_state, use_toggles, AppState, Binning, Boot, Reading, Toggles};
use super::toggles::{BinningToggle, ReadingToggle};
use super::warnings::WarningList;
use crate::Report;
use leptos::prelude::*;
use std::sync::Arc;

/// The reliability diagram's series and caption under the reading and binning chosen (the
/// embedded widget draws the same diagram).
pub fn diagram(state: Toggles, report: &Arc<Report>) -> (Signal<Vec<Series>>, Signal<String>) {
    let s = report.clone();
    let series = Signal::derive(move || {
        let mass = state.binning.get() == Binning::EqualMass;
        let pick = |mixing: bool| match (mixing, mass) {
            (false, false) => s.conditioning.bins.clone(),
            (true, false) => s.mixing.bins.clone(),
            (false, true) => s.conditioning.bins_em.clone(),
            (true, true) => s.mixing.bins_em.clone(),
        };
        let one = |name: &str, mixing: bool| Series {
            name: name.to_string(),
            bins: pick(mixing),
        };
        match state.reading.get() {
            Reading::Conditioning => vec![one("conditioning", false)],
            Reading::Mixing => vec![one("mixing", true)],
            Reading::Both => vec![one("conditioning", false), one("mixing", true)],
        }
    });
    let s = report.clone();
    let caption = Signal::derive(move || {
        let reading = match state.reading.get() {
            Reading::Conditioning => "conditioning",
            Reading::Mixing => "mixing",
            Reading::Both => "conditioning and mixing",
        };
        let (binning, figure) = match state.binning.get() {
            Binning::EqualWidth => ("10 equal-width bins", "ECE"),
            Binning::EqualMass => ("equal-mass bins (HELM's ece_10_bin)", "ECE equal-mass"),
        };
        let ece = |f: &crate::metrics::calibration::CalibrationFigures| match state.binning.get() {
            Binning::EqualWidth => f.ece,
            Binning::EqualMass => f.ece_em,
        };
        let values = match state.reading.get() {
            Reading::Mixing => super::fmt::show(ece(&s.mixing), super::fmt::Kind::Score),
            _ => super::fmt::show(ece(&s.conditioning), super::fmt::Kind::Score),
        };
        format!(
            "Accuracy against mean confidence, {reading}, {binning}. Shading: red where the model is more confident than right, green where less. {figure} {values}."
        )
    });
    (series, caption)
}

/// The run's report JSON: the worker's, with the bootstrap's intervals once they are computed.
fn report_json(state: AppState, id: u32, scored: &Arc<Scored>) -> Signal<Text> {
    let point = scored.json.clone();
    Signal::derive(move || {
        state.intervals.with(|m| match m.get(&id) {
            Some(Boot::Done { json, .. }) => json.clone(),
            _ => point.clone(),
        })
    })
}

/// The run's report as one HTML file (the worker writes it): with the bootstrap's intervals once
/// they are computed, as the JSON export has them (the CLI's `--format html --bootstrap 2000
/// --seed 2024`).
fn report_html(state: AppState, id: u32, scored: &Arc<Scored>) -> Signal<Text> {
    let point = scored.html.clone();
    Signal::derive(move || {
        state.intervals.with(|m| match m.get(&id) {
            Some(Boot::Done { html, .. }) => html.clone(),
            _ => point.clone(),
        })
    })
}

/// How far the report is drawn: its panels are added over several frames (the headline first,
/// then calibration, groups and items), so that no one task lays out the whole report. A big
/// report in one go was a main-thread task of several hundred milliseconds on a busy machine.
const STAGES: u8 = 3;

/// Moves `stage` on by one after the browser has drawn the current one, until `STAGES`.
fn next_stage(stage: RwSignal<u8>) {
    request_animation_frame(move || {
        // The frame's callback runs before its layout; the stage after it gets a task of its own.
        set_timeout(
            move || {
                if stage.try_get_untracked().is_some_and(|s| s < STAGES) {
                    stage.update(|s| *s += 1);
                    next_stage(stage);
                }
            },
            std::time::Duration::ZERO,
        );
    });
}

#[component]
pub fn ReportView(id: u32, scored: Arc<Scored>) -> impl IntoView {
    let state = use_state();
    let stage = RwSignal::new(0u8);
    next_stage(stage);
    let report = Arc::new(scored.report.clone());
    let title = state.run(id).map(|r| r.title()).unwrap_or_default();
    let svg_id = format!("reliability-{id}");
    let export_svg = svg_id.clone();
    let (series, caption) = diagram(use_toggles(), &report);
    let groups: Vec<String> = crate::report::groups::in_name_order(&report.groups)
        .into_iter()
        .map(|i| report.groups[i].name.clone())
        .collect();
    let has_probs = report.conditioning.items > 0;
    // What the later stages draw, taken now: their views are made again whenever they show.
    let calib = report.clone();
    let (has_groups, held) = (!report.groups.is_empty(), Arc::new(report.groups.clone()));
    let (total, items, kept) = (scored.groups_total, report.items, scored.kept);
    view! {
        // `data-testid` once every panel is drawn: what tests and the benchmark wait for.
        <div class="report" data-run=id.to_string() data-testid=move || (stage.get() >= STAGES).then_some("report")>
            <ReportHeader id=id scored=scored.clone() />
            <WarningList warnings=Arc::new(report.warnings.clone()) />
            <ScopeNotice report=(*report).clone() />
            // The answer first: the headline cards, then the diagram and conditioning versus
            // mixing; the switches, the benchmark's tables and the notes that explain them after.
            <div class="cards" data-testid="cards">
                <Cards report=report.clone() run=id />
            </div>
            {has_probs.then(|| view! {
                <div class="toolbar">
                    <ReadingToggle />
                    <BinningToggle />
                </div>
            })}
            <Show when=move || { stage.get() >= 1 }>{
            let report = calib.clone();
            let (series, caption, svg_id) = (series, caption, svg_id.clone());
            if has_probs {
                view! {
                    <div class="columns">
                        <section class="panel" data-testid="reliability">
                            <h3>"Reliability"</h3>
                            <Reliability id=svg_id series=series caption=caption />
                        </section>
                        <CondMix report=(*report).clone() />
                    </div>
                }
                .into_any()
            } else {
                view! {
                    <p class="panel muted" data-testid="no-probabilities">
                        "No item carries probabilities, so there is no calibration to show: the reliability diagram, ECE, Brier, EPA and NLL apply to items with probabilities over their options."
                    </p>
                }
                .into_any()
            }}</Show>
            {report.rewardbench.clone().map(|rb| view! { <RewardBench rb=rb intervals=report.intervals.clone() /> })}
            {report.ic.clone().map(|ic| view! { <Ic ic=ic /> })}
            {report.multi.clone().map(|m| view! { <Multi multi=m /> })}
            <Notes report=(*report).clone() />
            <Planning id=id scored=scored.clone() />
            <Export stem=stem(&title) json=Some(report_json(state, id, &scored)) html=report_html(state, id, &scored) csv=scored.csv.clone() md=scored.md.clone() svg=export_svg diagram=has_probs />
            // A run of aggregates only (no item) has no groups or items to list: no empty boxes.
            <Show when=move || { stage.get() >= 2 }>
                {has_groups.then(|| view! {
                    <Groups groups=held.clone() total=total items=items />
                })}
            </Show>
            <Show when=move || { stage.get() >= 3 }>
                {(kept > 0).then(|| view! { <Explorer id=id groups=groups.clone() kept=kept /> })}
            </Show>
        </div>
    }
}
