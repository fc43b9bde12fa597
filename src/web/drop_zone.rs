//! The landing: a drop zone that takes one or several files, a file picker, and a button for
//! each sample the site ships (listed in `samples/index.json`, written at build time). Once runs
//! are shown it folds to one line (the files, "Add files…", "Start over", the samples behind a
//! disclosure), so that the report's figures come first on the screen.

use super::client;
use super::folders;
use super::grouping::offer;
use super::state::use_state;
use crate::runs::Grouping;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, FileList, HtmlInputElement};

/// One entry of the samples manifest: a file, or a folder of files read as one run.
#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Sample {
    name: String,
    /// What the sample is, in a few words (samples/about.json).
    #[serde(default)]
    about: String,
    files: Vec<String>,
    bytes: f64,
    /// Read the files as one run; false for files of different models, to compare.
    together: bool,
}

fn list(files: Option<FileList>) -> Vec<File> {
    let Some(files) = files else {
        return Vec::new();
    };
    (0..files.length()).filter_map(|i| files.get(i)).collect()
}

async fn fetch(url: &str) -> Result<web_sys::Response, wasm_bindgen::JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let resp: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await?
        .dyn_into()?;
    if resp.ok() {
        Ok(resp)
    } else {
        Err(format!("{url}: HTTP {}", resp.status()).into())
    }
}

async fn manifest() -> Result<Vec<Sample>, wasm_bindgen::JsValue> {
    let json = JsFuture::from(fetch("samples/index.json").await?.json()?).await?;
    Ok(serde_wasm_bindgen::from_value(json)?)
}

async fn sample_files(sample: &Sample) -> Result<Vec<File>, wasm_bindgen::JsValue> {
    let mut files = Vec::new();
    for path in &sample.files {
        let blob = JsFuture::from(fetch(&format!("samples/{path}")).await?.blob()?).await?;
        let name = path.rsplit('/').next().unwrap_or(path);
        files.push(File::new_with_blob_sequence(
            &js_sys::Array::of1(&blob),
            name,
        )?);
    }
    Ok(files)
}

#[component]
pub fn DropZone() -> impl IntoView {
    let state = use_state();
    let over = RwSignal::new(false);
    let samples = RwSignal::new(Vec::<Sample>::new());
    let input = NodeRef::<leptos::html::Input>::new();
    let folder_input = NodeRef::<leptos::html::Input>::new();
    spawn_local(async move {
        match manifest().await {
            Ok(list) => samples.set(list),
            Err(e) => web_sys::console::warn_2(&"scorelens: no samples list".into(), &e),
        }
    });
    let compact = move || state.runs.with(|r| !r.is_empty());
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        over.set(false);
        let Some(data) = ev.data_transfer() else {
            return;
        };
        let dropped = folders::dropped(&data);
        spawn_local(async move {
            offer(state, folders::files(dropped).await, Grouping::Found);
        });
    };
    let on_pick = move |ev: web_sys::Event| {
        let Some(el) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        // Files chosen one by one go by their names; a chosen folder's by their paths in it.
        let files = folders::chosen(list(el.files()));
        el.set_value("");
        offer(state, files, Grouping::Found);
    };
    // The scoring worker (its wasm fetched and compiled) starts while the user chooses a file
    // or drags one over the page, so that the first drop does not wait for it.
    let open_picker = move |_| {
        client::warm_up();
        if let Some(el) = input.get() {
            el.click();
        }
    };
    let open_folder = move |_| {
        client::warm_up();
        if let Some(el) = folder_input.get() {
            el.click();
        }
    };
    // Closes every run and forgets the drop: the page as it was before the first file.
    let start_over = move |_| {
        for id in state
            .runs
            .with_untracked(|r| r.iter().map(|r| r.id).collect::<Vec<_>>())
        {
            client::close(state, id);
        }
        state.grouping.set(None);
        state.chosen.set(None);
    };
    let files = move || {
        state.runs.with(|r| {
            r.iter()
                .map(|r| r.label.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
    };
    let try_sample = move |sample: Sample| {
        spawn_local(async move {
            match sample_files(&sample).await {
                Ok(files) => {
                    let paths = sample.files.iter().cloned();
                    let how = if sample.together {
                        Grouping::OneRun
                    } else {
                        Grouping::PerFile
                    };
                    offer(state, files.into_iter().zip(paths).collect(), how)
                }
                Err(e) => web_sys::console::error_2(&"scorelens: sample not loaded".into(), &e),
            }
        })
    };
    view! {
        <section
            class="drop"
            class:over=move || over.get()
            class:compact=compact
            data-testid="drop-zone"
            on:dragenter=move |ev: web_sys::DragEvent| { ev.prevent_default(); over.set(true); client::warm_up(); }
            on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); over.set(true); }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <p class="drop-title">"Drop predictions files or a folder here"</p>
            <p class="drop-files" title=files>{files}</p>
            <p class="drop-sub">
                <button class="primary" on:click=open_picker>{move || if compact() { "Add files…" } else { "Choose files…" }}</button>
                <input
                    node_ref=input
                    type="file"
                    multiple
                    class="visually-hidden"
                    tabindex="-1"
                    aria-label="Predictions files"
                    data-testid="file-input"
                    on:change=on_pick
                />
                " "
                <button on:click=open_folder>"Choose a folder…"</button>
                <input
                    node_ref=folder_input
                    type="file"
                    prop:webkitdirectory=true
                    class="visually-hidden"
                    tabindex="-1"
                    aria-label="A folder of predictions files"
                    data-testid="folder-input"
                    on:change=on_pick
                />
                " "
                <button class="start-over" on:click=start_over>"Start over"</button>
            </p>
            <Show when=move || samples.with(|s| !s.is_empty())>
                <details class="samples" prop:open=move || !compact()>
                    <summary class="muted">"Try a sample"</summary>
                    <div class="sample-list" role="group" aria-label="Samples">
                    {move || samples.get().into_iter().map(|s| {
                        let title = format!("{}: {} ({})", s.about, s.files.join(", "), super::fmt::bytes(s.bytes));
                        let (name, key, about) = (s.name.clone(), s.name.clone(), s.about.clone());
                        view! {
                            <button class="sample" title=title data-sample=key on:click=move |_| try_sample(s.clone())>
                                <span class="sample-about">{about}</span>
                                <span class="sample-file">{name}</span>
                            </button>
                        }
                    }).collect_view()}
                    </div>
                </details>
            </Show>
            <p class="muted small">
                "Nothing is uploaded: the files are read and scored by WebAssembly inside this page, "
                "and no request leaves it. "
                <a href="#formats">"Which formats are read"</a>
            </p>
        </section>
    }
}
