//! I and C (SPEC §5): the two scores, each item type's competence and calibration parts, and the
//! tiers behind them, with the per-modality scopes when the file has them.

use super::fmt::{self, Kind};
use crate::metrics::ic::figures::{IcFigures, ScopeFigures, Tiers, TypeFigures};
use leptos::prelude::*;

fn tier_rows(tiers: &Tiers) -> impl IntoView {
    tiers
        .present()
        .into_iter()
        .map(|(name, t)| {
            let base = match (t.chance, t.nmae, t.nmae_chance) {
                (Some(c), _, _) => format!(
                    "accuracy {} vs chance {}",
                    fmt::show(t.accuracy, Kind::Share),
                    fmt::show(Some(c), Kind::Share)
                ),
                (None, Some(n), nc) => format!(
                    "nMAE {} vs chance {}",
                    fmt::show(Some(n), Kind::Score),
                    fmt::show(nc, Kind::Score)
                ),
                _ => String::new(),
            };
            view! {
                <tr class="tier">
                    <th scope="row">{format!("  {name}")}</th>
                    <td class="num" data-value=fmt::exact(t.cc)>{fmt::show(t.cc, Kind::Points)}</td>
                    <td></td>
                    <td class="num">{fmt::count(t.items)}</td>
                    <td class="num">{format!("{:.2}", t.weight)}</td>
                    <td class="muted small parts" colspan="2"><span class="part">{base}</span></td>
                </tr>
            }
        })
        .collect_view()
}

fn type_rows(name: &'static str, t: &TypeFigures) -> impl IntoView {
    let mut parts = Vec::new();
    if let Some(e) = t.ece {
        let of = match t.ece_confidence.as_str() {
            "q_yes" => "on q_yes",
            _ => "top-label",
        };
        let over = match t.ece_scope.as_str() {
            "hard_tier" => format!(", {} hard-tier items", fmt::count(t.ece_items)),
            "type_fallback" => ", every item: no hard-tier item".to_string(),
            _ => String::new(),
        };
        parts.push(format!(
            "ECE {} ({of}{over})",
            fmt::show(Some(e), Kind::Score)
        ));
    }
    if let Some(v) = t.tvd {
        parts.push(format!("TVD {}", fmt::show(Some(v), Kind::Score)));
    }
    if let Some(v) = t.rps {
        parts.push(format!("RPS {}", fmt::show(Some(v), Kind::Score)));
    }
    if let Some(v) = t.brier {
        parts.push(format!("Brier {}", fmt::show(Some(v), Kind::Score)));
    }
    if let Some(v) = t.nll {
        parts.push(format!("NLL {}", fmt::show(Some(v), Kind::Score)));
    }
    if let Some(v) = t.abstention_rate {
        parts.push(format!("abstains {}", fmt::show(Some(v), Kind::Share)));
    }
    let splits = t.splits.as_ref().map(|s| {
        format!(
            "open {} · sealed {}",
            fmt::show(s.open.cc, Kind::Points),
            fmt::show(s.sealed.cc, Kind::Points)
        )
    });
    view! {
        <tr class="type" data-type=name>
            <th scope="row">{name}</th>
            <td class="num" data-figure=format!("ic.{name}.cc") data-value=fmt::exact(t.cc)>{fmt::show(t.cc, Kind::Points)}</td>
            <td class="num" data-figure=format!("ic.{name}.c") data-value=fmt::exact(t.c)>{fmt::show(t.c, Kind::Points)}</td>
            <td class="num">{fmt::count(t.items)}</td>
            <td></td>
            <td class="num">{fmt::count(t.invalid)}</td>
            // Each part whole on one line; parts wrap between each other, never inside one.
            <td class="muted small parts">{parts.into_iter().chain(splits).map(|p| view! { <span class="part">{p}</span> }).collect_view()}</td>
        </tr>
        {tier_rows(&t.tiers)}
    }
}

fn scope_table(s: &ScopeFigures) -> impl IntoView {
    let t = &s.types;
    view! {
        <div class="scroll"><table class="figures">
            <thead>
                <tr>
                    <th>"type / tier"</th><th class="num">"CC"</th><th class="num">"C"</th>
                    <th class="num">"items"</th><th class="num">"weight"</th><th class="num">"invalid"</th><th>"parts"</th>
                </tr>
            </thead>
            <tbody>
                {t.choice.as_ref().map(|x| type_rows("choice", x))}
                {t.binary.as_ref().map(|x| type_rows("binary", x))}
                {t.rating.as_ref().map(|x| type_rows("rating", x))}
            </tbody>
        </table></div>
    }
}

#[component]
pub fn Ic(ic: IcFigures) -> impl IntoView {
    let o = &ic.overall;
    let scopes = [("text", &ic.scopes.text), ("image", &ic.scopes.image)]
        .into_iter()
        .filter_map(|(n, s)| s.as_ref().map(|s| (n, s)))
        .map(|(n, s)| {
            view! {
                <details class="scope">
                    <summary>{format!(
                        "{n}: I {} · C {} · {} items",
                        fmt::show(s.i, Kind::Points),
                        fmt::show(s.c, Kind::Points),
                        fmt::count(s.items)
                    )}</summary>
                    {scope_table(s)}
                </details>
            }
        })
        .collect_view();
    let out_of_scope = (!ic.out_of_scope.is_empty()).then(|| {
        let parts: Vec<String> = ic
            .out_of_scope
            .iter()
            .map(|(t, n)| format!("{n} {t}"))
            .collect();
        view! { <p class="muted small">{format!("Kept out of scope by the profile: {}.", parts.join(", "))}</p> }
    });
    view! {
        <section class="panel" data-testid="ic">
            <h3>"I and C"</h3>
            <p class="counts">
                "I " <strong data-figure="ic.i" data-value=fmt::exact(o.i)>{fmt::show(o.i, Kind::Points)}</strong>
                " · I weighted 50/25/25 " <strong data-figure="ic.i_weighted" data-value=fmt::exact(o.i_weighted)>{fmt::show(o.i_weighted, Kind::Points)}</strong>
                " · C " <strong data-figure="ic.c" data-value=fmt::exact(o.c)>{fmt::show(o.c, Kind::Points)}</strong>
                <span class="muted">{format!(" · {} items of choice, binary and rating type", fmt::count(o.items))}</span>
            </p>
            {o.pooled_ece.map(|e| view! {
                <p class="small">
                    "Pooled ECE (choice and binary together, top-label) "
                    <strong data-figure="ic.pooled_ece" data-value=fmt::exact(Some(e))>{fmt::show(Some(e), Kind::Score)}</strong>
                    <span class="muted">{format!(" over {} items: the choice ECE term of C; binary adds no C of its own.", fmt::count(o.pooled_items))}</span>
                </p>
            })}
            {scope_table(o)}
            <p class="muted small">"Inside I/C the choice and rating ECE are top-label (max q, right when the first arg-max is gold); binary decides and bins on the conditioned q_yes. The calibration panels use q[answer]."</p>
            {scopes}
            {out_of_scope}
        </section>
    }
}
