//! Progress of a run being read: bytes done of all, the file being read, and Cancel.

use super::client;
use super::fmt;
use super::state::{use_state, Status};
use leptos::prelude::*;

#[component]
pub fn Progress(id: u32) -> impl IntoView {
    let state = use_state();
    let status = Memo::new(move |_| state.run(id).map(|r| r.status));
    let numbers = move || match status.get() {
        Some(Status::Reading { file, done, total }) => (file, done, total),
        _ => (String::new(), 0.0, 0.0),
    };
    view! {
        <section class="panel progress" aria-live="polite" data-testid="progress">
            <p>
                {move || {
                    let (file, done, total) = numbers();
                    if total > 0.0 {
                        format!("Scoring {file}: {} of {}", fmt::bytes(done), fmt::bytes(total))
                    } else {
                        "Starting the scorer…".to_string()
                    }
                }}
            </p>
            <progress
                max=move || numbers().2.max(1.0)
                value=move || numbers().1
                aria-label="Bytes read"
            ></progress>
            <button on:click=move |_| client::cancel(id) data-testid="cancel">"Cancel"</button>
        </section>
    }
}
