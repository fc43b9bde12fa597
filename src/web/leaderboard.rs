//! The leaderboard view, first on the page once four or more runs are scored: the runs ranked by
//! a chosen figure with value, interval and 95% rank interval, a plot of the rank intervals (one
//! row per run, legible at 50), a mark where neighbours do not differ after Holm's adjustment, and
//! a click on a run opening its report. The worker draws the resamples
//! (src/bin/worker/leaderboard.rs); the tables are the CLI's (`leaderboard::tables`), so the
//! exports equal `scorelens leaderboard --format csv|markdown` and `--json`.
//!
//! The finished leaderboard is drawn with plain DOM calls, as the comparison's differences are (a
//! few hundred cells built once, for a fraction of the wasm typed views cost); names from the
//! files are only ever set as text.

use super::client;
use super::export::save;
use super::state::{use_state, AppState, Ranked};
use crate::leaderboard::tables::{default_figure, tables};
use crate::leaderboard::{Board, Leaderboard};
use crate::metrics::bootstrap::{DEFAULT_RESAMPLES, DEFAULT_SEED};
use crate::table;
use leptos::prelude::*;
use std::sync::Arc;
use web_sys::Element;

/// Scored runs from which the leaderboard opens.
pub const MIN_RUNS: usize = 4;

/// Rows of the rank plot, in pixels; room for run names on its left; its width.
const ROW: f64 = 16.0;
const LEFT: f64 = 180.0;
const WIDTH: f64 = 640.0;
const SVG: &str = "http://www.w3.org/2000/svg";

fn four(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.4}"))
}

/// Appends a `tag` element (in namespace `ns` when given) with text to `parent`.
fn add(parent: &Element, ns: Option<&str>, tag: &str, text: &str) -> Option<Element> {
    let e = match ns {
        Some(ns) => document().create_element_ns(Some(ns), tag).ok()?,
        None => document().create_element(tag).ok()?,
    };
    if !text.is_empty() {
        e.set_text_content(Some(text));
    }
    parent.append_child(&e).ok()?;
    Some(e)
}

fn set(e: &Element, attrs: &[(&str, &str)]) {
    for (name, value) in attrs {
        let _ = e.set_attribute(name, value);
    }
}

/// Whether neighbours `i` and `i + 1` of the standings differ after the adjustment.
fn differs_from_next(b: &Board, i: usize) -> Option<bool> {
    let (s, next) = (b.standings.get(i)?, b.standings.get(i + 1)?);
    Some(b.pairs.iter().any(|p| {
        p.differs && ((p.a == s.run && p.b == next.run) || (p.a == next.run && p.b == s.run))
    }))
}

fn draw_table(host: &Element, l: &Leaderboard, b: &Board) -> Option<()> {
    let wrap = add(host, None, "div", "")?;
    set(&wrap, &[("class", "scroll")]);
    let t = add(&wrap, None, "table", "")?;
    set(
        &t,
        &[("class", "figures"), ("data-testid", "leaderboard-table")],
    );
    let better = if b.higher_is_better {
        "higher"
    } else {
        "lower"
    };
    let caption = format!(
        "{} on {} shared items; {better} is better",
        b.figure, l.common
    );
    add(&t, None, "caption", &caption)?;
    let head = add(&add(&t, None, "thead", "")?, None, "tr", "")?;
    for c in [
        "rank",
        "run",
        "value",
        "95% interval",
        "median rank",
        "95% rank interval",
        "differs from next",
    ] {
        set(&add(&head, None, "th", c)?, &[("scope", "col")]);
    }
    let body = add(&t, None, "tbody", "")?;
    for (i, s) in b.standings.iter().enumerate() {
        let tr = add(&body, None, "tr", "")?;
        set(&tr, &[("data-run", &s.run)]);
        set(
            &add(&tr, None, "td", &s.rank.to_string())?,
            &[("class", "num")],
        );
        let th = add(&tr, None, "th", "")?;
        set(&th, &[("scope", "row")]);
        let open = add(&th, None, "button", &s.run)?;
        set(&open, &[("class", "link"), ("data-open", &s.run)]);
        let value = add(&tr, None, "td", &four(Some(s.value)))?;
        set(
            &value,
            &[("class", "num"), ("data-value", &s.value.to_string())],
        );
        let interval = format!("{} to {}", four(s.lo), four(s.hi));
        set(&add(&tr, None, "td", &interval)?, &[("class", "num")]);
        set(
            &add(&tr, None, "td", &s.rank_median.to_string())?,
            &[("class", "num")],
        );
        let ranks = format!("{}–{}", s.rank_lo, s.rank_hi);
        set(&add(&tr, None, "td", &ranks)?, &[("class", "num")]);
        let mark = match differs_from_next(b, i) {
            Some(true) => "yes",
            Some(false) => "≈ no",
            None => "–",
        };
        add(&tr, None, "td", mark)?;
    }
    Some(())
}

/// One row per run: a bar from the 2.5% to the 97.5% rank, a dot at the median, the name on the
/// left, "≈" between neighbours that do not differ; rank ticks under it.
fn draw_plot(host: &Element, b: &Board, runs: usize) -> Option<()> {
    let n = runs.max(1) as f64;
    let x = |rank: u32| LEFT + (f64::from(rank) - 0.5) / n * (WIDTH - LEFT - 24.0);
    let height = ROW * b.standings.len() as f64 + 30.0;
    let svg = add(host, Some(SVG), "svg", "")?;
    let label = format!(
        "95% rank intervals on {}: a bar from the 2.5% to the 97.5% rank, a dot at the median; \
         ≈ between runs that do not differ after Holm's adjustment",
        b.figure
    );
    set(
        &svg,
        &[
            ("id", "leaderboard-plot"),
            ("font-size", "11"),
            ("fill", "currentColor"),
            ("class", "rank-plot"),
            ("role", "img"),
            ("aria-label", &label),
            ("viewBox", &format!("0 0 {WIDTH} {height}")),
            ("width", &WIDTH.to_string()),
            ("height", &height.to_string()),
        ],
    );
    add(&svg, Some(SVG), "title", &label)?;
    for (i, s) in b.standings.iter().enumerate() {
        let y = ROW * i as f64 + ROW / 2.0 + 4.0;
        let g = add(&svg, Some(SVG), "g", "")?;
        set(&g, &[("class", "rank-row"), ("data-run", &s.run)]);
        let name = add(&g, Some(SVG), "text", &s.run)?;
        let (nx, ny) = ((LEFT - 8.0).to_string(), (y + 4.0).to_string());
        set(
            &name,
            &[
                ("class", "run-name"),
                ("x", &nx),
                ("y", &ny),
                ("text-anchor", "end"),
            ],
        );
        let bar = add(&g, Some(SVG), "line", "")?;
        let (x1, x2, yy) = (
            x(s.rank_lo).to_string(),
            x(s.rank_hi).to_string(),
            y.to_string(),
        );
        set(
            &bar,
            &[
                ("class", "rank-bar"),
                ("x1", &x1),
                ("x2", &x2),
                ("y1", &yy),
                ("y2", &yy),
                ("stroke", "currentColor"),
                ("stroke-width", "4"),
                ("stroke-linecap", "round"),
                ("stroke-opacity", "0.45"),
            ],
        );
        let dot = add(&g, Some(SVG), "circle", "")?;
        let cx = x(s.rank_median).to_string();
        set(
            &dot,
            &[
                ("class", "rank-median"),
                ("cx", &cx),
                ("cy", &yy),
                ("r", "3.5"),
                ("fill", "currentColor"),
            ],
        );
        if differs_from_next(b, i) == Some(false) {
            let same = add(&g, Some(SVG), "text", "≈")?;
            let (sx, sy) = (
                (WIDTH - 12.0).to_string(),
                (y + ROW / 2.0 + 4.0).to_string(),
            );
            set(
                &same,
                &[
                    ("class", "same"),
                    ("x", &sx),
                    ("y", &sy),
                    ("text-anchor", "middle"),
                ],
            );
        }
    }
    for r in (1..=runs as u32).filter(|r| runs <= 20 || *r == 1 || r % 5 == 0) {
        let tick = add(&svg, Some(SVG), "text", &r.to_string())?;
        let (tx, ty) = (x(r).to_string(), (height - 8.0).to_string());
        set(
            &tick,
            &[
                ("class", "tick"),
                ("x", &tx),
                ("y", &ty),
                ("text-anchor", "middle"),
            ],
        );
    }
    Some(())
}

/// The figure menu, the table, the plot and the exports of `figure`.
fn draw(host: &Element, l: &Leaderboard, figure: &str) -> Option<()> {
    let b = l.board(figure)?;
    let note = format!(
        "{} paired resamples, seed {}; ranks: {}",
        l.bootstrap.resamples, l.bootstrap.seed, l.tie_rule
    );
    set(&add(host, None, "p", &note)?, &[("class", "muted small")]);
    let label = add(host, None, "label", "Rank by ")?;
    let select = add(&label, None, "select", "")?;
    set(&select, &[("data-testid", "leaderboard-by")]);
    for f in l.figures.iter().chain(&l.subsets) {
        let o = add(&select, None, "option", &f.figure)?;
        set(&o, &[("value", &f.figure)]);
        if f.figure == figure {
            set(&o, &[("selected", "")]);
        }
    }
    draw_table(host, l, b)?;
    draw_plot(host, b, l.runs.len())?;
    let exports = add(host, None, "div", "")?;
    set(&exports, &[("class", "export"), ("role", "group")]);
    for (kind, text) in [
        ("leaderboard-json", "Leaderboard JSON"),
        ("csv", "Tables CSV"),
        ("md", "Tables Markdown"),
        ("svg", "Plot SVG"),
    ] {
        set(
            &add(&exports, None, "button", text)?,
            &[("data-export", kind)],
        );
    }
    Some(())
}

/// What a click in the drawn leaderboard asks for: an export, or a run's report.
fn clicked(
    state: AppState,
    target: &Element,
    l: &Leaderboard,
    json: &str,
    figure: &str,
    ids: &[u32],
) {
    if let Some(run) = target.get_attribute("data-open") {
        let at = l.runs.iter().position(|r| r.name == run);
        if let Some(&id) = at.and_then(|k| ids.get(k)) {
            state.active.set(Some(id));
        }
        return;
    }
    let t = tables(l, figure).unwrap_or_default();
    match target.get_attribute("data-export").as_deref() {
        Some("leaderboard-json") => save("leaderboard.json", "application/json", json),
        Some("csv") => save("leaderboard.csv", "text/csv", &table::csv(&t)),
        Some("md") => save("leaderboard.md", "text/markdown", &table::markdown(&t)),
        Some("svg") => {
            if let Some(text) = super::export::svg_text("leaderboard-plot") {
                save("leaderboard.svg", "image/svg+xml", &text);
            }
        }
        _ => {}
    }
}

#[component]
pub fn LeaderboardView() -> impl IntoView {
    let state = use_state();
    let by = RwSignal::new(None::<String>);
    // The scored runs in tab order, and which scoring of each (a new profile re-scores).
    let scored = Memo::new(move |_| {
        state.runs.with(|runs| {
            runs.iter()
                .filter_map(|r| Some((r.id, Arc::as_ptr(r.scored()?) as usize)))
                .collect::<Vec<_>>()
        })
    });
    Effect::new(move |_| {
        let ids: Vec<u32> = scored.get().iter().map(|s| s.0).collect();
        if ids.len() >= MIN_RUNS {
            client::rank(state, ids, DEFAULT_RESAMPLES, DEFAULT_SEED);
        }
    });
    let done = Memo::new(move |_| match state.ranked.get() {
        Some((seq, ids, Ranked::Done { leaderboard, json })) => Some((seq, ids, leaderboard, json)),
        _ => None,
    });
    let figure = move || {
        let (_, _, l, _) = done.get()?;
        by.get()
            .filter(|f| l.board(f).is_some())
            .or_else(|| default_figure(&l).map(str::to_string))
    };
    let host = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let (done, figure) = (done.get(), figure());
        let Some(div) = host.get() else { return };
        div.set_text_content(None);
        if let (Some((_, _, l, _)), Some(f)) = (done, figure) {
            draw(&div, &l, &f);
        }
    });
    let status = move || match state.ranked.get().map(|r| r.2) {
        Some(Ranked::Running { done, total }) => {
            format!("Ranking: {done} of {total} paired resamples…")
        }
        Some(Ranked::Failed(error)) => error,
        _ => String::new(),
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        let target = ev.target().and_then(|t| t.dyn_into::<Element>().ok());
        let f = untrack(figure);
        if let (Some(t), Some((_, ids, l, json)), Some(f)) = (target, done.get_untracked(), f) {
            clicked(state, &t, &l, &json, &f, &ids);
        }
    };
    view! {
        <section class="panel leaderboard" data-testid="leaderboard">
            <h2>"Leaderboard"</h2>
            <p class="muted small">
                "Ranks with 95% intervals from one paired bootstrap over the items every run has. "
                "A run leads only where it differs from every other run after Holm's adjustment."
            </p>
            <p class="muted" role="status" data-testid="leaderboard-status">{status}</p>
            <div node_ref=host
                on:click=on_click
                on:change=move |ev| by.set(Some(event_target_value(&ev)))></div>
        </section>
    }
}
