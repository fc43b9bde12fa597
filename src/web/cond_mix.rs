//! Conditioning against mixing: every calibration figure under both readings, with the difference.
//! On a phone the table stacks: each figure a block, each number under its column's name
//! (`data-label`, shown by the stylesheet), so that nothing scrolls sideways.

use super::fmt::{self, Kind};
use crate::Report;
use leptos::prelude::*;

pub use crate::report::calibration_rows::ROWS;

#[component]
pub fn CondMix(report: Report) -> impl IntoView {
    let (c, m) = (&report.conditioning, &report.mixing);
    let rows = ROWS
        .iter()
        .map(|&(key, label, what, get)| {
            let (a, b) = (get(c), get(m));
            view! {
                <tr>
                    <th scope="row" title=what>{label}</th>
                    <td class="num" data-label="conditioning" data-figure=format!("conditioning.{key}") data-value=fmt::exact(a)>{fmt::show(a, Kind::Score)}</td>
                    <td class="num" data-label="mixing" data-figure=format!("mixing.{key}") data-value=fmt::exact(b)>{fmt::show(b, Kind::Score)}</td>
                    <td class="num diff" data-label="mixing − cond.">{fmt::diff(a, b, Kind::Score)}</td>
                    <td class="muted small what">{what}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="panel" data-testid="cond-mix">
            <h3>"Conditioning versus mixing"</h3>
            <p class="muted small">
                "Conditioning renormalises the probabilities over the valid options; mixing spreads the mass "
                "the model put outside them evenly over the options. Neither changes the answer."
            </p>
            <div class="scroll"><table class="figures stack">
                <thead>
                    <tr><th></th><th class="num">"conditioning"</th><th class="num">"mixing"</th><th class="num">"mixing − cond."</th><th></th></tr>
                </thead>
                <tbody>
                    {rows}
                    <tr>
                        <th scope="row">"items"</th>
                        <td class="num" data-label="conditioning" data-figure="conditioning.items" data-value=c.items.to_string()>{fmt::count(c.items)}</td>
                        <td class="num" data-label="mixing" data-figure="mixing.items" data-value=m.items.to_string()>{fmt::count(m.items)}</td>
                        <td></td>
                        <td class="muted small what">"items with usable probabilities"</td>
                    </tr>
                </tbody>
            </table></div>
        </section>
    }
}
