//! The planning panel: which items belong together (the cluster menu), and what that means for
//! the run's error bars in a reader's words: how far each mean figure reaches, the smallest
//! difference the items can detect, and how many items would halve the interval. The worker lays
//! them out (`html::planning`) from the report's `intervals.clustered`, the CLI's `score --cluster`.

use super::client;
use super::fmt;
use super::protocol::Scored;
use super::state::use_state;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn Planning(id: u32, scored: Arc<Scored>) -> impl IntoView {
    let state = use_state();
    let r = &scored.report;
    let chosen = state.run(id).and_then(|run| run.cluster);
    let groups_repeat = r.groups.len() >= 2 && r.items > r.groups.len() as u64;
    // Any run of several items may have a field that clusters them (a passage, a source
    // document), which only the user can name: the field box is always offered.
    let offered = r.items >= 2 || chosen.is_some();
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
    // A field the user typed: the menu shows it chosen, the box holds its name.
    let typed = chosen
        .clone()
        .filter(|c| !["cluster", "group", "none"].contains(&c.as_str()));
    let typed_option = typed.clone().map(|name| {
        let label = format!("the field {name}");
        view! { <option value=name.clone() selected=true>{label}</option> }
    });
    let on_field = move |ev: web_sys::Event| {
        let v = event_target_value(&ev).trim().to_string();
        client::recluster(state, id, (!v.is_empty()).then_some(v));
    };
    let body = match &scored.planning {
        None => view! {
            <p class="muted" data-testid="planning-hint">
                "Questions that share a passage, a task or an image are not independent, and counting them as such makes every error bar too narrow. Choose which items belong together to see error bars that count them, and the smallest difference these items can detect."
            </p>
        }
        .into_any(),
        Some(tree) => {
            let tree = tree.clone();
            let at = NodeRef::<leptos::html::Div>::new();
            // The worker's tree, mounted once the element is in the page: text set as text.
            Effect::new(move |_| {
                if let Some(el) = at.get() {
                    super::leaderboard::mount(&el, &tree);
                }
            });
            view! { <div node_ref=at></div> }.into_any()
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
                    {typed_option}
                </select>
            </label>
            <label class="cluster-field">
                " or a field of the items "
                <input
                    type="text"
                    data-testid="cluster-field"
                    placeholder="passage, metadata.KEY, doc.KEY"
                    value=typed.unwrap_or_default()
                    on:change=on_field
                />
            </label>
            {body}
        </section>
    }
    .into_any()
}
