//! Multi-select items: exact-set accuracy, precision, recall and F1, and the probability of the
//! gold set, over all such items and per modality.

use super::fmt::{self, Kind};
use crate::metrics::multi::{MultiFigures, MultiScopeFigures};
use leptos::prelude::*;

fn row(name: &'static str, m: &MultiScopeFigures) -> impl IntoView {
    view! {
        <tr data-scope=name>
            <th scope="row">{name}</th>
            <td class="num">{fmt::count(m.items)}</td>
            <td class="num" data-figure=format!("multi.{name}.exact_set_accuracy") data-value=fmt::exact(Some(m.exact_set_accuracy))>{fmt::show(Some(m.exact_set_accuracy), Kind::Share)}</td>
            <td class="num">{fmt::show(Some(m.precision), Kind::Score)}</td>
            <td class="num">{fmt::show(Some(m.recall), Kind::Score)}</td>
            <td class="num" data-figure=format!("multi.{name}.f1") data-value=fmt::exact(Some(m.f1))>{fmt::show(Some(m.f1), Kind::Score)}</td>
            <td class="num">{fmt::show(Some(m.invalid_share), Kind::Share)}</td>
            <td class="num">{fmt::show(m.p_gold_set, Kind::Score)}</td>
        </tr>
    }
}

#[component]
pub fn Multi(multi: MultiFigures) -> impl IntoView {
    view! {
        <section class="panel" data-testid="multi">
            <h3>"Multi-select"</h3>
            <div class="scroll">
                <table class="figures">
                    <thead><tr>
                        <th></th><th class="num">"items"</th><th class="num">"exact set"</th><th class="num">"precision"</th>
                        <th class="num">"recall"</th><th class="num">"F1"</th><th class="num">"invalid"</th><th class="num">"p(gold set)"</th>
                    </tr></thead>
                    <tbody>
                        {row("all", &multi.overall)}
                        {multi.scopes.text.as_ref().map(|m| row("text", m))}
                        {multi.scopes.image.as_ref().map(|m| row("image", m))}
                    </tbody>
                </table>
            </div>
            {(multi.overall.unusable_steps > 0).then(|| view! {
                <p class="muted small">{format!("{} items had steps that could not be used for p(gold set).", multi.overall.unusable_steps)}</p>
            })}
        </section>
    }
}
