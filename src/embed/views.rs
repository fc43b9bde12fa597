//! What the widget shows, by its `view` attribute: the app's own panels (cards, reliability
//! diagram, conditioning versus mixing, I/C, groups, warnings, notes), arranged for a
//! documentation page instead of the app's tabs.

use super::drop::DropTarget;
use super::failure::Failure;
use super::rank::Ranked;
use super::widget::{Props, Shown, Status, ViewKind};
use crate::web::cards::Cards;
use crate::web::cond_mix::CondMix;
use crate::web::export::{save, save_text, stem};
use crate::web::fmt;
use crate::web::groups::Groups;
use crate::web::ic::Ic;
use crate::web::leaderboard::mount;
use crate::web::multi::Multi;
use crate::web::notes::Notes;
use crate::web::reliability::Reliability;
use crate::web::report_view::diagram;
use crate::web::rewardbench::RewardBench;
use crate::web::scope_notice::ScopeNotice;
use crate::web::state::use_toggles;
use crate::web::toggles::{BinningToggle, ReadingToggle};
use crate::web::warnings::WarningList;
use leptos::prelude::*;
use std::sync::Arc;
use web_sys::File;

/// The widget: the drop zone when there is no `src`, then the report, the error or the wait.
#[component]
pub fn Embed(props: Props, on_files: Callback<Vec<File>>) -> impl IntoView {
    let status = props.status;
    let done =
        Signal::derive(move || status.with(|s| matches!(s, Status::Scored(_) | Status::Failed(_))));
    view! {
        <div
            class="sl-root"
            data-theme=move || props.theme.get().attribute()
            data-view=move || props.view.get().name()
            data-testid="widget"
        >
            <Show when=move || props.src.with(Option::is_none)>
                <DropTarget on_files=on_files compact=done profile=props.profile />
            </Show>
            {move || match status.get() {
                Status::Empty => ().into_any(),
                Status::Loading(what) => view! {
                    <p class="panel sl-loading" role="status" data-testid="widget-loading">{format!("Scoring {what}…")}</p>
                }
                .into_any(),
                Status::Failed(f) => failed(&f).into_any(),
                Status::Scored(s) => report(s, props.view.get()),
                Status::Ranked(r) => ranked(r),
            }}
            <p class="sl-credit">"Scored in this page by scorelens"</p>
        </div>
    }
}

fn failed(f: &Failure) -> impl IntoView {
    let first = f.message.lines().next().unwrap_or_default().to_string();
    view! {
        <section class="panel failed" role="alert" data-testid="widget-failed" data-kind=f.kind.name()>
            <h3>"No report"</h3>
            <p>{first}</p>
            <WarningList warnings=Arc::new(f.problems.clone()) />
        </section>
    }
}

/// Model, profile, counts and files: what the figures below are about.
fn head(s: &Shown) -> impl IntoView {
    let r = &s.report;
    let files = r
        .files
        .iter()
        .map(|f| format!("{} ({})", f.name, f.format))
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <section class="panel report-header sl-head" data-testid="widget-head">
            <div class="model-line">
                <h2 data-testid="model">{r.model.clone().unwrap_or_else(|| "model not named in the file".to_string())}</h2>
                <span class="muted" data-testid="profile">{format!("profile {}", r.profile)}</span>
            </div>
            <p class="counts">
                <span data-figure="items" data-value=r.items.to_string()>{fmt::count(r.items)}</span>
                " items scored · "
                <span data-figure="skipped" data-value=r.skipped.to_string()>{fmt::count(r.skipped)}</span>
                " skipped"
                {r.benchmark.clone().map(|b| format!(" · benchmark {b}"))}
            </p>
            <p class="files muted small">{files}</p>
        </section>
    }
}

/// The frozen-count notice above the figures: an embedded scorecard of a partial run must say
/// that its figures are not the benchmark's.
fn cards(s: &Shown) -> impl IntoView {
    view! {
        <ScopeNotice report=(*s.report).clone() />
        <div class="cards" data-testid="cards"><Cards report=s.report.clone() /></div>
    }
}

fn toolbar() -> impl IntoView {
    view! { <div class="toolbar"><ReadingToggle /><BinningToggle /></div> }
}

/// The app's reliability diagram, following the reading and binning toggles.
fn reliability(s: &Shown) -> impl IntoView {
    let (series, caption) = diagram(use_toggles(), &s.report);
    let has_probs = s.report.conditioning.items > 0;
    view! {
        <section class="panel" data-testid="reliability">
            <h3>"Reliability"</h3>
            {if has_probs {
                view! { <Reliability id="reliability" series=series caption=caption /> }.into_any()
            } else {
                view! { <p class="muted">"No item carries probabilities, so there is nothing to calibrate."</p> }.into_any()
            }}
        </section>
    }
}

fn absent(what: &str, profile: &str) -> impl IntoView {
    view! { <p class="panel muted" data-testid="widget-absent">{format!("The {profile} profile gives no {what} for this file.")}</p> }
}

/// The I/C panel; `notice` puts the frozen-count notice above it when no cards do.
fn ic(s: &Shown, notice: bool) -> AnyView {
    match s.report.ic.clone() {
        Some(ic) if notice => {
            view! { <ScopeNotice report=(*s.report).clone() /> <Ic ic=ic /> }.into_any()
        }
        Some(ic) => view! { <Ic ic=ic /> }.into_any(),
        None => absent("I and C", &s.report.profile).into_any(),
    }
}

fn rewardbench(s: &Shown) -> AnyView {
    match s.report.rewardbench.clone() {
        Some(rb) => view! { <RewardBench rb=rb intervals=s.report.intervals.clone() /> }.into_any(),
        None => absent("RewardBench figures", &s.report.profile).into_any(),
    }
}

fn warnings(s: &Shown) -> impl IntoView {
    view! { <WarningList warnings=Arc::new(s.report.warnings.clone()) /> }
}

/// The report's JSON, exactly as the CLI writes it, as a download.
fn json_button(s: &Arc<Shown>) -> impl IntoView {
    let name = format!(
        "{}.report.json",
        stem(s.report.model.as_deref().unwrap_or("scorelens"))
    );
    let s = s.clone();
    view! {
        <div class="export">
            <button data-export="json" on:click=move |_| save_text(&name, &s.json)>"Report JSON"</button>
        </div>
    }
}

/// The runs ranked: the HTML report's ranking and rank-interval plot on the default figure,
/// mounted as the app mounts it (text only ever as text), and the leaderboard's JSON.
fn ranked(r: Arc<Ranked>) -> AnyView {
    let host = NodeRef::<leptos::html::Div>::new();
    let tree = serde_json::to_string(&r.view).unwrap_or_default();
    Effect::new(move |_| {
        if let Some(div) = host.get() {
            mount(&div, &tree);
        }
    });
    let json = r.leaderboard.to_json() + "\n";
    view! {
        <section class="panel leaderboard" data-testid="widget-leaderboard">
            <h3>"Leaderboard"</h3>
            <div node_ref=host></div>
            <div class="export">
                <button data-export="json" on:click=move |_| save("leaderboard.json", "application/json", &json)>"Leaderboard JSON"</button>
            </div>
        </section>
    }
    .into_any()
}

fn report(s: Arc<Shown>, kind: ViewKind) -> AnyView {
    let r: &crate::Report = &s.report;
    match kind {
        ViewKind::Summary => view! { {head(&s)} {cards(&s)} {warnings(&s)} }.into_any(),
        ViewKind::Reliability => view! { {toolbar()} {reliability(&s)} }.into_any(),
        ViewKind::Ic => ic(&s, true),
        ViewKind::RewardBench => rewardbench(&s),
        ViewKind::Full | ViewKind::Leaderboard => view! {
            {head(&s)}
            {json_button(&s)}
            {warnings(&s)}
            {cards(&s)}
            {toolbar()}
            <div class="columns">
                {reliability(&s)}
                <CondMix report=r.clone() />
            </div>
            {r.ic.is_some().then(|| ic(&s, false))}
            {r.rewardbench.is_some().then(|| rewardbench(&s))}
            {r.multi.clone().map(|m| view! { <Multi multi=m /> })}
            <Notes report=r.clone() />
            <Groups groups=Arc::new(r.groups.clone()) total=s.groups_total items=r.items />
        }
        .into_any(),
    }
}
