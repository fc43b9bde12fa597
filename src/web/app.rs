//! The page: landing with the drop zone, then the leaderboard once four runs of one benchmark are
//! scored, one tab per run with its report, and the side-by-side comparison of two or three
//! runs (with more, of the two picked in the leaderboard).

use super::client;
use super::comparison::Comparison;
use super::drop_zone::DropZone;
use super::grouping::GroupingLine;
use super::leaderboard::LeaderboardView;
use super::progress::Progress;
use super::report_view::ReportView;
use super::run_summary::RunSummary;
use super::state::{AppState, Run, Status, Toggles};
use super::warnings::WarningList;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn App() -> impl IntoView {
    let state = AppState::default();
    provide_context(state);
    provide_context(Toggles::default());
    client::init(state);
    let has_runs = move || state.runs.with(|r| !r.is_empty());
    view! {
        <header class="top">
            <h1><span class="mark" aria-hidden="true">"◔"</span>" scorelens"</h1>
            <p class="privacy" data-testid="privacy">
                "Scored on this device: files never leave your browser."
            </p>
            <a class="help" href="#formats">"Which files?"</a>
        </header>
        <main data-testid="app" data-status=move || state.status()>
            <DropZone />
            // Where the skip link (www/index.html) lands: past the header, the drop zone and samples.
            <span id="report" tabindex="-1"></span>
            <GroupingLine />
            <LeaderboardView />
            <RunSummary />
            <Show when=has_runs>
                <Tabs />
                <div
                    id="run-panel"
                    role="tabpanel"
                    aria-labelledby=move || state.active.get().map(|id| format!("tab-{id}"))
                >
                    <ActiveRun />
                </div>
            </Show>
            <Show when=move || { state.to_compare().len() >= 2 }>
                <Comparison />
            </Show>
            <Formats />
        </main>
    }
}

/// One tab per run, with a close button: a WAI-ARIA tab list. Only the selected tab is in the Tab
/// order (roving tabindex); the arrow keys, Home and End select and focus another, Delete closes
/// the focused one.
#[component]
fn Tabs() -> impl IntoView {
    let state = super::state::use_state();
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let ids: Vec<u32> = state
            .runs
            .with_untracked(|r| r.iter().map(|r| r.id).collect());
        let Some(at) = state
            .active
            .get_untracked()
            .and_then(|a| ids.iter().position(|&i| i == a))
        else {
            return;
        };
        let to = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => (at + 1) % ids.len(),
            "ArrowLeft" | "ArrowUp" => (at + ids.len() - 1) % ids.len(),
            "Home" => 0,
            "End" => ids.len() - 1,
            "Delete" => {
                client::close(state, ids[at]);
                at.min(ids.len().saturating_sub(2))
            }
            _ => return,
        };
        ev.prevent_default();
        let ids: Vec<u32> = state
            .runs
            .with_untracked(|r| r.iter().map(|r| r.id).collect());
        if let Some(&id) = ids.get(to) {
            state.active.set(Some(id));
            if let Some(e) = document().get_element_by_id(&format!("tab-{id}")) {
                let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(e).focus();
            }
        }
    };
    view! {
        <nav class="tabs" id="runs" aria-label="Runs" role="tablist" on:keydown=on_key>
            <For
                each=move || {
                    let runs = state.runs.get();
                    let names = super::state::titles(&runs);
                    runs.into_iter().zip(names).collect::<Vec<_>>()
                }
                key=|(r, name): &(Run, String)| (r.id, name.clone())
                let:((run, name))
            >
                <RunTab id=run.id title=name />
            </For>
        </nav>
    }
}

#[component]
fn RunTab(id: u32, title: String) -> impl IntoView {
    let state = super::state::use_state();
    let selected = move || state.active.get() == Some(id);
    let close_label = format!("Close {title}");
    view! {
        <span class="tab" class:selected=selected role="presentation">
            <button
                class="tab-name"
                role="tab"
                id=format!("tab-{id}")
                aria-controls="run-panel"
                aria-selected=move || selected().to_string()
                tabindex=move || if selected() { "0" } else { "-1" }
                on:click=move |_| state.active.set(Some(id))
            >
                {title}
            </button>
            <button
                class="tab-close"
                aria-label=close_label
                title="Close (Delete)"
                tabindex="-1"
                on:click=move |_| client::close(state, id)
            >
                "×"
            </button>
        </span>
    }
}

/// The selected run: its progress, its error, or its report.
#[component]
fn ActiveRun() -> impl IntoView {
    let state = super::state::use_state();
    let run = Memo::new(move |_| state.active.get().and_then(|id| state.run(id)));
    // Re-render the report only when the run or its result changes, not on every progress tick.
    let shown = Memo::new(move |_| {
        run.with(|r| {
            r.as_ref().map(|r| match &r.status {
                Status::Waiting | Status::Reading { .. } => (r.id, 0, 0),
                Status::Scored(s) => (r.id, 1, Arc::as_ptr(s) as usize),
                Status::Failed { warnings, .. } => (r.id, 2, Arc::as_ptr(warnings) as usize),
                Status::Cancelled => (r.id, 3, 0),
            })
        })
    });
    move || {
        // Read (not just track) the memo: a lazy memo that is only tracked is not re-checked.
        let _ = shown.get();
        let Some(r) = run.get_untracked() else {
            return ().into_any();
        };
        match r.status {
            Status::Waiting | Status::Reading { .. } => view! { <Progress id=r.id /> }.into_any(),
            Status::Scored(s) => view! { <ReportView id=r.id scored=s /> }.into_any(),
            Status::Failed { error, warnings } => view! {
                <section class="panel failed" role="alert" data-testid="failed">
                    <h2>"No report"</h2>
                    <p>{error}</p>
                    <WarningList warnings=warnings />
                </section>
            }
            .into_any(),
            Status::Cancelled => view! {
                <section class="panel" data-testid="cancelled">
                    <p>"Scoring was cancelled. Drop the file again to score it."</p>
                </section>
            }
            .into_any(),
        }
    }
}

/// What the app reads: the canonical format in brief, then every format the core detects.
#[component]
fn Formats() -> impl IntoView {
    let state = super::state::use_state();
    view! {
        <details id="formats" class="panel formats" on:toggle=move |_| client::warm_up()>
            <summary>"Which files does it read?"</summary>
            <p>
                "Predictions from lm-evaluation-harness, Inspect, HELM, RewardBench and other tools are "
                "recognised by their content. The simplest input is JSON Lines, one item per line:"
            </p>
            <pre class="example">
                "{\"id\": \"q1\", \"options\": [\"A\", \"B\", \"C\", \"D\"], \"gold\": \"B\", \"probs\": {\"A\": 0.1, \"B\": 0.7, \"C\": 0.1, \"D\": 0.05}}"
            </pre>
            <p>
                "Optional fields: " <code>"type"</code> " (choice, binary, rating, multi, pair, best_of_n, consistency), "
                <code>"group"</code> ", " <code>"tier"</code> ", " <code>"answer"</code> ", " <code>"logprobs"</code>
                ", and a first line " <code>"{\"scorelens\": 1, \"model\": \"…\", \"benchmark\": \"…\"}"</code> "."
            </p>
            <Show when=move || state.formats.with(|f| !f.is_empty()) fallback=|| view! { <p class="muted">"Loading the list of formats…"</p> }>
                <dl class="format-list" data-testid="format-list">
                    {move || state.formats.get().into_iter().map(|f| view! {
                        <dt>{f.name}</dt>
                        <dd>{f.describe}</dd>
                    }).collect_view()}
                </dl>
            </Show>
        </details>
    }
}
