//! The warnings panel: each bad line with its file, line number and reason, as plain text.

use crate::Warning;
use leptos::prelude::*;
use std::sync::Arc;

/// Lines shown before "show all".
const FIRST: usize = 100;

#[component]
pub fn WarningList(warnings: Arc<Vec<Warning>>) -> impl IntoView {
    let all = RwSignal::new(false);
    let n = warnings.len();
    if n == 0 {
        return ().into_any();
    }
    let title = if n == 1 {
        "1 warning".to_string()
    } else {
        format!("{n} warnings")
    };
    let list = warnings.clone();
    view! {
        <details class="panel warnings" open=n <= 20 data-testid="warnings">
            <summary>{title}</summary>
            <ul>
                {move || {
                    let shown = if all.get() { n } else { n.min(FIRST) };
                    list.iter().take(shown).map(|w| {
                        let place = match w.line {
                            Some(line) => format!("{}:{line}", w.file),
                            None => w.file.clone(),
                        };
                        view! { <li><code>{place}</code>" "{w.reason.clone()}</li> }
                    }).collect_view()
                }}
            </ul>
            <Show when=move || { !all.get() && (n > FIRST) }>
                <button class="link" on:click=move |_| all.set(true)>{format!("Show all {n}")}</button>
            </Show>
        </details>
    }
    .into_any()
}
