//! Notes on reading the figures, and the figures the producing tool wrote itself, shown beside ours.

use super::fmt::{self, Kind};
use crate::reported::Reported;
use leptos::prelude::*;

#[component]
pub fn Notes(notes: Vec<String>, reported: Vec<Reported>) -> impl IntoView {
    if notes.is_empty() && reported.is_empty() {
        return ().into_any();
    }
    let reported = (!reported.is_empty()).then(|| {
        let rows = reported
            .into_iter()
            .map(|r| {
                view! {
                    <tr>
                        <td>{r.source}</td>
                        <td>{r.name}</td>
                        <td>{r.scope}</td>
                        <td class="num" data-value=fmt::exact(Some(r.value))>{fmt::show(Some(r.value), Kind::Score)}</td>
                        <td class="muted small">{r.note}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <details class="reported">
                <summary>"Figures the tool itself reported"</summary>
                <div class="scroll"><table class="figures">
                    <thead><tr><th>"tool"</th><th>"figure"</th><th>"scope"</th><th class="num">"value"</th><th>"how it relates to ours"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table></div>
            </details>
        }
    });
    view! {
        <section class="panel notes" data-testid="notes">
            <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            {reported}
        </section>
    }
    .into_any()
}
