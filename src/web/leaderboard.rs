//! The leaderboard view, first on the page once four or more runs of one benchmark are scored.
//! The worker ranks them and lays the view out (src/bin/worker/leaderboard.rs: the ranking with
//! value, interval and rank interval, the rank-interval plot, the marks where neighbours do not
//! differ, the figure menu and the exports, as the HTML report's `Node` tree); this mounts the
//! tree, text as text, and answers its clicks: a run's name opens its report, a mark between two
//! runs opens their comparison, an export button saves the worker's file.

use super::client;
use super::export::save_text;
use super::state::{use_state, Ranked, Status, LEADERBOARD_RUNS};
use crate::metrics::bootstrap::{DEFAULT_RESAMPLES, DEFAULT_SEED};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

const SVG: &str = "http://www.w3.org/2000/svg";

/// Builds the element `n` (an `html::node::Node` as parsed JSON) under `parent`; an `svg` and
/// what it holds go in the SVG namespace.
fn build(parent: &Element, n: &JsValue, svg: bool) -> Option<()> {
    let get = |key: &str| js_sys::Reflect::get(n, &JsValue::from_str(key)).ok();
    let list = |key: &str| get(key).map(|v| js_sys::Array::from(&v));
    let tag = get("tag")?.as_string()?;
    let svg = svg || tag == "svg";
    let d = document();
    let e = if svg {
        d.create_element_ns(Some(SVG), &tag)
    } else {
        d.create_element(&tag)
    }
    .ok()?;
    for pair in list("attrs")?.iter() {
        let pair = js_sys::Array::from(&pair);
        e.set_attribute(&pair.get(0).as_string()?, &pair.get(1).as_string()?)
            .ok()?;
    }
    let text = get("text")?.as_string()?;
    if !text.is_empty() {
        e.set_text_content(Some(&text));
    }
    for kid in list("kids")?.iter() {
        build(&e, &kid, svg)?;
    }
    parent.append_child(&e).ok()?;
    Some(())
}

/// Mounts a view the worker (or the widget) laid out, an `html::node::Node` as JSON, in `parent`
/// in place of what it held. Text and attribute values are set as such, never parsed as HTML.
pub fn mount(parent: &Element, tree: &str) {
    parent.set_text_content(None);
    if let Ok(v) = js_sys::JSON::parse(tree) {
        build(parent, &v, false);
    }
}

/// Scrolls the element `selector` matches into view, once the page has drawn it.
fn reveal(selector: &'static str) {
    request_animation_frame(move || {
        if let Ok(Some(e)) = document().query_selector(selector) {
            e.scroll_into_view();
        }
    });
}

#[component]
pub fn LeaderboardView() -> impl IntoView {
    let state = use_state();
    // The runs to rank (id, name, which scoring), once no run is being read: a drop of twelve
    // is ranked once, not at every run scored.
    let runs = Memo::new(move |_| {
        let reading = state.runs.with(|r| {
            r.iter()
                .any(|r| matches!(r.status, Status::Waiting | Status::Reading { .. }))
        });
        let runs = state.ranked_runs().into_iter().filter_map(|r| {
            let at = Arc::as_ptr(r.scored()?) as usize;
            Some((r.id, r.label, at))
        });
        (!reading).then(|| runs.collect::<Vec<_>>())
    });
    Effect::new(move |_| {
        if let Some(runs) = runs.get().filter(|r| r.len() >= LEADERBOARD_RUNS) {
            let (ids, names) = runs.into_iter().map(|(id, name, _)| (id, name)).unzip();
            client::rank(state, ids, names, DEFAULT_RESAMPLES, DEFAULT_SEED);
        }
    });
    // Shown from four runs of one benchmark on; what it holds follows the worker's news. Drawn
    // with DOM calls, not typed views, which would cost the page several times the wasm.
    let open = Memo::new(move |_| state.ranked_runs().len() >= LEADERBOARD_RUNS);
    let news = Memo::new(move |_| state.ranked.get().map(|r| r.2));
    let host = NodeRef::<leptos::html::Section>::new();
    Effect::new(move |_| {
        let (open, news) = (open.get(), news.get());
        let Some(el) = host.get() else { return };
        el.set_hidden(!open);
        let say = |text: &str| {
            el.set_text_content(None);
            let p = document().create_element("p").ok()?;
            p.set_class_name("muted");
            p.set_attribute("role", "status").ok()?;
            p.set_attribute("data-testid", "leaderboard-status").ok()?;
            p.set_text_content(Some(text));
            el.append_child(&p).ok()
        };
        match news {
            Some(Ranked::Done(shown)) => mount(&el, &shown.view),
            Some(Ranked::Running { done, total }) => {
                say(&format!(
                    "Leaderboard: ranking, {done} of {total} paired resamples drawn…"
                ));
            }
            Some(Ranked::Failed(error)) => {
                say(&error);
            }
            None => el.set_text_content(None),
        }
    });
    let done = move || match state.ranked.get_untracked() {
        Some((seq, ids, Ranked::Done(shown))) => Some((seq, ids, shown)),
        _ => None,
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let target = ev.target().and_then(|t| t.dyn_into::<Element>().ok());
        let hit = target.and_then(|t| t.closest("[data-open],[data-a],[data-export]").ok()?);
        let (Some(hit), Some((_, ids, shown))) = (hit, done()) else {
            return;
        };
        let id = |name: &str| {
            let k: usize = hit.get_attribute(name)?.parse().ok()?;
            ids.get(k).copied()
        };
        if let Some(run) = id("data-open") {
            state.active.set(Some(run));
            reveal("nav.tabs");
        } else if let (Some(a), Some(b)) = (id("data-a"), id("data-b")) {
            state.chosen.set(Some(vec![a, b]));
            reveal("[data-testid=comparison]");
        } else {
            let (name, text) = match hit.get_attribute("data-export").as_deref() {
                Some("json") => ("leaderboard.json", &shown.json),
                Some("csv") => ("leaderboard.csv", &shown.csv),
                Some("md") => ("leaderboard.md", &shown.markdown),
                Some("html") => ("leaderboard.html", &shown.html),
                _ => return,
            };
            save_text(name, text);
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        if let Some((seq, ..)) = done() {
            client::rank_by(seq, event_target_value(&ev));
        }
    };
    view! {
        <section class="panel leaderboard" data-testid="leaderboard" node_ref=host
            on:click=on_click on:change=on_change></section>
    }
}
