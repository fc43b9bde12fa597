//! The report's header: the model, the profile (changeable), items scored and skipped, how fast
//! the device read them, and (folded) the files with their detected formats.

use super::client;
use super::fmt;
use super::protocol::Scored;
use super::state::use_state;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn ReportHeader(id: u32, scored: Arc<Scored>) -> impl IntoView {
    let state = use_state();
    let r = &scored.report;
    let chosen = state.run(id).and_then(|run| run.profile);
    let auto_label = format!("from the file ({})", r.profile);
    let on_profile = move |ev: web_sys::Event| {
        let v = event_target_value(&ev);
        client::rescore(state, id, (!v.is_empty()).then_some(v));
    };
    let profile_options = {
        let chosen = chosen.clone();
        move || {
            state
                .profiles
                .get()
                .into_iter()
                .map(|p| {
                    let selected = chosen.as_deref() == Some(p.name.as_str());
                    view! { <option value=p.name.clone() selected=selected title=p.describe>{p.name.clone()}</option> }
                })
                .collect_view()
        }
    };
    let speed = (scored.millis > 0.0).then(|| {
        format!(
            "read {} in {:.2} s on this device ({}/s)",
            fmt::bytes(scored.bytes),
            scored.millis / 1000.0,
            fmt::bytes(scored.bytes / (scored.millis / 1000.0))
        )
    });
    let files = r
        .files
        .iter()
        .map(|f| {
            let format = match &f.version {
                Some(v) => format!("{} {v}", f.format),
                None => f.format.clone(),
            };
            let mut counts = format!("{} items", fmt::count(f.items));
            if f.skipped > 0 {
                counts.push_str(&format!(", {} skipped", fmt::count(f.skipped)));
            }
            if f.not_applicable > 0 {
                counts.push_str(&format!(", {} not applicable", fmt::count(f.not_applicable)));
            }
            let mapping = f.mapping.clone();
            view! {
                <li>
                    <span class="file-name">{f.name.clone()}</span>
                    " · " <span class="format" data-testid="format">{format}</span>
                    " · " <span class="muted">{counts}</span>
                    {(!mapping.is_empty()).then(|| view! {
                        <ul class="mapping">{mapping.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                    })}
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="panel report-header" data-testid="report-header" data-profile=r.profile.clone() data-bytes=scored.bytes.to_string() data-millis=scored.millis.to_string()>
            <div class="model-line">
                <h2 data-testid="model">{r.model.clone().unwrap_or_else(|| "model not named in the file".to_string())}</h2>
                <label class="profile">
                    "Profile "
                    <select on:change=on_profile data-testid="profile">
                        <option value="" selected=chosen.is_none()>{auto_label}</option>
                        {profile_options}
                    </select>
                </label>
            </div>
            <p class="counts">
                <span data-figure="items" data-value=r.items.to_string()>{fmt::count(r.items)}</span>
                " items scored · "
                <span data-figure="skipped" data-value=r.skipped.to_string()>{fmt::count(r.skipped)}</span>
                " skipped"
                {r.benchmark.clone().map(|b| format!(" · benchmark {b}"))}
            </p>
            // Which format each file was read as, and how its fields were mapped: behind a
            // disclosure, so that on a phone the headline figures follow the model's name.
            <details class="files-read">
                <summary class="muted">"How the files were read"</summary>
                {speed.map(|s| view! { <p class="muted small">{s}</p> })}
                <ul class="files">{files}</ul>
            </details>
            {(scored.dropped > 0).then(|| view! {
                <p class="muted small">{format!(
                    "The item explorer keeps the first {} items; {} more were scored but are not listed.",
                    fmt::count(scored.kept), fmt::count(scored.dropped)
                )}</p>
            })}
        </section>
    }
}
