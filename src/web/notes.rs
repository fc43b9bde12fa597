//! Notes on reading the figures, below the figures they explain: a few plain sentences in the
//! words of the benchmark's reader, the core's notes (how each figure is computed) behind a
//! disclosure, and the figures the producing tool wrote itself, shown beside ours.

use super::fmt::{self, Kind};
use crate::Report;
use leptos::prelude::*;

/// What the figures shown mean, for someone who reads the benchmark rather than the code.
fn plain(r: &Report) -> Vec<&'static str> {
    let mut out = Vec::new();
    if r.ic.is_some() {
        out.push("I says how far the answers are above guessing (0 = guessing, 100 = always right); C says how far the model's stated confidence can be trusted (100 = exactly as sure as it is right).");
    }
    if r.rewardbench.is_some() {
        out.push("A pair counts as right when the reward model scores the chosen response above the rejected one; a tie counts as wrong.");
    }
    if r.conditioning.items > 0 {
        out.push("ECE is the average gap between how sure the model is and how often it is right: 0 is perfect, and a small sample makes it noisy.");
    }
    out
}

#[component]
pub fn Notes(report: Report) -> impl IntoView {
    let plain = plain(&report);
    let (notes, reported) = (report.notes, report.reported);
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
    let technical = (!notes.is_empty()).then(|| {
        view! {
            <details class="technical">
                <summary>"How they are computed"</summary>
                <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </details>
        }
    });
    view! {
        <section class="panel notes" data-testid="notes">
            <h3>"Reading these figures"</h3>
            {plain.into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
            {technical}
            {reported}
        </section>
    }
    .into_any()
}
