//! The planning panel: which items belong together (the cluster menu), and what that means for
//! the run's error bars in a reader's words: how far each mean figure reaches, the smallest
//! difference the items can detect, and how many items would halve the interval. The figures are
//! the report's `intervals.clustered`, the CLI's `score --cluster`.

use super::client;
use super::fmt::{self, Kind};
use super::protocol::Scored;
use super::state::use_state;
use crate::report::clustered::{Clustered, ClusteredFigure};
use leptos::prelude::*;
use std::sync::Arc;

/// A figure's scale as the page shows it: shares in points, the rest as scores.
fn kind(figure: &str) -> Kind {
    match figure {
        "metrics.accuracy" | "metrics.invalid_share" | "metrics.outside_mass" => Kind::Share,
        _ => Kind::Score,
    }
}

/// A width in the figure's own unit: percentage points for shares.
fn width(x: f64, figure: &str) -> String {
    match kind(figure) {
        Kind::Share => format!("{} points", fmt::number(x * 100.0, 1)),
        _ => fmt::number(x, 3),
    }
}

/// What the rule is, in words.
fn rule(field: &str) -> &'static str {
    match field {
        "cluster" => "by the file's cluster field",
        "group" => "by group",
        _ => "each item on its own",
    }
}

/// The headline sentence for accuracy (or the first mean figure).
fn sentence(c: &Clustered, name: &str, f: &ClusteredFigure) -> String {
    let value = fmt::show(Some(f.value), kind(name));
    let mut s = format!(
        "With these {} items in {} independent units ({}), {name} is {value} ± {} at 95%; \
         a departure under {} from a fixed target is not reliably detectable (80% power).",
        fmt::count(c.items),
        fmt::count(c.clusters),
        rule(&c.field),
        width(f.half_width, name),
        width(f.mde, name),
    );
    if f.design_effect > 1.0 + 1e-9 {
        s += &format!(
            " Items of one cluster are alike: the {} items count as {} independent ones (design effect {}).",
            fmt::count(f.items),
            fmt::count((f.items as f64 / f.design_effect).round() as u64),
            fmt::number(f.design_effect, 2),
        );
    }
    s + &format!(
        " {} items would halve the interval.",
        fmt::count(f.items_to_halve)
    )
}

#[component]
pub fn Planning(id: u32, scored: Arc<Scored>) -> impl IntoView {
    let state = use_state();
    let r = &scored.report;
    let chosen = state.run(id).and_then(|run| run.cluster);
    let groups_repeat = r.groups.len() >= 2 && r.items > r.groups.len() as u64;
    let offered = scored.clustered_items > 0 || groups_repeat || chosen.is_some();
    if !offered {
        return ().into_any();
    }
    let on_cluster = move |ev: web_sys::Event| {
        let v = event_target_value(&ev);
        client::recluster(state, id, (!v.is_empty()).then_some(v));
    };
    let option = |value: &'static str, label: String| {
        let selected = chosen.as_deref() == Some(value);
        view! { <option value=value selected=selected>{label}</option> }
    };
    let file_field = (scored.clustered_items > 0).then(|| {
        option(
            "cluster",
            format!(
                "the file's field ({} items)",
                fmt::count(scored.clustered_items)
            ),
        )
    });
    let by_group = groups_repeat.then(|| option("group", "by group".to_string()));
    let body = match &r.intervals.clustered {
        None => view! {
            <p class="muted" data-testid="planning-hint">
                "Questions that share a passage, a task or an image are not independent, and counting them as such makes every error bar too narrow. Choose which items belong together to see error bars that count them, and the smallest difference these items can detect."
            </p>
        }
        .into_any(),
        Some(c) => {
            let head = c
                .figures
                .0
                .iter()
                .find(|(n, _)| n == "metrics.accuracy")
                .or_else(|| c.figures.0.first())
                .map(|(n, f)| sentence(c, n, f));
            let rows = c
                .figures
                .0
                .iter()
                .map(|(name, f)| {
                    view! {
                        <tr data-figure=name.clone() data-se=f.se.to_string() data-mde=f.mde.to_string()>
                            <th scope="row">{name.clone()}</th>
                            <td class="num">{fmt::show(Some(f.value), kind(name))}</td>
                            <td class="num">{format!("± {}", width(f.half_width, name))}</td>
                            <td class="num">{width(f.mde, name)}</td>
                            <td class="num">{fmt::number(f.design_effect, 2)}</td>
                            <td class="num">{fmt::count(f.items_to_halve)}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <p data-testid="planning-sentence">{head}</p>
                <div class="scroll">
                    <table class="figures planning">
                        <thead><tr>
                            <th scope="col">"figure"</th>
                            <th class="num" scope="col">"value"</th>
                            <th class="num" scope="col">"95% interval"</th>
                            <th class="num" scope="col">"detectable (80% power)"</th>
                            <th class="num" scope="col">"design effect"</th>
                            <th class="num" scope="col">"items to halve it"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
            .into_any()
        }
    };
    view! {
        <section class="panel planning" data-testid="planning">
            <h3>"How sure, and how many items"</h3>
            <label class="cluster">
                "Items that belong together "
                <select on:change=on_cluster data-testid="cluster">
                    <option value="" selected=chosen.is_none()>"as the file says"</option>
                    {file_field}
                    {by_group}
                    {option("none", "none: every item independent".to_string())}
                </select>
            </label>
            {body}
        </section>
    }
    .into_any()
}
