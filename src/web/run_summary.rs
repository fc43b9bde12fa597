//! The runs of a multi-run drop at a glance, above the tabs: one row per scored run with its
//! headline (`profiles::headline`, the rule every face follows), a link to its report, and one to
//! the comparison further down, which would otherwise start under a whole report.
//!
//! Drawn with plain DOM calls, as the comparison's differences are (src/web/deltas.rs): a small
//! table rebuilt when the runs change costs the page far less wasm than typed views. Names from
//! the files are only ever set as text.

use super::deltas::{add, set};
use super::fmt;
use super::state::{titles, use_state, Run};
use crate::fmt::Kind;
use crate::profiles::headline::{headline, Figure};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

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

fn draw(host: &Element, runs: &[Run]) -> Option<()> {
    let names = titles(runs);
    let heads: Vec<Vec<Figure>> = runs
        .iter()
        .map(|r| r.scored().map(|s| headline(&s.report)).unwrap_or_default())
        .collect();
    let cols = columns(&heads);
    add(host, "h2", "", &format!("{} runs", runs.len()))?;
    let table = add(&add(host, "div", "scroll", "")?, "table", "figures", "")?;
    let head = add(&add(&table, "thead", "", "")?, "tr", "", "")?;
    for (label, class) in [("run", ""), ("profile", ""), ("items", "num")] {
        set(&add(&head, "th", class, label)?, "scope", "col");
    }
    for (_, label, _) in &cols {
        set(&add(&head, "th", "num", label)?, "scope", "col");
    }
    let body = add(&table, "tbody", "", "")?;
    for ((r, name), figures) in runs.iter().zip(&names).zip(&heads) {
        let Some(s) = r.scored() else { continue };
        let tr = add(&body, "tr", "", "")?;
        set(&tr, "data-run", &r.id.to_string());
        let th = add(&tr, "th", "", "")?;
        set(&th, "scope", "row");
        let a = add(&th, "a", "", name)?;
        set(&a, "href", "#runs");
        set(&a, "data-run", &r.id.to_string());
        set(&a, "title", "Show this run's report");
        add(&tr, "td", "", &s.report.profile)?;
        let items = add(&tr, "td", "num", &fmt::count(s.report.items))?;
        set(&items, "data-value", &s.report.items.to_string());
        for (path, _, kind) in &cols {
            let v = figures
                .iter()
                .find(|f| &f.path == path)
                .and_then(|f| f.value);
            let td = add(&tr, "td", "num", &fmt::show(v, *kind))?;
            set(&td, "data-headline", path);
            set(&td, "data-value", &fmt::exact(v));
        }
    }
    let a = add(
        &add(host, "p", "", "")?,
        "a",
        "",
        "The comparison, side by side and pair by pair ↓",
    )?;
    set(&a, "href", "#comparison");
    set(&a, "data-testid", "to-comparison");
    Some(())
}

#[component]
pub fn RunSummary() -> impl IntoView {
    let state = use_state();
    let host = NodeRef::<leptos::html::Section>::new();
    let runs = Memo::new(move |_| {
        state
            .runs
            .get()
            .into_iter()
            .filter(|r| r.scored().is_some())
            .collect::<Vec<Run>>()
    });
    Effect::new(move |_| {
        let list = runs.get();
        let Some(el) = host.get() else { return };
        el.set_text_content(None);
        let _ = el.toggle_attribute_with_force("hidden", list.len() < 2);
        if list.len() >= 2 {
            draw(&el, &list);
        }
    });
    // A run's link shows its report; the browser then scrolls to the tabs (`#runs`).
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let run = ev
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|e| e.get_attribute("data-run"))
            .and_then(|id| id.parse::<u32>().ok());
        if let Some(id) = run {
            state.active.set(Some(id));
        }
    };
    view! { <section class="panel run-summary" data-testid="run-summary" hidden node_ref=host on:click=on_click></section> }
}
