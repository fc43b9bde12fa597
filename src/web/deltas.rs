//! The comparison view's differences: for each pair of runs, every figure's delta with its paired
//! bootstrap interval (marked when it excludes 0), McNemar's p for accuracy, and the items found
//! in one file only. The worker draws the resamples (src/bin/worker/deltas.rs); this only shows.

use super::client;
use super::export::{save, save_text};
use super::fmt::{self, figure, p_value, signed, unit};
use super::state::{titles, use_state, AppState, Compared};
use crate::compare::{Comparison, Delta, OnlyIn, Pair};
use crate::metrics::bootstrap::{DEFAULT_RESAMPLES, DEFAULT_SEED};
use leptos::prelude::*;
use std::sync::Arc;
use web_sys::Element;

// The finished comparison is drawn with plain DOM calls rather than `view!`: a table of a few
// hundred cells built once, for a fraction of the page's wasm that typed views would cost. Text
// from the files (ids, names) is only ever set as text.

/// Appends a `tag` element with a class and text to `parent`.
pub(super) fn add(parent: &Element, tag: &str, class: &str, text: &str) -> Option<Element> {
    let e = document().create_element(tag).ok()?;
    if !class.is_empty() {
        e.set_class_name(class);
    }
    if !text.is_empty() {
        e.set_text_content(Some(text));
    }
    parent.append_child(&e).ok()?;
    Some(e)
}

pub(super) fn set(e: &Element, name: &str, value: &str) {
    let _ = e.set_attribute(name, value);
}

fn row(body: &Element, d: &Delta) -> Option<()> {
    let (label, kind) = figure(&d.figure);
    let u = unit(kind);
    let tr = add(
        body,
        "tr",
        if d.distinguishable {
            "distinguishable"
        } else {
            ""
        },
        "",
    )?;
    set(&tr, "data-figure", &d.figure);
    set(
        &tr,
        "data-distinguishable",
        if d.distinguishable { "true" } else { "false" },
    );
    set(&add(&tr, "th", "", &label)?, "scope", "row");
    for (v, l) in [(d.a, "A"), (d.b, "B")] {
        let td = add(&tr, "td", "num", &fmt::show(Some(v), kind))?;
        set(&td, "data-value", &fmt::exact(Some(v)));
        set(&td, "data-label", l);
    }
    let delta = add(
        &tr,
        "td",
        "num delta",
        &format!("{}{u}", signed(d.delta, kind)),
    )?;
    set(&delta, "data-value", &fmt::exact(Some(d.delta)));
    set(&delta, "data-label", "A − B");
    let text = format!("{} to {}{u}", signed(d.lo, kind), signed(d.hi, kind));
    let interval = add(&tr, "td", "num interval", &text)?;
    set(&interval, "data-lo", &fmt::exact(Some(d.lo)));
    set(&interval, "data-hi", &fmt::exact(Some(d.hi)));
    set(&interval, "data-label", "95% interval");
    let mark = add(
        &tr,
        "td",
        "mark",
        if d.distinguishable { "≠ 0" } else { "" },
    )?;
    if d.distinguishable {
        set(&mark, "title", "the 95% interval excludes 0");
        set(&mark, "data-label", "differs");
    }
    // The smallest true difference these items detect with 80% power, and the items the
    // observed gap would need.
    let mde = d
        .mde
        .map_or_else(String::new, |m| format!("{}{u}", fmt::show(Some(m), kind)));
    let cell = add(&tr, "td", "num mde", &mde)?;
    set(&cell, "data-value", &fmt::exact(d.mde));
    set(&cell, "data-label", "detectable");
    if let Some(n) = d.items_needed {
        set(
            &cell,
            "title",
            &format!(
                "the observed gap needs {} items for 80% power",
                fmt::count(n)
            ),
        );
    }
    Some(())
}

/// "5 items are only in model-a: q395, q396, …".
fn only(parent: &Element, o: &OnlyIn, who: &str) -> Option<()> {
    let more = if (o.ids.len() as u64) < o.count {
        ", …"
    } else {
        ""
    };
    let text = if o.count == 0 {
        format!("No item is only in {who}.")
    } else {
        let items = if o.count == 1 { "item is" } else { "items are" };
        format!(
            "{} {items} only in {who}: {}{more}",
            fmt::count(o.count),
            o.ids.join(", ")
        )
    };
    let p = add(parent, "p", "only-in small", &text)?;
    set(&p, "data-run", &o.run);
    set(&p, "data-count", &o.count.to_string());
    Some(())
}

fn pair(root: &Element, p: &Pair, k: usize, a: &str, b: &str) -> Option<()> {
    let div = add(root, "div", "pair", "")?;
    set(&div, "data-pair", &k.to_string());
    add(&div, "h3", "", &format!("{a} − {b}"))?;
    let about = format!(
        "On the {} items both files have; resampled within {} ({} strata). A is {a}, B is {b}.",
        fmt::count(p.common),
        p.strata,
        p.strata_count
    );
    add(&div, "p", "muted small", &about)?;
    let table = add(
        &add(&div, "div", "scroll", "")?,
        "table",
        "figures deltas stack",
        "",
    )?;
    let head = add(&add(&table, "thead", "", "")?, "tr", "", "")?;
    for (i, h) in [
        "",
        "A",
        "B",
        "A − B",
        "95% interval",
        "differs",
        "detectable (80% power)",
    ]
    .iter()
    .enumerate()
    {
        let th = add(
            &head,
            "th",
            if (1..5).contains(&i) || i == 6 {
                "num"
            } else {
                ""
            },
            h,
        )?;
        if i > 0 {
            set(&th, "scope", "col");
        }
    }
    let body = add(&table, "tbody", "", "")?;
    for d in &p.figures {
        row(&body, d)?;
    }
    let m = &p.mcnemar;
    let mc = add(
        &div,
        "p",
        "mcnemar",
        "McNemar's exact test on accuracy: p = ",
    )?;
    set(&mc, "data-testid", "mcnemar");
    set(&mc, "data-value", &fmt::exact(m.p_value));
    add(&mc, "strong", "", &p_value(m.p_value))?;
    let partial = if m.not_binary > 0 {
        format!(", {} with partial credit left out", m.not_binary)
    } else {
        String::new()
    };
    let counts = format!(
        " ({} right only for A, {} right only for B, {} both right, {} both wrong{partial}).",
        m.only_a, m.only_b, m.both_right, m.both_wrong
    );
    mc.append_with_str_1(&counts).ok()?;
    only(&div, &p.only_a, a)?;
    only(&div, &p.only_b, b)
}

/// Draws a finished comparison into `root`; `names` are the page's names of its runs.
fn draw(root: &Element, c: &Comparison, names: &[String]) -> Option<()> {
    let settings = format!(
        "Paired percentile bootstrap, {} resamples, seed {}, {:.0}% intervals. ",
        c.bootstrap.resamples,
        c.bootstrap.seed,
        c.bootstrap.level * 100.0
    );
    let p = add(root, "p", "muted small", &settings)?;
    set(&p, "data-testid", "compare-settings");
    add(&p, "span", "mark", "≠ 0")?;
    p.append_with_str_1(
        " marks a difference whose interval excludes 0 (not adjusted for the number of figures).",
    )
    .ok()?;
    for n in &c.notes {
        add(root, "p", "note small", n)?;
    }
    // With three runs or more, also the items no other run has.
    if c.runs.len() > 2 {
        for (o, n) in c.only_in.iter().zip(names) {
            only(root, o, n)?;
        }
    }
    let mut k = 0;
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            if let Some(p) = c.pairs.get(k) {
                pair(root, p, k, &names[i], &names[j])?;
            }
            k += 1;
        }
    }
    Some(())
}

/// The page's names of the compared runs, in the comparison's order (the JSON keeps file names).
fn names(state: AppState, ids: &[u32], c: &Comparison) -> Vec<String> {
    let runs = state.runs.get_untracked();
    let all = titles(&runs);
    c.runs
        .iter()
        .enumerate()
        .map(|(k, r)| {
            ids.get(k)
                .and_then(|id| runs.iter().position(|x| x.id == *id))
                .and_then(|i| all.get(i).cloned())
                .unwrap_or_else(|| r.name.clone())
        })
        .collect()
}

/// The differences panel: asks the worker for a comparison whenever the scored runs change.
#[component]
pub fn Deltas() -> impl IntoView {
    let state = use_state();
    let resamples = RwSignal::new(DEFAULT_RESAMPLES);
    let seed = RwSignal::new(DEFAULT_SEED);
    // The runs compared in tab order, and which scoring of each (a new profile re-scores).
    let scored = Memo::new(move |_| {
        state
            .to_compare()
            .iter()
            .filter_map(|r| Some((r.id, Arc::as_ptr(r.scored()?) as usize)))
            .collect::<Vec<_>>()
    });
    let ask = move || {
        let ids: Vec<u32> = scored.get_untracked().iter().map(|s| s.0).collect();
        if ids.len() >= 2 {
            client::compare(state, ids, resamples.get_untracked(), seed.get_untracked());
        }
    };
    Effect::new(move |_| {
        scored.track();
        resamples.track();
        seed.track();
        ask();
    });
    on_cleanup(move || client::stop_compare(state));
    let number = |s: &str| s.trim().parse::<u64>().ok();
    let body = move || {
        let Some((_, _, status)) = state.compared.get() else {
            return ().into_any();
        };
        match status {
            Compared::Running { done, total } => {
                let pct = if total > 0 {
                    f64::from(done) * 100.0 / f64::from(total)
                } else {
                    0.0
                };
                view! {
                    <p class="muted" data-testid="compare-progress" role="status">
                        {format!("Drawing paired resamples… {pct:.0}% ")}
                        <button class="link" on:click=move |_| client::stop_compare(state)>"Stop"</button>
                    </p>
                }
                .into_any()
            }
            Compared::Stopped => view! {
                <p class="muted" data-testid="compare-stopped">
                    "Comparison stopped. "
                    <button class="link" on:click=move |_| ask()>"Compare again"</button>
                </p>
            }
            .into_any(),
            Compared::Failed(error) => {
                view! { <p class="warn" data-testid="compare-failed">{error}</p> }.into_any()
            }
            Compared::Done { json, html, csv, md, .. } => view! {
                <div class="export" role="group" aria-label="Export the comparison">
                    <button data-export="comparison-json" on:click=move |_| save("comparison.json", "application/json", &json)>
                        "Comparison JSON"
                    </button>
                    <button data-export="comparison-html" title="The runs, their reports and the comparison as one file: no script, readable offline, printable" on:click=move |_| save("comparison.report.html", "text/html", &html)>
                        "Comparison HTML"
                    </button>
                    <button data-export="comparison-csv" title="Each pair's differences and McNemar's test, every digit" on:click=move |_| save_text("comparison.pairs.csv", &csv)>
                        "Pairs CSV"
                    </button>
                    <button data-export="comparison-md" title="Each pair's differences and McNemar's test, four decimals" on:click=move |_| save_text("comparison.pairs.md", &md)>
                        "Pairs Markdown"
                    </button>
                </div>
            }
            .into_any(),
        }
    };
    // The finished comparison, drawn once per comparison into `host`.
    let host = NodeRef::<leptos::html::Div>::new();
    let done = Memo::new(move |_| match state.compared.get() {
        Some((seq, ids, Compared::Done { comparison, .. })) => Some((seq, ids, comparison)),
        _ => None,
    });
    Effect::new(move |_| {
        let done = done.get();
        let Some(div) = host.get() else { return };
        div.set_text_content(None);
        if let Some((_, ids, c)) = done {
            draw(&div, &c, &names(state, &ids, &c));
        }
    });
    view! {
        <section class="panel deltas" data-testid="deltas">
            <h2>"Differences"</h2>
            <p class="controls small">
                <label>
                    "Resamples "
                    <input type="number" min="1" max="100000" step="1" data-testid="compare-resamples"
                        prop:value=move || resamples.get().to_string()
                        on:change=move |ev| {
                            if let Some(n) = number(&event_target_value(&ev)).filter(|n| (1..=100_000).contains(n)) {
                                resamples.set(n as u32);
                            }
                        } />
                </label>
                <label>
                    " Seed "
                    <input type="number" min="0" step="1" data-testid="compare-seed"
                        prop:value=move || seed.get().to_string()
                        on:change=move |ev| {
                            if let Some(n) = number(&event_target_value(&ev)).filter(|n| *n <= (1u64 << 53)) {
                                seed.set(n);
                            }
                        } />
                </label>
            </p>
            <div node_ref=host></div>
            {body}
        </section>
    }
}
