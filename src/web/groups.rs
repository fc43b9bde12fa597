//! The per-group table, sortable by any column; a group's name filters the item explorer.

use super::fmt::{self, Kind};
use super::state::use_state;
use crate::report::intervals::Intervals;
use crate::report::GroupFigures;
use leptos::prelude::*;
use std::cmp::Ordering;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Name,
    Items,
    Accuracy,
    Normalized,
    Invalid,
}

fn key(g: &GroupFigures, col: Col) -> Option<f64> {
    match col {
        Col::Name => None,
        Col::Items => Some(g.items as f64),
        Col::Accuracy => g.accuracy,
        Col::Normalized => g.normalized,
        Col::Invalid => g.invalid_share,
    }
}

fn compare(a: &GroupFigures, b: &GroupFigures, col: Col) -> Ordering {
    if col == Col::Name {
        return a.name.cmp(&b.name);
    }
    // Figures that do not apply sort below every number.
    match (key(a, col), key(b, col)) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| a.name.cmp(&b.name))
}

#[component]
pub fn Groups(groups: Arc<Vec<GroupFigures>>, intervals: Arc<Intervals>) -> impl IntoView {
    let state = use_state();
    let sort = RwSignal::new((Col::Name, true));
    let header = move |col: Col, label: &'static str, numeric: bool| {
        let aria = move || match sort.get() {
            (c, true) if c == col => "ascending",
            (c, false) if c == col => "descending",
            _ => "none",
        };
        view! {
            <th class:num=numeric aria-sort=aria scope="col">
                <button
                    class="sort"
                    data-sort=label
                    on:click=move |_| sort.update(|s| *s = if s.0 == col { (col, !s.1) } else { (col, col == Col::Name) })
                >
                    {label}
                    <span class="arrow" aria-hidden="true">{move || match sort.get() {
                        (c, true) if c == col => "▲",
                        (c, false) if c == col => "▼",
                        _ => "",
                    }}</span>
                </button>
            </th>
        }
    };
    let rows = move || {
        let (col, asc) = sort.get();
        let mut list: Vec<GroupFigures> = groups.as_ref().clone();
        list.sort_by(|a, b| {
            let o = compare(a, b, col);
            if asc {
                o
            } else {
                o.reverse()
            }
        });
        list.into_iter()
            .map(|g| {
                let name = g.name.clone();
                let ci = intervals
                    .wilson
                    .get(&format!("groups.{}.accuracy", g.name))
                    .map(|i| fmt::interval(i.lo, i.hi, Kind::Share));
                view! {
                    <tr data-group=g.name.clone()>
                        <th scope="row">
                            <button class="link" title="Show this group's items" on:click=move |_| state.group_filter.set(Some(name.clone()))>
                                {g.name.clone()}
                            </button>
                        </th>
                        <td class="num" data-value=g.items.to_string()>{fmt::count(g.items)}</td>
                        <td class="num" data-value=fmt::exact(g.accuracy)>{fmt::show(g.accuracy, Kind::Share)}</td>
                        <td class="num muted ci">{ci.unwrap_or_default()}</td>
                        <td class="num" data-value=fmt::exact(g.normalized)>{fmt::show(g.normalized, Kind::Score)}</td>
                        <td class="num" data-value=fmt::exact(g.invalid_share)>{fmt::show(g.invalid_share, Kind::Share)}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <section class="panel" data-testid="groups">
            <h3>"Groups"</h3>
            <div class="scroll">
                <table class="figures sortable">
                    <thead>
                        <tr>
                            {header(Col::Name, "group", false)}
                            {header(Col::Items, "items", true)}
                            {header(Col::Accuracy, "accuracy", true)}
                            <th class="num" scope="col">"95% Wilson"</th>
                            {header(Col::Normalized, "normalized", true)}
                            {header(Col::Invalid, "invalid", true)}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}
