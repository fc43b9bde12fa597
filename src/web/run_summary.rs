//! The runs of a multi-run drop at a glance, above the tabs: one row per scored run with its
//! headline (`profiles::headline`, the rule every face follows), a link to its report, and one to
//! the comparison further down, which would otherwise start under a whole report.

use super::fmt;
use super::state::{titles, use_state, Run};
use crate::fmt::Kind;
use crate::profiles::headline::{headline, Figure};
use leptos::prelude::*;

/// The union of the runs' headline figures, in order of first appearance: (path, label, kind).
fn columns(heads: &[Vec<Figure>]) -> Vec<(String, String, Kind)> {
    let mut out: Vec<(String, String, Kind)> = Vec::new();
    for f in heads.iter().flatten() {
        if !out.iter().any(|c| c.0 == f.path) {
            out.push((f.path.clone(), f.label.clone(), f.kind));
        }
    }
    out
}

fn scroll_to(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.scroll_into_view();
    }
}

#[component]
pub fn RunSummary() -> impl IntoView {
    let state = use_state();
    move || {
        let runs: Vec<Run> = state
            .runs
            .get()
            .into_iter()
            .filter(|r| r.scored().is_some())
            .collect();
        if runs.len() < 2 {
            return ().into_any();
        }
        let names = titles(&runs);
        let heads: Vec<Vec<Figure>> = runs
            .iter()
            .filter_map(|r| r.scored().map(|s| headline(&s.report)))
            .collect();
        let cols = columns(&heads);
        let head = cols
            .iter()
            .map(|(_, label, _)| view! { <th class="num" scope="col">{label.clone()}</th> })
            .collect_view();
        let body = runs
            .iter()
            .zip(&names)
            .zip(&heads)
            .map(|((r, name), figures)| {
                let id = r.id;
                let items = r.scored().map_or(0, |s| s.report.items);
                let profile = r.scored().map(|s| s.report.profile.clone()).unwrap_or_default();
                let cells = cols
                    .iter()
                    .map(|(path, _, kind)| {
                        let v = figures.iter().find(|f| &f.path == path).and_then(|f| f.value);
                        view! { <td class="num" data-figure=path.clone() data-value=fmt::exact(v)>{fmt::show(v, *kind)}</td> }
                    })
                    .collect_view();
                view! {
                    <tr data-run=id.to_string()>
                        <th scope="row">
                            <a href="#runs" title="Show this run's report" on:click=move |ev| { ev.prevent_default(); state.active.set(Some(id)); scroll_to("runs"); }>{name.clone()}</a>
                        </th>
                        <td>{profile}</td>
                        <td class="num" data-value=items.to_string()>{fmt::count(items)}</td>
                        {cells}
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section class="panel run-summary" data-testid="run-summary">
                <h2>{format!("{} runs", runs.len())}</h2>
                <div class="scroll">
                    <table class="figures">
                        <thead><tr><th scope="col">"run"</th><th scope="col">"profile"</th><th class="num" scope="col">"items"</th>{head}</tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                <p><a href="#comparison" data-testid="to-comparison" on:click=move |ev| { ev.prevent_default(); scroll_to("comparison"); }>"The comparison, side by side and pair by pair ↓"</a></p>
            </section>
        }
        .into_any()
    }
}
