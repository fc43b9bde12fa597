//! The comparison view's differences: for each pair of runs, every figure's delta with its paired
//! bootstrap interval (marked when it excludes 0), McNemar's p for accuracy, and the items found
//! in one file only. The worker draws the resamples (src/web/deltas_worker.rs); this only shows.

use super::client;
use super::export::save;
use super::fmt::{self, Kind};
use super::state::{titles, use_state, AppState, Compared};
use leptos::prelude::*;
use scorelens::compare::{Comparison, Delta, OnlyIn, Pair};
use scorelens::metrics::bootstrap::{DEFAULT_RESAMPLES, DEFAULT_SEED};
use std::sync::Arc;

/// How a figure path of the comparison is written: its label and precision.
pub fn figure(path: &str) -> (String, Kind) {
    let calibration = |f: &str| {
        match f {
            "ece" => "ECE",
            "ece_em" => "ECE equal-mass",
            "brier" => "Brier",
            "epa" => "EPA",
            "nll" => "NLL",
            other => other,
        }
        .to_string()
    };
    match path.split_once('.') {
        Some(("metrics", f)) => {
            let kind = if matches!(f, "accuracy" | "macro_accuracy" | "invalid_share") {
                Kind::Share
            } else {
                Kind::Score
            };
            (f.replace('_', " "), kind)
        }
        Some((mode @ ("conditioning" | "mixing"), f)) => {
            (format!("{} {mode}", calibration(f)), Kind::Score)
        }
        Some(("ic", f)) => {
            // ic.i, ic.i_weighted, ic.types.choice.cc: "I", "I weighted", "choice CC".
            let (ty, m) = match f.strip_prefix("types.").and_then(|t| t.rsplit_once('.')) {
                Some((ty, m)) => (format!("{ty} "), m),
                None => (String::new(), f),
            };
            let (head, rest) = m.split_once('_').unwrap_or((m, ""));
            let rest = if rest.is_empty() {
                String::new()
            } else {
                format!(" {rest}")
            };
            (format!("{ty}{}{rest}", head.to_uppercase()), Kind::Points)
        }
        Some(("rewardbench", f)) => (
            f.strip_prefix("sections.").unwrap_or(f).to_string(),
            Kind::Share,
        ),
        _ => (path.to_string(), Kind::Score),
    }
}

/// A signed figure at the kind's precision, without unit (a share in percentage points); no sign
/// when it rounds to zero.
pub fn signed(x: f64, kind: Kind) -> String {
    let (v, decimals) = match kind {
        Kind::Share => (x * 100.0, 1),
        Kind::Score => (x, 3),
        Kind::Points => (x, 1),
    };
    let s = format!("{:.*}", decimals, v.abs());
    if s.trim_start_matches(['0', '.']).is_empty() {
        s
    } else if v < 0.0 {
        format!("−{s}")
    } else {
        format!("+{s}")
    }
}

/// The unit after a difference: percentage points for shares.
pub fn unit(kind: Kind) -> &'static str {
    match kind {
        Kind::Share => " pp",
        _ => "",
    }
}

/// McNemar's p as written: four decimals, or "< 0.0001".
pub fn p_value(p: Option<f64>) -> String {
    match p {
        None => fmt::NA.to_string(),
        Some(p) if p < 0.0001 => "< 0.0001".to_string(),
        Some(p) => format!("{p:.4}"),
    }
}

fn row(d: &Delta) -> impl IntoView {
    let (label, kind) = figure(&d.figure);
    let u = unit(kind);
    let mark = if d.distinguishable { "≠ 0" } else { "" };
    view! {
        <tr data-figure=d.figure.clone() class:distinguishable=d.distinguishable data-distinguishable=d.distinguishable.to_string()>
            <th scope="row">{label}</th>
            <td class="num" data-value=fmt::exact(Some(d.a))>{fmt::show(Some(d.a), kind)}</td>
            <td class="num" data-value=fmt::exact(Some(d.b))>{fmt::show(Some(d.b), kind)}</td>
            <td class="num delta" data-value=fmt::exact(Some(d.delta))>{format!("{}{u}", signed(d.delta, kind))}</td>
            <td class="num interval" data-lo=fmt::exact(Some(d.lo)) data-hi=fmt::exact(Some(d.hi))>
                {format!("{} to {}{u}", signed(d.lo, kind), signed(d.hi, kind))}
            </td>
            <td class="mark" title=if d.distinguishable { "the 95% interval excludes 0" } else { "" }>{mark}</td>
        </tr>
    }
}

/// "5 items only in model-a.jsonl: q395, q396, …" (ids as text, never as HTML).
fn only(o: &OnlyIn, who: &str) -> impl IntoView {
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
    view! { <p class="only-in small" data-run=o.run.clone() data-count=o.count>{text}</p> }
}

fn pair_view(p: &Pair, k: usize, a: String, b: String) -> impl IntoView {
    let m = &p.mcnemar;
    let rows = p.figures.iter().map(row).collect_view();
    view! {
        <div class="pair" data-pair=k>
            <h3>{format!("{a} − {b}")}</h3>
            <p class="muted small">
                {format!(
                    "On the {} items both files have; resampled within {} ({} strata). A is {a}, B is {b}.",
                    fmt::count(p.common),
                    p.strata,
                    p.strata_count
                )}
            </p>
            <div class="scroll">
                <table class="figures deltas">
                    <thead>
                        <tr>
                            <th></th>
                            <th class="num" scope="col">"A"</th>
                            <th class="num" scope="col">"B"</th>
                            <th class="num" scope="col">"A − B"</th>
                            <th class="num" scope="col">"95% interval"</th>
                            <th scope="col">"differs"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="mcnemar" data-testid="mcnemar" data-value=fmt::exact(m.p_value)>
                "McNemar's exact test on accuracy: p = "
                <strong>{p_value(m.p_value)}</strong>
                {format!(
                    " ({} right only for A, {} right only for B, {} both right, {} both wrong{}).",
                    m.only_a,
                    m.only_b,
                    m.both_right,
                    m.both_wrong,
                    if m.not_binary > 0 { format!(", {} with partial credit left out", m.not_binary) } else { String::new() }
                )}
            </p>
            {only(&p.only_a, &a)}
            {only(&p.only_b, &b)}
        </div>
    }
}

fn done_view(state: AppState, ids: &[u32], c: Arc<Comparison>, json: Arc<str>) -> impl IntoView {
    // Names the page uses for the runs, in the comparison's order (the JSON keeps file names).
    let names: Vec<String> = {
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
    };
    let mut pairs = Vec::new();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            pairs.push((names[i].clone(), names[j].clone()));
        }
    }
    let pair_views = c
        .pairs
        .iter()
        .zip(pairs)
        .enumerate()
        .map(|(k, (p, (a, b)))| pair_view(p, k, a, b))
        .collect_view();
    // With three runs or more, also the items no other run has.
    let only_all = (c.runs.len() > 2).then(|| {
        c.only_in
            .iter()
            .zip(names.clone())
            .map(|(o, n)| only(o, &n))
            .collect_view()
    });
    let notes = c
        .notes
        .iter()
        .map(|n| view! { <p class="note small">{n.clone()}</p> })
        .collect_view();
    view! {
        <p class="muted small" data-testid="compare-settings">
            {format!(
                "Paired percentile bootstrap, {} resamples, seed {}, {:.0}% intervals. ",
                c.bootstrap.resamples,
                c.bootstrap.seed,
                c.bootstrap.level * 100.0
            )}
            <span class="mark">"≠ 0"</span>
            " marks a difference whose interval excludes 0 (not adjusted for the number of figures)."
        </p>
        {notes}
        {only_all}
        {pair_views}
        <div class="export" role="group" aria-label="Export the comparison">
            <button data-export="comparison-json" on:click=move |_| save("comparison.json", "application/json", &json)>
                "Comparison JSON"
            </button>
        </div>
    }
}

/// The differences panel: asks the worker for a comparison whenever the scored runs change.
#[component]
pub fn Deltas() -> impl IntoView {
    let state = use_state();
    let resamples = RwSignal::new(DEFAULT_RESAMPLES);
    let seed = RwSignal::new(DEFAULT_SEED);
    // The scored runs in tab order, and which scoring of each (a new profile re-scores).
    let scored = Memo::new(move |_| {
        state.runs.with(|runs| {
            runs.iter()
                .filter_map(|r| Some((r.id, Arc::as_ptr(r.scored()?) as usize)))
                .collect::<Vec<_>>()
        })
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
        let Some((_, ids, status)) = state.compared.get() else {
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
            Compared::Done { comparison, json } => {
                done_view(state, &ids, comparison, json).into_any()
            }
        }
    };
    view! {
        <section class="deltas" data-testid="deltas">
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
            {body}
        </section>
    }
}
