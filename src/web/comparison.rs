//! Models side by side: one column per scored run, the headline and calibration figures in rows,
//! and the runs' reliability curves overlaid; then each pair's differences (src/web/deltas.rs).

use super::deltas::Deltas;
use super::export::Export;
use super::fmt::{self, Kind};
use super::protocol::Text;
use super::reliability::{Reliability, Series};
use super::state::{titles, use_state, use_toggles, Binning, Reading, Run};
use crate::table::{Cell, Table};
use crate::Report;
use leptos::prelude::*;

type Getter = fn(&Report) -> Option<f64>;

/// Rows: label, kind, figure.
const ROWS: [(&str, Kind, Getter); 15] = [
    ("items", Kind::Score, |r| Some(r.items as f64)),
    ("skipped", Kind::Score, |r| Some(r.skipped as f64)),
    ("I", Kind::Points, |r| {
        r.ic.as_ref().and_then(|i| i.overall.i)
    }),
    ("C", Kind::Points, |r| {
        r.ic.as_ref().and_then(|i| i.overall.c)
    }),
    ("accuracy", Kind::Share, |r| r.metrics.accuracy),
    ("normalized", Kind::Score, |r| r.metrics.normalized),
    ("macro accuracy", Kind::Share, |r| r.metrics.macro_accuracy),
    ("invalid share", Kind::Share, |r| r.metrics.invalid_share),
    ("outside mass", Kind::Score, |r| r.metrics.outside_mass),
    ("ECE conditioning", Kind::Score, |r| r.conditioning.ece),
    ("ECE mixing", Kind::Score, |r| r.mixing.ece),
    ("ECE equal-mass", Kind::Score, |r| r.conditioning.ece_em),
    ("Brier conditioning", Kind::Score, |r| r.conditioning.brier),
    ("EPA conditioning", Kind::Score, |r| r.conditioning.epa),
    ("NLL conditioning", Kind::Score, |r| r.conditioning.nll),
];

fn cell(v: Option<f64>, kind: Kind, label: &str) -> String {
    if matches!(label, "items" | "skipped") {
        v.map_or_else(|| fmt::NA.to_string(), |n| fmt::count(n as u64))
    } else {
        fmt::show(v, kind)
    }
}

fn table(runs: &[Run]) -> Table {
    let mut columns = vec!["figure".to_string()];
    columns.extend(titles(runs));
    let rows = ROWS
        .iter()
        .filter(|(_, _, get)| {
            runs.iter()
                .any(|r| r.scored().is_some_and(|s| get(&s.report).is_some()))
        })
        .map(|&(label, _, get)| {
            let mut row = vec![Cell::from(label)];
            row.extend(
                runs.iter()
                    .map(|r| Cell::Num(r.scored().and_then(|s| get(&s.report)))),
            );
            row
        })
        .collect();
    Table {
        title: "Comparison".to_string(),
        columns,
        rows,
    }
}

#[component]
pub fn Comparison() -> impl IntoView {
    let state = use_state();
    let toggles = use_toggles();
    let runs = Memo::new(move |_| state.to_compare());
    let series = Signal::derive(move || {
        let mixing = toggles.reading.get() == Reading::Mixing;
        let mass = toggles.binning.get() == Binning::EqualMass;
        let list = runs.get();
        list.iter()
            .zip(titles(&list))
            .filter_map(|(r, name)| {
                let s = r.scored()?;
                let bins = match (mixing, mass) {
                    (false, false) => s.report.conditioning.bins.clone(),
                    (true, false) => s.report.mixing.bins.clone(),
                    (false, true) => s.report.conditioning.bins_em.clone(),
                    (true, true) => s.report.mixing.bins_em.clone(),
                };
                Some(Series { name, bins })
            })
            .collect::<Vec<Series>>()
    });
    let caption = Signal::derive(move || {
        let reading = if toggles.reading.get() == Reading::Mixing {
            "mixing"
        } else {
            "conditioning"
        };
        let binning = if toggles.binning.get() == Binning::EqualMass {
            "equal-mass"
        } else {
            "equal-width"
        };
        format!("Reliability of each run, {reading}, {binning} bins; the dashed diagonal is perfect calibration.")
    });
    view! {
        <section class="panel comparison" id="comparison" data-testid="comparison">
            <h2>"Side by side"</h2>
            {move || {
                let list = runs.get();
                let t = table(&list);
                let csv = Text::new(&crate::table::csv(std::slice::from_ref(&t)));
                let md = Text::new(&crate::table::markdown(std::slice::from_ref(&t)));
                let head = t.columns.iter().skip(1).map(|c| view! { <th class="num" scope="col">{c.clone()}</th> }).collect_view();
                let body = t.rows.iter().map(|row| {
                    let label = match row.first() { Some(Cell::Text(s)) => s.clone(), _ => String::new() };
                    let kind = ROWS.iter().find(|r| r.0 == label).map_or(Kind::Score, |r| r.1);
                    // Each value names its run, for the stacked rows of a narrow screen.
                    let cells = row.iter().skip(1).zip(t.columns.iter().skip(1)).map(|(c, run)| {
                        let v = match c { Cell::Num(v) => *v, Cell::Text(_) => None };
                        view! { <td class="num" data-label=run.clone() data-value=fmt::exact(v)>{cell(v, kind, &label)}</td> }
                    }).collect_view();
                    view! { <tr data-figure=label.clone()><th scope="row">{label.clone()}</th>{cells}</tr> }
                }).collect_view();
                view! {
                    <div class="scroll">
                        <table class="figures stack">
                            <thead><tr><th></th>{head}</tr></thead>
                            <tbody>{body}</tbody>
                        </table>
                    </div>
                    <Export stem="comparison" json=None csv=csv md=md svg="reliability-comparison" />
                }
            }}
            <Reliability id="reliability-comparison" series=series caption=caption />
        </section>
        <Deltas />
    }
}
