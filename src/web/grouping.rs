//! How dropped files fell into runs: the worker groups them (`crate::runs::find`), the page makes
//! one run per run found and says so in one line above the report, with buttons to regroup
//! (one run, one run per file). Files no reader claims are listed there once, and never stop
//! the rest.

use super::client;
use super::state::{use_state, AppState};
use crate::runs::{Found, Grouping};
use leptos::prelude::*;
use std::cell::RefCell;
use web_sys::File;

/// What the last drop gave, for the line above the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Grouped {
    /// `Found::summary`: "2 runs: model-a, 3 files; …".
    pub summary: String,
    pub how: Grouping,
    /// The runs made, by id.
    pub runs: Vec<u32>,
    /// Files no reader claims: (path, why).
    pub ignored: Vec<(String, String)>,
    /// Files offered.
    pub offered: usize,
}

/// The drop being grouped or shown: its number, its files with their paths, how it is grouped.
struct Drop {
    seq: u32,
    files: Vec<(File, String)>,
    how: Grouping,
}

thread_local! {
    static DROP: RefCell<Option<Drop>> = const { RefCell::new(None) };
    static NEXT: RefCell<u32> = const { RefCell::new(0) };
}

/// Hands dropped or chosen files (each with its path in a dropped folder, or its name) to the
/// worker to group; `grouped` makes the runs when it answers.
pub fn offer(state: AppState, files: Vec<(File, String)>, how: Grouping) {
    if files.is_empty() {
        return;
    }
    client::stop_reading(state);
    let seq = NEXT.with_borrow_mut(|n| {
        *n += 1;
        *n
    });
    client::group(seq, &files, how);
    DROP.with_borrow_mut(|d| *d = Some(Drop { seq, files, how }));
}

/// The worker's answer to `offer`: one run per run found among `files` (those offered, with a
/// zip of files replaced by its entries; the drop keeps the zip, to be grouped again).
pub fn grouped(
    state: AppState,
    seq: u32,
    found: Found,
    summary: String,
    files: Vec<(File, String)>,
) {
    let Some(how) = DROP.with_borrow(|d| d.as_ref().filter(|d| d.seq == seq).map(|d| d.how)) else {
        return;
    };
    let runs = found
        .runs
        .iter()
        .map(|r| {
            let of = r.files.iter().filter_map(|&i| files.get(i));
            let files = of.map(|(f, _)| f.clone()).collect();
            (r.name.clone(), files, r.part.clone())
        })
        .collect();
    let runs = client::add_runs(state, runs);
    let ignored = found
        .ignored
        .into_iter()
        .filter_map(|(i, why)| files.get(i).map(|(_, path)| (path.clone(), why)))
        .collect();
    state.grouping.set(Some(Grouped {
        summary,
        how,
        runs,
        ignored,
        offered: files.len(),
    }));
}

/// Groups the last drop's files again, `how`: its runs are closed and new ones made.
fn regroup(state: AppState, how: Grouping) {
    let Some(files) = DROP.with_borrow(|d| d.as_ref().map(|d| d.files.clone())) else {
        return;
    };
    let old = state
        .grouping
        .with_untracked(|g| g.as_ref().map(|g| g.runs.clone()));
    for run in old.unwrap_or_default() {
        if state.runs.with_untracked(|r| r.iter().any(|r| r.id == run)) {
            client::close(state, run);
        }
    }
    state.grouping.set(None);
    offer(state, files, how);
}

fn how_name(how: Grouping) -> &'static str {
    match how {
        Grouping::Found => "found",
        Grouping::OneRun => "one",
        Grouping::PerFile => "per-file",
    }
}

/// The line above the report: how the files were grouped, the regroup buttons, the files not read.
#[component]
pub fn GroupingLine() -> impl IntoView {
    let state = use_state();
    let button = move |how: Grouping, label: &'static str, now: Grouping| {
        view! {
            <button
                class="link"
                data-how=how_name(how)
                disabled=now == how
                on:click=move |_| regroup(state, how)
            >
                {label}
            </button>
        }
    };
    move || {
        state.grouping.get().map(|g| {
            let line = (g.offered > 1 && !g.runs.is_empty()).then(|| {
                view! {
                    <p class="grouping-line">
                        <span data-testid="grouping-summary">{g.summary.clone()}</span>
                        " · group as "
                        {button(Grouping::OneRun, "One run", g.how)}
                        " · "
                        {button(Grouping::PerFile, "One run per file", g.how)}
                        " · "
                        {button(Grouping::Found, "Found", g.how)}
                    </p>
                }
            });
            let not_read = not_read(&g);
            view! {
                <div
                    class="grouping"
                    data-testid="grouping"
                    data-runs=g.runs.len()
                    data-how=how_name(g.how)
                >
                    {line}
                    {not_read}
                </div>
            }
        })
    }
}

/// The files not read: one quiet, collapsed line, open when nothing else was read.
fn not_read(g: &Grouped) -> Option<impl IntoView> {
    if g.ignored.is_empty() {
        return None;
    }
    let n = g.ignored.len();
    let title = format!("{n} {} not read", if n == 1 { "file" } else { "files" });
    let items = g
        .ignored
        .iter()
        .map(|(path, why)| {
            view! {
                <li>
                    <span class="file-name">{path.clone()}</span>
                    ": "
                    <span class="why">{why.clone()}</span>
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <details class="not-read" data-testid="not-read" open=g.runs.is_empty()>
            <summary>{title}</summary>
            <ul>{items}</ul>
        </details>
    })
}
