//! The widget's drop zone, shown when the element has no `src`: a reader drops their own results
//! file (or picks it) and sees it scored under the page's profile. It wears the app's drop-zone
//! styles; unlike the app's, it offers no samples and makes one run of whatever is dropped.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, FileList, HtmlInputElement};

fn list(files: Option<FileList>) -> Vec<File> {
    let Some(files) = files else {
        return Vec::new();
    };
    (0..files.length()).filter_map(|i| files.get(i)).collect()
}

#[component]
pub fn DropTarget(
    /// Receives the files of a drop or a pick (never empty).
    on_files: Callback<Vec<File>>,
    /// After a first report: a slim bar above it.
    #[prop(into)]
    compact: Signal<bool>,
    /// The profile the page chose, named in the invitation.
    #[prop(into)]
    profile: Signal<Option<String>>,
) -> impl IntoView {
    let over = RwSignal::new(false);
    let input = NodeRef::<leptos::html::Input>::new();
    let take = move |files: Vec<File>| {
        if !files.is_empty() {
            on_files.run(files);
        }
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        over.set(false);
        take(list(ev.data_transfer().and_then(|d| d.files())));
    };
    let on_pick = move |ev: web_sys::Event| {
        let Some(el) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let files = list(el.files());
        el.set_value("");
        take(files);
    };
    let open_picker = move |_| {
        if let Some(el) = input.get() {
            el.click();
        }
    };
    let rules = move || match profile.get() {
        Some(p) => format!("It is scored under the {p} profile's rules. "),
        None => "The file's own header or benchmark field decides the rules. ".to_string(),
    };
    view! {
        <section
            class="drop sl-drop"
            class:over=move || over.get()
            class:compact=move || compact.get()
            data-testid="widget-drop"
            on:dragenter=move |ev: web_sys::DragEvent| { ev.prevent_default(); over.set(true); }
            on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); over.set(true); }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <p class="drop-title">"Drop your results file here"</p>
            <p class="drop-sub">
                <button class="primary" on:click=open_picker>"Choose file…"</button>
                <input
                    node_ref=input
                    type="file"
                    multiple
                    class="visually-hidden"
                    tabindex="-1"
                    aria-label="Results file"
                    data-testid="widget-file-input"
                    on:change=on_pick
                />
            </p>
            <p class="muted small">
                {rules}
                "Nothing is uploaded: the file is read and scored by WebAssembly inside this page."
            </p>
        </section>
    }
}
