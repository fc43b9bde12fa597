//! Conditioning against mixing: every calibration figure under both readings, with the difference.

use super::fmt::{self, Kind};
use crate::metrics::calibration::CalibrationFigures;
use crate::Report;
use leptos::prelude::*;

type Getter = fn(&CalibrationFigures) -> Option<f64>;

/// The rows: key, label, what it is, the figure.
pub const ROWS: [(&str, &str, &str, Getter); 5] = [
    (
        "ece",
        "ECE",
        "10 equal-width bins, top-label confidence",
        |f| f.ece,
    ),
    (
        "ece_em",
        "ECE equal-mass",
        "HELM's ece_10_bin: 10 bins of equal count",
        |f| f.ece_em,
    ),
    (
        "brier",
        "Brier",
        "squared error against the one-hot gold, averaged over options",
        |f| f.brier,
    ),
    ("epa", "EPA", "mean probability on the gold option", |f| {
        f.epa
    }),
    ("nll", "NLL", "mean −ln q[gold], floored at 1e-15", |f| {
        f.nll
    }),
];

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
                    <td class="num" data-figure=format!("conditioning.{key}") data-value=fmt::exact(a)>{fmt::show(a, Kind::Score)}</td>
                    <td class="num" data-figure=format!("mixing.{key}") data-value=fmt::exact(b)>{fmt::show(b, Kind::Score)}</td>
                    <td class="num diff">{fmt::diff(a, b, Kind::Score)}</td>
                    <td class="muted small">{what}</td>
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
            <div class="scroll"><table class="figures">
                <thead>
                    <tr><th></th><th class="num">"conditioning"</th><th class="num">"mixing"</th><th class="num">"mixing − cond."</th><th></th></tr>
                </thead>
                <tbody>
                    {rows}
                    <tr>
                        <th scope="row">"items"</th>
                        <td class="num" data-figure="conditioning.items" data-value=c.items.to_string()>{fmt::count(c.items)}</td>
                        <td class="num" data-figure="mixing.items" data-value=m.items.to_string()>{fmt::count(m.items)}</td>
                        <td></td>
                        <td class="muted small">"items with usable probabilities"</td>
                    </tr>
                </tbody>
            </table></div>
        </section>
    }
}
